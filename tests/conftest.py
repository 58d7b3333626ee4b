"""Shared test configuration. The rules-engine helpers live in ``engine_helpers.py`` (import
them from there: several conftest.py files share the module name ``conftest``)."""

from __future__ import annotations

from engine_helpers import card_of, game_at, moves_of, notations, result, rules_of

__all__ = ["card_of", "game_at", "moves_of", "notations", "result", "rules_of"]
