"""Which optional parts of the package this installation has: decided here, once.

The core needs nothing but the standard library; everything else comes with an extra
(``pip install 'sorry-engine[fast]'`` and so on). Every command, screen and module that uses an
optional part asks this module whether it is there, with one function per part, and gets a
:class:`Feature`: true when the part can be used, else false with the reason in one line (what
is missing and how to install it), in the player's language. A caller without the part says so
in that one line and uses what is there (the pure-Python engine for the compiled one, line-by-line
play for the full screen), never a traceback.

Whether a package is installed is decided without importing it (its import can take a second),
so asking costs microseconds and never fails (a package blocked with ``sys.modules[name] = None``
counts as missing, as the tests of the lighter installs do).

>>> core = plain_python()
>>> bool(core), core.reason
(True, '')
>>> [f.name for f in every_feature()][:3]
['terminal_game', 'compiled_engine', 'rollouts_ahead_of_time']
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import SorryError
from ..i18n import N_, _

#: The extras of pyproject.toml, each with the packages whose presence stands for it.
EXTRAS: dict[str, tuple[str, ...]] = {
    "tui": ("textual",),
    "fast": ("numba", "numpy"),
    "web": ("starlette", "uvicorn", "sqlalchemy", "websockets"),
    "plots": ("matplotlib",),
    "ray": ("ray",),
    "rl": ("numpy", "gymnasium", "pettingzoo", "pyspiel"),
}
#: the extra ``pip install`` names for each key of :data:`EXTRAS`
PIP_EXTRA = {"tui": "tui", "fast": "fast", "web": "web", "plots": "sim", "ray": "sim", "rl": "rl"}


class FeatureMissing(SorryError):
    """An optional part that a command cannot do without is not installed (one line)."""


@dataclass(frozen=True)
class Feature:
    """An optional part: ``name`` (a key of :func:`every_feature`), ``what`` it is in words,
    whether it is ``available``, and the ``reason`` when it is not (one line)."""

    name: str
    what: str
    available: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.available

    def require(self) -> None:
        """Raise :class:`FeatureMissing` with the reason unless the part is available."""
        if not self.available:
            raise FeatureMissing(self.reason)


@functools.cache
def installed(package: str) -> bool:
    """Whether ``package`` can be imported (found on the path, not imported)."""
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):  # a broken parent package, or a module without a spec
        return False


def missing_packages(extra: str) -> list[str]:
    """The packages of ``extra`` (a key of :data:`EXTRAS`) that are not installed."""
    return [p for p in EXTRAS[extra] if not installed(p)]


def _install(extra: str) -> str:
    return f"pip install 'sorry-engine[{PIP_EXTRA[extra]}]'"


def _extra_feature(name: str, what: str, extra: str) -> Feature:
    gone = missing_packages(extra)
    if not gone:
        return Feature(name, what, True)
    reason = _("{what}: not installed (no {packages}): {install}").format(
        what=what, packages=", ".join(gone), install=_install(extra)
    )
    return Feature(name, what, False, reason)


def plain_python() -> Feature:
    """The core: always there."""
    return Feature("plain_python", _("the rules engine"), True)


def terminal_game() -> Feature:
    """The full-screen terminal game (Textual: the ``tui`` or ``cli`` extra)."""
    return _extra_feature("terminal_game", _("the full-screen game"), "tui")


def compiled_engine() -> Feature:
    """The compiled engine (numba and numpy: the ``fast`` extra): the expert's full-strength
    search, hints at full quality, the after-game analysis with 64 rollouts a card, fast
    simulation. Without it the same code runs on the pure-Python engine, slower and rougher."""
    return _extra_feature("compiled_engine", _("the compiled engine"), "fast")


def rollouts_ahead_of_time() -> Feature:
    """The rollouts of the hints and the expert compiled ahead of time for these sources
    (``sorry compile``; numpy alone loads them: no numba compile or load at the first hint)."""
    what = _("the rollouts compiled ahead of time")
    if not installed("numpy"):
        return Feature(
            "rollouts_ahead_of_time",
            what,
            False,
            _("{what} need numpy: {install}").format(what=what, install=_install("fast")),
        )
    if os.environ.get("SORRY_AOT") == "0":
        return Feature("rollouts_ahead_of_time", what, False, _("turned off by SORRY_AOT=0"))
    from ..compiled import aot

    if aot.load() is not None:  # built for these sources, and loads (once a process)
        return Feature("rollouts_ahead_of_time", what, True)
    reason = (
        _("{what} are built from other sources: run 'sorry compile'")
        if aot.status() == "stale"
        else _("{what} are not built: run 'sorry compile'")
    )
    return Feature("rollouts_ahead_of_time", what, False, reason.format(what=what))


def compiled_rollouts() -> Feature:
    """The hints' and the expert's rollouts on the compiled engine: built ahead of time, or
    compiled by numba (the first time: minutes, announced by the caller)."""
    what = _("the compiled rollouts")
    if rollouts_ahead_of_time() or compiled_engine():
        return Feature("compiled_rollouts", what, True)
    return Feature("compiled_rollouts", what, False, compiled_engine().reason)


def web_server() -> Feature:
    """The game server (``sorry serve``: the ``web`` extra)."""
    return _extra_feature("web_server", _("the web server"), "web")


def plots() -> Feature:
    """PNG plots (matplotlib: the ``sim`` extra)."""
    return _extra_feature("plots", _("matplotlib (PNG plots)"), "plots")


def ray() -> Feature:
    """Simulation on a Ray cluster (the ``sim`` extra)."""
    return _extra_feature("ray", _("Ray (--backend ray)"), "ray")


def rl() -> Feature:
    """The reinforcement-learning environments (the ``rl`` extra)."""
    return _extra_feature("rl", _("the RL environments"), "rl")


#: What the pure-Python stand-in of the compiled engine means for each use, said in one line.
PYTHON_ENGINE_NOTES = {
    "expert": N_(
        "the compiled engine is not installed: the expert searches with Python playouts "
        "(weaker, about a second a move); {install} for full strength"
    ),
    "hints": N_(
        "the compiled engine is not installed: hints come from short Python playouts and are "
        "rough; {install} for hints at full quality"
    ),
    "game": N_(
        "the compiled engine is not installed: the expert plays weaker, the hints and the "
        "after-game analysis are rough; {install} for the full game"
    ),
    "analysis": N_(
        "the compiled engine is not installed: a rough analysis (4 rollouts a card, Python "
        "playouts), not a verdict; {install} for 64 rollouts a card"
    ),
}


def python_engine_note(use: str) -> str:
    """The line that says what ``use`` (``expert``, ``hints``, ``game`` or ``analysis``) gets
    without the compiled engine."""
    return _(PYTHON_ENGINE_NOTES[use]).format(install=_install("fast"))


def every_feature() -> list[Feature]:
    """Every optional part, as ``sorry features`` lists them."""
    funcs: list[Callable[[], Feature]] = [
        terminal_game,
        compiled_engine,
        rollouts_ahead_of_time,
        web_server,
        plots,
        ray,
        rl,
    ]
    return [f() for f in funcs]


__all__ = [
    "EXTRAS",
    "Feature",
    "FeatureMissing",
    "compiled_engine",
    "compiled_rollouts",
    "every_feature",
    "installed",
    "missing_packages",
    "plain_python",
    "plots",
    "python_engine_note",
    "ray",
    "rl",
    "rollouts_ahead_of_time",
    "terminal_game",
    "web_server",
]
