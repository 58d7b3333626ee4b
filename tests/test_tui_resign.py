"""Resigning in the full-screen terminal game: ``x`` asks first (``n`` changes nothing), then
ends a game of two (the result says who resigned, the analysis says in one line why it is not
analysed) or, in a game of three, takes the person's pawns off and lets the bots finish; a
resignation is not undone; the help lists the key."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from sorry import Rules
from sorry.tui.app import ConfirmScreen, GameOverScreen, GameScreen, HelpScreen, SorryApp
from sorry.tui.session import Session
from tui_helpers import keys, run


def test_x_asks_then_a_game_of_two_ends() -> None:
    session = Session(Rules(), players=2, seats="human,easy", seed=11)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, GameScreen)
        await keys(app, pilot, "x")
        assert isinstance(app.screen, ConfirmScreen)
        assert "the other side wins" in str(app.screen.question)
        await keys(app, pilot, "n")
        assert not session.game.is_over() and session.game.resigned == ()
        await keys(app, pilot, "x", "y")
        assert session.game.is_over() and session.game.winners == (2,)
        assert session.game.resigned == (0,)
        assert "Red resigns" in session.entry_text(session.log[-1], session.rules)
        assert isinstance(app.screen, GameOverScreen)
        assert "Resigned: Red." in session.result_lines()

    run(app, body)


def test_a_game_of_three_goes_on_without_the_person() -> None:
    session = Session(Rules(), players=3, seats="human,easy,easy", seed=11)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "x")
        assert isinstance(app.screen, ConfirmScreen)
        assert "your pawns leave the board" in str(app.screen.question)
        await keys(app, pilot, "y")
        game = session.game
        assert game.resigned == (0,) and 0 not in game.colours
        assert game.is_over() and game.winners[0] in (1, 2)  # the bots played it out
        assert not session.can_undo()

    run(app, body)


def test_the_help_lists_the_key() -> None:
    session = Session(Rules(), players=2, seats="human,easy", seed=11)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        from sorry.tui.help import help_text

        assert "**x** resigns (it asks first)" in help_text()

    run(app, body)
