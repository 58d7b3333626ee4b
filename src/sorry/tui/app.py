"""The full-screen game (Textual): a new-game screen, the board, choices, bots, hints, undo,
save and resume, hot-seat, matches and help."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import (
    Button,
    Footer,
    Header,
    Input,
    Label,
    Markdown,
    OptionList,
    RichLog,
    Select,
    Static,
)
from textual.widgets.option_list import Option as ListOption

from ..board import COLOUR_LETTERS, COLOURS, TRACK_LEN, colour_name, colour_names
from ..bots.rollouts import compiled_available
from ..describe import where_words
from ..effects import Effect, net_moves
from ..errors import SorryError
from ..features import compiled_engine
from ..hintwords import AS_GOOD, BEST, NOT_AS_GOOD, hint_words
from ..howto import CARD_RULES, card_rule, markdown as rules_markdown
from ..i18n import LANGUAGES, N_, _, get_language, ngettext, set_language
from ..match import numbered_path
from ..moves import Move
from ..rulebook import declines
from ..rules import FORM_OPTIONS, OPTION_TABLE, VARIANTS, Rules
from .ahead import AheadAnalysis
from .analysis_view import AnalysisPanel
from .anim import frames
from .choice import Chooser, Token
from .describe import card_help, card_words, describe_move, is_forced_pass, pass_words
from .help import help_text
from .layout import CENTRE, GRID, MIN_SIZE, board_scale, places_at
from .pace import SPEED_ORDER, SPEEDS, Pace
from .players import (
    MoveChance,
    bot_levels,
    default_level,
    estimate_chances,
    level_name,
    level_strength,
)
from .render import Marks, board_text, cell_at, centre_with_card, colour_style
from .session import LogEntry, Session
from .settings import DEFAULT_SPEED, HUMAN, OFF, Settings, choosable, save_settings
from .warmup import PARTS, Warmup, missing_note


def changed_places(effects: Sequence[Effect]) -> list[tuple[int, int]]:
    """Where a move's pawns came to rest (a bumped pawn's START included), as marks."""
    return [(-1, to) if to < TRACK_LEN else (c, to) for c, _src, to in net_moves(effects)]


def _name(colour: int) -> Text:
    return Text(f"{colour_name(colour)} ({COLOUR_LETTERS[colour]})", style=colour_style(colour))


#: Textual's own command palette key, as its footer shows it (translated with the others).
TEXTUAL_MESSAGES = (N_("palette"), N_("Open the command palette"))


#: The game screen's actions that choose a move: not while the board cannot be seen.
BLIND_ACTIONS = frozenset({"cursor", "choose", "number", "pass", "move_list", "back"})

#: Actions left out of a footer too narrow for every key, first to last (``?`` lists them all).
FOOTER_SPARE = ("choose", "move_list", "new_game", "save")

#: Each screen's (and the app's) key bindings as written, in English: translated afresh at each
#: change of language.
_ENGLISH: weakref.WeakKeyDictionary[object, dict[str, list[Binding]]] = weakref.WeakKeyDictionary()


def translate_bindings(node: Screen[Any] | App[Any], width: int | None = None) -> None:
    """Show ``node``'s key bindings (their ``N_``-marked descriptions and tooltips) in the
    current language. With ``width`` (the footer's), the bindings of :data:`FOOTER_SPARE` leave
    the footer, in that order, until the others fit."""
    bindings = node._bindings
    english = _ENGLISH.setdefault(
        node, {key: list(group) for key, group in bindings.key_to_bindings.items()}
    )
    shown = {
        key: [
            replace(b, description=_(b.description), tooltip=_(b.tooltip) if b.tooltip else "")
            if b.description
            else b
            for b in group
        ]
        for key, group in english.items()
    }
    if width is not None:
        app = node if isinstance(node, App) else node.app
        for action in FOOTER_SPARE:
            if _footer_width(app, shown) <= width:
                break
            shown = {
                key: [replace(b, show=False) if b.action == action else b for b in group]
                for key, group in shown.items()
            }
    bindings.key_to_bindings = shown
    node.refresh_bindings()


def _footer_width(app: App[Any], bindings: dict[str, list[Binding]]) -> int:
    """The columns Textual's footer takes for ``bindings`` (one key per action)."""
    first: dict[str, Binding] = {}
    for group in bindings.values():
        for b in group:
            if b.show and b.action not in first:
                first[b.action] = b
    return sum(cell_len(app.get_key_display(b) + b.description) + 3 for b in first.values())


class BoardView(Widget):
    """The board at ``scale`` characters a cell (set by the game screen from the terminal's
    size: 3x1 at 80x24, larger when there is room)."""

    DEFAULT_CSS = """
    BoardView { height: auto; width: 1fr; }
    """

    class Clicked(Message):
        def __init__(self, cell: tuple[int, int]) -> None:
            super().__init__()
            self.cell = cell

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.pawns: list[list[int]] = [[] for _ in COLOURS]
        self.colours: tuple[int, ...] = ()
        self.marks: Marks = {}
        self.centre: list[tuple[str, Style]] = []
        self.scale = (3, 1)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return GRID * self.scale[1]

    def show(
        self,
        pawns: Sequence[Sequence[int]],
        colours: tuple[int, ...],
        marks: Marks,
        centre: list[tuple[str, Style]],
    ) -> None:
        self.pawns = [list(p) for p in pawns]
        self.colours = colours
        self.marks = marks
        self.centre = centre
        self.refresh(layout=True)

    def render(self) -> Text:
        w, h = self.scale
        return board_text(self.pawns, self.colours, w, h, self.marks, self.centre)

    def on_click(self, event: events.Click) -> None:
        w, h = self.scale
        cell = cell_at(event.x, event.y, w, h)
        if cell is not None:
            self.post_message(self.Clicked(cell))


class GameLog(RichLog):
    """The game log: its entries are kept, so that they wrap again when the width changes."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(wrap=True, max_lines=1000, min_width=16, **kw)
        self.can_focus = False
        self.entries: list[Text] = []
        self.wrapped_at = 0

    def add(self, entry: Text) -> None:
        self.entries.append(entry)
        self.entries = self.entries[-1000:]
        self.write(entry)

    def reset(self) -> None:
        self.entries = []
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if width != self.wrapped_at and self.entries and self._size_known:
            self.clear()
            for entry in self.entries:
                self.write(entry)
        self.wrapped_at = width


class OptionsView(Static):
    """The numbered choices; a click takes the choice on that line."""

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.rows: list[int] = []  # the choice shown on each line

    def on_click(self, event: events.Click) -> None:
        if 0 <= event.y < len(self.rows):
            self.post_message(self.Clicked(self.rows[event.y]))


# -- small screens -------------------------------------------------------------------------------
class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", N_("Close")),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; height: 90%; border: round $accent;
        background: $surface; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(help_text())

    def on_mount(self) -> None:
        translate_bindings(self)

    def action_close(self) -> None:
        self.dismiss(None)


class RulesScreen(HelpScreen):
    """The rules for players (:mod:`sorry.howto`: the words of docs/rules.md's "How to
    play", the browser's rules page) in the current language."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,r,f2", "close", N_("Close")),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            title = _("Rules of the game")  # the browser's rules page's title
            yield Markdown(f"# {title}\n\n{rules_markdown()}")

    def on_mount(self) -> None:
        translate_bindings(self)
        self.query_one(VerticalScroll).focus()  # the arrow keys and PgUp/PgDn scroll it


class CardScreen(ModalScreen[None]):
    """The whole rule of each card asked for, in its sentence of the rules (a card's sentence
    once: 3, 5, 8 and 12 share one)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,c,q,enter,space", "close", N_("Close")),
    ]
    DEFAULT_CSS = """
    CardScreen { align: center middle; }
    CardScreen > Static { width: 60; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; padding: 0 1; background: $surface; }
    """

    def __init__(self, cards: Sequence[int]) -> None:
        super().__init__()
        self.rules = list(dict.fromkeys(card_rule(card) for card in cards))

    def compose(self) -> ComposeResult:
        text = Text("\n\n".join(self.rules))
        text.append("\n\n" + _("Esc or c: back to the game"), style="dim")
        yield Static(text)

    def on_mount(self) -> None:
        translate_bindings(self)

    def on_click(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class PassScreen(ModalScreen[bool]):
    """Hot-seat with hidden hands: the next person takes the keyboard before seeing theirs."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "ready", N_("Ready"))]
    DEFAULT_CSS = """
    PassScreen { align: center middle; background: $background 100%; }
    PassScreen > Static { width: 50; height: auto; border: heavy $accent; padding: 1 2;
        text-align: center; }
    """

    def __init__(self, colour: int, who: str) -> None:
        super().__init__()
        self.colour = colour
        self.who = who

    def compose(self) -> ComposeResult:
        text = Text.assemble(
            _("Pass the keyboard to") + "\n\n",
            _name(self.colour),
            f"  {self.who}\n\n",
            _("Everyone else, look away: your hand is about to be shown.") + "\n\n",
            (_("Press Enter when ready"), "bold"),
        )
        yield Static(text)

    def on_mount(self) -> None:
        translate_bindings(self)

    def action_ready(self) -> None:
        self.dismiss(True)


class ConfirmScreen(ModalScreen[str]):
    """A yes/no question; with ``can_save``, ``s`` answers "save first" (``save``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer('yes')", N_("Yes")),
        Binding("n,escape", "answer('no')", N_("No")),
        Binding("s", "answer('save')", N_("Save first")),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Static { width: 50; height: auto; border: round $warning; padding: 1 2;
        background: $surface; text-align: center; }
    """

    def __init__(self, question: str, can_save: bool = False) -> None:
        super().__init__()
        self.question = question
        self.can_save = can_save

    def compose(self) -> ComposeResult:
        keys = _("y: yes   n: no   s: save first") if self.can_save else _("y: yes   n: no")
        yield Static(Text.assemble(self.question, "\n\n", (keys, "bold")))

    def on_mount(self) -> None:
        translate_bindings(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_save or parameters != ("save",)

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


class SaveScreen(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]
    DEFAULT_CSS = """
    SaveScreen { align: center middle; }
    SaveScreen > Vertical { width: 60; height: auto; border: round $accent; padding: 1 2;
        background: $surface; }
    """

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(_("Save the game to (Enter saves, Esc cancels):"))
            yield Input(self.path, id="path")

    def on_mount(self) -> None:
        translate_bindings(self)

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class MoveListScreen(ModalScreen[Move | None]):
    """Every legal move, numbered: the fallback way to choose."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,m", "cancel", N_("Close"))]
    DEFAULT_CSS = """
    MoveListScreen { align: center middle; }
    MoveListScreen > Vertical { width: 90%; height: 80%; border: round $accent;
        background: $surface; }
    """

    def __init__(self, items: list[tuple[str, str, Move]]) -> None:
        """``items``: each move's words, where its pawns go (as the person sees the board: a
        line under the words, or ""), and the move."""
        super().__init__()
        self.items = items

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(_("Every legal move (Enter or its number plays it, Esc closes):"))
            yield OptionList(
                *[
                    ListOption(self.line(i, text, where))
                    for i, (text, where, _m) in enumerate(self.items)
                ],
                id="moves",
            )

    @staticmethod
    def line(i: int, text: str, where: str) -> Text:
        out = Text(f"{i + 1:>2}. {text}")
        if where:
            out.append(f"\n    {where}", style="dim")
        return out

    def on_mount(self) -> None:
        translate_bindings(self)

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdigit():
            n = int(event.character)
            if 1 <= n <= len(self.items) and len(self.items) < 10:
                event.stop()
                self.dismiss(self.items[n - 1][2])

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.items[event.option_index][2])

    def action_cancel(self) -> None:
        self.dismiss(None)


class GameOverScreen(ModalScreen[str]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "next", N_("Next game / new game")),
        Binding("n", "new", N_("New game")),
        Binding("q", "quit", N_("Quit")),
        Binding("escape", "board", N_("Look at the board")),
    ]
    #: Seconds after the screen shows in which Enter does nothing: a person choosing moves with
    #: Enter who presses it once more as the game ends sees the result and the analysis instead
    #: of going straight on to the next game. n, q and Esc act at once.
    ENTER_GRACE: ClassVar[float] = 1.0
    # The result and the analysis in one frame, the analysis inside it (never below it, cut
    # off by the terminal's edge): 76 columns, and at 24 rows the chart is 4 lines high.
    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen > Vertical { width: auto; height: auto; max-height: 100%;
        border: double $accent; background: $surface; padding: 0 1; }
    GameOverScreen #result { width: 72; height: auto; background: $surface; }
    """

    def __init__(
        self,
        lines: list[str],
        match_over: bool,
        extra: Widget | None = None,
        turns: int | None = None,
    ) -> None:
        super().__init__()
        self.lines = lines
        self.match_over = match_over
        self.extra = extra  # the after-game analysis (sorry.tui.analysis_view)
        self.turns = turns  # the turns played, as the game record counts them
        self.shown_at = time.monotonic()  # when it was mounted: see ENTER_GRACE

    def compose(self) -> ComposeResult:
        text = Text()
        head = _("Game over")
        if self.turns is not None:
            after = ngettext("after {n} turn", "after {n} turns", self.turns)
            head = _("{first} · {second}").format(first=head, second=after.format(n=self.turns))
        text.append(head + "\n", style="bold")
        for line in self.lines:
            text.append(line + "\n")
        if self.match_over:
            text.append(_("Enter or n: a new game · Esc: look at the board · q: quit"), "italic")
        else:
            text.append(
                _("Enter: next game of the match · n: new game · Esc: the board · q: quit"),
                "italic",
            )
        with Vertical(id="over"):
            yield Static(text, id="result")
            if self.extra is not None:
                yield self.extra

    def on_mount(self) -> None:
        self.shown_at = time.monotonic()
        translate_bindings(self)

    def action_next(self) -> None:
        if time.monotonic() - self.shown_at < self.ENTER_GRACE:
            return  # an Enter meant for the last move, not for the next game
        self.dismiss("new" if self.match_over else "next")

    def action_new(self) -> None:
        self.dismiss("new")

    def action_quit(self) -> None:
        self.dismiss("quit")

    def action_board(self) -> None:
        self.dismiss("board")


# -- the game ------------------------------------------------------------------------------------
class GameScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,up", "cursor(-1)", N_("Prev"), show=False),
        Binding("right,down", "cursor(1)", N_("Next"), show=False),
        Binding("tab", "cursor(1)", N_("Next"), show=False, priority=True),
        Binding("shift+tab", "cursor(-1)", N_("Prev"), show=False, priority=True),
        Binding("enter,space", "choose", N_("Choose")),
        Binding("escape,backspace", "back", N_("Back"), show=False),
        *[Binding(str(n), f"number({n})", str(n), show=False) for n in range(1, 10)],
        Binding("p", "pass", N_("Pass"), show=False),
        Binding("m", "move_list", N_("Moves")),
        Binding("h", "hint", N_("Hint")),
        Binding("u", "undo", N_("Undo")),
        Binding("x", "resign", N_("Resign"), show=False),
        Binding("c", "card", N_("Card"), show=False),
        Binding("s", "save", N_("Save")),
        Binding("plus,equals_sign", "speed(1)", N_("Faster"), show=False),
        Binding("minus,underscore", "speed(-1)", N_("Slower"), show=False),
        Binding("r,f2", "rules", N_("Rules")),
        Binding("question_mark,f1", "help", N_("Help")),
        Binding("n", "new_game", N_("New")),
        Binding("q", "quit", N_("Quit")),
    ]
    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    #table { height: 1fr; }
    #left { width: 48; height: 1fr; }
    #said { height: auto; max-height: 3; text-style: bold; }
    #log { height: 1fr; min-height: 2; border-top: solid $primary-darken-2;
        scrollbar-size-vertical: 1; }
    #side { width: 1fr; height: 1fr; border-left: solid $primary-darken-2; padding: 0 0 0 1; }
    #too-small { height: 1fr; content-align: center middle; text-align: center;
        display: none; }
    #status { height: auto; }
    #hand { height: auto; }
    #rule { height: auto; }
    #prompt { height: auto; color: $accent; text-style: bold; }
    #hint { height: auto; }
    #options { height: 1fr; }
    """

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.chooser: Chooser | None = None
        self.cursor = 0
        self.revealed: int | None = None
        self.frame: tuple[list[list[int]], tuple[int, int] | None] | None = None
        self.last: list[tuple[int, int]] = []
        self.hints: dict[Move, float] | None = None
        self.chances: list[MoveChance] = []  # the hint's moves, best first
        self.hinting: str | None = None  # the position whose hint is being worked out
        self.hint_queued = False  # `h` pressed meanwhile at another position
        self.hint_rough = False  # the hint on screen came from the Python engine's playouts
        self.hint_shown = ""  # the decision whose hint is on screen (_hint_key)
        self.hint_details = False  # the figures beside the words (h again), kept for the game
        self.thinking: int | None = None  # the bot whose move is being worked out
        self.note = ""
        self.said = Text()  # the last move in words, under the board
        self.rule_in_centre = False  # the card's sentence of the rules is in the board's middle
        self.rule_beside = False  # or above the choices
        self.logged = 0

    @property
    def sorry_app(self) -> SorryApp:
        app = self.app
        assert isinstance(app, SorryApp)
        return app

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")
        with Horizontal(id="table"):
            with Vertical(id="left"):
                yield BoardView(id="board")
                yield Static(id="said")
                yield GameLog(id="log")
            with Vertical(id="side"):
                yield Static(id="status")
                yield Static(id="hand")
                yield Static(id="rule")
                yield Static(id="prompt")
                yield Static(id="hint")
                yield OptionsView(id="options")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.title = _("Sorry!")
        self.fit(self.app.size)
        self.rebuild_log()
        self.set_interval(1.0, self._tick)
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size)

    def fit(self, size: Size) -> None:
        """Lay the screen out for a terminal of ``size``: the board as large as fits, the side
        panel the rest of the width; below :data:`MIN_SIZE`, a note instead of a garbled board."""
        translate_bindings(self, size.width)
        small = size.width < MIN_SIZE[0] or size.height < MIN_SIZE[1]
        note = self.query_one("#too-small", Static)
        note.display = small
        self.query_one("#table").display = not small
        if small:
            self.refresh_bindings()
            need = f"{MIN_SIZE[0]}×{MIN_SIZE[1]}"
            note.update(
                _("The terminal is too small ({need} needed; it is {size} now).").format(
                    need=need, size=f"{size.width}×{size.height}"
                )
            )
            return
        board = self.query_one(BoardView)
        board.scale = board_scale(size.width, size.height)
        self.query_one("#left").styles.width = GRID * board.scale[0]
        self.refresh_board()  # the middle's lines too: how much of the card's rule fits
        self.refresh_bindings()
        self.call_after_refresh(self.refresh_side)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No choosing blind while the terminal is too small to show the board."""
        if action in BLIND_ACTIONS and self.is_mounted:
            return bool(self.query_one("#table").display)
        return True

    # -- the flow of play ---------------------------------------------------------------------
    def advance(self, move: Move | None = None) -> None:
        self.run_worker(self._advance(move), exclusive=True, group="play")

    async def _advance(self, move: Move | None) -> None:
        s = self.session
        if move is not None:
            await self._animate_and_play(move)
        while True:
            s.draw_cards()
            if s.game.is_over():
                self.refresh_all()
                self.finish()
                return
            c = s.game.to_move
            pace = SPEEDS[self.sorry_app.speed]
            if s.seats[c].human and is_forced_pass(s.game):
                await self._forced_pass(pace)
                continue
            if s.seats[c].human:
                self.start_human_turn()
                return
            self.chooser = None
            self.thinking = c
            self.note = self.thinking_note()
            self.refresh_all()
            if pace.think:
                await self.hold(pace.think)
                bot_move = await asyncio.to_thread(s.bot_move)
            else:
                bot_move = s.bot_move()
            self.thinking = None
            await self._animate_and_play(bot_move)
            if pace.read:  # the bot's move, said under the board, before play goes on
                await self.hold(pace.read)

    async def hold(self, seconds: float) -> None:
        """Let the table be looked at for ``seconds`` (a bot's pause, its move said, a turn
        that passes)."""
        await asyncio.sleep(seconds)

    async def _forced_pass(self, pace: Pace) -> None:
        """A person's turn with no legal move: said (``No move with the 5: your turn passes.``)
        long enough to read, then passed with no key to press."""
        g = self.session.game
        self.chooser = None
        self.hints = None
        self.chances = []
        self.note = pass_words(g, person=True)
        self.refresh_all()
        if pace.passing:
            await self.hold(pace.passing)
        await self._animate_and_play(g.legal_moves[0])

    def thinking_note(self) -> str:
        """``Yellow is thinking…``, and while numba compiles the search the bot waits for,
        what it compiles and for how long so far."""
        c = self.thinking
        if c is None:
            return self.note
        note = _("{player} is thinking…").format(player=colour_name(c))
        waiting = self.sorry_app.warmup.waiting_words()
        if waiting and self.sorry_app.warmup.compiling == "rollouts":
            note += " " + _("(it waits: {what})").format(what=waiting)
        return note

    def _tick(self) -> None:
        """Every second while numba compiles: the seconds so far in the note."""
        if self.thinking is not None and self.sorry_app.warmup.compiling is not None:
            self.note = self.thinking_note()
            self.refresh_side()

    async def _animate_and_play(self, move: Move) -> None:
        s = self.session
        step = SPEEDS[self.sorry_app.speed].step
        shown = frames(s.game.state, move)
        if step and shown:
            for frame in shown[:-1]:
                self.frame = (frame.pawns, frame.focus)
                self.refresh_board()
                await asyncio.sleep(step)
            self.frame = (shown[-1].pawns, shown[-1].focus)
            self.refresh_board()
            await asyncio.sleep(step * 2)
        self.frame = None
        effects = s.game.effects(move)
        entry = s.play(move)
        self.sorry_app.analyse_ahead(s)
        self.said = self.said_text(entry)
        self.last = changed_places(effects)
        self.hints = None
        self.chances = []
        self.note = ""
        self.write_log()

    def start_human_turn(self) -> None:
        s = self.session
        c = s.game.to_move
        self.hints = None
        self.chances = []
        if s.rules.points and len(s.humans) > 1 and self.revealed != c:
            self.revealed = None
            self.chooser = None
            self.note = _("{player} to play").format(player=colour_name(c))
            self.refresh_all()

            def ready(_ok: bool | None) -> None:
                self.revealed = c
                self.start_human_turn()

            self.app.push_screen(PassScreen(c, s.seat_name(c)), ready)
            return
        self.chooser = Chooser(s.game)
        self.cursor = 0
        self.note = ""
        if self.sorry_app.auto_hint:
            self.action_hint()
        self.refresh_all()

    def finish(self) -> None:
        s = self.session
        s.finish()
        path = self.sorry_app.save_at_end
        m = s.match
        if path and (m.games != 1 or m.target is not None):  # a match: every game kept
            path = numbered_path(path, m.games_played)
        if path:
            try:
                s.save(path)
            except SorryError as exc:
                self.notify(str(exc), severity="error")
        self.chooser = None
        self.refresh_all()
        # The last move in the log and on the board before the result covers them (a screen
        # under another is not repainted).
        self.query_one("#log", GameLog).scroll_end(animate=False, immediate=True)
        seats = [s.seats[c].spec() for c in s.colours]
        panel = AnalysisPanel.of_game(s.game, seats, ahead=self.sorry_app.ahead.take(s.game))
        over = GameOverScreen(s.result_lines(), s.match_over(), panel, s.game.turn)
        self.call_after_refresh(self.app.push_screen, over, self._after_game)

    def _after_game(self, choice: str | None) -> None:
        if choice == "next":
            self.session.next_game()
            self.last = []
            self.revealed = None
            self.rebuild_log()
            self.advance()
        elif choice == "new":
            self.action_new_game()
        elif choice == "quit":
            self.app.exit(0)
        else:
            self.note = _("Game over: Enter shows the result again")
            self.refresh_all()

    # -- choosing -----------------------------------------------------------------------------
    def _options(self) -> list[Token]:
        return self.chooser.options() if self.chooser is not None else []

    def take(self, token: Token) -> None:
        assert self.chooser is not None
        move = self.chooser.choose(token)
        self.cursor = 0
        if move is None:
            self.refresh_all()
            return
        self.chooser = None
        self.advance(move)

    def play_move(self, move: Move) -> None:
        if self.chooser is None:
            return
        self.chooser = None
        self.advance(move)

    def action_cursor(self, delta: int) -> None:
        opts = self._options()
        if opts:
            self.cursor = (self.cursor + delta) % len(opts)
            self.refresh_all()

    def action_choose(self) -> None:
        if self.session.game.is_over() and self.chooser is None:
            self.finish()
            return
        opts = self._options()
        if opts:
            self.take(opts[min(self.cursor, len(opts) - 1)])

    def action_number(self, n: int) -> None:
        opts = self._options()
        if 1 <= n <= len(opts):
            self.take(opts[n - 1])

    def action_back(self) -> None:
        if self.chooser is not None and self.chooser.back():
            self.cursor = 0
            self.refresh_all()

    def action_pass(self) -> None:
        for tok in self._options():
            if tok.kind == "pass":
                self.take(tok)
                return
        if self.chooser is not None:
            self.notify(_("You cannot pass: a card that can be used must be used."))

    @on(BoardView.Clicked)
    def _clicked(self, event: BoardView.Clicked) -> None:
        opts = self._options()
        places = places_at(event.cell)
        hits = [i for i, t in enumerate(opts) if t.place is not None and t.place in places]
        if not hits:
            return
        if self.cursor in hits or len(hits) == 1:
            self.take(opts[self.cursor if self.cursor in hits else hits[0]])
        else:
            self.cursor = hits[0]
            self.refresh_all()

    def action_move_list(self) -> None:
        if self.chooser is None:
            return
        s = self.session
        card = s.game.card
        items = []
        for opt in Chooser(s.game).all:
            if opt.move is not opt.legal:
                continue
            text = describe_move(s.game.state, opt.move, card, declines(card, s.game.legal_moves))
            if opt.move.card is not None and s.rules.points:
                text = _("{card}: {move}").format(card=card_words(opt.move.card), move=text)
            chance = next((c for c in self.chances if c.move == opt.legal), None)
            if self.hints and chance is not None and len(self.chances) > 1:
                text += "   " + chance_words(chance, self.chances, self.hint_details)
            humans = s.humans
            where = where_words(
                opt.move, s.game.effects(opt.move), humans[0] if len(humans) == 1 else None
            )
            items.append((text, where, opt.move))

        def chosen(move: Move | None) -> None:
            if move is not None:
                self.play_move(move)

        self.app.push_screen(MoveListScreen(items), chosen)

    # -- hints, undo, save, speed -------------------------------------------------------------
    def _hint_key(self) -> str:
        """The decision a hint is for (a position can come back after an undo)."""
        g = self.session.game
        return f"{len(g.history)} {g.position_string()}"

    def action_hint(self) -> None:
        """Estimate each move's chance (in a thread). Pressed while an earlier hint is still
        being worked out for another decision, this one follows it."""
        s = self.session
        if self.chooser is None:
            return
        key = self._hint_key()
        app = self.sorry_app
        if self.hints and self.hint_shown == key:  # h again: the figures, or the words alone
            self.hint_details = not self.hint_details
            self.refresh_all()
            return
        # The compiled engine loads in a thread when the app starts (the first time it is
        # compiled: minutes); meanwhile hints are worked out on the Python engine.
        compiled = app.hints_loaded.is_set()
        if self.hinting is not None:
            if self.hinting != key:
                self.hint_queued = True
                self.note = hint_note(compiled)
                self.refresh_all()
            return
        self.hinting = key
        self.hint_queued = False
        self.note = hint_note(compiled)
        game = s.game.copy(stack=False)
        seed = 0  # the browser's hint of the same position: the same numbers
        engine = app.hint_engine if compiled or app.hint_engine == "random" else "python"
        # Python playouts stand in for the compiled engine (missing, or still loading): rough
        rough = app.hint_engine != "python" and (engine == "python" or not compiled_available())

        def work() -> None:
            est = estimate_chances(
                game,
                rollouts=app.hint_rollouts,
                seconds=app.hint_seconds,
                seed=seed,
                engine=engine,
            )
            self.app.call_from_thread(self._hints_ready, key, est, rough)

        self.run_worker(work, thread=True, group="hint", exclusive=True)
        self.refresh_all()

    def _hints_ready(self, key: str, chances: list[MoveChance], rough: bool = False) -> None:
        self.hinting = None
        if self.chooser is None or self._hint_key() != key:
            if self.hint_queued:  # asked for meanwhile: now for the decision on screen
                self.action_hint()
            return
        self.hint_queued = False
        self.hints = {c.move: c.win for c in chances}
        self.chances = list(chances)
        self.hint_rough = rough
        self.hint_shown = key
        self.note = ""
        self.refresh_all()

    def move_words(self, move: Move) -> str:
        """A legal move of the decision on screen in words (as the move list says it)."""
        g = self.session.game
        card = g.card
        text = describe_move(g.state, move, card, declines(card, g.legal_moves))
        if move.card is not None and g.rules.points:
            text = _("{card}: {move}").format(card=card_words(move.card), move=text)
        return text

    def hint_rows(self) -> int:
        """How many of the hint's moves the side panel lists: 3 at 24 rows, up to 8."""
        return max(2, min(8, (self.size.height - 15) // 3))

    def action_undo(self) -> None:
        s = self.session
        if len(s.humans) != 1:
            self.notify(_("Undo is only for games with one person."), severity="warning")
            return
        if not s.can_undo():
            self.notify(_("Nothing of yours to undo."), severity="warning")
            return
        self.workers.cancel_group(self, "play")
        self.frame = None
        s.undo()
        self.last = []
        self.rebuild_log()
        self.note = _("Your last move was taken back.")
        self.start_human_turn()

    def action_resign(self) -> None:
        """Resign, once confirmed (docs/rules.md, Resigning): the game ends, or in a game of
        three or four the person's pawns leave the board and the bots play on."""
        s = self.session
        colour = s.resigner()
        if colour is None:
            self.notify(_("Nobody can resign now."), severity="warning")
            return
        if len(s.game.colours) > 2 and not s.rules.teams:
            question = _(
                "Resign? You are out, ranked last; your pawns leave the board and the "
                "others play on."
            )
        else:
            question = _("Resign? The game ends and the other side wins.")

        def answered(answer: str | None) -> None:
            if answer != "yes" or s.resigner() != colour:
                return
            self.workers.cancel_group(self, "play")
            self.frame = None
            self.chooser = None
            entry = s.resign(colour)
            self.said = self.said_text(entry)
            self.last = []
            self.hints = None
            self.chances = []
            self.note = ""
            self.write_log()
            self.advance()

        self.app.push_screen(ConfirmScreen(question), answered)

    def action_save(self, then: Callable[[], None] | None = None) -> None:
        """Ask for a file and save the game to it; then (once saved) ``then``."""
        app = self.sorry_app

        def save(path: str | None) -> None:
            if not path:
                return
            mine = app.saved_files.get(os.path.abspath(path))
            if os.path.exists(path) and mine is not self.session:
                # another game's file (or one this game did not write): ask first
                question = _("{file} exists (another game?): replace it?").format(file=path)

                def answered(answer: str | None) -> None:
                    if answer == "yes":
                        write(path)

                self.app.push_screen(ConfirmScreen(question), answered)
                return
            write(path)

        def write(path: str) -> None:
            try:
                self.session.save(path)
            except SorryError as exc:
                self.notify(str(exc), severity="error")
                return
            app.save_path = path
            app.saved_files[os.path.abspath(path)] = self.session
            saved = _("Saved to {file} (resume: sorry tui --load {file})").format(file=path)
            app.farewell = saved
            self.notify(saved)
            if then is not None:
                then()

        self.app.push_screen(SaveScreen(app.save_path), save)

    def action_speed(self, delta: int) -> None:
        """One step faster (``+``) or slower (``-``), stopping at the slowest (1) and at
        instant (0), the fastest."""
        app = self.sorry_app
        i = SPEED_ORDER.index(app.speed) + delta
        app.speed = SPEED_ORDER[max(0, min(len(SPEED_ORDER) - 1, i))]
        self.notify(_("Animation speed {speed}").format(speed=speed_name(app.speed)))
        self.refresh_all()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen())

    def action_card(self) -> None:
        """The whole rule of the card in play; in the points variant of the card chosen, else
        of each card of the hand shown; with no card, of every card."""
        g = self.session.game
        cards: list[int] = []
        if g.rules.points:
            chosen = self.chosen_card()
            v = self.viewer()
            if chosen is not None:
                cards = [chosen]
            elif v is not None:
                cards = sorted(g.hands[v])
        elif g.card is not None and not g.is_over():
            cards = [g.card]
        self.app.push_screen(CardScreen(cards or list(CARD_RULES)))

    def _confirm(self, question: str, then: Callable[[], None]) -> None:
        """Ask before leaving a game people are playing (unsaved moves would be lost): yes,
        no, or save first (then leave once saved)."""
        s = self.session
        if s.game.is_over() or not s.humans or not s.game.move_stack:
            then()
            return

        def answered(answer: str | None) -> None:
            if answer == "yes":
                then()
            elif answer == "save":
                self.action_save(then)

        self.app.push_screen(ConfirmScreen(question, can_save=True), answered)

    def action_new_game(self) -> None:
        def leave() -> None:
            self.workers.cancel_group(self, "play")
            app = self.sorry_app
            app.settings = Settings.of_session(self.session, app.speed)
            app.switch_screen(NewGameScreen())

        self._confirm(_("Leave this game for a new one?"), leave)

    def action_quit(self) -> None:
        self._confirm(_("Quit the game?"), lambda: self.app.exit(0))

    # -- drawing ------------------------------------------------------------------------------
    def viewer(self) -> int | None:
        """Whose hand may be shown: the only person's, or in hot-seat the one at the keys."""
        humans = self.session.humans
        if len(humans) == 1:
            return humans[0]
        if len(humans) > 1:
            return self.revealed
        return None

    def refresh_all(self) -> None:
        if not self.is_mounted:
            return
        self.refresh_board()
        said = self.query_one("#said", Static)
        said.update(self.said)
        said.display = bool(self.said.plain)
        self.refresh_side()

    def said_text(self, entry: LogEntry, where: bool = True) -> Text:
        """A move in words, its mover's letter first in their colour: the log's line, and
        with ``where`` (the line under the board) where its pawns went, as the person sees
        the board: ``Yellow draws 5: 20 → 25 (2 squares before your START)``."""
        line = Text()
        line.append(f"{COLOUR_LETTERS[entry.colour]} ", style=colour_style(entry.colour))
        line.append(Session.entry_text(entry, self.session.rules, where))
        return line

    def _token_hint(self, token: Token) -> float | None:
        """The best chance of winning among the moves a choice leads to (None: no hint)."""
        if not self.hints or self.chooser is None:
            return None
        hints = self.hints
        vals = [hints[o.legal] for o in self.chooser.options_from(token) if o.legal in hints]
        return max(vals) if vals else None

    def _token_tag(self, token: Token) -> tuple[str, str] | None:
        """What a choice shows of the hint: with the details its best move's chance
        (``62%``), else whether it leads to the best move or one as good (their tag, as the
        hint's list says it); None for a choice that leads only to moves not as good."""
        if not self.hints or self.chooser is None or len(self.chances) < 2:
            return None
        if self.hint_details:
            win = self._token_hint(token)
            return None if win is None else (f"{win:>4.0%}", "bold green")
        words = hint_words(self.chances)
        leads = {o.legal for o in self.chooser.options_from(token)}
        for k, c in enumerate(self.chances):
            if c.move in leads and words.kinds[k] != NOT_AS_GOOD:
                return words.tags[k], "bold green" if words.kinds[k] == BEST else "green"
        return None

    def refresh_board(self) -> None:
        s = self.session
        g = s.game
        marks: dict[tuple[int, int], tuple[str, str]] = {}
        if self.frame is not None:
            pawns, focus = self.frame
            if focus is not None:
                marks[focus] = ("focus", "")
        elif self.chooser is not None:
            pawns = self.chooser.preview()
            opts = self._options()
            for place in self.last:
                marks[place] = ("last", "")
            for i, tok in enumerate(opts):
                if tok.place is not None and marks.get(tok.place, ("last",))[0] == "last":
                    marks[tok.place] = ("option", str(i + 1) if i < 9 else "")
            if opts:
                cur = opts[min(self.cursor, len(opts) - 1)]
                n = len(self.chooser.chosen)
                for o in self.chooser.options_from(cur):
                    if len(o.path) > n + 1:
                        nxt = o.path[n + 1].place
                        if nxt is not None and marks.get(nxt, ("last",))[0] == "last":
                            marks[nxt] = ("preview", "")
                if cur.place is not None:
                    marks[cur.place] = ("cursor", marks.get(cur.place, ("", ""))[1])
            for tok in self.chooser.chosen:
                if tok.place is not None:
                    marks[tok.place] = ("focus", "")
        else:
            pawns = [p[:] for p in g.pawns]
            for place in self.last:
                marks[place] = ("last", "")
        self.query_one(BoardView).show(pawns, g.colours, marks, self.centre_lines())

    def chosen_card(self) -> int | None:
        """The card chosen from the hand for this move (points variant), if any yet."""
        if self.chooser is None:
            return None
        for tok in self.chooser.chosen:
            if tok.kind in ("card", "discard"):
                return tok.value
        return None

    @staticmethod
    def hand_text(cards: Sequence[int], chosen: int | None) -> Text:
        """A hand, sorted, the chosen card in brackets and reversed: ``1  [4]  10``."""
        text = Text(style="bold")
        marked = False
        for i, card in enumerate(sorted(cards)):
            if i:
                text.append("  ")
            if card == chosen and not marked:
                marked = True
                text.append(f"[{card_words(card)}]", style="reverse")
            else:
                text.append(card_words(card))
        return text

    def centre_lines(self) -> list[tuple[str, Style]]:
        """The middle of the board: the turn, the player to move and the card in play (with
        its sentence of the rules where there is room: :attr:`rule_in_centre`)."""
        self.rule_in_centre = False
        s = self.session
        g = s.game
        lines: list[tuple[str, Style]] = []
        m = s.match
        over = g.is_over()
        head = _("Game over") if over else _("Turn {n}").format(n=g.turn + 1)
        if m.games != 1 or m.target is not None:
            number = m.games_played + (0 if s.recorded else 1)
            head = _("{first} · {second}").format(first=_("Game {n}").format(n=number), second=head)
        lines.append((head, Style(dim=True)))
        if over:  # the turns played, as the game record counts them
            played = ngettext("after {n} turn", "after {n} turns", g.turn).format(n=g.turn)
            lines.append((played, Style(dim=True)))
            if g.winners:
                names = colour_names(g.winners)
                won = _("{team} win!") if len(g.winners) > 1 else _("{team} wins!")
                lines.append((won.format(team=names), colour_style(g.winners[0])))
            else:
                lines.append((_("No winner"), Style(bold=True)))
            return lines
        c = g.to_move
        lines.append(
            (
                _("{player} to play").format(
                    player=colour_name(c).tagged(f" ({COLOUR_LETTERS[c]})")
                ),
                colour_style(c),
            )
        )
        lines.append((s.seat_name(c), Style(dim=True)))
        lines.append(("", Style()))
        card = g.card
        if g.rules.points:
            card = None
            v = self.viewer()
            if v is not None and v == c:
                card = self.chosen_card()
                lines.append((_("Your hand"), Style(dim=True)))
                lines.append((self.hand_text(g.hands[c], card).plain, Style(bold=True)))
            else:
                n = len(g.hands[c])
                in_hand = ngettext("{n} card in hand", "{n} cards in hand", n).format(n=n)
                lines.append((in_hand, Style(dim=True)))
        if card is None:
            return lines
        # the card's whole sentence of the rules where the middle has room, else its few
        # words (the sentence then above the choices if they leave room, and on the key c)
        w, h = self.query_one(BoardView).scale
        lines, self.rule_in_centre = centre_with_card(
            lines,
            _("Card: {card}").format(card=card_words(card)),
            card_rule(card),
            card_help(card),
            "" if self.rule_beside else _("c: the whole rule"),
            len(CENTRE[1]) * w - 2,
            len(CENTRE[0]) * h,
        )
        return lines

    def status_text(self) -> Text:
        """The top of the side panel: the game, its seats (and scores), the cards to draw."""
        s = self.session
        g = s.game
        app = self.sorry_app
        status = Text()
        status.append(
            _("{game} {variant} game").format(game=_("Sorry!"), variant=variant_name(g.rules)),
            style="bold",
        )
        opts = g.rules.options_text()
        if opts:
            status.append(f" · {opts}", style="dim")
        status.append("\n")
        if g.rules.teams:
            for i, (a, b) in enumerate(((0, 2), (1, 3))):
                status.append(COLOUR_LETTERS[a], style=colour_style(a))
                status.append("+")
                status.append(COLOUR_LETTERS[b], style=colour_style(b))
                status.append(" – " if i == 0 else "\n")
        for c in g.colours:
            mark = "▶ " if c == g.to_move and not g.is_over() else "  "
            status.append(mark)
            status.append_text(_name(c))
            if s.match.games != 1 or s.match.target is not None or g.rules.points:
                status.append(f" {s.match.scores.get(c, 0)}", style="bold")
                status.append(" ·", style="dim")
            status.append(f" {s.seat_name(c)}\n")
        n = len(g.draw_pile)
        status.append(
            _("{first} · {second}").format(
                first=ngettext("{n} card to draw", "{n} cards to draw", n).format(n=n),
                second=_("speed {speed}").format(speed=app.speed),
            ),
            style="dim",
        )
        return status

    def refresh_side(self) -> None:
        g = self.session.game
        status = self.status_text()
        self.query_one("#status", Static).update(status)
        hand = Text()
        v = self.viewer()
        if g.rules.points and v is not None:
            hand.append(_("Your hand:") + " ", style="dim")
            chosen = self.chosen_card() if v == g.to_move else None
            hand.append_text(self.hand_text(g.hands[v], chosen))
        hand_box = self.query_one("#hand", Static)
        hand_box.update(hand)
        hand_box.display = bool(hand.plain)  # an empty line otherwise
        prompt = Text()
        if self.note:
            prompt.append(self.note + "\n", style="italic")
        if self.chooser is not None:
            prompt.append(self.chooser.prompt())
        prompt.rstrip()
        prompt_box = self.query_one("#prompt", Static)
        prompt_box.update(prompt)
        prompt_box.display = bool(prompt.plain)
        hint = Text()
        # the choices' width: the same column, and laid out even while no hint is shown
        width = max(10, self.query_one("#options", OptionsView).size.width or 30)
        if self.hints and self.chances and self.chooser is not None:
            above = sum(self._height(t, width) for t in (status, hand, prompt))
            hint = self.fitted_hint(width, above)
        box = self.query_one("#hint", Static)
        hint.rstrip()  # no blank line between the hint and the choices
        box.update(hint)
        box.display = bool(hint.plain)
        rule = self.fitted_rule(
            width, sum(self._height(t, width) for t in (status, hand, prompt, hint))
        )
        rule_box = self.query_one("#rule", Static)
        rule_box.update(rule)
        rule_box.display = bool(rule.plain)
        if self.rule_beside != bool(rule.plain):
            self.rule_beside = bool(rule.plain)
            self.refresh_board()  # the middle's pointer to the key c, only when needed
        self.refresh_options()
        # the choices again once the panel is laid out anew (the hint may have grown or gone)
        self.call_after_refresh(self.refresh_options)

    def _height(self, text: Text, width: int) -> int:
        """The lines ``text`` takes in a column of ``width`` cells."""
        lines = text.split("\n", allow_blank=False)
        return sum(len(line.wrap(self.app.console, width)) for line in lines)

    def fitted_hint(self, width: int, above: int) -> Text:
        """The hint as the side panel shows it: as many of its moves as leave room for every
        choice below it (the choices show their chances too), else one line saying where
        the chances are, else nothing; ``above``: the lines taken above it."""
        full = self.query_one("#side").content_size.height
        opts = self._options()
        need = sum(len(self._option_lines(i, t, False, width)) for i, t in enumerate(opts))
        free = full - above - need if full else 1_000
        for rows in range(self.hint_rows(), 0, -1):
            hint = hint_text(
                self.chances,
                self.move_words,
                rows,
                width,
                self.app.console,
                rough=self.hint_rough,
                details=self.hint_details,
            )
            if self._height(hint, width) <= free:
                return hint
        # no room for a move: the headline alone (the choices show their tags)
        line = hint_text(self.chances, self.move_words, 0, width, self.app.console, self.hint_rough)
        return line if self._height(line, width) <= free else Text()

    def fitted_rule(self, width: int, above: int) -> Text:
        """The sentence of the rules of the card to play, above the choices, when the
        board's middle could not hold it and the side panel has the room, after the hint
        and every choice (``above``: the lines of the rest of the panel); else nothing (the
        key c shows it)."""
        if self.chooser is None or self.rule_in_centre:
            return Text()
        g = self.session.game
        card = self.chosen_card() if g.rules.points else g.card
        full = self.query_one("#side").content_size.height
        if card is None or not full:
            return Text()
        rule = Text(card_rule(card))
        opts = self._options()
        need = sum(len(self._option_lines(i, t, False, width)) for i, t in enumerate(opts))
        return rule if above + self._height(rule, width) + need <= full else Text()

    def refresh_options(self) -> None:
        widget = self.query_one("#options", OptionsView)
        opts = self._options()
        text = Text()
        widget.rows = []
        if not opts:
            widget.update(text)
            return
        height = max(3, widget.size.height or 10)
        width = max(10, widget.size.width or 30)
        cur = min(self.cursor, len(opts) - 1)
        wrapped = [self._option_lines(i, tok, i == cur, width) for i, tok in enumerate(opts)]
        rows = [max(1, len(w)) for w in wrapped]
        first = 0
        while first < cur and sum(rows[first : cur + 1]) > height:
            first += 1
        used = 0
        for i in range(first, len(wrapped)):
            if used + rows[i] > height and i > cur:
                break
            used += rows[i]
            for part in wrapped[i]:
                text.append_text(part)
                text.append("\n")
                widget.rows.append(i)
        widget.update(text)

    @on(OptionsView.Clicked)
    def _option_clicked(self, event: OptionsView.Clicked) -> None:
        opts = self._options()
        if 0 <= event.index < len(opts):
            self.take(opts[event.index])

    def _option_lines(self, i: int, tok: Token, current: bool, width: int) -> list[Text]:
        """A choice as lines of ``width``: its number, its hint (first, so that it never lands
        on a continuation line), its words, wrapped under the words."""
        num = f"{i + 1}." if i < 9 else "  "
        label = Text()
        tag = self._token_tag(tok)
        if tag is not None:
            label.append(tag[0] + " ", style=tag[1])
        if tok.kind == "pawn" and tok.colour >= 0:
            label.append(COLOUR_LETTERS[tok.colour], style=colour_style(tok.colour))
            label.append(" ")
        label.append(tok.label)
        lead = f"{'▸' if current else ' '}{num:<3}"
        parts = label.wrap(self.app.console, max(1, width - len(lead)))
        lines = [Text(lead if k == 0 else " " * len(lead)) + part for k, part in enumerate(parts)]
        if current:
            for line in lines:
                line.stylize("reverse")
        return lines or [Text(lead)]

    def rebuild_log(self) -> None:
        log = self.query_one("#log", GameLog)
        log.reset()
        self.logged = 0
        log_entries = self.session.log
        self.said = self.said_text(log_entries[-1]) if log_entries else Text()
        self.write_log()

    def write_log(self) -> None:
        log = self.query_one("#log", GameLog)
        s = self.session
        for entry in s.log[self.logged :]:
            log.add(self.said_text(entry, where=False))
        self.logged = len(s.log)
        self.refresh_all()


# -- the new-game screen ---------------------------------------------------------------------------
class NewGameScreen(Screen[None]):
    """The settings of a new game (those of the last game, remembered), or a saved game to
    resume. The rule options shown are those the chosen variant lets a player set, at its
    defaults; every error is shown above the buttons."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", N_("Start")),
        Binding("f3", "learn", N_("Learn to play")),
        Binding("f2", "rules", N_("Rules")),
        Binding("f1", "help", N_("Help")),
    ]
    DEFAULT_CSS = """
    NewGameScreen { layout: vertical; }
    NewGameScreen #form { height: 1fr; padding: 0 1; }
    NewGameScreen .row { height: 1; }
    NewGameScreen .row > Select { width: 30; }
    NewGameScreen .row > Input { width: 30; }
    NewGameScreen .heading { text-style: bold; color: $accent; margin-top: 1; }
    NewGameScreen #level-note { color: $text-muted; text-style: italic; height: auto;
        max-width: 80; }
    NewGameScreen #error { color: $error; text-style: bold; height: auto; padding: 0 1;
        display: none; }
    NewGameScreen #buttons { height: 1; padding: 0 1; }
    NewGameScreen #buttons > Button { margin-right: 2; min-width: 14; width: auto; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.variant = "standard"

    @property
    def sorry_app(self) -> SorryApp:
        app = self.app
        assert isinstance(app, SorryApp)
        return app

    def compose(self) -> ComposeResult:
        app = self.sorry_app
        d = app.settings
        self.variant = d.variant
        seat_choices = [(_("off"), OFF), (_("person"), HUMAN)] + [
            (_("bot: {level}").format(level=level_name(lv)), lv) for lv in bot_levels()
        ]
        defaults = Rules(variant=d.variant).options()
        allowed = choosable(d.variant)
        rows: list[tuple[Text | str, Widget]] = [
            (
                _("Language"),
                Select(
                    [(name, code) for code, name in LANGUAGES.items()],
                    value=get_language(),
                    allow_blank=False,
                    compact=True,
                    id="language",
                ),
            ),
            (
                _("Variant"),
                Select(
                    [(_(VARIANT_NAMES[v]), v) for v in VARIANTS],
                    value=d.variant,
                    allow_blank=False,
                    compact=True,
                    id="variant",
                ),
            ),
        ]
        for c in COLOURS:
            rows.append(
                (
                    _name(c),
                    Select(
                        seat_choices,
                        value=d.seats.get(c, OFF),
                        allow_blank=False,
                        compact=True,
                        id=f"seat-{COLOUR_LETTERS[c]}",
                    ),
                )
            )
        seats_end = len(rows)
        for key, label, value in (
            ("seed", _("Seed (blank: random)"), d.seed),
            ("games", _("Games in the match"), d.games),
            ("target", _("Target score (blank)"), d.target),
        ):
            text = "" if value is None else str(value)
            rows.append((label, Input(text, compact=True, id=key, type="integer")))
        rows.append(
            (
                _("Animation speed"),
                Select(
                    [(speed_name(i), i) for i in SPEED_ORDER],
                    value=app.speed,
                    allow_blank=False,
                    compact=True,
                    id="speed",
                ),
            )
        )
        option_rows: list[tuple[Text | str, Widget]] = []
        for name in OPTION_NAMES:
            values = allowed.get(name, (defaults[name],))
            chosen = d.options.get(name, defaults[name])
            option_rows.append(
                (
                    option_label(name),
                    Select(
                        [(option_value_name(name, v), v) for v in values],
                        value=chosen if chosen in values else defaults[name],
                        allow_blank=False,
                        compact=True,
                        id=f"opt-{name}",
                    ),
                )
            )
        # One column of labels, as wide as the longest (in every language) and a gap.
        width = max(cell_len(str(label)) for label, _w in rows + option_rows) + 2

        def row(label: Text | str, widget: Widget, ident: str | None = None) -> Horizontal:
            head = Label(label)
            head.styles.width = width
            return Horizontal(head, widget, classes="row", id=ident)

        yield Header(show_clock=False, icon="♟")
        with VerticalScroll(id="form"):
            yield Label(_("New game"), classes="heading")
            for i, (head, widget) in enumerate(rows, 1):
                yield row(head, widget)
                if i == seats_end:
                    yield Static(id="level-note")
            yield Label(_("Rule options"), classes="heading")
            for name, (head, widget) in zip(OPTION_NAMES, option_rows, strict=True):
                line = row(head, widget, f"row-{name}")
                line.display = name in allowed
                yield line
            yield Label(_("Resume a saved game"), classes="heading")
            with Horizontal(classes="row"):
                yield Input(app.save_path, compact=True, id="load-path")
                yield Button(_("Resume"), id="resume", compact=True)
        yield Static(id="error")
        with Horizontal(id="buttons"):
            yield Button(_("Start"), id="start", variant="primary", compact=True)
            yield Button(_("Learn to play"), id="learn", compact=True)
            yield Button(_("Rules"), id="rules", compact=True)
            yield Button(_("Help"), id="help", compact=True)
            yield Button(_("Quit"), id="quit", compact=True)
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.title = _("{game} — new game").format(game=_("Sorry!"))
        translate_bindings(self)
        self.query_one("#variant", Select).focus()
        self.describe_level()

    @on(Select.Changed, ".row > Select")
    def _seat_changed(self, event: Select.Changed) -> None:
        # Only a choice made here (a Select also says Changed when it is first set up).
        if (event.select.id or "").startswith("seat-") and event.select.has_focus_within:
            self.describe_level(str(event.value))

    def describe_level(self, level: str | None = None) -> None:
        """Say how strong the bot level just chosen is (else the first bot seat's)."""
        if level is None or level in (OFF, HUMAN):
            seats = [str(self._value(f"seat-{COLOUR_LETTERS[c]}")) for c in COLOURS]
            bots = [s for s in seats if s not in (OFF, HUMAN)]
            level = bots[0] if bots else None
        note = self.query_one("#level-note", Static)
        strength = level_strength(level) if level else ""
        note.update(f"{level_name(level)}: {strength}" if level and strength else "")
        note.display = bool(level and strength)

    @on(Select.Changed, "#language")
    def _language_changed(self, event: Select.Changed) -> None:
        """Speak the chosen language from now on: redraw this screen in it, keeping the
        settings made so far."""
        code = str(event.value)
        if code == get_language():
            return
        self._remember()
        set_language(code)
        app = self.sorry_app
        app.title = _("Sorry!")
        translate_bindings(app)
        self.refresh(recompose=True)
        self.call_after_refresh(self._after_recompose)

    def _after_recompose(self) -> None:
        self.title = _("{game} — new game").format(game=_("Sorry!"))
        translate_bindings(self)
        self.query_one("#language", Select).focus()
        self.describe_level()

    @on(Select.Changed, "#variant")
    def _variant_changed(self, event: Select.Changed) -> None:
        """Show the options of the chosen variant at its defaults (keeping those changed that
        it allows too); the teams variant seats all four colours."""
        variant = str(event.value)
        if variant == self.variant:
            return
        before = Rules(variant=self.variant).options()
        self.variant = variant
        defaults = Rules(variant=variant).options()
        allowed = choosable(variant)
        for name in OPTION_NAMES:
            select = self.query_one(f"#opt-{name}", Select)
            old = str(select.value)
            values = allowed.get(name, (defaults[name],))
            keep = old in values and old != before[name]
            select.set_options([(option_value_name(name, v), v) for v in values])
            select.value = old if keep else defaults[name]
            self.query_one(f"#row-{name}").display = name in allowed
        if Rules(variant=variant).teams:
            for c in COLOURS:
                seat = self.query_one(f"#seat-{COLOUR_LETTERS[c]}", Select)
                if seat.value == OFF:
                    seat.value = default_level()
        self.show_error("")

    def show_error(self, message: str) -> None:
        error = self.query_one("#error", Static)
        error.update(message)
        error.display = bool(message)

    def _remember(self) -> None:
        """Keep the settings on screen (for a redraw in another language)."""
        app = self.sorry_app
        app.settings = self.read(strict=False)
        app.speed = app.settings.speed
        app.save_path = self.query_one("#load-path", Input).value

    def _value(self, ident: str) -> Any:
        return self.query_one(f"#{ident}", Select).value

    def _int(self, ident: str, field: str, strict: bool) -> int | None:
        text = self.query_one(f"#{ident}", Input).value.strip()
        if not text:
            return None
        try:
            return int(text)
        except ValueError:
            if not strict:
                return None
            raise SorryError(
                _("{field}: {text!r} is not a whole number").format(field=field, text=text)
            ) from None

    def read(self, strict: bool = True) -> Settings:
        """The settings on screen (:class:`SorryError` for a number that is not one)."""
        variant = str(self._value("variant"))
        defaults = Rules(variant=variant).options()
        allowed = choosable(variant)
        options = {}
        for name in allowed:
            value = str(self._value(f"opt-{name}"))
            if value != defaults[name]:
                options[name] = value
        return Settings(
            variant=variant,
            seats={c: str(self._value(f"seat-{COLOUR_LETTERS[c]}")) for c in COLOURS},
            seed=self._int("seed", _("Seed (blank: random)"), strict),
            games=self._int("games", _("Games in the match"), strict) or 1,
            target=self._int("target", _("Target score (blank)"), strict),
            options=options,
            speed=int(self._value("speed")),
        )

    def action_start(self) -> None:
        app = self.sorry_app
        try:
            settings = self.read()
            session = settings.session()
        except SorryError as exc:
            self.show_error(str(exc))
            return
        app.speed = settings.speed
        app.remember(settings)
        app.switch_screen(GameScreen(session))

    def action_resume(self) -> None:
        path = self.query_one("#load-path", Input).value.strip()
        try:
            session = Session.load(path)
        except SorryError as exc:
            self.show_error(str(exc))
            return
        self.app.switch_screen(GameScreen(session))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen())

    def action_learn(self) -> None:
        """The guided first game (:mod:`sorry.tui.learn`)."""
        from .learn import LearnScreen

        self._remember()
        self.app.switch_screen(LearnScreen())

    def action_quit(self) -> None:
        self.app.exit(0)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        actions = {
            "start": self.action_start,
            "help": self.action_help,
            "rules": self.action_rules,
            "learn": self.action_learn,
            "quit": self.action_quit,
            "resume": self.action_resume,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()


def chance_words(chance: MoveChance, chances: Sequence[MoveChance], details: bool = False) -> str:
    """A move of the hint ``chances`` as the move list shows it: its tag (``best``, ``as
    good``, ``not as good``: :mod:`sorry.hintwords`), and with the details its chance of
    winning and 95% interval: ``as good 62% [55–69]``."""
    words = hint_words(chances)
    k = next(j for j, c in enumerate(chances) if c is chance)
    return f"{words.tags[k]} {words.figures[k]}" if details else words.tags[k]


def hint_text(
    chances: Sequence[MoveChance],
    words: Callable[[Move], str],
    rows: int,
    width: int,
    console: Console | None = None,
    rough: bool = False,
    details: bool = False,
) -> Text:
    """The hint as the side panel shows it, in lines of at most ``width`` cells, in the
    browser's words (:func:`sorry.hintwords.hint_words`): the headline (the best move's chance
    in tenths and the moves as good as it), the best ``rows`` moves each with its tag (best, as
    good, not as good) and its words (wrapped under them), how many more moves the move list
    (``m``) shows, and that ``h`` again shows the figures. With ``details``: each move's chance
    of winning and 95% interval after its tag, their heading, and what "as good" means.
    ``rough``: the chances come from the Python engine's short playouts, and the headline says
    so. A forced move is the only move, with no chance."""
    out = Text()
    if not chances:
        return out
    con = console or Console(width=width)

    def add(text: Text, indent: int = 0, hang: int = 0) -> None:
        for j, part in enumerate(text.wrap(con, max(8, width - indent - hang))):
            part.rstrip()
            out.append(" " * (indent if j == 0 else indent + hang))
            out.append_text(part)
            out.append("\n")

    if len(chances) == 1:  # forced: nothing to choose, no chance to show
        add(Text(_("Hint: the only move"), style="bold"))
        add(Text(words(chances[0].move), style="bold green"), indent=2)
        return out
    said = hint_words(chances, rough)
    say = _("Rough hint: {text}").format(text=said.say) if rough else said.say
    add(Text(say, style="bold"))
    if rows <= 0:
        return out
    if details:
        add(Text(said.heading, style="italic"))
    styles = {BEST: "bold green", AS_GOOD: "green", NOT_AS_GOOD: "dim"}
    for k, c in enumerate(chances[:rows]):
        line = Text()
        line.append(said.tags[k], style=styles[said.kinds[k]])
        if details:
            line.append(" " + said.figures[k])
        line.append(" ")
        line.append(words(c.move))
        add(line, indent=2, hang=2)
    if details and said.note:
        add(Text(said.note, style="italic"))
    more = len(chances) - rows
    if more > 0:
        text = ngettext("{n} more move: m lists them all", "{n} more moves: m lists them all", more)
        add(Text(text.format(n=more), style="dim"))
    if not details:
        add(Text(_("h again: each move's chance in figures"), style="dim"))
    return out


def hint_note(compiled: bool) -> str:
    """What the panel says while a hint is worked out."""
    if compiled:
        return _("Estimating each move's chance of winning…")
    return _(
        "Estimating each move's chance of winning (the compiled hint engine is still loading: "
        "the first run compiles it, minutes)…"
    )


class SorryApp(App[int]):
    """The terminal game. Give a :class:`Session` to start playing at once, or none for the
    new-game screen (filled in from ``settings``; with ``settings_file`` the settings of each
    game started there are kept in that file for the next run)."""

    TITLE = "Sorry!"
    #: Whether games are analysed while they are played (tests switch it off).
    ANALYSE_AHEAD: ClassVar[bool] = True
    #: Ctrl+Q asks first during a game, as ``q`` does (Textual's own quits at once).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", N_("Quit"), show=False, priority=True),
    ]

    def __init__(
        self,
        session: Session | None = None,
        speed: int = DEFAULT_SPEED,
        save_path: str = "sorry-save.json",
        hint_seconds: float | None = None,
        hint_rollouts: int | None = None,
        auto_hint: bool = False,
        settings: Settings | None = None,
        save_at_end: str | None = None,
        hint_engine: str = "auto",
        settings_file: Path | None = None,
        learn: bool = False,
    ) -> None:
        super().__init__()
        self.learn = learn  # open the guided first game (sorry.tui.learn) first
        self.hint_engine = hint_engine
        #: The compiled engine loading in the background (sorry.tui.warmup); its ``rollouts``
        #: is set once the compiled hint engine is loaded (or not to be used).
        self.warmup = Warmup()
        self.hints_loaded = self.warmup.rollouts
        #: The game's decisions valued while it is played (sorry.tui.ahead): the game-over
        #: screen then has only the last ones to value.
        self.ahead = AheadAnalysis()
        self._compiled: bool | None = None  # whether the compiled engine is installed
        self.save_at_end = save_at_end
        self.session = session
        self.speed = max(0, min(len(SPEEDS) - 1, speed))
        self.save_path = save_path
        self.hint_seconds = hint_seconds
        self.hint_rollouts = hint_rollouts
        self.auto_hint = auto_hint
        self.settings = settings or Settings(speed=self.speed)
        self.settings_file = settings_file
        #: said on the terminal after the full screen closes (where a game was saved)
        self.farewell = ""
        #: the files saved (or loaded) here, by absolute path, with the game's session: saving
        #: over one of another game asks first
        self.saved_files: dict[str, Session] = {}

    async def action_quit(self) -> None:
        """Quit; during a game with people in it, ask first (a second Ctrl+Q quits)."""
        if not isinstance(self.screen, ConfirmScreen):
            for screen in reversed(self.screen_stack):
                if isinstance(screen, GameScreen):
                    screen.action_quit()
                    return
        self.exit(0)

    def action_help_quit(self) -> None:
        """Ctrl+C: say how to quit (in the player's language)."""
        key = "q" if isinstance(self.screen, GameScreen) else "Ctrl+Q"
        self.notify(_("Press {key} to quit.").format(key=key))

    def analyse_ahead(self, session: Session) -> None:
        """After a move: the decisions played so far valued in the background (a process at a
        low priority), once the compiled analysis is loaded (it is then read from numba's
        cache, not compiled twice); not without the compiled engine."""
        if not self.ANALYSE_AHEAD or self.hint_engine not in ("auto", "bots"):
            return
        if not self.warmup.analysis.is_set():
            return
        if self._compiled is None:
            self._compiled = bool(compiled_engine())
        if not self._compiled:
            return
        self.ahead.played(session.game, [session.seats[c].spec() for c in session.colours])

    def remember(self, settings: Settings) -> None:
        """The settings of the game just started: the new-game screen's next time (the seed
        left out: the next game is a new one)."""
        self.settings = replace(settings, seed=None)
        if self.settings_file is not None:
            save_settings(self.settings, self.settings_file)

    def on_mount(self) -> None:
        self.title = _("Sorry!")
        translate_bindings(self)
        if self.hint_engine in ("auto", "bots"):  # the compiled engine loads while you play

            def warm() -> None:
                try:
                    self.warmup.run(self._compiling_from_thread)
                finally:
                    self.warmup.done()

            # A daemon thread, not a worker: asyncio joins its workers' threads when the app
            # ends, and the first run's numba compile takes minutes: quitting must not wait.
            self.warmup.thread = threading.Thread(target=warm, name="sorry-warmup", daemon=True)
            self.warmup.thread.start()
        else:
            self.warmup.done()
        missing = missing_note()
        if missing:
            self.notify(escape(missing), severity="warning", timeout=12)
        if self.learn:
            from .learn import LearnScreen

            self.push_screen(LearnScreen())
        elif self.session is not None:
            self.push_screen(GameScreen(self.session))
        else:
            self.push_screen(NewGameScreen())

    def _compiling_from_thread(self, part: str) -> None:
        with contextlib.suppress(RuntimeError):  # the app has ended: there is no one to tell
            self.call_from_thread(self._compiling, part)

    def _compiling(self, part: str) -> None:
        """numba has begun compiling ``part``: say so where the player waits (a note for the
        minutes it takes; the screens that wait for it say so too, with the seconds so far)."""
        if part == "rollouts":
            text = _(
                "First run: numba is compiling {part} (one to five minutes). Meanwhile the "
                "hints are rough and the expert waits for it."
            )
        else:
            text = _(
                "First run: numba is compiling {part} in the background (one to five minutes)."
            )
        self.notify(escape(text.format(part=_(PARTS[part]))), timeout=15)

    @property
    def game_screen(self) -> GameScreen:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("no game on screen")


#: The rule options as the new-game screen lists them (docs/variants.md), with their labels
#: (``--option`` names them by their keys).
#: The options the new-game screen offers, with their words (sorry.rules.OPTIONS).
OPTION_NAMES: tuple[str, ...] = FORM_OPTIONS


def option_label(name: str) -> str:
    """A rule option's short label in the current language."""
    return _(OPTION_TABLE[name].short)


def option_value_name(name: str, value: str) -> str:
    """A rule option's value in short words of the current language."""
    return _(OPTION_TABLE[name].value_words(value, short=True))


#: The variants' names, marked for translation.
VARIANT_NAMES = {"standard": N_("standard"), "teams": N_("teams"), "points": N_("points")}


def variant_name(rules: Rules) -> str:
    return _(VARIANT_NAMES.get(rules.variant, rules.variant))


def speed_name(speed: int) -> str:
    """An animation speed as the settings show it: ``0 (instant)``, ``3``."""
    return _("{speed} (instant)").format(speed=speed) if speed == 0 else str(speed)
