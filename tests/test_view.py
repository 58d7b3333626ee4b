"""Player views: hidden information never leaks, determinisation is consistent, card counting is
exact (docs/variants.md, Play for points: hands are secret; the draw pile's order is unknown to
everyone)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from engine_helpers import below_moves, play_out
from sorry import Game, Rules
from sorry.cards import deck_counts
from sorry.errors import GameStateError
from sorry.rng import Rng
from sorry.view import PlayerView

VARIANTS = ("standard", "teams", "points")


def play_random(game: Game, steps: int, seed: int) -> Game:
    """Play ``steps`` steps (draws and uniformly random legal moves) or to the end."""
    return play_out(game, below_moves(Rng(seed)), max_steps=steps)


def new_game(variant: str, players: int, seed: int, deck: int = 45) -> Game:
    if variant == "teams":
        players = 4
    return Game(Rules(variant=variant, deck=deck), players=players, seed=seed)


games = st.builds(
    lambda variant, players, seed, steps, deck: play_random(
        new_game(variant, players, seed, deck), steps, seed + 1
    ),
    st.sampled_from(VARIANTS),
    st.integers(2, 4),
    st.integers(0, 2**64 - 1),
    st.integers(0, 400),
    st.sampled_from((45, 44)),
)

points_games = st.builds(
    lambda players, seed, steps: play_random(new_game("points", players, seed), steps, seed),
    st.integers(2, 4),
    st.integers(0, 2**32),
    st.integers(0, 300),
)

FAST = settings(max_examples=40, deadline=None)


# -- what a view holds ------------------------------------------------------------------------
def test_view_fields_are_exactly_the_public_ones() -> None:
    """A new field must be reviewed for leaks: the set of fields is pinned here."""
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert names == {
        "rules",
        "viewer",
        "colours",
        "to_move",
        "phase",
        "pawns",
        "card",
        "hand",
        "hand_sizes",
        "discard_pile",
        "draw_count",
        "turn",
        "first",
        "winners",
        "scores",
        "legal_moves",
        "deal_to",
    }


@FAST
@given(games)
def test_view_matches_the_game(game: Game) -> None:
    for c in game.colours:
        v = game.view(c)
        assert v.viewer == c
        assert v.position_string() == game.position_string()
        assert v.hand == tuple(game.hands[c])
        assert v.hand_sizes == tuple(len(h) for h in game.hands)
        assert v.discard_pile == tuple(game.discard_pile)
        assert v.draw_count == len(game.draw_pile)
        assert v.card == game.card
        assert v.turn == game.turn and v.winners == game.winners
        assert v.legal_moves == (tuple(game.legal_moves) if game.to_move == c else ())
        assert v.my_turn == (c == game.to_move and not game.is_chance() and not game.is_over())
        assert v.is_chance() == game.is_chance() and v.is_over() == game.is_over()


@FAST
@given(points_games)
def test_view_holds_no_other_hand(game: Game) -> None:
    for c in game.colours:
        v = game.view(c)
        if game.rules.points:
            assert v.hand == tuple(game.hands[c])
        data = v.to_dict()
        json.dumps(data)
        assert set(data) >= {"hand", "hand_sizes", "draw_count", "discard_pile"}
        assert "draw_pile" not in data and "seed" not in data and "rng" not in data
        assert "hands" not in data
        # no value of the view is another player's hand or the draw pile
        others = [tuple(game.hands[o]) for o in game.colours if o != c and game.hands[o]]
        for f in dataclasses.fields(v):
            value = getattr(v, f.name)
            if f.name == "hand":
                continue
            if others and value in others and value != v.hand:
                pytest.fail(f"field {f.name} holds another player's hand")
            if game.draw_pile and value == tuple(game.draw_pile):
                pytest.fail(f"field {f.name} holds the draw pile")


def test_not_playing_has_no_view() -> None:
    g = Game(players=2, seed=1)
    with pytest.raises(GameStateError, match="Blue is not playing"):
        g.view(1)


# -- nothing hidden changes a view --------------------------------------------------------------
@FAST
@given(points_games, st.integers(0, 2**32))
def test_opponent_hand_does_not_change_the_view(game: Game, seed: int) -> None:
    """Exchanging cards between an opponent's hand and the draw pile (or another opponent's
    hand) changes nothing the viewer sees."""
    rng = Rng(seed)
    for viewer in game.colours:
        other = game.copy()
        opponents = [c for c in game.colours if c != viewer and other.hands[c]]
        if not opponents or not other.draw_pile:
            continue
        opp = opponents[rng.below(len(opponents))]
        hand = other.hands[opp]
        i = rng.below(len(hand))
        j = rng.below(len(other.draw_pile))
        hand[i], other.draw_pile[j] = other.draw_pile[j], hand[i]
        if len(opponents) > 1:
            opp2 = next(c for c in opponents if c != opp)
            h2 = other.hands[opp2]
            k = rng.below(len(h2))
            hand[0], h2[k] = h2[k], hand[0]
        other._moves_cache = None
        assert other.view(viewer) == game.view(viewer)


def test_a_different_opponent_hand_gives_the_same_view() -> None:
    g = Game.from_position(
        "R:S,S,S,4 Y:S,S,S,34 R",
        Rules(variant="points"),
        hands={0: [1, 4, 7, 11, 13], 2: [2, 2, 3, 3, 5]},
    )
    h = Game.from_position(
        "R:S,S,S,4 Y:S,S,S,34 R",
        Rules(variant="points"),
        hands={0: [1, 4, 7, 11, 13], 2: [12, 12, 10, 8, 8]},
    )
    assert g.hands[2] != h.hands[2]
    assert g.view(0) == h.view(0)
    assert g.view(2) != h.view(2)


@FAST
@given(games, st.integers(0, 2**32))
def test_draw_pile_order_does_not_change_any_view(game: Game, seed: int) -> None:
    other = game.copy()
    Rng(seed).shuffle(other.draw_pile)
    for c in game.colours:
        assert other.view(c) == game.view(c)


@FAST
@given(games, st.integers(0, 2**64 - 1))
def test_seed_and_rng_do_not_change_any_view(game: Game, seed: int) -> None:
    other = game.copy()
    other.seed = seed
    other.rng = Rng(seed)
    for c in game.colours:
        assert other.view(c) == game.view(c)


def test_same_public_history_different_deals_same_view() -> None:
    """Two points games dealt differently: a player sees the same thing when their own hand,
    the pawns and the discards agree, whatever the others hold."""
    rules = Rules(variant="points")
    g = Game(rules, players=3, seed=11)
    while g.is_chance():
        g.draw()
    v = g.view(0)
    for seed in range(5):
        d = Game.from_view(v, seed)
        assert d.view(0) == v


# -- determinisation ----------------------------------------------------------------------------
def card_total(game: Game) -> Counter[int]:
    total: Counter[int] = Counter(game.draw_pile)
    total.update(game.discard_pile)
    for c in game.colours:
        total.update(game.hands[c])
    if game.card is not None:
        total[game.card] += 1
    return total


@FAST
@given(games, st.integers(0, 2**64 - 1))
def test_from_view_is_consistent_with_the_view(game: Game, seed: int) -> None:
    assert card_total(game) == Counter(deck_counts(game.rules.deck))
    for c in game.colours:
        v = game.view(c)
        d = Game.from_view(v, seed)
        assert d.view(c) == v
        assert card_total(d) == Counter(deck_counts(game.rules.deck))
        for o in game.colours:
            assert len(d.hands[o]) == len(game.hands[o])
            assert d.view(o).hand_sizes == v.hand_sizes
        assert d.hands[c] == game.hands[c]
        assert len(d.draw_pile) == len(game.draw_pile)
        assert d.discard_pile == game.discard_pile
        assert d.position_string() == game.position_string()
        mine, theirs = d.snapshot(), game.snapshot()
        for key in ("position", "phase", "card", "deal_to", "discard_pile", "turn", "first"):
            assert mine[key] == theirs[key], key
        if c == game.to_move or not game.rules.points:
            assert d.legal_moves == game.legal_moves
        # seeded and reproducible
        assert Game.from_view(v, seed) == d
        assert Game.from_view(v, seed).draw_pile == d.draw_pile


@FAST
@given(games, st.integers(0, 2**32))
def test_a_determinised_game_plays_on(game: Game, seed: int) -> None:
    v = game.view(game.to_move)
    d = play_random(Game.from_view(v, seed), 300, seed)
    assert card_total(d) == Counter(deck_counts(game.rules.deck))
    while d.history:  # every step of the sampled game can be taken back
        d.pop()
    assert d.view(v.viewer) == v


def test_from_view_samples_differ_between_seeds() -> None:
    g = Game(Rules(variant="points"), players=4, seed=5)
    while g.is_chance():
        g.draw()
    v = g.view(0)
    samples = {tuple(map(tuple, Game.from_view(v, s).hands)) for s in range(20)}
    assert len(samples) > 15
    piles = {tuple(Game.from_view(v, s).draw_pile) for s in range(20)}
    assert len(piles) > 15


def test_from_view_refuses_an_impossible_view() -> None:
    g = Game(players=2, seed=3)
    v = g.view(0)
    bad = dataclasses.replace(v, draw_count=v.draw_count + 1)
    with pytest.raises(GameStateError, match="inconsistent view"):
        Game.from_view(bad, 1)


# -- card counting ----------------------------------------------------------------------------
@FAST
@given(
    st.sampled_from(("standard", "teams")),
    st.integers(2, 4),
    st.integers(0, 2**32),
    st.sampled_from((45, 44)),
)
def test_card_counting_is_exact_in_the_standard_game(
    variant: str, players: int, seed: int, deck: int
) -> None:
    """Without hands the unseen cards are exactly the draw pile, at every step of a game
    (through reshuffles), and the next-card probabilities are the engine's chance outcomes."""
    game = new_game(variant, players, seed, deck)
    rng = Rng(seed)
    for _ in range(300):
        if game.is_over():
            break
        for c in game.colours:
            v = game.view(c)
            pile = Counter(game.draw_pile)
            assert v.unseen_counts() == {k: n for k, n in pile.items() if n}
            if game.is_chance():
                expected = dict(game.chance_outcomes())
                probs = v.next_card_probabilities()
                assert probs.keys() == expected.keys()
                for k, p in probs.items():
                    assert p == pytest.approx(expected[k], abs=1e-12)
        if game.is_chance():
            game.draw()
        else:
            moves = game.legal_moves
            game.push(moves[rng.below(len(moves))])


def test_card_counting_at_the_start() -> None:
    v = Game(players=4, seed=9).view(0)
    assert v.unseen_counts() == deck_counts(45)
    probs = v.next_card_probabilities()
    assert probs[1] == pytest.approx(5 / 45) and probs[2] == pytest.approx(4 / 45)
    assert sum(probs.values()) == pytest.approx(1)


def test_card_counting_after_a_reshuffle() -> None:
    """When the draw pile is empty the next card comes from the reshuffled discard pile."""
    game = Game(players=2, seed=4)
    rng = Rng(4)
    while game.draw_pile or not game.is_chance():
        if game.is_chance():
            game.draw()
        else:
            moves = game.legal_moves
            game.push(moves[rng.below(len(moves))])
    assert not game.is_over()
    v = game.view(game.to_move)
    assert v.draw_count == 0 and v.unseen_counts() == {}
    assert v.next_card_probabilities() == pytest.approx(dict(game.chance_outcomes()))


@FAST
@given(points_games)
def test_card_counting_in_the_points_game(game: Game) -> None:
    """With hands the unseen cards are the draw pile plus the others' hands."""
    for c in game.colours:
        v = game.view(c)
        unseen: Counter[int] = Counter(game.draw_pile)
        for o in game.colours:
            if o != c:
                unseen.update(game.hands[o])
        assert v.unseen_counts() == {k: n for k, n in unseen.items() if n}
        probs = v.next_card_probabilities()
        if probs:
            assert sum(probs.values()) == pytest.approx(1)
