"""Simulations and tournaments: seeds, backends, statistics."""

from __future__ import annotations

import math

import pytest

from sorry import Rules
from sorry.errors import SorryError
from sorry.rng import derive_seed
from sorry.sim import (
    GameRecord,
    RunSpec,
    parse_bot_spec,
    plackett_luce,
    run_games,
    simulate,
    tournament,
    wilson,
)
from sorry.sim.runner import batches, play_one
from sorry.sim.stats import elo_from_rate


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and math.isclose(0.5 - lo, hi - 0.5)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_ratings_heads_up_match_elo() -> None:
    r = plackett_luce({((0, 1), 0): 750, ((0, 1), 1): 250}, 2)
    assert abs((r[0] - r[1]) - elo_from_rate(0.75)) < 2
    assert abs(r[0] + r[1]) < 1e-6


def test_game_seeds_come_from_the_master_seed() -> None:
    spec = RunSpec(Rules(), (0, 2), ("random", "random"), seed=9)
    rec = play_one(spec, 3)
    assert rec.seed == derive_seed(9, 3)
    rot = RunSpec(Rules(), (0, 2), ("easy", "random"), seed=9, rotate=True)
    # A deal is replayed with the seats permuted: games 2 and 3 share a deck.
    assert rot.game_seed(2) == rot.game_seed(3) == derive_seed(9, 1)
    assert rot.seating(2) == (0, 1) and rot.seating(3) == (1, 0)


def test_batches_cover_every_game_once() -> None:
    for n, jobs in ((1, 1), (10, 3), (5000, 2)):
        idx = [i for b in batches(n, jobs) for i in b]
        assert idx == list(range(n))
        assert all(len(b) <= 1000 for b in batches(n, jobs))


def test_processes_play_the_same_games_as_one_process() -> None:
    spec = RunSpec(Rules(variant="points"), (0, 2), ("easy", "random"), seed=4)
    one = run_games(spec, 12, jobs=1)
    two = run_games(spec, 12, jobs=2)
    assert [(r.index, r.winners, r.turns, r.scores) for r in one] == [
        (r.index, r.winners, r.turns, r.scores) for r in two
    ]


def test_simulate_reports_seats_first_player_and_length() -> None:
    res = simulate(30, players=3, seed=2)
    assert res["games"] == 30 and len(res["seats"]) == 3
    assert sum(s["wins"] for s in res["seats"]) + res["unfinished"] == 30
    assert res["first_player"]["fair_share"] == pytest.approx(1 / 3)
    assert res["length"]["mean"] > 0 and res["games_per_second"] > 0
    for s in res["seats"]:
        assert s["ci_low"] <= s["rate"] <= s["ci_high"]


def test_simulate_teams_counts_team_wins() -> None:
    res = simulate(6, players=4, rules=Rules(variant="teams"), seed=1)
    assert sum(s["wins"] for s in res["seats"]) == 2 * (6 - res["unfinished"])
    assert res["first_player"]["fair_share"] == 0.5


def test_tournament_rotates_seats_on_paired_deals() -> None:
    res = tournament(["easy", "random"], 9, rules=Rules(variant="points"), seed=5, timings=True)
    assert res["games"] == 10 and res["deals"] == 5  # rounded up to whole deals
    easy, rnd = res["entrants"]
    assert easy["wins"] + rnd["wins"] == 10
    assert easy["rating"] > rnd["rating"]
    assert "mean_points" in easy and easy["decisions"] > 0


def test_bad_specs_are_refused() -> None:
    assert parse_bot_spec("expert:simulations=20:time_limit=0.5") == (
        "expert",
        {"simulations": 20, "time_limit": 0.5},
    )
    with pytest.raises(SorryError):
        simulate(5, players=2, bots=["nobody"])
    with pytest.raises(SorryError):
        parse_bot_spec("easy:oops")
    with pytest.raises(SorryError):
        simulate(5, players=3, rules=Rules(variant="teams"))
    with pytest.raises(SorryError):
        simulate(0, players=2)


@pytest.mark.slow
def test_ray_backend_plays_the_same_games() -> None:
    """A local Ray instance (started and stopped by the run) gives the same records and
    totals as one process."""
    pytest.importorskip("ray")
    spec = RunSpec(Rules(), (0, 1, 2), ("easy", "random", "random"), seed=31, rotate=True)
    local = run_games(spec, 30, jobs=1)
    remote = run_games(spec, 30, jobs=2, backend="ray")

    def key(rs: list[GameRecord]) -> list[tuple[object, ...]]:
        return [(r.index, r.seed, r.seats, r.winners, r.turns) for r in rs]

    assert key(local) == key(remote)
    import ray

    assert not ray.is_initialized()
    a = tournament(["easy", "random"], 8, seed=3)
    b = tournament(["easy", "random"], 8, seed=3, backend="ray", jobs=2)
    assert [e["wins"] for e in a["entrants"]] == [e["wins"] for e in b["entrants"]]


def test_progress_bar_shows_the_time_left() -> None:
    import io

    from sorry.sim.runner import Progress

    out = io.StringIO()
    bar = Progress(10, True, out)
    bar.update(10)
    bar.close()
    text = out.getvalue()
    assert "10/10 games" in text and "ETA 0:00:00" in text and text.endswith("\n")
    quiet = io.StringIO()
    silent = Progress(10, False, quiet)
    silent.update(5)
    silent.close()
    assert quiet.getvalue() == ""


def test_tournament_plot_and_csv(tmp_path: object) -> None:
    from pathlib import Path

    from sorry.sim import plot, write_csv, write_json

    assert isinstance(tmp_path, Path)
    res = tournament(["easy", "random"], 4, seed=2)
    plot(res, str(tmp_path / "t.png"))
    write_json(res, str(tmp_path / "t.json"))
    write_csv(res, str(tmp_path / "t.csv"))
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "t.csv").read_text().splitlines()[0].startswith("name,bot,games,wins")
