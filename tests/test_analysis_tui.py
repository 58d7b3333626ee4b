"""The terminal game's after-game analysis: the graph, the players' totals with their
intervals and the moves that mattered (decisions; the luckiest and unluckiest draws) on the
game-over screen, and the replay the keys 1-5 open at each."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.pilot import Pilot

from analysis_helpers import record
from sorry import Game, Rules
from sorry.analysis import analyse, report
from sorry.analysis.calibration import ProgressEstimator
from sorry.tui import analysis_view
from sorry.tui.analysis_view import AnalysisPanel, ReplayScreen, chart, key_items
from sorry.tui.app import GameOverScreen, SorryApp
from sorry.tui.session import Session

LEVELS = ("easy", "random")  # the random bot's moves are not the easy bot's: decisions matter


def test_chart_shape_and_marks() -> None:
    rec = record("standard", 2, levels=LEVELS)
    data = report.to_dict(analyse(rec, estimator=ProgressEstimator()))
    decisions, draws = key_items(data)
    assert len(decisions) == 3 and len(draws) == 2
    text = chart(data, width=60, height=5).plain.splitlines()
    assert len(text) == 6
    assert all(len(line) == 60 for line in text)
    assert text[0].startswith("100% ") and text[4].startswith("  0% ")
    # the x axis: "turn", the first and last turns at its ends (where nothing is marked),
    # and the moves that mattered 1-5 in reverse video under the turns where they happened
    axis = chart(data, width=60, height=5).split("\n")[5]
    assert axis.plain.startswith("turn ")
    marks = sorted(
        axis.plain[span.start : span.end] for span in axis.spans if "reverse" in str(span.style)
    )
    assert set(marks) <= {"1", "2", "3", "4", "5"} and len(marks) >= 3  # two may share a cell
    assert any("\u2800" < ch <= "\u28ff" for line in text[:5] for ch in line)


async def _until(pilot: Pilot[Any], ready: Any, seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if ready():
            return
        await asyncio.sleep(0.05)
        await pilot.pause()
    raise AssertionError("timed out")


def test_game_over_shows_the_graph_and_what_mattered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis_view, "make_estimator", ProgressEstimator)
    session = Session(Rules(), players=2, seats="easy,random", seed=4)
    app = SorryApp(session, speed=0)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            panel = app.screen.query_one(AnalysisPanel)
            await _until(pilot, lambda: panel.analysis is not None)
            await pilot.pause()
            shown = str(panel.render())
            assert "Decisions that mattered" in shown and "unluckiest draw" in shown
            assert "own moves" in panel.render_text().plain
            # each on its line, from its turn on (a long one shortened: see below)
            items = data_items(panel)
            assert len(items) == 5
            assert sum(1 for s in items if s["short"][:20] in shown) == 5
            a = panel.analysis
            assert a is not None
            for p in a.players:
                assert p.start + p.luck + p.decisions == p.result
            await pilot.press("5")  # the unluckiest draw
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("2")
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            replay = app.screen
            swing_step = items[1]["step"]
            assert replay.step >= swing_step
            first = replay.step
            await pilot.press("right")
            await pilot.pause()
            assert replay.step > first or first == replay.moves[-1]
            await pilot.press("left")
            await pilot.press("left")
            await pilot.pause()
            assert replay.step < first
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, GameOverScreen)

    asyncio.run(main())


def data_items(panel: AnalysisPanel) -> list[dict[str, Any]]:
    assert panel.data is not None
    decisions, draws = key_items(panel.data)
    return decisions + draws


def test_a_game_set_up_from_a_position_has_no_analysis() -> None:
    game = Game.from_position("R:s3,H,H,H Y:S,10,S,S R", card=3)
    game.push(game.legal_moves[0])
    panel = AnalysisPanel.of_game(game)
    assert panel.record is None


def test_the_moves_that_mattered_fit_their_lines_at_80_columns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each of the moves that mattered takes one line of the game-over screen at 80x24 (a long
    move is shortened in the middle: the turn and the change stay), so the panel does not
    wrap."""
    monkeypatch.setattr(analysis_view, "make_estimator", ProgressEstimator)
    session = Session(Rules(), players=2, seats="easy,random", seed=4)
    app = SorryApp(session, speed=0)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            panel = app.screen.query_one(AnalysisPanel)
            await _until(pilot, lambda: panel.analysis is not None)
            swings = data_items(panel)
            swings[0]["short"] = (
                "turn 12: Red draws a Sorry! (Red leaves START and takes Yellow's place on 33, "
                "which slides to 37): +41.5 for Red"
            )
            panel.update(panel.render_text())
            await pilot.pause()
            width = panel.content_size.width
            assert 40 <= width < 80
            lines = panel.render_text().split("\n")
            start = next(i for i, t in enumerate(lines) if "Decisions that mattered" in t.plain)
            shown = lines[start + 1 : start + 4]
            assert len(shown) == 3
            for line in shown:
                assert line.cell_len <= width, line.plain
            first = shown[0].plain
            assert "turn 12: Red draws a Sorry!" in first and first.endswith("…: +41.5 for Red")
            for n, (line, swing) in enumerate(zip(shown, swings, strict=False), 1):
                turn = swing["short"].split(":")[0]  # "turn 48"
                assert line.plain.startswith(f" {n}  {turn}: ")

    asyncio.run(main())


def test_the_replay_of_an_error_says_what_it_lost_and_the_best_move() -> None:
    """At 80x24, with the turn's draw on the turn's line: the error's line (its label, the
    points lost, the best move in short) and the whole replay on the screen; a move that is no
    error has no such line."""
    rec = record("standard", 4, levels=LEVELS)
    data = report.to_dict(analyse(rec, estimator=ProgressEstimator()), describe_moves=True)
    errors = [d for d in data["decisions"] if d["label"] and d["best"] != d["move"]]
    fine = next(d for d in data["decisions"] if not d["label"] and d["best"] == d["move"])
    assert errors
    error = max(errors, key=lambda d: len(d["best_text"]))
    app = SorryApp(Session(Rules(), players=2, seats="easy,easy", seed=4), speed=0)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(ReplayScreen(rec, data, error["step"]))
            await pilot.pause()
            box = app.screen.query_one("#replay")
            shown = box.render().plain  # type: ignore[union-attr]
            lost = f"{report.label_text(error['label'])}, {error['equity_lost'] * 100:.1f} points"
            line = next(x for x in shown.splitlines() if x.startswith(lost))
            assert line.startswith(lost + " lost; best: ")
            assert line.split("best: ")[1] != error["best_text"]  # the short form
            assert shown.splitlines()[-1].startswith("←/→ turn by turn")
            assert box.region.height <= 24 and box.region.right <= 80 and box.region.x >= 0
            assert len(shown.splitlines()) + 2 <= 24  # every line inside the border
            app.pop_screen()
            app.push_screen(ReplayScreen(rec, data, fine["step"]))
            await pilot.pause()
            assert "points lost" not in app.screen.query_one("#replay").render().plain  # type: ignore[union-attr]

    asyncio.run(main())
