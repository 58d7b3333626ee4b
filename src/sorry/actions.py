"""The stable small-integer action encoding (``docs/actions.md``): every decision is an int in
``range(NUM_ACTIONS)``, the same for the engine, the bots, search and the RL adapters.

Pawns are named by *slot*: 0-3 are the mover's own pawns by their index in the colour's sorted
location tuple (the order of the position string; a location held by several pawns -- START or
HOME -- names the first of them), 4-7 the partner's (teams variant).

=============  =========================================================================
actions        meaning
=============  =========================================================================
0-127          pawn move: ``slot*16 + kind``; kind: forward n is ``n-1`` (0-11),
               backward 1 is 12, backward 4 is 13, start with a 1 is 14, with a 2 is 15
128-255        11 swap: ``128 + own slot*16 + target``
256-287        Sorry!: ``256 + placer*16 + target`` (placer 0: own colour, 1: partner)
288-671        split 7: ``288 + (a*8 + b)*6 + (k-1)``: pawn a moves k, then pawn b 7-k
672            pass (decline the 11, or forfeit a turn without a legal move)
673-683        points variant: discard the card ``CARDS[action - 673]``
=============  =========================================================================

A *target* is ``relative colour*4 + slot`` with the relative colour ``(colour - mover) % 4``.
In the points variant an action implies its card (forward 4 is the Sorry! card's
``sorry_forward_4`` option, backward 1 the 10, ...), so the hand need not be named.

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=10)
>>> [(a, str(decode(g, a))) for a in legal_actions(g)]
[(41, 'R4+10'), (44, 'R4-1'), (60, 'Rs2-1')]
>>> encode(g, g.legal_moves[0]), action_name(g, 60)
(41, 'Rs2-1')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from .board import START, loc_sort_key
from .cards import CARD_INDEX, CARDS, SORRY, Card
from .errors import IllegalMoveError, RulesError
from .moves import (
    BACKWARD,
    DISCARD,
    ENTER,
    FORWARD,
    PASS,
    PASS_MOVE,
    SORRY as SORRY_KIND,
    SPLIT,
    SWAP,
    Move,
)
from .rulebook import PARTNER
from .view import PlayerView

if TYPE_CHECKING:
    from .game import Game

PAWN_BASE: Final = 0
SWAP_BASE: Final = 128
SORRY_BASE: Final = 256
SPLIT_BASE: Final = 288
PASS_ACTION: Final = 672
DISCARD_BASE: Final = 673
NUM_ACTIONS: Final = 684

KIND_BACK_1: Final = 12
KIND_BACK_4: Final = 13
KIND_START_1: Final = 14
KIND_START_2: Final = 15

#: The card a per-pawn kind implies (points variant): forward n -> n, except forward 4 -> S.
KIND_CARD: Final[tuple[Card, ...]] = (1, 2, 3, SORRY, 5, 0, 7, 8, 0, 10, 11, 12, 10, 4, 1, 2)


class _Context(NamedTuple):
    mover: int
    teams: bool
    points: bool
    card: Card | None  # the drawn card (standard and teams)
    pawns: Sequence[Sequence[int] | None]  # locations per colour (sorted if ``is_sorted``)
    is_sorted: bool


def _context(source: Game | PlayerView) -> _Context:
    rules = source.rules
    if isinstance(source, PlayerView):
        return _Context(source.to_move, rules.teams, rules.points, source.card, source.pawns, True)
    # A Game: its live lists are unsorted; slots are counted without sorting them.
    pawns = source.state.pawns
    return _Context(source.to_move, rules.teams, rules.points, source.card, pawns, False)


def _rank(locs: Sequence[int], loc: int) -> int:
    """Index of ``loc`` in the sorted tuple of ``locs`` (its first index if repeated)."""
    if loc == START:
        return 0
    return sum(1 for x in locs if x == START or x < loc)


def _sorted(ctx: _Context, colour: int) -> Sequence[int] | None:
    locs = ctx.pawns[colour]
    if locs is None or ctx.is_sorted or not locs:
        return locs or None
    return sorted(locs, key=loc_sort_key)


def _slot(ctx: _Context, colour: int, loc: int) -> int:
    mover = ctx.mover
    if colour == mover:
        base = 0
    elif ctx.teams and colour == PARTNER[mover]:
        base = 4
    else:
        raise IllegalMoveError(f"the pawns of colour {colour} are not the mover's to move")
    locs = ctx.pawns[colour]
    if not locs or loc not in locs:
        raise IllegalMoveError(f"no pawn of colour {colour} on location {loc}")
    return base + _rank(locs, loc)


def _target(ctx: _Context, colour: int, loc: int) -> int:
    locs = ctx.pawns[colour]
    if not locs or loc not in locs:
        raise IllegalMoveError(f"no pawn of colour {colour} on location {loc}")
    return ((colour - ctx.mover) % 4) * 4 + _rank(locs, loc)


def _encode(ctx: _Context, move: Move) -> int:
    kind = move.kind
    if kind == FORWARD:
        if not 1 <= move.steps <= 12:
            raise IllegalMoveError(f"cannot encode {move}: {move.steps} steps forward")
        return _slot(ctx, move.colour, move.src) * 16 + move.steps - 1
    if kind == BACKWARD:
        if move.steps not in (1, 4):
            raise IllegalMoveError(f"cannot encode {move}: only 1 or 4 steps go backward")
        sub = KIND_BACK_1 if move.steps == 1 else KIND_BACK_4
        return _slot(ctx, move.colour, move.src) * 16 + sub
    if kind == ENTER:
        slot = _slot(ctx, move.colour, START)
        card = move.card if ctx.points else ctx.card
        if card not in (1, 2):
            raise IllegalMoveError(f"cannot encode {move}: only a 1 or a 2 starts a pawn")
        return slot * 16 + (KIND_START_1 if card == 1 else KIND_START_2)
    if kind == SWAP:
        own = _slot(ctx, move.colour, move.src)
        return SWAP_BASE + own * 16 + _target(ctx, move.target_colour, move.target)
    if kind == SORRY_KIND:
        placer = _slot(ctx, move.colour, START) >> 2
        return SORRY_BASE + placer * 16 + _target(ctx, move.target_colour, move.target)
    if kind == SPLIT:
        if len(move.parts) != 2:
            raise RulesError(
                f"cannot encode {move}: a 7 split among {len(move.parts)} pawns "
                "(team_seven_split=any) has no action in the fixed action space"
            )
        first, second = move.parts
        a = _slot(ctx, first.colour, first.src)
        b = _slot(ctx, second.colour, second.src)
        k = first.steps
        if a == b or not 1 <= k <= 6 or second.steps != 7 - k:
            raise IllegalMoveError(f"cannot encode {move}: not a split of a 7 between two pawns")
        return SPLIT_BASE + (a * 8 + b) * 6 + k - 1
    if kind == PASS:
        return PASS_ACTION
    if kind == DISCARD:
        if move.card not in CARD_INDEX:
            raise IllegalMoveError(f"cannot encode {move}: no card")
        return DISCARD_BASE + CARD_INDEX[move.card]
    raise IllegalMoveError(f"cannot encode {move}")


def _pawn_loc(ctx: _Context, slot: int) -> tuple[int, int]:
    """(colour, location) of a pawn slot."""
    if slot < 4:
        colour = ctx.mover
    elif ctx.teams:
        colour = PARTNER[ctx.mover]
    else:
        raise IllegalMoveError(f"pawn slot {slot} names a partner's pawn outside the teams variant")
    locs = _sorted(ctx, colour)
    if locs is None or len(locs) <= slot & 3:
        raise IllegalMoveError(f"pawn slot {slot} names no pawn")
    return colour, locs[slot & 3]


def _target_loc(ctx: _Context, target: int) -> tuple[int, int]:
    colour = (ctx.mover + (target >> 2)) % 4
    locs = _sorted(ctx, colour)
    if locs is None:
        raise IllegalMoveError(f"target {target} names a colour not in play")
    return colour, locs[target & 3]


def _decode(ctx: _Context, action: int) -> Move:
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalMoveError(f"action {action} is out of range (0-{NUM_ACTIONS - 1})")
    card: Card | None
    if action < SWAP_BASE:
        colour, loc = _pawn_loc(ctx, action >> 4)
        sub = action & 15
        card = KIND_CARD[sub]
        if sub < 12:
            move = Move(FORWARD, colour, loc, sub + 1)
        elif sub < 14:
            move = Move(BACKWARD, colour, loc, 1 if sub == KIND_BACK_1 else 4)
        else:
            if loc != START:
                raise IllegalMoveError(f"action {action} starts a pawn that is not in START")
            move = Move.enter(colour)
            if not ctx.points and ctx.card != card:
                raise IllegalMoveError(f"action {action} starts a pawn with a {card}")
        if card == 0:
            raise IllegalMoveError(f"action {action}: no card moves a pawn {sub + 1} forward")
    elif action < SORRY_BASE:
        rel = action - SWAP_BASE
        colour, loc = _pawn_loc(ctx, rel >> 4)
        tcolour, tloc = _target_loc(ctx, rel & 15)
        move = Move(SWAP, colour, loc, 0, tcolour, tloc)
        card = 11
    elif action < SPLIT_BASE:
        rel = action - SORRY_BASE
        colour, _loc = _pawn_loc(ctx, (rel >> 4) * 4)
        tcolour, tloc = _target_loc(ctx, rel & 15)
        move = Move(SORRY_KIND, colour, START, 0, tcolour, tloc)
        card = SORRY
    elif action < PASS_ACTION:
        pair, k1 = divmod(action - SPLIT_BASE, 6)
        a, b = divmod(pair, 8)
        if a == b:
            raise IllegalMoveError(f"action {action} splits a 7 with one pawn")
        ca, la = _pawn_loc(ctx, a)
        cb, lb = _pawn_loc(ctx, b)
        move = Move(SPLIT, parts=(Move(FORWARD, ca, la, k1 + 1), Move(FORWARD, cb, lb, 6 - k1)))
        card = 7
    elif action == PASS_ACTION:
        return PASS_MOVE
    else:
        return Move(DISCARD, card=CARDS[action - DISCARD_BASE])
    return move._replace(card=card) if ctx.points else move


def encode(source: Game | PlayerView, move: Move) -> int:
    """The action of ``move`` in the position of ``source`` (a game or a view of the mover).

    Raises :class:`~sorry.errors.IllegalMoveError` if the move names pawns that are not there,
    and :class:`~sorry.errors.RulesError` for a 7 split among more than two pawns."""
    return _encode(_context(source), move)


def decode(source: Game | PlayerView, action: int) -> Move:
    """The move an action stands for in the position of ``source`` (not checked for legality:
    :func:`legal_actions` lists the legal ones). Raises
    :class:`~sorry.errors.IllegalMoveError` if the action names no pawn."""
    return _decode(_context(source), action)


def legal_actions(source: Game | PlayerView) -> list[int]:
    """The actions of the listed legal moves, ascending (empty when no decision is due)."""
    moves = source.legal_moves
    if not moves:
        return []
    ctx = _context(source)
    return sorted(_encode(ctx, m) for m in moves)


def legal_action_moves(source: Game | PlayerView) -> dict[int, Move]:
    """Each legal action with its listed move (ascending actions)."""
    moves = source.legal_moves
    if not moves:
        return {}
    ctx = _context(source)
    return dict(sorted((_encode(ctx, m), m) for m in moves))


def action_mask(source: Game | PlayerView) -> list[bool]:
    """``NUM_ACTIONS`` booleans, true exactly for the actions of the listed legal moves."""
    mask = [False] * NUM_ACTIONS
    for a in legal_actions(source):
        mask[a] = True
    return mask


def action_name(source: Game | PlayerView, action: int) -> str:
    """The notation of the move an action stands for."""
    return str(decode(source, action))


__all__ = [
    "DISCARD_BASE",
    "NUM_ACTIONS",
    "PASS_ACTION",
    "SORRY_BASE",
    "SPLIT_BASE",
    "SWAP_BASE",
    "action_mask",
    "action_name",
    "decode",
    "encode",
    "legal_action_moves",
    "legal_actions",
]
