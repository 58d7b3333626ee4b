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
from fractions import Fraction
from typing import Any, Final, Protocol, runtime_checkable

from ..bots import make_bot
from ..bots.base import team_of
from ..bots.rollout import Playout
from ..game import Game
from ..moves import Move
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
    """Pure-Python rollouts: :class:`sorry.bots.rollout.Playout`, the greedy playouts of the
    expert's search, played to the end of the game. The policy is greedy one ply on progress:
    the move after which the mover's side's progress minus the others' is largest (the
    ``easy`` bot; ties to the first move listed in the rollouts, at random for the
    reference move). Every variant."""

    policy = "easy"
    engine = "python"

    def __init__(self) -> None:
        self._bot = make_bot("easy")

    def values(self, nodes: Sequence[Game], rollouts: int, seed: int) -> list[Values]:
        if rollouts < 1:
            raise ValueError("rollouts must be at least 1")
        return [self._one(g, rollouts, seed) for g in nodes]

    def reference_move(self, game: Game) -> Move:
        view = game.view(game.to_move)
        return self._bot.choose(view, Rng(derive_seed(game.turn, 0x5EF)))

    def view_values(
        self, game: Game, moves: Sequence[Move], rollouts: int, worlds: int, seed: int
    ) -> list[Values]:
        return determinised_values(self, game, moves, rollouts, worlds, seed)

    def _one(self, game: Game, rollouts: int, seed: int) -> Values:
        if game.is_over():
            return result_values(game)
        rules = game.rules
        limit = MAX_ROLLOUT_MOVES
        if rules.turn_limit is not None:
            limit = max(0, rules.turn_limit - game.turn)
        wins = [0, 0, 0, 0]
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
            sim = Playout(
                rules, game.colours, game.state.copy(), game.to_move, pile, discard, hands, world
            )
            winner = sim.run(limit)
            if winner is not None:
                for c in team_of(rules, winner):
                    wins[c] += 1
        return (
            Fraction(wins[0], rollouts),
            Fraction(wins[1], rollouts),
            Fraction(wins[2], rollouts),
            Fraction(wins[3], rollouts),
        )


#: The compiled policies the estimator can roll out with, and the bot level that plays each
#: exactly (the reference move): ``sorry.fast``'s ``easybot`` is the easy bot.
COMPILED_POLICIES: Final = {"easybot": "easy", "random": "random"}
DEFAULT_COMPILED_POLICY: Final = "easybot"


class CompiledEstimator:
    """Rollouts on the compiled engine (:mod:`sorry.analysis._compiled` on the kernel of
    :mod:`sorry.fast`, the ``fast`` extra): every player plays the compiled ``policy``, which
    plays exactly as the bot of the same level, and that bot gives the reference move. From a
    :class:`Game` every hand is known and only the order of the draw pile is shuffled in each
    world; :meth:`view_values` deals the unseen cards first (:func:`determinised_values`).
    One core: the rollouts of a call run one after the other."""

    engine = "compiled"

    def __init__(self, policy: str = DEFAULT_COMPILED_POLICY) -> None:
        from ..fast import POLICIES

        if policy not in COMPILED_POLICIES:
            raise ValueError(f"no compiled policy {policy!r} ({', '.join(COMPILED_POLICIES)})")
        self._policy = POLICIES[policy]
        self.policy = COMPILED_POLICIES[policy]
        self._bot = make_bot(self.policy)
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

    def view_values(
        self, game: Game, moves: Sequence[Move], rollouts: int, worlds: int, seed: int
    ) -> list[Values]:
        return determinised_values(self, game, moves, rollouts, worlds, seed)


def compiled_available() -> bool:
    """Whether the compiled estimator can run (the ``fast`` extra: numba and numpy;
    :func:`sorry.features.compiled_engine`)."""
    from ..features import compiled_engine

    return compiled_engine().available


def default_estimator() -> Estimator:
    """The compiled estimator when the ``fast`` extra is installed, else the Python one."""
    if compiled_available():
        return CompiledEstimator()
    return PlayoutEstimator()


__all__ = [
    "COMPILED_POLICIES",
    "CompiledEstimator",
    "Estimator",
    "PlayoutEstimator",
    "Values",
    "compiled_available",
    "default_estimator",
    "determinised_values",
    "result_values",
    "rollout_seed",
]
