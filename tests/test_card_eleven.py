"""The 11 (docs/rules.md, Cards; Landing, bumping, slides): 11 forward or a swap with an
opponent's track pawn; may be declined only when no pawn can go 11 forward; only the mover's
pawn slides (by default)."""

from __future__ import annotations

import pytest

from engine_helpers import game_at, moves_of
from sorry import IllegalMoveError


def test_forward_or_swap_with_every_opponent_track_pawn() -> None:
    assert moves_of("R:S,S,S,10 Y:S,S,20,40 R", 11) == {
        "R10+11": "R:S,S,S,21 Y:S,S,20,40",
        "R10<>Y20": "R:S,S,S,20 Y:S,S,10,40",
        "R10<>Y40": "R:S,S,S,40 Y:S,S,10,20",
    }


def test_swap_targets_are_on_the_track_only() -> None:
    # Yellow pawns in START, Safety Zone and HOME are not targets; Red's Safety Zone pawn
    # cannot swap either
    assert moves_of("R:S,S,s2,10 Y:S,s1,H,20 R", 11) == {
        "R10+11": "R:S,S,21,s2 Y:S,20,s1,H",
        "R10<>Y20": "R:S,S,20,s2 Y:S,10,s1,H",
    }


def test_no_swap_with_own_pawns_and_all_opponents_in_three_player_game() -> None:
    got = moves_of("R:S,S,10,30 B:S,S,S,20 Y:S,S,S,45 R", 11)
    assert set(got) == {
        "R10+11", "R30+11",
        "R10<>B20", "R10<>Y45", "R30<>B20", "R30<>Y45",
    }  # fmt: skip
    assert got["R30<>B20"] == "R:S,S,10,20 B:S,S,S,30 Y:S,S,S,45"


def test_decline_only_when_no_pawn_can_go_eleven_forward() -> None:
    # 58+11 would pass HOME: only the swap or pass
    assert moves_of("R:S,S,S,58 Y:S,S,S,20 R", 11) == {
        "R58<>Y20": "R:S,S,S,20 Y:S,S,S,58",
        "pass": "R:S,S,S,58 Y:S,S,S,20",
    }
    # with an 11 forward available, no pass
    got = moves_of("R:S,S,10,58 Y:S,S,S,20 R", 11)
    assert "pass" not in got
    g = game_at("R:S,S,10,58 Y:S,S,S,20 R", 11)
    with pytest.raises(IllegalMoveError):
        g.push("pass")
    # no move at all: the turn is forfeited
    assert moves_of("R:S,S,S,s1 Y:S,S,S,20 R", 11) == {"pass": "R:S,S,S,s1 Y:S,S,S,20"}
    # a forward 11 blocked by an own pawn does not count
    assert moves_of("R:S,S,10,21 Y:S,S,S,S R", 11) == {
        "R21+11": "R:S,S,10,32 Y:S,S,S,S",
    }
    assert moves_of("R:S,S,10,s3 Y:S,S,S,21 R", 11) == {
        "R10+11": "R:S,S,21,s3 Y:S,S,S,S",
        "R10<>Y21": "R:S,S,21,s3 Y:S,S,S,10",
    }


def test_swapped_pawn_past_its_entry_must_go_round() -> None:
    # Red takes square 3, just past its entry 2: its next 1 goes to 4, not into the zone
    assert moves_of("R:S,S,S,20 Y:S,S,S,3 R", 11)["R20<>Y3"] == "R:S,S,S,3 Y:S,S,S,20"
    assert moves_of("R:S,S,S,3 Y:S,S,S,20 R", 1) == {
        "RS>4": "R:S,S,3,4 Y:S,S,S,20",
        "R3+1": "R:S,S,S,4 Y:S,S,S,20",
    }
    # Yellow is given square 33, past its entry 32
    assert moves_of("R:S,S,S,33 Y:S,S,S,20 R", 11)["R33<>Y20"] == "R:S,S,S,20 Y:S,S,S,33"
    assert moves_of("R:S,S,S,20 Y:S,S,S,33 Y", 3) == {"Y33+3": "R:S,S,S,20 Y:S,S,S,36"}


def test_swap_is_unaffected_by_safety_entries() -> None:
    # a pawn on its own entry cannot go 11 forward (it would pass HOME) but can swap away
    assert moves_of("R:S,S,S,2 Y:S,S,S,50 R", 11) == {
        "R2<>Y50": "R:S,S,S,50 Y:S,S,S,2",
        "pass": "R:S,S,S,2 Y:S,S,S,50",
    }


def test_eleven_forward_onto_a_triangle_slides() -> None:
    assert moves_of("R:S,S,S,5 Y:S,S,S,S R", 11) == {"R5+11": "R:S,S,S,19 Y:S,S,S,S"}


@pytest.mark.parametrize("swap_slides", ["mover", "both"])
def test_the_movers_pawn_slides_and_bumps_everything_on_the_slide(swap_slides: str) -> None:
    got = moves_of("R:S,S,10,17 Y:S,S,16,18 R", 11, swap_slides=swap_slides)
    # Red 10 <-> Yellow 16: Red slides 16 -> 19 bumping its own 17 and Yellow's 18
    assert got["R10<>Y16"] == "R:S,S,S,19 Y:S,S,S,10"


def test_the_opponents_pawn_does_not_slide_by_default() -> None:
    got = moves_of("R:S,S,1,3 Y:S,S,S,20 R", 11)
    assert got["R1<>Y20"] == "R:S,S,3,20 Y:S,S,S,1"


def test_swap_slides_both_slides_the_opponents_pawn_too() -> None:
    got = moves_of("R:S,S,1,3 Y:S,S,S,20 R", 11, swap_slides="both")
    # Yellow takes Red's triangle 1 and slides to 4, bumping Red's pawn on 3
    assert got["R1<>Y20"] == "R:S,S,S,20 Y:S,S,S,4"
    # a Yellow pawn given its own triangle does not slide
    got = moves_of("R:S,S,S,31 Y:S,S,S,20 R", 11, swap_slides="both")
    assert got["R31<>Y20"] == "R:S,S,S,20 Y:S,S,S,31"


@pytest.mark.parametrize("swap_slides", ["mover", "both"])
def test_movers_slide_bumps_the_swapped_pawn(swap_slides: str) -> None:
    # Red 17 <-> Yellow 16: Red slides 16 -> 19 over 17, where Yellow was just put: bumped
    got = moves_of("R:S,S,S,17 Y:S,S,S,16 R", 11, swap_slides=swap_slides)
    assert got["R17<>Y16"] == "R:S,S,S,19 Y:S,S,S,S"


def test_opponents_slide_bumps_the_mover_with_swap_slides_both() -> None:
    # Red on Green's triangle 46 (put there by a swap) swaps with Yellow on 47
    pos = "R:S,S,S,46 Y:S,S,S,47 R"
    assert moves_of(pos, 11)["R46<>Y47"] == "R:S,S,S,47 Y:S,S,S,46"
    assert moves_of(pos, 11, swap_slides="both")["R46<>Y47"] == "R:S,S,S,S Y:S,S,S,49"


def test_swap_onto_own_triangle_does_not_slide() -> None:
    got = moves_of("R:S,S,S,30 Y:S,S,S,9 R", 11)
    assert got["R30<>Y9"] == "R:S,S,S,9 Y:S,S,S,30"


def test_swaps_ending_alike_are_listed_once() -> None:
    # Green 40 or Green 43 takes Yellow's triangle 39 and slides to 43: both bump the other
    # Green pawn and the Yellow one; one result, one listed move, and both are accepted
    pos = "R:S,3,9,21 B:S,18,49,s3 Y:39,48,s3,H G:S,2,40,43 G"
    got = moves_of(pos, 11)
    assert got["G40<>Y39"] == "R:S,3,9,21 B:S,18,49,s3 Y:S,48,s3,H G:S,S,2,43"
    assert "G43<>Y39" not in got
    assert len(set(got.values())) == len(got) == 22
    g = game_at(pos, 11)
    g.push("G43<>Y39")
    assert g.board_text() == got["G40<>Y39"]
    assert [str(m) for m in g.move_stack] == ["G40<>Y39"]
    # a swap that is not legal is still refused
    for text in ("G2<>G40", "G2<>Ys3", "G43<>Y38", "Gs1<>Y39"):
        g = game_at(pos, 11)
        with pytest.raises((IllegalMoveError, ValueError)):
            g.push(text)


def test_a_swap_ending_like_the_eleven_forward_is_that_move() -> None:
    # slide_on=all, swap_slides=both: Red 16 <-> Yellow 27 puts Yellow on Blue's triangle 16,
    # and slides to 19, bumping the Yellow pawn there; Red ends on 27. R16+11 lands on 27 and
    # bumps the Yellow pawn there: Yellow is left on 1 and 19 either way, the same board.
    pos = "R:16,s1,s4,H B:S,S,9,s1 Y:S,1,19,27 G:28,31,s4,H R"
    opts = {"slide_on": "all", "swap_slides": "both"}
    got = moves_of(pos, 11, **opts)
    assert got["R16+11"] == "R:27,s1,s4,H B:S,S,9,s1 Y:S,S,1,19 G:28,31,s4,H"
    assert "R16<>Y27" not in got  # it ends exactly like R16+11
    g = game_at(pos, 11, **opts)
    g.push("R16<>Y27")
    assert [str(m) for m in g.move_stack] == ["R16+11"]
