"""What the RL environments render: ``ansi``, the board of :mod:`sorry.textboard` without
colours and a status line (standard library only); ``human`` prints it; ``rgb_array``, the board
as a picture (:mod:`sorry.rl.image`, numpy).

>>> from sorry import Game
>>> print(board_text(Game(players=2, seed=1)).splitlines()[-1])
turn 0: Yellow to move
"""

from __future__ import annotations

from ..board import COLOUR_NAMES
from ..cards import card_name
from ..game import Game
from ..textboard import render as board_picture

RENDER_MODES = ("ansi", "human", "rgb_array")
#: Frames a second of a recorded episode (Gymnasium's ``RecordVideo`` reads it): a board game
#: is watched a few moves a second.
RENDER_FPS = 4


def status_line(game: Game) -> str:
    """Turn, the colour to move and its card (its hand in the points variant), or the result."""
    if game.is_over():
        if game.unfinished:
            return f"turn {game.turn}: stopped by the turn limit"
        won = " and ".join(COLOUR_NAMES[c] for c in game.winners)
        return f"turn {game.turn}: {won} won"
    text = f"turn {game.turn}: {COLOUR_NAMES[game.to_move]} to move"
    if game.card is not None:
        text += f" with a {card_name(game.card)}"
    if game.rules.points and game.hands[game.to_move]:
        hand = ",".join(card_name(c) for c in sorted(game.hands[game.to_move]))
        text += f", hand {hand}"
    return text


def board_text(game: Game | None) -> str:
    """The board as text and the status line."""
    if game is None:
        return "(no game: call reset())"
    return board_picture(game.position(), colour=False) + "\n" + status_line(game)


__all__ = ["RENDER_FPS", "RENDER_MODES", "board_text", "status_line"]
