"""Whose turn it is in the games accounts play, the correspondence clock, and "your turn"
notifications.

* **Turns.** For every game with an account seated, ``sorry_turns`` holds whose turn it is,
  since when, and in a correspondence game when that move's time runs out: the lobby's and
  the profile's "your turn in N games", and a clock that survives restarts. The process that
  committed a move writes the row (:meth:`Clocks.changed` listens to every change), in the
  next group commit, with the rows of every game that moved meanwhile: a turn row costs no
  transaction of its own.
* **Notifications.** When a move makes it the turn of an account that has no page of that
  game open, in a correspondence game, each channel the account chose (webhook, e-mail) gets
  one row in the outbox (:func:`sorry.web.outbox.enqueue`; its unique key makes it once, also
  across restarts and processes); :class:`~sorry.web.outbox.Dispatcher` sends them.
* **Timeouts.** At start-up and every ``clock_sweep`` seconds the rows whose time ran out
  are claimed (a conditional update: one process acts on each) and the game's
  ``on_timeout`` applies: a bot plays that move (``"bot"``), or the game waits (``"wait"``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection

from ..i18n import _, using
from .accounts import TurnRow
from .cache import GameCache
from .config import Settings
from .correspondence import turn_notifications
from .live import LiveGame
from .outbox import Dispatcher, Message, enqueue
from .people import People
from .webhooks import parse_networks

log = logging.getLogger("sorry.web")

#: seconds a turn row waits before it is written: the rows of the games that move meanwhile
#: go in the same write (a game whose row is lost in a crash writes it again when loaded)
TURN_WRITE_DELAY = 0.1


@dataclass(frozen=True)
class Turn:
    """A game's turn as its row in ``sorry_turns`` will hold it."""

    game_id: str
    seq: int
    to_move: int | None  # None: nobody (not started, or over)
    since: float
    deadline: float | None  # a correspondence game's end of this move
    notify: int | None  # the account to tell it is their turn (a correspondence game's)
    here: tuple[int, ...]  # the colours with a page of the game open

    @property
    def row(self) -> TurnRow:
        return TurnRow(self.game_id, self.seq, self.to_move, self.since, self.deadline)


class Clocks:
    def __init__(self, cache: GameCache, people: People, settings: Settings) -> None:
        self.cache = cache
        self.people = people
        self.settings = settings
        self.store = people.store
        #: game -> (seq, started, over) of the turn row written or read for it
        self.known: dict[str, tuple[int, bool, bool]] = {}
        self.dispatcher: Dispatcher | None = None
        self._sweeper: asyncio.Task[None] | None = None
        #: games whose turn row waits for the next write, and the task writing them
        self.pending: dict[str, LiveGame] = {}
        self._flusher: asyncio.Task[None] | None = None
        cache.listeners.append(self.changed)

    # -- the turns ------------------------------------------------------------------------------
    def changed(self, live: LiveGame, remote: bool = False) -> None:
        if not any(s.account_id is not None for s in live.seats.values()):
            return
        key = (live.seq, live.room.settings.started, live.game.is_over())
        before = self.known.get(live.id)
        if before == key:
            return
        self.known[live.id] = key
        if live.room.settings.correspondence:
            live.room.away.clear()  # a timed-out move was played for them: that one only
        if before is None or remote:  # loaded, or moved by another process: read it first
            self.cache.spawn(self.record(live))
        else:
            self.queue(live)

    def to_move(self, live: LiveGame) -> int | None:
        if not live.room.settings.started or live.game.is_over():
            return None
        return live.game.to_move

    def turn_of(self, live: LiveGame, at: float) -> Turn:
        """What the turn row of ``live`` says now (read on the event loop, where the game
        changes)."""
        mover = self.to_move(live)
        room = live.room.settings
        seat = live.seats.get(mover) if mover is not None else None
        human = seat is not None and seat.kind == "human"
        deadline = at + room.per_move if room.correspondence and human else None
        notify = room.correspondence and seat is not None and seat.account_id is not None
        return Turn(
            live.id,
            live.seq,
            mover,
            at,
            deadline,
            seat.account_id if notify and seat is not None else None,
            tuple(c for c in live.game.colours if live.connected(c)),
        )

    async def record(self, live: LiveGame) -> None:
        """A game just loaded or moved by another process: its turn row as read (the process
        that committed the move wrote it), else written."""
        try:
            row = await asyncio.to_thread(self.read, live.id)
        except Exception:
            log.exception("could not read the turn of game %s", live.id)
            return
        if row is not None and row.seq == live.seq:
            self.show_deadline(live, row.deadline)
            return
        self.queue(live)

    def queue(self, live: LiveGame) -> None:
        """Write the game's turn row in the next group commit, with its moves' (the rows of
        every game that moved meanwhile in one write: a turn row costs no transaction of its
        own)."""
        self.pending[live.id] = live
        if self._flusher is None:
            self._flusher = self.cache.spawn(self._flush())

    async def _flush(self) -> None:
        try:
            while self.pending:
                await asyncio.sleep(TURN_WRITE_DELAY)  # the games that move meanwhile join
                batch, self.pending = self.pending, {}
                at = time.time()
                turns = [self.turn_of(live, at) for live in batch.values()]
                try:
                    written, queued = await self.cache.write(self.write_turns, turns)
                except Exception:  # the next move writes it again
                    log.exception("could not record the turns of %d games", len(turns))
                    continue
                for live, turn, ok in zip(batch.values(), turns, written, strict=True):
                    if ok and live.seq == turn.seq:
                        self.show_deadline(live, turn.deadline)
                if queued and self.dispatcher is not None:
                    self.dispatcher.wake()  # only then: each round of it reads the outbox
        finally:
            self._flusher = None

    def show_deadline(self, live: LiveGame, deadline: float | None) -> None:
        before = live.room.move_deadline
        live.room.move_deadline = deadline
        if before != deadline and live.conns:
            self.cache.audience.broadcast(live)  # the room's deadline_in

    def read(self, game_id: str) -> Any:
        return self.store.turn(game_id)

    def write_turns(self, conn: Connection, turns: list[Turn]) -> tuple[list[bool], int]:
        """Each turn's row, unless a newer one is written (False), and the "your turn"
        notifications it causes; returns whether each was written, and how many
        notifications were queued."""
        out = []
        queued = 0
        plain = [x.row for x in turns if x.deadline is None and x.notify is None]
        if plain:  # no clock, nobody to tell: one statement for them all
            self.store.write_turns_in(conn, plain)
        for turn in turns:
            if turn.deadline is None and turn.notify is None:
                out.append(True)
                continue
            if not self.store.write_turn_in(conn, turn.row):
                out.append(False)  # a newer turn is written already
                continue
            if turn.notify is not None:
                queued += self.notify(conn, turn)
            out.append(True)
        return out, queued

    def notify(self, conn: Connection, turn: Turn) -> int:
        """The "your turn" notifications of the account to move, if it is away."""
        if turn.notify is None or turn.to_move is None:
            return 0
        account = self.store.channels_in(conn, turn.notify)
        if account is None:
            return 0
        channels = []
        if account.webhook:
            channels.append("webhook")
        if account.email and self.settings.smtp is not None:
            channels.append("email")
        notices = turn_notifications(
            turn.game_id,
            turn.seq,
            [turn.to_move],
            {turn.to_move: turn.notify},
            {turn.notify: tuple(channels)},
            turn.here,
        )
        return enqueue(conn, notices, turn.since)

    # -- what a notification says ---------------------------------------------------------------
    def compose(self, row: Any) -> Message | None:
        """The message of an outbox row, in the account's language; None when the turn has
        passed (the player moved meanwhile)."""
        turn = self.read(row.game_id)
        colour = self.store.seat_colour(row.game_id, row.account_id)
        name = self.cache.db.game_name(row.game_id)
        if turn is None or colour is None or turn.seq != row.seq or turn.to_move != colour:
            return None
        waiting = len(self.store.your_turn(row.account_id))
        url = f"{self.settings.public_url.rstrip('/')}/g/{row.game_id}"
        lang = json.loads(row.settings or "{}").get("lang") or "en"
        with using(lang):
            subject = _("Your turn in {game}").format(game=name)
            text = _("It is your turn in {game}. Open it: {url}").format(game=name, url=url)
        payload = {
            "event": "your_turn",
            "game": row.game_id,
            "name": name,
            "url": url,
            "text": text,
            "your_turn": waiting,
        }
        return Message(subject, text, payload)

    # -- timeouts -------------------------------------------------------------------------------
    def due(self, now: float | None = None) -> list[Any]:
        """Claim the turns whose time ran out (each by one process only)."""
        return self.store.due_turns(time.time() if now is None else now)

    async def sweep(self) -> int:
        """The correspondence moves whose time ran out: a bot plays them (``on_timeout``
        ``"bot"``) or the game waits. Returns how many were found."""
        rows = await asyncio.to_thread(self.due)
        for r in rows:
            live = await self.cache.get(r.game_id)
            if live is None or live.seq != r.seq or live.game.is_over():
                continue
            live.room.move_deadline = None
            if live.room.settings.on_timeout == "bot" and r.to_move is not None:
                live.room.away.add(r.to_move)
                self.cache.audience.broadcast_seats(live)
                self.cache.changed(live)  # the bots play that move
            else:
                self.cache.audience.broadcast(live)
        return len(rows)

    async def _sweep_loop(self) -> None:
        while True:  # at start-up first: times that ran out while no server was running
            try:
                await self.sweep()
            except Exception:  # a database hiccup: the next round
                log.exception("the correspondence clocks")
            await asyncio.sleep(self.settings.clock_sweep)

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> None:
        self.dispatcher = Dispatcher(
            self.cache.db.engine,
            self.compose,
            smtp=self.settings.smtp,
            allow=parse_networks(self.settings.webhook_allow),
            interval=self.settings.notify_interval,
        )
        self.dispatcher.start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())

    async def stop(self) -> None:
        if self.dispatcher is not None:
            await self.dispatcher.stop()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
