"""The OpenSpiel game ``python_sorry`` (sorry.rl.openspiel_game): OpenSpiel's conformance test
in every variant, serialisation, hidden hands, resampling, and the Python MCTS/ISMCTS bots."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import sorry.rl.openspiel_game  # noqa: F401  (registers the game)
from sorry.actions import (
    DISCARD_BASE,
    KIND_CARD,
    PASS_ACTION,
    SORRY_BASE,
    SPLIT_BASE,
    SWAP_BASE,
)
from sorry.board import COLOUR_LETTERS
from sorry.cards import CARDS, SORRY, parse_card
from sorry.errors import RulesError
from sorry.rl.observation import INFO_SIZE, OBS_SIZE
from sorry.rl.openspiel_game import game_from_text, game_to_text

PARAMS = [
    {"players": 2},
    {"players": 3, "deck": 44, "slide_on": "all"},
    {"players": 4, "sorry_forward_4": "fallback", "two_draws_again": "no"},
    {"players": 4, "variant": "teams"},
    {"players": 4, "variant": "teams", "team_swap_partner": "yes", "swap_slides": "both"},
    {"players": 2, "variant": "points"},
    {"players": 4, "variant": "points", "sorry_forward_4": "always"},
    {"players": 3, "starting_pawns_out": 1, "slide_on": "own", "turn_limit": 40},
    {"players": 3, "variant": "points", "points_bonus": "cumulative", "deck": 44},
]


def _play(state: pyspiel.State, steps: int, rng: np.random.RandomState) -> pyspiel.State:
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(map(str, p.values())))
def test_random_sim_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_sorry", params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(map(str, p.values())))
def test_random_sim_test_many(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_sorry", params)
    pyspiel.random_sim_test(game, num_sims=6, serialize=True, verbose=False)


def test_game_info() -> None:
    game = pyspiel.load_game("python_sorry", {"players": 3, "variant": "points"})
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 684
    assert game.max_chance_outcomes() == 11
    assert game.observation_tensor_size() == OBS_SIZE
    assert game.information_state_tensor_size() == INFO_SIZE
    assert (game.min_utility(), game.max_utility()) == (-1.0, 2.0)
    teams = pyspiel.load_game("python_sorry", {"variant": "teams"})
    assert teams.max_utility() == 1.0


def test_refuses_multi_part_splits_and_bad_params() -> None:
    with pytest.raises(RulesError, match="team_seven_split=any"):
        pyspiel.load_game("python_sorry", {"variant": "teams", "team_seven_split": "any"})
    with pytest.raises(RulesError, match="four colours"):
        pyspiel.load_game("python_sorry", {"players": 2, "variant": "teams"})
    with pytest.raises(RulesError):
        pyspiel.load_game("python_sorry", {"variant": "speed"})
    with pytest.raises(RulesError, match="first_player"):
        pyspiel.load_game("python_sorry", {"players": 2, "first_player": 2})


def test_first_player() -> None:
    game = pyspiel.load_game("python_sorry", {"players": 3, "first_player": 2})
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.current_player() == 2


def test_turn_limit_ends_unfinished_with_zero_returns() -> None:
    game = pyspiel.load_game("python_sorry", {"players": 2, "turn_limit": 12})
    assert game.max_game_length() >= 24
    state = _play(game.new_initial_state(), 10_000, np.random.RandomState(5))
    assert state.is_terminal() and state.engine.unfinished
    assert state.returns() == [0.0, 0.0]
    assert state.engine.turn == 12


def test_chance_outcomes_follow_the_cards_left() -> None:
    game = pyspiel.load_game("python_sorry", {"players": 2})
    state = game.new_initial_state()
    assert state.is_chance_node()
    probs = dict(state.chance_outcomes())
    assert probs[0] == pytest.approx(5 / 45) and probs[1] == pytest.approx(4 / 45)
    state.apply_action(1)  # a 2 drawn
    state = _play(state, 1, np.random.RandomState(0))
    assert dict(state.chance_outcomes())[1] == pytest.approx(3 / 44)


def test_serialisation_round_trip() -> None:
    game = pyspiel.load_game("python_sorry", {"players": 4, "variant": "points"})
    state = _play(game.new_initial_state(), 120, np.random.RandomState(1))
    text = pyspiel.serialize_game_and_state(game, state)
    _game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.engine == state.engine
    assert state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions()
    assert game_from_text(game_to_text(state.engine)) == state.engine
    clone = state.clone()
    assert clone.engine == state.engine and clone.engine is not state.engine


def test_hands_are_hidden_and_resampling_keeps_the_information_state() -> None:
    game = pyspiel.load_game("python_sorry", {"players": 3, "variant": "points"})
    state = _play(game.new_initial_state(), 60, np.random.RandomState(2))
    while state.is_chance_node():
        _play(state, 1, np.random.RandomState(3))
    player = state.current_player()
    info = state.information_state_string(player)
    tensor = np.array(state.information_state_tensor(player))
    assert "hand" in info
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(5):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == info
        assert np.array_equal(np.array(other.information_state_tensor(player)), tensor)
        assert other.legal_actions() == state.legal_actions()
        hands.add(str(other))
        for p in range(3):  # what each player sees of the board is the same
            assert (
                other.observation_string(p).split(" | ")[1]
                == (state.observation_string(p).split(" | ")[1])
            )
        _assert_deals_match_hands(other)
    assert len(hands) > 1  # the other hands were really redealt
    # The others' observations do not depend on this player's hand.
    others = [p for p in range(3) if p != player]
    before = [np.array(state.information_state_tensor(p)) for p in others]
    hand = state.engine.hands[state.engine.to_move]
    hand[0] = 13 if hand[0] != 13 else 1
    after = [np.array(state.information_state_tensor(p)) for p in others]
    assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True))
    assert not np.array_equal(np.array(state.information_state_tensor(player)), tensor)


def _card_of_action(action: int) -> int:
    """The card a points-variant action plays (docs/actions.md)."""
    if action < SWAP_BASE:
        return KIND_CARD[action & 15]
    if action < SORRY_BASE:
        return 11
    if action < SPLIT_BASE:
        return SORRY
    return 7 if action < PASS_ACTION else CARDS[action - DISCARD_BASE]


def _assert_deals_match_hands(state: pyspiel.State) -> None:
    """Each player's history, as their own information state tells it, is consistent with
    their hand: the cards dealt to them minus the cards they played are the cards they hold."""
    for p, colour in enumerate(state.get_game().colours):
        history = state.information_state_string(p).split(" | history ")[1].split()
        letter = COLOUR_LETTERS[colour]
        dealt = Counter(parse_card(t[2:]) for t in history if t.startswith(letter + "+"))
        played = Counter(
            _card_of_action(int(t[1:])) for t in history if t[0] == letter and t[1] != "+"
        )
        assert dealt - played == Counter(state.engine.hands[colour])
        assert sum(dealt.values()) - sum(played.values()) == len(state.engine.hands[colour])


def test_python_mcts_and_ismcts_bots_play() -> None:
    game = pyspiel.load_game("python_sorry", {"players": 2, "variant": "points"})
    rng = np.random.RandomState(4)
    state = _play(game.new_initial_state(), 30, rng)
    while state.is_chance_node():
        _play(state, 1, rng)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng)
    assert bot.step(state) in state.legal_actions()
    game2 = pyspiel.load_game("python_sorry", {"players": 2})
    state2 = _play(game2.new_initial_state(), 1, rng)
    bot2 = mcts.MCTSBot(game2, 2.0, 4, evaluator, random_state=rng)
    assert bot2.step(state2) in state2.legal_actions()


def test_python_tensor_shortcut_matches_the_observer() -> None:
    game = pyspiel.load_game("python_sorry", {"players": 3, "variant": "points"})
    state = _play(game.new_initial_state(), 80, np.random.RandomState(6))
    for p in range(3):
        assert state.observation_tensor(p) == pyspiel.State.observation_tensor(state, p)
        assert state.information_state_tensor(p) == pyspiel.State.information_state_tensor(state, p)
    with pytest.raises(RuntimeError, match="player < num_players"):
        state.observation_tensor(3)
