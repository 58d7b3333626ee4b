"""A hint in a player's words: the one place its sentences are made, for the terminal game and
the browser (the server sends them with its hint, in the page's language).

The headline says the best move's chance of winning in tenths and how many moves are as good
as it ("Best: about 4 chances in 10 to win; these two are about as good as each other."); each
move is tagged ``best``, ``as good`` (the estimate cannot tell it from the best) or ``not as
good``; the figures (the percentage and its 95% interval) and what "as good" means are the
details, shown on demand.

>>> rows = [Chance(0.42, 0.38, 0.46, True), Chance(0.41, 0.37, 0.45, True),
...         Chance(0.20, 0.17, 0.24, False)]
>>> words = hint_words(rows)
>>> words.say
'Best: about 4 chances in 10 to win; these two are about as good as each other.'
>>> words.tags
('best', 'as good', 'not as good')
>>> words.figures[0]
'42% [38–46]'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple, Protocol

from .i18n import _, ngettext

#: The kinds of a hinted move: the best, one as good as it, one not as good.
BEST: Final = "best"
AS_GOOD: Final = "as good"
NOT_AS_GOOD: Final = "not as good"


class ChanceLike(Protocol):
    """A move's estimate as every face holds it (``sorry.bots.MoveEstimate``, the terminal
    game's ``MoveChance``, :class:`Chance`)."""

    @property
    def win(self) -> float: ...
    @property
    def low(self) -> float: ...
    @property
    def high(self) -> float: ...
    @property
    def tied(self) -> bool: ...


class Chance(NamedTuple):
    """A move's chance of winning, its 95% interval and whether it is tied with the best."""

    win: float
    low: float
    high: float
    tied: bool


@dataclass(frozen=True, slots=True)
class HintWords:
    """The hint's words in the current language, its moves best first."""

    #: the headline: the best move's chance in tenths and how many are as good as it
    say: str
    #: each move's kind (:data:`BEST`, :data:`AS_GOOD`, :data:`NOT_AS_GOOD`)
    kinds: tuple[str, ...]
    #: each move's kind in words: "best", "as good", "not as good"
    tags: tuple[str, ...]
    #: the details: each move's chance and interval ("62% [55–69]"), their heading, and what
    #: "as good" means (empty when no move is as good as the best)
    figures: tuple[str, ...]
    heading: str
    note: str


def chance_words(win: float) -> str:
    """A chance of winning in a player's words: "about 3 chances in 10 to win"."""
    if win < 0.05:
        return _("less than 1 chance in 10 to win")
    if win >= 0.95:
        return _("almost sure to win")
    n = math.floor(10 * win + 0.5)
    return ngettext("about {n} chance in 10 to win", "about {n} chances in 10 to win", n).format(
        n=n
    )


def figure_words(c: ChanceLike) -> str:
    """A move's chance and its 95% interval in whole percent: ``62% [55–69]``."""

    def pct(x: float) -> int:
        return math.floor(100 * x + 0.5)

    return _("{win}% [{low}–{high}]").format(win=pct(c.win), low=pct(c.low), high=pct(c.high))


def kinds_of(chances: Sequence[ChanceLike]) -> tuple[str, ...]:
    """Each move's kind, best first: the first is the best, a tied one is as good."""
    return tuple(
        BEST if k == 0 else AS_GOOD if c.tied else NOT_AS_GOOD for k, c in enumerate(chances)
    )


def hint_words(chances: Sequence[ChanceLike], rough: bool = False) -> HintWords:
    """The words of a hint of at least two moves, best first (see the module doc).
    ``rough``: the chances come from the Python engine's short playouts (the details'
    heading says so)."""
    if len(chances) < 2:
        raise ValueError("a hint's words need at least two moves")
    chance = chance_words(chances[0].win)
    others = sum(1 for c in chances[1:] if c.tied)
    if others > 1 and others == len(chances) - 1:
        say = _("Best: {chance}; these moves are all about as good as each other.")
    elif others == 1:
        say = _("Best: {chance}; these two are about as good as each other.")
    elif others > 1:
        say = ngettext(
            "Best: {chance}; {n} other move is about as good.",
            "Best: {chance}; {n} other moves are about as good.",
            others,
        )
    else:
        say = _("Best: {chance}, better than the others.")
    kinds = kinds_of(chances)
    words = {BEST: _("best"), AS_GOOD: _("as good"), NOT_AS_GOOD: _("not as good")}
    heading = (
        _("Rough hint (Python playouts): chance of winning [95%]")
        if rough
        else _("Chance of winning [interval at 95%]")
    )
    note = (
        _(
            "Moves marked as good cannot be told apart from the best: the difference is within "
            "the estimates' noise."
        )
        if others
        else ""
    )
    return HintWords(
        say=say.format(chance=chance, n=others),
        kinds=kinds,
        tags=tuple(words[k] for k in kinds),
        figures=tuple(figure_words(c) for c in chances),
        heading=heading,
        note=note,
    )


__all__ = [
    "AS_GOOD",
    "BEST",
    "NOT_AS_GOOD",
    "Chance",
    "ChanceLike",
    "HintWords",
    "chance_words",
    "figure_words",
    "hint_words",
    "kinds_of",
]
