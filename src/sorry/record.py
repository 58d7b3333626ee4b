"""Game records: a versioned JSON file with everything needed to re-play and audit a game.

A record holds the rules and options, the seats (human or bot, with the bot's level), every
card dealt or drawn, every move, pass and discard (with the position after it), the result and
scores, and an **auditable shuffle**: a SHA-256 commitment to the seed and the deck order that
can be published before the first card, and the seed, deck and nonce revealed at the end.
:func:`verify` re-plays a record and reports the first illegal or inconsistent step. The
schema is documented in ``docs/records.md``.

>>> from sorry import Game
>>> g = Game(players=2, seed=5)
>>> c = Commitment.for_game(g, nonce="00" * 16)  # publish c.sha256 before play
>>> while not g.is_over():
...     if g.is_chance():
...         _ = g.draw()
...     else:
...         g.push(g.legal_moves[0])
>>> rec = GameRecord.from_game(g, ["human", "random"], commitment=c)
>>> rec.commitment == c.sha256, verify(rec).ok
(True, True)
>>> GameRecord.from_json(rec.to_json()).to_json() == rec.to_json()
True
>>> rec.replay() == g
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .board import COLOUR_LETTERS, colour_names
from .cards import CARDS, Card, card_name, deck_cards, parse_card
from .errors import SorryError
from .game import Game, Resign
from .i18n import _, ngettext
from .moves import Move
from .rng import MASK64
from .rules import Rules

RECORD_FORMAT: Final = "sorry-record"
RECORD_VERSION: Final = 1
COMMIT_SCHEME: Final = "sorry-commit-v1"
SEED_SCHEME: Final = "sorry-seed-v1"
SEAT_KINDS: Final = ("human", "bot", "unknown")


class RecordError(SorryError):
    """A record cannot be read, built or re-played."""


# -- the commitment ------------------------------------------------------------------------------
def deck_text(deck: Sequence[Card]) -> str:
    """Cards in drawing order (top first) as ``S,1,5,...``."""
    return ",".join(card_name(c) for c in deck)


def commitment_text(seed: int, deck: Sequence[Card], nonce: str) -> str:
    """The canonical string whose SHA-256 is the commitment:
    ``sorry-commit-v1|<seed in decimal>|<deck, top first>|<nonce>``.

    >>> commitment_text(7, [13, 1], "ab")
    'sorry-commit-v1|7|S,1|ab'
    """
    return f"{COMMIT_SCHEME}|{seed}|{deck_text(deck)}|{nonce}"


def commitment_hash(seed: int, deck: Sequence[Card], nonce: str) -> str:
    """The SHA-256 (hex) of :func:`commitment_text`."""
    return hashlib.sha256(commitment_text(seed, deck, nonce).encode("ascii")).hexdigest()


def new_nonce() -> str:
    """128 random bits as 32 hex digits: what makes the commitment hide the seed."""
    return os.urandom(16).hex()


def mix_seed(*contributions: str) -> int:
    """A 64-bit seed from several parties' secrets, so that no single party chooses the deal:
    the first 8 bytes of SHA-256 of ``sorry-seed-v1|<c1>|<c2>|...`` (see docs/records.md).

    >>> mix_seed("dealer secret", "alice", "bob") == mix_seed("dealer secret", "alice", "bob")
    True
    """
    text = "|".join((SEED_SCHEME, *contributions))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def initial_deck(game: Game) -> tuple[Card, ...]:
    """The deck a game started with, in drawing order (top card first)."""
    return tuple(parse_card(c) for c in reversed(game.initial_snapshot()["draw_pile"]))


@dataclass(frozen=True, slots=True)
class Commitment:
    """The secret side of a commitment. Publish :attr:`sha256` before play; reveal the rest
    (seed, deck, nonce) at the end, in the record."""

    seed: int
    deck: tuple[Card, ...]  # drawing order, top first
    nonce: str

    @property
    def text(self) -> str:
        return commitment_text(self.seed, self.deck, self.nonce)

    @property
    def sha256(self) -> str:
        return commitment_hash(self.seed, self.deck, self.nonce)

    @classmethod
    def for_game(cls, game: Game, nonce: str | None = None) -> Commitment:
        """The commitment of a game's seed and starting deck (call it before the first draw and
        publish ``.sha256``; keep the nonce secret until the end)."""
        return cls(game.seed & MASK64, initial_deck(game), nonce or new_nonce())


# -- seats, steps, result ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Seat:
    """Who played a colour: a ``human`` (with a name), a ``bot`` (name and level) or
    ``unknown``."""

    colour: int
    kind: str = "unknown"
    name: str = ""
    level: str | None = None

    @classmethod
    def parse(cls, colour: int, text: str) -> Seat:
        """``human``, ``human:Ann``, ``bot:easy`` or a bare bot level such as ``easy``."""
        head, sep, rest = text.strip().partition(":")
        low = head.lower()
        if low == "human":
            return cls(colour, "human", rest if sep else "")
        if low == "unknown" and not sep:
            return cls(colour, "unknown")
        if low == "bot" and sep:
            return cls(colour, "bot", rest, rest)
        if not text.strip():
            raise RecordError("an empty seat (human, human:NAME, bot:LEVEL or a bot level)")
        return cls(colour, "bot", text.strip(), text.strip())

    def to_dict(self) -> dict[str, Any]:
        return {
            "colour": COLOUR_LETTERS[self.colour],
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
        }

    def describe(self) -> str:
        if self.kind == "bot":
            return f"bot {self.name}" + (
                f" (level {self.level})" if self.level and self.level != self.name else ""
            )
        return self.name or self.kind


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a game, as text: a card ``draw`` n to ``colour`` (dealt or drawn), a
    ``move`` (with ``pass`` and ``discard:C``) by ``colour`` and the ``position`` after it, or
    ``colour``'s resignation (``resign``) and the position after it."""

    colour: str
    draw: str | None = None
    move: str | None = None
    position: str | None = None
    resign: bool = False

    @property
    def is_draw(self) -> bool:
        return self.draw is not None

    def to_dict(self) -> dict[str, Any]:
        if self.draw is not None:
            return {"colour": self.colour, "draw": self.draw}
        if self.resign:
            return {"colour": self.colour, "resign": True, "position": self.position}
        return {"colour": self.colour, "move": self.move, "position": self.position}

    def __str__(self) -> str:
        if self.draw is not None:
            return f"{self.colour} draws {self.draw}"
        if self.resign:
            return f"{self.colour} resigns"
        return f"{self.colour} plays {self.move}"


@dataclass(frozen=True, slots=True)
class Result:
    """``status`` is ``won``, ``unfinished`` (turn limit) or ``in progress``; ``resigned``:
    the colours that resigned, in order (a game a resignation ended is ``won`` by the others)."""

    status: str
    winners: tuple[str, ...]
    scores: tuple[tuple[str, int], ...] | None
    turns: int
    position: str
    resigned: tuple[str, ...] = ()

    @classmethod
    def of(cls, game: Game) -> Result:
        status = "won" if game.winners else ("unfinished" if game.is_over() else "in progress")
        scores = None
        if game.scores is not None:
            scores = tuple((COLOUR_LETTERS[c], s) for c, s in sorted(game.scores.items()))
        return cls(
            status,
            tuple(COLOUR_LETTERS[c] for c in game.winners),
            scores,
            game.turn,
            game.position_string(),
            tuple(COLOUR_LETTERS[c] for c in game.resigned),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "winners": list(self.winners),
            "scores": dict(self.scores) if self.scores is not None else None,
            "turns": self.turns,
            "position": self.position,
        }
        if self.resigned:  # absent when nobody resigned (records before resignations)
            out["resigned"] = list(self.resigned)
        return out

    def describe(self) -> str:
        n = self.turns
        if self.status == "won":
            names = colour_names(COLOUR_LETTERS.index(w) for w in self.winners)
            text = ngettext("{names} won after {n} turn", "{names} won after {n} turns", n).format(
                names=names, n=n
            )
        elif self.status == "unfinished":
            text = ngettext(
                "unfinished after {n} turn (turn limit)",
                "unfinished after {n} turns (turn limit)",
                n,
            ).format(n=n)
        else:
            text = ngettext("in progress after {n} turn", "in progress after {n} turns", n).format(
                n=n
            )
        if self.resigned:
            names = colour_names(COLOUR_LETTERS.index(c) for c in self.resigned)
            text += _("; resigned: {names}").format(names=names)
        if self.scores is not None:
            scores = " ".join(f"{c}={s}" for c, s in self.scores)
            text += _("; scores {scores}").format(scores=scores)
        return text


SeatsArg = Sequence["str | Seat"] | Mapping[int, "str | Seat"] | None


def _seats(colours: tuple[int, ...], seats: SeatsArg) -> tuple[Seat, ...]:
    if seats is None:
        return tuple(Seat(c) for c in colours)
    items: list[tuple[int, str | Seat]]
    if isinstance(seats, Mapping):
        if set(seats) != set(colours):
            raise RecordError("give a seat for each colour in play")
        items = [(c, seats[c]) for c in colours]
    else:
        if len(seats) != len(colours):
            raise RecordError(f"{len(seats)} seats for {len(colours)} players")
        items = list(zip(colours, seats, strict=True))
    out = []
    for c, s in items:
        seat = Seat.parse(c, s) if isinstance(s, str) else s
        if seat.colour != c:
            seat = Seat(c, seat.kind, seat.name, seat.level)
        if seat.kind not in SEAT_KINDS:
            raise RecordError(f"seat kind {seat.kind!r} (expected human, bot or unknown)")
        out.append(seat)
    return tuple(out)


# -- the record ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class GameRecord:
    """A complete, auditable record of one game (see the module doc and docs/records.md)."""

    rules: Rules
    colours: tuple[int, ...]
    first: int
    first_chosen_by: str  # "seed" (drawn from the seed) or "players" (named by them)
    seats: tuple[Seat, ...]
    commitment: str  # SHA-256 hex of commitment_text(seed, deck, nonce)
    steps: tuple[Step, ...]
    result: Result
    seed: int
    nonce: str
    deck: tuple[str, ...]  # the revealed deck, drawing order, as card names
    meta: tuple[tuple[str, str], ...] = ()
    engine: str = field(default_factory=lambda: _engine())

    # -- building ---------------------------------------------------------------------------------
    @classmethod
    def from_game(
        cls,
        game: Game,
        seats: SeatsArg = None,
        commitment: Commitment | None = None,
        meta: Mapping[str, str] | None = None,
    ) -> GameRecord:
        """The record of ``game`` (which must have begun as ``Game(rules, players, seed[,
        first])``; its history holds every draw and move). ``commitment`` is the one published
        at the start (a fresh nonce is made when it is not given)."""
        chosen_by = _first_chosen_by(game)
        deck = initial_deck(game)
        if commitment is None:
            commitment = Commitment.for_game(game)
        elif commitment.seed != game.seed & MASK64 or commitment.deck != deck:
            raise RecordError("the commitment is not that of this game's seed and deck")
        replay = _start(game.rules, game.players, game.seed, game.first, chosen_by)
        steps: list[Step] = []
        for step in game.history:
            if isinstance(step, Resign):
                replay.resign(step.colour)
                steps.append(Step(COLOUR_LETTERS[step.colour], resign=True, position=_pos(replay)))
            elif isinstance(step, Move):
                by = replay.to_move
                replay.push(step)
                steps.append(Step(COLOUR_LETTERS[by], move=str(step), position=_pos(replay)))
            else:
                to = replay.deal_to
                assert to is not None
                replay.draw(step)
                steps.append(Step(COLOUR_LETTERS[to], draw=card_name(step)))
        if replay != game:
            raise RecordError("re-playing the game's history does not give the game")
        return cls(
            rules=game.rules,
            colours=game.players,
            first=game.first,
            first_chosen_by=chosen_by,
            seats=_seats(game.players, seats),
            commitment=commitment.sha256,
            steps=tuple(steps),
            result=Result.of(game),
            seed=commitment.seed,
            nonce=commitment.nonce,
            deck=tuple(card_name(c) for c in deck),
            meta=tuple((str(k), str(v)) for k, v in (meta or {}).items()),
        )

    # -- JSON -------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "engine": self.engine,
            "rules": self.rules.to_dict(),
            "colours": [COLOUR_LETTERS[c] for c in self.colours],
            "first": COLOUR_LETTERS[self.first],
            "first_chosen_by": self.first_chosen_by,
            "seats": [s.to_dict() for s in self.seats],
            "meta": dict(self.meta),
            "commitment": {"scheme": COMMIT_SCHEME, "sha256": self.commitment},
            "steps": [s.to_dict() for s in self.steps],
            "result": self.result.to_dict(),
            "reveal": {"seed": str(self.seed), "nonce": self.nonce, "deck": list(self.deck)},
        }

    def to_json(self) -> str:
        """The canonical text: two-space indentation, one seat or step per line, UTF-8, a final
        newline. Reading it back and writing it again gives the same bytes."""
        data = self.to_dict()
        lines = ["{"]
        keys = list(data)
        for i, key in enumerate(keys):
            value = data[key]
            comma = "," if i < len(keys) - 1 else ""
            if key in ("seats", "steps") and value:
                inner = ",\n".join("    " + _compact(item) for item in value)
                lines.append(f"  {_compact(key)}: [\n{inner}\n  ]{comma}")
            else:
                lines.append(f"  {_compact(key)}: {_compact(value)}{comma}")
        lines.append("}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read a record; :class:`RecordError` names what is missing or malformed. The steps
        are kept as text: whether they are legal is for :func:`verify` to say."""
        try:
            return _from_dict(data)
        except RecordError:
            raise
        except SorryError as exc:
            raise RecordError(f"bad record: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise RecordError(f"bad record: {type(exc).__name__} {exc}") from None

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not a JSON record: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as exc:
            raise RecordError(f"cannot read {os.fspath(path)}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{os.fspath(path)} is not UTF-8 text") from None
        return cls.from_json(text)

    def save(self, path: str | os.PathLike[str]) -> None:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(self.to_json())

    # -- re-playing -------------------------------------------------------------------------------
    def start(self) -> Game:
        """The game at its start, from the revealed seed."""
        return _start(self.rules, self.colours, self.seed, self.first, self.first_chosen_by)

    def replay(self, steps: int | None = None) -> Game:
        """Re-play the record (its first ``steps`` steps, or all) and return the game. The
        cards are taken as recorded; :func:`verify` checks they are the deck's."""
        game = self.start()
        for n, step in enumerate(self.steps[:steps], 1):
            try:
                _apply(game, step)
            except SorryError as exc:
                raise RecordError(f"step {n} ({step}): {exc}") from None
        return game

    @property
    def seat_of(self) -> dict[int, Seat]:
        return {s.colour: s for s in self.seats}


def _from_dict(data: Any) -> GameRecord:
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a game record (format must be {RECORD_FORMAT!r})")
    version = data.get("version")
    if version != RECORD_VERSION:
        raise RecordError(f"record version {version!r} is not supported (this is version 1)")
    rules = Rules.from_dict(_obj(data, "rules"))
    colours = tuple(_colour(c) for c in _list(data, "colours"))
    if list(colours) != sorted(set(colours)) or len(colours) < 2:
        raise RecordError("colours must be two to four distinct colours in seat order R B Y G")
    first = _colour(_str(data, "first"))
    chosen = _str(data, "first_chosen_by")
    if chosen not in ("seed", "players"):
        raise RecordError("first_chosen_by must be 'seed' or 'players'")
    seats = []
    for s in _list(data, "seats"):
        kind = _str(s, "kind")
        if kind not in SEAT_KINDS:
            raise RecordError(f"seat kind {kind!r} (expected human, bot or unknown)")
        level = s.get("level")
        if level is not None and not isinstance(level, str):
            raise RecordError("a seat's level is a string or null")
        seats.append(Seat(_colour(_str(s, "colour")), kind, _str(s, "name"), level))
    if tuple(s.colour for s in seats) != colours:
        raise RecordError("the seats must name each colour in play once, in seat order")
    meta = _obj(data, "meta")
    if not all(isinstance(v, str) for v in meta.values()):
        raise RecordError("meta values are strings")
    commit = _obj(data, "commitment")
    if commit.get("scheme") != COMMIT_SCHEME:
        raise RecordError(f"unknown commitment scheme {commit.get('scheme')!r}")
    sha = _str(commit, "sha256")
    steps = []
    for s in _list(data, "steps"):
        if not isinstance(s, dict):
            raise RecordError("a step is a JSON object")
        if "draw" in s:
            if set(s) != {"colour", "draw"}:
                raise RecordError(f"bad draw step {s!r}")
            steps.append(Step(_str(s, "colour"), draw=_str(s, "draw")))
        elif "resign" in s:
            if set(s) != {"colour", "resign", "position"} or s["resign"] is not True:
                raise RecordError(f"bad resignation step {s!r}")
            steps.append(Step(_str(s, "colour"), position=_str(s, "position"), resign=True))
        else:
            if set(s) != {"colour", "move", "position"}:
                raise RecordError(f"bad step {s!r}")
            steps.append(
                Step(_str(s, "colour"), move=_str(s, "move"), position=_str(s, "position"))
            )
    res = _obj(data, "result")
    scores_raw = res.get("scores")
    scores = None
    if scores_raw is not None:
        if not isinstance(scores_raw, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in scores_raw.values()
        ):
            raise RecordError("scores map colours to integers")
        scores = tuple((str(k), int(v)) for k, v in scores_raw.items())
    resigned = res.get("resigned", [])
    if not isinstance(resigned, list) or not all(isinstance(c, str) for c in resigned):
        raise RecordError("result.resigned is a list of colours")
    turns = res.get("turns")
    if not isinstance(turns, int) or isinstance(turns, bool):
        raise RecordError("result.turns is an integer")
    result = Result(
        _str(res, "status"),
        tuple(str(w) for w in _list(res, "winners")),
        scores,
        turns,
        _str(res, "position"),
        tuple(resigned),
    )
    reveal = _obj(data, "reveal")
    seed_text = _str(reveal, "seed")
    if not seed_text.isdigit() or str(int(seed_text)) != seed_text or int(seed_text) > MASK64:
        raise RecordError("the revealed seed is a decimal integer below 2**64")
    deck = tuple(_list(reveal, "deck"))
    if not all(isinstance(c, str) for c in deck):
        raise RecordError("the revealed deck is a list of card names")
    engine = data.get("engine", "")
    if not isinstance(engine, str):
        raise RecordError("engine is a string")
    return GameRecord(
        rules=rules,
        colours=colours,
        first=first,
        first_chosen_by=chosen,
        seats=tuple(seats),
        commitment=sha,
        steps=tuple(steps),
        result=result,
        seed=int(seed_text),
        nonce=_str(reveal, "nonce"),
        deck=deck,
        meta=tuple(meta.items()),
        engine=engine,
    )


def _obj(data: Any, key: str) -> dict[str, Any]:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, dict):
        raise RecordError(f"{key} is missing or not an object")
    return value


def _list(data: Any, key: str) -> list[Any]:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, list):
        raise RecordError(f"{key} is missing or not a list")
    return value


def _str(data: Any, key: str) -> str:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, str):
        raise RecordError(f"{key} is missing or not a string")
    return value


def _colour(text: Any) -> int:
    if not isinstance(text, str) or len(text) != 1 or text not in COLOUR_LETTERS:
        raise RecordError(f"bad colour {text!r} (R, B, Y or G)")
    return COLOUR_LETTERS.index(text)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _engine() -> str:
    from . import __version__

    return f"sorry-engine {__version__}"


def _pos(game: Game) -> str:
    return game.position_string()


def _start(rules: Rules, colours: Sequence[int], seed: int, first: int, chosen_by: str) -> Game:
    named = first if chosen_by == "players" else None
    return Game(rules, players=tuple(colours), seed=seed, first=named)


def _first_chosen_by(game: Game) -> str:
    """Whether the game's first player came from its seed or was named (the seed is then
    not used to choose one, so the deck differs): found by re-creating both starts."""
    for chosen_by in ("seed", "players"):
        try:
            start = _start(game.rules, game.players, game.seed, game.first, chosen_by)
        except SorryError:
            continue
        if start.initial_snapshot() == game.initial_snapshot():
            return chosen_by
    raise RecordError(
        "a record needs a game that began from its seed (Game(rules, players, seed)), "
        "not one set up from a position"
    )


def _apply(game: Game, step: Step) -> None:
    if step.resign:
        game.resign(_colour(step.colour))
    elif step.draw is not None:
        game.draw(parse_card(step.draw))
    else:
        assert step.move is not None
        game.push(Move.parse(step.move))


# -- verification --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class VerifyResult:
    """The outcome of :func:`verify`: ``ok``, or the first problem: ``step`` (1-based; 0 for
    the commitment, the deck and the start; ``len(steps) + 1`` for the result), what is wrong,
    and what was ``expected`` against what the record says (``found``)."""

    ok: bool
    step: int | None = None
    problem: str = ""
    expected: str | None = None
    found: str | None = None
    steps_checked: int = 0
    summary: str = ""
    #: The problem is in the recorded result (after every step checked out).
    at_result: bool = False

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        if self.ok:
            return _("OK: {summary}").format(summary=self.summary)
        if self.step == 0:
            where = _("start")
        elif self.at_result:
            where = _("the result")  # ``step`` is ``len(steps) + 1``
        else:
            where = _("step {n}").format(n=self.step)
        text = _("{where}: {problem}").format(where=where, problem=self.problem)
        if self.expected is not None or self.found is not None:
            text += " " + _("(expected {expected}, found {found})").format(
                expected=self.expected, found=self.found
            )
        return text


def verify(record: GameRecord) -> VerifyResult:
    """Re-play ``record`` from its revealed seed and check everything: the commitment, that the
    seed gives the revealed deck (and the first player), that every card drawn is the deck's
    next card (reshuffles included), that every move is legal and made by the player to move,
    that each recorded position is the one reached, and the result. Returns the first problem
    found, or OK."""

    def bad(step: int, problem: str, expected: Any = None, found: Any = None) -> VerifyResult:
        return VerifyResult(
            False,
            step,
            problem,
            None if expected is None else str(expected),
            None if found is None else str(found),
            max(step - 1, 0),
        )

    # the commitment and the start
    try:
        deck = tuple(parse_card(c) for c in record.deck)
    except SorryError:
        return bad(
            0, _("the revealed deck holds an unknown card"), _("card names"), list(record.deck)
        )
    computed = commitment_hash(record.seed, deck, record.nonce)
    if computed != record.commitment:
        return bad(
            0,
            _("the commitment does not match the revealed seed, deck and nonce"),
            record.commitment,
            computed,
        )
    expected_deck = Counter(deck_cards(record.rules.deck))
    if Counter(deck) != expected_deck:
        return bad(
            0,
            _("the revealed deck is not a {n}-card deck").format(n=record.rules.deck),
            _counts(expected_deck),
            _counts(Counter(deck)),
        )
    try:
        game = record.start()
    except SorryError as exc:
        return bad(0, _("the game cannot start: {error}").format(error=exc))
    seeded = initial_deck(game)
    if seeded != deck:
        return bad(
            0,
            _("the revealed seed does not shuffle to the revealed deck"),
            deck_text(seeded),
            deck_text(deck),
        )
    if game.first != record.first:
        return bad(
            0,
            _("the revealed seed chooses another first player"),
            COLOUR_LETTERS[game.first],
            COLOUR_LETTERS[record.first],
        )

    # the steps
    drawn = 0  # cards drawn since the start or the last reshuffle
    reshuffles = 0
    for n, step in enumerate(record.steps, 1):
        if game.is_over():
            return bad(n, _("a step after the end of the game"), _("no more steps"), str(step))
        if step.resign:
            if step.colour not in [COLOUR_LETTERS[c] for c in game.colours]:
                return bad(
                    n,
                    _("a resignation by a colour not in play"),
                    "".join(COLOUR_LETTERS[c] for c in game.colours),
                    step.colour,
                )
            game.resign(COLOUR_LETTERS.index(step.colour))
            if step.position != game.position_string():
                return bad(
                    n,
                    _("the recorded position is not the one the resignation leads to"),
                    game.position_string(),
                    step.position,
                )
            continue
        if step.draw is not None:
            if not game.is_chance():
                return bad(
                    n,
                    _("a card is drawn where a move is due"),
                    _("a move by {colour}").format(colour=COLOUR_LETTERS[game.to_move]),
                    str(step),
                )
            to = game.deal_to
            assert to is not None
            if step.colour != COLOUR_LETTERS[to]:
                return bad(
                    n, _("the card goes to the wrong player"), COLOUR_LETTERS[to], step.colour
                )
            if not game.draw_pile:
                reshuffles += 1
                drawn = 0
            card = game.draw()
            drawn += 1
            if card_name(card) != step.draw:
                where = (
                    _("card {n} of the revealed deck").format(n=drawn)
                    if reshuffles == 0
                    else _("card {n} after reshuffle {k}").format(n=drawn, k=reshuffles)
                )
                return bad(
                    n,
                    _("the card drawn is not the deck's ({where})").format(where=where),
                    card_name(card),
                    step.draw,
                )
            continue
        if game.is_chance():
            to = game.deal_to
            assert to is not None
            return bad(
                n,
                _("a move where a card must be drawn"),
                _("a card for {colour}").format(colour=COLOUR_LETTERS[to]),
                str(step),
            )
        if step.colour != COLOUR_LETTERS[game.to_move]:
            return bad(
                n, _("a move by the wrong player"), COLOUR_LETTERS[game.to_move], step.colour
            )
        assert step.move is not None
        try:
            move = Move.parse(step.move)
        except SorryError as exc:
            return bad(n, _("unreadable move: {error}").format(error=exc), _("a move"), step.move)
        if not game.is_legal(move) and not _points_shorthand_legal(game, move):
            legal = ", ".join(str(m) for m in game.legal_moves)
            return bad(
                n,
                _("illegal move in {position}").format(position=game.position_string()),
                _("one of {moves}").format(moves=legal),
                step.move,
            )
        game.push(move)
        if step.position != game.position_string():
            return bad(
                n,
                _("the recorded position is not the one the move leads to"),
                game.position_string(),
                step.position,
            )

    # the result
    end = len(record.steps) + 1
    actual = Result.of(game)
    for name in ("status", "winners", "scores", "turns", "position", "resigned"):
        want, have = getattr(actual, name), getattr(record.result, name)
        if want != have:
            problem = _("the recorded result ({name}) is not the game's").format(name=name)
            return dataclasses.replace(bad(end, problem, want, have), at_result=True)
    summary = ngettext(
        "{n} step re-played, commitment {commitment}... matches the revealed seed and deck, "
        "every card drawn is the deck's; {result}",
        "{n} steps re-played, commitment {commitment}... matches the revealed seed and deck, "
        "every card drawn is the deck's; {result}",
        len(record.steps),
    ).format(n=len(record.steps), commitment=record.commitment[:16], result=actual.describe())
    return VerifyResult(True, steps_checked=len(record.steps), summary=summary)


def _points_shorthand_legal(game: Game, move: Move) -> bool:
    if not game.rules.points or move.card is not None:
        return False
    return len([m for m in game.legal_moves if m._replace(card=None) == move]) == 1


def _counts(counts: Counter[Card]) -> str:
    return " ".join(f"{card_name(c)}x{counts[c]}" for c in CARDS if counts[c])


def verify_file(path: str | os.PathLike[str]) -> VerifyResult:
    """Load and verify a record file (:class:`RecordError` if it cannot be read at all)."""
    return verify(GameRecord.load(path))


def save_record(
    game: Game,
    seats: SeatsArg,
    path: str | os.PathLike[str],
    commitment: Commitment | None = None,
    meta: Mapping[str, str] | None = None,
) -> GameRecord:
    """Write the record of ``game`` to ``path`` (for ``sorry play --save``); returns it."""
    record = GameRecord.from_game(game, seats, commitment=commitment, meta=meta)
    record.save(path)
    return record


__all__ = [
    "COMMIT_SCHEME",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "Commitment",
    "GameRecord",
    "RecordError",
    "Result",
    "Seat",
    "Step",
    "VerifyResult",
    "commitment_hash",
    "commitment_text",
    "mix_seed",
    "save_record",
    "verify",
    "verify_file",
]
