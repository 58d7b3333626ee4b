"""The waiting room's actions (:mod:`sorry.web.room` holds its settings and clocks): starting a
game, the players accepting the next game of a match, and the host's requests."""

from __future__ import annotations

import time

from ..board import COLOUR_LETTERS
from .cache import GameCache
from .live import LiveGame
from .players import bot_levels
from .room import turn_began


class Hosting:
    def __init__(self, cache: GameCache) -> None:
        self.cache = cache

    async def _save(self, live: LiveGame) -> None:
        """Store the room's settings (in the database's next group commit)."""
        await self.cache.write(self.cache.db.save_room_in, live.id, live.room.settings.to_json())

    async def start(self, live: LiveGame) -> None:
        """Start the game: everyone is told, the clocks begin, bots may move."""
        async with live.lock:
            if live.room.settings.started:
                return
            live.room.settings.started = True
            await self._save(live)
            now = time.monotonic()
            for c, s in live.seats.items():  # an absent player's time away counts from now
                if s.kind == "human" and c in live.away_since:
                    live.away_since[c] = now
            live.last_change = now
            turn_began(live)
            self.cache.audience.broadcast(live)
        self.cache.changed(live)

    async def maybe_start(self, live: LiveGame) -> None:
        """Start by itself when the room's rule says so (every seat taken, or every player
        ready)."""
        s = live.room.settings
        if s.started:
            return
        humans = [c for c, seat in live.seats.items() if seat.kind == "human"]
        full = s.start == "full" and all(live.seats[c].claimed for c in humans)
        ready = s.start == "ready" and all(COLOUR_LETTERS[c] in s.ready for c in humans)
        if full or ready:
            await self.start(live)

    async def set_ready(self, live: LiveGame, colour: int) -> None:
        """A seated player accepts the next game of the match."""
        s = live.room.settings
        letter = COLOUR_LETTERS[colour]
        if s.started or letter in s.ready:
            return
        s.ready.append(letter)
        await self._save(live)
        await self.maybe_start(live)
        if not live.room.settings.started:
            self.cache.audience.broadcast(live)

    async def host_action(
        self, live: LiveGame, digest: str, action: str, colour: int | None, value: object
    ) -> str | None:
        """A host's request (``start``; ``bot`` with a seat and a level; ``chat`` with
        whether it is on); returns the reason it was refused, or None."""
        if not live.room.is_host(digest):
            return "only the host may do that"
        if action == "start":
            if live.room.settings.started:
                return "the game has started"
            await self.start(live)
            return None
        if action == "chat":
            if not isinstance(value, bool):
                return "enabled must be true or false"
            live.room.settings.chat = value
            await self._save(live)
            self.cache.audience.broadcast(live)
            return None
        if action == "bot":
            if colour is None or colour not in live.seats:
                return "no such seat"
            if value not in bot_levels():
                return f"bot level must be one of {', '.join(bot_levels())}"
            seat = live.seats[colour]
            if seat.kind != "human" or seat.claimed:
                return "only a seat nobody has taken can become a bot"
            humans = [c for c, s in live.seats.items() if s.kind == "human"]
            if humans == [colour] and not self.cache.settings.allow_bot_games:
                return "games without a human seat are off on this server (--allow-bot-games)"
            await self.cache.write(self.cache.db.make_bot_in, live.id, colour, str(value))
            await self.cache.refresh(live)
            await self.maybe_start(live)
            if live.room.settings.started:  # nobody came: the bot plays the seat at once
                live.away_since.pop(colour, None)
                self.cache.changed(live)
            return None
        return f"unknown action {action[:20]!r}"
