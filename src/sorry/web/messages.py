"""The game protocol's messages, each declared once: what a client may send (a payload class
with its parser and its cost class) and what the server sends (a typed dictionary).

* **Client messages** (JSON objects over the WebSocket, at most :data:`MAX_MESSAGE_BYTES`): one
  frozen dataclass each, :data:`CLIENT_PAYLOADS`, whose ``TYPE`` is the message's ``type``,
  whose fields are the message's fields (every other field is refused), whose ``parse`` checks
  each one, and whose ``COST`` says what answering it costs the server (:class:`Cost`), which
  is how the session limits it. The handler of each is named in the dispatch table of
  :mod:`sorry.web.handlers` (one row a type).
* **Server messages**: a ``TypedDict`` each, :data:`SERVER_MESSAGES`, with the parts they are
  made of. The page's types (``static/messages.js``, checked by TypeScript in ``make test``)
  are generated from these: ``python -m sorry.web.typegen`` writes them, and a test fails
  when the file differs from what it would write.

A new message type is a payload class here (and a server message, if it answers with a new
one), a row and a handler in :mod:`sorry.web.handlers`, and the page's handling in
``static/main.js``; ``static/messages.js`` is written again from this module
(:mod:`sorry.web.typegen`).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Annotated, Any, ClassVar, Literal, NotRequired, TypedDict

from ..board import COLOUR_LETTERS
from ..i18n import N_
from .players import MoveChance
from .tokens import BadValue, clean_name, has_lone_surrogate, parse_token

MAX_MESSAGE_BYTES = 2048
MAX_MOVE_CHARS = 64
MAX_SEQ = 10**9
MAX_CHAT_CHARS = 200
#: Quick phrases of the chat, by id (the page translates them).
PHRASES = ("hello", "good_luck", "nice_move", "oops", "sorry", "well_played", "thanks", "bye")
#: The reactions anyone on a game may send (shown a moment to everyone).
REACTIONS = ("👍", "👏", "😂", "😮", "😢", "🎉")
#: The words the page shows for the messages (its catalog, sorry.web.i18n, takes them).
WORDS = (N_("React with {emoji}"), N_("A spectator"))


class ProtocolError(Exception):
    """A client message that is malformed or not allowed; ``code`` is machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Cost(enum.Enum):
    """What answering a client message costs the server, which decides how it is limited
    (besides every connection's allowance of messages per second, :mod:`sorry.web.session`)."""

    #: answered from memory in microseconds (ping, back, hello)
    CHEAP = "cheap"
    #: a whole state: limited per connection and per address, served from a cache
    STATE = "state"
    #: a write to the database (a move): the game's lock and the group commit bound it
    WRITE = "write"
    #: a search in the worker pool (a hint): limited per seat and per address
    COMPUTE = "compute"
    #: sent to everyone on the game (chat): limited per connection, per address and per game
    FANOUT = "fanout"


# -- client messages ------------------------------------------------------------------------
def _seq(data: Mapping[str, Any]) -> int:
    seq = data.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= MAX_SEQ:
        raise ProtocolError("bad_field", "seq must be the integer sequence number last seen")
    return seq


def _colour(value: object) -> int:
    if not isinstance(value, str) or len(value) != 1 or value not in COLOUR_LETTERS:
        raise ProtocolError("bad_field", "seat must be one of R, B, Y, G")
    return COLOUR_LETTERS.index(value)


def clean_text(text: object) -> str:
    """A chat line: printable, trimmed, at most 200 characters (BadValue otherwise)."""
    if not isinstance(text, str):
        raise BadValue("chat text must be a string")
    line = " ".join(text.split())
    if not line:
        raise BadValue("chat text is empty")
    if len(line) > MAX_CHAT_CHARS:
        raise BadValue(f"chat text must be at most {MAX_CHAT_CHARS} characters")
    if any(not ch.isprintable() for ch in line):
        raise BadValue("chat text must be printable")
    return line


@dataclass(frozen=True)
class Payload:
    """A client message; subclasses declare ``TYPE``, ``COST``, their fields and ``parse``."""

    TYPE: ClassVar[str]
    COST: ClassVar[Cost]

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Payload:
        return cls()


@dataclass(frozen=True)
class Hello(Payload):
    """Sit at a seat with its token, or with no token at a seat the connection's account
    holds (its session cookie); without a seat, watch."""

    TYPE = "hello"
    COST = Cost.CHEAP
    seat: Annotated[int | None, "R, B, Y or G"] = None
    token: Annotated[str | None, "the seat's secret token (none: the account's seat)"] = None

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Hello:
        seat, token = data.get("seat"), data.get("token")
        if seat is None and token is None:
            return cls()
        colour = _colour(seat)
        if token is None:
            return cls(colour, None)
        try:
            return cls(colour, parse_token(token))
        except BadValue as exc:
            raise ProtocolError("bad_field", str(exc)) from None


@dataclass(frozen=True)
class MoveRequest(Payload):
    """Play one of the legal moves listed in the state of sequence number ``seq``."""

    TYPE = "move"
    COST = Cost.WRITE
    seq: int
    move: str

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> MoveRequest:
        seq = _seq(data)
        move = data.get("move")
        if not isinstance(move, str) or not 1 <= len(move) <= MAX_MOVE_CHARS:
            raise ProtocolError("bad_field", "move must be a string of 1-64 characters")
        return cls(seq, move)


@dataclass(frozen=True)
class HintRequest(Payload):
    """A suggested move for the position of sequence number ``seq``."""

    TYPE = "hint"
    COST = Cost.COMPUTE
    seq: int

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> HintRequest:
        return cls(_seq(data))


@dataclass(frozen=True)
class Resync(Payload):
    """The whole state again (with the log)."""

    TYPE = "resync"
    COST = Cost.STATE


@dataclass(frozen=True)
class Ping(Payload):
    """Keep-alive, answered by ``pong``."""

    TYPE = "ping"
    COST = Cost.CHEAP


@dataclass(frozen=True)
class Back(Payload):
    """A seat that timed out is played by its player again."""

    TYPE = "back"
    COST = Cost.CHEAP


@dataclass(frozen=True)
class Leave(Payload):
    """A player leaves the game: a bot plays their seat until they are back (``back``)."""

    TYPE = "leave"
    COST = Cost.CHEAP


@dataclass(frozen=True)
class ResignRequest(Payload):
    """The player resigns (docs/rules.md, Resigning): in a game of two or in teams the other
    side wins; in a game of three or four their pawns leave the board and the others play on."""

    TYPE = "resign"
    COST = Cost.WRITE


@dataclass(frozen=True)
class UndoRequest(Payload):
    """Take back the player's last move and the bots' moves after it, from the state of
    sequence number ``seq``: only in a casual game where every other seat is a bot."""

    TYPE = "undo"
    COST = Cost.WRITE
    seq: int

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> UndoRequest:
        return cls(_seq(data))


@dataclass(frozen=True)
class ChatRequest(Payload):
    """Say something to everyone on the game: free ``text`` or a quick ``phrase`` (one of
    them); a spectator may add a ``name``."""

    TYPE = "chat"
    COST = Cost.FANOUT
    text: str | None = None
    phrase: str | None = None
    name: str | None = None

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> ChatRequest:
        text, phrase = data.get("text"), data.get("phrase")
        if (text is None) == (phrase is None):
            raise ProtocolError("bad_field", "chat needs text or a phrase (one of them)")
        if phrase is not None and phrase not in PHRASES:
            raise ProtocolError("bad_field", f"phrase must be one of {', '.join(PHRASES)}")
        try:
            if text is not None:
                text = clean_text(text)
            name = clean_name(data.get("name"), "") or None
        except BadValue as exc:
            raise ProtocolError("bad_field", str(exc)) from None
        return cls(text, phrase, name)


@dataclass(frozen=True)
class React(Payload):
    """A quick reaction, one of :data:`REACTIONS`, shown a moment to everyone on the game
    (limited as the chat is)."""

    TYPE = "react"
    COST = Cost.FANOUT
    emoji: str

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> React:
        emoji = data.get("emoji")
        if emoji not in REACTIONS:
            raise ProtocolError("bad_field", f"emoji must be one of {' '.join(REACTIONS)}")
        return cls(str(emoji))


#: Every client message, by type.
CLIENT_PAYLOADS: dict[str, type[Payload]] = {
    p.TYPE: p
    for p in (
        Hello,
        MoveRequest,
        HintRequest,
        Resync,
        Ping,
        Back,
        Leave,
        ResignRequest,
        UndoRequest,
        ChatRequest,
        React,
    )
}


def payload_fields(payload: type[Payload]) -> tuple[str, ...]:
    return tuple(f.name for f in fields(payload))


def parse_client_message(raw: str | bytes) -> Payload:
    """Validate one message from a client; raises :class:`ProtocolError` with the reason."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_MESSAGE_BYTES:
            raise ProtocolError("too_large", f"message larger than {MAX_MESSAGE_BYTES} bytes")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "message is not UTF-8 text") from None
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"message larger than {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "message must be a JSON object")
    kind = data.get("type")
    payload = CLIENT_PAYLOADS.get(kind) if isinstance(kind, str) else None
    if payload is None:
        raise ProtocolError(
            "bad_type", f"unknown message type (expected one of {', '.join(CLIENT_PAYLOADS)})"
        )
    allowed = {"type", *payload_fields(payload)}
    extra = sorted(str(k)[:20] for k in data if k not in allowed)
    if extra:
        raise ProtocolError("bad_field", f"unexpected field(s) in {kind}: {', '.join(extra)}")
    if has_lone_surrogate(data):
        raise ProtocolError("bad_field", "text must be valid Unicode (a lone surrogate)")
    return payload.parse(data)


# -- server messages ------------------------------------------------------------------------
#: Marks a field whose every part is optional (a delta's view: only what changed).
PARTIAL = "partial"
#: Marks a type the page's file declares by this name.
NAMED = "named"

Path_ = Annotated[
    tuple[str, str, str],
    NAMED,
    'a pawn that moves: [colour, from, to] (locations as the server names them: "S", "H", '
    '"s1".."s5" or a track square "0".."59")',
]


class LegalMove(TypedDict):
    """One legal move as the page offers it."""

    move: Annotated[str, "the notation to send back"]
    text: Annotated[str, "the move in words, in the page's language"]
    card: Annotated[str | None, 'the card it plays ("S" for Sorry!)']
    kind: Annotated[str, "forward, backward, start, sorry, swap, split, pass, discard"]
    paths: Annotated[list[Path_], "every pawn it moves, bumps included"]
    movers: Annotated[list[Path_], "the pawns the player moves, in playing order"]
    target: Annotated[tuple[str, str] | None, "the other pawn of a Sorry! or a swap"]


class View(TypedDict):
    """What one seat (or a spectator) may see of the game (sorry.web.protocol.view_json)."""

    variant: str
    options: str
    viewer: str | None
    colours: list[str]
    to_move: str
    phase: str
    pawns: dict[str, list[str]]
    position: str
    card: str | None
    hand: list[str]
    hand_sizes: dict[str, int]
    discard_pile: list[str]
    draw_count: int
    turn: int
    first: str
    winners: list[str]
    scores: Annotated[
        dict[str, int] | None,
        "points: the finished game's, or in a points game being played each one's so far",
    ]
    legal_moves: list[LegalMove]


class SeatInfo(TypedDict):
    colour: str
    kind: Annotated[str, '"human" or "bot"']
    level: str | None
    name: str
    claimed: bool
    open: bool
    connected: bool
    bot_playing: Annotated[bool, "a takeover bot plays for an absent player"]
    away: Annotated[bool, "the turn timer ran out: a bot plays until they act"]
    ready: Annotated[bool, "accepted the next game of the match"]
    account: Annotated[str | None, "the account holding the seat (its profile: /u/NAME)"]
    resigned: Annotated[bool, "resigned: out of the game, ranked last"]


Effect = TypedDict(  # functional form: "from" is a keyword in Python
    "Effect",
    {
        "kind": Annotated[str, "forward, backward, start, sorry, swap, slide, bump"],
        "colour": str,
        "from": str,
        "to": str,
        "path": Annotated[list[str], "every location entered, in order (the last is `to`)"],
        "part": Annotated[int, "which half of a split 7 (0 otherwise)"],
    },
)
Effect.__doc__ = (
    "One event of a move, in order (sorry.effects, the core's account of what a move does): a "
    "pawn walks square by square (forward, backward, out of START), takes a square (Sorry!), "
    "swaps, slides, or is bumped back to START."
)


class LogEntry(TypedDict):
    seq: int
    colour: str
    actor: Annotated[str, "player, bot, takeover, timeout or forced (a turn with no legal move)"]
    move: str
    text: str
    card: str | None
    movers: Annotated[
        list[Path_], "the pawns the player moved, in playing order (to: where each ended)"
    ]
    paths: list[Path_]
    effects: NotRequired[
        Annotated[list[Effect], "what the move did, in order (when the server sends them)"]
    ]


class RoomInfo(TypedDict):
    started: bool
    start: Annotated[str, "now, host, full or ready"]
    timer: Annotated[int, "seconds per turn, 0 = none"]
    chat: bool
    ready: list[str]
    hosted: bool
    deadline_in: Annotated[float | None, "seconds left in this turn"]
    rated: Annotated[bool, "rated when it ends (accounts only)"]
    per_move: Annotated[int, "a correspondence game's seconds a move (0: a live game)"]
    on_timeout: Annotated[str, "correspondence: wait or bot when a move's time runs out"]


class MatchInfo(TypedDict):
    number: int
    games: int
    wins: dict[str, int]
    points: dict[str, int]


class ChatLine(TypedDict):
    n: int
    colour: Annotated[str | None, "the writer's seat; null: a spectator"]
    who: Annotated[str, "the writer's connection (spectators are muted by it)"]
    name: str
    text: str | None
    phrase: str | None
    at: float


class Welcome(TypedDict):
    """The answer to hello: the seat and the role."""

    type: Literal["welcome"]
    game: str
    seat: str | None
    role: Annotated[str, "player or spectator"]
    max_message_bytes: int


class StateMessage(TypedDict):
    """The whole state (after hello and resync; with the log)."""

    type: Literal["state"]
    game: str
    name: str
    seq: int
    status: Annotated[str, "playing or over"]
    view: View
    seats: list[SeatInfo]
    last: LogEntry | None
    match: MatchInfo
    next_game: str | None
    commitment: str | None
    room: RoomInfo
    teams: NotRequired[Annotated[list[list[str]] | None, "the partnerships (teams variant)"]]
    log: NotRequired[list[LogEntry]]


class DeltaMessage(TypedDict):
    """What changed since the last state: ``seq``, and each field of the state whose value
    changed, the view's field by field (``last`` is the move that was played: its log entry).
    net.js turns it into the state it leads to."""

    type: Literal["delta"]
    seq: int
    view: NotRequired[Annotated[View, PARTIAL]]
    status: NotRequired[str]
    seats: NotRequired[list[SeatInfo]]
    last: NotRequired[LogEntry | None]
    match: NotRequired[MatchInfo]
    next_game: NotRequired[str | None]
    commitment: NotRequired[str | None]
    room: NotRequired[RoomInfo]
    teams: NotRequired[list[list[str]] | None]
    game: NotRequired[str]
    name: NotRequired[str]


class SeatsMessage(TypedDict):
    """The seats changed (somebody joined, left, or a bot took over)."""

    type: Literal["seats"]
    seq: int
    seats: list[SeatInfo]


class Accepted(TypedDict):
    """Your move was committed; ``seq`` is the new sequence number."""

    type: Literal["accepted"]
    seq: int
    move: str


class Resigned(TypedDict):
    """Your resignation was committed (everyone gets the new state)."""

    type: Literal["resigned"]
    seq: int
    colour: str


class Undone(TypedDict):
    """Your last move and the bots' moves after it were taken back; ``seq`` is the state's
    (everyone gets the whole state again, with the log)."""

    type: Literal["undone"]
    seq: int


class Rejected(TypedDict):
    """Your move (or hint) was not taken, with the reason; what changed since your state
    follows as a delta when the game had moved on."""

    type: Literal["rejected"]
    code: Annotated[str, "stale, illegal, not_your_turn, game_over, not_started, spectator, ..."]
    reason: str
    seq: int
    resync: Annotated[bool, "ask for the whole state (resync) to go on"]


class HintWords(TypedDict):
    """The hint in a player's words (:func:`sorry.hintwords.hint_words`, in the receiver's
    language), its moves in the order of ``moves``."""

    say: Annotated[str, "the headline: the best move's chance in tenths, the moves as good"]
    tags: Annotated[list[str], "each move's kind in words: best, as good, not as good"]
    kinds: Annotated[list[str], "each move's kind: best, as good, not as good (English)"]
    figures: Annotated[list[str], "the details: each move's chance and interval, 62% [55-69]"]
    heading: Annotated[str, "the details' heading"]
    note: Annotated[str, "what as good means (empty when no move is as good as the best)"]


class HintMessage(TypedDict):
    """A suggested move, its words, and each move's estimate best first."""

    type: Literal["hint"]
    seq: int
    move: str
    text: str
    moves: list[MoveChance]
    #: the hint in a player's words (null when fewer than two moves are estimated)
    words: HintWords | None
    separated: bool
    #: the only legal move (a pass included): nothing estimated, ``moves`` empty
    forced: bool
    #: the chances come from the Python engine's playouts (no compiled engine): a guide
    rough: bool
    #: the compiled search is still loading (the first start compiles it: minutes): the
    #: move is a quick bot's, ``moves`` empty
    provisional: bool


class ErrorMessage(TypedDict):
    """The message itself was refused (bad_json, bad_type, bad_field, rate_limited, ...)."""

    type: Literal["error"]
    code: str
    error: str


class Pong(TypedDict):
    type: Literal["pong"]
    seq: int


class ChatMessage(TypedDict):
    """One chat line, to everyone on the game."""

    type: Literal["chat"]
    message: ChatLine


class Reaction(TypedDict):
    """Somebody on the game reacted (``colour``: their seat; null: a spectator)."""

    type: Literal["reaction"]
    colour: str | None
    name: Annotated[str | None, "the player's name; null: a spectator"]
    emoji: str


class ChatHistory(TypedDict):
    """The last chat lines, after hello."""

    type: Literal["chat_history"]
    messages: list[ChatLine]


#: Every server message, by type.
SERVER_MESSAGES: dict[str, type[Any]] = {
    "welcome": Welcome,
    "state": StateMessage,
    "delta": DeltaMessage,
    "seats": SeatsMessage,
    "accepted": Accepted,
    "resigned": Resigned,
    "undone": Undone,
    "rejected": Rejected,
    "hint": HintMessage,
    "error": ErrorMessage,
    "pong": Pong,
    "chat": ChatMessage,
    "chat_history": ChatHistory,
    "reaction": Reaction,
}

#: The parts of the messages, in the order the page's file declares them.
PARTS: tuple[type[Any], ...] = (
    LegalMove,
    View,
    SeatInfo,
    Effect,
    LogEntry,
    RoomInfo,
    MatchInfo,
    ChatLine,
    MoveChance,
    HintWords,
)


def error(code: str, message: str) -> ErrorMessage:
    return {"type": "error", "code": code, "error": message}


def rejected(code: str, reason: str, seq: int, resync: bool = False) -> Rejected:
    return {"type": "rejected", "code": code, "reason": reason, "seq": seq, "resync": resync}
