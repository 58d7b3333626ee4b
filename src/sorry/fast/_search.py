"""Compiled games and rollouts for the bots: whole games with the compiled ``medium`` bot
(:mod:`sorry.fast._policy`) at some seats, and the determinised rollouts of the searching
levels and the hints (:mod:`sorry.bots.fastsearch`).

Turns are played by the one game loop (:func:`sorry.fast._loop.play_on`: the rules live in the
kernel once). A *root* is what a player's view holds: the pawns, whose turn, the legal
moves, the discard pile, the viewer's hand and the number of cards every other hand holds. A
*world* deals the cards the viewer cannot see (``unseen``, counts per card slot) at random into
the other hands and the draw pile: a determinisation consistent with the view. Every candidate
move is played in the same worlds (common random numbers), followed by a rollout in which every
seat plays the compiled medium bot, to the end of the game or ``depth`` moves, then scored 1
(the viewer's side won), 0 (lost) or the evaluation squashed into (0, 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..compiled.arrays import (
    # the root (a view) as an int64 array R
    R_CARD as R_CARD,
    R_DISCARD as R_DISCARD,
    R_DRAW as R_DRAW,
    R_HAND as R_HAND,
    R_LEN as R_LEN,
    R_NDISCARD as R_NDISCARD,
    R_SIZES as R_SIZES,
    R_TURN as R_TURN,
    R_UNSEEN as R_UNSEEN,
    R_VIEWER as R_VIEWER,
)
from . import _kernel as K, _loop as L, _policy as PO
from ._kernel import (
    Book,
    Floats,
    Ints,
    Moves,
    Params,
    Slide,
    State,
    Table,
    Work,
    ajit,
    jit,
)

#: the compiled medium bot's policy id (sorry.fast._kernel)
POLICY_MEDIUM = K.POLICY_MEDIUM


@ajit
def search_book(P: Params, slide: Slide, cols: Ints, hitm: Ints, E: Floats) -> Book:
    """The Book of a search: every seat plays the compiled medium bot."""
    after = np.empty(4, dtype=np.int64)
    K.seat_after(cols, after)
    pols = np.full(4, K.POLICY_MEDIUM, dtype=np.int64)
    return Book(P, slide, cols, after, pols, hitm, E)


# -- rollouts from a view ---------------------------------------------------------------------
@jit
def root_moves(S0: State, slide: Slide, P: Params, R: Ints, M: Work) -> int:
    """The viewer's legal moves at the root, in the reference order (view.legal_moves)."""
    hand = R[R_HAND : R_HAND + 11]
    return K.legal_moves(S0, slide, P, R[R_VIEWER], R[R_CARD], hand, M)


@jit
def deal_world(world: Any, R: Ints, B: Book, S0: State, T: Table) -> None:
    """A determinisation of the root, dealt as :meth:`sorry.view.PlayerView.deal` deals
    (``Game.from_view(view, world)`` is the same world): the unseen cards in CARDS order
    shuffled by the stream ``world``, the other hands (their sizes, in seat order) from the
    front, the rest the draw pile; the discard pile as seen; the policy streams seeded from
    ``world``; the viewer to move at the root's turn."""
    rng = T.rng
    piles = T.piles
    counts = T.counts
    hands = T.hands
    cols = B.cols
    K.seed_streams(rng, world, 2000)
    nu = 0
    for s in range(11):
        for _ in range(R[R_UNSEEN + s]):
            piles[0, nu] = K.CARD_KINDS[s]
            nu += 1
    K.shuffle(rng, 0, piles[0], nu)
    viewer = R[R_VIEWER]
    for c in range(4):
        counts[2 + c] = R[R_SIZES + c]
        for s in range(11):
            hands[c, s] = 0
    for s in range(11):
        hands[viewer, s] = R[R_HAND + s]
    top = 0
    for k in range(cols.shape[0]):
        c = cols[k]
        if c == viewer:
            continue
        for _ in range(R[R_SIZES + c]):
            hands[c, K.CARD_SLOT[piles[0, top]]] += 1
            top += 1
    for k in range(top, nu):  # the rest is the draw pile, its top card last
        piles[0, k - top] = piles[0, k]
    counts[0] = nu - top
    nd = R[R_NDISCARD]
    for k in range(nd):
        piles[1, k] = R[R_DISCARD + k]
    counts[1] = nd
    K.copy_into(T.S, S0)
    G = T.G
    G[K.G_TO_MOVE] = viewer
    G[K.G_TURN] = R[R_TURN]
    G[K.G_WINNER] = -1
    G[K.G_OVER] = 0


@jit
def rollout(T: Table, B: Book, M: Work, depth: int, team: int, E_leaf: Floats) -> float:
    """Play on from T.G with the Book's policies (the compiled medium bot at every seat) for at
    most ``depth`` moves; 1 if ``team``'s side wins, 0 if it loses, else the evaluation
    (E_leaf) squashed into (0, 1)."""
    L.play_on(T, B, M, depth)
    return result(T, B, M, team, E_leaf)


@jit
def result(T: Table, B: Book, M: Work, team: int, E_leaf: Floats) -> float:
    """The value of the game on T for ``team``'s side: 1 won, 0 lost, else (not over, or cut
    by the turn limit) the evaluation squashed."""
    teams = B.P[K.P_TEAMS] != 0
    winner = T.G[K.G_WINNER]
    if T.G[K.G_OVER] != 0 and winner >= 0:
        return 1.0 if PO.in_team(winner, team, teams) else 0.0
    return leaf_value(T.S, B.cols, team, teams, B.hitm, E_leaf, M.Z)


@jit
def leaf_value(
    S: State, cols: Ints, team: int, teams: bool, hitm: Ints, E: Floats, Z: Ints
) -> float:
    v = PO.evaluate(S, cols, cols.shape[0], team, teams, hitm, E, Z)
    if v >= PO.WIN:
        return 1.0
    if v <= -PO.WIN:
        return 0.0
    return float(1.0 / (1.0 + np.exp(-v / E[PO.E_SCALE])))


@jit
def play_candidate(
    T: Table, B: Book, M: Work, mv0: Moves, idx: int, depth: int, E_leaf: Floats
) -> float:
    """The score of root move ``idx`` (a row of mv0) in the dealt world T, for the viewer."""
    viewer = T.G[K.G_TO_MOVE]
    if L.play_choice(T, B, mv0, idx):
        return result(T, B, M, viewer, E_leaf)
    return rollout(T, B, M, depth, viewer, E_leaf)


@ajit
def evaluate_worlds(
    R: Ints,
    S0: State,
    slide: Slide,
    P: Params,
    cols: Ints,
    cands: Ints,
    worlds: Any,
    depth: int,
    hitm: Ints,
    E: Floats,
    E_leaf: Floats,
    out: Floats,
) -> None:
    """out[w, j]: the score of root move cands[j] in world worlds[w] (every candidate in the
    same worlds: common random numbers). The plain arrays of a view (ViewArrays): the
    function compiled ahead of time takes no record."""
    B = search_book(P, slide, cols, hitm, E)
    M = K.new_work()
    mv0 = np.empty((K.MAX_MOVES, K.M_COLS), dtype=np.int16)
    root_moves(S0, slide, P, R, K.with_moves(M, mv0))
    T = K.new_table()
    Tw = K.new_table()  # each candidate starts from a copy of the dealt world
    for w in range(worlds.shape[0]):
        deal_world(worlds[w], R, B, S0, Tw)
        for j in range(cands.shape[0]):
            K.copy_table(T, Tw)
            out[w, j] = play_candidate(T, B, M, mv0, cands[j], depth, E_leaf)
