"""The bot protocol and the levels: legality in every variant, determinism, behaviour."""

from __future__ import annotations

import pytest

from sorry import Game, Move, Rules
from sorry.bots import LEVELS, Bot, make_bot, play_game
from sorry.errors import SorryError
from sorry.rng import Rng

FAST_LEVELS = ("random", "easy", "medium")


def test_make_bot_levels_follow_protocol() -> None:
    for level in FAST_LEVELS:
        bot = make_bot(level)
        assert isinstance(bot, Bot)
        assert bot.name == level
    assert LEVELS == ("random", "easy", "medium", "hard", "expert")
    with pytest.raises(SorryError):
        make_bot("grandmaster")


@pytest.mark.parametrize("level", FAST_LEVELS)
@pytest.mark.parametrize("variant", ["standard", "teams", "points"])
def test_levels_play_legal_games_in_every_variant(level: str, variant: str) -> None:
    players = 4 if variant == "teams" else 2
    bots = [make_bot(level) for _ in range(players)]
    g = play_game(Rules(variant=variant), bots, seed=11)
    assert g.is_over() and g.winner is not None


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_same_seed_same_game(level: str) -> None:
    rules = Rules(variant="points")
    a = play_game(rules, [make_bot(level), make_bot("random")], seed=3)
    b = play_game(rules, [make_bot(level), make_bot("random")], seed=3)
    assert a.history == b.history


def test_play_game_accepts_a_mapping_of_colours() -> None:
    g = play_game(Rules(), {0: make_bot("easy"), 1: make_bot("easy"), 3: make_bot("random")}, 4)
    assert g.colours == (0, 1, 3) and g.is_over()


def test_easy_takes_a_pawn_home() -> None:
    g = Game.from_position("R:S,S,10,s1 Y:20,30,40,S R", card=5)
    move = make_bot("easy").choose(g.view(0), Rng(1))
    assert move == Move.parse("Rs1+5")


def test_easy_bumps_rather_than_plods() -> None:
    # A 3 either takes the pawn on 10 to 13 (bumping Yellow) or the pawn on 30 to 33.
    g = Game.from_position("R:S,S,10,30 Y:13,S,S,S R", card=3)
    assert make_bot("easy").choose(g.view(0), Rng(1)) == Move.parse("R10+3")


def test_medium_moves_out_of_danger() -> None:
    # Yellow on 20 is a 5 (or a split 7) behind the Red pawn on 25, which can escape 12
    # ahead; the far pawn on 45 has nobody behind it.
    g = Game.from_position("R:S,S,25,45 Y:20,S,S,S R", card=12)
    move = make_bot("medium").choose(g.view(0), Rng(1))
    assert move == Move.parse("R25+12")


def test_points_discard_when_the_hand_is_dead() -> None:
    g = Game.from_position(
        "R:S,S,S,S Y:20,S,S,S R",
        rules=Rules(variant="points"),
        hands={0: [3, 5, 8, 12, 4], 2: [1, 2, 3, 5, 7]},
    )
    while g.is_chance():
        g.draw()
    view = g.view(0)
    assert all(m.is_discard for m in view.legal_moves)
    for level in FAST_LEVELS:
        assert make_bot(level).choose(view, Rng(2)) in view.legal_moves


def test_bots_only_see_the_view() -> None:
    """A bot handed views of two games that differ only in hidden cards plays the same."""
    rules = Rules(variant="points")
    g = Game(rules, players=2, seed=8)
    while g.is_chance():
        g.draw()
    view = g.view(g.to_move)
    other = view.determinise(seed=99)
    assert other.view(view.viewer) == view
    for level in FAST_LEVELS:
        assert make_bot(level).choose(view, Rng(5)) == make_bot(level).choose(
            other.view(view.viewer), Rng(5)
        )
