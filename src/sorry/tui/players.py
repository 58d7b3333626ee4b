"""Who sits at each colour (a person or a bot of a level), and the hint engine.

>>> seats = parse_seats("human,easy", (0, 2))
>>> [s.describe() for s in seats.values()]
['you', 'bot easy']
>>> from sorry import Game
>>> g = Game.from_position("R:s1,H,H,H Y:S,S,S,S R", card=5)
>>> [(c.move, c.worlds) for c in estimate_chances(g, rollouts=4, seed=1, engine="random")]
[(Move.parse('Rs1+5'), 0)]

(a forced move: the only one, not estimated).
"""

from __future__ import annotations

import functools
import importlib
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..board import COLOUR_LETTERS, colour_name
from ..bots.estimate import interval
from ..errors import SorryError
from ..game import Game
from ..i18n import _
from ..moves import Move
from ..playout import Table
from ..rng import Rng, derive_seed
from ..view import PlayerView


class Chooser(Protocol):
    def choose(self, view: PlayerView, rng: Rng) -> Move: ...


class _Uniform:
    """A uniformly random legal move (used when :mod:`sorry.bots` is missing)."""

    name = "random"

    def choose(self, view: PlayerView, rng: Rng) -> Move:
        moves = view.legal_moves
        return moves[rng.below(len(moves))]


def _bots_module() -> Any:
    try:
        return importlib.import_module("sorry.bots")
    except ImportError:  # pragma: no cover - the bots are part of the package
        return None


@functools.cache
def bot_levels() -> tuple[str, ...]:
    """The bot levels that can be made now (those of :data:`sorry.bots.LEVELS`)."""
    mod = _bots_module()
    if mod is None:
        return ("random",)
    out = []
    for level in getattr(mod, "LEVELS", ("random",)):
        try:
            mod.make_bot(level)
        except (SorryError, ValueError, TypeError):
            continue
        out.append(str(level))
    return tuple(out) or ("random",)


#: The bots' level when none is chosen: the same as ``sorry play``'s (and so ``make play``'s).
DEFAULT_LEVEL = "easy"


def default_level() -> str:
    """:data:`DEFAULT_LEVEL`, or the best level there is when it cannot be made."""
    levels = bot_levels()
    return DEFAULT_LEVEL if DEFAULT_LEVEL in levels else levels[-1]


def make_bot(level: str) -> Chooser:
    mod = _bots_module()
    if mod is None:
        return _Uniform()
    bot: Chooser = mod.make_bot(level)
    return bot


@dataclass(frozen=True, slots=True)
class Seat:
    """A person (``level`` None) or a bot of ``level``."""

    colour: int
    level: str | None = None
    name: str = ""

    @property
    def human(self) -> bool:
        return self.level is None

    def describe(self) -> str:
        if self.human:
            return self.name or _("you")
        return _("bot {level}").format(level=level_name(self.level or ""))

    def spec(self) -> str:
        """``human`` or ``human:NAME`` or the bot level (as in game records)."""
        if self.human:
            return f"human:{self.name}" if self.name else "human"
        return f"bot:{self.level}"


def level_name(level: str) -> str:
    """A bot level as players read it, in the current language (the bots' own table)."""
    label = getattr(_bots_module(), "level_label", None)
    return label(level) if label is not None else level  # a Word: it knows its forms


def level_strength(level: str) -> str:
    """How strong a bot level is, in a sentence of the current language ('' if unknown)."""
    strength = getattr(_bots_module(), "level_strength", None)
    return str(strength(level)) if strength is not None else ""


def parse_seats(text: str | Sequence[str] | None, colours: Sequence[int]) -> dict[int, Seat]:
    """Seats from ``human,easy,...`` (one per colour in play, in seat order); None: the first
    colour is a person, the others bots of :func:`default_level`."""
    levels = bot_levels()
    if text is None:
        items = ["human"] + [default_level()] * (len(colours) - 1)
    elif isinstance(text, str):
        items = [t.strip() for t in text.split(",") if t.strip()]
    else:
        items = list(text)
    if len(items) != len(colours):
        raise SorryError(
            _("{seats} seats given for {players} players").format(
                seats=len(items), players=len(colours)
            )
        )
    seats: dict[int, Seat] = {}
    for c, item in zip(colours, items, strict=True):
        head, _sep, name = item.partition(":")
        if head.lower() in ("human", "person", "you"):
            seats[c] = Seat(c, None, name)
        else:
            level = name if head.lower() == "bot" and name else head
            if level not in levels:
                raise SorryError(
                    _("unknown bot level {level!r} (levels: {levels})").format(
                        level=level, levels=", ".join(levels)
                    )
                )
            seats[c] = Seat(c, level)
    return seats


def seats_from_record(specs: Mapping[int, tuple[str, str | None, str]]) -> dict[int, Seat]:
    """Seats from (kind, level, name) per colour as a game record holds them."""
    levels = bot_levels()
    out = {}
    for c, (kind, level, name) in specs.items():
        if kind == "bot":
            lv = level or name
            out[c] = Seat(c, lv if lv in levels else levels[0])
        else:
            out[c] = Seat(c, None, name)
    return out


def seats_text(seats: Mapping[int, Seat]) -> str:
    return ", ".join(
        f"{colour_name(c)} ({COLOUR_LETTERS[c]}): {s.describe()}" for c, s in seats.items()
    )


# -- hints -------------------------------------------------------------------------------------
def _rollout(game: Game, rng: Rng, max_turns: int = 2000) -> tuple[int, ...]:
    """The winners of ``game`` played on to its end (or ``max_turns`` more turns) by uniformly
    random players drawing from ``rng`` at every decision, on the lean loop of
    :mod:`sorry.playout` (the game itself is left as it is)."""
    table = Table.of(game)
    limit = game.rules.turn_limit or game.turn + max_turns
    return table.play(limit=limit, streams=(rng, rng, rng, rng))


@dataclass(frozen=True, slots=True)
class MoveChance:
    """A move's estimated chance of winning (``win``) with its 95% interval, the worlds (or
    playouts) it was played in, and whether it is ``tied`` with the best move (the estimate
    cannot say which is better; the best move itself is tied when any other is)."""

    move: Move
    win: float
    low: float
    high: float
    worlds: int
    tied: bool


def estimate_moves(
    game: Game,
    rollouts: int | None = 200,
    seconds: float | None = None,
    seed: int = 0,
    progress: Callable[[list[tuple[Move, float]]], None] | None = None,
    engine: str = "auto",
) -> list[tuple[Move, float]]:
    """Each legal move of the player to move with its estimated chance of winning (the
    player's side winning), best first (:func:`estimate_chances` without the intervals)."""
    chances = estimate_chances(game, rollouts, seconds, seed, progress, engine)
    return [(c.move, c.win) for c in chances]


def estimate_chances(
    game: Game,
    rollouts: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    progress: Callable[[list[tuple[Move, float]]], None] | None = None,
    engine: str = "auto",
) -> list[MoveChance]:
    """Each legal move of the player to move with its estimated chance of winning (the
    player's side winning), its 95% interval and whether it is tied with the best, best
    first, from at most ``rollouts`` playouts per move of games consistent with what that
    player can see, stopping after ``seconds``. With neither ``rollouts`` nor ``seconds``:
    the hint of every face (:func:`sorry.bots.hint_estimate`, a fixed number of rollouts: the
    browser's numbers for the same position and seed). A forced move (one legal move) comes
    alone, with no estimate (``worlds`` 0).

    ``engine``: ``bots`` uses the bots' estimator (:func:`sorry.bots.estimate`: compiled
    rollouts with the ``fast`` extra, sampled until the best move is told apart or the time is
    up; ties from the paired differences), ``python`` the same on the Python engine (while
    the compiled one loads), ``random`` uniformly random playouts (Wilson intervals, ties by
    the difference of two shares), ``auto`` the first if it exists."""
    if engine in ("auto", "bots", "python"):
        est = getattr(_bots_module(), "estimate", None)
        if est is not None:
            view = game.view(game.to_move)
            if not view.legal_moves:
                return []
            how = "python" if engine == "python" else "auto"
            faces = getattr(_bots_module(), "hint_estimate", None)
            if rollouts is None and seconds is None and faces is not None:
                result = faces(view, seed=seed, engine=how)
            else:
                result = est(
                    view, seconds=seconds, max_worlds=rollouts or 4000, seed=seed, engine=how
                )
            return [
                MoveChance(m.move, m.win, m.low, m.high, m.worlds, m.tied) for m in result.moves
            ]
        fn = getattr(_bots_module(), "hint", None)
        if fn is not None:
            pairs, played = _bots_hint(fn, game, rollouts or 200, seconds, seed)
            return _chances([(m, p, played) for m, p in pairs])
        if engine == "bots":
            raise SorryError("sorry.bots has no hint engine")
    moves = game.legal_moves
    if not moves:
        return []
    rollouts = rollouts or 200
    mover = game.to_move
    side = game.team_of(mover)
    view = game.view(mover)
    if len(moves) == 1:  # forced: no estimate, as on every engine
        return [MoveChance(moves[0], 0.0, 0.0, 1.0, 0, False)]  # [0, 1]: unknown
    wins = [0] * len(moves)
    runs = [0] * len(moves)
    deadline = None if seconds is None else time.monotonic() + seconds
    rng = Rng(derive_seed(seed, 77))
    k = 0
    last_report = time.monotonic()
    while k < rollouts:
        for i, move in enumerate(moves):
            g = Game.from_view(view, derive_seed(seed, k * 131 + i))
            g.push(move)
            winners = g.winners if g.is_over() else _rollout(g, rng)
            runs[i] += 1
            wins[i] += any(c in winners for c in side)
        k += 1
        now = time.monotonic()
        if progress is not None and now - last_report > 0.3:
            last_report = now
            progress(_ranked(moves, wins, runs))
        if deadline is not None and now > deadline:
            break
    return _chances(
        [(m, wins[i] / runs[i] if runs[i] else 0.0, runs[i]) for i, m in enumerate(moves)]
    )


_Z95 = 1.959964


def _chances(rows: list[tuple[Move, float, int]]) -> list[MoveChance]:
    """Moves with their shares of wins out of ``n`` playouts each, best first: Wilson
    intervals, and a move tied with the best when the 95% interval of the difference of the
    two shares holds zero (the playouts are not paired here)."""
    rows = sorted(rows, key=lambda r: -r[1])
    if not rows:
        return []
    _m0, p0, n0 = rows[0]
    out = []
    for k, (m, p, n) in enumerate(rows):
        tied = False
        if k:
            se = math.sqrt(p0 * (1 - p0) / max(n0, 1) + p * (1 - p) / max(n, 1))
            tied = not (p0 - p - _Z95 * se > 0) or n0 == 0 or n == 0
        lo, hi = interval(p, n)
        out.append(MoveChance(m, p, lo, hi, n, tied))
    if any(c.tied for c in out):
        first = out[0]
        out[0] = MoveChance(first.move, first.win, first.low, first.high, first.worlds, True)
    return out


def _bots_hint(
    fn: Callable[..., list[tuple[Move, float]]],
    game: Game,
    rollouts: int,
    seconds: float | None,
    seed: int,
) -> tuple[list[tuple[Move, float]], int]:
    view = game.view(game.to_move)
    moves = list(view.legal_moves)
    if not moves:
        return [], 0
    deadline = None if seconds is None else time.monotonic() + seconds
    totals = {m: 0.0 for m in moves}
    runs = 0
    k = 0
    while runs < rollouts:
        batch = min(8, rollouts - runs)
        for m, p in fn(view, rollouts=batch, seed=derive_seed(seed, k)):
            totals[m] = totals.get(m, 0.0) + p * batch
        runs += batch
        k += 1
        if deadline is not None and time.monotonic() > deadline:
            break
    ranked = [(m, totals[m] / runs) for m in moves]
    return sorted(ranked, key=lambda mp: -mp[1]), runs


def _ranked(moves: list[Move], wins: list[int], runs: list[int]) -> list[tuple[Move, float]]:
    est = [(m, wins[i] / runs[i] if runs[i] else 0.0) for i, m in enumerate(moves)]
    return sorted(est, key=lambda mp: -mp[1])
