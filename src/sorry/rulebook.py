"""The rulebook: every rule of a turn that an engine needs, written once, as plain tables.

Each engine stores the board its own way (:class:`sorry.game.Game`, the lean loop of
:mod:`sorry.playout` and the bots on :class:`sorry.state.PawnState`, the compiled kernel of
:mod:`sorry.fast` on integer arrays) but reads the rules from here: the card tables, partners
and movable colours, the declinable 11, who plays again, who has won, seat order, the default
colours and the player-count check, the deal and the scoring of the points variant and the
progress of a pawn.
The kernel converts these tables with numpy at import; nothing is retyped.

:meth:`Rulebook.of` gives the one cached table object of a :class:`~sorry.rules.Rules`.

>>> from sorry.rules import Rules
>>> book = Rulebook.of(Rules(variant="teams"))
>>> book.movers[0], FORWARD_STEPS[10], BACKWARD_STEPS[10], PARTNER[1]
((0, 2), 10, 1, 3)
>>> book.plays_again(2, discarded=False), Rulebook.of(Rules(two_draws_again=False)).again[2]
(True, False)
>>> r = Rules()
>>> colours_for(3, r), Rulebook.of(r) is r.book
((0, 1, 2), True)
>>> score([4, 1, 0, 0], (0, 1), winners=(0,), cumulative=False)
{0: 85, 1: 5}
>>> book.sides((0, 1, 2, 3)), r.book.sides((0, 2))
(((0, 2), (1, 3)), ((0,), (2,)))
>>> book.wins([[65] * 4, [], [65, 65, 65, 3], []], 0), r.book.wins([[65] * 4, [], [], []], 0)
(False, True)
>>> deal_to((0, 1, 2), [5, 4, 4, 0], 0), deal_to((0, 1, 2), [5, 5, 5, 0], 1)
(1, None)
>>> from sorry.moves import PASS_MOVE
>>> declines(11, [PASS_MOVE]), declines(11, [Move.parse("R4<>Y30"), PASS_MOVE])
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .board import COLOURS, HOME, NUM_LOCATIONS, slide_table, steps_to_home
from .cards import SORRY
from .errors import RulesError
from .i18n import _
from .moves import FORWARD, Move

if TYPE_CHECKING:
    from .rules import Rules

#: Card faces index the card tables: 0..13, ``SORRY`` = 13 (faces 0, 6 and 9 do not exist).
FACES: Final = 14

# -- cards (docs/rules.md, Cards) -----------------------------------------------------------
#: FORWARD_STEPS[card]: the squares the card moves a pawn forward (0: none). The 7 may also
#: be split and the 11 may swap instead; the Sorry! card's forward 4 is an option
#: (:attr:`Rulebook.sorry_forward_4`).
FORWARD_STEPS: Final = (0, 1, 2, 3, 0, 5, 0, 7, 8, 0, 10, 11, 12, 0)
#: BACKWARD_STEPS[card]: the squares the card moves a pawn backward (0: none).
BACKWARD_STEPS: Final = (0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 1, 0, 0, 0)
#: Cards that may start a pawn from START onto its START exit.
START_CARDS: Final = (1, 2)
#: The card that may be declined (``pass``) when no pawn can use its forward count.
DECLINABLE_CARD: Final = 11
#: The card after which its player draws again (``two_draws_again=yes``).
AGAIN_CARD: Final = 2
#: Sorry!'s optional forward move (``sorry_forward_4``).
SORRY_FORWARD: Final = 4

# -- seats and teams (docs/rules.md, Turns) ------------------------------------------------
#: PARTNER[colour]: the colour sitting opposite, its partner in the teams variant.
PARTNER: Final = (2, 3, 0, 1)
#: The colours of a game of 2, 3 or 4 players when none are named.
DEFAULT_COLOURS: Final = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
#: Cards in a hand in the points variant.
HAND_SIZE: Final = 5

# -- points (docs/variants.md, Play for points) ---------------------------------------------
#: Points for each own pawn HOME; for the winner, also for each opponent pawn not HOME.
POINTS_PER_PAWN: Final = 5
#: (bonus, most pawns HOME an opponent may have): the winner's bonus, highest first.
POINTS_BONUSES: Final = ((100, 0), (50, 1), (25, 2))

#: PROGRESS[colour][location]: forward steps made from START (0) towards HOME (65).
PROGRESS: Final = tuple(
    tuple(HOME - steps_to_home(c, loc) for loc in range(NUM_LOCATIONS)) for c in COLOURS
)


def partner(colour: int) -> int:
    """The colour opposite ``colour`` (its partner in the teams variant)."""
    return PARTNER[colour]


def may_decline(card: int, moves: Iterable[Move]) -> bool:
    """Whether a card with these moves may be declined: an 11 with no forward 11 among them
    (docs/rules.md, Cards: 11)."""
    return card == DECLINABLE_CARD and not any(m.kind == FORWARD for m in moves)


def declines(card: int | None, moves: Sequence[Move]) -> bool:
    """Whether a pass chosen among ``moves`` (the legal moves, the pass among them) declines
    the card, an 11 that could have swapped, rather than forfeits a turn with no move at all
    (docs/rules.md, Legal move lists)."""
    return card == DECLINABLE_CARD and len(moves) > 1


def next_colour(colours: Sequence[int], colour: int) -> int:
    """The colour after ``colour`` in seat order (clockwise) among ``colours``."""
    return colours[(colours.index(colour) + 1) % len(colours)]


def seat_after(colours: Sequence[int]) -> tuple[int, ...]:
    """NEXT[colour] for every colour R B Y G: the next one to play (itself if not playing)."""
    return tuple(next_colour(colours, c) if c in colours else c for c in COLOURS)


def deal_to(colours: Sequence[int], hand_sizes: Sequence[int], to_move: int) -> int | None:
    """Points: the seat the next card is dealt to, or None when every hand holds five: the
    seat with the fewest cards, the first such from the player to move round the table (so the
    opening deal goes round one card at a time, and a refill goes to the player who played)."""
    n = len(colours)
    start = colours.index(to_move)
    best = None
    for k in range(n):
        c = colours[(start + k) % n]
        if hand_sizes[c] < HAND_SIZE and (best is None or hand_sizes[c] < hand_sizes[best]):
            best = c
    return best


def colours_for(players: int | Sequence[int] | None, rules: Rules) -> tuple[int, ...]:
    """The colours in play, in seat order: the default ones for a count of 2, 3 or 4 players,
    or the colours given; :class:`RulesError` for a count or set that cannot play ``rules``."""
    if players is None:
        players = 4
    if isinstance(players, int):
        if players not in DEFAULT_COLOURS:
            raise RulesError(_("{n} players: Sorry! is for 2, 3 or 4 players").format(n=players))
        colours = DEFAULT_COLOURS[players]
    else:
        colours = tuple(sorted(set(players)))
        if len(colours) != len(players) or not all(0 <= c < 4 for c in colours):
            raise RulesError(_("players must be distinct colours"))
        if len(colours) < 2:
            raise RulesError(_("a game needs at least two colours"))
    check_colours(colours, rules)
    return colours


def check_colours(colours: Iterable[int], rules: Rules) -> None:
    """:class:`RulesError` unless ``colours`` can play ``rules`` (teams need all four)."""
    if rules.variant == "teams" and tuple(colours) != COLOURS:
        raise RulesError(_("the teams variant needs all four colours (Red+Yellow vs Blue+Green)"))


def score(
    homes: Sequence[int], colours: Iterable[int], winners: Sequence[int], cumulative: bool
) -> dict[int, int]:
    """Points (docs/variants.md, Play for points) from ``homes[colour]``, the pawns each colour
    has HOME: 5 per own pawn HOME; the winner 5 per opponent pawn not HOME and the bonus (the
    highest one that applies, or all of them when ``cumulative``)."""
    cols = tuple(colours)
    scores = {c: POINTS_PER_PAWN * homes[c] for c in cols}
    if not winners:
        return scores
    w = winners[0]
    opponents = [c for c in cols if c not in winners]
    scores[w] += POINTS_PER_PAWN * sum(4 - homes[c] for c in opponents)
    most = max((homes[c] for c in opponents), default=0)
    scores[w] += winner_bonus(most, cumulative)
    return scores


def winner_bonus(most: int, cumulative: bool) -> int:
    """The winner's bonus when the opponent with most pawns HOME has ``most`` of them: the
    highest bonus that applies, or all that apply when ``cumulative`` (points_bonus)."""
    bonuses = [b for b, limit in POINTS_BONUSES if most <= limit]
    if not bonuses:
        return 0
    return sum(bonuses) if cumulative else bonuses[0]


@dataclass(frozen=True, slots=True)
class Rulebook:
    """The tables of one rule set; take it from :meth:`of` (one cached object per rules)."""

    rules: Rules
    teams: bool
    points: bool
    #: movers[colour]: the colours whose pawns ``colour`` moves, and whose win is its win:
    #: itself, and its partner in the teams variant.
    movers: tuple[tuple[int, ...], ...]
    #: again[card]: whether the card's player draws again after playing or forfeiting it.
    again: tuple[bool, ...]
    #: The Sorry! card's forward 4: ``no``, ``always`` or ``fallback`` (no placement).
    sorry_forward_4: str
    #: Whether a card's backward move (the 10's 1 backward) is only for when no pawn can use
    #: its forward count (``ten_backward=fallback``).
    backward_fallback: bool
    #: slide[colour][square]: the end of the slide a ``colour`` pawn landing there takes, or -1.
    slide: tuple[tuple[int, ...], ...]
    #: Whether the other pawn of a swap slides too when it lands on a triangle (``swap_slides``).
    swap_both: bool
    #: ``(name, value)`` of the variant and every option, as text (``Rules.settings``).
    settings: frozenset[tuple[str, str]]

    @staticmethod
    def of(rules: Rules) -> Rulebook:
        """The rulebook of ``rules``, built once per rules object (``rules.book``)."""
        return rules.book

    @staticmethod
    def build(rules: Rules) -> Rulebook:
        """A new rulebook for ``rules`` (use :meth:`of`, which keeps it)."""
        teams = rules.variant == "teams"
        return Rulebook(
            rules=rules,
            teams=teams,
            points=rules.variant == "points",
            movers=tuple((c, PARTNER[c]) if teams else (c,) for c in COLOURS),
            again=tuple(card == AGAIN_CARD and rules.two_draws_again for card in range(FACES)),
            sorry_forward_4=rules.sorry_forward_4,
            backward_fallback=rules.ten_backward == "fallback",
            slide=slide_table(rules.slide_on),
            swap_both=rules.swap_slides == "both",
            settings=frozenset(rules.settings().items()),
        )

    def sides(self, colours: Iterable[int]) -> tuple[tuple[int, ...], ...]:
        """Who wins together among ``colours``, in seat order: the two teams (Red+Yellow,
        Blue+Green) in the teams variant, else each colour alone."""
        return tuple(dict.fromkeys(tuple(sorted(self.movers[c])) for c in colours))

    def wins(self, pawns: Sequence[Sequence[int]], colour: int) -> bool:
        """Whether ``colour`` has won with the move it has just made: every pawn of its side
        (itself, and its partner in the teams variant) is HOME (docs/rules.md, Turns)."""
        for c in self.movers[colour]:
            p = pawns[c]
            if not p or p.count(HOME) != len(p):
                return False
        return True

    def plays_again(self, card: int, discarded: bool = False) -> bool:
        """Whether the player of ``card`` draws again (a discarded card never does)."""
        return self.again[card] and not discarded

    @property
    def again_mask(self) -> int:
        """The ``again`` table as bits (bit ``card`` set: draws again), for the kernel."""
        return sum(1 << card for card in range(FACES) if self.again[card])


__all__ = [
    "AGAIN_CARD",
    "BACKWARD_STEPS",
    "DECLINABLE_CARD",
    "DEFAULT_COLOURS",
    "FORWARD_STEPS",
    "HAND_SIZE",
    "PARTNER",
    "POINTS_BONUSES",
    "POINTS_PER_PAWN",
    "PROGRESS",
    "SORRY",
    "SORRY_FORWARD",
    "START_CARDS",
    "Rulebook",
    "check_colours",
    "colours_for",
    "deal_to",
    "declines",
    "may_decline",
    "next_colour",
    "partner",
    "score",
    "seat_after",
    "winner_bonus",
]
