"""A tiny portable random generator (SplitMix64), so a seed gives the same game everywhere.

Python's own :mod:`random` is not used for anything that decides a game: SplitMix64 is a few
lines that any engine (the compiled one included) can reproduce bit for bit.

>>> r = Rng(42)
>>> [r.below(10) for _ in range(5)]
[3, 1, 8, 4, 0]
"""

from __future__ import annotations

import functools
import struct
from collections.abc import MutableSequence
from typing import TypeVar

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def mix64(z: int) -> int:
    """The SplitMix64 output function: a 64-bit bijective hash."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def derive_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a run whose master seed is ``master`` (every backend)."""
    return mix64((master * _GOLDEN + index + 1) & MASK64)


@functools.cache
def _lanes(count: int) -> tuple[int, int, int, struct.Struct, int]:
    """The constants of :func:`_draws` for ``count`` draws: draw ``k`` lives in the 128-bit
    lane ``k - 1`` of one big int."""
    lanes = range(count)
    ones = sum(1 << (128 * k) for k in lanes)
    offsets = sum(((k + 1) * _GOLDEN & MASK64) << (128 * k) for k in lanes)
    low64 = sum(MASK64 << (128 * k) for k in lanes)
    return ones, offsets, low64, struct.Struct("<" + "Q8x" * count), count * _GOLDEN & MASK64


def _draws(state: int, count: int) -> tuple[tuple[int, ...], int]:
    """The next ``count`` outputs of the generator whose state is ``state``, and its state
    after them: :func:`mix64` of every state at once, on the lanes of one big int (a lane's
    state is below 2**64 and its products below 2**128, so nothing crosses into the next
    lane; the shifts are masked back to 64 bits a lane). Several times faster than one draw
    at a time."""
    ones, offsets, low64, unpack, advance = _lanes(count)
    z = (state * ones + offsets) & low64  # state + k * golden, in lane k - 1
    z = ((z ^ ((z >> 30) & low64)) * 0xBF58476D1CE4E5B9) & low64
    z = ((z ^ ((z >> 27) & low64)) * 0x94D049BB133111EB) & low64
    z ^= (z >> 31) & low64
    return unpack.unpack(z.to_bytes(unpack.size, "little")), (state + advance) & MASK64


class Rng:
    """SplitMix64. ``state`` is a plain int, so copying and serialising is trivial."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = (self.state + _GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A number in ``range(n)``; the modulo bias is below 2**-57 for n < 128."""
        state = self.state = (self.state + _GOLDEN) & MASK64
        return mix64(state) % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place: ``items[i]`` swapped with ``items[next64() % (i +
        1)]`` for ``i`` from the last index down to 1 (the draws made all at once, see
        :func:`_draws`: decks are shuffled again and again in simulations)."""
        n = len(items)
        if n < 2:
            return
        draws, self.state = _draws(self.state, n - 1)
        for i, z in zip(range(n - 1, 0, -1), draws, strict=True):
            j = z % (i + 1)
            items[i], items[j] = items[j], items[i]

    def choice_index(self, n: int) -> int:
        return self.next64() % n
