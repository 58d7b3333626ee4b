"""Playouts play exactly the games the Game object plays with the same seeds and choices."""

from __future__ import annotations

import pytest

from sorry.game import Game
from sorry.playout import play, random_game
from sorry.rng import Rng
from sorry.rules import Rules


def game_api_random(rules: Rules, players: int, seed: int) -> tuple[tuple[int, ...], int, str]:
    """The same random game through the public Game API (a choice is drawn only when there
    is more than one legal move, as in the playout)."""
    g = Game(rules, players=players, seed=seed)
    chooser = Rng(seed ^ 0x5EED)
    while not g.is_over():
        if g.is_chance():
            g.draw()
            continue
        moves = g.legal_moves
        g.push(moves[chooser.next64() % len(moves)] if len(moves) > 1 else moves[0])
    return g.winners, g.turn, g.position_string()


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("standard", 4, {}),
        ("standard", 2, {}),
        ("standard", 3, {"slide_on": "all", "sorry_forward_4": "always"}),
        ("standard", 4, {"deck": "44", "two_draws_again": "no", "swap_slides": "both"}),
        ("teams", 4, {}),
        ("teams", 4, {"team_swap_partner": "yes", "starting_pawns_out": "1"}),
    ],
)
def test_playout_matches_game(variant: str, players: int, options: dict[str, str]) -> None:
    rules = Rules.from_options(variant, options)
    for seed in range(12):
        winners, turns, _ = game_api_random(rules, players, seed)
        assert random_game(rules, players, seed) == (winners, turns)
        assert winners  # random games end with a winner


def test_policy_path_equals_inlined_random_path() -> None:
    rules = Rules()
    for seed in range(5):
        chooser = Rng(seed ^ 0x5EED)
        result = play(
            rules, 4, seed, lambda s, c, card, moves, r=chooser: r.next64() % len(moves)
        )
        assert result == random_game(rules, 4, seed)


def test_turn_limit_stops_unfinished() -> None:
    rules = Rules(turn_limit=25)
    assert random_game(rules, 4, 3) == ((), 25)


def test_points_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="points"):
        random_game(Rules(variant="points"), 4, 0)
