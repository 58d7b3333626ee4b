"""The lean loop (sorry.playout) plays exactly the games the Game object plays with the same
seeds and choices, in every variant."""

from __future__ import annotations

import pytest

from engine_helpers import below_moves, play_out, rng_moves
from sorry.game import Game
from sorry.playout import Table, play, random_bots_game, random_game
from sorry.rng import Rng
from sorry.rulebook import colours_for
from sorry.rules import Rules
from sorry.sim.runner import RunSpec, play_one


def game_api_random(rules: Rules, players: int, seed: int) -> tuple[tuple[int, ...], int, str]:
    """The same random game through the public Game API (a choice is drawn only when there
    is more than one legal move, as in the playout)."""
    g = play_out(Game(rules, players=players, seed=seed), rng_moves(Rng(seed ^ 0x5EED)))
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
        ("points", 3, {}),
        ("points", 4, {"points_bonus": "cumulative"}),
    ],
)
def test_playout_matches_game(variant: str, players: int, options: dict[str, str]) -> None:
    rules = Rules.from_options(variant, options)
    for seed in range(12):
        winners, turns, _ = game_api_random(rules, players, seed)
        assert random_game(rules, players, seed) == (winners, turns)
        assert winners  # random games end with a winner


@pytest.mark.parametrize("variant", ["standard", "points"])
def test_a_policy_is_asked_only_for_choices(variant: str) -> None:
    """A policy that draws from the random player's generator plays the random game: it is
    asked only when there is a choice."""
    rules = Rules(variant=variant)
    for seed in range(5):
        chooser = Rng(seed ^ 0x5EED)
        result = play(rules, 4, seed, lambda s, c, card, moves, r=chooser: r.next64() % len(moves))
        assert result == random_game(rules, 4, seed)


def test_turn_limit_stops_unfinished() -> None:
    rules = Rules(turn_limit=25)
    assert random_game(rules, 4, 3) == ((), 25)


def test_a_table_goes_on_where_it_stopped() -> None:
    """Played 40 turns, then to the end, a table plays the game played at once."""
    rules = Rules(variant="points")
    whole = Table.new(rules, 3, 5)
    winners = whole.play(chooser=Rng(1))
    halves = Table.new(rules, 3, 5)
    chooser = Rng(1)
    assert halves.play(limit=40, chooser=chooser) == () and halves.turn == 40
    assert halves.play(chooser=chooser) == winners and halves.turn == whole.turn
    assert halves.state.key() == whole.state.key() and halves.hands == whole.hands


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("standard", 4, {}),
        ("standard", 2, {}),
        ("standard", 3, {"slide_on": "all", "sorry_forward_4": "always"}),
        ("standard", 4, {"deck": "44", "two_draws_again": "no", "swap_slides": "both"}),
        ("standard", 4, {"turn_limit": "60"}),
        ("teams", 4, {}),
        ("teams", 4, {"team_swap_partner": "yes", "starting_pawns_out": "1"}),
        ("points", 3, {}),
        ("points", 4, {"turn_limit": "50"}),
    ],
)
def test_random_bots_game_is_the_simulators_game(
    variant: str, players: int, options: dict[str, str]
) -> None:
    """The lean loop with one generator per colour plays sorry.sim's games with random bots
    move for move, points included (what `sorry simulate` relies on to choose it for random
    bots)."""
    rules = Rules.from_options(variant, options)
    colours = colours_for(players, rules)
    spec = RunSpec(rules, colours, ("random",) * players, seed=7)
    for index in range(15):
        record = play_one(spec, index)
        played = random_bots_game(rules, players, spec.game_seed(index))
        assert played.winners == tuple(colours[k] for k in record.winners)
        assert (played.turns, played.first) == (record.turns, colours[record.first])
        scores = tuple(played.scores.get(c, 0) for c in colours) if played.scores else None
        assert scores == record.scores


@pytest.mark.parametrize("variant", ["standard", "teams", "points"])
def test_a_table_of_a_game_goes_on_as_the_game(variant: str) -> None:
    """Table.of(game), at a chance node or with a card drawn, plays on as the Game does with
    the same player (the terminal game's random hints roll out on it); the game is unchanged."""
    rules = Rules(variant=variant)
    for seed in range(4):
        g = Game(rules, 4 if variant == "teams" else 3, seed=seed)
        play_out(g, rng_moves(Rng(seed)), max_steps=61 + seed)
        before = g.snapshot()
        table = Table.of(g)
        winners = table.play(streams=[Rng(9)] * 4)
        assert g.snapshot() == before
        play_out(g, below_moves(Rng(9)))
        assert (winners, table.turn) == (g.winners, g.turn)
        assert table.state.key() == g.state.key()
