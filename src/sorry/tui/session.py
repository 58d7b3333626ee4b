"""A sitting at the table, without Textual: the match, the game in progress, who sits where,
the log in words, undo, and saving to (and resuming from) a game record.

>>> from sorry import Rules
>>> s = Session(Rules(), players=2, seats="random,random", seed=4)
>>> while not s.game.is_over():
...     s.draw_cards()
...     if not s.game.is_over():
...         _ = s.play(s.bot_move())
>>> s.game.is_over(), len(s.log) == len(s.game.move_stack)
(True, True)
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import COLOUR_LETTERS, colour_name, colour_names
from ..cards import Card, card_name, parse_card
from ..describe import short as describe, where_words
from ..errors import SorryError
from ..game import Game, Resign
from ..i18n import _, ngettext
from ..match import GameResult, Match
from ..moves import DISCARD, PASS, Move
from ..record import Commitment, GameRecord, RecordError
from ..rng import Rng, derive_seed
from ..rulebook import declines
from ..rules import Rules
from .describe import card_words, is_forced_pass
from .players import Seat, make_bot, parse_seats

SAVE_FORMAT = "sorry-tui-save"


@dataclass(frozen=True, slots=True)
class LogEntry:
    step: int  # the game's history length before the move
    colour: int
    card: Card | None
    text: str
    forced: bool = False  # a pass with no other move: the turn passed by itself
    #: where the move took its pawns as the person sees the board ("4 squares before your
    #: Safety Zone"; "" for a pass, or a pawn going into its Safety Zone or HOME)
    where: str = ""
    again: bool = False  # the player draws again (after a 2)


class Session:
    """The match being played, its current game, the seats, and what has happened."""

    def __init__(
        self,
        rules: Rules | None = None,
        players: int | Sequence[int] | None = None,
        seats: str | Sequence[str] | Mapping[int, Seat] | None = None,
        seed: int | None = None,
        games: int = 1,
        target: int | None = None,
        game: Game | None = None,
    ) -> None:
        rules = rules or Rules()
        if game is not None:
            players = game.players  # a resigned colour keeps its seat
            rules = game.rules
        self.match = Match(rules, players, games=games, target=target, seed=seed)
        self.rules = rules
        self.colours = self.match.colours
        if isinstance(seats, Mapping):
            self.seats = dict(seats)
        else:
            self.seats = parse_seats(seats, self.colours)
        self.bots = {c: make_bot(s.level) for c, s in self.seats.items() if s.level is not None}
        self.rngs = {c: Rng(derive_seed(self.match.seed, 1000 + c)) for c in self.colours}
        self.log: list[LogEntry] = []
        self.human_moves: list[int] = []
        if game is not None:
            self.match._current = game
            self.game = game
        else:
            self.game = self.match.new_game()
        self.commitment: Commitment | None = self._commit()
        self.recorded = False

    def _commit(self) -> Commitment | None:
        try:
            return Commitment.for_game(self.game)
        except (SorryError, KeyError, ValueError):
            return None

    # -- who plays ------------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [c for c in self.colours if self.seats[c].human]

    def seat_name(self, colour: int) -> str:
        """``you`` (the only person), the person's name or ``person`` in hot-seat, or the bot."""
        seat = self.seats[colour]
        if not seat.human:
            return seat.describe()
        if seat.name:
            return seat.name
        return _("you") if len(self.humans) == 1 else _("person")

    def is_human_turn(self) -> bool:
        g = self.game
        return not g.is_over() and not g.is_chance() and self.seats[g.to_move].human

    def can_undo(self) -> bool:
        """Undo is for games with one person (and bots) only, once that person has moved."""
        return (
            len(self.humans) == 1
            and bool(self.human_moves)
            and not self.game.is_over()
            and not self.game.resigned  # a resignation is not taken back
        )

    def resigner(self) -> int | None:
        """Who a resignation now would be: the only person (if still playing), else the
        person to move; None if no person may resign now."""
        g = self.game
        if g.is_over():
            return None
        playing = [c for c in self.humans if c in g.colours]
        if len(self.humans) == 1:
            return playing[0] if playing else None
        return g.to_move if g.to_move in playing else None

    def resign(self, colour: int) -> LogEntry:
        """``colour`` resigns (docs/rules.md, Resigning); the log says so."""
        g = self.game
        step = len(g.history)
        g.resign(colour)
        entry = LogEntry(step, colour, None, _("resigns"))
        self.log.append(entry)
        return entry

    # -- playing --------------------------------------------------------------------------------
    def draw_cards(self) -> None:
        """Draw (or deal) cards until a decision is due or the game is over."""
        while self.game.is_chance():
            self.game.draw()

    def bot_move(self) -> Move:
        """The bot's choice for the colour to move; a bot that fails or answers an illegal
        move is replaced by a random choice for that turn (the game goes on)."""
        c = self.game.to_move
        view = self.game.view(c)
        bot = self.bots.get(c)
        if bot is not None:
            try:
                move = bot.choose(view, self.rngs[c])
            except Exception:  # a faulty bot must not end a person's game
                move = None
            if move is not None and self.game.is_legal(move):
                return move
        moves = view.legal_moves
        return moves[self.rngs[c].below(len(moves))]

    def play(self, move: Move) -> LogEntry:
        g = self.game
        mover = g.to_move
        card = move.card if g.rules.points else g.card
        step = len(g.history)
        forced = is_forced_pass(g)
        where = ""
        if forced:  # said as the browser says it; not a decision to take back
            text = _("no move, the turn passes")
        else:
            effects = g.state.effects(move) if move.kind not in (PASS, DISCARD) else []
            text = describe(move, effects, card, declines(card, g.legal_moves), mover)
            humans = self.humans
            where = where_words(move, effects, humans[0] if len(humans) == 1 else None)
        if self.seats[mover].human and not forced:
            self.human_moves.append(step)
        g.push(move)
        again = (
            not g.is_over()
            and card is not None
            and g.rules.book.plays_again(card, discarded=move.kind == DISCARD)
            and g.to_move == mover
        )
        if forced and again:
            text = _("no move")
        entry = LogEntry(step, mover, card, text, forced, where, again)
        self.log.append(entry)
        return entry

    def undo(self) -> bool:
        """Take back the person's last move (and everything after it)."""
        if not self.can_undo():
            return False
        target = self.human_moves.pop()
        while len(self.game.history) > target:
            self.game.pop()
        self.log = [e for e in self.log if e.step < target]
        return True

    # -- the match ------------------------------------------------------------------------------
    def finish(self) -> GameResult | None:
        """Record the finished game in the match (once)."""
        if self.recorded or not self.game.is_over():
            return None
        self.recorded = True
        return self.match.record_result(self.game)

    def next_game(self) -> Game:
        self.game = self.match.new_game()
        self.commitment = self._commit()
        self.log = []
        self.human_moves = []
        self.recorded = False
        return self.game

    def match_over(self) -> bool:
        return self.match.is_over()

    # -- words ----------------------------------------------------------------------------------
    @staticmethod
    def entry_text(entry: LogEntry, rules: Rules, where: bool = False) -> str:
        """The entry as the log says it (``Red draws 2: leaves START for 4 — draws again``);
        with ``where``, where its pawns went too (``… for 4 (outside your START) — …``)."""
        who = colour_name(entry.colour)
        text = entry.text  # the move said without the mover (Session.play)
        if where and entry.where:
            text = _("{move} ({where})").format(move=text, where=entry.where)
        if entry.again:
            text = _("{move} — draws again").format(move=text)
        if entry.card is None and entry.text == _("resigns"):
            return _("{colour} resigns").format(colour=who)
        if entry.card is None:
            return _("{player}: {move}").format(player=who, move=text)
        card = card_words(entry.card)
        if entry.text == _("discards a {card} (no usable card)").format(card=card):
            return _("{player} {move}").format(player=who, move=text)
        if rules.points:
            return _("{player} plays {card}: {move}").format(player=who, card=card, move=text)
        return _("{player} draws {card}: {move}").format(player=who, card=card, move=text)

    def result_lines(self) -> list[str]:
        g = self.game
        lines = []
        if g.unfinished:
            lines.append(_("The game was stopped at the turn limit: no winner."))
        elif g.winners:
            names = _names(g.winners)
            who = ", ".join(self.seat_name(c) for c in g.winners)
            if len(g.winners) > 1:
                lines.append(_("{team} win! ({players})").format(team=names, players=who))
            else:
                lines.append(_("{team} wins! ({players})").format(team=names, players=who))
        if g.resigned:
            lines.append(_("Resigned: {players}.").format(players=_names(g.resigned)))
        if g.scores is not None:
            scores = "  ".join(f"{colour_name(c)} {s}" for c, s in sorted(g.scores.items()))
            lines.append(_("Points this game: {scores}").format(scores=scores))
        m = self.match
        if m.games != 1 or m.target is not None:
            scores = "  ".join(f"{colour_name(c)} {s}" for c, s in m.standings())
            lines.append(
                ngettext(
                    "Match after {n} game: {scores}",
                    "Match after {n} games: {scores}",
                    m.games_played,
                ).format(n=m.games_played, scores=scores)
            )
            if m.is_over():
                if m.winner is not None:
                    names = _names(m.winners)
                    if len(m.winners) > 1:
                        lines.append(_("{team} win the match!").format(team=names))
                    else:
                        lines.append(_("{team} wins the match!").format(team=names))
                else:
                    lines.append(_("The match ends in a tie."))
        return lines

    # -- saving ---------------------------------------------------------------------------------
    def _meta(self) -> dict[str, str]:
        m = self.match
        return {
            "tui": json.dumps(
                {
                    "games": m.games,
                    "target": m.target,
                    "seed": m.seed,
                    "results": [r.to_dict() for r in m.results],
                    "scores": {COLOUR_LETTERS[c]: s for c, s in m.scores.items()},
                    "next_first": COLOUR_LETTERS[m.next_first]
                    if m.next_first is not None
                    else None,
                    "seats": {COLOUR_LETTERS[c]: s.spec() for c, s in self.seats.items()},
                },
                separators=(",", ":"),
            )
        }

    def save_text(self) -> str:
        """The game as a game record (``sorry verify`` reads it), with the match and seats in
        its ``meta``; a game set up from a position is saved in the engine's own JSON."""
        seats = [self.seats[c].spec() for c in self.colours]
        try:
            rec = GameRecord.from_game(
                self.game, seats, commitment=self.commitment, meta=self._meta()
            )
        except RecordError:
            data = {
                "format": SAVE_FORMAT,
                "version": 1,
                "game": self.game.to_dict(),
                "meta": self._meta(),
            }
            return json.dumps(data, indent=1) + "\n"
        return rec.to_json()

    def save(self, path: str | os.PathLike[str]) -> None:
        text = self.save_text()
        try:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise SorryError(
                _("cannot save to {file}: {error}").format(file=os.fspath(path), error=exc.strerror)
            ) from None

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Session:
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as exc:
            raise SorryError(
                _("cannot read {file}: {error}").format(file=os.fspath(path), error=exc.strerror)
            ) from None
        return cls.from_text(text)

    @classmethod
    def from_text(cls, text: str) -> Session:
        """A session from a saved game (a game record, or the engine's JSON of a game)."""
        try:
            return cls._from_text(text)
        except SorryError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise SorryError(f"not a saved game: {type(exc).__name__} {exc}") from None

    @classmethod
    def _from_text(cls, text: str) -> Session:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SorryError(_("not a saved game: {error}").format(error=exc)) from None
        if isinstance(data, dict) and data.get("format") == SAVE_FORMAT:
            game = Game.from_dict(data["game"])
            start = None
            meta = dict(data.get("meta", {}))
            commitment = None
        else:
            rec = GameRecord.from_dict(data)
            game = rec.replay()
            start = rec.start()
            meta = dict(rec.meta)
            commitment = Commitment(rec.seed, tuple(parse_card(c) for c in rec.deck), rec.nonce)
        info: dict[str, Any] = json.loads(meta.get("tui", "{}"))
        seat_specs = info.get("seats")
        if seat_specs is None and start is not None:
            seat_specs = {
                COLOUR_LETTERS[s.colour]: ("human" if s.kind != "bot" else f"bot:{s.level}")
                for s in rec.seats
            }
        seat_specs = seat_specs or {COLOUR_LETTERS[c]: "human" for c in game.players}
        seats = parse_seats([seat_specs[COLOUR_LETTERS[c]] for c in game.players], game.players)
        session = cls(
            game.rules,
            seats=seats,
            seed=info.get("seed", game.seed),
            games=info.get("games", 1) or 1,
            target=info.get("target"),
            game=game,
        )
        if info.get("games") is None and "games" in info:
            session.match.games = None
        m = session.match
        for r in info.get("results", []):
            m.results.append(
                GameResult(
                    index=int(r["index"]),
                    seed=int(r["seed"]),
                    first=COLOUR_LETTERS.index(r["first"]),
                    winners=tuple(COLOUR_LETTERS.index(c) for c in r["winners"]),
                    scores={COLOUR_LETTERS.index(c): int(s) for c, s in r["scores"].items()},
                    turns=int(r["turns"]),
                )
            )
        for c, s in info.get("scores", {}).items():
            m.scores[COLOUR_LETTERS.index(c)] = int(s)
        if info.get("next_first"):
            m.next_first = COLOUR_LETTERS.index(info["next_first"])
        if commitment is not None:
            session.commitment = commitment
        if game.is_over() and m.results and m.results[-1].seed == game.seed:
            session.recorded = True  # saved after the end: already counted in the match
            m._current = None
        session._rebuild_log(start)
        return session

    def _rebuild_log(self, start: Game | None) -> None:
        """The log and the person's moves, re-played from the game's start."""
        if start is None:
            return
        replay = Session(self.rules, seats=self.seats, game=start)
        for step in self.game.history:
            if isinstance(step, Resign):
                replay.resign(step.colour)
            elif isinstance(step, Move):
                replay.play(step)
            else:
                replay.game.draw(step)
        self.log = replay.log
        self.human_moves = replay.human_moves


def hand_text(cards: Sequence[Card]) -> str:
    return " ".join(card_name(c) for c in cards)


def _names(colours: Sequence[int]) -> str:
    """``Red`` or ``Red and Yellow`` (a team), in the current language."""
    return colour_names(colours)


__all__ = ["PASS", "LogEntry", "Session", "hand_text"]
