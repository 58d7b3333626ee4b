"""Forward and backward movement with real cards (docs/rules.md, Board and coordinates; Cards):
entries, wrap-around, exact count to HOME, backing out of the Safety Zone, jumping, never
landing on an own pawn. Each case is a position, a card and the exact legal moves with their
results."""

from __future__ import annotations

import pytest

from engine_helpers import moves_of

Y0 = "Y:S,S,S,S"


@pytest.mark.parametrize(
    ("position", "card", "expected"),
    [
        # plain forward moves of the forward-only cards
        ("R:H,H,H,20 Y:S,S,S,S R", 3, {"R20+3": "R:23,H,H,H " + Y0}),
        ("R:H,H,H,20 Y:S,S,S,S R", 5, {"R20+5": "R:25,H,H,H " + Y0}),
        ("R:H,H,H,20 Y:S,S,S,S R", 8, {"R20+8": "R:28,H,H,H " + Y0}),
        ("R:H,H,H,20 Y:S,S,S,S R", 12, {"R20+12": "R:32,H,H,H " + Y0}),
        # wrap-around 59 -> 0 and on to the entry (landing on the entry does not turn in)
        ("R:H,H,H,57 Y:S,S,S,S R", 5, {"R57+5": "R:2,H,H,H " + Y0}),
        ("R:H,H,H,57 Y:S,S,S,S R", 8, {"R57+8": "R:s3,H,H,H " + Y0}),
        ("R:H,H,H,52 Y:S,S,S,S R", 12, {"R52+12": "R:s2,H,H,H " + Y0}),
        # exact count to HOME; more is not a move (forfeit)
        ("R:H,H,H,0 Y:S,S,S,S R", 8, {"R0+8": "R:H,H,H,H " + Y0}),
        ("R:H,H,H,0 Y:S,S,S,S R", 12, {"pass": "R:0,H,H,H " + Y0}),
        ("R:H,H,H,s3 Y:S,S,S,S R", 3, {"Rs3+3": "R:H,H,H,H " + Y0}),
        ("R:H,H,H,s3 Y:S,S,S,S R", 5, {"pass": "R:s3,H,H,H " + Y0}),
        ("R:H,H,H,s5 Y:S,S,S,S R", 12, {"pass": "R:s5,H,H,H " + Y0}),
        # a pawn on its own entry turns in at once
        ("R:H,H,H,2 Y:S,S,S,S R", 1, {"R2+1": "R:s1,H,H,H " + Y0}),
        ("R:H,H,H,2 Y:S,S,S,S R", 5, {"R2+5": "R:s5,H,H,H " + Y0}),
        ("R:H,H,H,2 Y:S,S,S,S R", 8, {"pass": "R:2,H,H,H " + Y0}),
        # b+3 and b+4 go all the way round
        ("R:H,H,H,3 Y:S,S,S,S R", 12, {"R3+12": "R:15,H,H,H " + Y0}),
        ("R:H,H,H,3 Y:S,S,S,S R", 1, {"R3+1": "R:4,H,H,H " + Y0}),
        ("R:H,H,H,4 Y:S,S,S,S R", 3, {"R4+3": "R:7,H,H,H " + Y0}),
        # the same for another colour: Yellow's entry is 32
        ("R:S,S,S,S Y:H,H,H,30 Y", 3, {"Y30+3": "R:S,S,S,S Y:s1,H,H,H"}),
        ("R:S,S,S,S Y:H,H,H,33 Y", 12, {"Y33+12": "R:S,S,S,S Y:45,H,H,H"}),
        ("R:S,S,S,S G:H,H,H,58 G", 8, {"G58+8": "R:S,S,S,S G:6,H,H,H"}),
        # pawns jump over any pawn, own or not
        (
            "R:H,H,10,12 Y:S,S,S,11 R",
            3,
            {"R10+3": "R:12,13,H,H Y:S,S,S,11", "R12+3": "R:10,15,H,H Y:S,S,S,11"},
        ),
        # never onto an own pawn (track and Safety Zone); HOME holds any number
        ("R:H,H,10,15 Y:S,S,S,S R", 5, {"R15+5": "R:10,20,H,H " + Y0}),
        ("R:H,H,s1,s3 Y:S,S,S,S R", 2, {"Rs3+2": "R:s1,s5,H,H " + Y0}),
        ("R:H,H,s4,s5 Y:S,S,S,S R", 1, {"Rs5+1": "R:s4,H,H,H " + Y0}),
        ("R:H,H,s3,s4 Y:S,S,S,S R", 3, {"Rs3+3": "R:s4,H,H,H " + Y0}),
        # no card moves a pawn out of START except 1 and 2 (and Sorry!)
        ("R:S,S,S,S Y:S,S,S,S R", 3, {"pass": "R:S,S,S,S " + Y0}),
        ("R:S,S,S,S Y:S,S,S,S R", 12, {"pass": "R:S,S,S,S " + Y0}),
        ("R:S,S,S,S Y:S,S,S,S R", 4, {"pass": "R:S,S,S,S " + Y0}),
        ("R:S,S,S,S Y:S,S,S,S R", 10, {"pass": "R:S,S,S,S " + Y0}),
    ],
)
def test_forward_moves(position: str, card: int, expected: dict[str, str]) -> None:
    assert moves_of(position, card) == expected


@pytest.mark.parametrize(
    ("position", "card", "expected"),
    [
        ("R:H,H,H,10 Y:S,S,S,S R", 4, {"R10-4": "R:6,H,H,H " + Y0}),
        # backward never enters a Safety Zone and wraps 0 -> 59
        ("R:H,H,H,4 Y:S,S,S,S R", 4, {"R4-4": "R:0,H,H,H " + Y0}),
        ("R:H,H,H,2 Y:S,S,S,S R", 4, {"R2-4": "R:58,H,H,H " + Y0}),
        ("R:H,H,H,0 Y:S,S,S,S R", 4, {"R0-4": "R:56,H,H,H " + Y0}),
        # backing out of the Safety Zone
        ("R:H,H,H,s2 Y:S,S,S,S R", 4, {"Rs2-4": "R:0,H,H,H " + Y0}),
        ("R:H,H,H,s4 Y:S,S,S,S R", 4, {"Rs4-4": "R:2,H,H,H " + Y0}),
        ("R:H,H,H,s5 Y:S,S,S,S R", 4, {"Rs5-4": "R:s1,H,H,H " + Y0}),
        ("R:H,H,H,s1 Y:S,S,S,S R", 4, {"Rs1-4": "R:59,H,H,H " + Y0}),
        ("R:S,S,S,S B:H,H,H,s1 B", 4, {"Bs1-4": "R:S,S,S,S B:14,H,H,H"}),
        # onto an own pawn is illegal backward too
        ("R:H,H,6,10 Y:S,S,S,S R", 4, {"R6-4": "R:2,10,H,H " + Y0}),
        ("R:H,H,s1,s5 Y:S,S,S,S R", 4, {"Rs1-4": "R:59,s5,H,H " + Y0}),
        # a pawn in HOME never moves
        ("R:H,H,H,H Y:S,S,S,S Y", 4, {"pass": "R:H,H,H,H " + Y0}),
    ],
)
def test_backward_moves(position: str, card: int, expected: dict[str, str]) -> None:
    assert moves_of(position, card) == expected


def test_backed_out_pawn_turns_in_on_the_next_forward_move() -> None:
    # b+4 -> b+0 with a 4, then it enters its Safety Zone without going round
    assert moves_of("R:H,H,H,4 Y:S,S,S,S R", 4) == {"R4-4": "R:0,H,H,H " + Y0}
    assert moves_of("R:H,H,H,0 Y:S,S,S,S R", 3) == {"R0+3": "R:s1,H,H,H " + Y0}
    assert moves_of("R:H,H,H,0 Y:S,S,S,S R", 8) == {"R0+8": "R:H,H,H,H " + Y0}
    # out of the Safety Zone with the 10's one back, and in again on the next move
    assert moves_of("R:H,H,H,s1 Y:S,S,S,S R", 10) == {"Rs1-1": "R:2,H,H,H " + Y0}
    assert moves_of("R:H,H,H,2 Y:S,S,S,S R", 3) == {"R2+3": "R:s3,H,H,H " + Y0}
    # backed out from s2 to 0: a 7 takes it straight to s5
    assert moves_of("R:H,H,H,0 Y:S,S,S,S R", 7) == {"R0+7": "R:s5,H,H,H " + Y0}


def test_moves_of_every_pawn_are_listed() -> None:
    assert moves_of("R:20,30,s1,H Y:S,S,S,S R", 3) == {
        "R20+3": "R:23,30,s1,H " + Y0,
        "R30+3": "R:20,33,s1,H " + Y0,
        "Rs1+3": "R:20,30,s4,H " + Y0,
    }
