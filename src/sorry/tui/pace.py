"""How fast the table plays: the paces of the speeds 0 (instant) to 5 that the terminal game
(``+``/``-``, the new-game screen, ``--speed``) and the line-by-line game share (no Textual
needed)."""

from __future__ import annotations

from typing import NamedTuple


class Pace(NamedTuple):
    """How fast the table plays at one speed: seconds a square of a pawn's walk, a bot's pause
    before its move, the time the line under the board shows a bot's move before play goes
    on, and the time a turn with no legal move is said before it passes by itself."""

    step: float
    think: float
    read: float
    passing: float


#: The paces of the speeds 0 (instant) to 5; the default, 3, shows a bot's move about a second
#: and a half (its walk, then its line alone for a second).
SPEEDS: tuple[Pace, ...] = (
    Pace(0.0, 0.0, 0.0, 0.0),
    Pace(0.28, 1.4, 3.0, 4.0),
    Pace(0.16, 0.9, 2.0, 3.0),
    Pace(0.09, 0.55, 1.0, 2.2),
    Pace(0.05, 0.3, 0.6, 1.6),
    Pace(0.02, 0.12, 0.3, 1.2),
)
#: The speed when none is chosen.
DEFAULT_SPEED = 3
#: The speeds from the slowest to the fastest (``+`` and ``-`` step along it): 0 is instant.
SPEED_ORDER: tuple[int, ...] = (1, 2, 3, 4, 5, 0)


def pace(speed: int) -> Pace:
    """The pace of ``speed`` (clamped to 0-5)."""
    return SPEEDS[max(0, min(len(SPEEDS) - 1, speed))]


__all__ = ["DEFAULT_SPEED", "SPEEDS", "SPEED_ORDER", "Pace", "pace"]
