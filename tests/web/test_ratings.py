"""Ratings (sorry.web.ratings): the bots' fixed ratings reproduce the ladder of docs/strength.md,
a game's ranks, the update of players and teams, and the update of one game happening exactly
once: called twice, from threads at once, and from two processes on one PostgreSQL."""

from __future__ import annotations

import multiprocessing
import re
import threading
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from sorry.web import account_tables as t
from sorry.web.ratings import (
    LADDER,
    LEVELS,
    MU,
    SIGMA,
    Entry,
    Rating,
    bot_ratings,
    game_ranks,
    predicted_win,
    rate_game,
    update,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "strength.md"


def ladder_rows_of_the_doc() -> dict[str, list[tuple[str, str, int, float]]]:
    text = DOCS.read_text().split("## The ladder", 1)[1].split("\n### ", 1)[0]
    rows: dict[str, list[tuple[str, str, int, float]]] = {}
    for line in text.splitlines():
        cells = [c.strip().strip("*") for c in line.strip("|").split("|")]
        if len(cells) < 5 or cells[0] not in LADDER:
            continue
        strong, weak = cells[1].split(" vs ")
        games = int(cells[2].replace(",", ""))
        rate = float(re.sub(r"[^0-9.]", "", cells[3].split("%")[0]))
        rows.setdefault(cells[0], []).append((strong, weak, games, rate))
    return rows


def test_the_ladder_is_the_one_of_docs_strength() -> None:
    doc = ladder_rows_of_the_doc()
    assert set(doc) == set(LADDER)
    for variant, rows in LADDER.items():
        assert [(s, w, g) for s, w, _k, g in rows] == [r[:3] for r in doc[variant]]
        for (_s, _w, k, g), (*_, rate) in zip(rows, doc[variant], strict=True):
            assert abs(100 * k / g - rate) <= 0.05 + 1e-9, (variant, k, g, rate)


@pytest.mark.parametrize("variant", sorted(LADDER))
def test_bot_ratings_predict_the_measured_win_rates(variant: str) -> None:
    bots = bot_ratings(variant)
    assert list(bots) == list(LEVELS)
    assert bots["medium"].mu == MU  # where a newcomer starts
    assert [bots[lv].mu for lv in LEVELS] == sorted(bots[lv].mu for lv in LEVELS)
    n = 2 if variant == "teams" else 1
    for strong, weak, wins, games in LADDER[variant]:
        measured = wins / games
        predicted = predicted_win(variant, [bots[strong]] * n, [bots[weak]] * n)
        # within the measurement's own standard error, twice over (the fit is over-determined
        # in standard, where expert is measured against hard and medium)
        se = (measured * (1 - measured) / games) ** 0.5
        assert abs(predicted - measured) < 2 * se + 0.002, (strong, weak, predicted, measured)
    assert all(r.sigma < 1 for r in bots.values())


def test_ranks_of_a_finished_game() -> None:
    assert game_ranks([0, 2], [2], None, False) == {0: 2, 2: 1}
    assert game_ranks([0, 1, 2, 3], [3], None, True) == {0: 2, 1: 1, 2: 2, 3: 1}
    # points: the winner first, the others by score, equal scores tie
    assert game_ranks([0, 1, 2, 3], [2], {0: 4, 1: 4, 2: 3, 3: 9}, False) == {
        0: 3,
        1: 3,
        2: 1,
        3: 2,
    }
    assert game_ranks([0, 1], [], None, False) is None  # the turn limit: not rated


def test_a_win_raises_the_winner_lowers_the_loser_and_narrows_both() -> None:
    new = update(
        "standard",
        [Entry(0, 0, account_id=1), Entry(2, 2, account_id=2)],
        {0: 1, 2: 2},
        {1: Rating(MU, SIGMA), 2: Rating(MU, SIGMA)},
    )
    assert new[1].mu > MU > new[2].mu
    assert new[1].sigma < SIGMA and new[2].sigma < SIGMA


def test_beating_a_stronger_bot_gains_more_than_beating_a_weaker_one() -> None:
    me = {1: Rating(MU, SIGMA)}

    def gain(level: str) -> float:
        new = update("standard", [Entry(0, 0, 1), Entry(2, 2, level=level)], {0: 1, 2: 2}, me)
        return new[1].mu - MU

    assert gain("expert") > gain("medium") > gain("random") > 0


def test_teams_move_both_partners_the_same_way() -> None:
    cur = {a: Rating(MU, SIGMA) for a in (1, 2, 3)}
    entries = [
        Entry(0, 0, account_id=1),
        Entry(2, 0, account_id=2),
        Entry(1, 1, account_id=3),
        Entry(3, 1, level="hard"),
    ]
    new = update("teams", entries, {0: 1, 2: 1, 1: 2, 3: 2}, cur)
    assert set(new) == {1, 2, 3}
    assert new[1].mu > MU and new[2].mu > MU and new[3].mu < MU


# -- exactly once -------------------------------------------------------------------------
def _engine(url: str) -> sa.Engine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    engine = sa.create_engine(url)
    t.metadata.create_all(engine)
    return engine


def _accounts(engine: sa.Engine, n: int) -> list[int]:
    with engine.begin() as conn:
        ids = []
        for i in range(n):
            r = conn.execute(
                t.accounts.insert().values(name=f"p{i}", name_key=f"p{i}", created_at=0.0)
            )
            assert r.inserted_primary_key is not None
            ids.append(int(r.inserted_primary_key[0]))
    return ids


def _rate(engine: sa.Engine, game: str, a: int, b: int) -> Any:
    with engine.begin() as conn:
        return rate_game(
            conn, game, "standard", [Entry(0, 0, a), Entry(2, 2, b)], {0: 1, 2: 2}, now=1.0
        )


def _state(engine: sa.Engine) -> tuple[list[Any], int, int]:
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(t.ratings.c.account_id, t.ratings.c.mu, t.ratings.c.games).order_by(
                t.ratings.c.account_id
            )
        ).all()
        changes = conn.execute(sa.select(sa.func.count()).select_from(t.rating_changes))
        rated = conn.execute(sa.select(sa.func.count()).select_from(t.rated_games))
        return [tuple(r) for r in rows], int(changes.scalar_one()), int(rated.scalar_one())


def test_rating_a_game_twice_changes_nothing_the_second_time(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    a, b = _accounts(engine, 2)
    first = _rate(engine, "g1", a, b)
    assert first is not None and [c.delta > 0 for c in first] == [True, False]
    before = _state(engine)
    assert _rate(engine, "g1", a, b) is None
    assert _state(engine) == before
    assert before[0][0][2] == 1 and before[1:] == (2, 1)


def _race(engine: sa.Engine, games: list[str], a: int, b: int, threads: int) -> None:
    barrier = threading.Barrier(threads)
    errors: list[BaseException] = []

    def run() -> None:
        barrier.wait()
        try:
            for g in games:
                _rate(engine, g, a, b)
        except BaseException as exc:  # reported below
            errors.append(exc)

    ts = [threading.Thread(target=run) for _ in range(threads)]
    for th in ts:
        th.start()
    for th in ts:
        th.join(60)
    assert not errors, errors


def test_threads_rating_the_same_games_on_postgresql_rate_each_once(postgres_url: str) -> None:
    engine = _engine(postgres_url)
    a, b = _accounts(engine, 2)
    games = [f"g{i}" for i in range(12)]
    _race(engine, games, a, b, threads=4)
    rows, changes, rated = _state(engine)
    assert rated == 12 and changes == 24
    assert [r[2] for r in rows] == [12, 12]  # every game counted once for each player
    # each thread takes the games in order, so game i is committed before game i+1 starts:
    # the same updates done alone give the same ratings (no update was lost or doubled)
    with engine.begin() as conn:
        for tab in reversed(t.metadata.sorted_tables):
            conn.execute(tab.delete())
    a2, b2 = _accounts(engine, 2)
    for g in games:
        _rate(engine, g, a2, b2)
    assert [round(r[1], 9) for r in _state(engine)[0]] == [round(r[1], 9) for r in rows]


def _process_rates(url: str, games: list[str], a: int, b: int, start: Any) -> None:
    engine = _engine(url)
    start.wait(30)
    for g in games:
        _rate(engine, g, a, b)


def test_two_processes_finishing_the_same_games_on_postgresql(postgres_url: str) -> None:
    engine = _engine(postgres_url)
    a, b = _accounts(engine, 2)
    games = [f"h{i}" for i in range(10)]
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Barrier(2)
    procs = [
        ctx.Process(target=_process_rates, args=(postgres_url, games, a, b, start))
        for _ in range(2)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    rows, changes, rated = _state(engine)
    assert rated == 10 and changes == 20 and [r[2] for r in rows] == [10, 10]
