"""The Python API of sorry.fast (simulate, play, warmup, legal_moves, custom policies) and
``sorry simulate --engine fast``."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from sorry import Rules, fast
from sorry.cli import main
from sorry.errors import SorryError
from sorry.fast import _kernel as K
from sorry.sim import simulate as sim_simulate
from sorry.sim.fast_report import simulate_report


def test_simulate_results_and_summary() -> None:
    r = fast.simulate(300, players=3, seed=2, threads=2)
    assert r.games == 300 and r.colours == (0, 1, 2)
    assert set(np.unique(r.winner)) <= {0, 1, 2}
    assert (r.turns > 0).all() and r.seconds > 0 and r.threads == 2
    s = r.summary()
    assert sum(v for k, v in s["wins"].items() if k != "unfinished") == 300
    assert s["mean_turns"] == pytest.approx(float(r.turns.mean()))
    # a winner has its four pawns HOME in the final position
    for k in range(5):
        w = int(r.winner[k])
        assert (r.final[k, 4 * w : 4 * w + 4] == 65).all()


def test_thread_count_does_not_change_results() -> None:
    a = fast.simulate(200, 4, seed=9, threads=1)
    b = fast.simulate(200, 4, seed=9, threads=2)
    assert (a.winner == b.winner).all() and (a.turns == b.turns).all()
    assert (a.final == b.final).all()


def test_seeds_and_play_trace() -> None:
    r = fast.simulate(3, 4, seed=1)
    assert [int(s) for s in r.seeds] == [int(s) for s in fast.game_seeds(3, 1)]
    one = fast.play(int(r.seeds[1]), 4)
    assert one.position(0) == r.position(1)
    assert one.trace.shape == (int(r.turns[1]), 3)
    assert ((one.trace[:, 2] >= 0) & (one.trace[:, 2] < one.trace[:, 1])).all()


def test_turn_limit_and_points_scores() -> None:
    r = fast.simulate(50, 4, seed=3, rules=Rules(turn_limit=30))
    assert (r.turns == 30).all() and (r.winner == -1).all()
    p = fast.simulate(50, 2, seed=3, rules=Rules(variant="points"))
    for k in range(50):
        w = int(p.winner[k])
        assert p.scores[k, w] >= 25  # 4 pawns HOME, and a pawn of the loser not HOME


def test_warmup_and_unknown_policy() -> None:
    from sorry.fast import _kernel, _loop

    seconds = fast.warmup(("random",))
    assert isinstance(seconds, float) and seconds > 0
    # what it compiled or loaded: the game loop's batch player and the move lister
    assert _loop.play_batch.signatures and _kernel.list_moves.signatures
    with pytest.raises(SorryError, match="unknown policy"):
        fast.simulate(1, policy="clever")
    with pytest.raises(ValueError, match="players"):
        fast.simulate(1, players=5)


def test_legal_moves_api() -> None:
    moves = fast.legal_moves("R:S,S,4,s2 Y:12,33,40,H R", 10)
    assert [(str(m), t) for m, t in moves] == [
        ("R4+10", "R:S,S,14,s2 Y:12,33,40,H"),
        ("R4-1", "R:S,S,3,s2 Y:12,33,40,H"),
        ("Rs2-1", "R:S,S,4,s1 Y:12,33,40,H"),
    ]
    pts = fast.legal_moves("R:S,S,S,4 Y:S,S,S,34 R", rules=Rules(variant="points"), hand=[3, 3])
    assert [str(m) for m, _ in pts] == ["3:R4+3"]


@numba.njit(cache=False)  # type: ignore[misc]
def _last_move(policy, S, slide, P, colour, mv, n, rng, W):  # type: ignore[no-untyped-def]
    return n - 1


@pytest.mark.slow  # compiles the game loop again for the custom policy (not cacheable)
def test_custom_policy_hook() -> None:
    r = fast.simulate(20, 2, seed=4, policy=_last_move)
    assert r.policy == "_last_move" and r.games == 20
    again = fast.simulate(20, 2, seed=4, policy=_last_move)
    assert (r.turns == again.turns).all()
    first = fast.simulate(20, 2, seed=4, policy="first")
    assert not (r.turns == first.turns).all()
    assert K.MAX_MOVES >= 256


@pytest.mark.parametrize("bot", ["random", "easy", "medium"])
def test_report_matches_sorry_sim(bot: str) -> None:
    """Same seed, same bots: the fast engine's report is sorry.sim's, number for number."""
    configs = (
        (Rules(), 4),
        (Rules(), 2),
        (Rules(variant="teams"), 4),
        (Rules(variant="points"), 3),
    )
    for rules, players in configs:
        ours = simulate_report(20, players, rules, bots=[bot], seed=2)
        ref = sim_simulate(20, players, rules, bots=[bot], seed=2)
        for key in ("seats", "first_player", "length", "unfinished", "mean_points"):
            assert ours.get(key) == ref.get(key), (rules.variant, players, key)
    with pytest.raises(SorryError, match="random, easy, medium"):
        simulate_report(5, 4, bots=["hard"])


def test_report_mixed_bots_match_sorry_sim() -> None:
    for rules, bots in (
        (Rules(), ["easy", "random", "random", "easy"]),
        (Rules(variant="points"), ["medium", "easy"]),
    ):
        ours = simulate_report(20, len(bots), rules, bots=bots, seed=8)
        ref = sim_simulate(20, len(bots), rules, bots=bots, seed=8)
        for key in ("seats", "first_player", "length", "unfinished", "mean_points"):
            assert ours.get(key) == ref.get(key), (rules.variant, key)
    with pytest.raises(SorryError, match="one built-in policy per player"):
        fast.simulate(3, 4, policy=["random", "easy"])


def test_cli_simulate_engine_fast(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "-n", "25", "--players", "2", "--seed", "6"]
    assert main(argv) == 0
    python_out = capsys.readouterr().out.splitlines()
    assert main([*argv, "--engine", "fast"]) == 0
    fast_out = capsys.readouterr().out.splitlines()
    assert fast_out[:-1] == python_out[:-1]  # all but the speed line
    assert main([*argv, "--engine", "fast", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["engine"] == "fast"
    assert main([*argv, "--engine", "fast", "--bots", "hard"]) == 2


SPEED_AND_ENGINE_KEYS = (
    "seconds",
    "games_per_second",
    "backend",
    "jobs",
    "engine",
    "engine_note",
    "load_seconds",
    "requested",
    "interrupted",
)


def test_tournament_fast_matches_sorry_sim() -> None:
    from sorry.sim import tournament
    from sorry.sim.fast_report import tournament_fast

    for rules, bots in (
        (Rules(), ["easy", "random", "random"]),
        (Rules(variant="teams"), ["easy", "random", "random", "easy"]),
    ):
        ours = tournament_fast(bots, 12, rules, seed=3, rating_samples=20)
        ref = tournament(bots, 12, rules, seed=3, rating_samples=20)
        assert ours["engine"] == "fast"
        for key, value in ref.items():
            if key not in SPEED_AND_ENGINE_KEYS:
                assert ours[key] == value, (rules.variant, key)


def test_cli_tournament_engine_fast(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", "easy,random", "-n", "8", "--seed", "4", "--no-progress"]
    assert main(argv) == 0
    python_out = capsys.readouterr().out
    assert main([*argv, "--engine", "fast"]) == 0
    fast_out = capsys.readouterr().out
    # The same games, so the same table (the speed line aside).
    keep = [line for line in python_out.splitlines() if "games/s" not in line]
    assert [line for line in fast_out.splitlines() if "games/s" not in line] == keep
    assert main(["tournament", "--bots", "hard,random", "-n", "2", "--engine", "fast"]) == 2
