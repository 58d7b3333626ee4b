"""The waiting room of a game, its turn timer and its "away" seats.

* **Start.** A game made with ``"start": "host"`` waits until its host (whoever holds the host
  token returned when it was made) starts it; ``"full"`` starts by itself once every human
  seat is taken (the host may start earlier); ``"ready"`` (the next game of a match) once every
  human seat has accepted. ``"now"`` (the default of the HTTP API) starts at once. Until the
  start nobody moves: no bot, no takeover, no player.
* **The host** may turn a seat that nobody has taken into a bot, switch the chat off and on,
  and start the game.
* **Turn timer** (``"timer"``: 0, 30, 60 or 120 seconds; 0 = none): when a person's turn runs
  out, a bot plays the move (the log says ``timeout``) and the seat is *away*: the bot plays
  each of its turns until the player acts again (any move, or the page's *I'm back*).

The settings live in the game's ``room`` column (JSON); the deadline and the away seats are
kept in memory by the process that serves the game.
"""

from __future__ import annotations

import hmac
import json
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection

from ..board import COLOUR_LETTERS
from .chat import ChatLog
from .db import games, seats

if TYPE_CHECKING:
    from .service import GameService, LiveGame

START_MODES = ("now", "host", "full", "ready")
TIMERS = (0, 30, 60, 120)


@dataclass
class Room:
    """A game's room settings, as stored."""

    started: bool = True
    start: str = "now"
    host_hash: str | None = None
    timer: int = 0
    chat: bool = True
    ready: list[str] = field(default_factory=list)  # seats that accepted (start "ready")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Room:
        if not data:
            return cls()
        known = {k: data[k] for k in ("started", "start", "host_hash", "timer", "chat", "ready")}
        return cls(**known)


def parse_room(data: object) -> Room:
    """The ``room`` of ``POST /api/games``: ``{"start", "timer", "chat"}`` (ValueError)."""
    if data is None:
        return Room()
    if not isinstance(data, dict):
        raise ValueError("room must be an object {start, timer, chat}")
    extra = sorted(str(k)[:20] for k in data if k not in ("start", "timer", "chat"))
    if extra:
        raise ValueError(f"unexpected room field(s): {', '.join(extra)}")
    start = data.get("start", "now")
    if start not in ("now", "host", "full"):
        raise ValueError("room start must be now, host or full")
    timer = data.get("timer", 0)
    if isinstance(timer, bool) or timer not in TIMERS:
        raise ValueError("room timer must be 0, 30, 60 or 120 (seconds)")
    chat = data.get("chat", True)
    if not isinstance(chat, bool):
        raise ValueError("room chat must be true or false")
    return Room(started=start == "now", start=start, timer=int(timer), chat=chat)


class RoomState:
    """A live game's room: the settings, the turn deadline, the away seats and the chat."""

    def __init__(self, settings: Room | None = None, timer_scale: float = 1.0) -> None:
        self.settings = settings or Room()
        self.timer_scale = timer_scale
        self.deadline: float | None = None  # time.monotonic() when the turn runs out
        self.away: set[int] = set()  # timed-out seats a bot plays for
        self.chat = ChatLog()

    def update(self, data: dict[str, Any] | None) -> bool:
        """New settings from the database (another process); True if they changed."""
        new = Room.from_json(data)
        if new == self.settings:
            return False
        self.settings = new
        return True

    def public(self) -> dict[str, Any]:
        s = self.settings
        left = None
        if self.deadline is not None:
            left = round(max(0.0, self.deadline - time.monotonic()), 2)
        return {
            "started": s.started,
            "start": s.start,
            "timer": s.timer,
            "chat": s.chat,
            "ready": list(s.ready),
            "hosted": s.host_hash is not None,
            "deadline_in": left,
        }

    def is_host(self, digest: str) -> bool:
        host = self.settings.host_hash
        return host is not None and hmac.compare_digest(digest, host)


# -- timers ---------------------------------------------------------------------------------
def turn_began(live: LiveGame) -> None:
    """Set the deadline of the turn that begins now (a person to move, a timer chosen)."""
    room = live.room
    room.deadline = None
    game = live.game
    if not room.settings.started or not room.settings.timer or game.is_over():
        return
    colour = game.to_move
    seat = live.seats.get(colour)
    if seat is None or seat.kind != "human" or colour in room.away:
        return
    room.deadline = time.monotonic() + room.settings.timer * room.timer_scale


def acted(live: LiveGame, colour: int) -> bool:
    """The player of ``colour`` acted: they are no longer away. True if they were."""
    if colour in live.room.away:
        live.room.away.discard(colour)
        return True
    return False


def timed_out(live: LiveGame) -> bool:
    """True (once) when the turn's time ran out: the seat becomes away."""
    room = live.room
    if room.deadline is None or time.monotonic() < room.deadline or live.game.is_over():
        return False
    room.deadline = None
    room.away.add(live.game.to_move)
    return True


# -- the waiting room -----------------------------------------------------------------------
async def _save(service: GameService, live: LiveGame) -> None:
    """Store the room's settings (in the database's next group commit)."""
    await service.write(_save_in, live.id, json.dumps(live.room.settings.to_json()))


def _save_in(conn: Connection, game_id: str, room: str) -> None:
    conn.execute(
        games.update().where(games.c.id == game_id).values(room=room, updated_at=time.time())
    )


async def start(service: GameService, live: LiveGame) -> None:
    """Start the game: everyone is told, the clocks begin, bots may move."""
    async with live.lock:
        if live.room.settings.started:
            return
        live.room.settings.started = True
        await _save(service, live)
        now = time.monotonic()
        for c, s in live.seats.items():  # an absent player's time away counts from now
            if s.kind == "human" and c in live.away_since:
                live.away_since[c] = now
        live.last_change = now
        turn_began(live)
        service.broadcast(live)
    service._schedule_bot(live)


async def maybe_start(service: GameService, live: LiveGame) -> None:
    """Start by itself when the room's rule says so (every seat taken, or every player
    ready)."""
    s = live.room.settings
    if s.started:
        return
    humans = [c for c, seat in live.seats.items() if seat.kind == "human"]
    full = s.start == "full" and all(live.seats[c].claimed for c in humans)
    ready = s.start == "ready" and all(COLOUR_LETTERS[c] in s.ready for c in humans)
    if full or ready:
        await start(service, live)


async def set_ready(service: GameService, live: LiveGame, colour: int) -> None:
    """A seated player accepts the next game of the match."""
    s = live.room.settings
    letter = COLOUR_LETTERS[colour]
    if s.started or letter in s.ready:
        return
    s.ready.append(letter)
    await _save(service, live)
    await maybe_start(service, live)
    if not live.room.settings.started:
        service.broadcast(live)


async def host_action(
    service: GameService, live: LiveGame, digest: str, action: str, data: dict[str, Any]
) -> str | None:
    """A host's request (``start``, ``bot``, ``chat``); returns the reason it was refused."""
    if not live.room.is_host(digest):
        return "only the host may do that"
    if action == "start":
        if live.room.settings.started:
            return "the game has started"
        await start(service, live)
        return None
    if action == "chat":
        enabled = data.get("enabled")
        if not isinstance(enabled, bool):
            return "enabled must be true or false"
        live.room.settings.chat = enabled
        await _save(service, live)
        service.broadcast(live)
        return None
    if action == "bot":
        colour = data.get("colour")
        level = data.get("level")
        if not isinstance(colour, int) or colour not in live.seats:
            return "no such seat"
        from .players import bot_levels

        if level not in bot_levels():
            return f"bot level must be one of {', '.join(bot_levels())}"
        if live.room.settings.started:
            return "seats can change only before the start"
        seat = live.seats[colour]
        if seat.kind != "human" or seat.claimed:
            return "only a seat nobody has taken can become a bot"
        await service.write(_make_bot_in, live.id, colour, str(level))
        await service.refresh(live)
        await maybe_start(service, live)
        return None
    return f"unknown action {action[:20]!r}"


def _make_bot_in(conn: Connection, game_id: str, colour: int, level: str) -> None:
    conn.execute(
        seats.update()
        .where(seats.c.game_id == game_id, seats.c.colour == colour, seats.c.claimed == 0)
        .values(kind="bot", bot_level=level, name=f"{level} bot", token_hash=None, claimed=1)
    )
    conn.execute(games.update().where(games.c.id == game_id).values(updated_at=time.time()))


def next_room(live: LiveGame, asker: int) -> Room:
    """The room of the next game of the match: the same host, timer and chat; it starts when
    every player has accepted (the one who asked has)."""
    s = live.room.settings
    return Room(
        started=False,
        start="ready",
        host_hash=s.host_hash,
        timer=s.timer,
        chat=s.chat,
        ready=[COLOUR_LETTERS[asker]],
    )


__all__ = [
    "START_MODES",
    "TIMERS",
    "Room",
    "RoomState",
    "acted",
    "host_action",
    "maybe_start",
    "next_room",
    "parse_room",
    "set_ready",
    "start",
    "timed_out",
    "turn_began",
]
