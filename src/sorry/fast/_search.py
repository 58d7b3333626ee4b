"""Compiled games and rollouts for the bots: whole games with the compiled ``medium`` bot
(:mod:`sorry.fast._policy`) at some seats, and the determinised rollouts of the searching
levels and the hints (:mod:`sorry.bots.fastsearch`).

Turns are played by the kernel's own ``new_game`` / ``begin_turn`` / ``end_turn`` (the rules
live there once). A *root* is what a player's view holds: the pawns, whose turn, the legal
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
from . import _kernel as K, _policy as PO
from ._kernel import Arr, ajit, ijit, jit, pjit, prange

#: policy ids beyond the kernel's built-in ones (K.POLICY_*)
POLICY_MEDIUM = 10


@ajit
def new_work() -> tuple[Arr, Arr, Arr, Arr, Arr, Arr, Arr, Arr, Arr, Arr, Arr, Arr]:
    """The kernel's work arrays plus the medium bot's: move values, two scratch states and
    the evaluation's scratch."""
    S, W, buf, mv, keys, piles, counts, hands, rng = K.new_work()
    vals = np.zeros(K.MAX_MOVES, dtype=np.float64)
    X = np.empty((2, K.STATE_LEN), dtype=np.int8)
    Z = np.zeros(PO.Z_LEN, dtype=np.int64)
    return S, W, buf, mv, keys, piles, counts, hands, rng, vals, X, Z


@ijit
def decide(
    policy: int,
    S: Arr,
    slide: Arr,
    P: Arr,
    colour: int,
    mv: Arr,
    n: int,
    rng: Arr,
    hands: Arr,
    cols: Arr,
    ncols: int,
    hitm: Arr,
    E: Arr,
    vals: Arr,
    keys: Arr,
    W: Arr,
    buf: Arr,
    X: Arr,
    Z: Arr,
) -> Any:
    """The move ``colour``'s policy picks among mv[:n] (its stream is rng[1 + colour])."""
    if policy == POLICY_MEDIUM:
        return PO.medium(
            S,
            slide,
            P,
            colour,
            mv,
            n,
            rng,
            1 + colour,
            hands[colour],
            cols,
            ncols,
            hitm,
            E,
            vals,
            keys,
            W,
            buf,
            X,
            Z,
        )
    if policy == K.POLICY_RANDOM:
        return K.below(rng, 1 + colour, n)
    return K.choose(policy, S, slide, P, colour, mv, n, rng, W)


@jit
def play_game(
    seed: Any,
    cols: Arr,
    ncols: int,
    slide: Arr,
    P: Arr,
    pols: Arr,
    hitm: Arr,
    E: Arr,
    work: Any,
    trace: Arr,
    out: Arr,
    final: Arr,
) -> None:
    """One game from ``seed`` (as Game(rules, players, seed)), colour c playing ``pols[c]``;
    out and final as in ``_kernel.play_game``."""
    S, W, buf, mv, keys, piles, counts, hands, rng, vals, X, Z = work
    first = K.new_game(seed, cols, ncols, P, S, buf, piles, counts, hands, rng)
    to_move = first
    turn = 0
    winner = -1
    ntrace = trace.shape[0]
    while True:
        _card, n = K.begin_turn(S, slide, P, to_move, mv, keys, W, buf, piles, counts, hands, rng)
        idx = decide(
            pols[to_move],
            S,
            slide,
            P,
            to_move,
            mv,
            n,
            rng,
            hands,
            cols,
            ncols,
            hitm,
            E,
            vals,
            keys,
            W,
            buf,
            X,
            Z,
        )
        if turn < ntrace:
            trace[turn, 0] = mv[idx, K.M_CARD]
            trace[turn, 1] = n
            trace[turn, 2] = idx
        to_move, turn, winner, over = K.end_turn(
            S, slide, P, to_move, turn, mv, idx, buf, piles, counts, hands, rng
        )
        if over:
            break
    K.finish_game(S, cols, ncols, P, winner, turn, first, out, final)


@pjit
def play_batch(
    seeds: Arr,
    cols: Arr,
    slide: Arr,
    P: Arr,
    pols: Arr,
    hitm: Arr,
    E: Arr,
    nchunks: int,
    trace: Arr,
    out: Arr,
    final: Arr,
) -> None:
    """``_kernel.play_batch`` with a policy per colour that may be the compiled medium bot."""
    ngames = seeds.shape[0]
    ncols = cols.shape[0]
    for ch in prange(nchunks):
        lo = ngames * ch // nchunks
        hi = ngames * (ch + 1) // nchunks
        work = new_work()
        empty = np.empty((0, 3), dtype=np.int64)
        for g in range(lo, hi):
            tr = trace if g == 0 else empty
            play_game(seeds[g], cols, ncols, slide, P, pols, hitm, E, work, tr, out[g], final[g])


# -- rollouts from a view ---------------------------------------------------------------------
@jit
def root_moves(S0: Arr, slide: Arr, P: Arr, R: Arr, mv: Arr, keys: Arr, W: Arr, buf: Arr) -> int:
    """The viewer's legal moves at the root, in the reference order (view.legal_moves)."""
    hand = R[R_HAND : R_HAND + 11]
    return K.legal_moves(S0, slide, P, R[R_VIEWER], R[R_CARD], hand, mv, keys, W, buf)


@jit
def deal_world(
    world: Any,
    R: Arr,
    cols: Arr,
    ncols: int,
    S0: Arr,
    S: Arr,
    piles: Arr,
    counts: Arr,
    hands: Arr,
    rng: Arr,
) -> None:
    """A determinisation of the root, dealt as :meth:`sorry.view.PlayerView.deal` deals
    (``Game.from_view(view, world)`` is the same world): the unseen cards in CARDS order
    shuffled by the stream ``world``, the other hands (their sizes, in seat order) from the
    front, the rest the draw pile; the discard pile as seen; the policy streams seeded from
    ``world``."""
    rng[0] = world
    for c in range(4):
        rng[1 + c] = K.mix64(world * K.GOLDEN + np.uint64(2001 + c))
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
    for k in range(ncols):
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
    K.copy_into(S, S0)


@jit
def rollout(
    S: Arr,
    slide: Arr,
    P: Arr,
    to_move: int,
    turn: int,
    depth: int,
    team: int,
    cols: Arr,
    ncols: int,
    hitm: Arr,
    E: Arr,
    E_leaf: Arr,
    work: Any,
    piles: Arr,
    counts: Arr,
    hands: Arr,
    rng: Arr,
) -> float:
    """Play on with the compiled medium bot at every seat for at most ``depth`` moves; 1 if
    ``team``'s side wins, 0 if it loses, else the evaluation (E_leaf) squashed into (0, 1)."""
    _S, W, buf, mv, keys, _p, _c, _h, _r, vals, X, Z = work
    teams = P[K.P_TEAMS] != 0
    for _step in range(depth):
        _card, n = K.begin_turn(S, slide, P, to_move, mv, keys, W, buf, piles, counts, hands, rng)
        idx = PO.medium(
            S,
            slide,
            P,
            to_move,
            mv,
            n,
            rng,
            1 + to_move,
            hands[to_move],
            cols,
            ncols,
            hitm,
            E,
            vals,
            keys,
            W,
            buf,
            X,
            Z,
        )
        mover = to_move
        to_move, turn, winner, over = K.end_turn(
            S, slide, P, to_move, turn, mv, idx, buf, piles, counts, hands, rng
        )
        if over:
            if winner < 0:
                break
            return 1.0 if PO.in_team(winner, team, teams) else 0.0
        if mover == to_move and counts[0] == 0 and counts[1] == 0:
            break  # pragma: no cover - no card left anywhere
    return leaf_value(S, cols, ncols, team, teams, hitm, E_leaf, Z)


@jit
def leaf_value(
    S: Arr, cols: Arr, ncols: int, team: int, teams: bool, hitm: Arr, E: Arr, Z: Arr
) -> float:
    v = PO.evaluate(S, cols, ncols, team, teams, hitm, E, Z)
    if v >= PO.WIN:
        return 1.0
    if v <= -PO.WIN:
        return 0.0
    return float(1.0 / (1.0 + np.exp(-v / E[PO.E_SCALE])))


@jit
def play_candidate(
    R: Arr,
    slide: Arr,
    P: Arr,
    cols: Arr,
    ncols: int,
    mv0: Arr,
    idx: int,
    depth: int,
    hitm: Arr,
    E: Arr,
    E_leaf: Arr,
    work: Any,
    S: Arr,
    piles: Arr,
    counts: Arr,
    hands: Arr,
    rng: Arr,
) -> float:
    """The score of root move ``idx`` (a row of mv0) in the dealt world (S, piles, ...)."""
    buf = work[2]
    Z = work[11]
    viewer = R[R_VIEWER]
    to_move, turn, winner, over = K.end_turn(
        S, slide, P, viewer, R[R_TURN], mv0, idx, buf, piles, counts, hands, rng
    )
    teams = P[K.P_TEAMS] != 0
    if over:
        if winner < 0:
            return leaf_value(S, cols, ncols, viewer, teams, hitm, E_leaf, Z)
        return 1.0 if PO.in_team(winner, viewer, teams) else 0.0
    return rollout(
        S,
        slide,
        P,
        to_move,
        turn,
        depth,
        viewer,
        cols,
        ncols,
        hitm,
        E,
        E_leaf,
        work,
        piles,
        counts,
        hands,
        rng,
    )


@ajit
def evaluate_worlds(
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
    E_leaf: Arr,
    out: Arr,
) -> None:
    """out[w, j]: the score of root move cands[j] in world worlds[w] (every candidate in the
    same worlds: common random numbers)."""
    ncols = cols.shape[0]
    work = new_work()
    S, W, buf, _mv, keys, piles, counts, hands, rng, _vals, _X, _Z = work
    mv0 = np.empty((K.MAX_MOVES, K.M_COLS), dtype=np.int16)
    root_moves(S0, slide, P, R, mv0, keys, W, buf)
    for c in range(4):  # buf[12 + c]: the colour after c (as new_game sets it)
        buf[12 + c] = K.next_colour(cols, ncols, c)
    # each candidate starts from a copy of the dealt world
    piles_w = np.empty_like(piles)
    counts_w = np.empty_like(counts)
    hands_w = np.empty_like(hands)
    rng_w = np.empty_like(rng)
    Sw = np.empty_like(S)
    for w in range(worlds.shape[0]):
        deal_world(worlds[w], R, cols, ncols, S0, Sw, piles_w, counts_w, hands_w, rng_w)
        for j in range(cands.shape[0]):
            K.copy_into(S, Sw)
            for r in range(2):
                K.copy_into(piles[r], piles_w[r])
            K.copy_into(counts, counts_w)
            for c in range(4):
                K.copy_into(hands[c], hands_w[c])
            K.copy_into(rng, rng_w)
            out[w, j] = play_candidate(
                R,
                slide,
                P,
                cols,
                ncols,
                mv0,
                cands[j],
                depth,
                hitm,
                E,
                E_leaf,
                work,
                S,
                piles,
                counts,
                hands,
                rng,
            )
