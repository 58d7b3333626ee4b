"""Whole games: the fast engine and the reference, with the same seed (hence the same first
player and card sequence) and the same policy stream, end in identical states; and the fast
engine's statistics agree with independent reference games within confidence intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fast_helpers import play_reference
from sorry import Rules, fast
from sorry.rng import derive_seed

GAME_CONFIGS = [
    ("standard", {}, 2),
    ("standard", {}, 3),
    ("standard", {}, 4),
    ("standard", {"slide_on": "all", "sorry_forward_4": "always", "swap_slides": "both"}, 4),
    ("standard", {"deck": "44", "two_draws_again": "no", "starting_pawns_out": "1"}, 3),
    ("standard", {"sorry_forward_4": "fallback", "slide_on": "own", "turn_limit": "60"}, 4),
    ("teams", {}, 4),
    ("teams", {"team_swap_partner": "yes"}, 4),
    ("points", {}, 2),
    ("points", {}, 4),
    ("points", {"points_bonus": "cumulative"}, 3),
]


def _check_same_games(
    variant: str, options: dict[str, str], players: int, policy: str, n: int
) -> None:
    rules = Rules.from_options(variant, options)
    seeds = [derive_seed(3, k) for k in range(n)]
    batch = fast.simulate(n, players, rules=rules, policy=policy, seeds=seeds, threads=2)
    for k, seed in enumerate(seeds):
        g, trace = play_reference(seed, players, rules, policy)
        where = f"seed {seed} ({variant} {rules.options_text()}, {players} players, {policy})"
        if batch.position(k) != g.board_text() or int(batch.turns[k]) != g.turn:
            one = fast.play(seed, players, policy=policy, rules=rules)
            for t, (pos, nmoves, choice) in enumerate(trace):
                if (nmoves, choice) != (int(one.trace[t, 1]), int(one.trace[t, 2])):
                    pytest.fail(
                        f"{where}: games differ at move {t} in {pos!r}: reference lists "
                        f"{nmoves} moves and plays #{choice}, fast {tuple(one.trace[t])}"
                    )
            pytest.fail(f"{where}: final {batch.position(k)!r} vs {g.board_text()!r}")
        winner = int(batch.winner[k])
        assert (winner if winner >= 0 else None) == g.winner, where
        assert int(batch.first[k]) == g.first, where
        if rules.points:
            assert {c: int(batch.scores[k, c]) for c in g.colours} == g.scores, where


@pytest.mark.parametrize(("variant", "options", "players"), GAME_CONFIGS)
@pytest.mark.parametrize("policy", ["random", "easy"])
def test_same_games_as_reference(
    variant: str, options: dict[str, str], players: int, policy: str
) -> None:
    _check_same_games(variant, options, players, policy, 4)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "options", "players"), GAME_CONFIGS)
@pytest.mark.parametrize("policy", ["random", "easy"])
def test_many_same_games(variant: str, options: dict[str, str], players: int, policy: str) -> None:
    _check_same_games(variant, options, players, policy, 30)


def _seat_of(winner: int, first: int, colours: tuple[int, ...]) -> int:
    """Seat of the winner counted from the first player (0 = moved first)."""
    return (colours.index(winner) - colours.index(first)) % len(colours)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_statistics_agree_with_independent_reference_games(players: int) -> None:
    """Seat win rates (seat 0 = first player) and mean game length of 20,000 fast games agree
    with 300 reference games on other seeds: |difference| < 4 standard errors."""
    rules = Rules()
    cols = (0, 2) if players == 2 else (0, 1, 2, 3)
    res = fast.simulate(20_000, players, seed=11)
    fast_seats = np.zeros(players)
    for w, f in zip(res.winner, res.first, strict=True):
        fast_seats[_seat_of(int(w), int(f), cols)] += 1
    n_ref = 300
    ref_seats = np.zeros(players)
    ref_turns = []
    for k in range(n_ref):
        g, _ = play_reference(derive_seed(12, k), players, rules)
        assert g.winner is not None
        ref_seats[_seat_of(g.winner, g.first, cols)] += 1
        ref_turns.append(g.turn)
    for s in range(players):
        p_fast = fast_seats[s] / res.games
        p_ref = ref_seats[s] / n_ref
        se = math.sqrt(p_fast * (1 - p_fast) / res.games + p_ref * (1 - p_ref) / n_ref)
        assert abs(p_fast - p_ref) < 4 * se, (s, p_fast, p_ref, se)
    t_fast = res.turns.astype(float)
    t_ref = np.array(ref_turns, dtype=float)
    se = math.sqrt(t_fast.var() / len(t_fast) + t_ref.var() / len(t_ref))
    assert abs(t_fast.mean() - t_ref.mean()) < 4 * se, (t_fast.mean(), t_ref.mean(), se)


def test_random_policy_plays_sorry_sims_random_bot_games() -> None:
    """Same master seed, same games: sorry.sim with random bots and sorry.fast's random policy."""
    from sorry.sim import simulate as sim_simulate

    for players in (2, 4):
        ref = sim_simulate(12, players=players, bots=["random"], seed=5)
        res = fast.simulate(12, players, seed=5)
        cols = res.colours
        assert [s["wins"] for s in ref["seats"]] == [int((res.winner == c).sum()) for c in cols]
        assert ref["length"]["mean"] == pytest.approx(float(res.turns.mean()))
        assert ref["first_player"]["wins"] == int((res.winner == res.first).sum())
