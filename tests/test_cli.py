"""The command line: sorry moves, show and play (subprocess-free, through sorry.cli.main)."""

from __future__ import annotations

import io
import json
import sys

import pytest

from sorry.cli import main

POS = "R:S,S,4,s2 Y:12,33,40,H R"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.metadata

    import sorry

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"sorry {sorry.__version__}\n"
    # one source: the installed package's version is the module's
    assert importlib.metadata.version("sorry-engine") == sorry.__version__
    assert sorry.__version__.count(".") == 2


def test_moves_lists_move_and_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "moves", POS, "10")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "R4+10 => R:S,S,14,s2 Y:12,33,40,H",
        "R4-1 => R:S,S,3,s2 Y:12,33,40,H",
        "Rs2-1 => R:S,S,4,s1 Y:12,33,40,H",
    ]


def test_moves_pass_line_for_declinable_eleven(capsys: pytest.CaptureFixture[str]) -> None:
    # Red's only pawn out is on 0, behind its entry: 11 forward is impossible, swaps are not.
    code, out, _ = run(capsys, "moves", "R:S,S,S,0 Y:S,S,S,40 R", "11")
    assert code == 0
    assert out.splitlines() == ["R0<>Y40 => R:S,S,S,40 Y:S,S,S,0", "pass"]


def test_moves_pass_when_nothing_is_legal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "R:S,S,S,S Y:S,S,S,S R", "5")
    assert (code, out) == (0, "pass\n")


def test_moves_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", POS, "S", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["position"] == POS and data["card"] == "S" and data["may_pass"] is False
    assert [m["move"] for m in data["moves"]] == ["RS>Y12", "RS>Y33", "RS>Y40"]
    assert data["moves"][0]["result"] == "R:S,4,12,s2 Y:S,33,40,H"


def test_moves_with_option(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys, "moves", "R:S,S,S,S Y:S,S,S,S R", "S", "--option", "sorry_forward_4=always"
    )
    assert out == "pass\n"  # no pawn out and no target: nothing to do
    _, out, _ = run(
        capsys, "moves", "R:S,S,S,20 Y:S,S,S,S R", "S", "-o", "sorry_forward_4=fallback"
    )
    assert out.splitlines() == ["R20+4 => R:S,S,S,28 Y:S,S,S,S"]  # slides 24 -> 28


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["moves", "R:S,S,S,S,S Y:S,S,S,S R", "1"], "Red has 5 pawns"),
        (["moves", "R:S,S,S,60 Y:S,S,S,S R", "1"], "square 60"),
        (["moves", "X:S,S,S,S Y:S,S,S,S R", "1"], "unknown colour"),
        (["moves", "R:S,S,5,5 Y:S,S,S,S R", "1"], "two Red pawns"),
        (["moves", POS, "9"], "unknown card"),
        (["moves", POS, "5", "--option", "deck=43"], "deck"),
        (["moves", POS, "5", "--option", "nonsense=1"], "unknown rule option"),
        (["moves", POS], "give the card"),
    ],
)
def test_bad_input_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("sorry: error:") and message in err


def test_show_draws_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", POS, "--colour", "never")
    lines = out.splitlines()
    # the board's 16 rows, the legend in two lines of at most 80 columns, the position
    assert code == 0 and len(lines) == 19 and "\x1b[" not in out
    assert max(len(line) for line in lines) <= 80
    assert "Ro" in lines[0]  # Red's pawn on its START exit 4, the end of its short slide
    assert POS in lines[-1]
    _, coloured, _ = run(capsys, "show", POS, "--colour", "always")
    assert "\x1b[31m" in coloured


def test_play_plain_bots_only_to_the_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run(
        capsys,
        "play",
        "--plain",
        "--players",
        "2",
        "--seats",
        "random,easy",
        "--seed",
        "5",
        "--colour",
        "never",
    )
    assert code == 0
    assert "wins after" in out
    assert out.count("[R] ") + out.count("[Y] ") > 20


def test_play_plain_human_moves_by_number(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    code, out, _ = run(
        capsys, "play", "--plain", "--players", "2", "--seed", "2", "--colour", "never"
    )
    assert code == 0
    assert "Red, you drew" in out and "Your move" in out


def test_play_rejects_bad_seats(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--plain", "--players", "2", "--seats", "human")
    assert code == 2 and "2 are playing" in err


def test_options_anywhere_after_the_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    # an option between the position and the card used to swallow the card
    pos = "R:S,S,S,4 B:S,S,S,19 Y:S,S,S,34 G:S,S,S,49 R"
    before = run(capsys, "moves", pos, "7", "--rules", "teams")
    assert before[0] == 0 and before[1]
    assert run(capsys, "moves", pos, "--rules", "teams", "7") == before
    assert run(capsys, "moves", "--rules", "teams", pos, "7") == before
    assert run(capsys, "--lang", "en", "moves", pos, "--rules=teams", "7") == before


def test_a_subcommand_mistake_shows_its_own_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["moves", POS, "10", "extra"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: sorry moves ")
    assert err.splitlines()[-1] == "sorry moves: error: unrecognized arguments: extra"
    with pytest.raises(SystemExit):
        main(["show"])
    assert capsys.readouterr().err.startswith("usage: sorry show ")


@pytest.mark.parametrize("command", [("moves",), ("hint", "--rollouts", "5")])
def test_finished_and_impossible_positions_are_errors(
    capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    # these printed "pass"
    code, out, err = run(capsys, *command, "R:H,H,H,H Y:12,33,40,H R", "7")
    assert (code, out) == (2, "")
    assert err == "sorry: error: the game is over in this position: Red has won\n"
    code, out, err = run(capsys, *command, "R:H,H,H,H Y:H,H,H,H R", "7")
    assert (code, out) == (2, "")
    assert err == (
        "sorry: error: impossible position: Red and Yellow have all their pawns home "
        "(the game ends when the first one does)\n"
    )
    # in teams a colour home goes on moving its partner: not over
    code, out, _ = run(
        capsys, *command, "R:H,H,H,H B:S,S,S,25 Y:S,S,10,20 G:S,S,S,S R", "--rules", "teams", "7"
    )
    assert code == 0 and out
    code, _, err = run(
        capsys, *command, "R:H,H,H,H B:S,S,S,25 Y:H,H,H,H G:S,S,S,S B", "--rules", "teams", "7"
    )
    assert code == 2 and "Red and Yellow have won" in err


def test_show_a_finished_position_says_who_won(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "R:H,H,H,H Y:12,33,40,H R")
    assert code == 0
    assert out.splitlines()[-1] == "R:H,H,H,H Y:12,33,40,H R   (game over: Red has won)"
    code, out, err = run(capsys, "show", "R:H,H,H,H Y:H,H,H,H R")
    assert (code, out) == (2, "")
    assert err.startswith("sorry: error: impossible position: Red and Yellow have all")


@pytest.mark.parametrize(
    ("argv", "file"),
    [
        (["simulate", "-n", "4", "--no-progress", "--json", "/nonexistent/x.json"], "x.json"),
        (["simulate", "-n", "4", "--no-progress", "--plot", "/nonexistent/x.png"], "x.png"),
        (["tournament", "--bots", "random,random", "-n", "2", "--out", "/nonexistent/d/p"], "p"),
        (["tournament", "--bots", "random,random", "-n", "2", "--plot", "/nonexistent/p.png"], ""),
        (["record", "--out", "/nonexistent/r.json"], "r.json"),
        (["play", "--plain", "--seats", "random,random", "--save", "/nonexistent/s.json"], ""),
        (["record", "--out", "."], ""),
        (["simulate", "-n", "4", "--no-progress", "--plot", "x.txt"], "a plot is .png, .svg, .pdf"),
    ],
)
def test_output_paths_checked_before_any_work(
    capsys: pytest.CaptureFixture[str], argv: list[str], file: str
) -> None:
    # the results (or a whole game) came first, then a traceback
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("sorry: error: cannot write ") and err.count("\n") == 1
    assert file in err


def test_an_unwritable_output_is_named(
    capsys: pytest.CaptureFixture[str],
    tmp_path: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import os

    locked = os.path.join(str(tmp_path), "locked")
    os.mkdir(locked, 0o500)
    if os.access(locked, os.W_OK):  # root writes anywhere (as in CI): deny it as a user is denied
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: mode != os.W_OK and real_access(p, mode))
    code, out, err = run(capsys, "record", "--out", os.path.join(locked, "r.json"))
    assert (code, out) == (2, "")
    assert err == f"sorry: error: cannot write {locked}/r.json: the folder is not writable\n"


# -- one set of game options for play, tui, record and simulate ------
def test_seats_or_bots_say_how_many_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    for command in ("play", "tui"):
        code, out, err = run(
            capsys, command, "--plain", "--seats", "random,easy", "--seed", "3", "--colour", "never"
        )
        assert (code, err) == (0, ""), command
        assert "Red: random, Yellow: easy" in out and "wins after" in out
    code, _out, err = run(capsys, "play", "--plain", "--seats", ",".join(["human"] * 5))
    assert (code, err) == (2, "sorry: error: --seats names 5 players: 2, 3 or 4 can play\n")
    one = "sorry: error: --seats names 2 players but 4 are playing\n"
    for command in ("play", "tui"):
        code, _out, err = run(
            capsys, command, "--plain", "--seats", "human,medium", "--players", "4"
        )
        assert (code, err) == (2, one)
    code, _out, err = run(
        capsys, "record", "--bots", "easy,random,random", "--players", "2", "-O", "-"
    )
    assert (code, err) == (2, "sorry: error: --bots names 3 players but 2 are playing\n")
    code, _out, err = run(capsys, "simulate", "--bots", "easy,random,random", "--players", "2")
    assert (code, err) == (2, "sorry: error: --bots names 3 players but 2 are playing\n")
    code, out, _err = run(capsys, "record", "--bots", "easy,random,random", "-O", "-", "-q")
    assert code == 0 and len(json.loads(out)["seats"]) == 3


def test_play_and_tui_take_the_same_options() -> None:
    from sorry.cli import build_parser

    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, type(parser._subparsers._actions[-1])))
    options = {
        name: {o for a in subs.choices[name]._actions for o in a.option_strings}
        for name in ("play", "tui")
    }
    assert options["play"] == options["tui"]
    assert {"--load", "--speed", "--games", "--target", "--bot", "--seats", "--save"} <= options[
        "play"
    ]


def test_tui_without_a_terminal_plays_line_by_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a terminal: no full screen (it used to start and hang), the plain game instead."""
    import sorry.tui

    def full_screen(*a: object, **k: object) -> int:
        raise AssertionError("the full screen started without a terminal")

    monkeypatch.setattr(sorry.tui, "run_app", full_screen)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, "tui", "--seats", "random,random", "--seed", "1")
    assert (code, err) == (0, "") and "wins after" in out
    code, out, err = run(capsys, "tui")  # no options: you against three easy bots; EOF quits
    assert code == 0 and "Game abandoned." in out


def test_a_match_is_saved_game_by_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    import os

    from sorry.record import verify_file

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    path = os.path.join(str(tmp_path), "match.json")
    argv = ["play", "--plain", "--seats", "random,easy", "--games", "3", "--seed", "4"]
    code, out, err = run(capsys, *argv, "--save", path, "--colour", "never")
    assert (code, err) == (0, "")
    assert "Match after 3 games:" in out and "the match" in out.splitlines()[-1]
    saved = sorted(os.listdir(str(tmp_path)))
    assert saved == ["match-1.json", "match-2.json", "match-3.json"]
    seeds = set()
    for name in saved:
        result = verify_file(os.path.join(str(tmp_path), name))
        assert result.ok, name
        with open(os.path.join(str(tmp_path), name)) as fh:
            seeds.add(json.load(fh)["reveal"]["seed"])
    assert len(seeds) == 3  # three different games


def test_play_resumes_a_saved_game_line_by_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    import os

    from sorry import Rules
    from sorry.tui.session import Session

    s = Session(Rules(), players=2, seats="random,easy", seed=8, games=2)
    for _step in range(30):
        s.draw_cards()
        s.play(s.bot_move())
    path = os.path.join(str(tmp_path), "saved.json")
    s.save(path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, "play", "--plain", "--load", path, "--colour", "never")
    assert (code, err) == (0, "")
    assert "Match after 2 games:" in out
    code, _out, err = run(capsys, "play", "--plain", "--load", os.path.join(str(tmp_path), "x"))
    assert code == 2 and err.startswith("sorry: error: cannot read ")


def test_every_command_has_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    """Polish: `sorry play --help` and `sorry show --help` said what the command does."""
    from sorry.cli import build_parser

    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, type(parser._subparsers._actions[-1])))
    for name, sub in subs.choices.items():
        assert sub.description, name
