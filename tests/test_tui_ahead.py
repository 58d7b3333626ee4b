"""The terminal game's analysis ahead of the game's end (sorry.tui.ahead): a process values the
decisions as they are played; at the end the analysis is the one-go analysis exactly, moves
taken back drop the values they undo, and no process outlives the game."""

from __future__ import annotations

import importlib.util
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sorry import Game, Rules
from sorry.analysis import analyse, pieces, report
from sorry.analysis.account import checked, decision_count
from sorry.analysis.calibration import game_model
from sorry.analysis.estimator import default_estimator
from sorry.bots import make_bot, play_game
from sorry.record import GameRecord

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="the compiled engine"),
]

SEATS = ["human", "easy"]
ROLLOUTS = 4  # few: the test is of the bookkeeping, not of the numbers


def finished(seed: int) -> Game:
    g = play_game(Rules(), [make_bot("easy"), make_bot("easy")], seed=seed, players=2)
    assert g.winners
    return g


def prefix(game: Game, steps: int) -> Game:
    """``game`` as it was after its first ``steps`` steps."""
    g = game.copy()
    while len(g.history) > steps:
        g.pop()
    return g


def decisions(game: Game) -> int:
    return sum(1 for step in game.history if not isinstance(step, int))


def wait_valued(ahead: object, n: int, seconds: float = 240.0) -> None:
    end = time.monotonic() + seconds
    while getattr(ahead, "valued") < n:  # noqa: B009 - the property, polled
        assert time.monotonic() < end, f"{getattr(ahead, 'valued')} of {n} valued"  # noqa: B009
        time.sleep(0.05)


def one_go(record: GameRecord) -> dict[str, object]:
    est = game_model(record, default_estimator())
    return report.to_dict(analyse(record, estimator=est, rollouts=ROLLOUTS))


def finish(ahead: object, game: Game) -> tuple[dict[str, object], int, GameRecord]:
    """The analysis of ``game`` from what ``ahead`` valued, how many decisions it had valued,
    and the record (a record has its own commitment: compare analyses of the same one)."""
    start, valued = ahead.take(game)  # type: ignore[attr-defined]
    record = checked(GameRecord.from_game(game, SEATS))
    est = game_model(record, default_estimator())
    a = pieces.finish(record, est, ROLLOUTS, start, valued)
    assert a is not None
    return report.to_dict(a), len(valued), record


def test_a_game_valued_while_played_is_the_game_analysed_in_one_go() -> None:
    from sorry.tui.ahead import AheadAnalysis

    game = finished(4)
    total = decision_count(checked(GameRecord.from_game(game, SEATS)))
    ahead = AheadAnalysis(rollouts=ROLLOUTS)
    try:
        n = len(game.history)
        for steps in (n // 4, n // 2, n):  # the game given as it goes (not after every move)
            ahead.played(prefix(game, steps), SEATS)
        wait_valued(ahead, total)
        process = ahead._process
        got, valued, record = finish(ahead, game)
        assert valued == total  # all of it valued ahead: nothing left for the end
        assert got == one_go(record)
        assert process is not None and process.poll() is not None  # stopped at the end
    finally:
        ahead.close()


def test_moves_taken_back_drop_the_values_they_undo() -> None:
    from sorry.tui.ahead import AheadAnalysis

    game = finished(4)
    half = len(game.history) // 2
    ahead = AheadAnalysis(rollouts=ROLLOUTS)
    try:
        ahead.played(prefix(game, half), SEATS)
        wait_valued(ahead, decisions(prefix(game, half)))
        # taken back to a third of the game, then played on otherwise (other bots' moves)
        back = prefix(game, len(game.history) // 3)
        other = back.copy()
        rng = random.Random(9)
        while not other.is_over():
            if other.is_chance():
                other.draw()
            else:
                other.push(rng.choice(other.legal_moves))
        assert other.history[: len(back.history)] == back.history
        assert other.history[:half] != game.history[:half]
        ahead.played(other, SEATS)
        got, valued, record = finish(ahead, other)
        assert valued >= decisions(back)  # the common part kept
        assert got == one_go(record)
    finally:
        ahead.close()


def test_another_game_starts_afresh() -> None:
    from sorry.tui.ahead import AheadAnalysis

    first, second = finished(4), finished(5)
    ahead = AheadAnalysis(rollouts=ROLLOUTS)
    try:
        ahead.played(prefix(first, 40), SEATS)
        wait_valued(ahead, decisions(prefix(first, 40)))
        assert ahead.take(second) == (None, [])  # nothing of the first game is the second's
        ahead.played(second, SEATS)
        got, _valued, record = finish(ahead, second)
        assert got == one_go(record)
    finally:
        ahead.close()


def test_no_process_outlives_the_terminal_game_killed(tmp_path: Path) -> None:
    """The game's process killed outright (SIGKILL: no clean-up runs): the analysing process
    sees its pipe close and ends by itself."""
    script = tmp_path / "game.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys, time
            from sorry import Game, Rules
            from sorry.bots import make_bot, play_game
            from sorry.tui.ahead import AheadAnalysis

            if __name__ == "__main__":
                g = play_game(Rules(), [make_bot("easy"), make_bot("easy")], seed=4, players=2)
                ahead = AheadAnalysis()
                ahead.played(g, ["human", "easy"])
                print(ahead._process.pid, flush=True)
                time.sleep(600)
            """
        )
    )
    game = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    try:
        assert game.stdout is not None
        child = int(game.stdout.readline())
        os.kill(child, 0)  # it runs
        game.send_signal(signal.SIGKILL)
        game.wait(10)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                return
            if _zombie(child):
                return
            time.sleep(0.1)
        os.kill(child, signal.SIGKILL)
        raise AssertionError("the analysing process outlived the game by a minute")
    finally:
        if game.poll() is None:
            game.kill()


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except OSError:
        return False


def test_the_terminal_game_gives_each_move_and_the_end_to_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The game screen tells the analysis ahead each move played, and the game-over panel
    starts from what it valued."""
    pytest.importorskip("textual")
    import asyncio

    from sorry.analysis.calibration import ProgressEstimator
    from sorry.tui import analysis_view, warmup
    from sorry.tui.app import GameOverScreen, SorryApp
    from sorry.tui.session import Session
    from test_tui_first_use import until

    class Recording:
        def __init__(self) -> None:
            self.calls: list[tuple[int, list[str]]] = []
            self.taken: list[int] = []

        def played(self, game: Game, seats: list[str]) -> None:
            self.calls.append((len(game.history), list(seats)))

        def take(self, game: Game) -> tuple[None, list[object]]:
            self.taken.append(len(game.history))
            return None, []

        def close(self) -> None:
            pass

    monkeypatch.setattr(SorryApp, "ANALYSE_AHEAD", True)
    monkeypatch.setattr(warmup.Warmup, "run", lambda self, started: None)  # loaded at once
    monkeypatch.setattr(analysis_view, "make_estimator", ProgressEstimator)
    recording = Recording()
    app = SorryApp(Session(Rules(), players=2, seats="easy,medium", seed=4), speed=0)
    app.ahead = recording  # type: ignore[assignment]

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            panel = app.screen.query_one(analysis_view.AnalysisPanel)
            await until(pilot, lambda: panel.analysis is not None)
            game = app.session.game if app.session else None
            assert game is not None
            moves = [i + 1 for i, step in enumerate(game.history) if not isinstance(step, int)]
            seen = [n for n, _seats in recording.calls]
            # every move once the compiled analysis was loaded (the warm-up: at once here)
            assert seen and seen == moves[len(moves) - len(seen) :]
            assert {tuple(seats) for _n, seats in recording.calls} == {("bot:easy", "bot:medium")}
            assert recording.taken == [len(game.history)]
            assert panel.ahead == (None, [])

    asyncio.run(main())


def test_the_game_over_panel_values_only_what_is_left() -> None:
    """Given the start and the first decisions valued, the panel values the rest (its progress
    starts after them) and shows the analysis of the whole game in one go."""
    pytest.importorskip("textual")
    from sorry.analysis.calibration import ProgressEstimator
    from sorry.tui import analysis_view

    game = finished(4)
    record = checked(GameRecord.from_game(game, SEATS))
    est = game_model(record, ProgressEstimator())
    total = decision_count(record)
    start = pieces.start_of(record, est, None)
    early = pieces.value(record, est, None, 0, total - 5)
    panel = analysis_view.AnalysisPanel(record, (start, early))
    steps: list[int] = []
    got = panel._analyse(est, lambda done, _total: steps.append(done))
    assert steps == list(range(total - 4, total + 1))  # the last five, not the whole game
    assert report.to_dict(got) == report.to_dict(analyse(record, estimator=est))
