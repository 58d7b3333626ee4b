"""Properties over random games and random positions (hypothesis), and a reference move
generator written from the rule text alone (docs/rules.md) that the engine must agree with
exactly."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from engine_helpers import game_at, rules_of
from sorry import Game, Move, Position, Rules
from sorry.board import HOME, START
from sorry.cards import CARDS, SORRY, card_name, deck_counts
from sorry.rng import Rng

# -- a reference implementation of docs/rules.md (board, cards, bumping and slides) ----------
# Locations: ints 0-59 for the track, ("s", k) for the Safety Zone, "S" and "H".

Board = dict[int, list[object]]


def ref_entry(c: int) -> int:
    return 15 * c + 2


def ref_forward(c: int, loc: object, n: int) -> object:
    """Walk n squares one at a time (None: not possible)."""
    for _ in range(n):
        if loc in ("S", "H"):
            return None
        if isinstance(loc, tuple):
            loc = ("s", loc[1] + 1) if loc[1] < 5 else "H"
        elif loc == ref_entry(c):
            loc = ("s", 1)
        else:
            assert isinstance(loc, int)
            loc = (loc + 1) % 60
    return loc


def ref_backward(c: int, loc: object, n: int) -> object:
    for _ in range(n):
        if loc in ("S", "H"):
            return None
        if isinstance(loc, tuple):
            loc = ("s", loc[1] - 1) if loc[1] > 1 else ref_entry(c)
        else:
            assert isinstance(loc, int)
            loc = (loc - 1) % 60
    return loc


def ref_slide(c: int, square: int, slide_on: str) -> int | None:
    """End of the slide a colour-c pawn landing on ``square`` takes, or None."""
    for side in range(4):
        for start, end in ((15 * side + 1, 15 * side + 4), (15 * side + 9, 15 * side + 13)):
            if square == start:
                own = side == c
                if slide_on == "all" or (slide_on == "own") == own:
                    return end
    return None


def can_land(board: Board, c: int, dest: object) -> bool:
    if dest is None:
        return False
    if dest == "H":
        return True
    return dest not in board[c]


def put(board: Board, c: int, i: int, dest: object, slide_on: str, slides: bool = True) -> Board:
    """Move pawn i of colour c to dest: bump an opponent there, then slide (bumping all)."""
    new = {k: list(v) for k, v in board.items()}
    if isinstance(dest, int):
        for k, locs in new.items():
            for j, loc in enumerate(locs):
                if loc == dest and (k, j) != (c, i):
                    locs[j] = "S"
    new[c][i] = dest
    if slides and isinstance(dest, int):
        end = ref_slide(c, dest, slide_on)
        if end is not None:
            for k, locs in new.items():
                for j, loc in enumerate(locs):
                    if isinstance(loc, int) and dest < loc <= end and (k, j) != (c, i):
                        locs[j] = "S"
            new[c][i] = end
    return new


def text_of(board: Board) -> str:
    def key(loc: object) -> tuple[int, int]:
        if loc == "S":
            return (0, 0)
        if loc == "H":
            return (3, 0)
        if isinstance(loc, tuple):
            return (2, loc[1])
        assert isinstance(loc, int)
        return (1, loc)

    def name(loc: object) -> str:
        return f"s{loc[1]}" if isinstance(loc, tuple) else str(loc)

    return " ".join(
        "RBYG"[c] + ":" + ",".join(name(x) for x in sorted(board[c], key=key))
        for c in sorted(board)
    )


def ref_moves(board: Board, me: int, card: int, rules: Rules) -> tuple[dict[str, str], bool]:
    """(notation -> result of every legal move, whether passing is allowed)."""
    slide_on = rules.slide_on
    out: dict[str, str] = {}
    forward_11 = False
    mine = board[me]
    me_l = "RBYG"[me]
    opp_track = [
        (k, j) for k in board if k != me for j, x in enumerate(board[k]) if isinstance(x, int)
    ]

    def name(loc: object) -> str:
        return f"s{loc[1]}" if isinstance(loc, tuple) else str(loc)

    def fwd_moves(n: int) -> dict[str, str]:
        res = {}
        for i, loc in enumerate(mine):
            dest = ref_forward(me, loc, n)
            if can_land(board, me, dest):
                res[f"{me_l}{name(loc)}+{n}"] = text_of(put(board, me, i, dest, slide_on))
        return res

    exit_ = 15 * me + 4
    if card in (1, 2) and "S" in mine and can_land(board, me, exit_):
        out[f"{me_l}S>{exit_}"] = text_of(put(board, me, mine.index("S"), exit_, slide_on))
    if card in (1, 2, 3, 5, 8, 12):
        out |= fwd_moves(card)
    if card in (4, 10):
        back = 4 if card == 4 else 1
        for i, loc in enumerate(mine):
            dest = ref_backward(me, loc, back)
            if can_land(board, me, dest):
                out[f"{me_l}{name(loc)}-{back}"] = text_of(put(board, me, i, dest, slide_on))
        if card == 10:
            out |= fwd_moves(10)
    if card == 11:
        f = fwd_moves(11)
        forward_11 = bool(f)
        out |= f
        for i, x in enumerate(mine):
            if not isinstance(x, int):
                continue
            for k, j in opp_track:
                t = board[k][j]
                assert isinstance(t, int)
                new = {c: list(v) for c, v in board.items()}
                new[me][i], new[k][j] = t, x
                new = put(new, me, i, t, slide_on)  # the mover slides
                if rules.swap_slides == "both" and new[k][j] == x:
                    new = put(new, k, j, x, slide_on)
                out[f"{me_l}{x}<>{'RBYG'[k]}{t}"] = text_of(new)
    if card == SORRY:
        if "S" in mine:
            for k, j in opp_track:
                t = board[k][j]
                after = put(board, me, mine.index("S"), t, slide_on)
                out[f"{me_l}S>{'RBYG'[k]}{t}"] = text_of(after)
        extra = rules.sorry_forward_4
        if extra == "always" or (extra == "fallback" and not out):
            out |= fwd_moves(4)
    if card == 7:
        out |= fwd_moves(7)
        for a, la in enumerate(mine):
            for b, lb in enumerate(mine):
                if a == b or la in ("S", "H") or lb in ("S", "H"):
                    continue
                for k in range(1, 7):
                    da = ref_forward(me, la, k)
                    if not can_land(board, me, da):
                        continue
                    mid = put(board, me, a, da, slide_on)
                    lb2 = mid[me][b]
                    db = ref_forward(me, lb2, 7 - k)
                    if lb2 in ("S", "H") or not can_land(mid, me, db):
                        continue
                    notation = f"{me_l}{name(la)}+{k}/{me_l}{name(lb2)}+{7 - k}"
                    out[notation] = text_of(put(mid, me, b, db, slide_on))
    may_pass = not out or (card == 11 and not forward_11)
    return out, may_pass


def board_of(position: Position) -> Board:
    def ref_loc(loc: int) -> object:
        if loc == START:
            return "S"
        if loc == HOME:
            return "H"
        return loc if loc < 60 else ("s", loc - 59)

    return {c: [ref_loc(x) for x in locs] for c, locs in enumerate(position.pawns) if locs}


# -- random positions ---------------------------------------------------------------------------
def random_position(seed: int) -> str:
    r = random.Random(seed)
    colours = sorted(r.sample(range(4), r.choice((2, 2, 3, 4))))
    taken: set[int] = set()
    fields = []
    for c in colours:
        locs: list[str] = []
        safe: set[int] = set()
        for _ in range(4):
            kind = r.random()
            if kind < 0.2:
                locs.append("S")
            elif kind < 0.3:
                locs.append("H")
            elif kind < 0.45 and len(safe) < 5:
                k = r.choice([k for k in range(1, 6) if k not in safe])
                safe.add(k)
                locs.append(f"s{k}")
            else:
                # favour the squares where things happen: triangles, slides, entries, exits
                hot = [1, 2, 3, 4, 9, 10, 13, 16, 17, 19, 24, 28, 31, 32, 34, 39, 43, 46, 47, 49]
                sq = r.choice(hot) if r.random() < 0.5 else r.randrange(60)
                while sq in taken:
                    sq = r.randrange(60)
                taken.add(sq)
                locs.append(str(sq))
        fields.append("RBYG"[c] + ":" + ",".join(locs))
    return " ".join(fields) + " " + "RBYG"[r.choice(colours)]


OPTION_SETS = [
    {},
    {"swap_slides": "both"},
    {"slide_on": "own", "sorry_forward_4": "always"},
    {"slide_on": "all", "sorry_forward_4": "fallback", "swap_slides": "both"},
]


POSITION_ARGS = (st.integers(0, 2**32 - 1), st.sampled_from(range(len(OPTION_SETS))))


@settings(max_examples=40, deadline=None)
@given(*POSITION_ARGS)
def test_engine_agrees_with_the_reference_on_random_positions(seed: int, opt: int) -> None:
    check_against_reference(seed, opt)


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(*POSITION_ARGS)
def test_engine_agrees_with_the_reference_on_many_positions(seed: int, opt: int) -> None:
    check_against_reference(seed, opt)


def check_against_reference(seed: int, opt: int) -> None:
    position = random_position(seed)
    options = OPTION_SETS[opt]
    rules = rules_of(**options)
    pos = Position.parse(position)
    board = board_of(pos)
    for card in CARDS:
        g = game_at(position, card, **options)
        before = (g.position_string(), list(g.draw_pile), g.rng.state)
        results: dict[str, str] = {}
        passes = False
        for m in g.legal_moves:
            assert Move.parse(str(m)) == m
            g.push(m)
            Position.parse(g.position_string())  # still a valid position
            if m.is_pass:
                passes = True
            else:
                results[str(m)] = g.board_text()
            g.pop()
            assert (g.position_string(), list(g.draw_pile), g.rng.state) == before
        expected, may_pass = ref_moves(board, pos.to_move, card, rules)
        assert len(set(results.values())) == len(results), (position, card, results)
        assert set(results.values()) == set(expected.values()), (position, card, options)
        assert passes == may_pass, (position, card)
        # every legal move is accepted, listed or not (another order of a split, or a move
        # listed as the one that ends alike), and gives the reference's result
        for notation, board_after in expected.items():
            g.push(notation)
            assert g.board_text() == board_after, (position, card, notation)
            g.pop()
        assert (g.position_string(), list(g.draw_pile), g.rng.state) == before


# -- random games -------------------------------------------------------------------------------
PLAYERS = [2, 3, 4, (0, 1), (1, 3), (0, 1, 3)]


def check_state(g: Game) -> None:
    # pawns: 4 per playing colour, never two of a colour on a square, one per track square
    track: dict[int, int] = {}
    for c in range(4):
        locs = g.state.pawns[c]
        if c not in g.colours:
            assert locs == []
            continue
        assert len(locs) == 4
        board = [x for x in locs if x not in (START, HOME)]
        assert len(board) == len(set(board))
        for x in board:
            if x < 60:
                assert x not in track
                track[x] = c
    for sq in range(60):
        code = g.state.occ[sq]
        assert (code >= 0) == (sq in track)
        if code >= 0:
            assert code >> 2 == track[sq] and g.state.pawns[code >> 2][code & 3] == sq
    # cards: every card of the deck is somewhere
    cards = Counter(g.draw_pile) + Counter(g.discard_pile)
    cards.update(c for hand in g.hands for c in hand)
    if g.card is not None:
        cards[g.card] += 1
    assert cards == Counter(deck_counts(g.rules.deck))


def snapshot(g: Game) -> tuple[object, ...]:
    return (
        g.position_string(),
        g.phase,
        g.card,
        tuple(g.draw_pile),
        tuple(g.discard_pile),
        g.rng.state,
        g.turn,
        g.winners,
        g.turn + len(g.discard_pile),
        tuple(g.legal_moves),
    )


GAME_ARGS = (
    st.integers(0, 2**63),
    st.sampled_from(PLAYERS),
    st.sampled_from(range(len(OPTION_SETS))),
    st.sampled_from([{}, {"deck": 44}, {"two_draws_again": "no"}, {"starting_pawns_out": 1}]),
)


@settings(max_examples=8, deadline=None)
@given(*GAME_ARGS)
def test_random_games(
    seed: int, players: int | tuple[int, ...], opt: int, more: dict[str, object]
) -> None:
    check_random_game(seed, players, opt, more)


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(*GAME_ARGS)
def test_many_random_games(
    seed: int, players: int | tuple[int, ...], opt: int, more: dict[str, object]
) -> None:
    check_random_game(seed, players, opt, more)


def check_random_game(
    seed: int, players: int | tuple[int, ...], opt: int, more: dict[str, object]
) -> None:
    rules = rules_of(**OPTION_SETS[opt], **more)
    g = Game(rules, players=players, seed=seed)
    chooser = Rng(seed ^ 0x5EED)
    check_state(g)
    decisions = 0
    while not g.is_over():
        assert decisions < 3000, "a random game should end long before this"
        if g.is_chance():
            before = snapshot(g)
            card = g.draw()
            after = snapshot(g)
            assert g.pop() == card and snapshot(g) == before
            assert g.draw() == card and snapshot(g) == after
        else:
            moves = g.legal_moves
            assert moves and len(set(moves)) == len(moves)
            if decisions % 4 == 0:  # every listed move is accepted, and popped exactly
                before = snapshot(g)
                keys = set()
                for m in moves:
                    assert g.is_legal(m)
                    g.push(m)
                    check_state(g)
                    keys.add(g.board_text())
                    assert g.pop() == m and snapshot(g) == before
                assert len(keys) == len(moves)  # no two moves give the same result
            g.push(moves[chooser.below(len(moves))])
            decisions += 1
        check_state(g)
    assert g.winner is not None and g.state.all_home(g.winner)
    assert all(not g.state.all_home(c) for c in g.colours if c != g.winner)
    # serialise / deserialise, and replay the steps from the seed
    data = g.to_dict()
    assert Game.from_json(g.to_json()) == g
    replay = Game(rules, players=players, seed=seed)
    for step in data["steps"]:
        if step.startswith("draw:"):
            assert "draw:" + card_name(replay.draw()) == step  # the seeded deck, card for card
        else:
            replay.push(step)
    assert replay == g
