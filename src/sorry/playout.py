"""Fast complete games for simulation and search: the same rules as :class:`sorry.game.Game`
(the same move generator and the same board code), without the bookkeeping a game object
keeps for people (undo records, legality checks of pushed moves, views).

A playout with a seed plays exactly the game that ``Game(rules, players, seed)`` driven by
:func:`random_choice_loop` plays (a test checks it move for move).

>>> from sorry.rules import Rules
>>> winners, turns = random_game(Rules(), players=4, seed=1)
>>> winners, turns > 100
((2,), True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .board import BACKWARD as BWD
from .board import FORWARD as FWD
from .board import HOME, START, START_EXIT, TRACK_LEN
from .cards import SORRY, deck_cards
from .movegen import BACKWARD_STEPS, FORWARD_STEPS, card_moves
from .moves import FORWARD, PASS_MOVE, Move
from .rng import MASK64, Rng
from .rules import Rules
from .state import Change, PawnState

#: FWD_BY_STEPS[colour][n][location] and BWD_BY_STEPS[colour][n][location]: the board tables
#: indexed by the step count first, so a turn looks one row up once.
FWD_BY_STEPS = tuple(tuple(tuple(FWD[c][loc][n] for loc in range(67)) for n in range(13))
                     for c in range(4))
BWD_BY_STEPS = tuple(tuple(tuple(BWD[c][loc][n] for loc in range(67)) for n in range(5))
                     for c in range(4))

#: A policy: given the state, the player, the card and the listed moves, the index of the choice.
Policy = Callable[[PawnState, int, int, list[Move]], int]

DEFAULT_COLOURS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


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


def play(
    rules: Rules,
    players: int | Sequence[int],
    seed: int,
    policy: Policy | None,
    choice_seed: int = 0,
) -> tuple[tuple[int, ...], int]:
    """Play a whole standard or team game with ``policy`` choosing every move (``None``:
    uniformly at random with ``Rng(choice_seed)``, inlined because it is the hot loop of
    simulations)."""
    if rules.points:
        raise ValueError("playouts cover the standard and team games; use Game for points")
    colours = DEFAULT_COLOURS[players] if isinstance(players, int) else tuple(sorted(players))
    rng = Rng(seed)
    mover = colours[rng.below(len(colours))]
    out = 1 if rules.starting_pawns_out else 0
    pawns: list[tuple[int, ...] | None] = [None] * 4
    for c in colours:
        pawns[c] = (START,) * (4 - out) + (START_EXIT[c],) * out
    state = PawnState(tuple(pawns), rules.slide_on, rules.swap_slides)
    draw = deck_cards(rules.deck)
    rng.shuffle(draw)
    discard: list[int] = []
    nxt = {c: colours[(k + 1) % len(colours)] for k, c in enumerate(colours)}
    teams = rules.teams
    again_on_two = rules.two_draws_again
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
        if policy is None and card != 7 and (card != SORRY or plain_sorry) and (
            card != 11 or plain_swaps
        ):
            # The common cases, inlined: the same candidates in the same order as
            # movegen.card_moves, kept as (colour, index, landing square) for a pawn that
            # moves, (colour, index, other colour, other index) for a swap, None for a pass.
            # Candidates are ints: (pawn code << 8 | landing square) for a pawn that moves,
            # (pawn code << 8 | 64 + other pawn's code) for a swap, -1 for a pass; the pawn
            # code is colour * 4 + index, as in PawnState.occ.
            cand: list[int] = []
            slides = 0
            cols = (mover, (mover + 2) % 4) if teams else (mover,)
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
                if card <= 2:
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
                if card == 11:
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
            if n:
                if n == 1:
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
                partner = (mover + 2) % 4
                if state_pawns[partner].count(HOME) == 4:
                    return (mover, partner), turn
            if card != 2 or not again_on_two:
                mover = nxt[mover]
            continue
        moves = card_moves(state, rules, mover, card)
        if not moves or (card == 11 and not any(m.kind == FORWARD for m in moves)):
            moves.append(PASS_MOVE)
        n = len(moves)
        if n == 1:
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
            partner = (mover + 2) % 4
            if state_pawns[partner].count(HOME) == 4:
                return (mover, partner), turn
        if card != 2 or not again_on_two:
            mover = nxt[mover]
    return (), turn
