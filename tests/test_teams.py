"""The team variant (docs/variants.md, Team variant): Red+Yellow against Blue+Green, any of the
team's eight pawns moved with the card drawn."""

from __future__ import annotations

import random
from functools import partial

import pytest

from engine_helpers import play_out
from sorry.board import FORWARD as FWD, HOME, START, TRACK_LEN
from sorry.cards import CARDS, SORRY
from sorry.errors import IllegalMoveError, PositionError, RulesError
from sorry.game import Game
from sorry.moves import SWAP, Move
from sorry.position import Position
from sorry.rules import Rules
from sorry.state import PawnState

TEAMS = Rules(variant="teams")
EMPTY = "R:S,S,S,S B:S,S,S,S Y:S,S,S,S G:S,S,S,S"


def game(pos: str, card: int, rules: Rules = TEAMS) -> Game:
    return Game.from_position(pos, rules, card=card)


def moves(pos: str, card: int, rules: Rules = TEAMS) -> list[str]:
    return [str(m) for m in game(pos, card, rules).legal_moves]


def after(pos: str, card: int, move: str, rules: Rules = TEAMS) -> str:
    g = game(pos, card, rules)
    g.push(move)
    return g.board_text()


# -- starting, moving and bumping the partner's pawns -------------------------------------------
@pytest.mark.parametrize("card", [1, 2])
def test_one_or_two_starts_either_partners_pawn(card: int) -> None:
    assert moves(EMPTY + " R", card) == ["RS>4", "YS>34"]
    assert moves(EMPTY + " B", card) == ["BS>19", "GS>49"]
    assert moves(EMPTY + " Y", card) == ["YS>34", "RS>4"]
    # The standard game starts only the mover's own pawns.
    assert moves("R:S,S,S,S Y:S,S,S,S R", card, Rules()) == ["RS>4"]


def test_start_onto_partner_on_the_exit_bumps_it() -> None:
    pos = "R:S,S,S,S B:S,S,S,S Y:S,S,S,4 G:S,S,S,S R"
    assert moves(pos, 1) == ["RS>4", "YS>34", "Y4+1"]
    assert after(pos, 1, "RS>4") == "R:S,S,S,4 B:S,S,S,S Y:S,S,S,S G:S,S,S,S"


def test_any_of_the_eight_pawns_moves_and_partner_is_bumped() -> None:
    pos = "R:S,S,10,20 B:S,S,S,25 Y:S,S,15,40 G:S,S,S,S R"
    assert moves(pos, 5) == ["R10+5", "R20+5", "Y15+5", "Y40+5"]
    # R10+5 lands on the partner's pawn on 15: it goes back to START.
    assert after(pos, 5, "R10+5") == "R:S,S,15,20 B:S,S,S,25 Y:S,S,S,40 G:S,S,S,S"
    # Y15+5 lands on the partner's pawn on 20.
    assert after(pos, 5, "Y15+5") == "R:S,S,S,10 B:S,S,S,25 Y:S,S,20,40 G:S,S,S,S"
    # Y20... Y40+5 is Yellow's own geometry and lands on 45; R20+5 bumps Blue on 25.
    assert after(pos, 5, "R20+5") == "R:S,S,10,25 B:S,S,S,S Y:S,S,15,40 G:S,S,S,S"


def test_own_colour_still_blocks() -> None:
    # Two Yellow pawns: one cannot land on the other, but a Red pawn may land on Yellow.
    pos = "R:S,S,S,10 B:S,S,S,S Y:S,S,10,15 G:S,S,S,S R"
    with pytest.raises(PositionError, match="square 10"):
        game(pos, 5)  # two pawns on one square is not a position
    pos = "R:S,S,S,20 B:S,S,S,S Y:S,S,5,10 G:S,S,S,S R"
    assert moves(pos, 5) == ["R20+5", "Y10+5"]  # Y5+5 would land on Yellow's own pawn on 10
    pos = "R:S,S,S,10 B:S,S,S,S Y:S,S,5,15 G:S,S,S,S R"
    assert moves(pos, 5) == ["R10+5", "Y5+5", "Y15+5"]  # Y5+5 bumps Red on 10


def test_opponents_move_their_own_team_only() -> None:
    pos = "R:S,S,S,10 B:S,S,S,20 Y:S,S,S,40 G:S,S,S,50 B"
    assert moves(pos, 3) == ["B20+3", "G50+3"]
    assert moves(pos[:-1] + "G", 3) == ["G50+3", "B20+3"]


def test_partner_pawn_uses_its_own_entry_and_safety_zone() -> None:
    # Yellow's entry is 32: a Yellow pawn on 30 moved 5 by Red turns into Yellow's zone.
    pos = "R:S,S,S,30 B:S,S,S,S Y:S,S,S,29 G:S,S,S,S R"
    # Red's pawn on 30 goes on along the track; Yellow's on 29 lands on s2 of its own zone.
    assert moves(pos, 5) == ["R30+5", "Y29+5"]
    assert after(pos, 5, "Y29+5") == "R:S,S,S,30 B:S,S,S,S Y:S,S,S,s2 G:S,S,S,S"
    assert after(pos, 5, "R30+5") == "R:S,S,S,35 B:S,S,S,S Y:S,S,S,29 G:S,S,S,S"
    # Yellow's pawn on s3 goes HOME with a 3, moved by Red.
    pos = "R:S,S,S,30 B:S,S,S,S Y:S,S,S,s3 G:S,S,S,S R"
    assert after(pos, 3, "Ys3+3") == "R:S,S,S,30 B:S,S,S,S Y:S,S,S,H G:S,S,S,S"
    # Backward out of the partner's Safety Zone with the 10's 1 back and with a 4.
    assert "Ys3-4" in moves(pos, 4)
    assert after(pos, 4, "Ys3-4") == "R:S,S,S,30 B:S,S,S,S Y:S,S,S,31 G:S,S,S,S"
    # Backward onto the partner bumps it: Yellow s3 back 4 is 31; Red's pawn there is bumped.
    pos = "R:S,S,S,31 B:S,S,S,S Y:S,S,S,s3 G:S,S,S,S R"
    assert after(pos, 4, "Ys3-4") == "R:S,S,S,S B:S,S,S,S Y:S,S,S,31 G:S,S,S,S"


def test_partner_pawn_slides_by_its_own_colour() -> None:
    # slide_on=other: a Yellow pawn slides on Red's triangle 9 (to 13) but not on its own 39.
    pos = "R:S,S,S,36 B:S,S,S,S Y:S,S,6,36 G:S,S,S,S R"
    with pytest.raises(PositionError, match="square 36"):
        Position.parse(pos)
    pos = "R:S,S,S,S B:S,S,S,S Y:S,S,6,36 G:S,S,S,S R"
    assert after(pos, 3, "Y6+3") == "R:S,S,S,S B:S,S,S,S Y:S,S,13,36 G:S,S,S,S"
    assert after(pos, 3, "Y36+3") == "R:S,S,S,S B:S,S,S,S Y:S,S,6,39 G:S,S,S,S"
    # Red's pawns are the other way round.
    pos = "R:S,S,6,36 B:S,S,S,S Y:S,S,S,S G:S,S,S,S Y"
    assert after(pos, 3, "R6+3") == "R:S,S,9,36 B:S,S,S,S Y:S,S,S,S G:S,S,S,S"
    assert after(pos, 3, "R36+3") == "R:S,S,6,43 B:S,S,S,S Y:S,S,S,S G:S,S,S,S"


def test_partner_pawn_slides_with_slide_on_own() -> None:
    rules = Rules.from_options("teams", ["slide_on=own"])
    pos = "R:S,S,S,S B:S,S,S,S Y:S,S,6,36 G:S,S,S,S R"
    assert after(pos, 3, "Y6+3", rules) == "R:S,S,S,S B:S,S,S,S Y:S,S,9,36 G:S,S,S,S"
    assert after(pos, 3, "Y36+3", rules) == "R:S,S,S,S B:S,S,S,S Y:S,S,6,43 G:S,S,S,S"
    rules = Rules.from_options("teams", ["slide_on=all"])
    assert after(pos, 3, "Y6+3", rules) == "R:S,S,S,S B:S,S,S,S Y:S,S,13,36 G:S,S,S,S"
    assert after(pos, 3, "Y36+3", rules) == "R:S,S,S,S B:S,S,S,S Y:S,S,6,43 G:S,S,S,S"


def test_slide_bumps_partner_pawns_on_it() -> None:
    # A Red pawn lands on Blue's triangle 16 and slides to 19: Yellow on 18 is bumped, and so
    # is Green on 19.
    pos = "R:S,S,S,11 B:S,S,S,S Y:S,S,S,18 G:S,S,S,19 R"
    assert after(pos, 5, "R11+5") == "R:S,S,S,19 B:S,S,S,S Y:S,S,S,S G:S,S,S,S"


def test_after_a_two_the_next_card_moves_any_team_pawn() -> None:
    g = game("R:S,S,S,S B:S,S,S,S Y:S,S,S,40 G:S,S,S,S R", 2)
    g.push("RS>4")
    assert g.is_chance() and g.to_move == 0
    g.draw(5)
    assert [str(m) for m in g.legal_moves] == ["R4+5", "Y40+5"]
    g.push("Y40+5")
    assert g.to_move == 1
    assert g.board_text() == "R:S,S,S,4 B:S,S,S,S Y:S,S,S,45 G:S,S,S,S"


# -- the 7 --------------------------------------------------------------------------------------
def test_seven_splits_between_partners() -> None:
    pos = "R:S,S,S,20 B:S,S,S,S Y:S,S,S,40 G:S,S,S,S R"
    got = moves(pos, 7)
    assert got[:2] == ["R20+7", "Y40+7"]
    assert set(got[2:]) == {f"R20+{k}/Y40+{7 - k}" for k in range(1, 7)}


def test_seven_halves_may_bump_the_partner_either_order() -> None:
    # R10+3 and Y14+... both reach 13 with the right halves: the order decides who stays.
    pos = "R:S,S,S,10 B:S,S,S,S Y:S,S,S,11 G:S,S,S,S R"
    got = set(moves(pos, 7))
    # R10+4 = 14 and Y11+3 = 14: first half lands, second bumps it.
    assert "R10+4/Y11+3" in got and "Y11+3/R10+4" in got
    assert after(pos, 7, "R10+4/Y11+3") == "R:S,S,S,S B:S,S,S,S Y:S,S,S,14 G:S,S,S,S"
    assert after(pos, 7, "Y11+3/R10+4") == "R:S,S,S,14 B:S,S,S,S Y:S,S,S,S G:S,S,S,S"


def test_seven_default_never_splits_three_ways() -> None:
    pos = "R:S,S,10,20 B:S,S,S,S Y:S,S,S,40 G:S,S,S,S R"
    assert all(m.count("/") <= 1 for m in moves(pos, 7))


def test_seven_split_any_three_and_more_pawns() -> None:
    rules = Rules.from_options("teams", ["team_seven_split=any"])
    pos = "R:S,S,10,20 B:S,S,S,S Y:S,S,S,40 G:S,S,S,S R"
    got = moves(pos, 7, rules)
    assert "R10+1/R20+2/Y40+4" in got
    g = game(pos, 7, rules)
    g.push("R10+1/R20+2/Y40+4")
    assert g.board_text() == "R:S,S,11,22 B:S,S,S,S Y:S,S,S,44 G:S,S,S,S"
    # A four-way split needs four pawns on the board.
    pos = "R:S,S,10,20 B:S,S,S,S Y:S,S,40,50 G:S,S,S,S R"
    assert any(m.count("/") == 3 for m in moves(pos, 7, rules))
    # Any order of the parts is accepted when typed.
    g = game("R:S,S,10,20 B:S,S,S,S Y:S,S,S,40 G:S,S,S,S R", 7, rules)
    g.push("Y40+4/R20+2/R10+1")
    assert g.board_text() == "R:S,S,11,22 B:S,S,S,S Y:S,S,S,44 G:S,S,S,S"
    # Without the option a three-part split is refused.
    g = game("R:S,S,10,20 B:S,S,S,S Y:S,S,S,40 G:S,S,S,S R", 7)
    with pytest.raises(IllegalMoveError, match="illegal"):
        g.push("R10+1/R20+2/Y40+4")


def _brute_seven(state: PawnState, cols: tuple[int, ...], max_parts: int) -> set[object]:
    """Every result of a 7 (whole, or split into positive parts among distinct team pawns, at
    most ``max_parts`` of them, played one after the other), found without the engine."""
    ids = [(c, i) for c in cols for i in range(4) if state.pawns[c][i] not in (START, HOME)]
    results: set[object] = set()
    memo: set[object] = set()

    def rec(st: PawnState, remaining: int, used: frozenset[tuple[int, int]], n: int) -> None:
        if remaining == 0:
            results.add(st.key())
            return
        if n == max_parts:
            return
        memo_key = (tuple(tuple(p) for p in st.pawns), used, remaining)
        if memo_key in memo:
            return
        memo.add(memo_key)
        for c, i in ids:
            if (c, i) in used:
                continue
            loc = st.pawns[c][i]
            if loc in (START, HOME):
                continue
            for s in range(1, remaining + 1):
                dest = FWD[c][loc][s]
                if dest < 0 or not st.can_land(c, dest):
                    continue
                nxt = st.copy()
                nxt.place(c, i, dest, [])
                rec(nxt, remaining - s, used | {(c, i)}, n + 1)

    rec(state, 7, frozenset(), 0)
    return results


def _random_team_position(rnd: random.Random, on_board: int) -> str:
    """A random legal four-colour position with ``on_board`` of Red and Yellow's pawns out."""
    taken: set[int] = set()
    fields = []
    for c, letter in enumerate("RBYG"):
        locs: list[str] = []
        safe: set[int] = set()
        out = on_board // 2 + (on_board % 2 if c == 0 else 0) if c in (0, 2) else 2
        for _ in range(out):
            while True:
                x = rnd.randrange(TRACK_LEN + 6)
                if x < TRACK_LEN and x not in taken:
                    taken.add(x)
                    locs.append(str(x))
                    break
                if x >= TRACK_LEN and x - TRACK_LEN + 1 not in safe and x < TRACK_LEN + 5:
                    safe.add(x - TRACK_LEN + 1)
                    locs.append(f"s{x - TRACK_LEN + 1}")
                    break
        locs += [rnd.choice("SSH") for _ in range(4 - len(locs))]
        fields.append(f"{letter}:" + ",".join(locs))
    return " ".join(fields) + " R"


@pytest.mark.parametrize(("option", "max_parts"), [("two", 2), ("any", 7)])
def test_seven_matches_brute_force(option: str, max_parts: int) -> None:
    rules = Rules.from_options("teams", [f"team_seven_split={option}"])
    rnd = random.Random(option)
    for _ in range(25):
        pos = _random_team_position(rnd, rnd.choice((3, 4, 5)))
        g = game(pos, 7, rules)
        results = []
        for m in g.legal_moves:
            st = g.state.copy()
            st.apply(m, [])
            results.append(st.key())
            assert m.card is None and sum(p.steps for p in m.parts or (m,)) == 7
        assert len(results) == len(set(results)), f"duplicate results in {pos}"
        assert set(results) == _brute_seven(g.state, (0, 2), max_parts), pos


def test_seven_any_split_is_a_superset_of_two() -> None:
    pos = "R:S,10,20,s1 B:S,S,S,S Y:S,S,40,50 G:S,S,S,S R"
    two = game(pos, 7).legal_moves
    anyg = game(pos, 7, Rules.from_options("teams", ["team_seven_split=any"]))
    keys_any = set()
    for m in anyg.legal_moves:
        st = anyg.state.copy()
        st.apply(m, [])
        keys_any.add(st.key())
    for m in two:
        st = anyg.state.copy()
        st.apply(m, [])
        assert st.key() in keys_any


# -- Sorry! -------------------------------------------------------------------------------------
def test_sorry_must_bump_the_partner_when_it_is_the_only_target() -> None:
    pos = "R:S,S,S,S B:S,S,S,S Y:S,S,S,20 G:S,S,S,S R"
    g = game(pos, SORRY)
    assert [str(m) for m in g.legal_moves] == ["RS>Y20"]  # no pass: it must be played
    g.push("RS>Y20")
    assert g.board_text() == "R:S,S,S,20 B:S,S,S,S Y:S,S,S,S G:S,S,S,S"


def test_sorry_targets_any_colour_but_the_placed_pawns() -> None:
    pos = "R:S,S,S,10 B:S,S,S,25 Y:S,S,S,40 G:S,S,H,H R"
    assert moves(pos, SORRY) == ["RS>B25", "RS>Y40", "YS>R10", "YS>B25"]
    # The placed pawn slides on another colour's triangle: Blue on 24 is Blue's own long
    # slide, which a Red pawn takes to 28.
    pos = "R:S,S,S,10 B:S,S,S,24 Y:S,S,S,S G:S,S,H,H R"
    assert after(pos, SORRY, "RS>B24") == "R:S,S,10,28 B:S,S,S,S Y:S,S,S,S G:S,S,H,H"


def test_sorry_forward_4_fallback_in_teams() -> None:
    rules = Rules.from_options("teams", ["sorry_forward_4=fallback"])
    # The partner's pawn is a target, so the fallback does not apply.
    pos = "R:S,S,S,10 B:S,S,S,S Y:S,S,S,S G:S,S,S,S R"
    assert moves(pos, SORRY, rules) == ["YS>R10"]
    # No pawn in START on the team: no Sorry!, so any team pawn may go 4 forward.
    pos = "R:10,20,30,H B:S,S,S,50 Y:5,H,H,H G:S,S,S,S R"
    assert moves(pos, SORRY, rules) == ["R10+4", "R20+4", "R30+4", "Y5+4"]
    rules = Rules.from_options("teams", ["sorry_forward_4=always"])
    pos = "R:S,S,S,10 B:S,S,S,S Y:S,S,S,50 G:S,S,S,S R"
    assert moves(pos, SORRY, rules) == ["RS>Y50", "YS>R10", "R10+4", "Y50+4"]


# -- the 11 -------------------------------------------------------------------------------------
def test_eleven_swaps_with_opponents_only() -> None:
    pos = "R:S,S,S,10 B:S,S,S,25 Y:S,S,S,40 G:S,S,S,50 R"
    assert moves(pos, 11) == [
        "R10+11",
        "Y40+11",
        "R10<>B25",
        "R10<>G50",
        "Y40<>B25",
        "Y40<>G50",
    ]


def test_eleven_swap_partner_option() -> None:
    rules = Rules.from_options("teams", ["team_swap_partner=yes"])
    pos = "R:S,S,S,10 B:S,S,S,25 Y:S,S,S,40 G:S,S,S,50 R"
    got = moves(pos, 11, rules)
    # R10<>Y40 and Y40<>R10 give the same board: it is listed once.
    assert got == [
        "R10+11",
        "Y40+11",
        "R10<>B25",
        "R10<>Y40",
        "R10<>G50",
        "Y40<>B25",
        "Y40<>G50",
    ]
    assert after(pos, 11, "R10<>Y40", rules) == "R:S,S,S,40 B:S,S,S,25 Y:S,S,S,10 G:S,S,S,50"
    # Typed from Yellow's side it is the same move (the listed one is recorded).
    g = game(pos, 11, rules)
    g.push("Y40<>R10")
    assert g.move_stack == [Move.parse("R10<>Y40")]
    assert g.board_text() == "R:S,S,S,40 B:S,S,S,25 Y:S,S,S,10 G:S,S,S,50"
    # Without the option neither side may swap with the partner.
    for typed in ("Y40<>R10", "R10<>Y40"):
        with pytest.raises(IllegalMoveError):
            game(pos, 11).push(typed)
    # When the mover lands on a triangle the order matters: Red slides from Yellow's 39 to 43,
    # Yellow does not slide on its own triangle.
    pos = "R:S,S,S,10 B:S,S,S,S Y:S,S,S,39 G:S,S,S,S R"
    got = moves(pos, 11, rules)
    assert "R10<>Y39" in got and "Y39<>R10" in got
    assert after(pos, 11, "R10<>Y39", rules) == "R:S,S,S,43 B:S,S,S,S Y:S,S,S,10 G:S,S,S,S"
    assert after(pos, 11, "Y39<>R10", rules) == "R:S,S,S,39 B:S,S,S,S Y:S,S,S,10 G:S,S,S,S"


def test_eleven_swap_slides_both_in_teams() -> None:
    rules = Rules.from_options("teams", ["swap_slides=both"])
    # Yellow 47 <> Green 9: Yellow, the mover, lands on Red's triangle 9 and slides to 13;
    # Green lands on 47 (its own entry, no triangle).
    pos = "R:S,S,S,S B:S,S,S,S Y:S,S,S,47 G:S,S,S,9 R"
    assert after(pos, 11, "Y47<>G9", rules) == "R:S,S,S,S B:S,S,S,S Y:S,S,S,13 G:S,S,S,47"
    pos = "R:S,S,S,S B:S,S,S,S Y:S,S,S,46 G:S,S,S,9 R"
    # Yellow lands on Red's 9 and slides to 13; Green lands on its own 46 (no slide).
    assert after(pos, 11, "Y46<>G9", rules) == "R:S,S,S,S B:S,S,S,S Y:S,S,S,13 G:S,S,S,46"
    pos = "R:S,S,S,S B:S,S,S,S Y:S,S,S,1 G:S,S,S,20 R"
    # Green lands on Red's triangle 1 and, with swap_slides=both, slides to 4.
    assert after(pos, 11, "Y1<>G20", rules) == "R:S,S,S,S B:S,S,S,S Y:S,S,S,20 G:S,S,S,4"
    assert after(pos, 11, "Y1<>G20") == "R:S,S,S,S B:S,S,S,S Y:S,S,S,20 G:S,S,S,1"


def test_eleven_declinable_only_without_a_forward_11() -> None:
    # Red's pawns are near HOME; Yellow's pawn on 40 can go 11: no pass.
    pos = "R:s1,s2,s3,s4 B:S,S,S,25 Y:H,H,H,40 G:S,S,S,S R"
    assert "pass" not in moves(pos, 11)
    # Nobody on the team can go 11 forward: the swaps may be declined.
    pos = "R:s1,s2,s3,s4 B:S,S,S,25 Y:H,H,H,30 G:S,S,S,S R"
    assert moves(pos, 11) == ["Y30<>B25", "pass"]


# -- turn flow and the end ----------------------------------------------------------------------
def test_player_with_all_pawns_home_keeps_playing_partners() -> None:
    pos = "R:H,H,H,H B:S,S,S,25 Y:S,S,10,20 G:S,S,S,S R"
    assert moves(pos, 5) == ["Y10+5", "Y20+5"]
    assert moves(pos, 1) == ["YS>34", "Y10+1", "Y20+1"]
    assert moves(pos, SORRY) == ["YS>B25"]
    g = game(pos, 5)
    g.push("Y20+5")
    assert not g.is_over() and g.to_move == 1
    # A player whose pawns are HOME and whose partner cannot move forfeits the turn.
    pos = "R:H,H,H,H B:S,S,S,S Y:S,S,S,S G:S,S,S,S R"
    assert moves(pos, 5) == ["pass"]


def test_own_pawns_home_is_not_a_win() -> None:
    pos = "R:H,H,H,s5 B:S,S,S,25 Y:S,S,10,20 G:S,S,S,S R"
    g = game(pos, 1)
    g.push("Rs5+1")
    assert not g.is_over() and g.winners == ()
    assert g.to_move == 1


def test_first_team_with_eight_pawns_home_wins() -> None:
    pos = "R:H,H,H,H B:S,S,S,25 Y:H,H,H,s4 G:H,H,H,s1 R"
    g = game(pos, 2)
    assert [str(m) for m in g.legal_moves] == ["Ys4+2"]
    g.push("Ys4+2")
    assert g.is_over() and not g.unfinished
    assert g.winner == 0 and set(g.winners) == {0, 2}
    assert g.returns() == [1.0, -1.0, 1.0, -1.0]
    # Yellow completing the team by moving Red's last pawn wins for the team too.
    pos = "R:H,H,H,s3 B:S,S,S,25 Y:H,H,H,H G:H,H,H,s1 Y"
    g = game(pos, 3)
    g.push("Rs3+3")
    assert g.is_over() and g.winner == 2 and set(g.winners) == {0, 2}
    assert g.returns() == [1.0, -1.0, 1.0, -1.0]
    # Blue and Green win for their team.
    pos = "R:H,H,H,s3 B:H,H,H,H G:H,H,H,s1 Y:H,H,H,s1 G"
    g = game(pos, 5)
    g.push("Gs1+5")
    assert set(g.winners) == {1, 3} and g.returns() == [-1.0, 1.0, -1.0, 1.0]


def test_teams_need_four_players() -> None:
    with pytest.raises(RulesError, match="four colours"):
        Game(TEAMS, players=2)
    with pytest.raises(RulesError, match="four colours"):
        Game(TEAMS, players=(0, 1, 2))
    with pytest.raises(RulesError, match="four colours"):
        Game.from_position("R:S,S,S,S Y:S,S,S,S R", TEAMS, card=1)
    assert Game(TEAMS, seed=1).colours == (0, 1, 2, 3)


def test_pop_restores_partner_bumps() -> None:
    pos = "R:S,S,10,20 B:S,S,S,25 Y:S,S,15,40 G:S,S,S,S R"
    g = game(pos, 5)
    g.push("R10+5")
    g.pop()
    assert g.board_text() == Position.parse(pos).board_text()
    assert [str(m) for m in g.legal_moves] == ["R10+5", "R20+5", "Y15+5", "Y40+5"]


@pytest.mark.parametrize(
    "options",
    [(), ("team_seven_split=any",), ("team_swap_partner=yes", "slide_on=own"), ("deck=44",)],
)
def test_random_team_games_end_with_a_whole_team_home(options: tuple[str, ...]) -> None:
    rules = Rules.from_options("teams", options)

    def choose(g: Game, legal: list[Move], rnd: random.Random) -> Move:
        assert legal
        team = set(g.team_of(g.to_move))
        for m in legal:
            for part in m.parts or (m,):
                if part.colour >= 0:
                    assert part.colour in team, (g.position_string(), m)
            assert not (m.kind == SWAP and m.target_colour in team and not rules.team_swap_partner)
        before = g.snapshot()
        move = rnd.choice(legal)
        g.push(move)
        g.pop()  # taking a move back restores everything, partners' bumps included
        assert g.snapshot() == before
        return move

    def counted(g: Game) -> None:
        assert sum(len(p) for p in g.pawns) == 16
        assert len(g.draw_pile) + len(g.discard_pile) + 1 - (g.card is None) == rules.deck

    for seed in range(2):
        rnd = random.Random(seed)
        g = play_out(Game(rules, seed=seed), partial(choose, rnd=rnd), after=counted)
        won = set(g.winners)
        assert won in ({0, 2}, {1, 3})
        assert all(loc == HOME for c in won for loc in g.pawns[c])
        assert not all(loc == HOME for c in {0, 1, 2, 3} - won for loc in g.pawns[c])


def test_cards_cover_the_deck() -> None:
    # Sanity for the positions above: each card kind has moves somewhere in a busy position.
    pos = "R:S,10,20,s2 B:S,S,25,35 Y:S,40,50,s1 G:S,S,5,55 R"
    for card in CARDS:
        assert game(pos, card).legal_moves != [Move.pass_()]


# -- an independent reference for every card ---------------------------------------------------
def _reference_results(state: PawnState, rules: Rules, colour: int, card: int) -> set[object]:
    """Results of every legal move of ``card`` in the team game, from the rules directly
    (docs/rules.md, docs/variants.md: START exit, movement tables, landing rules), without the
    move generator."""
    from sorry.board import BACKWARD as BWD, START_EXIT

    team = (colour, (colour + 2) % 4)
    out: set[object] = set()

    def free(st: PawnState, c: int, dest: int) -> bool:
        if dest < TRACK_LEN:
            return all(loc != dest for loc in st.pawns[c])
        return dest == HOME or dest not in st.pawns[c]

    def result(c: int, i: int, dest: int) -> None:
        st = state.copy()
        st.place(c, i, dest, [])
        out.add(st.key())

    pawns = [(c, i, state.pawns[c][i]) for c in team for i in range(4)]
    fwd = {1: 1, 2: 2, 3: 3, 5: 5, 8: 8, 10: 10, 11: 11, 12: 12}.get(card, 0)
    back = {4: 4, 10: 1}.get(card, 0)
    if card in (1, 2):
        for c in team:
            if START in state.pawns[c] and free(state, c, START_EXIT[c]):
                result(c, state.pawns[c].index(START), START_EXIT[c])
    for c, i, loc in pawns:
        if loc in (START, HOME):
            continue
        if fwd and FWD[c][loc][fwd] >= 0 and free(state, c, FWD[c][loc][fwd]):
            result(c, i, FWD[c][loc][fwd])
        if back and BWD[c][loc][back] >= 0 and free(state, c, BWD[c][loc][back]):
            result(c, i, BWD[c][loc][back])
    if card == 11:
        for c, i, loc in pawns:
            if loc >= TRACK_LEN:
                continue
            for t in range(4):
                if t == c or (t in team and not rules.team_swap_partner):
                    continue
                for j, tloc in enumerate(state.pawns[t]):
                    if tloc < TRACK_LEN:
                        st = state.copy()
                        st.swap(c, i, t, j, [])
                        out.add(st.key())
    if card == SORRY:
        targets = 0
        for c in team:
            if START not in state.pawns[c]:
                continue
            for t in range(4):
                for tloc in state.pawns[t]:
                    if t != c and tloc < TRACK_LEN:
                        targets += 1
                        result(c, state.pawns[c].index(START), tloc)
        extra = rules.sorry_forward_4
        if extra == "always" or (extra == "fallback" and not targets):
            for c, i, loc in pawns:
                if (
                    loc not in (START, HOME)
                    and FWD[c][loc][4] >= 0
                    and free(state, c, FWD[c][loc][4])
                ):
                    result(c, i, FWD[c][loc][4])
    if card == 7:
        out = _brute_seven(state, team, 7 if rules.team_seven_split == "any" else 2)
    return out


@pytest.mark.parametrize(
    "options",
    [
        (),
        ("team_swap_partner=yes", "sorry_forward_4=fallback"),
        ("slide_on=own", "swap_slides=both", "sorry_forward_4=always"),
        ("slide_on=all", "team_seven_split=any"),
    ],
)
def test_every_card_matches_the_reference(options: tuple[str, ...]) -> None:
    _check_against_reference(options, 40, " ".join(options))


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        ("team_seven_split=any", "team_swap_partner=yes", "swap_slides=both"),
        ("slide_on=own", "sorry_forward_4=fallback", "team_seven_split=any"),
    ],
)
def test_every_card_matches_the_reference_thoroughly(options: tuple[str, ...]) -> None:
    _check_against_reference(options, 300, "slow " + " ".join(options))


def _check_against_reference(options: tuple[str, ...], positions: int, seed: str) -> None:
    rules = Rules.from_options("teams", options)
    rnd = random.Random(seed)
    for _ in range(positions):
        pos = _random_team_position(rnd, rnd.choice((2, 3, 4, 5, 6)))
        colour = rnd.choice((0, 2))
        pos = pos[:-1] + "RY"[colour // 2]
        for card in CARDS:
            g = game(pos, card, rules)
            got = []
            for m in g.legal_moves:
                if m.is_pass:
                    continue
                st = g.state.copy()
                st.apply(m, [])
                got.append(st.key())
            ref = _reference_results(g.state, rules, colour, card)
            assert set(got) == ref, (pos, card)
            if card in (7, 11):
                assert len(got) == len(set(got)), (pos, card)
            has_pass = Move.pass_() in g.legal_moves
            can_forward = any(m.kind == 0 for m in g.legal_moves)
            assert has_pass == (not got or (card == 11 and not can_forward)), (pos, card)
