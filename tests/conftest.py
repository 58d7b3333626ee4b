"""Shared test configuration. The rules-engine helpers live in ``engine_helpers.py`` (import
them from there: several conftest.py files share the module name ``conftest``)."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest

from engine_helpers import card_of, game_at, moves_of, notations, result, rules_of


@pytest.fixture(autouse=True)
def _no_analysis_warmup(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The terminal game loads the after-game analysis' compiled code in the background while
    it is played (sorry.tui.warmup, a daemon thread); a test's game is over in a second: not
    there (tests/test_tui_first_use.py tests the waits for it)."""
    if importlib.util.find_spec("textual") is not None:
        monkeypatch.setattr("sorry.tui.warmup.warm_analysis", lambda: None)
    yield


@pytest.fixture(autouse=True)
def _no_analysis_ahead(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The terminal game values a game's decisions while it is played, in a process of its
    own (sorry.tui.ahead); a test's game would start one each: not there
    (tests/test_tui_ahead.py tests it)."""
    if importlib.util.find_spec("textual") is not None:
        monkeypatch.setattr("sorry.tui.app.SorryApp.ANALYSE_AHEAD", False)
    yield


@pytest.fixture(autouse=True)
def _no_enter_grace(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The terminal game's game-over screen ignores Enter for a second after it shows (a stray
    Enter from the last move does not start the next game); tests press it at once: no grace
    for them (tests/test_tui.py tests it)."""
    if importlib.util.find_spec("textual") is not None:
        monkeypatch.setattr("sorry.tui.app.GameOverScreen.ENTER_GRACE", 0.0)
    yield


__all__ = ["card_of", "game_at", "moves_of", "notations", "result", "rules_of"]
