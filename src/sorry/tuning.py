"""The numbers the bots play by, shared by the Python bots (:mod:`sorry.bots`) and the compiled
ones (:mod:`sorry.fast`, :mod:`sorry.compiled`): the weights of the hand-tuned evaluation, the
cards that can bump and how far, what a card is worth keeping in a points hand, the share of
each card in a full deck. Both sides read them here, so a tuned number changes both at once.

>>> KEEP_VALUE[1], DEFAULT_WEIGHTS.home_bonus, round(deck_probabilities(Rules())[1], 3)
(5.0, 10.0, 0.111)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .board import BACKWARD as BWD, FORWARD as FWD, TRACK_LEN, slide_table
from .cards import CARDS, SORRY, Card, deck_counts
from .rules import Rules

#: The evaluation of a side that has won (minus: lost).
WIN: Final = 10_000.0

#: (card, forward steps, backward steps) of the cards that can bump by moving a pawn; the 7
#: reaches every square 1..7 ahead (split).
BUMP_STEPS: Final[tuple[tuple[Card, tuple[int, ...], tuple[int, ...]], ...]] = (
    (1, (1,), ()),
    (2, (2,), ()),
    (3, (3,), ()),
    (4, (), (4,)),
    (5, (5,), ()),
    (7, (1, 2, 3, 4, 5, 6, 7), ()),
    (8, (8,), ()),
    (10, (10,), (1,)),
    (11, (11,), ()),
    (12, (12,), ()),
)

#: How much a card is worth keeping in the hand when nothing else tells (points variant).
KEEP_VALUE: Final[dict[Card, float]] = {
    1: 5.0,
    2: 6.0,
    3: 2.0,
    4: 4.0,
    5: 2.5,
    7: 4.5,
    8: 3.0,
    10: 4.0,
    11: 3.5,
    12: 3.0,
    SORRY: 6.0,
}


@dataclass(frozen=True, slots=True)
class Weights:
    """The weights of the hand-tuned evaluation (:func:`sorry.bots.evaluate.evaluate`)."""

    safe_bonus: float = 6.0  # per pawn in the Safety Zone
    home_bonus: float = 10.0  # per pawn in HOME
    threat: float = 0.9  # share of the progress at risk counted as lost
    start_reserve: float = 1.0  # a pawn kept in START while targets exist
    sorry_share: float = 0.5  # how much of a Sorry! threat falls on one given pawn
    exit_block: float = 0.0  # own pawn sitting on own START exit with pawns in START
    points_hand: int = 1  # hand size assumed for a threat in the points variant (tuned)


DEFAULT_WEIGHTS: Final = Weights()


@lru_cache(maxsize=8)
def hit_table(slide_on: str) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    """HITS[colour][square][k]: track squares a ``colour`` pawn on ``square`` can bump with
    card kind number k of :data:`BUMP_STEPS` (its landing square and the slide it sweeps)."""
    slide = slide_table(slide_on)
    table = []
    for c in range(4):
        per_square = []
        for sq in range(TRACK_LEN):
            per_card = []
            for _card, fwd, back in BUMP_STEPS:
                hit: set[int] = set()
                dests = [FWD[c][sq][n] for n in fwd] + [BWD[c][sq][n] for n in back]
                for d in dests:
                    if 0 <= d < TRACK_LEN:
                        hit.add(d)
                        end = slide[c][d]
                        if end >= 0:
                            hit.update(range(d + 1, end + 1))
                per_card.append(tuple(sorted(hit)))
            per_square.append(tuple(per_card))
        table.append(tuple(per_square))
    return tuple(table)


def deck_probabilities(rules: Rules) -> dict[Card, float]:
    """Each card's share of a full deck: what a player who does not count cards assumes."""
    counts = deck_counts(rules.deck)
    total = sum(counts.values())
    return {c: counts[c] / total for c in CARDS}
