"""The terminal game's hint in concrete positions: the browser's words (a headline with the best
move's chance in tenths and the moves as good as it; each move tagged best, as good or not as
good), the figures (each move's chance of winning and its 95% interval) on demand with h again.
The Python engine with a fixed number of worlds and no time limit makes the estimates the same
on every machine."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import Static

from sorry import Game
from sorry.hintwords import hint_words
from sorry.i18n import using
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
    pair = [best, other]
    assert chance_words(best, pair) == "best"
    assert chance_words(other, pair, details=True) == (
        f"not as good {pct(other.win)}% [{pct(other.low)}–{pct(other.high)}]"
    )


def test_all_tied_moves_read_as_good_as_each_other() -> None:
    chances = chances_of(*ALL_TIED)
    assert [str(c.move) for c in chances] == ["R5+5", "R40+5"]
    assert all(c.tied for c in chances)
    text = hint_text(chances, str, rows=3, width=30).plain
    lines = text.splitlines()
    assert lines[:3] == [
        "Best: about 1 chance in 10 to",  # 11%: one chance in ten, said in the singular
        "win; these two are about as",
        "good as each other.",
    ]
    assert lines[3:5] == ["  best R5+5", "  as good R40+5"]
    assert lines[5:] == ["h again: each move's chance in", "figures"]
    assert "%" not in text and "tied" not in text
    assert all(cell_len(line) <= 30 for line in lines)
    # the figures on demand: the heading, each move's chance and interval, what as good means
    first, second = chances
    lines = hint_text(chances, str, rows=3, width=60, details=True).plain.splitlines()
    assert lines[2] == "Chance of winning [interval at 95%]"
    assert lines[3] == f"  best {pct(first.win)}% [{pct(first.low)}–{pct(first.high)}] R5+5"
    assert lines[4] == f"  as good {pct(second.win)}% [{pct(second.low)}–{pct(second.high)}] R40+5"
    assert " ".join(lines[5:]).startswith("Moves marked as good cannot be told apart")


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


def four_moves() -> list[MoveChance]:
    g = Game.from_position("R:S,8,20,50 Y:S,S,S,30 R", card=7)
    m = g.legal_moves
    return [
        MoveChance(m[0], 0.62, 0.55, 0.69, 400, True),
        MoveChance(m[1], 0.60, 0.53, 0.67, 400, True),
        MoveChance(m[2], 0.40, 0.33, 0.47, 400, False),
        MoveChance(m[3], 0.30, 0.24, 0.37, 400, False),
    ]


def test_one_move_as_good_as_the_best_and_extra_moves_counted() -> None:
    chances = four_moves()
    m = [c.move for c in chances]
    lines = hint_text(chances, str, rows=3, width=90).plain.splitlines()
    assert lines == [
        "Best: about 6 chances in 10 to win; these two are about as good as each other.",
        f"  best {m[0]}",
        f"  as good {m[1]}",
        f"  not as good {m[2]}",
        "1 more move: m lists them all",
        "h again: each move's chance in figures",
    ]
    lines = hint_text(chances, str, rows=3, width=90, details=True).plain.splitlines()
    assert lines[1:5] == [
        "Chance of winning [interval at 95%]",
        f"  best 62% [55–69] {m[0]}",
        f"  as good 60% [53–67] {m[1]}",
        f"  not as good 40% [33–47] {m[2]}",
    ]


def test_the_terminal_says_what_the_browser_says_in_every_language() -> None:
    """One source of words: the panel's headline and tags are sorry.hintwords' (what the
    server sends the browser), in each of the five languages."""
    chances = four_moves()
    for lang in ("en", "ca", "el", "eo", "sw"):
        with using(lang):
            words = hint_words(chances)
            text = hint_text(chances, str, rows=4, width=200).plain.splitlines()
        assert text[0] == words.say
        assert text[1:5] == [
            f"  {tag} {c.move}" for tag, c in zip(words.tags, chances, strict=True)
        ]
        if lang != "en":
            assert "Best:" not in words.say and "as good" not in words.tags


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
        flat = " ".join(text.split())
        # the browser's words: the headline, each move's tag and words; no figures
        tenths = round(10 * best.win)
        assert flat.startswith(
            f"Best: about {tenths} chances in 10 to win, better than the others."
            if 0.05 <= best.win < 0.95
            else "Best: almost sure to win, better than the others."
        ), flat
        assert "best Red Safety 1 → HOME" in flat and "not as good Red 50 → 55" in flat
        assert "%" not in text and "tied" not in text
        # drawn inside the panel, above the choices, on screen
        assert box.region.right <= size[0] and box.region.bottom <= size[1]
        options = screen.query_one("#options")
        assert options.region.y >= box.region.bottom
        # the choices say which leads to the best move, in the same word
        assert "best" in str(options.render())
        # h again: the figures (each move's chance and its interval), and back
        await keys(app, pilot, "h")
        flat = " ".join(str(box.render()).split())
        assert "Chance of winning [interval at 95%]" in flat
        assert f"best {pct(best.win)}% [{pct(best.low)}–{pct(best.high)}] Red Safety" in flat
        assert f"{pct(other.win)}% [{pct(other.low)}–{pct(other.high)}] Red 50 → 55" in flat
        assert box.region.bottom <= size[1]
        # the move list shows every move with its tag and, with the details, its interval
        await keys(app, pilot, "m")
        assert isinstance(app.screen, MoveListScreen)
        # (each move's line is followed by a line saying where it takes the pawns)
        rows = [str(app.screen.query_one("#moves").render_line(k)) for k in range(4)]
        for shown in (best, other):
            assert any(f"{pct(shown.win)}% [{pct(shown.low)}–{pct(shown.high)}]" in r for r in rows)
        assert any("not as good" in r for r in rows)
        await keys(app, pilot, "escape", "h")
        flat = " ".join(str(screen.query_one("#hint", Static).render()).split())
        assert "%" not in flat and "h again" in flat

    run(app, body, size=size)


def test_the_side_panel_says_the_moves_are_as_good_as_each_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = hint_app(*ALL_TIED, monkeypatch=monkeypatch)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        await keys(app, pilot, "h")
        box = app.screen.query_one("#hint", Static)
        flat = " ".join(str(box.render()).split())
        assert "these two are about as good as each other." in flat
        assert "best Red 5 → 10" in flat and "as good Red 40 → 45" in flat
        assert box.region.bottom <= 24

    run(app, body, size=(80, 24))


def test_the_side_panel_in_greek_says_what_the_browser_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = hint_app(*ALL_TIED, monkeypatch=monkeypatch)
    chances = chances_of(*ALL_TIED)

    async def body(app: SorryApp, pilot: Pilot[Any]) -> None:
        with using("el"):
            await keys(app, pilot, "h")
            words = hint_words(chances)
            flat = " ".join(str(app.screen.query_one("#hint", Static).render()).split())
        assert flat.startswith(words.say), flat
        assert words.tags[1] in flat and "%" not in flat

    run(app, body, size=(80, 24))


def test_the_terminal_the_server_and_sorry_hint_show_the_same_estimates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One estimate for every face (sorry.bots.hint_estimate, seed 0): the terminal game's
    panel, the server's reply to the browser and ``sorry hint --seed 0``, in a points hand."""
    import json

    from sorry import Rules
    from sorry.cards import parse_card
    from sorry.cli import main
    from sorry.rng import Rng
    from sorry.web.players import hint_estimates

    position, hand = "R:S,S,4,s2 Y:12,33,40,H R", "1,2,3,4,5"
    cards = [parse_card(x) for x in hand.split(",")]
    g = Game.from_position(position, Rules(variant="points"), hands={0: cards}, seed=0)
    while g.is_chance():  # as sorry hint does
        g.draw()
    terminal = [(str(c.move), round(c.win, 3), c.tied) for c in estimate_chances(g)]
    assert len(terminal) >= 5 and all(c.worlds > 0 for c in estimate_chances(g))
    server = hint_estimates(g.view(0), Rng(0))
    assert [(m["move"], m["win"], m["tied"]) for m in server["moves"]] == terminal
    argv = ["hint", position, "--rules", "points", "--hand", hand, "--seed", "0", "--json"]
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)["moves"]
    assert [(m["move"], round(m["win"], 3), m["tied"]) for m in printed] == terminal


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_the_hint_in_words_in_tmux_at_80x24(tmp_path: Path) -> None:
    """As a person meets it: ``sorry tui --load`` on a tmux pane of 80x24, h shows the hint in
    words (no percentage), h again the figures, q and y quit."""
    from sorry.tui.session import Session
    from test_install_profiles import Terminal

    game = Game.from_position(SEPARATED[0], card=SEPARATED[1])
    save = tmp_path / "hint.json"
    Session(seats=["human", "random"], game=game).save(save)
    env = dict(os.environ, HOME=str(tmp_path), TERM="xterm-256color", LANG="C.UTF-8")
    term = Terminal(tmp_path, env, size=(80, 24))
    try:
        term.start(f"{shlex.quote(sys.executable)} -m sorry tui --load {save}", tmp_path)
        term.wait(lambda s: "Red pawn on Safety 1" in s, 120, "the choices")
        term.keys("h")
        shown = term.wait(lambda s: "Best:" in s, 120, "the hint")
        side = "\n".join(line[line.rfind("│") + 1 :] for line in shown.splitlines())
        assert "better than the others." in " ".join(side.split())
        assert re.search(r"\bbest\b", side) and "not as good" in side
        assert "%" not in side
        assert all(cell_len(line) <= 80 for line in shown.splitlines())
        term.keys("h")
        shown = term.wait(lambda s: re.search(r"\d+% \[\d+–\d+\]", s) is not None, 30, "figures")
        assert "Best:" in shown
        term.keys("q", "y")
        term.wait(lambda s: "[exit 0]" in s, 30, "the exit")
    finally:
        term.close()
