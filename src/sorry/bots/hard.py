"""The ``hard`` level: expectimax over the next draw with the exact remaining-deck
probabilities (card counting from the view).

For each of its moves the bot looks at the next chance node: every card that can come next,
with its probability given the cards it has seen (``view.next_card_probabilities()``), and the
best reply of the player who gets it (itself after a 2, else the next player: an opponent is
assumed to pick the reply worst for the bot, a partner the best). Leaves are scored with the
hand-tuned evaluation of :mod:`sorry.bots.evaluate`, whose threat terms use the same counted
probabilities.

In the points variant the next player replies from a hidden hand: the bot takes the exact
expectation over the hands that player can hold (hypergeometric over the unseen cards) of the
reply worst for the bot, and adds ``hand_weight`` times what the cards it keeps could do next
turn (hand management, ``potential``): by default (``"eval"``) the best gain in the evaluation
of any move of a kept card; ``"draw"`` also counts the card drawn to refill the hand, with its
counted probabilities; ``"progress"`` is the medium bot's measure (progress only). The
opponent is credited with ``reply_hand`` cards to choose from (1 by default, not its five:
assuming the worst of a five-card hand made the bot too timid; ``docs/strength.md`` has the
measurements behind these defaults).

``evaluation="learned"`` scores the leaves with the network learned by self-play instead
(:func:`sorry.bots.learned.hard_scores`, the ``fast`` extra): the bot's chance of winning, its
team's in teams, in points with the cards it keeps (then ``hand_weight`` and ``potential``
are not used: the network reads the kept hand itself).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb

from ..cards import Card
from ..movegen import card_moves
from ..moves import DISCARD, Move
from ..rng import Rng
from ..rulebook import may_decline
from ..state import Change, PawnState
from ..view import PlayerView
from .base import next_colour, state_of, team_of
from .evaluate import DEFAULT_WEIGHTS, WIN, Weights, evaluate
from .levels import KEEP_VALUE, _argmax, discard_choice, hand_potential

Value = Callable[[PawnState], float]

#: How the points variant values the cards kept in hand (see :class:`HardBot`).
POTENTIALS = ("progress", "eval", "draw")
#: What scores the leaves: the hand-tuned evaluation or the learned network.
EVALUATIONS = ("tuned", "learned")


class HardBot:
    """Expectimax over the next draw (see the module doc)."""

    name = "hard"

    def __init__(
        self,
        weights: Weights = DEFAULT_WEIGHTS,
        hand_weight: float = 0.3,
        reply_hand: int = 1,
        potential: str = "eval",
        evaluation: str = "tuned",
    ) -> None:
        if evaluation not in EVALUATIONS:
            raise ValueError(
                f"evaluation must be one of {', '.join(EVALUATIONS)}, not {evaluation!r}"
            )
        if evaluation == "learned":
            from ..features import compiled_engine

            compiled_engine().require()  # numpy and numba: a one-line error without them
        if potential not in POTENTIALS:
            raise ValueError(f"potential must be one of {', '.join(POTENTIALS)}, not {potential!r}")
        if not isinstance(reply_hand, int) or reply_hand < 1:
            raise ValueError(f"reply_hand must be a whole number of cards >= 1, not {reply_hand!r}")
        if hand_weight < 0:
            raise ValueError(f"hand_weight must not be negative, not {hand_weight!r}")
        self.weights = weights
        self.hand_weight = hand_weight
        self.reply_hand = reply_hand
        self.potential = potential
        self.evaluation = evaluation

    def choose(self, view: PlayerView, rng: Rng) -> Move:
        moves = list(view.legal_moves)
        if len(moves) == 1:
            return moves[0]
        plays = [m for m in moves if m.kind != DISCARD]
        if not plays:
            return discard_choice(view, moves, rng)
        scores = self.scores(view, plays)
        return _argmax(plays, scores, rng)

    def ranked(self, view: PlayerView) -> list[tuple[Move, float]]:
        """Every legal play (discards last, by keep value) with its score, best first."""
        moves = list(view.legal_moves)
        plays = [m for m in moves if m.kind != DISCARD]
        if not plays:
            return [(m, 0.0) for m in moves]
        scores = self.scores(view, plays)
        order = sorted(range(len(plays)), key=lambda i: -scores[i])
        return [(plays[i], scores[i]) for i in order]

    def scores(self, view: PlayerView, plays: Sequence[Move]) -> list[float]:
        if self.evaluation == "learned":
            from .learned import hard_scores, trained_for

            if trained_for(view):  # else (no network of the variant) the tuned evaluation
                return hard_scores(view, plays, self.reply_hand)
        rules = view.rules
        team = team_of(rules, view.viewer)
        colours = view.colours
        probs = view.next_card_probabilities()
        w = self.weights
        hand_size = w.points_hand if rules.points else 1

        def value(s: PawnState) -> float:
            return evaluate(s, colours, team, probs, rules.slide_on, rules.teams, w, hand_size)

        state = state_of(view)
        out = []
        for m in plays:
            changes: list[Change] = []
            state.apply(m, changes)
            if rules.book.wins(state.pawns, view.viewer):
                out.append(WIN)
                state.undo(changes)
                continue
            played = m.card if rules.points else view.card
            assert played is not None
            again = rules.book.plays_again(played, discarded=m.kind == DISCARD)
            mover = view.viewer if again else next_colour(colours, view.viewer)
            if rules.points:
                if again:
                    v = value(state)
                else:
                    v = self._hidden_reply(view, state, mover, team, value)
                if self.hand_weight and m.card is not None:
                    kept = list(view.hand)
                    kept.remove(m.card)
                    if self.potential == "eval":
                        v += self.hand_weight * eval_potential(state, view, kept, value)
                    elif self.potential == "draw":
                        v += self.hand_weight * draw_potential(state, view, kept, value)
                    else:
                        v += self.hand_weight * hand_potential(state, view, kept, team)
            else:
                v = self._reply(view, state, mover, team, probs, value)
            out.append(v)
            state.undo(changes)
        return out

    def _best(
        self,
        view: PlayerView,
        state: PawnState,
        mover: int,
        card: Card,
        friendly: bool,
        value: Value,
        base: float,
    ) -> float:
        """The value of the reply ``mover`` makes with ``card`` (best for a friend, worst for
        an opponent; ``base`` if the card cannot be played or is declined)."""
        moves = card_moves(state, view.rules, mover, card)
        if not moves:
            return base
        best = None
        for r in moves:
            ch: list[Change] = []
            state.apply(r, ch)
            v = value(state)
            state.undo(ch)
            if best is None or (v > best if friendly else v < best):
                best = v
        assert best is not None
        if may_decline(card, moves):
            best = max(best, base) if friendly else min(best, base)
        return best

    def _reply(
        self,
        view: PlayerView,
        state: PawnState,
        mover: int,
        team: tuple[int, ...],
        probs: dict[Card, float],
        value: Value,
    ) -> float:
        base = value(state)
        friendly = mover in team
        return sum(
            p * self._best(view, state, mover, card, friendly, value, base)
            for card, p in probs.items()
        )

    def _hidden_reply(
        self,
        view: PlayerView,
        state: PawnState,
        mover: int,
        team: tuple[int, ...],
        value: Value,
    ) -> float:
        """Points: the expected value after ``mover`` plays the card of its hidden hand that is
        best for it, over every hand it may hold (hypergeometric over the unseen cards)."""
        base = value(state)
        friendly = mover in team
        unseen = view.unseen_counts()
        total = sum(unseen.values())
        h = min(view.hand_sizes[mover] or 5, self.reply_hand, total)
        if total == 0 or h == 0:
            return base
        vals = sorted(
            (
                (self._best(view, state, mover, c, friendly, value, base), n)
                for c, n in unseen.items()
            ),
            reverse=friendly,
        )
        return best_in_hand(vals, total, h)


def best_in_hand(order: Sequence[tuple[float, int]], total: int, h: int) -> float:
    """The expected value of the best card in a hand of ``h`` cards dealt from ``total`` unseen
    ones, ``order`` the kinds' (value, count) from the most preferred: the mover plays the
    first kind it holds, and P(it holds none of the first i kinds) = C(total - m_i, h) /
    C(total, h)."""
    denom = comb(total, h)
    e = 0.0
    seen = 0
    p_none_before = 1.0
    for v, n in order:
        seen += n
        p_none_after = comb(total - seen, h) / denom
        e += v * (p_none_before - p_none_after)
        p_none_before = p_none_after
    return e


def best_gains(state: PawnState, view: PlayerView, value: Value) -> Callable[[Card], float]:
    """``gain(card)``: the most that one move of ``card`` raises ``value`` for the view's
    owner in ``state`` (0 if no move of it does), computed once per card."""
    base = value(state)
    gains: dict[Card, float] = {}

    def gain(card: Card) -> float:
        if card not in gains:
            best = 0.0
            for m in card_moves(state, view.rules, view.viewer, card):
                changes: list[Change] = []
                state.apply(m, changes)
                best = max(best, value(state) - base)
                state.undo(changes)
            gains[card] = best
        return gains[card]

    return gain


def eval_potential(state: PawnState, view: PlayerView, hand: Sequence[Card], value: Value) -> float:
    """What the kept cards could do next turn, by the evaluation: the best gain in ``value``
    of any move of any of them, plus a small part of each card's keep value."""
    gain = best_gains(state, view, value)
    kinds = set(hand)
    return max((gain(c) for c in kinds), default=0.0) + 0.2 * sum(KEEP_VALUE[c] for c in kinds)


def draw_potential(state: PawnState, view: PlayerView, hand: Sequence[Card], value: Value) -> float:
    """As :func:`eval_potential`, with the card drawn to refill the hand too: the expectation
    of the best gain over the counted probabilities of that card (card counting)."""
    gain = best_gains(state, view, value)
    kinds = set(hand)
    kept = max((gain(c) for c in kinds), default=0.0)
    unseen = view.unseen_counts()
    total = sum(unseen.values())
    if total:
        kept = sum(n * max(kept, gain(c)) for c, n in unseen.items() if n) / total
    return kept + 0.2 * sum(KEEP_VALUE[c] for c in kinds)
