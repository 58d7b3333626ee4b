"""The layout of the observation vector (``docs/rl.md``): the offset of each section, which the
RL interfaces (:mod:`sorry.rl.observation`) and the compiled vector environment
(:mod:`sorry.fast._vector`) both write, so the layout is written once, below both.

>>> PAWNS, CARD, OBS_SIZE, INFO_SIZE
(0, 279, 339, 834)
"""

from __future__ import annotations

from typing import Final

from .cards import CARDS

NUM_LOCATIONS: Final = 67
NUM_CARDS: Final = len(CARDS)
DECK_MAX: Final = 45
MAX_DISCARDS: Final = 45

# Offsets of the sections of the observation vector (see docs/rl.md).
PAWNS: Final = 0  # 4 relative colours x 67 locations: share of the colour's 4 pawns there
IN_PLAY: Final = PAWNS + 4 * NUM_LOCATIONS  # 4: relative colour in play
TO_MOVE: Final = IN_PLAY + 4  # 4: relative colour to move (one-hot)
PHASE: Final = TO_MOVE + 4  # 3: chance, decision, over (one-hot)
CARD: Final = PHASE + 3  # 11: the drawn card (standard, teams), one-hot in CARDS order
HAND: Final = CARD + NUM_CARDS  # 11: own hand (points), count / 5
HAND_SIZES: Final = HAND + NUM_CARDS  # 4: cards held per relative colour / 5
DISCARDS: Final = HAND_SIZES + 4  # 11: discard pile counts / 5
UNSEEN: Final = DISCARDS + NUM_CARDS  # 11: unseen cards (card counting) / 5
DRAW_COUNT: Final = UNSEEN + NUM_CARDS  # 1: cards in the draw pile / 45
VARIANT: Final = DRAW_COUNT + 1  # 3: standard, teams, points (one-hot)
DEAL_TO: Final = VARIANT + 3  # 4: at a chance node, relative colour receiving the card
WINNERS: Final = DEAL_TO + 4  # 4: relative colours that won
OBS_SIZE: Final = WINNERS + 4  # 339
#: The information state adds the discard pile in order (most recent first), one-hot.
HISTORY: Final = OBS_SIZE
INFO_SIZE: Final = HISTORY + MAX_DISCARDS * NUM_CARDS  # 834
