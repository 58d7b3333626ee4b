"""Matches: series of games with running scores (docs/variants.md, Matches)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine_helpers import play_out, random_moves
from sorry.errors import GameStateError, RulesError
from sorry.game import Game
from sorry.match import Match
from sorry.moves import Move
from sorry.rng import derive_seed
from sorry.rules import Rules

POINTS = Rules(variant="points")


def random_chooser(seed: int) -> Callable[[Game], Move]:
    rnd = random.Random(seed)

    def choose(game: Game) -> Move:
        return rnd.choice(game.legal_moves)

    return choose


def test_points_match_to_a_number_of_games() -> None:
    m = Match(POINTS, players=3, games=3, seed=9)
    rnd = random.Random(1)
    totals = dict.fromkeys(m.colours, 0)
    previous: Game | None = None
    for i in range(3):
        assert not m.is_over() and m.winner is None and m.winners == ()
        g = m.new_game()
        assert g.seed == derive_seed(9, i)
        assert g.rules == POINTS and g.colours == (0, 1, 2)
        if previous is not None:
            assert g.first == previous.winner  # the winner starts the next game
        play_out(g, random_moves(rnd))
        assert g.scores is not None
        result = m.record_result(g)
        assert result.index == i and result.scores == g.scores and result.first == g.first
        assert result.winners == g.winners
        for c, s in g.scores.items():
            totals[c] += s
        assert m.scores == totals
        previous = g
    assert m.is_over() and m.games_played == 3
    assert m.winners == (max(totals, key=lambda c: totals[c]),) or len(m.leaders) > 1
    assert m.standings()[0][1] == max(totals.values())
    with pytest.raises(GameStateError, match="over"):
        m.new_game()


def test_match_is_reproducible_from_its_seed() -> None:
    a = Match(POINTS, players=2, games=2, seed=123)
    b = Match(POINTS, players=2, games=2, seed=123)
    a.play(random_chooser(5))
    b.play(random_chooser(5))
    assert a.to_dict() == b.to_dict()
    c = Match(POINTS, players=2, games=2, seed=124)
    c.play(random_chooser(5))
    assert [r.seed for r in c.results] != [r.seed for r in a.results]


def test_standard_match_to_a_target_counts_wins() -> None:
    m = Match(Rules(), players=2, target=2, seed=3)
    winner = m.play(random_chooser(3))
    assert winner is not None and m.scores[winner] == 2
    assert 2 <= m.games_played <= 3
    assert sum(m.scores.values()) == m.games_played
    for r in m.results:
        assert len(r.winners) == 1 and r.scores[r.winners[0]] == 1
    for a, b in zip(m.results, m.results[1:], strict=False):
        assert b.first == a.winners[0]
    assert m.to_dict()["winners"] == ["RBYG"[winner]]


def test_points_match_to_a_target_score() -> None:
    m = Match(POINTS, players=2, target=150, seed=8)
    winner = m.play(random_chooser(8))
    assert winner is not None
    assert m.scores[winner] >= 150
    assert all(s < m.scores[winner] for c, s in m.scores.items() if c != winner)
    # Before the last game nobody had reached the target with a lead.
    before = {c: m.scores[c] - m.results[-1].scores[c] for c in m.colours}
    assert max(before.values()) < 150 or len({s for s in before.values()}) == 1


def test_team_match_scores_both_partners() -> None:
    m = Match(Rules(variant="teams"), games=2, seed=4)
    assert m.colours == (0, 1, 2, 3)
    m.play(random_chooser(4))
    for r in m.results:
        assert set(r.winners) in ({0, 2}, {1, 3})
    assert m.scores[0] == m.scores[2] and m.scores[1] == m.scores[3]
    assert m.scores[0] + m.scores[1] == 2
    if m.scores[0] != m.scores[1]:
        assert set(m.winners) in ({0, 2}, {1, 3}) and m.winner in (0, 1)
    else:
        assert m.winner is None and m.winners == () and set(m.leaders) == {0, 1, 2, 3}


def test_tied_match_has_no_winner_and_unfinished_games_score_nothing() -> None:
    rules = Rules.from_options("points", ["turn_limit=2"])
    m = Match(rules, players=(0, 1, 3), games=2, seed=1, first=1)
    g = m.new_game()
    assert g.first == 1
    play_out(g, random_moves(random.Random(0)))
    assert g.unfinished
    r = m.record_result(g)
    assert r.winners == () and r.scores == {0: 0, 1: 0, 3: 0}
    g = m.new_game()
    assert g.first == 3  # no winner: the next seat after the previous first player starts
    play_out(g, random_moves(random.Random(0)))
    m.record_result(g)
    assert m.is_over() and m.winner is None and m.leaders == (0, 1, 3)


def test_target_tie_at_the_top_plays_on() -> None:
    rules = Rules.from_options("standard", ["turn_limit=1"])
    m = Match(rules, players=2, target=3, games=5, seed=2)
    g = m.new_game()
    play_out(g, random_moves(random.Random(0)))
    m.record_result(g)
    m.scores = {0: 3, 2: 3}  # leaders tied above the target: not over
    assert not m.is_over() and m.winner is None
    m.scores = {0: 4, 2: 3}
    assert m.is_over() and m.winner == 0 and m.winners == (0,)


def test_match_misuse_is_refused() -> None:
    with pytest.raises(RulesError, match="number of games or a target"):
        Match(POINTS, players=2)
    with pytest.raises(RulesError, match="positive"):
        Match(POINTS, players=2, games=0)
    with pytest.raises(RulesError, match="positive"):
        Match(POINTS, players=2, target=-5)
    with pytest.raises(RulesError, match="four colours"):
        Match(Rules(variant="teams"), players=2, games=1)
    # Unfinished games score nothing: a target alone might never be reached.
    with pytest.raises(RulesError, match="number of games"):
        Match(Rules.from_options("points", ["turn_limit=10"]), players=2, target=100)
    with pytest.raises(RulesError, match="not playing"):
        Match(Rules(), players=2, games=1, first=1)
    m = Match(Rules(), players=2, games=1, seed=0)
    g = m.new_game()
    with pytest.raises(GameStateError, match="in progress"):
        m.new_game()
    with pytest.raises(GameStateError, match="not over"):
        m.record_result(g)
    with pytest.raises(GameStateError, match="new_game"):
        m.record_result(Game(seed=0, players=2))
    assert m.current is g
    play_out(g, random_moves(random.Random(0)))
    m.record_result(g)
    with pytest.raises(GameStateError, match="new_game"):
        m.record_result(g)  # only once
    assert m.is_over() and m.winner == g.winner
