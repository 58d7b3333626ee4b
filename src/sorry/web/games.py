"""Games and their moves: creating a game, judging and committing a move, seats taken with
their tokens, and the next game of a match. The only place where a game moves.

* A client submits a move chosen from the legal moves it was sent, with the sequence number of
  the state it saw. Everything is checked again (seat, turn, sequence number, legality) and
  every submission answered: ``accepted`` (through the new state) or ``rejected`` with a
  reason (with what changed since the client's state, when the game had moved on).
* One writer per game: within a process a per-game lock; between processes the conditional
  update of :meth:`Database.write_move` (the sequence number must not have moved).
* The move and the cards drawn after it are committed **before** anyone is told, through the
  database's group writer (:class:`sorry.web.db.GroupWriter`).
* A wrong token costs one read of the game from the database (the seat may have been claimed
  by another process), then none: the game remembers it (:attr:`LiveGame.bad_tokens`), and
  reads again at most once a second whatever the tokens.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.engine import Connection

from ..board import COLOUR_LETTERS, COLOUR_NAMES
from ..cards import card_name
from ..game import Game
from ..record import Commitment
from ..rules import Rules
from .audience import match_totals
from .cache import GameCache
from .db import RESIGN, ConflictError, MoveRow, SeatRow, decisions
from .hosting import Hosting
from .live import RESIGNED, LiveGame, Said, log_entry, resign_entry
from .messages import rejected
from .players import bot_levels
from .room import Room, acted, next_room, turn_began
from .tokens import hash_token, new_token

log = logging.getLogger("sorry.web")

#: Wrong tokens a game remembers (the oldest forgotten first).
BAD_TOKENS = 256
#: Seconds between two reads of a game from the database for unknown tokens.
REFRESH_EVERY = 1.0


class Refused(Exception):
    """A request this server will not serve now, with its HTTP status (403, 429, 503)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Games:
    def __init__(self, cache: GameCache, hosting: Hosting) -> None:
        self.cache = cache
        self.hosting = hosting
        self.settings = cache.settings
        self.db_reads_for_tokens = 0  # statistics (tests)

    # -- creating -------------------------------------------------------------------------
    async def create_game(
        self,
        rules: Rules,
        seats: list[dict[str, Any]],
        name: str = "",
        public: bool = False,
        seed: int | None = None,
        room: Room | None = None,
        creator: str | None = None,
        links: Sequence[Callable[[Connection, str], None]] = (),
    ) -> tuple[str, dict[int, str]]:
        """Create a game. ``seats``: ``{"colour": int, "kind": "invite"|"open"|"bot",
        "level": str}``; ``creator``: who made it (a digest of the address: the lobby shows
        a few games of each); ``links``: writes made in the game's transaction, given the
        connection and the game's id (sorry.web.people: seats invited by account name).
        Returns the id and the secret token of each invited seat."""
        if not self.settings.allow_bot_games and all(s["kind"] == "bot" for s in seats):
            raise Refused(
                403, "games without a human seat are off on this server (--allow-bot-games)"
            )
        cache = self.cache
        if cache.playing_count() >= self.settings.max_games:
            cache.evict(pressure=True)
            if cache.playing_count() >= self.settings.max_games:
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
        await cache.write(
            self._create_in,
            links,
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
            creator,
        )
        await cache.get(gid)
        return gid, tokens

    def _create_in(
        self,
        conn: Connection,
        links: Sequence[Callable[[Connection, str], None]],
        game_id: str,
        *args: Any,
    ) -> str:
        made = self.cache.db.create_game_in(conn, game_id, *args)
        if made == game_id:  # not a next game another request linked first
            for link in links:
                link(conn, game_id)
        return made

    def _claim_in(
        self,
        conn: Connection,
        link: Callable[[Connection], None] | None,
        *args: Any,
    ) -> bool:
        ok = self.cache.db.claim_seat_in(conn, *args)
        if ok and link is not None:
            link(conn)
        return ok

    # -- seats ----------------------------------------------------------------------------
    def check_token(self, live: LiveGame, colour: int, token: str) -> bool:
        """Whether ``token`` (checked by :func:`sorry.web.tokens.parse_token`) is the seat's."""
        seat = live.seats.get(colour)
        digest = hash_token(token)
        if seat is None or seat.kind != "human" or seat.token_hash is None:
            # compare anyway, so a wrong seat takes as long as a wrong token
            hmac.compare_digest(digest, "0" * 64)
            return False
        return hmac.compare_digest(digest, seat.token_hash)

    async def seat_token(self, live: LiveGame, colour: int, token: str) -> bool:
        """:meth:`check_token`, reading the game again when the token is not the seat's
        (another process may have given the seat a new one): once per wrong token, and at
        most once a second per game."""
        if self.check_token(live, colour, token):
            return True
        key = (colour, hash_token(token))
        now = time.monotonic()
        if key in live.bad_tokens or now - live.refreshed_at < REFRESH_EVERY:
            return False
        self.db_reads_for_tokens += 1
        await self.cache.refresh(live)
        if self.check_token(live, colour, token):
            return True
        live.bad_tokens[key] = now
        while len(live.bad_tokens) > BAD_TOKENS:
            del live.bad_tokens[next(iter(live.bad_tokens))]
        return False

    async def join(
        self,
        live: LiveGame,
        colour: int,
        name: str,
        token: str | None,
        link: Callable[[Connection], None] | None = None,
    ) -> tuple[bool, str]:
        """Sit at a seat with a display name: an invited seat with its token, or an open
        seat (a new token is made and returned); ``link`` is written in the same transaction
        when the seat is taken (an account holding it). Returns (ok, token or reason)."""
        seat = live.seats.get(colour)
        if seat is None:
            return False, f"{COLOUR_NAMES[colour]} is not playing in this game"
        if seat.kind != "human":
            return False, f"{COLOUR_NAMES[colour]} is played by a bot"
        cache = self.cache
        if token is not None:
            if not await self.seat_token(live, colour, token):
                return False, "wrong token for this seat"
            await cache.write(self._claim_in, link, live.id, colour, name, None, False)
            await cache.refresh(live)
            return True, token
        if seat.token_hash is not None or seat.claimed:
            return False, "this seat is taken (it needs its invite link)"
        fresh = new_token()
        ok = await cache.write(self._claim_in, link, live.id, colour, name, hash_token(fresh), True)
        await cache.refresh(live)
        if not ok:
            return False, "somebody else took this seat first"
        return True, fresh

    # -- moves ----------------------------------------------------------------------------
    async def submit(
        self, live: LiveGame, colour: int, seq: int, move_text: str, actor: str = "player"
    ) -> dict[str, Any]:
        """Judge and, if accepted, commit a move. Returns the reply for the submitter:
        ``accepted``, or ``rejected`` with the reason (``resync``: the client's state is
        behind; the caller sends it what changed)."""
        cache = self.cache
        async with live.lock:
            game = live.game
            if seq != live.seq:
                return dict(
                    rejected(
                        "stale", f"stale move: the game is at seq {live.seq}, not {seq}", live.seq
                    )
                )
            if game.is_over():
                return dict(rejected("game_over", "the game is over", live.seq))
            if not live.room.settings.started:
                return dict(rejected("not_started", "the game has not started yet", live.seq))
            if game.to_move != colour:
                return dict(
                    rejected(
                        "not_your_turn", f"it is {COLOUR_NAMES[game.to_move]}'s turn", live.seq
                    )
                )
            legal = {str(m): m for m in game.legal_moves}
            move = legal.get(move_text)
            if move is None:
                return dict(
                    rejected("illegal", f"{move_text!r} is not one of the legal moves", live.seq)
                )
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
                await cache.write(cache.db.write_move, live.id, live.seq, row, state, status)
            except ConflictError:
                stale = True
            except Exception:  # the database failed: nothing was accepted, say so
                log.exception("could not commit a move of game %s", live.id)
                return dict(
                    rejected("server_error", "the move could not be saved: try again", live.seq)
                )
            else:
                stale = False
                entry = log_entry(row.seq, colour, actor, move, card, said)
                live.moved(new, row.seq, entry, said)
                was_away = actor == "player" and acted(live, colour)
                turn_began(live)
                cache.audience.broadcast(live)
                if was_away:
                    cache.audience.broadcast_seats(live)
        if stale:
            await cache.refresh(live)
            return dict(rejected("stale", "another server accepted a move first", live.seq))
        cache.changed(live)
        return {"type": "accepted", "seq": live.seq, "move": str(move)}

    async def resign(self, live: LiveGame, colour: int) -> dict[str, Any]:
        """``colour`` resigns (docs/rules.md, Resigning), committed as a move row before
        anyone is told. Returns ``resigned`` or ``rejected`` with the reason."""
        cache = self.cache
        async with live.lock:
            game = live.game
            if game.is_over():
                return dict(rejected("game_over", "the game is over", live.seq))
            if not live.room.settings.started:
                return dict(rejected("not_started", "the game has not started yet", live.seq))
            if colour not in game.colours:
                return dict(rejected("resigned", "you have resigned already", live.seq))
            new = game.copy()
            new.resign(colour)
            draws: list[str] = []
            while new.is_chance():  # the resigner's turn: the next player's card
                draws.append(card_name(new.draw()))
            row = MoveRow(live.seq + 1, colour, "player", RESIGN, draws)
            over = new.is_over()
            state = new.to_dict() if over else None
            try:
                await cache.write(
                    cache.db.write_move,
                    live.id,
                    live.seq,
                    row,
                    state,
                    "over" if over else "playing",
                )
            except ConflictError:
                stale = True
            except Exception:
                log.exception("could not commit a resignation in game %s", live.id)
                return dict(rejected("server_error", "could not save: try again", live.seq))
            else:
                stale = False
                live.moved(new, row.seq, resign_entry(row.seq, colour, "player"), RESIGNED)
                live.room.away.discard(colour)
                turn_began(live)
                cache.audience.broadcast(live)
        if stale:
            await cache.refresh(live)
            return dict(rejected("stale", "another server changed the game first", live.seq))
        cache.changed(live)
        return {"type": "resigned", "seq": live.seq, "colour": COLOUR_LETTERS[colour]}

    async def undo(self, live: LiveGame, colour: int, seq: int, rated: bool) -> dict[str, Any]:
        """Take back ``colour``'s last move and the bots' moves after it, in a casual
        (``rated`` False) game where every other seat is a bot: the decision comes back with
        the same card (the cards drawn since go back on the deck, in their order), and the
        taken-back moves leave the game, its log and its record. Returns ``undone`` or
        ``rejected`` with the reason."""
        cache = self.cache
        async with live.lock:
            game = live.game
            if seq != live.seq:
                return dict(
                    rejected(
                        "stale", f"stale undo: the game is at seq {live.seq}, not {seq}", live.seq
                    )
                )
            if rated:
                return dict(rejected("undo_rated", "no undo in a rated game", live.seq))
            if any(s.kind != "bot" for c, s in live.seats.items() if c != colour):
                return dict(
                    rejected("undo_people", "undo is only for a game against bots", live.seq)
                )
            if game.is_over():
                return dict(rejected("game_over", "the game is over", live.seq))
            if game.resigned:
                return dict(rejected("undo_resigned", "a resignation is not taken back", live.seq))
            mine = [
                e["seq"]
                for e in live.log
                if e["colour"] == COLOUR_LETTERS[colour] and e["actor"] == "player"
            ]
            if not mine:
                return dict(rejected("nothing_to_undo", "no move of yours to undo", live.seq))
            back_to = mine[-1] - 1  # the decision before the person's last move
            new = game.copy()
            while decisions(new) > back_to:  # the card of that decision stays drawn
                new.pop()
            try:
                await cache.write(cache.db.undo_moves_in, live.id, live.seq, back_to)
            except ConflictError:
                stale = True
            except Exception:
                log.exception("could not take moves back in game %s", live.id)
                return dict(rejected("server_error", "could not save: try again", live.seq))
            else:
                stale = False
                if live.bot_task is not None:  # a bot thinking about a move taken back
                    live.bot_task.cancel()
                    live.bot_task = None
                live.game = new
                live.seq = back_to
                live.hints.clear()
                live.log = [e for e in live.log if e["seq"] <= back_to]
                live.said = {k: v for k, v in live.said.items() if k <= back_to}
                live.log_text.clear()
                live.last_change = time.monotonic()
                turn_began(live)
                for conn in list(live.conns):
                    cache.audience.send_state(live, conn, full=True)
        if stale:
            await cache.refresh(live)
            return dict(rejected("stale", "another server changed the game first", live.seq))
        cache.changed(live)
        return {"type": "undone", "seq": live.seq}

    # -- matches --------------------------------------------------------------------------
    async def rematch(
        self,
        live: LiveGame,
        colour: int,
        token: str | None,
        links: Sequence[Callable[[Connection, str], None]] = (),
    ) -> tuple[bool, str]:
        """The next game of the match, asked for by a seated player once the game is over:
        same rules, seats and tokens; the winner starts (docs/variants.md, Matches). Returns
        (ok, id or reason); every player of the finished game is told its id. ``token`` None:
        the caller checked who asks (an account holding the seat); ``links``: the accounts'
        seats carried over (sorry.web.people)."""
        if token is not None and not self.check_token(live, colour, token):
            return False, "wrong seat or token"
        game = live.game
        if not game.is_over():
            return False, "the game is not over yet"
        cache = self.cache
        if live.next_id is None:
            first = game.winners[0] if game.winners else None
            new = Game(game.rules, players=game.players, first=first)
            commit = Commitment.for_game(new)
            while new.is_chance():
                new.draw()
            gid = secrets.token_urlsafe(9)
            rows = [
                SeatRow(s.colour, s.kind, s.bot_level, s.name, s.token_hash, s.claimed)
                for s in live.seats.values()
            ]
            totals = match_totals(live)
            info = {k: totals[k] for k in ("games", "wins", "points")}
            linked = await cache.write(
                self._create_in,
                links,
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
            await cache.refresh(live)
            nxt = await cache.get(linked)
            if nxt is not None:
                await self.hosting.maybe_start(nxt)
        assert live.next_id is not None
        nxt = await cache.get(live.next_id)
        if nxt is not None:  # asking for the next game is accepting it
            await self.hosting.set_ready(nxt, colour)
        return True, live.next_id
