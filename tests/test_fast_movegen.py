"""Differential tests of move generation: the fast engine lists exactly the reference's legal
moves, in the reference's order, with the same result positions.

For every sampled position and every card the two lists of (move notation, board after) must be
equal; a failure names the first mismatch as the position string and the card (or hand)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from fast_helpers import random_position, reference_moves, sample_positions
from sorry import CARDS, Rules, card_name, fast
from sorry.rng import Rng

#: (variant, options, players) configurations; options as in docs/variants.md.
CONFIGS = [
    ("standard", {}, 2),
    ("standard", {}, 3),
    ("standard", {}, 4),
    ("standard", {"slide_on": "own", "swap_slides": "both"}, 4),
    ("standard", {"slide_on": "all", "sorry_forward_4": "always"}, 3),
    ("standard", {"sorry_forward_4": "fallback", "deck": "44", "starting_pawns_out": "1"}, 4),
    ("standard", {"two_draws_again": "no", "swap_slides": "both", "ten_backward": "fallback"}, 2),
    ("teams", {}, 4),
    ("teams", {"team_swap_partner": "yes", "swap_slides": "both"}, 4),
    ("teams", {"sorry_forward_4": "fallback", "slide_on": "all", "ten_backward": "fallback"}, 4),
]


def _compare(rules: Rules, items: Iterable[tuple[str, int | None, list[int] | None]]) -> int:
    n = 0
    for position, card, hand in items:
        ours = [(str(m), text) for m, text in fast.legal_moves(position, card, rules, hand or ())]
        ref = reference_moves(position, rules, card, hand)
        if ours != ref:
            what = f"card {card_name(card)}" if card is not None else f"hand {hand}"
            missing = [x for x in ref if x not in ours]
            extra = [x for x in ours if x not in ref]
            pytest.fail(
                f"first mismatch ({rules.variant} {rules.options_text()}): {position!r} "
                f"{what}\n  missing: {missing}\n  extra: {extra}\n  reference order: {ref}\n"
                f"  fast order: {ours}"
            )
        n += 1
    return n


def _per_card(positions: Iterable[str]) -> Iterable[tuple[str, int | None, list[int] | None]]:
    for position in positions:
        for card in CARDS:
            yield position, card, None


@pytest.mark.parametrize(("variant", "options", "players"), CONFIGS)
def test_reachable_positions_every_card(
    variant: str, options: dict[str, str], players: int
) -> None:
    rules = Rules.from_options(variant, options)
    positions = [p for p, _ in sample_positions(rules, players, games=3, every=9)]
    assert len(positions) > 60
    assert _compare(rules, _per_card(positions)) == 11 * len(positions)


@pytest.mark.parametrize(("variant", "options", "players"), CONFIGS)
def test_random_positions_every_card(variant: str, options: dict[str, str], players: int) -> None:
    """Positions with pawns anywhere (crowded tracks, full Safety Zones): corner cases that
    random games reach rarely."""
    rules = Rules.from_options(variant, options)
    rng = Rng(players * 101 + len(options))
    cols = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[players]
    positions = [random_position(rng, cols) for _ in range(60)]
    assert _compare(rules, _per_card(positions)) == 11 * len(positions)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_points_hands(players: int) -> None:
    """Points variant: the moves of a whole hand (card-prefixed) and the discards."""
    rules = Rules(variant="points")
    items = [(p, None, h) for p, h in sample_positions(rules, players, games=2, every=5)]
    assert _compare(rules, items) == len(items) > 40


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "options", "players"), CONFIGS)
def test_many_positions(variant: str, options: dict[str, str], players: int) -> None:
    rules = Rules.from_options(variant, options)
    positions = [p for p, _ in sample_positions(rules, players, games=10, every=3, seed=9)]
    rng = Rng(12345 + players)
    cols = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[players]
    positions += [random_position(rng, cols) for _ in range(250)]
    assert _compare(rules, _per_card(positions)) == 11 * len(positions)


def test_split_seven_duplicates_are_listed_once() -> None:
    pos = "R:10,20,S,S Y:S,S,S,S R"
    ours = [str(m) for m, _ in fast.legal_moves(pos, 7)]
    assert len(ours) == len(set(ours))
    # 10+k/20+(7-k) and 20+(7-k)/10+k end alike: only the first is listed
    assert "R10+3/R20+4" in ours and "R20+4/R10+3" not in ours
    assert ours == [m for m, _ in reference_moves(pos, Rules(), 7)]


def test_team_seven_split_any_is_refused() -> None:
    rules = Rules.from_options("teams", ["team_seven_split=any"])
    with pytest.raises(ValueError, match="team_seven_split"):
        fast.legal_moves("R:S,S,S,S B:S,S,S,S Y:S,S,S,S G:S,S,S,S R", 7, rules)
