"""The compiled kernels of the batched environment (:mod:`sorry.rl.vector`): N games stepped
together, each to the agent's next decision, with the observations, legal-action masks and
rewards written into numpy arrays.

Turns are played by the kernel's own ``new_game`` / ``begin_turn`` / ``end_turn`` (the rules in
one place); the other seats choose with the kernel's policies. Actions are those of
:mod:`sorry.actions` and observations the layout of :mod:`sorry.rl.observation`, both computed
here from the kernel's state exactly as the Python modules compute them from a ``PlayerView``
(``tests/test_rl_vector.py`` compares them game by game).

Per game (row ``g`` of each array): the kernel's state ``S``, piles, counts, hands and random
streams; ``G[g]`` its scalars (the ``G_*`` offsets); ``mvs[g, :n]`` the moves of the pending
decision and ``acts[g, :n]`` their actions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import observation as O
from ..actions import DISCARD_BASE, PASS_ACTION, SORRY_BASE, SPLIT_BASE, SWAP_BASE
from ..cards import CARDS, deck_counts
from . import _kernel as K, _search as SR
from ._kernel import Arr, ajit, ijit, jit

# -- the scalars of a game (G[g, :]) ------------------------------------------------------------
G_TO_MOVE = 0  # the colour to move (at the end: the colour that made the last move)
G_TURN = 1  # moves played
G_FIRST = 2  # the colour that moved first
G_WINNER = 3  # the colour whose move won, -1
G_OVER = 4  # 1: the game is over (reset at the next step, in next-step autoreset)
G_N = 5  # moves listed for the pending decision
G_CARD = 6  # the card drawn for the pending decision (standard, teams), 0
G_EPISODE = 7  # games finished in this slot
G_VIEWER = 8  # the colour the observation was made for
G_LEN = 9

# -- the rule and environment parameters (V[...]) ---------------------------------------------
V_AGENT = 0  # 0..3: which colours the agent plays (V_AGENT + c == 1)
V_SINGLE = 4  # the agent's one colour, or -1: self-play (the agent plays every colour)
V_SEED_MODE = 5  # 0: game k of a master seed, 1: a seed per slot
V_NUM = 6  # the number of slots (the stride of master-seed games)
V_AUTORESET = 7  # 0 next step, 1 same step
V_VARIANT = 8  # 0 standard, 1 teams, 2 points
V_DECK = 9
V_LEN = 10

# -- the observation layout (sorry.observation) ---------------------------------------------
PAWNS = O.PAWNS
IN_PLAY = O.IN_PLAY
TO_MOVE = O.TO_MOVE
PHASE = O.PHASE
CARD = O.CARD
HAND = O.HAND
HAND_SIZES = O.HAND_SIZES
DISCARDS = O.DISCARDS
UNSEEN = O.UNSEEN
DRAW_COUNT = O.DRAW_COUNT
VARIANT = O.VARIANT
WINNERS = O.WINNERS
OBS_SIZE = O.OBS_SIZE
NUM_LOCATIONS = O.NUM_LOCATIONS
DECK_MAX = float(O.DECK_MAX)
#: the copies of each card (CARDS order) in a deck of 45 and of 44
DECK_COUNTS = np.array([[deck_counts(size)[c] for c in CARDS] for size in (45, 44)], dtype=np.int64)

# -- the action encoding (sorry.actions) --------------------------------------------------------
A_SWAP = SWAP_BASE
A_SORRY = SORRY_BASE
A_SPLIT = SPLIT_BASE
A_PASS = PASS_ACTION
A_DISCARD = DISCARD_BASE
CARD_SLOT = K.CARD_SLOT


@ijit
def rank(S: Arr, c: int, loc: int) -> int:
    """The index of ``loc`` in colour c's sorted locations (START first, then the track, the
    Safety Zone and HOME; a location held by several pawns names the first of them)."""
    if loc == K.START:
        return 0
    b = 4 * c
    r = 0
    for i in range(4):
        x = S[b + i]
        r += int(x == K.START or x < loc)
    return r


@ijit
def slot(S: Arr, mover: int, c: int, loc: int) -> int:
    return (0 if c == mover else 4) + rank(S, c, loc)


@ijit
def target(S: Arr, mover: int, c: int, loc: int) -> int:
    return ((c - mover) & 3) * 4 + rank(S, c, loc)


@ijit
def encode(S: Arr, mover: int, mv: Arr, k: int) -> Any:
    """The action (sorry.actions) of move record k, in the position S before the move."""
    kind = mv[k, K.M_KIND]
    c = mv[k, K.M_C]
    if kind == K.K_FORWARD:
        return slot(S, mover, c, mv[k, K.M_SRC]) * 16 + mv[k, K.M_STEPS] - 1
    if kind == K.K_BACKWARD:
        sub = 12 if mv[k, K.M_STEPS] == 1 else 13
        return slot(S, mover, c, mv[k, K.M_SRC]) * 16 + sub
    if kind == K.K_ENTER:
        return slot(S, mover, c, K.START) * 16 + (14 if mv[k, K.M_CARD] == 1 else 15)
    if kind == K.K_SORRY:
        placer = slot(S, mover, c, K.START) >> 2
        return A_SORRY + placer * 16 + target(S, mover, mv[k, K.M_C2], mv[k, K.M_SRC2])
    if kind == K.K_SWAP:
        own = slot(S, mover, c, mv[k, K.M_SRC])
        return A_SWAP + own * 16 + target(S, mover, mv[k, K.M_C2], mv[k, K.M_SRC2])
    if kind == K.K_SPLIT:
        a = slot(S, mover, c, mv[k, K.M_SRC])
        b = slot(S, mover, mv[k, K.M_C2], mv[k, K.M_SRC2])
        return A_SPLIT + (a * 8 + b) * 6 + mv[k, K.M_STEPS] - 1
    if kind == K.K_PASS:
        return A_PASS
    return A_DISCARD + CARD_SLOT[mv[k, K.M_CARD]]


def _added(k: int) -> float:
    """0.2 added k times, in doubles, as the Python observation counts cards."""
    x = 0.0
    for _ in range(k):
        x += 0.2
    return x


#: k copies of a card as the observation stores them (float32): SHARES[k] is 0.2 added k
#: times (a hand, the discards), FIFTHS[k] is k / 5 (the unseen cards); tables, not arithmetic
SHARES = np.array([_added(k) for k in range(8)], dtype=np.float32)
FIFTHS = np.array([k / 5.0 for k in range(8)], dtype=np.float32)


@ijit
def write_observation(
    S: Arr,
    cols: Arr,
    ncols: int,
    V: Arr,
    g: Arr,
    piles: Arr,
    counts: Arr,
    hands: Arr,
    viewer: int,
    out: Arr,
    cnt: Arr,
) -> None:
    """sorry.rl.observation.observation of ``viewer``'s view now, into out (float32[339]);
    cnt is scratch (11 ints)."""
    for k in range(OBS_SIZE):
        out[k] = 0.0
    turn = 15 * viewer
    points = V[V_VARIANT] == 2
    for kc in range(ncols):
        c = cols[kc]
        r = (c - viewer) & 3
        out[IN_PLAY + r] = 1.0
        base = PAWNS + r * NUM_LOCATIONS
        for i in range(4):
            loc = np.int64(S[4 * c + i])
            if loc < 60:  # the track turned by 15 * viewer (no division: loc - turn > -60)
                loc -= turn
                if loc < 0:
                    loc += 60
            out[base + loc] += 0.25
        if points:
            held = 0
            for s in range(11):
                held += hands[c, s]
            out[HAND_SIZES + r] = FIFTHS[held]
    over = g[G_OVER] != 0
    out[TO_MOVE + ((g[G_TO_MOVE] - viewer) & 3)] = 1.0
    out[PHASE + (2 if over else 1)] = 1.0
    deck = DECK_COUNTS[0 if V[V_DECK] == 45 else 1]
    for s in range(11):  # the discards by card (one pass over the pile)
        cnt[s] = 0
    for k in range(counts[1]):
        cnt[CARD_SLOT[piles[1, k]]] += 1
    for s in range(11):  # the card, the hand, the discards and what is left unseen
        left = deck[s] - cnt[s]
        out[DISCARDS + s] = SHARES[cnt[s]]
        if points:
            h = hands[viewer, s]
            out[HAND + s] = SHARES[h]
            left -= h
        out[UNSEEN + s] = FIFTHS[left]
    if not points and not over:
        card = CARD_SLOT[g[G_CARD]]
        out[CARD + card] = 1.0
        out[UNSEEN + card] = FIFTHS[deck[card] - cnt[card] - 1]
    out[DRAW_COUNT] = counts[0] / DECK_MAX
    out[VARIANT + V[V_VARIANT]] = 1.0
    w = g[G_WINNER]
    if w >= 0:
        out[WINNERS + ((w - viewer) & 3)] = 1.0
        if V[V_VARIANT] == 1:
            out[WINNERS + ((K.PARTNER[w] - viewer) & 3)] = 1.0


# -- games in slots ---------------------------------------------------------------------------
@ijit
def game_seed(V: Arr, base: Arr, i: int, episode: int) -> Any:
    """The seed of slot i's game number ``episode``: game i + episode * N of the master seed
    base[i] (derive_seed), or base[i] itself and then derive_seed(base[i], episode)."""
    if V[V_SEED_MODE] == 0:
        k = np.uint64(i + episode * V[V_NUM])
        return K.mix64(base[i] * K.GOLDEN + k + np.uint64(1))
    if episode == 0:
        return base[i]
    return K.mix64(base[i] * K.GOLDEN + np.uint64(episode + 1))


@jit
def advance(
    i: int,
    cols: Arr,
    slide: Arr,
    P: Arr,
    hitm: Arr,
    E: Arr,
    V: Arr,
    S: Arr,
    piles: Arr,
    counts: Arr,
    hands: Arr,
    rng: Arr,
    G: Arr,
    mvs: Arr,
    acts: Arr,
    W: Arr,
    buf: Arr,
    keys: Arr,
    vals: Arr,
    X: Arr,
    Z: Arr,
) -> None:
    """Play slot i's game until the agent has a decision (its moves listed in mvs[i] and
    their actions in acts[i]) or the game is over."""
    Si = S[i]
    mv = mvs[i]
    g = G[i]
    rg = rng[i]
    to_move = g[G_TO_MOVE]
    turn = g[G_TURN]
    while True:
        card, n = K.begin_turn(
            Si, slide, P, to_move, mv, keys, W, buf, piles[i], counts[i], hands[i], rg
        )
        if V[V_AGENT + to_move] != 0:
            g[G_TO_MOVE] = to_move
            g[G_TURN] = turn
            g[G_N] = n
            g[G_CARD] = card
            a = acts[i]
            for k in range(n):
                a[k] = encode(Si, to_move, mv, k)
            return
        idx = SR.decide(
            P[K.P_SEAT_POLICY + to_move], Si, slide, P, to_move, mv, n, rg, hands[i], cols,
            cols.shape[0], hitm, E, vals, keys, W, buf, X, Z,
        )  # fmt: skip
        mover = to_move
        to_move, turn, winner, over = K.end_turn(
            Si, slide, P, to_move, turn, mv, idx, buf, piles[i], counts[i], hands[i], rg
        )
        if over:
            g[G_TO_MOVE] = mover
            g[G_TURN] = turn
            g[G_WINNER] = winner
            g[G_OVER] = 1
            g[G_N] = 0
            g[G_CARD] = 0
            return


@jit
def start(
    i: int,
    cols: Arr,
    slide: Arr,
    P: Arr,
    hitm: Arr,
    E: Arr,
    V: Arr,
    base: Arr,
    seeds: Arr,
    S: Arr,
    piles: Arr,
    counts: Arr,
    hands: Arr,
    rng: Arr,
    G: Arr,
    mvs: Arr,
    acts: Arr,
    W: Arr,
    buf: Arr,
    keys: Arr,
    vals: Arr,
    X: Arr,
    Z: Arr,
) -> None:
    """A new game in slot i (its next seed), played to the agent's first decision."""
    g = G[i]
    seed = game_seed(V, base, i, g[G_EPISODE])
    seeds[i] = seed
    ncols = cols.shape[0]
    first = K.new_game(seed, cols, ncols, P, S[i], buf, piles[i], counts[i], hands[i], rng[i])
    g[G_TO_MOVE] = first
    g[G_TURN] = 0
    g[G_FIRST] = first
    g[G_WINNER] = -1
    g[G_OVER] = 0
    advance(
        i, cols, slide, P, hitm, E, V, S, piles, counts, hands, rng, G, mvs, acts, W, buf, keys,
        vals, X, Z,
    )  # fmt: skip


@ijit
def side_return(P: Arr, winner: int, c: int) -> float:
    """+1 if colour c's side won, -1 if it lost, 0 unfinished."""
    if winner < 0:
        return 0.0
    if c == winner or (P[K.P_TEAMS] != 0 and c == K.PARTNER[winner]):
        return 1.0
    return -1.0


@ijit
def write_view(
    i: int,
    cols: Arr,
    V: Arr,
    S: Arr,
    piles: Arr,
    counts: Arr,
    hands: Arr,
    G: Arr,
    acts: Arr,
    obs: Arr,
    mask: Arr,
    cnt: Arr,
) -> None:
    """Slot i's observation and legal-action mask, for the agent's colour (self-play: the
    colour to move, at the end the one that moved last); cnt is scratch."""
    g = G[i]
    viewer = V[V_SINGLE] if V[V_SINGLE] >= 0 else g[G_TO_MOVE]
    g[G_VIEWER] = viewer
    write_observation(
        S[i], cols, cols.shape[0], V, g, piles[i], counts[i], hands[i], viewer, obs[i], cnt
    )
    m = mask[i]
    for k in range(m.shape[0]):
        m[k] = False
    a = acts[i]
    for k in range(g[G_N]):
        m[a[k]] = True


@ijit
def write_result(
    i: int, cols: Arr, P: Arr, G: Arr, reward: Arr, term: Arr, trunc: Arr, returns: Arr
) -> None:
    """Slot i's reward (the viewer's side: +1 won, -1 lost, at the end only), end flags and
    the return of every colour."""
    g = G[i]
    over = g[G_OVER] != 0
    winner = g[G_WINNER]
    term[i] = over and winner >= 0
    trunc[i] = over and winner < 0
    for c in range(4):
        returns[i, c] = 0.0
    if over:
        for kc in range(cols.shape[0]):
            c = cols[kc]
            returns[i, c] = side_return(P, winner, c)
    reward[i] = returns[i, g[G_VIEWER]]


@jit
def reset_slots(
    lo: int,
    hi: int,
    cols: Arr,
    slide: Arr,
    P: Arr,
    hitm: Arr,
    E: Arr,
    V: Arr,
    base: Arr,
    seeds: Arr,
    S: Arr,
    piles: Arr,
    counts: Arr,
    hands: Arr,
    rng: Arr,
    G: Arr,
    mvs: Arr,
    acts: Arr,
    W: Arr,
    buf: Arr,
    keys: Arr,
    vals: Arr,
    X: Arr,
    Z: Arr,
    obs: Arr,
    mask: Arr,
    reward: Arr,
    term: Arr,
    trunc: Arr,
    returns: Arr,
) -> None:
    """Start the first game of slots lo..hi-1."""
    for i in range(lo, hi):
        G[i, G_EPISODE] = 0
        start(
            i, cols, slide, P, hitm, E, V, base, seeds, S, piles, counts, hands, rng, G, mvs, acts,
            W, buf, keys, vals, X, Z,
        )  # fmt: skip
        write_view(i, cols, V, S, piles, counts, hands, G, acts, obs, mask, keys[1])
        write_result(i, cols, P, G, reward, term, trunc, returns)


@jit
def step_slots(
    lo: int,
    hi: int,
    actions: Arr,
    illegal_reward: float,
    cols: Arr,
    slide: Arr,
    P: Arr,
    hitm: Arr,
    E: Arr,
    V: Arr,
    base: Arr,
    seeds: Arr,
    S: Arr,
    piles: Arr,
    counts: Arr,
    hands: Arr,
    rng: Arr,
    G: Arr,
    mvs: Arr,
    acts: Arr,
    W: Arr,
    buf: Arr,
    keys: Arr,
    vals: Arr,
    X: Arr,
    Z: Arr,
    obs: Arr,
    mask: Arr,
    reward: Arr,
    term: Arr,
    trunc: Arr,
    returns: Arr,
    illegal: Arr,
    final_obs: Arr,
    has_final: Arr,
) -> int:
    """One step of slots lo..hi-1: the agent's action played (an illegal one replaced by a
    random legal move from the mover's stream), the other seats played to the agent's next
    decision, the outputs written. A finished game is replaced by the next one: at this step,
    its action ignored (next-step autoreset), or right after its last move with its final
    observation in final_obs (same-step). Returns the number of decisions played."""
    decisions = 0
    same_step = V[V_AUTORESET] == 1
    for i in range(lo, hi):
        g = G[i]
        illegal[i] = False
        has_final[i] = False
        if g[G_OVER] != 0:
            g[G_EPISODE] += 1
            start(
                i, cols, slide, P, hitm, E, V, base, seeds, S, piles, counts, hands, rng, G, mvs,
                acts, W, buf, keys, vals, X, Z,
            )  # fmt: skip
            write_view(i, cols, V, S, piles, counts, hands, G, acts, obs, mask, keys[1])
            write_result(i, cols, P, G, reward, term, trunc, returns)
            continue
        n = g[G_N]
        a = actions[i]
        ai = acts[i]
        idx = -1
        for k in range(n):
            if ai[k] == a:
                idx = k
                break
        mover = g[G_TO_MOVE]
        if idx < 0:
            illegal[i] = True
            idx = K.below(rng[i], 1 + mover, n)
        decisions += 1
        to_move, turn, winner, over = K.end_turn(
            S[i],
            slide,
            P,
            mover,
            g[G_TURN],
            mvs[i],
            idx,
            buf,
            piles[i],
            counts[i],
            hands[i],
            rng[i],
        )
        g[G_TURN] = turn
        if over:
            g[G_TO_MOVE] = mover
            g[G_WINNER] = winner
            g[G_OVER] = 1
            g[G_N] = 0
            g[G_CARD] = 0
        else:
            g[G_TO_MOVE] = to_move
            advance(
                i, cols, slide, P, hitm, E, V, S, piles, counts, hands, rng, G, mvs, acts, W,
                buf, keys, vals, X, Z,
            )  # fmt: skip
        write_view(i, cols, V, S, piles, counts, hands, G, acts, obs, mask, keys[1])
        write_result(i, cols, P, G, reward, term, trunc, returns)
        if illegal[i]:
            reward[i] += illegal_reward
        if same_step and g[G_OVER] != 0:
            K.copy_into(final_obs[i], obs[i])
            has_final[i] = True
            g[G_EPISODE] += 1
            start(
                i, cols, slide, P, hitm, E, V, base, seeds, S, piles, counts, hands, rng, G, mvs,
                acts, W, buf, keys, vals, X, Z,
            )  # fmt: skip
            write_view(i, cols, V, S, piles, counts, hands, G, acts, obs, mask, keys[1])
    return decisions


@jit
def sample_actions(G: Arr, acts: Arr, u: Arr, out: Arr) -> None:
    """out[i] = a uniformly random legal action of slot i (u[i] uniform in [0, 1)); 0 when
    the game is over (the next step ignores it)."""
    for i in range(G.shape[0]):
        n = G[i, G_N]
        out[i] = acts[i, min(int(u[i] * n), n - 1)] if n > 0 else 0


@ajit
def new_slots(num: int) -> tuple[Arr, Arr, Arr, Arr, Arr, Arr, Arr, Arr]:
    """The per-game arrays of ``num`` slots: S, piles, counts, hands, rng, G, mvs, acts."""
    S = np.empty((num, K.STATE_LEN), dtype=np.int8)
    piles = np.zeros((num, 2, 48), dtype=np.int8)
    counts = np.zeros((num, 6), dtype=np.int64)
    hands = np.zeros((num, 4, 11), dtype=np.int64)
    rng = np.zeros((num, 5), dtype=np.uint64)
    G = np.zeros((num, G_LEN), dtype=np.int64)
    mvs = np.zeros((num, K.MAX_MOVES, K.M_COLS), dtype=np.int16)
    acts = np.zeros((num, K.MAX_MOVES), dtype=np.int16)
    return S, piles, counts, hands, rng, G, mvs, acts
