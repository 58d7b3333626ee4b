"""The 7 (docs/rules.md, Cards): 7 forward with one pawn, or split between two different pawns,
both parts in full, forward, in either order, the second judged on the board the first left."""

from __future__ import annotations

import pytest

from engine_helpers import game_at, moves_of
from sorry import IllegalMoveError

Y0 = "Y:S,S,S,S"


def test_all_splits_of_two_free_pawns() -> None:
    assert moves_of("R:S,S,10,20 Y:S,S,S,S R", 7) == {
        "R10+7": "R:S,S,17,20 " + Y0,
        "R20+7": "R:S,S,10,27 " + Y0,
        "R10+1/R20+6": "R:S,S,11,26 " + Y0,
        "R10+2/R20+5": "R:S,S,12,25 " + Y0,
        "R10+3/R20+4": "R:S,S,13,28 " + Y0,  # 24 is Blue's long triangle: slides to 28
        "R10+4/R20+3": "R:S,S,14,23 " + Y0,
        "R10+5/R20+2": "R:S,S,15,22 " + Y0,
        "R10+6/R20+1": "R:S,S,19,21 " + Y0,  # 16 is Blue's short triangle: slides to 19
    }


def test_a_single_pawn_moves_seven_never_splits_with_itself() -> None:
    assert moves_of("R:S,S,S,10 Y:S,S,S,S R", 7) == {"R10+7": "R:S,S,S,17 " + Y0}
    g = game_at("R:S,S,S,10 Y:S,S,S,S R", 7)
    for text in ("R10+3/R13+4", "R10+1/R11+6", "R10+6/R16+1"):
        with pytest.raises(IllegalMoveError):
            g.push(text)


def test_never_starts_a_pawn_nor_moves_backward() -> None:
    assert moves_of("R:S,S,S,S Y:S,S,S,S R", 7) == {"pass": "R:S,S,S,S " + Y0}
    # START pawns cannot take a part of the split
    assert moves_of("R:S,S,S,s4 Y:S,S,S,S R", 7) == {"pass": "R:S,S,S,s4 " + Y0}


def test_a_part_that_cannot_be_used_in_full_makes_the_split_illegal() -> None:
    # s4 can take 1 (s5) or 2 (HOME), nothing more; 10 can take any part
    assert moves_of("R:S,S,10,s4 Y:S,S,S,S R", 7) == {
        "R10+7": "R:S,S,17,s4 " + Y0,
        "R10+6/Rs4+1": "R:S,S,19,s5 " + Y0,
        "R10+5/Rs4+2": "R:S,S,15,H " + Y0,
    }


def test_home_with_part_only_if_the_rest_is_used() -> None:
    assert moves_of("R:H,H,20,s5 Y:S,S,S,S R", 7) == {
        "R20+7": "R:27,s5,H,H " + Y0,
        "R20+6/Rs5+1": "R:26,H,H,H " + Y0,
    }
    # s5 could go HOME with 1, but s1 cannot use the other 6: no move at all
    assert moves_of("R:H,H,s1,s5 Y:S,S,S,S R", 7) == {"pass": "R:s1,s5,H,H " + Y0}
    # the last pawn cannot go HOME with part of a 7 alone
    assert moves_of("R:H,H,H,s5 Y:S,S,S,S R", 7) == {"pass": "R:s5,H,H,H " + Y0}


def test_second_half_judged_on_the_board_left_by_the_first() -> None:
    # 11+5 lands on Blue's triangle 16 and slides to 19, bumping the own pawn on 17: so
    # "R11+5/R17+2" is impossible, but "R17+2/R11+5" is legal (the slide bumps it on 19).
    # "R17+1/R11+6" ends like R11+7 and is listed once.
    got = moves_of("R:S,S,11,17 Y:S,S,S,S R", 7)
    assert got == {
        "R11+7": "R:S,S,17,18 " + Y0,
        "R17+7": "R:S,S,11,28 " + Y0,
        "R11+1/R17+6": "R:S,S,12,23 " + Y0,
        "R11+2/R17+5": "R:S,S,13,22 " + Y0,
        "R11+3/R17+4": "R:S,S,14,21 " + Y0,
        "R11+4/R17+3": "R:S,S,15,20 " + Y0,
        "R17+2/R11+5": "R:S,S,S,19 " + Y0,
    }
    g = game_at("R:S,S,11,17 Y:S,S,S,S R", 7)
    with pytest.raises(IllegalMoveError):
        g.push("R11+5/R17+2")


def test_first_half_frees_the_square_for_the_second() -> None:
    # 10+3 needs 13 empty: with the pawn on 13 moving 4 first it is legal, and ends exactly
    # like R10+7 (listed once, as the plain 7); the split is accepted as that move.
    got = moves_of("R:S,S,10,13 Y:S,S,S,S R", 7)
    assert got["R10+7"] == "R:S,S,13,17 " + Y0
    assert "R10+3/R13+4" not in got and "R13+4/R10+3" not in got
    g = game_at("R:S,S,10,13 Y:S,S,S,S R", 7)
    with pytest.raises(IllegalMoveError):
        g.push("R10+3/R13+4")
    g.push("R13+4/R10+3")
    assert g.board_text() == "R:S,S,13,17 " + Y0


def test_first_half_bump_leaves_the_square_to_the_second() -> None:
    # Red 36+3 lands on Yellow's triangle 39 and slides to 43, bumping its own pawn on 42;
    # then Red 38+4 may land on 42. In the other order 38+4 would land on its own pawn.
    got = moves_of("R:S,36,38,42 Y:S,S,S,S R", 7)
    assert got["R36+3/R38+4"] == "R:S,S,42,43 " + Y0
    g = game_at("R:S,36,38,42 Y:S,S,S,S R", 7)
    with pytest.raises(IllegalMoveError):
        g.push("R38+4/R36+3")


def test_halves_never_land_on_the_other_half() -> None:
    # 20+2 bumps Yellow on 22, then 17+5 would land on the own pawn on 22: illegal either way
    got = moves_of("R:S,S,17,20 Y:S,S,S,22 R", 7)
    assert got == {
        "R17+7": "R:S,S,20,28 Y:S,S,S,22",  # 24 is Blue's long triangle
        "R20+7": "R:S,S,17,27 Y:S,S,S,22",
        "R17+1/R20+6": "R:S,S,18,26 Y:S,S,S,22",
        "R17+2/R20+5": "R:S,S,19,25 Y:S,S,S,22",
        "R17+4/R20+3": "R:S,S,21,23 Y:S,S,S,22",  # = R17+6/R20+1, listed once
    }


def test_either_order_is_accepted_when_the_results_agree() -> None:
    g = game_at("R:S,S,10,20 Y:S,S,S,S R", 7)
    g.push("R20+4/R10+3")  # listed as R10+3/R20+4
    assert g.board_text() == "R:S,S,13,28 " + Y0
    # an order that equals a plain 7 of one pawn is accepted as that move
    g = game_at("R:S,S,11,17 Y:S,S,S,S R", 7)
    g.push("R17+1/R11+6")
    assert g.board_text() == "R:S,S,17,18 " + Y0
    assert str(g.move_stack[-1]) == "R11+7"


def test_split_halves_bump_opponents() -> None:
    got = moves_of("R:S,S,10,20 Y:S,S,13,25 R", 7)
    assert got["R10+3/R20+4"] == "R:S,S,13,28 Y:S,S,S,S"  # bumps 13, then slide bumps 25
    assert got["R10+2/R20+5"] == "R:S,S,12,25 Y:S,S,S,13"
