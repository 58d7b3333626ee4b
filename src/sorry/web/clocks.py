"""Whose turn it is in the games accounts play, the correspondence clock, and "your turn"
notifications.

* **Turns.** For every game with an account seated, ``sorry_turns`` holds whose turn it is,
  since when, and in a correspondence game when that move's time runs out: the lobby's and
  the profile's "your turn in N games", and a clock that survives restarts. The process that
  committed a move writes the row (:meth:`Clocks.changed` listens to every change).
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
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..i18n import _, using
from . import account_tables as t
from .cache import GameCache
from .config import Settings
from .correspondence import turn_notifications
from .live import LiveGame
from .outbox import Dispatcher, Message, enqueue
from .people import People
from .webhooks import parse_networks

log = logging.getLogger("sorry.web")


class Clocks:
    def __init__(self, cache: GameCache, people: People, settings: Settings) -> None:
        self.cache = cache
        self.people = people
        self.settings = settings
        self.engine = cache.db.engine
        #: game -> (seq, started, over) of the turn row written or read for it
        self.known: dict[str, tuple[int, bool, bool]] = {}
        self.dispatcher: Dispatcher | None = None
        self._sweeper: asyncio.Task[None] | None = None
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
        self.cache.spawn(self.record(live, before is None or remote))

    def to_move(self, live: LiveGame) -> int | None:
        if not live.room.settings.started or live.game.is_over():
            return None
        return live.game.to_move

    async def record(self, live: LiveGame, read_first: bool) -> None:
        """Write the game's turn (or, for a game just loaded or moved by another process,
        read it: the process that committed the move wrote it)."""
        try:
            if read_first:
                row = await asyncio.to_thread(self.read, live.id)
                if row is not None and row.seq == live.seq:
                    self.show_deadline(live, row.deadline)
                    return
            deadline = await asyncio.to_thread(self.write, live)
        except Exception:  # the next move writes it again
            log.exception("could not record the turn of game %s", live.id)
            return
        self.show_deadline(live, deadline)
        if self.dispatcher is not None:
            self.dispatcher.wake()

    def show_deadline(self, live: LiveGame, deadline: float | None) -> None:
        before = live.room.move_deadline
        live.room.move_deadline = deadline
        if before != deadline and live.conns:
            self.cache.audience.broadcast(live)  # the room's deadline_in

    def read(self, game_id: str) -> Any:
        with self.cache.db.reader.connect() as conn:
            return conn.execute(sa.select(t.turns).where(t.turns.c.game_id == game_id)).first()

    def write(self, live: LiveGame, now: float | None = None) -> float | None:
        """The turn row (and the notifications it causes), in one transaction; returns the
        move's deadline (None: not a correspondence game, or nobody's clock runs)."""
        at = time.time() if now is None else now
        mover = self.to_move(live)
        room = live.room.settings
        seat = live.seats.get(mover) if mover is not None else None
        human = seat is not None and seat.kind == "human"
        deadline = at + room.per_move if room.correspondence and human else None
        values = {"seq": live.seq, "to_move": mover, "since": at, "deadline": deadline}
        with self.engine.begin() as conn:
            updated = conn.execute(
                t.turns.update()
                .where(t.turns.c.game_id == live.id, t.turns.c.seq <= live.seq)
                .values(**values)
            ).rowcount
            if not updated:
                exists = conn.execute(
                    sa.select(t.turns.c.seq).where(t.turns.c.game_id == live.id)
                ).first()
                if exists is not None:
                    return None  # a newer turn is written already
                conn.execute(t.turns.insert().values(game_id=live.id, **values))
            if room.correspondence and mover is not None:
                self.notify(conn, live, mover, at)
        return deadline

    def notify(self, conn: Connection, live: LiveGame, mover: int, at: float) -> int:
        """The "your turn" notifications of the account to move, if it is away."""
        seat = live.seats[mover]
        if seat.account_id is None:
            return 0
        account = conn.execute(
            sa.select(t.accounts.c.webhook, t.accounts.c.email).where(
                t.accounts.c.id == seat.account_id
            )
        ).first()
        if account is None:
            return 0
        channels = []
        if account.webhook:
            channels.append("webhook")
        if account.email and self.settings.smtp is not None:
            channels.append("email")
        here = [c for c in live.game.colours if live.connected(c)]
        wanted = {seat.account_id: tuple(channels)}
        notices = turn_notifications(
            live.id, live.seq, [mover], {mover: seat.account_id}, wanted, here
        )
        return enqueue(conn, notices, at)

    # -- what a notification says ---------------------------------------------------------------
    def compose(self, row: Any) -> Message | None:
        """The message of an outbox row, in the account's language; None when the turn has
        passed (the player moved meanwhile)."""
        turn = self.read(row.game_id)
        with self.cache.db.reader.connect() as conn:
            seat = conn.execute(
                sa.select(t.game_accounts.c.colour).where(
                    t.game_accounts.c.game_id == row.game_id,
                    t.game_accounts.c.account_id == row.account_id,
                )
            ).first()
            name = conn.execute(
                sa.text("SELECT name FROM sorry_games WHERE id = :g"), {"g": row.game_id}
            ).scalar()
        if turn is None or seat is None or turn.seq != row.seq or turn.to_move != seat.colour:
            return None
        waiting = len(self.people.your_turn(row.account_id))
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
        at = time.time() if now is None else now
        with self.cache.db.reader.connect() as conn:
            rows = conn.execute(
                sa.select(t.turns.c.game_id, t.turns.c.seq, t.turns.c.to_move)
                .where(t.turns.c.deadline.is_not(None), t.turns.c.deadline <= at)
                .limit(200)
            ).all()
        claimed = []
        with self.engine.begin() as conn:
            for r in rows:
                got = conn.execute(
                    t.turns.update()
                    .where(
                        t.turns.c.game_id == r.game_id,
                        t.turns.c.seq == r.seq,
                        t.turns.c.deadline.is_not(None),
                    )
                    .values(deadline=None)
                ).rowcount
                if got:
                    claimed.append(r)
        return claimed

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
            self.engine,
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
