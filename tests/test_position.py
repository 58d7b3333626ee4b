"""The position string (docs/rules.md, Positions given by hand; README, Notation): parse, print,
canonical order, validation."""

from __future__ import annotations

import pytest

from sorry import Game, Position, PositionError
from sorry.board import HOME, START


def test_canonical_print() -> None:
    p = Position.parse("Y:H,40,12,33 R:s2,S,4,S R")
    assert str(p) == "R:S,S,4,s2 Y:12,33,40,H R"
    assert p.board_text() == "R:S,S,4,s2 Y:12,33,40,H"
    assert Position.parse(str(p)) == p


def test_sort_order_start_track_safety_home() -> None:
    p = Position.parse("R:H,s1,59,S B:s5,s3,0,9 G:H,H,S,S Y:S,S,S,S G")
    assert str(p) == "R:S,59,s1,H B:0,9,s3,s5 Y:S,S,S,S G:S,S,H,H G"
    assert p.colours == (0, 1, 2, 3)
    assert p.to_move == 3


def test_same_position_prints_the_same() -> None:
    a = Position.parse("R:10,S,H,s5 Y:S,S,S,S Y")
    b = Position.parse("Y:S,S,S,S R:s5,H,10,S Y")
    assert str(a) == str(b) == "R:S,10,s5,H Y:S,S,S,S Y"


def test_any_subset_of_colours() -> None:
    p = Position.parse("B:S,S,S,S G:S,S,S,S G")
    assert p.colours == (1, 3)
    assert p.pawns[0] is None and p.pawns[2] is None


def test_shared_safety_numbers_and_home_start_are_fine() -> None:
    # s1 of Red and s1 of Yellow are different squares; START and HOME hold many pawns.
    p = Position.parse("R:s1,S,S,H Y:s1,H,H,H R")
    assert p.pawns[0] == (START, START, 60, HOME)


def test_position_of_a_game() -> None:
    g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H Y", card=3)
    assert g.position_string() == "R:S,S,4,s2 Y:12,33,40,H Y"
    assert str(g.position()) == g.position_string()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("R:S,S,S,S,S Y:S,S,S,S R", "Red has 5 pawns"),
        ("R:S,S,S Y:S,S,S,S R", "Red has 3 pawns"),
        ("R:S,S,S,S R", "at least two"),
        ("R:S,S,S,S Y:S,S,S,S", "expected a field per colour"),
        ("R:S,S,S,S Y:S,S,S,S B:S,S,S,S", "last field names the colour to move"),
        ("R:S,S,S,S Y:S,S,S,S RY", "last field names the colour to move"),
        ("R:S,S,S,S Y:S,S,S,S B", "Blue is to move but has no pawns"),
        ("R:S,S,S,S R:S,S,S,S R", "Red appears twice"),
        ("X:S,S,S,S Y:S,S,S,S Y", "unknown colour"),
        ("R:S,S,S,S Y:S,S,S,S X", "unknown colour"),
        ("RS,S,S,S Y:S,S,S,S R", "bad field"),
        ("R:S,S,S,60 Y:S,S,S,S R", "off the track"),
        ("R:S,S,S,s6 Y:S,S,S,S R", "bad pawn location"),
        ("R:S,S,10,10 Y:S,S,S,S R", "two Red pawns on square 10"),
        ("R:S,S,s2,s2 Y:S,S,S,S R", "two Red pawns on square s2"),
        ("R:S,S,S,10 Y:S,S,S,10 R", "square 10 holds a Red and a Yellow pawn"),
        ("", "bad position"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Position.parse(text)


def test_position_built_by_hand_is_validated() -> None:
    with pytest.raises(PositionError, match="only one pawn fits"):
        Position(((5, START, START, START), None, (5, START, START, START), None), 0)
    with pytest.raises(PositionError, match="bad location"):
        Position(((67, START, START, START), None, (START,) * 4, None), 0)
    with pytest.raises(PositionError, match="four colours"):
        Position(((START,) * 4, (START,) * 4), 0)
