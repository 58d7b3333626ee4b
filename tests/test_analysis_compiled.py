"""The compiled estimator of the after-game analysis (sorry.analysis._compiled on the kernel of
sorry.fast): each node is packed as it is (whose turn, the card in hand, the piles, the hands),
the wins are counted for the right colours, and its values agree with the easy bot (and the
medium bot, the default model) playing itself in the reference engine."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analysis_helpers import record
from engine_helpers import play_out
from sorry import Game, Rules
from sorry.analysis import analyse
from sorry.analysis.account import value_decisions
from sorry.analysis.estimator import CompiledEstimator, default_estimator
from sorry.bots import make_bot
from sorry.rng import Rng, derive_seed

ONE, ZERO = Fraction(1), Fraction(0)


@pytest.fixture(scope="module")
def est() -> CompiledEstimator:
    """The easy bot's rollouts (the default model is the medium bot's, tested below)."""
    return CompiledEstimator("easybot")


def test_the_default_estimator_is_compiled() -> None:
    got = default_estimator()
    assert got.engine == "compiled" and got.policy == "medium"


def test_the_card_in_hand_and_the_colour_to_move(est: CompiledEstimator) -> None:
    """A 1 in hand takes the last pawn HOME: whoever holds it wins every rollout."""
    red = Game.from_position("R:s5,H,H,H Y:s5,H,H,H R", card=1)
    yellow = Game.from_position("R:s5,H,H,H Y:s5,H,H,H Y", card=1)
    assert est.values([red, yellow], 50, 1) == [(ONE, ZERO, ZERO, ZERO), (ZERO, ZERO, ONE, ZERO)]


def test_the_piles_are_the_games(est: CompiledEstimator) -> None:
    """Only 1s left to draw (or to reshuffle from the discards): the colour to move wins."""
    g = Game.from_position("R:s5,H,H,H Y:s5,H,H,H Y")
    g.draw_pile = [1, 1, 1]
    reshuffled = g.copy()
    reshuffled.draw_pile, reshuffled.discard_pile = [], [1, 1]
    assert g.is_chance()
    assert est.values([g, reshuffled], 20, 2) == [(ZERO, ZERO, ONE, ZERO)] * 2
    g.draw_pile = [4, 1, 1]  # one 4 in three: Yellow draws it first in some worlds only
    (v,) = est.values([g], 300, 3)
    assert Fraction(1, 2) < v[2] < 1 and v[0] == 1 - v[2]


def test_teams_count_both_partners(est: CompiledEstimator) -> None:
    g = Game.from_position(
        "R:s5,H,H,H B:S,S,S,S Y:H,H,H,H G:S,S,S,S R", rules=Rules(variant="teams"), card=1
    )
    assert est.values([g], 10, 1) == [(ONE, ZERO, ONE, ZERO)]


def test_points_hands_and_the_cards_owed(est: CompiledEstimator) -> None:
    rules = Rules(variant="points")
    g = Game.from_position(
        "R:s5,H,H,H Y:s5,H,H,H R", rules=rules, hands={0: [1, 4, 4, 8, 8], 2: [4, 4, 10, 10, 12]}
    )
    assert not g.is_chance()
    assert est.values([g], 20, 1) == [(ONE, ZERO, ZERO, ZERO)]
    # Red plays a 4 instead (back to s1): Red is owed a card (a chance node); the game
    # goes on to a winner
    g.push(next(m for m in g.legal_moves if m.card == 4))
    assert g.is_chance()
    (v,) = est.values([g], 400, 2)
    assert v[0] + v[2] == 1 and 0 < v[0] < 1


def test_a_turn_limit_ends_the_rollouts_without_a_winner(est: CompiledEstimator) -> None:
    g = Game(Rules(turn_limit=6), players=2, seed=1)
    assert est.values([g], 20, 1) == [(ZERO, ZERO, ZERO, ZERO)]


def _easy_self_play(game: Game, games: int, seed: int, level: str = "easy") -> list[float]:
    """Each colour's share of wins when bots of ``level`` play ``game`` out in the reference
    engine,
    the draw pile shuffled in each world (and the game's generator, which shuffles the
    discards when the draw pile runs out, reseeded: else every world reshuffles alike)."""
    bot = make_bot(level)
    wins = [0, 0, 0, 0]
    for k in range(games):
        g = game.copy(stack=False)
        rng = Rng(derive_seed(seed, k))
        rng.shuffle(g.draw_pile)
        g.rng = Rng(derive_seed(seed, 10_000 + k))
        play_out(g, lambda game, moves, rng=rng: bot.choose(game.view(game.to_move), rng))
        for c in g.winners:
            wins[c] += 1
    return [w / games for w in wins]


@pytest.mark.parametrize("variant", ["standard", "points"])
def test_the_rollouts_are_the_easy_bot_playing_itself(est: CompiledEstimator, variant: str) -> None:
    """From a node half-way through a game, the compiled rollouts' win shares agree with easy
    bots playing the same node out in the reference engine (within 4 standard errors)."""
    rec = record(variant, 2, seed=11)
    node = rec.replay(len(rec.steps) // 2)
    compiled = [float(v) for v in est.values([node], 4000, 5)[0]]
    reference = _easy_self_play(node, 300, 6)
    for c in node.colours:
        se = (reference[c] * (1 - reference[c]) / 300) ** 0.5 + 0.01
        assert abs(compiled[c] - reference[c]) < 4 * se, (c, compiled, reference)


def test_the_medium_rollouts_are_the_medium_bot_playing_itself() -> None:
    """The medium policy's rollouts (the model the analysis can use for stronger play) read
    the medium bot's tables: from a node half-way through a game, with the card in hand (the
    rollout plays the policy's own move first), their win shares agree with medium bots
    playing the node out in the reference engine (within 4 standard errors)."""
    med = CompiledEstimator("medium")
    assert med.policy == "medium"
    rec = record("standard", 2, seed=11)
    node = rec.replay(len(rec.steps) // 2)
    if node.is_chance():
        node.draw(node.draw_pile[-1])
    assert med._packer(node).E.any()  # the evaluation's weights, not placeholders
    compiled = [float(v) for v in med.values([node], 4000, 5)[0]]
    reference = _easy_self_play(node, 200, 6, level="medium")
    for c in node.colours:
        se = (reference[c] * (1 - reference[c]) / 200) ** 0.5 + 0.01
        assert abs(compiled[c] - reference[c]) < 4 * se, (c, compiled, reference)


def test_any_range_of_decisions_is_valued_as_in_the_whole_game(est: CompiledEstimator) -> None:
    """A server values a game in pieces: each piece gives what the whole walk gives."""
    rec = record("standard", 2, seed=4)
    whole = value_decisions(rec, est, 4, 2, seed=7)
    assert [v.index for v in whole] == list(range(rec.result.turns))
    piece = value_decisions(rec, est, 4, 2, seed=7, first=10, last=20)
    assert piece == whole[10:20]


def test_the_account_adds_up_with_compiled_rollouts(est: CompiledEstimator) -> None:
    for variant, players in (("standard", 2), ("teams", 4), ("points", 3)):
        a = analyse(record(variant, players), estimator=est, rollouts=4, worlds=2)
        assert a.engine == "compiled"
        for p in a.players:
            assert p.start + p.luck + p.decisions == p.result


def test_another_seed_gives_the_same_verdict_within_its_interval(est: CompiledEstimator) -> None:
    """The verdict a player reads, analysed again with another seed of the rollouts: each
    player's own moves, the others' moves and the luck move by less than the 95% interval of
    the difference the two analyses give themselves, and the errors labelled are the same
    ones or within their own uncertainty."""
    rec = record("standard", 2, seed=21, levels=("medium", "easy"))
    one = analyse(rec, estimator=est, rollouts=16, seed=0)
    two = analyse(rec, estimator=est, rollouts=16, seed=1)
    assert one.points != two.points  # other worlds
    moved = 0
    for p, q in zip(one.players, two.players, strict=True):
        for value, se in (
            ("own_decisions", "own_decisions_se"),
            ("others_decisions", "others_decisions_se"),
            ("luck", "luck_se"),
        ):
            a, b = float(getattr(p, value)), float(getattr(q, value))
            half = 1.96 * (getattr(p, se) ** 2 + getattr(q, se) ** 2) ** 0.5
            assert abs(a - b) <= half, (p.name, value, a, b, half)
            moved += a != b
    assert moved  # the figures are estimates: they move, within their intervals
    for d, e in zip(one.decisions, two.decisions, strict=True):
        if d.label != e.label:  # a label only where the loss is clear: both near the line
            for x in (d, e):
                assert x.loss_se is None or x.equity_lost < 0.03 + 3 * x.loss_se
