"""Compiled rollouts for the after-game analysis (the ``fast`` extra: numba and numpy).

:func:`rollout_wins` plays ``rollouts`` games to the end from each of many nodes of a game, on
the compiled engine's one game loop (:func:`sorry.fast._loop.play_on`), every player following
one built-in policy, and counts each colour's wins.
A node is packed from a :class:`~sorry.game.Game` by :func:`pack`: the pawns, the draw and
discard piles, the hands (points), the colour to move, the turns played, and the card in hand
(standard, at a decision node) or the cards owed (points, at a chance node).

Rollout ``k`` of every node of one call starts from the same seed (common random numbers):
the draw pile is shuffled with it (the order of the cards left is never taken from the game),
then the card in hand, if any, is put on top so it is the first one played; in the points
variant the cards owed are dealt from the shuffled pile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..board import TRACK_LEN
from ..fast import _kernel as K, _loop as L, params
from ..fast._kernel import Book, Ints, Params, Slide, Table, Work, ajit, jit
from ..game import Game
from ..rules import Rules

#: Per node (row of ``meta``): the colour to move, turns played, the card in hand (0: none),
#: 1 when the cards owed are to be dealt first (points, at a chance node).
N_TO_MOVE = 0
N_TURN = 1
N_CARD = 2
N_DEAL = 3
N_LEN = 4

#: One seed per rollout: mixed from the call's seed and the rollout's number.
_WORLD = np.uint64(0xA1A1_5EED_0000_0001)


class Nodes(NamedTuple):
    """The nodes of :func:`rollout_wins`, row i of each array node i's (see :class:`Packer`)."""

    S: Any  # int8[n, STATE_LEN]: the pawns
    piles: Any  # int8[n, 2, 48]: the draw pile and the discards
    counts: Ints  # int64[n, 6]: the piles' sizes, the cards each colour holds
    hands: Ints  # int64[n, 4, 11]: the hands (points)
    meta: Ints  # int64[n, N_LEN]: to move, turns, the card in hand, deal first (N_*)


@jit
def _rollouts(
    nodes: Nodes, B: Book, rollouts: int, seed: Any, wins: Ints, T: Table, M: Work
) -> None:
    """The loop of :func:`rollout_wins` on its work arrays (no reference counting: the
    kernel's functions are called with arrays on every turn)."""
    teams = B.P[K.P_TEAMS] != 0
    piles = T.piles
    counts = T.counts
    hands = T.hands
    rng = T.rng
    G = T.G
    meta = nodes.meta
    for i in range(nodes.S.shape[0]):
        for k in range(rollouts):
            K.copy_into(T.S, nodes.S[i])
            for p in range(2):
                for j in range(piles.shape[1]):
                    piles[p, j] = nodes.piles[i, p, j]
            for j in range(6):
                counts[j] = nodes.counts[i, j]
            for c in range(4):
                for j in range(11):
                    hands[c, j] = nodes.hands[i, c, j]
            world = K.mix64(seed * K.GOLDEN + np.uint64(k) * _WORLD)
            K.seed_streams(rng, world, 1000)
            K.shuffle(rng, 0, piles[0], counts[0])
            to_move = meta[i, N_TO_MOVE]
            card = meta[i, N_CARD]
            if card > 0:  # the card in hand: the first one the rollout plays
                piles[0, counts[0]] = card
                counts[0] += 1
            if meta[i, N_DEAL] != 0:
                K.deal_hands(T, B, to_move)
            G[K.G_TO_MOVE] = to_move
            G[K.G_TURN] = meta[i, N_TURN]
            G[K.G_WINNER] = -1
            G[K.G_OVER] = 0
            L.play_on(T, B, M, -1)
            winner = G[K.G_WINNER]
            if winner >= 0:
                wins[i, winner] += 1
                if teams:
                    wins[i, K.PARTNER[winner]] += 1


@ajit
def rollout_wins(
    nodes: Nodes,
    cols: Ints,
    slide: Slide,
    P: Params,
    rollouts: int,
    seed: Any,
    wins: Ints,
    hitm: Ints,
    E: Any,
) -> None:
    """wins[i, c] += the rollouts from node i won by colour c (both partners in teams).
    ``hitm`` and ``E``: the medium bot's tables (:func:`sorry.compiled.arrays.rule_arrays`;
    placeholders for the other policies)."""
    after = np.empty(4, dtype=np.int64)
    K.seat_after(cols, after)
    pols = P[K.P_SEAT_POLICY : K.P_SEAT_POLICY + 4].copy()
    B = Book(P, slide, cols, after, pols, hitm, E)
    _rollouts(nodes, B, rollouts, seed, wins, K.new_table(), K.new_work())


class Packer:
    """Packs nodes of games of one rule set for :func:`rollout_wins`."""

    def __init__(self, rules: Rules, colours: Sequence[int], policy: int) -> None:
        self.rules = rules
        self.P, self.slide = params(rules, policy)
        self.cols = np.array(colours, dtype=np.int64)
        self.hitm: Any = np.zeros((4, K.TRACK, 1), np.int64)
        self.E: Any = np.zeros(1)
        if policy == K.POLICY_MEDIUM:  # the medium bot reads its tables from the Book
            from ..compiled.arrays import rule_arrays

            _P, _slide, hitm, E = rule_arrays(rules)
            self.hitm, self.E = hitm.copy(), E.copy()

    def run(self, nodes: Sequence[Game], rollouts: int, seed: int) -> Ints:
        """The wins of each colour in ``rollouts`` rollouts from each node (an n x 4 array)."""
        n = len(nodes)
        S0 = np.full((n, K.STATE_LEN), -1, dtype=np.int8)
        S0[:, : K.OCC] = K.START
        piles0 = np.zeros((n, 2, 48), dtype=np.int8)
        counts0 = np.zeros((n, 6), dtype=np.int64)
        hands0 = np.zeros((n, 4, 11), dtype=np.int64)
        meta = np.zeros((n, N_LEN), dtype=np.int64)
        points = self.rules.points
        slot = K.CARD_SLOT
        for i, g in enumerate(nodes):
            s = S0[i]
            for c, locs in enumerate(g.position().pawns):
                if locs is None:
                    continue
                for j, loc in enumerate(locs):
                    s[4 * c + j] = loc
                    if loc < TRACK_LEN:
                        s[K.OCC + loc] = 4 * c + j
            draw, discard = g.draw_pile, g.discard_pile
            piles0[i, 0, : len(draw)] = draw
            piles0[i, 1, : len(discard)] = discard
            counts0[i, 0], counts0[i, 1] = len(draw), len(discard)
            if points:
                for c in g.colours:
                    counts0[i, 2 + c] = len(g.hands[c])
                    for card in g.hands[c]:
                        hands0[i, c, slot[card]] += 1
            meta[i, N_TO_MOVE] = g.to_move
            meta[i, N_TURN] = g.turn
            if g.is_chance():
                meta[i, N_DEAL] = int(points)
            elif not points:
                assert g.card is not None
                meta[i, N_CARD] = g.card
        wins = np.zeros((n, 4), dtype=np.int64)
        if n:
            rollout_wins(
                Nodes(S0, piles0, counts0, hands0, meta),
                self.cols,
                self.slide,
                self.P,
                rollouts,
                np.uint64(seed & 0xFFFF_FFFF_FFFF_FFFF),
                wins,
                self.hitm,
                self.E,
            )
        return wins


__all__ = ["Packer", "rollout_wins"]
