"""One player's luck over many games (a profile page's figure): totals, intervals, words."""

from __future__ import annotations

import math

import pytest

from analysis_helpers import record
from sorry.analysis import analyse, luck_over_games, report
from sorry.analysis.calibration import ProgressEstimator
from sorry.analysis.overall import t975
from sorry.i18n import using


def test_the_rows_of_analysed_games_add_up() -> None:
    rows = []
    for seed in (4, 5, 6):
        data = report.to_dict(
            analyse(record("standard", 2, seed=seed), estimator=ProgressEstimator()),
            describe_moves=False,
        )
        rows.append(next(p for p in data["players"] if p["colour"] == "R"))
    s = luck_over_games(rows)
    assert s.games == 3
    assert s.total == pytest.approx(sum(r["luck"] for r in rows))
    assert s.per_game == pytest.approx(s.total / 3)
    assert s.per_game_low is not None and s.per_game_high is not None
    assert s.per_game_low < s.per_game < s.per_game_high
    assert s.total_low <= s.total <= s.total_high


def test_intervals() -> None:
    one = luck_over_games([{"luck": 0.2, "luck_se": 0.05}])
    assert (one.per_game_low, one.per_game_high, one.within_chance) == (None, None, None)
    assert one.total_high - one.total == pytest.approx(1.959964 * 0.05)
    # the spread between games gives the mean's interval (Student's t)
    rows = [{"luck": x, "luck_se": 0.0} for x in (0.1, -0.1, 0.3, -0.3)]
    s = luck_over_games(rows)
    sd = math.sqrt((0.01 + 0.01 + 0.09 + 0.09) / 3)
    assert s.per_game_high == pytest.approx(t975(3) * sd / 2)
    assert s.within_chance is True and s.total_low == s.total_high == pytest.approx(0.0)
    lucky = luck_over_games([{"luck": 0.4 + d} for d in (0.01, -0.01, 0.02, 0.0)])
    assert lucky.within_chance is False
    assert luck_over_games([]).games == 0


def test_bad_rows_are_refused() -> None:
    with pytest.raises(ValueError, match="without a luck figure"):
        luck_over_games([{"colour": "R"}])
    with pytest.raises(ValueError):
        luck_over_games([{"luck": float("nan")}])


def test_the_sentence_in_every_language() -> None:
    s = luck_over_games([{"luck": 0.9, "luck_se": 0.1}, {"luck": 0.4, "luck_se": 0.1}])
    assert s.sentence() == (
        "Over 2 games your cards were worth 1.3 wins more than average cards "
        "(from +1.0 to +1.6, at 95%)."
    )
    assert "less than average" in luck_over_games([{"luck": -0.5}]).sentence()
    assert "what average cards are worth" in luck_over_games([{"luck": 0.01}]).sentence()
    for lang in ("ca", "el", "eo", "sw"):
        with using(lang):
            text = s.sentence()
        assert "1.3" in text and "+1.0" in text and "Over" not in text
