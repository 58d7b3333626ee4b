"""The compiled kernels of :mod:`sorry.fast` (numba, ``nopython``, cached on disk).

Everything here works on small integer arrays, bundled into three named records (numba
compiles named tuples: a field is read by name at no cost) that every game loop and policy
passes: the game on the :class:`Table`, the rule set and players in a :class:`Book`, the
scratch of a turn in a :class:`Work`. See ``docs/fast.md`` for the layout. The code mirrors the
reference engine (``sorry.state``, ``sorry.movegen``, ``sorry.game``) step for step, including
the order in which moves are listed, so that a random game with a given seed is the same game
in both engines. The one game loop that plays the turns is :mod:`sorry.fast._loop`.

State ``S`` (int8, length 76): ``S[4*c + i]`` is the location of pawn ``i`` of colour ``c``
(locations as in :mod:`sorry.board`; colours not in play keep their pawns in START, where no
move can reach them), ``S[16 + square]`` is ``-1`` or the code ``4*c + i`` of the pawn on a
track square.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numba  # type: ignore[import-untyped, import-not-found, unused-ignore]
import numpy as np
import numpy.typing as npt

from .. import board, cards, rulebook
from ..compiled import arrays as _arrays
from ..compiled.arrays import (  # the arrays' layouts, read where the code fills them too
    OCC as OCC,
    P_AGAIN as P_AGAIN,
    P_BACK_FALLBACK as P_BACK_FALLBACK,
    P_BONUS_CUM as P_BONUS_CUM,
    P_DECK as P_DECK,
    P_OUT as P_OUT,
    P_POINTS as P_POINTS,
    P_SEAT_POLICY as P_SEAT_POLICY,
    P_SORRY4 as P_SORRY4,
    P_SORRY_TARGETS as P_SORRY_TARGETS,
    P_SWAP_BOTH as P_SWAP_BOTH,
    P_SWAP_PARTNER as P_SWAP_PARTNER,
    P_SWAP_TARGETS as P_SWAP_TARGETS,
    P_TEAMS as P_TEAMS,
    P_TURN_LIMIT as P_TURN_LIMIT,
    STATE_LEN as STATE_LEN,
)
from ..moves import Kind
from ..tuning import KEEP_VALUE

F = TypeVar("F", bound=Callable[..., Any])
_NO_NRT: dict[str, Any] = {"_nrt": False}  # not in numba's typed signature
#: numpy's error model: no check for a zero divisor (there is none here) on every % and //
_FAST: dict[str, Any] = {"error_model": "numpy"}

# -- the arrays' types (numba reads no annotation; they are written down for the reader and mypy)
Arr = npt.NDArray[Any]  # an array of any of the kinds below
State = npt.NDArray[np.int8]  # int8[STATE_LEN]: pawns, then who stands on each track square
States = npt.NDArray[np.int8]  # int8[k, STATE_LEN]: scratch states, or a state per game
Slide = npt.NDArray[np.int8]  # int8[4, 60]: slide[c, square] = the slide's end, or -1
Params = npt.NDArray[np.int64]  # int64[P_LEN]: the rule parameters (sorry.compiled.arrays)
Moves = npt.NDArray[np.int16]  # int16[MAX_MOVES, M_COLS]: move records (M_* columns)
Ints = npt.NDArray[np.int64]  # int64[...]: codes, keys, counts, hands, colours, scalars
Floats = npt.NDArray[np.float64]  # float64[...]: policy values, the medium bot's E
Piles = npt.NDArray[np.int8]  # int8[2, 48]: the draw pile (its top card last), the discards
Streams = npt.NDArray[np.uint64]  # uint64[5]: the deck's SplitMix64 stream, then one per colour


def jit(fn: F) -> F:
    """``numba.njit(cache=True)`` without numba's reference counting (``_nrt=False``).

    Every array argument of a reference-counted function costs an atomic increment and
    decrement per call, together more than the work of most functions here (a move generation
    went from about 250 ns to 10 ns without them). These functions never allocate."""
    return cast(F, numba.njit(cache=True, **_FAST, **_NO_NRT)(fn))


def ijit(fn: F) -> F:
    """``jit`` inlined into its callers by numba (small helpers on the hot path, where a call
    with its array arguments costs more than the work)."""
    return cast(F, numba.njit(cache=True, inline="always", **_FAST, **_NO_NRT)(fn))


def ajit(fn: F) -> F:
    """``numba.njit(cache=True)``: functions that allocate arrays (called once per batch)."""
    return cast(F, numba.njit(cache=True)(fn))


def pjit(fn: F) -> F:
    """``numba.njit(cache=True, parallel=True)`` (allocates its work arrays)."""
    return cast(F, numba.njit(cache=True, parallel=True)(fn))


prange = numba.prange

# -- board constants and tables -------------------------------------------------------------------
TRACK = 60
HOME = 65
START = 66
SORRY = 13

FWD = np.array(board.FORWARD, dtype=np.int8)  # [colour, location, steps 0..12]
BWD = np.array(board.BACKWARD, dtype=np.int8)  # [colour, location, steps 0..4]
EXIT = np.array(board.START_EXIT, dtype=np.int64)
# The rules, from sorry.rulebook (docs/rules.md): nothing here is typed by hand.
#: progress of a pawn: 65 - steps_to_home (0 in START, 65 HOME)
PROGRESS = np.array(rulebook.PROGRESS, dtype=np.int64)
#: forward / backward steps of each card face (index 0..13)
FSTEP = np.array(rulebook.FORWARD_STEPS, dtype=np.int64)
BSTEP = np.array(rulebook.BACKWARD_STEPS, dtype=np.int64)
#: STARTS[card]: the card may start a pawn
STARTS = np.array([card in rulebook.START_CARDS for card in range(rulebook.FACES)], dtype=np.bool_)
#: PARTNER[colour]: the colour opposite (the partner in teams)
PARTNER = np.array(rulebook.PARTNER, dtype=np.int64)
DECLINABLE = rulebook.DECLINABLE_CARD  # the card that may be declined (no forward move)
SORRY_FWD = rulebook.SORRY_FORWARD  # Sorry!'s optional forward move
#: points: per pawn HOME; WIN_BONUS[cumulative, most]: the winner's bonus when the opponent
#: with most pawns HOME has ``most`` (rulebook.winner_bonus)
POINTS_PER_PAWN = rulebook.POINTS_PER_PAWN
WIN_BONUS = np.array(
    [[rulebook.winner_bonus(most, cum) for most in range(5)] for cum in (False, True)],
    dtype=np.int64,
)
#: the card kinds in notation order (sorry.cards.CARDS) and the index of each face
CARD_KINDS = np.array(cards.CARDS, dtype=np.int64)
CARD_SLOT = np.array([cards.CARD_INDEX.get(c, -1) for c in range(rulebook.FACES)], dtype=np.int64)
#: DECK_COUNTS[size - 44, slot]: the copies of each card kind (CARDS order) in a deck of 44 or 45
DECK_COUNTS = np.array(
    [[cards.deck_counts(n)[c] for c in cards.CARDS] for n in (44, 45)], dtype=np.int64
)
#: points: the cards in a full hand
HAND_SIZE = rulebook.HAND_SIZE

# -- move records ---------------------------------------------------------------------------------
# kinds: sorry.moves.Kind as plain ints
K_FORWARD = int(Kind.FORWARD)
K_BACKWARD = int(Kind.BACKWARD)
K_ENTER = int(Kind.ENTER)
K_SORRY = int(Kind.SORRY)
K_SWAP = int(Kind.SWAP)
K_SPLIT = int(Kind.SPLIT)
K_PASS = int(Kind.PASS)
K_DISCARD = int(Kind.DISCARD)
# columns of a move record
M_KIND = 0
M_CARD = 1
M_C = 2
M_I = 3
M_SRC = 4
M_STEPS = 5
M_DEST = 6
M_C2 = 7
M_J = 8
M_SRC2 = 9
M_STEPS2 = 10
M_DEST2 = 11
M_VALUE = 12  # scratch: a policy's score of the move
M_COLS = 13
MAX_MOVES = 512

# -- rule parameters (an int64 array P): sorry.compiled.arrays, shared with the code that fills it

# policies
POLICY_RANDOM = _arrays.POLICY_RANDOM
POLICY_EASY = 1
POLICY_FIRST = 2
POLICY_EASYBOT = 3
#: the compiled medium bot (sorry.fast._policy), played by the game loop (sorry.fast._loop)
POLICY_MEDIUM = 10
#: a seat the game loop does not play: it stops there with the moves listed (an agent of the
#: vector environment, the learned network), and the caller plays the move it decides
POLICY_OUTSIDE = 20

# -- the records ----------------------------------------------------------------------------------
#: the scalars of a game (Table.G): the colour to move (when it is over: the one that moved
#: last), moves played, the first colour, the winner or -1, 1 once over, the moves listed for
#: the pending decision (Work.mv[:n]) and the card drawn for it (standard and teams; 0)
G_TO_MOVE = 0
G_TURN = 1
G_FIRST = 2
G_WINNER = 3
G_OVER = 4
G_N = 5
G_CARD = 6
G_LEN = 7
#: Work.Z: the medium evaluation's scratch (threat masks per attacker, in-START flags)
Z_LEN = 64


class Table(NamedTuple):
    """One game on the table: everything a turn reads and changes."""

    S: State  # int8[STATE_LEN]: the pawns
    piles: Piles  # int8[2, 48]: the draw pile (counts[0] cards) and the discards (counts[1])
    counts: Ints  # int64[6]: the piles' sizes, then the cards each colour holds (points)
    hands: Ints  # int64[4, 11]: each colour's hand, counts per card slot (points)
    rng: Streams  # uint64[5]: the deck's stream, then each colour's policy stream
    G: Ints  # int64[>= G_LEN]: the scalars (G_*); the vector environment keeps more after


class Book(NamedTuple):
    """The rule set and the players: what every turn reads and none changes."""

    P: Params  # int64[P_LEN]: the rule parameters (sorry.compiled.arrays.rule_params)
    slide: Slide  # int8[4, 60]: the rulebook's slide table
    cols: Ints  # int64[players]: the colours in play, in seat order
    after: Ints  # int64[4]: the colour after each (rulebook.seat_after)
    pols: Ints  # int64[4]: each colour's policy (POLICY_*), POLICY_OUTSIDE: the caller's
    hitm: Ints  # int64[4, 60, NKINDS]: the medium bot's bump masks (sorry.compiled.arrays)
    E: Floats  # float64[E_LEN]: the medium bot's card probabilities and weights


class Work(NamedTuple):
    """The scratch of a turn: the moves listed and what generating and choosing them uses."""

    W: States  # int8[3, STATE_LEN]: scratch states (W[2] is free for a policy)
    buf: Ints  # int64[48]: pawn codes by location; the 11's targets at 16..35
    mv: Moves  # int16[MAX_MOVES, M_COLS]: the legal moves of the turn
    keys: Ints  # int64[2, MAX_MOVES]: results' keys (dedupe), the 7's hash set in row 0
    vals: Floats  # float64[MAX_MOVES]: a policy's values of the moves
    X: States  # int8[2, STATE_LEN]: the medium bot's states after a move
    Z: Ints  # int64[Z_LEN]: the medium bot's scratch
    trace: Ints  # int64[k, 3]: (card, moves listed, choice) of the first k moves; k = 0: none


def book(
    P: Params, slide: Slide, cols: Ints, pols: Ints | None = None, hitm: Ints | None = None,
    E: Floats | None = None,
) -> Book:  # fmt: skip
    """A Book from the Python side: ``pols`` defaults to P's seat policies; ``hitm`` and ``E``
    (the medium bot's) to empty tables of the right types."""
    cols = np.asarray(cols, dtype=np.int64)
    return Book(
        P,
        slide,
        cols,
        np.array(rulebook.seat_after(tuple(int(c) for c in cols)), dtype=np.int64),
        P[P_SEAT_POLICY : P_SEAT_POLICY + 4].copy() if pols is None else pols,
        np.zeros((4, TRACK, 1), dtype=np.int64) if hitm is None else hitm,
        np.zeros(_arrays.E_LEN, dtype=np.float64) if E is None else E,
    )


#: sorry.tuning.KEEP_VALUE doubled (integers), by card face
KEEP2 = np.array([round(2 * KEEP_VALUE.get(c, 0.0)) for c in range(14)], dtype=np.int64)

# -- SplitMix64 (sorry.rng) -----------------------------------------------------------------------
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
U30 = np.uint64(30)
U27 = np.uint64(27)
U31 = np.uint64(31)
U55 = np.uint64(55)


@ijit
def mix64(z: Any) -> Any:
    z = (z ^ (z >> U30)) * MIX1
    z = (z ^ (z >> U27)) * MIX2
    return z ^ (z >> U31)


@ijit
def next64(rng: Streams, k: int) -> Any:
    s = rng[k] + GOLDEN
    rng[k] = s
    return mix64(s)


@ijit
def below(rng: Streams, k: int, n: int) -> Any:
    """Rng.below: next64 % n. The usual small n get a constant divisor, which compiles to a
    multiplication instead of a slow 64-bit division."""
    x = next64(rng, k)
    if n == 1:
        return np.int64(0)
    if n == 2:
        return np.int64(x & np.uint64(1))
    if n == 3:
        return np.int64(x % np.uint64(3))
    if n == 4:
        return np.int64(x & np.uint64(3))
    return np.int64(x % np.uint64(n))


@jit
def shuffle(rng: Streams, k: int, items: Arr, n: int) -> None:
    for i in range(n - 1, 0, -1):
        j = np.int64(next64(rng, k) % np.uint64(i + 1))
        t = items[i]
        items[i] = items[j]
        items[j] = t


@ijit
def copy_into(dst: Arr, src: Arr) -> None:
    """dst[:] = src for 1-D arrays, without numba's (allocating) slice assignment."""
    for k in range(src.shape[0]):
        dst[k] = src[k]


# -- pawns ----------------------------------------------------------------------------------------
@ijit
def can_land(S: State, c: int, dest: int) -> bool:
    if dest < TRACK:
        o = S[OCC + dest]
        return bool(o < 0 or (o >> 2) != c)
    if dest == HOME:
        return True
    b = 4 * c
    return bool(S[b] != dest and S[b + 1] != dest and S[b + 2] != dest and S[b + 3] != dest)


@ijit
def start_index(S: State, c: int) -> int:
    b = 4 * c
    for i in range(4):
        if S[b + i] == START:
            return i
    return -1


@ijit
def bump(S: State, code: int) -> None:
    loc = S[code]
    S[code] = START
    S[OCC + loc] = -1


@ijit
def slide_from(S: State, code: int, dest: int, end: int) -> None:
    for sq in range(dest + 1, end + 1):
        o = S[OCC + sq]
        if o >= 0:
            bump(S, o)
    S[OCC + dest] = -1
    S[code] = end
    S[OCC + end] = code


@jit
def place(S: State, slide: Slide, c: int, i: int, dest: int) -> None:
    """Move pawn i of colour c to dest: bump what is there, then slide (state.place)."""
    place_inline(S, slide, c, i, dest)


@ijit
def place_inline(S: State, slide: Slide, c: int, i: int, dest: int) -> None:
    """``place``, inlined (the move played in the game loop)."""
    code = 4 * c + i
    old = S[code]
    if dest < TRACK:
        o = S[OCC + dest]
        if o >= 0:
            bump(S, o)
    if old < TRACK:
        S[OCC + old] = -1
    S[code] = dest
    if dest < TRACK:
        S[OCC + dest] = code
        end = slide[c, dest]
        if end >= 0:
            slide_from(S, code, dest, end)


@jit
def swap(S: State, slide: Slide, both: int, c: int, i: int, c2: int, j: int) -> None:
    code = 4 * c + i
    code2 = 4 * c2 + j
    x = S[code]
    t = S[code2]
    S[code] = t
    S[code2] = x
    S[OCC + t] = code
    S[OCC + x] = code2
    end = slide[c, t]
    if end >= 0:
        slide_from(S, code, t, end)
    if both and S[code2] == x:
        end = slide[c2, x]
        if end >= 0:
            slide_from(S, code2, x, end)


@ijit
def apply_move(S: State, slide: Slide, P: Params, mv: Moves, k: int) -> None:
    kind = mv[k, M_KIND]
    if kind <= K_SORRY:
        place(S, slide, mv[k, M_C], mv[k, M_I], mv[k, M_DEST])
    elif kind == K_SWAP:
        swap(S, slide, P[P_SWAP_BOTH], mv[k, M_C], mv[k, M_I], mv[k, M_C2], mv[k, M_J])
    elif kind == K_SPLIT:
        place(S, slide, mv[k, M_C], mv[k, M_I], mv[k, M_DEST])
        place(S, slide, mv[k, M_C2], mv[k, M_J], mv[k, M_DEST2])


@ijit
def play_move(S: State, slide: Slide, P: Params, mv: Moves, k: int) -> None:
    """``apply_move`` with the single-pawn moves inlined (the game loop's)."""
    kind = mv[k, M_KIND]
    if kind <= K_SORRY:
        place_inline(S, slide, mv[k, M_C], mv[k, M_I], mv[k, M_DEST])
    else:
        apply_move(S, slide, P, mv, k)


@ijit
def packed4(S: State, b: int, oc: int, ov: int) -> Any:
    """The four locations S[b:b+4] (with S[oc] read as ov) sorted and packed in 28 bits."""
    a0 = np.int64(ov if b == oc else S[b])
    a1 = np.int64(ov if b + 1 == oc else S[b + 1])
    a2 = np.int64(ov if b + 2 == oc else S[b + 2])
    a3 = np.int64(ov if b + 3 == oc else S[b + 3])
    # min/max compile to branch-free selects (the data decides nothing to mispredict)
    a0, a1 = min(a0, a1), max(a0, a1)
    a2, a3 = min(a2, a3), max(a2, a3)
    a0, a2 = min(a0, a2), max(a0, a2)
    a1, a3 = min(a1, a3), max(a1, a3)
    a1, a2 = min(a1, a2), max(a1, a2)
    return (a0 << 21) | (a1 << 14) | (a2 << 7) | a3


@jit
def state_key(S: State, keys: Ints, k: int) -> None:
    """keys[k] = two ints equal exactly for equal positions (sorted locations per colour)."""
    keys[0, k] = (packed4(S, 0, -1, 0) << 28) | packed4(S, 4, -1, 0)
    keys[1, k] = (packed4(S, 8, -1, 0) << 28) | packed4(S, 12, -1, 0)


@ijit
def seen_key(keys: Ints, lo: int, hi: int, k: int) -> bool:
    """Whether keys[k] is among keys[lo:hi] (no early exit: fewer mispredicted branches)."""
    a = keys[0, k]
    b = keys[1, k]
    found = False
    for m in range(lo, hi):
        found |= (keys[0, m] == a) & (keys[1, m] == b)
    return found


@ijit
def codes_below(S: State, c: int, limit: int, buf: Ints, n: int) -> Any:
    """Write the codes 4c+i of colour c's pawns to buf[n:n+4] by location; return n plus the
    number of them with location < limit (they come first). A sorting network on
    (location << 2 | pawn): min/max compile to selects, no branch for the data to mispredict."""
    b = 4 * c
    x0 = (np.int64(S[b]) << 2) | 0
    x1 = (np.int64(S[b + 1]) << 2) | 1
    x2 = (np.int64(S[b + 2]) << 2) | 2
    x3 = (np.int64(S[b + 3]) << 2) | 3
    x0, x1 = min(x0, x1), max(x0, x1)
    x2, x3 = min(x2, x3), max(x2, x3)
    x0, x2 = min(x0, x2), max(x0, x2)
    x1, x3 = min(x1, x3), max(x1, x3)
    x1, x2 = min(x1, x2), max(x1, x2)
    buf[n] = b + (x0 & 3)
    buf[n + 1] = b + (x1 & 3)
    buf[n + 2] = b + (x2 & 3)
    buf[n + 3] = b + (x3 & 3)
    return (
        n
        + np.int64((x0 >> 2) < limit)
        + np.int64((x1 >> 2) < limit)
        + np.int64((x2 >> 2) < limit)
        + np.int64((x3 >> 2) < limit)
    )


@ijit
def put(
    mv: Moves, n: int, kind: int, card: int, c: int, i: int, src: int, steps: int, dest: int
) -> int:
    mv[n, M_KIND] = kind
    mv[n, M_CARD] = card
    mv[n, M_C] = c
    mv[n, M_I] = i
    mv[n, M_SRC] = src
    mv[n, M_STEPS] = steps
    mv[n, M_DEST] = dest
    return n + 1


# -- move generation (sorry.movegen.card_moves) ---------------------------------------------------
@ijit
def copy_state(dst: Arr, src: Arr) -> None:
    """dst[:] = src for two states (a fixed length: a few vector moves)."""
    for k in range(STATE_LEN):
        dst[k] = src[k]


@ijit
def quiet(S: State, slide: Slide, c: int, dest: int) -> bool:
    """Whether a pawn of colour c reaching dest neither bumps nor slides."""
    return bool(dest >= TRACK or (S[OCC + dest] < 0 and slide[c, dest] < 0))


@ijit
def start_bits(S: State, c: int) -> Any:
    b = 4 * c
    return (
        np.int64(S[b] == START)
        | (np.int64(S[b + 1] == START) << 1)
        | (np.int64(S[b + 2] == START) << 2)
        | (np.int64(S[b + 3] == START) << 3)
    )


@ijit
def others_bits(S: State, colour: int, teams: bool) -> Any:
    """Which pawns outside the mover's team are in START, placed above team_part's bits."""
    if teams:
        return (start_bits(S, (colour + 1) & 3) | (start_bits(S, (colour + 3) & 3) << 4)) << 56
    return (
        start_bits(S, (colour + 1) & 3)
        | (start_bits(S, PARTNER[colour]) << 4)
        | (start_bits(S, (colour + 3) & 3) << 8)
    ) << 28


@ijit
def seen_or_add(H: Ints, hmask: int, key: Any) -> bool:
    """Whether key is in the set H (open addressing, hmask + 1 slots); add it if not."""
    h = np.int64((np.uint64(key) * GOLDEN) >> U55) & hmask
    while H[h] != -1 and H[h] != key:
        h = (h + 1) & hmask
    if H[h] == key:
        return True
    H[h] = key
    return False


@ijit
def team_part(S: State, colour: int, teams: bool, oc: int, ov: int) -> Any:
    """The mover's (team's) sorted locations, with S[oc] read as ov (28 bits a colour)."""
    k0 = packed4(S, 4 * colour, oc, ov)
    if teams:
        k0 = (k0 << 28) | packed4(S, 4 * PARTNER[colour], oc, ov)
    return k0


@ijit
def second_halves(
    X: State, slide: Slide, who: Any, buf: Ints, no: int, half: Any, mv: Moves, n: int,
    W: States, hset: Any,
) -> int:  # fmt: skip
    """The splits whose first half ``half`` = (a, ca, ia, la, k, da) (pawn buf[a], code 4 ca + ia,
    k steps from la to da) made X: every other pawn of the team moves 7 - k; each result not
    listed yet (not in the key set ``hset`` = (H, hmask, mask)) is added. ``who`` = (colour,
    teams, card); W[2] is scratch."""
    colour, teams, card = who
    a, ca, ia, la, k, da = half
    H, hmask, mask = hset
    W2 = W[2]
    rest = 7 - k
    for b in range(no):
        if b == a:
            continue
        codeb = buf[b]
        cb = codeb >> 2
        lb = X[codeb]
        if lb >= HOME:
            continue
        db = FWD[cb, lb, rest]
        if db < 0 or not can_land(X, cb, db):
            continue
        if quiet(X, slide, cb, db):
            key = team_part(X, colour, teams, codeb, db) | mask
        else:
            copy_state(W2, X)
            place(W2, slide, cb, codeb & 3, db)
            key = team_part(W2, colour, teams, -1, 0) | others_bits(W2, colour, teams)
        if seen_or_add(H, hmask, key):
            continue
        put(mv, n, K_SPLIT, card, ca, ia, la, k, da)
        mv[n, M_C2] = cb
        mv[n, M_J] = codeb & 3
        mv[n, M_SRC2] = lb
        mv[n, M_STEPS2] = rest
        mv[n, M_DEST2] = db
        n += 1
    return n


@jit
def gen_seven(
    S: State, slide: Slide, who: Any, buf: Ints, no: int, mv: Moves, n: int, keys: Ints, W: States
) -> int:
    """The 7: a forward 7 with each pawn, then every split, each result listed once.

    Results are compared by one int as exact as the reference's state key among the results
    of one 7 from one position: the mover's (team's) sorted locations, and which other pawns
    are in START (a 7 moves only the mover's pawns; the others can only be bumped to START).
    A half that neither bumps nor slides is keyed without playing it; a first half of that
    kind is played on a copy of S and taken back."""
    colour, teams, card = who
    if no < 2:  # no split: at most one forward 7, no key needed
        for a in range(no):
            code = buf[a]
            c = code >> 2
            loc = S[code]
            dest = FWD[c, loc, 7]
            if dest >= 0 and can_land(S, c, dest):
                n = put(mv, n, K_FORWARD, card, c, code & 3, loc, 7, dest)
        return n
    H = keys[0]  # the set of the results' keys (open addressing; -1 is no key)
    hmask = 511 if teams else 127  # more slots than keys: at most 4 + 4*6*3 (8 + 8*6*7)
    for h in range(hmask + 1):
        H[h] = -1
    W0 = W[0]
    W1 = W[1]
    mask = others_bits(S, colour, teams)
    for a in range(no):
        code = buf[a]
        c = code >> 2
        loc = S[code]
        dest = FWD[c, loc, 7]
        if dest >= 0 and can_land(S, c, dest):
            if quiet(S, slide, c, dest):
                seen_or_add(H, hmask, team_part(S, colour, teams, code, dest) | mask)
            else:
                copy_state(W1, S)
                place(W1, slide, c, code & 3, dest)
                key = team_part(W1, colour, teams, -1, 0) | others_bits(W1, colour, teams)
                seen_or_add(H, hmask, key)
            n = put(mv, n, K_FORWARD, card, c, code & 3, loc, 7, dest)
    copy_state(W0, S)
    for a in range(no):
        codea = buf[a]
        ca = codea >> 2
        ia = codea & 3
        la = S[codea]
        for k in range(1, 7):
            da = FWD[ca, la, k]
            if da < 0 or not can_land(S, ca, da):
                continue
            if quiet(S, slide, ca, da):  # played on W0 (a copy of S) and taken back
                if la < TRACK:
                    W0[OCC + la] = -1
                W0[codea] = da
                if da < TRACK:
                    W0[OCC + da] = codea
                n = second_halves(
                    W0, slide, who, buf, no, (a, ca, ia, la, k, da), mv, n, W, (H, hmask, mask)
                )
                W0[codea] = la
                if da < TRACK:
                    W0[OCC + da] = -1
                if la < TRACK:
                    W0[OCC + la] = codea
            else:
                copy_state(W1, S)
                place(W1, slide, ca, ia, da)
                hset = (H, hmask, others_bits(W1, colour, teams))
                n = second_halves(W1, slide, who, buf, no, (a, ca, ia, la, k, da), mv, n, W, hset)
    return n


@jit
def dedupe(
    S: State, slide: Slide, P: Params, mv: Moves, lo: int, hi: int, keys: Ints, W: States
) -> int:
    """Keep the first of the moves mv[lo:hi] with each result (exact keys); return the end."""
    w = lo
    for m in range(lo, hi):
        copy_state(W[0], S)
        apply_move(W[0], slide, P, mv, m)
        if w != m:
            copy_into(mv[w], mv[m])
        state_key(W[0], keys, w)
        if not seen_key(keys, lo, w, w):
            w += 1
    return w


@jit
def dedupe_sliding(
    S: State, slide: Slide, P: Params, mv: Moves, lo: int, hi: int, keys: Ints, W: States
) -> int:
    """``dedupe`` for single-pawn moves (no swap, no split): only moves that end on a triangle
    and slide can end alike (see ``sliding``: any other move puts its pawn on a square it was
    not on, where no other move puts it), so only those are played and keyed; the others are
    kept as they are. Keys of the sliding moves go to keys[:, 0:]."""
    W0 = W[0]
    w = lo
    ks = 0
    for m in range(lo, hi):
        kind = mv[m, M_KIND]
        dest = mv[m, M_DEST]
        keep = True
        if kind <= K_SORRY and kind != K_ENTER and dest < TRACK and slide[mv[m, M_C], dest] >= 0:
            copy_state(W0, S)
            apply_move(W0, slide, P, mv, m)
            state_key(W0, keys, ks)
            if seen_key(keys, 0, ks, ks):
                keep = False
            else:
                ks += 1
        if keep:
            if w != m:
                for col in range(M_COLS):
                    mv[w, col] = mv[m, col]
            w += 1
    return w


@ijit
def sliding(slide: Slide, mv: Moves, lo: int, hi: int) -> int:
    """How many of the single-pawn moves mv[lo:hi] end on a triangle and slide. Two such
    moves are needed for two moves to end alike (movegen._slides_may_collide): a 4 back from
    the end of a long slide lands on its triangle and slides back where it was."""
    count = 0
    for m in range(lo, hi):
        kind = mv[m, M_KIND]
        if kind <= K_SORRY and kind != K_ENTER:  # forward, backward, Sorry!
            dest = mv[m, M_DEST]
            if dest < TRACK and slide[mv[m, M_C], dest] >= 0:
                count += 1
    return count


@ijit
def swaps_slide(slide: Slide, both: bool, mv: Moves, lo: int, hi: int) -> bool:
    """Whether a swap of mv[lo:hi] slides a pawn (movegen._swaps_may_collide)."""
    for m in range(lo, hi):
        if slide[mv[m, M_C], mv[m, M_SRC2]] >= 0:
            return True
        if both and slide[mv[m, M_C2], mv[m, M_SRC]] >= 0:
            return True
    return False


@ijit
def gen_card(
    S: State,
    slide: Slide,
    P: Params,
    colour: int,
    card: int,
    mv: Moves,
    n: int,
    keys: Ints,
    W: States,
    buf: Ints,
) -> int:
    """Append the distinct legal moves of ``card`` (no pass) to mv[n:]; return the new n."""
    teams = P[P_TEAMS] != 0
    partner = PARTNER[colour]
    ncols = 2 if teams else 1
    n0 = n
    if STARTS[card]:
        for kc in range(ncols):
            c = colour if kc == 0 else partner
            si = start_index(S, c)
            if si >= 0 and can_land(S, c, EXIT[c]):
                n = put(mv, n, K_ENTER, card, c, si, START, 0, EXIT[c])
    no = codes_below(S, colour, HOME, buf, 0)
    if teams:
        no = codes_below(S, partner, HOME, buf, no)
    if card == SORRY:
        for kc in range(ncols):
            c = colour if kc == 0 else partner
            si = start_index(S, c)
            if si < 0:
                continue
            whom = P[P_SORRY_TARGETS + 4 * colour + c]  # compiled.arrays.targets
            for t in range(4):
                if not (whom >> t) & 1:
                    continue
                nt = codes_below(S, t, TRACK, buf, 8)
                for m in range(8, nt):
                    tc = buf[m]
                    n = put(mv, n, K_SORRY, card, c, si, START, 0, S[tc])
                    mv[n - 1, M_C2] = t
                    mv[n - 1, M_J] = tc & 3
                    mv[n - 1, M_SRC2] = S[tc]
        s4 = P[P_SORRY4]
        if s4 == 1 or (s4 == 2 and n == n0):
            for a in range(no):
                code = buf[a]
                c = code >> 2
                loc = S[code]
                dest = FWD[c, loc, SORRY_FWD]
                if dest >= 0 and can_land(S, c, dest):
                    n = put(mv, n, K_FORWARD, card, c, code & 3, loc, SORRY_FWD, dest)
        if n - n0 > 1 and sliding(slide, mv, n0, n) > 1:
            n = dedupe_sliding(S, slide, P, mv, n0, n, keys, W)
        return n
    if card == 7:
        return gen_seven(S, slide, (colour, teams, card), buf, no, mv, n, keys, W)
    fwd = FSTEP[card]
    back = BSTEP[card]
    if back and fwd and P[P_BACK_FALLBACK] != 0:  # ten_backward=fallback (Rulebook)
        for a in range(no):
            code = buf[a]
            dest = FWD[code >> 2, S[code], fwd]
            if dest >= 0 and can_land(S, code >> 2, dest):
                back = 0  # a pawn can go forward: no backward move
                break
    sl = 0  # moves that slide (sliding(), counted as they are listed)
    for a in range(no):
        code = buf[a]
        c = code >> 2
        loc = S[code]
        if fwd:
            dest = FWD[c, loc, fwd]
            if dest >= 0 and can_land(S, c, dest):
                n = put(mv, n, K_FORWARD, card, c, code & 3, loc, fwd, dest)
                sl += int((dest < TRACK) & (slide[c, min(dest, TRACK - 1)] >= 0))
        if back:
            dest = BWD[c, loc, back]
            if dest >= 0 and can_land(S, c, dest):
                n = put(mv, n, K_BACKWARD, card, c, code & 3, loc, back, dest)
                sl += int((dest < TRACK) & (slide[c, min(dest, TRACK - 1)] >= 0))
    if card != 11:
        if n - n0 > 1 and sl > 1:
            n = dedupe_sliding(S, slide, P, mv, n0, n, keys, W)
        return n
    if card == 11:
        partner_ok = P[P_SWAP_PARTNER] != 0
        ns = n
        for t in range(4):  # the pawns on the track of each colour: buf[16 + 4t:], buf[32 + t]
            buf[32 + t] = codes_below(S, t, TRACK, buf, 16 + 4 * t)
        for a in range(no):
            code = buf[a]
            c = code >> 2
            loc = S[code]
            if loc >= TRACK:
                continue
            whom = P[P_SWAP_TARGETS + 4 * colour + c]  # compiled.arrays.targets
            for t in range(4):
                if not (whom >> t) & 1:
                    continue
                for m in range(16 + 4 * t, buf[32 + t]):
                    tc = buf[m]
                    n = put(mv, n, K_SWAP, card, c, code & 3, loc, 0, S[tc])
                    mv[n - 1, M_C2] = t
                    mv[n - 1, M_J] = tc & 3
                    mv[n - 1, M_SRC2] = S[tc]
        if swaps_slide(slide, P[P_SWAP_BOTH] != 0, mv, ns, n):
            n = dedupe(S, slide, P, mv, n0, n, keys, W)
        elif partner_ok and teams:
            n = dedupe(S, slide, P, mv, ns, n, keys, W)
    return n


@jit
def gen_card_call(
    S: State,
    slide: Slide,
    P: Params,
    colour: int,
    card: int,
    mv: Moves,
    n: int,
    keys: Ints,
    W: States,
    buf: Ints,
) -> int:
    """``gen_card`` as a call (it is inlined into the game loop, its one hot caller)."""
    return gen_card(S, slide, P, colour, card, mv, n, keys, W, buf)


@ijit
def put_simple(mv: Moves, n: int, kind: int, card: int) -> int:
    return put(mv, n, kind, card, -1, -1, -1, 0, -1)


@jit
def legal_moves(
    S: State, slide: Slide, P: Params, colour: int, card: int, hand: Ints, M: Work
) -> int:
    """Fill M.mv with the legal moves of the player to move; return their number.

    Standard/teams: the moves of ``card``, then ``pass`` when allowed (game._generate).
    Points: the moves of every card kind in ``hand`` (counts per kind), then the discards when
    no card must be played (game._points_moves)."""
    mv = M.mv
    if P[P_POINTS] == 0:
        n = gen_card_call(S, slide, P, colour, card, mv, 0, M.keys, M.W, M.buf)
        return with_pass(mv, 0, n, card)
    n = 0
    must = False
    for s in range(11):
        if hand[s] == 0:
            continue
        kc = CARD_KINDS[s]
        n1 = gen_card_call(S, slide, P, colour, kc, mv, n, M.keys, M.W, M.buf)
        if n1 > n and not may_decline(kc, mv, n, n1):
            must = True
        n = n1
    if not must:
        for s in range(11):
            if hand[s] > 0:
                n = put_simple(mv, n, K_DISCARD, CARD_KINDS[s])
    return n


@ijit
def may_decline(card: int, mv: Moves, lo: int, hi: int) -> bool:
    """rulebook.may_decline: whether ``card`` with the moves mv[lo:hi] may be declined (the
    declinable 11 with no forward move among them)."""
    if card != DECLINABLE:
        return False
    for m in range(lo, hi):  # noqa: SIM110 (no generators in compiled code)
        if mv[m, M_KIND] == K_FORWARD:
            return False
    return True


@ijit
def with_pass(mv: Moves, lo: int, n: int, card: int) -> int:
    """The drawn card's moves mv[lo:n], then ``pass`` when there is none or the card may be
    declined (movegen.legal_moves); returns the new n."""
    if n == lo or may_decline(card, mv, lo, n):
        n = put_simple(mv, n, K_PASS, card)
    return n


# -- policies -------------------------------------------------------------------------------------
@jit
def progress(S: State, colour: int, teams: bool) -> int:
    total = 0
    b = 4 * colour
    for i in range(4):
        total += PROGRESS[colour, S[b + i]]
    if teams:
        p = PARTNER[colour]
        b = 4 * p
        for i in range(4):
            total += PROGRESS[p, S[b + i]]
    return total


@jit
def easybot(
    S: State, slide: Slide, P: Params, colour: int, mv: Moves, n: int, rng: Streams, W: States
) -> Any:
    """sorry.bots.levels.EasyBot: among the plays (moves that are not discards), the most
    progress of the mover's team minus the others' (START counts 0, HOME 65); ties drawn with
    the mover's stream. A dead hand (points) discards the card least worth keeping (KEEP_VALUE),
    ties drawn too. A single legal move is played without drawing."""
    if n == 1:
        return np.int64(0)
    teams = P[P_TEAMS] != 0
    partner = PARTNER[colour]
    best = np.int64(-100000)
    plays = 0
    for m in range(n):
        if mv[m, M_KIND] == K_DISCARD:
            continue
        plays += 1
        copy_into(W[2], S)
        apply_move(W[2], slide, P, mv, m)
        v = np.int64(0)
        for code in range(16):
            c = code >> 2
            pr = PROGRESS[c, W[2, code]]
            v += pr if (c == colour or (teams and c == partner)) else -pr
        mv[m, M_VALUE] = v
        if v > best:
            best = v
    if plays == 0:
        for m in range(n):
            v = -KEEP2[mv[m, M_CARD]]
            mv[m, M_VALUE] = v
            if v > best:
                best = v
    top = 0
    for m in range(n):
        if (plays == 0 or mv[m, M_KIND] != K_DISCARD) and mv[m, M_VALUE] == best:
            top += 1
    pick = below(rng, 1 + colour, top) if top > 1 else np.int64(0)
    for m in range(n):
        if (plays == 0 or mv[m, M_KIND] != K_DISCARD) and mv[m, M_VALUE] == best:
            if pick == 0:
                return np.int64(m)
            pick -= 1
    return np.int64(0)


@jit
def choose(
    policy: int,
    S: State,
    slide: Slide,
    P: Params,
    colour: int,
    mv: Moves,
    n: int,
    rng: Streams,
    W: States,
) -> Any:
    """The built-in policies. ``random`` draws one number from the mover's stream at every
    decision (even a forced one), as sorry.bots' RandomBot; ``easy`` maximises the mover's
    progress after the move (the team's pawns in teams), ties to the first move listed;
    ``easybot`` is sorry.bots' EasyBot exactly; ``first`` plays move 0."""
    if policy == POLICY_RANDOM:
        return below(rng, 1 + colour, n)
    if policy == POLICY_EASY:
        teams = P[P_TEAMS] != 0
        best = -1
        idx = 0
        for m in range(n):
            copy_into(W[2], S)
            apply_move(W[2], slide, P, mv, m)
            v = progress(W[2], colour, teams)
            if v > best:
                best = v
                idx = m
        return idx
    if policy == POLICY_EASYBOT:
        return easybot(S, slide, P, colour, mv, n, rng, W)
    return 0


# -- games ----------------------------------------------------------------------------------------
@ijit
def all_home(S: State, c: int) -> bool:
    b = 4 * c
    return bool(S[b] == HOME and S[b + 1] == HOME and S[b + 2] == HOME and S[b + 3] == HOME)


@ijit
def won(S: State, c: int, teams: bool) -> bool:
    """Whether colour c's side has won: all its pawns HOME, and its partner's in teams (the
    rulebook's movers of c; game._play)."""
    return all_home(S, c) and (not teams or all_home(S, PARTNER[c]))


@ijit
def plays_again(P: Params, card: int, kind: int) -> bool:
    """Rulebook.plays_again: the player of ``card`` draws again (a discard never does)."""
    return bool((P[P_AGAIN] >> card) & 1) and kind != K_DISCARD


@ijit
def draw_card(rng: Streams, piles: Piles, counts: Ints) -> int:
    """Top card of the draw pile piles[0] (the last one); reshuffle the discards when empty."""
    if counts[0] == 0:
        nd = counts[1]
        for k in range(nd):
            piles[0, k] = piles[1, k]
        counts[0] = nd
        counts[1] = 0
        shuffle(rng, 0, piles[0], nd)
    counts[0] -= 1
    return int(piles[0, counts[0]])


@ijit
def deal_hands(T: Table, B: Book, first: int) -> None:
    """Points: deal from the draw pile until every hand is full (HAND_SIZE), one card at a time
    to the seat holding fewest, round the table from ``first`` (game._next_deal)."""
    cols = B.cols
    ncols = cols.shape[0]
    held = T.counts[2:6]
    while True:
        start = 0
        for k in range(ncols):
            if cols[k] == first:
                start = k
        best = -1
        for k in range(ncols):
            c = cols[(start + k) % ncols]
            if held[c] < HAND_SIZE and (best < 0 or held[c] < held[best]):
                best = c
        if best < 0:
            break
        card = draw_card(T.rng, T.piles, T.counts)
        T.hands[best, CARD_SLOT[card]] += 1
        held[best] += 1


@ijit
def derive_seed(seed: Any, index: int) -> Any:
    """sorry.rng.derive_seed: the seed of item ``index`` of a run seeded ``seed``."""
    return mix64(seed * GOLDEN + np.uint64(index + 1))


@ijit
def seed_streams(rng: Streams, seed: Any, base: int) -> None:
    """rng[0] = the deck's stream ``seed``; rng[1 + c] = colour c's policy stream,
    derive_seed(seed, base + c): base 1000 in a game (fast.policy_seed), 2000 in a world."""
    rng[0] = seed
    for c in range(4):
        rng[1 + c] = derive_seed(seed, base + c)


@ijit
def new_game(seed: Any, T: Table, B: Book) -> None:
    """Set up the game with seed ``seed`` as Game(rules, players, seed) does: the streams
    (rng[0] the deck's, rng[1 + c] colour c's policy stream, see policy_seed), the first
    player, the shuffled deck, the pawns, the hands (points) and the scalars G."""
    cols = B.cols
    ncols = cols.shape[0]
    P = B.P
    S = T.S
    piles = T.piles
    counts = T.counts
    rng = T.rng
    seed_streams(rng, seed, 1000)
    first = int(cols[below(rng, 0, ncols)])
    # the deck in CARDS order, shuffled
    nd = 0
    for s in range(CARD_KINDS.shape[0]):
        for _ in range(DECK_COUNTS[P[P_DECK] - 44, s]):
            piles[0, nd] = CARD_KINDS[s]
            nd += 1
    shuffle(rng, 0, piles[0], nd)
    counts[0] = nd
    counts[1] = 0
    # pawns
    for k in range(STATE_LEN):
        S[k] = START if k < OCC else -1
    for k in range(ncols):
        c = cols[k]
        if P[P_OUT]:
            S[4 * c + 3] = EXIT[c]
            S[OCC + EXIT[c]] = 4 * c + 3
    for c in range(4):
        counts[2 + c] = 0
        for k in range(11):
            T.hands[c, k] = 0
    if P[P_POINTS] != 0:
        deal_hands(T, B, first)
    G = T.G
    G[G_TO_MOVE] = first
    G[G_TURN] = 0
    G[G_FIRST] = first
    G[G_WINNER] = -1
    G[G_OVER] = 0
    G[G_N] = 0
    G[G_CARD] = 0


@ijit
def begin_turn(T: Table, B: Book, M: Work, to_move: int) -> tuple[int, int]:
    """The start of ``to_move``'s turn: draw the card (standard and teams; 0 in points) and
    list the legal moves in M.mv. Returns (card, number of moves)."""
    P = B.P
    if P[P_POINTS] != 0:
        card = 0
        n = legal_moves(T.S, B.slide, P, to_move, card, T.hands[to_move], M)
    else:  # legal_moves without one call layer (the hot path)
        card = draw_card(T.rng, T.piles, T.counts)
        n = gen_card(T.S, B.slide, P, to_move, card, M.mv, 0, M.keys, M.W, M.buf)
        n = with_pass(M.mv, 0, n, card)
    return card, n


@ijit
def end_turn(
    T: Table, B: Book, to_move: int, turn: int, mv: Moves, idx: int
) -> tuple[int, int, int, bool]:
    """Play move ``idx`` of mv for ``to_move`` and finish the turn (game._play): the card to
    the discard pile, the win and the turn limit, who moves next (a 2 draws again), the hand
    refilled (points). Returns (the colour to move next, turns played, winner or -1, over)."""
    P = B.P
    piles = T.piles
    counts = T.counts
    points = P[P_POINTS] != 0
    kind = mv[idx, M_KIND]
    card = mv[idx, M_CARD]  # the card drawn (standard) or played from the hand (points)
    if points:
        T.hands[to_move, CARD_SLOT[card]] -= 1
    play_move(T.S, B.slide, P, mv, idx)
    piles[1, counts[1]] = card
    counts[1] += 1
    turn += 1
    mover = to_move
    if won(T.S, mover, P[P_TEAMS] != 0):
        return mover, turn, mover, True
    limit = P[P_TURN_LIMIT]
    if limit > 0 and turn >= limit:
        return mover, turn, -1, True
    nxt = mover
    if not plays_again(P, card, kind):
        nxt = B.after[mover]
    if points:
        card = draw_card(T.rng, piles, counts)
        T.hands[mover, CARD_SLOT[card]] += 1
    return nxt, turn, -1, False


@ijit
def finish_game(T: Table, B: Book, out: Ints, final: State) -> None:
    """The result of a game that is over (T.G), as every whole game reports it: out = [winner
    or -1, turns, first colour, decisions, score R, B, Y, G]; final = the state at the end.
    Only a points game that was won is scored: one cut by the turn limit has no scores
    (game._play)."""
    G = T.G
    winner = G[G_WINNER]
    out[0] = winner
    out[1] = G[G_TURN]
    out[2] = G[G_FIRST]
    out[3] = G[G_TURN]
    for c in range(4):
        out[4 + c] = 0
    if B.P[P_POINTS] != 0 and winner >= 0:
        score_points(T.S, B.cols, winner, B.P[P_BONUS_CUM] != 0, out)
    copy_into(final, T.S)


@jit
def score_points(S: State, cols: Ints, winner: int, cumulative: bool, out: Ints) -> None:
    """out[4 + c] = colour c's points (rulebook.score) of a game won by ``winner``."""
    most = 0
    away = 0
    for k in range(cols.shape[0]):
        c = cols[k]
        h = 0
        for i in range(4):
            if S[4 * c + i] == HOME:
                h += 1
        out[4 + c] = POINTS_PER_PAWN * h
        if c != winner:
            away += 4 - h
            if h > most:
                most = h
    out[4 + winner] += POINTS_PER_PAWN * away + WIN_BONUS[1 if cumulative else 0, most]


@ijit
def seat_after(cols: Ints, after: Ints) -> None:
    """after[c] = the colour after c in seat order (itself if not in play): rulebook.seat_after,
    for the Books that compiled code builds."""
    ncols = cols.shape[0]
    for c in range(4):
        after[c] = c
    for k in range(ncols):
        after[cols[k]] = cols[(k + 1) % ncols]


@ajit
def new_table() -> Table:
    return Table(
        np.empty(STATE_LEN, dtype=np.int8),
        np.zeros((2, 48), dtype=np.int8),
        np.zeros(6, dtype=np.int64),
        np.zeros((4, 11), dtype=np.int64),
        np.zeros(5, dtype=np.uint64),
        np.zeros(G_LEN, dtype=np.int64),
    )


@ijit
def copy_table(dst: Table, src: Table) -> None:
    """dst = src (every array of the game, element by element)."""
    copy_state(dst.S, src.S)
    for r in range(2):
        copy_into(dst.piles[r], src.piles[r])
    copy_into(dst.counts, src.counts)
    for c in range(4):
        copy_into(dst.hands[c], src.hands[c])
    copy_into(dst.rng, src.rng)
    for k in range(G_LEN):
        dst.G[k] = src.G[k]


@ajit
def new_work() -> Work:
    """A new Work (one per chunk of games, per call, per environment)."""
    return Work(
        np.empty((3, STATE_LEN), dtype=np.int8),
        np.empty(48, dtype=np.int64),
        np.empty((MAX_MOVES, M_COLS), dtype=np.int16),
        np.empty((2, MAX_MOVES), dtype=np.int64),
        np.zeros(MAX_MOVES, dtype=np.float64),
        np.empty((2, STATE_LEN), dtype=np.int8),
        np.zeros(Z_LEN, dtype=np.int64),
        np.empty((0, 3), dtype=np.int64),
    )


@ijit
def with_moves(M: Work, mv: Moves) -> Work:
    """M listing its moves in ``mv`` (a root's, a slot's kept between steps)."""
    return Work(M.W, M.buf, mv, M.keys, M.vals, M.X, M.Z, M.trace)


@ijit
def with_trace(M: Work, trace: Ints) -> Work:
    """M recording the game's trace in ``trace``."""
    return Work(M.W, M.buf, M.mv, M.keys, M.vals, M.X, M.Z, trace)


@ajit
def list_moves(
    S: State, slide: Slide, P: Params, colour: int, card: int, hand: Ints
) -> tuple[Moves, States]:
    """The legal moves of a position (for tests and tools) and the state after each."""
    M = new_work()
    n = legal_moves(S, slide, P, colour, card, hand, M)
    res = np.empty((n, STATE_LEN), dtype=np.int8)
    for m in range(n):
        copy_into(res[m], S)
        apply_move(res[m], slide, P, M.mv, m)
    return M.mv[:n].copy(), res
