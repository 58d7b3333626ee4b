"""The calibration measures of the after-game analysis (``sorry.analysis.calibration``): the
slope and the reliability table on known predictions, and the adjustment of the model's win
shares for the players' strengths."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, strategies as st

from analysis_helpers import record
from sorry import Game, Rules
from sorry.analysis import analyse, calibration
from sorry.analysis.calibration import (
    LEVEL_STRENGTH,
    MODEL_TEMPER,
    ProgressEstimator,
    StrengthEstimator,
    brier,
    calibration_slope,
    game_left,
    game_model,
    reliability,
    seat_strengths,
    with_strengths,
)
from sorry.analysis.estimator import PlayoutEstimator, sample_values
from sorry.bots import LEVELS
from sorry.record import Seat


def test_every_level_has_a_strength_ordered_as_the_ladder() -> None:
    assert list(LEVEL_STRENGTH) == list(LEVELS)
    values = [LEVEL_STRENGTH[level] for level in LEVELS]
    assert values == sorted(values)
    assert LEVEL_STRENGTH["medium"] == 0.0  # the model's own level


def test_the_strengths_are_the_ladders_win_rates_against_medium() -> None:
    """Each level measured against the medium bot (the ratings' ladder, which a test compares
    with docs/strength.md) has the log-odds of that win rate as its strength."""
    ratings = pytest.importorskip("sorry.web.ratings")
    against_medium = [row for row in ratings.LADDER["standard"] if row[1] == "medium"]
    assert {row[0] for row in against_medium} >= {"hard", "learned", "expert"}
    for strong, _medium, wins, games in against_medium:
        assert LEVEL_STRENGTH[strong] == pytest.approx(math.log(wins / (games - wins)), abs=6e-4)


def test_a_strength_gap_at_the_start_is_the_head_to_head_win_rate() -> None:
    # the expert against the medium bot from an even start: its measured 62.9%
    got = with_strengths([0.5, 0.0, 0.5, 0.0], 1.0, [0.528, 0, 0, 0], [(0,), (2,)])
    assert got[0] == pytest.approx(0.629, abs=0.001)
    assert got[2] == pytest.approx(0.371, abs=0.001)
    # the same gap counts less with less of the game left, and not at all at the end
    later = with_strengths([0.5, 0.0, 0.5, 0.0], 0.3, [0.528, 0, 0, 0], [(0,), (2,)])
    assert 0.5 < later[0] < got[0]
    assert with_strengths([0.5, 0, 0.5, 0], 0.0, [0.528, 0, 0, 0], [(0,), (2,)])[0] == 0.5


def test_tempered_log_odds() -> None:
    # the log-odds multiplied: 0.8 -> logit 1.386 x 0.5 -> 2/3
    got = with_strengths([0.8, 0, 0.2, 0], 0.5, [0.0] * 4, [(0,), (2,)], temper=0.5)
    assert got[0] == pytest.approx(2 / 3)
    assert got[2] == pytest.approx(1 / 3)
    # with a strength too: the strength's shift on top of the tempered log-odds
    both = with_strengths([0.8, 0, 0.2, 0], 1.0, [0.3, 0, 0, 0], [(0,), (2,)], 1.0, 0.5)
    assert math.log(both[0] / both[2]) == pytest.approx(0.5 * math.log(4) + 0.3)


def test_a_decided_game_stays_decided() -> None:
    assert with_strengths([1.0, 0.0, 0.0, 0.0], 0.5, [-1.4, 0, 0.5, 0], [(0,), (2,)]) == [
        1.0,
        0.0,
        0.0,
        0.0,
    ]


def test_teams_move_together() -> None:
    got = with_strengths([0.5, 0.5, 0.5, 0.5], 1.0, [0.5, 0.0, 0.5, 0.0], [(0, 2), (1, 3)])
    assert got[0] == got[2] > 0.5
    assert got[1] == got[3] == pytest.approx(1 - got[0])


@given(
    st.lists(st.floats(0.01, 1.0), min_size=3, max_size=3),
    st.lists(st.floats(-1.5, 1.5), min_size=3, max_size=3),
    st.floats(0.0, 1.0),
    st.floats(0.5, 2.0),
)
def test_shares_stay_a_distribution_and_the_stronger_gains(
    raw: list[float], strength: list[float], left: float, power: float
) -> None:
    total = sum(raw)
    shares = [raw[0] / total, raw[1] / total, raw[2] / total, 0.0]
    strengths = [*strength, 0.0]
    got = with_strengths(shares, left, strengths, [(0,), (1,), (2,)], power)
    assert sum(got) == pytest.approx(1.0)
    assert got[3] == 0.0
    # the ratio of two sides' shares moves by the difference of their strengths
    w = left**power
    assert math.log(got[0] / got[1]) == pytest.approx(
        math.log(shares[0] / shares[1]) + (strength[0] - strength[1]) * w, abs=1e-9
    )


def test_the_game_left_from_progress() -> None:
    assert game_left(Game.from_position("R:S,S,S,S Y:S,S,S,S R")) == 1.0
    assert game_left(Game.from_position("R:H,H,H,S Y:H,S,S,S R")) == pytest.approx(0.25)
    # the side furthest ahead decides, not the one behind
    ahead = game_left(Game.from_position("R:H,H,S,S Y:S,S,S,S R"))
    assert ahead == game_left(Game.from_position("R:H,H,S,S Y:H,H,S,S R")) == 0.5


def test_slope_and_reliability_of_known_predictions() -> None:
    # outcomes drawn exactly as predicted: a slope of 1; the same predictions pulled halfway
    # to 1/2 look underconfident (slope above 1), pushed out overconfident (below 1)
    ps = [i / 50 for i in range(1, 50)]
    fair = [(p, o) for p in ps for o in (1, 0) for _ in range(round(100 * (p if o else 1 - p)))]
    assert calibration_slope(fair) == pytest.approx(1.0, abs=0.01)

    def pushed(p: float, k: float) -> float:
        return 1 / (1 + math.exp(-k * math.log(p / (1 - p))))

    assert calibration_slope([(pushed(p, 0.5), o) for p, o in fair]) == pytest.approx(2, abs=0.05)
    assert calibration_slope([(pushed(p, 2), o) for p, o in fair]) == pytest.approx(0.5, abs=0.02)
    bins = reliability(fair)
    assert sum(b.count for b in bins) == len(fair)
    assert max(abs(b.gap) for b in bins if b.count) < 0.01
    assert brier(fair) < brier([(0.5, o) for _p, o in fair])


def test_the_seats_strengths() -> None:
    rec = record("standard", 2, levels=("hard", "easy"))
    assert seat_strengths(rec) == (LEVEL_STRENGTH["hard"], 0.0, LEVEL_STRENGTH["easy"], 0.0)


def test_a_person_has_the_models_strength() -> None:
    rec = record("standard", 2, levels=("hard", "easy"))
    mixed = dataclasses.replace(rec, seats=(Seat(0, "human", "Ann"), rec.seats[1]))
    assert mixed.seats[0].kind == "human" and seat_strengths(mixed)[0] == 0.0
    assert seat_strengths(mixed)[2] == LEVEL_STRENGTH["easy"]


def test_the_analysis_judges_a_game_with_the_model_of_its_players(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Unless told otherwise, ``analyse`` values a game with its seats' strengths and the
    tempered log-odds (``game_model``) on the default rollouts; the account still adds up."""
    rec = record("standard", 2, levels=("hard", "easy"))
    model = game_model(rec, ProgressEstimator())
    assert isinstance(model, StrengthEstimator)
    assert model.strengths == list(seat_strengths(rec)) and model.temper == MODEL_TEMPER == 0.9
    monkeypatch.setattr(calibration, "default_estimator", ProgressEstimator)
    got = analyse(rec)
    assert got.points == analyse(rec, estimator=model).points
    bare = analyse(rec, estimator=ProgressEstimator())
    assert got.points != bare.points
    # the hard bot (Red) is given more than the rollouts alone give it at the start
    assert got.players[0].start > bare.players[0].start
    for p in got.players:
        assert p.start + p.luck + p.own_decisions + p.others_decisions == p.result  # exactly


def test_tempered_samples_temper_the_whole_mean_and_move_their_rows_with_it() -> None:
    """A sample's mean is the tempered mean of all its rollouts (not of batches), and each
    row moves by the derivative there: the rows still average the mean, and their spread
    shrinks as the values do."""
    nodes = [
        Game.from_position("R:S,H,H,H Y:S,S,S,S R", card=1),
        Game.from_position("R:12,S,S,S Y:40,S,S,S Y", card=5),
    ]
    inner = PlayoutEstimator()
    est = StrengthEstimator(inner, [0.0] * 4, temper=0.9)
    plain = sample_values(inner, nodes, 40, 3)
    got = est.samples(nodes, 40, 3)
    assert [s.mean for s in got] == est.values(nodes, 40, 3)
    for node, a, b in zip(nodes, plain, got, strict=True):
        assert b.mean == est.adjust(node, a.mean)
        p, o = float(a.mean[0]), float(b.mean[0])
        assert 0 < p < 1 and abs(o - 0.5) < abs(p - 0.5)  # less sure
        assert sum(r[0] for r in b.rows) / len(b.rows) == pytest.approx(o, abs=1e-12)
        slope = 0.9 * o * (1 - o) / (p * (1 - p))
        assert b.variance(0) == pytest.approx(slope**2 * a.variance(0), rel=1e-9)
        assert b.variance(2) == pytest.approx(b.variance(0), rel=1e-9)  # Yellow mirrors Red


def test_an_account_on_strengths_adds_up_and_equal_strengths_change_nothing() -> None:
    rec = record("standard", 2)
    plain = analyse(rec, estimator=ProgressEstimator())
    same = analyse(rec, estimator=StrengthEstimator(ProgressEstimator(), [0.3] * 4))
    assert [pt.values for pt in same.points] == [pt.values for pt in plain.points]
    strong = analyse(rec, estimator=StrengthEstimator(ProgressEstimator(), [0.5, 0, 0, 0]))
    for p in strong.players:
        assert p.start + p.luck + p.own_decisions + p.others_decisions == p.result  # exactly
    red = {p.colour: p for p in strong.players}[0]
    assert red.start > {p.colour: p for p in plain.players}[0].start
    assert sum(p.start for p in strong.players) == 1


def test_strengths_in_a_team_game_move_both_partners() -> None:
    g = Game.from_position("R:S,S,S,S B:S,S,S,S Y:S,S,S,S G:S,S,S,S R", Rules(variant="teams"))
    [inner] = ProgressEstimator().values([g], 1, 0)
    [v] = StrengthEstimator(ProgressEstimator(), [0.4, 0, 0, 0]).values([g], 1, 0)
    assert v[0] == v[2] > inner[0]
    assert v[1] == v[3] < inner[1]
