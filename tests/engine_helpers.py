"""Shared helpers for the rules-engine tests: play a card in a position and see every result;
play whole games (:func:`play_out` with a chooser of moves).

Import them with ``from engine_helpers import moves_of`` (a module name of its own: ``conftest``
is ambiguous once a subdirectory has a conftest.py too). Example:
``moves_of("R:S,S,S,10 Y:S,S,S,S R", 5) == {"R10+5": ...}``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from sorry import Game, Move, Rules, parse_card
from sorry.bots import make_bot
from sorry.bots.base import team_of
from sorry.bots.evaluate import WIN, evaluate
from sorry.cards import Card
from sorry.rng import MASK64, Rng, mix64
from sorry.rulebook import HAND_SIZE
from sorry.view import PlayerView

GOLDEN = 0x9E3779B97F4A7C15


def rules_of(variant: str = "standard", **options: Any) -> Rules:
    """Rules from keyword options, e.g. ``rules_of(sorry_forward_4="always", deck=44)``."""
    return Rules.from_options(variant, {k: str(v) for k, v in options.items()})


def card_of(card: Card | str) -> Card:
    return parse_card(card) if isinstance(card, str) else card


def game_at(position: str, card: Card | str | None = None, seed: int = 0, **options: Any) -> Game:
    """A standard game in ``position`` with ``card`` drawn (or at a chance node)."""
    return Game.from_position(
        position, rules_of(**options), card=None if card is None else card_of(card), seed=seed
    )


def moves_of(position: str, card: Card | str, **options: Any) -> dict[str, str]:
    """Every legal move of ``card`` in ``position`` -> the board text it leads to."""
    g = game_at(position, card, **options)
    out: dict[str, str] = {}
    for m in g.legal_moves:
        g.push(m)
        out[str(m)] = g.board_text()
        g.pop()
    assert len(out) == len(g.legal_moves), "a move is listed twice"
    return out


def notations(position: str, card: Card | str, **options: Any) -> set[str]:
    """The notations of the legal moves of ``card`` in ``position``."""
    return set(moves_of(position, card, **options))


def result(position: str, card: Card | str, move: str, **options: Any) -> str:
    """The board text after playing ``move`` (any accepted notation) with ``card``."""
    g = game_at(position, card, **options)
    g.push(Move.parse(move))
    return g.board_text()


# -- whole games ----------------------------------------------------------------------------------
#: A player for :func:`play_out`: given the game and its legal moves, the move to push.
Chooser = Callable[[Game, list[Move]], Move]


def first_move(game: Game, moves: list[Move]) -> Move:
    """Always the first listed move."""
    return moves[0]


def random_moves(seed: int | random.Random) -> Chooser:
    """Uniformly random moves from ``random.Random(seed)`` (or the generator given)."""
    rnd = seed if isinstance(seed, random.Random) else random.Random(seed)
    return lambda game, moves: rnd.choice(moves)


def rng_moves(rng: Rng) -> Chooser:
    """The random player of the engines: ``moves[rng.next64() % n]``, drawing only when there
    is a choice (as ``sorry.playout`` does with the same generator)."""
    return lambda game, moves: moves[rng.next64() % len(moves)] if len(moves) > 1 else moves[0]


def below_moves(rng: Rng) -> Chooser:
    """Uniformly random moves: ``moves[rng.below(n)]``, drawing at every decision."""
    return lambda game, moves: moves[rng.below(len(moves))]


def play_out(
    game: Game,
    choose: Chooser = first_move,
    max_turns: int | None = None,
    max_steps: int | None = None,
    after: Callable[[Game], object] | None = None,
) -> Game:
    """Play ``game`` to its end, or until ``max_turns`` turns have been played, or ``max_steps``
    steps (draws and moves) made: the top card at every chance node, ``choose(game, legal
    moves)`` at every decision (a chooser may check the position, and even push and pop, before
    it answers); ``after(game)`` after every step. Returns the game."""
    steps = 0
    while not game.is_over() and (max_turns is None or game.turn < max_turns):
        if max_steps is not None and steps >= max_steps:
            break
        if game.is_chance():
            game.draw()
        else:
            game.push(choose(game, game.legal_moves))
        steps += 1
        if after is not None:
            after(game)
    return game


# -- the searches' rollouts, in Python ----------------------------------------------------------
def python_world(view: PlayerView, world: int) -> tuple[Game, dict[int, Rng]]:
    """The compiled engine's world ``world`` (sorry.fast._search.deal_world) as a Game: the
    one dealing of every determinisation, ``Game.from_view``; the bots' streams."""
    g = Game.from_view(view, world)
    streams = {c: Rng(mix64((world * GOLDEN + 2001 + c) & MASK64)) for c in range(4)}
    return g, streams


def python_score(view: PlayerView, move: Move, world: int, depth: int) -> float:
    """What ViewRoot.scores computes, in Python: the move, then MediumBots for ``depth`` moves."""
    g, streams = python_world(view, world)
    medium = make_bot("medium")
    g.push(move)
    rules = view.rules
    team = team_of(rules, view.viewer)
    steps = 0
    while not g.is_over() and steps < depth:
        if g.is_chance():
            g.draw()
            continue
        c = g.to_move
        g.push(medium.choose(g.view(c), streams[c]))
        steps += 1
    while g.is_chance() and not g.is_over():  # the refill of a points hand (end_turn's)
        g.draw()
    if g.is_over() and g.winner is not None:
        return 1.0 if g.winner in team else 0.0
    probs = view.next_card_probabilities()
    hand = HAND_SIZE if rules.points else 1
    v = evaluate(g.state, view.colours, team, probs, rules.slide_on, rules.teams, hand=hand)
    if v >= WIN:
        return 1.0
    if v <= -WIN:
        return 0.0
    return 1.0 / (1.0 + math.exp(-v / 40.0))
