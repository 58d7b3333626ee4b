"""``sorry compile``: compile the hints' rollouts ahead of time (:mod:`sorry.compiled.aot`)."""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import TextIO

from ..i18n import _
from . import CliError

#: seconds between two rewrites of the time so far (a test shortens it)
TICK = 1.0


@contextlib.contextmanager
def time_so_far(stream: TextIO) -> Iterator[None]:
    """On a terminal, the time the block has taken so far, rewritten in place every second: a
    compile that takes far longer than announced (a busy machine) is seen to be alive."""
    if not stream.isatty():
        yield
        return
    stop = threading.Event()
    t0 = time.monotonic()
    width = [0]

    def tick() -> None:
        while not stop.wait(TICK):
            m, s = divmod(int(time.monotonic() - t0), 60)
            line = _("still compiling: {time} so far").format(time=f"{m}:{s:02d}")
            width[0] = len(line)
            stream.write("\r" + line)
            stream.flush()

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        if width[0]:
            stream.write("\r" + " " * width[0] + "\r")
            stream.flush()


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "compile",
        help=_("compile the hints' rollouts ahead of time (fast extra and a C compiler)"),
        description=_(
            "Compile the rollouts of the hints and of the expert's search ahead of time into a "
            "module kept in the user's cache directory, so that a fresh 'sorry hint' needs no "
            "numba (it answers in about 0.3 s instead of 1 s). Takes one to three minutes of "
            "processor time, once after installing or updating; a module built from other "
            "sources is never used."
        ),
    )
    p.add_argument(
        "--status",
        action="store_true",
        help=_("say whether the module is built for these sources, and where"),
    )
    p.add_argument(
        "--force",
        action="store_true",
        help=_("compile even if the module is built for these sources"),
    )
    p.add_argument(
        "--if-needed",
        action="store_true",
        help=_(
            "compile only when the compiled engine is installed and the module is not built "
            "for these sources; print nothing otherwise, and a note (not an error) when it "
            "cannot compile (make play runs this)"
        ),
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..compiled import aot
    from ..errors import SorryError
    from ..features import compiled_engine, rollouts_ahead_of_time

    if args.if_needed:
        if not compiled_engine() or rollouts_ahead_of_time():
            return 0
        t0 = time.perf_counter()
        print(
            _(
                "Compiling the computer players' search ahead of time (once after installing "
                "or updating: one to three minutes)..."
            ),
            flush=True,
        )
        try:
            from ..fast.search import build_ahead

            with time_so_far(sys.stdout):
                build_ahead()
        except SorryError as exc:
            print(
                _(
                    "sorry: note: {error}; the game compiles the search itself the first time "
                    "(numba: minutes, said on screen)"
                ).format(error=exc),
                file=sys.stderr,
            )
            return 0
        print(_("Compiled in {seconds} s.").format(seconds=f"{time.perf_counter() - t0:.0f}"))
        return 0
    compiled_engine().require()

    where = aot.directory()
    if args.status:
        state = aot.status()
        words = {
            "ready": _("built for these sources"),
            "stale": _("built from other sources or for another processor: run 'sorry compile'"),
            "missing": _("not built: run 'sorry compile'"),
        }
        print(f"{words[state]}: {where}")
        return 0 if state == "ready" else 1
    if not args.force and aot.status() == "ready":
        print(f"{_('built for these sources')}: {where}")
        return 0
    t0 = time.perf_counter()
    print(_("compiling the rollouts ahead of time (one to three minutes)..."), file=sys.stderr)
    from ..fast.search import build_ahead

    with time_so_far(sys.stderr):
        path = build_ahead()
    if aot.load() is None:
        raise CliError(_("the compiled module does not load: {path}").format(path=path))
    seconds = time.perf_counter() - t0
    print(_("compiled in {seconds:.0f} s: {path}").format(seconds=seconds, path=path))
    return 0
