"""Starting pawns with a 1 or a 2 (docs/rules.md, Cards)."""

from __future__ import annotations

import pytest

from engine_helpers import moves_of
from sorry.cards import CARDS, SORRY


@pytest.mark.parametrize("card", [1, 2])
def test_start_from_start_onto_the_exit(card: int) -> None:
    assert moves_of("R:S,S,S,S Y:S,S,S,S R", card) == {"RS>4": "R:S,S,S,4 Y:S,S,S,S"}
    assert moves_of("R:S,S,S,S B:S,S,S,S B", card) == {"BS>19": "R:S,S,S,S B:S,S,S,19"}
    assert moves_of("R:S,S,S,S Y:S,S,S,S Y", card) == {"YS>34": "R:S,S,S,S Y:S,S,S,34"}
    assert moves_of("R:S,S,S,S G:S,S,S,S G", card) == {"GS>49": "R:S,S,S,S G:S,S,S,49"}


@pytest.mark.parametrize("card", [c for c in CARDS if c not in (1, 2, SORRY)])
def test_no_other_card_starts_a_pawn(card: int) -> None:
    assert moves_of("R:S,S,S,S Y:S,S,S,S R", card) == {"pass": "R:S,S,S,S Y:S,S,S,S"}


def test_start_or_move_forward() -> None:
    assert moves_of("R:S,S,S,20 Y:S,S,S,S R", 1) == {
        "RS>4": "R:S,S,4,20 Y:S,S,S,S",
        "R20+1": "R:S,S,S,21 Y:S,S,S,S",
    }
    # the 2 does not move the started pawn further: it stops on the exit
    assert moves_of("R:S,S,S,20 Y:S,S,S,S R", 2) == {
        "RS>4": "R:S,S,4,20 Y:S,S,S,S",
        "R20+2": "R:S,S,S,22 Y:S,S,S,S",
    }


@pytest.mark.parametrize("card", [1, 2])
def test_exit_blocked_by_own_pawn(card: int) -> None:
    expected = {f"R4+{card}": f"R:S,S,S,{4 + card} Y:S,S,S,S"}
    assert moves_of("R:S,S,S,4 Y:S,S,S,S R", card) == expected


def test_exit_blocked_and_the_pawn_on_it_blocked_too() -> None:
    # no start (own pawn on 4), and 4 -> 5 lands on an own pawn: only the pawn on 5 moves
    assert moves_of("R:S,S,4,5 Y:S,S,S,S R", 1) == {"R5+1": "R:S,S,4,6 Y:S,S,S,S"}


@pytest.mark.parametrize("card", [1, 2])
def test_opponent_on_exit_is_bumped(card: int) -> None:
    got = moves_of("R:S,S,S,S Y:S,S,S,4 R", card)
    assert got == {"RS>4": "R:S,S,S,4 Y:S,S,S,S"}
    got = moves_of("R:S,S,S,S B:S,S,S,S Y:20,S,S,19 B", card)
    assert got == {"BS>19": "R:S,S,S,S B:S,S,S,19 Y:S,S,S,20"}


def test_one_start_move_however_many_pawns_in_start() -> None:
    assert list(moves_of("R:S,S,S,S Y:S,S,S,S R", 1)) == ["RS>4"]
    assert list(moves_of("R:S,S,S,10 Y:S,S,S,S R", 2)) == ["RS>4", "R10+2"]
