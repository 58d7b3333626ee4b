"""The tutorial's script (sorry.tutorial) on the engine: every step's move is one of the legal
moves the engine lists, and each step makes the newcomer do what its title says."""

from __future__ import annotations

import pytest

from sorry.board import HOME, SAFE_BASE, START
from sorry.effects import EffectKind
from sorry.errors import GameStateError
from sorry.moves import ENTER, SORRY, SPLIT, SWAP
from sorry.tutorial import LEARNER, Step, Turn, all_steps, game_at, lesson_move

STEPS = all_steps()


def test_the_script_plays_to_the_end_of_each_part_on_the_engine() -> None:
    keys = [p.step.key for p in STEPS]
    assert keys == [
        "start", "slide", "bump", "split", "swap", "sorry", "safety", "home", "hand", "score",
    ]  # fmt: skip
    for p in STEPS:
        game = game_at(p.number)
        assert game.to_move == LEARNER and not game.is_chance()
        after = game_at(p.number, played=True, replies=len(p.step.then))
        if p.last:
            assert after.pawns[LEARNER].count(HOME) >= 1
        else:  # the next step starts where this one and the opponent's turns left the game
            nxt = game_at(p.number + 1)
            assert nxt.position_string() == after.position_string()
    standard_end = game_at(7, played=True)
    assert standard_end.position_string() == "R:S,S,25,H Y:S,S,S,2 Y"
    points_end = game_at(9, played=True)
    assert points_end.is_over() and points_end.winner == LEARNER
    assert points_end.scores == {0: 85, 2: 5}  # 20 HOME + 15 for Yellow's pawns + 50 bonus


def test_each_step_does_what_it_says() -> None:
    done: dict[str, object] = {}
    for p in STEPS:
        game = game_at(p.number)
        move = lesson_move(game, p.step)
        kinds = [e.kind for e in game.effects(move)]
        done[p.step.key] = (move.kind, kinds)
        before = sorted(game.pawns[LEARNER])
        hand = list(game.hands[LEARNER])
        game.push(move)
        after = sorted(game.pawns[LEARNER])
        key = p.step.key
        if key == "start":
            assert move.kind == ENTER and before.count(START) > after.count(START)
        elif key == "slide":
            assert EffectKind.SLIDE in kinds and EffectKind.BUMP not in kinds
        elif key == "bump":
            assert kinds == [EffectKind.FORWARD, EffectKind.BUMP]
        elif key == "split":
            assert move.kind == SPLIT and EffectKind.BUMP not in kinds
        elif key == "swap":
            assert move.kind == SWAP
        elif key == "sorry":
            assert move.kind == SORRY and EffectKind.BUMP in kinds
        elif key == "safety":
            assert any(SAFE_BASE < x < HOME for x in after) and not any(
                SAFE_BASE < x < HOME for x in before
            )
        elif key in ("home", "score"):
            assert after.count(HOME) == before.count(HOME) + 1
        elif key == "hand":
            # a card of the hand played, the 5 kept for the next step, the hand refilled
            assert move.card == 8 and 5 in hand and 5 in game.hands[LEARNER]
    assert len(done) == len(STEPS)


def test_a_step_whose_move_the_engine_does_not_list_is_refused() -> None:
    game = game_at(0)
    wrong = Step("x", "x", "x", Turn(1, "R41+2"), "x")
    with pytest.raises(GameStateError):
        lesson_move(game, wrong)
