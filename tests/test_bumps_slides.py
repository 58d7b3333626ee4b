"""Bumping, landing and slides (docs/rules.md, Landing, bumping, slides)."""

from __future__ import annotations

import pytest

from engine_helpers import moves_of

Y0 = "Y:S,S,S,S"


def test_landing_on_an_opponent_bumps_it_to_start() -> None:
    assert moves_of("R:S,S,S,20 Y:S,S,S,25 R", 5) == {"R20+5": "R:S,S,S,25 Y:S,S,S,S"}
    assert moves_of("R:S,S,S,20 Y:S,S,S,25 Y", 5) == {"Y25+5": "R:S,S,S,20 Y:S,S,S,30"}


def test_never_end_on_own_pawn_home_excepted() -> None:
    assert moves_of("R:S,S,20,25 Y:S,S,S,S R", 5) == {"R25+5": "R:S,S,20,30 " + Y0}
    assert moves_of("R:H,H,H,s1 Y:S,S,S,S R", 5) == {"Rs1+5": "R:H,H,H,H " + Y0}


@pytest.mark.parametrize(
    ("src", "card", "triangle", "end"),
    [
        (11, 5, 16, 19),  # Blue short
        (19, 5, 24, 28),  # Blue long
        (26, 5, 31, 34),  # Yellow short
        (34, 5, 39, 43),  # Yellow long
        (41, 5, 46, 49),  # Green short
        (49, 5, 54, 58),  # Green long
    ],
)
def test_slides_of_other_colours(src: int, card: int, triangle: int, end: int) -> None:
    assert src + card == triangle
    assert moves_of(f"R:S,S,S,{src} Y:S,S,S,S R", card) == {
        f"R{src}+{card}": f"R:S,S,S,{end} " + Y0
    }


@pytest.mark.parametrize(("src", "triangle"), [(56, 1), (4, 9)])
def test_own_triangle_no_slide(src: int, triangle: int) -> None:
    card = (triangle - src) % 60
    assert moves_of(f"R:S,S,S,{src} Y:S,S,S,S R", card) == {
        f"R{src}+{card}": f"R:S,S,S,{triangle} " + Y0
    }
    # nothing on the own slide is bumped either
    got = moves_of(f"R:S,S,S,{src} Y:S,S,S,{triangle + 2} R", card)
    assert got[f"R{src}+{card}"] == f"R:S,S,S,{triangle} Y:S,S,S,{triangle + 2}"


def test_yellow_slides_on_reds_triangles_not_its_own() -> None:
    assert moves_of("R:S,S,S,S Y:S,S,S,56 Y", 5) == {"Y56+5": "R:S,S,S,S Y:S,S,S,4"}
    assert moves_of("R:S,S,S,S Y:S,S,S,26 Y", 5) == {"Y26+5": "R:S,S,S,S Y:S,S,S,31"}


def test_every_pawn_on_the_slide_is_bumped_own_included() -> None:
    assert moves_of("R:S,S,11,17 Y:S,S,18,19 R", 5) == {
        "R11+5": "R:S,S,S,19 Y:S,S,S,S",
        "R17+5": "R:S,S,11,22 Y:S,S,18,19",
    }
    # the long slide: four squares after the triangle
    # backward onto a triangle from the slide's own end: slides back to where it was
    assert moves_of("R:S,S,S,28 Y:S,25,26,27 R", 4) == {"R28-4": "R:S,S,S,28 Y:S,S,S,S"}
    got = moves_of("R:S,S,19,26 Y:25,27,28,29 R", 5)
    assert got["R19+5"] == "R:S,S,S,28 Y:S,S,S,29"


def test_opponent_on_the_triangle_is_bumped_then_the_slide() -> None:
    assert moves_of("R:S,S,S,11 Y:S,S,S,16 R", 5) == {"R11+5": "R:S,S,S,19 Y:S,S,S,S"}


def test_legality_is_judged_on_the_triangle() -> None:
    # own pawn on the triangle: illegal to land there, although the pawn would slide on
    assert moves_of("R:S,S,11,16 Y:S,S,S,S R", 5) == {"R16+5": "R:S,S,11,21 " + Y0}
    # own pawn at the end of the slide: legal, and it is bumped
    assert moves_of("R:S,S,11,19 Y:S,S,S,S R", 5) == {
        "R11+5": "R:S,S,S,19 " + Y0,
        "R19+5": "R:S,S,11,28 " + Y0,
    }


def test_only_a_move_ending_on_the_triangle_slides() -> None:
    # ending on a slide square after the triangle: no slide, nothing bumped
    assert moves_of("R:S,S,S,12 Y:S,S,18,19 R", 5) == {"R12+5": "R:S,S,S,17 Y:S,S,18,19"}
    # passing over a triangle: no slide
    assert moves_of("R:S,S,S,14 Y:S,S,18,19 R", 3) == {"R14+3": "R:S,S,S,17 Y:S,S,18,19"}
    # pawns before the triangle are safe
    assert moves_of("R:S,S,S,11 Y:S,S,15,20 R", 5) == {"R11+5": "R:S,S,S,19 Y:S,S,15,20"}


def test_a_start_does_not_slide() -> None:
    # the START exit is the end of the short slide, not a triangle
    assert moves_of("R:S,S,S,S B:S,S,S,S Y:S,S,S,S G:S,S,S,S B", 1) == {
        "BS>19": "R:S,S,S,S B:S,S,S,19 Y:S,S,S,S G:S,S,S,S"
    }
