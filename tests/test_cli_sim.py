"""``sorry simulate``, ``sorry tournament`` and ``sorry hint`` on the command line."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sorry.cli import main


def test_simulate_prints_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "20", "--players", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "20 games, 2 players, standard, seed 3" in out
    assert "Red" in out and "Yellow" in out and "first player wins" in out
    assert "games/s" in out


def test_simulate_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    png = tmp_path / "r.png"
    argv = ["simulate", "-n", "10", "--bots", "easy,random", "--rules", "points"]
    assert main([*argv, "--json", str(out), "--plot", str(png)]) == 0
    data = json.loads(out.read_text())
    assert data["games"] == 10 and data["players"] == 2 and "mean_points" in data
    assert png.read_bytes()[:4] == b"\x89PNG"
    capsys.readouterr()
    assert main([*argv, "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["bots"] == ["easy", "random"]


def test_tournament_writes_json_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prefix = tmp_path / "t"
    argv = ["tournament", "--bots", "easy,random,random", "--games", "6", "--out", str(prefix)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "2 paired deals x 3 seatings" in out and "random#2" in out
    data = json.loads((tmp_path / "t.json").read_text())
    assert [e["name"] for e in data["entrants"]] == ["easy", "random", "random#2"]
    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    assert [r["name"] for r in rows] == ["easy", "random", "random#2"]


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "--bots", "easy", "--games", "4"],
        ["tournament", "--bots", "easy,genius", "--games", "4"],
        ["simulate", "--games", "0"],
        ["simulate", "--games", "4", "--players", "3", "--rules", "teams"],
        ["simulate", "--games", "4", "--players", "2", "--bots", "easy,easy,easy"],
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("sorry: error: ") and err.count("\n") == 1


def test_hint_lists_moves_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    # a fixed number of worlds (--seed): the same list whatever the machine's load
    assert main(["hint", "R:H,H,S,s4 Y:20,30,40,S R", "1", "--seed", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sorted(line.split()[0] for line in lines) == ["RS>4", "Rs4+1"]
    # each move: the share of worlds won, its 95% interval, the worlds; best first
    wins = []
    for line in lines:
        win, low, high = (float(x) for x in re.findall(r"\d+\.\d", line)[:3])
        assert low <= win <= high
        wins.append(win)
    assert wins == sorted(wins, reverse=True)


def test_hint_says_tied_when_the_worlds_cannot_tell(capsys: pytest.CaptureFixture[str]) -> None:
    # two worlds per move cannot separate two moves that differ by a few points
    assert (
        main(["hint", "R:S,S,10,s1 Y:20,30,40,S R", "5", "-r", "2", "--seed", "0", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["separated"] is False
    assert [m["tied"] for m in data["moves"]] == [True, True]
    assert all(m["worlds"] == 2 and m["low"] <= m["win"] <= m["high"] for m in data["moves"])


def test_hint_points_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["hint", "R:S,S,S,4 Y:12,33,40,H R", "--rules", "points", "--hand", "1,4,7,11,S"]
    assert main([*argv, "-r", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    moves = [m["move"] for m in data["moves"]]
    assert "S:RS>Y33" in moves and "4:R4-4" in moves
    wins = [m["win"] for m in data["moves"]]
    assert wins == sorted(wins, reverse=True)


def test_a_seeded_hint_prints_the_same_bytes_every_time() -> None:
    """--seed: a fixed number of rollouts, not a time budget (two processes, on a loaded
    machine or not, print the same JSON)."""
    argv = [sys.executable, "-m", "sorry", "hint", "R:S,S,4,s2 Y:12,33,40,H R", "--rules"]
    argv += ["points", "--hand", "1,2,3,4,5", "--seed", "1", "--json"]
    outs = [subprocess.run(argv, capture_output=True, check=True, timeout=600).stdout for _ in "ab"]
    assert outs[0] == outs[1]
    data = json.loads(outs[0])
    assert not data["forced"] and data["rollouts"] > 9 * 16  # more than the first round
    assert len({m["move"] for m in data["moves"]}) == len(data["moves"]) == 9


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_forced_pass_shows_no_percentage(
    json_flag: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # nothing can move with a 5: the pass is the only move
    assert main(["hint", "R:S,S,S,S Y:12,33,40,H R", "5", "--seed", "1", *json_flag]) == 0
    out = capsys.readouterr().out
    assert "%" not in out
    if json_flag:
        assert json.loads(out) == {
            "position": "R:S,S,S,S Y:12,33,40,H R",
            "engine": json.loads(out)["engine"],
            "forced": True,
            "moves": [{"move": "pass", "only": True}],
        }
    else:
        assert out == "pass  the only move\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["hint", "R:S,S,S,4 Y:12,33,40,H R"],
        ["hint", "R:S,S,S,4 Y:12,33,40,H R", "5", "--rules", "points"],
        ["hint", "R:S,S,S,4 Y:12,33,40,H R", "--rules", "points", "--hand", "1,2"],
        ["hint", "R:S,S,S,4 Y:12,33,40,H R", "6"],
        ["hint", "R:S,S,S,4 Y:12,33,40,H R", "5", "--rollouts", "0"],
    ],
)
def test_hint_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("sorry: error: ")


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (
            "expert:simulations=abc",
            "sorry: error: bot 'expert:simulations=abc': simulations is a whole number, not 'abc'",
        ),
        (
            "expert:foo=1",
            "sorry: error: bot 'expert:foo=1': the expert bot has no parameter 'foo' "
            "(its parameters: simulations, time_limit, candidates, depth, scale, confidence, "
            "drop, engine, search, exploration, expand_after, ranker, evaluation, rollout)",
        ),
        (
            "random:x=1",
            "sorry: error: bot 'random:x=1': the random bot has no parameter 'x' (it takes none)",
        ),
        (
            "hard:hand_weight=-1",
            "sorry: error: bot 'hard:hand_weight=-1': hand_weight must not be negative, not -1.0",
        ),
        (
            "expert:simulations=0",
            "sorry: error: bot 'expert:simulations=0': simulations must be at least 1",
        ),
    ],
)
def test_bad_bot_parameters_are_named(
    capsys: pytest.CaptureFixture[str], bots: str, message: str
) -> None:
    # these printed Python's own TypeError texts
    for command in ("simulate", "tournament"):
        entrants = bots if command == "simulate" else f"{bots},random"
        assert main([command, "--games", "2", "--bots", entrants, "--no-progress"]) == 2
        captured = capsys.readouterr()
        assert (captured.out, captured.err) == ("", message + "\n")


def test_good_bot_parameters_still_work(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "-n", "2", "--players", "2", "--no-progress"]
    assert main([*argv, "--bots", "hard:hand_weight=1,medium:hand_weight=0.5"]) == 0
    assert "hard:hand_weight=1" in capsys.readouterr().out


# -- Ctrl-C and killed runs leave no process behind -----------------------------
def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(x) for x in fh.read().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def _start_long_run(*extra: str) -> tuple[object, list[int]]:
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "sorry", "simulate", "--games", "1000000", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's job is
        # as from a terminal: a shell's background job (this test run, say) ignores SIGINT
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = _children(proc.pid)
    assert len(workers) == 2, "the workers did not start"
    time.sleep(1.0)  # let them play
    return proc, workers


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_stopping_a_jobs_run_ends_the_workers_and_reports(how: str) -> None:
    import os
    import signal
    import subprocess
    import time

    proc, workers = _start_long_run("--jobs", "2", "--engine", "python", "--players", "2")
    assert isinstance(proc, subprocess.Popen)
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does: the whole group
    else:
        proc.terminate()
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:  # it hung: leave nothing behind
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted: " in out and " of 1000000 games played" in out
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_killing_the_main_process_ends_the_workers() -> None:
    import os
    import signal
    import subprocess
    import time

    proc, workers = _start_long_run("--jobs", "2", "--engine", "python", "--players", "2")
    assert isinstance(proc, subprocess.Popen)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers)


def test_help_and_counts_read_right(capsys: pytest.CaptureFixture[str]) -> None:
    """Polish: no '95%%' in the help, '1 paired deal' in the singular."""
    for command in ("simulate", "tournament"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "95% confidence" in text and "%%" not in text
    assert main(["tournament", "--bots", "random,random", "-n", "2", "--no-progress"]) == 0
    assert "2 games (1 paired deal x 2 seatings)" in capsys.readouterr().out
    assert main(["tournament", "--bots", "random,random", "-n", "4", "--no-progress"]) == 0
    assert "4 games (2 paired deals x 2 seatings)" in capsys.readouterr().out
