"""Fast playouts for search: a determinised game played on a bare :class:`PawnState` with a
list of cards, no :class:`~sorry.game.Game` object, no legality checks beyond move generation.

A playout follows the rules of the variant (2 draws again, the declinable 11, hands of five and
dead-hand discards in the points variant, the reshuffle of the discard pile) with a greedy
policy on progress, for at most ``depth`` moves; then the position is scored by the evaluation.
"""

from __future__ import annotations

import math

from ..cards import Card
from ..movegen import card_moves
from ..moves import Move
from ..rng import Rng
from ..rulebook import HAND_SIZE, PROGRESS, next_colour
from ..rules import Rules
from ..state import Change, PawnState
from .evaluate import WIN, evaluate
from .levels import KEEP_VALUE


class Playout:
    """One determinised world: pawns, whose turn, the draw pile (top last), the discard
    pile and the hands. :meth:`run` plays it forward (mutating it)."""

    __slots__ = ("colours", "discard", "hands", "mover", "pile", "rng", "rules", "state")

    def __init__(
        self,
        rules: Rules,
        colours: tuple[int, ...],
        state: PawnState,
        mover: int,
        pile: list[Card],
        discard: list[Card],
        hands: list[list[Card]],
        rng: Rng,
    ) -> None:
        self.rules = rules
        self.colours = colours
        self.state = state
        self.mover = mover
        self.pile = pile
        self.discard = discard
        self.hands = hands
        self.rng = rng

    def _draw(self) -> Card | None:
        if not self.pile:
            if not self.discard:
                return None
            self.pile = self.discard
            self.discard = []
            self.rng.shuffle(self.pile)
        return self.pile.pop()

    def _greedy(self, colour: int, moves: list[Move]) -> Move:
        """The move with the largest gain in progress for ``colour``'s side."""
        state = self.state
        side = self.rules.book.movers[colour]
        best = moves[0]
        best_gain = -10_000
        for m in moves:
            changes: list[Change] = []
            state.apply(m, changes)
            gain = 0
            firsts: dict[tuple[int, int], int] = {}
            for c, i, old in changes:
                if (c, i) not in firsts:
                    firsts[(c, i)] = old
            for (c, i), old in firsts.items():
                d = PROGRESS[c][state.pawns[c][i]] - PROGRESS[c][old]
                gain += d if c in side else -d
            state.undo(changes)
            if gain > best_gain:
                best_gain = gain
                best = m
        return best

    def _won(self, colour: int) -> bool:
        """Whether ``colour``'s side has every pawn HOME (its partner's too in teams)."""
        return all(self.state.all_home(c) for c in self.rules.book.movers[colour])

    def run(self, depth: int) -> int | None:
        """Play up to ``depth`` moves; the colour whose move won, or None if cut off."""
        rules = self.rules
        state = self.state
        colours = self.colours
        points = rules.points
        book = rules.book
        m: Move | None
        card: Card
        for _ in range(depth):
            mover = self.mover
            if points:
                hand = self.hands[mover]
                options: list[Move] = []
                for card in set(hand):
                    for m in card_moves(state, rules, mover, card):
                        options.append(m._replace(card=card))
                if options:
                    m = self._greedy(mover, options)
                    assert m.card is not None
                    card = m.card
                    state.apply(m, [])
                else:
                    card = min(hand, key=lambda c: KEEP_VALUE[c])
                    m = None
                hand.remove(card)
                self.discard.append(card)
                new = self._draw()
                if new is not None:
                    hand.append(new)
            else:
                drawn = self._draw()
                if drawn is None:
                    return None
                card = drawn
                moves = card_moves(state, rules, mover, card)
                m = self._greedy(mover, moves) if moves else None
                if m is not None:
                    state.apply(m, [])
                self.discard.append(card)
            if m is not None and self._won(mover):
                return mover
            if not book.plays_again(card, discarded=points and m is None):
                self.mover = next_colour(colours, mover)
        return None

    def score(
        self, team: tuple[int, ...], winner: int | None, probs: dict[Card, float], scale: float
    ) -> float:
        """1 for a win of ``team``, 0 for a loss, else the evaluation squashed into (0, 1)."""
        if winner is not None:
            return 1.0 if winner in team else 0.0
        rules = self.rules
        hand = HAND_SIZE if rules.points else 1
        v = evaluate(self.state, self.colours, team, probs, rules.slide_on, rules.teams, hand=hand)
        if v >= WIN:
            return 1.0
        if v <= -WIN:
            return 0.0
        return 1.0 / (1.0 + math.exp(-v / scale))
