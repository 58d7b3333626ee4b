"""The compiled kernels of the batched environment (:mod:`sorry.rl.vector`): N games stepped
together, each to the agent's next decision, with the observations, legal-action masks and
rewards written into numpy arrays.

Turns are played by the one game loop (:func:`sorry.fast._loop.play_on`; the rules in one
place): the agent's seats are ``POLICY_OUTSIDE`` in the Book, so the loop stops at each of their
decisions; the other seats choose with the compiled policies. Actions are those of
:mod:`sorry.actions` and observations the layout of :mod:`sorry.rl.observation`, both computed
here from the kernel's state exactly as the Python modules compute them from a ``PlayerView``
(``tests/test_rl_vector.py`` compares them game by game).

The slots are a :class:`Slots` record (row ``i`` of each array is slot i's game: its
:class:`~sorry.fast._kernel.Table` by :func:`table`, ``mvs[i, :n]`` the moves of the pending
decision and ``acts[i, :n]`` their actions); what a step writes is a :class:`Views` record.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .. import observation as O
from ..actions import DISCARD_BASE, NUM_ACTIONS, PASS_ACTION, SORRY_BASE, SPLIT_BASE, SWAP_BASE
from ..cards import CARDS, deck_counts
from . import _kernel as K, _loop as L
from ._kernel import Book, Ints, Moves, Piles, State, States, Streams, Table, Work, ijit, jit

# -- the scalars of a game (G[i, :]): the kernel's (Table.G), then the environment's -------------
G_TO_MOVE = K.G_TO_MOVE  # the colour to move (at the end: the colour that made the last move)
G_TURN = K.G_TURN  # moves played
G_FIRST = K.G_FIRST  # the colour that moved first
G_WINNER = K.G_WINNER  # the colour whose move won, -1
G_OVER = K.G_OVER  # 1: the game is over (reset at the next step, in next-step autoreset)
G_N = K.G_N  # moves listed for the pending decision
G_CARD = K.G_CARD  # the card drawn for the pending decision (standard, teams), 0
G_EPISODE = K.G_LEN  # games finished in this slot
G_VIEWER = K.G_LEN + 1  # the colour the observation was made for
G_LEN = K.G_LEN + 2

# -- the environment's parameters (V[...]) -----------------------------------------------------
V_SINGLE = 0  # the agent's one colour, or -1: self-play (the agent plays every colour)
V_SEED_MODE = 1  # 0: game k of a master seed, 1: a seed per slot
V_NUM = 2  # the number of slots (the stride of master-seed games)
V_AUTORESET = 3  # 0 next step, 1 same step
V_VARIANT = 4  # 0 standard, 1 teams, 2 points
V_DECK = 5
V_LEN = 6

Floats32 = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]


class Slots(NamedTuple):
    """The games of the slots, row i of each array slot i's (:func:`new_slots`)."""

    S: States  # int8[num, STATE_LEN]
    piles: Piles  # int8[num, 2, 48]
    counts: Ints  # int64[num, 6]
    hands: Ints  # int64[num, 4, 11]
    rng: Streams  # uint64[num, 5]
    G: Ints  # int64[num, G_LEN]
    mvs: Moves  # int16[num, MAX_MOVES, M_COLS]: the moves of the pending decision
    acts: Moves  # int16[num, MAX_MOVES]: their actions
    base: Streams  # uint64[num]: each slot's master seed (or its own seed)
    seeds: Streams  # uint64[num]: the seed of each slot's game now


class Views(NamedTuple):
    """What a step writes for the agent, one row per slot."""

    obs: Floats32  # float32[num, OBS_SIZE]
    mask: Bools  # bool[num, NUM_ACTIONS]: the legal actions
    reward: Floats32  # float32[num]
    term: Bools  # bool[num]: won or lost
    trunc: Bools  # bool[num]: cut by the turn limit
    returns: Floats32  # float32[num, 4]: each colour's return
    illegal: Bools  # bool[num]: the action was not legal (a random legal move was played)
    final_obs: Floats32  # float32[num, OBS_SIZE]: a game's last observation (same-step reset)
    has_final: Bools  # bool[num]


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
def rank(S: State, c: int, loc: int) -> int:
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
def slot(S: State, mover: int, c: int, loc: int) -> int:
    return (0 if c == mover else 4) + rank(S, c, loc)


@ijit
def target(S: State, mover: int, c: int, loc: int) -> int:
    return ((c - mover) & 3) * 4 + rank(S, c, loc)


@ijit
def encode(S: State, mover: int, mv: Moves, k: int) -> Any:
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
def write_observation(T: Table, cols: Ints, V: Ints, viewer: int, out: Floats32, cnt: Ints) -> None:
    """sorry.rl.observation.observation of ``viewer``'s view of the game T now, into out
    (float32[339]); cnt is scratch (11 ints)."""
    S = T.S
    g = T.G
    piles = T.piles
    counts = T.counts
    hands = T.hands
    ncols = cols.shape[0]
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
def table(slots: Slots, i: int) -> Table:
    """Slot i's game."""
    return Table(
        slots.S[i], slots.piles[i], slots.counts[i], slots.hands[i], slots.rng[i], slots.G[i]
    )


@ijit
def game_seed(V: Ints, base: Streams, i: int, episode: int) -> Any:
    """The seed of slot i's game number ``episode``: game i + episode * N of the master seed
    base[i] (derive_seed), or base[i] itself and then derive_seed(base[i], episode)."""
    if V[V_SEED_MODE] == 0:
        return K.derive_seed(base[i], i + episode * V[V_NUM])
    if episode == 0:
        return base[i]
    return K.derive_seed(base[i], episode)


@jit
def advance(i: int, B: Book, M: Work, slots: Slots) -> None:
    """Play slot i's game until the agent has a decision (its moves listed in mvs[i] and
    their actions in acts[i]) or the game is over: the one game loop, stopping at the agent's
    seats (POLICY_OUTSIDE in the Book)."""
    T = table(slots, i)
    mv = slots.mvs[i]
    # the slot's moves, kept between steps
    if L.play_on(T, B, K.with_moves(M, mv), -1) == L.STOP_DECISION:
        g = T.G
        to_move = g[G_TO_MOVE]
        a = slots.acts[i]
        for k in range(g[G_N]):
            a[k] = encode(T.S, to_move, mv, k)


@jit
def start(i: int, B: Book, M: Work, V: Ints, slots: Slots) -> None:
    """A new game in slot i (its next seed), played to the agent's first decision."""
    T = table(slots, i)
    seed = game_seed(V, slots.base, i, T.G[G_EPISODE])
    slots.seeds[i] = seed
    K.new_game(seed, T, B)
    advance(i, B, M, slots)


@ijit
def side_return(P: Ints, winner: int, c: int) -> float:
    """+1 if colour c's side won, -1 if it lost, 0 unfinished."""
    if winner < 0:
        return 0.0
    if c == winner or (P[K.P_TEAMS] != 0 and c == K.PARTNER[winner]):
        return 1.0
    return -1.0


@ijit
def write_view(i: int, cols: Ints, V: Ints, slots: Slots, views: Views, cnt: Ints) -> None:
    """Slot i's observation and legal-action mask, for the agent's colour (self-play: the
    colour to move, at the end the one that moved last); cnt is scratch."""
    g = slots.G[i]
    viewer = V[V_SINGLE] if V[V_SINGLE] >= 0 else g[G_TO_MOVE]
    g[G_VIEWER] = viewer
    write_observation(table(slots, i), cols, V, viewer, views.obs[i], cnt)
    m = views.mask[i]
    for k in range(m.shape[0]):
        m[k] = False
    a = slots.acts[i]
    for k in range(g[G_N]):
        m[a[k]] = True


@ijit
def write_result(i: int, B: Book, G: Ints, views: Views) -> None:
    """Slot i's reward (the viewer's side: +1 won, -1 lost, at the end only), end flags and
    the return of every colour."""
    g = G[i]
    over = g[G_OVER] != 0
    winner = g[G_WINNER]
    views.term[i] = over and winner >= 0
    views.trunc[i] = over and winner < 0
    returns = views.returns
    for c in range(4):
        returns[i, c] = 0.0
    if over:
        for kc in range(B.cols.shape[0]):
            c = B.cols[kc]
            returns[i, c] = side_return(B.P, winner, c)
    views.reward[i] = returns[i, g[G_VIEWER]]


@ijit
def show(i: int, B: Book, V: Ints, slots: Slots, views: Views, cnt: Ints) -> None:
    """Slot i's view and result."""
    write_view(i, B.cols, V, slots, views, cnt)
    write_result(i, B, slots.G, views)


@jit
def reset_slots(lo: int, hi: int, B: Book, M: Work, V: Ints, slots: Slots, views: Views) -> None:
    """Start the first game of slots lo..hi-1."""
    for i in range(lo, hi):
        slots.G[i, G_EPISODE] = 0
        start(i, B, M, V, slots)
        show(i, B, V, slots, views, M.keys[1])


@jit
def step_slots(
    lo: int, hi: int, actions: Ints, illegal_reward: float, B: Book, M: Work, V: Ints,
    slots: Slots, views: Views,
) -> int:  # fmt: skip
    """One step of slots lo..hi-1: the agent's action played (an illegal one replaced by a
    random legal move from the mover's stream), the other seats played to the agent's next
    decision, the outputs written. A finished game is replaced by the next one: at this step,
    its action ignored (next-step autoreset), or right after its last move with its final
    observation in final_obs (same-step). Returns the number of decisions played."""
    decisions = 0
    same_step = V[V_AUTORESET] == 1
    cnt = M.keys[1]
    for i in range(lo, hi):
        g = slots.G[i]
        views.illegal[i] = False
        views.has_final[i] = False
        if g[G_OVER] != 0:
            g[G_EPISODE] += 1
            start(i, B, M, V, slots)
            show(i, B, V, slots, views, cnt)
            continue
        n = g[G_N]
        a = actions[i]
        ai = slots.acts[i]
        idx = -1
        for k in range(n):
            if ai[k] == a:
                idx = k
                break
        if idx < 0:
            views.illegal[i] = True
            idx = K.below(slots.rng[i], 1 + g[G_TO_MOVE], n)
        decisions += 1
        if not L.play_choice(table(slots, i), B, slots.mvs[i], idx):
            advance(i, B, M, slots)
        show(i, B, V, slots, views, cnt)
        if views.illegal[i]:
            views.reward[i] += illegal_reward
        if same_step and g[G_OVER] != 0:
            K.copy_into(views.final_obs[i], views.obs[i])
            views.has_final[i] = True
            g[G_EPISODE] += 1
            start(i, B, M, V, slots)
            write_view(i, B.cols, V, slots, views, cnt)
    return decisions


@jit
def sample_actions(G: Ints, acts: Moves, u: Any, out: Ints) -> None:
    """out[i] = a uniformly random legal action of slot i (u[i] uniform in [0, 1)); 0 when
    the game is over (the next step ignores it)."""
    for i in range(G.shape[0]):
        n = G[i, G_N]
        out[i] = acts[i, min(int(u[i] * n), n - 1)] if n > 0 else 0


def new_slots(num: int) -> Slots:
    """The arrays of ``num`` slots (numpy)."""
    return Slots(
        np.zeros((num, K.STATE_LEN), dtype=np.int8),
        np.zeros((num, 2, 48), dtype=np.int8),
        np.zeros((num, 6), dtype=np.int64),
        np.zeros((num, 4, 11), dtype=np.int64),
        np.zeros((num, 5), dtype=np.uint64),
        np.zeros((num, G_LEN), dtype=np.int64),
        np.zeros((num, K.MAX_MOVES, K.M_COLS), dtype=np.int16),
        np.zeros((num, K.MAX_MOVES), dtype=np.int16),
        np.zeros(num, dtype=np.uint64),
        np.zeros(num, dtype=np.uint64),
    )


def new_views(num: int) -> Views:
    """The output arrays of ``num`` slots (numpy)."""
    return Views(
        np.zeros((num, OBS_SIZE), dtype=np.float32),
        np.zeros((num, NUM_ACTIONS), dtype=np.bool_),
        np.zeros(num, dtype=np.float32),
        np.zeros(num, dtype=np.bool_),
        np.zeros(num, dtype=np.bool_),
        np.zeros((num, 4), dtype=np.float32),
        np.zeros(num, dtype=np.bool_),
        np.zeros((num, OBS_SIZE), dtype=np.float32),
        np.zeros(num, dtype=np.bool_),
    )
