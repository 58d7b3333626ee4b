"""Following the game in the terminal: a turn with no legal move passes by itself, said in
words long enough to read; each move said in the line under the board (where its pawns went,
as the person sees the board), the bots paced; the rules screen; the card's words."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Markdown, Static

import sorry.tui.app as tui_app
from sorry import Rules
from sorry.howto import markdown as rules_markdown
from sorry.i18n import using
from sorry.tui.app import GameScreen, NewGameScreen, RulesScreen, SorryApp
from sorry.tui.pace import SPEEDS, Pace
from sorry.tui.session import Session
from tui_helpers import keys, position_app, run, settle


def said(app: SorryApp) -> str:
    return str(app.screen.query_one("#said", Static).render())


def prompt(app: SorryApp) -> str:
    return str(app.screen.query_one("#prompt", Static).render())


def test_a_turn_with_no_move_passes_by_itself() -> None:
    app, s = position_app("R:S,S,S,S Y:S,S,S,30 R", card=11)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        # no key pressed: Red's 11 with nothing to move or swap has passed, and is said so
        assert s.game.move_stack[0].is_pass
        entry = s.log[0]
        assert entry.forced and entry.text == "no move, the turn passes"
        assert Session.entry_text(entry, s.rules) == "Red draws 11: no move, the turn passes"
        assert 0 not in s.human_moves  # not a decision of the person's to take back

    run(app, body)


def waits(
    monkeypatch: pytest.MonkeyPatch, app: SorryApp, s: Session
) -> list[tuple[float, str, str, int]]:
    """Record every pause the game screen holds the table for: its seconds, the prompt and the
    line under the board meanwhile, and the moves played by then."""
    seen: list[tuple[float, str, str, int]] = []
    hold = GameScreen.hold

    async def recorded(screen: GameScreen, seconds: float) -> None:
        seen.append((seconds, prompt(app), said(app), len(s.game.move_stack)))
        await hold(screen, seconds)

    monkeypatch.setattr(GameScreen, "hold", recorded)
    return seen


def test_a_forced_pass_is_said_before_it_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a pace, the person reads "No move with the 11: your turn passes." for the pace's
    time, then the turn passes with no key pressed."""
    paced = Pace(0.0, 0.0, 0.0, 0.3)
    monkeypatch.setattr(tui_app, "SPEEDS", (SPEEDS[0], paced, *SPEEDS[2:]))
    app, s = position_app("R:S,S,S,S Y:S,S,S,30 R", card=11)
    app.speed = 1
    seen = waits(monkeypatch, app, s)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(500):
                await pilot.pause(0.02)
                if s.game.move_stack:
                    break
            assert s.game.move_stack[0].is_pass
            assert seen[0] == (0.3, "No move with the 11: your turn passes.", "", 0)
            await pilot.press("q")

    asyncio.run(main())


def test_a_forced_two_says_you_draw_again() -> None:
    from sorry import Game
    from sorry.tui.describe import pass_words

    g = Game.from_position("R:S,S,S,S Y:S,S,S,30 R", card=5)
    assert pass_words(g, person=True) == "No move with the 5: your turn passes."
    assert pass_words(g, person=False) == "Red drew 5: no move, the turn passed."
    g = Game.from_position("R:H,H,H,s5 Y:S,S,S,30 R", card=2)  # 2 past HOME: no move
    assert [str(m) for m in g.legal_moves] == ["pass"]
    assert pass_words(g, person=True) == "No move with the 2: you draw again."
    assert pass_words(g, person=False) == "Red drew 2: no move, draws again."


def test_the_line_under_the_board_says_the_bots_move() -> None:
    app, s = position_app("R:S,S,S,10 Y:S,S,S,55 Y", card=5)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        # Yellow (a bot) had one move; the person's turn is next, the line says Yellow's move
        assert str(s.game.move_stack[0]) == "Y55+5"
        line = said(app)
        assert line == "Y Yellow draws 5: 55 → 0 (2 squares before your Safety Zone)"
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.chooser is not None
        # the log below says it too, without the squares in words
        log = screen.query_one("#log")
        assert "Yellow draws 5: 55 → 0" in " ".join(str(e) for e in log.entries)  # type: ignore[attr-defined]

    run(app, body)


def test_the_line_follows_the_persons_own_move() -> None:
    app, s = position_app("R:S,S,S,10 Y:S,S,S,40 R", card=3)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "enter")  # 10 → 13, the only move
        mine = next(e for e in s.log if e.colour == 0)
        assert mine.where == "4 squares before Blue's Safety Zone"
        assert Session.entry_text(mine, s.rules) == "Red draws 3: 10 → 13"
        assert said(app).startswith(("R ", "Y "))  # the last move said, whoever's

    run(app, body)


def test_bots_moves_are_held_to_be_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """After each bot's move, play waits the pace's reading time with that move in the line
    under the board, before the next one starts."""
    paced = Pace(0.0, 0.05, 0.2, 0.0)
    monkeypatch.setattr(tui_app, "SPEEDS", (SPEEDS[0], paced, *SPEEDS[2:]))
    session = Session(Rules(), players=2, seats="random,random", seed=4)
    app = SorryApp(session, speed=1)
    seen = waits(monkeypatch, app, session)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(500):
                await pilot.pause(0.02)
                if len(session.log) >= 4:
                    break
            await pilot.press("q")
        held = [w for w in seen if w[0] == 0.2]
        assert len(held) >= 3
        for _seconds, _prompt, line, played in held:
            entry = session.log[played - 1]  # the move just played is the one said
            letter = "RBYG"[entry.colour]
            assert line == f"{letter} {Session.entry_text(entry, session.rules, where=True)}"
        thinks = [w[3] for w in seen if w[0] == 0.05]
        assert thinks[:3] == [0, 1, 2]  # each bot's pause comes after the last move was held

    asyncio.run(main())


def test_the_rules_screen_from_the_footer_key() -> None:
    app, _s = position_app("R:S,8,20,50 Y:S,S,S,30 R", card=7)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        from textual.widgets._footer import FooterKey

        shown = [(k.key_display, k.description) for k in app.screen.query(FooterKey)]
        assert ("r", "Rules") in shown  # in the footer at 80x24
        await keys(app, pilot, "r")
        assert isinstance(app.screen, RulesScreen)
        text = app.screen.query_one(Markdown).source
        assert text.startswith("# Rules of the game") and rules_markdown() in text
        await keys(app, pilot, "escape")
        assert isinstance(app.screen, GameScreen)

    run(app, body)


@pytest.mark.parametrize("lang", ["el", "sw"])
def test_the_rules_screen_in_another_language(lang: str) -> None:
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, NewGameScreen)
        await keys(app, pilot, "f2")
        assert isinstance(app.screen, RulesScreen)
        source = app.screen.query_one(Markdown).source
        with using(lang):
            assert rules_markdown() in source
        assert "The aim" not in source and "### " in source

    with using(lang):
        run(app, body)


def test_points_choices_say_what_each_card_does() -> None:
    rules = Rules(variant="points")
    app, _s = position_app("R:S,S,S,4 Y:S,S,S,34 R", rules=rules, hands={0: [1, 3, 4, 7, 12]})

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        labels = [t.label for t in screen._options()]
        assert "play 7: 7, or split it in two" in labels
        assert "play 4: 4 backward" in labels
        await settle(app, pilot)

    run(app, body)


def test_the_move_list_says_where_each_move_goes() -> None:
    from sorry.tui.app import MoveListScreen

    app, _s = position_app("R:S,S,S,10 Y:S,S,S,30 R", card=11)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "m")
        screen = app.screen
        assert isinstance(screen, MoveListScreen)
        assert screen.items[0][:2] == ("Red 10 → 21", "2 squares after Blue's START")
        swap = screen.items[1]
        assert swap[0] == "Red 10 swaps with Yellow on 30" and swap[1].startswith("2 squares")

    run(app, body)
