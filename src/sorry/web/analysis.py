"""The browser's after-game analysis: ``GET /api/games/{id}/analysis`` (docs/analysis.md).

The numbers are computed once per finished game, off the event loop: in the server's worker
processes (:class:`sorry.web.workers.WorkerPool`, at low priority, behind the bots), in pieces
of a few decisions each (:func:`sorry.analysis.account.value_decisions` gives any range what
the whole game gives), so a bot never waits behind more than one piece; one game is analysed
at a time. The result, the JSON form without words (:func:`sorry.analysis.report.to_dict`),
is kept in memory for the most recent games; the words are added per language
(:func:`~sorry.analysis.report.localise`, with the graph's marks and each turn's text), and
kept too.

While the analysis runs the endpoint answers ``202 {"status": "working", "done": n,
"total": m}``; then ``200`` with the analysis; ``422 {"error": ...}`` for a game that cannot
be analysed (no winner, or not begun from a seed).
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import os
import time
from dataclasses import dataclass
from typing import Any, Final

from ..analysis import account, graph, report
from ..analysis.estimator import Estimator, default_estimator
from ..errors import SorryError
from ..i18n import N_, using
from ..record import GameRecord

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
    N_("Thresholds (points of win probability lost): {limits}."),
    N_("{label} from {points}"),
    N_("inaccuracy"),
    N_("The analysis is not available: {reason}"),
)

#: Rollouts per card that could come (None: the engine's default), from the environment
#: (``SORRY_ANALYSIS_ROLLOUTS``: a test or a small server can ask for fewer).
ROLLOUTS_ENV: Final = "SORRY_ANALYSIS_ROLLOUTS"
#: Decisions per job in a worker, by engine (a piece takes well under a second).
CHUNK: Final = {"compiled": 16, "python": 2}
SEED: Final = 0  # the analysis's seed: the same numbers for the same game on every server


# -- in the worker processes -------------------------------------------------------------------
_estimator: Estimator | None = None

Start = tuple[str, str, int, int, account.StartValue]


def _est() -> Estimator:
    global _estimator
    if _estimator is None:
        _estimator = default_estimator()
    return _estimator


def rollouts_setting() -> int | None:
    value = os.environ.get(ROLLOUTS_ENV, "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else None


def _sizes(est: Estimator, rollouts: int | None) -> tuple[int, int]:
    n = rollouts or account.DEFAULT_ROLLOUTS.get(est.engine, 16)
    return n, account.DEFAULT_WORLDS


def start_job(record_json: str, rollouts: int | None) -> Start:
    """The engine, the policy, the rollouts and worlds used, and V at the start, once the
    record is checked (:class:`~sorry.analysis.AnalysisError` if it cannot be analysed)."""
    est = _est()
    n, w = _sizes(est, rollouts)
    record = account.checked(GameRecord.from_json(record_json))
    return est.engine, est.policy, n, w, account.start_value(record, est, n, SEED)


def chunk_job(
    record_json: str, rollouts: int | None, first: int, last: int
) -> list[account.NodeValues]:
    """Decisions ``first`` to ``last - 1`` valued."""
    est = _est()
    n, w = _sizes(est, rollouts)
    record = GameRecord.from_json(record_json)
    return account.value_decisions(record, est, n, w, SEED, first, last)


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


class AnalysisCache:
    """Each finished game's analysis, computed once (see the module doc)."""

    GAMES = 64  # analyses kept
    RETRY_AFTER = 60.0  # seconds before an analysis that failed unexpectedly is tried again
    WORDS = 128  # (game, language) texts kept

    def __init__(self, rollouts: int | None = None) -> None:
        #: rollouts per card (None: the engine's default, or SORRY_ANALYSIS_ROLLOUTS)
        self.rollouts = rollouts or rollouts_setting()
        self._games: collections.OrderedDict[str, _Entry] = collections.OrderedDict()
        self._words: collections.OrderedDict[tuple[str, str], bytes] = collections.OrderedDict()
        self._localising: dict[tuple[str, str], asyncio.Future[bytes]] = {}
        self._one_at_a_time: asyncio.Semaphore | None = None

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

    async def get(self, service: Any, live: Any, lang: str) -> tuple[int, bytes]:
        """(HTTP status, JSON body) for a finished game (PermissionError while it is played)."""
        if not live.game.is_over():
            raise PermissionError("the analysis is available when the game is over")
        entry = self._games.get(live.id)
        if entry is not None and entry.retry_at is not None and time.monotonic() > entry.retry_at:
            entry = None
        if entry is None:
            entry = self._games[live.id] = _Entry()
            entry.task = asyncio.ensure_future(self._compute(service, live, entry))
            while len(self._games) > self.GAMES:
                _gid, old = self._games.popitem(last=False)
                if old.task is not None and not old.task.done():
                    old.task.cancel()
        self._games.move_to_end(live.id)
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

        try:
            record = await _record(service, live)
            entry.total = account.decision_count(record)
            if self._one_at_a_time is None:
                self._one_at_a_time = asyncio.Semaphore(1)
            async with self._one_at_a_time:
                text = record.to_json()
                run = service.pool.run
                engine, policy, n, w, start = await _retry(run, LOW, start_job, text, self.rollouts)
                size = CHUNK.get(engine, 4)
                valued: list[account.NodeValues] = []
                while len(valued) < entry.total:
                    first = len(valued)
                    last = min(entry.total, first + size)
                    valued += await _retry(run, LOW, chunk_job, text, self.rollouts, first, last)
                    entry.done = len(valued)
            entry.data = await asyncio.to_thread(
                _numbers, record, start, valued, policy, engine, n, w
            )
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

    def _forget(self, gid: str, entry: _Entry) -> None:
        if self._games.get(gid) is entry:
            del self._games[gid]

    def close(self) -> None:
        """Stop the analyses under way (the server is stopping)."""
        for entry in self._games.values():
            if entry.task is not None and not entry.task.done():
                entry.task.cancel()


async def _retry(run: Any, priority: int, fn: Any, *args: Any) -> Any:
    """``run(priority, fn, *args)``, waiting while the pool's queue is full."""
    from .workers import PoolBusy

    while True:
        try:
            return await run(priority, fn, *args)
        except PoolBusy:
            await asyncio.sleep(1.0)


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


def _numbers(
    record: GameRecord,
    start: account.StartValue,
    valued: list[account.NodeValues],
    policy: str,
    engine: str,
    rollouts: int,
    worlds: int,
) -> dict[str, Any]:
    points, draws, decisions = account.assemble(record, start, valued)
    a = account.finish(record, policy, engine, rollouts, worlds, points, draws, decisions, start[2])
    return report.to_dict(a, describe_moves=False)


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


__all__ = ["SCRIPT_MESSAGES", "AnalysisCache", "chunk_job", "localised_job", "start_job"]
