"""The compiled ``medium`` bot: the hand-tuned evaluation of :mod:`sorry.bots.evaluate` and the
greedy choice of :class:`sorry.bots.levels.MediumBot`, on the kernel's state.

They compute what the Python code computes, term by term and in the same order, so a game
played by the compiled medium bot is the game the Python bot plays
(``tests/test_fast_policy.py`` compares whole games). Used by the search's rollouts
(:mod:`sorry.fast._search`) and by ``simulate(policy="medium")``.

The evaluation's inputs besides the state:

- ``hitm`` int64[4, 60, 10]: the track squares (a bit mask) a pawn of colour c on square q can
  bump with each card kind of ``tuning.BUMP_STEPS`` (``evaluate.hit_table`` as masks);
- ``E`` float64[E_LEN]: the probability of each card face (``E[card]``, the threat terms) and
  the weights (``E_SAFE`` ...);
- ``team``: the colour whose side is valued (its partner too in teams);
- ``Z`` int64[Z_LEN]: scratch (the threat masks of each attacker).

The bot reads them from the :class:`~sorry.fast._kernel.Book` (``hitm``, ``E``, the colours) and
its scratch from the :class:`~sorry.fast._kernel.Work` (``vals``, ``X``, ``Z``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import tuning
from ..compiled.arrays import (  # the arrays' layouts and builders (numpy only)
    E_EXIT_BLOCK as E_EXIT_BLOCK,
    E_HAND as E_HAND,
    E_HAND_WEIGHT as E_HAND_WEIGHT,
    E_HOME as E_HOME,
    E_LEN as E_LEN,
    E_RESERVE as E_RESERVE,
    E_SAFE as E_SAFE,
    E_SCALE as E_SCALE,
    E_SORRY_SHARE as E_SORRY_SHARE,
    E_THREAT as E_THREAT,
    NKINDS as NKINDS,
    eval_params as eval_params,
    hit_masks as hit_masks,
)
from . import _kernel as K
from ._kernel import Book, Floats, Ints, Moves, State, Streams, Work, ijit, jit

TRACK = K.TRACK
HOME = K.HOME
START = K.START
SAFE_BASE = 59
WIN = tuning.WIN
#: the cards of tuning.BUMP_STEPS, in its order (NKINDS of them)
BUMP_CARDS = np.array([card for card, _f, _b in tuning.BUMP_STEPS], dtype=np.int64)

# -- the float parameters E: sorry.compiled.arrays (E_SAFE ... E_LEN)

Z_LEN = K.Z_LEN  # scratch: threat masks Z[10a + k] per attacker a, in-START flags Z[40 + c]

#: KEEP_VALUE of the levels (what a card is worth keeping), by face, as floats
KEEP = np.array([K.KEEP2[c] / 2.0 for c in range(14)], dtype=np.float64)


@ijit
def in_team(c: int, team: int, teams: bool) -> bool:
    return c == team or (teams and c == K.PARTNER[team])


@ijit
def has_start(S: State, c: int) -> bool:
    b = 4 * c
    return bool(S[b] == START or S[b + 1] == START or S[b + 2] == START or S[b + 3] == START)


@jit
def evaluate(
    S: State, cols: Ints, ncols: int, team: int, teams: bool, hitm: Ints, E: Floats, Z: Ints
) -> float:
    """evaluate.evaluate(state, colours, team, probs, slide_on, teams, weights, hand)."""
    for k in range(ncols):
        c = cols[k]
        if K.won(S, c, teams):
            return WIN if in_team(c, team, teams) else -WIN
    # threat masks of every colour in play (evaluate.threat_maps, as masks per card kind)
    for k in range(ncols):
        a = cols[k]
        b = 4 * a
        for kk in range(NKINDS):
            m = np.int64(0)
            for i in range(4):
                y = S[b + i]
                if y < TRACK:
                    m |= hitm[a, y, kk]
            Z[10 * a + kk] = m
        Z[40 + a] = np.int64(has_start(S, a))
        if Z[40 + a]:
            ex = np.int64(1) << K.EXIT[a]
            Z[10 * a] |= ex
            Z[10 * a + 1] |= ex
    p_sorry = E[K.SORRY] * E[E_SORRY_SHARE]
    hand = E[E_HAND]
    threat = E[E_THREAT]
    mine = 0.0
    opp_sum = 0.0  # the opposing groups: each colour, or each team of two
    opp_max = -1e300
    ngroups = 0
    group_val = 0.0
    group_n = 0
    for k in range(ncols):
        c = cols[k]
        partner = K.PARTNER[c] if teams else c
        sorry_risk = 0.0
        for ka in range(ncols):
            a = cols[ka]
            if a != c and a != partner and Z[40 + a]:
                sorry_risk = p_sorry
        b = 4 * c
        v = 0.0
        for i in range(4):
            loc = S[b + i]
            if loc == START:
                continue
            if loc == HOME:
                v += 65.0 + E[E_HOME]
            elif loc > SAFE_BASE:
                v += K.PROGRESS[c, loc] + E[E_SAFE]
            else:
                g = K.PROGRESS[c, loc]
                risk = sorry_risk
                for ka in range(ncols):
                    a = cols[ka]
                    if a == c or a == partner:  # noqa: SIM109 (compiled code)
                        continue
                    ma = 0.0
                    for kk in range(NKINDS):
                        p = E[BUMP_CARDS[kk]]
                        if p != 0.0 and (Z[10 * a + kk] >> loc) & 1:
                            ma += p
                    risk += ma
                if risk > 1.0:
                    risk = 1.0
                if hand > 1.0:
                    risk = 1.0 - (1.0 - risk) ** hand
                v += g - threat * risk * g
        if Z[40 + c]:
            targets = False
            for ka in range(ncols):
                a = cols[ka]
                if a == c or a == partner:  # noqa: SIM109 (compiled code)
                    continue
                ba = 4 * a
                for i in range(4):
                    if S[ba + i] < TRACK:
                        targets = True
            if targets:
                v += E[E_RESERVE]
            ex = K.EXIT[c]
            if S[b] == ex or S[b + 1] == ex or S[b + 2] == ex or S[b + 3] == ex:
                v -= E[E_EXIT_BLOCK]
        if in_team(c, team, teams):
            mine += v
        elif not teams:
            opp_sum += v
            opp_max = max(opp_max, v)
            ngroups += 1
        else:  # the opposing team: its two colours make one group
            group_val += v
            group_n += 1
    if teams and group_n:
        opp_sum = 0.0 + group_val
        opp_max = group_val
        ngroups = 1
    if ngroups == 0:
        return mine
    return mine - 0.5 * (opp_sum / ngroups) - 0.5 * opp_max


@jit
def team_progress_gain(S: State, X: State, cols: Ints, ncols: int, team: int, teams: bool) -> Any:
    """(team progress - opponents' progress) in X minus the same in S (levels.hand_potential)."""
    d = np.int64(0)
    for k in range(ncols):
        c = cols[k]
        b = 4 * c
        s = np.int64(0)
        for i in range(4):
            s += K.PROGRESS[c, X[b + i]] - K.PROGRESS[c, S[b + i]]
        d += s if in_team(c, team, teams) else -s
    return d


@jit
def hand_potential(
    S: State, B: Book, M: Work, colour: int, hand: Ints, skip: int, n0: int, X: State
) -> float:
    """levels.hand_potential: what the kept cards (``hand`` counts per card slot, one card of
    slot ``skip`` played) could do next turn: the best progress gain of any of their moves,
    plus 0.2 of each kept kind's keep value. Moves are listed in M.mv[n0:] (scratch)."""
    P = B.P
    slide = B.slide
    mv = M.mv
    cols = B.cols
    ncols = cols.shape[0]
    teams = P[K.P_TEAMS] != 0
    best = np.int64(0)
    keep = 0.0
    for s in range(11):
        held = hand[s] - (1 if s == skip else 0)
        if held <= 0:
            continue
        card = K.CARD_KINDS[s]
        keep += KEEP[card]
        n1 = K.gen_card_call(S, slide, P, colour, card, mv, n0, M.keys, M.W, M.buf)
        for m in range(n0, n1):
            K.copy_into(X, S)
            K.apply_move(X, slide, P, mv, m)
            g = team_progress_gain(S, X, cols, ncols, colour, teams)
            if g > best:
                best = g
    return best + 0.2 * keep


@jit
def discard_pick(mv: Moves, n: int, rng: Streams, stream: int) -> Any:
    """levels.discard_choice: the card least worth keeping, ties drawn from the stream."""
    best = np.int64(-100000)
    for m in range(n):
        v = -K.KEEP2[mv[m, K.M_CARD]]
        if v > best:
            best = v
    top = 0
    for m in range(n):
        if -K.KEEP2[mv[m, K.M_CARD]] == best:
            top += 1
    pick = K.below(rng, stream, top) if top > 1 else np.int64(0)
    for m in range(n):
        if -K.KEEP2[mv[m, K.M_CARD]] == best:
            if pick == 0:
                return np.int64(m)
            pick -= 1
    return np.int64(0)


@jit
def medium(
    S: State, B: Book, M: Work, colour: int, n: int, rng: Streams, stream: int, hand: Ints
) -> Any:
    """MediumBot.choose: the index of the chosen move among mv[:n]. Ties (within 1e-9) are
    drawn from ``rng[stream]`` as the Python bot draws from its generator; a single legal move
    is played without drawing. ``hand``: the mover's hand (points), counts per card slot;
    the moves are M.mv[:n], their values go to M.vals (M.X and M.Z: scratch)."""
    P = B.P
    slide = B.slide
    mv = M.mv
    vals = M.vals
    X = M.X
    cols = B.cols
    ncols = cols.shape[0]
    E = B.E
    if n == 1:
        return np.int64(0)
    plays = 0
    for m in range(n):
        if mv[m, K.M_KIND] != K.K_DISCARD:
            plays += 1
    if plays == 0:
        return discard_pick(mv, n, rng, stream)
    teams = P[K.P_TEAMS] != 0
    points = P[K.P_POINTS] != 0
    hw = E[E_HAND_WEIGHT]
    best = -1e300
    for m in range(n):
        if mv[m, K.M_KIND] == K.K_DISCARD:
            continue
        after = X[0]
        K.copy_into(after, S)
        K.apply_move(after, slide, P, mv, m)
        v = evaluate(after, cols, ncols, colour, teams, B.hitm, E, M.Z)
        if points and hw != 0.0 and mv[m, K.M_KIND] != K.K_PASS:
            slot = K.CARD_SLOT[mv[m, K.M_CARD]]
            pot = hand_potential(after, B, M, colour, hand, slot, n, X[1])
            v += hw * pot
        vals[m] = v
        if v > best:
            best = v
    top = 0
    for m in range(n):
        if mv[m, K.M_KIND] != K.K_DISCARD and vals[m] >= best - 1e-9:
            top += 1
    pick = K.below(rng, stream, top) if top > 1 else np.int64(0)
    for m in range(n):
        if mv[m, K.M_KIND] != K.K_DISCARD and vals[m] >= best - 1e-9:
            if pick == 0:
                return np.int64(m)
            pick -= 1
    return np.int64(0)
