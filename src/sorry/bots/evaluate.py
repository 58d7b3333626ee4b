"""A hand-tuned evaluation of a position for one team (the ``medium`` level and the leaves of
the searching levels).

For each colour: progress of its pawns (START 0 … HOME 65), a bonus for pawns safe in the
Safety Zone or HOME, a penalty for each pawn on the track proportional to the chance that an
opponent's next card can bump it times the progress it would lose (threats *to* the colour),
and a small bonus for keeping a pawn in START while opponents are on the track (a Sorry! in
reserve). Threats *from* the colour are the opponents' penalties. A team's value is the sum of
its colours; the position's value is the team's value minus the opponents' (the mean and the
best opposing team, averaged).
"""

from __future__ import annotations

from ..board import HOME, SAFE_BASE, START, START_EXIT, TRACK_LEN
from ..cards import SORRY, Card
from ..rulebook import PARTNER, PROGRESS
from ..state import PawnState
from ..tuning import (  # the numbers the compiled bots share
    BUMP_STEPS as BUMP_STEPS,
    DEFAULT_WEIGHTS as DEFAULT_WEIGHTS,
    WIN as WIN,
    Weights as Weights,
    hit_table as hit_table,
)


def threat_maps(
    state: PawnState, colours: tuple[int, ...], probs: dict[Card, float], slide_on: str
) -> list[list[float] | None]:
    """For each attacking colour: the probability, per track square, that its next card lets
    it bump a pawn standing there (Sorry! excluded: see :func:`evaluate`)."""
    hits = hit_table(slide_on)
    pk = [probs.get(card, 0.0) for card, _f, _b in BUMP_STEPS]
    out: list[list[float] | None] = [None, None, None, None]
    for a in colours:
        pawns = state.pawns[a]
        m = [0.0] * TRACK_LEN
        hit_a = hits[a]
        covered: list[set[int]] = [set() for _ in pk]
        for y in pawns:
            if y < TRACK_LEN:
                row = hit_a[y]
                for k in range(len(pk)):
                    covered[k].update(row[k])
        if START in pawns:  # a 1 or 2 starts a pawn onto the exit
            ex = START_EXIT[a]
            covered[0].add(ex)
            covered[1].add(ex)
        for k, sqs in enumerate(covered):
            p = pk[k]
            if p:
                for sq in sqs:
                    m[sq] += p
        out[a] = m
    return out


def evaluate(
    state: PawnState,
    colours: tuple[int, ...],
    team: tuple[int, ...],
    probs: dict[Card, float],
    slide_on: str,
    teams: bool = False,
    weights: Weights = DEFAULT_WEIGHTS,
    hand: int = 1,
) -> float:
    """The value of ``state`` for ``team`` (higher is better). ``hand`` is how many cards an
    attacker chooses from (5 in the points variant: a threat is then far likelier)."""
    pawns = state.pawns
    # A finished team decides everything.
    for c in colours:
        partner = PARTNER[c] if teams else c
        if all(x == HOME for x in pawns[c]) and all(x == HOME for x in pawns[partner]):
            return WIN if c in team else -WIN
    maps = threat_maps(state, colours, probs, slide_on)
    p_sorry = probs.get(SORRY, 0.0) * weights.sorry_share
    values: dict[int, float] = {}
    in_start = {c: START in pawns[c] for c in colours}
    for c in colours:
        partner = PARTNER[c] if teams else c
        attackers = [a for a in colours if a != c and a != partner]
        sorry_risk = p_sorry if any(in_start[a] for a in attackers) else 0.0
        prog = PROGRESS[c]
        v = 0.0
        targets = False
        for loc in pawns[c]:
            if loc == START:
                continue
            if loc == HOME:
                v += 65.0 + weights.home_bonus
            elif loc > SAFE_BASE:
                v += prog[loc] + weights.safe_bonus
            else:
                g = prog[loc]
                risk = sorry_risk
                for a in attackers:
                    ma = maps[a]
                    assert ma is not None
                    risk += ma[loc]
                if risk > 1.0:
                    risk = 1.0
                if hand > 1:
                    risk = 1.0 - (1.0 - risk) ** hand
                v += g - weights.threat * risk * g
        if in_start[c]:
            for a in attackers:
                if any(y < TRACK_LEN for y in pawns[a]):
                    targets = True
                    break
            if targets:
                v += weights.start_reserve
            if START_EXIT[c] in pawns[c]:
                v -= weights.exit_block
        values[c] = v
    mine = sum(values[c] for c in team if c in values)
    groups: dict[int, float] = {}
    for c in colours:
        if c in team:
            continue
        key = min(c, PARTNER[c]) if teams else c
        groups[key] = groups.get(key, 0.0) + values[c]
    if not groups:
        return mine
    opp = list(groups.values())
    return mine - 0.5 * (sum(opp) / len(opp)) - 0.5 * max(opp)
