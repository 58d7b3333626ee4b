"""Playing whole games between bots."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..game import Game
from ..rng import Rng, derive_seed
from ..rules import Rules
from .base import Bot


def seat_bots(game: Game, bots: Mapping[int, Bot] | Sequence[Bot]) -> dict[int, Bot]:
    """Bots by colour: a mapping as given, or a sequence assigned to the colours in seat order."""
    if isinstance(bots, Mapping):
        missing = [c for c in game.colours if c not in bots]
        if missing:
            raise ValueError(f"no bot for colour(s) {missing}")
        return dict(bots)
    bots = list(bots)
    if len(bots) != len(game.colours):
        raise ValueError(f"{len(game.colours)} colours in play but {len(bots)} bots")
    return dict(zip(game.colours, bots, strict=True))


def play_game(
    rules: Rules | None = None,
    bots: Mapping[int, Bot] | Sequence[Bot] = (),
    seed: int = 0,
    players: int | Sequence[int] | None = None,
    first: int | None = None,
    max_turns: int = 5000,
) -> Game:
    """Play one complete game: the deck and first player come from ``seed``, each bot gets its
    own generator derived from it. ``players`` defaults to the number of bots. Returns the
    finished :class:`Game` (its history holds every draw and move)."""
    rules = rules or Rules()
    if players is None:
        players = sorted(bots) if isinstance(bots, Mapping) else (len(bots) or 2)
    game = Game(rules, players=players, seed=seed, first=first)
    by_colour = seat_bots(game, bots)
    rngs = {c: Rng(derive_seed(seed, 1000 + c)) for c in game.colours}
    while not game.is_over():
        if game.is_chance():
            game.draw()
            continue
        if game.turn >= max_turns:
            break
        c = game.to_move
        move = by_colour[c].choose(game.view(c), rngs[c])
        game.push(move)
    return game
