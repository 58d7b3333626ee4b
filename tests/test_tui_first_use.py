"""The full-screen game as a new user first meets it: every wait for numba's compile said where
the player waits (the bot thinking, the analysis), the lighter install's lack said once, the
side panel and the game-over frame laid out within 80x24, and a save that asks before
replacing another game's file."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from sorry import Rules
from sorry.analysis.calibration import ProgressEstimator
from sorry.features import Feature
from sorry.tui import analysis_view, warmup
from sorry.tui.analysis_view import AnalysisPanel, ReplayScreen
from sorry.tui.app import ConfirmScreen, GameOverScreen, GameScreen, OptionsView, SorryApp
from sorry.tui.players import MoveChance
from sorry.tui.session import Session
from tui_helpers import keys, position_app, run, settle


async def until(pilot: Pilot[Any], ready: Any, seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if ready():
            return
        await asyncio.sleep(0.05)
        await pilot.pause()
    raise AssertionError("timed out")


def test_a_bot_waiting_for_numba_says_what_compiles_and_for_how_long() -> None:
    app, _s = position_app("R:S,8,20,50 Y:S,S,S,30 R", card=7)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.thinking = 2  # Yellow
        assert screen.thinking_note() == "Yellow is thinking…"
        app.warmup.compiling = "rollouts"
        app.warmup.since = time.monotonic() - 40
        assert screen.thinking_note() == (
            "Yellow is thinking… (it waits: numba is compiling the computer players' search "
            "(the first run only: one to five minutes; 40 s so far))"
        )

    run(app, body)


def test_without_the_compiled_engine_the_game_says_so_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        warmup, "compiled_rollouts", lambda: Feature("compiled_rollouts", "", False, "no numba")
    )
    said: list[str] = []
    monkeypatch.setattr(SorryApp, "notify", lambda self, text, **kw: said.append(str(text)))
    app, _s = position_app("R:S,8,20,50 Y:S,S,S,30 R", card=7)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert said == [
            "the compiled engine is not installed: the expert plays weaker, the hints and the "
            "after-game analysis are rough; pip install 'sorry-engine\\[fast]' for the full game"
        ]

    run(app, body)


def test_the_analysis_waits_visibly_while_numba_compiles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The game-over panel never says "Analysing the game…" for the minutes of a compile."""

    class Compiled(ProgressEstimator):
        engine = "compiled"

    hold = threading.Event()
    monkeypatch.setattr(warmup.Warmup, "run", lambda self, started: hold.wait(60))
    monkeypatch.setattr(analysis_view, "make_estimator", Compiled)
    session = Session(Rules(), players=2, seats="easy,easy", seed=4)
    app = SorryApp(session, speed=0)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            app.warmup.compiling = "analysis"
            app.warmup.since = time.monotonic()
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            panel = app.screen.query_one(AnalysisPanel)
            await until(pilot, lambda: "numba is compiling" in str(panel.render()))
            assert str(panel.render()).startswith(
                "Analysing the game: first numba is compiling the after-game analysis (the "
                "first run only: one to five minutes;"
            )
            assert panel.analysis is None
            app.warmup.compiling = None
            hold.set()
            await until(pilot, lambda: panel.analysis is not None)

    asyncio.run(main())


def test_quitting_while_numba_compiles_ends_the_game_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first run compiles in the background for minutes; a player who quits meanwhile gets
    the shell back at once (the compile is dropped: the next run does it), not when it ends:
    the app's event loop does not wait for the loading thread."""
    loading, compiling = threading.Event(), threading.Event()

    def run(self: warmup.Warmup, started: Any) -> None:
        compiling.set()
        loading.wait(60)

    monkeypatch.setattr(warmup.Warmup, "run", run)
    app = SorryApp(Session(Rules(), players=2, seats="easy,easy", seed=4), speed=0)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, compiling.is_set)
            await pilot.press("q")  # the game asks first
            await pilot.press("y")

    done = threading.Timer(30, loading.set)  # the compile "ends" 30 s on
    done.start()
    try:
        asyncio.run(main())  # as app.run(): it returns when the loop and its threads are done
        assert not loading.is_set(), "quitting waited for the compile"
        assert not app.warmup.analysis.is_set()  # it was still loading
    finally:
        loading.set()
        done.cancel()


def test_the_result_and_the_analysis_fit_one_frame_at_80x24(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(analysis_view, "make_estimator", ProgressEstimator)
    session = Session(Rules(), players=2, seats="easy,easy", seed=4)
    app = SorryApp(session, speed=0)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            panel = app.screen.query_one(AnalysisPanel)
            await until(pilot, lambda: panel.analysis is not None)
            await pilot.pause()
            frame = app.screen.query_one("#over")
            inside = frame.content_region
            assert frame.region.y >= 0 and frame.region.bottom <= 24
            assert frame.region.right <= 80
            assert inside.contains_region(panel.region)  # in the frame, not below it
            shown = str(panel.render())
            assert "Across: the turns, 1 to " in shown
            # the replay is opaque: nothing of the result or the chart shows around it
            await pilot.press("1")
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
            assert app.screen.styles.background.a == 1

    asyncio.run(main())


def test_an_open_hint_leaves_room_for_every_choice_at_80x24(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(warmup.Warmup, "run", lambda self, started: None)
    app, _session = position_app("R:10,20,30,44 Y:S,S,12,S R", card=7)
    app.hint_engine = "python"

    def estimate(game: Any, **kw: Any) -> list[MoveChance]:
        return [
            MoveChance(m, 0.5 - k / 100, 0.3, 0.7, 64, k > 0)
            for k, m in enumerate(game.legal_moves)
        ]

    monkeypatch.setattr("sorry.tui.app.estimate_chances", estimate)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        options = screen.query_one(OptionsView)
        count = len(screen._options())
        assert count >= 4
        await keys(app, pilot, "h")
        await settle(app, pilot)
        assert screen.hints
        hint = screen.query_one("#hint")
        assert hint.display and hint.region.height >= 1
        assert sorted(set(options.rows)) == list(range(count))  # every choice on the panel
        assert options.region.bottom <= 23

    run(app, body, size=(80, 24))


def test_saving_over_another_games_file_asks_first(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text("another game's save\n")
    app, _s = position_app("R:S,8,20,50 Y:S,S,S,30 R", card=7)
    app.save_path = str(other)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "s", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        await keys(app, pilot, "n")
        assert other.read_text() == "another game's save\n"
        await keys(app, pilot, "s", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        await keys(app, pilot, "y")
        assert other.read_text().startswith("{")
        # this game's own file now: saved again without a question
        await keys(app, pilot, "s", "enter")
        assert isinstance(app.screen, GameScreen)

    run(app, body)
