"""``sorry analyse RECORD``: after the game, each player's luck against their decisions.

Checks the record as ``sorry verify`` does (the same code: :func:`sorry.record.verify`), then
estimates every side's win probability before and after each draw and move, and prints the
per-player account (start + luck + decisions = result), the moves that mattered, and the
mistakes and blunders. ``--json`` prints the whole analysis as JSON; ``--plot FILE.svg`` or
``FILE.png`` draws the graph (PNG needs matplotlib, the ``sim`` extra). See docs/analysis.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..bots import COMPILED_LEVELS, LEVELS
from ..i18n import _
from ..record import GameRecord

if TYPE_CHECKING:  # the analysis is imported when the command runs (a faster `sorry ...`)
    from ..analysis.estimator import Estimator
from ..features import compiled_engine, python_engine_note
from . import CliError, note

#: The bots a move can be judged against (``--against``): every level but random.
REFERENCE_LEVELS = tuple(level for level in LEVELS if level != "random")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help=_(
            "after the game: win probabilities, luck against decisions, the moves that mattered"
        ),
        description=_(
            "Analyse a finished game record: each side's win probability at every step, the "
            "luck of every draw, every decision against the best move, and per-player totals "
            "that add up (start + luck + decisions = result)."
        ),
    )
    p.add_argument(
        "file", metavar="RECORD", help=_("a game record (sorry record / play --save); - for stdin")
    )
    p.add_argument("--json", action="store_true", help=_("print the analysis as JSON"))
    p.add_argument(
        "--plot", metavar="FILE", help=_("draw the win-probability graph to FILE.png or FILE.svg")
    )
    p.add_argument(
        "--rollouts",
        type=int,
        metavar="N",
        help=_("rollouts per card that could come (default: 64 compiled, 4 pure Python)"),
    )
    p.add_argument(
        "--worlds",
        type=int,
        metavar="N",
        help=_("points variant: determinised worlds per decision (default 11)"),
    )
    p.add_argument(
        "--engine",
        choices=("auto", "compiled", "python"),
        default="auto",
        help=_("rollout engine (default: compiled when the fast extra is installed)"),
    )
    p.add_argument("--seed", type=int, default=0, help=_("seed of the rollouts (default 0)"))
    p.add_argument(
        "--against",
        choices=REFERENCE_LEVELS,
        metavar="LEVEL",
        help=_(
            "judge each move against the move this bot level would have made: {levels} "
            "(default: the rollouts' own bot, medium compiled, easy pure Python)"
        ).format(levels=", ".join(REFERENCE_LEVELS)),
    )
    p.add_argument(
        "--top",
        type=int,
        default=5,
        metavar="N",
        help=_("turning points to list (default 5, at most 10)"),
    )
    p.add_argument("--no-progress", action="store_true", help=_("no progress line"))
    p.set_defaults(func=run)


def _estimator(name: str, against: str | None = None) -> Estimator:
    from ..analysis.estimator import PlayoutEstimator, default_estimator

    if not compiled_engine():
        if name == "compiled":
            raise CliError(
                _("the compiled engine needs the fast extra: pip install 'sorry-engine[fast]'")
            )
        if against in COMPILED_LEVELS:
            raise CliError(
                _(
                    "--against {level} needs the fast extra: pip install 'sorry-engine[fast]'"
                ).format(level=against)
            )
    if name == "python":
        return PlayoutEstimator(reference=against)
    return default_estimator(reference=against)


def _check_plot(path: str) -> None:
    low = path.lower()
    if not (low.endswith(".svg") or low.endswith(".png")):
        raise CliError(_("the plot is written as .png or .svg, not {path}").format(path=path))
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CliError(_("no such folder for the plot: {folder}").format(folder=folder))
    if low.endswith(".png"):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise CliError(
                _("a PNG plot needs matplotlib: pip install 'sorry-engine[sim]' (or write an .svg)")
            ) from None


class _Progress:
    """``analysing: turn 57/180, about 12 s left`` on stderr, redrawn in place."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last < 0.25 and done < total:
            return
        self.last = now
        elapsed = now - self.start
        left = elapsed / done * (total - done) if done else 0.0
        line = _("analysing: turn {done}/{total}, about {left} s left").format(
            done=done, total=total, left=round(left)
        )
        sys.stderr.write("\r" + line + "\033[K")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.shown = False


@contextlib.contextmanager
def _compile_said(compiled: bool, progress: _Progress) -> Iterator[None]:
    """Within, a numba compile of the analysis' rollouts (the first run: minutes) is said on
    stderr before the wait, and how long it took after."""
    if not compiled:
        yield
        return
    from ..fast.cache import on_compile

    started: list[float] = []

    def begin() -> None:
        started.append(time.perf_counter())
        progress.close()
        note(
            _(
                "numba is compiling the analysis' rollouts (the first run only: one to five "
                "minutes)…"
            )
        )

    with on_compile(begin):
        yield
    if started:
        note(_("compiled in {seconds} s").format(seconds=f"{time.perf_counter() - started[0]:.0f}"))


def run(args: argparse.Namespace) -> int:
    from ..analysis import analyse, graph, report
    from ..analysis.account import checked
    from ..analysis.calibration import game_model

    if args.rollouts is not None and args.rollouts < 1:
        raise CliError(_("--rollouts must be at least 1"))
    if args.worlds is not None and args.worlds < 1:
        raise CliError(_("--worlds must be at least 1"))
    if args.plot:
        _check_plot(args.plot)
    est = _estimator(args.engine, args.against)
    record = (
        GameRecord.from_json(sys.stdin.read()) if args.file == "-" else GameRecord.load(args.file)
    )
    checked(record)  # a record that cannot be analysed: say so before any compiling
    progress = _Progress(not args.no_progress and sys.stderr.isatty())
    if not compiled_engine() and args.engine == "auto" and args.rollouts is None:
        note(python_engine_note("analysis"))
    try:
        with _compile_said(est.engine == "compiled", progress):
            analysis = analyse(
                record,
                estimator=game_model(record, est),
                rollouts=args.rollouts,
                worlds=args.worlds,
                seed=args.seed,
                progress=progress,
            )
    finally:
        progress.close()
    data = report.to_dict(analysis)
    if args.plot:
        graph.write_plot(data, args.plot)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(report.text(data, turning_points=max(0, args.top)))
        if args.plot:
            print(_("graph written to {path}").format(path=args.plot))
    return 0
