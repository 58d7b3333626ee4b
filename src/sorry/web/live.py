"""A game as the server holds it in memory (:class:`LiveGame`): the game, its sequence number,
its seats, its public log with each move's words, its connections and its room.

Nothing here changes a game: the moves are :mod:`sorry.web.games`'s, the loading and the
catching up with the database :mod:`sorry.web.cache`'s.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..board import COLOUR_LETTERS
from ..cards import card_name, parse_card
from ..effects import Effect, effects_json
from ..game import Game, Resign
from ..i18n import _
from ..moves import Move
from ..rulebook import declines
from .conn import Conn
from .db import MoveRow, SeatRow
from .limits import RateLimit
from .players import HintResult
from .protocol import describe_move, movers_of, paths_of
from .room import RoomState


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
    #: the log as JSON text per language, and how many entries it holds (sorry.web.audience:
    #: a whole state costs its view, not its log, when asked again)
    log_text: dict[str, tuple[int, str]] = field(default_factory=dict)
    #: token hashes known to be wrong for a seat (``(colour, hash)``): a hello with one of
    #: them is refused without reading the database again (sorry.web.games)
    bad_tokens: dict[tuple[int, str], float] = field(default_factory=dict)
    refreshed_at: float = 0.0  # when the game was last read again for a token

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

    def moved(self, game: Game, seq: int, entry: dict[str, Any], said: Said) -> None:
        """Take a move that was played (committed here or by another process)."""
        self.game = game
        self.seq = seq
        self.hints.clear()  # hints answer one position
        self.last_change = time.monotonic()
        self.log.append(entry)
        self.said[seq] = said


def log_entries(game: Game, rows: list[MoveRow]) -> tuple[list[dict[str, Any]], dict[int, Said]]:
    """The public log of a game: each accepted decision, and the card it used when public;
    and what each move did, by seq (worked out on a copy of the game taken back step by
    step: its words say what slid, what was bumped, whether an 11 was declined)."""
    history = game.history
    back = game.copy()
    said_at: list[Said] = []
    for _step in history:
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
        if isinstance(step, Resign):
            row = next(it, None)
            if row is None:
                break
            said[row.seq] = RESIGNED
            entries.append(resign_entry(row.seq, row.colour, row.actor))
            continue
        if isinstance(step, int):
            last_card = step
            continue
        row = next(it, None)
        if row is None:
            break
        card = step.card if points else last_card
        said[row.seq] = next(moves)
        # the paths and effects of past moves are not sent (the page animates the last move)
        entries.append(log_entry(row.seq, row.colour, row.actor, step, card, said[row.seq], False))
    return entries, said


def log_entry(
    seq: int,
    colour: int,
    actor: str,
    move: Move,
    card: int | None,
    said: Said,
    animate: bool = True,
) -> dict[str, Any]:
    """A log entry: the move in words from what it did (slides and bumps too; a declined 11
    is not a forfeit), the pawns the player moved (the page names and shows their squares)
    and, to ``animate`` it, the paths and effects the page walks the pawns along."""
    return {
        "seq": seq,
        "colour": COLOUR_LETTERS[colour],
        "actor": actor,
        "move": str(move),
        "text": describe_move(move, said.effects, card, said.declined, colour),
        "card": card_name(card) if card is not None else None,
        "movers": movers_of(move, said.effects),
        "paths": paths_of(said.effects) if animate else [],
        "effects": effects_json(said.effects) if animate else [],
    }


#: What a resignation did, as a move's :class:`Said`: no effects.
RESIGNED = Said([], False)


def resign_entry(seq: int, colour: int, actor: str) -> dict[str, Any]:
    """The log entry of a resignation (``move`` is ``resign``; the page says "Blue resigns")."""
    return {
        "seq": seq,
        "colour": COLOUR_LETTERS[colour],
        "actor": actor,
        "move": "resign",
        "text": _("resigns"),
        "card": None,
        "movers": [],
        "paths": [],
        "effects": [],
    }


def translated_entry(entry: dict[str, Any], said: dict[int, Said]) -> dict[str, Any]:
    """A log entry with its words in the current language (re-derived from its move, its
    card and what it did)."""
    if entry.get("move") == "resign":
        return {**entry, "text": _("resigns")}
    try:
        move = Move.parse(entry["move"])
        card = parse_card(entry["card"]) if entry.get("card") else None
    except (KeyError, ValueError):
        return entry
    done = said.get(entry["seq"])
    mover = COLOUR_LETTERS.find(entry.get("colour") or "-")  # said without the mover
    mover_or_none = mover if mover >= 0 else None
    if done is None:
        return {**entry, "text": describe_move(move, None, card, None, mover_or_none)}
    return {
        **entry,
        "text": describe_move(move, done.effects, card, done.declined, mover_or_none),
    }
