"""The work the server hands to its worker processes (:class:`sorry.web.workers.WorkerPool`):
bots' moves, hints, and finished games' replays and records.

* Bots play the bot seats, and take over a human seat whose player has been away longer than
  ``takeover_after`` seconds (or whose turn timer ran out), until the player is back. A
  person's turn with no legal move passes by itself (:func:`forced_pass`). A game
  nobody is seated at is not played by takeover bots, unless the server allows games with
  nobody there (``--allow-bot-games``).
* A hint is computed once per game, sequence number and seat, and shared by every connection
  that asks for it.
* A finished game's replay and record are computed once and kept (the most recent
  :data:`FINISHED_CACHE`).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..hintwords import Chance, hint_words
from ..moves import Move
from ..rng import derive_seed
from .analysis import record_seats
from .cache import GameCache, retrieve
from .games import Games
from .limits import RateLimit
from .live import LiveGame
from .messages import HintMessage, HintWords, error, rejected
from .players import HintResult, bot_levels
from .protocol import describe_move
from .workers import LOW, PoolBusy, WorkerPool, record_json, replay_json

log = logging.getLogger("sorry.web")

FINISHED_CACHE = 64  # replays and records kept (a finished game never changes)


class Bots:
    """Who plays the bot seats and the seats of absent players."""

    def __init__(self, cache: GameCache, games: Games, pool: WorkerPool) -> None:
        self.cache = cache
        self.games = games
        self.pool = pool
        self.settings = cache.settings
        cache.listeners.append(self.schedule)

    def level_for(self, live: LiveGame, colour: int) -> tuple[str, str] | None:
        """(level, actor) if a bot should move for ``colour`` now, else None."""
        seat = live.seats[colour]
        if not live.room.settings.started:
            return None  # nobody moves in the waiting room
        if seat.kind == "bot":
            return seat.bot_level or bot_levels()[0], "bot"
        if live.room.settings.correspondence:  # no takeover: a bot plays a timed-out move
            return (self.takeover_level(), "timeout") if colour in live.room.away else None
        if not live.anyone_seated and not self.settings.allow_bot_games:
            return None  # nobody is here: the game waits for them
        if colour in live.room.away:  # the turn timer ran out: a bot plays until they act
            return self.takeover_level(), "timeout"
        if live.connected(colour) or not live.anyone_seated:
            return None  # the player is here, or nobody is: the game waits
        away = live.away_since.get(colour)
        if away is not None and time.monotonic() - away >= self.settings.takeover_after:
            return self.takeover_level(), "takeover"
        return None

    def takeover_level(self) -> str:
        return self.settings.takeover_level or bot_levels()[min(2, len(bot_levels()) - 1)]

    def schedule(self, live: LiveGame, remote: bool = False) -> None:
        """Start the bot of the seat to move, if a bot is to move (once)."""
        game = live.game
        if game.is_over() or (live.bot_task is not None and not live.bot_task.done()):
            return
        who = self.level_for(live, game.to_move)
        if who is None and self.settings.auto_pass and forced_pass(live):
            who = ("", "forced")  # no legal move: the turn passes by itself
        if who is None:
            return
        delay = self.settings.bot_delay
        if remote:  # the process that committed the last move plays the next bot move
            delay = delay * 3 + 1.0
        live.bot_task = asyncio.ensure_future(self._turn(live, live.seq, who, delay))

    async def _turn(self, live: LiveGame, seq: int, who: tuple[str, str], delay: float) -> None:
        level, actor = who
        if delay > 0:
            await asyncio.sleep(delay)
        game = live.game
        if live.seq != seq or game.is_over():
            return
        colour = game.to_move
        if actor == "forced":
            # this task is done with the turn: the next seat's bot (scheduled when the pass is
            # committed) must not find it still running and wait for the tick
            live.bot_task = None
            await self.games.submit(live, colour, seq, "pass", actor)
            return
        if self.level_for(live, colour) is None:
            return  # the player came back
        view = game.view(colour)
        seed = derive_seed(game.seed, seq)
        try:
            move = await self.pool.bot_move(level, self.settings.bot_time_limit, view, seed)
        except Exception:  # a broken bot must not stop the game: play a legal move
            log.exception("bot %s failed; playing the first legal move", level)
            move = str(view.legal_moves[0])
        live.bot_task = None
        if self.level_for(live, colour) is None:
            return  # the player came back while the bot was thinking
        reply = await self.games.submit(live, colour, seq, move, actor)
        if reply["type"] != "accepted":
            log.debug("bot move not accepted in %s: %s", live.id, reply)

    def tick(self, live: LiveGame) -> bool:
        """A bot takes over an absent player; a stalled bot seat is restarted. True if the
        seats changed (a takeover began)."""
        colour = live.game.to_move
        seat = live.seats[colour]
        task_idle = live.bot_task is None or live.bot_task.done()
        if seat.kind == "human" and task_idle and self.settings.auto_pass and forced_pass(live):
            self.schedule(live)  # a pass nobody played (a restart, another process's move)
            return False
        if seat.kind == "human" and task_idle and self.level_for(live, colour):
            self.schedule(live)
            return True
        if seat.kind == "bot" and task_idle:
            idle = time.monotonic() - live.last_change
            if idle > self.settings.bot_delay * 3 + 2.0:
                self.schedule(live)
        return False

    async def stop(self) -> None:
        tasks = [g.bot_task for g in self.cache.live.values() if g.bot_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except BaseException:  # stopping: whatever they raised is moot
                continue


def forced_pass(live: LiveGame) -> bool:
    """Whether the seat to move has no legal move (its one move is the pass), in a game
    being played: the server plays that pass for a person (actor ``forced``) after the bots'
    delay, so that nobody taps to give up a turn and a forced pass never marks anyone away."""
    game = live.game
    if not live.room.settings.started or game.is_over() or game.is_chance():
        return False
    legal = game.legal_moves
    return len(legal) == 1 and str(legal[0]) == "pass"


class Hints:
    def __init__(self, settings: Any, pool: WorkerPool) -> None:
        self.settings = settings
        self.pool = pool

    async def hint_for(
        self, live: LiveGame, colour: int, seq: int, address_limit: RateLimit | None = None
    ) -> dict[str, Any]:
        """A suggested move for the seat to move: computed once per (game, seq, seat) in the
        worker pool and shared by every connection that asks. Each seat may have hints
        computed at ``hint_rate`` per second (bursts of ``hint_burst``), and each address
        as ``address_limit`` allows; answers already computed are not counted."""
        game = live.game
        if seq != live.seq:
            return dict(rejected("stale", f"stale hint: the game is at seq {live.seq}", live.seq))
        if game.is_over() or game.to_move != colour:
            return dict(rejected("not_your_turn", "hints are for the player to move", live.seq))
        key = (seq, colour)
        job = live.hints.get(key)
        if job is None:
            limit = live.hint_limits.get(colour)
            if limit is None:
                limit = live.hint_limits[colour] = RateLimit(
                    self.settings.hint_rate, self.settings.hint_burst
                )
            if not limit.allow():
                return dict(
                    error("hint_rate_limited", "too many hints for this seat: wait a moment")
                )
            if address_limit is not None and not address_limit.allow():
                return dict(
                    error("hint_rate_limited", "too many hints from this address: wait a moment")
                )
            view = game.view(colour)
            seed = derive_seed(game.seed, seq) ^ 0x5A5A
            job = live.hints[key] = asyncio.ensure_future(self.pool.hint(view, seed))
            job.add_done_callback(retrieve)
        try:
            result = await asyncio.shield(job)
        except PoolBusy as exc:
            live.hints.pop(key, None)
            return dict(error("busy", str(exc)))
        except Exception:
            live.hints.pop(key, None)
            log.exception("a hint failed in game %s", live.id)
            return dict(error("server_error", "the hint could not be computed: try again"))
        if result.get("provisional") and live.hints.get(key) is job:
            del live.hints[key]  # asked again, it gets the estimates once the worker has loaded
        return dict(hint_reply(seq, result))


def hint_reply(seq: int, result: HintResult) -> HintMessage:
    """The ``hint`` message of a hint result: the suggested move and its words, each move's
    estimate best first (``moves``: copies, the result is shared by every connection that
    asks), the hint in a player's words (:func:`words_of`) and ``separated``. The words are
    those of the current language (the caller chooses the receiver's)."""
    rough = bool(result.get("rough", False))
    return {
        "type": "hint",
        "seq": seq,
        "move": result["move"],
        "text": describe_move(Move.parse(result["move"])),
        "moves": [m.copy() for m in result["moves"]],
        "words": words_of(result["moves"], rough),
        "separated": result["separated"],
        "forced": bool(result.get("forced", False)),
        "rough": rough,
        "provisional": bool(result.get("provisional", False)),
    }


def words_of(moves: Sequence[Mapping[str, Any]], rough: bool) -> HintWords | None:
    """A hint's moves (:class:`~sorry.web.players.MoveChance`, best first) in a player's words
    in the current language (the terminal game's words: :func:`sorry.hintwords.hint_words`);
    None when fewer than two moves have chances."""
    if len(moves) < 2:
        return None
    w = hint_words([Chance(m["win"], m["low"], m["high"], m["tied"]) for m in moves], rough)
    return {
        "say": w.say,
        "tags": list(w.tags),
        "kinds": list(w.kinds),
        "figures": list(w.figures),
        "heading": w.heading,
        "note": w.note,
    }


class FinishedGames:
    """Finished games' replays and records, computed once in the worker pool and kept."""

    def __init__(self, pool: WorkerPool) -> None:
        self.pool = pool
        self.done: collections.OrderedDict[tuple[str, str], bytes] = collections.OrderedDict()
        # replays and records being computed: a second request waits for the same job
        self.working: dict[tuple[str, str], asyncio.Future[bytes]] = {}

    def cached(self, game_id: str, what: str) -> bool:
        """Whether :meth:`json` has this one ready or being computed (a request for it
        starts no work then)."""
        key = (game_id, what)
        return key in self.done or key in self.working

    async def json(self, live: LiveGame, what: str) -> bytes:
        """The replay (``"replay"``) or the record (``"record"``) of a finished game as JSON,
        computed once in the worker pool (it replays the game) and cached; requests made while
        it is computed wait for that computation. PermissionError while the game is being
        played, PoolBusy when too many searches wait already."""
        key = (live.id, what)
        cached = self.done.get(key)
        if cached is not None:
            self.done.move_to_end(key)
            return cached
        if not live.game.is_over():
            raise PermissionError(f"the {what} is available when the game is over")
        job = self.working.get(key)
        if job is None:
            job = asyncio.ensure_future(self._compute(live, what))
            self.working[key] = job

            def finished(job: asyncio.Future[bytes]) -> None:
                self.working.pop(key, None)
                retrieve(job)

            job.add_done_callback(finished)
        # shielded: one requester going away does not cancel the others' computation
        return await asyncio.shield(job)

    async def _compute(self, live: LiveGame, what: str) -> bytes:
        key = (live.id, what)
        game = live.game.to_dict()
        if what == "replay":
            text = await self.pool.run(LOW, replay_json, live.id, game, live.log)
        else:
            seats = record_seats(live)
            meta = {"server_game": live.id, "name": live.name}
            text = await self.pool.run(LOW, record_json, game, seats, live.nonce, meta)
        data = str(text).encode()
        self.done[key] = data
        while len(self.done) > FINISHED_CACHE:
            self.done.popitem(last=False)
        return data
