"""Win-probability estimators for the after-game analysis: rollouts from any node of a game.

An :class:`Estimator` answers one question: from this node of this game (a chance node, where a
card is to be drawn or dealt, or a decision node, where the card is in hand), if every player
played the estimator's **policy** to the end, how often would each colour's side win? It plays
``rollouts`` complete games from the node and counts the wins. The order of the draw pile is
never used: each rollout shuffles the cards left to draw (the game's hands are taken as they
are: a caller judging from one player's knowledge determinises first, see
:func:`sorry.analysis.account.analyse`).

Rollout ``k`` of every node in one call uses the same random numbers (seeded from ``seed`` and
``k``): the alternatives of one decision are compared in the same shuffled worlds (common
random numbers), so their differences are measured with far less noise than their values.

Two estimators share this interface: :class:`PlayoutEstimator` (pure Python, always there) and
the compiled one of :mod:`sorry.fast` when the ``fast`` extra is installed
(:func:`default_estimator` picks it).

Red, three pawns HOME and a 1 in hand to bring out the last, against Yellow with none out:

>>> from sorry import Game
>>> g = Game.from_position("R:S,H,H,H Y:S,S,S,S R", card=1)
>>> est = PlayoutEstimator()
>>> [float(v) for v in est.values([g], rollouts=20, seed=1)[0]]
[0.9, 0.0, 0.1, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, Protocol, runtime_checkable

from ..bots import greedy_rollout, make_bot
from ..bots.base import team_of
from ..game import Game
from ..moves import Move
from ..playout import Table
from ..rng import Rng, derive_seed
from ..rulebook import HAND_SIZE
from ..rules import Rules

#: Win shares per colour R B Y G (0 for a colour not in play; in teams both partners get their
#: side's share). Exact fractions: wins over rollouts.
Values = tuple[Fraction, Fraction, Fraction, Fraction]

#: A cap on the moves of one rollout (a game of Sorry! ends long before; a turn limit of the
#: rules ends a rollout earlier, with no winner).
MAX_ROLLOUT_MOVES = 10_000


@runtime_checkable
class Estimator(Protocol):
    """Rollouts from game nodes with a stated policy (see the module doc)."""

    #: The policy every player follows in the rollouts, as a bot level (``easy``, ...).
    policy: str
    #: ``"compiled"`` or ``"python"``.
    engine: str

    def values(self, nodes: Sequence[Game], rollouts: int, seed: int) -> list[Values]:
        """For each node (not over), each colour's share of ``rollouts`` playouts won."""
        ...

    def reference_move(self, game: Game) -> Move:
        """The policy's move at a decision node, chosen from what the mover can see."""
        ...

    def view_values(
        self, game: Game, moves: Sequence[Move], rollouts: int, worlds: int, seed: int
    ) -> list[Values]:
        """Each of ``moves`` (legal at the decision node ``game``) valued from the mover's
        view only: the cards it cannot see (the other hands, the draw pile) dealt at random
        in each world consistent with the view, every move played in the same worlds, about
        ``rollouts * worlds`` rollouts each. The hidden cards of ``game`` are never used."""
        ...


@dataclass(frozen=True, slots=True)
class Sample:
    """The rollouts from one node in one call: their share of wins per colour (exact) and the
    equally weighted results they average (one per rollout, or per batch of rollouts), from
    which the uncertainty of the share is measured. Two samples of one call share their
    worlds, row for row (common random numbers)."""

    mean: Values
    rows: tuple[tuple[float, float, float, float], ...]

    def variance(self, colour: int) -> float:
        """The variance of :attr:`mean` for ``colour`` (the rows' variance over their count)."""
        return _mean_variance([r[colour] for r in self.rows])

    def diff_variance(self, other: Sample, colour: int, a: float = 1.0, b: float = 1.0) -> float:
        """The variance of ``a * mean - b * other.mean`` for ``colour``, row by row (both
        from one call: the same worlds)."""
        if len(self.rows) != len(other.rows):
            raise ValueError("samples of different calls cannot be paired")
        return _mean_variance(
            [a * x[colour] - b * y[colour] for x, y in zip(self.rows, other.rows, strict=True)]
        )


def _mean_variance(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    m = sum(xs) / n
    return sum((x - m) ** 2 for x in xs) / (n - 1) / n


#: Without rollouts of their own (an estimator that has no ``samples``), the rollouts of a
#: call are run in this many batches of other seeds, whose means measure the uncertainty.
BATCHES: Final = 8


def sample_values(est: Estimator, nodes: Sequence[Game], rollouts: int, seed: int) -> list[Sample]:
    """:meth:`Estimator.values` with each value's rows (:class:`Sample`): the estimator's own
    (``est.samples``, one row per rollout) or, for an estimator without them, the means of
    :data:`BATCHES` batches of the rollouts, each batch with a seed of its own, the same for
    every node."""
    own = getattr(est, "samples", None)
    if own is not None:
        got: list[Sample] = own(nodes, rollouts, seed)
        return got
    batches = min(BATCHES, rollouts)
    sizes = [rollouts // batches + (1 if b < rollouts % batches else 0) for b in range(batches)]
    calls = [est.values(nodes, n, derive_seed(seed, 0xBA7C + b)) for b, n in enumerate(sizes)]
    out = []
    for j in range(len(nodes)):
        parts = [call[j] for call in calls]
        mean = tuple(
            sum((Fraction(n) * v[c] for n, v in zip(sizes, parts, strict=True)), Fraction(0))
            / rollouts
            for c in range(4)
        )
        rows = tuple((float(v[0]), float(v[1]), float(v[2]), float(v[3])) for v in parts)
        out.append(Sample((mean[0], mean[1], mean[2], mean[3]), rows))
    return out


def reference_level(est: Estimator) -> str:
    """The bot level whose move is ``est``'s reference move: its ``reference`` if it says,
    else its rollouts' ``policy``."""
    return str(getattr(est, "reference", est.policy))


def reference_moves(est: Estimator, game: Game) -> list[Move]:
    """The moves the estimator's policy finds equally good at a decision node (it draws its
    reference move among them): ``est.reference_moves`` if it has it, else its one move."""
    own = getattr(est, "reference_moves", None)
    if own is not None:
        moves: list[Move] = own(game)
        return moves
    return [est.reference_move(game)]


def determinised_values(
    estimator: Estimator,
    game: Game,
    moves: Sequence[Move],
    rollouts: int,
    worlds: int,
    seed: int,
) -> list[Values]:
    """:meth:`Estimator.view_values` from :meth:`Estimator.values`: the mean over ``worlds``
    worlds dealt by :meth:`Game.from_view` of ``rollouts`` rollouts after each
    move."""
    view = game.view(game.to_move)
    zero = Fraction(0)
    sums: list[Values] = [(zero, zero, zero, zero) for _m in moves]
    for k in range(worlds):
        world = Game.from_view(view, derive_seed(seed, 7919 + k))
        nodes = []
        for m in moves:
            after = world.copy(stack=False)
            after.push(m)
            nodes.append(after)
        live = [g for g in nodes if not g.is_over()]
        got = iter(estimator.values(live, rollouts, derive_seed(seed, 104729 + k)) if live else [])
        for j, g in enumerate(nodes):
            v = result_values(g) if g.is_over() else next(got)
            a = sums[j]
            sums[j] = (a[0] + v[0], a[1] + v[1], a[2] + v[2], a[3] + v[3])
    return [(a[0] / worlds, a[1] / worlds, a[2] / worlds, a[3] / worlds) for a in sums]


def result_values(game: Game) -> Values:
    """The shares of a finished game: 1 for each winner (both partners in teams), 0 else."""
    out = [Fraction(0)] * 4
    for c in game.winners:
        out[c] = Fraction(1)
    return (out[0], out[1], out[2], out[3])


def rollout_seed(seed: int, k: int) -> int:
    """The seed of rollout ``k`` of a call with ``seed`` (the same for every node of a call)."""
    return derive_seed(seed, k)


class PlayoutEstimator:
    """Pure-Python rollouts: :mod:`sorry.bots.greedy_rollout`, the greedy playouts of the
    expert's search, played to the end of the game. The policy is greedy one ply on progress:
    the move after which the mover's side's progress minus the others' is largest (the
    ``easy`` bot; ties to the first move listed in the rollouts, at random for the
    reference move). Every variant."""

    policy = "easy"
    engine = "python"

    def __init__(self, reference: str | None = None) -> None:
        #: the bot whose move is the reference move (a level; by default the policy's)
        self.reference = reference or self.policy
        self._bot = make_bot(self.reference)

    def values(self, nodes: Sequence[Game], rollouts: int, seed: int) -> list[Values]:
        return [s.mean for s in self.samples(nodes, rollouts, seed)]

    def samples(self, nodes: Sequence[Game], rollouts: int, seed: int) -> list[Sample]:
        """The values with one row per rollout (its winners: 1, the others 0)."""
        if rollouts < 1:
            raise ValueError("rollouts must be at least 1")
        out = []
        for g in nodes:
            rows = self._one(g, rollouts, seed)
            mean = tuple(Fraction(sum(int(r[c]) for r in rows), rollouts) for c in range(4))
            out.append(Sample((mean[0], mean[1], mean[2], mean[3]), rows))
        return out

    def reference_move(self, game: Game) -> Move:
        view = game.view(game.to_move)
        return self._bot.choose(view, Rng(derive_seed(game.turn, 0x5EF)))

    def reference_moves(self, game: Game) -> list[Move]:
        return _best_moves(self._bot, game)

    def view_values(
        self, game: Game, moves: Sequence[Move], rollouts: int, worlds: int, seed: int
    ) -> list[Values]:
        return determinised_values(self, game, moves, rollouts, worlds, seed)

    def _one(
        self, game: Game, rollouts: int, seed: int
    ) -> tuple[tuple[float, float, float, float], ...]:
        if game.is_over():
            r = result_values(game)
            won = (float(r[0]), float(r[1]), float(r[2]), float(r[3]))
            return tuple(won for _k in range(rollouts))
        rules = game.rules
        limit = MAX_ROLLOUT_MOVES
        if rules.turn_limit is not None:
            limit = max(0, rules.turn_limit - game.turn)
        rows = []
        for k in range(rollouts):
            world = Rng(rollout_seed(seed, k))
            pile = game.draw_pile[:]
            world.shuffle(pile)
            hands = [h[:] for h in game.hands]
            discard = game.discard_pile[:]
            if game.is_chance():
                if rules.points:  # deal what is owed (the opening deal, or a refill)
                    for c in game.colours:
                        while len(hands[c]) < HAND_SIZE:
                            if not pile:
                                pile, discard = discard, []
                                world.shuffle(pile)
                            hands[c].append(pile.pop())
            elif not rules.points:
                assert game.card is not None
                pile.append(game.card)  # the card in hand is the first one the rollout draws
            table = Table(
                rules, game.colours, game.state.copy(), game.to_move, pile, discard, hands, world
            )
            winner = greedy_rollout.run(table, limit)
            row = [0.0, 0.0, 0.0, 0.0]
            if winner is not None:
                for c in team_of(rules, winner):
                    row[c] = 1.0
            rows.append((row[0], row[1], row[2], row[3]))
        return tuple(rows)


#: The compiled policies the estimator can roll out with, and the bot level that plays each
#: exactly (the reference move): ``sorry.fast``'s ``easybot`` is the easy bot, its ``medium``
#: the medium bot.
COMPILED_POLICIES: Final = {"easybot": "easy", "random": "random", "medium": "medium"}
#: The model of how people play: the medium bot, chosen by calibration on recorded games of
#: stronger bots (docs/analysis.md, "The model, chosen by calibration").
DEFAULT_COMPILED_POLICY: Final = "medium"


class CompiledEstimator:
    """Rollouts on the compiled engine (:mod:`sorry.analysis._compiled` on the kernel of
    :mod:`sorry.fast`, the ``fast`` extra): every player plays the compiled ``policy``, which
    plays exactly as the bot of the same level; the ``reference`` bot (a level; by default
    that same bot) gives the reference move. From a
    :class:`Game` every hand is known and only the order of the draw pile is shuffled in each
    world; :meth:`view_values` deals the unseen cards first (:func:`determinised_values`).
    One core: the rollouts of a call run one after the other."""

    engine = "compiled"

    def __init__(self, policy: str = DEFAULT_COMPILED_POLICY, reference: str | None = None) -> None:
        from ..fast import POLICIES

        if policy not in COMPILED_POLICIES:
            raise ValueError(f"no compiled policy {policy!r} ({', '.join(COMPILED_POLICIES)})")
        self._policy = POLICIES[policy]
        self.policy = COMPILED_POLICIES[policy]
        self.reference = reference or self.policy
        self._bot = make_bot(self.reference)
        #: Whether a rollout from a decision node (standard, teams) may play the reference
        #: move itself, inside the kernel (drawing among its equal moves in each world): only
        #: when the reference bot is the rollouts' own policy; else the analysis plays the
        #: reference move first and rolls out from after it.
        self.plays_decisions = self.reference == self.policy
        self._packers: dict[tuple[Rules, tuple[int, ...]], Any] = {}

    def _packer(self, game: Game) -> Any:
        key = (game.rules, game.colours)
        packer = self._packers.get(key)
        if packer is None:
            from ._compiled import Packer

            packer = self._packers[key] = Packer(game.rules, game.colours, self._policy)
        return packer

    def values(self, nodes: Sequence[Game], rollouts: int, seed: int) -> list[Values]:
        if rollouts < 1:
            raise ValueError("rollouts must be at least 1")
        out: list[Values | None] = [result_values(g) if g.is_over() else None for g in nodes]
        live = [g for g in nodes if not g.is_over()]
        if live:
            wins = iter(self._packer(live[0]).run(live, rollouts, seed).tolist())
            for j, v in enumerate(out):
                if v is None:
                    w = next(wins)
                    out[j] = (
                        Fraction(w[0], rollouts),
                        Fraction(w[1], rollouts),
                        Fraction(w[2], rollouts),
                        Fraction(w[3], rollouts),
                    )
        return [v for v in out if v is not None]

    def reference_move(self, game: Game) -> Move:
        view = game.view(game.to_move)
        return self._bot.choose(view, Rng(derive_seed(game.turn, 0x5EF)))

    def reference_moves(self, game: Game) -> list[Move]:
        return _best_moves(self._bot, game)

    def view_values(
        self, game: Game, moves: Sequence[Move], rollouts: int, worlds: int, seed: int
    ) -> list[Values]:
        return determinised_values(self, game, moves, rollouts, worlds, seed)


def _best_moves(bot: Any, game: Game) -> list[Move]:
    """The moves a bot of the policy's level draws its move from (its ties), from the
    mover's view; a bot that does not say: its one seeded move."""
    view = game.view(game.to_move)
    best = getattr(bot, "best_moves", None)
    if best is not None:
        moves: list[Move] = best(view)
        return moves
    return [bot.choose(view, Rng(derive_seed(game.turn, 0x5EF)))]


def compiled_available() -> bool:
    """Whether the compiled estimator can run (the ``fast`` extra: numba and numpy;
    :func:`sorry.features.compiled_engine`)."""
    from ..features import compiled_engine

    return compiled_engine().available


def default_estimator(reference: str | None = None) -> Estimator:
    """The compiled estimator when the ``fast`` extra is installed, else the Python one
    (``reference``: the bot level whose move each decision is judged against; by default the
    rollouts' own policy)."""
    if compiled_available():
        return CompiledEstimator(reference=reference)
    return PlayoutEstimator(reference=reference)


def warmup(cached_only: bool = False) -> None:
    """Load the compiled estimator's rollouts from numba's on-disk cache (or compile them:
    minutes of CPU the first time) by one rollout of a dealt game, now rather than at the first
    analysis; nothing without the ``fast`` extra. ``cached_only``: raise
    ``sorry.fast.cache.CompileNeeded`` where it would compile (a server's workers then have
    another process compile it, see ``sorry.web.workers.load_or_compile``)."""
    if not compiled_available():
        return
    import contextlib

    guard: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if cached_only:
        from ..fast.cache import cache_only

        guard = cache_only()
    game = Game(Rules(), 2, seed=1)
    while game.is_chance():
        game.draw()
    with guard:
        CompiledEstimator().values([game], 1, 0)


__all__ = [
    "BATCHES",
    "COMPILED_POLICIES",
    "CompiledEstimator",
    "Estimator",
    "PlayoutEstimator",
    "Sample",
    "Values",
    "compiled_available",
    "default_estimator",
    "determinised_values",
    "reference_level",
    "reference_moves",
    "result_values",
    "rollout_seed",
    "sample_values",
    "warmup",
]
