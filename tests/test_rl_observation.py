"""The shared observation layout (sorry.rl.observation, docs/rl.md)."""

from __future__ import annotations

import random

import numpy as np

from engine_helpers import play_out, random_moves
from sorry import Game, Rules
from sorry.cards import CARD_INDEX, CARDS
from sorry.rl.observation import (
    CARD,
    DISCARDS,
    DRAW_COUNT,
    HAND,
    HAND_SIZES,
    HISTORY,
    IN_PLAY,
    INFO_SIZE,
    NUM_CARDS,
    NUM_LOCATIONS,
    OBS_SIZE,
    PAWNS,
    PHASE,
    TO_MOVE,
    UNSEEN,
    VARIANT,
    WINNERS,
    information_state,
    information_state_string,
    observation,
    observation_string,
)


def test_sections_tile_the_vector() -> None:
    assert (PAWNS, IN_PLAY, TO_MOVE, PHASE, CARD, HAND, HAND_SIZES) == (
        0, 268, 272, 276, 279, 290, 301,
    )  # fmt: skip
    assert (DISCARDS, UNSEEN, DRAW_COUNT, VARIANT, WINNERS, OBS_SIZE) == (
        305, 316, 327, 328, 335, 339,
    )  # fmt: skip
    assert HISTORY == OBS_SIZE and INFO_SIZE == OBS_SIZE + 45 * NUM_CARDS == 834


def test_relative_board() -> None:
    g = Game.from_position("R:S,S,4,s2 B:19,S,S,S Y:12,33,40,H G:S,S,S,S B", card=10)
    blue = observation(g.view(1))  # Blue's view: its side starts at square 15
    row = PAWNS  # relative colour 0 = Blue
    assert blue[row + 66] == 0.75 and blue[row + 4] == 0.25  # START, START exit (19 - 15)
    red = PAWNS + 3 * NUM_LOCATIONS  # Red is the previous seat for Blue
    assert blue[red + 66] == 0.5 and blue[red + (4 - 15) % 60] == 0.25
    assert blue[red + 61] == 0.25  # Red's s2
    yellow = PAWNS + 1 * NUM_LOCATIONS  # the next seat after Blue
    assert blue[yellow + 65] == 0.25 and blue[yellow + (12 - 15) % 60] == 0.25
    assert list(blue[IN_PLAY : IN_PLAY + 4]) == [1, 1, 1, 1]
    assert blue[TO_MOVE + 0] == 1.0 and blue[CARD + CARD_INDEX[10]] == 1.0
    assert blue[PHASE + 1] == 1.0 and blue[VARIANT + 0] == 1.0
    # Red's own view of the same moment: Blue to move is relative colour 1.
    assert observation(g.view(0))[TO_MOVE + 1] == 1.0


def test_random_games_counts_and_hidden_hands() -> None:
    def check(g: Game) -> None:
        for c in g.colours:
            view = g.view(c)
            obs = observation(view)
            assert obs.dtype == np.float32 and obs.shape == (OBS_SIZE,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            for r in range(4):
                total = obs[PAWNS + r * NUM_LOCATIONS : PAWNS + (r + 1) * NUM_LOCATIONS].sum()
                assert total == (1.0 if (c + r) % 4 in g.colours else 0.0)
            unseen = view.unseen_counts()
            for k, card in enumerate(CARDS):
                assert round(float(obs[UNSEEN + k]) * 5) == unseen.get(card, 0)
            assert round(float(obs[HAND : HAND + NUM_CARDS].sum()) * 5) == len(view.hand)
            assert round(float(obs[DRAW_COUNT]) * 45) == len(g.draw_pile)

    for variant, players in (("standard", 3), ("points", 4), ("teams", 4)):
        g = Game(Rules(variant=variant), players=players, seed=8)
        g = play_out(g, random_moves(2), max_turns=150, after=check)
        assert g.turn > 0
    # Another player's hand never changes a view.
    g = Game(Rules(variant="points"), players=2, seed=4)
    while g.is_chance():
        g.draw()
    before = information_state(g.view(2)).copy()
    text = information_state_string(g.view(2))
    g.hands[0][0] = 13 if g.hands[0][0] != 13 else 1
    assert np.array_equal(information_state(g.view(2)), before)
    assert information_state_string(g.view(2)) == text


def test_information_state_history_and_strings() -> None:
    g = Game(Rules(), players=2, seed=5)
    rng = random.Random(5)
    while len(g.discard_pile) < 3:
        if g.is_chance():
            g.draw()
        else:
            g.push(rng.choice(g.legal_moves))
    info = information_state(g.view(0))
    assert np.array_equal(info[:OBS_SIZE], observation(g.view(0)))
    last = g.discard_pile[-1]
    assert info[HISTORY + CARD_INDEX[last]] == 1.0  # most recent first
    assert info[HISTORY : HISTORY + 3 * NUM_CARDS].sum() == 3.0
    assert info[HISTORY + 3 * NUM_CARDS :].sum() == 0.0
    text = observation_string(g.view(2))
    assert text.startswith("viewer Y | ") and g.position_string() in text
    assert information_state_string(g.view(2)).startswith(text)
