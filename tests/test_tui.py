"""The terminal game driven headlessly with Textual's Pilot: every kind of choice by keys and
mouse, a whole game, undo, save and resume, hints, hot-seat, matches and the new-game screen."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select, Static

from sorry import Game, Rules
from sorry.cards import SORRY
from sorry.record import Result
from sorry.tui.app import (
    BoardView,
    ConfirmScreen,
    GameOverScreen,
    GameScreen,
    HelpScreen,
    MoveListScreen,
    NewGameScreen,
    OptionsView,
    PassScreen,
    SorryApp,
)
from sorry.tui.layout import START_BOX, track_cell
from sorry.tui.players import MoveChance, estimate_chances, estimate_moves
from sorry.tui.session import Session
from tui_helpers import as_terminal, keys, position_app, run, settle


def options_text(app: SorryApp) -> str:
    return str(app.screen.query_one("#options", Static).render())


def test_seven_split_chosen_half_by_half() -> None:
    app, s = position_app("R:S,8,20,50 Y:S,S,S,30 R", card=7)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert "Red pawn on 8" in options_text(app)
        await keys(app, pilot, "1")  # the pawn on 8
        assert "first 3: 8 → 11" in options_text(app)
        await keys(app, pilot, "4")  # first 3 of the 7
        assert "the other 4" in str(app.screen.query_one("#prompt", Static).render())
        await keys(app, pilot, "2")  # the pawn on 50 moves 4 (onto Green's slide)
        assert s.game.move_stack[0].notation() == "R8+3/R50+4"
        assert s.log[0].text == "split 7: 8 → 11; 50 → 54, slides to 58"  # said without the mover

    run(app, body)


def test_seven_split_either_order_with_arrows() -> None:
    app, s = position_app("R:S,8,20,50 Y:S,S,S,30 R", card=7)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "right", "right", "enter")  # the pawn on 50
        await keys(app, pilot, "down", "down", "down", "down", "enter")  # first 4 of the 7
        await keys(app, pilot, "escape")  # back: the half again
        await keys(app, pilot, "4", "1")  # first 3 (50 → 53), then the pawn on 8 moves 4
        assert str(s.game.move_stack[0]) in ("R50+3/R8+4", "R8+4/R50+3")
        assert s.log[0].text.startswith("split 7: 50 → 53; 8 → 12")

    run(app, body)


def test_eleven_swap_and_forward() -> None:
    app, s = position_app("R:S,S,S,10 Y:S,S,S,30 R", card=11)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "enter")  # the only pawn
        text = options_text(app)
        assert "10 → 21 (+11)" in text and "swap with Yellow on 30" in text
        await keys(app, pilot, "2")
        assert str(s.game.move_stack[0]) == "R10<>Y30"
        assert s.log[0].text == "swaps 10 with Yellow on 30"

    run(app, body)


def test_eleven_declined() -> None:
    app, s = position_app("R:S,S,S,58 Y:S,S,S,30 R", card=11)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert "decline the 11" in options_text(app)
        await keys(app, pilot, "p")
        assert s.game.move_stack[0].is_pass
        assert Session.entry_text(s.log[0], s.rules) == "Red draws 11: declines the 11"

    run(app, body)


def test_eleven_with_no_move_at_all_is_a_forfeit() -> None:
    app, s = position_app("R:S,S,S,S Y:S,S,S,30 R", card=11)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        # nothing to move or swap: the turn passed by itself (tests/test_tui_follow.py)
        assert s.game.move_stack[0].is_pass
        assert Session.entry_text(s.log[0], s.rules) == "Red draws 11: no move, the turn passes"

    run(app, body)


def test_sorry_by_mouse() -> None:
    app, s = position_app("R:S,S,S,10 Y:S,S,20,30 R", card=SORRY)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        board = app.screen.query_one(BoardView)
        w, h = board.scale
        r, c = START_BOX[0][0]
        await pilot.click(BoardView, offset=(c * w + 1, r * h))
        await settle(app, pilot)
        assert "Sorry! Yellow on 30" in options_text(app)
        r, c = track_cell(30)
        await pilot.click(BoardView, offset=(c * w + 1, r * h))
        await settle(app, pilot)
        assert str(s.game.move_stack[0]) == "RS>Y30"
        assert "takes Yellow's place on 30" in s.log[0].text

    run(app, body)


def test_dead_hand_discard() -> None:
    rules = Rules(variant="points")
    app, s = position_app("R:s5,H,H,H Y:S,S,S,34 R", rules=rules, hands={0: [2, 3, 5, 7, 8]})

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        prompt = str(app.screen.query_one("#prompt", Static).render())
        assert "choose one to discard" in prompt
        assert "Your hand: 2  3  5  7  8" in str(app.screen.query_one("#hand", Static).render())
        await keys(app, pilot, "3")
        assert str(s.game.move_stack[0]) == "discard:5"
        assert Session.entry_text(s.log[0], s.rules) == "Red discards a 5 (no usable card)"

    run(app, body)


def test_points_card_then_pawn() -> None:
    rules = Rules(variant="points")
    app, s = position_app("R:S,S,S,4 Y:S,S,S,34 R", rules=rules, hands={0: [1, 3, 4, 7, 12]})

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert "play 12: 12 forward" in options_text(app)
        await keys(app, pilot, "5", "enter")  # the 12, then the only pawn that can use it
        assert str(s.game.move_stack[0]) == "12:R4+12"

    run(app, body)


def test_points_chosen_card_is_highlighted() -> None:
    rules = Rules(variant="points")
    app, s = position_app("R:S,S,10,4 Y:S,S,S,34 R", rules=rules, hands={0: [1, 3, 3, 7, 12]})

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        hand = screen.query_one("#hand", Static)
        assert "[" not in str(hand.render())
        await keys(app, pilot, "2")  # play 3: the pawn on 4 or the one on 10
        assert not s.game.move_stack and screen.chooser is not None
        assert str(hand.render()) == "Your hand: 1  [3]  3  7  12"  # one 3 of the two
        shown: Any = hand.render()
        marked = [shown.plain[sp.start : sp.end] for sp in shown.spans if sp.style.reverse]
        assert marked == ["[3]"]
        centre = [text for text, _style in screen.centre_lines()]
        assert "1  [3]  3  7  12" in centre and "Card: 3" in centre
        await keys(app, pilot, "escape")  # back to the hand: nothing chosen
        assert str(hand.render()) == "Your hand: 1  3  3  7  12"

    run(app, body)


def test_move_list_fallback() -> None:
    app, s = position_app("R:S,S,S,10 Y:S,S,S,30 R", card=11)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "m")
        assert isinstance(app.screen, MoveListScreen)
        await keys(app, pilot, "2")
        assert str(s.game.move_stack[0]) == "R10<>Y30"

    run(app, body)


@pytest.mark.slow
def test_whole_game_by_keys() -> None:
    session = Session(Rules(), players=2, seats="human,random", seed=5)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        presses = 0
        while not session.game.is_over():
            await keys(app, pilot, "enter")
            presses += 1
            assert presses < 2000
        assert isinstance(app.screen, GameOverScreen)
        assert len(session.log) == len(session.game.move_stack)
        assert session.match.games_played == 1
        await keys(app, pilot, "q")

    run(app, body)


def test_whole_game_from_the_last_moves() -> None:
    app, s = position_app("R:s3,H,H,H Y:S,S,S,S R", card=3)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "enter")
        assert s.game.is_over() and s.game.winner == 0
        assert isinstance(app.screen, GameOverScreen)
        result = str(app.screen.query_one("#result", Static).render())
        assert "Red wins! (you)" in result and "Game over · after 1 turn" in result
        # The turns played, as the game record counts them ("won after 1 turn").
        game_screen = app.screen_stack[-2]
        assert isinstance(game_screen, GameScreen)
        centre = [text for text, _style in game_screen.centre_lines()]
        assert centre[:3] == ["Game over", "after 1 turn", "Red wins!"]
        assert Result.of(s.game).describe() == "Red won after 1 turn"

    run(app, body)


def test_undo_takes_back_your_move_and_the_bots() -> None:
    session = Session(Rules(), players=2, seats="human,random", seed=11)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        before = session.game.copy()
        mine = 0
        for _ in range(3):  # three moves of the person's, each with the bots' answers
            while True:
                if screen.chooser is not None and not screen.chooser.chosen:
                    before = session.game.copy()
                    mine = len(session.human_moves)
                await keys(app, pilot, "enter")
                if len(session.human_moves) > mine:
                    break
        assert session.can_undo()
        steps = len(session.game.history)
        await keys(app, pilot, "u")
        assert len(session.game.history) < steps
        assert session.game == before and session.game.history == before.history
        assert len(session.human_moves) == mine
        assert session.is_human_turn() and screen.chooser is not None

    run(app, body)


def test_undo_refused_with_two_people() -> None:
    session = Session(Rules(), players=2, seats="human,human", seed=11)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        for _ in range(6):
            await keys(app, pilot, "enter")
        moves = len(session.game.move_stack)
        await keys(app, pilot, "u")
        assert len(session.game.move_stack) == moves

    run(app, body)


def test_save_then_resume(tmp_path: Path) -> None:
    session = Session(Rules(), players=3, seats="human,random,easy", seed=21, games=3)
    app = SorryApp(session, speed=0)
    path = tmp_path / "game.json"

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        for _ in range(8):
            await keys(app, pilot, "enter")
        await keys(app, pilot, "s")
        app.screen.query_one("#path", Input).value = str(path)
        await keys(app, pilot, "enter")
        assert path.exists()

    run(app, body)
    resumed = Session.load(path)
    assert resumed.game == session.game
    assert resumed.game.history == session.game.history
    assert [e.text for e in resumed.log] == [e.text for e in session.log]
    assert resumed.human_moves == session.human_moves
    assert resumed.seats == session.seats
    assert resumed.match.games == 3 and resumed.match.seed == session.match.seed
    assert '"format": "sorry-record"' in path.read_text()
    app2 = SorryApp(resumed, speed=0)

    async def body2(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, GameScreen)
        await keys(app, pilot, "u")  # undo works after resuming
        assert resumed.game.turn < session.game.turn or not session.human_moves

    run(app2, body2)


def test_save_of_a_set_up_position(tmp_path: Path) -> None:
    _app, s = position_app("R:S,8,20,50 Y:S,S,S,30 R", card=7)
    path = tmp_path / "pos.json"
    s.save(path)
    assert Session.load(path).game == s.game


def test_hints_show_chances() -> None:
    app, s = position_app("R:S,8,20,50 Y:S,S,S,30 R", card=7)
    app.hint_rollouts = 3

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "h")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.hints is not None and len(screen.hints) == len(s.game.legal_moves)
        # the words first ("best", "as good"), the figures on h again
        assert "best" in options_text(app) and "%" not in options_text(app)
        await keys(app, pilot, "h")
        assert "%" in options_text(app)
        await keys(app, pilot, "m")
        assert isinstance(app.screen, MoveListScreen)
        assert "%" in str(app.screen.query_one("#moves").render_line(0))

    run(app, body)


def test_hint_asked_while_another_is_worked_out_follows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    import sorry.tui.app as tui_app

    release = threading.Event()
    asked: list[str] = []

    def slow_estimate(game: Game, **kw: Any) -> list[MoveChance]:
        asked.append(game.position_string())
        if len(asked) == 1:
            release.wait(30)  # the first hint takes its time
        return [MoveChance(m, 0.5, 0.4, 0.6, 10, True) for m in game.legal_moves]

    monkeypatch.setattr(tui_app, "estimate_chances", slow_estimate)
    session = Session(Rules(), players=2, seats="human,random", seed=11)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("h")  # worked out in a thread that waits
        await pilot.pause()
        first = session.game.position_string()
        while session.game.position_string() == first or screen.chooser is None:
            await pilot.press("enter")  # play on meanwhile
            await pilot.pause()
            for _ in range(20):
                if screen.chooser is not None:
                    break
                await pilot.pause(0.05)
        await pilot.press("h")  # another decision: follows the first
        await pilot.pause()
        assert "Estimating" in str(screen.query_one("#prompt", Static).render())
        release.set()
        await settle(app, pilot)
        await settle(app, pilot)
        assert asked == [first, session.game.position_string()]
        assert screen.hints is not None and set(screen.hints) == set(session.game.legal_moves)

    run(app, body)


def test_hints_come_first_on_each_choice() -> None:
    app, _s = position_app("R:S,8,20,50 Y:S,S,S,30 R", card=7)
    app.hint_rollouts = 3
    app.hint_engine = "random"

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "1", "h", "h")  # the pawn on 8: long split labels; the figures
        view = app.screen.query_one(OptionsView)
        lines = options_text(app).splitlines()
        firsts = [lines[i] for i, row in enumerate(view.rows) if i == 0 or view.rows[i - 1] != row]
        assert len(firsts) > 3 and all("%" in line for line in firsts)

    run(app, body)


def test_hint_engines_agree_on_a_forced_move() -> None:
    forced = Game.from_position("R:s1,H,H,H Y:S,S,S,S R", card=5)
    for engine in ("random", "bots", "auto"):
        # a forced move comes alone with no estimate, on every engine
        assert estimate_chances(forced, rollouts=3, seed=2, engine=engine) == [
            MoveChance(forced.legal_moves[0], 0.0, 0.0, 1.0, 0, False)
        ]
    g = Game.from_position("R:S,8,20,50 Y:S,S,S,30 R", card=7)
    est = estimate_moves(g, rollouts=16, seconds=0.0, engine="bots")
    assert sorted(str(m) for m, _p in est) == sorted(str(m) for m in g.legal_moves)
    assert all(0.0 <= p <= 1.0 for _m, p in est)


def test_hot_seat_points_hides_hands() -> None:
    session = Session(Rules(variant="points"), players=2, seats="human,human", seed=3)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, PassScreen)
        first = session.game.to_move
        await keys(app, pilot, "enter")
        assert isinstance(app.screen, GameScreen)
        hand = str(app.screen.query_one("#hand", Static).render())
        assert hand.startswith("Your hand:")
        while session.game.to_move == first:
            await keys(app, pilot, "enter")
        assert isinstance(app.screen, PassScreen)
        game_screen = app.screen_stack[-2]
        assert str(game_screen.query_one("#hand", Static).render()) == ""

    run(app, body)


def test_bots_play_a_match() -> None:
    session = Session(Rules(), players=2, seats="random,random", seed=2, games=2)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, GameOverScreen)
        assert session.match.games_played == 1
        await keys(app, pilot, "enter")
        assert isinstance(app.screen, GameOverScreen)
        assert session.match.games_played == 2 and session.match_over()
        result = str(app.screen.query_one("#result", Static).render())
        assert "Match after 2 games" in result

    run(app, body)


def test_help_and_speed() -> None:
    app, _s = position_app("R:S,S,S,10 Y:S,S,S,30 R", card=11)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        await keys(app, pilot, "escape")
        # Speeds run 1 (slowest) .. 5, then 0 (instant): `-` never jumps from 1 to instant.
        await keys(app, pilot, "plus")
        assert app.speed == 0
        seen = []
        for _ in range(6):
            await keys(app, pilot, "minus")
            seen.append(app.speed)
        assert seen == [5, 4, 3, 2, 1, 1]
        await keys(app, pilot, "plus")
        assert app.speed == 2

    run(app, body)


def test_new_game_screen_starts_a_game() -> None:
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one("#seat-B", Select).value = "off"
        app.screen.query_one("#seat-G", Select).value = "off"
        app.screen.query_one("#seed", Input).value = "9"
        app.screen.query_one("#opt-deck", Select).value = "44"
        await pilot.click("#start")
        await settle(app, pilot)
        assert isinstance(app.screen, GameScreen)
        s = app.screen.session
        assert s.colours == (0, 2) and s.match.seed == 9 and s.rules.deck == 44
        assert s.seats[0].human and s.seats[2].level == "easy"  # as `sorry play`'s bots

    run(app, body, size=(100, 40))


def shown(app: SorryApp, ident: str) -> bool:
    """Whether the widget ``ident`` can be seen: displayed, and on top at its first cell."""
    widget = app.screen.query_one(f"#{ident}")
    region = widget.region
    if not widget.display or region.area == 0:
        return False
    if not app.screen.region.contains(region.x, region.bottom - 1):
        return False
    top, _region = app.screen.get_widget_at(region.x, region.y)
    return top is widget or widget in top.ancestors


def test_new_game_screen_starts_the_points_variant() -> None:
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert screen.query_one("#row-starting_pawns_out").display
        assert not screen.query_one("#row-points_bonus").display
        screen.query_one("#variant", Select).value = "points"
        await settle(app, pilot)
        # The points variant starts a pawn out, always: that row goes, its bonus row comes.
        assert not screen.query_one("#row-starting_pawns_out").display
        assert screen.query_one("#row-points_bonus").display
        await keys(app, pilot, "ctrl+s")
        assert isinstance(app.screen, GameScreen), str(screen.query_one("#error").render())
        assert app.screen.session.rules.points

    run(app, body)


def test_new_game_rows_follow_the_variant() -> None:
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        screen.query_one("#opt-deck", Select).value = "44"
        screen.query_one("#seat-G", Select).value = "off"
        screen.query_one("#variant", Select).value = "teams"
        await settle(app, pilot)
        assert screen.query_one("#row-team_seven_split").display
        assert screen.query_one("#opt-deck", Select).value == "44"  # changed: kept
        assert screen.query_one("#seat-G", Select).value == "easy"  # teams seat all four
        screen.query_one("#opt-team_seven_split", Select).value = "any"
        screen.query_one("#variant", Select).value = "standard"
        await settle(app, pilot)
        assert not screen.query_one("#row-team_seven_split").display
        await keys(app, pilot, "ctrl+s")
        assert isinstance(app.screen, GameScreen)
        rules = app.screen.session.rules
        assert rules.variant == "standard" and rules.deck == 44

    run(app, body)


def test_new_game_screen_says_how_strong_a_bot_is() -> None:
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        note = app.screen.query_one("#level-note", Static)
        assert str(note.render()).startswith("easy: Rushes its pawns forward")
        seat = app.screen.query_one("#seat-Y", Select)
        seat.focus()
        seat.value = "expert"
        await settle(app, pilot)
        assert str(note.render()).startswith("expert: Plays out hundreds of possible games")
        assert shown(app, "level-note")

    run(app, body)


def test_new_game_errors_are_visible_at_80x24() -> None:
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert not shown(app, "error")
        for c in "BYG":
            screen.query_one(f"#seat-{c}", Select).value = "off"
        await keys(app, pilot, "ctrl+s")
        assert isinstance(app.screen, NewGameScreen)
        assert "at least two" in str(screen.query_one("#error", Static).render())
        assert shown(app, "error") and shown(app, "start")
        screen.query_one("#variant", Select).value = "teams"
        await settle(app, pilot)
        screen.query_one("#seat-B", Select).value = "off"
        await pilot.click("#start")
        await settle(app, pilot)
        assert "all four colours" in str(screen.query_one("#error", Static).render())
        assert shown(app, "error")
        screen.query_one("#load-path", Input).value = "/nonexistent/saved.json"
        screen.query_one("#resume").scroll_visible(animate=False)
        await settle(app, pilot)
        await pilot.click("#resume")
        await settle(app, pilot)
        assert "cannot read /nonexistent/saved.json" in str(screen.query_one("#error").render())
        assert shown(app, "error")

    run(app, body)


def test_new_game_screen_remembers_the_last_settings(tmp_path: Path) -> None:
    from sorry.tui.settings import load_settings

    path = tmp_path / "sorry" / "tui.json"
    app = SorryApp(speed=0, settings_file=path)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        screen.query_one("#variant", Select).value = "points"
        screen.query_one("#seat-B", Select).value = "off"
        screen.query_one("#seat-G", Select).value = "hard"
        screen.query_one("#games", Input).value = "3"
        screen.query_one("#seed", Input).value = "5"
        await settle(app, pilot)
        screen.query_one("#opt-points_bonus", Select).value = "cumulative"
        await keys(app, pilot, "ctrl+s")
        assert isinstance(app.screen, GameScreen)
        while not app.screen.session.human_moves:
            await keys(app, pilot, "enter")
        await keys(app, pilot, "n", "y")  # leave the game for a new one
        again = app.screen
        assert isinstance(again, NewGameScreen)
        assert again.query_one("#variant", Select).value == "points"
        assert again.query_one("#seat-B", Select).value == "off"
        assert again.query_one("#seat-G", Select).value == "hard"
        assert again.query_one("#games", Input).value == "3"
        assert again.query_one("#seed", Input).value == ""  # the next game is a new one
        assert again.query_one("#opt-points_bonus", Select).value == "cumulative"

    run(app, body, size=(100, 40))
    kept = load_settings(path)  # and for the next run
    assert (kept.variant, kept.games, kept.options) == ("points", 3, {"points_bonus": "cumulative"})
    assert kept.seats == {0: "human", 1: "off", 2: "easy", 3: "hard"} and kept.seed is None


def test_new_game_screen_reports_errors() -> None:
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        for c in "BYG":
            app.screen.query_one(f"#seat-{c}", Select).value = "off"
        await pilot.click("#start")
        await settle(app, pilot)
        assert isinstance(app.screen, NewGameScreen)
        assert "at least two" in str(app.screen.query_one("#error", Static).render())

    run(app, body, size=(100, 40))


def test_quitting_while_numba_compiles_leaves_without_tearing_llvm_down(tmp_path: Path) -> None:
    """Quitting while the background loading still runs (the first run's numba compile:
    minutes) leaves at once, without the interpreter's exit (its teardown of LLVM under the
    compile aborted the process: "DAG root value is not a chain!"): the exit code is the
    game's, what was printed is there, the exit handlers do not run. Otherwise the usual exit."""
    import os
    import subprocess
    import sys

    script = """
import atexit, sys, threading, time
import sorry.tui as tui
from sorry.tui.app import SorryApp

def run(self, *args, **kw):
    if sys.argv[1] == "busy":
        self.warmup.thread = threading.Thread(target=time.sleep, args=(60,), daemon=True)
        self.warmup.thread.start()
    self.farewell = "farewell"
    return 0

SorryApp.run = run
atexit.register(lambda: print("interpreter exit"))
sys.exit(tui.run_app())
"""
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path))
    for state, expected in (("busy", ["farewell"]), ("done", ["farewell", "interpreter exit"])):
        done = subprocess.run(
            [sys.executable, "-c", script, state],
            capture_output=True,
            text=True,
            timeout=50,
            env=env,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split("\n")[:-1] == expected


def test_run_app_entry_points(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sorry.tui as tui
    from sorry.cli import main

    made: list[SorryApp] = []

    def fake_run(self: SorryApp, *args: Any, **kw: Any) -> int:
        made.append(self)
        return 0

    monkeypatch.setattr(SorryApp, "run", fake_run)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    as_terminal(monkeypatch)  # `sorry tui` goes full screen on a terminal only
    assert tui.run_app() == 0
    assert made[-1].session is None and made[-1].settings.variant == "standard"
    assert made[-1].settings_file == tmp_path / "config" / "sorry" / "tui.json"
    assert made[-1].settings.seats == {0: "human", 1: "easy", 2: "easy", 3: "easy"}
    assert tui.run_app(Rules(variant="points"), 3, "human,easy,random", seed=4, games=2) == 0
    s = made[-1].session
    assert s is not None and s.colours == (0, 1, 2) and s.match.games == 2
    assert [s.seats[c].level for c in s.colours] == [None, "easy", "random"]
    game = Game(Rules(), players=2, seed=3)
    record = tmp_path / "end.json"
    assert tui.run_app(game=game, seats=["human", "easy"], save=str(record)) == 0
    assert made[-1].session is not None and made[-1].session.game is game
    assert made[-1].save_at_end == str(record)
    assert main(["tui", "--rules", "teams", "--seats", "human,easy,human,easy"]) == 0
    s = made[-1].session
    assert s is not None and s.rules.teams and len(s.humans) == 2
    assert main(["tui", "--setup", "--players", "2"]) == 0
    settings = made[-1].settings
    assert made[-1].session is None
    assert settings.seats == {0: "human", 1: "off", 2: "easy", 3: "off"}
    path = tmp_path / "saved.json"
    Session(Rules(), players=2, seats="human,random", seed=1).save(path)
    assert main(["tui", "--load", str(path)]) == 0
    assert made[-1].session is not None and made[-1].save_path == str(path)
    assert main(["tui", "--speed", "9"]) == 2
    assert main(["tui", "--seats", "human,wizard"]) == 2


class Clock:
    """A stand-in for the ``time`` module in sorry.tui.app: its ``monotonic`` stands still
    until moved on (the event loop keeps the real clock)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_enter_waits_a_moment_on_the_game_over_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """An Enter pressed as the game ends (meant for the last move) does not start a new game
    at once: the result and the analysis stay up until the grace is over."""
    clock = Clock()
    monkeypatch.setattr("sorry.tui.app.time", clock)
    monkeypatch.setattr(GameOverScreen, "ENTER_GRACE", 1.0)
    app, s = position_app("R:s3,H,H,H Y:S,10,S,S R", card=3)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "enter")  # the last move
        over = app.screen
        assert isinstance(over, GameOverScreen) and s.game.is_over()
        await keys(app, pilot, "enter")  # once more, at once
        assert app.screen is over and s.game.is_over()
        clock.now += 0.9
        await keys(app, pilot, "enter")
        assert app.screen is over
        clock.now += 0.2
        await keys(app, pilot, "enter")  # after the grace: a new game
        assert isinstance(app.screen, NewGameScreen)

    run(app, body)


@pytest.mark.parametrize("key", ["n", "escape", "q"])
def test_the_other_game_over_keys_act_at_once(monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    monkeypatch.setattr("sorry.tui.app.time", Clock())  # the grace never ends
    monkeypatch.setattr(GameOverScreen, "ENTER_GRACE", 1.0)
    app, s = position_app("R:s3,H,H,H Y:S,10,S,S R", card=3)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "enter")
        assert isinstance(app.screen, GameOverScreen)
        await keys(app, pilot, key)
        if key == "n":
            assert isinstance(app.screen, NewGameScreen)
        elif key == "escape":  # the board, the game over under it
            assert isinstance(app.screen, GameScreen) and s.game.is_over()
        else:
            assert app.return_value == 0

    run(app, body)


def test_finished_game_saved_and_resumed_counts_once(tmp_path: Path) -> None:
    session = Session(Rules(), players=2, seats="random,random", seed=6, games=2)
    path = tmp_path / "end.json"
    app = SorryApp(session, speed=0, save_at_end=str(path))

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, GameOverScreen)

    run(app, body)
    assert not path.exists()  # a match keeps every game: end-1.json, end-2.json...
    resumed = Session.load(tmp_path / "end-1.json")
    assert resumed.game.is_over() and resumed.match.games_played == 1
    assert resumed.finish() is None
    game2 = resumed.next_game()
    assert game2.first == session.game.winner
    assert resumed.match.games_played == 1


def test_a_match_saves_every_game(tmp_path: Path) -> None:
    """--save in a match keeps each game's record, numbered."""
    from sorry.record import verify_file

    session = Session(Rules(), players=2, seats="random,random", seed=2, games=2)
    app = SorryApp(session, speed=0, save_at_end=str(tmp_path / "m.json"))

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, GameOverScreen)
        await keys(app, pilot, "enter")
        assert session.match_over()

    run(app, body)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m-1.json", "m-2.json"]
    assert all(verify_file(tmp_path / n).ok for n in ("m-1.json", "m-2.json"))
    assert Session.load(tmp_path / "m-2.json").match.games_played == 2


def test_teams_start_the_partners_pawn() -> None:
    rules = Rules(variant="teams")
    app, s = position_app("R:S,S,S,S B:S,S,S,S Y:S,S,S,S G:S,S,S,S R", card=1, rules=rules)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        text = options_text(app)
        assert "Red pawn in START" in text and "Yellow pawn in START" in text
        await keys(app, pilot, "2")  # Yellow's pawn leaves START (its partner's card)
        assert str(s.game.move_stack[0]) == "YS>34"
        assert s.log[0].text == "Yellow leaves START for 34"

    run(app, body)


def test_a_failing_bot_is_replaced_for_the_turn() -> None:
    class Broken:
        def choose(self, view: Any, rng: Any) -> Any:
            raise RuntimeError("bug")

    session = Session(Rules(), players=2, seats="random,random", seed=1)
    session.bots = {c: Broken() for c in session.colours}
    session.draw_cards()
    move = session.bot_move()
    assert move in session.game.legal_moves


def test_leaving_a_game_in_progress_asks_first() -> None:
    session = Session(Rules(), players=2, seats="human,random", seed=11)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        while not session.human_moves:
            await keys(app, pilot, "enter")
        await keys(app, pilot, "n")
        assert isinstance(app.screen, ConfirmScreen)
        await keys(app, pilot, "n")
        assert isinstance(app.screen, GameScreen)
        await keys(app, pilot, "n", "y")
        assert isinstance(app.screen, NewGameScreen)

    run(app, body, size=(100, 40))


def test_quitting_asks_and_s_saves_first(tmp_path: Path) -> None:
    session = Session(Rules(), players=2, seats="human,random", seed=11)
    app = SorryApp(session, speed=0)
    path = tmp_path / "before-quitting.json"

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        while not session.human_moves:
            await keys(app, pilot, "enter")
        await keys(app, pilot, "q")
        assert isinstance(app.screen, ConfirmScreen)
        assert "s: save first" in str(app.screen.query_one(Static).render())
        await keys(app, pilot, "s")  # save first: the file is asked for, then the game quits
        app.screen.query_one("#path", Input).value = str(path)
        await keys(app, pilot, "enter")
        assert path.exists() and app.return_value == 0
        assert app.farewell == f"Saved to {path} (resume: sorry tui --load {path})"

    run(app, body)
    assert Session.load(path).game == session.game


def test_ctrl_q_asks_during_a_game() -> None:
    session = Session(Rules(), players=2, seats="human,random", seed=11)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        while not session.human_moves:
            await keys(app, pilot, "enter")
        await keys(app, pilot, "ctrl+q")
        assert isinstance(app.screen, ConfirmScreen) and app.return_value is None
        await keys(app, pilot, "n")
        assert isinstance(app.screen, GameScreen)
        await keys(app, pilot, "m", "ctrl+q")  # from another window over the game too
        assert isinstance(app.screen, ConfirmScreen) and app.return_value is None
        await keys(app, pilot, "ctrl+q")  # twice: quits
        assert app.return_value == 0

    run(app, body)


def test_too_small_a_terminal_says_so() -> None:
    session = Session(Rules(), players=2, seats="human,random", seed=11)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        note = app.screen.query_one("#too-small", Static)
        assert note.display and not app.screen.query_one("#table").display
        assert "too small (80×24 needed; it is 79×30 now)" in str(note.render())
        moves = len(session.game.move_stack)
        await keys(app, pilot, "enter", "1")  # no choosing blind
        assert len(session.game.move_stack) == moves
        await pilot.resize_terminal(80, 23)
        await settle(app, pilot)
        assert "it is 80×23 now" in str(note.render())
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        assert not note.display and app.screen.query_one("#table").display
        assert app.screen.query_one(BoardView).scale == (3, 1)

    run(app, body, size=(79, 30))


@pytest.mark.parametrize(
    ("size", "scale", "side"),
    [((80, 24), (3, 1), 32), ((100, 30), (4, 1), 36), ((160, 50), (7, 2), 48)],
)
def test_the_side_panel_takes_the_width_the_board_leaves(
    size: tuple[int, int], scale: tuple[int, int], side: int
) -> None:
    app, _s = position_app("R:S,8,20,50 B:S,S,25,S Y:S,S,S,30 G:44,S,S,S R", card=7)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        board = app.screen.query_one(BoardView)
        panel = app.screen.query_one("#side")
        assert board.scale == scale and board.region.width == 16 * scale[0]
        assert panel.region.x == board.region.right and panel.region.width == side
        assert panel.region.right == size[0]

    run(app, body, size=size)


def test_the_log_wraps_again_when_the_terminal_changes_size() -> None:
    session = Session(Rules(), players=2, seats="human,random", seed=3)
    session.draw_cards()
    while len(session.log) < 40 or not session.is_human_turn():
        session.play(session.bot_move())  # a random move for the person too
        session.draw_cards()
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        log = app.screen.query_one("#log")
        narrow = len(log.lines)  # type: ignore[attr-defined]
        assert narrow > len(log.entries)  # type: ignore[attr-defined]
        await pilot.resize_terminal(160, 50)
        await settle(app, pilot)
        assert len(log.lines) == len(log.entries) < narrow  # type: ignore[attr-defined]
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        assert len(log.lines) == narrow  # type: ignore[attr-defined]

    run(app, body)


def test_points_card_by_mouse() -> None:
    rules = Rules(variant="points")
    app, s = position_app("R:S,S,S,4 Y:S,S,S,34 R", rules=rules, hands={0: [1, 3, 4, 7, 12]})

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        view = app.screen.query_one(OptionsView)
        labels = [t.label for t in app.screen.chooser.options()]  # type: ignore[attr-defined]
        y = view.rows.index(labels.index("play 4: 4 backward"))
        await pilot.click(OptionsView, offset=(3, y))
        await settle(app, pilot)
        assert str(s.game.move_stack[0]) == "4:R4-4"

    run(app, body)


def test_loading_a_bad_file_is_a_clear_error(tmp_path: Path) -> None:
    from sorry.errors import SorryError

    for text in ("{", '{"format": "sorry-tui-save", "game": {}}', "[1, 2]", '{"format": 3}'):
        path = tmp_path / "bad.json"
        path.write_text(text)
        with pytest.raises(SorryError):
            Session.load(path)
    with pytest.raises(SorryError):
        Session.load(tmp_path / "missing.json")


def test_bots_animated_at_a_pace() -> None:
    session = Session(Rules(), players=2, seats="random,easy", seed=4)
    app = SorryApp(session, speed=5)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        frames: list[Any] = []
        draw = screen.refresh_board

        def drawn() -> None:  # every board drawn in between moves is a frame of animation
            if screen.frame is not None:
                frames.append(screen.frame)
            draw()

        screen.refresh_board = drawn  # type: ignore[method-assign]
        for _ in range(1000):  # up to 20 s on a loaded machine; about a second usually
            await pilot.pause(0.02)
            if len(session.log) >= 4:
                break
        assert len(session.log) >= 4 and frames
        await pilot.press("q")  # no person in the game: quits without asking
        await pilot.pause()
        assert app.return_value == 0

    async def main() -> None:  # no settling first: the bots would play the whole game
        async with app.run_test(size=(80, 24)) as pilot:
            await body(app, pilot)

    asyncio.run(main())


def test_a_hint_does_not_wait_for_the_compiled_engine_to_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The compiled hint engine loads in a thread (its first load compiles it: minutes); a hint
    asked meanwhile is worked out at once on the Python engine, and says so."""
    import asyncio
    import threading

    import sorry.tui.app as tui_app
    from sorry.tui.warmup import Warmup

    loading = threading.Event()
    monkeypatch.setattr(Warmup, "run", lambda self, started: loading.wait(60))
    engines: list[str] = []

    def estimate(game: Game, **kw: Any) -> list[MoveChance]:
        engines.append(kw["engine"])
        return [MoveChance(m, 0.5, 0.4, 0.6, 10, True) for m in game.legal_moves]

    monkeypatch.setattr(tui_app, "estimate_chances", estimate)
    app, _s = position_app("R:S,8,20,50 Y:S,S,S,30 R", card=7)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("h")
            for _ in range(200):
                await pilot.pause()
                if screen.hints is not None:
                    break
                await asyncio.sleep(0.05)
            assert engines == ["python"] and screen.hints is not None
            loading.set()
            for _ in range(200):  # the loading thread marks the compiled engine loaded
                if app.hints_loaded.is_set():
                    break
                await asyncio.sleep(0.05)
            await pilot.pause()
            screen.hints = None
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert engines == ["python", "auto"]

    asyncio.run(main())


def test_the_hint_note_says_the_compiled_engine_is_loading() -> None:
    from sorry.tui.app import hint_note

    assert hint_note(compiled=True) == "Estimating each move's chance of winning…"
    assert "still loading" in hint_note(compiled=False)
