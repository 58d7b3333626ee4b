"""The waiting room of a game, its turn timer and its "away" seats.

* **Start.** A game made with ``"start": "host"`` waits until its host (whoever holds the host
  token returned when it was made) starts it; ``"full"`` starts by itself once every human
  seat is taken (the host may start earlier); ``"ready"`` (the next game of a match) once every
  human seat has accepted. ``"now"`` (the default of the HTTP API) starts at once. Until the
  start nobody moves: no bot, no takeover, no player.
* **The host** may turn a seat that nobody has taken into a bot (before or after the start: an
  invited player who never came), switch the chat off and on,
  and start the game.
* **Turn timer** (``"timer"``: 0, 30, 60 or 120 seconds; 0 = none): when a person's turn runs
  out, a bot plays the move (the log says ``timeout``) and the seat is *away*: the bot plays
  each of its turns until the player acts again (any move, or the page's *I'm back*).
* **Rated** (``"rated": true``, made by a logged-in account): the game is rated when it ends
  (:mod:`sorry.web.results`) if every person seated is an account (bots hold fixed ratings);
  its seats are for accounts only.
* **Correspondence** (``"per_move"``: seconds a move, from an hour to three days,
  :mod:`sorry.web.correspondence`): nobody is taken over after a minute away; when a move's
  time runs out, ``"on_timeout"`` says what happens: ``"wait"`` (the default: the game waits,
  the player is reminded) or ``"bot"`` (a bot plays for them until they are back). The clock
  is kept in the database (``sorry_turns``), so it survives restarts.

The settings live in the game's ``room`` column (JSON); the deadline and the away seats are
kept in memory by the process that serves the game. A turn's clock runs only while somebody
is seated at the game, unless the server plays games with nobody there (``--allow-bot-games``):
a game nobody watches never plays itself out by timeouts. The waiting room's actions (start,
ready, the host's) are :mod:`sorry.web.hosting`'s.
"""

from __future__ import annotations

import hmac
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ..board import COLOUR_LETTERS
from .chat import ChatLog
from .correspondence import ON_TIMEOUT, parse_per_move

if TYPE_CHECKING:
    from .live import LiveGame

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
    rated: bool = False  # rated when it ends (accounts only)
    per_move: int = 0  # seconds a move in a correspondence game (0: a live game)
    on_timeout: str = "wait"  # correspondence: "wait" or "bot" when a move's time runs out

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Room:
        if not data:
            return cls()
        names = ("started", "start", "host_hash", "timer", "chat", "ready")
        known = {k: data[k] for k in (*names, "rated", "per_move", "on_timeout") if k in data}
        return cls(**known)

    @property
    def correspondence(self) -> bool:
        return self.per_move > 0


def parse_room(data: object) -> Room:
    """The ``room`` of ``POST /api/games``: ``{"start", "timer", "chat"}`` (ValueError)."""
    if data is None:
        return Room()
    if not isinstance(data, dict):
        raise ValueError("room must be an object {start, timer, chat}")
    allowed = ("start", "timer", "chat", "rated", "per_move", "on_timeout")
    extra = sorted(str(k)[:20] for k in data if k not in allowed)
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
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ValueError("room rated must be true or false")
    per_move = 0
    if data.get("per_move") not in (None, 0):
        seconds = parse_per_move(data.get("per_move"))
        if seconds is None:
            raise ValueError("room per_move must be 0 or whole seconds from 3600 to 259200")
        per_move = int(seconds)
        if timer:
            raise ValueError("a correspondence game (per_move) has no turn timer")
    on_timeout = data.get("on_timeout", "wait")
    if on_timeout not in ON_TIMEOUT:
        raise ValueError(f"room on_timeout must be one of {', '.join(ON_TIMEOUT)}")
    return Room(
        started=start == "now",
        start=start,
        timer=int(timer),
        chat=chat,
        rated=rated,
        per_move=per_move,
        on_timeout=on_timeout,
    )


class RoomState:
    """A live game's room: the settings, the turn deadline, the away seats and the chat."""

    def __init__(
        self, settings: Room | None = None, timer_scale: float = 1.0, unattended: bool = False
    ) -> None:
        self.settings = settings or Room()
        self.timer_scale = timer_scale
        #: the clock runs with nobody seated (a server that allows games with nobody there)
        self.unattended = unattended
        self.deadline: float | None = None  # time.monotonic() when the turn runs out
        #: a correspondence game: time.time() when this move's time runs out (sorry_turns)
        self.move_deadline: float | None = None
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
        elif self.move_deadline is not None:
            left = round(max(0.0, self.move_deadline - time.time()))
        return {
            "started": s.started,
            "start": s.start,
            "timer": s.timer,
            "chat": s.chat,
            "ready": list(s.ready),
            "hosted": s.host_hash is not None,
            "deadline_in": left,
            "rated": s.rated,
            "per_move": s.per_move,
            "on_timeout": s.on_timeout,
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
    """True (once) when the turn's time ran out: the seat becomes away. With nobody seated
    (and games with nobody there not allowed) the clock stops instead: it starts again when
    somebody sits down (:func:`turn_began`, from :mod:`sorry.web.audience`)."""
    room = live.room
    if room.deadline is None or time.monotonic() < room.deadline or live.game.is_over():
        return False
    room.deadline = None
    if not room.unattended and not live.anyone_seated:
        return False
    room.away.add(live.game.to_move)
    return True


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
        rated=s.rated,
        per_move=s.per_move,
        on_timeout=s.on_timeout,
    )


__all__ = [
    "START_MODES",
    "TIMERS",
    "Room",
    "RoomState",
    "acted",
    "next_room",
    "parse_room",
    "timed_out",
    "turn_began",
]
