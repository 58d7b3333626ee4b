"""One player's luck over many games: the sum of the luck of their analysed games, with its
interval (a profile page's "your cards over 40 games").

Each game's analysis gives each player a **luck** total (every draw's effect on that player's
chance of winning, against the average card) and its standard error (``luck_se``, the
estimate's own uncertainty). Over many games:

* the **total** is what the cards did to the player, in wins: +1.3 means the cards were worth
  1.3 wins more than average cards would have been. Its interval is the estimates'
  uncertainty only (the games' estimates are independent);
* the **mean per game**, with an interval from the spread between the games: luck averages
  zero for everybody, so an interval that holds 0 says the player's luck is within what chance
  alone gives.

The input is the player's row of each game's analysis: an element of the analysis JSON's
``players`` list (:func:`sorry.analysis.report.to_dict`, the server's
``GET /api/games/{id}/analysis``), small enough to keep per game and account.

>>> rows = [{"luck": 0.30, "luck_se": 0.02}, {"luck": -0.10, "luck_se": 0.02},
...         {"luck": 0.25, "luck_se": 0.01}]
>>> s = luck_over_games(rows)
>>> s.games, round(s.total, 2), round(s.total_low, 2), round(s.total_high, 2)
(3, 0.45, 0.39, 0.51)
>>> round(s.per_game, 2), round(s.per_game_low or 0, 2), round(s.per_game_high or 0, 2)
(0.15, -0.39, 0.69)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..i18n import _, ngettext

_Z95: Final = 1.959964

#: Student's t at 97.5% by degrees of freedom (1-30; the normal's beyond).
_T975: Final = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (df >= 1)."""
    if df < 1:
        raise ValueError("at least one degree of freedom")
    return _T975[df - 1] if df <= len(_T975) else _Z95


@dataclass(frozen=True, slots=True)
class LuckOverGames:
    """One player's luck over ``games`` analysed games, in wins (fractions of one game)."""

    games: int
    #: The luck summed over the games, and its 95% interval from the estimates' uncertainty.
    total: float
    total_low: float
    total_high: float
    #: The mean per game, and its 95% interval from the spread between the games (None with
    #: fewer than two games).
    per_game: float
    per_game_low: float | None
    per_game_high: float | None

    @property
    def within_chance(self) -> bool | None:
        """Whether the mean per game is within what chance alone gives (its interval holds 0);
        None with fewer than two games."""
        if self.per_game_low is None or self.per_game_high is None:
            return None
        return self.per_game_low <= 0.0 <= self.per_game_high

    def sentence(self) -> str:
        """The total in a player's words, in the current language."""
        if self.games == 0:
            return _("No analysed games yet.")
        wins = abs(self.total)
        values = {
            "games": self.games,
            "wins": f"{wins:.1f}",
            "low": f"{self.total_low:+.1f}",
            "high": f"{self.total_high:+.1f}",
        }
        if round(self.total, 1) == 0:
            return ngettext(
                "Over {games} game your cards were worth what average cards are worth "
                "(from {low} to {high} wins, at 95%).",
                "Over {games} games your cards were worth what average cards are worth "
                "(from {low} to {high} wins, at 95%).",
                self.games,
            ).format(**values)
        if self.total > 0:
            return ngettext(
                "Over {games} game your cards were worth {wins} wins more than average cards "
                "(from {low} to {high}, at 95%).",
                "Over {games} games your cards were worth {wins} wins more than average cards "
                "(from {low} to {high}, at 95%).",
                self.games,
            ).format(**values)
        return ngettext(
            "Over {games} game your cards were worth {wins} wins less than average cards "
            "(from {low} to {high}, at 95%).",
            "Over {games} games your cards were worth {wins} wins less than average cards "
            "(from {low} to {high}, at 95%).",
            self.games,
        ).format(**values)


def luck_over_games(rows: Iterable[Mapping[str, Any]]) -> LuckOverGames:
    """One player's luck over their analysed games (see the module doc). Each row is that
    player's element of one game's analysis ``players`` list; ``luck`` is required,
    ``luck_se`` counts as 0 when missing (an analysis made before it was reported)."""
    lucks: list[float] = []
    variance = 0.0
    for row in rows:
        luck = row.get("luck")
        if not isinstance(luck, int | float) or isinstance(luck, bool) or not math.isfinite(luck):
            raise ValueError(f"a player's row without a luck figure: {dict(row)!r}")
        se = row.get("luck_se") or 0.0
        lucks.append(float(luck))
        variance += float(se) ** 2
    n = len(lucks)
    total = sum(lucks)
    half = _Z95 * math.sqrt(variance)
    mean = total / n if n else 0.0
    low = high = None
    if n >= 2:
        sd = math.sqrt(sum((x - mean) ** 2 for x in lucks) / (n - 1))
        h = t975(n - 1) * sd / math.sqrt(n)
        low, high = mean - h, mean + h
    return LuckOverGames(n, total, total - half, total + half, mean, low, high)


__all__ = ["LuckOverGames", "luck_over_games", "t975"]
