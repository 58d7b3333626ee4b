"""The server's storage: SQLAlchemy Core over SQLite (WAL, the default) or PostgreSQL (psycopg 3).

Tables (all prefixed ``sorry_`` so the server can share a database with other software):

* ``sorry_schema``: the schema version; :data:`MIGRATIONS` are applied in order at start-up,
  each in its own transaction, under a lock (``BEGIN IMMEDIATE`` on SQLite, an advisory lock on
  PostgreSQL) so that several processes starting together migrate once;
* ``sorry_games``: one row per game: rules, the serialised game (``Game.to_dict()``), its
  sequence number (accepted decisions so far) and status;
* ``sorry_seats``: one row per colour: human (invited or open) or bot, display name and the
  SHA-256 hash of the seat's secret token (never the token itself);
* ``sorry_moves``: one row per accepted decision, with the cards drawn after it.

Every accepted move is written by :meth:`Database.commit_move` in one transaction that inserts
the move row and updates the game row *only if its sequence number is still the one the move
was judged against* (optimistic concurrency): two writers, in one process or several, can never
both commit the same step. On PostgreSQL the same transaction sends ``NOTIFY`` so that the other
server processes learn of the move when (and only when) it is committed.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

#: Channel used with PostgreSQL LISTEN/NOTIFY (suffixed with the schema when one is set).
NOTIFY_CHANNEL = "sorry_moves"

#: Hand-written, versioned migrations: (version, statements). Never edit a released one;
#: append a new version instead. The SQL is portable between SQLite and PostgreSQL.
MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        1,
        (
            """CREATE TABLE sorry_games (
                id VARCHAR(32) PRIMARY KEY,
                name VARCHAR(80) NOT NULL,
                public INTEGER NOT NULL,
                variant VARCHAR(16) NOT NULL,
                rules TEXT NOT NULL,
                seq INTEGER NOT NULL,
                status VARCHAR(16) NOT NULL,
                state TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )""",
            """CREATE TABLE sorry_seats (
                game_id VARCHAR(32) NOT NULL REFERENCES sorry_games(id),
                colour INTEGER NOT NULL,
                kind VARCHAR(8) NOT NULL,
                bot_level VARCHAR(16),
                name VARCHAR(40) NOT NULL,
                token_hash VARCHAR(64),
                claimed INTEGER NOT NULL,
                PRIMARY KEY (game_id, colour)
            )""",
            """CREATE TABLE sorry_moves (
                game_id VARCHAR(32) NOT NULL REFERENCES sorry_games(id),
                seq INTEGER NOT NULL,
                colour INTEGER NOT NULL,
                actor VARCHAR(12) NOT NULL,
                move VARCHAR(64) NOT NULL,
                draws TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (game_id, seq)
            )""",
        ),
    ),
    (2, ("CREATE INDEX sorry_games_lobby ON sorry_games (status, public, updated_at)",)),
    (
        3,
        (  # matches: a game links to the next game of its series and carries the totals
            "ALTER TABLE sorry_games ADD COLUMN next_id VARCHAR(32)",
            "ALTER TABLE sorry_games ADD COLUMN match_info TEXT",
        ),
    ),
    (
        4,
        (  # the auditable shuffle: SHA-256 commitment published at the start, nonce kept secret
            "ALTER TABLE sorry_games ADD COLUMN commitment VARCHAR(64)",
            "ALTER TABLE sorry_games ADD COLUMN nonce VARCHAR(64)",
        ),
    ),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]

metadata = sa.MetaData()
games = sa.Table(
    "sorry_games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(80)),
    sa.Column("public", sa.Integer),
    sa.Column("variant", sa.String(16)),
    sa.Column("rules", sa.Text),
    sa.Column("seq", sa.Integer),
    sa.Column("status", sa.String(16)),
    sa.Column("state", sa.Text),
    sa.Column("created_at", sa.Float),
    sa.Column("updated_at", sa.Float),
    sa.Column("next_id", sa.String(32)),
    sa.Column("match_info", sa.Text),
    sa.Column("commitment", sa.String(64)),
    sa.Column("nonce", sa.String(64)),
)
seats = sa.Table(
    "sorry_seats",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("colour", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8)),
    sa.Column("bot_level", sa.String(16)),
    sa.Column("name", sa.String(40)),
    sa.Column("token_hash", sa.String(64)),
    sa.Column("claimed", sa.Integer),
)
moves = sa.Table(
    "sorry_moves",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("colour", sa.Integer),
    sa.Column("actor", sa.String(12)),
    sa.Column("move", sa.String(64)),
    sa.Column("draws", sa.Text),
    sa.Column("created_at", sa.Float),
)


@dataclass
class SeatRow:
    colour: int
    kind: str  # "human" or "bot"
    bot_level: str | None
    name: str
    token_hash: str | None
    claimed: bool


@dataclass
class GameRow:
    id: str
    name: str
    public: bool
    variant: str
    seq: int
    status: str
    state: dict[str, Any]
    created_at: float
    updated_at: float
    seats: list[SeatRow]
    next_id: str | None = None
    match_info: dict[str, Any] | None = None
    commitment: str | None = None
    nonce: str | None = None


@dataclass
class MoveRow:
    seq: int
    colour: int
    actor: str
    move: str
    draws: list[str]


class ConflictError(Exception):
    """The game's sequence number moved on before this write: reload and retry."""


def default_database_url() -> str:
    """SQLite in the per-user data folder: ``$XDG_DATA_HOME/sorry/server.db``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local/share")
    folder = Path(base) / "sorry"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'server.db'}"


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` and use psycopg 3 for them."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    if not (url.startswith("sqlite") or url.startswith("postgresql+psycopg://")):
        raise ValueError(f"unsupported database URL {url!r} (use sqlite:///PATH or postgresql://)")
    return url


class Database:
    """The storage of one server process. Methods are synchronous (call them in a thread)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url or default_database_url())
        self.is_sqlite = self.url.startswith("sqlite")
        self.engine: Engine
        if self.is_sqlite:
            self.engine = sa.create_engine(
                self.url, connect_args={"timeout": 30, "check_same_thread": False}
            )

            @sa.event.listens_for(self.engine, "connect")
            def _connect(dbapi_conn: Any, _record: Any) -> None:
                dbapi_conn.isolation_level = None  # SQLAlchemy emits BEGIN itself
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=FULL")
                cur.execute("PRAGMA busy_timeout=30000")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()

            @sa.event.listens_for(self.engine, "begin")
            def _begin(conn: Connection) -> None:
                # Every transaction here may write: take the write lock at once (a plain
                # BEGIN fails with "database is locked" when it later upgrades).
                conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            self.engine = sa.create_engine(self.url, pool_size=10, max_overflow=20)
        self.channel = NOTIFY_CHANNEL
        self.migrate()

    # -- schema -------------------------------------------------------------------------------
    def migrate(self) -> int:
        """Apply the missing migrations; returns the schema version."""
        with self.engine.begin() as conn:
            if not self.is_sqlite:
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(727001)")
            conn.exec_driver_sql(
                "CREATE TABLE IF NOT EXISTS sorry_schema (version INTEGER NOT NULL)"
            )
            version = conn.exec_driver_sql("SELECT MAX(version) FROM sorry_schema").scalar()
            version = int(version or 0)
            for number, statements in MIGRATIONS:
                if number <= version:
                    continue
                for statement in statements:
                    conn.exec_driver_sql(statement)
                conn.exec_driver_sql(f"INSERT INTO sorry_schema (version) VALUES ({number})")
                version = number
        return version

    def schema_version(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.exec_driver_sql("SELECT MAX(version) FROM sorry_schema").scalar() or 0)

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    # -- writes -------------------------------------------------------------------------------
    def create_game(
        self,
        game_id: str,
        name: str,
        public: bool,
        variant: str,
        rules: dict[str, Any],
        state: dict[str, Any],
        seat_rows: Sequence[SeatRow],
        match_info: dict[str, Any] | None = None,
        previous: str | None = None,
        commitment: tuple[str, str] | None = None,
    ) -> str:
        """Insert a game and its seats. With ``previous``, the game is the next of that game's
        match: linked in the same transaction, unless another next game was linked first,
        whose id is then returned (and nothing is inserted)."""
        now = time.time()
        with self.transaction() as conn:
            if previous is not None:
                linked = conn.execute(
                    games.update()
                    .where(games.c.id == previous, games.c.next_id.is_(None))
                    .values(next_id=game_id, updated_at=now)
                )
                if linked.rowcount != 1:
                    other = conn.execute(
                        sa.select(games.c.next_id).where(games.c.id == previous)
                    ).scalar()
                    return str(other)
            conn.execute(
                games.insert().values(
                    id=game_id,
                    name=name,
                    public=int(public),
                    variant=variant,
                    rules=json.dumps(rules),
                    seq=0,
                    status="playing",
                    state=json.dumps(state),
                    created_at=now,
                    updated_at=now,
                    match_info=json.dumps(match_info) if match_info is not None else None,
                    commitment=commitment[0] if commitment else None,
                    nonce=commitment[1] if commitment else None,
                )
            )
            for s in seat_rows:
                conn.execute(
                    seats.insert().values(
                        game_id=game_id,
                        colour=s.colour,
                        kind=s.kind,
                        bot_level=s.bot_level,
                        name=s.name,
                        token_hash=s.token_hash,
                        claimed=int(s.claimed),
                    )
                )
        return game_id

    def commit_move(
        self,
        game_id: str,
        expected_seq: int,
        move: MoveRow,
        state: dict[str, Any],
        status: str,
    ) -> None:
        """Record one accepted decision and the state after it, atomically; raises
        :class:`ConflictError` if the game is no longer at ``expected_seq``."""
        assert move.seq == expected_seq + 1
        with self.transaction() as conn:
            result = conn.execute(
                games.update()
                .where(games.c.id == game_id, games.c.seq == expected_seq)
                .values(
                    seq=expected_seq + 1,
                    state=json.dumps(state),
                    status=status,
                    updated_at=time.time(),
                )
            )
            if result.rowcount != 1:
                raise ConflictError(game_id)
            conn.execute(
                moves.insert().values(
                    game_id=game_id,
                    seq=move.seq,
                    colour=move.colour,
                    actor=move.actor,
                    move=move.move,
                    draws=json.dumps(move.draws),
                    created_at=time.time(),
                )
            )
            if not self.is_sqlite:
                conn.execute(
                    sa.text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": self.channel, "payload": f"{game_id}:{move.seq}"},
                )

    def claim_seat(
        self, game_id: str, colour: int, name: str, token_hash: str | None, require_open: bool
    ) -> bool:
        """Set a seat's display name (and token hash); with ``require_open`` only if nobody
        has claimed it yet. Returns whether the seat was updated."""
        with self.transaction() as conn:
            query = seats.update().where(
                seats.c.game_id == game_id, seats.c.colour == colour, seats.c.kind == "human"
            )
            if require_open:
                query = query.where(seats.c.claimed == 0)
            values: dict[str, Any] = {"name": name, "claimed": 1}
            if token_hash is not None:
                values["token_hash"] = token_hash
            result = conn.execute(query.values(**values))
            if result.rowcount == 1:
                conn.execute(
                    games.update().where(games.c.id == game_id).values(updated_at=time.time())
                )
            return bool(result.rowcount == 1)

    # -- reads --------------------------------------------------------------------------------
    def _seats(self, conn: Connection, game_id: str) -> list[SeatRow]:
        rows = conn.execute(
            sa.select(seats).where(seats.c.game_id == game_id).order_by(seats.c.colour)
        ).all()
        return [
            SeatRow(r.colour, r.kind, r.bot_level, r.name, r.token_hash, bool(r.claimed))
            for r in rows
        ]

    def load_game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(sa.select(games).where(games.c.id == game_id)).first()
            if r is None:
                return None
            return GameRow(
                r.id,
                r.name,
                bool(r.public),
                r.variant,
                r.seq,
                r.status,
                json.loads(r.state),
                r.created_at,
                r.updated_at,
                self._seats(conn, game_id),
                r.next_id,
                json.loads(r.match_info) if r.match_info else None,
                r.commitment,
                r.nonce,
            )

    def load_moves(self, game_id: str, after: int = 0) -> list[MoveRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(moves)
                .where(moves.c.game_id == game_id, moves.c.seq > after)
                .order_by(moves.c.seq)
            ).all()
        return [MoveRow(r.seq, r.colour, r.actor, r.move, json.loads(r.draws)) for r in rows]

    def game_ids(self, status: str | None = None) -> list[str]:
        with self.engine.connect() as conn:
            query = sa.select(games.c.id)
            if status is not None:
                query = query.where(games.c.status == status)
            return [r[0] for r in conn.execute(query.order_by(games.c.created_at)).all()]

    def lobby(self, limit: int = 50) -> list[GameRow]:
        """Public games, those still playing first, most recently active first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(games.c.id)
                .where(games.c.public == 1)
                .order_by(games.c.status.desc(), games.c.updated_at.desc())
                .limit(limit)
            ).all()
        out = []
        for (gid,) in rows:
            g = self.load_game(gid)
            if g is not None:
                out.append(g)
        return out

    def dispose(self) -> None:
        self.engine.dispose()
