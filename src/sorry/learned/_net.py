"""The compiled parts of the learned evaluation (numba): the features of a position, the
network's forward pass and its gradient step, self-play games that learn by TD(lambda), and
games against the compiled bots that measure it.

Games are played by the compiled engine's one game loop (:func:`sorry.fast._loop.play_on`), the
network's seats being ``POLICY_OUTSIDE`` (the loop stops at their decisions and the move chosen
here is played with ``play_choice``); the afterstates come from the kernel's ``apply_move`` and
``plays_again``, the win from its ``won``: nothing here re-implements a rule.

Features are those of an *afterstate* (the pawns after a move, before the next card is drawn),
seen from a reference seat ``ref`` (the player who chooses): the seats are taken in turn order
from ``ref`` (relative seat 0 is ``ref``), so one network plays every colour. Per relative seat
(:data:`SEAT_LEN` inputs):

- ``0..59``: pawns on the track, by the seat's own progress (its START exit is 1);
- ``60..64``: pawns in the Safety Zone; ``65..68`` pawns in START (at least 1, 2, 3, 4);
  ``69..72`` pawns HOME (at least 1, 2, 3, 4);
- ``73..132``: for each of its track pawns, the probability that some opponent's next card can
  bump it (the ``medium`` evaluation's threat, with the card-counted probabilities), at the
  pawn's progress; ``133``: the progress at risk (risk times progress / 60, summed).

Then the globals: who moves next (relative seat, one-hot 4), the number of players (one-hot
2, 3, 4), the next card's probabilities (11 kinds) and the draw pile's size / 45.

A network of the points variant has :data:`N_HAND` inputs more (:data:`G_HAND`): the cards the
chooser keeps in its hand after the play, by kind (the card drawn to refill it is not known
yet); its next card's probabilities are those of the cards the chooser cannot see (the draw
pile and the others' hands, as ``PlayerView.next_card_probabilities``).

The network: one hidden layer (tanh), then a softmax over the seats in play: the probability
that each relative seat wins. A move's value for its player is output 0.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba  # type: ignore[import-untyped, import-not-found, unused-ignore]
import numpy as np

from .. import tuning as _ev  # the numbers the bots share (BUMP_STEPS, DEFAULT_WEIGHTS)
from ..compiled.arrays import E_LEN
from ..fast import _kernel as K, _loop as L

Arr = Any

SEAT_LEN = 134
F_TRACK = 0
F_SAFE = 60
F_START = 65
F_HOME = 69
F_RISK = 73
F_LOSS = 133
G_BASE = 4 * SEAT_LEN
G_NEXT = G_BASE  # 4: who moves next, relative seat
G_PLAYERS = G_BASE + 4  # 3: two, three, four players
G_PROBS = G_BASE + 7  # 11: the next card's probabilities by kind
G_DRAW = G_BASE + 18  # the draw pile's size / 45
N_FEATURES = G_BASE + 19
G_HAND = N_FEATURES  # points: 11, the chooser's kept cards by kind
N_HAND = 11
N_FEATURES_POINTS = N_FEATURES + N_HAND
N_OUT = 4

NKINDS = len(_ev.BUMP_STEPS)
#: The card slot (sorry.cards.CARD_INDEX) of each bump kind of evaluate._BUMP_STEPS.
BUMP_SLOT = np.array([K.CARD_SLOT[card] for card, _f, _b in _ev.BUMP_STEPS], dtype=np.int64)
SORRY_SLOT = int(K.CARD_SLOT[K.SORRY])
SORRY_SHARE = _ev.DEFAULT_WEIGHTS.sorry_share

jit = numba.njit(cache=True, error_model="numpy")


@jit
def card_probs(piles: Arr, counts: Arr, probs: Arr) -> None:
    """The next card's probabilities by kind: the draw pile's composition (the full deck's
    when it is empty: the discards are reshuffled, near enough)."""
    for s in range(11):
        probs[s] = 0.0
    n = counts[0]
    if n == 0:
        total = 0.0
        for s in range(11):
            probs[s] = K.DECK_COUNTS[0, s]
            total += probs[s]
        for s in range(11):
            probs[s] /= total
        return
    for k in range(n):
        probs[K.CARD_SLOT[piles[0, k]]] += 1.0
    for s in range(11):
        probs[s] /= n


@jit
def hidden_probs(piles: Arr, counts: Arr, hands: Arr, colour: int, probs: Arr) -> None:
    """Points: the next card's probabilities as ``colour`` knows them: every card it cannot
    see (the draw pile and the others' hands) equally likely; the discards when the draw
    pile is empty (they are reshuffled)."""
    for s in range(11):
        probs[s] = 0.0
    total = 0.0
    if counts[0] == 0:
        for k in range(counts[1]):
            probs[K.CARD_SLOT[piles[1, k]]] += 1.0
            total += 1.0
    else:
        for k in range(counts[0]):
            probs[K.CARD_SLOT[piles[0, k]]] += 1.0
            total += 1.0
        for c in range(4):
            if c != colour:
                for s in range(11):
                    probs[s] += hands[c, s]
                    total += hands[c, s]
    if total > 0.0:
        for s in range(11):
            probs[s] /= total


@jit
def hand_features(hand: Arr, card: int, x: Arr) -> None:
    """Points (a network with the hand's inputs): the cards of ``hand`` (counts by kind) the
    chooser keeps after playing or discarding ``card``."""
    if x.shape[0] <= N_FEATURES:
        return
    played = K.CARD_SLOT[card] if card >= 0 else -1
    for s in range(N_HAND):
        x[G_HAND + s] = hand[s] - (1 if s == played else 0)


@jit
def features(
    S: Arr,
    cols: Arr,
    ncols: int,
    ref: int,
    nxt: int,
    teams: bool,
    probs: Arr,
    draw: int,
    hitm: Arr,
    cover: Arr,
    x: Arr,
) -> None:
    """Fill ``x`` with the features of state ``S`` seen from the seat at position ``ref`` of
    ``cols`` (turn order), the seat at position ``nxt`` to move next. ``cover`` int64[40]
    scratch. The inputs past :data:`N_FEATURES` (a points network's hand) are set to 0."""
    for i in range(x.shape[0]):
        x[i] = 0.0
    # what each colour's next card could bump: masks of track squares per bump kind
    for c in range(4):
        for k in range(NKINDS):
            cover[10 * c + k] = 0
    for q in range(ncols):
        c = cols[q]
        b = 4 * c
        for i in range(4):
            loc = S[b + i]
            if loc < K.TRACK:
                for k in range(NKINDS):
                    cover[10 * c + k] |= hitm[c, loc, k]
            elif loc == K.START:  # a 1 or a 2 starts a pawn onto the exit
                cover[10 * c] |= np.int64(1) << K.EXIT[c]
                cover[10 * c + 1] |= np.int64(1) << K.EXIT[c]
    p_sorry = probs[SORRY_SLOT] * SORRY_SHARE
    for r in range(ncols):
        c = cols[(ref + r) % ncols]
        base = r * SEAT_LEN
        partner = K.PARTNER[c] if teams else c
        # Sorry! threatens every track pawn if an opponent has a pawn in START
        sorry_risk = 0.0
        for q in range(ncols):
            a = cols[q]
            if a == c or a == partner:  # noqa: SIM109 (compiled: no tuple tests)
                continue
            for i in range(4):
                if S[4 * a + i] == K.START:
                    sorry_risk = p_sorry
        nstart = 0
        nhome = 0
        loss = 0.0
        for i in range(4):
            loc = S[4 * c + i]
            if loc == K.START:
                nstart += 1
            elif loc == K.HOME:
                nhome += 1
            elif loc >= K.TRACK:
                x[base + F_SAFE + loc - K.TRACK] += 1.0
            else:
                g = K.PROGRESS[c, loc]
                x[base + F_TRACK + g] += 1.0
                risk = sorry_risk
                bit = np.int64(1) << loc
                for q in range(ncols):
                    a = cols[q]
                    if a == c or a == partner:  # noqa: SIM109 (compiled: no tuple tests)
                        continue
                    for k in range(NKINDS):
                        if cover[10 * a + k] & bit:
                            risk += probs[BUMP_SLOT[k]]
                if risk > 1.0:
                    risk = 1.0
                x[base + F_RISK + g] += risk
                loss += risk * g / 60.0
        for k in range(nstart):
            x[base + F_START + k] = 1.0
        for k in range(nhome):
            x[base + F_HOME + k] = 1.0
        x[base + F_LOSS] = loss
    x[G_NEXT + (nxt - ref + ncols) % ncols] = 1.0
    x[G_PLAYERS + ncols - 2] = 1.0
    for s in range(11):
        x[G_PROBS + s] = probs[s]
    x[G_DRAW] = draw / 45.0


@jit
def forward(x: Arr, ncols: int, W1: Arr, b1: Arr, W2: Arr, b2: Arr, h: Arr, p: Arr) -> None:
    """The network: ``p[k]`` the probability that relative seat k wins (0 for k >= ncols);
    ``h`` the hidden layer."""
    nh = b1.shape[0]
    for j in range(nh):
        h[j] = b1[j]
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            for j in range(nh):
                h[j] += xi * W1[i, j]
    for j in range(nh):
        h[j] = np.tanh(h[j])
    top = -1e300
    for k in range(ncols):
        z = b2[k]
        for j in range(nh):
            z += h[j] * W2[j, k]
        p[k] = z
        if z > top:
            top = z
    total = 0.0
    for k in range(ncols):
        p[k] = np.exp(p[k] - top)
        total += p[k]
    for k in range(N_OUT):
        p[k] = p[k] / total if k < ncols else 0.0


@jit
def sgd_step(
    x: Arr,
    y: Arr,
    ncols: int,
    lr: float,
    W1: Arr,
    b1: Arr,
    W2: Arr,
    b2: Arr,
    h: Arr,
    p: Arr,
    gh: Arr,
) -> float:
    """One gradient step of the cross-entropy between the network's ``p`` and the target
    ``y`` (a distribution over the seats); returns the squared error of output 0 before it."""
    forward(x, ncols, W1, b1, W2, b2, h, p)
    nh = b1.shape[0]
    err = (p[0] - y[0]) ** 2
    for j in range(nh):
        g = 0.0
        for k in range(ncols):
            g += W2[j, k] * (p[k] - y[k])
        gh[j] = g * (1.0 - h[j] * h[j])
    for k in range(ncols):
        d = lr * (p[k] - y[k])
        b2[k] -= d
        for j in range(nh):
            W2[j, k] -= d * h[j]
    for j in range(nh):
        b1[j] -= lr * gh[j]
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            s = lr * xi
            for j in range(nh):
                W1[i, j] -= s * gh[j]
    return float(err)


@jit
def position_of(cols: Arr, ncols: int, c: int) -> int:
    for q in range(ncols):
        if cols[q] == c:
            return q
    return 0


class Scratch(NamedTuple):
    """The network's scratch while it chooses."""

    probs: Arr  # float64[11]: the next card's probabilities by kind
    cover: Arr  # int64[40]: the features' bump masks
    x: Arr  # float64[inputs]: the features of the afterstate being valued
    h: Arr  # float64[hidden]: the hidden layer
    p: Arr  # float64[N_OUT]: the seats' probabilities


@jit
def new_scratch(net: Any) -> Scratch:
    """The scratch of a network ``net`` (its inputs and hidden layer's sizes)."""
    return Scratch(
        np.empty(11), np.empty(40, dtype=np.int64), np.empty(net[0].shape[0]),
        np.empty(net[1].shape[0]), np.empty(N_OUT),
    )  # fmt: skip


@jit
def afterstate(T: K.Table, B: K.Book, M: K.Work, colour: int, m: int, F: Scratch, x: Arr) -> Any:
    """x = the features of the state after move m of M.mv for ``colour`` (played on M.W[2],
    returned), seen from ``colour``'s seat, the next to move as the rules say (the kernel's
    plays_again); F.probs: the next card's probabilities; a points network's inputs: the
    cards ``colour`` keeps."""
    cols = B.cols
    ncols = cols.shape[0]
    after = M.W[2]
    K.copy_into(after, T.S)
    K.apply_move(after, B.slide, B.P, M.mv, m)
    ref = position_of(cols, ncols, colour)
    again = K.plays_again(B.P, M.mv[m, K.M_CARD], M.mv[m, K.M_KIND])
    nxt = ref if again else (ref + 1) % ncols
    teams = B.P[K.P_TEAMS] != 0
    features(after, cols, ncols, ref, nxt, teams, F.probs, T.counts[0], B.hitm, F.cover, x)
    hand_features(T.hands[colour], M.mv[m, K.M_CARD], x)
    return after


@jit
def choose_learned(
    T: K.Table, B: K.Book, M: K.Work, colour: int, n: int, net: Any, F: Scratch, xbest: Arr,
    pbest: Arr,
) -> int:  # fmt: skip
    """The move of M.mv[:n] whose afterstate the network values most for ``colour`` (ties:
    the first); its features in ``xbest`` and its seats' probabilities in ``pbest``."""
    W1, b1, W2, b2 = net
    teams = B.P[K.P_TEAMS] != 0
    ncols = B.cols.shape[0]
    p = F.p
    best = -1.0
    idx = 0
    for m in range(n):
        after = afterstate(T, B, M, colour, m, F, F.x)
        if K.won(after, colour, teams):  # the mover wins (in teams: as its team's winner)
            for k in range(N_OUT):
                p[k] = 0.0
            p[0] = 1.0
        else:
            forward(F.x, ncols, W1, b1, W2, b2, F.h, p)
        v = p[0] + (p[2] if teams and ncols == 4 else 0.0)
        if v > best:
            best = v
            idx = m
            xbest[:] = F.x
            pbest[:] = p
    return idx


MAX_STEPS = 4000


@jit
def next_probs(T: K.Table, B: K.Book, colour: int, probs: Arr) -> None:
    """The next card's probabilities as ``colour`` sees them: the draw pile's (points: every
    card it cannot see, ``hidden_probs``)."""
    if B.P[K.P_POINTS] != 0:
        hidden_probs(T.piles, T.counts, T.hands, colour, probs)
    else:
        card_probs(T.piles, T.counts, probs)


@jit
def outside_book(P: Arr, slide: Arr, cols: Arr, hitm: Arr, E: Arr, pols: Arr) -> K.Book:
    """The Book of a game in which the seats with POLICY_OUTSIDE in ``pols`` are the
    network's (the game loop stops at their decisions)."""
    after = np.empty(4, dtype=np.int64)
    K.seat_after(cols, after)
    return K.Book(P, slide, cols, after, pols, hitm, E)


@jit
def selfplay_game(
    seed: Any, B: K.Book, net: Any, learn: Any, T: K.Table, M: K.Work, X: Arr, V: Arr,
    ref_of: Arr, stats: Arr,
) -> None:  # fmt: skip
    """One game of the network against itself (every seat POLICY_OUTSIDE in B), then
    TD(lambda) on its afterstates (the lambda-returns computed backwards from the result,
    each seat's prediction rotated into the frame of the seat that chose); ``learn`` = (lam,
    lr, explore). stats += [games, decisions, squared error, wins of the first seat to move]."""
    lam, lr, explore = learn
    cols = B.cols
    ncols = cols.shape[0]
    W1, b1, W2, b2 = net
    nh = b1.shape[0]
    F = new_scratch(net)
    h = F.h
    p = F.p
    gh = np.empty(nh)
    y = np.empty(N_OUT)
    g = np.empty(N_OUT)
    K.new_game(seed, T, B)
    G = T.G
    first = G[K.G_FIRST]
    t = 0
    while L.play_on(T, B, M, -1) == L.STOP_DECISION:
        to_move = G[K.G_TO_MOVE]
        n = G[K.G_N]
        next_probs(T, B, to_move, F.probs)
        idx = choose_learned(T, B, M, to_move, n, net, F, X[t], V[t])
        if explore > 0.0 and n > 1 and K.below(T.rng, 1 + to_move, 1_000_000) < explore * 1e6:
            idx = K.below(T.rng, 1 + to_move, n)
            afterstate(T, B, M, to_move, idx, F, X[t])
            forward(X[t], ncols, W1, b1, W2, b2, h, V[t])
        ref_of[t] = position_of(cols, ncols, to_move)
        t += 1
        if L.play_choice(T, B, M.mv, idx) or t >= MAX_STEPS:
            break
    winner = G[K.G_WINNER]
    stats[0] += 1
    stats[1] += t
    if winner < 0:  # unfinished (too long): nothing learned
        return
    if winner == first:
        stats[3] += 1
    wpos = position_of(cols, ncols, winner)
    # g: the lambda-return of the step after, in the frame of the seat that chose there
    err = 0.0
    for s in range(t - 1, -1, -1):
        r = ref_of[s]
        if s == t - 1:
            for k in range(N_OUT):
                y[k] = 0.0
            y[(wpos - r + ncols) % ncols] = 1.0
        else:
            r1 = ref_of[s + 1]
            for k in range(ncols):
                y[k] = g[(k + r - r1 + ncols) % ncols]
        # the lambda-return of step s for the steps before: (1 - lam) V_s + lam G_s
        for k in range(ncols):
            g[k] = (1.0 - lam) * V[s, k] + lam * y[k]
        err += sgd_step(X[s], y, ncols, lr, W1, b1, W2, b2, h, p, gh)
    stats[2] += err


@jit
def selfplay_batch(
    seeds: Arr,
    nplayers: Arr,
    slide: Arr,
    P: Arr,
    hitm: Arr,
    net: Any,
    lam: float,
    lr: float,
    explore: float,
    stats: Arr,
) -> None:
    """Self-play games from ``seeds`` (game k with ``nplayers[k]`` players: the colours of
    sorry.rulebook.colours_for), learning after each."""
    T = K.new_table()
    M = K.new_work()
    X = np.empty((MAX_STEPS, net[0].shape[0]))
    V = np.empty((MAX_STEPS, N_OUT))
    ref_of = np.empty(MAX_STEPS, dtype=np.int64)
    pols = np.full(4, K.POLICY_OUTSIDE, dtype=np.int64)
    E = np.zeros(E_LEN)
    for g in range(seeds.shape[0]):
        npl = nplayers[g]
        if npl == 2:
            cols = np.array([0, 2], dtype=np.int64)
        elif npl == 3:
            cols = np.array([0, 1, 2], dtype=np.int64)
        else:
            cols = np.array([0, 1, 2, 3], dtype=np.int64)
        B = outside_book(P, slide, cols, hitm, E, pols)
        selfplay_game(seeds[g], B, net, (lam, lr, explore), T, M, X, V, ref_of, stats)


@jit
def match_game(seed: Any, B: K.Book, net: Any, T: K.Table, M: K.Work, F: Scratch) -> int:
    """One game in which the POLICY_OUTSIDE seats of B play the network greedily and the
    others their compiled policy; returns the winner (-1 unfinished)."""
    xb = np.empty(net[0].shape[0])
    pb = np.empty(N_OUT)
    K.new_game(seed, T, B)
    G = T.G
    cap = 20 * MAX_STEPS
    while L.play_on(T, B, M, cap - G[K.G_TURN]) == L.STOP_DECISION:
        to_move = G[K.G_TO_MOVE]
        next_probs(T, B, to_move, F.probs)
        idx = choose_learned(T, B, M, to_move, G[K.G_N], net, F, xb, pb)
        if L.play_choice(T, B, M.mv, idx) or G[K.G_TURN] >= cap:
            break
    return int(G[K.G_WINNER])


@jit
def match_batch(
    seeds: Arr, pol: int, slide: Arr, P: Arr, hitm: Arr, E: Arr, net: Any, out: Arr
) -> None:
    """Paired deals against policy ``pol``: deal k is played with the network as Red, then
    as Yellow, heads-up; in teams (four seats) as Red and Yellow, then as Blue and Green.
    out[k] = the network's wins in the two games (0, 1 or 2)."""
    T = K.new_table()
    M = K.new_work()
    F = new_scratch(net)
    teams = P[K.P_TEAMS] != 0
    if teams:
        cols = np.array([0, 1, 2, 3], dtype=np.int64)
        sides = (0, 1)
    else:
        cols = np.array([0, 2], dtype=np.int64)
        sides = (0, 2)
    pols = np.full(4, pol, dtype=np.int64)
    B = outside_book(P, slide, cols, hitm, E, pols)
    for g in range(seeds.shape[0]):
        wins = 0
        for side in sides:
            partner = K.PARTNER[side] if teams else side
            for c in range(4):
                pols[c] = K.POLICY_OUTSIDE if c == side or c == partner else pol  # noqa: SIM109
            winner = match_game(seeds[g], B, net, T, M, F)
            if winner >= 0 and pols[winner] == K.POLICY_OUTSIDE:
                wins += 1
        out[g] = wins


@jit
def evaluate_states(
    states: Arr,
    nexts: Arr,
    cols: Arr,
    ref: int,
    teams: bool,
    probs: Arr,
    draws: Arr,
    hitm: Arr,
    net: Any,
    kept: Arr,
    out: Arr,
) -> None:
    """out[m] = the network's probabilities of each relative seat winning in states[m] (seen
    from the seat at position ``ref`` of ``cols``, the seat at position nexts[m] to move, the
    next card's probabilities probs[m] and the draw pile's size draws[m]); kept[m]: the cards
    ref keeps in its hand by kind (read by a points network only)."""
    ncols = cols.shape[0]
    W1, b1, W2, b2 = net
    h = np.empty(b1.shape[0])
    cover = np.empty(40, dtype=np.int64)
    x = np.empty(W1.shape[0])
    for m in range(states.shape[0]):
        features(states[m], cols, ncols, ref, nexts[m], teams, probs[m], draws[m], hitm, cover, x)
        hand_features(kept[m], -1, x)
        forward(x, ncols, W1, b1, W2, b2, h, out[m])
