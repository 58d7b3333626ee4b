"""The one door from the bots to the compiled engine (:mod:`sorry.fast`): the only module of
``sorry.bots`` that imports it, each import inside the function that needs it, so that the
bots import without numba and ``tests/test_layers.py`` can hold every other module of the
package to the layers of ``docs/design.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from ..view import PlayerView

if TYPE_CHECKING:
    from ..fast.mcts import TreeResult as TreeResult, TreeSearch
    from ..fast.search import ViewRoot


def view_root(view: PlayerView, scale: float) -> ViewRoot:
    """The compiled rollouts' root of a search from ``view`` (compiled just in time)."""
    from ..fast.search import ViewRoot

    return ViewRoot(view, scale=scale)


def tree_search(view: PlayerView, cands: Sequence[int], scale: float) -> TreeSearch:
    """The compiled tree search over the legal moves ``cands`` (indices) of ``view``."""
    from ..fast.mcts import TreeSearch

    return TreeSearch(view, list(cands), scale=scale)


def cache_only() -> AbstractContextManager[None]:
    """A guard under which the compiled code loads from numba's cache only, raising
    ``sorry.fast.cache.CompileNeeded`` where it would compile."""
    from ..fast.cache import cache_only as guard

    return guard()
