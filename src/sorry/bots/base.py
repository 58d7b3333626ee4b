"""The bot protocol and what every level shares: the board seen from a view, teams, tables.

A bot is any object with a ``name`` and a ``choose(view, rng)`` method that returns one of
``view.legal_moves``. Bots see only :class:`~sorry.view.PlayerView` values, never the game:
they cannot see the draw pile's order or the other players' hands.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..board import HOME, TRACK_LEN
from ..moves import Move
from ..rng import Rng
from ..rulebook import (
    PROGRESS as PROGRESS,  # re-exported: the bots' progress table
    next_colour as next_colour,
)
from ..rules import Rules
from ..state import PawnState
from ..tuning import deck_probabilities as deck_probabilities
from ..view import PlayerView


@runtime_checkable
class Bot(Protocol):
    """A computer player: deterministic given the view and the generator it is handed."""

    name: str

    def choose(self, view: PlayerView, rng: Rng) -> Move:
        """One of ``view.legal_moves`` (the view's owner is to move and has a decision)."""
        ...


def team_of(rules: Rules, colour: int) -> tuple[int, ...]:
    """The colours whose win is ``colour``'s win: itself, and its partner in teams."""
    return rules.book.movers[colour]


def state_of(view: PlayerView) -> PawnState:
    """A fresh :class:`PawnState` with the view's pawns (cheap: apply/undo on it freely)."""
    return PawnState.of(view.pawns, view.rules)


def team_progress(state: PawnState, colours: tuple[int, ...]) -> int:
    total = 0
    for c in colours:
        prog = PROGRESS[c]
        for loc in state.pawns[c]:
            total += prog[loc]
    return total


def on_track(loc: int) -> bool:
    return loc < TRACK_LEN


def is_safe(loc: int) -> bool:
    """HOME or the Safety Zone: no opponent can touch the pawn there."""
    return TRACK_LEN <= loc <= HOME
