"""A player's view of a game: what that player may know, and nothing else (docs/variants.md,
Play for points: hands are secret; no one knows the order of the draw pile).

Everything that acts for a player (bots, interfaces, the network server) sees only views. A view
holds every pawn, the public card of the turn (standard game), the viewer's own hand, how many
cards the others hold, the discard pile and the number of cards left to draw. It never holds the
order of the draw pile, the seed or the others' hands. A view is plain data: the game builds it
(:meth:`sorry.game.Game.view`), and :meth:`sorry.game.Game.from_view` deals a whole game that
agrees with it (a determinisation, for search), with the cards of :meth:`PlayerView.deal`.

>>> from sorry import Game, Rules
>>> g = Game(Rules(variant="points"), players=2, seed=3)
>>> while g.is_chance():
...     _ = g.draw()
>>> v = g.view(g.to_move)
>>> len(v.hand), v.hand_sizes[v.viewer], v.draw_count, v.phase
(5, 5, 35, <Phase.DECISION: 1>)
>>> d = Game.from_view(v, seed=1)
>>> d.view(v.viewer) == v
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple

from .board import COLOUR_LETTERS
from .cards import CARDS, Card, card_name, deck_counts
from .errors import GameStateError
from .moves import Move
from .position import Pawns, Position
from .rng import Rng
from .rules import Rules


class Phase(IntEnum):
    """Where a game stands (as in OpenSpiel): a card is to be drawn (a chance node), the
    player to move has a decision, or the game is over."""

    CHANCE = 0
    DECISION = 1
    OVER = 2

    @property
    def word(self) -> str:
        """``chance``, ``decision`` or ``over`` (the JSON name)."""
        return self.name.lower()


class Deal(NamedTuple):
    """The cards a viewer cannot see, dealt at random: every colour's hand (the viewer's own
    as it is) and the draw pile (top card last)."""

    hands: list[list[Card]]
    draw_pile: list[Card]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What ``viewer`` may know of a game at one moment."""

    rules: Rules
    viewer: int
    colours: tuple[int, ...]
    to_move: int
    phase: Phase
    pawns: Pawns  # sorted locations per colour, None for colours not playing
    card: Card | None  # the card drawn this turn (standard and teams; public)
    hand: tuple[Card, ...]  # the viewer's own hand (points)
    hand_sizes: tuple[int, ...]  # cards held by each colour R B Y G
    discard_pile: tuple[Card, ...]  # bottom first
    draw_count: int  # cards left in the draw pile
    turn: int
    first: int
    winners: tuple[int, ...]
    scores: tuple[tuple[int, int], ...] | None
    legal_moves: tuple[Move, ...]  # the viewer's legal moves when it is to move, else ()
    deal_to: int | None = None  # at a chance node, who receives the card

    def position(self) -> Position:
        return Position(self.pawns, self.to_move)

    def is_chance(self) -> bool:
        return self.phase == Phase.CHANCE

    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def my_turn(self) -> bool:
        """Whether the viewer is to make a decision now."""
        return self.phase == Phase.DECISION and self.to_move == self.viewer

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able description (for a network client): the view and nothing more."""
        return {
            "rules": self.rules.to_dict(),
            "viewer": COLOUR_LETTERS[self.viewer],
            "colours": [COLOUR_LETTERS[c] for c in self.colours],
            "position": self.position_string(),
            "phase": self.phase.word,
            "card": card_name(self.card) if self.card is not None else None,
            "hand": [card_name(c) for c in self.hand],
            "hand_sizes": {COLOUR_LETTERS[c]: self.hand_sizes[c] for c in self.colours},
            "discard_pile": [card_name(c) for c in self.discard_pile],
            "draw_count": self.draw_count,
            "turn": self.turn,
            "first": COLOUR_LETTERS[self.first],
            "winners": [COLOUR_LETTERS[c] for c in self.winners],
            "scores": {COLOUR_LETTERS[c]: s for c, s in self.scores}
            if self.scores is not None
            else None,
            "legal_moves": [str(m) for m in self.legal_moves],
            "deal_to": COLOUR_LETTERS[self.deal_to] if self.deal_to is not None else None,
        }

    def position_string(self) -> str:
        return str(self.position())

    def unseen_counts(self) -> dict[Card, int]:
        """Cards the viewer cannot see (draw pile and the others' hands), by kind: card
        counting. In the standard game this is exactly the draw pile's composition."""
        counts = Counter(deck_counts(self.rules.deck))
        counts.subtract(self.discard_pile)
        counts.subtract(self.hand)
        if self.card is not None:
            counts[self.card] -= 1
        return {c: counts[c] for c in CARDS if counts[c] > 0}

    def next_card_probabilities(self) -> dict[Card, float]:
        """Probability of each card being the next one drawn, as far as the viewer knows."""
        if self.draw_count == 0:  # the discard pile will be reshuffled
            counts = Counter(self.discard_pile)
            total = len(self.discard_pile)
        else:  # every unseen card is equally likely to be on top of the draw pile
            counts = Counter(self.unseen_counts())
            total = sum(counts.values())
        if total == 0:
            return {}
        return {c: counts[c] / total for c in CARDS if counts[c]}

    def deal(self, rng: Rng) -> Deal:
        """The unseen cards shuffled with ``rng`` and dealt: the others' hands (as many cards
        as each holds, in seat order), the rest to the draw pile. :class:`GameStateError` if
        the view's counts do not add up. The one dealing of every determinisation
        (:meth:`sorry.game.Game.from_view`, the expert bot's and the hints' worlds; the compiled
        search's ``sorry.fast._search.deal_world`` deals the same)."""
        unseen = [c for c, n in self.unseen_counts().items() for _ in range(n)]
        hidden = sum(self.hand_sizes[c] for c in self.colours if c != self.viewer)
        if len(unseen) != hidden + self.draw_count:
            raise GameStateError(
                f"inconsistent view: {len(unseen)} unseen cards for {hidden} in other hands "
                f"and {self.draw_count} to draw"
            )
        rng.shuffle(unseen)
        hands: list[list[Card]] = [[] for _ in range(4)]
        for c in self.colours:
            if c == self.viewer:
                hands[c] = list(self.hand)
            else:
                k = self.hand_sizes[c]
                hands[c], unseen = unseen[:k], unseen[k:]
        return Deal(hands, unseen)


__all__ = ["Deal", "Phase", "PlayerView"]
