"""The terminal game's analysis ahead of the game's end: while the game is played, a process of
its own, at a low scheduling priority, values each decision played so far
(:mod:`sorry.analysis.pieces`); at the end only the decisions it has not reached are left to
value, so the game-over screen shows the analysis in seconds instead of the whole analysis's
time. The result is the same as analysing the finished game in one go.

The process (``python -c``: jobs on its stdin, values on its stdout) starts with a game's
first move, once the background warm-up has loaded the compiled analysis (the process then
reads it from numba's cache instead of compiling it a second time). It is ended (SIGTERM, then
SIGKILL) when the game ends, its values taken, and when the terminal game ends; it also ends by
itself when its stdin closes (the terminal game killed), so none is left behind. It runs in a
session of its own: the terminal's signals are the game's. Moves taken back drop the values of
the decisions they undo. A game that cannot be analysed (not begun from a seed, a
resignation) is not valued.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

from ..analysis import account, pieces
from ..game import Game
from ..record import GameRecord

#: The scheduling priority the process lowers itself by: a bot's move or a hint never waits.
NICENESS = 10
#: Decisions valued in one call (each call replays the game so far; few, so that the values
#: reach the game as they are made).
CHUNK = 4


def _decision_ends(steps: Sequence[str]) -> list[int]:
    """For each decision of a game's steps (``Game.to_dict()["steps"]``), the length of the
    steps it depends on (up to and with its move)."""
    return [i + 1 for i, s in enumerate(steps) if not s.startswith(("draw:", "resign:"))]


def serve() -> None:
    """The process (``python -c "from sorry.tui.ahead import serve; serve()"``): jobs come on
    its stdin, values go out on its stdout (pickled, as :mod:`multiprocessing.connection`
    frames them; the standard streams themselves then lead nowhere, so that nothing printed
    reaches the game's terminal). Ends when its stdin closes."""
    jobs = Connection(os.dup(0), writable=False)
    results = Connection(os.dup(1), readable=False)
    nowhere = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(nowhere, fd)
    _serve(jobs, results)


def _serve(jobs: Connection, results: Connection) -> None:
    """For each job (a game so far, its seats, the rollouts, the first decision to value and
    whether to value the start): V at the start if asked, then each decision's values, sent
    one by one as they are ready; returns when the jobs' pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the terminal game ends it
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    from ..analysis.calibration import game_model
    from ..analysis.estimator import default_estimator

    base = default_estimator()
    while True:
        try:
            game_data, seats, rollouts, first, with_start = jobs.recv()
        except (EOFError, OSError):
            return
        try:
            game = Game.from_dict(game_data)
            record = GameRecord.from_game(game, seats)
            est = game_model(record, base)
            if with_start:
                results.send(("start", pieces.start_of(record, est, rollouts)))
            last = account.decision_count(record)
            # a few decisions a call: each call replays the game from its start
            for begin in range(first, last, CHUNK):
                end = min(begin + CHUNK, last)
                for index, values in enumerate(
                    pieces.value(record, est, rollouts, begin, end), begin
                ):
                    results.send(("value", index, values))
            results.send(("done",))
        except OSError:
            return
        except Exception as exc:  # said to the game, which stops asking
            try:
                results.send(("failed", f"{type(exc).__name__}: {exc}"))
            except OSError:
                return


class AheadAnalysis:
    """Values a game's decisions while it is played (see the module's words). Call
    :meth:`played` after each move (cheap: it sends the game to the process when the process
    is idle), :meth:`take` at the game's end, :meth:`close` when the terminal game ends."""

    def __init__(self, rollouts: int | None = None) -> None:
        self.rollouts = rollouts  # per card that could come (None: the engine's default)
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        self._reader: threading.Thread | None = None
        self._busy = False
        self._closed = False
        #: the game the process could not value (not begun from a seed): not sent again
        self._failed: tuple[Any, ...] | None = None
        #: the game the values are of: its rules, seed and start; and the steps of the last
        #: job (each valued decision depends on a prefix of them)
        self._identity: tuple[Any, ...] | None = None
        self._basis: list[str] = []
        self._start: pieces.Start | None = None
        self._valued: list[account.NodeValues] = []
        self._pending: tuple[dict[str, Any], list[str]] | None = None

    # -- the game's side --------------------------------------------------------------------
    def played(self, game: Game, seats: Sequence[str]) -> None:
        """The game after a move: value what is new, when the process is free (else the
        process is given the game when it has finished its job)."""
        if self._closed or not game.history:
            return
        data = game.to_dict()
        if any(s.startswith("resign:") for s in data["steps"]):
            return
        with self._lock:
            if _identity_of(data) == self._failed:
                return
            self._pending = (data, list(seats))
            if not self._busy:
                self._send_pending()

    def take(self, game: Game) -> tuple[pieces.Start | None, list[account.NodeValues]]:
        """At the end of ``game``: its start and first decisions valued (None and [] if
        none), and the process's work stopped (the caller values the rest:
        :func:`sorry.analysis.pieces.finish`)."""
        data = game.to_dict()
        with self._lock:
            self._pending = None
            start, valued = self._start, self._valued
            if self._identity != _identity_of(data):
                start, valued = None, []
            else:
                valued = valued[: _still_valid(self._basis, data["steps"], len(valued))]
            self._forget()
        self._stop_process()
        return start, list(valued)

    def close(self) -> None:
        """End the process for good (the terminal game ends)."""
        with self._lock:
            self._pending = None
            self._closed = True
        self._stop_process()

    @property
    def valued(self) -> int:
        """Decisions valued so far (of the game now played)."""
        with self._lock:
            return len(self._valued)

    # -- the process ------------------------------------------------------------------------
    def _forget(self) -> None:
        self._identity = None
        self._basis = []
        self._start = None
        self._valued = []

    def _send_pending(self) -> None:
        """With the lock held: give the process the latest game, if it has new decisions."""
        if self._pending is None:
            return
        data, seats = self._pending
        self._pending = None
        identity = _identity_of(data)
        steps: list[str] = data["steps"]
        if identity != self._identity:
            self._forget()
            self._identity = identity
        else:
            self._valued = self._valued[: _still_valid(self._basis, steps, len(self._valued))]
        if len(_decision_ends(steps)) <= len(self._valued) and self._start is not None:
            return
        self._basis = steps
        try:
            conn = self._ensure_process()
            conn.send((data, seats, self.rollouts, len(self._valued), self._start is None))
        except (OSError, ValueError):
            self._failed = identity
            return
        self._busy = True

    def _ensure_process(self) -> Connection:
        if self._conn is not None:
            return self._conn
        if not sys.executable:  # an embedded Python: no interpreter to start
            raise OSError("no Python executable to run the analysis in")
        job_r, job_w = os.pipe()
        out_r, out_w = os.pipe()
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", "from sorry.tui.ahead import serve; serve()"],
                stdin=job_r,
                stdout=out_w,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # the terminal's signals are the game's, not its
            )
        except OSError:
            os.close(job_w)
            os.close(out_r)
            raise
        finally:  # the process's ends
            os.close(job_r)
            os.close(out_w)
        self._process = process
        self._conn = Connection(job_w, readable=False)
        results = Connection(out_r, writable=False)
        self._reader = threading.Thread(
            target=self._read, args=(self._conn, results), name="sorry-ahead-reader", daemon=True
        )
        self._reader.start()
        return self._conn

    def _read(self, conn: Connection, results: Connection) -> None:
        while True:
            try:
                message = results.recv()
            except (EOFError, OSError):
                results.close()
                return
            with self._lock:
                if conn is not self._conn:
                    return
                kind = message[0]
                if kind == "start":
                    self._start = message[1]
                elif kind == "value":
                    if message[1] == len(self._valued):
                        self._valued.append(message[2])
                elif kind == "done":
                    self._busy = False
                    self._send_pending()
                else:  # failed: the game cannot be valued ahead; the end does it all
                    self._busy = False
                    self._failed = self._identity
                    self._forget()

    def _stop_process(self) -> None:
        with self._lock:
            process, conn = self._process, self._conn
            self._process = self._conn = None
            self._busy = False
        if conn is not None:
            conn.close()
        if process is not None:
            process.terminate()
            try:
                process.wait(1.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _identity_of(data: dict[str, Any]) -> tuple[Any, ...]:
    """Which game a ``Game.to_dict()`` is: its rules, seed and start."""
    return (repr(data["rules"]), data["seed"], repr(data["initial"]))


def _still_valid(basis: Sequence[str], steps: Sequence[str], valued: int) -> int:
    """How many of the ``valued`` first decisions made on ``basis`` hold for ``steps``."""
    same = 0
    for a, b in zip(basis, steps, strict=False):
        if a != b:
            break
        same += 1
    ends = _decision_ends(basis)[:valued]
    return sum(1 for end in ends if end <= same)


__all__ = ["CHUNK", "NICENESS", "AheadAnalysis"]
