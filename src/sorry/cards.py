"""Cards (docs/rules.md, Cards): values, notation and the deck's composition.

A card is a plain int: its face value, with ``SORRY = 13``. There are no 6s or 9s.

>>> card_name(SORRY), parse_card("10"), deck_cards(45).count(1)
('S', 10, 5)
"""

from __future__ import annotations

from typing import Final

from .errors import NotationError
from .i18n import _

Card = int

SORRY: Final = 13
#: Every card kind in notation order.
CARDS: Final = (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, SORRY)
#: CARD_INDEX[card] = position of the card kind in :data:`CARDS` (for arrays and encodings).
CARD_INDEX: Final = {card: i for i, card in enumerate(CARDS)}
CARD_NAMES: Final = {card: ("S" if card == SORRY else str(card)) for card in CARDS}


def card_name(card: Card) -> str:
    return CARD_NAMES[card]


def card_label(card: Card) -> str:
    """The card as players call it, in the current language (``Sorry!``, ``7``)."""
    return _("Sorry!") if card == SORRY else str(card)


def parse_card(text: str) -> Card:
    """``1 2 3 4 5 7 8 10 11 12 S`` (``Sorry``/``sorry!`` accepted too)."""
    t = text.strip()
    if t.upper() in ("S", "SORRY", "SORRY!"):
        return SORRY
    if t.isdigit() and int(t) in CARD_INDEX and int(t) != SORRY and t == str(int(t)):
        return int(t)
    raise NotationError(
        _("unknown card {text!r} (cards are 1 2 3 4 5 7 8 10 11 12 S)").format(text=text)
    )


def deck_counts(size: int) -> dict[Card, int]:
    """How many of each card a deck of ``size`` 45 (five 1s) or 44 (four of each) holds."""
    if size not in (44, 45):
        raise NotationError(_("deck must be 45 or 44 cards, not {size}").format(size=size))
    counts = {card: 4 for card in CARDS}
    if size == 45:
        counts[1] = 5
    return counts


def deck_cards(size: int) -> list[Card]:
    """The unshuffled deck as a list, in :data:`CARDS` order."""
    return [card for card, n in deck_counts(size).items() for _ in range(n)]
