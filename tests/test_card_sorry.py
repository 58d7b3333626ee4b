"""The Sorry! card (docs/rules.md, Cards; Landing, bumping, slides)."""

from __future__ import annotations

import pytest

from engine_helpers import game_at, moves_of
from sorry import IllegalMoveError


def test_sorry_takes_the_place_of_every_opponent_track_pawn() -> None:
    assert moves_of("R:S,10,20,30 Y:S,S,45,50 R", "S") == {
        "RS>Y45": "R:10,20,30,45 Y:S,S,S,50",
        "RS>Y50": "R:10,20,30,50 Y:S,S,S,45",
    }


def test_sorry_targets_in_a_four_player_game() -> None:
    got = moves_of("R:S,S,S,S B:S,S,5,s1 Y:S,S,H,40 G:S,S,S,59 R", "S")
    assert got == {
        "RS>B5": "R:S,S,S,5 B:S,S,S,s1 Y:S,S,40,H G:S,S,S,59",
        "RS>Y40": "R:S,S,S,40 B:S,S,5,s1 Y:S,S,S,H G:S,S,S,59",
        "RS>G59": "R:S,S,S,59 B:S,S,5,s1 Y:S,S,40,H G:S,S,S,S",
    }


@pytest.mark.parametrize(
    "position",
    [
        "R:10,20,30,s1 Y:S,S,45,50 R",  # no pawn in START
        "R:S,S,S,S Y:S,s1,s5,H R",  # opponents only in START, Safety Zone and HOME
        "R:S,S,S,S Y:S,S,S,S R",
        "R:S,S,10,20 Y:S,S,S,S R",  # own pawns are never targets
    ],
)
def test_sorry_forfeited_without_start_pawn_or_target(position: str) -> None:
    board = position.rsplit(" ", 1)[0]
    assert moves_of(position, "S") == {"pass": board}


def test_sorry_must_be_played_when_possible() -> None:
    g = game_at("R:S,S,S,S Y:S,S,S,50 R", "S")
    assert [str(m) for m in g.legal_moves] == ["RS>Y50"]
    with pytest.raises(IllegalMoveError):
        g.push("pass")


def test_sorry_onto_a_triangle_slides_and_bumps_the_slide() -> None:
    # Yellow on its own triangle 39; Red lands there, bumps it, slides to 43 bumping Yellow
    # on 41 and Red's own pawn on 43
    got = moves_of("R:S,S,S,43 Y:S,S,39,41 R", "S")
    assert got["RS>Y39"] == "R:S,S,S,43 Y:S,S,S,S"
    assert got["RS>Y41"] == "R:S,S,41,43 Y:S,S,S,39"


def test_sorry_onto_own_triangle_does_not_slide() -> None:
    # a Yellow pawn on Red's triangle 9 (it may stand there after a swap)
    assert moves_of("R:S,S,S,11 Y:S,S,S,9 R", "S") == {"RS>Y9": "R:S,S,9,11 Y:S,S,S,S"}


def test_sorry_onto_the_victims_start_exit_and_anywhere() -> None:
    assert moves_of("R:S,S,S,S Y:S,S,S,34 R", "S") == {"RS>Y34": "R:S,S,S,34 Y:S,S,S,S"}
    # a victim just past Red's own entry: Red must go round from there
    assert moves_of("R:S,S,S,S Y:S,S,S,3 R", "S") == {"RS>Y3": "R:S,S,S,3 Y:S,S,S,S"}
