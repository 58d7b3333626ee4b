"""The terminal game's hint: each move with its chance of winning, its 95% interval and a tie
mark, in concrete positions (issue 18, item 4). The Python engine with a fixed number of worlds
and no time limit makes the estimates the same on every machine."""

from __future__ import annotations

from typing import Any

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import Static

from sorry import Game
from sorry.tui.app import GameScreen, MoveListScreen, SorryApp, chance_words, hint_text
from sorry.tui.players import MoveChance, estimate_chances
from tui_helpers import keys, position_app, run

#: Red's pawn in Safety 1 goes HOME with the 5 (three are there): far better than the 50.
SEPARATED = ("R:H,H,50,s1 Y:H,H,H,40 R", 5)
#: Yellow's last pawn is about to go home; neither of Red's moves changes much.
ALL_TIED = ("R:5,40,S,S Y:H,H,H,10 R", 5)


def chances_of(position: str, card: int) -> list[MoveChance]:
    g = Game.from_position(position, card=card)
    return estimate_chances(g, rollouts=64, seconds=None, seed=0, engine="python")


def pct(x: float) -> int:
    return round(100 * x)


def test_estimates_tell_the_better_move_apart_with_intervals() -> None:
    best, other = chances_of(*SEPARATED)
    assert (str(best.move), str(other.move)) == ("Rs1+5", "R50+5")
    assert not best.tied and not other.tied
    for c in (best, other):
        assert 0.0 <= c.low < c.win < c.high <= 1.0 and c.worlds >= 2
    assert best.win > other.win and best.low > other.low
    assert chance_words(best, best=True) == f"{pct(best.win)}% [{pct(best.low)}–{pct(best.high)}]"
    assert chance_words(other) == f"{pct(other.win)}% [{pct(other.low)}–{pct(other.high)}]"


def test_all_tied_moves_are_marked_and_the_hint_says_it_cannot_tell_them_apart() -> None:
    chances = chances_of(*ALL_TIED)
    assert [str(c.move) for c in chances] == ["R5+5", "R40+5"]
    assert all(c.tied for c in chances)
    text = hint_text(chances, str, rows=3, width=30).plain
    lines = text.splitlines()
    assert lines[:2] == ["Hint: chance of winning", "[interval at 95%]"]
    first, second = chances
    # the best is not marked; the other is
    assert lines[2] == f"  {pct(first.win)}% [{pct(first.low)}–{pct(first.high)}] R5+5"
    assert lines[3] == f"  {pct(second.win)}% [{pct(second.low)}–{pct(second.high)}] tied R40+5"
    assert lines[4:] == ["All tied: the hint cannot tell", "these moves apart."]
    assert all(cell_len(line) <= 30 for line in lines)


def test_a_forced_pass_is_the_only_move_with_no_percentage() -> None:
    g = Game.from_position("R:S,S,S,S Y:20,30,40,S R", card=5)
    chances = estimate_chances(g, engine="python")
    assert [(str(c.move), c.worlds) for c in chances] == [("pass", 0)]
    lines = hint_text(chances, lambda m: "You cannot move: pass", rows=3, width=40).plain
    assert lines.splitlines() == ["Hint: the only move", "  You cannot move: pass"]
    assert "%" not in lines


def test_without_a_budget_the_hint_is_every_faces_hint() -> None:
    """No rollouts or seconds given: the fixed-rollouts hint the browser shows too."""
    from sorry.bots import hint_estimate

    g = Game.from_position(*SEPARATED[:1], card=SEPARATED[1])
    mine = estimate_chances(g, engine="python")
    theirs = hint_estimate(g.view(0), engine="python")
    assert [(c.move, c.win, c.worlds) for c in mine] == [
        (m.move, m.win, m.worlds) for m in theirs.moves
    ]
    assert sum(c.worlds for c in mine) <= 240


def test_a_tie_with_the_best_only_is_explained_and_extra_moves_are_counted() -> None:
    g = Game.from_position("R:S,8,20,50 Y:S,S,S,30 R", card=7)
    m = g.legal_moves
    chances = [
        MoveChance(m[0], 0.62, 0.55, 0.69, 400, True),
        MoveChance(m[1], 0.60, 0.53, 0.67, 400, True),
        MoveChance(m[2], 0.40, 0.33, 0.47, 400, False),
        MoveChance(m[3], 0.30, 0.24, 0.37, 400, False),
    ]
    lines = hint_text(chances, str, rows=3, width=48).plain.splitlines()
    assert lines[1] == f"  62% [55–69] {m[0]}"
    assert lines[2] == f"  60% [53–67] tied {m[1]}"
    assert lines[3] == f"  40% [33–47] {m[2]}"
    assert lines[4] == "A move marked tied may be as good as the first."
    assert lines[5] == "1 more move: m lists them all"


def hint_app(position: str, card: int, monkeypatch: pytest.MonkeyPatch) -> SorryApp:
    from sorry.tui.warmup import Warmup

    monkeypatch.setattr(Warmup, "run", lambda self, started: None)  # no compiled engine
    app, _session = position_app(position, card=card)
    app.hint_engine = "python"
    app.hint_rollouts = 64
    app.hint_seconds = None
    return app


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_side_panel_shows_the_hint_within_its_width(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = hint_app(*SEPARATED, monkeypatch=monkeypatch)
    best, other = chances_of(*SEPARATED)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "h")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        box = screen.query_one("#hint", Static)
        assert box.display and box.region.height >= 4
        text = str(box.render())
        assert "Hint: chance of winning" in text
        flat = " ".join(text.split())
        assert f"{pct(best.win)}% [{pct(best.low)}–{pct(best.high)}] Red Safety 1 → HOME" in flat
        assert f"{pct(other.win)}% [{pct(other.low)}–{pct(other.high)}] Red 50 → 55" in flat
        assert "tied" not in text and "cannot tell" not in text
        # drawn inside the panel, above the choices, on screen
        assert box.region.right <= size[0] and box.region.bottom <= size[1]
        options = screen.query_one("#options")
        assert options.region.y >= box.region.bottom
        # the move list shows every move with its interval
        await keys(app, pilot, "m")
        assert isinstance(app.screen, MoveListScreen)
        # (each move's line is followed by a line saying where it takes the pawns)
        rows = [str(app.screen.query_one("#moves").render_line(k)) for k in range(4)]
        for shown in (best, other):
            assert any(f"{pct(shown.win)}% [{pct(shown.low)}–{pct(shown.high)}]" in r for r in rows)

    run(app, body, size=size)


def test_the_side_panel_marks_the_tie(monkeypatch: pytest.MonkeyPatch) -> None:
    app = hint_app(*ALL_TIED, monkeypatch=monkeypatch)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "h")
        box = app.screen.query_one("#hint", Static)
        flat = " ".join(str(box.render()).split())
        assert "tied" in flat and "All tied: the hint cannot tell these moves apart." in flat

    run(app, body)
