"""The compiled batch engine: many complete games per second, identical to the reference.

Optional extra ``fast`` (numba + numpy). Games are played by compiled code over small integer
arrays, in parallel chunks across cores; a game with a given seed uses the same card sequence as
``Game(rules, players, seed=seed)`` and lists the same legal moves in the same order as the
reference engine, so with the same policy streams both engines play the same game (the
``random`` policy plays exactly the games of ``sorry.sim`` with random bots).

>>> from sorry.fast import simulate
>>> r = simulate(200, players=4, seed=1)
>>> r.games, int((r.winner >= 0).sum()), r.summary()["players"]
(200, 200, 4)

See ``docs/fast.md`` for the design, the policies and the policy hook.
"""

from __future__ import annotations

import os
import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

try:
    import numba  # type: ignore[import-untyped, import-not-found, unused-ignore]
    import numpy as np
    import numpy.typing as npt
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f"sorry.fast needs numba and numpy: pip install 'sorry-engine[fast]' ({exc})"
    ) from exc

from ..board import COLOUR_LETTERS, COLOUR_NAMES, START
from ..cards import CARD_INDEX, Card
from ..compiled.arrays import UNSUPPORTED, rule_params, state_array
from ..errors import SorryError
from ..moves import Kind, Move
from ..position import Position, field_text
from ..rng import derive_seed
from ..rulebook import colours_for
from ..rules import Rules
from . import _kernel as K, _loop as L
from ._kernel import POLICY_MEDIUM  # the compiled medium bot (sorry.fast._policy)

POLICIES: Final = {
    "random": K.POLICY_RANDOM,
    "easy": K.POLICY_EASY,
    "easybot": K.POLICY_EASYBOT,
    "first": K.POLICY_FIRST,
    "medium": POLICY_MEDIUM,
}

Array = npt.NDArray[Any]
#: A custom policy: a numba-jitted function with the signature of ``_kernel.choose``:
#: ``(policy, S, slide, P, colour, mv, n, rng, W) -> int`` (index of the chosen move).
PolicyFn = Callable[..., int]

__all__ = [
    "POLICIES",
    "UNSUPPORTED",
    "FastResult",
    "game_seeds",
    "legal_moves",
    "play",
    "policy_seed",
    "simulate",
    "warmup",
]


def policy_seed(seed: int, colour: int) -> int:
    """The seed of colour ``colour``'s policy stream (a ``sorry.rng.Rng``) in the game with
    seed ``seed``: ``derive_seed(seed, 1000 + colour)``, the stream ``sorry.sim`` gives each
    seat's bot, so the ``random`` policy plays the games of ``sorry.sim``'s random bots."""
    return derive_seed(seed, 1000 + colour)


def game_seeds(n_games: int, seed: int = 0, start: int = 0) -> Array:
    """Per-game seeds ``derive_seed(seed, start + k)``: the same games on every backend."""
    return np.array([derive_seed(seed, start + k) for k in range(n_games)], dtype=np.uint64)


def _colours(players: int | Sequence[int], rules: Rules) -> tuple[int, ...]:
    return colours_for(players, rules)


def params(
    rules: Rules, policy: int = K.POLICY_RANDOM, seat_policies: Sequence[int] | None = None
) -> tuple[Array, Array]:
    """The rule parameters array ``P`` (with the policy of each colour R B Y G) and the slide
    table of a rule set (:func:`sorry.compiled.arrays.rule_params`)."""
    return rule_params(rules, policy, seat_policies)


@dataclass
class FastResult:
    """Results of a batch: one entry per game (colours are 0-3 for R B Y G)."""

    rules: Rules
    colours: tuple[int, ...]
    policy: str
    seeds: Array  # uint64 per-game seeds
    winner: Array  # winning colour (the player who completed the team in teams), -1 unfinished
    turns: Array  # moves played (passes and discards included), as Game.turn
    first: Array  # colour that moved first
    scores: Array  # [games, 4] points variant scores (0 elsewhere, and in unfinished games)
    final: Array  # [games, 16] final pawn locations, 4*colour + pawn
    seconds: float = 0.0  # run time of the batch (compilation excluded)
    load_seconds: float = 0.0  # compiling or loading the kernel, and one game, before the run
    threads: int = 1
    trace: Array = field(default_factory=lambda: np.zeros((0, 3), dtype=np.int64))

    @property
    def games(self) -> int:
        return int(self.winner.shape[0])

    def wins(self) -> dict[str, int]:
        """Wins per colour name (plus ``unfinished``)."""
        out = {COLOUR_NAMES[c]: int((self.winner == c).sum()) for c in self.colours}
        out["unfinished"] = int((self.winner < 0).sum())
        return out

    def position(self, k: int) -> str:
        """The final position of game ``k`` as a board text (no to-move field)."""
        return board_text(self.final[k], self.colours)

    def summary(self) -> dict[str, Any]:
        n = max(self.games, 1)
        return {
            "games": self.games,
            "players": len(self.colours),
            "variant": self.rules.variant,
            "policy": self.policy,
            "wins": self.wins(),
            "win_rate": {k: v / n for k, v in self.wins().items()},
            "mean_turns": float(self.turns.mean()) if self.games else 0.0,
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds if self.seconds > 0 else 0.0,
            "threads": self.threads,
        }


def board_text(state: Array, colours: Sequence[int]) -> str:
    return " ".join(field_text(c, [int(x) for x in state[4 * c : 4 * c + 4]]) for c in colours)


_custom_cache: dict[Any, Any] = {}


def _batch_fn(policy: str | PolicyFn) -> tuple[Any, int, str]:
    """The compiled batch function, the built-in policy id and the policy's name."""
    if isinstance(policy, str):
        if policy not in POLICIES:
            raise SorryError(f"unknown policy {policy!r} (known: {', '.join(POLICIES)})")
        return L.play_batch, POLICIES[policy], policy
    fn = _custom_cache.get(policy)
    if fn is None:
        # Recompile the game loop's module with the custom function as `choose` (not cached
        # on disk: numba cannot cache code that calls a function given at run time).
        g = dict(vars(L))
        g["choose"] = policy
        for name, options in (
            ("decide", {"inline": "always"}),
            ("play_on", {"inline": "always"}),
            ("play_game", {}),
            ("play_batch", {"parallel": True}),
        ):
            pyfn = types.FunctionType(_py_code(getattr(L, name)), g)
            g[name] = numba.njit(**options)(pyfn)
        fn = g["play_batch"]
        _custom_cache[policy] = fn
    return fn, -1, getattr(policy, "__name__", "custom")


def _book(rules: Rules, cols: Sequence[int], P: Array, slide: Array) -> K.Book:
    """The Book of a batch: its seats' policies (P's), the medium bot's tables when a seat
    plays it."""
    pols = P[K.P_SEAT_POLICY : K.P_SEAT_POLICY + 4].copy()
    if POLICY_MEDIUM not in [int(x) for x in pols]:
        return K.book(P, slide, np.array(cols, dtype=np.int64), pols)
    from .search import rule_arrays

    _P, _slide, hitm, E = rule_arrays(rules)
    return K.book(P, slide, np.array(cols, dtype=np.int64), pols, hitm.copy(), E.copy())


def _py_code(dispatcher: Any) -> types.CodeType:
    code: types.CodeType = dispatcher.py_func.__code__
    return code


def _num_threads() -> int:
    config: Any = numba.config
    return int(config.NUMBA_NUM_THREADS)


def _threads(threads: int | None) -> int:
    limit = int(_num_threads())
    if threads is None:
        return limit
    if threads < 1:
        raise SorryError("threads must be at least 1")
    return min(threads, limit)


def simulate(
    n_games: int,
    players: int | Sequence[int] = 4,
    seed: int = 0,
    policy: str | PolicyFn | Sequence[str] = "random",
    threads: int | None = None,
    rules: Rules | None = None,
    seeds: Sequence[int] | Array | None = None,
    trace: int = 0,
) -> FastResult:
    """Play ``n_games`` complete games and return their results.

    Game ``k`` uses the seed ``derive_seed(seed, k)`` (or ``seeds[k]``), exactly as
    ``Game(rules, players, seed=...)`` does: same first player, same deck shuffles. The policy
    (``random``, ``easy``, ``easybot``, ``first``, a jitted function, or one built-in name per
    player in seat order, see docs/fast.md) draws from one stream per colour seeded with
    :func:`policy_seed`. ``threads`` defaults to every core.
    ``trace`` > 0 records (card, number of legal moves, chosen index) of the first ``trace``
    moves of game 0.
    """
    rules = rules or Rules()
    cols = _colours(players, rules)
    if seeds is None:
        seed_arr = game_seeds(n_games, seed)
    else:
        seed_arr = np.array([int(s) & ((1 << 64) - 1) for s in seeds], dtype=np.uint64)
        n_games = int(seed_arr.shape[0])
    seat_ids: list[int] | None = None
    if isinstance(policy, str) or callable(policy):
        fn, pid, name = _batch_fn(policy)
    else:
        names = list(policy)
        if len(names) != len(cols) or not all(isinstance(p, str) for p in names):
            raise SorryError(f"give one built-in policy per player ({len(cols)}), in seat order")
        seat_ids = [K.POLICY_RANDOM] * 4
        for c, one in zip(cols, names, strict=True):
            seat_ids[c] = _batch_fn(one)[1]
        fn, pid, name = L.play_batch, seat_ids[cols[0]], ",".join(names)
    P, slide = params(rules, pid, seat_ids)
    B = _book(rules, cols, P, slide)
    nthreads = _threads(threads)
    numba.set_num_threads(nthreads)
    nchunks = max(1, min(n_games, nthreads * 4 if nthreads > 1 else 1))
    out = np.zeros((n_games, 8), dtype=np.int64)
    final = np.zeros((n_games, K.STATE_LEN), dtype=np.int8)
    tr = np.zeros((trace, 3), dtype=np.int64)
    t0 = time.perf_counter()
    if n_games:  # compile or load the kernel (once per process) before the clock starts
        fn(seed_arr[:1], B, 1, tr[:0], out[:1], final[:1])
    t1 = time.perf_counter()
    if n_games:
        fn(seed_arr, B, nchunks, tr, out, final)
    seconds = time.perf_counter() - t1
    return FastResult(
        rules=rules,
        colours=cols,
        policy=name,
        seeds=seed_arr,
        winner=out[:, 0].copy(),
        turns=out[:, 1].copy(),
        first=out[:, 2].copy(),
        scores=out[:, 4:8].copy(),
        final=final[:, : K.OCC].copy(),
        seconds=seconds,
        load_seconds=t1 - t0,
        threads=nthreads,
        trace=tr[: min(trace, int(out[0, 1]) if n_games else 0)],
    )


def play(
    seed: int,
    players: int | Sequence[int] = 4,
    policy: str | PolicyFn = "random",
    rules: Rules | None = None,
    max_trace: int = 100_000,
) -> FastResult:
    """One game from ``seed`` with its full trace (card, moves listed, choice) per move."""
    return simulate(
        1, players, policy=policy, threads=1, rules=rules, seeds=[seed], trace=max_trace
    )


def warmup(policies: Sequence[str] = ("random",)) -> float:
    """Compile (or load from numba's on-disk cache) every kernel; return the seconds it took.

    Call it before timing anything: the first call to a kernel in a process pays this once."""
    t0 = time.perf_counter()
    for name in policies:
        for variant in ("standard", "points", "teams"):
            simulate(2, 4, seed=0, policy=name, threads=1, rules=Rules(variant=variant))
    state = np.full(K.STATE_LEN, -1, dtype=np.int8)
    state[: K.OCC] = START
    P, slide = params(Rules())
    K.list_moves(state, slide, P, 0, 1, np.zeros(11, dtype=np.int64))
    return time.perf_counter() - t0


_state_of = state_array  # the state S of a position (sorry.compiled.arrays)


def move_of(rec: Array, points: bool = False) -> Move:
    """The reference :class:`~sorry.moves.Move` of a move record."""
    kind = int(rec[K.M_KIND])
    c, src, steps = int(rec[K.M_C]), int(rec[K.M_SRC]), int(rec[K.M_STEPS])
    card = int(rec[K.M_CARD])
    if kind == K.K_PASS:
        return Move.pass_()
    if kind == K.K_DISCARD:
        return Move.discard(card)
    if kind in (K.K_FORWARD, K.K_BACKWARD):
        m = Move(Kind(kind), c, src, steps)
    elif kind == K.K_ENTER:
        m = Move.enter(c)
    elif kind == K.K_SORRY:
        m = Move.sorry(c, int(rec[K.M_C2]), int(rec[K.M_DEST]))
    elif kind == K.K_SWAP:
        m = Move.swap(c, src, int(rec[K.M_C2]), int(rec[K.M_SRC2]))
    else:
        m = Move.split(
            Move.forward(c, src, steps),
            Move.forward(int(rec[K.M_C2]), int(rec[K.M_SRC2]), int(rec[K.M_STEPS2])),
        )
    return m.with_card(card) if points else m


def legal_moves(
    position: Position | str,
    card: Card | None = None,
    rules: Rules | None = None,
    hand: Sequence[Card] = (),
) -> list[tuple[Move, str]]:
    """The fast engine's legal moves of a position, in order, each with the board text after
    it. Standard/teams: give the drawn ``card``; points: give the mover's ``hand``."""
    pos = Position.parse(position) if isinstance(position, str) else position
    rules = rules or Rules()
    P, slide = params(rules)
    counts = np.zeros(11, dtype=np.int64)
    for h in hand:
        counts[CARD_INDEX[h]] += 1
    if not rules.points and card is None:
        raise SorryError("give the drawn card")
    mv, res = K.list_moves(_state_of(pos), slide, P, pos.to_move, card or 0, counts)
    return [(move_of(mv[k], rules.points), board_text(res[k], pos.colours)) for k in range(len(mv))]


def cpu_count() -> int:
    """Cores numba may use (its NUMBA_NUM_THREADS, normally every core)."""
    return int(_num_threads()) or (os.cpu_count() or 1)


def colour_letters(colours: Sequence[int]) -> str:
    return "".join(COLOUR_LETTERS[c] for c in colours)
