"""Ratings: Weng-Lin (OpenSkill's Plackett-Luce model), per variant, for players and teams.

Why this system: a game of Sorry! has two to four players, or two teams of two, and a result
that is a ranking (the winner; in the points variant the scores order the others). Weng-Lin's
Bayesian approximation rates exactly that (several players, teams, ties) and keeps each
player's uncertainty σ beside the mean μ, like TrueSkill, without its patent. The model is
``openskill.models.PlackettLuce`` with its defaults (μ 25, σ 25/3, β 25/6, τ 25/300); nothing
of the rating arithmetic is written here.

**Bots hold fixed ratings** measured from the bot ladder (docs/strength.md): each rung's
heads-up win rate p gives a difference of means d = c·Φ⁻¹(p) with c = √2·β, the model's own
prediction of a win (``predict_win``; in teams a team's mean is the sum of its two players', so
d is halved), the rungs are fitted by weighted least squares (weights: the inverse variance of
Φ⁻¹ of a measured rate, games·φ(z)²/(p(1-p))), and ``medium`` is put at
μ = 25, where every newcomer starts. A bot's rating never changes; its σ is that of the fit.

**What is shown**: ``rating = round(60·μ)`` (a newcomer 1500) with ``± round(120·σ)`` (two
standard deviations). A rating is *provisional* while σ > 5 (about ten games heads-up): the
leaderboard lists those apart.

**Exactly once.** :func:`rate_game` first inserts the game's row into ``sorry_rated_games``
(primary key: the game) in the transaction that then reads, updates and records the ratings;
if the row is there already (another process, or an earlier call, rated this game) nothing
else happens. On PostgreSQL a second transaction inserting the same key waits for the first
and then finds the conflict; the rating rows are read ``FOR UPDATE`` in the order of their
account ids, so two games finishing at once for one player update it one after the other and
never lose an update, and never deadlock.

>>> r = bot_ratings("standard")
>>> r["random"].mu < r["easy"].mu < r["medium"].mu < r["hard"].mu < r["learned"].mu < r["expert"].mu
True
>>> display(25.0), display_interval(25 / 3)
(1500, 1000)
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from statistics import NormalDist
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from . import account_tables as t

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
DISPLAY_SCALE = 60.0
PROVISIONAL_SIGMA = 5.0
LEVELS = ("random", "easy", "medium", "hard", "learned", "expert")
ANCHOR = "medium"

#: The bot ladder, heads-up on paired deals (docs/strength.md, "The ladder"):
#: (stronger, weaker, wins of the stronger, games). A test compares it with the document.
LADDER: dict[str, tuple[tuple[str, str, int, int], ...]] = {
    "standard": (
        ("easy", "random", 1520, 2000),
        ("medium", "easy", 1130, 2000),
        ("hard", "medium", 1718, 3200),
        ("expert", "hard", 1163, 2000),
        ("expert", "medium", 1258, 2000),
        ("learned", "hard", 1108, 2000),
        ("learned", "medium", 1202, 2000),
        ("expert", "learned", 1032, 2000),
    ),
    "points": (
        ("easy", "random", 1984, 2000),
        ("medium", "easy", 1282, 2000),
        ("hard", "medium", 3162, 6000),
        ("expert", "hard", 1539, 2000),
        ("learned", "hard", 1046, 2000),
    ),
    "teams": (
        ("easy", "random", 1938, 2000),
        ("medium", "easy", 1342, 2000),
        ("hard", "medium", 1196, 2000),
        ("expert", "hard", 1348, 2000),
        ("learned", "hard", 1178, 2000),
    ),
}


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        return display(self.mu)

    @property
    def interval(self) -> int:
        return display_interval(self.sigma)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


def display(mu: float) -> int:
    return round(DISPLAY_SCALE * mu)


def display_interval(sigma: float) -> int:
    """Two standard deviations, on the shown scale."""
    return round(2 * DISPLAY_SCALE * sigma)


def new_rating() -> Rating:
    return Rating(MU, SIGMA)


@cache
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a few unknowns)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


@cache
def bot_ratings(variant: str) -> dict[str, Rating]:
    """Each level's fixed rating in ``variant`` (a :class:`KeyError` for an unknown one)."""
    rows = LADDER[variant]
    per_team = 2 if variant == "teams" else 1
    c = math.sqrt(2) * BETA
    free = [lv for lv in LEVELS if lv != ANCHOR]
    idx = {lv: i for i, lv in enumerate(free)}
    k = len(free)
    ata = [[0.0] * k for _ in range(k)]
    atb = [0.0] * k
    for strong, weak, wins, games in rows:
        p = wins / games
        z = NormalDist().inv_cdf(p)
        d = c * z / per_team
        w = games * NormalDist().pdf(z) ** 2 / (p * (1 - p))  # inverse variance of z
        coeffs = {strong: 1.0, weak: -1.0}
        rhs = d - sum(v * MU for lv, v in coeffs.items() if lv == ANCHOR)
        for li, vi in coeffs.items():
            if li == ANCHOR:
                continue
            for lj, vj in coeffs.items():
                if lj != ANCHOR:
                    ata[idx[li]][idx[lj]] += w * vi * vj
            atb[idx[li]] += w * vi * rhs
    mus = _solve(ata, atb)
    # σ of a level: about the standard error of its fitted mean (the information matrix's
    # diagonal, in units of c): small, since every rung has thousands of games.
    sigma_of = {lv: c / per_team / math.sqrt(ata[idx[lv]][idx[lv]]) for lv in free}
    out = {ANCHOR: Rating(MU, min(sigma_of.values()))}
    for lv in free:
        out[lv] = Rating(mus[idx[lv]], sigma_of[lv])
    return {lv: out[lv] for lv in LEVELS}


def predicted_win(variant: str, first: Sequence[Rating], second: Sequence[Rating]) -> float:
    """The model's chance that team ``first`` finishes ahead of ``second``."""
    m = _model()
    a = [m.rating(mu=r.mu, sigma=r.sigma) for r in first]
    b = [m.rating(mu=r.mu, sigma=r.sigma) for r in second]
    return float(m.predict_win([a, b])[0])


@dataclass(frozen=True)
class Entry:
    """One seat of a finished game for the rating: an account (``account_id``) or a bot
    (``level``), its colour, and the side it played on (its partnership in teams, else its
    colour)."""

    colour: int
    side: int
    account_id: int | None = None
    level: str | None = None


def game_ranks(
    colours: Sequence[int],
    winners: Sequence[int],
    scores: dict[int, int] | None,
    teams: bool,
    resigned: Sequence[int] = (),
) -> dict[int, int] | None:
    """Each colour's rank (1 best, equal ranks tie) in a finished game, or None when nobody won
    (a game stopped at the turn limit is not rated). The winner (in teams: the winning
    partnership) ranks first; in the points variant the others follow by their scores; else
    they tie. Those who ``resigned`` (in order) rank last, the first to resign lowest (a
    resignation counts as a loss; docs/rules.md, Resigning).

    >>> game_ranks([0, 1, 2], [1], None, False)
    {0: 2, 1: 1, 2: 2}
    >>> game_ranks([0, 1, 2], [1], {0: 5, 1: 9, 2: 7}, False)
    {0: 3, 1: 1, 2: 2}
    >>> sorted(game_ranks([0, 1, 2, 3], [2], None, False, resigned=[3, 0]).items())
    [(0, 3), (1, 2), (2, 1), (3, 4)]
    """
    if not winners:
        return None
    out = [c for c in resigned if c not in winners and not teams]
    if out:
        kept = game_ranks([c for c in colours if c not in out], winners, scores, teams) or {}
        below = len(colours) - len(out)
        for i, c in enumerate(reversed(out)):
            kept[c] = below + i + 1
        return kept
    if teams:
        from ..rulebook import partner

        won = {winners[0], partner(winners[0])}
        return {c: 1 if c in won else 2 for c in colours}
    if scores is None:
        return {c: 1 if c == winners[0] else 2 for c in colours}
    order = sorted(colours, key=lambda c: (c != winners[0], -scores.get(c, 0)))
    ranks: dict[int, int] = {}
    for i, c in enumerate(order):
        prev = order[i - 1] if i else None
        same = prev is not None and prev != winners[0] and scores.get(prev, 0) == scores.get(c, 0)
        ranks[c] = ranks[prev] if same and prev is not None else i + 1
    return {c: ranks[c] for c in colours}


def update(
    variant: str, entries: Sequence[Entry], ranks: dict[int, int], current: dict[int, Rating]
) -> dict[int, Rating]:
    """The new rating of each account in ``entries`` after a game with these ranks (by
    colour); ``current`` holds the accounts' ratings before it. Bots keep theirs."""
    bots = bot_ratings(variant)
    m = _model()
    sides: dict[int, list[Entry]] = {}
    for e in entries:
        sides.setdefault(e.side, []).append(e)
    order = sorted(sides)
    teams = []
    team_ranks = []
    for s in order:
        members = []
        for e in sides[s]:
            r = current[e.account_id] if e.account_id is not None else bots[e.level or ANCHOR]
            members.append(m.rating(mu=r.mu, sigma=r.sigma))
        teams.append(members)
        team_ranks.append(min(ranks[e.colour] for e in sides[s]))
    rated = m.rate(teams, ranks=team_ranks)
    out: dict[int, Rating] = {}
    for s, new in zip(order, rated, strict=True):
        for e, r in zip(sides[s], new, strict=True):
            if e.account_id is not None:
                out[e.account_id] = Rating(float(r.mu), float(r.sigma))
    return out


@dataclass(frozen=True)
class Change:
    account_id: int
    colour: int
    rank: int
    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        return display(self.after.mu) - display(self.before.mu)


def _insert_ignore(conn: Connection, table: sa.Table, rows: list[dict[str, Any]]) -> int:
    """INSERT, skipping rows whose key exists; the number inserted (counted by RETURNING: a
    driver's row count is not always given for these)."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        stmt: Any = pg_insert(table).on_conflict_do_nothing()
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        stmt = sqlite_insert(table).on_conflict_do_nothing()
    key = next(iter(table.primary_key.columns))
    return sum(len(conn.execute(stmt.returning(key), row).all()) for row in rows)


def rate_game(
    conn: Connection,
    game_id: str,
    variant: str,
    entries: Sequence[Entry],
    ranks: dict[int, int],
    now: float | None = None,
) -> list[Change] | None:
    """Update the ratings of the accounts of one finished game, once: inside the caller's
    transaction. None when the game was rated already (nothing is written)."""
    at = time.time() if now is None else now
    marker = {"game_id": game_id, "variant": variant, "rated_at": at}
    if not _insert_ignore(conn, t.rated_games, [marker]):
        return None
    people = sorted({e.account_id for e in entries if e.account_id is not None})
    if not people:
        return []
    _insert_ignore(
        conn,
        t.ratings,
        [
            {"account_id": a, "variant": variant, "mu": MU, "sigma": SIGMA}
            | {"games": 0, "updated_at": at}
            for a in people
        ],
    )
    q = (
        sa.select(t.ratings.c.account_id, t.ratings.c.mu, t.ratings.c.sigma)
        .where(t.ratings.c.variant == variant, t.ratings.c.account_id.in_(people))
        .order_by(t.ratings.c.account_id)
    )
    if conn.dialect.name == "postgresql":
        q = q.with_for_update()
    current = {row.account_id: Rating(row.mu, row.sigma) for row in conn.execute(q)}
    new = update(variant, entries, ranks, current)
    changes: list[Change] = []
    for e in entries:
        if e.account_id is None:
            continue
        a = e.account_id
        conn.execute(
            t.ratings.update()
            .where(t.ratings.c.account_id == a, t.ratings.c.variant == variant)
            .values(mu=new[a].mu, sigma=new[a].sigma, games=t.ratings.c.games + 1, updated_at=at)
        )
        changes.append(Change(a, e.colour, ranks[e.colour], current[a], new[a]))
    conn.execute(
        t.rating_changes.insert(),
        [
            {
                "game_id": game_id,
                "account_id": c.account_id,
                "variant": variant,
                "colour": c.colour,
                "rank": c.rank,
                "mu_before": c.before.mu,
                "sigma_before": c.before.sigma,
                "mu_after": c.after.mu,
                "sigma_after": c.after.sigma,
                "at": at,
            }
            for c in changes
        ],
    )
    return changes
