"""Reference-engine counterparts of the fast engine's policies and position samplers, shared by
the differential tests of :mod:`sorry.fast` (``from fast_helpers import play_reference``).

The reference (:class:`sorry.game.Game`) plays with the fast engine's policy streams
(:func:`sorry.fast.policy_seed`), so a seed gives the same game in both engines."""

from __future__ import annotations

from collections.abc import Iterator

from engine_helpers import play_out
from sorry import Game, Position, Rules
from sorry.board import HOME, NUM_LOCATIONS, SAFE_BASE, START, TRACK_LEN, steps_to_home
from sorry.fast import policy_seed
from sorry.moves import Move
from sorry.position import field_text
from sorry.rng import Rng
from sorry.state import Change, PawnState

# The progress table and the teams written again from the rule text, not read from the
# rulebook: the reference's policy must not share the engine's tables to check them.
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

    def choose(g: Game, moves: list[Move]) -> Move:
        k = prngs[g.to_move].below(len(moves)) if policy == "random" else easy_choice(g, moves)
        trace.append((g.position_string(), len(moves), k))
        return moves[k]

    return play_out(g, choose), trace


def sample_positions(
    rules: Rules, players: int, games: int, every: int, seed: int = 0
) -> Iterator[tuple[str, list[int]]]:
    """Decision points of random reference games: (position string, mover's hand)."""
    for s in range(games):
        yield from _decisions(Game(rules, players, seed=seed * 1000 + s), Rng(s + 77), every)


def _decisions(game: Game, prng: Rng, every: int) -> list[tuple[str, list[int]]]:
    """Every ``every``-th decision of a random game: (position string, mover's hand)."""
    seen: list[tuple[str, list[int]]] = []

    def choose(g: Game, moves: list[Move]) -> Move:
        if g.turn % every == 0:
            seen.append((g.position_string(), list(g.hands[g.to_move])))
        return moves[prng.below(len(moves))]

    play_out(game, choose)
    return seen


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
        st = PawnState(g.position().pawns, rules)
        st.apply(m, [])
        text = " ".join(field_text(c, st.pawns[c]) for c in g.colours)
        out.append((str(m), text))
    return out
