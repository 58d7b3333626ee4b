"""Legal moves of one card (docs/rules.md, Cards and Legal move lists; docs/variants.md, Team
variant): pure functions over a :class:`PawnState`.

The moves are listed in a canonical order (the pawns of the mover's colour, then its partner's,
by location) and moves that lead to the same result are listed once (only the 7 and the 11 can
produce such duplicates: splits, swaps with a partner, and swaps whose slides bump alike; they
are checked by result). :func:`matching_move` finds the listed move that a move typed another
way plays (a split's halves in the other order, a move left out because another ends alike).
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import BACKWARD as BWD, FORWARD as FWD, HOME, START, START_EXIT, TRACK_LEN
from .cards import CARDS, SORRY
from .moves import (
    BACKWARD,
    DISCARD,
    ENTER,
    FORWARD,
    PASS,
    PASS_MOVE,
    SORRY as SORRY_KIND,
    SPLIT,
    SWAP,
    Move,
)
from .rulebook import (
    BACKWARD_STEPS,
    FACES,
    FORWARD_STEPS,
    SORRY_FORWARD,
    START_CARDS,
    may_decline,
)
from .rules import Rules
from .state import PAWN_WEIGHT, Change, PawnState

#: Shared immutable move values, built once: FORWARD_MOVES[colour][location][n] and
#: BACKWARD_MOVES[colour][location][n] (moves are values, so sharing them is safe and saves
#: building thousands of tuples per game).
FORWARD_MOVES = tuple(
    tuple(tuple(Move(FORWARD, c, loc, n) for n in range(13)) for loc in range(67)) for c in range(4)
)
BACKWARD_MOVES = tuple(
    tuple(tuple(Move(BACKWARD, c, loc, n) for n in range(5)) for loc in range(67)) for c in range(4)
)
#: Moves built by ``_new(Move, fields)`` (all eight, in order): a NamedTuple's own constructor
#: is a Python call, and move generation makes thousands a game.
_new = tuple.__new__
ENTER_MOVES = tuple(Move(ENTER, c, START, 0, -1, START_EXIT[c]) for c in range(4))
#: DISCARD_MOVES[card]: the points variant's discard of ``card``.
DISCARD_MOVES = {card: Move(DISCARD, card=card) for card in CARDS}

#: STARTS[card]: whether the card may start a pawn (``rulebook.START_CARDS``), by face.
STARTS = tuple(card in START_CARDS for card in range(FACES))


def _step_moves(forward: bool, backward: bool) -> tuple[_StepRows, ...]:
    """A table of STEP_MOVES' shape with the forward moves, the backward moves, or both."""
    return tuple(
        tuple(
            tuple(
                tuple(
                    (dest, moves[loc][n])
                    for n, dest, moves in (
                        (
                            FORWARD_STEPS[card] if forward else 0,
                            FWD[c][loc][FORWARD_STEPS[card]],
                            FORWARD_MOVES[c],
                        ),
                        (
                            BACKWARD_STEPS[card] if backward else 0,
                            BWD[c][loc][BACKWARD_STEPS[card]],
                            BACKWARD_MOVES[c],
                        ),
                    )
                    if n and dest >= 0 and loc < HOME
                )
                for loc in range(67)
            )
            for c in range(4)
        )
        for card in range(FACES)
    )


#: One card's moves for each colour and location (see STEP_MOVES).
_StepRows = tuple[tuple[tuple[tuple[int, Move], ...], ...], ...]
#: STEP_MOVES[card][colour][location]: (landing square, move) of the card's forward move, then
#: its backward move, for a pawn there (the moves off the board left out); the 7's and the
#: 11's forward moves too. Built once from the rulebook's card tables; FORWARD_STEP_MOVES and
#: BACKWARD_STEP_MOVES hold each direction alone (``ten_backward=fallback``).
STEP_MOVES = _step_moves(True, True)
FORWARD_STEP_MOVES = _step_moves(True, False)
BACKWARD_STEP_MOVES = _step_moves(False, True)


def movers(rules: Rules, colour: int) -> tuple[int, ...]:
    """Colours whose pawns ``colour`` may move: its own, and its partner's in teams."""
    return rules.book.movers[colour]


def _pawn_order(state: PawnState, cols: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """(colour, index, location) of each pawn on the track or in its Safety Zone, in order.

    Location ints sort in position-string order (track, then s1..s5), and such locations are
    held by one pawn of a colour at most, so a plain sort gives the canonical order."""
    out = []
    for c in cols:
        locs = state.pawns[c]
        for loc in sorted(locs):
            if loc >= HOME:
                break
            out.append((c, locs.index(loc), loc))
    return out


def card_moves(state: PawnState, rules: Rules, colour: int, card: int) -> list[Move]:
    """Every distinct legal move of ``card`` for the player ``colour`` (no pass)."""
    cols = rules.book.movers[colour]
    out: list[Move] = []
    pawns = state.pawns
    occ = state.occ
    if STARTS[card]:
        for c in cols:
            if START in pawns[c]:
                o = occ[START_EXIT[c]]
                if o < 0 or o >> 2 != c:
                    out.append(ENTER_MOVES[c])
    if card != 7 and card != 11 and card != SORRY:
        slide = state.slide
        if BACKWARD_STEPS[card] and rules.book.backward_fallback:  # ten_backward=fallback
            listed = len(out)
            sliding = _simple_moves(pawns, occ, slide, cols, FORWARD_STEP_MOVES[card], out)
            if len(out) == listed:  # no pawn can move forward: the backward move
                sliding = _simple_moves(pawns, occ, slide, cols, BACKWARD_STEP_MOVES[card], out)
        else:
            sliding = _simple_moves(pawns, occ, slide, cols, STEP_MOVES[card], out)
        if sliding > 1:
            return _dedupe(state, out)
        return out
    can_land = state.can_land
    order = _pawn_order(state, cols)
    if card == SORRY:
        out.extend(_sorry_moves(state, rules, colour, cols))
        extra = rules.sorry_forward_4
        if extra == "always" or (extra == "fallback" and not out):
            for c, _i, loc in order:
                dest = FWD[c][loc][SORRY_FORWARD]
                if dest >= 0 and can_land(c, dest):
                    out.append(FORWARD_MOVES[c][loc][SORRY_FORWARD])
        if len(out) > 1 and _slides_may_collide(state, out):
            return _dedupe(state, out)
        return out
    if card == 7:
        return _seven_moves(state, rules, order)
    _simple_moves(pawns, occ, state.slide, cols, STEP_MOVES[11], out)
    swaps = _swap_moves(state, rules, colour, order)
    if _swaps_may_collide(state, swaps):
        return _dedupe(state, out + swaps)
    out.extend(swaps)
    return out


def _simple_moves(
    pawns: list[list[int]],
    occ: list[int],
    slide: tuple[tuple[int, ...], ...],
    cols: tuple[int, ...],
    rows: _StepRows,
    out: list[Move],
) -> int:
    """The moves of ``rows`` (a card's STEP_MOVES) for each pawn, in canonical order; returns
    how many of them land on a triangle and slide: only when two do can two of them end alike
    (a 4 back from the end of a long slide lands on its triangle and slides back to where it
    was: Red 43-4 and Red 58-4 both leave the board as it is).

    The hot path of every game, so ``PawnState.can_land`` is inlined: on the track no pawn of
    the same colour may be there; in the Safety Zone no own pawn; HOME takes any number."""
    sliding = 0
    for c in cols:
        pc = pawns[c]
        rc = rows[c]
        sc = slide[c]
        for loc in sorted(pc):
            if loc >= HOME:
                break
            for dest, m in rc[loc]:
                if dest < TRACK_LEN:
                    o = occ[dest]
                    if o < 0 or o >> 2 != c:
                        out.append(m)
                        if sc[dest] >= 0:
                            sliding += 1
                elif dest == HOME or dest not in pc:
                    out.append(m)
    return sliding


def legal_moves(state: PawnState, rules: Rules, colour: int, card: int) -> list[Move]:
    """The moves of the standard turn: :func:`card_moves`, plus ``pass`` when it is allowed
    (no move at all, or an 11 with no pawn able to go 11 forward)."""
    moves = card_moves(state, rules, colour, card)
    if not moves or may_decline(card, moves):
        moves.append(PASS_MOVE)
    return moves


def hand_moves(state: PawnState, rules: Rules, colour: int, hand: Sequence[int]) -> list[Move]:
    """The moves of the points variant's turn with ``hand`` (docs/variants.md, Play for
    points): every distinct legal move of each card in the hand, tagged with its card, in
    card order; and a discard of each card when no card must be played (none moves, or only
    an 11 that may be declined)."""
    plays: list[Move] = []
    must_play = False
    for card in CARDS:
        if card not in hand:
            continue
        moves = card_moves(state, rules, colour, card)
        if moves and not may_decline(card, moves):
            must_play = True
        plays.extend(m._replace(card=card) for m in moves)
    if not must_play:
        plays.extend(DISCARD_MOVES[c] for c in CARDS if c in hand)
    return plays


def sorry_may_take(rules: Rules, colour: int, c: int, t: int) -> bool:
    """Whether the player ``colour``, starting a pawn of colour ``c`` with a Sorry! card, may
    take the place of a pawn of colour ``t``: an opponent's in the standard game, any other
    colour's in the teams variant (docs/rules.md, Cards; docs/variants.md, Team variant)."""
    return t != c and (rules.teams or t not in rules.book.movers[colour])


def may_swap_with(rules: Rules, colour: int, c: int, t: int) -> bool:
    """Whether the player ``colour``'s pawn of colour ``c`` may swap places with a pawn of
    colour ``t`` on an 11: another colour's, not a partner's unless ``team_swap_partner``."""
    return t != c and (rules.team_swap_partner or t not in rules.book.movers[colour])


def _sorry_moves(state: PawnState, rules: Rules, colour: int, cols: tuple[int, ...]) -> list[Move]:
    out = []
    pawns = state.pawns
    for c in cols:
        if START not in pawns[c]:
            continue
        for t, victims in enumerate(pawns):
            if sorry_may_take(rules, colour, c, t):
                for loc in sorted(v for v in victims if v < TRACK_LEN):
                    out.append(_new(Move, (SORRY_KIND, c, START, 0, t, loc, (), None)))
    return out


def _swap_moves(
    state: PawnState, rules: Rules, colour: int, order: list[tuple[int, int, int]]
) -> list[Move]:
    out = []
    team = rules.book.movers[colour]
    # each colour's pawns on the track, in order, listed once for every pawn that swaps
    on_track = [sorted(v for v in others if v < TRACK_LEN) for others in state.pawns]
    others = {c: [t for t in (0, 1, 2, 3) if may_swap_with(rules, colour, c, t)] for c in team}
    for c, _i, loc in order:
        if loc >= TRACK_LEN:
            continue
        for t in others[c]:
            for tloc in on_track[t]:
                out.append(_new(Move, (SWAP, c, loc, 0, t, tloc, (), None)))
    if rules.team_swap_partner and len(team) > 1:
        out = _dedupe(state, out)
    return out


def _slides_may_collide(state: PawnState, moves: list[Move]) -> bool:
    """Whether two of these single-pawn moves end on a triangle and slide: only then can two
    of them end alike (a 4 back from the end of a long slide lands on its triangle and slides
    back to where it was: Red 43-4 and Red 58-4 both leave the board as it is)."""
    slide = state.slide
    sliding = 0
    for m in moves:
        if m.kind == FORWARD:
            dest = FWD[m.colour][m.src][m.steps]
        elif m.kind == BACKWARD:
            dest = BWD[m.colour][m.src][m.steps]
        elif m.kind == SORRY_KIND:
            dest = m.target
        else:
            continue
        if dest < TRACK_LEN and slide[m.colour][dest] >= 0:
            sliding += 1
    return sliding > 1


def _swaps_may_collide(state: PawnState, swaps: list[Move]) -> bool:
    """Whether a swap slides a pawn: only then can two moves of an 11 end alike (Green 40 and
    Green 43 each swapping with Yellow on the triangle 39 both end with Green on 43)."""
    slide = state.slide
    both = state.swap_both
    return any(
        slide[m.colour][m.target] >= 0 or (both and slide[m.target_colour][m.src] >= 0)
        for m in swaps
    )


def _dedupe(state: PawnState, moves: list[Move]) -> list[Move]:
    seen = set()
    out = []
    for m in moves:
        changes: list[Change] = []
        state.apply(m, changes)
        key = state.key()
        state.undo(changes)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def _seven_moves(state: PawnState, rules: Rules, order: list[tuple[int, int, int]]) -> list[Move]:
    """Forward 7 with one pawn, or split between pawns; duplicates by result removed.

    Results are compared by the exact integer key :meth:`PawnState.code`, updated move by move
    (a quiet half, with no bump and no slide, changes only its own pawn's term)."""
    out: list[Move] = []
    can_land = state.can_land
    pawns = state.pawns
    occ = state.occ
    slide = state.slide
    base = 0  # keys relative to the position now: only their differences matter
    seen: set[int] = set()
    for c, _i, loc in order:
        dest = FWD[c][loc][7]
        if dest >= 0 and can_land(c, dest):
            m = FORWARD_MOVES[c][loc][7]
            if dest >= TRACK_LEN or (occ[dest] < 0 and slide[c][dest] < 0):
                seen.add(base - PAWN_WEIGHT[c][loc] + PAWN_WEIGHT[c][dest])
            else:
                changes: list[Change] = []
                state.apply(m, changes)
                seen.add(base + state.code_delta(changes))
                state.undo(changes)
            out.append(m)
    movable = [(c, i) for c, i, loc in order if loc != START]
    if len(movable) < 2:
        return out
    if rules.variant == "teams" and rules.team_seven_split == "any":
        _split_any(state, movable, (), 7, 0, set(), seen, out, state.code())
        return out
    # each pawn's colour, index, pawn list and tables, looked up once
    pawn_rows = [
        (c, i, pawns[c], FWD[c], FORWARD_MOVES[c], slide[c], PAWN_WEIGHT[c]) for c, i in movable
    ]
    for a, (ca, ia, pca, fwd_ca, moves_ca, slide_ca, weight_ca) in enumerate(pawn_rows):
        la = pca[ia]
        fwd_a = fwd_ca[la]
        moves_a = moves_ca[la]
        code_a = ca * 4 + ia
        for k in range(1, 7):
            da = fwd_a[k]
            if da < 0:
                continue
            if da < TRACK_LEN:  # can_land, inlined
                o = occ[da]
                if o >= 0 and o >> 2 == ca:
                    continue
                quiet_first = o < 0 and slide_ca[da] < 0
            elif da != HOME and da in pca:
                continue
            else:
                quiet_first = True
            first = moves_a[k]
            if quiet_first:  # move the pawn by hand: cheaper than place() and undo()
                if la < TRACK_LEN:
                    occ[la] = -1
                if da < TRACK_LEN:
                    occ[da] = code_a
                pca[ia] = da
                after_first = base - weight_ca[la] + weight_ca[da]
            else:
                ch: list[Change] = []
                state.place(ca, ia, da, ch)
                after_first = base + state.code_delta(ch)
            rest = 7 - k
            for b, (cb, ib, pcb, fwd_cb, moves_cb, slide_cb, weight_cb) in enumerate(pawn_rows):
                if b == a:
                    continue
                lb = pcb[ib]
                if lb >= HOME:  # bumped back to START by the first half
                    continue
                db = fwd_cb[lb][rest]
                if db < 0:
                    continue
                if db < TRACK_LEN:
                    o = occ[db]
                    if o >= 0 and o >> 2 == cb:
                        continue
                    if o < 0 and slide_cb[db] < 0:
                        key = after_first - weight_cb[lb] + weight_cb[db]
                    else:
                        ch2: list[Change] = []
                        state.place(cb, ib, db, ch2)
                        key = after_first + state.code_delta(ch2)
                        state.undo(ch2)
                elif db != HOME and db in pcb:
                    continue
                else:
                    key = after_first - weight_cb[lb] + weight_cb[db]
                if key not in seen:
                    seen.add(key)
                    parts = (first, moves_cb[lb][rest])
                    out.append(_new(Move, (SPLIT, -1, -1, 0, -1, -1, parts, None)))
            if quiet_first:
                if da < TRACK_LEN:
                    occ[da] = -1
                if la < TRACK_LEN:
                    occ[la] = code_a
                pca[ia] = la
            else:
                state.undo(ch)
    return out


def _split_any(
    state: PawnState,
    movable: list[tuple[int, int]],
    parts: tuple[Move, ...],
    remaining: int,
    used: int,
    memo: set[tuple[tuple[tuple[int, ...], ...], int, int]],
    seen: set[int],
    out: list[Move],
    origin: int,
) -> None:
    """Team option ``team_seven_split=any``: every split of 7 among any number of pawns.
    Keys in ``seen`` are relative to the position's code ``origin``."""
    pawns = state.pawns
    for n, (c, i) in enumerate(movable):
        if used >> n & 1:
            continue
        loc = pawns[c][i]
        if loc >= HOME:
            continue
        for s in range(1, remaining + 1):
            if not parts and s == 7:
                continue  # a plain forward 7 is listed already
            dest = FWD[c][loc][s]
            if dest < 0 or not state.can_land(c, dest):
                continue
            ch: list[Change] = []
            state.place(c, i, dest, ch)
            now = (*parts, FORWARD_MOVES[c][loc][s])
            if s == remaining:
                key = state.code() - origin
                if key not in seen:
                    seen.add(key)
                    out.append(Move(SPLIT, parts=now))
            else:
                # Which pawn is which matters for `used`, so the memo keys raw locations.
                memo_key = (tuple(map(tuple, pawns)), used | 1 << n, remaining - s)
                if memo_key not in memo:
                    memo.add(memo_key)
                    _split_any(
                        state, movable, now, remaining - s, used | 1 << n, memo, seen, out, origin
                    )
            state.undo(ch)


# -- moves typed another way ---------------------------------------------------------------------
def matching_move(
    state: PawnState, rules: Rules, colour: int, card: int | None, move: Move, listed: list[Move]
) -> Move | None:
    """The move of ``listed`` (the legal moves of ``card`` for the player ``colour``) that ends
    like ``move``, or None. Lets people type a move another way than the list has it: a split
    7's halves in another order, a swap between partners (``team_swap_partner=yes``) from
    either side, a move left out of the list because another ends alike (Red 43-4 and Red
    58-4 both slide back to where they were; a swap whose slides end like the 11 forward).
    ``move`` must be playable with ``card`` on ``state`` as it stands; the listed moves are
    compared with it by the position they lead to."""
    trial = state.copy()
    if card is None or not _playable(trial, rules, colour, card, move, listed):
        return None
    key = trial.key()
    for m in listed:
        if m.card == move.card and m.kind not in (PASS, DISCARD):
            after = state.copy()
            after.apply(m, [])
            if after.key() == key:
                return m
    return None


def _playable(
    state: PawnState, rules: Rules, colour: int, card: int, move: Move, listed: list[Move]
) -> bool:
    """Whether ``move`` is a move of ``card`` for ``colour`` by the board alone (the listed
    moves say whether the Sorry! card's forward 4 is allowed); if so it is played on ``state``."""
    team = rules.book.movers[colour]
    pawns = state.pawns
    kind = move.kind
    if kind == SPLIT:
        return card == 7 and _split_playable(state, team, rules, move)
    c = move.colour
    if c not in team or move.src not in pawns[c]:
        return False
    if kind in (SWAP, SORRY_KIND):
        t = move.target_colour
        if not (0 <= t < 4 and t != c and move.target < TRACK_LEN and move.target in pawns[t]):
            return False
        if kind == SWAP:
            ok = card == 11 and move.src < TRACK_LEN and may_swap_with(rules, colour, c, t)
        else:
            ok = card == SORRY and move.src == START and sorry_may_take(rules, colour, c, t)
    elif (kind in (FORWARD, BACKWARD)) and move.src != START and move.src != HOME:
        if kind == FORWARD:
            sorry_4 = card == SORRY and any(m.kind == FORWARD for m in listed)
            steps = SORRY_FORWARD if sorry_4 else FORWARD_STEPS[card]
            dest = FWD[c][move.src][steps] if steps and move.steps == steps else -1
        else:  # with ten_backward=fallback, only when no forward move is listed
            steps = BACKWARD_STEPS[card]
            if rules.book.backward_fallback and any(m.kind == FORWARD for m in listed):
                steps = 0
            dest = BWD[c][move.src][steps] if steps and move.steps == steps else -1
        ok = dest >= 0 and state.can_land(c, dest)
    else:  # starts, passes and discards are listed as they are typed
        return False
    if ok:
        state.apply(move, [])
    return ok


def _split_playable(state: PawnState, team: tuple[int, ...], rules: Rules, move: Move) -> bool:
    """Whether each half of a split, played in order on ``state``, is a legal forward move on
    the board the halves before it left (and plays them)."""
    if len(move.parts) < 2 or sum(p.steps for p in move.parts) != 7:
        return False
    if len(move.parts) > 2 and not (rules.teams and rules.team_seven_split == "any"):
        return False
    used = set()
    for part in move.parts:
        c = part.colour
        if c not in team or part.src not in state.pawns[c] or part.src in (START, HOME):
            return False
        if part.kind != FORWARD or part.steps < 1:
            return False
        pawn = (c, state.pawns[c].index(part.src))  # the pawn itself, not its square
        if pawn in used:
            return False
        used.add(pawn)
        dest = FWD[c][part.src][part.steps]
        if dest < 0 or not state.can_land(c, dest):
            return False
        state.apply(part, [])
    return True
