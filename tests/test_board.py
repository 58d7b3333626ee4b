"""Board geometry and movement arithmetic (docs/rules.md, Board and coordinates), checked
against the rule text and against an independent step-by-step walk."""

from __future__ import annotations

import pytest

from sorry.board import (
    BLUE,
    COLOURS,
    GREEN,
    HOME,
    RED,
    SAFE_BASE,
    SAFETY_ENTRY,
    SLIDES,
    START,
    START_EXIT,
    YELLOW,
    backward_dest,
    colour_of_letter,
    forward_dest,
    loc_name,
    parse_loc,
    slide_table,
    steps_to_home,
)


def walk_forward(colour: int, loc: int, n: int) -> int:
    """One square at a time: a pawn on its entry steps into s1; s5 steps into HOME."""
    entry = 15 * colour + 2
    for _ in range(n):
        if loc in (START, HOME):
            return -1
        if loc == entry:
            loc = SAFE_BASE + 1
        elif loc > SAFE_BASE:
            loc = loc + 1 if loc < SAFE_BASE + 5 else HOME
        else:
            loc = (loc + 1) % 60
    return loc


def walk_backward(colour: int, loc: int, n: int) -> int:
    entry = 15 * colour + 2
    for _ in range(n):
        if loc in (START, HOME):
            return -1
        if loc == SAFE_BASE + 1:
            loc = entry
        elif loc > SAFE_BASE:
            loc -= 1
        else:
            loc = (loc - 1) % 60
    return loc


def L(text: str) -> int:
    return parse_loc(text)


def test_rule_table_squares() -> None:
    assert SAFETY_ENTRY == (2, 17, 32, 47)
    assert START_EXIT == (4, 19, 34, 49)
    assert set(SLIDES) == {
        (1, 4, RED), (9, 13, RED),
        (16, 19, BLUE), (24, 28, BLUE),
        (31, 34, YELLOW), (39, 43, YELLOW),
        (46, 49, GREEN), (54, 58, GREEN),
    }  # fmt: skip


@pytest.mark.parametrize("colour", COLOURS)
def test_forward_table_matches_a_step_by_step_walk(colour: int) -> None:
    for loc in [*range(60), *range(SAFE_BASE + 1, SAFE_BASE + 6), HOME, START]:
        for n in range(1, 13):
            assert forward_dest(colour, loc, n) == walk_forward(colour, loc, n), (loc, n)


@pytest.mark.parametrize("colour", COLOURS)
def test_backward_table_matches_a_step_by_step_walk(colour: int) -> None:
    for loc in [*range(60), *range(SAFE_BASE + 1, SAFE_BASE + 6), HOME, START]:
        for n in range(1, 5):
            assert backward_dest(colour, loc, n) == walk_backward(colour, loc, n), (loc, n)


@pytest.mark.parametrize(
    ("colour", "src", "n", "dest"),
    [
        (RED, "10", 5, "15"),
        (RED, "0", 2, "2"),  # lands on its own entry, does not turn in
        (RED, "0", 3, "s1"),
        (RED, "0", 7, "s5"),
        (RED, "0", 8, "H"),
        (RED, "0", 9, None),  # more than HOME: illegal
        (RED, "2", 1, "s1"),  # a pawn on its own entry turns in at once
        (RED, "2", 6, "H"),
        (RED, "2", 7, None),
        (RED, "3", 12, "15"),  # b+3 goes all the way round
        (RED, "4", 12, "16"),  # b+4 too
        (RED, "57", 5, "2"),
        (RED, "57", 8, "s3"),
        (RED, "59", 12, None),  # 59 -> 2 is 3 steps, then 9 more: past HOME
        (RED, "58", 10, "H"),  # 58 -> 2 is 4, then 6: HOME
        (BLUE, "58", 12, "10"),  # wrap round 59 -> 0
        (BLUE, "10", 12, "s5"),  # 10 -> 17 is 7, then s5
        (YELLOW, "30", 3, "s1"),
        (GREEN, "59", 5, "4"),
        (GREEN, "40", 12, "s5"),
        (RED, "s3", 2, "s5"),
        (RED, "s3", 3, "H"),
        (RED, "s3", 4, None),
        (RED, "s5", 1, "H"),
    ],
)
def test_forward_examples(colour: int, src: str, n: int, dest: str | None) -> None:
    assert forward_dest(colour, L(src), n) == (-1 if dest is None else L(dest))


@pytest.mark.parametrize(
    ("colour", "src", "n", "dest"),
    [
        (RED, "10", 4, "6"),
        (RED, "2", 4, "58"),  # backward never enters a Safety Zone, wraps round
        (RED, "4", 4, "0"),
        (RED, "s1", 1, "2"),  # s1 back 1 is the entry square
        (RED, "s2", 1, "s1"),
        (RED, "s2", 4, "0"),
        (RED, "s4", 4, "2"),
        (RED, "s5", 4, "s1"),
        (RED, "s1", 4, "59"),
        (BLUE, "s1", 4, "14"),
        (BLUE, "s3", 4, "16"),
        (YELLOW, "34", 4, "30"),
        (GREEN, "0", 4, "56"),
    ],
)
def test_backward_examples(colour: int, src: str, n: int, dest: str) -> None:
    assert backward_dest(colour, L(src), n) == L(dest)


@pytest.mark.parametrize("colour", COLOURS)
def test_start_and_home_cannot_move(colour: int) -> None:
    for n in range(1, 13):
        assert forward_dest(colour, START, n) == -1
        assert forward_dest(colour, HOME, n) == -1
    for n in range(1, 5):
        assert backward_dest(colour, START, n) == -1
        assert backward_dest(colour, HOME, n) == -1


@pytest.mark.parametrize("colour", COLOURS)
def test_sanity_figures(colour: int) -> None:
    b = 15 * colour
    exit_ = START_EXIT[colour]
    assert steps_to_home(colour, exit_) == 64
    # walk 64 steps from the START exit in chunks of 12 or less: exactly HOME
    loc, left = exit_, 64
    while left:
        step = min(12, left)
        loc = forward_dest(colour, loc, step)
        left -= step
    assert loc == HOME
    # a 4 played from the START exit lands on b+0, 8 steps from HOME
    assert backward_dest(colour, exit_, 4) == b
    assert steps_to_home(colour, b) == 8
    assert forward_dest(colour, b, 8) == HOME
    assert steps_to_home(colour, START) == 65
    assert steps_to_home(colour, HOME) == 0
    for loc in [*range(60), *range(SAFE_BASE + 1, SAFE_BASE + 6)]:
        k = steps_to_home(colour, loc)
        assert 1 <= k <= (65 if loc == b + 3 else 64), loc
        if k <= 12:
            assert forward_dest(colour, loc, k) == HOME
        if k < 12:
            assert forward_dest(colour, loc, k + 1) == -1  # HOME by exact count only


def test_slide_tables() -> None:
    other = slide_table("other")
    own = slide_table("own")
    every = slide_table("all")
    for triangle, end, owner in SLIDES:
        for c in COLOURS:
            assert other[c][triangle] == (-1 if c == owner else end)
            assert own[c][triangle] == (end if c == owner else -1)
            assert every[c][triangle] == end
    triangles = {t for t, _e, _o in SLIDES}
    for table in (other, own, every):
        for c in COLOURS:
            assert all(table[c][sq] == -1 for sq in range(60) if sq not in triangles)


def test_location_names_round_trip() -> None:
    names = ["S", *map(str, range(60)), "s1", "s2", "s3", "s4", "s5", "H"]
    for name in names:
        assert loc_name(parse_loc(name)) == name
    assert parse_loc("S") == START and parse_loc("H") == HOME


@pytest.mark.parametrize("bad", ["60", "-1", "07", "s0", "s6", "h", "", "x", "S1"])
def test_bad_locations(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_loc(bad)


def test_colour_letters() -> None:
    assert [colour_of_letter(x) for x in "RBYG"] == [RED, BLUE, YELLOW, GREEN]
    with pytest.raises(ValueError, match="unknown colour"):
        colour_of_letter("X")
