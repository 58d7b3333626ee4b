"""The Game API: push/pop, copy, JSON, chance outcomes, draw(card) and the errors."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest

from engine_helpers import game_at
from sorry import (
    Game,
    GameStateError,
    IllegalMoveError,
    Move,
    NotationError,
    PositionError,
    Rules,
    RulesError,
    SorryError,
)
from sorry.cards import deck_counts


def full_state(g: Game) -> tuple[object, ...]:
    return (
        g.position_string(),
        g.phase,
        g.card,
        list(g.draw_pile),
        list(g.discard_pile),
        g.rng.state,
        g.turn,
        g.winners,
        [str(m) for m in g.legal_moves],
    )


def play_until_empty_pile(seed: int) -> Game:
    """A random game stopped at a chance node with an empty draw pile."""
    g = Game(players=4, seed=seed)
    while not (g.is_chance() and not g.draw_pile):
        assert not g.is_over()
        if g.is_chance():
            g.draw()
        else:
            moves = g.legal_moves
            g.push(moves[(g.turn * 7) % len(moves)])
    return g


def test_push_pop_restore_exactly() -> None:
    g = Game(players=3, seed=21)
    states = [full_state(g)]
    steps = []
    for _ in range(300):
        if g.is_over():
            break
        if g.is_chance():
            steps.append(g.draw())
        else:
            m = g.legal_moves[-1]
            g.push(m)
            steps.append(m)
        states.append(full_state(g))
    while steps:
        assert g.pop() == steps.pop()
        states.pop()
        assert full_state(g) == states[-1]
    with pytest.raises(GameStateError, match="nothing to take back"):
        g.pop()


def test_pop_after_a_reshuffle_restores_the_discard_pile_order() -> None:
    g = play_until_empty_pile(5)
    before = full_state(g)
    outcome = Counter(g.discard_pile)
    first = g.draw()
    after = full_state(g)
    assert Counter(g.draw_pile) + Counter([first]) == outcome
    g.pop()
    assert full_state(g) == before
    assert g.draw() == first  # the same shuffle again
    assert full_state(g) == after


def test_chance_outcomes_exact() -> None:
    g = Game(seed=1)
    fr = dict(g.chance_fractions())
    assert fr == {c: Fraction(n, 45) for c, n in deck_counts(45).items()}
    assert sum(p for _c, p in g.chance_outcomes()) == pytest.approx(1.0)
    top = g.draw_pile[-1]
    g.draw()
    g.push(g.legal_moves[0])
    if g.is_chance():
        fr = dict(g.chance_fractions())
        left = Counter(deck_counts(45))
        left[top] -= 1
        assert fr == {c: Fraction(n, 44) for c, n in left.items() if n}


def test_chance_outcomes_when_the_draw_pile_is_empty_are_the_discards() -> None:
    g = play_until_empty_pile(9)
    counts = Counter(g.discard_pile)
    total = len(g.discard_pile)
    assert total == 45
    assert dict(g.chance_fractions()) == {c: Fraction(n, total) for c, n in counts.items()}


def test_chance_outcomes_only_at_chance_nodes() -> None:
    g = game_at("R:S,S,S,S Y:S,S,S,S R", 3)
    with pytest.raises(GameStateError, match="not a chance node"):
        g.chance_outcomes()
    assert g.legal_moves != []
    g.push("pass")
    assert g.legal_moves == []  # chance node: no moves


def test_draw_a_chosen_card_for_search() -> None:
    g = Game(seed=3)
    pile = list(g.draw_pile)
    assert g.draw(7) == 7 and g.card == 7
    rest = list(pile)
    idx = len(rest) - 1 - rest[::-1].index(7)
    del rest[idx]
    assert g.draw_pile == rest
    g.pop()
    assert g.draw_pile == pile


def test_draw_a_card_that_is_gone_changes_nothing() -> None:
    g = game_at("R:S,S,S,S Y:S,S,S,S R", 1)
    g.push("RS>4")
    for card in (7, 8, 10, 11):
        while card in g.draw_pile:
            g.draw(card)
            g.push(g.legal_moves[0])
    before = full_state(g)
    with pytest.raises(GameStateError, match="no 7 is left"):
        g.draw(7)
    assert full_state(g) == before
    # the same when the draw pile is empty and would be reshuffled (all 45 are discards)
    g = play_until_empty_pile(5)
    before = full_state(g)
    with pytest.raises(GameStateError, match="no 6 is left"):
        g.draw(6)  # no such card: nothing is reshuffled
    assert full_state(g) == before


def test_copy_is_independent() -> None:
    g = play_until_empty_pile(5)
    c = g.copy()
    assert c == g
    before = full_state(g)
    c.draw()
    c.push(c.legal_moves[0])
    assert full_state(g) == before
    c.pop()
    c.pop()
    assert full_state(c) == before
    # popping the shared history in the copy leaves the original alone
    c.pop()
    assert full_state(g) == before
    g.draw()
    c2 = g.copy(stack=False)
    with pytest.raises(GameStateError):
        c2.pop()
    assert c2 == g


def test_json_round_trip_and_pop_after_load() -> None:
    g = Game(players=4, seed=12, rules=Rules(deck=44, swap_slides="both"))
    states = [full_state(g)]
    for _ in range(150):
        if g.is_chance():
            g.draw()
        else:
            g.push(g.legal_moves[len(g.legal_moves) // 2])
        states.append(full_state(g))
    text = g.to_json()
    h = Game.from_json(text)
    assert h == g and h.to_json() == text and full_state(h) == full_state(g)
    assert h.rules == g.rules and h.seed == g.seed
    while states[:-1]:
        h.pop()
        states.pop()
        assert full_state(h) == states[-1]


def test_json_of_a_position_game() -> None:
    g = game_at("R:S,S,4,s2 Y:12,33,40,H Y", 10, seed=4)
    g.push("Y12-1")
    h = Game.from_json(g.to_json())
    assert h.position_string() == "R:S,S,4,s2 Y:11,33,40,H R"
    h.pop()
    assert h.position_string() == "R:S,S,4,s2 Y:12,33,40,H Y" and h.card == 10


def test_json_errors() -> None:
    with pytest.raises(NotationError, match="bad JSON"):
        Game.from_json("{")
    with pytest.raises(NotationError, match="format"):
        Game.from_json(json.dumps({"format": "chess"}))
    g = Game(seed=1)
    g.draw()
    data = g.to_dict()
    data["current"]["rng"] += 1
    with pytest.raises(NotationError, match="do not lead"):
        Game.from_dict(data)


def test_from_position_takes_the_card_out_of_the_deck() -> None:
    g = game_at("R:S,S,S,S Y:S,S,S,S R", 1)
    assert len(g.draw_pile) == 44 and Counter(g.draw_pile)[1] == 4
    assert g.card == 1 and not g.is_chance()
    g = game_at("R:S,S,S,S Y:S,S,S,S R")
    assert g.is_chance() and len(g.draw_pile) == 45
    with pytest.raises(PositionError):
        Game.from_position("R:S,S,S Y:S,S,S,S R")


def test_push_accepts_notation_and_moves() -> None:
    g = game_at("R:S,S,S,10 Y:S,S,S,S R", 5)
    assert g.is_legal(Move.parse("R10+5")) and not g.is_legal(Move.parse("R10+4"))
    g.push(Move.parse("R10+5"))
    assert g.move_stack == [Move.parse("R10+5")]
    assert g.history == [Move.parse("R10+5")]


@pytest.mark.parametrize(
    ("move", "error", "message"),
    [
        ("R10+4", IllegalMoveError, r"illegal move R10\+4 with card 5 in R:S,S,S,10 Y:S,S,S,S R"),
        ("R11+5", IllegalMoveError, "illegal move"),
        ("Y10+5", IllegalMoveError, "illegal move"),
        ("pass", IllegalMoveError, "illegal move pass"),
        ("RS>4", IllegalMoveError, "illegal move"),
        ("R10+2/R15+3", IllegalMoveError, "illegal move"),
        ("nonsense", NotationError, "bad move"),
    ],
)
def test_illegal_moves(move: str, error: type[SorryError], message: str) -> None:
    g = game_at("R:S,S,S,10 Y:S,S,S,S R", 5)
    before = full_state(g)
    with pytest.raises(error, match=message):
        g.push(move)
    assert full_state(g) == before


def test_phase_errors() -> None:
    g = Game(seed=1)
    with pytest.raises(GameStateError, match="a card must be drawn first"):
        g.push("pass")
    g.draw()
    with pytest.raises(GameStateError, match="a move is expected"):
        g.draw()
    with pytest.raises(GameStateError, match="a move is expected"):
        g.step()


def test_errors_are_value_errors() -> None:
    for err in (IllegalMoveError, GameStateError, PositionError, NotationError, RulesError):
        assert issubclass(err, SorryError) and issubclass(err, ValueError)
    with pytest.raises(RulesError, match="unknown rule option"):
        Rules.from_options("standard", ["speed=fast"])
    with pytest.raises(RulesError, match="unknown variant"):
        Rules.from_options("chess", [])
    with pytest.raises(GameStateError, match="no 6"):
        Game.from_position("R:S,S,S,S Y:S,S,S,S R", card=6)
