"""The expert's rollouts cut off by the learned network (numba): the determinised worlds and
rollouts of :mod:`sorry.fast._search` (the same deal, the same compiled ``medium`` bot at every
seat, the same game loop :func:`sorry.fast._loop.play_on`), but a rollout cut off after
``depth`` moves is scored by the network's chance of winning for the viewer (its team's in
teams) instead of the hand-tuned evaluation squashed.

The position at the cut-off is what the network was trained on: the pawns before the next
player draws, seen from the viewer's seat, who moves next, the next card's probabilities as
the viewer would count them (:func:`sorry.learned._net.next_probs`) and, in points, the cards
the viewer holds.

Two ways to score the cut-offs: :func:`evaluate_worlds_net` runs the forward pass inside the
loop, one position at a time; :func:`cutoff_features` only writes the cut-off positions'
features, for one batched forward pass in numpy (:func:`forward_batch`). docs/learned.md has
which is faster (the first: a cut-off's features cost more than its forward pass, and the
batch adds a copy of every row).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..fast import _kernel as K, _loop as L, _policy as PO, _search as SR
from . import _net as N
from ._net import jit

Arr = Any


@jit
def net_value(T: K.Table, B: K.Book, viewer: int, net: Any, F: N.Scratch) -> float:
    """The network's chance that ``viewer`` (its team in teams) wins the game on T, the colour
    T.G[G_TO_MOVE] to draw next."""
    W1, b1, W2, b2 = net
    cutoff_x(T, B, viewer, F, F.x)
    ncols = B.cols.shape[0]
    N.forward(F.x, ncols, W1, b1, W2, b2, F.h, F.p)
    if B.P[K.P_TEAMS] != 0 and ncols == 4:
        return float(F.p[0] + F.p[2])
    return float(F.p[0])


@jit
def cutoff_x(T: K.Table, B: K.Book, viewer: int, F: N.Scratch, x: Arr) -> None:
    """x = the features of the game on T seen from ``viewer`` (F: scratch)."""
    cols = B.cols
    ncols = cols.shape[0]
    ref = N.position_of(cols, ncols, viewer)
    nxt = N.position_of(cols, ncols, T.G[K.G_TO_MOVE])
    teams = B.P[K.P_TEAMS] != 0
    N.next_probs(T, B, viewer, F.probs)
    N.features(T.S, cols, ncols, ref, nxt, teams, F.probs, T.counts[0], B.hitm, F.cover, x)
    N.hand_features(T.hands[viewer], -1, x)


@K.jit  # no reference counting: called once per rollout
def won_or_lost(T: K.Table, B: K.Book, viewer: int) -> float:
    """1 if the game on T is won by ``viewer``'s side, 0 if by another, -1 if not decided."""
    winner = T.G[K.G_WINNER]
    if T.G[K.G_OVER] != 0 and winner >= 0:
        return 1.0 if PO.in_team(winner, viewer, B.P[K.P_TEAMS] != 0) else 0.0
    return -1.0


@K.jit  # no reference counting: the game loop is inlined here
def play_out(T: K.Table, B: K.Book, M: K.Work, mv0: K.Moves, idx: int, depth: int) -> int:
    """Play root move ``idx`` of mv0 in the dealt world T, then the rollout (at most ``depth``
    moves); returns the viewer."""
    viewer = T.G[K.G_TO_MOVE]
    if not L.play_choice(T, B, mv0, idx):
        L.play_on(T, B, M, depth)
    return int(viewer)


@jit
def evaluate_worlds_net(
    R: Arr,
    S0: Arr,
    slide: Arr,
    P: Arr,
    cols: Arr,
    cands: Arr,
    worlds: Arr,
    depth: int,
    hitm: Arr,
    E: Arr,
    net: Any,
    out: Arr,
) -> None:
    """out[w, j]: the score of root move cands[j] in world worlds[w], as
    :func:`sorry.fast._search.evaluate_worlds` but a cut-off scored by the network."""
    B = SR.search_book(P, slide, cols, hitm, E)
    M = K.new_work()
    mv0 = np.empty((K.MAX_MOVES, K.M_COLS), dtype=np.int16)
    SR.root_moves(S0, slide, P, R, K.with_moves(M, mv0))
    T = K.new_table()
    Tw = K.new_table()
    F = N.new_scratch(net)
    for w in range(worlds.shape[0]):
        SR.deal_world(worlds[w], R, B, S0, Tw)
        for j in range(cands.shape[0]):
            K.copy_table(T, Tw)
            viewer = play_out(T, B, M, mv0, cands[j], depth)
            v = won_or_lost(T, B, viewer)
            out[w, j] = v if v >= 0.0 else net_value(T, B, viewer, net, F)


@jit
def play_out_learned(
    T: K.Table, B: K.Book, M: K.Work, mv0: K.Moves, idx: int, depth: int, net: Any,
    F: N.Scratch, xb: Arr, pb: Arr,
) -> int:  # fmt: skip
    """:func:`play_out` with every seat played by the network greedily (B: every seat
    ``POLICY_OUTSIDE``, so the loop stops at each decision; :func:`sorry.learned._net.
    choose_learned` picks it, a forced move costs nothing); returns the viewer."""
    viewer = T.G[K.G_TO_MOVE]
    if L.play_choice(T, B, mv0, idx):
        return int(viewer)
    G = T.G
    for _ in range(depth):
        if L.play_on(T, B, M, -1) != L.STOP_DECISION:
            break  # over
        n = G[K.G_N]
        choice = 0
        if n > 1:
            to_move = G[K.G_TO_MOVE]
            N.next_probs(T, B, to_move, F.probs)
            choice = N.choose_learned(T, B, M, to_move, n, net, F, xb, pb)
        if L.play_choice(T, B, M.mv, choice):
            break
    return int(viewer)


@jit
def evaluate_worlds_learned(
    R: Arr,
    S0: Arr,
    slide: Arr,
    P: Arr,
    cols: Arr,
    cands: Arr,
    worlds: Arr,
    depth: int,
    hitm: Arr,
    E: Arr,
    net: Any,
    out: Arr,
) -> None:
    """out[w, j] as :func:`evaluate_worlds_net` (the same worlds, a cut-off scored by the
    network), but every seat of the rollouts plays the network's greedy move instead of the
    compiled medium bot's."""
    pols = np.full(4, K.POLICY_OUTSIDE, dtype=np.int64)
    B = N.outside_book(P, slide, cols, hitm, E, pols)
    M = K.new_work()
    mv0 = np.empty((K.MAX_MOVES, K.M_COLS), dtype=np.int16)
    SR.root_moves(S0, slide, P, R, K.with_moves(M, mv0))
    T = K.new_table()
    Tw = K.new_table()
    F = N.new_scratch(net)
    xb = np.empty(net[0].shape[0])
    pb = np.empty(N.N_OUT)
    for w in range(worlds.shape[0]):
        SR.deal_world(worlds[w], R, B, S0, Tw)
        for j in range(cands.shape[0]):
            K.copy_table(T, Tw)
            viewer = play_out_learned(T, B, M, mv0, cands[j], depth, net, F, xb, pb)
            v = won_or_lost(T, B, viewer)
            out[w, j] = v if v >= 0.0 else net_value(T, B, viewer, net, F)


@jit
def cutoff_features(
    R: Arr,
    S0: Arr,
    slide: Arr,
    P: Arr,
    cols: Arr,
    cands: Arr,
    worlds: Arr,
    depth: int,
    hitm: Arr,
    E: Arr,
    net: Any,
    X: Arr,
    out: Arr,
) -> None:
    """The same rollouts, the network left out: out[w, j] = 1 or 0 for a game decided, -1 for
    one cut off, whose features are then X[w * len(cands) + j] (for :func:`forward_batch`)."""
    B = SR.search_book(P, slide, cols, hitm, E)
    M = K.new_work()
    mv0 = np.empty((K.MAX_MOVES, K.M_COLS), dtype=np.int16)
    SR.root_moves(S0, slide, P, R, K.with_moves(M, mv0))
    T = K.new_table()
    Tw = K.new_table()
    F = N.new_scratch(net)
    k = cands.shape[0]
    for w in range(worlds.shape[0]):
        SR.deal_world(worlds[w], R, B, S0, Tw)
        for j in range(k):
            K.copy_table(T, Tw)
            viewer = play_out(T, B, M, mv0, cands[j], depth)
            v = won_or_lost(T, B, viewer)
            out[w, j] = v
            if v < 0.0:
                cutoff_x(T, B, viewer, F, X[w * k + j])


def forward_batch(X: Arr, ncols: int, teams: bool, net: Any) -> Arr:
    """The viewer's chance (its team's in teams) for every row of X, by numpy: the network's
    forward pass (:func:`sorry.learned._net.forward`) on a batch."""
    W1, b1, W2, b2 = net
    z = np.tanh(X @ W1 + b1) @ W2[:, :ncols] + b2[:ncols]
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    v = p[:, 0] + p[:, 2] if teams and ncols == 4 else p[:, 0]
    return np.asarray(v)


class NetRoot:
    """The arrays of one view (the viewer to move) whose rollouts' cut-offs the network
    scores: the :class:`~sorry.bots.rollouts.Root` of the expert's search with the learned
    cut-off. ``batched``: the forward passes in one numpy call per round of worlds (the
    cut-offs' features written by the compiled loop) instead of inside the loop."""

    engine = "compiled"

    def __init__(
        self, view: Any, model: Any, batched: bool = False, policy: str = "medium"
    ) -> None:
        from ..compiled.arrays import ViewArrays

        self.arrays = ViewArrays(view)
        self.net = model.net
        self.batched = batched
        self.policy = policy
        self.teams = bool(view.rules.teams)

    def scores(self, cands: Any, worlds: Any, depth: int) -> Arr:
        """[worlds, candidates]: 1 won, 0 lost, else the network's chance for the viewer."""
        a = self.arrays
        w = np.asarray(worlds, dtype=np.uint64)
        c = np.asarray(cands, dtype=np.int64)
        out = np.empty((w.shape[0], c.shape[0]), dtype=np.float64)
        args = (a.R, a.S0, a.slide, a.P, a.cols, c, w, depth, a.hitm, a.E, self.net)
        if self.policy == "learned":
            evaluate_worlds_learned(*args, out)
            return out
        if not self.batched:
            evaluate_worlds_net(*args, out)
            return out
        X = np.zeros((w.shape[0] * c.shape[0], self.net[0].shape[0]))
        cutoff_features(*args, X, out)
        flat = out.reshape(-1)
        cut = flat < 0.0
        if cut.any():
            flat[cut] = forward_batch(X[cut], a.cols.shape[0], self.teams, self.net)
        return out


__all__ = [
    "NetRoot",
    "cutoff_features",
    "evaluate_worlds_learned",
    "evaluate_worlds_net",
    "forward_batch",
    "net_value",
]
