"""Move notation (src/sorry/moves.py): every kind parses, prints and round-trips; bad text is
refused with a NotationError; every move the engine lists prints in a form it accepts back."""

from __future__ import annotations

import pytest

from sorry import Game, Move, NotationError
from sorry.board import HOME, START
from sorry.moves import BACKWARD, ENTER, FORWARD, PASS, SORRY, SPLIT, SWAP


@pytest.mark.parametrize(
    ("text", "kind", "fields"),
    [
        ("R12+5", FORWARD, (0, 12, 5)),
        ("Rs3+2", FORWARD, (0, 62, 2)),
        ("B0+12", FORWARD, (1, 0, 12)),
        ("R12-4", BACKWARD, (0, 12, 4)),
        ("Gs1-1", BACKWARD, (3, 60, 1)),
        ("RS>4", ENTER, (0, START, 0)),
        ("YS>34", ENTER, (2, START, 0)),
        ("RS>B40", SORRY, (0, START, 0)),
        ("R12<>B40", SWAP, (0, 12, 0)),
    ],
)
def test_simple_moves(text: str, kind: int, fields: tuple[int, int, int]) -> None:
    m = Move.parse(text)
    assert m.kind == kind
    assert (m.colour, m.src, m.steps) == fields
    assert str(m) == text
    assert Move.parse(str(m)) == m


def test_targets() -> None:
    assert Move.parse("RS>4").target == 4
    m = Move.parse("RS>B40")
    assert (m.target_colour, m.target) == (1, 40)
    m = Move.parse("R12<>G59")
    assert (m.target_colour, m.target) == (3, 59)


def test_split_and_pass() -> None:
    m = Move.parse("R12+3/R40+4")
    assert m.kind == SPLIT and m.is_split
    assert [str(p) for p in m.parts] == ["R12+3", "R40+4"]
    assert str(m) == "R12+3/R40+4"
    assert Move.parse("R40+4/R12+3") != m  # the halves are played in the order written
    assert Move.parse(" R12+3 / R40+4 ") == m
    assert Move.parse("pass").kind == PASS and Move.parse("PASS").is_pass
    assert str(Move.parse("pass")) == "pass"


def test_card_prefix() -> None:
    m = Move.parse("7:R12+3/R40+4")
    assert m.card == 7 and str(m) == "7:R12+3/R40+4"
    assert str(Move.parse("s:RS>B40")) == "S:RS>B40"
    assert Move.parse("discard:7").is_discard and str(Move.parse("discard:S")) == "discard:S"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("R12", "bad move"),
        ("X12+5", "bad move"),
        ("R12+0", "0 steps"),
        ("R12+13", "13 steps"),
        ("R60+1", "off the track"),
        ("Rs6+1", "bad move"),
        ("RS>5", "START exit 4"),
        ("BS>4", "START exit 19"),
        ("R4>B40", "from S"),
        ("RS>Bs1", "track squares only"),
        ("Rs1<>B40", "track squares only"),
        ("R12<>BH", "track squares only"),
        ("R12+3/R40-4", "forward moves"),
        ("R12+3/RS>4", "forward moves"),
        ("6:R12+6", "unknown card"),
        ("R12+5 R13+5", "bad move"),
    ],
)
def test_bad_moves(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Move.parse(text)


def test_every_listed_move_round_trips_through_its_notation() -> None:
    g = Game(players=4, seed=3)
    seen = 0
    for _ in range(600):
        if g.is_over():
            break
        if g.is_chance():
            g.draw()
            continue
        for m in g.legal_moves:
            assert Move.parse(str(m)) == m
            seen += 1
        g.push(g.legal_moves[-1])
    assert seen > 300


def test_move_locations_use_pawn_colour_safety_zone() -> None:
    assert Move.parse("Bs5+1").src == HOME - 1
