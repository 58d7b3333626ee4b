"""The compiled medium bot (``sorry.fast._policy``) is ``sorry.bots``' MediumBot: the same
evaluation of every position (to 1e-9) and, with the same seeds, the same move at every
decision of whole games in every variant, against itself and against a random player."""

from __future__ import annotations

import numpy as np
import pytest

from engine_helpers import play_out
from fast_helpers import sample_positions
from sorry import Game, Move, Rules, fast
from sorry.bots import make_bot
from sorry.bots.base import deck_probabilities, team_of
from sorry.bots.evaluate import evaluate
from sorry.fast import _policy as PO
from sorry.fast.search import rule_arrays
from sorry.position import Position
from sorry.rng import Rng, derive_seed
from sorry.state import PawnState

CONFIGS = [
    ("standard", {}, 2),
    ("standard", {}, 3),
    ("standard", {}, 4),
    ("standard", {"slide_on": "all", "sorry_forward_4": "always", "swap_slides": "both"}, 4),
    ("standard", {"deck": "44", "two_draws_again": "no", "starting_pawns_out": "1"}, 3),
    ("teams", {}, 4),
    ("teams", {"team_swap_partner": "yes"}, 4),
    ("points", {}, 2),
    ("points", {}, 4),
    ("points", {"points_bonus": "cumulative"}, 3),
]


def reference_trace(
    seed: int, players: int, rules: Rules, seats: list[str]
) -> tuple[Game, list[tuple[str, int, int]]]:
    """A Python game of sorry.bots bots (seat order) with the fast engine's policy streams:
    (position, number of legal moves, index chosen) per decision."""
    g = Game(rules, players, seed=seed)
    bots = {c: make_bot(name) for c, name in zip(g.colours, seats, strict=True)}
    rngs = {c: Rng(fast.policy_seed(seed, c)) for c in g.colours}
    trace = []

    def choose(game: Game, moves: list[Move]) -> Move:
        c = game.to_move
        move = bots[c].choose(game.view(c), rngs[c])
        trace.append((game.position_string(), len(moves), moves.index(move)))
        return move

    return play_out(g, choose), trace


def check_games(variant: str, options: dict[str, str], players: int, n: int) -> None:
    rules = Rules.from_options(variant, options)
    for k in range(n):
        seed = derive_seed(18, k)
        seats = ["medium"] * players if k % 2 == 0 else (["medium", "random"] * 2)[:players]
        g, ref = reference_trace(seed, players, rules, seats)
        one = fast.simulate(1, players, rules=rules, policy=seats, seeds=[seed], trace=100_000)
        where = f"seed {seed} ({variant} {rules.options_text()}, seats {seats})"
        for t, (pos, nmoves, choice) in enumerate(ref):
            got = (int(one.trace[t, 1]), int(one.trace[t, 2]))
            if got != (nmoves, choice):
                pytest.fail(
                    f"{where}: move {t} in {pos!r}: MediumBot chooses #{choice} of {nmoves}, "
                    f"the compiled bot #{got[1]} of {got[0]}"
                )
        assert int(one.turns[0]) == g.turn, where
        assert int(one.winner[0]) == (g.winner if g.winner is not None else -1), where


@pytest.mark.parametrize(("variant", "options", "players"), CONFIGS)
def test_compiled_medium_plays_the_same_games(
    variant: str, options: dict[str, str], players: int
) -> None:
    check_games(variant, options, players, 4)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "options", "players"), CONFIGS)
def test_compiled_medium_plays_the_same_games_many(
    variant: str, options: dict[str, str], players: int
) -> None:
    check_games(variant, options, players, 40)


@pytest.mark.parametrize(
    ("variant", "players"), [("standard", 2), ("standard", 4), ("teams", 4), ("points", 3)]
)
def test_compiled_evaluation_is_the_evaluation(variant: str, players: int) -> None:
    """evaluate() of positions from random games, for every side, with the full deck's and
    with counted card probabilities, and an attacker's hand of 1 and 5 cards."""
    rules = Rules(variant=variant)
    _P, _slide, hitm, _E = rule_arrays(rules)
    Z = np.zeros(PO.Z_LEN, dtype=np.int64)
    checked = 0
    for pos, _hand in sample_positions(rules, players, games=6, every=3):
        position = Position.parse(pos)
        state = PawnState(position.pawns, rules)
        S = fast._state_of(position)
        colours = position.colours
        cols = np.array(colours, dtype=np.int64)
        probs_sets = [deck_probabilities(rules), {1: 0.5, 7: 0.25, 13: 0.25}]
        for probs in probs_sets:
            for hand in (1, 5):
                E = PO.eval_params(probs, hand=hand)
                for c in colours:
                    want = evaluate(
                        state,
                        colours,
                        team_of(rules, c),
                        probs,
                        rules.slide_on,
                        rules.teams,
                        hand=hand,
                    )
                    got = PO.evaluate(S, cols, len(cols), c, rules.teams, hitm, E, Z)
                    assert got == pytest.approx(want, abs=1e-9), (pos, c, probs, hand)
                    checked += 1
    assert checked > 100
