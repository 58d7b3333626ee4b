"""Many games at once: :func:`simulate` (self-play statistics), :func:`tournament` (bots
rotated through the seats on paired deals, win rates with 95% intervals, Elo-style ratings),
parallel backends (processes, Ray) that all play the same games for the same master seed.

>>> res = simulate(20, players=2, seed=1)
>>> res["games"], sum(s["wins"] for s in res["seats"])
(20, 20)
"""

from __future__ import annotations

from .report import (
    plot,
    simulate,
    simulate_text,
    tournament,
    tournament_text,
    write_csv,
    write_json,
)
from .runner import BACKENDS, GameRecord, RunSpec, parse_bot_spec, run_games
from .stats import elo_from_rate, plackett_luce, wilson

__all__ = [
    "BACKENDS",
    "GameRecord",
    "RunSpec",
    "elo_from_rate",
    "parse_bot_spec",
    "plackett_luce",
    "plot",
    "run_games",
    "simulate",
    "simulate_text",
    "tournament",
    "tournament_text",
    "wilson",
    "write_csv",
    "write_json",
]
