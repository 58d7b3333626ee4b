"""A game's analysis in pieces: its start and decisions valued a few at a time, ahead of its end
or in parallel, then assembled into what :func:`sorry.analysis.analyse` gives in one go, byte
for byte (the browser's server and the terminal game analyse games while they are played).

A decision's numbers depend only on the game up to that decision and the analysis's seed
(:func:`~sorry.analysis.account.value_decisions`), so any split gives the same values. What
the values were made with is kept with them (:data:`Start`: the engine, the rollouts' policy and
the reference bot, the rollouts and worlds, and the players' strengths as the model of the
game's players has them): :func:`finish` values them again when that is not what the finished
game's model is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from ..record import GameRecord
from . import account
from .calibration import seat_strengths
from .estimator import Estimator, reference_level

#: The analysis's seed: the same numbers for the same game on every machine.
SEED: Final = 0

#: Each colour's strength, as the model of the game's players has it (``seat_strengths``).
Strengths = tuple[float, float, float, float]
#: The engine, the policy and reference bot, the rollouts, the worlds, V at the start, and the
#: strengths the values were made with.
Start = tuple[str, str, int, int, account.StartValue, Strengths]


def sizes(est: Estimator, rollouts: int | None) -> tuple[int, int]:
    """The rollouts (``rollouts``, or the engine's default) and worlds an analysis uses."""
    return account.analysis_sizes(est, rollouts, None)


def models(est: Estimator) -> str:
    """The rollouts' policy and the reference bot, as the values were made with them."""
    return f"{est.policy}/{reference_level(est)}"


def start_of(record: GameRecord, est: Estimator, rollouts: int | None) -> Start:
    """V at the start of ``record``'s game, with what it was made with."""
    n, w = sizes(est, rollouts)
    value = account.start_value(record, est, n, SEED)
    return est.engine, models(est), n, w, value, seat_strengths(record)


def same_model(start: Start, record: GameRecord, est: Estimator) -> bool:
    """Whether values made as ``start`` says are those ``est`` gives for ``record``."""
    engine, policy, _n, _w, _value, strengths = start
    return est.engine == engine and models(est) == policy and strengths == seat_strengths(record)


def value(
    record: GameRecord, est: Estimator, rollouts: int | None, first: int, last: int
) -> list[account.NodeValues]:
    """Decisions ``first`` to ``last - 1`` of ``record`` (finished or not) valued."""
    n, w = sizes(est, rollouts)
    return account.value_decisions(record, est, n, w, SEED, first, last)


def values(
    record: GameRecord, est: Estimator, rollouts: int | None, first: int, last: int
) -> Iterator[account.NodeValues]:
    """:func:`value`'s values one at a time, each computed when it is asked for."""
    n, w = sizes(est, rollouts)
    return account.decision_values(record, est, n, w, SEED, first, last)


def finish(
    record: GameRecord,
    est: Estimator,
    rollouts: int | None,
    start: Start | None,
    valued: Sequence[account.NodeValues],
    progress: account.ProgressFn | None = None,
) -> account.Analysis | None:
    """The analysis of a finished (checked) game whose start and first decisions
    (``valued``) were valued already: the other decisions valued (``progress(done, total)``
    after each) and the account assembled. None if ``est`` is not what they were valued with
    (the engine, the model, the players' strengths): value them again then."""
    if start is None:
        start = start_of(record, est, rollouts)
    if not same_model(start, record, est):
        return None
    _engine, _policy, n, w, v0, _strengths = start
    total = account.decision_count(record)

    def step(index: int) -> None:
        if progress is not None:
            progress(index + 1, total)

    rest = account.value_decisions(record, est, n, w, SEED, len(valued), total, progress=step)
    return account.assembled(record, est, n, w, v0, [*valued, *rest])


__all__ = [
    "SEED",
    "Start",
    "Strengths",
    "finish",
    "models",
    "same_model",
    "sizes",
    "start_of",
    "value",
    "values",
]
