"""A turn of the standard game (docs/rules.md, Turns): must move, forfeit, a 2 draws again (even
after a forfeit), pass only when allowed, clockwise order, first player, winner, turn limit."""

from __future__ import annotations

import pytest

from engine_helpers import game_at, rules_of
from sorry import Game, GameStateError, IllegalMoveError, Rules, RulesError
from sorry.cards import CARDS
from sorry.rng import Rng


def test_must_move_when_a_move_exists() -> None:
    g = game_at("R:S,S,S,20 Y:S,S,S,S R", 4)
    assert [str(m) for m in g.legal_moves] == ["R20-4"]  # even to the player's disadvantage
    with pytest.raises(IllegalMoveError, match="illegal move pass with card 4"):
        g.push("pass")


def test_pass_is_listed_only_when_allowed() -> None:
    for card in CARDS:
        g = game_at("R:S,S,10,s2 Y:S,S,S,30 R", card)
        moves = [str(m) for m in g.legal_moves]
        assert "pass" not in moves, (card, moves)  # every card has a move here
    g = game_at("R:S,S,s1,58 Y:S,S,S,30 R", 11)  # no 11 forward: the swap may be declined
    assert [str(m) for m in g.legal_moves] == ["R58<>Y30", "pass"]


def test_forfeit_when_no_move_discards_the_card_and_passes_the_turn() -> None:
    g = game_at("R:S,S,S,S Y:S,S,S,S R", 5)
    assert [str(m) for m in g.legal_moves] == ["pass"]
    g.push("pass")
    assert g.position_string() == "R:S,S,S,S Y:S,S,S,S Y"
    assert g.discard_pile == [5] and g.card is None and g.is_chance()


def test_a_two_draws_again_after_a_move() -> None:
    g = game_at("R:S,S,S,S Y:S,S,S,S R", 2)
    g.push("RS>4")
    assert g.to_move == 0 and g.is_chance()
    g.draw(2)
    g.push("R4+2")
    assert g.to_move == 0 and g.is_chance()  # a further 2 draws again again
    g.draw(3)
    g.push("R6+3")
    assert g.to_move == 2
    assert g.position_string() == "R:S,S,S,9 Y:S,S,S,S Y"


def test_a_two_draws_again_even_after_a_forfeit() -> None:
    g = game_at("R:H,H,H,s5 Y:S,S,S,S R", 2)
    assert [str(m) for m in g.legal_moves] == ["pass"]
    g.push("pass")
    assert g.to_move == 0 and g.is_chance()


def test_without_two_draws_again_the_turn_passes() -> None:
    g = game_at("R:S,S,S,S Y:S,S,S,S R", 2, two_draws_again="no")
    g.push("RS>4")
    assert g.to_move == 2


@pytest.mark.parametrize(
    ("players", "order"),
    [
        (4, "RBYGR"),
        (3, "RBYR"),
        (2, "RYR"),
        ((1, 3), "BGB"),
        ((0, 1, 3), "RBGR"),
        ((2, 3), "YGY"),
    ],
)
def test_turns_go_clockwise(players: int | tuple[int, ...], order: str) -> None:
    g = Game(players=players, seed=1, first="RBYG".index(order[0]))
    seen = []
    for card in [3, 5, 8, 12, 10][: len(order)]:
        seen.append("RBYG"[g.to_move])
        g.draw(card)  # not a 2: no drawing again
        g.push(g.legal_moves[0])
    assert "".join(seen) == order
    assert g.next_colour("RBYG".index(order[-2])) == "RBYG".index(order[0])


def test_default_colours() -> None:
    assert Game(players=2, seed=0).colours == (0, 2)
    assert Game(players=3, seed=0).colours == (0, 1, 2)
    assert Game(players=4, seed=0).colours == (0, 1, 2, 3)
    assert Game(seed=0).colours == (0, 1, 2, 3)
    with pytest.raises(RulesError, match="2, 3 or 4 players"):
        Game(players=5, seed=0)
    with pytest.raises(RulesError, match="at least two"):
        Game(players=(1,), seed=0)


def test_first_player_from_the_seed() -> None:
    firsts = set()
    for seed in range(40):
        g = Game(players=3, seed=seed)
        assert g.to_move == (0, 1, 2)[Rng(seed).below(3)]
        assert Game(players=3, seed=seed).to_move == g.to_move  # reproducible
        assert g.first == g.to_move
        firsts.add(g.to_move)
    assert firsts == {0, 1, 2}


def test_first_player_named() -> None:
    assert Game(players=2, seed=3, first=2).to_move == 2
    with pytest.raises(RulesError, match="Blue is not playing"):
        Game(players=2, seed=3, first=1)


def test_winner_when_the_fourth_pawn_reaches_home() -> None:
    g = game_at("R:H,H,H,s5 Y:S,S,S,S R", 1)
    g.push("Rs5+1")
    assert g.is_over() and g.winner == 0 and g.winner_name == "Red"
    assert not g.unfinished and g.legal_moves == []
    assert g.returns() == [1.0, 0.0, -1.0, 0.0]
    with pytest.raises(GameStateError, match="game is over"):
        g.push("pass")
    with pytest.raises(GameStateError):
        g.draw()


def test_winning_with_a_two_ends_the_game_at_once() -> None:
    g = game_at("R:H,H,H,s4 Y:S,S,S,S R", 2)
    g.push("Rs4+2")
    assert g.is_over() and g.winner == 0 and not g.is_chance()


def test_winning_with_a_split_seven() -> None:
    g = game_at("R:H,H,s1,s4 Y:S,S,S,S R", 7)
    assert [str(m) for m in g.legal_moves] == ["Rs1+5/Rs4+2"]
    g.push("Rs4+2/Rs1+5")  # either order
    assert g.is_over() and g.winner == 0
    # 2 + 1 is not 7: no move, no win
    g = game_at("R:H,H,s4,s5 Y:S,S,S,S R", 7)
    assert [str(m) for m in g.legal_moves] == ["pass"]


def test_no_winner_with_three_home() -> None:
    g = game_at("R:H,H,s4,s5 Y:S,S,S,S R", 1)
    g.push("Rs5+1")
    assert not g.is_over() and g.winner is None and g.to_move == 2


def test_turn_limit_counts_every_card_played() -> None:
    rules = rules_of(turn_limit=3)
    g = Game(rules, players=2, seed=4, first=0)
    cards = [2, 5, 3]  # Red's 2 and the draw again are two turns
    for i, card in enumerate(cards):
        assert not g.is_over()
        g.draw(card)
        g.push(g.legal_moves[0])
        assert g.turn == i + 1
    assert g.is_over() and g.unfinished and g.winner is None
    assert g.returns() == [0.0, 0.0, 0.0, 0.0]
    g.pop()
    assert not g.is_over() and g.turn == 2


def test_a_win_on_the_last_turn_of_the_limit_is_a_win() -> None:
    g = Game.from_position("R:H,H,H,s5 Y:S,S,S,S R", Rules(turn_limit=1), card=1)
    g.push("Rs5+1")
    assert g.is_over() and g.winner == 0 and not g.unfinished


def test_turn_limit_validation() -> None:
    with pytest.raises(RulesError):
        Rules.from_options("standard", ["turn_limit=0"])
    with pytest.raises(RulesError):
        Rules.from_options("standard", ["turn_limit=x"])
    assert Rules.from_options("standard", ["turn_limit=none"]).turn_limit is None
