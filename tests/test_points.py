"""The play-for-points variant (docs/variants.md, Play for points): hands of five, discards,
scoring."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine_helpers import Chooser, play_out, random_moves
from sorry.board import HOME, START, START_EXIT
from sorry.cards import CARDS, SORRY, deck_counts
from sorry.errors import GameStateError, IllegalMoveError
from sorry.game import HAND_SIZE, Game
from sorry.moves import SWAP, Move
from sorry.rules import Rules

POINTS = Rules(variant="points")


def game(pos: str, hands: dict[int, list[int]], rules: Rules = POINTS, seed: int = 0) -> Game:
    return Game.from_position(pos, rules, hands=hands, seed=seed)


def moves(g: Game) -> list[str]:
    return [str(m) for m in g.legal_moves]


def all_cards(g: Game) -> Counter[int]:
    cards = Counter(g.draw_pile) + Counter(g.discard_pile)
    for c in g.colours:
        cards += Counter(g.hands[c])
    return cards


# -- setup --------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_three_in_start_one_on_the_exit_and_five_cards_dealt(players: int) -> None:
    g = Game(POINTS, players=players, seed=11)
    for c in g.colours:
        assert sorted(g.pawns[c]) == sorted([START, START, START, START_EXIT[c]])
    assert g.is_chance() and g.legal_moves == []
    # The deal goes round the table from the first player, one card at a time.
    order = []
    while g.is_chance():
        order.append(g.deal_to)
        g.draw()
    seats = list(g.colours)
    i = seats.index(g.first)
    assert order == [seats[(i + k) % players] for k in range(HAND_SIZE * players)]
    assert all(len(g.hands[c]) == HAND_SIZE for c in g.colours)
    assert len(g.draw_pile) == 45 - HAND_SIZE * players and g.discard_pile == []
    assert all_cards(g) == Counter(deck_counts(45))
    assert g.to_move == g.first and g.card is None


def test_setup_is_reproducible_from_the_seed() -> None:
    a, b = Game(POINTS, seed=4), Game(POINTS, seed=4)
    while a.is_chance():
        a.draw()
        b.draw()
    assert a.hands == b.hands and a.draw_pile == b.draw_pile


def test_from_position_takes_hands_not_a_card() -> None:
    with pytest.raises(GameStateError, match="hands"):
        Game.from_position("R:S,S,S,4 Y:S,S,S,34 R", POINTS, card=5)
    with pytest.raises(GameStateError, match="five cards"):
        game("R:S,S,S,4 Y:S,S,S,34 R", {0: [1, 2, 3]})
    with pytest.raises(GameStateError, match="no S left"):
        game("R:S,S,S,4 Y:S,S,S,34 R", {0: [SORRY] * 4 + [1], 2: [SORRY, 1, 1, 1, 1]})
    # Hands not given are dealt at chance nodes.
    g = game("R:S,S,S,4 Y:S,S,S,34 R", {0: [1, 2, 3, 4, 5]})
    assert g.is_chance() and g.deal_to == 2
    while g.is_chance():
        g.draw()
    assert len(g.hands[2]) == 5 and all_cards(g) == Counter(deck_counts(45))


# -- choosing a card ----------------------------------------------------------------------------
def test_moves_of_every_card_in_the_hand_carry_their_card() -> None:
    g = game("R:S,S,S,4 Y:S,S,S,34 R", {0: [5, 1, 4, 11, SORRY], 2: [1, 2, 3, 7, 8]})
    assert moves(g) == [
        "1:R4+1",
        "4:R4-4",
        "5:R4+5",
        "11:R4+11",
        "11:R4<>Y34",
        "S:RS>Y34",
    ]
    m = Move.parse("5:R4+5")
    assert m.card == 5 and m in g.legal_moves and str(m) == "5:R4+5"


def test_a_card_is_played_discarded_and_replaced() -> None:
    g = game("R:S,S,S,4 Y:S,S,S,34 R", {0: [5, 1, 4, 11, SORRY], 2: [1, 2, 3, 7, 8]}, seed=3)
    top = g.draw_pile[-1]
    g.push("5:R4+5")
    assert g.board_text() == "R:S,S,S,9 Y:S,S,S,34"
    assert g.hands[0] == [1, 4, 11, SORRY] and g.discard_pile == [5]
    assert g.is_chance() and g.deal_to == 0
    assert g.draw() == top
    assert sorted(g.hands[0]) == sorted([1, 4, 11, SORRY, top])
    assert g.to_move == 2 and not g.is_chance()
    assert all_cards(g) == Counter(deck_counts(45))


def test_the_card_may_be_omitted_when_only_one_card_gives_the_move() -> None:
    g = game("R:S,S,S,4 Y:S,S,S,34 R", {0: [5, 1, 4, 11, SORRY], 2: [1, 2, 3, 7, 8]})
    g.push("R4+5")
    assert g.move_stack == [Move.parse("5:R4+5")]
    # Ambiguous: a 1 and a 2 both start a pawn.
    g = game("R:S,S,S,4 Y:S,S,S,34 R", {0: [1, 2, 8, 8, 8], 2: [1, 2, 3, 7, 8]})
    with pytest.raises(IllegalMoveError, match="say which card"):
        g.push("RS>4")
    # A card not in the hand cannot be played.
    with pytest.raises(IllegalMoveError, match="hand 1,2,8,8,8"):
        g.push("12:R4+12")


def test_a_split_seven_may_be_typed_without_its_card_in_any_order() -> None:
    hands = {0: [7, 3, 3, 3, 3], 2: [1, 1, 1, 1, 1]}
    for typed in ("R10+3/R20+4", "R20+4/R10+3", "7:R20+4/R10+3"):
        g = game("R:S,S,10,20 Y:S,S,S,34 R", hands)
        g.push(typed)
        assert g.move_stack == [Move.parse("7:R10+3/R20+4")]
        assert g.board_text() == "R:S,S,13,28 Y:S,S,S,34"  # 24 is a triangle: slides to 28
        assert g.discard_pile == [7]
    g = game("R:S,S,10,20 Y:S,S,S,34 R", {0: [8, 3, 3, 3, 3], 2: [1, 1, 1, 1, 1]})
    with pytest.raises(IllegalMoveError, match="hand 8,3,3,3,3"):
        g.push("R20+4/R10+3")  # no 7 in the hand


def test_a_two_plays_again_from_the_refilled_hand() -> None:
    g = game("R:S,S,S,10 Y:S,S,S,34 R", {0: [2, 3, 3, 3, 3], 2: [1, 2, 4, 7, 8]})
    g.push("2:RS>4")
    assert g.is_chance() and g.deal_to == 0
    g.draw(2)
    assert g.to_move == 0 and g.hands[0] == [3, 3, 3, 3, 2]
    g.push("2:R10+2")
    g.draw(5)
    assert g.to_move == 0
    g.push("5:R12+5")
    g.draw()
    assert g.to_move == 2


def test_a_two_with_two_draws_again_no_ends_the_turn() -> None:
    rules = Rules.from_options("points", ["two_draws_again=no"])
    g = game("R:S,S,S,10 Y:S,S,S,34 R", {0: [2, 3, 3, 3, 3], 2: [1, 2, 4, 7, 8]}, rules)
    g.push("2:RS>4")
    g.draw()
    assert g.to_move == 2


# -- dead hands, the 11 and must-play -----------------------------------------------------------
def test_dead_hand_discards_any_card_and_the_turn_ends() -> None:
    # No pawn in START and nothing moves the pawn on s5: every card is dead.
    g = game("R:H,H,H,s5 Y:S,S,S,34 R", {0: [2, 3, 5, 8, 12], 2: [1, 2, 3, 7, 8]}, seed=1)
    assert moves(g) == ["discard:2", "discard:3", "discard:5", "discard:8", "discard:12"]
    assert "pass" not in moves(g)
    g.push("discard:2")
    assert g.board_text() == "R:s5,H,H,H Y:S,S,S,34"
    assert g.hands[0] == [3, 5, 8, 12] and g.discard_pile == [2]
    assert g.deal_to == 0
    g.draw()
    assert len(g.hands[0]) == 5 and g.to_move == 2  # a discarded 2 does not play again
    assert g.move_stack == [Move.discard(2)]


def test_a_usable_card_must_be_played() -> None:
    # Only the 3 is usable (s2 + 3 = s5): no discards.
    g = game("R:S,S,S,s2 Y:S,S,S,34 R", {0: [3, 5, 8, 12, 7], 2: [1, 2, 3, 7, 8]})
    assert moves(g) == ["3:Rs2+3"]
    with pytest.raises(IllegalMoveError):
        g.push("discard:8")
    # A single usable move may be to the player's disadvantage: the 4 backs out of the zone.
    g = game("R:S,S,S,s2 Y:S,S,S,34 R", {0: [4, 5, 8, 12, 7], 2: [1, 2, 3, 7, 8]})
    assert moves(g) == ["4:Rs2-4"]
    g.push("4:Rs2-4")
    assert g.board_text() == "R:S,S,S,0 Y:S,S,S,34"


def test_eleven_with_only_swaps_may_be_declined_by_a_discard() -> None:
    pos = "R:S,S,S,2 Y:S,S,S,30 R"
    g = game(pos, {0: [7, 8, 11, 12, 11], 2: [1, 2, 3, 4, 5]})
    assert moves(g) == ["11:R2<>Y30", "discard:7", "discard:8", "discard:11", "discard:12"]
    g.push("discard:11")
    assert sorted(g.hands[0]) == [7, 8, 11, 12]
    # The swap may be played instead.
    g = game(pos, {0: [7, 8, 11, 12, 11], 2: [1, 2, 3, 4, 5]})
    g.push("11:R2<>Y30")
    assert g.board_text() == "R:S,S,S,30 Y:S,S,S,2"


def test_eleven_with_a_forward_move_cannot_be_declined() -> None:
    g = game("R:S,S,S,20 Y:S,S,S,30 R", {0: [7, 8, 11, 12, 11], 2: [1, 2, 3, 4, 5]})
    got = moves(g)
    assert "11:R20+11" in got and "11:R20<>Y30" in got
    assert not any(m.startswith("discard") for m in got)


def test_swap_only_eleven_with_another_usable_card_is_not_a_dead_hand() -> None:
    g = game("R:S,S,S,2 Y:S,S,S,30 R", {0: [3, 8, 11, 12, 7], 2: [1, 2, 3, 4, 5]})
    assert moves(g) == ["3:R2+3", "11:R2<>Y30"]


def test_sorry_in_the_hand_must_be_played_when_it_has_a_target() -> None:
    g = game("R:S,S,S,s5 Y:S,S,S,34 R", {0: [SORRY, 3, 5, 8, 12], 2: [1, 2, 3, 7, 8]})
    assert moves(g) == ["S:RS>Y34"]
    # sorry_forward_4=fallback: no target, so the Sorry! moves a pawn 4 forward.
    rules = Rules.from_options("points", ["sorry_forward_4=fallback"])
    g = game("R:S,S,S,20 Y:S,S,S,s1 R", {0: [SORRY, 3, 8, 12, 12]}, rules)
    while g.is_chance():
        g.draw()
    assert moves(g) == ["3:R20+3", "8:R20+8", "12:R20+12", "S:R20+4"]


# -- the end and the scores ---------------------------------------------------------------------
def _finish(pos: str, hand: list[int], move: str, rules: Rules = POINTS) -> Game:
    g = game(pos, {0: hand}, rules)
    while g.is_chance():
        g.draw()
    g.push(move)
    assert g.is_over() and g.winner == 0
    return g


@pytest.mark.parametrize(
    ("opponents", "expected_highest", "expected_cumulative"),
    [
        # Yellow: no pawn HOME -> 100 (cumulative 100+50+25).
        ("Y:S,S,20,30", {0: 20 + 20 + 100, 2: 0}, {0: 20 + 20 + 175, 2: 0}),
        # one HOME -> 50 (cumulative 50+25).
        ("Y:S,S,20,H", {0: 20 + 15 + 50, 2: 5}, {0: 20 + 15 + 75, 2: 5}),
        # two HOME -> 25.
        ("Y:S,20,H,H", {0: 20 + 10 + 25, 2: 10}, {0: 20 + 10 + 25, 2: 10}),
        # three HOME -> no bonus.
        ("Y:20,H,H,H", {0: 20 + 5, 2: 15}, {0: 20 + 5, 2: 15}),
    ],
)
def test_two_player_scores(
    opponents: str, expected_highest: dict[int, int], expected_cumulative: dict[int, int]
) -> None:
    pos = f"R:H,H,H,s5 {opponents} R"
    assert _finish(pos, [1, 3, 3, 3, 3], "1:Rs5+1").scores == expected_highest
    rules = Rules.from_options("points", ["points_bonus=cumulative"])
    assert _finish(pos, [1, 3, 3, 3, 3], "1:Rs5+1", rules).scores == expected_cumulative


def test_four_player_scores() -> None:
    # Blue has none HOME, Yellow two, Green one: the worst opponent has two -> 25.
    g = _finish("R:H,H,H,s1 B:S,S,20,30 Y:S,40,H,H G:S,S,S,H R", [5, 3, 3, 3, 3], "5:Rs1+5")
    # Red: 4 HOME (20) + opponents' pawns not HOME 4+2+3 (45) + bonus 25.
    assert g.scores == {0: 20 + 45 + 25, 1: 0, 2: 10, 3: 5}
    g = _finish(
        "R:H,H,H,s1 B:S,S,20,30 Y:S,40,H,H G:S,S,S,H R",
        [5, 3, 3, 3, 3],
        "5:Rs1+5",
        Rules.from_options("points", ["points_bonus=cumulative"]),
    )
    assert g.scores == {0: 20 + 45 + 25, 1: 0, 2: 10, 3: 5}
    # One opponent with three HOME: no bonus at all, even if the others have none.
    g = _finish("R:H,H,H,s1 B:S,S,20,30 Y:40,H,H,H G:S,S,S,S R", [5, 3, 3, 3, 3], "5:Rs1+5")
    assert g.scores == {0: 20 + 5 * (4 + 1 + 4), 1: 0, 2: 15, 3: 0}


def test_scores_are_taken_back_by_pop() -> None:
    g = _finish("R:H,H,H,s5 Y:S,S,20,30 R", [1, 3, 3, 3, 3], "1:Rs5+1")
    g.pop()
    assert g.scores is None and not g.is_over() and g.winners == ()
    assert g.hands[0] == [1, 3, 3, 3, 3]


def test_unfinished_game_has_no_winner() -> None:
    rules = Rules.from_options("points", ["turn_limit=3"])
    g = play_out(Game(rules, players=2, seed=2), random_moves(2))
    assert g.unfinished and g.winner is None and g.turn == 3


# -- whole games --------------------------------------------------------------------------------
def checked_points_moves(rnd: random.Random) -> Chooser:
    """Random moves, after checking the legal moves of the hand: each from a card held; the
    discards (one per kind of card held) only when nothing but an 11's swaps can be played."""

    def choose(g: Game, legal: list[Move]) -> Move:
        assert legal and all(m.card is not None for m in legal)
        hand = g.hands[g.to_move]
        assert len(hand) == HAND_SIZE
        assert all(m.card in hand for m in legal)
        dead = [m for m in legal if m.is_discard]
        if dead:
            assert sorted(m.card for m in dead if m.card is not None) == sorted(set(hand))
            others = [m for m in legal if not m.is_discard]
            assert all(m.card == 11 and m.kind == SWAP for m in others)
        else:
            assert any(not (m.card == 11 and m.kind == SWAP) for m in legal)
        return rnd.choice(legal)

    return choose


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, ()), (3, ("deck=44",)), (4, ("two_draws_again=no", "points_bonus=cumulative"))],
)
def test_random_points_games_account_for_every_card(players: int, options: tuple[str, ...]) -> None:
    rules = Rules.from_options("points", options)
    deck = Counter(deck_counts(rules.deck))

    def every_card(g: Game) -> None:
        assert all_cards(g) == deck

    for seed in range(2):
        choose = checked_points_moves(random.Random(seed))
        g = play_out(Game(rules, players=players, seed=seed), choose, after=every_card)
        assert g.winner is not None and g.scores is not None
        w = g.winner
        homes = {c: g.pawns[c].count(HOME) for c in g.colours}
        assert homes[w] == 4
        for c in g.colours:
            if c != w:
                assert g.scores[c] == 5 * homes[c]
        most = max(homes[c] for c in g.colours if c != w)
        bonus = {0: 100, 1: 50, 2: 25, 3: 0}[most]
        if rules.points_bonus == "cumulative":
            bonus = {0: 175, 1: 75, 2: 25, 3: 0}[most]
        assert g.scores[w] == 20 + 5 * sum(4 - homes[c] for c in g.colours if c != w) + bonus


def _random_position(rnd: random.Random, colours: tuple[int, ...]) -> str:
    taken: set[int] = set()
    fields = []
    for c in colours:
        locs = []
        for _ in range(4):
            kind = rnd.random()
            if kind < 0.45:
                x = rnd.randrange(60)
                if x not in taken:
                    taken.add(x)
                    locs.append(str(x))
                    continue
            if kind < 0.6:
                k = rnd.randrange(1, 6)
                if f"s{k}" not in locs:
                    locs.append(f"s{k}")
                    continue
            locs.append(rnd.choice("SH"))
        fields.append("RBYG"[c] + ":" + ",".join(locs))
    return " ".join(fields) + " " + "RBYG"[colours[0]]


@pytest.mark.parametrize(
    "options", [(), ("sorry_forward_4=fallback", "slide_on=own"), ("deck=44", "swap_slides=both")]
)
def test_plays_are_the_standard_moves_of_each_card_in_the_hand(options: tuple[str, ...]) -> None:
    rules = Rules.from_options("points", options)
    standard = Rules.from_options("standard", options)
    rnd = random.Random(repr(options))
    deck = [c for c, n in deck_counts(rules.deck).items() for _ in range(n)]
    dead_seen = 0
    for _ in range(200):
        colours = rnd.choice(((0, 2), (0, 1, 2), (0, 1, 2, 3)))
        pos = _random_position(rnd, colours)
        if rnd.random() < 0.3:  # Red deep in its Safety Zone: dead hands become likely
            deep = rnd.choice(("R:s3,s5,H,H", "R:s4,H,H,H", "R:s1,s4,s5,H"))
            pos = " ".join([deep, *pos.split()[1:]])
        if "R:H,H,H,H" in pos:
            continue
        hand = rnd.sample(deck, 5)
        g = game(pos, {0: hand}, rules)
        while g.is_chance():
            g.draw()
        expected = []
        usable = False
        for card in sorted(set(hand), key=CARDS.index):
            listed = Game.from_position(pos, standard, card=card).legal_moves
            plays = [m for m in listed if not m.is_pass]
            usable = usable or (bool(plays) and Move.pass_() not in listed)
            expected += [m.with_card(card) for m in plays]
        if not usable:
            dead_seen += 1
            expected += [Move.discard(c) for c in sorted(set(hand), key=CARDS.index)]
        assert g.legal_moves == expected, (pos, hand)
    assert dead_seen > 0
