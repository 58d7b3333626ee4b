"""A tiny portable random generator (SplitMix64), so a seed gives the same game everywhere.

Python's own :mod:`random` is not used for anything that decides a game: SplitMix64 is a few
lines that any engine (the compiled one included) can reproduce bit for bit.

>>> r = Rng(42)
>>> [r.below(10) for _ in range(5)]
[3, 1, 8, 4, 0]
"""

from __future__ import annotations

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
        return self.next64() % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place (``next64`` inlined: reshuffles are frequent in
        simulations)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            state = (state + _GOLDEN) & MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = state

    def choice_index(self, n: int) -> int:
        return self.next64() % n
