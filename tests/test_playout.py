"""Playouts play exactly the games the Game object plays with the same seeds and choices."""

from __future__ import annotations

import pytest

from engine_helpers import play_out, rng_moves
from sorry import playout
from sorry.board import HOME, SAFE_BASE, SLIDES, START, TRACK_LEN
from sorry.cards import SORRY
from sorry.game import Game
from sorry.movegen import card_moves, legal_moves
from sorry.moves import PASS_MOVE
from sorry.playout import play, random_game
from sorry.rng import Rng
from sorry.rulebook import DEFAULT_COLOURS
from sorry.rules import Rules
from sorry.state import PawnState


def game_api_random(rules: Rules, players: int, seed: int) -> tuple[tuple[int, ...], int, str]:
    """The same random game through the public Game API (a choice is drawn only when there
    is more than one legal move, as in the playout)."""
    g = play_out(Game(rules, players=players, seed=seed), rng_moves(Rng(seed ^ 0x5EED)))
    return g.winners, g.turn, g.position_string()


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("standard", 4, {}),
        ("standard", 2, {}),
        ("standard", 3, {"slide_on": "all", "sorry_forward_4": "always"}),
        ("standard", 4, {"deck": "44", "two_draws_again": "no", "swap_slides": "both"}),
        ("teams", 4, {}),
        ("teams", 4, {"team_swap_partner": "yes", "starting_pawns_out": "1"}),
    ],
)
def test_playout_matches_game(variant: str, players: int, options: dict[str, str]) -> None:
    rules = Rules.from_options(variant, options)
    for seed in range(12):
        winners, turns, _ = game_api_random(rules, players, seed)
        assert random_game(rules, players, seed) == (winners, turns)
        assert winners  # random games end with a winner


def test_policy_path_equals_inlined_random_path() -> None:
    rules = Rules()
    for seed in range(5):
        chooser = Rng(seed ^ 0x5EED)
        result = play(rules, 4, seed, lambda s, c, card, moves, r=chooser: r.next64() % len(moves))
        assert result == random_game(rules, 4, seed)


def test_turn_limit_stops_unfinished() -> None:
    rules = Rules(turn_limit=25)
    assert random_game(rules, 4, 3) == ((), 25)


def test_points_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="points"):
        random_game(Rules(variant="points"), 4, 0)


# -- the compact engine of random standard games (playout._random_standard) -------------------

STANDARD_OPTIONS = [
    {},
    {"slide_on": "all", "sorry_forward_4": "always"},
    {"slide_on": "own", "sorry_forward_4": "fallback", "starting_pawns_out": "1"},
    {"deck": "44", "two_draws_again": "no", "swap_slides": "both"},
    {"slide_on": "all", "swap_slides": "both"},
]


@pytest.mark.parametrize("options", STANDARD_OPTIONS)
@pytest.mark.parametrize("players", [4, 3, 2])
def test_random_standard_turn_by_turn(options: dict[str, str], players: int) -> None:
    """Every turn: the same card, the same number of distinct legal moves and the same pawns
    as the Game (this covers the inlined simple cards and every dedupe)."""
    rules = Rules.from_options("standard", options)
    colours = DEFAULT_COLOURS[players]
    for seed in range(8 if players == 4 else 4):
        trace: list[tuple[int, int, tuple[tuple[int, ...], ...]]] = []
        result = playout._random_standard(rules, colours, seed, seed ^ 0x5EED, trace)
        g = Game(rules, players=players, seed=seed)
        chooser = Rng(seed ^ 0x5EED)
        turn = 0
        while not g.is_over():
            if g.is_chance():
                g.draw()
                continue
            card, n, pawns = trace[turn]
            assert card == g.card
            moves = g.legal_moves
            listed = 0 if moves == [PASS_MOVE] and card != 11 else len(moves)
            assert n == listed, (seed, turn)
            g.push(moves[chooser.next64() % len(moves)] if len(moves) > 1 else moves[0])
            assert pawns == tuple(tuple(sorted(p)) for p in g.state.pawns), (seed, turn)
            turn += 1
        assert result == (g.winners, g.turn) and turn == len(trace)


def _results_reference(state: PawnState, rules: Rules, colour: int, card: int) -> list[object]:
    moves = (
        legal_moves(state, rules, colour, card)
        if card == 11
        else card_moves(state, rules, colour, card)
    )
    out = []
    for m in moves:
        s = state.copy()
        if m != PASS_MOVE:
            s.apply(m, [])
        out.append(tuple(tuple(sorted(p)) for p in s.pawns))
    return out


def _results_compact(state: PawnState, rules: Rules, colour: int, card: int) -> list[object]:
    board = playout._Board(state.pawns, rules.slide_on, rules.swap_slides == "both")
    before = tuple(map(tuple, board.pawns))
    out: list[object] = []
    if card == 7:
        for x in playout._seven(board, colour):
            copy = playout._Board(board.pawns, rules.slide_on, rules.swap_slides == "both")
            copy.play_seven(colour, x)
            out.append(tuple(map(tuple, copy.pawns)))
    else:
        tables = playout._simple_tables(rules.slide_on)
        cand = playout._candidates(board, tables, rules.sorry_forward_4, colour, card)
        if len(cand) > 1 and sum(cand) >> 26 > 1:
            cand = playout._dedupe(board, colour, card, cand)
        for x in cand:
            out.append(before if x < 0 else board.outcome(colour, x & playout._LOW))
    assert tuple(map(tuple, board.pawns)) == before  # generating moves changes nothing
    return out


def _crowded_position(rng: Rng, players: tuple[int, ...]) -> tuple[list[int], ...]:
    """Random pawns, crowded around the slides so that slides, bumps and collisions abound."""
    pawns: tuple[list[int], ...] = ([], [], [], [])
    taken: set[int] = set()
    hot = [sq for tri, end, _ in SLIDES for sq in range(tri - 8, end + 2)]
    for c in players:
        for _ in range(4):
            r = rng.below(10)
            if r < 6:
                sq = hot[rng.below(len(hot))] % TRACK_LEN
                loc = sq if sq not in taken else START
                taken.add(loc)
            elif r < 8:
                loc = SAFE_BASE + 1 + rng.below(5)
                loc = loc if loc not in pawns[c] else HOME
            else:
                loc = (START, HOME)[rng.below(2)]
            pawns[c].append(loc)
    return pawns


@pytest.mark.parametrize("options", STANDARD_OPTIONS)
def test_compact_moves_equal_movegen_results(options: dict[str, str]) -> None:
    """On crowded random positions, every card: the compact generator lists the results of
    movegen's moves, in movegen's order (splits of the 7 that end alike through slides, swaps
    onto triangles, 4s that slide back to where they started...)."""
    rules = Rules.from_options("standard", options)
    rng = Rng(2026)
    for i in range(300):
        players = (0, 1, 2, 3) if i % 3 else (0, 2)
        pawns = _crowded_position(rng, players)
        state = PawnState(
            tuple(p if c in players else None for c, p in enumerate(pawns)),
            rules.slide_on,
            rules.swap_slides,
        )
        for colour in players:
            for card in (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, SORRY):
                assert _results_compact(state, rules, colour, card) == _results_reference(
                    state, rules, colour, card
                ), (i, colour, card, state.sorted_pawns())


def test_seven_collisions_through_slides() -> None:
    """Red on 50 and 53 with a 7: 50+4 lands on Green's triangle 54 and slides to 58, as does
    a plain 53+5... every split and plain 7 compared with movegen, with opponents on the slide
    and without."""
    rules = Rules()
    for others in ([], [55], [56, 58], [51]):
        pawns: tuple[list[int] | None, ...] = (
            [50, 53, 47, START],
            [START] * 4,
            [START] * 4,
            others + [START] * (4 - len(others)),
        )
        state = PawnState(pawns)
        assert _results_compact(state, rules, 0, 7) == _results_reference(state, rules, 0, 7)


def test_lane_shuffle_equals_rng_shuffle() -> None:
    for size in (44, 45, 2):
        for seed in (0, 1, 2**64 - 1, 0x9E3779B97F4A7C15, *range(2, 40)):
            expected = list(range(size))
            rng = Rng(seed)
            rng.shuffle(expected)
            items = list(range(size))
            assert playout._shuffle(items, seed) == rng.state
            assert items == expected


def test_lane_draws_equal_rng_draws() -> None:
    for seed in (0, 1, 2**64 - 1, 12345):
        rng = Rng(seed)
        expected = [rng.next64() for _ in range(playout._CHOICE_BATCH)]
        draws, state = playout._draws(seed, playout._CHOICE_BATCH)
        assert list(draws) == expected and state == rng.state


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("standard", 4, {}),
        ("standard", 2, {}),
        ("standard", 3, {"slide_on": "all", "sorry_forward_4": "always"}),
        ("standard", 4, {"deck": "44", "two_draws_again": "no", "swap_slides": "both"}),
        ("standard", 4, {"turn_limit": "60"}),
        ("teams", 4, {}),
        ("teams", 4, {"team_swap_partner": "yes", "starting_pawns_out": "1"}),
    ],
)
def test_random_bots_game_is_the_simulators_game(
    variant: str, players: int, options: dict[str, str]
) -> None:
    """The playouts with one generator per colour play sorry.sim's games with random bots
    move for move (what `sorry simulate` relies on to choose them for random bots)."""
    from sorry.playout import random_bots_game
    from sorry.rulebook import colours_for
    from sorry.sim.runner import RunSpec, play_one

    rules = Rules.from_options(variant, options)
    colours = colours_for(players, rules)
    spec = RunSpec(rules, colours, ("random",) * players, seed=7)
    for index in range(15):
        record = play_one(spec, index)
        winners, turns, first = random_bots_game(rules, players, spec.game_seed(index))
        assert (winners, turns, first) == (
            tuple(colours[k] for k in record.winners),
            record.turns,
            colours[record.first],
        )
