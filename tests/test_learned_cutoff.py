"""The expert with the learned cut-off (``make_bot("expert", evaluation="learned")``): a rollout
cut off is scored by the network (:mod:`sorry.learned._cutoff`), checked against a plain numpy
forward pass of the network and against the learned level's own values of the same
afterstates, and it changes the expert's decision where the two evaluations disagree."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from sorry import Game, Rules
from sorry.bots import make_bot, play_game
from sorry.bots.learned import LearnedBot, cutoff_root
from sorry.errors import SorryError
from sorry.learned import _cutoff
from sorry.learned.model import shipped
from sorry.moves import DISCARD
from sorry.rng import Rng, derive_seed


def reference(x: np.ndarray, ncols: int, teams: bool, variant: str) -> np.ndarray:
    """The network's chance for the seat at row 0 (with its partner in teams), in plain
    numpy from the saved weights: tanh hidden layer, softmax over the seats in play."""
    m = shipped(variant)
    h = np.tanh(x @ m.W1 + m.b1)
    z = h @ m.W2[:, :ncols] + m.b2[:ncols]
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return np.asarray(p[:, 0] + p[:, 2] if teams and ncols == 4 else p[:, 0])


def sampled_views(variant: str, players: int, count: int, seed: int = 5) -> list[Any]:
    """Views with a real choice, from games of the learned bot against hard."""
    views: list[Any] = []
    k = 0
    while len(views) < count:
        g = Game(Rules(variant=variant), players, seed=derive_seed(seed, k))
        bots = [make_bot("hard"), make_bot("learned")]
        rng = Rng(k)
        k += 1
        turn = 0
        while not g.is_over() and len(views) < count:
            if g.is_chance():
                g.draw()
                continue
            v = g.view(g.to_move)
            real = len(v.legal_moves) > 1 and any(m.kind != DISCARD for m in v.legal_moves)
            if real and turn % 7 == 3:
                views.append(v)
            turn += 1
            g.push(bots[g.colours.index(g.to_move) % 2].choose(v, rng))
    return views


@pytest.mark.parametrize(("variant", "players"), [("standard", 2), ("teams", 4), ("points", 3)])
def test_cut_offs_are_the_network_of_the_position(variant: str, players: int) -> None:
    for view in sampled_views(variant, players, 4):
        root = cutoff_root(view)
        a = root.arrays
        cands = np.arange(len(view.legal_moves), dtype=np.int64)
        worlds = np.arange(1, 9, dtype=np.uint64)
        out = root.scores(cands, worlds, 12)
        # the same rollouts, the cut-offs' features written out instead
        X = np.zeros((len(worlds) * len(cands), shipped(variant).W1.shape[0]))
        flags = np.empty_like(out)
        _cutoff.cutoff_features(
            a.R, a.S0, a.slide, a.P, a.cols, cands, worlds, 12, a.hitm, a.E, root.net, X, flags
        )
        cut = flags.reshape(-1) < 0
        assert cut.any()
        teams = view.rules.teams
        want = reference(X[cut], len(view.colours), teams, variant)
        assert np.allclose(out.reshape(-1)[cut], want, atol=1e-12)
        assert np.array_equal(out.reshape(-1)[~cut], flags.reshape(-1)[~cut])  # decided: 1 or 0
        assert ((out > 0) & (out < 1)).reshape(-1)[cut].all()


def test_cut_off_at_once_is_the_learned_levels_value_of_the_move() -> None:
    # depth 0: each move is scored at the position it leaves (the next player not yet drawn),
    # which is what the learned level values a move by (in the standard game the draw pile of
    # every world holds exactly the cards the view has not seen)
    for view in sampled_views("standard", 2, 6):
        moves = list(view.legal_moves)
        out = cutoff_root(view).scores(list(range(len(moves))), [3, 4], 0)
        want = LearnedBot().scores(view, moves)
        assert np.allclose(out[0], want, atol=1e-12) and np.allclose(out[1], want, atol=1e-12)


#: A position where the two cut-offs disagree, Yellow to move with a 5: the expert moves its
#: pawn on 29 (the hand-tuned cut-off), with the learned cut-off the pawn on 14 (found by
#: playing the expert with each evaluation on positions of learned-vs-hard games).
POSITION = "R:19,H,H,H Y:6,14,29,34 Y"
CARD = 5


def test_the_learned_cut_off_changes_the_experts_decision() -> None:
    g = Game.from_position(POSITION, card=CARD, seed=3)
    view = g.view(g.to_move)
    tuned = make_bot("expert", simulations=2000, evaluation="tuned")
    learned = make_bot("expert", simulations=2000, evaluation="learned")
    a = {str(tuned.choose(view, Rng(s))) for s in (1, 2)}
    b = {str(learned.choose(view, Rng(s))) for s in (1, 2)}
    assert a == {"Y29+5"} and b == {"Y14+5"}  # each sure of its move, in other worlds too


def test_an_unknown_cut_off_evaluation_is_refused() -> None:
    with pytest.raises(SorryError, match="evaluation must be one of tuned, learned"):
        make_bot("expert", evaluation="neural")
    with pytest.raises(SorryError, match="compiled engine"):
        make_bot("expert", evaluation="learned", engine="python")


def test_learned_rollouts_are_the_learned_bot_at_every_seat() -> None:
    """``rollout="learned"``: each rollout is the game the learned level plays at every seat
    in that world (the Python engine, ``Game.from_view(view, seed=world)``), and its cut-off
    the network's value of the position it reaches, for the viewer."""
    from sorry.learned import evaluator
    from sorry.state import PawnState

    for view in sampled_views("standard", 2, 3):
        moves = list(view.legal_moves)
        root = cutoff_root(view, policy="learned")
        assert root.policy == "learned"
        for depth in (1, 12):
            out = root.scores(list(range(len(moves))), [5, 6], depth)
            for w, world in enumerate((5, 6)):
                for j, move in enumerate(moves):
                    g = Game.from_view(view, seed=world)
                    g.push(move)
                    played = 0
                    while played < depth and not g.is_over():
                        if g.is_chance():
                            g.draw()
                            continue
                        v = g.view(g.to_move)
                        scores = LearnedBot().scores(v, list(v.legal_moves))
                        g.push(v.legal_moves[int(np.argmax(scores))])
                        played += 1
                    if g.is_over():
                        want = 1.0 if g.winner == view.viewer else 0.0
                    else:
                        end = g.view(view.viewer)
                        state = PawnState(end.pawns, end.rules)
                        values = evaluator(end).seat_values([state], [g.to_move], view.viewer)
                        want = float(values[0, 0])
                    assert out[w, j] == pytest.approx(want, abs=1e-9), (depth, world, move)


def test_the_expert_with_learned_rollouts_plays_whole_games_the_same_way() -> None:
    bots = [make_bot("expert", rollout="learned", simulations=64, depth=8), make_bot("medium")]
    g = play_game(Rules(), bots, seed=4)
    again = play_game(
        Rules(),
        [make_bot("expert", rollout="learned", simulations=64, depth=8), make_bot("medium")],
        seed=4,
    )
    assert g.is_over() and again.to_dict() == g.to_dict()
    with pytest.raises(SorryError, match="rollout must be one of medium, learned"):
        make_bot("expert", rollout="neural")
