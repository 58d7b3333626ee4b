"""The search behind ``expert`` and the hints: the compiled rollouts play, in each determinised
world, the very game the Python engine plays with MediumBots (the world rebuilt in Python from
the same seed); the estimator's intervals, ties, budget and cache; both engines."""

from __future__ import annotations

import time

import pytest

from engine_helpers import python_score
from sorry import Game, Rules
from sorry.bots import estimate, make_bot
from sorry.bots.rollouts import PythonRoot, compiled_available, root_of
from sorry.rng import Rng, derive_seed
from sorry.view import PlayerView

needs_fast = pytest.mark.skipif(not compiled_available(), reason="needs the fast extra")


def decision_views(variant: str, players: int, count: int, seed: int) -> list[PlayerView]:
    g = Game(Rules(variant=variant), players, seed=seed)
    bot = make_bot("medium")
    rng = Rng(seed)
    out = []
    while not g.is_over() and len(out) < count:
        if g.is_chance():
            g.draw()
            continue
        v = g.view(g.to_move)
        if len(v.legal_moves) > 1 and g.turn % 7 < 2:
            out.append(v)
        g.push(bot.choose(v, rng))
    return out


@needs_fast
@pytest.mark.parametrize(
    ("variant", "players"),
    [("standard", 2), ("standard", 3), ("teams", 4), ("points", 2), ("points", 4)],
)
def test_compiled_rollouts_are_the_python_games(variant: str, players: int) -> None:
    """For moves of positions along a game, in several worlds, cut off after 0, 5 and 30
    moves and played to the end: the compiled score is the Python game's score."""
    views = decision_views(variant, players, 4, seed=len(variant) + players)
    assert views
    for v in views:
        root = root_of(v, "compiled")
        cands = list(range(min(3, len(v.legal_moves))))
        worlds = [derive_seed(7, w) for w in range(3)]
        for depth in (0, 5, 30, 100_000):
            got = root.scores(cands, worlds, depth)
            for w, world in enumerate(worlds):
                for j, idx in enumerate(cands):
                    want = python_score(v, v.legal_moves[idx], world, depth)
                    assert got[w][j] == pytest.approx(want, abs=1e-9), (
                        v.position_string(),
                        str(v.legal_moves[idx]),
                        world,
                        depth,
                    )


def test_python_engine_scores_a_winning_move_one() -> None:
    g = Game.from_position("R:H,H,H,s4 Y:20,30,40,S R", card=1)
    root = PythonRoot(g.view(0))
    assert root.scores([0], [1, 2], 30) == [[1.0], [1.0]]


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_estimate_lists_every_move_best_first_with_intervals(engine: str) -> None:
    if engine == "compiled" and not compiled_available():
        pytest.skip("needs the fast extra")
    g = Game.from_position("R:S,S,25,45 Y:20,S,S,S R", card=12)
    est = estimate(g, seconds=None, max_worlds=24, engine=engine, cache=False)
    assert est.engine == engine
    assert {m.move for m in est.moves} == set(g.legal_moves)
    wins = [m.win for m in est.moves]
    assert wins == sorted(wins, reverse=True)
    for m in est.moves:
        assert 0.0 <= m.low <= m.win <= m.high <= 1.0
        assert 1 <= m.worlds <= 24
    assert est.pairs() == [(m.move, m.win) for m in est.moves]


@needs_fast
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_estimate_separates_a_clear_best_move_and_stops_early(seed: int) -> None:
    """R4-4 takes the pawn back to the edge of Red's Safety Zone (about 73% won); Rs4-4 pulls
    a pawn out of it instead (about 48%): the estimator drops the second move after a few
    rounds, long before its budget."""
    g = Game.from_position("R:4,s4,H,H Y:S,s5,H,H R", card=4)
    est = estimate(g, seconds=None, max_worlds=4000, seed=seed, cache=False)
    assert str(est.best.move) == "R4-4"
    assert est.separated and not any(m.tied for m in est.moves)
    assert est.worlds < 1000


@needs_fast
@pytest.mark.parametrize(
    ("position", "card", "seed"),
    [("R:H,H,S,s4 Y:20,30,40,S R", 1, 0), ("R:4,51,H,H Y:27,49,H,H R", 1, 28)],
)
def test_estimate_does_not_drop_a_move_as_good_as_the_best(
    position: str, card: int, seed: int
) -> None:
    """Two moves of equal worth (their chances within 0.2 points over 24,000 worlds): looked at
    after every round, a move must not be dropped on an early unlucky run. These seeds once
    stopped after 401 and 49 worlds with gaps of 9.5 and 26.5 points, shown as told apart."""
    g = Game.from_position(position, card=card)
    est = estimate(g, seconds=None, max_worlds=3000, seed=seed, cache=False)
    assert [m.worlds for m in est.moves] == [3000, 3000]
    assert abs(est.moves[0].win - est.moves[1].win) < 0.04


@needs_fast
def test_estimate_calls_two_equal_moves_a_tie() -> None:
    """With two worlds the estimator cannot tell two ordinary moves apart: both are tied."""
    g = Game.from_position("R:S,S,25,45 Y:20,S,S,S R", card=12)
    est = estimate(g, seconds=None, max_worlds=2, cache=False)
    assert est.best.tied and est.moves[1].tied and not est.separated


@needs_fast
def test_estimate_keeps_to_its_time_and_caches() -> None:
    g = Game(Rules(), 2, seed=4)
    while g.is_chance() or len(g.legal_moves) < 2:
        if g.is_chance():
            g.draw()
        else:
            g.push(g.legal_moves[0])
    estimate(g, seconds=None, max_worlds=8)  # loads the compiled code
    t0 = time.perf_counter()
    a = estimate(g, seconds=0.1, max_worlds=100_000, seed=3)
    assert time.perf_counter() - t0 < 1.0  # the budget, with room for a loaded machine
    assert a is estimate(g, seconds=0.1, max_worlds=100_000, seed=3)  # cached
    assert a is not estimate(g, seconds=0.1, max_worlds=100_000, seed=4)


def test_estimate_refuses_a_view_without_a_decision() -> None:
    from sorry.errors import GameStateError

    g = Game(Rules(), 2, seed=1)
    with pytest.raises(GameStateError):
        estimate(g)  # a card must be drawn first
    while g.is_chance():
        g.draw()
    other = next(c for c in g.colours if c != g.to_move)
    with pytest.raises(GameStateError):
        estimate(g.view(other))
    with pytest.raises(ValueError):
        estimate(g, max_worlds=0)
    with pytest.raises(ValueError):
        estimate(g, engine="quantum")


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_expert_on_either_engine_is_deterministic_and_legal(engine: str) -> None:
    if engine == "compiled" and not compiled_available():
        pytest.skip("needs the fast extra")
    for variant, players in (("standard", 2), ("points", 2), ("teams", 4)):
        for v in decision_views(variant, players, 3, seed=9):
            bot = make_bot("expert", engine=engine, simulations=8, depth=12)
            a = bot.choose(v, Rng(5))
            assert a in v.legal_moves
            assert a == make_bot("expert", engine=engine, simulations=8, depth=12).choose(v, Rng(5))
