"""The pure-Python rollout of the bots' search and of the after-game analysis: a determinised
world (a :class:`sorry.playout.Table`: pawns, piles, hands, whose turn) played forward on the
reference's own rules by a greedy policy on progress, for at most ``depth`` moves; a world cut
off before the end is scored by the evaluation. The compiled rollouts of :mod:`sorry.fast` play
the compiled medium bot instead (:mod:`sorry.bots.rollouts` puts both behind one interface).
"""

from __future__ import annotations

import math

from ..moves import DISCARD, PASS, Move
from ..playout import Policy, Table
from ..rulebook import HAND_SIZE, PROGRESS
from ..state import Change, PawnState
from ..tuning import KEEP_VALUE
from .evaluate import WIN, evaluate


def greedy(table: Table) -> Policy:
    """The move with the largest gain in progress for the mover's side (its own pawns' minus
    the others'), the first listed on ties; with no move to make, the pass, or in the points
    variant the discard of the card of the hand least worth keeping (``KEEP_VALUE``)."""
    movers = table.rules.book.movers
    hands = table.hands

    def choose(state: PawnState, colour: int, card: int | None, moves: list[Move]) -> int:
        side = movers[colour]
        best = -1
        best_gain = -10_000
        pawns = state.pawns
        for k, m in enumerate(moves):
            kind = m.kind
            if kind in (PASS, DISCARD):
                continue
            changes: list[Change] = []
            state.apply(m, changes)
            gain = 0
            firsts: dict[tuple[int, int], int] = {}
            for c, i, old in changes:
                if (c, i) not in firsts:
                    firsts[(c, i)] = old
            for (c, i), old in firsts.items():
                d = PROGRESS[c][pawns[c][i]] - PROGRESS[c][old]
                gain += d if c in side else -d
            state.undo(changes)
            if gain > best_gain:
                best_gain = gain
                best = k
        if best >= 0:
            return best
        if moves[0].kind == DISCARD:
            least = min(hands[colour], key=KEEP_VALUE.__getitem__)
            return next(k for k, m in enumerate(moves) if m.card == least)
        return 0  # the pass

    return choose


def run(table: Table, depth: int, first: Move | None = None) -> int | None:
    """Play ``table`` forward greedily for at most ``depth`` moves (the first of them
    ``first``, one of its legal moves, if given); the colour whose move won, or None if cut
    off."""
    if first is not None:
        won = table.play(lambda state, c, card, moves: moves.index(first), table.turn + 1)
        if won or depth <= 1:
            return won[0] if won else None
        depth -= 1
    winners = table.play(greedy(table), limit=table.turn + depth)
    return winners[0] if winners else None


def score(
    table: Table, team: tuple[int, ...], winner: int | None, probs: dict[int, float], scale: float
) -> float:
    """1 for a win of ``team``, 0 for a loss, else the evaluation squashed into (0, 1)."""
    if winner is not None:
        return 1.0 if winner in team else 0.0
    rules = table.rules
    hand = HAND_SIZE if rules.points else 1
    v = evaluate(table.state, table.colours, team, probs, rules.slide_on, rules.teams, hand=hand)
    if v >= WIN:
        return 1.0
    if v <= -WIN:
        return 0.0
    return 1.0 / (1.0 + math.exp(-v / scale))
