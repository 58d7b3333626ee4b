"""Move effects (sorry.effects): concrete positions for every kind of event, and in whole
seeded games of every variant the effects of every legal move replay to the engine's result."""

from __future__ import annotations

import json

import pytest

from engine_helpers import play_out
from sorry.board import BACKWARD, FORWARD, HOME, START, TRACK_LEN
from sorry.effects import Effect, EffectKind, effects_json, net_moves, parts
from sorry.errors import IllegalMoveError
from sorry.game import Game
from sorry.moves import Move
from sorry.rng import Rng
from sorry.rules import OPTION_VALUES, VARIANTS, Rules
from sorry.tui.anim import frames

_ONLY = {"team_seven_split": "teams", "team_swap_partner": "teams", "points_bonus": "points"}
#: Each variant with its defaults, then every other value of every option once.
ALL_RULES = [Rules(variant=v) for v in VARIANTS] + [
    Rules.from_options(variant, [f"{name}={value}"])
    for name, values in OPTION_VALUES.items()
    for value in values[1:]
    for variant in VARIANTS
    if _ONLY.get(name, variant) == variant
    and not (variant == "points" and name == "starting_pawns_out")
]


def shown(g: Game, move: str) -> list[str]:
    return [str(e) for e in g.effects(move)]


def test_forward_square_by_square_into_the_safety_zone_and_home() -> None:
    g = Game.from_position("R:S,S,0,s2 B:S,S,S,18 R", card=5)
    assert shown(g, "R0+5") == ["R 0 forward 1 2 s1 s2 s3"]
    g = Game.from_position("R:S,S,0,s2 B:S,S,S,18 R", card=4)
    assert shown(g, "R0-4") == ["R 0 backward 59 58 57 56"]
    g = Game.from_position("R:S,S,58,s3 B:S,S,S,30 R", card=8)
    assert shown(g, "R58+8") == ["R 58 forward 59 0 1 2 s1 s2 s3 s4"]  # over its own pawn
    g = Game.from_position("R:S,S,58,s2 B:S,S,S,30 R", card=4)
    assert shown(g, "R58-4") == ["R 58 backward 57 56 55 54", "R 54 slide 55 56 57 58"]


def test_backward_out_of_the_safety_zone() -> None:
    g = Game.from_position("R:S,S,20,s2 B:S,S,S,18 R", card=4)
    assert shown(g, "Rs2-4") == ["R s2 backward s1 2 1 0"]
    g = Game.from_position("R:S,S,20,s5 B:S,S,S,18 R", card=1)
    assert shown(g, "Rs5+1") == ["R s5 forward H"]


def test_a_bump_on_the_landing_square_then_the_slide_and_its_bumps() -> None:
    g = Game.from_position("R:S,S,13,s2 B:S,S,16,18 R", card=3)
    assert shown(g, "R13+3") == [
        "R 13 forward 14 15 16",
        "B 16 bump S",
        "R 16 slide 17 18 19",
        "B 18 bump S",
    ]
    assert net_moves(g.effects("R13+3")) == [(0, 13, 19), (1, 16, START), (1, 18, START)]


def test_start_bumps_an_opponent_on_the_exit() -> None:
    g = Game.from_position("R:S,S,S,S B:S,S,S,4 R", card=1)
    assert shown(g, "RS>4") == ["R S start 4", "B 4 bump S"]


def test_sorry_takes_the_square_and_slides() -> None:
    g = Game.from_position("R:S,S,S,S B:S,S,31,33 R", card=13)
    assert shown(g, "RS>B31") == [
        "R S sorry 31",
        "B 31 bump S",
        "R 31 slide 32 33 34",
        "B 33 bump S",
    ]


def test_swap_mover_first_and_only_the_mover_slides() -> None:
    g = Game.from_position("R:S,S,S,10 B:S,S,S,16 R", card=11)
    assert shown(g, "R10<>B16") == ["R 10 swap 16", "B 16 swap 10", "R 16 slide 17 18 19"]
    e = g.effects("R10<>B16")
    assert [x.kind for x in e] == [EffectKind.SWAP, EffectKind.SWAP, EffectKind.SLIDE]
    assert net_moves(e) == [(0, 10, 19), (1, 16, 10)]


def test_swap_slides_both() -> None:
    rules = Rules(swap_slides="both", slide_on="all")
    g = Game.from_position("R:S,S,S,1 B:S,S,S,9 R", rules, card=11)
    assert shown(g, "R1<>B9") == [
        "R 1 swap 9",
        "B 9 swap 1",
        "R 9 slide 10 11 12 13",
        "B 1 slide 2 3 4",
    ]


def test_split_seven_numbers_its_halves() -> None:
    g = Game.from_position("R:S,S,10,20 B:S,S,S,13 R", card=7)
    e = g.effects("R10+3/R20+4")
    assert [str(x) for x in e] == [
        "R 10 forward 11 12 13",
        "B 13 bump S",
        "R 20 forward 21 22 23 24",
        "R 24 slide 25 26 27 28",
    ]
    assert [x.part for x in e] == [0, 0, 1, 1]
    assert [len(p) for p in parts(e)] == [2, 2]


def test_a_four_back_that_slides_back_leaves_no_net_move() -> None:
    g = Game.from_position("R:S,S,S,43 B:S,S,S,5 R", card=4)
    e = g.effects("R43-4")
    assert [x.kind for x in e] == [EffectKind.BACKWARD, EffectKind.SLIDE]
    assert net_moves(e) == []


def test_frames_show_the_path_the_landing_and_the_slide() -> None:
    g = Game.from_position("R:S,S,13,s2 B:S,S,16,18 R", card=3)
    shown = frames(g.state, Move.parse("R13+3"))
    assert [f.focus for f in shown] == [(-1, 14), (-1, 15), (-1, 16), (-1, 19)]
    assert sorted(shown[2].pawns[1]) == [18, START, START, START]  # bumped on landing
    assert sorted(shown[3].pawns[1]) == [START] * 4


def test_pass_and_illegal_moves() -> None:
    g = Game.from_position("R:S,S,S,S B:S,S,S,30 R", card=3)
    assert g.effects("pass") == []
    with pytest.raises(IllegalMoveError):
        g.effects("R30+3")


def test_json_round_trip() -> None:
    g = Game.from_position("R:S,S,13,s2 B:S,S,16,18 R", card=3)
    data = json.loads(json.dumps(effects_json(g.effects("R13+3"))))
    assert data[0] == {
        "kind": "forward",
        "colour": "R",
        "from": "13",
        "to": "16",
        "path": ["14", "15", "16"],
        "part": 0,
    }
    assert [Effect.from_dict(d) for d in data] == g.effects("R13+3")


def _check(state_before: Game, move: Move) -> None:
    effects = state_before.effects(move)
    pawns = [p[:] for p in state_before.state.pawns]
    for e in effects:
        assert e.src in pawns[e.colour]
        if e.kind in (EffectKind.FORWARD, EffectKind.BACKWARD):
            table = FORWARD if e.kind == EffectKind.FORWARD else BACKWARD
            assert e.path == tuple(table[e.colour][e.src][k] for k in range(1, len(e.path) + 1))
        elif e.kind == EffectKind.SLIDE:
            assert e.src < TRACK_LEN and e.path == tuple(range(e.src + 1, e.dest + 1))
        elif e.kind == EffectKind.BUMP:
            assert e.src < TRACK_LEN and e.path == (START,)
        e.apply_to(pawns)
    after = state_before.copy(stack=False)
    after.push(move)
    assert [sorted(p) for p in pawns] == [sorted(p) for p in after.state.pawns]
    steps = [e for e in effects if e.kind in (EffectKind.FORWARD, EffectKind.BACKWARD)]
    if move.kind in (0, 1):
        assert len(steps) == 1 and len(steps[0].path) == move.steps
    if move.is_split:
        assert [len(s.path) for s in steps] == [p.steps for p in move.parts]
    assert HOME not in {e.src for e in effects}
    if effects:  # the animation ends on the board after the move
        shown = frames(state_before.state, move)
        assert [sorted(p) for p in shown[-1].pawns] == [sorted(p) for p in after.state.pawns]


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_effects_replay_to_the_result_of_every_legal_move(rules: Rules) -> None:
    """In seeded random games, every legal move's effects, played in order on the board
    before it, give the board the engine leaves, with paths that follow the board tables."""
    rng = Rng(0)

    def choose(g: Game, moves: list[Move]) -> Move:
        for m in moves:
            _check(g, m)
        return moves[rng.below(len(moves))]

    g = play_out(Game(rules, players=4 if rules.teams else 3, seed=0), choose, 400)
    assert g.turn > 100
