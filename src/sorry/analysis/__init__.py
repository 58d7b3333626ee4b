"""After-game analysis: each side's win probability at every step, the luck of every draw
against the cards that could have come, each decision against the best move, and per player
totals that add up exactly (``docs/analysis.md``).

Not to be confused with :mod:`sorry.sim.report`, the reports of ``sorry simulate`` and
``sorry tournament``.
"""

from __future__ import annotations

from .account import (
    DEFAULT_ROLLOUTS,
    DEFAULT_WORLDS,
    THRESHOLDS,
    Analysis,
    AnalysisError,
    Decision,
    Draw,
    PlayerSummary,
    Point,
    Swing,
    analyse,
    label_of,
)
from .estimator import Estimator, PlayoutEstimator, default_estimator
from .overall import LuckOverGames, luck_over_games

__all__ = [
    "DEFAULT_ROLLOUTS",
    "DEFAULT_WORLDS",
    "THRESHOLDS",
    "Analysis",
    "AnalysisError",
    "Decision",
    "Draw",
    "Estimator",
    "LuckOverGames",
    "PlayerSummary",
    "PlayoutEstimator",
    "Point",
    "Swing",
    "analyse",
    "default_estimator",
    "label_of",
    "luck_over_games",
]
