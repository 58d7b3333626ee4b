"""OpenSpiel's own API test suite (``open_spiel/integration_tests/api_test.py``, shipped in its
wheel) on ``python_sorry``: its partial-tree checks on every variant, its full-tree checks
(perfect recall, constant sum, empty legal actions at terminal states and for players not to
move, node counts) on small games bounded by ``turn_limit``, and the perfect recall of the
information state in the points variant, where the others' cards are hidden."""

from __future__ import annotations

import itertools
import unittest
from typing import Any

import numpy as np
import pyspiel
import pytest

import sorry.rl.openspiel_game  # noqa: F401  (registers the game before api_test lists them)

# isort: split
from open_spiel.integration_tests import api_test

from sorry.actions import decode
from sorry.board import COLOUR_LETTERS
from sorry.cards import CARDS, card_name

# Every variant, as tests/test_rl_openspiel.py plays them.
PARTIAL = {
    "standard2": {"players": 2},
    "standard3_deck44_slides": {"players": 3, "deck": 44, "slide_on": "all"},
    "standard4_fallback": {"players": 4, "sorry_forward_4": "fallback", "two_draws_again": "no"},
    "teams": {"players": 4, "variant": "teams"},
    "teams_swap": {
        "players": 4,
        "variant": "teams",
        "team_swap_partner": "yes",
        "swap_slides": "both",
    },
    "points2": {"players": 2, "variant": "points"},
    "points4_sorry4": {"players": 4, "variant": "points", "sorry_forward_4": "always"},
    "points3_cumulative": {
        "players": 3,
        "variant": "points",
        "points_bonus": "cumulative",
        "deck": 44,
    },
}

# Small enough for the whole tree: (chance, decision, terminal) nodes and the (information
# state, player) pairs OpenSpiel's perfect-recall check meets. These counts pin the rules'
# move lists too: a change in them is a change in the game.
FULL: dict[str, tuple[dict[str, Any], tuple[int, int, int], int]] = {
    "standard2_t3_out1": (
        {"players": 2, "turn_limit": 3, "starting_pawns_out": 1},
        (186, 2046, 2641),
        2046,
    ),
    "teams_t2_out1": (
        {"players": 4, "variant": "teams", "turn_limit": 2, "starting_pawns_out": 1},
        (39, 429, 1360),
        429,
    ),
    "standard3_t3": ({"players": 3, "turn_limit": 3}, (134, 1474, 1357), 1474),
}


def _partial_case(name: str, params: dict[str, Any]) -> type:
    game = pyspiel.load_game("python_sorry", params)
    return type(
        f"TestOpenSpielAPI_{name}",
        (api_test.EnforceAPIOnPartialTreeBase,),
        {"game_name": f"python_sorry_{name}", "game": game},
    )


def _full_case(name: str) -> type:
    params, nodes, infostates = FULL[name]
    api_test.TOTAL_NUM_STATES[name] = nodes
    api_test.PERFECT_RECALL_NUM_STATES[name] = infostates
    game = pyspiel.load_game("python_sorry", params)
    return type(
        f"TestOpenSpielFullTree_{name}",
        (api_test.EnforceAPIOnFullTreeBase,),
        {"game_name": name, "game": game},
    )


class _AlongWholeGames(api_test.EnforceAPIOnPartialTreeBase):  # type: ignore[misc]
    """OpenSpiel's partial-tree checks on states taken along whole random games instead of
    near the root (where ``sample_some_states`` stays in a game this long): deep states,
    reshuffles, the last decisions and the terminal state. Every third state and the last."""

    __test__ = False  # a base: the classes made from it below are collected
    seed = 0

    @classmethod
    def setUpClass(cls) -> None:
        super(api_test.EnforceAPIOnPartialTreeBase, cls).setUpClass()
        cls.game_type = cls.game.get_type()
        rng = np.random.RandomState(cls.seed)
        state = cls.game.new_initial_state()
        states = []
        for k in itertools.count():
            if k % 3 == 0 or state.is_terminal():
                states.append(state.clone())
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert states[-1].is_terminal() and not states[-1].engine.unfinished
        cls.some_states = states


# Whole games of these variants (no turn limit reached): standard, teams, points.
DEEP = {"standard2": {"players": 2}, "teams": {"players": 4, "variant": "teams"}}
DEEP["points3"] = {"players": 3, "variant": "points"}


def _deep_case(name: str, params: dict[str, Any]) -> type:
    return type(
        f"TestOpenSpielAPIWholeGame_{name}",
        (_AlongWholeGames,),
        {
            "__test__": True,
            "game_name": f"python_sorry_{name}",
            "game": pyspiel.load_game("python_sorry", params),
        },
    )


# pytest collects these unittest classes (one per variant) like any test class.
for _name, _params in PARTIAL.items():
    globals()[f"TestOpenSpielAPI_{_name}"] = _partial_case(_name, _params)
for _name, _params in DEEP.items():
    globals()[f"TestOpenSpielAPIWholeGame_{_name}"] = _deep_case(_name, _params)
for _name in FULL:
    globals()[f"TestOpenSpielFullTree_{_name}"] = _full_case(_name)


def test_api_test_module_as_shipped() -> None:
    """The module run as its README says: ``--test_only_games=python_sorry.*`` (the game with
    its default parameters), through its own ``load_tests``."""
    from absl import flags

    flags.FLAGS(["api_test", "--test_only_games=python_sorry.*"])
    suite = api_test.load_tests(unittest.TestLoader(), None, None)
    assert suite.countTestCases() >= 5
    result = unittest.TestResult()
    suite.run(result)
    assert result.wasSuccessful(), result.errors + result.failures


def _events(state: pyspiel.State, rng: np.random.RandomState) -> tuple[int, int, int]:
    """Apply one random step; return (actor player or -1, receiver player or -1, action)."""
    if state.is_chance_node():
        receiver = state.engine.deal_to
        colours = state.get_game().colours
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        action = int(rng.choice(outcomes, p=probs))
        state.apply_action(action)
        return -1, colours.index(receiver), action
    player = state.current_player()
    action = int(rng.choice(state.legal_actions()))
    state.apply_action(action)
    return player, -1, action


@pytest.mark.parametrize(
    "params",
    [{"players": 2}, {"players": 4, "variant": "teams"}, {"players": 3, "variant": "points"}],
    ids=["standard", "teams", "points"],
)
def test_information_state_holds_everything_the_player_saw(params: dict[str, Any]) -> None:
    """Perfect recall, directly: at every decision the information-state string ends with the
    whole history as that player saw it (draws of the standard game, their own cards and the
    others' number of cards in points, every decision), so two histories a player can tell
    apart never share an information state, and their own past states and actions are in it."""
    game = pyspiel.load_game("python_sorry", dict(params, turn_limit=120))
    points = params.get("variant") == "points"
    n = game.num_players()
    letters = [COLOUR_LETTERS[c] for c in game.colours]
    seen: list[list[str]] = [[] for _ in range(n)]
    own: list[list[tuple[str, int]]] = [[] for _ in range(n)]  # (info state, action)
    state = game.new_initial_state()
    rng = np.random.RandomState(7)
    checked = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            p = state.current_player()
            info = state.information_state_string(p)
            assert info.endswith(" | history " + " ".join(seen[p])) or not seen[p]
            for earlier, _action in own[p]:  # every earlier state of p is a prefix of this one
                assert info.split(" | history ")[1].startswith(earlier.split(" | history ")[1])
            checked += 1
        actor, receiver, action = _events(state, rng)
        for p in range(n):
            if actor >= 0:
                seen[p].append(f"{letters[actor]}{action}")
            elif not points or receiver == p:
                seen[p].append(f"{letters[receiver]}+{card_name(CARDS[action])}")
            else:
                seen[p].append(f"{letters[receiver]}+?")
        if actor >= 0:
            own[actor].append((info, action))
    assert checked > 100


def _points_state(deals: list[int], plays: list[tuple[int, int]]) -> pyspiel.State:
    """A 2-player points game: the initial deal (card indices, round the table from Red),
    then for each (card, refill) the first legal action playing that card and the refill."""
    game = pyspiel.load_game("python_sorry", {"players": 2, "variant": "points"})
    state = game.new_initial_state()
    for a in deals:
        state.apply_action(a)
    for card, refill in plays:
        action = next(a for a in state.legal_actions() if decode(state.engine, a).card == card)
        state.apply_action(action)
        state.apply_action(CARDS.index(refill))
    return state


def test_points_hidden_deals_are_recalled() -> None:
    """Two histories Red can tell apart, that the board, the discards and Red's hand alone
    would merge: Red held 3,3,4,5,8, played a 3 and drew a 5, or held 3,4,5,5,8, played the
    same 3 and drew a 3. Same position, discards and hand afterwards; different information
    states for Red, the same for Yellow (who saw neither hand)."""
    yellow = [CARDS.index(c) for c in (3, 4, 5, 8, 12)]

    def deal(*red: int) -> list[int]:  # round the table from Red: R Y R Y ...
        return [x for pair in zip([CARDS.index(c) for c in red], yellow, strict=True) for x in pair]

    s1 = _points_state(deal(3, 3, 4, 5, 8), [(3, 5), (12, 12)])
    s2 = _points_state(deal(3, 4, 5, 5, 8), [(3, 3), (12, 12)])
    assert s1.current_player() == s2.current_player() == 0
    assert sorted(s1.engine.hands[0]) == sorted(s2.engine.hands[0]) == [3, 4, 5, 5, 8]
    assert s1.engine.position_string() == s2.engine.position_string()
    assert s1.observation_string(0) == s2.observation_string(0)
    assert s1.observation_tensor(0) == s2.observation_tensor(0)
    assert s1.information_state_string(0) != s2.information_state_string(0)
    assert s1.information_state_string(1) == s2.information_state_string(1)


@pytest.mark.parametrize("name", list(PARTIAL))
def test_chance_sums_returns_and_legal_actions_along_random_games(name: str) -> None:
    """The checks of the full-tree suite along whole random games of every variant (their
    trees are too big to enumerate): chance probabilities sum to 1 over distinct outcomes,
    only the player to move has legal actions, none at the end, and the returns sum to the
    game's utility sum (0) with the winner's side at the top."""
    game = pyspiel.load_game("python_sorry", PARTIAL[name])
    n = game.num_players()
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert len(set(outcomes)) == len(outcomes) and min(probs) > 0
            assert sum(probs) == pytest.approx(1.0, abs=1e-12)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        p = state.current_player()
        assert state.legal_actions(p)
        assert all(not state.legal_actions(q) for q in range(n) if q != p)
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert all(not state.legal_actions(q) for q in range(n)) and not state.legal_actions()
    returns = state.returns()
    assert sum(returns) == pytest.approx(game.utility_sum())
    assert max(returns) == game.max_utility() and min(returns) == game.min_utility()
