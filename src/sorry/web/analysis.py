"""The browser's after-game analysis: ``GET /api/games/{id}/analysis`` (docs/analysis.md).

The numbers are computed once per finished game, off the event loop, in the server's worker
processes (:class:`sorry.web.workers.WorkerPool`), in pieces of about :data:`PIECE_BUDGET`
seconds of work each (:func:`sorry.analysis.account.value_decisions` gives any range what the
whole game gives).

**Ahead of the end.** A decision's numbers depend only on the game up to that decision and the
analysis's seed, so the decisions of a game with a person in it are valued *while it is
played*: after each move, the decisions played so far and not yet valued go to the pool's
background process (:data:`~sorry.web.workers.AHEAD`: a process of its own, at a lower
scheduling priority than the workers, so that no bot's move or hint ever waits for it), a piece
of about :data:`AHEAD_BUDGET` seconds at a time. At most :data:`AHEAD_GAMES` games are analysed
ahead at once; games with no person (bots only) are not; a game with no move for
:data:`AHEAD_IDLE` seconds, or gone from memory, has its partial work dropped (it starts again
at its next move); moves taken back drop the values of the decisions they undo. Nothing of it
is stored: after a restart a game's advance work starts again from its first decision at its
next move. At the end only the last decisions, the bookkeeping
(:func:`sorry.analysis.account.assemble`, with the winner) and the words remain: one job, begun
as soon as the game ends. The result is the same, byte for byte, as analysing the finished game
in one go. Other games (bots only, or beyond the cap) are analysed when first asked for, one
game at a time, behind the bots.

The result, the JSON form without words (:func:`sorry.analysis.report.to_dict`), is kept in
memory for the most recent games; the words are added per language
(:func:`~sorry.analysis.report.localise`, with the graph's marks and each turn's text), and
kept too.

While the analysis runs the endpoint answers ``202 {"status": "working", "done": n,
"total": m}`` (with ``?wait=S``, after waiting up to S seconds, at most :data:`WAIT_MAX`, for
it to be ready: the page asks again at once, so it shows the analysis the moment it is
there); then ``200`` with the analysis; ``422 {"error": ...}`` for a game that cannot be
analysed (no winner, or not begun from a seed).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any, Final

from ..analysis import account, graph, pieces, report
from ..analysis.calibration import game_model, seat_strengths
from ..analysis.estimator import Estimator, default_estimator
from ..analysis.pieces import SEED, Start, Strengths
from ..errors import SorryError
from ..game import Game
from ..i18n import N_, using
from ..record import GameRecord, Seat

log = logging.getLogger("sorry.web")

#: The strings the end screen's script (``static/analysis.js``) shows through ``t()``.
SCRIPT_MESSAGES: Final = (
    N_("After the game"),
    N_("Analysing the game…"),
    N_("Analysing the game: turn {done} of {total}…"),
    N_("Win probability over the game"),
    N_("Tap a turn to see its card and move in the replay."),
    N_("Point at a turn to see its card and move; click it to see it in the replay."),
    N_("Turn {turn}: {what}"),
    N_("{side} {chance}"),
    N_("The moves that mattered"),
    N_("Decisions that mattered"),
    N_("The luckiest and unluckiest draws"),
    N_("player"),
    N_("luck"),
    N_("decisions"),
    N_("own moves"),
    N_("others' moves"),
    N_("±: the estimate's interval at 95%"),
    N_("accuracy"),
    N_("inaccuracies, mistakes, blunders"),
    N_("inaccuracies · mistakes · blunders"),
    N_("mistake"),
    N_("blunder"),
    N_("luckiest draw"),
    N_("unluckiest draw"),
    N_("How is this worked out?"),
    N_(
        "Luck: what the cards did, against the average card that could have come. Moves: "
        "every move against the move the {policy} bot would have made, a player's own moves "
        "and the others' apart. Start + luck + own moves + others' moves = the result (win "
        "100%, loss 0%), for every player."
    ),
    N_(
        "Each against the move the {policy} bot would have made; mistakes and blunders count "
        "what a move lost against the best move."
    ),
    N_("Thresholds (points of win probability lost): {limits}."),
    N_("{label} from {points}"),
    N_("inaccuracy"),
    N_("The analysis is not available: {reason}"),
)

#: Rollouts per card that could come (None: the engine's default), from the environment
#: (``SORRY_ANALYSIS_ROLLOUTS``: a test or a small server can ask for fewer).
ROLLOUTS_ENV: Final = "SORRY_ANALYSIS_ROLLOUTS"
#: The most decisions per advance job, by engine.
CHUNK: Final = {"compiled": 16, "python": 2}
#: Seconds after which a piece of a finished game's analysis ends with the decision under way
#: (one decision takes 0.01 s to a few seconds of CPU): with one worker, a bot's move that
#: comes meanwhile waits for the piece under way, no longer.
PIECE_BUDGET: Final = 0.5
#: Games analysed ahead of their end at once (per server process).
AHEAD_GAMES: Final = 8
#: Seconds a game may go without a move before its advance work is dropped.
AHEAD_IDLE: Final = 600.0
#: Seconds of work an advance job aims at (a job's fixed cost is replaying the game so far;
#: the job under way when the game ends is not waited for).
AHEAD_BUDGET: Final = 0.2
#: The longest a request waits for the analysis (``?wait=``) before it is told the progress.
WAIT_MAX: Final = 10.0


# -- in the worker processes -------------------------------------------------------------------
_rollouts: Estimator | None = None


class AnalysisLoading(Exception):
    """The worker still loads the compiled analysis (minutes on a cold cache, done by another
    process): the job is asked again a moment later, rather than compile it in the worker."""


#: Seconds before a job refused with :class:`AnalysisLoading`, or by a full queue, is asked again.
ASK_AGAIN_AFTER: Final = 1.0


def _loaded() -> None:
    from .workers import analysis_loading

    if analysis_loading():
        raise AnalysisLoading("this worker is still loading the compiled analysis")


def record_seats(live: Any) -> dict[int, Seat]:
    """Who plays each colour of a game (a ``LiveGame``), as its record says it (a bot with
    its level, else a person): the record's seats, and the players the model is made for."""
    return {
        c: Seat(c, "bot", s.name, s.bot_level) if s.kind == "bot" else Seat(c, "human", s.name)
        for c, s in live.seats.items()
    }


def _est(record: GameRecord) -> Estimator:
    """The model of ``record``'s players (what ``sorry analyse`` uses) on this process's
    rollouts (made once)."""
    global _rollouts
    if _rollouts is None:
        _rollouts = default_estimator()
    return game_model(record, _rollouts)


def rollouts_setting() -> int | None:
    value = os.environ.get(ROLLOUTS_ENV, "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else None


def _start(record: GameRecord, rollouts: int | None) -> Start:
    return pieces.start_of(record, _est(record), rollouts)


def start_job(record_json: str, rollouts: int | None) -> Start:
    """The engine, the policy, the rollouts and worlds used, and V at the start, once the
    record is checked (:class:`~sorry.analysis.AnalysisError` if it cannot be analysed)."""
    _loaded()
    return _start(account.checked(GameRecord.from_json(record_json)), rollouts)


def chunk_job(
    record_json: str, rollouts: int | None, first: int, last: int, budget: float | None = None
) -> list[account.NodeValues]:
    """Decisions ``first`` to ``last - 1`` valued, one after the other; with ``budget``, only
    those begun within that many seconds (at least one)."""
    _loaded()
    record = GameRecord.from_json(record_json)
    t0 = time.perf_counter()
    out: list[account.NodeValues] = []
    for values in pieces.values(record, _est(record), rollouts, first, last):
        out.append(values)
        if budget is not None and time.perf_counter() - t0 >= budget:
            break
    return out


def piece_size(engine: str, count: int, seconds: float, budget: float) -> int:
    """Decisions for the next advance job, from the last one's (``count`` in ``seconds``):
    about ``budget`` seconds of work, between 1 and the engine's :data:`CHUNK`."""
    each = max(seconds / max(count, 1), 1e-3)
    return max(1, min(CHUNK.get(engine, 4), int(budget / each)))


def ahead_job(
    game: dict[str, Any],
    seats: dict[int, Seat],
    rollouts: int | None,
    first: int,
    last: int,
    with_start: bool,
) -> tuple[tuple[str, Strengths], Start | None, list[account.NodeValues], float]:
    """Decisions ``first`` to ``last - 1`` of a game still played (``Game.to_dict()``, its
    seats as its record will have them) valued, and V at the start if asked: the engine and
    the strengths they were valued with, the start, the values and the seconds the values
    took."""
    _loaded()
    # "in progress": nothing checked yet
    record = GameRecord.from_game(Game.from_dict(game), seats)
    if any(step.resign for step in record.steps):  # such a game cannot be analysed
        raise account.AnalysisError("a player resigned")
    est = _est(record)
    start = _start(record, rollouts) if with_start else None
    t0 = time.perf_counter()
    values = pieces.value(record, est, rollouts, first, last)
    return (est.engine, seat_strengths(record)), start, values, time.perf_counter() - t0


def final_job(
    record_json: str,
    rollouts: int | None,
    start: Start | None,
    valued: list[account.NodeValues],
) -> dict[str, Any] | None:
    """The analysis (its JSON form without words) of a finished game whose start and first
    decisions (``valued``) were valued already, ahead of its end or in pieces: the record is
    checked, the other decisions valued and the account assembled. None if this worker's
    engine, or the players' strengths in the record, are not those they were valued with
    (they are valued again then)."""
    _loaded()
    record = account.checked(GameRecord.from_json(record_json))
    a = pieces.finish(record, _est(record), rollouts, start, valued)
    return None if a is None else report.to_dict(a, describe_moves=False)


def localised_job(data: dict[str, Any], record_json: str, lang: str) -> bytes:
    """The analysis with its words in ``lang``, the graph's marks and each turn's text."""
    record = GameRecord.from_json(record_json)
    with using(lang):
        out = report.localise(data, record)
        out["marks"] = graph.marks(out)
        out["turns"] = [
            {"turn": turn, "step": step, "text": text}
            for turn, (step, text) in sorted(graph.turn_texts(out).items())
        ]
    return _dumps(out)


# -- in the server -----------------------------------------------------------------------------
@dataclass
class _Entry:
    record: GameRecord | None = None
    data: dict[str, Any] | None = None  # the JSON form without words
    error: str | None = None
    done: int = 0
    total: int = 0
    task: asyncio.Task[None] | None = None
    retry_at: float | None = None  # an unexpected failure: computed again after this
    ahead: int = 0  # decisions valued while the game was played
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # data or error is there


@dataclass
class _Ahead:
    """The advance work of one game still played."""

    live: Any
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # a move was played
    valued: list[account.NodeValues] = field(default_factory=list)
    start: Start | None = None
    model: tuple[str, Strengths] | None = None  # the engine and the strengths of the values
    steps: list[str] = field(default_factory=list)  # the steps the values were made on
    size: int = 1  # decisions per job (adapted to AHEAD_BUDGET)
    task: asyncio.Task[None] | None = None


class AnalysisCache:
    """Each finished game's analysis, computed once (see the module doc)."""

    GAMES = 64  # analyses kept
    RETRY_AFTER = 60.0  # seconds before an analysis that failed unexpectedly is tried again
    WORDS = 128  # (game, language) texts kept
    CHECK = 60.0  # seconds between two looks whether an idle game's advance work is still wanted

    def __init__(self, rollouts: int | None = None, ahead_games: int = AHEAD_GAMES) -> None:
        #: rollouts per card (None: the engine's default, or SORRY_ANALYSIS_ROLLOUTS)
        self.rollouts = rollouts or rollouts_setting()
        self.ahead_games = ahead_games  # games analysed ahead at once (0: none)
        self._games: collections.OrderedDict[str, _Entry] = collections.OrderedDict()
        self._words: collections.OrderedDict[tuple[str, str], bytes] = collections.OrderedDict()
        self._localising: dict[tuple[str, str], asyncio.Future[bytes]] = {}
        self._one_at_a_time: asyncio.Semaphore | None = None
        self._ahead: dict[str, _Ahead] = {}
        #: games that cannot be analysed ahead (not begun from a seed): not tried again
        self._unsuitable: collections.OrderedDict[str, None] = collections.OrderedDict()

    # -- ahead of the end -----------------------------------------------------------------
    def changed(self, service: Any, live: Any) -> None:
        """A game changed (a move, its end; :attr:`sorry.web.cache.GameCache.listeners`):
        its advance work goes on, begins, or, at its end, gives way to the last job."""
        ahead = self._ahead.get(live.id)
        if live.game.is_over():
            if ahead is not None and live.id in self._games:
                self._take_ahead(live.id)  # analysed already (not by this work)
            elif ahead is not None:
                self._begin(service, live)  # the end's job now, before the page asks
            return
        if ahead is not None:
            ahead.live = live
            ahead.wake.set()
            return
        if (
            len(self._ahead) >= self.ahead_games
            or live.id in self._unsuitable
            or all(s.kind == "bot" for s in live.seats.values())
            or not live.room.settings.started
        ):
            return
        ahead = self._ahead[live.id] = _Ahead(live)
        ahead.task = asyncio.ensure_future(self._run_ahead(service, ahead))

    def ahead_of(self, game_id: str) -> int:
        """Decisions of a game valued ahead of its end: so far, while it is played; those
        its analysis used, once it is over."""
        ahead = self._ahead.get(game_id)
        if ahead is not None:
            return len(ahead.valued)
        entry = self._games.get(game_id)
        return entry.ahead if entry is not None else 0

    @property
    def analysed_ahead(self) -> int:
        """Games being analysed ahead of their end now."""
        return len(self._ahead)

    async def _run_ahead(self, service: Any, ahead: _Ahead) -> None:
        from .workers import AHEAD

        try:
            while True:
                ahead.wake.clear()
                live = ahead.live
                game = live.game
                if game.is_over():
                    return  # kept for the end's job (self._begin takes it)
                played = len(game.move_stack)
                data = game.to_dict()
                steps: list[str] = data["steps"]
                ahead.valued = _still_valid(ahead.valued, ahead.steps, steps)  # undone moves
                ahead.steps = steps
                if len(ahead.valued) < played or ahead.start is None:
                    first = len(ahead.valued)
                    last = min(played, first + ahead.size)
                    seats = record_seats(live)
                    model, start, values, seconds = await _retry(
                        service.pool.run,
                        AHEAD,
                        ahead_job,
                        data,
                        seats,
                        self.rollouts,
                        first,
                        last,
                        ahead.start is None,
                    )
                    if ahead.model not in (None, model):  # another engine, or seat: again
                        ahead.valued, ahead.start, ahead.model = [], None, None
                        continue
                    ahead.model = model
                    ahead.start = start or ahead.start
                    ahead.valued += values
                    if values:
                        ahead.size = piece_size(model[0], len(values), seconds, AHEAD_BUDGET)
                    continue
                try:
                    await asyncio.wait_for(ahead.wake.wait(), self.CHECK)
                except TimeoutError:
                    gone = service.live.get(live.id) is not live
                    if gone or time.monotonic() - live.last_change > AHEAD_IDLE:
                        self._drop(live.id, ahead)
                        return
        except asyncio.CancelledError:
            raise
        except SorryError:  # not begun from a seed: analysed at its end, if it can be
            self._unsuitable[ahead.live.id] = None
            while len(self._unsuitable) > self.GAMES:
                self._unsuitable.popitem(last=False)
            self._drop(ahead.live.id, ahead)
        except Exception:  # the pool stopped or broke: the end's job does it all
            log.exception("the advance analysis of game %s failed", ahead.live.id)
            self._drop(ahead.live.id, ahead)

    def _drop(self, gid: str, ahead: _Ahead) -> None:
        if self._ahead.get(gid) is ahead:
            del self._ahead[gid]

    def _take_ahead(self, gid: str) -> _Ahead | None:
        """The game's advance work, for its end's job (its task stopped: a job already in a
        worker is not waited for)."""
        ahead = self._ahead.pop(gid, None)
        if ahead is not None and ahead.task is not None and not ahead.task.done():
            ahead.task.cancel()
        return ahead

    # -- the finished game -----------------------------------------------------------------
    def starts_work(self, game_id: str, lang: str) -> bool:
        """Whether asking for this analysis now would start work (computing it, or its words in
        ``lang``): only such requests count against an address's limit, so that a page polling
        an analysis being computed, or several tabs showing one, are never refused."""
        entry = self._games.get(game_id)
        if entry is None or (entry.retry_at is not None and time.monotonic() > entry.retry_at):
            return True
        if entry.data is None or entry.record is None or entry.error is not None:
            return False  # being computed, or failed for good: a dictionary lookup
        key = (game_id, lang)
        return key not in self._words and key not in self._localising

    def _begin(self, service: Any, live: Any) -> _Entry:
        entry = self._games[live.id] = _Entry()
        entry.task = asyncio.ensure_future(self._compute(service, live, entry))
        while len(self._games) > self.GAMES:
            _gid, old = self._games.popitem(last=False)
            if old.task is not None and not old.task.done():
                old.task.cancel()
        return entry

    async def get(self, service: Any, live: Any, lang: str, wait: float = 0.0) -> tuple[int, bytes]:
        """(HTTP status, JSON body) for a finished game (PermissionError while it is played);
        while it is computed, after waiting up to ``wait`` seconds for it."""
        if not live.game.is_over():
            raise PermissionError("the analysis is available when the game is over")
        entry = self._games.get(live.id)
        if entry is not None and entry.retry_at is not None and time.monotonic() > entry.retry_at:
            entry = None
        if entry is None:
            entry = self._begin(service, live)
        self._games.move_to_end(live.id)
        if not entry.ready.is_set() and wait > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(entry.ready.wait(), min(wait, WAIT_MAX))
        if entry.error is not None:
            return 422, _dumps({"error": entry.error})
        if entry.data is None or entry.record is None:
            return 202, _dumps({"status": "working", "done": entry.done, "total": entry.total})
        key = (live.id, lang)
        body = self._words.get(key)
        if body is None:  # in a worker: the language is a process-wide setting
            from .workers import LOW

            job = self._localising.get(key)
            if job is None:
                text = entry.record.to_json()
                job = self._localising[key] = asyncio.ensure_future(
                    _retry(service.pool.run, LOW, localised_job, entry.data, text, lang)
                )
            try:
                body = await asyncio.shield(job)
            finally:
                if job.done():
                    self._localising.pop(key, None)
            self._words[key] = body
            while len(self._words) > self.WORDS:
                self._words.popitem(last=False)
        self._words.move_to_end(key)
        return 200, body

    async def _compute(self, service: Any, live: Any, entry: _Entry) -> None:
        from .workers import LOW

        ahead = self._take_ahead(live.id)
        try:
            record = await _record(service, live)
            entry.total = account.decision_count(record)
            text = record.to_json()
            run = service.pool.run
            start: Start | None = None
            valued: list[account.NodeValues] = []
            if ahead is not None and ahead.start is not None:
                steps = live.game.to_dict()["steps"]
                start = ahead.start
                valued = _still_valid(ahead.valued, ahead.steps, steps)[: entry.total]
            entry.done = entry.ahead = len(valued)
            data = None
            if start is not None:  # the rest: a few decisions (in pieces if the work lagged)
                valued = await self._pieces(run, text, entry, valued)
                data = await _retry(run, LOW, final_job, text, self.rollouts, start, valued)
            if data is None:  # the whole game, in pieces, one game at a time
                entry.done = entry.ahead = 0
                if self._one_at_a_time is None:
                    self._one_at_a_time = asyncio.Semaphore(1)
                async with self._one_at_a_time:
                    start = await _retry(run, LOW, start_job, text, self.rollouts)
                    valued = await self._pieces(run, text, entry, [])
                    data = await _retry(run, LOW, final_job, text, self.rollouts, start, valued)
                if data is None:  # pragma: no cover - the workers' engines differ
                    raise RuntimeError("the workers do not have the same analysis engine")
            entry.done = entry.total
            entry.data = data
            entry.record = record
        except SorryError as exc:
            entry.error = str(exc)
        except asyncio.CancelledError:
            self._forget(live.id, entry)
            raise
        except Exception:
            log.exception("the analysis of game %s failed", live.id)
            entry.error = "the analysis failed: try again in a minute"
            entry.retry_at = time.monotonic() + self.RETRY_AFTER
        finally:
            entry.ready.set()

    async def _pieces(
        self, run: Any, text: str, entry: _Entry, valued: list[account.NodeValues]
    ) -> list[account.NodeValues]:
        """The decisions after ``valued`` valued, in pieces of about :data:`PIECE_BUDGET`
        seconds (the final job assembles them)."""
        from .workers import LOW

        while len(valued) < entry.total:
            first = len(valued)
            valued = valued + await _retry(
                run, LOW, chunk_job, text, self.rollouts, first, entry.total, PIECE_BUDGET
            )
            entry.done = len(valued)
        return valued

    def _forget(self, gid: str, entry: _Entry) -> None:
        if self._games.get(gid) is entry:
            del self._games[gid]

    def close(self) -> None:
        """Stop the analyses under way (the server is stopping)."""
        for entry in self._games.values():
            if entry.task is not None and not entry.task.done():
                entry.task.cancel()
        for ahead in self._ahead.values():
            if ahead.task is not None and not ahead.task.done():
                ahead.task.cancel()
        self._ahead.clear()


def _still_valid(
    valued: list[account.NodeValues], old: list[str], new: list[str]
) -> list[account.NodeValues]:
    """The values made on the steps ``old`` that hold for the steps ``new``: those of the
    decisions both share (moves taken back and played again differ from there on)."""
    shared = 0
    for a, b in zip(old, new, strict=False):
        if a != b:
            break
        shared += 1
    moves = sum(1 for step in old[:shared] if not step.startswith(("draw:", "resign:")))
    return valued[:moves]


async def _retry(run: Any, priority: int, fn: Any, *args: Any) -> Any:
    """``run(priority, fn, *args)``, waiting while the pool's queue is full or the worker
    loads the compiled analysis."""
    from .workers import PoolBusy

    while True:
        try:
            return await run(priority, fn, *args)
        except (PoolBusy, AnalysisLoading):
            await asyncio.sleep(ASK_AGAIN_AFTER)


async def _record(service: Any, live: Any) -> GameRecord:
    """The game's record, as the server gives it (computed once, in a worker, and cached)."""
    from .workers import PoolBusy

    while True:
        try:
            text = await service.finished_json(live, "record")
            break
        except PoolBusy:
            await asyncio.sleep(1.0)
        except SorryError as exc:
            raise SorryError(f"this game has no record to analyse ({exc})") from None
    return GameRecord.from_json(text.decode())


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


__all__ = [
    "SCRIPT_MESSAGES",
    "SEED",
    "AnalysisCache",
    "ahead_job",
    "chunk_job",
    "final_job",
    "localised_job",
    "piece_size",
    "start_job",
]
