"""The integer action encoding (sorry.actions, docs/actions.md): round trips over random games
in every variant, the mask, and the fixed layout of the action space."""

from __future__ import annotations

import random

import pytest

from engine_helpers import play_out
from sorry import Game, Move, Rules
from sorry.actions import (
    DISCARD_BASE,
    NUM_ACTIONS,
    PASS_ACTION,
    SORRY_BASE,
    SPLIT_BASE,
    SWAP_BASE,
    action_mask,
    action_name,
    decode,
    encode,
    legal_action_moves,
    legal_actions,
)
from sorry.cards import CARDS
from sorry.errors import IllegalMoveError, RulesError

VARIANTS = [
    ("standard", 2, {}),
    ("standard", 3, {}),
    ("standard", 4, {"sorry_forward_4": "always"}),
    ("teams", 4, {}),
    ("teams", 4, {"team_swap_partner": "yes", "sorry_forward_4": "fallback"}),
    ("points", 2, {}),
    ("points", 4, {"sorry_forward_4": "always"}),
]


def _check_node(game: Game) -> int:
    """Every listed move round-trips, actions are distinct, the mask is exact; for the game
    and for the mover's view. Returns the number of moves checked."""
    moves = game.legal_moves
    actions = [encode(game, m) for m in moves]
    assert len(set(actions)) == len(actions)
    for m, a in zip(moves, actions, strict=True):
        assert 0 <= a < NUM_ACTIONS
        assert decode(game, a) == m, (game.position_string(), str(m), a)
    assert legal_actions(game) == sorted(actions)
    mask = action_mask(game)
    assert len(mask) == NUM_ACTIONS
    assert [i for i, ok in enumerate(mask) if ok] == sorted(actions)
    view = game.view(game.to_move)
    assert legal_actions(view) == sorted(actions)
    assert all(decode(view, a) == m for m, a in zip(moves, actions, strict=True))
    assert legal_action_moves(game) == dict(sorted(zip(actions, moves, strict=True)))
    return len(moves)


def _random_games(variant: str, players: int, options: dict[str, str], games: int) -> int:
    rules = Rules.from_options(variant, options)
    rng = random.Random(f"{variant}{players}{options}")
    checked = 0

    def choose(game: Game, moves: list[Move]) -> Move:
        nonlocal checked
        checked += _check_node(game)
        return rng.choice(moves)

    for _ in range(games):
        game = play_out(Game(rules, players=players, seed=rng.randrange(2**32)), choose, 1000)
        assert game.is_over() or game.turn == 1000
    return checked


@pytest.mark.parametrize(("variant", "players", "options"), VARIANTS)
def test_round_trip_random_games(variant: str, players: int, options: dict[str, str]) -> None:
    assert _random_games(variant, players, options, games=3) > 100


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players", "options"), VARIANTS)
def test_round_trip_many_games(variant: str, players: int, options: dict[str, str]) -> None:
    assert _random_games(variant, players, options, games=40) > 1000


def test_ranges() -> None:
    assert (SWAP_BASE, SORRY_BASE, SPLIT_BASE, PASS_ACTION, DISCARD_BASE) == (
        128,
        256,
        288,
        672,
        673,
    )
    assert NUM_ACTIONS == DISCARD_BASE + len(CARDS) == 684


def test_examples_in_docs() -> None:
    g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=10)
    assert {str(m): encode(g, m) for m in g.legal_moves} == {
        "R4+10": 2 * 16 + 9,
        "R4-1": 2 * 16 + 12,
        "Rs2-1": 3 * 16 + 12,
    }
    g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=1)
    assert encode(g, Move.parse("RS>4")) == 14  # START is slot 0
    assert decode(g, 14) == Move.parse("RS>4")
    g = Game.from_position("R:S,S,10,s2 Y:12,33,40,H R", card=2)
    assert legal_actions(g) == [15, 2 * 16 + 1, 3 * 16 + 1]
    # Sorry!: own placer 0, Yellow is two seats on, its pawn on 33 is slot 1.
    g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=13)
    assert encode(g, Move.parse("RS>Y33")) == SORRY_BASE + 0 * 16 + 2 * 4 + 1
    # 11: R4 (slot 2) swaps with Y40 (relative colour 2, slot 2).
    g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=11)
    assert encode(g, Move.parse("R4<>Y40")) == SWAP_BASE + 2 * 16 + 2 * 4 + 2
    # 7: R4 (slot 2) moves 3, then Rs2 (slot 3) moves 4.
    g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=7)
    a = SPLIT_BASE + (2 * 8 + 3) * 6 + 2
    assert decode(g, a) == Move.parse("R4+3/Rs2+4")
    assert action_name(g, a) == "R4+3/Rs2+4"


def test_relative_colours_and_partner_slots() -> None:
    rules = Rules(variant="teams")
    g = Game.from_position("R:S,5,6,7 B:S,S,S,S Y:S,S,20,21 G:30,S,S,S B", rules, card=13)
    # Blue moves; its partner is Green. Green's START pawn (slot 4) may be placed on Red's 5
    # (relative colour (0-1)%4 = 3, slot 1).
    assert encode(g, Move.parse("GS>R5")) == SORRY_BASE + 16 + 3 * 4 + 1
    assert decode(g, SORRY_BASE + 16 + 3 * 4 + 1) == Move.parse("GS>R5")
    # Green's pawn on 30 is slot 4+3 = 7: forward 5.
    g = Game.from_position("R:S,5,6,7 B:S,S,S,S Y:S,S,20,21 G:30,S,S,S B", rules, card=5)
    assert encode(g, Move.parse("G30+5")) == 7 * 16 + 4


def test_points_actions_imply_the_card() -> None:
    rules = Rules.from_options("points", ["sorry_forward_4=always"])
    g = Game.from_position(
        "R:S,S,S,4 Y:S,S,S,34 R", rules, hands={0: [13, 4, 10, 1, 2], 2: [3, 5, 7, 8, 12]}
    )
    while g.is_chance():
        g.draw()
    names = {action_name(g, a) for a in legal_actions(g)}
    assert {"S:R4+4", "4:R4-4", "10:R4+10", "10:R4-1", "1:RS>4", "2:RS>4"} <= names or (
        "1:RS>4" not in names  # START exit held by the own pawn: no start
    )
    assert "S:RS>Y34" in names
    assert decode(g, 3 * 16 + 3) == Move.parse("S:R4+4")
    assert decode(g, 3 * 16 + 13) == Move.parse("4:R4-4")
    assert decode(g, DISCARD_BASE + CARDS.index(13)) == Move.discard(13)


def test_pass_and_errors() -> None:
    g = Game.from_position("R:S,S,S,S Y:S,S,S,S R", card=5)
    assert legal_actions(g) == [PASS_ACTION]
    assert decode(g, PASS_ACTION) == Move.pass_()
    with pytest.raises(IllegalMoveError, match="out of range"):
        decode(g, NUM_ACTIONS)
    with pytest.raises(IllegalMoveError, match="partner"):
        decode(g, 4 * 16)
    with pytest.raises(IllegalMoveError, match="no pawn"):
        encode(g, Move.parse("R10+5"))
    with pytest.raises(IllegalMoveError, match="not the mover"):
        encode(g, Move.parse("Y34+5"))
    with pytest.raises(IllegalMoveError, match="with a 1"):
        decode(g, 14)  # a start needs the drawn 1
    assert legal_actions(Game(seed=1)) == []  # a chance node


def test_multi_part_split_refused() -> None:
    rules = Rules.from_options("teams", ["team_seven_split=any"])
    g = Game.from_position("R:10,20,30,S B:S,S,S,S Y:S,S,S,S G:S,S,S,S R", rules, card=7)
    multi = [m for m in g.legal_moves if m.is_split and len(m.parts) > 2]
    assert multi
    with pytest.raises(RulesError, match="team_seven_split=any"):
        encode(g, multi[0])
