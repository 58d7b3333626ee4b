"""Rule options (docs/variants.md, Rule options and variants) with every variant: accepted where
they make sense, with their effect in each variant, and refused with a clear error where they
make none."""

from __future__ import annotations

from collections import Counter

import pytest

from engine_helpers import play_out, random_moves
from sorry.board import START, START_EXIT
from sorry.cards import SORRY, deck_counts
from sorry.errors import RulesError
from sorry.game import Game
from sorry.rules import OPTION_VALUES, VARIANTS, Rules

_ONLY = {"team_seven_split": "teams", "team_swap_partner": "teams", "points_bonus": "points"}


def _combinations() -> list[tuple[str, str, str]]:
    out = []
    for variant in VARIANTS:
        for name, values in OPTION_VALUES.items():
            if _ONLY.get(name, variant) != variant:
                continue
            extra = ["40"] if name == "turn_limit" else []
            for value in [*values[1:], *extra]:
                if variant == "points" and name == "starting_pawns_out":
                    continue  # the points default already
                out.append((variant, name, value))
    return out


COMBINATIONS = _combinations()


def _players(variant: str) -> int:
    return 4 if variant == "teams" else 3


def all_cards(g: Game) -> Counter[int]:
    cards = Counter(g.draw_pile) + Counter(g.discard_pile)
    for c in g.colours:
        cards += Counter(g.hands[c])
    if g.card is not None:
        cards[g.card] += 1
    return cards


def test_the_combinations_cover_every_option() -> None:
    names = {name for _v, name, _x in COMBINATIONS}
    assert names == set(OPTION_VALUES)
    assert {v for v, _n, _x in COMBINATIONS} == set(VARIANTS)


@pytest.mark.parametrize(("variant", "name", "value"), COMBINATIONS)
def test_option_is_accepted_and_a_game_plays_to_the_end(
    variant: str, name: str, value: str
) -> None:
    rules = Rules.from_options(variant, [f"{name}={value}"])
    assert rules.variant == variant and rules.options()[name] == value
    assert rules.options_text() == f"{name}={value}"
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_options(variant, {name: value}) == rules
    g = Game(rules, players=_players(variant), seed=7)
    deck = Counter(deck_counts(rules.deck))
    play_out(g, random_moves(7))
    assert all_cards(g) == deck
    if name == "turn_limit":
        assert g.turn <= 40
        assert g.unfinished or g.winners
    else:
        assert g.winners
        homes = {c for c in g.colours if all(x == 65 for x in g.pawns[c])}
        assert set(g.winners) <= homes


# -- refusals -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "option", "message"),
    [
        ("standard", "team_seven_split=any", "only applies to the teams variant"),
        ("points", "team_seven_split=any", "only applies to the teams variant"),
        ("standard", "team_swap_partner=yes", "only applies to the teams variant"),
        ("points", "team_swap_partner=yes", "only applies to the teams variant"),
        ("standard", "points_bonus=cumulative", "only applies to the points variant"),
        ("teams", "points_bonus=cumulative", "only applies to the points variant"),
        ("points", "starting_pawns_out=0", "starting_pawns_out=0 makes no sense"),
        ("standard", "deck=46", "bad value '46' for option deck"),
        ("teams", "slide_on=none", "bad value 'none' for option slide_on"),
        ("points", "turn_limit=0", "turn_limit"),
        ("points", "turn_limit=x", "turn_limit"),
        ("standard", "colour=red", "unknown rule option 'colour'"),
        ("teams", "team_swap_partner", "not of the form key=value"),
    ],
)
def test_senseless_options_are_refused(variant: str, option: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_options(variant, [option])


def test_refusals_of_the_constructor_too() -> None:
    with pytest.raises(RulesError, match="only applies to the teams variant"):
        Rules(variant="standard", team_swap_partner=True)
    with pytest.raises(RulesError, match="only applies to the teams variant"):
        Rules(variant="points", team_seven_split="any")
    with pytest.raises(RulesError, match="only applies to the points variant"):
        Rules(variant="teams", points_bonus="cumulative")
    with pytest.raises(RulesError, match="bad value True for option deck"):
        Rules(deck=True)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="turn_limit"):
        Rules(turn_limit=True)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown variant"):
        Rules(variant="solo")
    with pytest.raises(RulesError, match="unknown variant"):
        Rules.from_options("solo")
    with pytest.raises(RulesError, match="given twice"):
        Rules.from_options("standard", ["deck=44", "deck=45"])
    # A variant-only option at its default is harmless anywhere.
    assert Rules(variant="standard", team_swap_partner=False) == Rules()


def test_constructor_takes_option_text_like_from_options() -> None:
    # Found in review: Rules(two_draws_again="no") was kept as the (truthy) string "no", so a
    # 2 still played again; now text values are converted as from_options converts them.
    rules = Rules(two_draws_again="no", deck="44")  # type: ignore[arg-type]
    assert rules == Rules.from_options("standard", ["two_draws_again=no", "deck=44"])
    assert rules.two_draws_again is False and rules.deck == 44
    g = Game.from_position("R:S,S,S,S Y:S,S,S,S R", rules, card=2)
    g.push("RS>4")
    assert g.to_move == 2


@pytest.mark.parametrize("players", [2, 3, (0, 1, 2), (0, 2)])
def test_teams_need_all_four_colours(players: int | tuple[int, ...]) -> None:
    with pytest.raises(RulesError, match="needs all four colours"):
        Game(Rules(variant="teams"), players=players)


def test_teams_position_with_three_colours_is_refused() -> None:
    with pytest.raises(RulesError, match="needs all four colours"):
        Game.from_position("R:S,S,S,S B:S,S,S,S Y:S,S,S,S R", Rules(variant="teams"), card=1)


# -- each option's effect inside the variants ---------------------------------------------------
def test_deck_44_in_points_and_teams() -> None:
    rules = Rules.from_options("points", ["deck=44"])
    g = Game(rules, players=4, seed=1)
    while g.is_chance():
        g.draw()
    assert len(g.draw_pile) == 44 - 20 and all_cards(g)[1] == 4
    g = Game(Rules.from_options("teams", ["deck=44"]), seed=1)
    assert len(g.draw_pile) == 44 and Counter(g.draw_pile)[1] == 4


def test_two_draws_again_no_in_teams() -> None:
    pos = "R:S,S,S,S B:S,S,S,S Y:S,S,S,S G:S,S,S,S R"
    g = Game.from_position(pos, Rules.from_options("teams", ["two_draws_again=no"]), card=2)
    g.push("YS>34")
    assert g.to_move == 1
    g = Game.from_position(pos, Rules(variant="teams"), card=2)
    g.push("YS>34")
    assert g.to_move == 0


def test_sorry_forward_4_in_points() -> None:
    rules = Rules.from_options("points", ["sorry_forward_4=always"])
    g = Game.from_position(
        "R:S,S,S,4 Y:S,S,S,34 R", rules, hands={0: [SORRY, 3, 3, 3, 3], 2: [1, 1, 1, 1, 1]}
    )
    assert [str(m) for m in g.legal_moves] == ["3:R4+3", "S:RS>Y34", "S:R4+4"]
    rules = Rules.from_options("points", ["sorry_forward_4=fallback"])
    g = Game.from_position(
        "R:S,S,S,4 Y:S,S,S,34 R", rules, hands={0: [SORRY, 3, 3, 3, 3], 2: [1, 1, 1, 1, 1]}
    )
    assert [str(m) for m in g.legal_moves] == ["3:R4+3", "S:RS>Y34"]


def test_slide_on_own_and_all_in_points() -> None:
    hands = {0: [5, 5, 5, 5, 3], 2: [1, 1, 1, 1, 1]}
    pos = "R:S,S,S,4 Y:S,S,S,34 R"  # R4+5 lands on Red's own triangle 9
    results = {}
    for value in ("other", "own", "all"):
        rules = Rules.from_options("points", [f"slide_on={value}"])
        g = Game.from_position(pos, rules, hands=hands)
        g.push("5:R4+5")
        results[value] = g.board_text()
    assert results == {
        "other": "R:S,S,S,9 Y:S,S,S,34",
        "own": "R:S,S,S,13 Y:S,S,S,34",
        "all": "R:S,S,S,13 Y:S,S,S,34",
    }


def test_swap_slides_both_in_points() -> None:
    # Red 9 <> Yellow 39: Red, the mover, lands on Yellow's triangle 39 and slides to 43;
    # Yellow lands on Red's triangle 9 and slides to 13 only with swap_slides=both.
    hands = {0: [11, 3, 3, 3, 3], 2: [1, 1, 1, 1, 1]}
    pos = "R:S,S,S,9 Y:S,S,S,39 R"
    g = Game.from_position(pos, Rules(variant="points"), hands=hands)
    g.push("11:R9<>Y39")
    assert g.board_text() == "R:S,S,S,43 Y:S,S,S,9"
    rules = Rules.from_options("points", ["swap_slides=both"])
    g = Game.from_position(pos, rules, hands=hands)
    g.push("11:R9<>Y39")
    assert g.board_text() == "R:S,S,S,43 Y:S,S,S,13"


def test_starting_pawns_out_in_every_variant() -> None:
    for variant in VARIANTS:
        rules = Rules.from_options(variant, ["starting_pawns_out=1"])
        g = Game(rules, players=4, seed=3)
        for c in g.colours:
            assert sorted(g.pawns[c]) == sorted([START] * 3 + [START_EXIT[c]])
    g = Game(Rules(variant="teams"), seed=3)
    assert all(p == [START] * 4 for p in g.pawns)
    # Points always starts one pawn out (the option given as 1 is the same rules).
    assert Rules.from_options("points", ["starting_pawns_out=1"]) == Rules(variant="points")
    assert Rules(variant="points").options_text() == ""


def test_turn_limit_in_teams_and_points() -> None:
    for variant in ("teams", "points"):
        rules = Rules.from_options(variant, ["turn_limit=6"])
        g = Game(rules, players=4, seed=5)
        play_out(g, random_moves(5))
        assert g.unfinished and g.turn == 6 and g.returns() == [0.0] * 4


def test_several_team_options_together() -> None:
    rules = Rules.from_options(
        "teams",
        ["slide_on=own", "team_swap_partner=yes", "team_seven_split=any", "sorry_forward_4=always"],
    )
    assert rules.options_text() == (
        "sorry_forward_4=always slide_on=own team_seven_split=any team_swap_partner=yes"
    )
    pos = "R:S,S,10,36 B:S,S,S,25 Y:S,S,S,6 G:S,S,S,S R"
    g = Game.from_position(pos, rules, card=11)
    got = [str(m) for m in g.legal_moves]
    assert "R10<>Y6" in got and "R36<>Y6" in got and "R10<>B25" in got
    assert "Y6<>R36" not in got  # the same result as R36<>Y6: listed once
    g.push("Y6<>R36")  # but accepted when typed from Yellow's side
    assert g.board_text() == "R:S,S,6,10 B:S,S,S,25 Y:S,S,S,36 G:S,S,S,S"
    g = Game.from_position(pos, rules, card=3)
    g.push("R36+3")  # Red on Yellow's triangle 39: with slide_on=own, no slide
    assert g.board_text() == "R:S,S,10,39 B:S,S,S,25 Y:S,S,S,6 G:S,S,S,S"
    g = Game.from_position(pos, rules, card=SORRY)
    got = [str(m) for m in g.legal_moves]
    assert "RS>B25" in got and "R10+4" in got and "Y6+4" in got
    g = Game.from_position(pos, rules, card=7)
    assert any(m.count("/") == 2 for m in (str(x) for x in g.legal_moves))


def test_several_points_options_together() -> None:
    rules = Rules.from_options(
        "points", ["deck=44", "points_bonus=cumulative", "two_draws_again=no"]
    )
    g = Game.from_position(
        "R:H,H,H,s5 Y:S,S,20,30 R", rules, hands={0: [1, 2, 2, 2, 2], 2: [3, 3, 3, 3, 4]}
    )
    g.push("1:Rs5+1")
    assert g.scores == {0: 20 + 20 + 175, 2: 0}
    assert all_cards(g) == Counter(deck_counts(44))
