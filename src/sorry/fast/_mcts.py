"""The compiled Monte-Carlo tree search of the ``mcts`` search (:mod:`sorry.fast.mcts`).

Single-observer information-set MCTS with chance nodes. Each iteration

1. deals a world consistent with the viewer's view (:func:`sorry.fast._search.deal_world`,
   which deals as ``Game.from_view`` does: a determinisation);
2. descends the tree from the root: at a *decision* node every move legal in this world is
   looked up among the node's children (a child is a move, identified by its record, so the
   same move is the same child in every world where it is legal); a legal move without a child
   is expanded (one a visit), else the child with the best upper confidence bound is played,
   with *availability counts* (the number of visits in which the child was legal stands for
   the parent's visits: Cowling, Powley and Whitehouse's ISMCTS);
3. after a move, the *chance* outcome the viewer observes (the card the next player draws in
   the standard game and teams; in points the card the viewer draws to refill its hand, and
   nothing for the others' hidden draws) picks or creates the decision node below it;
4. from the new leaf, the rollout of :func:`sorry.fast._search.rollout` (every seat the
   compiled ``medium`` bot, ``depth`` moves, then the evaluation squashed);
5. the result (1 won, 0 lost, else the squashed evaluation, for the viewer's side) is backed
   up: a move of the viewer's side (the viewer or its partner in teams) keeps the value, a
   move of any other seat keeps one minus it (each maximises its side's chance; with three or
   more sides the others are taken to play against the viewer).

A decision node is expanded only once it has been reached ``expand_after`` times; until then
its moves are the medium bot's (the rollout's), which keeps the tree from spending its visits
on the many weak moves of nodes seen once or twice.

The tree lives in preallocated arrays: ``T`` int64[N, T_COLS] (links and counts), ``V``
float64[N] (sums of values) and ``KEYS`` int16[N, KEY_LEN] (a move node's move record).
Node 0 is the root (the viewer to move); its children, the root's candidate moves, are made by
:func:`init_root`. Everything depends only on the seed and the number of iterations.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from . import _kernel as K, _loop as L, _policy as PO, _search as SR
from ._kernel import Book, Floats, Ints, Moves, Params, Slide, State, Table, Work, ajit, ijit, jit

Arr = K.Arr

# -- the tree's columns -------------------------------------------------------------------------
T_FIRST = 0  # first child, -1
T_NEXT = 1  # next sibling, -1
T_VISITS = 2
T_AVAIL = 3  # move nodes: visits in which the move was legal
T_OBS = 4  # decision nodes: the observation that led here (see observation()); moves: -1
T_MOVER = 5  # move nodes: the colour that plays it
T_INDEX = 6  # root's children: the index of the move in the root's moves (view.legal_moves)
T_COLS = 8
KEY_LEN = 12  # the columns of a move record that identify it (all but the policy's scratch)
#: I[0]: nodes in use; I[1]: iterations done; I[2]: deepest descent (moves in the tree)
I_NODES = 0
I_ITERS = 1
I_DEPTH = 2
I_LEN = 4


class Tree(NamedTuple):
    """The tree's arrays (see the module doc)."""

    T: Ints  # int64[N, T_COLS]: links and counts
    V: Floats  # float64[N]: sums of values
    KEYS: Moves  # int16[N, KEY_LEN]: a move node's move record
    info: Ints  # int64[I_LEN]: nodes in use, iterations done, deepest descent


@ijit
def new_node(T: Arr, V: Arr, info: Arr, parent: int, obs: int, mover: int) -> Any:
    k = info[I_NODES]
    info[I_NODES] = k + 1
    T[k, T_FIRST] = -1
    T[k, T_NEXT] = -1
    T[k, T_VISITS] = 0
    T[k, T_AVAIL] = 0
    T[k, T_OBS] = obs
    T[k, T_MOVER] = mover
    T[k, T_INDEX] = -1
    V[k] = 0.0
    if parent >= 0:  # appended last, so the children keep the order they were made in
        last = T[parent, T_FIRST]
        if last < 0:
            T[parent, T_FIRST] = k
        else:
            while T[last, T_NEXT] >= 0:
                last = T[last, T_NEXT]
            T[last, T_NEXT] = k
    return k


@ijit
def same_move(KEYS: Arr, node: int, mv: Moves, m: int) -> bool:
    for col in range(KEY_LEN):  # noqa: SIM110 (no generators in compiled code)
        if KEYS[node, col] != mv[m, col]:
            return False
    return True


@jit
def move_child(T: Arr, KEYS: Arr, node: int, mv: Moves, m: int) -> Any:
    """The child of decision node ``node`` that is move mv[m], or -1."""
    ch = T[node, T_FIRST]
    while ch >= 0:
        if same_move(KEYS, ch, mv, m):
            return ch
        ch = T[ch, T_NEXT]
    return -1


@ijit
def obs_child(T: Arr, node: int, obs: int) -> Any:
    ch = T[node, T_FIRST]
    while ch >= 0:
        if T[ch, T_OBS] == obs:
            return ch
        ch = T[ch, T_NEXT]
    return -1


@ajit
def init_root(mv0: Arr, cands: Arr, viewer: int, T: Arr, V: Arr, KEYS: Arr, info: Arr) -> None:
    """The root (node 0) and one child per candidate (indices of mv0, in the order given: the
    order also breaks ties between equally visited moves)."""
    info[I_NODES] = 0
    info[I_ITERS] = 0
    info[I_DEPTH] = 0
    new_node(T, V, info, -1, -1, -1)
    for j in range(cands.shape[0]):
        k = new_node(T, V, info, 0, -1, viewer)
        T[k, T_INDEX] = cands[j]
        for col in range(KEY_LEN):
            KEYS[k, col] = mv0[cands[j], col]


@ijit
def ucb(T: Arr, V: Arr, ch: int, parent_n: int, c: float) -> Any:
    n = T[ch, T_VISITS]
    return V[ch] / n + c * np.sqrt(np.log(max(parent_n, 1)) / n)


@jit
def play_out(
    Tb: Table, B: Book, M: Work, mv: Moves, idx: int, depth: int, viewer: int, E_leaf: Floats
) -> float:
    """Play move mv[idx] for the colour to move (Tb.G), then the rollout: the value for the
    viewer's side."""
    if L.play_choice(Tb, B, mv, idx):
        return SR.result(Tb, B, M, viewer, E_leaf)
    return SR.rollout(Tb, B, M, depth, viewer, E_leaf)


@ajit
def run(
    R: Ints,
    S0: State,
    slide: Slide,
    P: Params,
    cols: Ints,
    hitm: Ints,
    E: Floats,
    E_leaf: Floats,
    search: Any,
    tree: Tree,
) -> None:
    """``iters`` more iterations of the search (``search`` = (seed, iters, depth, c,
    expand_after), see the module doc); iteration ``i`` (counted from the first call,
    info[I_ITERS]) plays in world ``mix64(seed + i * GOLDEN)``."""
    seed, iters, depth, c, expand_after = search
    T, V, KEYS, info = tree
    B = SR.search_book(P, slide, cols, hitm, E)
    M = K.new_work()
    mv = M.mv
    mv0 = np.empty((K.MAX_MOVES, K.M_COLS), dtype=np.int16)
    SR.root_moves(S0, slide, P, R, K.with_moves(M, mv0))
    Tb = K.new_table()
    G = Tb.G
    viewer = R[SR.R_VIEWER]
    points = P[K.P_POINTS] != 0
    teams = P[K.P_TEAMS] != 0
    cap = T.shape[0]
    path = np.empty(4096, dtype=np.int64)
    for _it in range(iters):
        i = info[I_ITERS]
        info[I_ITERS] = i + 1
        world = K.mix64(np.uint64(seed) + np.uint64(i) * K.GOLDEN)
        SR.deal_world(world, R, B, S0, Tb)
        node = 0
        npath = 0
        T[0, T_VISITS] += 1
        # the root: every candidate is legal in every world
        best = -1
        best_u = -1.0
        parent_n = T[0, T_VISITS]
        ch = T[0, T_FIRST]
        while ch >= 0:
            T[ch, T_AVAIL] += 1
            if T[ch, T_VISITS] == 0:
                best = ch
                break
            u = ucb(T, V, ch, parent_n, c)
            if u > best_u:
                best_u = u
                best = ch
            ch = T[ch, T_NEXT]
        path[npath] = best
        npath += 1
        mover = viewer
        value = -1.0
        if L.play_choice(Tb, B, mv0, T[best, T_INDEX]):
            value = SR.result(Tb, B, M, viewer, E_leaf)
        elif T[best, T_VISITS] == 0:  # a new root move: its rollout
            value = SR.rollout(Tb, B, M, depth, viewer, E_leaf)
        node = best
        while value < 0.0:
            # below a move node: the next turn begins; what the viewer sees picks the child
            drawn = 0
            if points and mover == viewer:
                drawn = Tb.piles[0, Tb.counts[0]]  # the card the viewer just drew (end_turn)
            to_move = G[K.G_TO_MOVE]
            card, n = K.begin_turn(Tb, B, M, to_move)
            obs = 16 * to_move + (drawn if points else card)
            d = obs_child(T, node, obs)
            if d < 0:
                if info[I_NODES] >= cap:
                    d = -1
                else:
                    d = new_node(T, V, info, node, obs, -1)
            if d >= 0:
                T[d, T_VISITS] += 1
            mover = to_move
            if d < 0 or T[d, T_VISITS] <= expand_after:
                # not expanded yet (or no room left): the medium bot plays on
                idx = L.decide(K.POLICY_MEDIUM, Tb, B, M, mover, n)
                value = play_out(Tb, B, M, mv, idx, depth, viewer, E_leaf)
                break
            # an expanded decision node: the legal moves of this world among its children
            parent_n = 0
            best = -1
            best_u = -1.0
            fresh = -1
            for m in range(n):
                k = move_child(T, KEYS, d, mv, m)
                if k < 0:
                    if fresh < 0:
                        fresh = m
                    continue
                T[k, T_AVAIL] += 1
                u = ucb(T, V, k, T[k, T_AVAIL], c)
                if u > best_u:
                    best_u = u
                    best = k
            if fresh >= 0 or npath >= path.shape[0] - 1:
                if fresh < 0:  # pragma: no cover - a path of thousands of moves
                    fresh = 0
                if info[I_NODES] < cap:
                    k = new_node(T, V, info, d, -1, mover)
                    for col in range(KEY_LEN):
                        KEYS[k, col] = mv[fresh, col]
                    T[k, T_AVAIL] += 1
                    path[npath] = k
                    npath += 1
                value = play_out(Tb, B, M, mv, fresh, depth, viewer, E_leaf)
                break
            idx = 0
            for m in range(n):
                if same_move(KEYS, best, mv, m):
                    idx = m
                    break
            path[npath] = best
            npath += 1
            if L.play_choice(Tb, B, mv, idx):
                value = SR.result(Tb, B, M, viewer, E_leaf)
            node = best
        if npath > info[I_DEPTH]:
            info[I_DEPTH] = npath
        for p in range(npath):
            k = path[p]
            T[k, T_VISITS] += 1
            if PO.in_team(T[k, T_MOVER], viewer, teams):
                V[k] += value
            else:
                V[k] += 1.0 - value
