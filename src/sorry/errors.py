"""Exceptions raised by the engine. All derive from :class:`SorryError` (a ``ValueError``)."""

from __future__ import annotations


class SorryError(ValueError):
    """Base class of every error the engine raises for bad input or an illegal action."""


class PositionError(SorryError):
    """A position string (or a position built by hand) is malformed or impossible."""


class NotationError(SorryError):
    """A move, card or option could not be parsed."""


class RulesError(SorryError):
    """A rule option is unknown, has a bad value, or makes no sense with the variant."""


class IllegalMoveError(SorryError):
    """A move was pushed that is not legal in the current state."""


class GameStateError(SorryError):
    """An action does not fit the game's phase (e.g. a move while a card must be drawn)."""
