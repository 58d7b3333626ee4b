"""Cards, the deck's composition and the seeded shuffle (docs/rules.md, Cards and Options of the
standard game: deck)."""

from __future__ import annotations

from collections import Counter

import pytest

from sorry import Game, NotationError, Rules
from sorry.cards import CARDS, SORRY, card_name, deck_cards, deck_counts, parse_card
from sorry.rng import Rng, derive_seed


def test_card_kinds_and_names() -> None:
    assert CARDS == (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, SORRY)
    names = ["1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "S"]
    assert [card_name(c) for c in CARDS] == names
    for c in CARDS:
        assert parse_card(card_name(c)) == c
    assert parse_card("Sorry") == parse_card("sorry!") == parse_card("s") == SORRY


@pytest.mark.parametrize("bad", ["6", "9", "0", "13", "010", "", "x", "1.0"])
def test_bad_cards(bad: str) -> None:
    with pytest.raises(NotationError, match="unknown card"):
        parse_card(bad)


def test_deck_of_45() -> None:
    counts = deck_counts(45)
    assert counts[1] == 5
    assert all(counts[c] == 4 for c in CARDS if c != 1)
    assert 6 not in counts and 9 not in counts
    assert sum(counts.values()) == 45 == len(deck_cards(45))


def test_deck_of_44() -> None:
    counts = deck_counts(44)
    assert all(counts[c] == 4 for c in CARDS)
    assert len(deck_cards(44)) == 44


def test_bad_deck_size() -> None:
    with pytest.raises(NotationError, match="45 or 44"):
        deck_counts(46)


@pytest.mark.parametrize("size", [45, 44])
def test_game_deck_is_a_shuffled_full_deck(size: int) -> None:
    g = Game(Rules(deck=size), seed=11)
    assert len(g.draw_pile) == size and g.discard_pile == []
    assert Counter(g.draw_pile) == Counter(deck_cards(size))
    assert g.draw_pile != deck_cards(size)  # shuffled


def test_same_seed_same_game_different_seed_different_deck() -> None:
    assert Game(seed=5).draw_pile == Game(seed=5).draw_pile
    assert Game(seed=5).draw_pile != Game(seed=6).draw_pile
    g = Game(seed=5)
    top = g.draw_pile[-1]
    assert g.draw() == top  # the top card is the last of the list


def test_splitmix64_reference_values() -> None:
    r = Rng(0)
    assert r.next64() == 0xE220A8397B1DCDAF
    assert r.next64() == 0x6E789E6AA1B965F4
    r = Rng(42)
    assert [r.below(10) for _ in range(5)] == [3, 1, 8, 4, 0]
    assert derive_seed(1, 0) != derive_seed(1, 1)


def test_shuffle_is_a_permutation_and_reproducible() -> None:
    a = list(range(45))
    b = list(range(45))
    Rng(9).shuffle(a)
    Rng(9).shuffle(b)
    assert a == b and sorted(a) == list(range(45)) and a != list(range(45))


@pytest.mark.parametrize("size", [0, 1, 2, 3, 44, 45, 100])
def test_shuffle_draws_as_next64_one_at_a_time(size: int) -> None:
    """Rng.shuffle makes its draws all at once (on lanes of one big int); the result and the
    generator's state after it are those of Fisher-Yates with one next64 per swap."""
    for seed in (0, 1, 2**64 - 1, 0x9E3779B97F4A7C15, *range(2, 30)):
        items = list(range(size))
        rng = Rng(seed)
        rng.shuffle(items)
        expected = list(range(size))
        one_by_one = Rng(seed)
        for i in range(size - 1, 0, -1):
            j = one_by_one.next64() % (i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected and rng.state == one_by_one.state


def test_shuffle_reaches_every_position() -> None:
    # Fisher-Yates with a fair generator: each card ends in each place with the same frequency.
    seen = Counter()
    for seed in range(3000):
        items = [0, 1, 2, 3]
        Rng(seed).shuffle(items)
        seen[tuple(items)] += 1
    assert len(seen) == 24
    assert max(seen.values()) < 2 * min(seen.values())
