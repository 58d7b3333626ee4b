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
  the move the policy itself would make with that card (or hand);
* after a move: the chance node that follows (its value as above); at the end, 1 for the
  winners and 0 for the others.

**The account.** For each draw, ``luck = V(after the draw) - V(before the draw)``: the card
against the average over the cards that could have come. For each move, ``decision =
V(after the move) - V(after the draw)``: the move played against the move the reference
player would have made (0 when they are the same). Both are vectors (one entry per colour),
so a player's account counts every draw and every move, the others' included, and it
telescopes: ``result - first estimate = sum of luck + sum of decisions``, exactly (the values
are fractions).

**The judgement.** Each decision is also judged against the best move: the equity lost is
the best move's win probability minus the chosen one's, for the mover's side, labelled
inaccuracy, mistake or blunder at :data:`THRESHOLDS`. In the standard and team games the
moves are valued by ``V`` itself. In the points variant the account is kept from the
after-game view (every hand revealed, the order of the draw pile still unknown) and each
decision is judged from what the decider could know: its own hand, the discards and the
card counts, the other hands and the draw pile dealt at random in ``worlds`` determinised
worlds consistent with that (``Game.from_view``).

The opening deal of the points variant is one step of the account ("the deal"): the value at
the start is ``R`` of the start itself, from which every deal is equally likely.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from ..board import COLOUR_LETTERS
from ..cards import Card, card_name, parse_card
from ..errors import SorryError
from ..game import Game
from ..i18n import N_, _
from ..moves import Move
from ..record import GameRecord, verify
from ..rng import derive_seed
from .estimator import Estimator, Values, default_estimator, result_values

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

#: Rollouts per card that could come, for each value before a draw (so up to 11 times this
#: per value), by engine.
DEFAULT_ROLLOUTS: Final = {"compiled": 64, "python": 4}
#: A chance node with fewer kinds of card left than this gets more rollouts per card (at
#: least MIN_CARDS times the rollouts per card in all): near the end of the draw pile one or
#: two cards may be all that can come.
MIN_CARDS: Final = 6
#: Points variant: determinised worlds per decision judged from the decider's view.
DEFAULT_WORLDS: Final = 11

ZERO: Final = Fraction(0)
ZEROS: Final[Values] = (ZERO, ZERO, ZERO, ZERO)


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

    @property
    def luck(self) -> Values:
        return _sub(self.after, self.before)


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

    @property
    def term(self) -> Values:
        return _sub(self.after, self.before)

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
        own estimate of the gap is biased upwards)."""
        if self.measured is not None:
            return max(0.0, self.measured[1] - self.measured[0])
        return max(0.0, self.judged(self.best) - self.judged(self.move))

    @property
    def label(self) -> str | None:
        return label_of(self.equity_lost) if self.real else None


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's totals. ``start + luck + decisions == result`` exactly (fractions)."""

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

    def luckiest(self, colour: int) -> Draw | None:
        """The draw ``colour`` received that helped its side most (None if no draw)."""
        own = [d for d in self.draws if d.colour == colour]
        return max(own, key=lambda d: d.luck[colour], default=None)

    def unluckiest(self, colour: int) -> Draw | None:
        own = [d for d in self.draws if d.colour == colour]
        return min(own, key=lambda d: d.luck[colour], default=None)


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
    (points), ``progress(done, total)`` after each move. Deterministic for a seed."""
    record = checked(source)
    est = estimator or default_estimator()
    n = rollouts or DEFAULT_ROLLOUTS.get(est.engine, 16)
    if n < 1:
        raise AnalysisError(_("rollouts must be at least 1"))
    w = worlds or DEFAULT_WORLDS
    if w < 1:
        raise AnalysisError(_("worlds must be at least 1"))
    start = start_value(record, est, n, seed)
    total = decision_count(record)

    def step(index: int) -> None:
        if progress is not None:
            progress(index + 1, total)

    valued = value_decisions(record, est, n, w, seed, progress=step)
    points, draws, decisions = assemble(record, start, valued)
    return finish(record, est.policy, est.engine, n, w, points, draws, decisions)


def finish(
    record: GameRecord,
    policy: str,
    engine: str,
    rollouts: int,
    worlds: int,
    points: Sequence[Point],
    draws: Sequence[Draw],
    decisions: Sequence[Decision],
) -> Analysis:
    """The :class:`Analysis` of assembled values, with the per-player totals."""
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
    )
    return _with_players(analysis)


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
ChanceValue = tuple[Values, tuple[tuple[Card, Fraction, Values], ...]]


def chance_values(
    estimator: Estimator, nodes: Sequence[Game], rollouts: int, seed: int
) -> list[ChanceValue]:
    """``V`` of each chance node (the result at the end): the average over the cards that can
    come of ``R`` with that card drawn: the rollouts' value after the reference move with it,
    ``rollouts`` per card, or more when few kinds of card are left (at least
    :data:`MIN_CARDS` times ``rollouts`` per node). Each card is played in worlds of its own,
    the same for every node of the call (the moves of one decision are compared in the same
    worlds)."""
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
        for card, _p in fractions:
            child = node.copy(stack=False)
            child.draw(card)
            child.push(estimator.reference_move(child))
            batch.append(child)
            cards.append(card)
            counts.append(n)
    got: list[Values | None] = [result_values(g) if g.is_over() else None for g in batch]
    # one call of the estimator per card and number of rollouts: the worlds of a card are its
    # own (the cards of a node are valued independently, so their average is as precise as
    # all its rollouts together), and the same for that card after every move compared
    for key in sorted(set(zip(cards, counts, strict=True))):
        todo = [k for k in range(len(batch)) if got[k] is None and (cards[k], counts[k]) == key]
        if todo:
            card_seed = derive_seed(seed, 0xCA4D + key[0])
            vals = estimator.values([batch[k] for k in todo], key[1], card_seed)
            for k, v in zip(todo, vals, strict=True):
                got[k] = v
    values = iter(got)
    out: list[ChanceValue] = []
    for node, fr in zip(nodes, plan, strict=True):
        if fr is None:
            out.append((result_values(node), ()))
            continue
        total = ZEROS
        outcomes = []
        for card, p in fr:
            got_v = next(values)
            assert got_v is not None
            v = got_v
            outcomes.append((card, p, v))
            total = _add(total, (p * v[0], p * v[1], p * v[2], p * v[3]))
        out.append((total, tuple(outcomes)))
    return out


@dataclass(frozen=True, slots=True)
class NodeValues:
    """One decision node valued (what :func:`value_decisions` computes; picklable, so a
    server can compute the decisions of a game in pieces, in worker processes)."""

    index: int  # the decision's number in the game (0 = the first move)
    moves: tuple[Move, ...]  # the legal moves, as listed
    chosen: Move  # the move played, as listed
    reference: Move
    judged: tuple[Values, ...]  # each move's value as judged (from the view in points)
    after: Values  # V after the move played
    outcomes: tuple[tuple[Card, Fraction, Values], ...]  # the next draw's cards, valued
    before: Values  # V after the draw: the reference move's value
    measured: tuple[float, float] | None


def start_value(
    record: GameRecord, est: Estimator, rollouts: int, seed: int
) -> tuple[Values, tuple[tuple[Card, Fraction, Values], ...]]:
    """V at the start (a chance node) and its cards valued: in the standard game the first
    draw's cards; in the points variant ``R`` of the start itself (every deal equally
    likely), with no outcomes."""
    game = record.start()
    if record.rules.points:
        return est.values([game], rollouts * 11, derive_seed(seed, 1))[0], ()
    ((start, outcomes),) = chance_values(est, [game], rollouts, derive_seed(seed, 1))
    return start, outcomes


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
    end = decision_count(record) if last is None else last
    game = record.start()
    out: list[NodeValues] = []
    index = 0
    for step in record.steps:
        if index >= end:
            break
        if step.is_draw:
            game.draw(parse_card(_text(step.draw)))
            continue
        chosen = _listed(game, Move.parse(_text(step.move)))
        if index >= first:
            out.append(_value_node(game, chosen, index, est, rollouts, worlds, seed))
            if progress is not None:
                progress(index)
        game.push(chosen)
        index += 1
    return out


def _value_node(
    game: Game, chosen: Move, index: int, est: Estimator, n: int, worlds: int, seed: int
) -> NodeValues:
    turn_seed = derive_seed(seed, 1000 + game.turn)
    mover = game.to_move
    moves = game.legal_moves
    reference = est.reference_move(game)

    def after(m: Move) -> Game:
        g = game.copy(stack=False)
        g.push(m)
        return g

    if game.rules.points:
        judged = est.view_values(game, moves, n, worlds, turn_seed)
        line_moves = [chosen] if reference == chosen else [chosen, reference]
        valued = chance_values(est, [after(m) for m in line_moves], n, turn_seed ^ 0xA11)
        line = dict(zip(line_moves, valued, strict=True))
        after_chosen, outcomes = line[chosen]
        before = line[reference][0]
    else:
        valued = chance_values(est, [after(m) for m in moves], n, turn_seed)
        judged = [v for v, _o in valued]
        by_move = dict(zip(moves, valued, strict=True))
        after_chosen, outcomes = by_move[chosen]
        before = by_move[reference][0]
    mine = [float(v[mover]) for v in judged]
    played = mine[moves.index(chosen)]
    best = chosen if played == max(mine) else moves[mine.index(max(mine))]
    measured = None
    if len(moves) > 1 and max(mine) - played >= REFINE_FROM:
        measured = _measure(game, chosen, best, mover, est, n, worlds, turn_seed)
    return NodeValues(
        index=index,
        moves=tuple(moves),
        chosen=chosen,
        reference=reference,
        judged=tuple(judged),
        after=after_chosen,
        outcomes=outcomes,
        before=before,
        measured=measured,
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
) -> tuple[float, float]:
    """The move played and the best move valued again for the mover's side, with
    :data:`REFINE_FACTOR` times the rollouts, in worlds of their own."""
    seed = derive_seed(seed, 0x2EF)
    k = REFINE_FACTOR
    if game.rules.points:
        vals = est.view_values(game, [chosen, best], n, worlds * k, seed)
    else:
        nodes = []
        for m in (chosen, best):
            a = game.copy(stack=False)
            a.push(m)
            nodes.append(a)
        vals = [v for v, _o in chance_values(est, nodes, n * k, seed)]
    return float(vals[0][mover]), float(vals[1][mover])


def assemble(
    record: GameRecord,
    start: tuple[Values, tuple[tuple[Card, Fraction, Values], ...]],
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
    current, outcomes = start
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
            draws.append(Draw(p_step, game.turn, p_colour, p_card, current, before, outcomes))
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
            )
        )
        current = node.after
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


def _with_players(a: Analysis) -> Analysis:
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
            )
        )
    return Analysis(
        record=a.record,
        estimator=a.estimator,
        policy=a.policy,
        engine=a.engine,
        rollouts=a.rollouts,
        worlds=a.worlds,
        points=a.points,
        draws=a.draws,
        decisions=a.decisions,
        players=tuple(players),
    )


def colour_letter(c: int) -> str:
    return COLOUR_LETTERS[c]


def card_text(card: Card | None) -> str | None:
    return None if card is None else card_name(card)


__all__ = [
    "DEFAULT_ROLLOUTS",
    "DEFAULT_WORLDS",
    "LABELS",
    "THRESHOLDS",
    "Analysis",
    "AnalysisError",
    "Decision",
    "Draw",
    "NodeValues",
    "Option",
    "PlayerSummary",
    "Point",
    "Swing",
    "analyse",
    "assemble",
    "chance_values",
    "checked",
    "decision_count",
    "finish",
    "label_of",
    "start_value",
    "value_decisions",
]
