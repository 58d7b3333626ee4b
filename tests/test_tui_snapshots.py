"""Snapshots of the terminal game's main screens (pytest-textual-snapshot). After a deliberate
change of the look, look at the new pictures and accept them with ``--snapshot-update``."""

from __future__ import annotations

from typing import Any

from sorry import Rules
from sorry.tui.app import SorryApp
from sorry.tui.session import Session
from tui_helpers import Compare, position_app as tui_position_app, presses


def position_app(position: str, card: int | None = None, **kw: Any) -> SorryApp:
    return tui_position_app(position, card, **kw)[0]


SEVEN = "R:S,8,20,50 B:S,S,25,S Y:S,S,S,30 G:44,S,S,S R"


def test_new_game_screen(snap_compare: Compare) -> None:
    assert snap_compare(SorryApp(speed=0), run_before=presses([]))


def test_game_in_progress(snap_compare: Compare) -> None:
    session = Session(Rules(), players=4, seats="human,random,random,random", seed=8)
    assert snap_compare(SorryApp(session, speed=0), run_before=presses(["enter"] * 12))


def test_seven_split_half_chosen(snap_compare: Compare) -> None:
    assert snap_compare(position_app(SEVEN, card=7), run_before=presses(["1", "4"]))


def test_large_terminal(snap_compare: Compare) -> None:
    assert snap_compare(
        position_app(SEVEN, card=7), run_before=presses(["3"]), terminal_size=(120, 40)
    )


def test_points_hand(snap_compare: Compare) -> None:
    session = Session(Rules(variant="points"), players=3, seats="human,random,random", seed=8)
    assert snap_compare(SorryApp(session, speed=0), run_before=presses(["enter"] * 6))


def test_hints(snap_compare: Compare) -> None:
    app = position_app("R:S,S,10,40 Y:S,S,S,30 R", card=11)
    app.hint_rollouts = 4
    app.hint_seconds = 600.0
    app.hint_engine = "random"  # the TUI's own estimator: independent of the bots' tuning
    assert snap_compare(app, run_before=presses(["enter", "h"]))


def test_game_over(snap_compare: Compare) -> None:
    app = position_app("R:s3,H,H,H Y:S,10,S,S R", card=3)
    assert snap_compare(app, run_before=presses(["enter"]))


def test_help_screen(snap_compare: Compare) -> None:
    app = position_app(SEVEN, card=7)
    assert snap_compare(app, run_before=presses(["question_mark"]))


def test_pass_the_keyboard(snap_compare: Compare) -> None:
    session = Session(Rules(variant="points"), players=2, seats="human,human", seed=3)
    assert snap_compare(SorryApp(session, speed=0), run_before=presses([]))
