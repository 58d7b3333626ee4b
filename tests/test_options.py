"""The standard game's rule options (docs/rules.md, Options of the standard game), each with
concrete positions."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from engine_helpers import game_at, moves_of, play_out, rules_of
from sorry import Game, Rules, RulesError
from sorry.errors import IllegalMoveError


def test_defaults() -> None:
    r = Rules()
    assert (r.deck, r.two_draws_again, r.sorry_forward_4, r.slide_on, r.swap_slides) == (
        45, True, "no", "other", "mover",
    )  # fmt: skip
    assert (r.starting_pawns_out, r.turn_limit) == (0, None)
    assert r.options_text() == ""


# -- deck ---------------------------------------------------------------------------------------
def test_deck_44_has_four_of_each() -> None:
    g = Game(rules_of(deck=44), seed=2)
    assert len(g.draw_pile) == 44 and Counter(g.draw_pile)[1] == 4
    assert {c: p for c, p in g.chance_fractions()} == {
        c: Fraction(1, 11) for c in (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13)
    }
    g = game_at("R:S,S,S,S Y:S,S,S,S R", 1, deck=44)
    assert len(g.draw_pile) == 43 and Counter(g.draw_pile)[1] == 3


def test_deck_45_has_five_ones() -> None:
    g = Game(seed=2)
    fr = dict(g.chance_fractions())
    assert fr[1] == Fraction(5, 45) and fr[13] == Fraction(4, 45)


# -- two_draws_again ----------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "again"), [("yes", True), ("no", False)])
def test_two_draws_again(value: str, again: bool) -> None:
    for position, move in (("R:S,S,S,S Y:S,S,S,S R", "RS>4"), ("R:H,H,H,s5 Y:S,S,S,S R", "pass")):
        g = game_at(position, 2, two_draws_again=value)
        g.push(move)
        assert g.to_move == (0 if again else 2)


# -- sorry_forward_4 ----------------------------------------------------------------------------
def test_sorry_forward_4_no() -> None:
    assert moves_of("R:S,S,S,10 Y:S,S,S,40 R", "S") == {"RS>Y40": "R:S,S,10,40 Y:S,S,S,S"}
    assert moves_of("R:10,20,30,50 Y:S,S,S,40 R", "S") == {"pass": "R:10,20,30,50 Y:S,S,S,40"}


def test_sorry_forward_4_always() -> None:
    assert moves_of("R:S,S,S,10 Y:S,S,S,40 R", "S", sorry_forward_4="always") == {
        "RS>Y40": "R:S,S,10,40 Y:S,S,S,S",
        "R10+4": "R:S,S,S,14 Y:S,S,S,40",
    }
    # the forward 4 slides and bumps like any move, and never lands on an own pawn
    assert moves_of("R:S,S,12,16 Y:S,S,S,S R", "S", sorry_forward_4="always") == {
        "R16+4": "R:S,S,12,20 Y:S,S,S,S",
    }
    assert moves_of("R:S,S,S,12 Y:S,S,S,17 R", "S", sorry_forward_4="always") == {
        "RS>Y17": "R:S,S,12,17 Y:S,S,S,S",
        "R12+4": "R:S,S,S,19 Y:S,S,S,S",
    }


def test_sorry_forward_4_fallback() -> None:
    # a target exists: Sorry! only
    assert moves_of("R:S,S,S,10 Y:S,S,S,40 R", "S", sorry_forward_4="fallback") == {
        "RS>Y40": "R:S,S,10,40 Y:S,S,S,S",
    }
    # no opponent on the track: 4 forward
    assert moves_of("R:S,S,S,10 Y:S,S,s1,H R", "S", sorry_forward_4="fallback") == {
        "R10+4": "R:S,S,S,14 Y:S,S,s1,H",
    }
    # no pawn in START (the Sorry! cannot be played either): 4 forward
    assert moves_of("R:10,20,30,50 Y:S,S,S,40 R", "S", sorry_forward_4="fallback") == {
        "R10+4": "R:14,20,30,50 Y:S,S,S,40",
        "R20+4": "R:10,28,30,50 Y:S,S,S,40",  # Blue's long slide
        "R30+4": "R:10,20,34,50 Y:S,S,S,40",
        "R50+4": "R:10,20,30,58 Y:S,S,S,40",  # Green's long slide
    }
    # neither: forfeit
    assert moves_of("R:S,S,S,S Y:S,S,S,S R", "S", sorry_forward_4="fallback") == {
        "pass": "R:S,S,S,S Y:S,S,S,S"
    }


# -- ten_backward -------------------------------------------------------------------------------
def test_ten_backward_choice_offers_both() -> None:
    assert moves_of("R:S,S,4,s2 Y:12,33,40,H R", 10) == {
        "R4+10": "R:S,S,14,s2 Y:12,33,40,H",
        "R4-1": "R:S,S,3,s2 Y:12,33,40,H",
        "Rs2-1": "R:S,S,4,s1 Y:12,33,40,H",
    }


def test_ten_backward_fallback() -> None:
    # a pawn can move 10 forward: no backward move
    assert moves_of("R:S,S,4,s2 Y:12,33,40,H R", 10, ten_backward="fallback") == {
        "R4+10": "R:S,S,14,s2 Y:12,33,40,H",
    }
    # none can (the Safety Zone's pawns are too close to HOME, the track pawn would land on
    # its own): every backward 1
    assert moves_of("R:S,S,s5,s2 Y:12,33,40,H R", 10, ten_backward="fallback") == {
        "Rs2-1": "R:S,S,s1,s5 Y:12,33,40,H",
        "Rs5-1": "R:S,S,s2,s4 Y:12,33,40,H",
    }
    # one pawn can (the other would land on its own): that pawn's forward move only
    assert moves_of("R:S,S,4,14 Y:S,S,S,S R", 10, ten_backward="fallback") == {
        "R14+10": "R:S,S,4,28 Y:S,S,S,S",  # Blue's long slide
    }
    assert moves_of("R:S,S,S,4 Y:S,S,S,S R", 4, ten_backward="fallback") == {
        "R4-4": "R:S,S,S,0 Y:S,S,S,S",
    }  # a card with no forward move is unchanged
    # typed in full, the backward move is refused while a forward one is listed
    g = game_at("R:S,S,4,s2 Y:12,33,40,H R", 10, ten_backward="fallback")
    with pytest.raises(IllegalMoveError):
        g.push("R4-1")


def test_ten_backward_fallback_in_the_teams_variant() -> None:
    """The partner's pawns count: Red's own pawns cannot go 10 forward, Yellow's can."""
    rules = Rules.from_options("teams", {"ten_backward": "fallback"})
    g = Game.from_position("R:S,S,S,s3 B:S,S,S,S Y:S,S,S,20 G:S,S,S,S R", rules, card=10)
    assert [str(m) for m in g.legal_moves] == ["Y20+10"]


# -- slide_on -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("slide_on", "blue_triangle", "own_long", "own_short"),
    [
        ("other", "R:S,S,S,19", "R:S,S,S,9 Y:S,S,S,11", "R:S,S,S,1 Y:S,S,S,3"),
        ("own", "R:S,S,S,16", "R:S,S,S,13 Y:S,S,S,S", "R:S,S,S,4 Y:S,S,S,S"),
        ("all", "R:S,S,S,19", "R:S,S,S,13 Y:S,S,S,S", "R:S,S,S,4 Y:S,S,S,S"),
    ],
)
def test_slide_on(slide_on: str, blue_triangle: str, own_long: str, own_short: str) -> None:
    assert moves_of("R:S,S,S,11 Y:S,S,S,S R", 5, slide_on=slide_on) == {
        "R11+5": blue_triangle + " Y:S,S,S,S"
    }
    assert moves_of("R:S,S,S,4 Y:S,S,S,11 R", 5, slide_on=slide_on) == {"R4+5": own_long}
    # Red's own short slide runs over its entry (2): a Red pawn sliding on it ends on 4,
    # still on the track
    assert moves_of("R:S,S,S,56 Y:S,S,S,3 R", 5, slide_on=slide_on) == {"R56+5": own_short}


def test_slide_on_own_for_yellow() -> None:
    assert moves_of("R:S,S,S,S Y:S,S,S,36 Y", 3, slide_on="own") == {
        "Y36+3": "R:S,S,S,S Y:S,S,S,43"
    }
    assert moves_of("R:S,S,S,S Y:S,S,S,56 Y", 5, slide_on="own") == {"Y56+5": "R:S,S,S,S Y:S,S,S,1"}


# -- swap_slides --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("swap_slides", "after"),
    [("mover", "R:S,S,S,50 Y:S,S,S,24"), ("both", "R:S,S,S,50 Y:S,S,S,28")],
)
def test_swap_slides(swap_slides: str, after: str) -> None:
    # Red on Blue's long triangle 24 (put there by a swap) swaps with Yellow on 50
    got = moves_of("R:S,S,S,24 Y:S,S,S,50 R", 11, swap_slides=swap_slides)
    assert got["R24<>Y50"] == after


# -- starting_pawns_out -------------------------------------------------------------------------
def test_starting_pawns_out() -> None:
    g = Game(rules_of(starting_pawns_out=1), players=4, seed=1, first=0)
    assert g.position_string() == "R:S,S,S,4 B:S,S,S,19 Y:S,S,S,34 G:S,S,S,49 R"
    g = Game(rules_of(starting_pawns_out=0), players=2, seed=1, first=2)
    assert g.position_string() == "R:S,S,S,S Y:S,S,S,S Y"
    assert Rules(variant="points").starting_pawns_out == 1


def test_starting_pawn_out_can_move_at_once() -> None:
    g = Game(rules_of(starting_pawns_out=1), players=2, seed=1, first=0)
    g.draw(5)
    assert [str(m) for m in g.legal_moves] == ["R4+5"]


# -- turn_limit ---------------------------------------------------------------------------------
def test_turn_limit_ends_a_random_game_unfinished() -> None:
    g = play_out(Game(rules_of(turn_limit=20), players=4, seed=8))
    assert len(g.move_stack) == 20 and g.turn == 20 and g.unfinished


# -- validation ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "option",
    [
        "deck=46",
        "two_draws_again=maybe",
        "sorry_forward_4=sometimes",
        "slide_on=none",
        "swap_slides=neither",
        "starting_pawns_out=2",
        "turn_limit=-3",
        "colour=red",
        "deck",
    ],
)
def test_bad_options(option: str) -> None:
    with pytest.raises(RulesError):
        Rules.from_options("standard", [option])


@pytest.mark.parametrize("option", ["team_seven_split=any", "team_swap_partner=yes",
                                    "points_bonus=cumulative"])  # fmt: skip
def test_variant_only_options_refused_in_the_standard_game(option: str) -> None:
    with pytest.raises(RulesError, match="only applies"):
        Rules.from_options("standard", [option])


def test_options_round_trip() -> None:
    r = Rules.from_options(
        "standard",
        ["deck=44", "two_draws_again=no", "sorry_forward_4=fallback", "slide_on=all",
         "swap_slides=both", "starting_pawns_out=1", "turn_limit=300"],
    )  # fmt: skip
    assert Rules.from_dict(r.to_dict()) == r
    assert Rules.from_options("standard", r.options_text().split()) == r
    assert r.turn_limit == 300 and r.deck == 44 and r.two_draws_again is False


# -- the options' vocabulary ------------------------------------------------------------------
def test_every_option_a_form_offers_has_words_for_every_value() -> None:
    """The one table the faces read (sorry.rules.OPTIONS): a label and words for each value,
    the short ones fitting the terminal's 30-column choice in every language."""
    from sorry.i18n import LANGUAGES, _, using
    from sorry.rules import FORM_OPTIONS, OPTION_TABLE, OPTION_VALUES

    assert set(FORM_OPTIONS) == set(OPTION_VALUES) - {"turn_limit"}
    for name in FORM_OPTIONS:
        o = OPTION_TABLE[name]
        assert o.label and o.short and set(o.words) == set(o.values), name
        for lang in LANGUAGES:
            with using(lang):
                for value in o.values:
                    assert len(_(o.value_words(value, short=True))) <= 30, (lang, name, value)
