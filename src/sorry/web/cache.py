"""The games in memory (:class:`GameCache`): loaded from the database when somebody opens one
(once, however many ask at the same time), kept up with the database when another writer
changed it (another process, a seat claimed), and let go when nobody needs them.

Whatever changes a game tells :meth:`GameCache.changed`, whose listeners decide what follows
(:mod:`sorry.web.bots` schedules the next bot move): the modules that change games need not
know who listens.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from ..board import COLOUR_LETTERS
from ..cards import parse_card
from ..game import Game
from .audience import Audience
from .config import Settings
from .db import RESIGN, Database, GameRow, MoveRow, restore_game
from .live import RESIGNED, LiveGame, Said, log_entries, log_entry, resign_entry
from .room import Room, RoomState, turn_began

log = logging.getLogger("sorry.web")
T = TypeVar("T")

#: Called with a game that changed (a move, a start, a seat) and whether another process did
#: it (its bots then wait longer before stepping in).
Listener = Callable[[LiveGame, bool], None]


def retrieve(job: asyncio.Future[Any]) -> None:
    """Mark a background job's failure as seen (its callers, if any, report it)."""
    if not job.cancelled():
        job.exception()


class GameCache:
    """Every game this process has in memory, backed by one :class:`Database`."""

    def __init__(self, db: Database, settings: Settings, audience: Audience) -> None:
        self.db = db
        self.settings = settings
        self.audience = audience
        self.live: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self.listeners: list[Listener] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    def changed(self, live: LiveGame, remote: bool = False) -> None:
        """Tell the listeners that ``live`` changed."""
        for listener in self.listeners:
            listener(live, remote)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)`` in the database's next group commit; returns once
        it is committed."""
        return await asyncio.wrap_future(self.db.writer.submit(fn, *args))

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def stop(self) -> None:
        tasks = list(self._tasks)
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except BaseException:  # stopping: whatever they raised is moot
                continue

    # -- loading --------------------------------------------------------------------------
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
            loading.add_done_callback(retrieve)
        return await asyncio.shield(loading)

    async def _load(self, game_id: str) -> LiveGame | None:
        found = await asyncio.to_thread(self.read, game_id)  # replaying takes CPU: a thread
        if found is None:
            return None
        live = self.live.get(game_id)
        if live is None:
            live = self.live[game_id] = self.build(*found)
        if self.playing_count() > self.settings.max_games:
            self.evict(pressure=True)
        self.changed(live)
        return live

    def read(self, game_id: str) -> tuple[GameRow, list[MoveRow], Game] | None:
        found = self.db.load_full(game_id)
        if found is None:
            return None
        row, rows = found
        return row, rows, restore_game(row.state, rows)

    def build(self, row: GameRow, rows: list[MoveRow], game: Game) -> LiveGame:
        now = time.monotonic()
        entries, said = log_entries(game, rows)
        room = RoomState(
            Room.from_json(row.room), self.settings.timer_scale, self.settings.allow_bot_games
        )
        live = LiveGame(
            id=row.id,
            name=row.name,
            public=row.public,
            game=game,
            seq=row.seq,
            seats={s.colour: s for s in row.seats},
            log=entries,
            said=said,
            created_at=row.created_at,
            next_id=row.next_id,
            match_info=row.match_info,
            commitment=row.commitment,
            nonce=row.nonce,
            room=room,
        )
        for c, s in live.seats.items():
            if s.kind == "human":
                live.away_since[c] = now
        turn_began(live)
        return live

    # -- catching up with the database ----------------------------------------------------
    async def refresh(self, live: LiveGame) -> bool:
        """Catch up with the database after another writer changed the game (another
        process, or a seat claimed): the seats, room and next game as they are now, and the
        move rows after the game's sequence number applied one by one, each told to the
        clients as a delta. Costs the new rows only; the whole game is reloaded only if the
        rows do not follow on. True if anything changed."""
        live.refreshed_at = time.monotonic()
        found = await asyncio.to_thread(self.db.load_since, live.id, live.seq)
        if found is None:
            return False
        row, rows = found
        if row.seq < live.seq:  # moves were taken back (undo against bots): read it all again
            return await self.reload(live, back=True)
        moved = False
        async with live.lock:
            changed = self.update_meta(live, row)
            if changed:
                self.audience.broadcast(live)
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
                self.audience.broadcast(live)
            else:
                rows = []
        if rows:  # the loop broke: start again from the database
            return await self.reload(live)
        if moved:
            self.changed(live, remote=True)
        return changed or moved

    def update_meta(self, live: LiveGame, row: GameRow) -> bool:
        """Take the seats, room and next game of a game row; True if any changed."""
        changed = False
        seats = {s.colour: s for s in row.seats}
        if seats != live.seats:
            live.seats = seats
            live.bad_tokens.clear()  # a seat's token may have changed
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
        if row.move == RESIGN:
            game.resign(row.colour)
            for name in row.draws:
                game.draw(parse_card(name))
            live.moved(game, row.seq, resign_entry(row.seq, row.colour, row.actor), RESIGNED)
            turn_began(live)
            return
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
        live.moved(game, row.seq, log_entry(row.seq, row.colour, row.actor, move, card, said), said)
        turn_began(live)

    async def reload(self, live: LiveGame, back: bool = False) -> bool:
        """Replace the game by the database's (replaying it whole) and send everyone the
        full state; True if it had moved on (or, with ``back``, been taken back: undo). A
        game this process moved on since the database was read is kept.

        With ``back`` the database is read under the game's lock: no commit of this process
        is then under way (each commits under the lock before the game moves on), so a game
        behind this process's was truly taken back. Read before the lock, a game this
        process moved on meanwhile would look taken back (its own last moves undone, its
        next move refused as stale)."""
        if back:
            async with live.lock:
                found = await asyncio.to_thread(self.read, live.id)
                moved = found is not None and self._take(live, *found, back=True)
        else:
            found = await asyncio.to_thread(self.read, live.id)
            if found is None:
                return False
            async with live.lock:
                moved = self._take(live, *found)
        if moved:
            self.changed(live, remote=True)
        return moved

    def _take(
        self, live: LiveGame, row: GameRow, rows: list[MoveRow], game: Game, back: bool = False
    ) -> bool:
        """Take the game as the database has it (under the game's lock) if it is ahead of
        this process's (or, with ``back``, behind it); everyone gets the full state."""
        self.update_meta(live, row)
        moved = row.seq > live.seq or (back and row.seq < live.seq)
        if moved:
            live.game = game
            live.seq = row.seq
            live.hints.clear()
            live.log, live.said = log_entries(live.game, rows)
            live.log_text.clear()
            live.last_change = time.monotonic()
            turn_began(live)
        for conn in list(live.conns):
            self.audience.send_state(live, conn, full=True)
        return moved

    def reconnected(self) -> None:
        """From the LISTEN thread after a lost connection: notifications may have been
        missed, so check every loaded game against the database."""
        if self.loop is None:
            return
        for live in list(self.live.values()):
            self.loop.call_soon_threadsafe(self._refresh_soon, live)

    def _refresh_soon(self, live: LiveGame) -> None:
        self.spawn(self.refresh(live))

    def notified(self, payload: str) -> None:
        """From the LISTEN thread: another process committed ``game_id:seq``
        (``game_id:seq:undo``: moves taken back)."""
        gid, _, rest = payload.partition(":")
        seq_text, _, what = rest.partition(":")
        live = self.live.get(gid)
        if live is None or self.loop is None:
            return
        try:
            seq = int(seq_text)
        except ValueError:
            return
        # a move ahead of this process's; or moves taken back (undo against bots). A
        # notification of this process's own earlier commit (behind it) is not news.
        if seq > live.seq or (what == "undo" and seq != live.seq):
            self.loop.call_soon_threadsafe(self._refresh_soon, live)

    # -- letting go -----------------------------------------------------------------------
    def playing_count(self) -> int:
        return sum(1 for g in self.live.values() if not g.game.is_over())

    def _evictable(self, live: LiveGame) -> bool:
        return (
            live.opening == 0
            and not any(not c.closed for c in live.conns)
            and (live.bot_task is None or live.bot_task.done())
            and not live.lock.locked()
            and not (live.plays_itself and self.settings.allow_bot_games)
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
