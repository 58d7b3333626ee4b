"""Moves described in words, from what they do to the board (for logs and players).

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,13,s2 B:S,S,S,18 R", card=3)
>>> describe(g, g.legal_moves[0])
'Red moves a pawn from 13 to 16, slides to 19, bumps Blue (18) to START'
"""

from __future__ import annotations

from .board import COLOUR_NAMES, HOME, START, loc_name
from .game import Game
from .moves import DISCARD, ENTER, PASS, SORRY, SWAP, Move
from .state import Change


def _where(loc: int) -> str:
    if loc == START:
        return "START"
    if loc == HOME:
        return "HOME"
    return loc_name(loc)


def describe(game: Game, move: Move) -> str:
    """A sentence for ``move`` played by the player to move in ``game`` (not changed)."""
    who = COLOUR_NAMES[game.to_move]
    card = f" (card {move.card})" if move.card is not None and move.kind != DISCARD else ""
    if move.kind == PASS:
        return f"{who} cannot or will not move{card}: the turn is forfeited"
    if move.kind == DISCARD:
        return f"{who} has no playable card and discards a {move.card}"
    state = game.state.copy()
    changes: list[Change] = []
    state.apply(move, changes)
    movers: dict[tuple[int, int], list[int]] = {}
    for c, i, old in changes:
        movers.setdefault((c, i), []).append(old)
    parts: list[str] = []
    bumps: list[str] = []
    for (c, i), olds in movers.items():
        start, end = olds[0], state.pawns[c][i]
        if end == START and start != START:
            bumps.append(f"{COLOUR_NAMES[c]} ({_where(start)})")
            continue
        path = [_where(start), _where(olds[1] if len(olds) > 1 else end)]
        text = f"{COLOUR_NAMES[c] if c != game.to_move else ''} pawn from {path[0]} to {path[1]}"
        if len(olds) > 1:
            text += f", slides to {_where(end)}"
        parts.append(text.strip())
    verb = {ENTER: "starts", SORRY: "plays Sorry!", SWAP: "swaps"}.get(move.kind, "moves")
    sentence = f"{who} {verb}{card}: " if verb != "moves" else f"{who} moves{card} "
    sentence += "; ".join(parts)
    sentence = sentence.replace("moves pawn", "moves a pawn").replace(": pawn", ": a pawn")
    if bumps:
        sentence += ", bumps " + ", ".join(bumps) + " to START"
    return sentence.replace("moves  ", "moves ").replace("  ", " ")
