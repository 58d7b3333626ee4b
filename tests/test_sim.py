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


# -- the engines ----------------------------------------------------------------
def _totals(res: dict[str, object]) -> tuple[object, ...]:
    return (res["seats"], res["first_player"], res["length"], res.get("mean_points"))


@pytest.mark.parametrize(
    ("rules", "players", "bots"),
    [
        (Rules(), 4, ["random"]),
        (Rules(), 2, ["random"]),
        (Rules(variant="teams"), 4, ["random"]),
        (Rules(variant="points"), 3, ["random"]),
        (Rules(), 3, ["easy", "random", "medium"]),
    ],
)
def test_every_engine_plays_the_same_games(rules: Rules, players: int, bots: list[str]) -> None:
    from sorry.sim.runner import choose_engine, fast_installed

    reference = simulate(12, players=players, rules=rules, bots=bots, seed=9, engine="python")
    assert reference["engine"] == "python"
    engines = ["playout"] if set(bots) == {"random"} else []
    if fast_installed():
        engines.append("fast")
    for engine in engines:
        res = simulate(12, players=players, rules=rules, bots=bots, seed=9, engine=engine)
        assert res["engine"] == engine
        assert _totals(res) == _totals(reference), engine
    auto = simulate(12, players=players, rules=rules, bots=bots, seed=9, engine="auto")
    seats = bots * (players // len(bots))
    if auto["engine_note"] == "not-compiled":  # a short run does not wait for a compile
        assert auto["engine"] == choose_engine(rules, seats, fast=False)
    else:
        assert auto["engine"] == choose_engine(rules, seats)
    assert _totals(auto) == _totals(reference)


def test_a_short_auto_run_does_not_wait_for_a_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    """With numba's cache cold, --engine auto compiles the fast engine only for a long run; a
    short one plays on the next engine at once and says why."""
    pytest.importorskip("numba")
    import contextlib

    from sorry.fast import cache
    from sorry.sim.runner import prepare

    @contextlib.contextmanager
    def cold() -> object:
        raise cache.CompileNeeded("numba's cache lacks play_batch")
        yield  # pragma: no cover

    monkeypatch.setattr(cache, "cache_only", cold)
    spec = RunSpec(Rules(), (0, 1, 2, 3), ("random",) * 4, engine="fast")
    ran, _seconds = prepare(spec, may_compile=False)
    assert (ran.engine, ran.note) == ("playout", "not-compiled")
    spec = RunSpec(Rules(), (0, 2), ("easy", "random"), engine="fast")
    assert prepare(spec, may_compile=False)[0].engine == "python"
    res = simulate(5, players=2, seed=1, engine="auto")
    assert res["engine"] == "playout" and res["engine_note"] == "not-compiled"
    from sorry.sim import simulate_text

    assert "the compiled engine is not compiled yet" in simulate_text(res)


def test_auto_picks_the_fastest_engine_that_plays_the_bots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sorry.sim import runner

    choose = runner.choose_engine
    monkeypatch.setattr(runner, "fast_installed", lambda: False)
    assert choose(Rules(), ["random"] * 4) == "playout"
    assert choose(Rules(variant="teams"), ["random"] * 4) == "playout"
    assert choose(Rules(variant="points"), ["random"] * 4) == "playout"
    assert choose(Rules(), ["random", "easy"]) == "python"
    assert choose(Rules(), ["hard", "random"], "python") == "python"
    with pytest.raises(SorryError, match="random bots only"):
        choose(Rules(), ["easy", "random"], "playout")
    with pytest.raises(SorryError, match="fast extra"):
        choose(Rules(), ["random"], "fast")
    monkeypatch.setattr(runner, "fast_installed", lambda: True)
    pytest.importorskip("numba")
    assert choose(Rules(), ["random", "easy", "medium"]) == "fast"
    assert choose(Rules(), ["random", "hard"]) == "python"
    with pytest.raises(SorryError, match="bots"):
        choose(Rules(), ["expert", "random"], "fast")


# -- stopping a run ------------------------------------------------------------
def test_progress_bar_is_drawn_at_once() -> None:
    import io

    from sorry.sim.runner import Progress

    out = io.StringIO()
    Progress(1_000_000, True, out)
    assert "0/1000000 games" in out.getvalue()


def test_batches_are_small_enough_for_the_bar_to_move() -> None:
    from sorry.sim.runner import _batch_size

    spec = RunSpec(Rules(), (0, 1, 2, 3), ("random",) * 4)
    assert _batch_size(spec, 1_000_000, 2) <= 10
    assert _batch_size(RunSpec(Rules(), (0, 2), ("random",) * 2, engine="playout"), 10**6, 2) <= 200


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupted_run_reports_the_games_finished(
    monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    """Ctrl-C during a run: the report covers the games played so far and says so."""
    from sorry.sim import runner

    seen: list[int] = []

    def stop_after_two(chunk: list[GameRecord]) -> None:
        seen.append(len(chunk))
        if len(seen) == 2:
            raise KeyboardInterrupt

    real = runner.run_games
    monkeypatch.setattr(
        "sorry.sim.report.run_games",
        lambda *a, **k: real(*a, **k, on_batch=stop_after_two),
    )
    res = simulate(10_000, players=2, seed=1, jobs=jobs, engine="python")
    assert res["interrupted"] and res["requested"] == 10_000
    assert res["games"] == sum(seen) and 0 < res["games"] < 100
    assert sum(s["wins"] for s in res["seats"]) + res["unfinished"] == res["games"]
