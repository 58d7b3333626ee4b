"""OpenSpiel's Python MCTS and ISMCTS bots playing Sorry! against uniform random players.

    python examples/openspiel_search.py                   # 2 players, 10 games per search bot
    python examples/openspiel_search.py --games 40 --simulations 100

MCTS (open_spiel.python.algorithms.mcts) plays the standard game, whose only hidden thing is
the order of the deck (chance nodes); ISMCTS (open_spiel.python.algorithms.ismcts) plays the
points variant, where the other hands are hidden and each simulation starts from a
``resample_from_infostate`` determinisation. (OpenSpiel's C++ MCTS/ISMCTS bots crash on
Python games; use these.) Both evaluate leaves with a cheap progress heuristic instead of
random rollouts to the end of a long game; pass ``--rollouts N`` to use OpenSpiel's random
rollout evaluator instead.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import sorry.rl.openspiel_game  # noqa: F401  (registers python_sorry)
from sorry.bots.base import PROGRESS


class ProgressEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Leaf value: each side's share of the total progress towards HOME, centred (zero-sum),
    scaled into [-1, 1]; uniform priors."""

    def __init__(self, scale: float = 3.0) -> None:
        self.scale = scale

    def evaluate(self, state: Any) -> np.ndarray:
        game = state.engine
        if game.is_over():
            return np.array(state.returns())
        colours = game.colours
        prog = np.array([sum(PROGRESS[c][loc] for loc in game.pawns[c]) / 260.0 for c in colours])
        if game.rules.teams:
            prog = np.array([prog[i] + prog[(i + 2) % 4] for i in range(4)]) / 2
        value = np.clip(self.scale * (prog - prog.mean()), -1.0, 1.0)
        return value - value.mean()  # type: ignore[no-any-return]

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()  # type: ignore[no-any-return]
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def play(game: Any, bots: dict[int, Any], rng: np.random.RandomState) -> list[float]:
    """One game: ``bots[player]`` for the search players, uniform random for the others."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        if player in bots:
            action = bots[player].step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    return list(state.returns())


def evaluator_for(args: argparse.Namespace, rng: np.random.RandomState) -> Any:
    if args.rollouts:
        return mcts.RandomRolloutEvaluator(n_rollouts=args.rollouts, random_state=rng)
    return ProgressEvaluator()


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = np.random.RandomState(args.seed)
    report: dict[str, Any] = {"players": args.players, "simulations": args.simulations}
    setups = [
        ("mcts", "standard"),
        ("ismcts", "points"),
    ]
    for name, variant in setups:
        game = pyspiel.load_game("python_sorry", {"players": args.players, "variant": variant})
        evaluator = evaluator_for(args, rng)
        wins = 0
        start = time.perf_counter()
        for g in range(args.games):
            seat = g % args.players  # the search bot takes every seat in turn
            if name == "mcts":
                bot = mcts.MCTSBot(game, 2.0, args.simulations, evaluator, random_state=rng)
            else:
                bot = ismcts.ISMCTSBot(game, evaluator, 2.0, args.simulations, random_state=rng)
            returns = play(game, {seat: bot}, rng)
            wins += returns[seat] > 0
        report[f"{name}_{variant}_win_rate_vs_random"] = wins / args.games
        report[f"{name}_{variant}_seconds_per_game"] = round(
            (time.perf_counter() - start) / args.games, 2
        )
    report["random_expectation"] = round(1 / args.players, 3)
    return report


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--rollouts", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    report = run(args)
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
