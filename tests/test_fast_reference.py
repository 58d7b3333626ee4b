"""Reference-engine counterparts of the fast engine's policies and position samplers, shared by
the differential tests in ``test_fast_*.py`` (imported as ``test_fast_reference``), and the tests
that the fast engine's seeds and streams are the reference's."""

from __future__ import annotations

from collections.abc import Iterator

from sorry import Game, Position, Rules, fast
from sorry.board import HOME, NUM_LOCATIONS, SAFE_BASE, START, TRACK_LEN, steps_to_home
from sorry.fast import policy_seed
from sorry.moves import Move
from sorry.position import field_text
from sorry.rng import Rng, derive_seed
from sorry.state import Change, PawnState

PROGRESS = [[65 - steps_to_home(c, loc) for loc in range(NUM_LOCATIONS)] for c in range(4)]


def team(rules: Rules, colour: int) -> tuple[int, ...]:
    return (colour, (colour + 2) % 4) if rules.teams else (colour,)


def easy_choice(g: Game, moves: list[Move]) -> int:
    """The fast engine's ``easy`` policy: most progress of the mover's team, first on ties."""
    cols = team(g.rules, g.to_move)
    best, idx = -1, 0
    for k, m in enumerate(moves):
        changes: list[Change] = []
        g.state.apply(m, changes)
        v = sum(PROGRESS[c][loc] for c in cols for loc in g.state.pawns[c])
        g.state.undo(changes)
        if v > best:
            best, idx = v, k
    return idx


def play_reference(
    seed: int, players: int, rules: Rules, policy: str = "random"
) -> tuple[Game, list[tuple[str, int, int]]]:
    """A whole reference game from ``seed`` with the fast engine's policy stream; returns the
    game and its trace (position, number of moves, choice) per decision."""
    g = Game(rules, players, seed=seed)
    prngs = {c: Rng(policy_seed(seed, c)) for c in g.colours}
    trace = []
    while not g.is_over():
        if g.is_chance():
            g.draw()
            continue
        moves = g.legal_moves
        k = prngs[g.to_move].below(len(moves)) if policy == "random" else easy_choice(g, moves)
        trace.append((g.position_string(), len(moves), k))
        g.push(moves[k])
    return g, trace


def sample_positions(
    rules: Rules, players: int, games: int, every: int, seed: int = 0
) -> Iterator[tuple[str, list[int]]]:
    """Decision points of random reference games: (position string, mover's hand)."""
    for s in range(games):
        g = Game(rules, players, seed=seed * 1000 + s)
        prng = Rng(s + 77)
        k = 0
        while not g.is_over():
            if g.is_chance():
                g.draw()
                continue
            if k % every == 0:
                yield g.position_string(), list(g.hands[g.to_move])
            k += 1
            moves = g.legal_moves
            g.push(moves[prng.below(len(moves))])


def random_position(rng: Rng, colours: tuple[int, ...]) -> str:
    """A valid (not necessarily reachable) position with pawns anywhere, biased to crowding."""
    pawns: list[tuple[int, ...] | None] = [None] * 4
    taken: set[int] = set()
    for c in colours:
        locs: list[int] = []
        safe: set[int] = set()
        for _ in range(4):
            r = rng.below(10)
            if r == 0:
                locs.append(START)
            elif r == 1:
                locs.append(HOME)
            elif r == 2:
                k = SAFE_BASE + 1 + rng.below(5)
                if k not in safe:
                    safe.add(k)
                    locs.append(k)
                else:
                    locs.append(START)
            else:
                # track squares, often near slides and entries
                sq = rng.below(TRACK_LEN)
                if sq in taken:
                    locs.append(START)
                else:
                    taken.add(sq)
                    locs.append(sq)
        pawns[c] = tuple(locs)
    to_move = colours[rng.below(len(colours))]
    return str(Position(tuple(pawns), to_move))


def reference_moves(
    position: str, rules: Rules, card: int | None, hand: list[int] | None = None
) -> list[tuple[str, str]]:
    """The reference's legal moves (notation, board text after) of a position, in order."""
    if rules.points:
        pos = Position.parse(position)
        g = Game.from_position(pos, rules, hands={pos.to_move: hand or []})
        while g.is_chance():  # deal the other hands
            g.draw()
    else:
        g = Game.from_position(position, rules, card=card)
    out = []
    for m in g.legal_moves:
        st = PawnState(g.position().pawns, rules.slide_on, rules.swap_slides)
        st.apply(m, [])
        text = " ".join(field_text(c, st.pawns[c]) for c in g.colours)
        out.append((str(m), text))
    return out


def test_first_player_and_deck_match_the_reference() -> None:
    for players in (2, 3, 4):
        for seed in range(20):
            g = Game(Rules(), players, seed=seed)
            r = fast.play(seed, players, policy="first", max_trace=45)
            assert r.first[0] == g.first
            cards = []
            while len(cards) < 45:
                g.draw()
                cards.append(g.card)
                g.push(g.legal_moves[0])
                if g.is_over():
                    break
            assert [int(c) for c in r.trace[: len(cards), 0]] == cards


def test_policy_streams_are_sorry_sims() -> None:
    assert fast.policy_seed(7, 2) == derive_seed(7, 1002)
    r = fast.play(5, 4)
    _g, trace = play_reference(5, 4, Rules())
    assert [(n, k) for _, n, k in trace] == [(int(a), int(b)) for a, b in r.trace[:, 1:]]
