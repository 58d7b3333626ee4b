"""The points variant's score while it is played: each player's points so far in the view the
page gets (the players panel shows them), the finished game's points at the end."""

from __future__ import annotations

from sorry import Game, Rules
from sorry.web.protocol import view_json


def test_points_so_far_in_a_points_game() -> None:
    rules = Rules(variant="points", starting_pawns_out=1)
    g = Game.from_position("R:H,H,10,S Y:H,S,S,S R", rules=rules, hands={0: [5, 5, 7, 8, 10]})
    assert view_json(g.view(0))["scores"] == {"R": 10, "Y": 5}  # 5 a pawn HOME, no winner yet
    standard = Game.from_position("R:H,H,10,S Y:H,S,S,S R", card=5)
    assert view_json(standard.view(0))["scores"] is None  # nothing is scored
