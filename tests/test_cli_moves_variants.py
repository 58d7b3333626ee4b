"""``sorry moves`` with ``--rules teams|points`` and ``--option``."""

from __future__ import annotations

import json

import pytest

from sorry.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["moves", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def lines(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    return out.splitlines()


TEAM_POS = "R:S,S,S,10 B:S,S,S,25 Y:S,S,S,40 G:S,S,S,50 R"


def test_teams_lists_the_partners_pawns(capsys: pytest.CaptureFixture[str]) -> None:
    assert lines(capsys, TEAM_POS, "1", "--rules", "teams") == [
        "RS>4 => R:S,S,4,10 B:S,S,S,25 Y:S,S,S,40 G:S,S,S,50",
        "YS>34 => R:S,S,S,10 B:S,S,S,25 Y:S,S,34,40 G:S,S,S,50",
        "R10+1 => R:S,S,S,11 B:S,S,S,25 Y:S,S,S,40 G:S,S,S,50",
        "Y40+1 => R:S,S,S,10 B:S,S,S,25 Y:S,S,S,41 G:S,S,S,50",
    ]
    # The standard game with four players lists Red's own moves only.
    assert lines(capsys, TEAM_POS, "1") == [
        "RS>4 => R:S,S,4,10 B:S,S,S,25 Y:S,S,S,40 G:S,S,S,50",
        "R10+1 => R:S,S,S,11 B:S,S,S,25 Y:S,S,S,40 G:S,S,S,50",
    ]


def test_teams_sorry_on_the_partner(capsys: pytest.CaptureFixture[str]) -> None:
    pos = "R:S,S,S,S B:S,S,S,S Y:S,S,S,20 G:S,S,S,S R"
    assert lines(capsys, pos, "S", "--rules", "teams") == [
        "RS>Y20 => R:S,S,S,20 B:S,S,S,S Y:S,S,S,S G:S,S,S,S"
    ]
    # Yellow's own pawn in START cannot take Yellow's square: no YS>... move. In teams with
    # Red's pawns all out, only Yellow's START pawns are placed, never on Yellow.
    pos = "R:5,10,15,20 B:S,S,S,S Y:S,S,S,40 G:S,S,S,S R"
    assert [line.split(" => ")[0] for line in lines(capsys, pos, "S", "--rules", "teams")] == [
        "YS>R5",
        "YS>R10",
        "YS>R15",
        "YS>R20",
    ]


def test_teams_eleven_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    got = lines(capsys, TEAM_POS, "11", "--rules", "teams")
    assert [line.split(" => ")[0] for line in got] == [
        "R10+11",
        "Y40+11",
        "R10<>B25",
        "R10<>G50",
        "Y40<>B25",
        "Y40<>G50",
    ]
    got = lines(capsys, TEAM_POS, "11", "--rules", "teams", "--option", "team_swap_partner=yes")
    assert "R10<>Y40 => R:S,S,S,40 B:S,S,S,25 Y:S,S,S,10 G:S,S,S,50" in got
    assert len(got) == 7


def test_teams_seven_split_any(capsys: pytest.CaptureFixture[str]) -> None:
    pos = "R:S,S,10,20 B:S,S,S,S Y:S,S,S,40 G:S,S,S,S R"
    two = lines(capsys, pos, "7", "--rules", "teams")
    many = lines(capsys, pos, "7", "--rules", "teams", "-o", "team_seven_split=any")
    assert not any(line.split(" => ")[0].count("/") == 2 for line in two)
    assert "R10+1/R20+2/Y40+4 => R:S,S,11,22 B:S,S,S,S Y:S,S,S,44 G:S,S,S,S" in many
    assert set(two) < set(many)


def test_teams_slide_on_own(capsys: pytest.CaptureFixture[str]) -> None:
    pos = "R:S,S,S,S B:S,S,S,S Y:S,S,6,36 G:S,S,S,S R"
    assert lines(capsys, pos, "3", "--rules", "teams", "-o", "slide_on=own") == [
        "Y6+3 => R:S,S,S,S B:S,S,S,S Y:S,S,9,36 G:S,S,S,S",
        "Y36+3 => R:S,S,S,S B:S,S,S,S Y:S,S,6,43 G:S,S,S,S",
    ]


def test_points_lists_every_card_of_the_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert lines(capsys, "R:S,S,S,4 Y:S,S,S,34 R", "--rules", "points", "--hand", "1,4,5,11,S") == [
        "1:R4+1 => R:S,S,S,5 Y:S,S,S,34",
        "4:R4-4 => R:S,S,S,0 Y:S,S,S,34",
        "5:R4+5 => R:S,S,S,9 Y:S,S,S,34",
        "11:R4+11 => R:S,S,S,15 Y:S,S,S,34",
        "11:R4<>Y34 => R:S,S,S,34 Y:S,S,S,4",
        "S:RS>Y34 => R:S,S,4,34 Y:S,S,S,S",
    ]


def test_points_dead_hand_lists_the_discards(capsys: pytest.CaptureFixture[str]) -> None:
    pos = "R:H,H,H,s5 Y:S,S,S,34 R"
    assert lines(capsys, pos, "--rules", "points", "--hand", "2,3,5,8,12") == [
        f"discard:{c} => R:s5,H,H,H Y:S,S,S,34" for c in (2, 3, 5, 8, 12)
    ]


def test_points_declinable_eleven_json(capsys: pytest.CaptureFixture[str]) -> None:
    pos = "R:S,S,S,2 Y:S,S,S,30 R"
    code, out, _ = run(capsys, pos, "--rules", "points", "--hand", "7,8,11,12,11", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["hand"] == ["7", "8", "11", "12", "11"]
    assert data["may_discard"] is True and data["may_pass"] is False
    assert [m["move"] for m in data["moves"]] == [
        "11:R2<>Y30",
        "discard:7",
        "discard:8",
        "discard:11",
        "discard:12",
    ]
    # With a usable card there are no discards.
    code, out, _ = run(capsys, pos, "--rules", "points", "--hand", "3,8,11,12,7", "--json")
    data = json.loads(out)
    assert data["may_discard"] is False
    assert [m["move"] for m in data["moves"]] == ["3:R2+3", "11:R2<>Y30"]


def test_points_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    pos = "R:S,S,S,4 Y:S,S,S,34 R"
    got = lines(
        capsys, pos, "--rules", "points", "--hand", "S,3,3,3,3", "-o", "sorry_forward_4=always"
    )
    assert [line.split(" => ")[0] for line in got] == ["3:R4+3", "S:RS>Y34", "S:R4+4"]
    got = lines(capsys, pos, "--rules", "points", "--hand", "5,3,3,3,3", "-o", "slide_on=own")
    assert "5:R4+5 => R:S,S,S,13 Y:S,S,S,34" in got


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["R:S,S,S,4 Y:S,S,S,34 R", "--rules", "points"], "needs --hand"),
        (["R:S,S,S,4 Y:S,S,S,34 R", "5", "--rules", "points", "--hand", "1,2,3,4,5"], "not a card"),
        (["R:S,S,S,4 Y:S,S,S,34 R", "--rules", "points", "--hand", "1,2,3"], "five cards"),
        (["R:S,S,S,4 Y:S,S,S,34 R", "--rules", "points", "--hand", "1,2,3,4,6"], "unknown card"),
        (["R:S,S,S,4 Y:S,S,S,34 R", "--rules", "points", "--hand", "S,S,S,S,S"], "no S left"),
        (["R:S,S,S,4 Y:S,S,S,34 R", "5", "--hand", "1,2,3,4,5"], "points variant"),
        (["R:S,S,S,4 Y:S,S,S,34 R", "5", "--rules", "teams"], "four colours"),
        ([TEAM_POS, "5", "-o", "team_swap_partner=yes"], "only applies to the teams variant"),
        ([TEAM_POS, "5", "--rules", "teams", "-o", "points_bonus=cumulative"], "points variant"),
        (
            [
                "R:S,S,S,4 Y:S,S,S,34 R",
                "--rules",
                "points",
                "--hand",
                "1,2,3,4,5",
                "-o",
                "starting_pawns_out=0",
            ],
            "makes no sense",
        ),
    ],
)
def test_refusals(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("sorry: error: ") and message in err
    assert err.count("\n") == 1
