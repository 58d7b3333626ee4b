"""The rulebook (sorry.rulebook): its tables say what docs/rules.md says, and every engine
reads the same tables."""

from __future__ import annotations

import pytest

from sorry import rulebook
from sorry.board import HOME, START, START_EXIT
from sorry.cards import CARDS, SORRY
from sorry.errors import RulesError
from sorry.game import Game
from sorry.moves import Move
from sorry.rulebook import (
    BACKWARD_STEPS,
    FORWARD_STEPS,
    PARTNER,
    PROGRESS,
    Rulebook,
    colours_for,
    may_decline,
    score,
    seat_after,
)
from sorry.rules import Rules


def test_card_steps_follow_the_cards_section() -> None:
    forward = {card: FORWARD_STEPS[card] for card in CARDS}
    backward = {card: BACKWARD_STEPS[card] for card in CARDS if BACKWARD_STEPS[card]}
    assert forward == {1: 1, 2: 2, 3: 3, 4: 0, 5: 5, 7: 7, 8: 8, 10: 10, 11: 11, 12: 12, SORRY: 0}
    assert backward == {4: 4, 10: 1}


def test_partners_sit_opposite_and_move_together_only_in_teams() -> None:
    assert [PARTNER[PARTNER[c]] for c in range(4)] == [0, 1, 2, 3]
    assert PARTNER[0] == 2 and PARTNER[1] == 3
    assert Rules(variant="teams").book.movers == ((0, 2), (1, 3), (2, 0), (3, 1))
    assert Rules().book.movers == ((0,), (1,), (2,), (3,))


def test_only_a_two_draws_again_and_a_discard_never_does() -> None:
    book = Rules().book
    assert [card for card in CARDS if book.plays_again(card)] == [2]
    assert not book.plays_again(2, discarded=True)
    assert book.again_mask == 1 << 2
    assert Rules(two_draws_again=False).book.again_mask == 0


def test_only_an_eleven_without_forward_move_may_be_declined() -> None:
    swap = Move.parse("R12<>B40")
    assert may_decline(11, [swap])
    assert not may_decline(11, [swap, Move.parse("R12+11")])
    assert not may_decline(10, [Move.parse("R12-1")])


def test_default_colours_and_the_player_count_check() -> None:
    assert [colours_for(n, Rules()) for n in (2, 3, 4)] == [(0, 2), (0, 1, 2), (0, 1, 2, 3)]
    assert colours_for([3, 1], Rules()) == (1, 3)
    for bad in (1, 5, [0, 0], [0]):
        with pytest.raises(RulesError):
            colours_for(bad, Rules())
    with pytest.raises(RulesError, match="needs all four colours"):
        colours_for(2, Rules(variant="teams"))
    assert seat_after((0, 2)) == (2, 1, 0, 3)


@pytest.mark.parametrize(
    ("homes", "cumulative", "winner_points"),
    [
        ([4, 0, 0, 0], False, 20 + 5 * 4 * 3 + 100),  # nobody else HOME: the 100 bonus
        ([4, 1, 0, 0], False, 20 + 5 * 11 + 50),
        ([4, 2, 1, 0], False, 20 + 5 * 9 + 25),
        ([4, 3, 0, 0], False, 20 + 5 * 9),  # an opponent with 3 HOME: no bonus
        ([4, 0, 0, 0], True, 20 + 5 * 12 + 175),  # cumulative: every bonus that applies
        ([4, 1, 1, 0], True, 20 + 5 * 10 + 75),
    ],
)
def test_points_scoring(homes: list[int], cumulative: bool, winner_points: int) -> None:
    scores = score(homes, (0, 1, 2, 3), (0,), cumulative)
    assert scores[0] == winner_points
    assert [scores[c] for c in (1, 2, 3)] == [5 * h for h in homes[1:]]


def test_progress_counts_steps_from_start() -> None:
    for c in range(4):
        assert PROGRESS[c][START] == 0
        assert PROGRESS[c][START_EXIT[c]] == 1
        assert PROGRESS[c][HOME] == 65


def test_one_rulebook_per_rules_object() -> None:
    rules = Rules(variant="points")
    assert Rulebook.of(rules) is rules.book is rules.book
    assert rules.book == Rules(variant="points").book  # equal rules, equal tables
    game = Game(rules, players=2, seed=1)
    assert game.rules.book is rules.book


def test_the_compiled_kernel_reads_the_rulebook() -> None:
    k = pytest.importorskip("sorry.fast._kernel")
    assert list(k.FSTEP) == list(FORWARD_STEPS)
    assert list(k.BSTEP) == list(BACKWARD_STEPS)
    assert list(k.PARTNER) == list(PARTNER)
    assert k.PROGRESS.tolist() == [list(row) for row in PROGRESS]
    assert k.WIN_BONUS.tolist() == [[100, 50, 25, 0, 0], [175, 75, 25, 0, 0]]
    assert k.WIN_BONUS.tolist() == [
        [rulebook.winner_bonus(most, cumulative) for most in range(5)]
        for cumulative in (False, True)
    ]
    assert list(k.CARD_KINDS) == list(CARDS)


def test_a_state_takes_the_rulebook_s_slide_table_and_swap_rule() -> None:
    """PawnState is given the rules whole and reads its rulebook's tables (no copy of them)."""
    from sorry.state import PawnState

    pawns = ((START,) * 4, None, (START,) * 4, None)
    for rules in (Rules(), Rules(slide_on="all", swap_slides="both"), Rules(slide_on="own")):
        state = PawnState(pawns, rules)
        assert state.slide is rules.book.slide
        assert state.swap_both == (rules.swap_slides == "both") == rules.book.swap_both
        assert state.copy().slide is rules.book.slide
    assert PawnState(pawns).slide == Rules().book.slide


@pytest.mark.parametrize("variant", ["standard", "teams"])
def test_a_side_wins_with_every_pawn_home(variant: str) -> None:
    book = Rules(variant=variant).book
    home = [HOME] * 4
    almost = [HOME, HOME, HOME, 30]
    assert book.wins([home, almost, almost, almost], 0) == (variant == "standard")
    assert book.wins([home, almost, home, almost], 2)
    assert not book.wins([almost, almost, home, almost], 0)
    assert not book.wins([[], [], [], []], 0)  # a colour not playing has not won


def test_points_hands_are_dealt_round_the_table_then_refilled_to_the_player() -> None:
    """Game's opening deal and refills follow rulebook.deal_to."""
    g = Game(Rules(variant="points"), players=3, seed=4)
    order = []
    while g.is_chance():
        order.append(g.deal_to)
        g.draw()
    first = g.to_move
    seats = g.colours[g.colours.index(first) :] + g.colours[: g.colours.index(first)]
    assert order == list(seats) * 5
    mover = g.to_move
    g.push(g.legal_moves[0])
    if not g.is_over():
        assert (
            g.deal_to == mover
            and rulebook.deal_to(g.colours, [len(h) for h in g.hands], g.to_move) == mover
        )
