"""What a new user meets first on the command line: the server's start-up errors in one line
before it says it serves, a finished game that cannot be resumed, and the line-by-line game
(forced moves played by themselves, the range of choices, 80 columns, help, hint, undo, save)."""

from __future__ import annotations

import io
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sorry.cli.cmd_play import rules_plain

PROMPT = "Your move (number or notation; h hint, r rules, ? help, q quit): "


def sorry(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sorry", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def test_serve_with_a_database_in_a_missing_folder_says_so_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    done = sorry("serve", "--database", "sqlite:////nonexistent/dir/x.db", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "sorry: error: cannot open the database sqlite:////nonexistent/dir/x.db: there is no "
        "folder /nonexistent/dir"
    ]


def test_serve_with_a_database_it_cannot_open_says_so_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    (tmp_path / "x.db").mkdir()  # a folder where the file should be
    done = sorry("serve", "--database", f"sqlite:///{tmp_path / 'x.db'}", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sorry: error: cannot open the database")


def test_serve_on_a_port_already_taken_says_so_before_serving(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = sorry(
            "serve", "--port", str(port), "--database", f"sqlite:///{tmp_path / 'g.db'}",
            cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == 2
    assert "serving on" not in done.stdout
    assert done.stderr.splitlines() == [
        f"sorry: error: port {port} on 127.0.0.1 is already in use (another server?): choose "
        "another with --port"
    ]


@pytest.mark.parametrize("command", ["play", "tui"])
def test_loading_a_finished_record_offers_the_replay(command: str, tmp_path: Path) -> None:
    rec = tmp_path / "g.json"
    done = sorry(
        "record", "--out", str(rec), "--players", "2", "--bots", "easy", "--seed", "1", "-q"
    )
    assert done.returncode == 0, done.stderr
    done = sorry(command, "--load", str(rec))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"sorry: error: {rec} holds a finished game (Yellow won after 168 turns): nothing to "
        f"resume; step through it with: sorry replay {rec}"
    ]


def plain_game(stdin: str, cwd: Path) -> list[str]:
    """The line-by-line game (Red: the person; Yellow: easy, seed 1) fed ``stdin``; its
    output with each prompt on a line of its own."""
    done = sorry(
        "play", "--plain", "--players", "2", "--bot", "easy", "--seed", "1", stdin=stdin, cwd=cwd
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout.replace(PROMPT, PROMPT.rstrip() + "\n").splitlines()


def test_the_line_game_plays_forced_moves_by_itself_and_fits_80_columns(tmp_path: Path) -> None:
    out = plain_game("q\n", tmp_path)
    # seed 1: Red's first four turns offer one move each (two forfeits, two moves)
    forced = [line for line in out if line.startswith("[R] ")]
    assert forced == [
        "[R] No move with the 7: your turn passes.",
        "[R] No move with the 11: your turn passes.",
        "[R] drew 2, Red starts a pawn from START to 4 (the only move)",
        "[R] drew 7, Red moves a pawn from 4 to 11 (the only move)",
        "[R] drew 12, Red moves a pawn from 11 to 23 (the only move)",
    ]
    assert out.count(PROMPT.rstrip()) == 1  # the first real choice
    assert max(len(line) for line in out) <= 80
    assert "R/B/Y/G: pawns   > slide triangle  = slide  o slide end   : Safety Zone" in out


def test_the_line_game_says_the_card_the_passes_and_the_rules(tmp_path: Path) -> None:
    out = plain_game("r\nq\n", tmp_path)
    # seed 1: Yellow's first turn has no move; said in words, as Red's own are
    assert out[3] == "[Y] Yellow drew 11: no move, the turn passed."
    assert "[R] No move with the 11: your turn passes." in out
    # the card drawn and what it does; the rules on r, then the choice again
    drawn = "Red, you drew: 1 (start, or 1 forward)"
    assert out.count(drawn) == 2
    # and in its sentence of the rules (the rules page's), under it
    assert out[out.index(drawn) + 1] == "    1: move a pawn out of START, or 1 forward."
    start = out.index("The aim")
    rules = rules_plain().splitlines()  # the browser's rules page's words (sorry.howto)
    assert out[start : start + len(rules)] == rules and rules[1] == "-------"
    assert out.index(drawn) < start < len(out) - out[::-1].index(drawn)
    assert max(len(line) for line in out) <= 80


def test_the_line_game_answers_with_the_range_help_hint_undo_and_save(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    other = tmp_path / "other.json"
    other.write_text("another game's save\n")
    out = plain_game(f"99\n?\nh\n2\nu\ns {other}\nn\ns {save}\nq\n", tmp_path)
    text = "\n".join(out)
    assert "  Choose a number from 1 to 2." in out
    assert "  u      undo your last move (a game with one person)" in out
    # the hint in the terminal game's words: the headline, then each move with its tag
    hint = next(k for k, line in enumerate(out) if line.startswith(("  Best: ", "  Rough hint: ")))
    assert re.search(
        r"Best: (about \d chances? in 10|less than 1 chance in 10|almost sure)", out[hint]
    )
    assert {out[hint + 1][:6], out[hint + 2][:6]} == {"   1. ", "   2. "}
    assert out[hint + 1][6:].startswith("best ")
    assert out[hint + 2][6:].startswith(("as good ", "not as good "))
    assert re.search(r"\(\d+% \[\d+–\d+\]\)$", out[hint + 1]), out[hint + 1]
    assert "Red moves a pawn from 23 to 24, slides to 28" in text  # the move, then undone
    assert "  Your last move was taken back." in out
    # another game's file is not replaced without asking
    assert f"{other} exists: replace it? [y/N] " + "  Not saved." in text
    assert other.read_text() == "another game's save\n"
    assert f"  Saved to {save}; resume it with: sorry play --load {save}" in out
    done = sorry("verify", str(save))
    assert done.returncode == 0 and "in progress after 11 turns" in done.stdout
    # resumed where it was saved: Red to choose with the 1 drawn again
    done = sorry("play", "--load", str(save), stdin="q\n")
    assert done.returncode == 0 and "Red, you drew: 1" in done.stdout


def test_simulate_names_the_time_of_play_and_of_the_whole_command(tmp_path: Path) -> None:
    done = sorry(
        "simulate", "--games", "40", "--players", "2", "--seed", "1", "--engine", "playout",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    m = re.fullmatch(
        r"([\d,.]+) games/s \(([\d.]+) s of play; ([\d.]+) s in all\); engine: .*", last
    )
    assert m is not None, last
    rate, play, total = (float(g.replace(",", "")) for g in m.groups())
    assert 0 < play <= total
    assert rate == pytest.approx(40 / play, rel=0.05)


@pytest.mark.parametrize("kind", ["simulate", "tournament"])
def test_a_run_stopped_before_any_game_ended_prints_no_table_of_zeros(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sorry.sim import runner, simulate, simulate_text, tournament, tournament_text

    def stop_at_once(*args: Any, **kw: Any) -> list[Any]:
        raise runner.RunInterrupted([])

    monkeypatch.setattr("sorry.sim.report.run_games", stop_at_once)
    if kind == "simulate":
        text = simulate_text(simulate(500, players=2, seed=1, engine="python"))
    else:
        text = tournament_text(tournament(["easy", "random"], 500, seed=1, engine="python"))
    assert text == "interrupted before any game ended: nothing to report (500 asked)"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_make_plays_compile_shows_the_time_so_far_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sorry compile --if-needed`` (make play's first run) announces one to three minutes; on
    a busy machine it can take ten times that, so a terminal sees the time so far, rewritten in
    place, and then the line cleared before the total; a log (no terminal) gets no such lines."""
    from sorry import features
    from sorry.cli import cmd_compile, main
    from sorry.compiled import aot

    monkeypatch.setattr(features, "compiled_engine", lambda: features.plain_python())
    monkeypatch.setattr(features, "rollouts_ahead_of_time", lambda: False)
    monkeypatch.setattr(aot, "build", lambda function, say=None: time.sleep(0.35))
    monkeypatch.setattr(cmd_compile, "TICK", 0.1)
    screen = _Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    assert main(["compile", "--if-needed"]) == 0
    shown = screen.getvalue()
    first, rest = shown.split("\n", 1)
    assert first.startswith("Compiling the computer players' search ahead of time")
    blank = " " * len("still compiling: 0:00 so far")
    assert re.fullmatch(rf"(\rstill compiling: 0:0\d so far)+\r{blank}\rCompiled in \d s\.\n", rest)

    monkeypatch.setattr(sys, "stdout", io.StringIO())  # not a terminal
    assert main(["compile", "--if-needed"]) == 0
    assert "so far" not in sys.stdout.getvalue()
