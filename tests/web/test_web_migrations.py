"""The schema's migrations (Alembic, sorry.web.migrations): a database written by the server
before it used Alembic (``tests/data/server-before-migrations.sql``: two finished standard
games and two unfinished points games with a room and a timer, dumped from a server of
2026-12-05 whose ``sorry_schema`` counted five hand-written migrations) is upgraded on start-up
on SQLite and on PostgreSQL, every game, seat and move kept, and its games go on."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("alembic")

from starlette.testclient import TestClient

from server_helpers import fast_settings
from sorry.record import GameRecord, verify
from sorry.web import create_app
from sorry.web.db import Database, restore_game
from sorry.web.migrations import FOLDER, HEAD

DUMP = Path(__file__).resolve().parent.parent / "data" / "server-before-migrations.sql"
FINISHED = ("8Eyg8jDb1Z3l", "rBJA-E9Ub8ZO")
UNFINISHED = ("EbNvl5CzxlGz", "8jXQX1jjghzK")


def statements() -> list[str]:
    """The dump's statements (one a line or several lines; transaction control left out)."""
    out, current = [], ""
    for line in DUMP.read_text(encoding="utf-8").splitlines(keepends=True):
        current += line
        if current.rstrip().endswith(";") and current.count("'") % 2 == 0:
            text = current.strip().rstrip(";")
            if text not in ("BEGIN TRANSACTION", "COMMIT"):
                out.append(text)
            current = ""
    return out


def counts(db: Database) -> dict[str, Any]:
    with db.reader.connect() as conn:
        return {
            table: conn.exec_driver_sql(f"SELECT COUNT(*) FROM {table}").scalar()
            for table in ("sorry_games", "sorry_seats", "sorry_moves")
        }


def check_upgraded(url: str) -> None:
    db = Database(url)  # upgraded on start-up
    try:
        assert db.upgraded == ("0005", HEAD)
        assert db.revision() == HEAD
        assert counts(db) == {"sorry_games": 4, "sorry_seats": 10, "sorry_moves": 440}
        for gid in FINISHED + UNFINISHED:
            found = db.load_full(gid)
            assert found is not None
            row, rows = found
            game = restore_game(row.state, rows)
            assert len(game.move_stack) == row.seq == len(rows)
            assert game.is_over() == (gid in FINISHED)
            assert row.creator is None
        assert {r.id for r in db.lobby(50, 3)} == set(FINISHED + UNFINISHED)
    finally:
        db.dispose()
    again = Database(url)  # nothing left to do
    assert again.upgraded == (HEAD, HEAD)
    again.dispose()


def test_head_is_the_newest_revision() -> None:
    from alembic.script import ScriptDirectory

    assert ScriptDirectory(str(FOLDER)).get_current_head() == HEAD


def test_a_fresh_database_is_made_at_the_head(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'new.db'}")
    assert db.upgraded == (None, HEAD) and db.revision() == HEAD
    db.dispose()


def test_a_database_of_the_hand_written_migrations_is_upgraded_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    for sql in statements():
        con.execute(sql)
    con.commit()
    con.close()
    url = f"sqlite:///{path}"
    check_upgraded(url)
    # the games go on: a finished game's record verifies, an unfinished one takes moves
    with TestClient(create_app(url, fast_settings(allowed_hosts=("testserver",)))) as client:
        record = GameRecord.from_json(client.get(f"/api/games/{FINISHED[0]}/record").text)
        result = verify(record)
        assert result.ok and result.steps_checked > 190, str(result)
        summary = client.get(f"/api/games/{UNFINISHED[0]}").json()
        assert summary["seq"] == 30 and summary["room"]["timer"] == 60


def test_a_database_of_the_hand_written_migrations_is_upgraded_postgres(postgres_url: str) -> None:
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for sql in statements():
            conn.execute(sql)
    check_upgraded(postgres_url)
