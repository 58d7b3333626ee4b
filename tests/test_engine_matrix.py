"""Every engine plays every value of every rule option, built from the option table itself.

For each setting (a variant with its defaults, or one option of ``sorry.rules.OPTION_VALUES``
set to another of its values, in each variant it applies to), each engine either plays the
same games as the reference (:class:`sorry.game.Game`) with the same seeds and choices, or
declares the setting in its ``UNSUPPORTED`` set and refuses it with a clear error. The
setting must change at least one game of the sample, so an engine that ignored a new option
would play the default games and fail: adding an option that an engine neither plays nor
declares fails here.

The engines: the playouts (their inlined random paths and their policy path), the compiled
engine (``sorry.fast``) and the bots' rollouts (``sorry.bots.rollout.Playout``, followed turn
by turn beside the reference: every turn must be a legal move with the same piles, hands and
next player).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from engine_helpers import play_out, rng_moves
from sorry import Game, Move, playout
from sorry.errors import RulesError
from sorry.rng import Rng
from sorry.rules import OPTION_VALUES, VARIANT_ONLY, VARIANTS, Rules

#: A value to try for options whose table lists only the default (``turn_limit``: a number).
EXTRA_VALUES = {"turn_limit": ("40",)}
SEEDS = range(6)

Setting = tuple[str, tuple[tuple[str, str], ...]]  # (variant, ((name, value), ...))


def settings() -> list[Setting]:
    """Each variant with its defaults, then every other value of every option in every
    variant it applies to."""
    out: list[Setting] = [(variant, ()) for variant in VARIANTS]
    for name, values in OPTION_VALUES.items():
        for value in (*values[1:], *EXTRA_VALUES.get(name, ())):
            for variant in VARIANTS:
                if VARIANT_ONLY.get(name, variant) != variant:
                    continue
                if variant == "points" and name == "starting_pawns_out":
                    continue  # points always start one pawn out: the value is the default
                out.append((variant, ((name, value),)))
    return out


SETTINGS = settings()


def rules_of(setting: Setting) -> Rules:
    variant, options = setting
    return Rules.from_options(variant, dict(options))


def players_of(setting: Setting) -> int:
    return 4 if setting[0] == "teams" else 3


def label(setting: Setting) -> str:
    return " ".join([setting[0], *(f"{k}={v}" for k, v in setting[1])])


# -- the engines ----------------------------------------------------------------------------------
Result = tuple[Any, ...]


def game_random(rules: Rules, players: int, seed: int) -> Result:
    """The reference with the playouts' random player (``Rng(seed ^ 0x5EED)``)."""
    g = play_out(Game(rules, players, seed=seed), rng_moves(Rng(seed ^ 0x5EED)))
    return g.winners, g.turn


def playout_random(rules: Rules, players: int, seed: int) -> Result:
    """The playouts' uniformly random games (the inlined paths)."""
    return playout.random_game(rules, players, seed)


def playout_policy(rules: Rules, players: int, seed: int) -> Result:
    """The playouts' games with a policy (the move generator's path), choosing as above."""
    rng = Rng(seed ^ 0x5EED)
    return playout.play(rules, players, seed, lambda s, c, card, moves: rng.next64() % len(moves))


def game_fast_streams(rules: Rules, players: int, seed: int) -> Result:
    """The reference with the fast engine's policy streams."""
    from fast_helpers import play_reference

    g, _trace = play_reference(seed, players, rules, "random")
    scores = g.scores
    if rules.points and scores is None:  # unfinished: no scores, the fast engine's zeros
        scores = dict.fromkeys(g.colours, 0)
    return g.board_text(), g.turn, g.winner, scores


def fast_random(rules: Rules, players: int, seed: int) -> Result:
    fast = pytest.importorskip("sorry.fast")
    r = fast.simulate(1, players, rules=rules, seeds=[seed], threads=1)
    winner = int(r.winner[0])
    scores = {c: int(r.scores[0, c]) for c in r.colours} if rules.points else None
    return r.position(0), int(r.turns[0]), winner if winner >= 0 else None, scores


def game_and_rollout(rules: Rules, players: int, seed: int) -> Result:
    """The bots' rollout (``sorry.bots.rollout.Playout``, greedy on progress) turn by turn
    beside the reference: after each of the rollout's turns the reference plays the listed
    move (or pass, or discard) that leads to the same pawns with the same card, and both must
    agree on who plays next, the piles and the hands. The rollout knows no turn count (its
    horizon is its caller's depth): the comparison ends where the reference's game ends."""
    from sorry.bots.rollout import Playout

    g = Game(rules, players, seed=seed)
    while rules.points and g.is_chance():  # the deal
        g.draw()
    sim = Playout(
        rules,
        g.colours,
        g.state.copy(),
        g.to_move,
        g.draw_pile[:],
        g.discard_pile[:],
        [h[:] for h in g.hands],
        Rng(g.rng.state),
    )
    while not g.is_over():
        winner = sim.run(1)
        if g.is_chance():
            g.draw()
        same = [m for m in g.legal_moves if _agrees(_after(g, m), sim)]
        assert same, f"seed {seed}: the rollout's turn is no legal move in {g.position_string()}"
        g.push(same[0])
        if rules.points and g.is_chance():  # the refill
            g.draw()
        if g.is_over():
            assert winner == g.winner, f"seed {seed}, turn {g.turn}"
        else:
            assert winner is None, f"seed {seed}, turn {g.turn}"
    return g.winners, g.turn, g.position_string()


def _after(game: Game, move: Move) -> Game:
    """The game after ``move`` and, in the points variant, the refill of the mover's hand."""
    trial = game.copy(stack=False)
    trial.push(move)
    if trial.rules.points and trial.is_chance():
        trial.draw()
    return trial


def _agrees(game: Game, sim: Any) -> bool:
    """Whether the game and the rollout have the same pawns, piles, hands and next player
    (only the pawns after the winning move: the rollout refills the winner's hand anyway)."""
    if game.state.key() != sim.state.key():
        return False
    return game.is_over() or (
        game.discard_pile == sim.discard
        and game.draw_pile == sim.pile
        and [sorted(h) for h in game.hands] == [sorted(h) for h in sim.hands]
        and game.to_move == sim.mover
    )


Engine = Callable[[Rules, int, int], Result]
#: name -> (the engine, the reference it must equal, what it declares it cannot play)
ENGINES: dict[str, tuple[Engine, Engine, Callable[[], frozenset[tuple[str, str]]]]] = {
    "playout-random": (playout_random, game_random, lambda: playout.UNSUPPORTED),
    "playout-policy": (playout_policy, game_random, lambda: playout.UNSUPPORTED),
    "fast": (fast_random, game_fast_streams, lambda: pytest.importorskip("sorry.fast").UNSUPPORTED),
    # the rollout is checked against the reference inside game_and_rollout
    "rollout": (game_and_rollout, game_and_rollout, frozenset),
}


@cache
def reference(name: str, setting: Setting) -> tuple[Result, ...]:
    _engine, ref, _unsupported = ENGINES[name]
    rules = rules_of(setting)
    return tuple(ref(rules, players_of(setting), seed) for seed in SEEDS)


@pytest.mark.parametrize("name", list(ENGINES))
@pytest.mark.parametrize("setting", SETTINGS, ids=label)
def test_engine_plays_the_setting_or_declares_it(name: str, setting: Setting) -> None:
    engine, ref, unsupported = ENGINES[name]
    rules = rules_of(setting)
    declared = unsupported() & set(rules.settings().items())
    if declared:
        with pytest.raises(RulesError, match="cannot play"):
            engine(rules, players_of(setting), 0)
        return
    expected = reference(name, setting)
    if engine is ref:  # the rollout: compared with the reference turn by turn in there
        return
    if setting[1]:  # the option must change a game of the sample, or the check proves nothing
        assert expected != reference(name, (setting[0], ())), f"{label(setting)} changes no game"
    got = tuple(engine(rules, players_of(setting), seed) for seed in SEEDS)
    assert got == expected, label(setting)


@pytest.mark.parametrize("name", list(ENGINES))
def test_declarations_name_real_settings(name: str) -> None:
    """What an engine declares it cannot play is a value of the option table (no stale names)."""
    known = {("variant", v) for v in VARIANTS}
    known |= {(k, v) for k, values in OPTION_VALUES.items() for v in values}
    assert ENGINES[name][2]() <= known


def test_the_matrix_covers_the_option_table() -> None:
    """Every value of every option is in some setting, in every variant it applies to."""
    tried = {(v, k, x) for v, opts in SETTINGS for k, x in opts}
    for name, values in OPTION_VALUES.items():
        for value in values[1:]:
            assert any((k, x) == (name, value) for _v, k, x in tried), name
    assert {v for v, _ in SETTINGS} == set(VARIANTS)
