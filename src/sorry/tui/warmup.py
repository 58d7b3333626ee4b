"""The compiled engine loaded while the terminal game is played, and every wait for it said.

When the game starts, a background thread loads the compiled code the game uses: the rollouts
of the hints and of the expert (the module compiled ahead of time by ``sorry compile``, or
numba's cache: about a second), then the after-game analysis' rollouts (numba's cache). The
first time, numba compiles them instead: minutes on a busy machine. :class:`Warmup` keeps what
is being compiled and since when, so that a screen that waits for it says so (the bot
thinking, the hint, the analysis), with the seconds so far, rather than a message about
something else.

Without the compiled engine (no ``fast`` extra) nothing loads: :func:`missing_note` is the one
line the game shows at its start, and the hints and the analysis are marked rough.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator

from ..features import compiled_engine, compiled_rollouts, python_engine_note
from ..i18n import N_, _

#: What is compiled, in words.
PARTS = {
    "rollouts": N_("the computer players' search"),
    "analysis": N_("the after-game analysis"),
}


class Warmup:
    """What the background loading has done: ``rollouts`` and ``analysis`` are set once each
    part is ready (or will not be: no compiled engine), ``compiling`` names the part numba is
    compiling now (None otherwise), since ``since`` (``time.monotonic``)."""

    def __init__(self) -> None:
        self.rollouts = threading.Event()
        self.analysis = threading.Event()
        self.compiling: str | None = None
        self.since = 0.0
        self.thread: threading.Thread | None = None  # the loading's, once begun

    def busy(self) -> bool:
        """Whether the background loading is still under way."""
        return self.thread is not None and self.thread.is_alive()

    def done(self) -> None:
        """Nothing to load (the hints and analysis use what there is at once)."""
        self.rollouts.set()
        self.analysis.set()

    @contextlib.contextmanager
    def watch(self, part: str, started: Callable[[str], None]) -> Iterator[None]:
        """Within, a numba compile in this thread marks ``part`` as compiling (and calls
        ``started(part)`` once); the mark is cleared on leaving."""
        if not compiled_engine():
            yield
            return
        from ..fast.cache import on_compile

        def begin() -> None:
            self.since = time.monotonic()
            self.compiling = part
            started(part)

        try:
            with on_compile(begin):
                yield
        finally:
            if self.compiling == part:
                self.compiling = None

    def run(self, started: Callable[[str], None]) -> None:
        """Load every part (in a background thread); ``started(part)`` when a compile begins."""
        if not compiled_rollouts():
            self.done()
            return
        try:
            with self.watch("rollouts", started):
                from ..bots.rollouts import warmup

                warmup()
        finally:
            self.rollouts.set()
        try:
            if compiled_engine():
                with self.watch("analysis", started):
                    warm_analysis()
        finally:
            self.analysis.set()

    def waiting_words(self) -> str:
        """``compiling the computer players' search (the first run only: one to five
        minutes; 40 s so far)``, or "" when nothing is compiling."""
        part = self.compiling
        if part is None:
            return ""
        return _(
            "numba is compiling {part} (the first run only: one to five minutes; {seconds} s "
            "so far)"
        ).format(part=_(PARTS[part]), seconds=f"{time.monotonic() - self.since:.0f}")


def warm_analysis() -> None:
    """Load (or compile) the analysis' compiled rollouts."""
    from ..analysis.estimator import warmup

    warmup()


def missing_note() -> str:
    """The line the game shows at its start without the compiled engine ("" with it)."""
    if compiled_rollouts():
        return ""
    return python_engine_note("game")


__all__ = ["PARTS", "Warmup", "missing_note", "warm_analysis"]
