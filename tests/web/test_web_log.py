"""The browser game's log in words: each entry says what the move did (from ``Game.effects``:
slides and bumps too), a declined 11 is not called a forfeit, and the words are the same in
another language after a reload (the log rebuilt from the stored game)."""

from __future__ import annotations

import pytest

from sorry import Game
from sorry.i18n import using
from sorry.web.db import MoveRow
from sorry.web.live import log_entries, translated_entry


def logged(position: str, card: int, moves: list[str]) -> tuple[Game, list[MoveRow]]:
    g = Game.from_position(position)
    g.draw(card)  # a step of the history, as in the server's games
    rows = []
    for k, text in enumerate(moves, start=1):
        rows.append(MoveRow(k, g.to_move, "player", text, []))
        g.push(text)
    return g, rows


def test_a_logged_move_says_what_slid_and_what_was_bumped() -> None:
    g, rows = logged("R:S,S,13,s2 B:S,S,S,18 R", 3, ["R13+3"])
    (entry,), said = log_entries(g, rows)
    # said without the mover: the page writes "Red draws 3: …" around it
    assert entry["text"] == "13 → 16, slides to 19, bumps Blue from 18"
    assert entry["card"] == "3" and entry["paths"] == [] and entry["effects"] == []
    assert [str(e) for e in said[1].effects] == [
        "R 13 forward 14 15 16",
        "R 16 slide 17 18 19",
        "B 18 bump S",
    ]
    with using("ca"):
        translated = translated_entry(entry, said)["text"]
    assert "13" in translated and "19" in translated and "Blau" in translated


def test_a_declined_11_is_logged_as_declined_not_forfeited() -> None:
    g, rows = logged("R:S,S,S,0 Y:S,S,S,30 R", 11, ["pass"])
    (entry,), said = log_entries(g, rows)
    assert entry["text"] == "declines the 11"
    with using("ca"):
        assert "renuncia a l'11" in translated_entry(entry, said)["text"]


@pytest.mark.parametrize("card", [5, 11])
def test_a_forfeit_is_logged_as_a_forfeit(card: int) -> None:
    """An 11 with no move at all is a forfeit too (the terminal game's choice says so)."""
    g, rows = logged("R:S,S,S,S Y:S,S,S,30 R", card, ["pass"])
    (entry,), said = log_entries(g, rows)
    assert entry["text"] == "has no legal move: the turn is forfeited"
    with using("ca"):
        assert "moviment legal" in translated_entry(entry, said)["text"]


def test_a_logged_move_names_the_pawns_it_moved_where_they_ended() -> None:
    """The page names those squares the way a player sees the board and marks them."""
    g, rows = logged("R:S,S,13,s2 B:S,S,S,18 R", 3, ["R13+3"])
    (entry,), said = log_entries(g, rows)
    assert entry["movers"] == [["R", "13", "19"]]  # after the slide, not 16
    g, rows = logged("R:S,S,20,40 B:S,S,S,S R", 7, ["R20+3/R40+4"])
    (entry,), said = log_entries(g, rows)
    assert entry["movers"] == [["R", "20", "23"], ["R", "40", "44"]]
    with using("el"):
        assert translated_entry(entry, said)["movers"] == entry["movers"]
    g, rows = logged("R:S,S,S,S Y:S,S,S,30 R", 5, ["pass"])
    (entry,), said = log_entries(g, rows)
    assert entry["movers"] == []
