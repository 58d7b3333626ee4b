"""Is the estimator calibrated? Predicted win probabilities against what happened, over
self-play games: a reliability table by deciles and the Brier score, beside a naive estimate
from progress alone (``benchmarks/bench_analysis.py calibration``, ``docs/analysis.md``).

>>> pairs = [(0.05, 0), (0.15, 0), (0.95, 1), (0.85, 1), (0.55, 1), (0.45, 0)]
>>> round(brier(pairs), 4)
0.0758
>>> [(b.low, b.count) for b in reliability(pairs) if b.count]
[(0.0, 1), (0.1, 1), (0.4, 1), (0.5, 1), (0.8, 1), (0.9, 1)]

The calibration slope: 1 for predictions as extreme as the outcomes bear out, below 1 for
overconfident ones (too far from 1/2), above 1 for underconfident ones.

>>> import math
>>> ps = [i / 100 for i in range(1, 100)]
>>> fair = [(p, o) for p in ps for o in (1, 0) for _ in range(round(100 * (p if o else 1 - p)))]
>>> round(calibration_slope(fair), 2)
1.0
>>> shrunk = [(0.5 + (p - 0.5) / 2, o) for p, o in fair]
>>> calibration_slope(shrunk) > 1.5
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from ..bots import make_bot
from ..bots.base import PROGRESS
from ..bots.levels import EasyBot
from ..game import Game, Resign
from ..moves import Move
from ..record import GameRecord
from ..rng import Rng, derive_seed
from ..rules import Rules
from .estimator import (
    Estimator,
    Sample as ValueSample,
    Values,
    default_estimator,
    determinised_values,
    reference_level,
    reference_moves,
    result_values,
    sample_values,
)

#: The naive estimate's temperature, in steps of progress: chosen by the Brier score over
#: 40-300 on self-play games of easy bots apart from the benchmark's (seeds from 10**6; 300
#: standard two-player, 200 points, 100 four-player games): 80-100 was best in each.
NAIVE_TEMPERATURE: Final = 90.0


def side_progress(game: Game, side: Sequence[int]) -> int:
    """Steps made by a side's pawns (START 0 ... HOME 65 each)."""
    return sum(PROGRESS[c][loc] for c in side for loc in game.state.pawns[c])


def sides_of(game: Game) -> tuple[tuple[int, ...], ...]:
    return game.rules.book.sides(game.colours)


def naive_values(game: Game, temperature: float = NAIVE_TEMPERATURE) -> Values:
    """A win probability from progress alone: a softmax over the sides of progress divided by
    ``temperature`` (no cards, no threats, no tempo). The result at the end."""
    if game.is_over():
        return result_values(game)
    sides = sides_of(game)
    prog = [side_progress(game, s) / (len(s) * temperature) for s in sides]
    top = max(prog)
    weights = [math.exp(p - top) for p in prog]
    total = sum(weights)
    out = [Fraction(0)] * 4
    for s, w in zip(sides, weights, strict=True):
        for c in s:
            out[c] = Fraction(w / total)
    return (out[0], out[1], out[2], out[3])


class ProgressEstimator:
    """:func:`naive_values` behind the :class:`~sorry.analysis.estimator.Estimator`
    interface (no rollouts: instant, for tests and for comparison), with the easy bot as the
    reference player."""

    policy = "easy"
    engine = "formula"

    def __init__(self, temperature: float = NAIVE_TEMPERATURE) -> None:
        self.temperature = temperature
        self._bot = make_bot("easy")

    def values(self, nodes: Sequence[Game], rollouts: int, seed: int) -> list[Values]:
        return [naive_values(g, self.temperature) for g in nodes]

    def reference_move(self, game: Game) -> Move:
        return self._bot.choose(game.view(game.to_move), Rng(derive_seed(game.turn, 0x5EF)))

    def reference_moves(self, game: Game) -> list[Move]:
        return EasyBot().best_moves(game.view(game.to_move))

    def view_values(
        self, game: Game, moves: Sequence[Move], rollouts: int, worlds: int, seed: int
    ) -> list[Values]:
        return determinised_values(self, game, moves, rollouts, worlds, seed)


@dataclass(frozen=True, slots=True)
class Bin:
    """One decile of predictions: ``[low, high)`` (the last one includes 1)."""

    low: float
    high: float
    count: int
    predicted: float  # mean prediction in the bin
    observed: float  # share of wins in the bin

    @property
    def gap(self) -> float:
        return self.observed - self.predicted


def reliability(pairs: Sequence[tuple[float, int]], bins: int = 10) -> list[Bin]:
    """The reliability table of (prediction, outcome 0/1) pairs, by equal-width bins."""
    sums = [[0, 0.0, 0] for _ in range(bins)]
    for p, o in pairs:
        k = min(bins - 1, max(0, int(p * bins)))
        sums[k][0] += 1
        sums[k][1] += p
        sums[k][2] += o
    out = []
    for k, (n, ps, os_) in enumerate(sums):
        n = int(n)
        out.append(
            Bin(
                round(k / bins, 10),
                round((k + 1) / bins, 10),
                n,
                ps / n if n else 0.0,
                os_ / n if n else 0.0,
            )
        )
    return out


def calibration_slope(pairs: Sequence[tuple[float, int]], clip: float = 0.005) -> float:
    """The slope ``b`` of the logistic regression ``P(won) = 1 / (1 + exp(-(a + b * logit(p))))``
    of the outcomes on the predictions (clipped to ``[clip, 1 - clip]``), by Newton's method."""
    xs = []
    for p, _o in pairs:
        q = min(1 - clip, max(clip, p))
        xs.append(math.log(q / (1 - q)))
    ys = [o for _p, o in pairs]
    a, b = 0.0, 1.0
    for _step in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            z = a + b * x
            m = 1 / (1 + math.exp(-z)) if z > -700 else 0.0
            w = m * (1 - m)
            ga += y - m
            gb += (y - m) * x
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-10:
            break
    return b


def brier(pairs: Sequence[tuple[float, int]]) -> float:
    """The mean squared error of the predictions (0 perfect; 0.25 for always 1/2)."""
    return sum((p - o) ** 2 for p, o in pairs) / len(pairs) if pairs else 0.0


#: The strength of each bot level in the standard game: the log-odds of its win rate against
#: the medium bot, the model (``docs/strength.md``, thousands of games each: expert vs medium
#: 62.9%, learned vs medium 60.1%, hard vs medium 53.7%, medium vs easy 56.5%, easy vs random
#: 76.0%, the last two chained). The model's own level, and a player of unknown strength, is 0.
LEVEL_STRENGTH: Final[dict[str, float]] = {
    "random": -1.415,
    "easy": -0.262,
    "medium": 0.0,
    "hard": 0.148,
    "learned": 0.410,
    "expert": 0.528,
}


def game_left(game: Game) -> float:
    """How much of the game is left: 1 at the start, 0 when a side is HOME: one minus the
    progress of the side furthest ahead, as a share of its way (65 steps a pawn).

    >>> from sorry import Game
    >>> game_left(Game.from_position("R:S,S,S,S Y:S,S,S,S R"))
    1.0
    >>> game_left(Game.from_position("R:H,H,S,S Y:S,S,S,S R"))
    0.5
    """
    return 1.0 - max(
        side_progress(game, side) / (65 * sum(len(game.state.pawns[c]) for c in side))
        for side in sides_of(game)
    )


def with_strengths(
    shares: Sequence[float],
    left: float,
    strengths: Sequence[float],
    sides: Sequence[Sequence[int]],
    power: float = 1.0,
    temper: float = 1.0,
) -> list[float]:
    """Win shares (per colour) adjusted for the players' strengths: each side's share (to
    the power ``temper``) times ``exp(s * left ** power)``, ``s`` its strength (the mean of
    its colours', from :data:`LEVEL_STRENGTH`, 0 for the model's), then normalised over the
    sides: in a two-player game the log-odds move by the difference of the strengths, in
    full at the start (``left`` 1) and less as the game runs out (a better player has fewer
    moves left to show it), after being multiplied by ``temper`` (below 1: less sure). Equal
    strengths and ``temper`` 1 change nothing.

    >>> [round(x, 3) for x in with_strengths([0.5, 0, 0.5, 0], 1.0, [0.528, 0, 0, 0], [(0,), (2,)])]
    [0.629, 0.0, 0.371, 0.0]
    >>> with_strengths([0.3, 0, 0.7, 0], 0.8, [0.1, 0, 0.1, 0], [(0,), (2,)])
    [0.3, 0.0, 0.7, 0.0]
    """
    side_strength = [sum(strengths[c] for c in side) / len(side) for side in sides]
    if max(side_strength) - min(side_strength) < 1e-12 and temper == 1.0:
        return [float(x) for x in shares]  # equal strengths: the model's shares
    weight = max(0.0, left) ** power
    raw = [
        shares[side[0]] ** temper * math.exp(s * weight)
        for side, s in zip(sides, side_strength, strict=True)
    ]
    total = sum(raw)
    out = [float(x) for x in shares]
    if total > 0:
        for side, w in zip(sides, raw, strict=True):
            for c in side:
                out[c] = w / total
    return out


#: How the strengths' weight falls as the game runs out: ``left ** STRENGTH_POWER``
#: (:func:`with_strengths`). 0.5 is what a random walk gives (a skill's drift grows with the
#: moves left, the cards' noise with their square root); chosen on development games
#: (``bench_analysis.py strength-fit``, docs/analysis.md).
STRENGTH_POWER: Final = 0.5


def seat_strengths(record: GameRecord) -> tuple[float, float, float, float]:
    """Each colour's strength from who played it: a bot's level's :data:`LEVEL_STRENGTH`,
    0 (the model's own) for a person or an unknown player."""
    out = [0.0] * 4
    for seat in record.seats:
        if seat.kind == "bot" and seat.level is not None:
            out[seat.colour] = LEVEL_STRENGTH.get(seat.level, 0.0)
    return (out[0], out[1], out[2], out[3])


class StrengthEstimator:
    """Another estimator's values adjusted for the players' strengths (:func:`with_strengths`,
    the game left of each node by :func:`game_left`): the rollouts, the reference player and
    the engine are the inner estimator's; only the win shares it reports move (``temper``:
    their log-odds multiplied too). Equal strengths and ``temper`` 1 give the inner values
    exactly. The account built on it still adds up exactly
    (every value is one number per node, whatever it is)."""

    def __init__(
        self,
        inner: Estimator,
        strengths: Sequence[float],
        power: float = STRENGTH_POWER,
        temper: float = 1.0,
    ) -> None:
        self.inner = inner
        self.strengths = [float(x) for x in strengths]
        self.power = power
        self.temper = temper
        self.policy = inner.policy
        self.reference = reference_level(inner)
        self.engine = inner.engine
        self.plays_decisions = bool(getattr(inner, "plays_decisions", False))

    def values(self, nodes: Sequence[Game], rollouts: int, seed: int) -> list[Values]:
        got = self.inner.values(nodes, rollouts, seed)
        return [self.adjust(node, v) for node, v in zip(nodes, got, strict=True)]

    def samples(self, nodes: Sequence[Game], rollouts: int, seed: int) -> list[ValueSample]:
        """The inner estimator's samples (:func:`~sorry.analysis.estimator.sample_values`:
        the same rollouts and worlds) with their mean adjusted as :meth:`values` adjusts a
        value (the whole call's mean, not each batch's) and each row moved with it, to the
        first order (its deviation from the mean times the adjustment's derivative there):
        the rows measure the adjusted value's uncertainty and still pair row for row."""
        out = []
        for node, smp in zip(nodes, sample_values(self.inner, nodes, rollouts, seed), strict=True):
            v = self.adjust(node, smp.mean)
            out.append(smp if v == smp.mean else ValueSample(v, self._rows(node, smp, v)))
        return out

    def adjust(self, node: Game, v: Values) -> Values:
        """The inner value ``v`` of ``node`` adjusted (:func:`with_strengths`), as exact
        fractions that add up to what ``v`` adds up to; a finished game's result as it is."""
        if node.is_over():
            return v
        shares = with_strengths(
            [float(x) for x in v],
            game_left(node),
            self.strengths,
            sides_of(node),
            self.power,
            self.temper,
        )
        if shares == [float(x) for x in v]:
            return v
        # exact fractions that add up to what the inner values add up to: the last side takes
        # the rest
        sides = sides_of(node)
        f = [Fraction(x) for x in shares]
        last = sides[-1]
        rest = sum((v[s[0]] for s in sides), Fraction(0)) - sum(
            (f[s[0]] for s in sides[:-1]), Fraction(0)
        )
        for c in last:
            f[c] = rest
        return (f[0], f[1], f[2], f[3])

    def _rows(
        self, node: Game, smp: ValueSample, v: Values
    ) -> tuple[tuple[float, float, float, float], ...]:
        """Each row of ``smp`` mapped by the derivative of the adjustment at its mean: a side's
        adjusted share is ``o_i = w_i / sum(w)``, ``w_i = p_i ** temper * exp(...)``, so
        ``d o_i / d p_j = temper * o_i * ([i == j] / p_i - o_j / p_j)`` (a side with no wins
        at all has no deviation to map: all its rows are 0)."""
        sides = sides_of(node)
        p = [float(smp.mean[s[0]]) for s in sides]
        o = [float(v[s[0]]) for s in sides]
        t = self.temper
        rows = []
        for row in smp.rows:
            dev = [row[s[0]] - pj for s, pj in zip(sides, p, strict=True)]
            new = [0.0] * 4
            for i, side in enumerate(sides):
                d = sum(
                    t * o[i] * ((1.0 / p[i] if i == j else 0.0) - o[j] / p[j]) * dev[j]
                    for j in range(len(sides))
                    if p[j] > 0
                )
                for c in side:
                    new[c] = o[i] + d
            rows.append((new[0], new[1], new[2], new[3]))
        return tuple(rows)

    def reference_move(self, game: Game) -> Move:
        return self.inner.reference_move(game)

    def reference_moves(self, game: Game) -> list[Move]:
        return reference_moves(self.inner, game)

    def view_values(
        self, game: Game, moves: Sequence[Move], rollouts: int, worlds: int, seed: int
    ) -> list[Values]:
        return determinised_values(self, game, moves, rollouts, worlds, seed)


#: The model's log-odds are multiplied by this (:func:`with_strengths`'s ``temper``): the
#: medium bot's rollouts are a little too sure between stronger players (calibration slope
#: 0.89-0.90 between hard bots on held-out games; 1.00 with this), docs/analysis.md.
MODEL_TEMPER: Final = 0.9


def game_model(record: GameRecord, inner: Estimator | None = None) -> Estimator:
    """The model the after-game analysis judges ``record`` with, wherever a player sees it
    (``sorry analyse``, the terminal game, the server): the rollouts of ``inner`` (default:
    :func:`~sorry.analysis.estimator.default_estimator`, the medium bot's), their log-odds
    times :data:`MODEL_TEMPER`, moved by the strengths of the players who sat at the table
    (:func:`seat_strengths`: a bot's level's, 0 for a person). Only the record's seats enter:
    the same record gives the same model."""
    return StrengthEstimator(
        inner if inner is not None else default_estimator(),
        seat_strengths(record),
        temper=MODEL_TEMPER,
    )


@dataclass(frozen=True, slots=True)
class Sample:
    """One chance node of a self-play game, with the estimate and the naive estimate of each
    side's win probability, and whether that side won."""

    game: int
    turn: int
    side: int  # the side's first colour
    estimate: float
    naive: float
    won: int


def self_play(rules: Rules, players: int, level: str, seed: int) -> Game:
    """One finished game between bots of ``level`` (each with its own seeded generator)."""
    from ..bots.play import play_game

    return play_game(rules, [make_bot(level) for _ in range(players)], seed=seed, players=players)


def chance_nodes(game: Game) -> list[Game]:
    """The game at each of its draws, before the card (points: each refill, after the deal),
    in order, replayed from the start."""
    history = game.history
    replay = Game(game.rules, players=game.colours, seed=game.seed, first=game.first)
    out = []
    dealt = not game.rules.points
    for item in history:
        if replay.is_chance() and dealt:
            out.append(replay.copy(stack=False))
        if isinstance(item, Move):
            replay.push(item)
            dealt = True
        elif isinstance(item, Resign):
            replay.resign(item.colour)
        else:
            replay.draw(item)
    return out


def samples(
    estimate: Callable[[Sequence[Game], int], list[Values]],
    rules: Rules,
    players: int,
    level: str,
    games: Iterable[int],
    every: int,
    seed: int,
) -> list[Sample]:
    """For each self-play game ``i`` of ``games`` (seed ``derive_seed(seed, i)``), each
    chance node with probability ``1 / every`` (seeded), valued by ``estimate(nodes, seed)``
    and by :func:`naive_values`.

    Each node is chosen on its own, whatever the length of its game: choosing a number of
    nodes per game would weigh the positions of short games more, and short games are those
    where a lead held, so the observed frequencies would look more extreme than the
    predictions (an estimator that is right would look underconfident)."""
    out = []
    for i in games:
        g_seed = derive_seed(seed, i)
        game = self_play(rules, players, level, g_seed)
        rng = Rng(derive_seed(g_seed, 77))
        chosen = [node for node in chance_nodes(game) if rng.below(every) == 0]
        if not chosen:
            continue
        values = estimate(chosen, derive_seed(g_seed, 78))
        won = set(game.winners)
        for node, v in zip(chosen, values, strict=True):
            naive = naive_values(node)
            for side in sides_of(game):
                c = side[0]
                out.append(Sample(i, node.turn, c, float(v[c]), float(naive[c]), int(c in won)))
    return out


__all__ = [
    "LEVEL_STRENGTH",
    "MODEL_TEMPER",
    "NAIVE_TEMPERATURE",
    "STRENGTH_POWER",
    "Bin",
    "ProgressEstimator",
    "Sample",
    "StrengthEstimator",
    "brier",
    "calibration_slope",
    "chance_nodes",
    "game_left",
    "game_model",
    "naive_values",
    "reliability",
    "samples",
    "seat_strengths",
    "self_play",
    "with_strengths",
]
