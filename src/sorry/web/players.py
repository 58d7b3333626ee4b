"""Bots for the server: ``sorry.bots`` when it is installed, else a uniform-random chooser
behind the same call (``make_bot(level).choose(view, rng)``)."""

from __future__ import annotations

import functools
import importlib
from typing import Any, NotRequired, Protocol, TypedDict

from ..moves import Move
from ..rng import Rng
from ..view import PlayerView

HINT_ROLLOUTS = 24
#: Processor time of one hint when a caller asks for a time budget (the server's hint is the
#: faces' fixed-rollouts hint, ``sorry.bots.hint_estimate``, about 0.2 s, cached per position).
HINT_CPU_SECONDS = 0.02
#: At most this many moves' estimates in a hint reply (best first; a points hand has up to 20).
HINT_MOVES = 12


class MoveChance(TypedDict):
    """One move's estimate in a hint reply: its chance of winning ``win`` with the 95%
    interval [``low``, ``high``] (shares of 1, three decimals), the worlds it was played in,
    and whether it is ``tied`` with the best (their difference's interval holds zero)."""

    move: str
    win: float
    low: float
    high: float
    worlds: int
    tied: bool


class HintResult(TypedDict):
    """What the server's hint reply carries beside the words: the suggested move, every move's
    estimate best first (empty when no estimator is installed or it is still loading) and
    whether the best is told apart from every other move."""

    move: str
    moves: list[MoveChance]
    separated: bool
    #: the estimator was still loading (a worker starting): a stand-in the server does not keep
    provisional: NotRequired[bool]
    #: the only legal move (a pass included): nothing estimated, no chance shown
    forced: NotRequired[bool]
    #: the chances come from the Python engine's playouts (no compiled engine): a guide, as
    #: the terminal game marks its hint (:func:`rough_estimates`)
    rough: NotRequired[bool]


class Chooser(Protocol):
    def choose(self, view: PlayerView, rng: Rng) -> Move: ...


class RandomBot:
    """Picks a legal move uniformly at random (seeded)."""

    def choose(self, view: PlayerView, rng: Rng) -> Move:
        return view.legal_moves[rng.below(len(view.legal_moves))]


def _bots_module() -> Any:
    try:
        return importlib.import_module("sorry.bots")
    except ImportError:
        return None


def bot_levels() -> list[str]:
    """Levels a seat may be given, weakest first: those that need the compiled engine
    (``sorry.bots.COMPILED_LEVELS``) only when it is installed."""
    return list(_bot_levels())


@functools.cache
def _bot_levels() -> tuple[str, ...]:
    mod = _bots_module()
    levels = getattr(mod, "LEVELS", None) if mod is not None else None
    if not levels:
        return ("random",)
    needs_compiled: frozenset[str] = getattr(mod, "COMPILED_LEVELS", frozenset())
    if needs_compiled:
        from ..features import compiled_engine

        if not compiled_engine():
            return tuple(str(x) for x in levels if x not in needs_compiled)
    return tuple(str(x) for x in levels)


def level_sentences() -> dict[str, str]:
    """Each level's one sentence saying how strong it is (``sorry.bots.LEVEL_TABLE``), in
    English: the page translates it with the script's catalog (:func:`sorry.web.i18n.
    script_catalog` holds the translations). Empty without ``sorry.bots``."""
    mod = _bots_module()
    table = getattr(mod, "LEVEL_TABLE", ()) if mod is not None else ()
    return {str(info.level): str(info.strength) for info in table}


def make_bot(level: str, time_limit: float | None = None) -> Chooser:
    """The bot of ``level``; ``time_limit`` caps its thinking time per move, for the levels
    that search (the others are fast anyway)."""
    mod = _bots_module()
    if mod is not None and hasattr(mod, "make_bot"):
        bot: Chooser
        # only a level that searches takes a time budget (sorry.bots.make_bot refuses it
        # from the others: asked anyway, every quick bot's move failed and the server played
        # the first legal move instead)
        params = getattr(mod, "bot_parameters", None)
        takes_limit = params is None or "time_limit" in params(level)
        if time_limit is not None and takes_limit:
            try:
                bot = mod.make_bot(level, time_limit=time_limit)
                return bot
            except TypeError:  # this level takes no time budget
                pass
        bot = mod.make_bot(level)
        return bot
    if level != "random":
        raise ValueError(f"unknown bot level {level!r}")
    return RandomBot()


def hint_estimates(
    view: PlayerView,
    rng: Rng,
    cpu_seconds: float | None = None,
    max_worlds: int | None = None,
) -> HintResult:
    """The suggested move and each move's chance of winning, best first and at most
    HINT_MOVES of them: the terminal game's hint (``sorry.bots.hint_estimate``: a fixed
    number of rollouts, the same numbers for the same position; cached), or with
    ``cpu_seconds`` or ``max_worlds`` given, ``sorry.bots.estimate`` within them. A forced
    move (one legal move) has no estimates (``forced``). Without the estimator,
    :func:`hint`'s move alone."""
    mod = _bots_module()
    est = getattr(mod, "estimate", None) if mod is not None else None
    if est is None or not view.legal_moves:
        return {"move": str(hint(view, rng)), "moves": [], "separated": False}
    if len(view.legal_moves) == 1:
        return {"move": str(view.legal_moves[0]), "moves": [], "separated": True, "forced": True}
    if cpu_seconds is None and max_worlds is None and hasattr(mod, "hint_estimate"):
        result = mod.hint_estimate(view, seed=0)
    else:
        result = est(
            view, seconds=None, cpu_seconds=cpu_seconds, max_worlds=max_worlds or 4000, seed=0
        )
    moves: list[MoveChance] = [
        {
            "move": str(m.move),
            "win": round(m.win, 3),
            "low": round(m.low, 3),
            "high": round(m.high, 3),
            "worlds": m.worlds,
            "tied": bool(m.tied),
        }
        for m in result.moves[:HINT_MOVES]
    ]
    return {
        "move": moves[0]["move"],
        "moves": moves,
        "separated": bool(result.separated),
        "rough": rough_estimates(),
    }


def rough_estimates() -> bool:
    """Whether the hint's chances come from the Python engine's playouts rather than the
    compiled rollouts (``sorry.bots.rollouts.compiled_available``, which the terminal game's
    rough hint asks too)."""
    try:
        from ..bots.rollouts import compiled_available
    except ImportError:
        return True
    return not compiled_available()


def hint(view: PlayerView, rng: Rng) -> Move:
    """A suggested move for the viewer: the best move of ``sorry.bots.estimate`` (at most
    HINT_CPU_SECONDS of processor time, the same worlds for the same view: cached), else of
    ``sorry.bots.hint``, else the choice of the strongest bot level available."""
    mod = _bots_module()
    est = getattr(mod, "estimate", None) if mod is not None else None
    if est is not None and view.legal_moves:
        best: Move = est(view, seconds=None, cpu_seconds=HINT_CPU_SECONDS, seed=0).best.move
        return best
    fn = getattr(mod, "hint", None) if mod is not None else None
    if fn is not None:
        try:
            result = fn(view, rollouts=HINT_ROLLOUTS, seed=rng.next64())
        except TypeError:
            result = None
        if isinstance(result, Move):
            return result
        if isinstance(result, list | tuple) and result:
            first = result[0]
            if isinstance(first, Move):
                return first
            if isinstance(first, tuple) and first and isinstance(first[0], Move):
                return first[0]
    return make_bot(bot_levels()[-1]).choose(view, rng)
