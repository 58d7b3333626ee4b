"""The card's sentence of the rules (``sorry.howto.CARD_RULES``) on the terminal's game screen:
in the board's middle when it fits there (every card at 120x40, in every language; the short
cards at 80x24), else above the choices when the side panel has room after the hint and every
choice, else the card's few words and the key ``c``, which shows it. At 80x24 the hint keeps
its rows: the sentence gives way to it."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style
from textual.pilot import Pilot
from textual.widgets import Static

from sorry import Game, Rules, i18n
from sorry.cards import SORRY
from sorry.describe import card_help
from sorry.howto import CARD_RULES, card_rule
from sorry.i18n import _, using
from sorry.tui.app import BoardView, CardScreen, GameScreen, SorryApp
from sorry.tui.layout import CENTRE, board_scale
from sorry.tui.render import centre_with_card
from sorry.tui.warmup import Warmup
from tui_helpers import keys, position_app, run

#: Four players, a 7: three pawns, then the seven ways of the pawn on 8 (all 7 or the first
#: part of a split), which fill the side panel at 80x24.
SEVEN = "R:S,8,20,50 B:S,S,25,S Y:S,S,S,30 G:44,S,S,S R"
#: A Sorry! with three of Yellow's pawns to send back: one choice, then three.
SORRY_THREE = "R:S,S,S,S Y:10,20,30,S R"


def flat(text: str) -> str:
    return " ".join(text.split())


def centre(app: SorryApp) -> list[str]:
    """The lines of the board's middle, as drawn."""
    return [text for text, _style in app.screen.query_one(BoardView).centre]


def box(app: SorryApp, name: str) -> str:
    """A box of the side panel as shown ("" when hidden)."""
    widget = app.screen.query_one(name, Static)
    return str(widget.render()) if widget.display else ""


def test_every_card_s_sentence_fits_the_middle_at_120x40_in_every_language() -> None:
    """At 120x40 the board's middle (38 characters, 16 rows) takes each card's sentence with
    the turn's four lines above it, and two more of a points hand, in the five languages."""
    w, h = board_scale(120, 40)
    width, rows = len(CENTRE[1]) * w - 2, len(CENTRE[0]) * h
    assert (width, rows) == (38, 16)
    turn = [("Turn 12", Style()), ("Red (R) to play", Style()), ("you", Style()), ("", Style())]
    hand = [("Your hand", Style()), ("1  3  [7]  11  Sorry!", Style())]
    for lang in i18n.LANGUAGES:
        with using(lang):
            for card in CARD_RULES:
                for head in (turn, turn + hand):
                    name = _("Card: {card}").format(card=str(card))
                    lines, whole = centre_with_card(
                        head, name, card_rule(card), card_help(card), "c", width, rows
                    )
                    assert whole, (lang, card)
                    assert len(lines) <= rows and all(len(t) <= width for t, _s in lines)
                    shown = flat(" ".join(t for t, _s in lines))
                    assert flat(card_rule(card)) in shown


def test_at_120x40_the_middle_says_the_seven_s_whole_rule() -> None:
    app, _session = position_app(SEVEN, card=7)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        lines = centre(app)
        assert lines[:3] == ["Turn 1", "Red (R) to play", "you"]
        assert "Card: 7" in lines
        assert flat(card_rule(7)) in flat(" ".join(lines))
        assert card_help(7) not in lines and "c: the whole rule" not in lines
        assert box(app, "#rule") == ""  # said once

    run(app, body, size=(120, 40))


def test_at_80x24_a_short_sentence_is_in_the_middle() -> None:
    app, _session = position_app("R:S,8,20,50 Y:S,S,S,30 R", card=4)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        lines = centre(app)
        assert len(lines) <= 8 and all(len(t) <= 22 for t in lines)
        assert flat(" ".join(lines)).endswith("Card: 4 4: move a pawn 4 squares backward.")
        assert box(app, "#rule") == ""

    run(app, body, size=(80, 24))


def test_at_80x24_the_seven_s_choices_leave_its_words_and_the_key() -> None:
    """Three pawns to choose from: the 7's sentence above them. The pawn chosen, its seven
    ways to move fill the side panel: the middle says the 7's few words and the key c, which
    shows the whole sentence (Esc goes back)."""
    app, _session = position_app(SEVEN, card=7)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert flat(box(app, "#rule")) == flat(card_rule(7))
        assert centre(app)[-2:] == ["Card: 7", "7, or split it in two"]
        await keys(app, pilot, "1")  # the pawn on 8
        assert centre(app)[-3:] == ["Card: 7", "7, or split it in two", "c: the whole rule"]
        assert box(app, "#rule") == ""
        assert "7. first 6: 8 → 14" in box(app, "#options")  # every choice on screen
        await keys(app, pilot, "c")
        assert isinstance(app.screen, CardScreen)
        shown = flat(str(app.screen.query_one(Static).render()))
        assert shown.startswith(flat(card_rule(7)))
        assert shown.endswith("Esc or c: back to the game")
        await keys(app, pilot, "escape")
        assert isinstance(app.screen, GameScreen)
        assert "7. first 6: 8 → 14" in box(app, "#options")

    run(app, body, size=(80, 24))


def test_at_80x24_the_sentence_stands_above_the_choices_until_the_hint_needs_the_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Sorry!: its sentence (seven lines) does not fit the middle but fits the side panel
    above the choices, with no pointer to c in the middle; h: the hint lists its three moves
    (all the rows it has at 24 rows), the sentence gives way and the middle points to c."""
    monkeypatch.setattr(Warmup, "run", lambda self, started: None)  # no compiled engine
    app, _session = position_app(SORRY_THREE, card=SORRY)
    app.hint_engine = "python"
    app.hint_rollouts = 64
    app.hint_seconds = None

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert flat(box(app, "#rule")) == flat(card_rule(SORRY))
        assert centre(app)[-2:] == ["Card: Sorry!", "START pawn bumps one"]
        await keys(app, pilot, "enter")  # the pawn in START: then whom to send back
        assert flat(box(app, "#rule")) == flat(card_rule(SORRY))
        await keys(app, pilot, "h")
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.hint_rows() == 3
        hint = box(app, "#hint")
        for square in (10, 20, 30):
            assert f"Yellow's place on {square}" in flat(hint), hint
        assert box(app, "#rule") == ""
        assert centre(app)[-1] == "c: the whole rule"
        options = screen.query_one("#options")
        assert options.region.bottom <= 23 and options.region.y >= 4
        assert all(f"Yellow on {square}" in flat(box(app, "#options")) for square in (10, 20))
        await keys(app, pilot, "c")
        assert isinstance(app.screen, CardScreen)
        assert flat(card_rule(SORRY)) in flat(str(app.screen.query_one(Static).render()))

    run(app, body, size=(80, 24))


def test_in_the_points_variant_the_key_shows_the_hand_s_cards() -> None:
    """No card chosen yet: c shows the sentence of each card of the hand (3, 5, 8 and 12's
    once); once chosen, the middle says the chosen card."""
    rules = Rules(variant="points")
    app, _session = position_app(
        "R:S,S,10,4 Y:S,S,S,34 R", rules=rules, hands={0: [1, 3, 4, 7, 12]}
    )

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "c")
        assert isinstance(app.screen, CardScreen)
        shown = flat(str(app.screen.query_one(Static).render()))
        for card in (1, 4, 7, 12):
            assert flat(card_rule(card)) in shown
        assert shown.count(flat(card_rule(3))) == 1
        await keys(app, pilot, "escape", "1")  # the 1: the pawn on 4 or the one on 10
        assert centre(app) == [  # the blank line given up for the sentence
            "Turn 1",
            "Red (R) to play",
            "you",
            "Your hand",
            "[1]  3  4  7  12",
            "Card: 1",
            "1: move a pawn out of",
            "START, or 1 forward.",
        ]
        await keys(app, pilot, "c")
        assert flat(str(app.screen.query_one(Static).render())).startswith(flat(card_rule(1)))

    run(app, body, size=(80, 24))


def middle_and_side(screen: str, size: tuple[int, int]) -> tuple[str, str]:
    """The words of the board's middle (its 8x8 cells at the size's scale) and of the side
    panel (the columns right of the board, down to the log), from a tmux capture."""
    w, h = board_scale(*size)
    lines = screen.splitlines()[-size[1] :]
    middle = [line[4 * w : 12 * w] for line in lines[4 * h : 12 * h]]
    side = [line[16 * w + 2 :] for line in lines[: 16 * h]]
    return flat(" ".join(middle)), flat(" ".join(side))


def modal(screen: str) -> str:
    """The text inside the rounded box drawn over the game, from a tmux capture."""
    lines = screen.splitlines()
    top = max(i for i, line in enumerate(lines) if "╭" in line)
    left, right = lines[top].index("╭"), lines[top].index("╮")
    inside = []
    for line in lines[top + 1 :]:
        if "╰" in line:
            break
        inside.append(line[left + 1 : right])
    return "\n".join(inside)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_what_a_person_sees_in_tmux(size: tuple[int, int], tmp_path: Path) -> None:
    """``sorry tui --load`` of a 7 among four players, on a tmux pane. At 120x40 the sentence
    is in the board's middle. At 80x24 the middle says the 7's few words; the sentence stands
    above the three pawns to choose from; once the pawn is chosen its seven ways take the
    room and the middle points to c, which shows the sentence."""
    from sorry.tui.session import Session
    from test_install_profiles import Terminal

    game = Game.from_position(SEVEN, card=7)
    save = tmp_path / "seven.json"
    Session(seats=["human", "random", "random", "random"], game=game).save(save)
    env = dict(os.environ, HOME=str(tmp_path), TERM="xterm-256color", LANG="C.UTF-8")
    term = Terminal(tmp_path, env, size=size)
    rule = flat(card_rule(7))
    try:
        term.start(f"{shlex.quote(sys.executable)} -m sorry tui --load {save}", tmp_path)
        # the whole screen painted: the choices and the footer (a loaded machine may show
        # the one before the other)
        shown = term.wait(
            lambda s: "Red pawn on 50" in s and "q Quit" in s.splitlines()[-1], 120, "the choices"
        )
        assert "q Quit" in shown.splitlines()[-1]
        middle, side = middle_and_side(shown, size)
        assert "Card: 7" in middle and "Choose a pawn" in side
        if size == (120, 40):
            assert rule in middle and "c: the whole rule" not in middle
            assert "between two pawns" not in side
        else:
            assert "7, or split it in two" in middle and "c: the whole rule" not in middle
            assert rule in side and "between two pawns" not in middle
            term.keys("1")
            shown = term.wait(
                lambda s: "first 6: 8 → 14" in s and "c: the whole rule" in s, 30, "the pawn's ways"
            )
            middle, side = middle_and_side(shown, size)
            assert "7, or split it in two c: the whole rule" in middle
            assert "between two pawns" not in side
            term.keys("c")
            shown = term.wait(
                lambda s: "╰" in s and flat(modal(s)).endswith("back to the game"),
                30,
                "the card's rule",
            )
            assert flat(modal(shown)) == rule + " Esc or c: back to the game"
            term.keys("Escape")
            term.wait(lambda s: "back to the game" not in s.splitlines()[-1], 30, "the game")
        term.keys("q", "y")
        term.wait(lambda s: "[exit 0]" in s, 30, "the exit")
    finally:
        term.close()
