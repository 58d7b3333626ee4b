"""The pawns on the board: locations, square occupancy, and moving pawns with undo.

:class:`PawnState` is the mutable core that move generation and the game share. It applies
moves (bumps and slides included: docs/rules.md, Landing, bumping, slides) and records every
pawn it changes, so a move can be taken back exactly by :meth:`PawnState.undo`.
"""

from __future__ import annotations

from .board import (
    BACKWARD as BWD,
    FORWARD as FWD,
    HOME,
    START,
    START_EXIT,
    TRACK_LEN,
    backward_path,
    forward_path,
)
from .effects import Effect, EffectKind
from .moves import BACKWARD, ENTER, FORWARD, SORRY, SPLIT, SWAP, Move
from .position import Pawns, sorted_locs
from .rules import Rules

#: One undo record: (colour, pawn index, location before the change).
Change = tuple[int, int, int]

#: PAWN_WEIGHT[colour][location] = 5 ** (67 * colour + location). The sum over all pawns is an
#: exact integer key of a position (a base-5 number whose digits count the pawns of each colour
#: on each location; at most 4 pawns share one, and 4 < 5), cheap to update move by move.
PAWN_WEIGHT: tuple[tuple[int, ...], ...] = tuple(
    tuple(int(5 ** (67 * c + loc)) for loc in range(67)) for c in range(4)
)


#: The rules of a state made without any.
_STANDARD = Rules()


class PawnState:
    """Pawn locations per colour (``[]`` for a colour not in play) and track occupancy.

    ``occ[square]`` is ``-1`` or the code ``colour * 4 + index`` of the pawn on it.
    """

    __slots__ = ("occ", "pawns", "slide", "swap_both")

    def __init__(self, pawns: Pawns, rules: Rules | None = None) -> None:
        """The pawns ``pawns`` under ``rules`` (default: the standard rules): its rulebook's
        slide table and swap rule, the rules passed whole."""
        self.pawns: list[list[int]] = [list(p) if p is not None else [] for p in pawns]
        self.occ: list[int] = [-1] * TRACK_LEN
        for c, locs in enumerate(self.pawns):
            for i, loc in enumerate(locs):
                if loc < TRACK_LEN:
                    self.occ[loc] = c * 4 + i
        book = (rules or _STANDARD).book
        self.slide = book.slide
        self.swap_both = book.swap_both

    @classmethod
    def of(cls, pawns: Pawns, rules: Rules) -> PawnState:
        """``PawnState(pawns, rules)``."""
        return cls(pawns, rules)

    def copy(self) -> PawnState:
        new = PawnState.__new__(PawnState)
        new.pawns = [p[:] for p in self.pawns]
        new.occ = self.occ[:]
        new.slide = self.slide
        new.swap_both = self.swap_both
        return new

    # -- queries ------------------------------------------------------------------------------
    def key(self) -> tuple[int, ...]:
        """A hashable value equal for equal positions (pawns of a colour are interchangeable).

        Only comparable between states of one game (colours not playing have no pawns)."""
        p0, p1, p2, p3 = self.pawns
        return tuple(sorted(p0) + sorted(p1) + sorted(p2) + sorted(p3))

    def effects(self, move: Move) -> list[Effect]:
        """What ``move`` (known to be legal) would do, in order (see :mod:`sorry.effects`);
        the state is not changed. The events are recorded by :meth:`apply` itself, through
        the hooks of :class:`_Recorder`, not worked out from the positions before and after."""
        rec = _Recorder.__new__(_Recorder)
        rec.pawns = [p[:] for p in self.pawns]
        rec.occ = self.occ[:]
        rec.slide = self.slide
        rec.swap_both = self.swap_both
        rec.log = []
        rec.part = 0
        rec.apply(move, [])
        return rec.log

    def code(self) -> int:
        """The exact integer key of the position (see :data:`PAWN_WEIGHT`)."""
        total = 0
        for c, locs in enumerate(self.pawns):
            weights = PAWN_WEIGHT[c]
            for loc in locs:
                total += weights[loc]
        return total

    def code_delta(self, changes: list[Change]) -> int:
        """How much :meth:`code` changed through ``changes`` (the state after them)."""
        if len(changes) == 1:
            c, i, old = changes[0]
            return PAWN_WEIGHT[c][self.pawns[c][i]] - PAWN_WEIGHT[c][old]
        first: dict[tuple[int, int], int] = {}
        for c, i, old in changes:
            first.setdefault((c, i), old)
        return sum(
            PAWN_WEIGHT[c][self.pawns[c][i]] - PAWN_WEIGHT[c][old] for (c, i), old in first.items()
        )

    def sorted_pawns(self) -> Pawns:
        return tuple(sorted_locs(p) if p else None for p in self.pawns)

    def can_land(self, colour: int, dest: int) -> bool:
        """Whether a ``colour`` pawn may end a move on ``dest`` (never on its own colour)."""
        if dest < TRACK_LEN:
            o = self.occ[dest]
            return o < 0 or (o >> 2) != colour
        return dest == HOME or dest not in self.pawns[colour]

    def all_home(self, colour: int) -> bool:
        p = self.pawns[colour]
        return bool(p) and p.count(HOME) == len(p)

    # -- changes ------------------------------------------------------------------------------
    def _bump(self, code: int, changes: list[Change]) -> None:
        c = code >> 2
        i = code & 3
        loc = self.pawns[c][i]
        changes.append((c, i, loc))
        self.pawns[c][i] = START
        self.occ[loc] = -1

    def place(self, c: int, i: int, dest: int, changes: list[Change]) -> None:
        """Move pawn ``i`` of colour ``c`` to ``dest``: bump what is there, then slide."""
        occ = self.occ
        pawns_c = self.pawns[c]
        old = pawns_c[i]
        if dest < TRACK_LEN:
            o = occ[dest]
            if o >= 0:
                self._bump(o, changes)
        changes.append((c, i, old))
        if old < TRACK_LEN:
            occ[old] = -1
        pawns_c[i] = dest
        if dest < TRACK_LEN:
            code = c * 4 + i
            occ[dest] = code
            end = self.slide[c][dest]
            if end >= 0:
                self._slide(c, i, dest, end, changes)

    def _slide(self, c: int, i: int, dest: int, end: int, changes: list[Change]) -> None:
        occ = self.occ
        for sq in range(dest + 1, end + 1):
            o = occ[sq]
            if o >= 0:
                self._bump(o, changes)
        changes.append((c, i, dest))
        occ[dest] = -1
        self.pawns[c][i] = end
        occ[end] = c * 4 + i

    def swap(self, c: int, i: int, c2: int, j: int, changes: list[Change]) -> None:
        """Exchange two track pawns; the mover (c, i) slides, the other too if ``swap_both``."""
        occ = self.occ
        x = self.pawns[c][i]
        t = self.pawns[c2][j]
        changes.append((c, i, x))
        changes.append((c2, j, t))
        self.pawns[c][i] = t
        self.pawns[c2][j] = x
        occ[t] = c * 4 + i
        occ[x] = c2 * 4 + j
        end = self.slide[c][t]
        if end >= 0:
            self._slide(c, i, t, end, changes)
        if self.swap_both and self.pawns[c2][j] == x:
            end = self.slide[c2][x]
            if end >= 0:
                self._slide(c2, j, x, end, changes)

    def undo(self, changes: list[Change]) -> None:
        pawns = self.pawns
        occ = self.occ
        for c, i, old in reversed(changes):
            code = c * 4 + i
            cur = pawns[c][i]
            if cur < TRACK_LEN and occ[cur] == code:
                occ[cur] = -1
            pawns[c][i] = old
            if old < TRACK_LEN:
                occ[old] = code

    def apply(self, move: Move, changes: list[Change]) -> None:
        """Apply a move already known to be legal (``ValueError`` if its pawns are missing)."""
        kind = move.kind
        if kind == FORWARD:
            c = move.colour
            i = self.pawns[c].index(move.src)
            self.place(c, i, FWD[c][move.src][move.steps], changes)
        elif kind == BACKWARD:
            c = move.colour
            i = self.pawns[c].index(move.src)
            self.place(c, i, BWD[c][move.src][move.steps], changes)
        elif kind == ENTER:
            c = move.colour
            self.place(c, self.pawns[c].index(START), START_EXIT[c], changes)
        elif kind == SORRY:
            c = move.colour
            self.place(c, self.pawns[c].index(START), move.target, changes)
        elif kind == SWAP:
            c = move.colour
            c2 = move.target_colour
            self.swap(
                c, self.pawns[c].index(move.src), c2, self.pawns[c2].index(move.target), changes
            )
        elif kind == SPLIT:
            for part in move.parts:
                self.apply(part, changes)


class _Recorder(PawnState):
    """A :class:`PawnState` that logs each event as :meth:`PawnState.apply` makes it: the
    pawn's path when a move (or half of a 7) begins, then every bump and slide from the
    methods that make them. The plain class has no hooks, so the engines pay nothing."""

    __slots__ = ("log", "part")

    log: list[Effect]
    part: int

    def apply(self, move: Move, changes: list[Change]) -> None:
        kind = move.kind
        if kind == SPLIT:
            for k, half in enumerate(move.parts):
                self.part = k
                self.apply(half, changes)
            return
        c = move.colour
        log = self.log
        if kind == FORWARD:
            path = forward_path(c, move.src, move.steps)
            log.append(Effect(EffectKind.FORWARD, c, move.src, path, self.part))
        elif kind == BACKWARD:
            path = backward_path(c, move.src, move.steps)
            log.append(Effect(EffectKind.BACKWARD, c, move.src, path, self.part))
        elif kind == ENTER:
            log.append(Effect(EffectKind.START, c, START, (START_EXIT[c],), self.part))
        elif kind == SORRY:
            log.append(Effect(EffectKind.SORRY, c, START, (move.target,), self.part))
        elif kind == SWAP:
            log.append(Effect(EffectKind.SWAP, c, move.src, (move.target,), self.part))
            t = move.target_colour
            log.append(Effect(EffectKind.SWAP, t, move.target, (move.src,), self.part))
        else:  # pass, discard: nothing moves
            return
        super().apply(move, changes)

    def _bump(self, code: int, changes: list[Change]) -> None:
        c = code >> 2
        loc = self.pawns[c][code & 3]
        self.log.append(Effect(EffectKind.BUMP, c, loc, (START,), self.part))
        super()._bump(code, changes)

    def _slide(self, c: int, i: int, dest: int, end: int, changes: list[Change]) -> None:
        path = tuple(range(dest + 1, end + 1))
        self.log.append(Effect(EffectKind.SLIDE, c, dest, path, self.part))
        super()._slide(c, i, dest, end, changes)
