"""The levels that do not search: ``random``, ``easy`` (greedy on progress) and ``medium``
(greedy on the hand-tuned evaluation of :mod:`sorry.bots.evaluate`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import Card
from ..movegen import card_moves
from ..moves import DISCARD, PASS, Move
from ..rng import Rng
from ..state import Change, PawnState
from ..tuning import KEEP_VALUE as KEEP_VALUE
from ..view import PlayerView
from .base import deck_probabilities, state_of, team_of, team_progress
from .evaluate import DEFAULT_WEIGHTS, Weights, evaluate


def _top(moves: Sequence[Move], scores: Sequence[float]) -> list[Move]:
    """The best-scoring moves (ties within 1e-9), in the order listed."""
    best = max(scores)
    return [m for m, s in zip(moves, scores, strict=True) if s >= best - 1e-9]


def _pick(top: Sequence[Move], rng: Rng) -> Move:
    """One of tied moves, drawn by ``rng`` (so the choice is seeded; no draw for one)."""
    return top[rng.below(len(top))] if len(top) > 1 else top[0]


def _argmax(moves: Sequence[Move], scores: Sequence[float], rng: Rng) -> Move:
    """The best-scoring move; ties broken by ``rng`` (so the choice is seeded)."""
    return _pick(_top(moves, scores), rng)


def score_moves(
    state: PawnState, moves: Sequence[Move], value: Callable[[PawnState], float]
) -> list[float]:
    """``value`` of the state after each move (apply, value, undo)."""
    out = []
    for m in moves:
        changes: list[Change] = []
        state.apply(m, changes)
        out.append(value(state))
        state.undo(changes)
    return out


def discard_choice(view: PlayerView, moves: Sequence[Move], rng: Rng) -> Move:
    """Points variant, dead hand: throw away the card least worth keeping."""
    return _pick(discard_best(moves), rng)


def discard_best(moves: Sequence[Move]) -> list[Move]:
    """The discards :func:`discard_choice` draws from: the cards least worth keeping."""
    return _top(moves, [-KEEP_VALUE.get(m.card if m.card is not None else 0, 0.0) for m in moves])


class RandomBot:
    """Picks a legal move uniformly at random (seeded)."""

    name = "random"

    def choose(self, view: PlayerView, rng: Rng) -> Move:
        moves = view.legal_moves
        return moves[rng.below(len(moves))]

    def best_moves(self, view: PlayerView) -> list[Move]:
        """Every legal move: all equally good to this bot."""
        return list(view.legal_moves)


class EasyBot:
    """Greedy one-ply on progress: the move after which the team's progress minus the
    opponents' progress (steps from START, HOME = 65) is largest."""

    name = "easy"

    def choose(self, view: PlayerView, rng: Rng) -> Move:
        return _pick(self.best_moves(view), rng)

    def best_moves(self, view: PlayerView) -> list[Move]:
        """The moves :meth:`choose` draws from: all equally good to this bot."""
        moves = list(view.legal_moves)
        if len(moves) == 1:
            return moves
        plays = [m for m in moves if m.kind != DISCARD]
        if not plays:
            return discard_best(moves)
        team = team_of(view.rules, view.viewer)
        opps = tuple(c for c in view.colours if c not in team)
        state = state_of(view)

        def value(s: PawnState) -> float:
            return float(team_progress(s, team) - team_progress(s, opps))

        return _top(plays, score_moves(state, plays, value))


class MediumBot:
    """Greedy one-ply on the hand-tuned evaluation (progress, safety, threats to and from
    opponents, a pawn in START for Sorry!, slides through the moves themselves). In the points
    variant it also weighs what the cards it keeps could do next turn."""

    name = "medium"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS, hand_weight: float = 0.3) -> None:
        self.weights = weights
        self.hand_weight = hand_weight

    def choose(self, view: PlayerView, rng: Rng) -> Move:
        return _pick(self.best_moves(view), rng)

    def best_moves(self, view: PlayerView) -> list[Move]:
        """The moves :meth:`choose` draws from: all equally good to this bot."""
        moves = list(view.legal_moves)
        if len(moves) == 1:
            return moves
        plays = [m for m in moves if m.kind != DISCARD]
        if not plays:
            return discard_best(moves)
        rules = view.rules
        team = team_of(rules, view.viewer)
        probs = deck_probabilities(rules)
        state = state_of(view)
        colours = view.colours
        w = self.weights
        hand = w.points_hand if rules.points else 1

        def value(s: PawnState) -> float:
            return evaluate(s, colours, team, probs, rules.slide_on, rules.teams, w, hand)

        scores = score_moves(state, plays, value)
        if rules.points and self.hand_weight:
            for i, m in enumerate(plays):
                if m.kind == PASS or m.card is None:
                    continue
                kept = list(view.hand)
                kept.remove(m.card)
                changes: list[Change] = []
                state.apply(m, changes)
                scores[i] += self.hand_weight * hand_potential(state, view, kept, team)
                state.undo(changes)
        return _top(plays, scores)


def hand_potential(
    state: PawnState, view: PlayerView, hand: Sequence[Card], team: tuple[int, ...]
) -> float:
    """What the kept cards could do next turn: the best progress gain of any of them, plus
    a small part of each card's keep value (variety)."""
    rules = view.rules
    opps = tuple(c for c in view.colours if c not in team)
    base = team_progress(state, team) - team_progress(state, opps)
    best = 0.0
    for card in set(hand):
        for m in card_moves(state, rules, view.viewer, card):
            changes: list[Change] = []
            state.apply(m, changes)
            gain = team_progress(state, team) - team_progress(state, opps) - base
            state.undo(changes)
            if gain > best:
                best = gain
    return best + 0.2 * sum(KEEP_VALUE[c] for c in set(hand))
