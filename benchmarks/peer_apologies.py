"""Measure the peer engine, PyPI ``apologies`` (standard mode, 4 players).

Imported by the benchmark script and run in the same process as our engine, or
run directly: ``python benchmarks/peer_apologies.py [games] [positions]``.

apologies draws cards and picks the first player with the *global* ``random``
module, so every entry point here seeds it and restores its state afterwards.

Coordinates, read from ``apologies/game.py`` and ``rules.py`` (version 0.4.2):

* Track: ``Position.square`` 0-59; forward is increasing, wrapping 59 -> 0.
  Start circles (``CIRCLE``) Red 4, Blue 19, Yellow 34, Green 49; safety
  turns (``TURN``) Red 2, Blue 17, Yellow 32, Green 47: a pawn moving forward
  past its turn square enters ``safe`` 0; slides (``SLIDE``) 1->4 and 9->13 on
  each 15-square side, taken only by the other colours. This is our board
  exactly (SAFETY_ENTRY = 15c+2, START_EXIT = 15c+4, same slides), so a square
  maps to the same number.
* ``Position.safe`` 0-4 is our ``s1``-``s5``; ``home`` is ``H``; ``start`` is ``S``.
  Moving back out of the zone leaves from the turn square, as in our rules.
* Colours are ``PlayerColor`` RED, YELLOW, GREEN, BLUE: the same board sides as
  ours, but apologies plays them in enum order R, Y, G, B (``Engine`` queue),
  not clockwise. Our string just names the colour to move, so that is harmless.

Checked against ``sorry.board``: for all four colours, every square and safe
square and every move of -4..-1 and 1..12, ``BoardRules._position`` and
``distance_to_home`` agree with ``forward_dest``/``backward_dest``/``steps_to_home``
(4160 cases), and the slide tables are equal, hence ``to_our_position``.
* Card ``CardType`` values are "1"-"12" and "A" (Apologies = our Sorry!).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

try:
    import apologies  # noqa: F401  (the peer engine: the `bench` extra)
except ModuleNotFoundError:
    sys.exit(
        "error: the peer engine `apologies` is not installed: run `make bench` or "
        "`pip install -e '.[bench]'` first"
    )

from apologies import (
    Card,
    Character,
    Engine,
    Game,
    GameMode,
    NoOpInputSource,
    Player,
    PlayerColor,
    PlayerView,
    Position,
    Rules,
)

SEATS = (PlayerColor.RED, PlayerColor.BLUE, PlayerColor.YELLOW, PlayerColor.GREEN)
LETTER = dict(zip(SEATS, "RBYG", strict=True))
MAX_TURNS = 10_000  # guard against a game that never ends

#: The clock every timing here reads: wall time, or the process's CPU time when the caller
#: sets ``CLOCK[0] = time.process_time`` (steadier on a busy machine).
CLOCK: list[Callable[[], float]] = [time.perf_counter]


@contextmanager
def _seeded(seed: int) -> Iterator[None]:
    """Seed the global ``random`` that apologies uses; restore it afterwards."""
    state = random.getstate()
    random.seed(seed)
    try:
        yield
    finally:
        random.setstate(state)


def _new_engine() -> Engine:
    characters = [Character(f"p{i}", NoOpInputSource()) for i in range(4)]
    engine = Engine(mode=GameMode.STANDARD, characters=characters)
    engine.start_game()
    return engine


def _view(game: Game, color: PlayerColor, copy_view: bool) -> PlayerView:
    """Return the ``PlayerView`` for ``color``.

    ``copy_view=True`` is the public route (``Game.create_player_view``, which
    deep-copies all four players through cattrs). ``False`` builds the same view
    around the live objects: the rules only read it and every ``Action`` target
    is already a copy, so the moves are identical, just cheaper to make.
    """
    if copy_view:
        return game.create_player_view(color)
    players = game.players
    return PlayerView(players[color], {c: p for c, p in players.items() if c != color})


def _play_one(
    engine: Engine,
    rng: random.Random,
    copy_view: bool,
    keep: list[tuple[PlayerView, Card, PlayerColor]] | None = None,
    p_keep: float = 0.0,
) -> int:
    """Play one game to the end with uniform random moves; return its turn count.

    Call sequence per turn: ``color, _ = engine.next_turn()``, then until the
    turn is done (a 2 draws again): ``view = game.create_player_view(color)``;
    ``card, moves = engine.construct_legal_moves(view)`` (draws the card);
    ``done = engine.execute_move(color, rng.choice(moves))`` (applies the move,
    or the forfeit ``Move(card, [])``, and discards the card).
    """
    game = engine.game
    turns = 0
    while not engine.completed:
        turns += 1
        if turns > MAX_TURNS:
            raise RuntimeError("apologies game did not finish")
        color, _ = engine.next_turn()
        done = False
        while not done:
            view = _view(game, color, copy_view)
            card, moves = engine.construct_legal_moves(view)
            if keep is not None and card is not None and rng.random() < p_keep:
                keep.append((game.create_player_view(color), card, color))
            done = engine.execute_move(color, rng.choice(moves))
    return turns


def play_random_games(n: int, seed: int, copy_view: bool = True) -> dict[str, float]:
    """Play ``n`` random 4-player standard games, timed with engine set-up."""
    rng = random.Random(seed)
    turns = 0
    wins = 0
    with _seeded(seed):
        start = CLOCK[0]()
        for _ in range(n):
            engine = _new_engine()
            turns += _play_one(engine, rng, copy_view)
            wins += engine.completed
        seconds = CLOCK[0]() - start
    if wins != n:
        raise RuntimeError(f"only {wins} of {n} apologies games ended in a win")
    return {
        "games": n,
        "wins": wins,
        "seconds": seconds,
        "games_per_second": n / seconds,
        "turns": turns,
        "mean_turns": turns / n,
    }


@dataclass(frozen=True)
class Sample:
    """A position reached in a random game: the mover's view plus the drawn card."""

    view: PlayerView
    card: Card
    to_move: PlayerColor

    def describe(self) -> dict[str, object]:
        """Pawn locations per colour in apologies' terms, the card, and our string."""
        players = _players(self.view)
        return {
            "to_move": self.to_move.value,
            "card": self.card.cardtype.value,
            "pawns": {c.value: [str(p.position) for p in players[c].pawns] for c in SEATS},
            "ours": to_our_position(self.view, self.to_move),
        }


def sample_positions(k: int, seed: int, p_keep: float = 0.1) -> list[Sample]:
    """Keep decision points of random games (each with chance ``p_keep``) to ``k``."""
    rng = random.Random(seed)
    kept: list[tuple[PlayerView, Card, PlayerColor]] = []
    with _seeded(seed):
        while len(kept) < k:
            _play_one(_new_engine(), rng, copy_view=False, keep=kept, p_keep=p_keep)
    return [Sample(view, card, color) for view, card, color in kept[:k]]


def time_movegen(positions: list[Sample], repeat: int = 20) -> dict[str, float]:
    """Time ``Rules.construct_legal_moves(view, card)`` (no draw, no copy) per call."""
    rules = Rules(GameMode.STANDARD)
    gen = rules.construct_legal_moves
    pairs = [(s.view, s.card) for s in positions]
    # Warm-up and move count; the call only reads the view, so it can be repeated.
    moves = sum(len(gen(v, c)) for v, c in pairs)
    start = CLOCK[0]()
    for _ in range(repeat):
        for view, card in pairs:
            gen(view, card)
    seconds = CLOCK[0]() - start
    calls = repeat * len(pairs)
    return {
        "positions": len(pairs),
        "calls": calls,
        "seconds": seconds,
        "us_per_call": seconds * 1e6 / calls,
        "mean_moves": moves / len(pairs),
    }


def _players(state: Game | PlayerView) -> dict[PlayerColor, Player]:
    if isinstance(state, Game):
        return state.players
    return {state.player.color: state.player, **state.opponents}


def _our_loc(pos: Position) -> tuple[int, str]:
    """(sort key, our notation) of an apologies position."""
    if pos.start:
        return -1, "S"
    if pos.home:
        return 65, "H"
    if pos.safe is not None:
        return 60 + pos.safe, f"s{pos.safe + 1}"
    if pos.square is None:
        raise ValueError(f"invalid apologies position {pos!r}")
    return pos.square, str(pos.square)


def to_our_position(state: Game | PlayerView, to_move: PlayerColor) -> str:
    """Return our position string (``R:S,S,4,s2 B:... G:... R``) of a state."""
    players = _players(state)
    fields = []
    for color in SEATS:
        locs = sorted(_our_loc(p.position) for p in players[color].pawns)
        fields.append(f"{LETTER[color]}:" + ",".join(name for _, name in locs))
    return " ".join([*fields, LETTER[to_move]])


def main(argv: list[str]) -> None:
    """Print games/s, mean turns and movegen us/call; argv: [games] [positions]."""
    games = int(argv[1]) if len(argv) > 1 else 20
    k = int(argv[2]) if len(argv) > 2 else 200
    for copy_view in (True, False):
        r = play_random_games(games, seed=1, copy_view=copy_view)
        label = "create_player_view" if copy_view else "no-copy view"
        print(
            f"apologies games ({label}): {r['games']} in {r['seconds']:.2f}s = "
            f"{r['games_per_second']:.2f} games/s, "
            f"mean {r['mean_turns']:.1f} turns/game"
        )
    samples = sample_positions(k, seed=2)
    m = time_movegen(samples, repeat=20)
    print(
        f"apologies movegen: {m['us_per_call']:.1f} us/call over "
        f"{m['positions']} positions ({m['calls']} calls, "
        f"mean {m['mean_moves']:.2f} moves/position)"
    )
    for s in samples[:3]:
        print(s.describe())


if __name__ == "__main__":
    main(sys.argv)
