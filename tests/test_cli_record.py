"""The record commands: ``sorry record``, ``sorry replay`` and ``sorry verify``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from sorry.cli import main
from sorry.record import GameRecord

NONCE = "0123456789abcdef0123456789abcdef"


def record_file(tmp_path: Path, *extra: str, name: str = "game.json") -> Path:
    out = tmp_path / name
    assert main(["record", "--seed", "11", "--nonce", NONCE, "--out", str(out), *extra]) == 0
    return out


def test_record_writes_a_verified_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = record_file(tmp_path, "--players", "3", "--bots", "random,easy,random")
    text = capsys.readouterr().out
    rec = GameRecord.load(out)
    assert f"commitment (sha256): {rec.commitment}" in text
    assert "record written to" in text and rec.result.describe() in text
    assert [s.level for s in rec.seats] == ["random", "easy", "random"]
    assert all(s.kind == "bot" for s in rec.seats)
    assert rec.seed == 11 and rec.nonce == NONCE and rec.colours == (0, 1, 2)
    assert rec.result.status == "won"
    assert main(["verify", str(out)]) == 0
    assert capsys.readouterr().out.startswith("OK: ")


def test_record_is_reproducible(tmp_path: Path) -> None:
    a = record_file(tmp_path, "--bots", "easy", "-q", name="a.json")
    b = record_file(tmp_path, "--bots", "easy", "-q", name="b.json")
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize(
    "args",
    [
        ["--rules", "teams"],
        ["--rules", "points", "--players", "2", "--option", "points_bonus=cumulative"],
        ["--players", "2", "--option", "deck=44", "--option", "turn_limit=20"],
    ],
)
def test_record_every_variant(tmp_path: Path, args: list[str]) -> None:
    out = record_file(tmp_path, "-q", *args)
    rec = GameRecord.load(out)
    assert rec.rules.variant == (args[1] if args[0] == "--rules" else "standard")
    assert main(["verify", str(out)]) == 0


def test_record_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "x.json")
    assert main(["record", "--players", "2", "--bots", "random,random,random", "--out", out]) == 2
    assert "--bots names 3 players but 2 are playing" in capsys.readouterr().err
    assert main(["record", "--bots", "nosuchbot", "--out", out]) == 2
    assert "sorry: error:" in capsys.readouterr().err
    assert main(["record", "--nonce", "xyz", "--out", out]) == 2
    assert "--nonce" in capsys.readouterr().err
    assert main(["record", "--rules", "teams", "--players", "2", "--out", out]) == 2
    assert main(["record", "--out", str(tmp_path / "no" / "dir.json")]) == 2
    assert "cannot write" in capsys.readouterr().err


# -- verify -------------------------------------------------------------------------------------
def test_verify_reports_the_first_bad_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = record_file(tmp_path, "-q", "--players", "2")
    data = json.loads(out.read_text())
    n = next(i for i, s in enumerate(data["steps"]) if "draw" in s and i > 10)
    data["steps"][n]["draw"] = "S" if data["steps"][n]["draw"] != "S" else "1"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["verify", str(bad)]) == 1
    text = capsys.readouterr().out
    assert text.startswith(f"FAILED at step {n + 1}: the card drawn is not the deck's")
    assert main(["verify", "--json", str(bad)]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is False and result["step"] == n + 1
    assert result["found"] == data["steps"][n]["draw"]
    data["commitment"]["sha256"] = "0" * 64
    bad.write_text(json.dumps(data))
    assert main(["verify", str(bad)]) == 1
    assert "FAILED at start: the commitment" in capsys.readouterr().out


def test_verify_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    assert "sorry: error: cannot read" in capsys.readouterr().err
    junk = tmp_path / "junk.json"
    junk.write_text("not json at all")
    assert main(["verify", str(junk)]) == 2
    assert "not a JSON record" in capsys.readouterr().err
    junk.write_text('{"format": "sorry-record", "version": 99}')
    assert main(["verify", str(junk)]) == 2
    assert "version 99" in capsys.readouterr().err


def test_verify_json_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = record_file(tmp_path, "-q")
    assert main(["verify", "--json", str(out)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is True and result["step"] is None and result["steps_checked"] > 0


# -- replay -------------------------------------------------------------------------------------
def test_replay_to_a_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = record_file(tmp_path, "-q", "--players", "2")
    rec = GameRecord.load(out)
    total = rec.result.turns
    assert main(["replay", str(out), "--to", "0"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"Turn 0/{total}\n")
    assert "R:S,S,S,S Y:S,S,S,S" in text
    assert main(["replay", str(out), "--to", "5"]) == 0
    text = capsys.readouterr().out
    fifth = rec.replay(_steps_to_turn(rec, 5))
    assert text.startswith(f"Turn 5/{total}\n")
    assert fifth.position_string() in text
    assert main(["replay", str(out), "--to", str(total)]) == 0
    text = capsys.readouterr().out
    assert rec.result.position in text and "End: " in text and "won" in text
    assert main(["replay", str(out), "--to", str(total + 1)]) == 2
    assert f"turns 0 to {total}" in capsys.readouterr().err


def _steps_to_turn(rec: GameRecord, turn: int) -> int:
    moves = 0
    for n, s in enumerate(rec.steps, 1):
        if s.move is not None:
            moves += 1
            if moves == turn:
                return n
    raise AssertionError("no such turn")


def test_replay_print_shows_every_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = record_file(tmp_path, "-q", "--rules", "points", "--players", "3")
    rec = GameRecord.load(out)
    assert main(["replay", str(out), "--print"]) == 0
    text = capsys.readouterr().out
    turns = [line for line in text.splitlines() if line.startswith("Turn ")]
    assert len(turns) == rec.result.turns + 1
    assert "hands: R " in text  # the points variant shows the (revealed) hands
    start = text.split("\n\n")[0]  # turn 0: the deal, five cards each
    deal = next(line for line in start.splitlines() if line.startswith("  drawn: "))
    assert [len(part.split()[1].split(",")) for part in deal[9:].split("  ")] == [5, 5, 5]
    first_turn = text.split("\n\n")[1].splitlines()
    assert first_turn[1].endswith("]") and first_turn[2].startswith("  drawn: ")  # the refill
    for step in rec.steps:
        if step.position is not None:
            assert step.position in text
    assert main(["replay", str(out), "--to", "1", "--board", "--colour", "never"]) == 0
    text = capsys.readouterr().out
    assert "H0" in text and "\x1b[" not in text
    assert main(["replay", str(out), "--to", "1", "--board", "--colour", "always"]) == 0
    assert "\x1b[" in capsys.readouterr().out


def test_replay_interactive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = record_file(tmp_path, "-q", "--players", "2")
    rec = GameRecord.load(out)
    total = rec.result.turns
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n\np\nj 7\nj 99999\nl\nn\nf\np\nzz\nh\nq\n"))
    assert main(["replay", str(out)]) == 0
    text = capsys.readouterr().out
    shown = [line.split()[1] for line in text.splitlines() if line.startswith("Turn ")]
    assert shown == [
        f"0/{total}",
        f"1/{total}",
        f"2/{total}",
        f"1/{total}",
        f"7/{total}",
        f"{total}/{total}",
        f"0/{total}",
    ]
    assert "(the last turn)" in text and "(the start)" in text
    assert "jump to which turn?" in text and "unknown command 'zz'" in text
    # end of input ends the replay
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))
    assert main(["replay", str(out)]) == 0


def test_replay_of_a_broken_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = record_file(tmp_path, "-q", "--players", "2")
    data = json.loads(out.read_text())
    n = next(i for i, s in enumerate(data["steps"]) if "move" in s and i > 6)
    data["steps"][n]["move"] = "R59+12"
    out.write_text(json.dumps(data))
    assert main(["replay", str(out), "--to", "1"]) == 2
    assert f"step {n + 1} (" in capsys.readouterr().err


def test_the_sorry_command_runs_record_and_verify(tmp_path: Path) -> None:
    out = tmp_path / "cmd.json"
    run = [sys.executable, "-m", "sorry"]
    done = subprocess.run(
        [*run, "record", "--seed", "2", "--players", "2", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    done = subprocess.run([*run, "verify", str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.startswith("OK: ")
    # through a pipe: the record on stdout, messages on stderr, verify reading stdin
    made = subprocess.run(
        [*run, "record", "--seed", "2", "--players", "2", "--out", "-"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0 and made.stdout == out.read_text(encoding="utf-8").replace(
        GameRecord.load(out).nonce, GameRecord.from_json(made.stdout).nonce
    ).replace(GameRecord.load(out).commitment, GameRecord.from_json(made.stdout).commitment)
    assert "commitment (sha256)" in made.stderr and "standard output" in made.stderr
    done = subprocess.run(
        [*run, "verify", "-"], input=made.stdout, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and done.stdout.startswith("OK: ")


def test_verify_names_the_result_and_speaks_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A wrong result is 'at the result', not at a step past the last one; everything verify
    prints is in the chosen language."""
    good = tmp_path / "r.json"
    assert main(["record", "--players", "2", "--seed", "3", "--out", str(good), "-q"]) == 0
    data = json.loads(good.read_text())
    data["result"]["turns"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAILED at the result: the recorded result (turns) is not the game's")
    assert f"step {len(data['steps']) + 1}" not in out
    assert main(["--lang", "ca", "verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "the recorded result" not in out and "expected" not in out
    assert main(["--lang", "ca", "verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert "steps re-played" not in out and "OK" in out
