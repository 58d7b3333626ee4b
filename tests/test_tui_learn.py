"""Learn to play in the terminal (sorry.tui.learn): the guided first game of sorry.tutorial
played to the end with the keys, at 80x24, in English and in Greek; only the step's move is
offered; Yellow's turns are said under the board; the new-game screen's F3 opens it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from sorry import i18n
from sorry.i18n import _
from sorry.tui.app import NewGameScreen, SorryApp
from sorry.tui.learn import LearnScreen
from sorry.tutorial import LEARNER, all_steps
from tui_helpers import keys, run


def side(app: SorryApp) -> str:
    return str(app.screen.query_one("#status", Static).render())


def said(app: SorryApp) -> str:
    return str(app.screen.query_one("#said", Static).render())


@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_tutorial_played_to_the_end_by_keys(lang: str) -> None:
    i18n.set_language(lang)
    app = SorryApp(speed=0, learn=True)
    steps = all_steps()

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, LearnScreen)
        for placed in steps:
            step = placed.step
            head = _("Step {i} of {n} · {part}").format(
                i=placed.number + 1, n=len(steps), part=_(placed.part.title)
            )
            text = " ".join(side(app).split())
            assert " ".join(f"{head} {_(step.title)} {_(step.intro)}".split()) in text
            # how to make the move, on the keys: never a tap or a click
            if step.how:
                assert " ".join(_(step.how.keys).split()) in text
            assert not re.search(r"\b(tap|click)", text, re.I), text
            chooser = screen.chooser
            assert chooser is not None and {str(o.legal) for o in chooser.all} == {step.turn.move}
            before = len(screen.session.log)
            presses = 0
            while screen.phase == "intro":  # the first choice each time leads to the move
                await keys(app, pilot, "enter")
                presses += 1
                assert presses < 6
            assert screen.phase == "done"
            assert screen.session.log[before].colour == LEARNER  # the learner's move, logged
            assert " ".join(_(step.done).split()) in " ".join(side(app).split())
            await keys(app, pilot, "enter")
            if step.then:  # Yellow's turns, said under the board
                assert said(app).startswith("Y ")
        assert screen.phase == "end"
        assert _("You know the game!") in side(app)
        await keys(app, pilot, "enter")
        assert isinstance(app.screen, NewGameScreen)

    try:
        run(app, body)
    finally:
        i18n.set_language("en")


def test_the_split_seven_is_offered_in_either_order_and_hints_are_off() -> None:
    number = next(p.number for p in all_steps() if p.step.key == "split")
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await app.switch_screen(LearnScreen(number))
        await keys(app, pilot)
        screen = app.screen
        assert isinstance(screen, LearnScreen) and screen.chooser is not None
        pawns = [t.label for t in screen.chooser.options()]
        assert pawns == ["Red pawn on 22", "Red pawn on 41"]
        await keys(app, pilot, "h", "u", "m")  # not offered: the script decides the game
        assert screen.hints is None and isinstance(app.screen, LearnScreen)
        await keys(app, pilot, "2")  # the pawn on 41 first: it can only go 4, the 22 then 3
        assert screen.phase == "done"
        assert str(screen.session.game.move_stack[-1]) == "R22+3/R41+4"  # as listed
        assert screen.session.log[-1].text.startswith("split 7: 41 → 45; 22 → 25")  # as played

    run(app, body)


def test_the_new_game_screen_opens_it() -> None:
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, NewGameScreen)
        await keys(app, pilot, "f3")
        assert isinstance(app.screen, LearnScreen) and app.screen.number == 0
        await keys(app, pilot, "n")  # leaves the tutorial, nothing to keep
        assert isinstance(app.screen, NewGameScreen)

    run(app, body)
