"""Speed of the reference engine against the ``apologies`` package, in one process run.

    python benchmarks/bench_engine.py [--games 300] [--peer-games 20] [--positions 500]
                                      [--rounds 3] [--clock wall|cpu]

Measures, on one core, random 4-player standard games per second (our ``Game`` object driven
through its public API; our playouts, the lean loop over the same move generation that
simulations of random bots and the bots' Python rollouts use; apologies through
``next_turn`` / ``construct_legal_moves`` / ``execute_move``) and legal-move generation per call
on the same positions (sampled from apologies' random games and converted to our notation).
Each figure is the best of ``--rounds`` rounds, interleaved, so a busy machine hurts both sides
alike; ``--clock cpu`` times by this process's CPU time instead of the wall clock, which a busy
machine disturbs less (everything here runs on one thread). Prints a Markdown table with the
ratios.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from sorry.cards import SORRY, parse_card
from sorry.errors import PositionError
from sorry.game import Game
from sorry.movegen import legal_moves
from sorry.playout import random_game
from sorry.position import Position
from sorry.rng import Rng
from sorry.rules import Rules
from sorry.state import PawnState

#: The clock every timing reads (``--clock``): wall time, or this process's CPU time.
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def game_api(n: int, seed: int) -> tuple[float, int]:
    """Seconds and turns for n games through Game.draw / legal_moves / push."""
    turns = 0
    start = CLOCK[0]()
    for i in range(n):
        g = Game(players=4, seed=seed + i)
        rng = Rng(seed + i)
        while not g.is_over():
            if g.is_chance():
                g.draw()
            else:
                moves = g.legal_moves
                g.push(moves[rng.below(len(moves))])
        turns += g.turn
    return CLOCK[0]() - start, turns


def playouts(n: int, seed: int) -> tuple[float, int]:
    rules = Rules()
    turns = 0
    start = CLOCK[0]()
    for i in range(n):
        turns += random_game(rules, 4, seed + i)[1]
    return CLOCK[0]() - start, turns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--peer-games", type=int, default=20)
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time every side by the wall clock, or by this process's CPU time (one thread: "
        "the work done, whatever else the machine runs)",
    )
    args = ap.parse_args()

    import peer_apologies as peer

    if args.clock == "cpu":
        CLOCK[0] = peer.CLOCK[0] = time.process_time

    best: dict[str, float] = {}
    turns: dict[str, float] = {}

    def keep(name: str, seconds: float, games: int, n_turns: float) -> None:
        rate = games / seconds
        best[name] = max(best.get(name, 0.0), rate)
        turns[name] = n_turns / games

    samples = peer.sample_positions(args.positions, seed=1)
    ours = []
    skipped = 0
    for s in samples:
        d = s.describe()
        try:
            pos = Position.parse(str(d["ours"]))
        except PositionError:
            skipped += 1  # apologies' rule errors can reach positions that cannot exist
            continue
        card = SORRY if d["card"] == "A" else parse_card(str(d["card"]))
        ours.append((PawnState(pos.pawns), pos.to_move, card))
    rules = Rules()
    for _ in range(args.rounds):
        sec, t = game_api(args.games // 2, 1000)
        keep("ours: Game API", sec, args.games // 2, t)
        sec, t = playouts(args.games, 1000)
        keep("ours: playouts", sec, args.games, t)
        r = peer.play_random_games(args.peer_games, seed=7)
        keep("apologies", r["seconds"], args.peer_games, r["turns"])
        start = CLOCK[0]()
        reps = 20
        for _ in range(reps):
            for state, colour, card in ours:
                legal_moves(state, rules, colour, card)
        ours_us = (CLOCK[0]() - start) * 1e6 / (reps * len(ours))
        best["ours movegen us"] = min(best.get("ours movegen us", 1e9), ours_us)
        m = peer.time_movegen(samples, repeat=reps)
        best["peer movegen us"] = min(best.get("peer movegen us", 1e9), m["us_per_call"])

    peer_rate = best["apologies"]
    print(
        f"Python {platform.python_version()} on {platform.machine()}, one core, "
        f"best of {args.rounds} rounds, {args.clock} clock\n"
    )
    print("| engine | games/s | turns/game | ratio to apologies |")
    print("|---|---:|---:|---:|")
    for name in ("ours: Game API", "ours: playouts", "apologies"):
        print(f"| {name} | {best[name]:,.1f} | {turns[name]:.0f} | {best[name] / peer_rate:.1f}x |")
    print()
    print(
        f"Legal-move generation on {len(ours)} positions from apologies' games "
        f"({skipped} impossible ones skipped):\n"
    )
    print("| engine | µs per call | ratio |")
    print("|---|---:|---:|")
    print(
        f"| ours | {best['ours movegen us']:.2f} | "
        f"{best['peer movegen us'] / best['ours movegen us']:.1f}x faster |"
    )
    print(f"| apologies | {best['peer movegen us']:.2f} | 1.0x |")


if __name__ == "__main__":
    main()
