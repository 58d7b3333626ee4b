"""The observation layout shared by every RL interface (``docs/rl.md``), built from a
:class:`~sorry.view.PlayerView` only, so hands stay hidden.

Everything is relative to the viewer: *relative colour* ``r = (colour - viewer) % 4`` (0 the
viewer, 1 the next seat clockwise, 2 across, 3 the previous seat), and track squares are turned
by ``15 * viewer`` so that every seat sees its own side of the board at squares 0-14. All
values lie in ``[0, 1]``.

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=10)
>>> obs = observation(g.view(0))
>>> obs.shape, obs.dtype.name, float(obs[PAWNS + 66]), float(obs[PAWNS + 4])
((339,), 'float32', 0.5, 0.25)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..board import COLOUR_LETTERS, TRACK_LEN
from ..cards import CARD_INDEX, CARDS, card_name, deck_counts
from ..errors import RulesError
from ..observation import (  # the layout, shared with the compiled vector environment
    CARD as CARD,
    DEAL_TO as DEAL_TO,
    DECK_MAX as DECK_MAX,
    DISCARDS as DISCARDS,
    DRAW_COUNT as DRAW_COUNT,
    HAND as HAND,
    HAND_SIZES as HAND_SIZES,
    HISTORY as HISTORY,
    IN_PLAY as IN_PLAY,
    INFO_SIZE as INFO_SIZE,
    MAX_DISCARDS as MAX_DISCARDS,
    NUM_CARDS as NUM_CARDS,
    NUM_LOCATIONS as NUM_LOCATIONS,
    OBS_SIZE as OBS_SIZE,
    PAWNS as PAWNS,
    PHASE as PHASE,
    TO_MOVE as TO_MOVE,
    UNSEEN as UNSEEN,
    VARIANT as VARIANT,
    WINNERS as WINNERS,
)
from ..rules import VARIANTS, Rules
from ..view import PlayerView

FloatArray = npt.NDArray[np.float32]


def check_rules(rules: Rules) -> Rules:
    """Refuse the one option the fixed action space cannot express."""
    if rules.teams and rules.team_seven_split == "any":
        raise RulesError(
            "team_seven_split=any is not supported by the RL interfaces: a 7 split among more "
            "than two pawns has no action in the fixed action space (docs/actions.md)"
        )
    return rules


def make_rules(variant: str = "standard", options: dict[str, Any] | None = None) -> Rules:
    """Validated rules for an RL interface (``options`` as for :meth:`Rules.from_options`)."""
    if variant not in VARIANTS:
        raise RulesError(f"unknown variant {variant!r} (expected standard, teams or points)")
    return check_rules(Rules.from_options(variant, dict(options or {})))


def observation(view: PlayerView, out: FloatArray | None = None) -> FloatArray:
    """The observation vector (``OBS_SIZE`` float32) of ``view``'s owner."""
    if out is None:
        out = np.empty(OBS_SIZE, np.float32)
    _fill(view, out)
    return out


def information_state(view: PlayerView, out: FloatArray | None = None) -> FloatArray:
    """The observation followed by the discard pile in order (``INFO_SIZE`` float32)."""
    if out is None:
        out = np.zeros(INFO_SIZE, np.float32)
    else:
        out[:] = 0.0
    _fill(view, out)
    pile = view.discard_pile
    for k, card in enumerate(reversed(pile[-MAX_DISCARDS:])):
        out[HISTORY + k * NUM_CARDS + CARD_INDEX[card]] = 1.0
    return out


_CARD_IDX = [CARD_INDEX.get(c, 0) for c in range(14)]
_DECK_COUNTS = {size: [deck_counts(size)[c] for c in CARDS] for size in (44, 45)}


def _fill(view: PlayerView, out: FloatArray) -> None:
    # Collects the few non-zero values in a dict: numpy converts a short index list much
    # faster than a full list of 339 floats.
    me = view.viewer
    turn = 15 * me
    buf: dict[int, float] = {}
    get = buf.get
    idx = _CARD_IDX
    for c in view.colours:
        r = (c - me) % 4
        buf[IN_PLAY + r] = 1.0
        locs = view.pawns[c]
        assert locs is not None
        base = PAWNS + r * NUM_LOCATIONS
        for loc in locs:
            i = base + ((loc - turn) % TRACK_LEN if loc < TRACK_LEN else loc)
            buf[i] = get(i, 0.0) + 0.25
        buf[HAND_SIZES + r] = view.hand_sizes[c] / 5.0
    buf[TO_MOVE + (view.to_move - me) % 4] = 1.0
    buf[PHASE + view.phase] = 1.0
    unseen = _DECK_COUNTS[view.rules.deck][:]
    if view.card is not None:
        buf[CARD + idx[view.card]] = 1.0
        unseen[idx[view.card]] -= 1
    for card in view.hand:
        i = HAND + idx[card]
        buf[i] = get(i, 0.0) + 0.2
        unseen[idx[card]] -= 1
    for card in view.discard_pile:
        i = DISCARDS + idx[card]
        buf[i] = get(i, 0.0) + 0.2
        unseen[idx[card]] -= 1
    for k in range(NUM_CARDS):
        buf[UNSEEN + k] = unseen[k] / 5.0
    buf[DRAW_COUNT] = view.draw_count / DECK_MAX
    buf[VARIANT + VARIANTS.index(view.rules.variant)] = 1.0
    if view.deal_to is not None:
        buf[DEAL_TO + (view.deal_to - me) % 4] = 1.0
    for w in view.winners:
        buf[WINNERS + (w - me) % 4] = 1.0
    out[:OBS_SIZE] = 0.0
    out[list(buf)] = list(buf.values())


def observation_string(view: PlayerView) -> str:
    """A readable summary of the view: what the tensor holds, as text."""
    parts = [
        f"viewer {COLOUR_LETTERS[view.viewer]}",
        view.position_string(),
        view.phase.word,
        f"turn {view.turn}",
    ]
    if view.card is not None:
        parts.append("card " + card_name(view.card))
    if view.rules.points:
        parts.append("hand " + ",".join(card_name(c) for c in sorted(view.hand)))
        parts.append(
            "held " + ",".join(f"{COLOUR_LETTERS[c]}{view.hand_sizes[c]}" for c in view.colours)
        )
        if view.deal_to is not None:
            parts.append(f"deal {COLOUR_LETTERS[view.deal_to]}")
    parts.append(f"draw {view.draw_count}")
    if view.winners:
        parts.append("won " + "".join(COLOUR_LETTERS[c] for c in view.winners))
    return " | ".join(parts)


def information_state_string(view: PlayerView) -> str:
    """The observation string and the discard pile in order (bottom first)."""
    pile = "".join(card_name(c) + "." for c in view.discard_pile)
    return observation_string(view) + " | discards " + pile


__all__ = [
    "INFO_SIZE",
    "OBS_SIZE",
    "check_rules",
    "information_state",
    "information_state_string",
    "make_rules",
    "observation",
    "observation_string",
]
