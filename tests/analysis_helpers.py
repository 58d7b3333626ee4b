"""Shared helpers for the analysis tests: finished games as records, and step tampering."""

from __future__ import annotations

import dataclasses
from functools import cache

from sorry import Game, Rules
from sorry.bots import make_bot, play_game
from sorry.record import Commitment, GameRecord

NONCE = "a5" * 16


@cache
def record(
    variant: str, players: int, seed: int = 4, levels: tuple[str, ...] = ("easy",)
) -> GameRecord:
    """A finished game of bots (easy ones by default: short games; ``levels`` seat by seat,
    repeated) with a fixed nonce."""
    rules = Rules(variant=variant)
    g = Game(rules, players=players, seed=seed)
    c = Commitment.for_game(g, NONCE)
    seats = [levels[i % len(levels)] for i in range(players)]
    g = play_game(rules, [make_bot(level) for level in seats], seed=seed, players=players)
    assert g.winners
    return GameRecord.from_game(g, seats, commitment=c)


def replace_step(rec: GameRecord, n: int, **changes: str) -> GameRecord:
    """The record with step ``n`` (1-based) changed."""
    steps = list(rec.steps)
    steps[n - 1] = dataclasses.replace(steps[n - 1], **changes)
    return dataclasses.replace(rec, steps=tuple(steps))
