"""The compiled engine's arrays, built from the core's objects with numpy alone (no numba).

The kernels of :mod:`sorry.fast` work on small integer and float arrays; their layouts (which
index holds what) and the functions that fill them from a :class:`~sorry.rules.Rules`, a
:class:`~sorry.position.Position` or a :class:`~sorry.view.PlayerView` live here, outside the
``sorry.fast`` package, so that a process can drive the rollouts compiled ahead of time
(:mod:`sorry.compiled.aot`) without importing numba (a quarter of a second). The kernels read these
constants from here (``sorry.fast._kernel`` re-exports them).

- ``P`` int64[P_LEN]: the rule parameters and each colour's policy;
- ``slide`` int8[4, 60]: the slide table of the rule set (``sorry.board.slide_table``);
- ``S`` int8[STATE_LEN]: the pawns (``S[4*c + i]``) and who stands on each track square
  (``S[OCC + square]``: ``4*c + i`` or -1);
- ``E`` float64[E_LEN]: the medium bot's card probabilities and weights;
- ``hitm`` int64[4, 60, NKINDS]: the squares each pawn can bump with each card kind, as masks;
- ``R`` int64[R_LEN]: what a player's view holds (whose turn, the hands' sizes, the viewer's
  hand, the unseen cards, the discard pile).

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,10,s1 Y:20,30,40,S R", card=5)
>>> root = ViewArrays(g.view(0))
>>> int(root.R[R_VIEWER]), int(root.S0[0]), int(root.S0[OCC + 10])
(0, 66, 2)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .. import board
from ..board import START
from ..cards import CARD_INDEX
from ..errors import GameStateError
from ..position import Position
from ..rules import OPTION_VALUES, Rules, Unsupported
from ..tuning import BUMP_STEPS, DEFAULT_WEIGHTS, Weights, deck_probabilities, hit_table
from ..view import PlayerView

Array = npt.NDArray[Any]

#: The settings the compiled engine cannot play (see sorry.rules.Unsupported): splitting a 7
#: among three or four pawns of a team.
UNSUPPORTED: Final[Unsupported] = frozenset({("team_seven_split", "any")})

# -- the state S (int8) ---------------------------------------------------------------------------
TRACK: Final = board.TRACK_LEN
OCC: Final = 16  # offset of the occupancy table in a state
STATE_LEN: Final = OCC + TRACK

# -- rule parameters (an int64 array P) -----------------------------------------------------------
P_DECK: Final = 0
P_AGAIN: Final = 1  # bit c set: the player of card c draws again (Rulebook.again_mask)
P_SORRY4: Final = 2  # 0 no, 1 always, 2 fallback
P_SWAP_BOTH: Final = 3
P_OUT: Final = 4
P_TEAMS: Final = 5
P_SWAP_PARTNER: Final = 6
P_POINTS: Final = 7
P_BONUS_CUM: Final = 8
P_TURN_LIMIT: Final = 9  # 0: none
P_POLICY: Final = 10  # the policy of every colour (P_SEAT_POLICY + c: colour c's, for games)
P_TRACE: Final = 11  # record the trace of game 0 of a batch call
P_SEAT_POLICY: Final = 12  # 12..15: policy of each colour R B Y G
#: 16..31: [4 * mover + c]: the colours (bit t) whose pawns a Sorry! placing a pawn of colour c
#: sends back to START, when ``mover`` plays it (:func:`targets`)
P_SORRY_TARGETS: Final = 16
#: 32..47: [4 * mover + c]: the colours (bit t) a pawn of colour c may swap with on an 11
P_SWAP_TARGETS: Final = 32
P_BACK_FALLBACK: Final = 48  # 1: a card's backward move only when no pawn can go forward
P_LEN: Final = 49
POLICY_RANDOM: Final = 0  # the kernel's first policy (sorry.fast._kernel.POLICY_*)

# -- the medium bot's float parameters E ----------------------------------------------------------
# E[0..13]: the probability of each card face (E[13] Sorry!)
E_SAFE: Final = 14
E_HOME: Final = 15
E_THREAT: Final = 16
E_RESERVE: Final = 17
E_SORRY_SHARE: Final = 18
E_EXIT_BLOCK: Final = 19
E_HAND: Final = 20  # cards an attacker chooses from (1, or 5 for a rollout's leaf in points)
E_HAND_WEIGHT: Final = 21  # points: weight of what the kept cards could do next turn
E_SCALE: Final = 22  # a cut-off rollout's evaluation squashed with this scale (1 / (1 + e^(-v/s)))
E_LEN: Final = 24
#: the card kinds of tuning.BUMP_STEPS (the last axis of hitm)
NKINDS: Final = len(BUMP_STEPS)

# -- the root of a search: a view as an int64 array R ---------------------------------------------
R_VIEWER: Final = 0
R_TURN: Final = 1
R_DRAW: Final = 2  # cards left in the draw pile
R_NDISCARD: Final = 3
R_CARD: Final = 4  # the card drawn (standard), 0
R_SIZES: Final = 5  # 5..8: cards held by each colour
R_HAND: Final = 9  # 9..19: the viewer's hand, counts per card slot
R_UNSEEN: Final = 20  # 20..30: the unseen cards, counts per card slot
R_DISCARD: Final = 31  # 31..31+48: the discard pile, bottom first
R_LEN: Final = 31 + 48


def targets(rules: Rules) -> tuple[list[int], list[int]]:
    """Whom a Sorry! and an 11's swap may target, as the kernel reads it (``P_SORRY_TARGETS``,
    ``P_SWAP_TARGETS``): for each mover and each colour ``c`` it moves (the rulebook's
    ``movers``), the bits of the colours ``t`` whose pawns a pawn of ``c`` may send back to START
    with a Sorry! (any colour but ``c`` in the teams variant, an opponent's otherwise) and may
    swap with on an 11 (an opponent's, or also the partner's with ``team_swap_partner``)."""
    book = rules.book
    sorry = [0] * 16
    swap = [0] * 16
    for mover in board.COLOURS:
        team = book.movers[mover]
        for c in team:
            for t in board.COLOURS:
                if t == c:
                    continue
                if book.teams or t not in team:
                    sorry[4 * mover + c] |= 1 << t
                if rules.team_swap_partner or t not in team:
                    swap[4 * mover + c] |= 1 << t
    return sorry, swap


def rule_params(
    rules: Rules, policy: int = POLICY_RANDOM, seat_policies: Sequence[int] | None = None
) -> tuple[Array, Array]:
    """The rule parameters array ``P`` (with the policy of each colour R B Y G) and the slide
    table of a rule set."""
    rules.check_supported(UNSUPPORTED, "sorry.fast")
    P = np.zeros(P_LEN, dtype=np.int64)
    P[P_DECK] = rules.deck
    P[P_AGAIN] = rules.book.again_mask
    P[P_SORRY4] = OPTION_VALUES["sorry_forward_4"].index(rules.sorry_forward_4)
    P[P_SWAP_BOTH] = int(rules.swap_slides == "both")
    P[P_OUT] = int(rules.starting_pawns_out)
    P[P_TEAMS] = int(rules.teams)
    P[P_SWAP_PARTNER] = int(rules.team_swap_partner)
    P[P_POINTS] = int(rules.points)
    P[P_BONUS_CUM] = int(rules.points_bonus == "cumulative")
    P[P_TURN_LIMIT] = rules.turn_limit or 0
    P[P_BACK_FALLBACK] = int(rules.book.backward_fallback)
    P[P_POLICY] = policy
    for c in range(4):
        P[P_SEAT_POLICY + c] = policy if seat_policies is None else seat_policies[c]
    sorry, swap = targets(rules)
    P[P_SORRY_TARGETS : P_SORRY_TARGETS + 16] = sorry
    P[P_SWAP_TARGETS : P_SWAP_TARGETS + 16] = swap
    slide = np.array(rules.book.slide, dtype=np.int8)  # the rulebook's slide table
    return P, slide


def state_array(position: Position) -> Array:
    """The state ``S`` of a position's pawns."""
    S = np.full(STATE_LEN, -1, dtype=np.int8)
    S[:OCC] = START
    for c, locs in enumerate(position.pawns):
        if locs is None:
            continue
        for i, loc in enumerate(locs):
            S[4 * c + i] = loc
            if loc < TRACK:
                S[OCC + loc] = 4 * c + i
    return S


def eval_params(
    probs: dict[int, float],
    weights: Weights = DEFAULT_WEIGHTS,
    hand: int = 1,
    hand_weight: float = 0.3,
    scale: float = 40.0,
) -> Array:
    """The array ``E`` for card probabilities ``probs`` (by face) and ``weights``."""
    E = np.zeros(E_LEN, dtype=np.float64)
    for card, p in probs.items():
        E[card] = p
    E[E_SAFE] = weights.safe_bonus
    E[E_HOME] = weights.home_bonus
    E[E_THREAT] = weights.threat
    E[E_RESERVE] = weights.start_reserve
    E[E_SORRY_SHARE] = weights.sorry_share
    E[E_EXIT_BLOCK] = weights.exit_block
    E[E_HAND] = hand
    E[E_HAND_WEIGHT] = hand_weight
    E[E_SCALE] = scale
    return E


def hit_masks(slide_on: str) -> Array:
    """``hitm`` for a slide rule: evaluate.hit_table as bit masks of track squares."""
    table = hit_table(slide_on)
    out = np.zeros((4, TRACK, NKINDS), dtype=np.int64)
    for c in range(4):
        for sq in range(TRACK):
            for k in range(NKINDS):
                m = 0
                for q in table[c][sq][k]:
                    m |= 1 << q
                out[c, sq, k] = m
    return out


@functools.lru_cache(maxsize=32)
def rule_arrays(
    rules: Rules, weights: Weights = DEFAULT_WEIGHTS
) -> tuple[Array, Array, Array, Array]:
    """P, slide, hitm and the medium bot's E (full-deck probabilities) of a rule set."""
    P, slide = rule_params(rules)
    hitm = hit_masks(rules.slide_on)
    E = eval_params(
        deck_probabilities(rules), weights, hand=weights.points_hand if rules.points else 1
    )
    for a in (P, slide, hitm, E):
        a.setflags(write=False)
    return P, slide, hitm, E


#: The compiled ``evaluate_worlds(R, S0, slide, P, cols, cands, worlds, depth, hitm, E, E_leaf,
#: out)`` (:mod:`sorry.fast._search`, just in time or ahead of time).
EvaluateWorlds = Callable[..., None]


class ViewArrays:
    """The arrays of one view (the viewer to move): the root of a search, scored by a
    compiled ``evaluate_worlds`` (``None``: the arrays only)."""

    engine = "compiled"

    def __init__(
        self,
        view: PlayerView,
        weights: Weights = DEFAULT_WEIGHTS,
        scale: float = 40.0,
        evaluate_worlds: EvaluateWorlds | None = None,
    ) -> None:
        if not view.my_turn:
            raise GameStateError("a search needs the view of the player to move")
        rules = view.rules
        self.view = view
        self.evaluate_worlds = evaluate_worlds
        self.P, self.slide, self.hitm, self.E = rule_arrays(rules, weights)
        probs = view.next_card_probabilities() or deck_probabilities(rules)
        self.E_leaf = eval_params(probs, weights, hand=5 if rules.points else 1, scale=scale)
        self.cols = np.array(view.colours, dtype=np.int64)
        self.S0 = state_array(view.position())
        R = np.zeros(R_LEN, dtype=np.int64)
        R[R_VIEWER] = view.viewer
        R[R_TURN] = view.turn
        R[R_DRAW] = view.draw_count
        R[R_CARD] = view.card or 0
        for c in range(4):
            R[R_SIZES + c] = view.hand_sizes[c]
        for card in view.hand:
            R[R_HAND + CARD_INDEX[card]] += 1
        unseen = view.unseen_counts()
        for card, n in unseen.items():
            R[R_UNSEEN + CARD_INDEX[card]] = n
        hidden = sum(view.hand_sizes[c] for c in view.colours if c != view.viewer)
        if sum(unseen.values()) != hidden + view.draw_count:
            raise GameStateError("inconsistent view: the unseen cards do not fill the hidden ones")
        pile = view.discard_pile
        R[R_NDISCARD] = len(pile)
        for k, card in enumerate(pile):
            R[R_DISCARD + k] = card
        self.R = R

    def scores(self, cands: Sequence[int], worlds: Sequence[int] | Array, depth: int) -> Array:
        """[worlds, candidates]: the score of each root move (an index of view.legal_moves)
        in each world (a seed): 1 won, 0 lost, else the leaf evaluation squashed."""
        if self.evaluate_worlds is None:
            raise TypeError("these arrays have no compiled evaluate_worlds")
        w = np.asarray(worlds, dtype=np.uint64)
        c = np.asarray(cands, dtype=np.int64)
        out = np.empty((w.shape[0], c.shape[0]), dtype=np.float64)
        self.evaluate_worlds(
            self.R,
            self.S0,
            self.slide,
            self.P,
            self.cols,
            c,
            w,
            depth,
            self.hitm,
            self.E,
            self.E_leaf,
            out,
        )
        return out


__all__ = [
    "E_LEN",
    "OCC",
    "P_BACK_FALLBACK",
    "P_LEN",
    "R_LEN",
    "STATE_LEN",
    "UNSUPPORTED",
    "EvaluateWorlds",
    "ViewArrays",
    "eval_params",
    "hit_masks",
    "rule_arrays",
    "rule_params",
    "state_array",
    "targets",
]
