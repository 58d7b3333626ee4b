"""What a finished game leaves to the accounts that played it: each account seat's rank, the
ratings of a rated game (updated exactly once, :func:`sorry.web.ratings.rate_game`), and the
luck of the account's cards from the game's analysis (the profile's luck over many games).

It listens to every change of a game (:attr:`sorry.web.cache.GameCache.listeners`); when a
game with an account seated is over, it settles it in a thread. A game that ended while no
process was there to settle it (a crash between the last move and the rating) is settled by
the sweep at start-up (:meth:`Results.sweep`). Several processes may settle one game: the
ranks are the same whoever writes them, and the ratings' marker row makes their update once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from ..board import COLOUR_LETTERS
from ..rulebook import partner
from .cache import GameCache
from .config import Settings
from .live import LiveGame
from .people import People, rateable
from .ratings import Entry, game_ranks

log = logging.getLogger("sorry.web")

#: finished games the start-up sweep settles at most
SWEEP_GAMES = 500


def entries_of(live: LiveGame) -> list[Entry]:
    """The seats of a game as the rating sees them: accounts and bots, on their sides."""
    teams = live.game.rules.teams
    out = []
    for c in live.game.players:
        s = live.seats[c]
        side = min(c, partner(c)) if teams else c
        if s.kind == "bot":
            out.append(Entry(c, side, level=s.bot_level or "medium"))
        else:
            out.append(Entry(c, side, account_id=s.account_id))
    return out


class Results:
    """Settles finished games for the accounts that played them (see the module doc)."""

    def __init__(self, cache: GameCache, people: People, settings: Settings) -> None:
        self.cache = cache
        self.people = people
        self.settings = settings
        self.store = people.store
        #: the service (set by it): the analyses are computed in its worker pool
        self.service: Any = None
        #: the after-game analyses (sorry.web.analysis.AnalysisCache, set by the app)
        self.analyses: Any = None
        self.settled: set[str] = set()  # games settled by this process
        self._analysing: asyncio.Semaphore | None = None
        cache.listeners.append(self.changed)

    def changed(self, live: LiveGame, remote: bool = False) -> None:
        if live.id in self.settled or not live.game.is_over():
            return
        if not any(s.account_id is not None for s in live.seats.values()):
            return
        self.settled.add(live.id)
        self.cache.spawn(self.settle(live))

    async def settle(self, live: LiveGame) -> None:
        """Ranks and ratings (a thread), then the luck from the analysis (in the background)."""
        try:
            await asyncio.to_thread(self.write, live)
        except Exception:  # the sweep at the next start-up tries again
            self.settled.discard(live.id)
            log.exception("could not settle game %s", live.id)
            return
        if self.settings.analyse_account_games and self.analyses is not None:
            self.cache.spawn(self.luck(live))

    def write(self, live: LiveGame) -> list[Any] | None:
        """Each account seat's rank and, for a rated game, the ratings (once): one
        transaction. Returns the rating changes (None: not rated now)."""
        game = live.game
        ranks = game_ranks(
            game.players,
            game.winners,
            dict(game.scores) if game.scores else None,
            game.rules.teams,
            game.resigned,
        )
        held = [c for c, s in live.seats.items() if s.account_id is not None]
        rating = (game.rules.variant, entries_of(live)) if rateable(live) else None
        return self.store.settle(live.id, ranks, held, rating)

    async def luck(self, live: LiveGame) -> None:
        """The game's analysis (computed once, in the worker pool, at low priority), and each
        account seat's luck kept for its profile."""
        if self._analysing is None:
            self._analysing = asyncio.Semaphore(1)
        async with self._analysing:  # one game at a time: the pool serves players first
            for _ in range(3600):
                try:
                    status, body = await self.analyses.get(self.service, live, "en")
                except Exception:
                    log.exception("the analysis of game %s for its players' luck", live.id)
                    return
                if status != 202:
                    break
                await asyncio.sleep(1.0)
            else:
                return
        if status != 200:
            return  # a game that cannot be analysed (no winner): no luck to keep
        players = json.loads(body).get("players", [])
        await asyncio.to_thread(self.write_luck, live, players)

    def write_luck(self, live: LiveGame, players: list[dict[str, Any]]) -> int:
        rows = []
        now = time.time()
        for p in players:
            letter = str(p.get("colour") or "")
            colour = (
                COLOUR_LETTERS.index(letter)
                if len(letter) == 1 and letter in COLOUR_LETTERS
                else -1
            )
            seat = live.seats.get(colour)
            luck = p.get("luck")
            if seat is None or seat.account_id is None or not isinstance(luck, int | float):
                continue
            se = p.get("luck_se")
            rows.append(
                {
                    "colour": colour,
                    "account_id": seat.account_id,
                    "luck": float(luck),
                    "luck_se": float(se) if isinstance(se, int | float) else None,
                    "at": now,
                }
            )
        if not rows:
            return 0
        self.store.write_luck(live.id, rows)
        return len(rows)

    # -- at start-up ------------------------------------------------------------------------------
    def unsettled(self, limit: int = SWEEP_GAMES) -> list[str]:
        """Finished games with an account seat whose rank is not written, or rated and not
        rated yet."""
        return self.store.unsettled(limit)

    async def sweep(self) -> int:
        """Settle the finished games a process left unsettled (it stopped before it could).
        Returns how many were looked at."""
        ids = await asyncio.to_thread(self.unsettled)
        for gid in ids:
            live = await self.cache.get(gid)  # its listener call settles it
            if live is not None and live.id not in self.settled:
                self.changed(live)
        return len(ids)
