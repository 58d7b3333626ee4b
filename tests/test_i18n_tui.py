"""The terminal game speaks every language: the new-game screen (with its language setting), the
game screen, the keys in the footer, the help with its FAQ, and ``sorry --lang``/``LANG``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Input, Label, Markdown, Select, Static

from sorry import Rules, i18n
from sorry.tui.app import GameScreen, HelpScreen, NewGameScreen, SorryApp
from sorry.tui.session import Session
from tui_helpers import Body, Compare, as_terminal, run as tui_run, settle

#: Per language: the game's name, "New game", "Start", "Turn 1", "Questions and answers",
#: the footer's "Quit".
WORDS = {
    "en": ("Sorry!", "New game", "Start", "Turn 1", "Questions and answers", "Quit"),
    "ca": ("Ho sento!", "Partida nova", "Comença", "Torn 1", "Preguntes freqüents", "Surt"),
    "eo": ("Pardonu!", "Nova ludo", "Komenci", "Vico 1", "Demandoj kaj respondoj", "Ĉesi"),
    "el": ("Συγγνώμη!", "Νέο παιχνίδι", "Έναρξη", "Γύρος 1", "Ερωτήσεις και απαντήσεις", "Έξοδος"),
    "sw": ("Samahani!", "Mchezo mpya", "Anza", "Zamu 1", "Maswali na majibu", "Ondoka"),
}


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def run(app: SorryApp, body: Body, size: tuple[int, int] = (100, 40)) -> None:
    tui_run(app, body, size)


def descriptions(app: SorryApp) -> set[str]:
    return {b.description for group in app.screen._bindings.key_to_bindings.values() for b in group}


@pytest.mark.parametrize("lang", list(WORDS))
def test_new_game_screen_in_each_language(lang: str) -> None:
    name, new_game, start, _turn, _faq, quit_ = WORDS[lang]
    i18n.set_language(lang)
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        labels = [str(label.render()) for label in screen.query(Label)]
        assert new_game in labels
        assert str(screen.query_one("#start", Button).label) == start
        assert name in app.title and name in screen.title
        assert screen.query_one("#language", Select).value == lang
        assert str(screen.query_one("#quit", Button).label) == quit_

    run(app, body)


@pytest.mark.parametrize("lang", list(WORDS))
def test_game_screen_and_help_in_each_language(lang: str) -> None:
    name, _new, _start, turn, faq, quit_ = WORDS[lang]
    i18n.set_language(lang)
    # seed 4: Red starts, with a move (a turn with no move would pass by itself)
    session = Session(Rules(), players=2, seats="human,random", seed=4)
    app = SorryApp(session, speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, GameScreen)
        centre = [text for text, _style in app.screen.centre_lines()]
        assert centre[0] == turn
        status = str(app.screen.query_one("#status", Static).render())
        assert name in status
        assert quit_ in descriptions(app)
        await pilot.press("question_mark")
        await settle(app, pilot)
        assert isinstance(app.screen, HelpScreen)
        markdown = app.screen.query_one(Markdown).source
        assert name in markdown and faq in markdown
        # the `h` line says what the hint shows: words, then h again for the figures
        keys_h = next(line for line in markdown.splitlines() if line.startswith("| h |"))
        assert re.search(r"[;·] h \w", keys_h) and "95%" in keys_h, keys_h
        assert "62%" not in keys_h and "tied" not in keys_h

    run(app, body)


def test_language_setting_redraws_the_new_game_screen() -> None:
    i18n.set_language("en")
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#seed", Input).value = "77"
        screen.query_one("#seat-G", Select).value = "off"
        screen.query_one("#language", Select).value = "sw"
        await settle(app, pilot)
        assert i18n.get_language() == "sw"
        assert str(screen.query_one("#start", Button).label) == "Anza"
        assert screen.query_one("#seed", Input).value == "77"  # the settings are kept
        assert screen.query_one("#seat-G", Select).value == "off"
        assert "Samahani!" in app.title
        await pilot.click("#start")
        await settle(app, pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.screen.centre_lines()[0][0].startswith("Zamu ")

    run(app, body)


def test_sorry_tui_respects_lang_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    import sorry.tui as tui
    from sorry.cli import main

    seen: list[str] = []

    def fake_run_app(*args: Any, **kw: Any) -> int:
        seen.append(i18n.get_language())
        return 0

    monkeypatch.setattr(tui, "run_app", fake_run_app)
    as_terminal(monkeypatch)
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "eo.UTF-8")
    assert main(["tui"]) == 0
    assert main(["--lang", "el", "tui"]) == 0
    assert seen == ["eo", "el"]


@pytest.mark.parametrize("lang", ["el", "sw"])
def test_new_game_screen_snapshot(lang: str, snap_compare: Compare) -> None:
    i18n.set_language(lang)
    assert snap_compare(SorryApp(speed=0), terminal_size=(100, 40))


def test_game_screen_snapshot_catalan(snap_compare: Compare) -> None:
    i18n.set_language("ca")
    session = Session(Rules(), players=4, seats="human,random,random,random", seed=11)
    assert snap_compare(SorryApp(session, speed=0), terminal_size=(100, 32))


def footer_words(app: SorryApp) -> list[str]:
    """The descriptions the footer shows now."""
    from textual.widgets._footer import FooterKey

    return [key.description for key in app.screen.query(FooterKey)]


def test_footer_follows_the_language_setting() -> None:
    i18n.set_language("en")
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert "Start" in footer_words(app)
        for lang in ("sw", "el", "ca"):
            screen.query_one("#language", Select).value = lang
            start = WORDS[lang][2]
            for _ in range(50):  # the screen and its footer are redrawn a moment later
                await settle(app, pilot)
                if start in footer_words(app):
                    break
            assert start in footer_words(app), (lang, footer_words(app))
            assert start in descriptions(app)
            others = {WORDS[other][2] for other in WORDS if other != lang}
            assert not others & set(footer_words(app)), (lang, footer_words(app))

    run(app, body)


@pytest.mark.parametrize("lang", list(WORDS))
def test_option_rows_are_labelled_apart_from_their_values(lang: str) -> None:
    from rich.cells import cell_len

    from sorry.rules import OPTION_VALUES

    i18n.set_language(lang)
    app = SorryApp(speed=0)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        screen.query_one("#variant", Select).value = "teams"  # the most rows
        await settle(app, pilot)
        for row in screen.query(".row"):
            if not row.display or not row.query(Label) or not row.query(Select):
                continue
            label = row.query_one(Label)
            text = str(label.render())
            assert text not in OPTION_VALUES, text  # words, not --option keys
            value = row.query_one(Select)
            # The label ends at least one column before its value starts.
            assert label.region.x + cell_len(text) < value.region.x, text

    run(app, body, size=(80, 24))


@pytest.mark.parametrize("lang", list(WORDS))
def test_footers_fit_80_columns(lang: str) -> None:
    from textual.widgets import Footer

    i18n.set_language(lang)
    session = Session(Rules(), players=2, seats="human,random", seed=5)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, GameScreen)
        footer = app.screen.query_one(Footer)
        assert footer.virtual_size.width <= footer.size.width == 80, footer_words(app)
        assert WORDS[lang][5] in footer_words(app)  # Quit, at the end: shown in full
        assert i18n._("Rules") in footer_words(app)  # the rules screen's key is always shown

    run(SorryApp(session, speed=0), body, size=(80, 24))

    async def new_game(app: SorryApp, pilot: Pilot[Any]) -> None:
        footer = app.screen.query_one(Footer)
        assert footer.virtual_size.width <= footer.size.width == 80, footer_words(app)

    run(SorryApp(speed=0), new_game, size=(80, 24))


def test_option_words_are_translated_from_the_core_table() -> None:
    """The new-game screen's option labels and values come from sorry.rules.OPTIONS, in the
    player's language (a yes is a yes in Greek too)."""
    from sorry.tui.app import option_label, option_value_name

    with i18n.using("el"):
        assert option_value_name("two_draws_again", "yes") == "ναι"
        assert option_value_name("deck", "44") == "44"
        assert option_label("ten_backward") == "10: 1 πίσω"
        assert option_value_name("ten_backward", "fallback") == "αν δεν γίνεται 10 μπροστά"
