"""The position string (docs/rules.md, Positions given by hand): parse, validate, print.

>>> p = Position.parse("Y:H,40,12,33 R:s2,S,4,S R")
>>> str(p)
'R:S,S,4,s2 Y:12,33,40,H R'
>>> p.board_text()
'R:S,S,4,s2 Y:12,33,40,H'
>>> Position.parse("R:S,S,S,S,S Y:S,S,S,S R")
Traceback (most recent call last):
...
sorry.errors.PositionError: Red has 5 pawns (each colour has 4)
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import (
    COLOUR_LETTERS,
    HOME,
    PAWNS_PER_COLOUR,
    START,
    TRACK_LEN,
    colour_name,
    loc_name,
    loc_sort_key,
    parse_loc,
)
from .errors import PositionError
from .i18n import _, ngettext

Pawns = tuple[tuple[int, ...] | None, ...]


def sorted_locs(locs: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(locs, key=loc_sort_key))


def field_text(colour: int, locs: list[int] | tuple[int, ...]) -> str:
    return COLOUR_LETTERS[colour] + ":" + ",".join(loc_name(x) for x in sorted_locs(locs))


@dataclass(frozen=True, slots=True)
class Position:
    """Pawns of every colour (``None`` for a colour not in play) and the colour to move."""

    pawns: Pawns
    to_move: int

    def __post_init__(self) -> None:
        validate(self.pawns, self.to_move)

    @property
    def colours(self) -> tuple[int, ...]:
        return tuple(c for c in range(4) if self.pawns[c] is not None)

    @classmethod
    def parse(cls, text: str) -> Position:
        fields = text.split()
        if len(fields) < 3:
            raise PositionError(
                _(
                    "bad position {text!r}: expected a field per colour (at least two) and the "
                    "colour to move, e.g. 'R:S,S,4,s2 Y:12,33,40,H R'"
                ).format(text=text)
            )
        pawns: list[tuple[int, ...] | None] = [None] * 4
        for f in fields[:-1]:
            letter, sep, rest = f.partition(":")
            if not sep or len(letter) != 1:
                raise PositionError(
                    _("bad field {field!r}: expected C:l,l,l,l with C one of R B Y G").format(
                        field=f
                    )
                )
            colour = _colour(letter, f)
            if pawns[colour] is not None:
                raise PositionError(_("{colour} appears twice").format(colour=colour_name(colour)))
            items = rest.split(",") if rest else []
            locs = []
            for item in items:
                try:
                    locs.append(parse_loc(item))
                except ValueError as exc:
                    raise PositionError(
                        _("{colour}: {error}").format(colour=colour_name(colour), error=exc)
                    ) from None
            if len(locs) != PAWNS_PER_COLOUR:
                raise PositionError(_pawn_count_error(colour, len(locs)))
            pawns[colour] = sorted_locs(locs)
        last = fields[-1]
        if ":" in last or len(last) != 1:
            raise PositionError(
                _(
                    "bad position {text!r}: the last field names the colour to move (R, B, Y or G)"
                ).format(text=text)
            )
        return cls(tuple(pawns), _colour(last, last))

    def board_text(self) -> str:
        """The position string without its last (to-move) field."""
        return " ".join(
            field_text(c, locs) for c, locs in enumerate(self.pawns) if locs is not None
        )

    def __str__(self) -> str:
        return f"{self.board_text()} {COLOUR_LETTERS[self.to_move]}"


def _colour(letter: str, context: str) -> int:
    idx = COLOUR_LETTERS.find(letter) if len(letter) == 1 else -1
    if idx < 0:
        raise PositionError(
            _("unknown colour {letter!r} in {context!r} (colours are R B Y G)").format(
                letter=letter, context=context
            )
        )
    return idx


def _pawn_count_error(colour: int, n: int) -> str:
    return ngettext(
        "{colour} has {n} pawn (each colour has 4)",
        "{colour} has {n} pawns (each colour has 4)",
        n,
    ).format(colour=colour_name(colour), n=n)


def validate(pawns: Pawns, to_move: int) -> None:
    """Raise :class:`PositionError` unless the pawns could stand on a board together."""
    if len(pawns) != 4:
        raise PositionError(_("pawns must be given for the four colours (None when not playing)"))
    in_play = [c for c in range(4) if pawns[c] is not None]
    if len(in_play) < 2:
        raise PositionError(_("a game needs at least two colours"))
    if to_move not in in_play:
        raise PositionError(
            _("{colour} is to move but has no pawns in play").format(colour=colour_name(to_move))
        )
    owner: dict[int, int] = {}
    for c in in_play:
        locs = pawns[c]
        assert locs is not None
        if len(locs) != PAWNS_PER_COLOUR:
            raise PositionError(_pawn_count_error(c, len(locs)))
        seen: set[int] = set()
        for loc in locs:
            if not (0 <= loc <= START):
                raise PositionError(
                    _("{colour}: bad location {loc}").format(colour=colour_name(c), loc=loc)
                )
            if loc in (START, HOME):
                continue
            if loc in seen:
                raise PositionError(
                    _(
                        "two {colour} pawns on square {square} "
                        "(pawns of one colour never share a square)"
                    ).format(colour=colour_name(c), square=loc_name(loc))
                )
            seen.add(loc)
            if loc < TRACK_LEN:
                if loc in owner:
                    raise PositionError(
                        _(
                            "square {square} holds a {colour} and a {other} pawn "
                            "(only one pawn fits on a square)"
                        ).format(square=loc, colour=colour_name(owner[loc]), other=colour_name(c))
                    )
                owner[loc] = c
