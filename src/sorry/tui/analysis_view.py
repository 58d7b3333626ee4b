"""The terminal game's after-game analysis: the win-probability graph, each player's luck and
own moves with their intervals, and the moves that mattered (the decisions, the luckiest and
unluckiest draws) on the game-over screen, with a replay that steps to each (docs/analysis.md).

:class:`AnalysisPanel` is a widget of the game-over screen: it analyses the finished game in
a background thread (:func:`sorry.analysis.analyse`, the compiled estimator when the ``fast``
extra is installed), shows the progress, then the graph (:func:`chart`, braille dots in each
side's colour) and the moves that mattered numbered 1-5 (:func:`key_items`); the keys 1-5 open
:class:`ReplayScreen` at that step, where the arrows step turn by turn. Leaving the screen
stops the analysis.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

from ..analysis import analyse, pieces, report
from ..analysis.account import Analysis, NodeValues, checked
from ..analysis.calibration import game_model
from ..analysis.estimator import Estimator, default_estimator
from ..analysis.graph import series
from ..board import COLOUR_LETTERS, TRACK_LEN, colour_name
from ..describe import describe
from ..errors import SorryError
from ..game import Game
from ..i18n import N_, _
from ..moves import Move
from ..record import GameRecord
from .render import COLOUR_HEX, Marks, board_text
from .warmup import Warmup

#: Braille dot bits by (column, row) within a character cell (2 x 4 dots).
_DOTS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


#: The decisions that mattered the panel lists (then the luckiest and the unluckiest draw).
KEY_DECISIONS = 3


def key_items(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The moves that mattered as the panel numbers them: the decisions (1-3), then the
    luckiest and the unluckiest draw (4-5)."""
    decisions = list(data["key_decisions"][:KEY_DECISIONS])
    draws = data["luckiest_draws"][:1] + data["unluckiest_draws"][:1]
    return decisions, draws


def chart(data: dict[str, Any], width: int = 64, height: int = 5) -> Text:
    """The graph of an analysis (its JSON form) in ``width`` x ``height`` characters plus a
    line of turn numbers: one braille line per side in its colour, 0-100% from bottom to top,
    and the moves that mattered marked 1-5 under the turns where they happened."""
    label_w = 5
    cols = max(8, width - label_w)
    dots_w, dots_h = cols * 2, height * 4
    turns = max(1, int(data["result"]["turns"]))
    bits = [[0] * cols for _ in range(height)]
    owner: list[list[int | None]] = [[None] * cols for _ in range(height)]
    for letter, pts in series(data):
        colour = COLOUR_LETTERS.index(letter)
        prev_y: int | None = None
        k = 0
        for x in range(dots_w):
            t = turns * x / (dots_w - 1)
            while k + 1 < len(pts) - 1 and pts[k + 1][0] <= t:
                k += 1
            (x0, p0), (x1, p1) = pts[k], pts[min(k + 1, len(pts) - 1)]
            p = p0 if x1 <= x0 else p0 + (p1 - p0) * min(1.0, max(0.0, (t - x0) / (x1 - x0)))
            y = round((1.0 - p) * (dots_h - 1))
            lo, hi = (y, y) if prev_y is None else (min(prev_y, y), max(prev_y, y))
            for yy in range(lo, hi + 1):
                r, c = yy // 4, x // 2
                bits[r][c] |= _DOTS[x % 2][yy % 4]
                owner[r][c] = colour
            prev_y = y
    out = Text(no_wrap=True, overflow="crop")
    for r in range(height):
        label = (
            "100% "
            if r == 0
            else (" 50% " if r == height // 2 else ("  0% " if r == height - 1 else "     "))
        )
        out.append(label, Style(color="#8a8a8a"))
        for c in range(cols):
            o = owner[r][c]
            style = Style(color=COLOUR_HEX[o]) if o is not None else Style(color="#444444")
            out.append(
                chr(0x2800 + bits[r][c]) if bits[r][c] else "·" if r == height // 2 else " ", style
            )
        out.append("\n")
    # the x axis: the first and last turn at its ends, the moves that mattered 1-5 (reverse
    # video) under the turns where they happened
    axis: list[tuple[str, Style]] = [(" ", Style())] * cols
    plain = Style(color="#8a8a8a")
    marked: set[int] = set()
    decisions, draws = key_items(data)
    for n, s in enumerate(decisions + draws, 1):
        c = min(cols - 1, int(cols * (s["turn"] + 0.5) / turns))
        axis[c] = (str(n), Style(bold=True, reverse=True))
        marked |= {c - 1, c, c + 1}
    for label, at in (("1", 0), (str(turns), cols - len(str(turns)))):
        if not marked & set(range(at, at + len(label))):  # a swing's mark goes first
            for k, ch in enumerate(label):
                axis[at + k] = (ch, plain)
    out.append(_("turn").ljust(label_w)[:label_w], plain)
    for ch, style in axis:
        out.append(ch, style)
    return out


#: The rollouts the panel analyses with (the compiled ones when the ``fast`` extra is there),
#: under the model of the game's players (:func:`~sorry.analysis.calibration.game_model`).
make_estimator: Callable[[], Estimator] = default_estimator


class _Stop(Exception):
    """The panel was closed: stop analysing."""


class AnalysisPanel(Static):
    """The graph, the players' totals and the moves that mattered of a finished game (see the
    module doc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(str(k + 1), f"swing({k})", N_("See it in the replay"), show=False) for k in range(5)
    ]
    DEFAULT_CSS = """
    AnalysisPanel { width: 72; height: auto; margin: 1 0 0 0; background: $surface; }
    AnalysisPanel.hidden { display: none; }
    """
    can_focus = True

    def __init__(
        self,
        record: GameRecord | None,
        ahead: tuple[pieces.Start | None, list[NodeValues]] | None = None,
        **kw: Any,
    ) -> None:
        super().__init__("", **kw)
        self.record = record
        #: the start and first decisions valued while the game was played (sorry.tui.ahead)
        self.ahead = ahead
        self.analysis: Analysis | None = None
        self.data: dict[str, Any] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def of_game(
        cls,
        game: Game,
        seats: Sequence[str] | None = None,
        ahead: tuple[pieces.Start | None, list[NodeValues]] | None = None,
        **kw: Any,
    ) -> AnalysisPanel:
        """The panel for a finished game (hidden if it was not begun from a seed, or has no
        winner: there is then nothing to analyse); ``ahead``: its start and first decisions
        valued already."""
        record = None
        if game.winners:
            try:
                record = GameRecord.from_game(game, list(seats) if seats else None)
            except SorryError:
                record = None
        return cls(record, ahead, **kw)

    def on_mount(self) -> None:
        if self.record is None:
            self.add_class("hidden")
            self.can_focus = False
            return
        if self.record.result.resigned:  # not analysed: say why in one line, at once
            try:
                checked(self.record)
            except SorryError as exc:
                self.update(Text(str(exc), style="italic"))
                return
        self.update(Text(_("Analysing the game…"), style="italic"))
        self.set_interval(1.0, self._tick)
        self._thread = threading.Thread(target=self._work, name="sorry-analysis", daemon=True)
        self._thread.start()

    def on_unmount(self) -> None:
        self._stop.set()

    def _work(self) -> None:
        assert self.record is not None

        def progress(done: int, total: int) -> None:
            if self._stop.is_set():
                raise _Stop
            self._post(self._progress, done, total)

        warm = self._warmup()
        try:
            est = game_model(self.record, make_estimator())
            if est.engine == "compiled" and warm is not None:
                # the compiled analysis loads (the first time: compiles) in the background
                # since the game began: wait for it, saying so (_tick)
                while not warm.analysis.wait(0.25):
                    if self._stop.is_set():
                        return
                with warm.watch("analysis", lambda part: None):
                    a = self._analyse(est, progress)
            else:
                a = self._analyse(est, progress)
            data = report.to_dict(a, describe_moves=True)
        except _Stop:
            return
        except SorryError as exc:
            self._post(self.update, Text(str(exc), style="italic"))
            return
        self._post(self._ready, a, data)

    def _analyse(self, est: Estimator, progress: Callable[[int, int], None]) -> Analysis:
        """The analysis: what was valued while the game was played, and the rest."""
        assert self.record is not None
        if self.ahead is not None and (self.ahead[0] is not None or self.ahead[1]):
            start, valued = self.ahead
            record = checked(self.record)
            a = pieces.finish(record, est, None, start, valued, progress=progress)
            if a is not None:
                return a
        return analyse(self.record, estimator=est, progress=progress)

    def _warmup(self) -> Warmup | None:
        warm = getattr(self.app, "warmup", None)
        return warm if isinstance(warm, Warmup) else None

    def _tick(self) -> None:
        """Every second until the analysis starts: what numba compiles, if anything."""
        warm = self._warmup()
        if self.analysis is not None or warm is None or warm.compiling != "analysis":
            return
        self.update(
            Text(
                _("Analysing the game: first {what}…").format(what=warm.waiting_words()),
                style="italic",
            )
        )

    def _post(self, fn: Any, *args: Any) -> None:
        try:
            self.app.call_from_thread(fn, *args)
        except RuntimeError:  # the app has gone
            self._stop.set()

    def _progress(self, done: int, total: int) -> None:
        if self.analysis is None:
            self.update(
                Text(
                    _("Analysing the game: turn {done} of {total}…").format(done=done, total=total),
                    style="italic",
                )
            )

    def _ready(self, a: Analysis, data: dict[str, Any]) -> None:
        self.analysis = a
        self.data = data
        self.update(self.render_text())

    def render_text(self) -> Text:
        assert self.data is not None
        data = self.data
        text = Text()
        rough = report.is_rough(data)
        if rough:  # few rollouts: the figures are a guide, not a verdict
            text.append(report.rough_text(data) + "\n", style="bold yellow")
        text.append(_("Win probability over the game") + "\n", style="bold")
        text.append(
            _("Across: the turns, 1 to {turns}; 1-5 under them: the moves that mattered").format(
                turns=data["result"]["turns"]
            )
            + "\n",
            style="dim",
        )
        rows = max(3, min(10, self.app.size.height - 21))
        text.append_text(chart(data, width=72, height=rows))
        text.append("\n")
        for p in data["players"]:
            colour = COLOUR_LETTERS.index(p["colour"])
            text.append(f"{colour_name(colour)}", Style(color=COLOUR_HEX[colour], bold=True))
            luck = report.points_with(p["luck"], p["luck_se"])
            own = report.points_with(p["own_decisions"], p["own_decisions_se"])
            others = report.points(p["others_decisions"])
            if rough:
                line = _("luck {luck} · own moves {own} · others' moves {others}").format(
                    luck=luck, own=own, others=others
                )
            else:
                line = _(
                    "luck {luck} · own moves {own} · others' moves {others} · accuracy {accuracy}"
                ).format(
                    luck=luck,
                    own=own,
                    others=others,
                    accuracy="-" if p["accuracy"] is None else report.pct(p["accuracy"]),
                )
            text.append("  " + line + "\n")
        room = (self.content_size.width or 72) - 4  # " 1 " and a space before the text
        decisions, draws = key_items(data)
        n = 0
        for heading, items in (
            (_("Decisions that mattered (1-5: see them in the replay):"), decisions),
            (_("The luckiest and the unluckiest draw:"), draws),
        ):
            if not items:
                continue
            if n:
                text.append("\n")
            text.append(heading, style="bold")
            for item in items:
                n += 1
                text.append("\n")
                text.append(f" {n} ", Style(bold=True, reverse=True))
                text.append(" " + fit(item["short"] or item["text"], room))
        return text

    def action_swing(self, k: int) -> None:
        if self.data is None or self.record is None:
            return
        decisions, draws = key_items(self.data)
        items = decisions + draws
        if k < len(items):
            self.app.push_screen(ReplayScreen(self.record, self.data, items[k]["step"]))


def fit(line: str, width: int) -> str:
    """``line`` in at most ``width`` cells: a swing (``turn N: move: change``) too long is cut
    in the middle of the move, keeping the turn and the change (the replay shows it whole)."""
    if cell_len(line) <= width:
        return line
    cut = line.rfind(": ")
    tail = line[cut:] if cut > 0 and cell_len(line[cut:]) < width // 2 else ""
    head = line[: len(line) - len(tail)]
    while head and cell_len(head) + 1 + cell_len(tail) > width:
        head = head[:-1]
    return head.rstrip() + "…" + tail


def _changed(record: GameRecord, step: int, after: Game) -> Marks:
    """The places the move at ``step`` changed (shaded as the game shows its last move)."""
    before = record.replay(step - 1)
    marks: dict[tuple[int, int], tuple[str, str]] = {}
    for c in after.colours:
        old, new = sorted(before.pawns[c]), sorted(after.pawns[c])
        for loc in set(old) ^ set(new) | {x for x in set(old) if old.count(x) != new.count(x)}:
            marks[(-1, loc) if loc < TRACK_LEN else (c, loc)] = ("last", "")
    return marks


class ReplayScreen(ModalScreen[None]):
    """The finished game at one step: the board, what happened (for an error, what it lost and
    the best move), everyone's chances; the arrows
    step turn by turn, 1-5 jump to the moves that mattered, Esc goes back. Opaque: the result
    and the chart under it do not show around it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,p", "step(-1)", N_("Previous turn")),
        Binding("right,n", "step(1)", N_("Next turn")),
        *(
            Binding(str(k + 1), f"swing({k})", N_("See it in the replay"), show=False)
            for k in range(5)
        ),
        Binding("escape,q", "close", N_("Back")),
    ]
    DEFAULT_CSS = """
    ReplayScreen { align: center middle; background: $background; }
    ReplayScreen > Static { width: auto; max-width: 100%; height: auto; max-height: 100%;
        background: $surface;
        border: round $accent; padding: 0 1; }
    """

    def __init__(self, record: GameRecord, data: dict[str, Any], step: int) -> None:
        super().__init__()
        self.record = record
        self.data = data
        self.moves = [d["step"] for d in data["decisions"]]
        self.step = step if step in self.moves else self._move_at_or_after(step)

    def _move_at_or_after(self, step: int) -> int:
        return int(next((s for s in self.moves if s >= step), self.moves[-1]))

    def compose(self) -> ComposeResult:
        yield Static(self.render_text(), id="replay")

    def render_text(self) -> Text:
        game = self.record.replay(self.step)
        decision = next(d for d in self.data["decisions"] if d["step"] == self.step)
        draw = next((d for d in self.data["draws"] if d["turn"] == decision["turn"]), None)
        point = next(
            p for p in self.data["points"] if p["step"] == self.step and p["kind"] == "move"
        )
        out = board_text(game.pawns, game.colours, 3, 1, _changed(self.record, self.step, game))
        out.append("\n")
        out.append(
            _("Turn {turn} of {total}").format(turn=decision["turn"] + 1, total=len(self.moves)),
            style="bold",
        )
        if draw is not None and draw.get("text"):  # on the turn's line: a row for the error's
            out.append(" · " + draw["text"])
        out.append("\n")
        out.append((decision.get("text") or decision["move"]) + "\n")
        if decision.get("label") and decision["best"] != decision["move"]:
            # an error: what it lost and the best move, short (the replay fits 80x24)
            before = self.record.replay(self.step - 1)
            best = describe(before, Move.parse(decision["best"]), short_form=True)
            out.append(
                _("{label}, {lost} points lost; best: {best}").format(
                    label=report.label_text(decision["label"]),
                    lost=f"{decision['equity_lost'] * 100:.1f}",
                    best=best,
                )
                + "\n",
                style="italic",
            )
        chances = []
        for side in self.data["sides"]:
            c = side[0]
            chances.append(
                _("{side} {chance}").format(
                    side=colour_name(COLOUR_LETTERS.index(c)), chance=report.pct(point["values"][c])
                )
            )
        line = chances[0] if chances else ""
        for chance in chances[1:]:
            line = _("{first} · {second}").format(first=line, second=chance)
        out.append(line + "\n")
        out.append(_("←/→ turn by turn · 1-5 the moves that mattered · Esc back"), style="italic")
        return out

    def _show(self) -> None:
        self.query_one("#replay", Static).update(self.render_text())

    def action_step(self, delta: int) -> None:
        k = self.moves.index(self.step) + delta
        if 0 <= k < len(self.moves):
            self.step = self.moves[k]
            self._show()

    def action_swing(self, k: int) -> None:
        decisions, draws = key_items(self.data)
        items = decisions + draws
        if k < len(items):
            self.step = self._move_at_or_after(items[k]["step"])
            self._show()

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["AnalysisPanel", "ReplayScreen", "chart", "key_items"]
