"""The authoritative game service: the only place where games change.

* A client submits a move chosen from the legal moves it was sent, with the sequence number of
  the state it saw. The service re-checks everything (seat, turn, sequence number, legality)
  and answers every submission: ``accepted`` (through the new state), ``rejected`` with a
  reason, or a ``resync`` with the full state.
* One writer per game: within a process a per-game lock; between processes the conditional
  update of :meth:`Database.commit_move` (the sequence number must not have moved).
* The move and the cards drawn after it are committed **before** anyone is told. Writes go
  through the database's group writer (:class:`sorry.web.db.GroupWriter`): moves that arrive
  together, from any games, share one transaction and one fsync, and each is acknowledged only
  after that commit. A restarted server reloads every game from the database.
* Bots play the bot seats, and take over a human seat whose player has been away longer than
  ``takeover_after`` seconds, until the player is back. Bots and hints think in the worker
  processes of :class:`sorry.web.workers.WorkerPool`, never in the event loop or the
  writer's thread; a hint is computed once per game, sequence number and seat, and shared by
  every connection that asks for it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from ..board import COLOUR_LETTERS, COLOUR_NAMES
from ..cards import card_name, parse_card
from ..effects import Effect, effects_json
from ..game import Game
from ..i18n import using
from ..moves import Move
from ..record import Commitment, Seat
from ..rng import derive_seed
from ..rulebook import declines
from ..rules import Rules
from .collector import Collector
from .db import ConflictError, Database, GameRow, MoveRow, SeatRow, restore_game
from .limits import AddressLimits, LimitSettings, RateLimit, Turns
from .players import HintResult, bot_levels
from .protocol import (
    describe_move,
    dumps,
    paths_of,
    public_view,
    state_delta,
    teams_json,
    view_json,
)
from .room import (
    Room,
    RoomState,
    acted,
    maybe_start,
    next_room,
    set_ready,
    timed_out,
    turn_began,
)
from .workers import LOW, PoolBusy, WorkerPool, record_json, replay_json

log = logging.getLogger("sorry.web")
T = TypeVar("T")

MAX_NAME_CHARS = 24


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def clean_name(name: object, fallback: str) -> str:
    """A display name: printable, trimmed, at most 24 characters (ValueError otherwise)."""
    if name is None:
        return fallback
    if not isinstance(name, str):
        raise ValueError("name must be a string")
    text = " ".join(name.split())
    if not text:
        return fallback
    if len(text) > MAX_NAME_CHARS:
        raise ValueError(f"name must be at most {MAX_NAME_CHARS} characters")
    if any(not ch.isprintable() for ch in text):
        raise ValueError("name must be printable text")
    return text


class Refused(Exception):
    """A request this server will not serve now, with its HTTP status (403, 429, 503)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Settings:
    bot_delay: float = 0.6  # seconds a bot waits before moving (so people can follow)
    takeover_after: float = 60.0  # seconds a player may be away before a bot plays for them
    takeover_level: str | None = None  # bot level that plays for an absent player
    tick: float = 0.5
    allowed_origins: tuple[str, ...] = ()
    listen: bool = True  # PostgreSQL: LISTEN for moves committed by other processes
    evict_after: float = 600.0  # seconds an unwatched game with nothing to do stays in memory
    max_games: int = 1000  # unfinished games in memory at most (new games refused beyond)
    rate: float = 10.0  # messages per second a WebSocket client may send on average
    burst: float = 30.0  # and in a burst
    workers: int = 1  # worker processes that play the bots and compute hints
    bot_time_limit: float | None = 0.5  # the longest a searching bot thinks about one move
    hint_rate: float = 0.5  # hints a seat may have computed per second on average
    hint_burst: float = 3.0  # and in a burst
    allow_bot_games: bool = False  # games with no human seat
    timer_scale: float = 1.0  # turn timers are multiplied by this (tests, quick demos)
    allowed_hosts: tuple[str, ...] = ()  # Host names served besides localhost and bind_host
    bind_host: str = "127.0.0.1"  # the address the server listens on
    limits: LimitSettings = field(default_factory=LimitSettings)  # per client address
    #: seconds between two full collections of every object (sorry.web.collector; the
    #: survivors of the others are set aside); None: the interpreter's collector as it is
    gc_reclaim_every: float | None = None


class Conn:
    """One WebSocket client. Messages are queued; a writer task sends them in order."""

    QUEUE_LIMIT = 512

    def __init__(self, ident: str = "") -> None:
        self.ident = ident or secrets.token_hex(4)
        self.seat: int | None = None
        self.lang = "en"  # the client's language (sorry.web.i18n): words of moves and log
        self.address = ""  # the client's address (per-address limits)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code, self.close_reason = 1000, ""  # the WebSocket's, when it closes
        # the state this client has (the last full state with the deltas since applied,
        # without the log): what the next delta is computed against
        self.state: dict[str, Any] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        """Queue a message already in JSON."""
        if self.closed:
            return
        if self.queue.qsize() >= self.QUEUE_LIMIT:  # a client that does not read is dropped
            self.close(1008, "too many messages waiting: the client does not read them")
            return
        self.queue.put_nowait(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close once the messages queued are sent, with ``code`` and ``reason``."""
        if not self.closed:
            self.closed = True
            self.close_code, self.close_reason = code, reason
            self.queue.put_nowait(None)


class Said(NamedTuple):
    """What a logged move did, for its words: its effects, and for a pass whether it
    declined the card (``rulebook.declines``) or forfeited the turn."""

    effects: list[Effect]
    declined: bool

    @classmethod
    def of(cls, game: Game, move: Move) -> Said:
        """What ``move`` (legal in ``game``, before it is pushed) does."""
        return cls(game.effects(move), declines(game.card, game.legal_moves))


@dataclass
class LiveGame:
    id: str
    name: str
    public: bool
    game: Game
    seq: int
    seats: dict[int, SeatRow]
    log: list[dict[str, Any]]
    created_at: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    away_since: dict[int, float] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    last_change: float = field(default_factory=time.monotonic)  # a move, or the last one left
    opening: int = 0  # connections open but not yet attached (no hello yet)
    hints: dict[tuple[int, int], asyncio.Future[HintResult]] = field(default_factory=dict)
    hint_limits: dict[int, RateLimit] = field(default_factory=dict)
    next_id: str | None = None  # the next game of the match, once somebody asked for it
    match_info: dict[str, Any] | None = None  # the match totals before this game
    commitment: str | None = None  # SHA-256 of seed, deck and nonce, public from the start
    nonce: str | None = None  # secret until the game is over
    room: RoomState = field(default_factory=RoomState)  # sorry.web.room: start, timer, chat
    #: what each logged move did, by its seq: the log's words in other languages
    said: dict[int, Said] = field(default_factory=dict)

    def connected(self, colour: int) -> bool:
        return any(c.seat == colour and not c.closed for c in self.conns)

    @property
    def status(self) -> str:
        return "over" if self.game.is_over() else "playing"

    @property
    def plays_itself(self) -> bool:
        """Every seat is a bot (and the game is not over): it goes on with nobody there."""
        return not self.game.is_over() and all(s.kind == "bot" for s in self.seats.values())

    @property
    def anyone_seated(self) -> bool:
        """Some human seat has a connection open."""
        return any(c.seat is not None and not c.closed for c in self.conns)


def log_entries(game: Game, rows: list[MoveRow]) -> tuple[list[dict[str, Any]], dict[int, Said]]:
    """The public log of a game: each accepted decision, and the card it used when public;
    and what each move did, by seq (worked out on a copy of the game taken back step by
    step: its words say what slid, what was bumped, whether an 11 was declined)."""
    history = game.history
    back = game.copy()
    said_at: list[Said] = []
    for _ in history:
        step = back.pop()
        if isinstance(step, Move):
            said_at.append(Said.of(back, step))
    said_at.reverse()
    entries: list[dict[str, Any]] = []
    said: dict[int, Said] = {}
    last_card: int | None = None
    points = game.rules.points
    it = iter(rows)
    moves = iter(said_at)
    for step in history:
        if not isinstance(step, Move):
            last_card = step
            continue
        row = next(it, None)
        if row is None:
            break
        card = step.card if points else last_card
        said[row.seq] = next(moves)
        # the paths and effects of past moves are not sent (the page animates the last move)
        entries.append(_entry(row.seq, row.colour, row.actor, step, card, said[row.seq], False))
    return entries, said


def _entry(
    seq: int,
    colour: int,
    actor: str,
    move: Move,
    card: int | None,
    said: Said,
    animate: bool = True,
) -> dict[str, Any]:
    """A log entry: the move in words from what it did (slides and bumps too; a declined 11
    is not a forfeit) and, to ``animate`` it, the paths and effects the page walks the pawns
    along."""
    return {
        "seq": seq,
        "colour": COLOUR_LETTERS[colour],
        "actor": actor,
        "move": str(move),
        "text": describe_move(move, said.effects, card, said.declined),
        "card": card_name(card) if card is not None else None,
        "paths": paths_of(said.effects) if animate else [],
        "effects": effects_json(said.effects) if animate else [],
    }


def _translated_entry(entry: dict[str, Any], said: dict[int, Said]) -> dict[str, Any]:
    """A log entry with its words in the current language (re-derived from its move, its
    card and what it did)."""
    try:
        move = Move.parse(entry["move"])
        card = parse_card(entry["card"]) if entry.get("card") else None
    except (KeyError, ValueError):
        return entry
    done = said.get(entry["seq"])
    if done is None:
        return {**entry, "text": describe_move(move, None, card)}
    return {**entry, "text": describe_move(move, done.effects, card, done.declined)}


class GameService:
    """Every game this process serves, backed by one :class:`Database`."""

    def __init__(self, db: Database, settings: Settings | None = None) -> None:
        self.db = db
        self.settings = settings or Settings()
        self.live: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self.pool = WorkerPool(self.settings.workers)
        self.limits = AddressLimits(self.settings.limits)  # per client address (app.py)
        self.turns = Turns()  # hints and new connections' states: one a turn of the loop
        self.collector: Collector | None = None
        self._admitted = 0  # Turns.admitted at the last tick (_busy)
        if self.settings.gc_reclaim_every is not None:
            self.collector = Collector(self.settings.gc_reclaim_every, self._busy)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self._listener: Any = None
        self._finished: collections.OrderedDict[tuple[str, str], bytes] = (
            collections.OrderedDict()
        )  # finished games' replays and records, most recently used last
        # replays and records being computed: a second request waits for the same job
        self._finishing: dict[tuple[str, str], asyncio.Future[bytes]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.on_event: Callable[[str, dict[str, Any]], None] | None = None  # for tests

    # -- lifecycle ----------------------------------------------------------------------------
    async def start(self) -> None:
        """Resume the games that play by themselves (all bots, if allowed) and start the
        background work; every other game is loaded when somebody opens it."""
        self.loop = asyncio.get_running_loop()
        if self.settings.allow_bot_games:
            ids = await asyncio.to_thread(self.db.bot_game_ids, self.settings.max_games)
            for gid in ids:
                await self.get(gid)
        self._ticker = asyncio.create_task(self._tick_loop())
        if self.collector is not None:
            self.collector.start()
        if self.settings.listen and not self.db.is_sqlite:
            from .notify import Listener

            self._listener = Listener(self.db, self._notified, self._reconnected)
            self._listener.start()

    async def stop(self) -> None:
        if self.collector is not None:
            self.collector.stop()
        if self._listener is not None:
            self._listener.stop()
        if self._ticker is not None:
            self._ticker.cancel()
        tasks = list(self._tasks) + [
            g.bot_task for g in self.live.values() if g.bot_task is not None
        ]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        await asyncio.to_thread(self.pool.stop)
        for g in self.live.values():
            for c in list(g.conns):
                c.close()

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)`` in the database's next group commit; returns once
        it is committed."""
        return await asyncio.wrap_future(self.db.writer.submit(fn, *args))

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- games --------------------------------------------------------------------------------
    async def create_game(
        self,
        rules: Rules,
        seats: list[dict[str, Any]],
        name: str = "",
        public: bool = False,
        seed: int | None = None,
        room: Room | None = None,
    ) -> tuple[str, dict[int, str]]:
        """Create a game. ``seats``: ``{"colour": int, "kind": "invite"|"open"|"bot",
        "level": str}``. Returns the id and the secret token of each invited seat."""
        if not self.settings.allow_bot_games and all(s["kind"] == "bot" for s in seats):
            raise Refused(
                403, "games without a human seat are off on this server (--allow-bot-games)"
            )
        if self.playing_count() >= self.settings.max_games:
            self.evict(pressure=True)
            if self.playing_count() >= self.settings.max_games:
                raise Refused(
                    503, f"the server is full ({self.settings.max_games} games): try again later"
                )
        colours = sorted(s["colour"] for s in seats)
        game = Game(rules, players=colours, seed=seed)
        commit = Commitment.for_game(game)
        while game.is_chance():
            game.draw()
        gid = secrets.token_urlsafe(9)
        tokens: dict[int, str] = {}
        rows: list[SeatRow] = []
        levels = bot_levels()
        for s in sorted(seats, key=lambda s: int(s["colour"])):
            c = int(s["colour"])
            kind = s["kind"]
            if kind == "bot":
                level = s.get("level") or levels[0]
                if level not in levels:
                    raise ValueError(f"unknown bot level {level!r} (known: {', '.join(levels)})")
                rows.append(SeatRow(c, "bot", level, f"{level} bot", None, True))
            elif kind == "invite":
                tokens[c] = new_token()
                rows.append(
                    SeatRow(c, "human", None, COLOUR_NAMES[c], hash_token(tokens[c]), False)
                )
            elif kind == "open":
                rows.append(SeatRow(c, "human", None, COLOUR_NAMES[c], None, False))
            else:
                raise ValueError(f"bad seat kind {kind!r} (expected invite, open or bot)")
        title = name or f"{rules.variant.capitalize()} game"
        await self.write(
            self.db.create_game_in,
            gid,
            title,
            public,
            rules.variant,
            rules.to_dict(),
            game.to_dict(),
            rows,
            None,
            None,
            (commit.sha256, commit.nonce),
            room.to_json() if room is not None else None,
        )
        live = await self.get(gid)
        if live is not None:
            self._schedule_bot(live)
        return gid, tokens

    async def get(self, game_id: str) -> LiveGame | None:
        """The game, loaded from the database if it is not in memory (once, however many
        ask at the same time); None if there is no such game."""
        live = self.live.get(game_id)
        if live is not None:
            return live
        loading = self._loading.get(game_id)
        if loading is None:
            loading = self._loading[game_id] = asyncio.ensure_future(self._load(game_id))
            loading.add_done_callback(lambda _job: self._loading.pop(game_id, None))
            loading.add_done_callback(_retrieve)
        return await asyncio.shield(loading)

    async def _load(self, game_id: str) -> LiveGame | None:
        found = await asyncio.to_thread(self._read, game_id)  # replaying takes CPU: a thread
        if found is None:
            return None
        live = self.live.get(game_id)
        if live is None:
            live = self.live[game_id] = self._build(*found)
        if self.playing_count() > self.settings.max_games:
            self.evict(pressure=True)
        self._schedule_bot(live)
        return live

    def _read(self, game_id: str) -> tuple[GameRow, list[MoveRow], Game] | None:
        found = self.db.load_full(game_id)
        if found is None:
            return None
        row, rows = found
        return row, rows, restore_game(row.state, rows)

    def _build(self, row: GameRow, rows: list[MoveRow], game: Game) -> LiveGame:
        now = time.monotonic()
        log, said = log_entries(game, rows)
        live = LiveGame(
            id=row.id,
            name=row.name,
            public=row.public,
            game=game,
            seq=row.seq,
            seats={s.colour: s for s in row.seats},
            log=log,
            said=said,
            created_at=row.created_at,
            next_id=row.next_id,
            match_info=row.match_info,
            commitment=row.commitment,
            nonce=row.nonce,
            room=RoomState(Room.from_json(row.room), self.settings.timer_scale),
        )
        for c, s in live.seats.items():
            if s.kind == "human":
                live.away_since[c] = now
        turn_began(live)
        return live

    async def refresh(self, live: LiveGame) -> bool:
        """Catch up with the database after another writer changed the game (another
        process, or a seat claimed): the seats, room and next game as they are now, and the
        move rows after the game's sequence number applied one by one, each told to the
        clients as a delta. Costs the new rows only; the whole game is reloaded only if the
        rows do not follow on. True if anything changed."""
        found = await asyncio.to_thread(self.db.load_since, live.id, live.seq)
        if found is None:
            return False
        row, rows = found
        moved = False
        async with live.lock:
            changed = self._update_meta(live, row)
            if changed:
                self.broadcast(live)
            for r in rows:
                if r.seq <= live.seq:
                    continue  # committed here meanwhile
                try:
                    if r.seq != live.seq + 1:
                        raise ValueError(f"move {live.seq + 1} is missing (found {r.seq})")
                    self._apply_row(live, r)
                except ValueError as exc:  # IllegalMoveError and the like too
                    log.warning("game %s: move rows do not follow (%s); reloading", live.id, exc)
                    break
                moved = True
                self.broadcast(live)
            else:
                rows = []
        if rows:  # the loop broke: start again from the database
            return await self.reload(live)
        if moved:
            self._schedule_bot(live, remote=True)
        return changed or moved

    def _update_meta(self, live: LiveGame, row: GameRow) -> bool:
        """Take the seats, room and next game of a game row; True if any changed."""
        changed = False
        seats = {s.colour: s for s in row.seats}
        if seats != live.seats:
            live.seats = seats
            changed = True
        if row.next_id != live.next_id:
            live.next_id = row.next_id
            changed = True
        if live.room.update(row.room):
            changed = True
        return changed

    def _apply_row(self, live: LiveGame, row: MoveRow) -> None:
        """Play a move row committed by another writer (its move, then its cards)."""
        game = live.game.copy()
        if game.is_over() or game.to_move != row.colour:
            raise ValueError(f"move {row.seq} is not {COLOUR_LETTERS[row.colour]}'s to play")
        move = game.listed_move(row.move)
        card = move.card if game.rules.points else game.card
        said = Said.of(game, move)
        game.push(move)
        for name in row.draws:
            game.draw(parse_card(name))
        if game.is_chance():
            raise ValueError(f"move {row.seq} leaves a card to draw")
        live.game = game
        live.seq = row.seq
        live.hints.clear()
        live.last_change = time.monotonic()
        live.log.append(_entry(row.seq, row.colour, row.actor, move, card, said))
        live.said[row.seq] = said
        turn_began(live)

    async def reload(self, live: LiveGame) -> bool:
        """Replace the game by the database's (replaying it whole) and send everyone the
        full state; True if it had moved on."""
        found = await asyncio.to_thread(self._read, live.id)
        if found is None:
            return False
        row, rows, game = found
        async with live.lock:
            self._update_meta(live, row)
            moved = row.seq > live.seq
            if moved:
                live.game = game
                live.seq = row.seq
                live.hints.clear()
                live.log, live.said = log_entries(live.game, rows)
                live.last_change = time.monotonic()
                turn_began(live)
            for conn in list(live.conns):
                self.send_state(live, conn, full=True)
        if moved:
            self._schedule_bot(live, remote=True)
        return moved

    def _reconnected(self) -> None:
        """From the LISTEN thread after a lost connection: notifications may have been
        missed, so check every loaded game against the database."""
        if self.loop is None:
            return
        for live in list(self.live.values()):
            self.loop.call_soon_threadsafe(self._refresh_soon, live)

    def _refresh_soon(self, live: LiveGame) -> None:
        self._spawn(self.refresh(live))

    def _notified(self, payload: str) -> None:
        """From the LISTEN thread: another process committed ``game_id:seq``."""
        gid, _, seq_text = payload.partition(":")
        live = self.live.get(gid)
        if live is None or self.loop is None:
            return
        try:
            seq = int(seq_text)
        except ValueError:
            return
        if seq > live.seq:
            self.loop.call_soon_threadsafe(self._refresh_soon, live)

    # -- what clients see ---------------------------------------------------------------------
    def seats_json(self, live: LiveGame) -> list[dict[str, Any]]:
        out = []
        takeover = self.settings.takeover_after
        now = time.monotonic()
        present = {c.seat for c in live.conns if c.seat is not None and not c.closed}
        for c in live.game.colours:
            s = live.seats[c]
            away = (
                s.kind == "human"
                and c not in present
                and now - live.away_since.get(c, now) >= takeover
            )
            out.append(
                {
                    "colour": COLOUR_LETTERS[c],
                    "kind": s.kind,
                    "level": s.bot_level,
                    "name": s.name,
                    "claimed": s.claimed,
                    "open": s.kind == "human" and s.token_hash is None,
                    "connected": s.kind == "bot" or c in present,
                    "bot_playing": away,
                    "away": c in live.room.away,  # timed out: a bot plays until they act
                    "ready": COLOUR_LETTERS[c] in live.room.settings.ready,
                }
            )
        return out

    def _common(self, live: LiveGame) -> dict[str, Any]:
        """The fields of a state message that are the same for every client."""
        return {
            "type": "state",
            "game": live.id,
            "name": live.name,
            "seq": live.seq,
            "status": live.status,
            "seats": self.seats_json(live),
            "match": self.match_totals(live),
            "next_game": live.next_id,
            "commitment": live.commitment,
            "room": live.room.public(),
            "teams": teams_json(live.game),
        }

    def state_message(
        self,
        live: LiveGame,
        conn: Conn,
        full: bool = False,
        common: dict[str, Any] | None = None,
        position: str | None = None,
    ) -> dict[str, Any]:
        """The whole state as ``conn`` may see it (with the log on ``full``). ``common`` and
        ``position``: the parts every client shares, when the caller has them already."""
        game = live.game
        seat = conn.seat
        if position is None:
            position = game.position_string()
        with using(conn.lang):  # moves and the log in the client's language
            if seat is not None:
                view = game.view(seat)
                vj = view_json(view, game if view.legal_moves else None, position)
            else:
                vj = view_json(public_view(game), None, position)
            last = live.log[-1] if live.log else None
            if last is not None and conn.lang != "en":
                last = _translated_entry(last, live.said)
            msg = {**(common or self._common(live)), "view": vj, "last": last}
            if full:
                log = live.log
                msg["log"] = (
                    log if conn.lang == "en" else [_translated_entry(e, live.said) for e in log]
                )
        return msg

    def send_state(self, live: LiveGame, conn: Conn, full: bool = False) -> None:
        """Tell a client the game's state: the whole of it (with the log) on ``full`` or when
        it has none yet, else a ``delta`` with only what changed since what it has."""
        msg = self.state_message(live, conn, full)
        kept = {k: v for k, v in msg.items() if k != "log"}
        if full or conn.state is None:
            conn.state = kept
            conn.send(msg)
            return
        delta = state_delta(conn.state, msg)
        conn.state = kept
        if delta is not None:
            conn.send(delta)

    def broadcast(self, live: LiveGame) -> None:
        """Every client of the game gets what changed since what it was last told (a delta
        each). What clients share is worked out once, each (seat, language)'s state once, and
        the delta once for the clients that had the same state."""
        conns = []
        for conn in list(live.conns):
            if conn.closed:
                live.conns.discard(conn)
            elif conn.state is None:
                self.send_state(live, conn, full=True)
            else:
                conns.append(conn)
        if not conns:
            return
        common = self._common(live)
        position = live.game.position_string()
        # (seat, language) -> [its state, the state its delta was taken from, the delta's text]
        made: dict[tuple[int | None, str], list[Any]] = {}
        for conn in conns:
            key = (conn.seat, conn.lang)
            got = made.get(key)
            if got is None:
                msg = self.state_message(live, conn, common=common, position=position)
                got = made[key] = [msg, None, None]
            if conn.state is not got[1] or got[1] is None:
                delta = state_delta(conn.state or {}, got[0])
                text = dumps(delta) if delta is not None else None
                if got[1] is None:
                    got[1], got[2] = conn.state, text
            else:
                text = got[2]
            conn.state = got[0]
            if text is not None:
                conn.send_text(text)

    # -- seats --------------------------------------------------------------------------------
    def check_token(self, live: LiveGame, colour: int, token: str) -> bool:
        seat = live.seats.get(colour)
        digest = hash_token(token)
        if seat is None or seat.kind != "human" or seat.token_hash is None:
            # compare anyway, so a wrong seat takes as long as a wrong token
            hmac.compare_digest(digest, "0" * 64)
            return False
        return hmac.compare_digest(digest, seat.token_hash)

    async def join(
        self, live: LiveGame, colour: int, name: str, token: str | None
    ) -> tuple[bool, str]:
        """Sit at a seat with a display name: an invited seat with its token, or an open
        seat (a new token is made and returned). Returns (ok, token or reason)."""
        seat = live.seats.get(colour)
        if seat is None:
            return False, f"{COLOUR_NAMES[colour]} is not playing in this game"
        if seat.kind != "human":
            return False, f"{COLOUR_NAMES[colour]} is played by a bot"
        if token is not None:
            if not self.check_token(live, colour, token):
                await self.refresh(live)
                if not self.check_token(live, colour, token):
                    return False, "wrong token for this seat"
            await self.write(self.db.claim_seat_in, live.id, colour, name, None, False)
            await self.refresh(live)
            return True, token
        if seat.token_hash is not None or seat.claimed:
            return False, "this seat is taken (it needs its invite link)"
        fresh = new_token()
        ok = await self.write(self.db.claim_seat_in, live.id, colour, name, hash_token(fresh), True)
        await self.refresh(live)
        if not ok:
            return False, "somebody else took this seat first"
        return True, fresh

    def attach(self, live: LiveGame, conn: Conn) -> None:
        live.opening = max(0, live.opening - 1)
        live.conns.add(conn)
        if conn.seat is not None:
            live.away_since.pop(conn.seat, None)
        self.send_state(live, conn, full=True)
        conn.send(live.room.chat.history_message())
        self.broadcast_seats(live)

    def detach(self, live: LiveGame, conn: Conn) -> None:
        live.conns.discard(conn)
        live.last_change = max(live.last_change, time.monotonic())
        if conn.seat is not None and not live.connected(conn.seat):
            live.away_since[conn.seat] = time.monotonic()
            self.broadcast_seats(live)

    def broadcast_seats(self, live: LiveGame) -> None:
        """The seats to every client whose seats differ (a spectator coming or going changes
        nobody's), written once."""
        seats = self.seats_json(live)
        text: str | None = None
        for conn in list(live.conns):
            if conn.state is not None:
                if conn.state["seats"] == seats:
                    continue
                conn.state = {**conn.state, "seats": seats}
            if text is None:
                text = dumps({"type": "seats", "seq": live.seq, "seats": seats})
            conn.send_text(text)

    # -- moves --------------------------------------------------------------------------------
    async def submit(
        self, live: LiveGame, colour: int, seq: int, move_text: str, actor: str = "player"
    ) -> dict[str, Any]:
        """Judge and, if accepted, commit a move. Returns the reply for the submitter:
        ``{"type": "accepted", ...}``, ``{"type": "rejected", "reason": ...}`` or a
        ``{"type": "resync", ...}`` marker (the caller then sends the full state)."""
        async with live.lock:
            game = live.game
            if seq != live.seq:
                return _reject(
                    "stale",
                    f"stale move: the game is at seq {live.seq}, not {seq}",
                    live.seq,
                    resync=True,
                )
            if game.is_over():
                return _reject("game_over", "the game is over", live.seq)
            if not live.room.settings.started:
                return _reject("not_started", "the game has not started yet", live.seq)
            if game.to_move != colour:
                return _reject(
                    "not_your_turn", f"it is {COLOUR_NAMES[game.to_move]}'s turn", live.seq
                )
            legal = {str(m): m for m in game.legal_moves}
            move = legal.get(move_text)
            if move is None:
                return _reject("illegal", f"{move_text!r} is not one of the legal moves", live.seq)
            card = move.card if game.rules.points else game.card
            said = Said.of(game, move)  # the page walks the pawns along its effects
            new = game.copy()
            new.push(move)
            draws: list[str] = []
            while new.is_chance():
                draws.append(card_name(new.draw()))
            row = MoveRow(live.seq + 1, colour, actor, str(move), draws)
            status = "over" if new.is_over() else "playing"
            # the whole game is stored once more when it is over; until then the move rows
            # after the stored state complete it (sorry.web.db.restore_game)
            state = new.to_dict() if status == "over" else None
            try:
                await self.write(self.db.write_move, live.id, live.seq, row, state, status)
            except ConflictError:
                resync_needed = True
            except Exception:  # the database failed: nothing was accepted, say so
                log.exception("could not commit a move of game %s", live.id)
                return _reject(
                    "server_error", "the move could not be saved: try again", live.seq, resync=True
                )
            else:
                resync_needed = False
                live.game = new
                live.seq += 1
                live.hints.clear()  # hints answer one position
                live.last_change = time.monotonic()
                live.log.append(_entry(live.seq, colour, actor, move, card, said))
                live.said[live.seq] = said
                was_away = actor == "player" and acted(live, colour)
                turn_began(live)
                self.broadcast(live)
                if was_away:
                    self.broadcast_seats(live)
                if self.on_event is not None:
                    self.on_event("accepted", {"game": live.id, "seq": live.seq})
        if resync_needed:
            await self.refresh(live)
            return _reject("stale", "another server accepted a move first", live.seq, resync=True)
        self._schedule_bot(live)
        return {"type": "accepted", "seq": live.seq, "move": str(move)}

    async def hint_for(
        self, live: LiveGame, colour: int, seq: int, address_limit: RateLimit | None = None
    ) -> dict[str, Any]:
        """A suggested move for the seat to move: computed once per (game, seq, seat) in the
        worker pool and shared by every connection that asks. Each seat may have hints
        computed at ``hint_rate`` per second (bursts of ``hint_burst``), and each address
        as ``address_limit`` allows; answers already computed are not counted."""
        game = live.game
        if seq != live.seq:
            return _reject(
                "stale", f"stale hint: the game is at seq {live.seq}", live.seq, resync=True
            )
        if game.is_over() or game.to_move != colour:
            return _reject("not_your_turn", "hints are for the player to move", live.seq)
        key = (seq, colour)
        job = live.hints.get(key)
        if job is None:
            limit = live.hint_limits.get(colour)
            if limit is None:
                limit = live.hint_limits[colour] = RateLimit(
                    self.settings.hint_rate, self.settings.hint_burst
                )
            if not limit.allow():
                return _error("hint_rate_limited", "too many hints for this seat: wait a moment")
            if address_limit is not None and not address_limit.allow():
                return _error(
                    "hint_rate_limited", "too many hints from this address: wait a moment"
                )
            view = game.view(colour)
            seed = derive_seed(game.seed, seq) ^ 0x5A5A
            job = live.hints[key] = asyncio.ensure_future(self.pool.hint(view, seed))
            job.add_done_callback(_retrieve)
        try:
            result = await asyncio.shield(job)
        except PoolBusy as exc:
            live.hints.pop(key, None)
            return _error("busy", str(exc))
        except Exception:
            live.hints.pop(key, None)
            log.exception("a hint failed in game %s", live.id)
            return _error("server_error", "the hint could not be computed: try again")
        if result.get("provisional") and live.hints.get(key) is job:
            del live.hints[key]  # asked again, it gets the estimates once the worker has loaded
        return hint_reply(seq, result)

    # -- bots ---------------------------------------------------------------------------------

    def _bot_level_for(self, live: LiveGame, colour: int) -> tuple[str, str] | None:
        """(level, actor) if a bot should move for ``colour`` now, else None."""
        seat = live.seats[colour]
        if not live.room.settings.started:
            return None  # nobody moves in the waiting room
        if seat.kind == "bot":
            return seat.bot_level or bot_levels()[0], "bot"
        if colour in live.room.away:  # the turn timer ran out: a bot plays until they act
            return self._takeover_level(), "timeout"
        if live.connected(colour) or not live.anyone_seated:
            return None  # the player is here, or nobody is: the game waits
        away = live.away_since.get(colour)
        if away is not None and time.monotonic() - away >= self.settings.takeover_after:
            return self._takeover_level(), "takeover"
        return None

    def _takeover_level(self) -> str:
        return self.settings.takeover_level or bot_levels()[min(2, len(bot_levels()) - 1)]

    def _schedule_bot(self, live: LiveGame, remote: bool = False) -> None:
        game = live.game
        if game.is_over() or (live.bot_task is not None and not live.bot_task.done()):
            return
        who = self._bot_level_for(live, game.to_move)
        if who is None:
            return
        delay = self.settings.bot_delay
        if remote:  # the process that committed the last move plays the next bot move
            delay = delay * 3 + 1.0
        live.bot_task = asyncio.ensure_future(self._bot_turn(live, live.seq, who, delay))

    async def _bot_turn(self, live: LiveGame, seq: int, who: tuple[str, str], delay: float) -> None:
        level, actor = who
        if delay > 0:
            await asyncio.sleep(delay)
        game = live.game
        if live.seq != seq or game.is_over():
            return
        colour = game.to_move
        if self._bot_level_for(live, colour) is None:
            return  # the player came back
        view = game.view(colour)
        seed = derive_seed(game.seed, seq)
        try:
            move = await self.pool.bot_move(level, self.settings.bot_time_limit, view, seed)
        except Exception:  # a broken bot must not stop the game: play a legal move
            log.exception("bot %s failed; playing the first legal move", level)
            move = str(view.legal_moves[0])
        live.bot_task = None
        if self._bot_level_for(live, colour) is None:
            return  # the player came back while the bot was thinking
        reply = await self.submit(live, colour, seq, move, actor)
        if reply["type"] != "accepted":
            log.debug("bot move not accepted in %s: %s", live.id, reply)

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick)
            try:
                self.tick()
            except Exception:  # pragma: no cover - keep ticking whatever happens
                log.exception("tick failed")

    def _busy(self) -> bool:
        """Requests came since the last call (hints or new connections admitted), or are
        waiting (for their turn, searches for a worker)."""
        admitted, self._admitted = self._admitted, self.turns.admitted
        return admitted != self._admitted or self.turns.waiting > 0 or self.pool.waiting > 0

    def tick(self) -> None:
        """Bots take over absent players; a stalled bot seat is restarted; games nobody
        watches and that have nothing to do leave memory (they are loaded again on demand);
        the garbage collector's survivors are set aside (sorry.web.collector)."""
        self.evict()
        if self.collector is not None:
            self.collector.tick()
        for live in list(self.live.values()):
            if live.game.is_over():
                continue
            colour = live.game.to_move
            seat = live.seats[colour]
            if timed_out(live):
                self.broadcast_seats(live)
            task_idle = live.bot_task is None or live.bot_task.done()
            if seat.kind == "human" and task_idle and self._bot_level_for(live, colour):
                self.broadcast_seats(live)
                self._schedule_bot(live)
            elif seat.kind == "bot" and task_idle:
                idle = time.monotonic() - live.last_change
                if idle > self.settings.bot_delay * 3 + 2.0:
                    self._schedule_bot(live)

    def playing_count(self) -> int:
        return sum(1 for g in self.live.values() if not g.game.is_over())

    def _evictable(self, live: LiveGame) -> bool:
        return (
            live.opening == 0
            and not any(not c.closed for c in live.conns)
            and (live.bot_task is None or live.bot_task.done())
            and not live.lock.locked()
            and not live.plays_itself
        )

    def evict(self, pressure: bool = False) -> int:
        """Drop from memory the games nobody has open and that wait for nobody: those idle
        for ``evict_after`` seconds, or under ``pressure`` (the cap on games is reached) the
        longest idle first until there is room. Returns how many left."""
        now = time.monotonic()
        idle = sorted(
            (g for g in self.live.values() if self._evictable(g)), key=lambda g: g.last_change
        )
        gone = 0
        for g in idle:
            recent = now - g.last_change < self.settings.evict_after
            if recent and (not pressure or self.playing_count() < self.settings.max_games):
                break
            self.live.pop(g.id, None)
            gone += 1
        return gone

    # -- matches ------------------------------------------------------------------------------
    def match_totals(self, live: LiveGame) -> dict[str, Any]:
        """The match so far, this game included once it is over: games played, wins and (in
        the points variant) points per colour."""
        info = live.match_info or {}
        games = int(info.get("games", 0))
        wins = dict(info.get("wins", {}))
        points = dict(info.get("points", {}))
        game = live.game
        if game.is_over():
            games += 1
            for c in game.winners:
                wins[COLOUR_LETTERS[c]] = wins.get(COLOUR_LETTERS[c], 0) + 1
            for c, p in (game.scores or {}).items():
                points[COLOUR_LETTERS[c]] = points.get(COLOUR_LETTERS[c], 0) + p
        return {
            "number": int(info.get("games", 0)) + 1,
            "games": games,
            "wins": wins,
            "points": points,
        }

    async def rematch(self, live: LiveGame, colour: int, token: str) -> tuple[bool, str]:
        """The next game of the match, asked for by a seated player once the game is over:
        same rules, seats and tokens; the winner starts (docs/variants.md, Matches). Returns
        (ok, id or reason); every player of the finished game is told its id."""
        if not self.check_token(live, colour, token):
            return False, "wrong seat or token"
        game = live.game
        if not game.is_over():
            return False, "the game is not over yet"
        if live.next_id is None:
            first = game.winners[0] if game.winners else None
            new = Game(game.rules, players=game.colours, first=first)
            commit = Commitment.for_game(new)
            while new.is_chance():
                new.draw()
            gid = secrets.token_urlsafe(9)
            rows = [
                SeatRow(s.colour, s.kind, s.bot_level, s.name, s.token_hash, s.claimed)
                for s in live.seats.values()
            ]
            totals = self.match_totals(live)
            info = {k: totals[k] for k in ("games", "wins", "points")}
            linked = await self.write(
                self.db.create_game_in,
                gid,
                live.name,
                live.public,
                game.rules.variant,
                game.rules.to_dict(),
                new.to_dict(),
                rows,
                info,
                live.id,
                (commit.sha256, commit.nonce),
                next_room(live, colour).to_json(),
            )
            await self.refresh(live)
            nxt = await self.get(linked)
            if nxt is not None:
                await maybe_start(self, nxt)
                self._schedule_bot(nxt)
        assert live.next_id is not None
        nxt = await self.get(live.next_id)
        if nxt is not None:  # asking for the next game is accepting it
            await set_ready(self, nxt, colour)
        return True, live.next_id

    # -- finished games -----------------------------------------------------------------------
    FINISHED_CACHE = 64  # replays and records kept (a finished game never changes)

    def finished_cached(self, game_id: str, what: str) -> bool:
        """Whether :meth:`finished_json` has this one ready or being computed (a request for
        it starts no work then)."""
        key = (game_id, what)
        return key in self._finished or key in self._finishing

    async def finished_json(self, live: LiveGame, what: str) -> bytes:
        """The replay (``"replay"``) or the record (``"record"``) of a finished game as JSON,
        computed once in the worker pool (it replays the game) and cached; requests made while
        it is computed wait for that computation. PermissionError while the game is being
        played, PoolBusy when too many searches wait already."""
        key = (live.id, what)
        cached = self._finished.get(key)
        if cached is not None:
            self._finished.move_to_end(key)
            return cached
        if not live.game.is_over():
            raise PermissionError(f"the {what} is available when the game is over")
        job = self._finishing.get(key)
        if job is None:
            job = asyncio.ensure_future(self._finish(live, what))
            self._finishing[key] = job

            def done(job: asyncio.Future[bytes]) -> None:
                self._finishing.pop(key, None)
                _retrieve(job)

            job.add_done_callback(done)
        # shielded: one requester going away does not cancel the others' computation
        return await asyncio.shield(job)

    async def _finish(self, live: LiveGame, what: str) -> bytes:
        """Compute and cache :meth:`finished_json`'s answer."""
        key = (live.id, what)
        game = live.game.to_dict()
        if what == "replay":
            text = await self.pool.run(LOW, replay_json, live.id, game, live.log)
        else:
            seats = {
                c: Seat(c, "bot", s.name, s.bot_level)
                if s.kind == "bot"
                else Seat(c, "human", s.name)
                for c, s in live.seats.items()
            }
            meta = {"server_game": live.id, "name": live.name}
            text = await self.pool.run(LOW, record_json, game, seats, live.nonce, meta)
        data = str(text).encode()
        self._finished[key] = data
        while len(self._finished) > self.FINISHED_CACHE:
            self._finished.popitem(last=False)
        return data


def _retrieve(job: asyncio.Future[Any]) -> None:
    """Mark a background job's failure as seen (its callers, if any, report it)."""
    if not job.cancelled():
        job.exception()


def hint_reply(seq: int, result: HintResult) -> dict[str, Any]:
    """The ``hint`` message of a hint result: the suggested ``move`` and its words, each move's
    estimate best first (``moves``: copies, the result is shared by every connection that
    asks) and ``separated``. The words are those of the current language (the caller chooses
    the receiver's)."""
    return {
        "type": "hint",
        "seq": seq,
        "move": result["move"],
        "text": describe_move(Move.parse(result["move"])),
        "moves": [dict(m) for m in result["moves"]],
        "separated": result["separated"],
    }


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "error": message}


def _reject(code: str, reason: str, seq: int, resync: bool = False) -> dict[str, Any]:
    return {"type": "rejected", "code": code, "reason": reason, "seq": seq, "resync": resync}
