"""The server's storage: SQLAlchemy Core over SQLite (WAL, the default) or PostgreSQL (psycopg 3).

Tables (all prefixed ``sorry_`` so the server can share a database with other software):

* ``alembic_version``: the schema's revision; :meth:`Database.upgrade` applies the missing
  migrations (:mod:`sorry.web.migrations`, Alembic) at start-up in one transaction, under a lock
  (``BEGIN IMMEDIATE`` on SQLite, an advisory lock on PostgreSQL) so that several processes
  starting together migrate once;
* ``sorry_games``: one row per game: rules, the serialised game (``Game.to_dict()``), its
  sequence number (accepted decisions so far) and status, and who created it (a digest of the
  client address: the lobby shows a few games of each);
* ``sorry_seats``: one row per colour: human (invited or open) or bot, display name and the
  SHA-256 hash of the seat's secret token (never the token itself);
* ``sorry_moves``: one row per accepted decision, with the cards drawn after it.

Every accepted move is written by :meth:`Database.write_move`, which inserts the move row and
updates the game row *only if its sequence number is still the one the move was judged against*
(optimistic concurrency): two writers, in one process or several, can never both commit the
same step. On PostgreSQL the same transaction sends ``NOTIFY`` so that the other server
processes learn of the move when (and only when) it is committed.

**Group commit.** The server does not commit each move in its own transaction: its writes go
to :class:`GroupWriter`, one thread that takes every write waiting when it is free (moves of
any games, new games, claimed seats) and runs them in one transaction, so that they share one
``COMMIT`` and one fsync. A write's future is resolved only after that commit returned, so a
move is acknowledged only once it is durable; writes run in the order they were submitted, so
per-game order is kept. A write that fails for a reason of its own is retried alone, so it
cannot take the others down with it.

**What a game row holds.** ``state`` is the serialised game (``Game.to_dict()``) as of some
sequence number no later than ``seq``: written when the game is created and again when it is
over; the move rows after it complete it (:func:`restore_game`). Rewriting the whole game at
every move would cost time and bytes in proportion to its length.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ..cards import parse_card
from ..game import Game, Resign
from ..moves import Move

log = logging.getLogger("sorry.web")
T = TypeVar("T")

#: Channel used with PostgreSQL LISTEN/NOTIFY (suffixed with the schema when one is set).
NOTIFY_CHANNEL = "sorry_moves"

#: The hand-written migrations' count a database made before Alembic holds (``sorry_schema``):
#: it is stamped with the Alembic revision of the same number, then upgraded.
LEGACY_SCHEMA = "sorry_schema"

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
    sa.Column("room", sa.Text),
    sa.Column("creator", sa.String(32)),
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

# the accounts' seats (sorry.web.account_tables, migration 0007), as the seats' read joins them
_game_accounts = sa.table(
    "sorry_game_accounts",
    sa.column("game_id"),
    sa.column("colour"),
    sa.column("account_id"),
    sa.column("rated"),
)
_accounts = sa.table("sorry_accounts", sa.column("id"), sa.column("name"))


@dataclass
class SeatRow:
    colour: int
    kind: str  # "human" or "bot"
    bot_level: str | None
    name: str
    token_hash: str | None
    claimed: bool
    #: the account that holds the seat (sorry.web.accounts), its name, and whether it asked
    #: for a rated game; None for a guest's seat or a bot
    account_id: int | None = None
    account: str | None = None
    rated: bool = False


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
    room: dict[str, Any] | None = None  # sorry.web.room's settings (None: started at once)
    creator: str | None = None  # a digest of the creating client's address


@dataclass
class MoveRow:
    seq: int
    colour: int
    actor: str
    move: str
    draws: list[str]


class ConflictError(Exception):
    """The game's sequence number moved on before this write: reload and retry."""


class GroupConflict(Exception):
    """Some game of a group of moves written together moved on (which one is not known)."""


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
    """The storage of one server process. Methods are synchronous (call them in a thread);
    the server sends its writes through :attr:`writer` (group commit)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url or default_database_url())
        self.is_sqlite = self.url.startswith("sqlite")
        self.engine: Engine  # every write goes through this one
        self.reader: Engine  # reads (on SQLite without the write lock)
        if self.is_sqlite:
            self.engine = self._sqlite_engine(write=True)
            self.reader = self._sqlite_engine(write=False)
        else:
            self.engine = sa.create_engine(self.url, pool_size=10, max_overflow=20)
            self.reader = self.engine
        self.channel = NOTIFY_CHANNEL
        self._move_sql = (
            MOVE_SQL if self.is_sqlite else tuple(q.replace("?", "%s") for q in MOVE_SQL)
        )
        self.upgraded = self.upgrade()  # (the revision before, the revision now)
        self.writer = GroupWriter(self)
        self.checkpointer = Checkpointer(self.engine) if self.is_sqlite else None

    def _sqlite_engine(self, write: bool) -> Engine:
        engine = sa.create_engine(
            self.url, connect_args={"timeout": 30, "check_same_thread": False}
        )

        @sa.event.listens_for(engine, "connect")
        def _connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # SQLAlchemy emits BEGIN itself
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute("PRAGMA foreign_keys=ON")
            if write:  # checkpoints are the Checkpointer's, not a commit's
                cur.execute("PRAGMA wal_autocheckpoint=0")
            else:
                cur.execute("PRAGMA query_only=ON")
            cur.close()

        @sa.event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            # A writing transaction takes the write lock at once (a plain BEGIN fails with
            # "database is locked" when it later upgrades); a reading one never upgrades,
            # and in WAL mode reads neither wait for the writer nor block it.
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine

    # -- schema -------------------------------------------------------------------------------
    def revision(self) -> str | None:
        """The schema's Alembic revision (None: a database Alembic has not touched)."""
        with self.engine.connect() as conn:
            if not sa.inspect(conn).has_table("alembic_version"):
                return None
            value = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
            return str(value) if value is not None else None

    def upgrade(self) -> tuple[str | None, str]:
        """Bring the schema to the newest revision (:mod:`sorry.web.migrations`), in one
        transaction under a lock: several processes starting together migrate once. A
        database made before Alembic is stamped with its count of hand-written migrations
        first. Returns (the revision before, the revision now)."""
        from .migrations import HEAD

        if self.revision() == HEAD:  # the usual start: no need to load the migrations
            return HEAD, HEAD
        from alembic import command
        from alembic.config import Config

        from .migrations import FOLDER

        with self.engine.begin() as conn:  # SQLite: BEGIN IMMEDIATE (the write lock)
            if not self.is_sqlite:
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(727001)")
            config = Config()
            config.set_main_option("script_location", str(FOLDER))
            config.attributes["connection"] = conn
            inspector = sa.inspect(conn)
            before: str | None = None
            if inspector.has_table("alembic_version"):
                value = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
                before = str(value) if value is not None else None
            elif inspector.has_table(LEGACY_SCHEMA):
                legacy = conn.exec_driver_sql(f"SELECT MAX(version) FROM {LEGACY_SCHEMA}").scalar()
                if legacy:
                    before = f"{int(legacy):04d}"
                    command.stamp(config, before)
            command.upgrade(config, "head")
        return before, HEAD

    def migrate(self) -> str:
        """:meth:`upgrade`; returns the revision now."""
        return self.upgrade()[1]

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    # -- writes: each ``*_in`` runs inside a transaction it is given (the group writer's);
    # -- the methods without the suffix run it in a transaction of their own
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
        room: dict[str, Any] | None = None,
        creator: str | None = None,
    ) -> str:
        with self.transaction() as conn:
            return self.create_game_in(
                conn,
                game_id,
                name,
                public,
                variant,
                rules,
                state,
                seat_rows,
                match_info,
                previous,
                commitment,
                room,
                creator,
            )

    def create_game_in(
        self,
        conn: Connection,
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
        room: dict[str, Any] | None = None,
        creator: str | None = None,
    ) -> str:
        """Insert a game and its seats. With ``previous``, the game is the next of that game's
        match: linked in the same transaction, unless another next game was linked first,
        whose id is then returned (and nothing is inserted)."""
        now = write_time(conn)
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
                room=json.dumps(room) if room is not None else None,
                creator=creator,
            )
        )
        conn.execute(
            seats.insert(),
            [
                {
                    "game_id": game_id,
                    "colour": s.colour,
                    "kind": s.kind,
                    "bot_level": s.bot_level,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "claimed": int(s.claimed),
                }
                for s in seat_rows
            ],
        )
        return game_id

    def commit_move(
        self,
        game_id: str,
        expected_seq: int,
        move: MoveRow,
        state: dict[str, Any] | None,
        status: str,
    ) -> None:
        with self.transaction() as conn:
            self.write_move(conn, game_id, expected_seq, move, state, status)

    def write_move(
        self,
        conn: Connection,
        game_id: str,
        expected_seq: int,
        move: MoveRow,
        state: dict[str, Any] | None,
        status: str,
    ) -> None:
        """Record one accepted decision (and, when given, the serialised game after it);
        raises :class:`ConflictError`, having written nothing, if the game is no longer at
        ``expected_seq``."""
        self.write_moves(conn, [(game_id, expected_seq, move, state, status)], single=True)

    def write_moves(
        self,
        conn: Connection,
        items: Sequence[tuple[str, int, MoveRow, dict[str, Any] | None, str]],
        single: bool = False,
    ) -> None:
        """:meth:`write_move` for several games at once (``(game_id, expected_seq, move,
        state, status)`` each, every game once): one statement of each kind for all of them.
        Raises :class:`GroupConflict`, having written nothing it keeps, if any game is no
        longer at its expected sequence number (the group is then rolled back and its writes
        run one by one, which tells which); ``single`` (one write): :class:`ConflictError`
        instead, having written nothing.

        The statements are SQL of their own, run on the driver's connection (inside the
        group's transaction): the moves are the hot path of the writer thread, which needs
        the interpreter lock for every Python step, and building and compiling them with
        SQLAlchemy took most of a commit's CPU (1.7 ms, 1,100 function calls for one move on
        SQLite), time during which the event loop waited, and which the writer spent waiting
        for the loop to let it have the lock."""
        now = write_time(conn)
        update_seq, update_state, insert_move, notify = self._move_sql
        plain: list[tuple[Any, ...]] = []
        stored: list[tuple[Any, ...]] = []
        inserts: list[tuple[Any, ...]] = []
        for game_id, expected, move, state, status in items:
            assert move.seq == expected + 1
            if state is None:
                plain.append((move.seq, status, now, game_id, expected))
            else:
                stored.append((move.seq, status, now, json.dumps(state), game_id, expected))
            draws = json.dumps(move.draws)
            inserts.append((game_id, move.seq, move.colour, move.actor, move.move, draws, now))
        cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            for sql, rows in ((update_seq, plain), (update_state, stored)):
                if not rows:
                    continue
                if len(rows) == 1:
                    cur.execute(sql, rows[0])
                else:
                    cur.executemany(sql, rows)
                if cur.rowcount != len(rows):  # executemany: the rows of all of them
                    if single:
                        raise ConflictError(items[0][0])
                    raise GroupConflict(f"{len(rows) - cur.rowcount} game(s) moved on")
            if len(inserts) == 1:
                cur.execute(insert_move, inserts[0])
            else:
                cur.executemany(insert_move, inserts)
            if not self.is_sqlite:  # the other processes hear of the moves once committed
                payloads = [(self.channel, f"{row[0]}:{row[1]}") for row in inserts]
                if len(payloads) == 1:
                    cur.execute(notify, payloads[0])
                else:
                    cur.executemany(notify, payloads)
        finally:
            cur.close()

    def claim_seat(
        self, game_id: str, colour: int, name: str, token_hash: str | None, require_open: bool
    ) -> bool:
        with self.transaction() as conn:
            return self.claim_seat_in(conn, game_id, colour, name, token_hash, require_open)

    def claim_seat_in(
        self,
        conn: Connection,
        game_id: str,
        colour: int,
        name: str,
        token_hash: str | None,
        require_open: bool,
    ) -> bool:
        """Set a seat's display name (and token hash); with ``require_open`` only if nobody
        has claimed it yet. Returns whether the seat was updated."""
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
            conn.execute(games.update().where(games.c.id == game_id).values(updated_at=time.time()))
        return bool(result.rowcount == 1)

    def save_room_in(self, conn: Connection, game_id: str, room: dict[str, Any]) -> None:
        """Store a game's room settings (sorry.web.room.Room)."""
        conn.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(room=json.dumps(room), updated_at=time.time())
        )

    def undo_moves_in(self, conn: Connection, game_id: str, expected_seq: int, to_seq: int) -> None:
        """Take back the decisions after ``to_seq`` (undo against bots): their rows go, the
        game's sequence number is ``to_seq`` again. :class:`ConflictError`, having written
        nothing, if the game is no longer at ``expected_seq``."""
        done = conn.execute(
            games.update()
            .where(games.c.id == game_id, games.c.seq == expected_seq)
            .values(seq=to_seq, status="playing", updated_at=write_time(conn))
        )
        if done.rowcount != 1:
            raise ConflictError(game_id)
        conn.execute(moves.delete().where(moves.c.game_id == game_id, moves.c.seq > to_seq))
        if not self.is_sqlite:  # the other processes read the game again
            conn.execute(sa.select(sa.func.pg_notify(self.channel, f"{game_id}:{to_seq}:undo")))

    def make_bot_in(self, conn: Connection, game_id: str, colour: int, level: str) -> bool:
        """Turn a human seat nobody has claimed into a bot of ``level``; whether it was."""
        result = conn.execute(
            seats.update()
            .where(seats.c.game_id == game_id, seats.c.colour == colour, seats.c.claimed == 0)
            .values(kind="bot", bot_level=level, name=f"{level} bot", token_hash=None, claimed=1)
        )
        conn.execute(games.update().where(games.c.id == game_id).values(updated_at=time.time()))
        return bool(result.rowcount == 1)

    # -- reads --------------------------------------------------------------------------------
    def _seats(self, conn: Connection, game_id: str) -> list[SeatRow]:
        rows = conn.execute(
            sa.select(
                seats,
                _game_accounts.c.account_id,
                _game_accounts.c.rated,
                _accounts.c.name.label("account"),
            )
            .select_from(
                seats.outerjoin(
                    _game_accounts,
                    sa.and_(
                        _game_accounts.c.game_id == seats.c.game_id,
                        _game_accounts.c.colour == seats.c.colour,
                    ),
                ).outerjoin(_accounts, _accounts.c.id == _game_accounts.c.account_id)
            )
            .where(seats.c.game_id == game_id)
            .order_by(seats.c.colour)
        ).all()
        return [
            SeatRow(
                r.colour,
                r.kind,
                r.bot_level,
                r.name,
                r.token_hash,
                bool(r.claimed),
                r.account_id,
                r.account if r.account_id is not None else None,
                bool(r.rated),
            )
            for r in rows
        ]

    def _game(self, conn: Connection, game_id: str, state: bool = True) -> GameRow | None:
        columns = [c for c in games.c if state or c.name != "state"]
        r = conn.execute(sa.select(*columns).where(games.c.id == game_id)).first()
        if r is None:
            return None
        return GameRow(
            r.id,
            r.name,
            bool(r.public),
            r.variant,
            r.seq,
            r.status,
            json.loads(r.state) if state else {},
            r.created_at,
            r.updated_at,
            self._seats(conn, game_id),
            r.next_id,
            json.loads(r.match_info) if r.match_info else None,
            r.commitment,
            r.nonce,
            json.loads(r.room) if r.room else None,
            r.creator,
        )

    def _moves(self, conn: Connection, game_id: str, after: int) -> list[MoveRow]:
        rows = conn.execute(
            sa.select(moves)
            .where(moves.c.game_id == game_id, moves.c.seq > after)
            .order_by(moves.c.seq)
        ).all()
        return [MoveRow(r.seq, r.colour, r.actor, r.move, json.loads(r.draws)) for r in rows]

    def load_game(self, game_id: str) -> GameRow | None:
        """The game row (its ``state`` may be older than ``seq``: see :func:`restore_game`)."""
        with self.reader.connect() as conn:
            return self._game(conn, game_id)

    def load_moves(self, game_id: str, after: int = 0) -> list[MoveRow]:
        with self.reader.connect() as conn:
            return self._moves(conn, game_id, after)

    def load_full(self, game_id: str, after: int = 0) -> tuple[GameRow, list[MoveRow]] | None:
        """The game row and its move rows after ``after``, read in one transaction (so they
        agree with each other)."""
        with self.reader.connect() as conn:
            row = self._game(conn, game_id)
            if row is None:
                return None
            return row, self._moves(conn, game_id, after)

    def load_since(self, game_id: str, after: int) -> tuple[GameRow, list[MoveRow]] | None:
        """What changed since sequence number ``after``: the game row without its ``state``
        (seats, room, next game, sequence number) and the move rows after ``after``, read in
        one transaction. What another process's notification costs: the new rows only."""
        with self.reader.connect() as conn:
            row = self._game(conn, game_id, state=False)
            if row is None:
                return None
            return row, self._moves(conn, game_id, after)

    def game_ids(self, status: str | None = None, limit: int | None = None) -> list[str]:
        """Games by status, most recently active first."""
        with self.reader.connect() as conn:
            query = sa.select(games.c.id)
            if status is not None:
                query = query.where(games.c.status == status)
            query = query.order_by(games.c.updated_at.desc())
            if limit is not None:
                query = query.limit(limit)
            return [r[0] for r in conn.execute(query).all()]

    def bot_game_ids(self, limit: int) -> list[str]:
        """Unfinished games with no human seat, most recently active first."""
        human = sa.select(seats.c.game_id).where(
            seats.c.game_id == games.c.id, seats.c.kind == "human"
        )
        with self.reader.connect() as conn:
            query = (
                sa.select(games.c.id)
                .where(games.c.status == "playing", ~human.exists())
                .order_by(games.c.updated_at.desc())
                .limit(limit)
            )
            return [r[0] for r in conn.execute(query).all()]

    def lobby(self, limit: int = 50, per_creator: int | None = None) -> list[GameRow]:
        """Public games, those still playing first, most recently active first; with
        ``per_creator``, at most that many of each creator (one address cannot fill it)."""
        order = (games.c.status.desc(), games.c.updated_at.desc())
        query = sa.select(games.c.id).where(games.c.public == 1)
        if per_creator is not None:
            rank = (
                sa.func.row_number()
                .over(partition_by=sa.func.coalesce(games.c.creator, games.c.id), order_by=order)
                .label("rank")
            )
            ranked = (
                sa.select(games.c.id, games.c.status, games.c.updated_at, rank)
                .where(games.c.public == 1)
                .subquery()
            )
            query = (
                sa.select(ranked.c.id)
                .where(ranked.c.rank <= per_creator)
                .order_by(ranked.c.status.desc(), ranked.c.updated_at.desc())
            )
        else:
            query = query.order_by(*order)
        with self.reader.connect() as conn:
            rows = conn.execute(query.limit(limit)).all()
            out = []
            for (gid,) in rows:
                g = self._game(conn, gid)
                if g is not None:
                    out.append(g)
        return out

    def game_name(self, game_id: str) -> str | None:
        """A game's name (None: no such game, or no name)."""
        with self.reader.connect() as conn:
            name: str | None = conn.execute(
                sa.select(games.c.name).where(games.c.id == game_id)
            ).scalar()
        return name

    def dispose(self) -> None:
        self.writer.stop()
        if self.checkpointer is not None:
            self.checkpointer.stop()
        self.engine.dispose()
        if self.reader is not self.engine:
            self.reader.dispose()


def write_time(conn: Connection) -> float:
    """The time a write records: its group's (the moves committed together share it, which
    shows in ``sorry_moves.created_at``), else now."""
    stamp = conn.info.get(GROUP_TIME)
    return float(stamp) if stamp is not None else time.time()


GROUP_TIME = "sorry_group_time"

# The moves' statements (Database.write_moves): the conditional update of the game row (the
# sequence number must not have moved), the move row, and on PostgreSQL the notification;
# ``?`` is the driver's placeholder (sqlite3's; ``%s`` for psycopg).
MOVE_SQL = (
    "UPDATE sorry_games SET seq = ?, status = ?, updated_at = ? WHERE id = ? AND seq = ?",
    "UPDATE sorry_games SET seq = ?, status = ?, updated_at = ?, state = ? "
    "WHERE id = ? AND seq = ?",
    "INSERT INTO sorry_moves (game_id, seq, colour, actor, move, draws, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)",
    "SELECT pg_notify(?, ?)",
)


def restore_game(state: dict[str, Any], rows: Sequence[MoveRow]) -> Game:
    """The game of a row's ``state`` with the move rows after it applied: each row's move
    (or resignation) and then the cards drawn after it (checked against the game's own
    deck)."""
    game = Game.from_dict(state)
    done = decisions(game)
    for row in rows:
        if row.seq <= done:
            continue
        if row.seq != done + 1:
            raise ValueError(f"move {done + 1} is missing (found {row.seq})")
        if row.move == RESIGN:
            game.resign(row.colour)
        else:
            game.push(row.move)
        for card in row.draws:
            game.draw(parse_card(card))
        done += 1
    return game


#: A move row's text for a resignation (sorry.web.games.Games.resign).
RESIGN = "resign"


def decisions(game: Game) -> int:
    """A game's decisions so far (its moves and resignations): the sequence number of its
    last move row."""
    return sum(1 for step in game.history if isinstance(step, Move | Resign))


class Checkpointer:
    """SQLite: copies the write-ahead log into the database file every ``every`` seconds, in a
    thread of its own (``PRAGMA wal_checkpoint(PASSIVE)``, which waits for no reader and no
    writer), so that no commit pays for a checkpoint: the writer's connections have
    ``wal_autocheckpoint`` off. Durability is the commit's fsync of the log; the checkpoint
    only keeps the log short."""

    def __init__(self, engine: Engine, every: float = 1.0) -> None:
        self.engine = engine
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sorry-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.checkpoint()

    def checkpoint(self) -> None:
        try:
            raw = self.engine.raw_connection()
            try:
                cur = raw.cursor()
                cur.execute("PRAGMA wal_checkpoint(PASSIVE)")
                cur.close()
            finally:
                raw.close()
        except Exception as exc:  # the next one will do
            log.warning("a WAL checkpoint failed: %s", exc)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self.checkpoint()  # a last one: leave a short log behind


Job = tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]


class GroupWriter:
    """Group commit: one thread runs the writes of a server process. Each time it is free, it
    takes every write waiting (up to ``max_batch``) and runs them, in order, in one
    transaction: one ``COMMIT``, one fsync for all of them. Each write's future is resolved
    only after the commit returned. A write that raises :class:`ConflictError` has written
    nothing and the others go on; any other failure rolls the batch back and its writes are
    tried again one by one, so only the failing one fails."""

    def __init__(self, db: Database, max_batch: int = 500) -> None:
        self.db = db
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[
            tuple[Callable[..., Any], tuple[Any, ...], Future[Any]] | None
        ] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._conn: Connection | None = None  # the writer thread's (see _connection)
        self.batches = 0  # transactions committed (statistics)
        self.writes = 0  # writes committed in them

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Run ``fn(connection, *args)`` in the next group transaction."""
        fut: Future[T] = Future()
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="sorry-writer", daemon=True)
                self._thread.start()
        self._queue.put((fn, args, fut))
        return fut

    def stop(self) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join(30)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                self._close_connection()
                return
            batch = [item]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            live = [b for b in batch if b[2].set_running_or_notify_cancel()]
            if live:
                self._commit(live)
            if stop:
                self._close_connection()
                return

    def _runs(self, batch: list[Job]) -> list[list[Job]]:
        """The batch cut into runs that keep its order: the moves of different games that
        follow each other together, every other write alone."""
        runs: list[list[Job]] = []
        games_in_run: set[str] = set()
        for job in batch:
            fn, args, _fut = job
            if fn == self.db.write_move:
                run = runs[-1] if runs else None
                if (
                    run is not None
                    and run[0][0] == self.db.write_move
                    and args[0] not in games_in_run
                ):
                    run.append(job)
                else:
                    runs.append([job])
                    games_in_run = set()
                games_in_run.add(args[0])
            else:
                runs.append([job])
        return runs

    def _connection(self) -> Connection:
        """The writer thread's connection, kept from one group to the next (taking one from
        the pool and giving it back cost a group as much Python as writing a move)."""
        if self._conn is None:
            self._conn = self.db.engine.connect()
        return self._conn

    def _close_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _drop_connection(self) -> None:
        """After a failed group: the next one starts on a fresh connection."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()
            with contextlib.suppress(Exception):
                conn.close()

    def _commit(self, batch: list[Job]) -> None:
        outcomes: list[tuple[Future[Any], bool, Any]] = []
        try:
            conn = self._connection()
            with conn.begin():
                conn.info[GROUP_TIME] = time.time()
                try:
                    for run in self._runs(batch):
                        if len(run) > 1:  # moves of different games: written together
                            self.db.write_moves(conn, [args for _fn, args, _fut in run])
                            outcomes.extend((fut, True, None) for _fn, _args, fut in run)
                            continue
                        fn, args, fut = run[0]
                        try:
                            outcomes.append((fut, True, fn(conn, *args)))
                        except ConflictError as exc:  # wrote nothing: the others go on
                            outcomes.append((fut, False, exc))
                finally:
                    conn.info.pop(GROUP_TIME, None)
        except Exception as exc:
            self._drop_connection()
            if len(batch) == 1:
                batch[0][2].set_exception(exc)
            else:
                log.warning("a group commit of %d writes failed (%s); one by one", len(batch), exc)
                for item in batch:
                    self._commit([item])
            return
        self.batches += 1
        self.writes += len(batch)
        for fut, ok, value in outcomes:
            if ok:
                fut.set_result(value)
            else:
                fut.set_exception(value)
