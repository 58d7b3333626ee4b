"""Loading the compiled code from numba's on-disk cache without compiling.

numba compiles a function on its first call unless its on-disk cache holds it for these
sources (the cache is keyed by each source file's time and size: any change of a file, a
checkout included, makes its functions compile again). Compiling the search takes minutes of
CPU; loading it from the cache about a second. A process that must stay responsive (the game
server's workers) loads under :func:`cache_only` and, on :class:`CompileNeeded`, has the
compile done by another process (see :mod:`sorry.web.workers`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

from numba.core import event  # type: ignore[import-untyped, import-not-found, unused-ignore]


class CompileNeeded(RuntimeError):
    """numba's cache lacks a function called under :func:`cache_only` (it would compile)."""


class _Refuse(event.Listener):  # type: ignore[misc, unused-ignore]
    """Raises CompileNeeded when the given thread is about to compile."""

    def __init__(self, thread: int) -> None:
        self.thread = thread

    def on_start(self, ev: Any) -> None:
        if threading.get_ident() == self.thread:
            fn = getattr(ev.data.get("dispatcher"), "py_func", None)
            name = getattr(fn, "__qualname__", "a function")
            raise CompileNeeded(f"numba's cache lacks {name}")

    def on_end(self, ev: Any) -> None:
        return None


@contextlib.contextmanager
def cache_only() -> Iterator[None]:
    """Within, this thread's calls of compiled functions load them from numba's on-disk
    cache, or raise :class:`CompileNeeded` at the first that would compile (before any
    compiling is done); other threads compile as usual."""
    listener = _Refuse(threading.get_ident())
    event.register("numba:compile", listener)  # type: ignore[no-untyped-call, unused-ignore]
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)  # type: ignore[no-untyped-call, unused-ignore]


class _Tell(event.Listener):  # type: ignore[misc, unused-ignore]
    """Calls ``callback`` once, when the given thread is about to compile."""

    def __init__(self, thread: int, callback: Callable[[], None]) -> None:
        self.thread = thread
        self.callback: Callable[[], None] | None = callback

    def on_start(self, ev: Any) -> None:
        if self.callback is not None and threading.get_ident() == self.thread:
            callback, self.callback = self.callback, None
            callback()

    def on_end(self, ev: Any) -> None:
        return None


@contextlib.contextmanager
def on_compile(callback: Callable[[], None]) -> Iterator[None]:
    """Within, ``callback`` is called once, when this thread is about to compile a function
    that numba's cache lacks (so a command can say that the first run takes minutes)."""
    listener = _Tell(threading.get_ident(), callback)
    event.register("numba:compile", listener)  # type: ignore[no-untyped-call, unused-ignore]
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)  # type: ignore[no-untyped-call, unused-ignore]
