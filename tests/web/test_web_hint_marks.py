"""What the page is told about a hint besides the move: whether its chances are rough (the
Python engine's playouts, as the terminal game marks them) and whether it was given while the
server's compiled search was still being prepared (no chances then)."""

from __future__ import annotations

from typing import Any

import pytest

from sorry import Game
from sorry.bots import rollouts
from sorry.web import workers
from sorry.web.bots import hint_reply
from sorry.web.players import HintResult, rough_estimates

#: Red can choose among several moves (a 4 back or forward with a pawn out).
POSITION = "R:S,S,10,20 Y:S,S,S,30 R"


def view_of(position: str, card: int) -> Any:
    g = Game.from_position(position, card=card)
    return g.view(g.to_move)


@pytest.mark.parametrize("compiled", [True, False])
def test_a_hint_from_python_playouts_is_marked_rough(
    monkeypatch: pytest.MonkeyPatch, compiled: bool
) -> None:
    """The same source of truth as the terminal game's rough hint: whether the compiled
    rollouts are available (``sorry.bots.rollouts.compiled_available``); the reply carries
    it to the page."""
    monkeypatch.setattr(rollouts, "compiled_available", lambda: compiled)
    assert rough_estimates() is (not compiled)
    chance = {"move": "R10+4", "win": 0.4, "low": 0.3, "high": 0.5, "worlds": 8, "tied": False}
    result: HintResult = {
        "move": "R10+4",
        "moves": [chance],  # type: ignore[list-item]
        "separated": True,
        "rough": rough_estimates(),
    }
    reply = hint_reply(3, result)
    assert reply["rough"] is (not compiled) and reply["provisional"] is False


def test_a_hint_while_the_search_is_prepared_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers._WARMING, "is_set", lambda: True)
    result = workers.hint_move(view_of(POSITION, 4), 5)
    reply = hint_reply(3, result)
    assert reply["provisional"] is True and reply["moves"] == [] and reply["move"]


def test_the_hinted_move_is_said_as_the_list_of_moves_says_it_slides_included() -> None:
    """The hint's line and the list under it say the same thing: the slide and the bump too."""
    from sorry.web.protocol import hint_words, view_json

    g = Game.from_position("R:S,S,13,s2 B:S,S,S,18 R", card=3)
    words = hint_words(g, "R13+3")
    assert words == "Red 13 → 16, slides to 19, bumps Blue from 18"
    listed = {m["move"]: m["text"] for m in view_json(g.view(g.to_move), g)["legal_moves"]}
    assert listed["R13+3"] == words
