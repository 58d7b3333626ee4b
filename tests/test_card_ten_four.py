"""The 10 (10 forward or 1 back, both offered) and the 4 (4 back) (docs/rules.md, Cards)."""

from __future__ import annotations

from engine_helpers import game_at, moves_of

Y0 = "Y:S,S,S,S"


def test_ten_offers_both_forward_ten_and_back_one() -> None:
    assert moves_of("R:S,S,S,20 Y:S,S,S,S R", 10) == {
        "R20+10": "R:S,S,S,30 " + Y0,
        "R20-1": "R:S,S,S,19 " + Y0,
    }


def test_ten_for_every_pawn() -> None:
    assert moves_of("R:S,4,s2,H Y:12,33,40,H R", 10) == {
        "R4+10": "R:S,14,s2,H Y:12,33,40,H",
        "R4-1": "R:S,3,s2,H Y:12,33,40,H",
        "Rs2-1": "R:S,4,s1,H Y:12,33,40,H",
    }


def test_ten_back_one_when_forward_is_impossible() -> None:
    # 0+10 would pass HOME; 1 back wraps to 59
    assert moves_of("R:H,H,H,0 Y:S,S,S,S R", 10) == {"R0-1": "R:59,H,H,H " + Y0}
    assert moves_of("R:H,H,H,s5 Y:S,S,S,S R", 10) == {"Rs5-1": "R:s4,H,H,H " + Y0}


def test_ten_back_one_out_of_the_safety_zone() -> None:
    assert moves_of("R:H,H,H,s1 Y:S,S,S,S R", 10) == {"Rs1-1": "R:2,H,H,H " + Y0}
    # and it bumps an opponent on the entry square
    assert moves_of("R:H,H,H,s1 Y:S,S,S,2 R", 10) == {"Rs1-1": "R:2,H,H,H " + Y0}


def test_ten_into_the_safety_zone_and_home() -> None:
    assert moves_of("R:H,H,H,56 Y:S,S,S,S R", 10) == {
        "R56+10": "R:s4,H,H,H " + Y0,
        "R56-1": "R:55,H,H,H " + Y0,
    }
    assert moves_of("R:H,H,H,58 Y:S,S,S,S R", 10) == {
        "R58+10": "R:H,H,H,H " + Y0,
        "R58-1": "R:57,H,H,H " + Y0,
    }


def test_ten_blocked_each_way_by_own_pawns() -> None:
    assert moves_of("R:H,H,19,20 Y:S,S,S,S R", 10) == {
        "R19+10": "R:20,29,H,H " + Y0,
        "R19-1": "R:18,20,H,H " + Y0,
        "R20+10": "R:19,30,H,H " + Y0,
    }
    assert moves_of("R:H,10,19,20 Y:S,S,S,S R", 10) == {
        "R10-1": "R:9,19,20,H " + Y0,  # 9 is Red's own triangle: no slide
        "R19+10": "R:10,20,29,H " + Y0,
        "R19-1": "R:10,18,20,H " + Y0,
        "R20+10": "R:10,19,30,H " + Y0,
    }


def test_no_pawn_out_no_move() -> None:
    assert moves_of("R:S,S,S,S Y:S,S,S,S R", 10) == {"pass": "R:S,S,S,S " + Y0}
    assert moves_of("R:S,S,S,S Y:S,S,S,S R", 4) == {"pass": "R:S,S,S,S " + Y0}


def test_four_back() -> None:
    assert moves_of("R:S,S,S,30 Y:S,S,S,S R", 4) == {"R30-4": "R:S,S,S,26 " + Y0}
    # every pawn may go back; a START or HOME pawn may not
    assert moves_of("R:S,10,s3,H Y:S,S,S,S R", 4) == {
        "R10-4": "R:S,6,s3,H " + Y0,
        "Rs3-4": "R:S,1,10,H " + Y0,  # 1 is Red's own triangle: no slide
    }


def test_four_back_onto_a_triangle_slides() -> None:
    # 20-4 = 16, Blue's triangle: Red slides to 19 (backward moves slide too)
    assert moves_of("R:S,S,S,20 Y:S,S,S,S R", 4) == {"R20-4": "R:S,S,S,19 " + Y0}
    assert moves_of("R:S,S,S,35 Y:S,S,S,33 R", 4) == {"R35-4": "R:S,S,S,34 Y:S,S,S,S"}
    # Yellow on its own triangle does not slide
    assert moves_of("R:S,S,S,S Y:S,S,S,35 Y", 4) == {"Y35-4": "R:S,S,S,S Y:S,S,S,31"}


def test_four_back_bumps() -> None:
    assert moves_of("R:S,S,S,30 Y:S,S,S,26 R", 4) == {"R30-4": "R:S,S,S,26 Y:S,S,S,S"}


def test_four_back_onto_own_pawn_is_illegal_even_on_a_triangle() -> None:
    # legality is judged on the landing square: 20-4 = 16 holds Red, although it would slide
    assert moves_of("R:S,S,16,20 Y:S,S,S,S R", 4) == {"R16-4": "R:S,S,12,20 " + Y0}


def test_four_from_the_exit_to_the_corner() -> None:
    for c, letter in enumerate("RBYG"):
        exit_ = 15 * c + 4
        pos = f"R:S,S,S,S {letter}:S,S,S,{exit_} {letter}" if c else "R:S,S,S,4 Y:S,S,S,S R"
        got = moves_of(pos, 4)
        assert list(got) == [f"{letter}{exit_}-4"]
        assert f"{letter}:S,S,S,{15 * c}" in got[f"{letter}{exit_}-4"]


def test_two_fours_that_slide_back_where_they_were_are_one_move() -> None:
    # 43-4 and 58-4 land on the triangles 39 and 54 and slide back to 43 and 58: the same
    # result (no change at all), listed once; the other one is accepted as that move
    pos = "R:43,58,H,H B:S,s4,H,H R"
    assert moves_of(pos, 4) == {"R43-4": "R:43,58,H,H B:S,s4,H,H"}
    g = game_at(pos, 4)
    g.push("R58-4")
    assert g.position_string() == "R:43,58,H,H B:S,s4,H,H B"
    assert [str(m) for m in g.move_stack] == ["R43-4"]
    # with a pawn on a slide the results differ, and both are listed
    assert moves_of("R:43,58,H,H B:S,41,H,H R", 4) == {
        "R43-4": "R:43,58,H,H B:S,S,H,H",
        "R58-4": "R:43,58,H,H B:S,41,H,H",
    }
