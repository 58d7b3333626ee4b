"""Fast complete games for simulation and search: the same rules as :class:`sorry.game.Game`,
without the bookkeeping a game object keeps for people (undo records, legality checks of
pushed moves, views). Games with a policy, and team games, use the Game's move generator and
board code; uniformly random standard games (:func:`random_game`, the loop of simulations)
run on a compact state of their own, built for speed (see the comment before ``_Board``).

A playout with a seed plays exactly the game that ``Game(rules, players, seed)`` driven by
:func:`random_choice_loop` plays (a test checks it move for move).

>>> from sorry.rules import Rules
>>> winners, turns = random_game(Rules(), players=4, seed=1)
>>> winners, turns > 100
((2,), True)
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from functools import cache
from typing import Final

from .board import BACKWARD as BWD, FORWARD as FWD, HOME, START, START_EXIT, TRACK_LEN, slide_table
from .cards import SORRY, deck_cards
from .movegen import card_moves
from .moves import FORWARD, PASS_MOVE, Move
from .rng import MASK64, Rng, derive_seed
from .rulebook import (
    BACKWARD_STEPS,
    DECLINABLE_CARD,
    FACES,
    FORWARD_STEPS,
    PARTNER,
    SORRY_FORWARD,
    START_CARDS,
    colours_for,
    may_decline,
    seat_after,
)
from .rules import Rules, Unsupported
from .state import Change, PawnState

#: FWD_BY_STEPS[colour][n][location] and BWD_BY_STEPS[colour][n][location]: the board tables
#: indexed by the step count first, so a turn looks one row up once.
FWD_BY_STEPS = tuple(
    tuple(tuple(FWD[c][loc][n] for loc in range(67)) for n in range(13)) for c in range(4)
)
BWD_BY_STEPS = tuple(
    tuple(tuple(BWD[c][loc][n] for loc in range(67)) for n in range(5)) for c in range(4)
)

#: SPLIT_STEPS[colour]: (k, FWD_BY_STEPS[colour][7 - k]) for k = 1..6, the halves of a 7.
SPLIT_STEPS = tuple(tuple((k, FWD_BY_STEPS[c][7 - k]) for k in range(1, 7)) for c in range(4))

#: The settings playouts cannot play (hands of five are left to Game; the 10's backward move
#: only as a fallback): see rules.Unsupported.
UNSUPPORTED: Final[Unsupported] = frozenset({("variant", "points"), ("ten_backward", "fallback")})

#: A policy: given the state, the player, the card and the listed moves, the index of the choice.
Policy = Callable[[PawnState, int, int, list[Move]], int]


def random_game(
    rules: Rules,
    players: int | Sequence[int] = 4,
    seed: int = 0,
    choice_seed: int | None = None,
) -> tuple[tuple[int, ...], int]:
    """Play a standard or team game with uniformly random moves. Returns (winners, turns);
    winners is ``()`` if ``rules.turn_limit`` stopped the game. The moves are chosen with
    ``Rng(choice_seed)`` (default: ``seed ^ 0x5EED``)."""
    return play(rules, players, seed, None, seed ^ 0x5EED if choice_seed is None else choice_seed)


def random_bots_game(
    rules: Rules, players: int | Sequence[int], seed: int
) -> tuple[tuple[int, ...], int, int]:
    """The game ``sorry.sim`` plays with ``random`` bots in every seat (each colour ``c``
    draws its choices from ``Rng(derive_seed(seed, 1000 + c))``, one draw per decision), move
    for move, much faster. Returns (winners, turns, first player); winners is ``()`` if
    ``rules.turn_limit`` stopped the game."""
    colours = colours_for(players, rules)
    first = colours[Rng(seed).below(len(colours))]
    streams = [derive_seed(seed, 1000 + c) for c in range(4)]
    winners, turns = play(rules, colours, seed, None, streams=streams)
    return tuple(sorted(winners)), turns, first


def play(
    rules: Rules,
    players: int | Sequence[int],
    seed: int,
    policy: Policy | None,
    choice_seed: int = 0,
    streams: Sequence[int] | None = None,
) -> tuple[tuple[int, ...], int]:
    """Play a whole standard or team game with ``policy`` choosing every move (``None``:
    uniformly at random with ``Rng(choice_seed)``, inlined because it is the hot loop of
    simulations). ``streams`` (with ``policy`` None): one generator state per colour instead,
    and a draw from the mover's at every decision, forced ones included, as
    :class:`sorry.bots.RandomBot` does with its own generator (:func:`random_bots_game`)."""
    rules.check_supported(UNSUPPORTED, "sorry.playout")
    colours = colours_for(players, rules)
    cst = [s & MASK64 for s in streams] if streams is not None else None
    if policy is None and not rules.teams:
        return _random_standard(rules, colours, seed, choice_seed & MASK64, streams=cst)
    rng = Rng(seed)
    mover = colours[rng.below(len(colours))]
    out = 1 if rules.starting_pawns_out else 0
    pawns: list[tuple[int, ...] | None] = [None] * 4
    for c in colours:
        pawns[c] = (START,) * (4 - out) + (START_EXIT[c],) * out
    state = PawnState.of(tuple(pawns), rules)
    draw = deck_cards(rules.deck)
    rng.shuffle(draw)
    discard: list[int] = []
    book = rules.book
    nxt = seat_after(colours)
    teams = book.teams
    movers = book.movers
    again = book.again
    limit = rules.turn_limit or -1
    state_pawns = state.pawns
    turn = 0
    changes: list[Change] = []
    cstate = choice_seed & MASK64
    occ = state.occ
    place = state.place
    plain_sorry = rules.sorry_forward_4 == "no"
    plain_swaps = not (teams and rules.team_swap_partner)
    slide = state.slide
    swap_both = state.swap_both
    while turn != limit:
        if not draw:
            draw, discard = discard, draw
            rng.shuffle(draw)
        card = draw.pop()
        if (
            policy is None
            and card != 7
            and (card != SORRY or plain_sorry)
            and (card != 11 or plain_swaps)
        ):
            # The common cases, inlined: the same candidates in the same order as
            # movegen.card_moves, kept as (colour, index, landing square) for a pawn that
            # moves, (colour, index, other colour, other index) for a swap, None for a pass.
            # Candidates are ints: (pawn code << 8 | landing square) for a pawn that moves,
            # (pawn code << 8 | 64 + other pawn's code) for a swap, -1 for a pass; the pawn
            # code is colour * 4 + index, as in PawnState.occ.
            cand: list[int] = []
            slides = 0
            cols = movers[mover]
            if card == SORRY:
                for c in cols:
                    pc = state_pawns[c]
                    if START in pc:
                        code = (c * 4 + pc.index(START)) << 8
                        sc = slide[c]
                        for t in range(4):
                            if t == c or (not teams and t == mover):
                                continue
                            for loc in sorted(state_pawns[t]):
                                if loc >= TRACK_LEN:
                                    break
                                cand.append(code | loc)
                                if sc[loc] >= 0:
                                    slides += 1
            else:
                fwd = FORWARD_STEPS[card]
                back = BACKWARD_STEPS[card]
                if card in START_CARDS:
                    for c in cols:
                        pc = state_pawns[c]
                        if START in pc:
                            o = occ[START_EXIT[c]]
                            if o < 0 or o >> 2 != c:
                                cand.append((c * 4 + pc.index(START)) << 8 | START_EXIT[c])
                for c in cols:
                    pc = state_pawns[c]
                    fc = FWD_BY_STEPS[c][fwd]
                    bc = BWD_BY_STEPS[c][back]
                    sc = slide[c]
                    c4 = c * 4
                    for loc in sorted(pc):
                        if loc >= HOME:
                            break
                        if fwd:
                            dest = fc[loc]
                            if dest >= 0:
                                if dest < TRACK_LEN:
                                    o = occ[dest]
                                    if o < 0 or o >> 2 != c:
                                        cand.append((c4 + pc.index(loc)) << 8 | dest)
                                        if sc[dest] >= 0:
                                            slides += 1
                                elif dest == HOME or dest not in pc:
                                    cand.append((c4 + pc.index(loc)) << 8 | dest)
                        if back:
                            dest = bc[loc]
                            if dest >= 0:
                                if dest < TRACK_LEN:
                                    o = occ[dest]
                                    if o < 0 or o >> 2 != c:
                                        cand.append((c4 + pc.index(loc)) << 8 | dest)
                                        if sc[dest] >= 0:
                                            slides += 1
                                elif dest not in pc:
                                    cand.append((c4 + pc.index(loc)) << 8 | dest)
                if card == DECLINABLE_CARD:
                    forward_found = bool(cand)
                    for c in cols:
                        pc = state_pawns[c]
                        sc = slide[c]
                        for loc in sorted(pc):
                            if loc >= TRACK_LEN:
                                break
                            code = (c * 4 + pc.index(loc)) << 8 | 128
                            for t in range(4):
                                if t == c or t in cols:
                                    continue
                                st = slide[t]
                                for tloc in sorted(state_pawns[t]):
                                    if tloc >= TRACK_LEN:
                                        break
                                    cand.append(code | occ[tloc])
                                    if sc[tloc] >= 0 or (swap_both and st[loc] >= 0):
                                        slides += 2  # a sliding swap: see below
                    if not forward_found:
                        cand.append(-1)  # the 11 may be declined
            # Two moves that slide (or one swap that slides) can end alike, and the reference
            # then lists them once: such turns are left to the reference move generator.
            sliding = slides > 1
        else:
            sliding = True
        if not sliding:
            n = len(cand)
            if cst is not None:  # the mover's own generator, at every decision
                z = cst[mover] = (cst[mover] + 0x9E3779B97F4A7C15) & MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                draw_k = (z ^ (z >> 31)) % max(n, 1)
            if n:
                if cst is not None:
                    pick = cand[draw_k]
                elif n == 1:
                    pick = cand[0]
                else:
                    z = cstate = (cstate + 0x9E3779B97F4A7C15) & MASK64
                    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                    pick = cand[(z ^ (z >> 31)) % n]
                if pick < 0:
                    n = 0  # declined
                else:
                    code = pick >> 8
                    dest = pick & 255
                    c = code >> 2
                    i = code & 3
                    if dest >= 128:
                        other = dest - 128
                        state.swap(c, i, other >> 2, other & 3, changes)
                        changes.clear()
                    elif dest < TRACK_LEN and (occ[dest] >= 0 or slide[c][dest] >= 0):
                        place(c, i, dest, changes)  # a bump or a slide
                        changes.clear()
                    else:  # a quiet move, made by hand (no bump, no slide)
                        pc = state_pawns[c]
                        old = pc[i]
                        if old < TRACK_LEN:
                            occ[old] = -1
                        if dest < TRACK_LEN:
                            occ[dest] = code
                        pc[i] = dest
            discard.append(card)
            turn += 1
            if n and state_pawns[mover].count(HOME) == 4:
                if not teams:
                    return (mover,), turn
                partner = PARTNER[mover]
                if state_pawns[partner].count(HOME) == 4:
                    return (mover, partner), turn
            if not again[card]:
                mover = nxt[mover]
            continue
        moves = card_moves(state, rules, mover, card)
        if not moves or may_decline(card, moves):
            moves.append(PASS_MOVE)
        n = len(moves)
        if cst is not None:
            z = cst[mover] = (cst[mover] + 0x9E3779B97F4A7C15) & MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            move = moves[(z ^ (z >> 31)) % n]
        elif n == 1:
            move = moves[0]
        elif policy is None:
            # Rng.next64 inlined (SplitMix64).
            z = cstate = (cstate + 0x9E3779B97F4A7C15) & MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            move = moves[(z ^ (z >> 31)) % n]
        else:
            move = moves[policy(state, mover, card, moves)]
        kind = move.kind
        if kind == FORWARD:
            c = move.colour
            state.place(c, state_pawns[c].index(move.src), FWD[c][move.src][move.steps], changes)
            changes.clear()
        elif move is not PASS_MOVE:
            state.apply(move, changes)
            changes.clear()
        discard.append(card)
        turn += 1
        p = state_pawns[mover]
        if p.count(HOME) == 4:
            if not teams:
                return (mover,), turn
            partner = PARTNER[mover]
            if state_pawns[partner].count(HOME) == 4:
                return (mover, partner), turn
        if not again[card]:
            mover = nxt[mover]
    return (), turn


# -- the random standard game on a compact state ------------------------------------------------
#
# random_game in the standard variant (the loop of simulations) runs on its own state, built
# for speed, and still plays exactly the games of Game: the same legal moves in the same order,
# a duplicate result listed once, the same random draws. A uniform random player only needs
# the number of distinct results and the one it picks, so moves are small ints, not Move
# values. movegen stays the reference: tests compare every card's results on crowded random
# positions, and whole games turn by turn.
#
# * pawns[c]: the 4 locations of colour c, kept sorted, so iterating them is the canonical
#   order (track, then Safety Zone; HOME and START last, and they never move);
# * mine[c][loc]: 1 if a colour-c pawn is on loc (track or Safety Zone), the landing check of
#   every move; mine[c][HOME] stays 0 (HOME takes any number) and mine[c][67] (also
#   mine[c][-1]) is 1, so a destination of -1 or _NOWHERE ("no such move") reads as blocked;
# * occ[square]: the colour on a track square or -1 (who gets bumped).
# Pawns of a colour are interchangeable, so pawns have no identity here.

#: A candidate is an int: source << 8 | destination for a pawn move, 1 << 19 | own square << 10
#: | colour << 8 | square for a swap, -1 for declining the 11; plus _SLIDE_FLAG for a move that
#: slides, so ``sum(cand) >> 26`` counts them (the low parts are < 2 ** 20, at most 53 of them).
_SLIDE_FLAG = 1 << 26
_LOW = _SLIDE_FLAG - 1
#: Own-colour key weights: a bit per track or Safety Zone square, 3-bit counters for HOME and
#: START, so sums over the 4 pawns are an exact key of the colour's pawns.
_KEY_WEIGHT = tuple([1 << loc for loc in range(HOME)] + [1 << HOME, 1 << (HOME + 3)])
#: Bumped opponents are keyed by the set of squares they stood on, above the own-colour key.
_BUMP_SHIFT = 72


_Tables = tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]
_GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64's increment, as in sorry.rng


@cache
def _lanes(count: int) -> tuple[int, int, int, struct.Struct, int]:
    """Constants of _draws: count draws live in 128-bit lanes of one big int (draw k in
    lane k - 1)."""
    lanes = range(count)
    ones = sum(1 << (128 * k) for k in lanes)
    offsets = sum(((k + 1) * _GOLDEN & MASK64) << (128 * k) for k in lanes)
    low64 = sum(MASK64 << (128 * k) for k in lanes)
    return ones, offsets, low64, struct.Struct("<" + "Q8x" * count), count * _GOLDEN & MASK64


def _draws(state: int, count: int) -> tuple[tuple[int, ...], int]:
    """The next ``count`` outputs of ``Rng`` whose state is ``state``, and its state after
    them: the SplitMix64 arithmetic of all of them done at once on lanes of a big int (a
    lane's state is below 2**64 and its products below 2**128, so nothing crosses into the
    next lane; the shifts are masked back to 64 bits per lane). Several times faster than
    one draw at a time."""
    ones, offsets, low64, unpack, advance = _lanes(count)
    z = (state * ones + offsets) & low64  # state + k * golden, per lane
    z = ((z ^ ((z >> 30) & low64)) * 0xBF58476D1CE4E5B9) & low64
    z = ((z ^ ((z >> 27) & low64)) * 0x94D049BB133111EB) & low64
    z ^= (z >> 31) & low64
    return unpack.unpack(z.to_bytes(unpack.size, "little")), (state + advance) & MASK64


@cache
def _swap_positions(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(range(n - 1, 0, -1)), tuple(range(n, 1, -1))


def _shuffle(items: list[int], state: int) -> int:
    """Rng(state).shuffle(items), returning the generator's new state."""
    positions, sizes = _swap_positions(len(items))
    draws, state = _draws(state, len(items) - 1)
    for i, draw, size in zip(positions, draws, sizes, strict=True):
        j = draw % size
        items[i], items[j] = items[j], items[i]
    return state


#: How many choices of the random player are drawn at once (see _draws).
_CHOICE_BATCH = 64


@cache
def _simple_tables(slide_on: str) -> _Tables:
    """TABLES[colour][card][location]: the candidate ints of one pawn for a simple card (for
    the 11 its forward move; for SORRY the forward 4 of the sorry_forward_4 option), forward
    before backward as movegen lists them."""
    slide = slide_table(slide_on)
    tables = []
    for c in range(4):
        per_card: list[tuple[tuple[int, ...], ...]] = [()] * 14
        for card in (1, 2, 3, 4, 5, 8, 10, 11, 12, SORRY):
            fwd = SORRY_FORWARD if card == SORRY else FORWARD_STEPS[card]
            back = BACKWARD_STEPS[card]
            rows = []
            for loc in range(67):
                row = []
                if loc < HOME:
                    for dest in (
                        FWD[c][loc][fwd] if fwd else -1,
                        BWD[c][loc][back] if back else -1,
                    ):
                        if dest >= 0:
                            flag = _SLIDE_FLAG if dest < TRACK_LEN and slide[c][dest] >= 0 else 0
                            row.append(flag | loc << 8 | dest)
                rows.append(tuple(row))
            per_card[card] = tuple(rows)
        tables.append(tuple(per_card))
    return tuple(tables)


#: The destination of a move that does not exist: mine[c][_NOWHERE] is 1, "blocked".
_NOWHERE = 67


@cache
def _single_tables(
    slide_on: str,
) -> tuple[tuple[tuple[tuple[int, ...] | None, ...], ...], tuple[tuple[int, ...], ...]]:
    """SINGLE[colour][card][location]: the candidate of a pawn's forward move for the cards
    1 2 3 5 8 10 12 (the backward one for the 4), _NOWHERE when it has none; None for the
    other cards, which _candidates generates. Also TEN_BACK[colour][location], the 10's one
    step back. The playout's hot loop."""
    slide = slide_table(slide_on)

    def code(c: int, loc: int, dest: int) -> int:
        if loc >= HOME or dest < 0:
            return _NOWHERE
        return (_SLIDE_FLAG if dest < TRACK_LEN and slide[c][dest] >= 0 else 0) | loc << 8 | dest

    single = tuple(
        tuple(
            tuple(
                code(
                    c,
                    loc,
                    FWD[c][loc][FORWARD_STEPS[card]]
                    if FORWARD_STEPS[card]
                    else BWD[c][loc][BACKWARD_STEPS[card]],
                )
                for loc in range(67)
            )
            if card in (1, 2, 3, 4, 5, 8, 10, 12)
            else None
            for card in range(14)
        )
        for c in range(4)
    )
    ten_back = tuple(
        tuple(code(c, loc, BWD[c][loc][BACKWARD_STEPS[10]]) for loc in range(67)) for c in range(4)
    )
    return single, ten_back


@cache
def _target_codes(slide_on: str) -> tuple[tuple[int, ...], ...]:
    slide = slide_table(slide_on)
    return tuple(
        tuple((_SLIDE_FLAG if slide[c][sq] >= 0 else 0) | sq for sq in range(TRACK_LEN))
        for c in range(4)
    )


class _Board:
    """The compact state of the comment above, with the few operations that change it."""

    __slots__ = ("mine", "occ", "pawns", "slide", "swap_both", "targets")

    def __init__(self, pawns: Sequence[Sequence[int]], slide_on: str, swap_both: bool) -> None:
        self.pawns = [sorted(p) for p in pawns]
        self.mine = [[0] * 67 + [1] for _ in range(4)]
        self.occ = [-1] * TRACK_LEN
        for c, locs in enumerate(self.pawns):
            for loc in locs:
                if loc < HOME:
                    self.mine[c][loc] = 1
                if loc < TRACK_LEN:
                    self.occ[loc] = c
        self.slide = slide_table(slide_on)
        self.swap_both = swap_both
        #: targets[c][square]: the square, with _SLIDE_FLAG if a colour-c pawn put there
        #: (by a Sorry! or a swap) slides.
        self.targets = _target_codes(slide_on)

    def bump(self, sq: int, log: list[int] | None) -> None:
        """Send the pawn on track square sq back to START."""
        v = self.occ[sq]
        pv = self.pawns[v]
        pv.remove(sq)
        pv.append(START)  # START sorts last: still sorted
        self.mine[v][sq] = 0
        self.occ[sq] = -1
        if log is not None:
            log.append(v << 8 | sq)

    def shift(self, c: int, loc: int, dest: int, log: list[int] | None) -> None:
        """Move a colour-c pawn from loc to dest, nothing else."""
        pc = self.pawns[c]
        pc[pc.index(loc)] = dest
        pc.sort()
        mine = self.mine[c]
        mine[loc] = 0
        if dest != HOME:
            mine[dest] = 1
        if loc < TRACK_LEN:
            self.occ[loc] = -1
        if dest < TRACK_LEN:
            self.occ[dest] = c
        if log is not None:
            log.append(1 << 20 | c << 16 | loc << 8 | dest)

    def place(self, c: int, loc: int, dest: int, log: list[int] | None = None) -> None:
        """PawnState.place: bump what is on dest, move there, slide (bumping every pawn on
        the slide, own ones included). ``log`` collects what undo() needs."""
        occ = self.occ
        if dest < TRACK_LEN and occ[dest] >= 0:
            self.bump(dest, log)
        self.shift(c, loc, dest, log)
        if dest < TRACK_LEN:
            end = self.slide[c][dest]
            if end >= 0:
                for sq in range(dest + 1, end + 1):
                    if occ[sq] >= 0:
                        self.bump(sq, log)
                self.shift(c, dest, end, log)

    def swap(self, c: int, x: int, t: int, y: int, log: list[int] | None = None) -> None:
        """PawnState.swap: colour c's pawn on x and colour t's on y change places; the mover
        slides, the other too with swap_slides=both if the mover's slide left it there."""
        occ = self.occ
        self.shift(t, y, START, log)
        self.shift(c, x, y, log)
        self.shift(t, START, x, log)
        end = self.slide[c][y]
        if end >= 0:
            for sq in range(y + 1, end + 1):
                if occ[sq] >= 0:
                    self.bump(sq, log)
            self.shift(c, y, end, log)
        if self.swap_both and occ[x] == t:
            end = self.slide[t][x]
            if end >= 0:
                for sq in range(x + 1, end + 1):
                    if occ[sq] >= 0:
                        self.bump(sq, log)
                self.shift(t, x, end, log)

    def play_seven(self, c: int, x: int) -> None:
        """Play a result of _seven: a pawn move, or a split (first << 16 | second)."""
        if x >= 1 << 16:
            self.place(c, x >> 24, x >> 16 & 255)
            x &= 0xFFFF
        self.place(c, x >> 8, x & 255)

    def undo(self, log: list[int]) -> None:
        pawns = self.pawns
        occ = self.occ
        for x in reversed(log):
            if x >> 20:  # a shift, back
                c = x >> 16 & 15
                loc = x >> 8 & 255
                dest = x & 255
                pc = pawns[c]
                pc[pc.index(dest)] = loc
                pc.sort()
                mine = self.mine[c]
                mine[dest] = 0
                if loc < HOME:
                    mine[loc] = 1
                if dest < TRACK_LEN:
                    occ[dest] = -1
                if loc < TRACK_LEN:
                    occ[loc] = c
            else:  # a bump, back
                v = x >> 8
                sq = x & 255
                pv = pawns[v]
                pv[pv.index(START)] = sq
                pv.sort()
                self.mine[v][sq] = 1
                occ[sq] = v

    def outcome(self, c: int, x: int) -> tuple[tuple[int, ...], ...]:
        """The position after candidate x (its flag stripped): pawns sorted per colour, an
        exact key. The state is left unchanged."""
        log: list[int] = []
        if x >> 19 & 1:
            self.swap(c, x >> 10 & 127, x >> 8 & 3, x & 255, log)
        else:
            self.place(c, x >> 8, x & 255, log)
        key = tuple(map(tuple, self.pawns))
        self.undo(log)
        return key

    def half_key(self, c: int, loc: int, dest: int) -> int:
        """The key change of a pawn move that may bump or slide, without making it: own pawns
        by _KEY_WEIGHT, bumped opponents by square (a pawn on loc is the mover itself)."""
        kw = _KEY_WEIGHT
        occ = self.occ
        key = kw[dest] - kw[loc]
        bumped = 0
        if dest < TRACK_LEN:
            if occ[dest] >= 0:
                bumped = 1 << dest
            end = self.slide[c][dest]
            if end >= 0:
                for sq in range(dest + 1, end + 1):
                    o = occ[sq]
                    if o == c:
                        if sq != loc:
                            key += kw[START] - kw[sq]
                    elif o >= 0:
                        bumped |= 1 << sq
                key += kw[end] - kw[dest]
        return key + (bumped << _BUMP_SHIFT)


def _dedupe(board: _Board, c: int, card: int, cand: list[int]) -> list[int]:
    """Called when two candidates slide: they can end alike (Red 43-4 and Red 58-4 both change
    nothing; two swaps onto one triangle), and movegen lists each result once. A candidate that
    does not slide cannot end like any other (it moves one pawn, or swaps two without sending
    anyone to START), so only the sliding ones are compared; except when the swapped pawn
    slides too (swap_slides=both): Blue sliding from 24 onto its own pawn on 28 after
    G24<>B35 ends like G24+11 bumping B35."""
    seen: set[tuple[tuple[int, ...], ...]] = set()
    kept = []
    every = card == 11 and board.swap_both
    for x in cand:
        if x >= _SLIDE_FLAG or (every and x >= 0):
            result = board.outcome(c, x & _LOW)
            if result in seen:
                continue
            seen.add(result)
        kept.append(x)
    return kept


def _candidates(board: _Board, tables: _Tables, sorry_fwd: str, c: int, card: int) -> list[int]:
    """The candidates of a card other than the 7, in movegen's order (-1: declining the 11),
    before _dedupe. The playout inlines the simple cards."""
    pawns = board.pawns
    pc = pawns[c]
    mine = board.mine[c]
    cand: list[int] = []
    if card == SORRY:
        if pc[3] == START:
            tc = board.targets[c]
            for t in (0, 1, 2, 3):
                if t != c:
                    for loc in pawns[t]:
                        if loc >= TRACK_LEN:
                            break
                        cand.append(START << 8 | tc[loc])
        if sorry_fwd == "always" or (sorry_fwd == "fallback" and not cand):
            row = tables[c][SORRY]
            cand += [x for loc in pc for x in row[loc] if not mine[x & 255]]
        return cand
    row = tables[c][card]
    cand = [x for loc in pc for x in row[loc] if not mine[x & 255]]
    if card in START_CARDS and pc[3] == START and not mine[START_EXIT[c]]:
        cand.insert(0, START << 8 | START_EXIT[c])
    elif card == 11:
        # Swaps: 1 << 19 | own square << 10 | colour << 8 | square; the other pawns, with
        # the flag of the mover sliding on their square, are listed once for every own pawn.
        forward_found = bool(cand)
        tc = board.targets[c]
        others = [
            1 << 19 | t << 8 | tc[y]
            for t in (0, 1, 2, 3)
            if t != c
            for y in pawns[t]
            if y < TRACK_LEN
        ]
        if others:
            slide = board.slide
            for x in pc:
                if x >= TRACK_LEN:
                    break
                if board.swap_both and any(slide[o >> 8 & 3][x] >= 0 for o in others):
                    for o in others:
                        if slide[o >> 8 & 3][x] >= 0:
                            # The other pawn slides too: it may end like a move that
                            # does not slide (see _dedupe), so count it twice.
                            o = (o & ~_SLIDE_FLAG) + 2 * _SLIDE_FLAG
                        cand.append(x << 10 | o)
                else:
                    cand += map((x << 10).__or__, others)
        if not forward_found:
            cand.append(-1)  # the 11 may be declined
    return cand


def _random_standard(
    rules: Rules,
    colours: tuple[int, ...],
    seed: int,
    cstate: int,
    trace: list[tuple[int, int, tuple[tuple[int, ...], ...]]] | None = None,
    streams: list[int] | None = None,
) -> tuple[tuple[int, ...], int]:
    """play() for policy None in the standard variant (see the comment above). ``trace``
    (for tests) receives (card, number of choices, pawns) after every turn. ``streams``: one
    generator state per colour, drawn from at every decision (see :func:`play`)."""
    tables = _simple_tables(rules.slide_on)
    single, ten_back = _single_tables(rules.slide_on)
    rng = Rng(seed)
    mover = colours[rng.below(len(colours))]
    dstate = rng.state  # the deck's generator from here on
    out = 1 if rules.starting_pawns_out else 0
    board = _Board(
        [[START_EXIT[c]] * out + [START] * (4 - out) if c in colours else [] for c in range(4)],
        rules.slide_on,
        rules.swap_slides == "both",
    )
    pawns = board.pawns
    mine_all = board.mine
    occ = board.occ
    place = board.place
    draw = deck_cards(rules.deck)
    dstate = _shuffle(draw, dstate)
    pos = len(draw)
    nxt = seat_after(colours)
    enter = [START << 8 | START_EXIT[c] for c in range(4)]
    again = rules.book.again
    starts = tuple(card in START_CARDS for card in range(FACES))
    sorry_fwd = rules.sorry_forward_4
    limit = rules.turn_limit or -1
    turn = 0
    # Module constants and functions as locals: the loop runs some 400 times a game.
    home, start, track_len, low, candidates, seven, draws, choice_batch = (
        HOME,
        START,
        TRACK_LEN,
        _LOW,
        _candidates,
        _seven,
        _draws,
        _CHOICE_BATCH,
    )
    choices: tuple[int, ...] = ()
    choices_left = 0
    bufs: list[tuple[int, ...]] = [(), (), (), ()]  # with streams: each colour's next draws
    left = [0, 0, 0, 0]
    while turn != limit:
        if not pos:
            draw.reverse()  # the discard pile, in the order the cards were played
            dstate = _shuffle(draw, dstate)
            pos = len(draw)
        pos -= 1
        card = draw[pos]
        pc = pawns[mover]
        row = single[mover][card]
        if row is not None:  # _candidates inlined for the cards that only move pawns
            mine = mine_all[mover]
            cand = []
            if card != 10:
                for loc in pc:
                    if loc >= home:
                        break
                    x = row[loc]
                    if not mine[x & 255]:
                        cand.append(x)
                if starts[card] and pc[3] == start and not mine[enter[mover] & 255]:
                    cand.insert(0, enter[mover])
            else:  # 10 forward, then 1 back, pawn by pawn
                back = ten_back[mover]
                for loc in pc:
                    if loc >= home:
                        break
                    x = row[loc]
                    if not mine[x & 255]:
                        cand.append(x)
                    x = back[loc]
                    if not mine[x & 255]:
                        cand.append(x)
        elif card != 7:
            cand = candidates(board, tables, sorry_fwd, mover, card)
        else:
            cand = seven(board, mover)
        n = len(cand)
        if n > 1 and card != 7 and sum(cand) >> 26 > 1:
            cand = _dedupe(board, mover, card, cand)
            n = len(cand)
        if streams is not None:  # the mover's own generator, at every decision
            k = left[mover]
            if not k:  # its next draws, all at once
                bufs[mover], streams[mover] = draws(streams[mover], choice_batch)
                k = choice_batch
            left[mover] = k - 1
            if n:
                x = cand[bufs[mover][choice_batch - k] % n]
        if n:
            if streams is not None:
                pass
            elif n == 1:
                x = cand[0]
            else:
                if not choices_left:  # the choice generator's next draws, all at once
                    choices, cstate = draws(cstate, choice_batch)
                    choices_left = choice_batch
                x = cand[choices[choice_batch - choices_left] % n]
                choices_left -= 1
            if card == 7:
                board.play_seven(mover, x)
            elif x >= 1 << 16:  # a swap, or a move that slides
                x &= low
                if x >= 1 << 16:
                    board.swap(mover, x >> 10 & 127, x >> 8 & 3, x & 255)
                else:
                    place(mover, x >> 8, x & 255)
            elif x >= 0:
                dest = x & 255
                loc = x >> 8
                if dest < track_len and occ[dest] >= 0:
                    place(mover, loc, dest)  # a bump
                else:  # a quiet move: Board.shift inlined
                    pc[pc.index(loc)] = dest
                    pc.sort()
                    mine = mine_all[mover]
                    mine[loc] = 0
                    if dest != home:
                        mine[dest] = 1
                        if dest < track_len:
                            occ[dest] = mover
                    if loc < track_len:
                        occ[loc] = -1
        turn += 1
        if trace is not None:
            trace.append((card, n, tuple(map(tuple, pawns))))
        if pc[0] == home and pc[3] == home:
            return (mover,), turn
        if not again[card]:
            mover = nxt[mover]
    return (), turn


def _seven(board: _Board, c: int) -> list[int]:
    """The distinct results of a 7 in movegen's order, as candidates (a plain 7, or
    first << 16 | second for a split). Results are keyed relative to the position now: own
    pawns by _KEY_WEIGHT, bumped opponents by square, which is exact; a dict keeps the first
    occurrence's place, and any move with that key gives the same result."""
    kw = _KEY_WEIGHT
    pc = board.pawns[c]
    mine = board.mine[c]
    occ = board.occ
    sl = board.slide[c]
    half_key = board.half_key
    res: dict[int, int] = {}
    movable = [loc for loc in pc if loc < HOME]
    f7 = FWD_BY_STEPS[c][7]
    for loc in movable:
        dest = f7[loc]
        if not mine[dest]:
            if dest >= TRACK_LEN or (occ[dest] < 0 and sl[dest] < 0):
                res[kw[dest] - kw[loc]] = loc << 8 | dest
            else:
                res[half_key(c, loc, dest)] = loc << 8 | dest
    if len(movable) < 2:
        return list(res.values())
    fwd = FWD[c]
    for la in movable:
        row_a = fwd[la]
        others = [lb for lb in movable if lb != la]
        for k, rest in SPLIT_STEPS[c]:
            da = row_a[k]
            if mine[da]:
                continue
            first = (la << 8 | da) << 16
            if da >= TRACK_LEN or (occ[da] < 0 and sl[da] < 0):
                # A quiet first half: the second is checked against the board as it will be
                # (la empty, da taken), without making the first.
                key1 = kw[da] - kw[la]
                for lb in others:
                    db = rest[lb]
                    if mine[db]:
                        if db != la:
                            continue
                    elif db == da and db != HOME:
                        continue
                    if db >= TRACK_LEN or (sl[db] < 0 and (occ[db] < 0 or db == la)):
                        res[key1 + kw[db] - kw[lb]] = first | lb << 8 | db
                    else:  # the second half bumps or slides: make the first for half_key
                        mine[la] = 0
                        if da != HOME:
                            mine[da] = 1
                            if da < TRACK_LEN:
                                occ[da] = c
                        if la < TRACK_LEN:
                            occ[la] = -1
                        res[key1 + half_key(c, lb, db)] = first | lb << 8 | db
                        mine[da] = 0
                        mine[la] = 1
                        if da < TRACK_LEN:
                            occ[da] = -1
                        if la < TRACK_LEN:
                            occ[la] = c
            else:
                # A first half that bumps or slides: made on occ and mine only (all that the
                # second half reads), saved and restored by slices.
                key1 = half_key(c, la, da)
                end = sl[da]
                if end < 0:
                    end = da
                saved_occ = occ[da : end + 1]
                saved_mine = mine[da : end + 1]
                mine[la] = 0
                if la < TRACK_LEN:
                    occ[la] = -1
                for sq in range(da, end):
                    occ[sq] = -1
                    mine[sq] = 0
                occ[end] = c
                mine[end] = 1
                for lb in others:
                    if lb == end or not mine[lb]:
                        continue  # the first pawn, or one its slide bumped
                    db = rest[lb]
                    if mine[db]:
                        continue
                    res[key1 + half_key(c, lb, db)] = first | lb << 8 | db
                occ[da : end + 1] = saved_occ
                mine[da : end + 1] = saved_mine
                mine[la] = 1
                if la < TRACK_LEN:
                    occ[la] = c
    return list(res.values())
