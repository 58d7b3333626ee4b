"""Shared helpers for the rules-engine tests: play a card in a position and see every result.

Import them with ``from engine_helpers import moves_of`` (a module name of its own: ``conftest``
is ambiguous once a subdirectory has a conftest.py too). Example:
``moves_of("R:S,S,S,10 Y:S,S,S,S R", 5) == {"R10+5": ...}``.
"""

from __future__ import annotations

from typing import Any

from sorry import Game, Move, Rules, parse_card
from sorry.cards import Card


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
