"""The fast engine's seeds and policy streams are the reference's: the same first player, the
same deck, the same choices."""

from __future__ import annotations

from fast_helpers import play_reference
from sorry import Game, Rules, fast
from sorry.rng import derive_seed


def test_first_player_and_deck_match_the_reference() -> None:
    for players in (2, 3, 4):
        for seed in range(20):
            g = Game(Rules(), players, seed=seed)
            r = fast.play(seed, players, policy="first", max_trace=45)
            assert r.first[0] == g.first
            cards = []
            while len(cards) < 45:
                g.draw()
                cards.append(g.card)
                g.push(g.legal_moves[0])
                if g.is_over():
                    break
            assert [int(c) for c in r.trace[: len(cards), 0]] == cards


def test_policy_streams_are_sorry_sims() -> None:
    assert fast.policy_seed(7, 2) == derive_seed(7, 1002)
    r = fast.play(5, 4)
    _g, trace = play_reference(5, 4, Rules())
    assert [(n, k) for _, n, k in trace] == [(int(a), int(b)) for a, b in r.trace[:, 1:]]
