"""The after-game account: win probabilities at every step, the luck of every draw, the
decisions judged, and per player totals that add up exactly.

**The estimator.** ``V(node)`` is one function of a node, built on rollouts with the
estimator's policy (:mod:`sorry.analysis.estimator`):

* before a draw (a chance node ``C``): ``V(C) = sum over the cards c that can come of
  p(c) * R(C with c drawn)``, where ``p(c)`` is counted from the cards left (the draw pile, or
  the discards about to be reshuffled) and ``R(D)`` is the rollouts' share of wins from the
  position after the reference move at that decision node (the policy's own move with the
  card, chosen by the bot of the policy's level);
* after a draw (a decision node ``D``): ``V(D) = V(the position after the reference move)``,
  the move the policy itself would make with that card (or hand); the average over its equal
  moves where it has several;
* after a move: the chance node that follows (its value as above); at the end, 1 for the
  winners and 0 for the others.

The analysis a player sees values every node with the model of that game's players
(:func:`sorry.analysis.calibration.game_model`): the rollouts' shares with their log-odds
tempered and moved by the players' known strengths, still one exact number per node.

**The account.** For each draw, ``luck = V(after the draw) - V(before the draw)``: the card
against the average over the cards that could have come. For each move, ``decision =
V(after the move) - V(after the draw)``: the move played against the move the reference
player would have made (0 when they are the same). Both are vectors (one entry per colour),
so a player's account counts every draw and every move, the others' included, and it
telescopes: ``result - first estimate = sum of luck + sum of decisions``, exactly (the values
are fractions).

**The uncertainty.** Every value comes with the variance of its estimate (from the rollouts'
own spread, :class:`~sorry.analysis.estimator.Sample`): the moves of one decision are valued
in the same worlds, so the variance of their difference (the decision's term) is measured
row by row; values of different decisions use other worlds and are independent. Each total
is shown with its 95% interval.

**The budget.** Rollouts go where they matter: the moves the account needs (the move played
and the policy's equal moves) get ``rollouts`` per card, a move only judged a share of them
(:data:`LIGHT_SHARE`); when the account's term is not exactly 0, its values are measured
again in worlds of their own, with :data:`ACCOUNT_FACTOR` - 1 times the rollouts
(:data:`TIE_FACTOR` - 1 when the move played is one of the equal moves), and pooled with the
first measure. The worlds pair the moves of a decision, but two rollouts of one world after
different moves soon play different games (their results correlate by about 0.2): a term's
variance comes down with its rollouts, and these terms are all of a player's own noise.

**The reference value.** Where the policy finds several moves equally good (it draws among
them at random), ``V(D)`` is their average: the policy's expected value. A choice among them
is the player's own decision (which of two pawns to move five steps: the same progress, not
the same safety), and the policy's own tie-breaks average nothing; none of them is an error.

**The judgement.** Each decision is also judged against the best move: the equity lost is
the best move's win probability minus the chosen one's, for the mover's side, labelled
inaccuracy, mistake or blunder at :data:`THRESHOLDS` only when it also exceeds
:data:`LABEL_Z` standard errors of its own estimate (measured again in other worlds: the
first measure picked the best move, so it overstates its lead). Equal moves lose nothing.
In the standard and team games the moves are valued by ``V`` itself. In the points variant
the account is kept from the after-game view (every hand revealed, the order of the draw
pile still unknown) and each decision is judged from what the decider could know: its own
hand, the discards and the card counts, the other hands and the draw pile dealt at random in
``worlds`` determinised worlds consistent with that (``Game.from_view``).

The opening deal of the points variant is one step of the account ("the deal"): the value at
the start is ``R`` of the start itself, from which every deal is equally likely.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Final

from ..board import COLOUR_LETTERS, colour_names
from ..cards import Card, card_name, parse_card
from ..errors import SorryError
from ..game import Game
from ..i18n import N_, _
from ..moves import Move
from ..record import GameRecord, verify
from ..rng import derive_seed
from .calibration import game_model
from .estimator import (
    Estimator,
    Sample,
    Values,
    reference_level,
    reference_moves,
    result_values,
    sample_values,
)

#: Equity lost (win probability, 0-1) from which a decision is an inaccuracy, a mistake, a
#: blunder.
THRESHOLDS: Final = (("blunder", 0.12), ("mistake", 0.06), ("inaccuracy", 0.03))
LABELS: Final = {
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}

#: A decision whose first measure puts the best move this far (or more) above the one played
#: is measured again with REFINE_FACTOR times the rollouts before it is labelled.
REFINE_FROM: Final = 0.02
REFINE_FACTOR: Final = 4
#: A move only judged (neither the one played nor one of the policy's equal moves) gets the
#: rollouts per card over this: it is not in the account, and it is measured again before it
#: is called better than the move played (:data:`REFINE_FROM`).
LIGHT_SHARE: Final = 2
#: A loss is labelled only when it exceeds this many standard errors of its estimate.
LABEL_Z: Final = 1.96
#: The two values of a decision's term (the move played and the reference move, when they
#: differ) are measured with this many times the rollouts per card in all: the first measure
#: (every legal move's) pooled with ACCOUNT_FACTOR - 1 times the rollouts in other worlds.
ACCOUNT_FACTOR: Final = 32
#: The same for a move played among the policy's equal moves (the term is against their
#: average: half the difference of two of them, a quarter of its variance).
TIE_FACTOR: Final = 12
#: The z of the intervals shown (95%).
Z95: Final = 1.959964

#: Rollouts per card that could come, for each value before a draw (so up to 11 times this
#: per value), by engine.
DEFAULT_ROLLOUTS: Final = {"compiled": 64, "python": 4}
#: A chance node with fewer kinds of card left than this gets more rollouts per card (at
#: least MIN_CARDS times the rollouts per card in all): near the end of the draw pile one or
#: two cards may be all that can come.
MIN_CARDS: Final = 6
#: Points variant: determinised worlds per decision judged from the decider's view.
DEFAULT_WORLDS: Final = 11


def analysis_sizes(est: Estimator, rollouts: int | None, worlds: int | None) -> tuple[int, int]:
    """The rollouts per card and the worlds an analysis with ``est`` uses: those asked for,
    else the engine's default (:data:`DEFAULT_ROLLOUTS`) and :data:`DEFAULT_WORLDS`."""
    return rollouts or DEFAULT_ROLLOUTS.get(est.engine, 16), worlds or DEFAULT_WORLDS


ZERO: Final = Fraction(0)
ZEROS: Final[Values] = (ZERO, ZERO, ZERO, ZERO)

#: Variances per colour R B Y G (floats, fractions of 1 squared).
Variances = tuple[float, float, float, float]
NOVAR: Final[Variances] = (0.0, 0.0, 0.0, 0.0)


def _vadd(a: Variances, b: Variances) -> Variances:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


class AnalysisError(SorryError):
    """A game or record that cannot be analysed (not valid, not finished)."""


def _sub(a: Values, b: Values) -> Values:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def _add(a: Values, b: Values) -> Values:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def label_of(equity_lost: float) -> str | None:
    """``blunder``, ``mistake``, ``inaccuracy`` or None for an equity loss (0-1)."""
    for name, limit in THRESHOLDS:
        if equity_lost >= limit - 1e-12:
            return name
    return None


@dataclass(frozen=True, slots=True)
class Point:
    """One point of the graph: the values after ``step`` steps of the record (0 = the start).
    ``kind``: ``start``, ``draw`` (after a draw or the deal: a decision is due), ``move``
    (after a move: a card is due, or the game is over)."""

    step: int
    turn: int
    kind: str
    values: Values


@dataclass(frozen=True, slots=True)
class Draw:
    """A card drawn (or, with ``card`` None, the opening deal of the points variant)."""

    step: int  # the record step of the card (the last one of the deal)
    turn: int  # moves made before it
    colour: int | None  # who got the card (None: the deal, to everyone)
    card: Card | None
    before: Values
    after: Values
    #: Each card that could have come: its probability and the value of the node with it.
    outcomes: tuple[tuple[Card, Fraction, Values], ...] = ()
    #: The variance of the luck's estimate, per colour (the two values are independent).
    var: Variances = NOVAR
    #: The value after the move that followed the draw (the move actually played; None for
    #: the points variant's deal): what the card and that move did together.
    then: Values | None = None

    @property
    def luck(self) -> Values:
        return _sub(self.after, self.before)

    def se(self, colour: int) -> float:
        """The standard error of the luck for ``colour``."""
        return math.sqrt(self.var[colour])

    @property
    def with_move(self) -> Values | None:
        """What the card and the move played with it did together: the value after that move
        against the value before the draw (the luck plus the move's own term)."""
        return None if self.then is None else _sub(self.then, self.before)


@dataclass(frozen=True, slots=True)
class Option:
    """One legal move of a decision with its judged win probability for each colour."""

    move: Move
    value: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Decision:
    """A move: the account's term, and the judgement against the best move."""

    step: int  # the record step of the move
    turn: int
    colour: int
    card: Card | None  # the card played (standard: drawn; points: from the hand)
    move: Move
    reference: Move  # the policy's move (the account's baseline)
    best: Move  # the best move as judged
    before: Values  # V after the draw: the reference move's value
    after: Values  # V after the move
    options: tuple[Option, ...]
    side: tuple[int, ...]  # the mover's side (both partners in teams)
    from_view: bool  # judged from the decider's view (points), else from V
    #: The move played and the best one measured again, with more rollouts in other worlds,
    #: when the first measure put them :data:`REFINE_FROM` or more apart (the mover's side).
    measured: tuple[float, float] | None = None
    #: The variance of the term's estimate per colour (0 when the move is the reference).
    term_var: Variances = NOVAR
    #: The variance of the second measure's difference (best minus played).
    measured_var: float | None = None
    #: The move played is one the policy finds as good as its own (one of its ties).
    free: bool = False
    #: The moves the policy finds equally good here (it draws among them): ``before`` is
    #: their average, so a choice among them is the player's own (1: its one move).
    ties: int = 1

    @property
    def term(self) -> Values:
        return _sub(self.after, self.before)

    def term_se(self, colour: int) -> float:
        """The standard error of the term for ``colour``."""
        return math.sqrt(self.term_var[colour])

    @property
    def loss_se(self) -> float | None:
        """The standard error of the equity lost, when it was measured again."""
        return None if self.measured_var is None else math.sqrt(self.measured_var)

    @property
    def real(self) -> bool:
        """A choice between two or more moves with different results."""
        return len(self.options) > 1

    def judged(self, move: Move) -> float:
        """The judged win probability of ``move`` for the mover's side."""
        for o in self.options:
            if o.move == move:
                return o.value[self.colour]
        raise KeyError(move)

    @property
    def equity_lost(self) -> float:
        """The best move's win probability minus the one played's, for the mover's side:
        from the second measure when there is one (the first picks the best move, so its
        own estimate of the gap is biased upwards); 0 for a move the policy finds as good as
        its own (its tie-breaks cost nothing)."""
        if self.free:
            return 0.0
        if self.measured is not None:
            return max(0.0, self.measured[1] - self.measured[0])
        return max(0.0, self.judged(self.best) - self.judged(self.move))

    @property
    def label(self) -> str | None:
        """The label of a real decision whose loss exceeds a threshold and
        :data:`LABEL_Z` standard errors of its estimate (else None)."""
        if not self.real:
            return None
        lost = self.equity_lost
        se = self.loss_se
        if se is None or lost <= LABEL_Z * se:
            return None
        return label_of(lost)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's totals. ``start + luck + own_decisions + others_decisions == result``
    exactly (fractions); each total with the standard error of its estimate (``*_se``)."""

    colour: int
    side: tuple[int, ...]
    name: str
    start: Fraction
    result: Fraction
    luck: Fraction  # every draw's effect on this player's side
    own_luck: Fraction  # the draws this player received
    decisions: Fraction  # every move's effect on this player's side (vs the reference)
    own_decisions: Fraction  # this player's own moves
    equity_lost: float  # own moves, judged against the best move
    real_decisions: int
    labels: dict[str, int]
    start_se: float = 0.0
    luck_se: float = 0.0
    own_luck_se: float = 0.0
    decisions_se: float = 0.0
    own_decisions_se: float = 0.0
    others_decisions_se: float = 0.0

    @property
    def others_decisions(self) -> Fraction:
        """What the other players' moves did to this player's side (vs the reference)."""
        return self.decisions - self.own_decisions

    @property
    def accuracy(self) -> float | None:
        """The share of real decisions without an inaccuracy, mistake or blunder."""
        if not self.real_decisions:
            return None
        errors = sum(self.labels.values())
        return (self.real_decisions - errors) / self.real_decisions


@dataclass(frozen=True, slots=True)
class Swing:
    """A step that moved the graph a lot: a draw or a decision, with its largest change."""

    event: Draw | Decision
    colour: int  # the colour whose value changed most (the actor's side first on ties)
    delta: Fraction


@dataclass(frozen=True)
class Analysis:
    """Everything :func:`analyse` finds; see the module doc for the method."""

    record: GameRecord
    estimator: str  # the policy and the engine, e.g. "easy/compiled"
    policy: str
    engine: str
    rollouts: int
    worlds: int | None  # points: worlds per decision judged from the decider's view
    points: tuple[Point, ...]
    draws: tuple[Draw, ...]
    decisions: tuple[Decision, ...]
    players: tuple[PlayerSummary, ...] = field(default=())
    #: the calibration the values went through (sorry.analysis.calibration.game_model): the
    #: log-odds' multiplier and each colour's strength (1 and none: the rollouts' values as
    #: they are)
    temper: float = 1.0
    strengths: tuple[float, ...] = ()
    #: the bot level whose move each decision is judged against ('' : the policy's)
    reference: str = ""

    @property
    def baseline(self) -> str:
        """The bot level whose move each decision is judged against."""
        return self.reference or self.policy

    @property
    def rules(self) -> Any:
        return self.record.rules

    @property
    def colours(self) -> tuple[int, ...]:
        return self.record.colours

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The sides in seat order: each colour, or the two teams (R+Y, B+G)."""
        return self.record.rules.book.sides(self.colours)

    @property
    def hidden_information(self) -> bool:
        return bool(self.record.rules.points)

    def swings(self, n: int = 3) -> list[Swing]:
        """The ``n`` steps with the largest change of any side's win probability, largest
        first (a forced move changes nothing and is never one)."""
        out: list[Swing] = []
        events: list[Draw | Decision] = [*self.draws, *self.decisions]
        for ev in events:
            delta = ev.luck if isinstance(ev, Draw) else ev.term
            mine = next((s for s in self.sides if ev.colour in s), None)
            side = max(self.sides, key=lambda s: (abs(delta[s[0]]), s == mine))
            c = ev.colour if side == mine and ev.colour is not None else side[0]
            out.append(Swing(ev, c, delta[c]))
        out.sort(key=lambda s: (-abs(s.delta), s.event.step))
        return out[:n]

    def key_decisions(self, n: int = 10) -> list[Decision]:
        """The ``n`` decisions whose own effect (the move played against the reference move,
        for the mover's side) was largest, good or bad, largest first; a move the policy
        would have made itself has none."""
        moved = [d for d in self.decisions if d.term[d.colour] != 0]
        moved.sort(key=lambda d: (-abs(d.term[d.colour]), d.step))
        return moved[:n]

    def key_draws(self, n: int = 5) -> tuple[list[Draw], list[Draw]]:
        """The ``n`` luckiest and the ``n`` unluckiest draws of the game (each for the side
        that got the card: its luck), each list most extreme first. The points variant's
        deal is not a draw of one player."""
        own = [d for d in self.draws if d.colour is not None]
        lucky = sorted(
            (d for d in own if d.luck[_c(d)] > 0), key=lambda d: (-d.luck[_c(d)], d.step)
        )
        unlucky = sorted(
            (d for d in own if d.luck[_c(d)] < 0), key=lambda d: (d.luck[_c(d)], d.step)
        )
        return lucky[:n], unlucky[:n]

    def luckiest(self, colour: int) -> Draw | None:
        """The draw ``colour`` received that helped its side most (None if no draw)."""
        own = [d for d in self.draws if d.colour == colour]
        return max(own, key=lambda d: d.luck[colour], default=None)

    def unluckiest(self, colour: int) -> Draw | None:
        own = [d for d in self.draws if d.colour == colour]
        return min(own, key=lambda d: d.luck[colour], default=None)


def _c(d: Draw) -> int:
    assert d.colour is not None
    return d.colour


ProgressFn = Callable[[int, int], None]


def analyse(
    source: GameRecord | Game,
    estimator: Estimator | None = None,
    rollouts: int | None = None,
    worlds: int | None = None,
    seed: int = 0,
    progress: ProgressFn | None = None,
) -> Analysis:
    """Analyse a finished game (a record, checked by :func:`sorry.record.verify` first, or a
    :class:`Game` begun from a seed). ``rollouts`` per card that could come (default by
    engine, :data:`DEFAULT_ROLLOUTS`), ``worlds`` per decision judged from the decider's view
    (points), ``progress(done, total)`` after each move. Deterministic for a seed. The
    estimator defaults to the model of the game's players
    (:func:`~sorry.analysis.calibration.game_model`)."""
    record = checked(source)
    est = estimator or game_model(record)
    n, w = analysis_sizes(est, rollouts, worlds)
    if n < 1:
        raise AnalysisError(_("rollouts must be at least 1"))
    if w < 1:
        raise AnalysisError(_("worlds must be at least 1"))
    start = start_value(record, est, n, seed)
    total = decision_count(record)

    def step(index: int) -> None:
        if progress is not None:
            progress(index + 1, total)

    valued = value_decisions(record, est, n, w, seed, progress=step)
    return assembled(record, est, n, w, start, valued)


def assembled(
    record: GameRecord,
    est: Estimator,
    rollouts: int,
    worlds: int,
    start: StartValue,
    valued: Sequence[NodeValues],
) -> Analysis:
    """The :class:`Analysis` of a game whose start and decisions ``est`` valued (the account
    assembled, its model's calibration kept for the report)."""
    points, draws, decisions = assemble(record, start, valued)
    return finish(
        record,
        est.policy,
        est.engine,
        rollouts,
        worlds,
        points,
        draws,
        decisions,
        start[2],
        temper=float(getattr(est, "temper", 1.0)),
        strengths=tuple(getattr(est, "strengths", ())),
        reference=reference_level(est),
    )


def finish(
    record: GameRecord,
    policy: str,
    engine: str,
    rollouts: int,
    worlds: int,
    points: Sequence[Point],
    draws: Sequence[Draw],
    decisions: Sequence[Decision],
    start_var: Variances = NOVAR,
    *,
    temper: float = 1.0,
    strengths: Sequence[float] = (),
    reference: str = "",
) -> Analysis:
    """The :class:`Analysis` of assembled values, with the per-player totals (``start_var``:
    the variance of the value at the start, as :func:`start_value` gives it; ``temper`` and
    ``strengths``: the model's calibration, said in the report; ``reference``: the bot whose
    moves the decisions are judged against, when it is not the policy's)."""
    est_name = f"{policy}/{engine}"
    analysis = Analysis(
        record=record,
        estimator=est_name,
        policy=policy,
        engine=engine,
        rollouts=rollouts,
        worlds=worlds if record.rules.points else None,
        points=tuple(points),
        draws=tuple(draws),
        decisions=tuple(decisions),
        temper=temper,
        strengths=tuple(float(x) for x in strengths),
        reference=reference if reference != policy else "",
    )
    return _with_players(analysis, start_var)


def checked(source: GameRecord | Game) -> GameRecord:
    """The record of a finished game (a record is verified first), or :class:`AnalysisError`
    saying in one line why it cannot be analysed."""
    if isinstance(source, Game):
        if not source.is_over():
            raise AnalysisError(_("the game is not over: there is nothing to analyse yet"))
        source = GameRecord.from_game(source)
    else:
        result = verify(source)
        if not result.ok:
            raise AnalysisError(_("the record does not verify: {problem}").format(problem=result))
    if source.result.resigned:  # its values would end at the resignation, not at HOME
        raise AnalysisError(
            _("{names} resigned: only a game played to the end can be analysed").format(
                names=colour_names(COLOUR_LETTERS.index(c) for c in source.result.resigned)
            )
        )
    status = source.result.status
    if status != "won":
        raise AnalysisError(
            _("the game is not finished ({result}): only a won game can be analysed").format(
                result=source.result.describe()
            )
        )
    return source


#: A chance node's value and its outcomes: each card that can come, its probability, and
#: the value of the node with it.
Outcomes = tuple[tuple[Card, Fraction, Values], ...]


@dataclass(frozen=True, slots=True)
class ChanceValue:
    """``V`` of a chance node: the value, each card that can come with its probability and
    the value with it, and each card's :class:`Sample` with the call it came from (the
    samples of one call share their worlds)."""

    value: Values
    outcomes: Outcomes
    parts: tuple[tuple[Card, Fraction, Sample, tuple[Any, ...]], ...] = ()

    def variance(self, colour: int) -> float:
        """The variance of the value's estimate for ``colour``."""
        return sum(float(p) ** 2 * smp.variance(colour) for _c, p, smp, _k in self.parts)

    def variances(self) -> Variances:
        return (self.variance(0), self.variance(1), self.variance(2), self.variance(3))

    def diff_variance(self, other: ChanceValue, colour: int) -> float:
        """The variance of ``self.value - other.value`` for ``colour``: part by part, paired
        row by row where both parts' samples come from one call (the same worlds: the same
        key, which names the card)."""
        mine = {k: (p, smp) for _c, p, smp, k in self.parts}
        theirs = {k: (p, smp) for _c, p, smp, k in other.parts}
        total = 0.0
        # in the parts' order, not a set's: a set of keys with text in them is ordered by the
        # process's hash seed, and a sum in another order differs in its last digits
        for key in [*mine, *(k for k in theirs if k not in mine)]:
            a, b = mine.get(key), theirs.get(key)
            if a is not None and b is not None:
                total += a[1].diff_variance(b[1], colour, float(a[0]), float(b[0]))
                continue
            for x in (a, b):
                if x is not None:
                    total += float(x[0]) ** 2 * x[1].variance(colour)
        return total

    def diff_variances(self, other: ChanceValue) -> Variances:
        v = [self.diff_variance(other, c) for c in range(4)]
        return (v[0], v[1], v[2], v[3])


def pooled(first: ChanceValue, second: ChanceValue) -> ChanceValue:
    """One node's two values from independent calls as one: card by card, the mean of all
    their rollouts (each value weighted by its rollouts), with each part kept apart (its key
    tagged by the call) so that two pooled values of the same two calls are still paired
    part by part. A finished node's value is exact: ``first``."""
    if not first.parts or not second.parts:
        return first
    theirs = {c: (smp, k) for c, _p, smp, k in second.parts}
    total = ZEROS
    outcomes = []
    parts: list[tuple[Card, Fraction, Sample, tuple[Any, ...]]] = []
    for card, p, a, ka in first.parts:
        b, kb = theirs[card]
        na, nb = ka[-1], kb[-1]  # the rollouts of each (a key ends with them)
        wa, wb = Fraction(na, na + nb), Fraction(nb, na + nb)
        v = tuple(wa * x + wb * y for x, y in zip(a.mean, b.mean, strict=True))
        value: Values = (v[0], v[1], v[2], v[3])
        outcomes.append((card, p, value))
        parts.append((card, p * wa, a, ("first", *ka)))
        parts.append((card, p * wb, b, ("second", *kb)))
        total = _add(total, (p * v[0], p * v[1], p * v[2], p * v[3]))
    return ChanceValue(total, tuple(outcomes), tuple(parts))


def mean_value(values: Sequence[ChanceValue]) -> ChanceValue:
    """The average of several nodes' values (the moves a policy finds equal: its expected
    value when it draws among them), exact, with each card's samples averaged row by row
    where they come from one call (the same worlds), so that its difference with a value of
    the same call is still paired part by part."""
    if len(values) == 1:
        return values[0]
    k = len(values)
    total = ZEROS
    for v in values:
        total = _add(total, v.value)
    mean: Values = (total[0] / k, total[1] / k, total[2] / k, total[3] / k)
    shapes = {tuple((c, p, key) for c, p, _s, key in v.parts) for v in values}
    if len(shapes) != 1 or not values[0].parts:
        # not parts of one call (a finished node among them): kept apart, unpaired
        parts = tuple(
            (c, p / k, smp, ("mean", j, *key))
            for j, v in enumerate(values)
            for c, p, smp, key in v.parts
        )
        return ChanceValue(mean, (), parts)
    parts_out = []
    outcomes = []
    for i, (card, p, _smp, key) in enumerate(values[0].parts):
        smps = [v.parts[i][2] for v in values]
        if len({len(x.rows) for x in smps}) != 1:  # pragma: no cover - one call, one count
            raise ValueError("samples of different calls cannot be averaged row by row")
        m = tuple(sum((x.mean[c] for x in smps), ZERO) / k for c in range(4))
        rows = tuple(
            (
                sum(r[0] for r in rs) / k,
                sum(r[1] for r in rs) / k,
                sum(r[2] for r in rs) / k,
                sum(r[3] for r in rs) / k,
            )
            for rs in zip(*(x.rows for x in smps), strict=True)
        )
        parts_out.append((card, p, Sample((m[0], m[1], m[2], m[3]), rows), key))
    for card, p, _v in values[0].outcomes:
        got = [dict((c, v) for c, _p, v in x.outcomes)[card] for x in values]
        s4 = tuple(sum((g[c] for g in got), ZERO) / k for c in range(4))
        outcomes.append((card, p, (s4[0], s4[1], s4[2], s4[3])))
    return ChanceValue(mean, tuple(outcomes), tuple(parts_out))


#: The nodes after a card and the reference move with it, by (``id`` of the chance node,
#: card): one decision values the same nodes several times (every move, then the account's
#: line and the second measure), and finding the reference move is the Python part's work.
Children = dict[tuple[int, Card], Game]


def chance_values(
    estimator: Estimator,
    nodes: Sequence[Game],
    rollouts: int,
    seed: int,
    children: Children | None = None,
) -> list[ChanceValue]:
    """``V`` of each chance node (the result at the end): the average over the cards that can
    come of ``R`` with that card drawn: the rollouts' value after the reference move with it,
    ``rollouts`` per card, or more when few kinds of card are left (at least
    :data:`MIN_CARDS` times ``rollouts`` per node). Each card is played in worlds of its own,
    the same for every node of the call (the moves of one decision are compared in the same
    worlds). ``children`` keeps the nodes after each card and its reference move for the
    next call on the same (living) node objects."""
    batch: list[Game] = []
    cards: list[Card] = []
    counts: list[int] = []
    plan: list[list[tuple[Card, Fraction]] | None] = []
    for node in nodes:
        if node.is_over():
            plan.append(None)
            continue
        fractions = node.chance_fractions()
        plan.append(fractions)
        n = max(rollouts, -(-rollouts * MIN_CARDS // len(fractions)))
        # an estimator whose rollouts play the policy's move themselves starts them with the
        # card in hand (the policy draws among its equal moves world by world: their
        # average); else from the node after the reference move
        own_move = getattr(estimator, "plays_decisions", False) and not node.rules.points
        for card, _p in fractions:
            child = None if children is None else children.get((id(node), card))
            if child is None:
                child = node.copy(stack=False)
                child.draw(card)
                if not own_move:
                    child.push(estimator.reference_move(child))
                if children is not None:
                    children[(id(node), card)] = child
            batch.append(child)
            cards.append(card)
            counts.append(n)
    got: list[Sample | None] = [None] * len(batch)
    # one call of the estimator per card and number of rollouts: the worlds of a card are its
    # own (the cards of a node are valued independently, so their average is as precise as
    # all its rollouts together), and the same for that card after every move compared
    for key in sorted(set(zip(cards, counts, strict=True))):
        todo = [k for k in range(len(batch)) if (cards[k], counts[k]) == key]
        card_seed = derive_seed(seed, 0xCA4D + key[0])
        for k, smp in zip(
            todo, sample_values(estimator, [batch[k] for k in todo], key[1], card_seed), strict=True
        ):
            got[k] = smp
    samples = iter(zip(got, counts, strict=True))
    out: list[ChanceValue] = []
    for node, fr in zip(nodes, plan, strict=True):
        if fr is None:
            out.append(ChanceValue(result_values(node), ()))
            continue
        total = ZEROS
        outcomes = []
        parts = []
        for card, p in fr:
            got_smp, n = next(samples)
            assert got_smp is not None
            v = got_smp.mean
            outcomes.append((card, p, v))
            parts.append((card, p, got_smp, (card, n)))
            total = _add(total, (p * v[0], p * v[1], p * v[2], p * v[3]))
        out.append(ChanceValue(total, tuple(outcomes), tuple(parts)))
    return out


@dataclass(frozen=True, slots=True)
class NodeValues:
    """One decision node valued (what :func:`value_decisions` computes; picklable and small,
    so a server can compute the decisions of a game in pieces, in worker processes)."""

    index: int  # the decision's number in the game (0 = the first move)
    moves: tuple[Move, ...]  # the legal moves, as listed
    chosen: Move  # the move played, as listed
    reference: Move
    judged: tuple[Values, ...]  # each move's value as judged (from the view in points)
    after: Values  # V after the move played
    outcomes: Outcomes  # the next draw's cards, valued
    before: Values  # V after the draw: the reference move's value
    measured: tuple[float, float] | None
    after_var: Variances = NOVAR  # the variances of the estimates of after, before, the term
    before_var: Variances = NOVAR
    term_var: Variances = NOVAR
    measured_var: float | None = None  # of the second measure's difference
    free: bool = False  # the move played is one of the policy's ties
    ties: int = 1  # the policy's equal moves, whose average is the reference value


#: V at the start: its value, the first draw's cards valued (none in the points variant), and
#: the variance of its estimate.
StartValue = tuple[Values, Outcomes, Variances]


def start_value(record: GameRecord, est: Estimator, rollouts: int, seed: int) -> StartValue:
    """V at the start (a chance node) and its cards valued: in the standard game the first
    draw's cards; in the points variant ``R`` of the start itself (every deal equally
    likely), with no outcomes."""
    game = record.start()
    if record.rules.points:
        (smp,) = sample_values(est, [game], rollouts * 11, derive_seed(seed, 1))
        var = (smp.variance(0), smp.variance(1), smp.variance(2), smp.variance(3))
        return smp.mean, (), var
    (start,) = chance_values(est, [game], rollouts, derive_seed(seed, 1))
    return start.value, start.outcomes, start.variances()


def decision_count(record: GameRecord) -> int:
    return sum(1 for s in record.steps if not s.is_draw)


def value_decisions(
    record: GameRecord,
    est: Estimator,
    rollouts: int,
    worlds: int,
    seed: int,
    first: int = 0,
    last: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[NodeValues]:
    """The decisions ``first`` to ``last - 1`` of a (checked) record valued; each depends only
    on its own node and the seed, so any range gives the same values as the whole game.
    ``progress(index)`` after each."""
    out: list[NodeValues] = []
    for index, values in enumerate(
        decision_values(record, est, rollouts, worlds, seed, first, last), first
    ):
        out.append(values)
        if progress is not None:
            progress(index)
    return out


def decision_values(
    record: GameRecord,
    est: Estimator,
    rollouts: int,
    worlds: int,
    seed: int,
    first: int = 0,
    last: int | None = None,
) -> Iterator[NodeValues]:
    """:func:`value_decisions`' values one at a time, each computed when it is asked for (a
    server's worker stops after its piece's time)."""
    end = decision_count(record) if last is None else last
    game = record.start()
    index = 0
    for step in record.steps:
        if index >= end:
            break
        if step.is_draw:
            game.draw(parse_card(_text(step.draw)))
            continue
        chosen = _listed(game, Move.parse(_text(step.move)))
        if index >= first:
            yield _value_node(game, chosen, index, est, rollouts, worlds, seed)
        game.push(chosen)
        index += 1


def _value_node(
    game: Game, chosen: Move, index: int, est: Estimator, n: int, worlds: int, seed: int
) -> NodeValues:
    turn_seed = derive_seed(seed, 1000 + game.turn)
    mover = game.to_move
    moves = game.legal_moves
    equal = set(reference_moves(est, game))
    ties = tuple(m for m in moves if m in equal) or (est.reference_move(game),)
    free = chosen in ties and len(moves) > 1
    reference = chosen if chosen in ties else est.reference_move(game)
    # the term is 0 exactly (the same estimate) only when the policy has one move and it
    # was played; otherwise the move played is measured against the average of the
    # policy's equal moves (its expected value: it draws among them at random)
    exact = ties == (chosen,)

    # each move's node, made once: the calls below find their cards' children in `children`
    nodes: dict[Move, Game] = {}
    children: Children = {}

    def after(m: Move) -> Game:
        g = nodes.get(m)
        if g is None:
            g = nodes[m] = game.copy(stack=False)
            g.push(m)
        return g

    line: list[ChanceValue] = []
    valued: list[ChanceValue] = []
    if game.rules.points:
        judged = est.view_values(game, moves, n, worlds, turn_seed)
    else:
        # the moves the account needs (the one played, the policy's equal moves) with every
        # rollout; the moves only judged (measured again before any of them is called better
        # than the one played) with a share of them
        share = max(1, n // LIGHT_SHARE)
        heavy = [m for m in moves if m == chosen or m in ties]
        rest = [m for m in moves if m not in heavy]
        got: dict[Move, ChanceValue] = {}
        for group, k in ((heavy, n), (rest, share)):
            values = chance_values(est, [after(m) for m in group], k, turn_seed, children)
            got.update(zip(group, values, strict=True))
        valued = [got[m] for m in moves]
        judged = [v.value for v in valued]
        if exact:
            line = [valued[moves.index(chosen)]]
    if not line:
        # the account's line: the move played and the policy's equal moves, in the same
        # worlds (the term is the played one's value less their average), with more
        # rollouts, pooled with their first measure where there is one
        line_moves = [chosen, *(m for m in ties if m != chosen)]
        factor = TIE_FACTOR if chosen in ties else ACCOUNT_FACTOR
        k = 1 if exact else factor - (1 if valued else 0)
        line = chance_values(
            est, [after(m) for m in line_moves], n * k, derive_seed(turn_seed, 0xACC), children
        )
        if valued:
            first = [valued[moves.index(m)] for m in line_moves]
            line = [pooled(a, b) for a, b in zip(first, line, strict=True)]
    played = line[0]
    ref = played if exact else mean_value([line[line_moves.index(m)] for m in ties])
    term_var = NOVAR if exact else played.diff_variances(ref)
    mine = [float(v[mover]) for v in judged]
    at = moves.index(chosen)
    best = chosen if mine[at] == max(mine) else moves[mine.index(max(mine))]
    measured = measured_var = None
    if len(moves) > 1 and not free and max(mine) - mine[at] >= REFINE_FROM:
        measured, measured_var = _measure(
            game, chosen, best, mover, est, n, worlds, turn_seed, after, children
        )
    return NodeValues(
        index=index,
        moves=tuple(moves),
        chosen=chosen,
        reference=reference,
        judged=tuple(judged),
        after=played.value,
        outcomes=played.outcomes,
        before=ref.value,
        measured=measured,
        after_var=played.variances(),
        before_var=ref.variances(),
        term_var=term_var,
        measured_var=measured_var,
        free=free,
        ties=len(ties),
    )


def _measure(
    game: Game,
    chosen: Move,
    best: Move,
    mover: int,
    est: Estimator,
    n: int,
    worlds: int,
    seed: int,
    after: Callable[[Move], Game],
    children: Children,
) -> tuple[tuple[float, float], float]:
    """The move played and the best move valued again for the mover's side, with
    :data:`REFINE_FACTOR` times the rollouts, in worlds of their own, and the variance of
    their difference (``after``: the node after a move; ``children``: as
    :func:`chance_values`)."""
    seed = derive_seed(seed, 0x2EF)
    k = REFINE_FACTOR
    if game.rules.points:
        a, b = determinised_samples(est, game, [chosen, best], n, worlds * k, seed)
        return (float(a.mean[mover]), float(b.mean[mover])), b.diff_variance(a, mover)
    x, y = chance_values(est, [after(chosen), after(best)], n * k, seed, children)
    return (float(x.value[mover]), float(y.value[mover])), y.diff_variance(x, mover)


def determinised_samples(
    est: Estimator, game: Game, moves: Sequence[Move], rollouts: int, worlds: int, seed: int
) -> list[Sample]:
    """Each of ``moves`` valued from the mover's view (as
    :func:`~sorry.analysis.estimator.determinised_values`), one row per world: the worlds
    are dealt by :meth:`Game.from_view`, every move played in each."""
    view = game.view(game.to_move)
    rows: list[list[tuple[float, float, float, float]]] = [[] for _m in moves]
    sums: list[Values] = [ZEROS for _m in moves]
    for w in range(worlds):
        world = Game.from_view(view, derive_seed(seed, 7919 + w))
        nodes = []
        for m in moves:
            g = world.copy(stack=False)
            g.push(m)
            nodes.append(g)
        live = [g for g in nodes if not g.is_over()]
        got = iter(est.values(live, rollouts, derive_seed(seed, 104729 + w)) if live else [])
        for j, g in enumerate(nodes):
            v = result_values(g) if g.is_over() else next(got)
            sums[j] = _add(sums[j], v)
            rows[j].append((float(v[0]), float(v[1]), float(v[2]), float(v[3])))
    return [
        Sample((s[0] / worlds, s[1] / worlds, s[2] / worlds, s[3] / worlds), tuple(r))
        for s, r in zip(sums, rows, strict=True)
    ]


def assemble(
    record: GameRecord,
    start: StartValue,
    valued: Sequence[NodeValues],
) -> tuple[list[Point], list[Draw], list[Decision]]:
    """The graph, the draws and the decisions of a record from its values (the start's and
    every decision's, in order): the account's bookkeeping, exact."""
    rec = record
    if [v.index for v in valued] != list(range(decision_count(rec))):
        raise AnalysisError("every decision must be valued, in order")  # pragma: no cover
    game = rec.start()
    steps = rec.steps
    points: list[Point] = []
    draws: list[Draw] = []
    decisions: list[Decision] = []
    current, outcomes, current_var = start
    points.append(Point(0, 0, "start", current))
    i = 0
    pending: tuple[int, int | None, Card | None] | None = None
    if rec.rules.points:  # the opening deal is one step
        while i < len(steps) and steps[i].is_draw:
            game.draw(parse_card(_text(steps[i].draw)))
            i += 1
        pending = (i, None, None)
    nodes = iter(valued)
    while i < len(steps):
        step = steps[i]
        if step.is_draw:  # the standard game's draw (points: a refill, below)
            card = parse_card(_text(step.draw))
            colour = game.deal_to
            game.draw(card)
            i += 1
            pending = (i, colour, card)
            continue
        node = next(nodes)
        mover = game.to_move
        before = node.before
        if pending is not None:  # the draw (or deal) that led here, now that V(D) is known
            p_step, p_colour, p_card = pending
            draws.append(
                Draw(
                    p_step,
                    game.turn,
                    p_colour,
                    p_card,
                    current,
                    before,
                    outcomes,
                    _vadd(current_var, node.before_var),
                    node.after if p_colour is not None else None,
                )
            )
            points.append(Point(p_step, game.turn, "draw", before))
            pending = None
        options = tuple(
            Option(m, (float(v[0]), float(v[1]), float(v[2]), float(v[3])))
            for m, v in zip(node.moves, node.judged, strict=True)
        )
        mine = [o.value[mover] for o in options]
        chosen_at = node.moves.index(node.chosen)
        best = node.chosen if mine[chosen_at] == max(mine) else node.moves[mine.index(max(mine))]
        played = node.chosen.card if rec.rules.points else game.card
        turn = game.turn
        side = tuple(c for c in rec.colours if c in game.team_of(mover))
        game.push(node.chosen)
        i += 1
        decisions.append(
            Decision(
                step=i,
                turn=turn,
                colour=mover,
                card=played,
                move=node.chosen,
                reference=node.reference,
                best=best,
                before=before,
                after=node.after,
                options=options,
                side=side,
                from_view=bool(rec.rules.points),
                measured=node.measured,
                term_var=node.term_var,
                measured_var=node.measured_var,
                free=node.free,
                ties=node.ties,
            )
        )
        current = node.after
        current_var = node.after_var
        outcomes = node.outcomes
        points.append(Point(i, game.turn, "move", current))
    if not game.is_over() or current != result_values(game):
        raise AnalysisError("the record's steps do not end the game")  # pragma: no cover
    return points, draws, decisions


def _text(value: str | None) -> str:
    assert value is not None
    return value


def _listed(game: Game, move: Move) -> Move:
    """The listed legal move that ``move`` (as recorded) is: the record may give a split's
    halves in another order, or a points move without its card."""
    trial = game.copy(stack=False)
    trial.push(move)
    played = trial.history[-1]
    assert isinstance(played, Move)
    return played


def _with_players(a: Analysis, start_var: Variances = NOVAR) -> Analysis:
    rec = a.record
    names = {s.colour: (s.name or s.kind) for s in rec.seats}
    start = a.points[0].values
    end = a.points[-1].values
    players = []
    for c in rec.colours:
        side = tuple(x for x in rec.colours if x in rec.rules.book.movers[c])
        luck = sum((d.luck[c] for d in a.draws), ZERO)
        own_luck = sum((d.luck[c] for d in a.draws if d.colour == c), ZERO)
        dec = sum((d.term[c] for d in a.decisions), ZERO)
        own_dec = sum((d.term[c] for d in a.decisions if d.colour == c), ZERO)
        own_var = sum(d.term_var[c] for d in a.decisions if d.colour == c)
        others_var = sum(d.term_var[c] for d in a.decisions if d.colour != c)
        mine = [d for d in a.decisions if d.colour == c]
        labels = {name: 0 for name, _limit in THRESHOLDS}
        for d in mine:
            if d.label is not None:
                labels[d.label] += 1
        players.append(
            PlayerSummary(
                colour=c,
                side=side,
                name=names.get(c, ""),
                start=start[c],
                result=end[c],
                luck=luck,
                own_luck=own_luck,
                decisions=dec,
                own_decisions=own_dec,
                equity_lost=sum(d.equity_lost for d in mine),
                real_decisions=sum(1 for d in mine if d.real),
                labels=labels,
                start_se=math.sqrt(start_var[c]),
                # the luck is the result less the start and the decisions (it telescopes):
                # its uncertainty is theirs
                luck_se=math.sqrt(start_var[c] + own_var + others_var),
                own_luck_se=math.sqrt(sum(d.var[c] for d in a.draws if d.colour == c)),
                decisions_se=math.sqrt(own_var + others_var),
                own_decisions_se=math.sqrt(own_var),
                others_decisions_se=math.sqrt(others_var),
            )
        )
    return replace(a, players=tuple(players))


def colour_letter(c: int) -> str:
    return COLOUR_LETTERS[c]


def card_text(card: Card | None) -> str | None:
    return None if card is None else card_name(card)


__all__ = [
    "ACCOUNT_FACTOR",
    "DEFAULT_ROLLOUTS",
    "DEFAULT_WORLDS",
    "LABELS",
    "LABEL_Z",
    "THRESHOLDS",
    "TIE_FACTOR",
    "Analysis",
    "AnalysisError",
    "ChanceValue",
    "Decision",
    "Draw",
    "NodeValues",
    "Option",
    "PlayerSummary",
    "Point",
    "StartValue",
    "Swing",
    "analyse",
    "analysis_sizes",
    "assemble",
    "assembled",
    "chance_values",
    "checked",
    "decision_count",
    "decision_values",
    "determinised_samples",
    "finish",
    "label_of",
    "mean_value",
    "pooled",
    "start_value",
    "value_decisions",
]
