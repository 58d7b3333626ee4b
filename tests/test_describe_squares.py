"""Squares named the way a player sees the board (``sorry.describe.square_words``): by the
nearest Safety Zone entrance or START exit, counted in steps a pawn walks."""

from __future__ import annotations

import re

import pytest

from sorry import Game
from sorry.board import (
    COLOURS,
    HOME,
    SAFE_BASE,
    SAFETY_ENTRY,
    START,
    START_EXIT,
    TRACK_LEN,
    colour_name,
)
from sorry.describe import landings, square_words, where_words
from sorry.i18n import LANGUAGES, using

PHRASE = re.compile(
    r"^(?:(?P<n>\d+) squares? (?P<dir>before|after) (?:(?P<who>\w+)'s|your) "
    r"(?P<mark>START|Safety Zone)"
    r"|at the entrance to (?:(?P<who2>\w+)'s|your) Safety Zone"
    r"|outside (?:(?P<who3>\w+)'s|your) START)$"
)


def landmark_of(text: str, viewer: int | None) -> tuple[int, int]:
    """The square a phrase counts from and the signed steps it names."""
    m = PHRASE.match(text)
    assert m, text
    who = m["who"] or m["who2"] or m["who3"]
    side = viewer if who is None else [str(colour_name(c)) for c in COLOURS].index(who)
    assert side is not None
    if m["n"] is None:
        return (SAFETY_ENTRY[side], 0) if "entrance" in text else (START_EXIT[side], 0)
    n = int(m["n"]) * (1 if m["dir"] == "after" else -1)
    return (START_EXIT[side] if m["mark"] == "START" else SAFETY_ENTRY[side]), n


@pytest.mark.parametrize("viewer", [None, 0, 2])
def test_every_track_square_is_named_from_a_landmark_six_steps_away_at_most(
    viewer: int | None,
) -> None:
    for square in range(TRACK_LEN):
        text = square_words(square, viewer)
        mark, steps = landmark_of(text, viewer)
        assert (mark + steps) % TRACK_LEN == square, (square, text)
        assert abs(steps) <= 6, text
        # the nearest landmark: no entrance or exit is closer than the one named
        marks = [*SAFETY_ENTRY, *START_EXIT]
        nearest = min(min((square - m) % TRACK_LEN, (m - square) % TRACK_LEN) for m in marks)
        assert abs(steps) == nearest or abs(steps) == 6, (square, text, nearest)
        # "your" exactly when the landmark is the viewer's
        assert ("your" in text) == (viewer is not None and viewer in _sides(mark)), text


def _sides(mark: int) -> set[int]:
    return {c for c in COLOURS if mark in (SAFETY_ENTRY[c], START_EXIT[c])}


def test_the_words_of_a_few_squares() -> None:
    assert square_words(28, viewer=2) == "4 squares before your Safety Zone"
    assert square_words(36) == "2 squares after Yellow's START"
    assert square_words(3) == "1 square before Red's START"
    assert square_words(4, viewer=0) == "outside your START"
    assert square_words(17) == "at the entrance to Blue's Safety Zone"
    assert square_words(59) == "3 squares before Red's Safety Zone"
    assert square_words(SAFE_BASE + 2) == "Safety 2"
    assert (square_words(HOME), square_words(START)) == ("HOME", "START")


def test_where_a_move_takes_its_pawns_after_slides_and_for_both_halves_of_a_seven() -> None:
    g = Game.from_position("R:S,S,13,s2 B:S,S,S,18 R", card=3)
    m = next(m for m in g.legal_moves if str(m).startswith("R13"))
    assert landings(m, g.effects(m)) == [19]  # slid from 16 to Blue's START exit
    assert where_words(m, g.effects(m), viewer=1) == "outside your START"
    g = Game.from_position("R:S,S,20,40 B:S,S,S,S R", card=7)
    split = next(m for m in g.legal_moves if str(m) == "R20+3/R40+4")
    assert where_words(split, g.effects(split), viewer=0) == (
        "4 squares after Blue's START; 3 squares before Green's Safety Zone"
    )
    g = Game.from_position("R:S,S,S,s3 B:S,S,S,S R", card=3)
    home = g.legal_moves[0]
    assert landings(home, g.effects(home)) == [HOME]
    assert where_words(home, g.effects(home)) == ""  # the move's own words say HOME


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_every_square_has_its_own_words_in_every_language(lang: str) -> None:
    with using(lang):
        for viewer in (None, 1):
            said = [square_words(s, viewer) for s in range(TRACK_LEN)]
            assert len(set(said)) == TRACK_LEN, said  # no two squares said alike
            assert not any("{" in s or "'s" in s or "square" in s for s in said), said
