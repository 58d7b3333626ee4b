"""The Monte-Carlo tree search (``make_bot("expert", search="mcts")``, :mod:`sorry.fast.mcts`):
deterministic under a seed, legal in concrete positions of every variant, better than the hard
bot where the rollouts say so, the partner playing for the team, the points hand."""

from __future__ import annotations

import pytest

from sorry import Game, Rules
from sorry.bots import make_bot
from sorry.bots.expert import ExpertBot
from sorry.bots.rollouts import compiled_available
from sorry.errors import SorryError
from sorry.rng import Rng

pytestmark = pytest.mark.skipif(not compiled_available(), reason="needs the fast extra")


def mcts(**kw: object) -> ExpertBot:
    bot = make_bot("expert", search="mcts", **kw)  # type: ignore[arg-type]
    assert isinstance(bot, ExpertBot)
    return bot


POSITIONS = [
    ("standard", "R:S,S,25,45 Y:20,S,S,S R", 7, None),
    ("standard", "R:S,12,s2,H Y:20,33,S,S R", 11, None),
    ("standard", "R:S,S,S,S Y:20,33,s1,S R", 13, None),
    ("teams", "R:S,S,25,45 B:3,S,S,S Y:20,S,S,S G:40,41,S,S R", 10, None),
    ("points", "R:S,S,25,45 Y:20,S,S,S R", None, {0: [1, 4, 7, 11, 13]}),
]


@pytest.mark.parametrize(("variant", "pos", "card", "hands"), POSITIONS)
def test_mcts_chooses_a_legal_move_and_is_deterministic(
    variant: str, pos: str, card: int | None, hands: dict[int, list[int]] | None
) -> None:
    g = Game.from_position(pos, Rules(variant=variant), card=card, hands=hands, seed=3)
    while g.is_chance():  # points: the opponent's hand is dealt
        g.draw()
    view = g.view(g.to_move)
    assert len(view.legal_moves) > 1
    bot = mcts(simulations=300)
    first = bot.choose(view, Rng(11))
    assert first in view.legal_moves
    assert all(bot.choose(view, Rng(11)) == first for _ in range(2))
    ranked = [m for m, _s in bot.hard.ranked(view)]
    res = bot.tree_search(view, ranked, Rng(11)).result
    again = bot.tree_search(view, ranked, Rng(11)).result
    assert res is not None and res == again
    assert res.iterations == 300 and sum(res.visits) == 300
    other = bot.tree_search(view, ranked, Rng(12)).result
    assert other is not None and other.visits != res.visits  # another seed, other worlds


def test_mcts_whole_game_is_reproducible() -> None:
    def game() -> list[str]:
        g = Game(Rules(), 2, seed=5)
        bots = {0: mcts(simulations=60), 2: make_bot("medium")}
        rngs = {0: Rng(1), 2: Rng(2)}
        log = []
        while not g.is_over() and len(log) < 60:
            if g.is_chance():
                g.draw()
                continue
            c = g.to_move
            m = bots[c].choose(g.view(c), rngs[c])
            assert m in g.legal_moves
            g.push(m)
            log.append(str(m))
        return log

    assert game() == game()


def test_mcts_finds_a_better_move_than_hard() -> None:
    """Yellow is one step from winning; Red's 1 either moves the pawn on square 1 or enters a
    pawn. The hard bot moves the pawn on; the tree search enters another one, and whole games
    played out from here (the same 3,000 worlds for both moves) agree that it wins more."""
    from sorry.fast.search import ViewRoot

    g = Game.from_position("R:S,S,1,H Y:s5,H,H,H R", card=1)
    view = g.view(0)
    hard = make_bot("hard").choose(view, Rng(1))
    best = mcts(simulations=8000).choose(view, Rng(1))
    assert (str(hard), str(best)) == ("R1+1", "RS>4")
    moves = view.legal_moves
    scores = ViewRoot(view).scores(
        [moves.index(hard), moves.index(best)], list(range(1, 3001)), 100_000
    )
    diff = scores[:, 1] - scores[:, 0]
    assert diff.mean() > 3 * diff.std() / len(diff) ** 0.5 > 0


def test_mcts_partner_plays_for_the_team() -> None:
    """In teams the partner's moves in the tree keep the value of the viewer's side and the
    opponents' one minus it: with Red and Yellow (partners) far ahead, the partner's move
    nodes hold values above one half and the opponents' below."""
    from sorry.fast import _mcts as MC
    from sorry.fast.mcts import TreeSearch

    g = Game.from_position(
        "R:H,H,s2,50 B:S,S,S,3 Y:H,H,s1,55 G:S,S,S,5 R", Rules(variant="teams"), card=10
    )
    view = g.view(0)
    search = TreeSearch(view, list(range(len(view.legal_moves))))
    res = search.run(seed=4, iterations=4000, expand_after=0)
    assert max(res.values) > 0.7
    assert search.tree is not None
    T, V, _keys, info = search.tree
    sums = {c: [0.0, 0] for c in range(4)}
    for k in range(1, int(info[MC.I_NODES])):
        mover = int(T[k, MC.T_MOVER])
        if mover >= 0 and T[k, MC.T_VISITS] >= 1:
            sums[mover][0] += V[k]
            sums[mover][1] += int(T[k, MC.T_VISITS])
    mean = {c: s / n for c, (s, n) in sums.items() if n}
    assert {0, 1, 2} <= set(mean)  # Red, then Blue and Yellow have moves in the tree
    assert mean[2] > 0.6 and mean[0] > 0.6  # Yellow, Red's partner: the team's value
    assert all(mean[c] < 0.4 for c in (1, 3) if c in mean)  # Blue, Green: one minus it


def test_mcts_points_plays_a_card_of_its_hand() -> None:
    """Points: the move names a card of the hand; with a 1 in it the pawn on s5 goes HOME and
    wins the game, whatever the opponent's hidden hand (dealt anew in every world)."""
    rules = Rules(variant="points")
    g = Game.from_position("R:H,H,H,s5 Y:20,30,40,S R", rules, hands={0: [1, 4, 7, 11, 13]})
    while g.is_chance():
        g.draw()
    view = g.view(0)
    bot = mcts(simulations=400)
    m = bot.choose(view, Rng(2))
    assert m.card == 1
    g.push(m)
    assert g.is_over() and g.winner == 0
    g2 = Game.from_position("R:S,S,25,45 Y:20,S,S,S R", rules, hands={0: [2, 3, 5, 8, 12]})
    while g2.is_chance():
        g2.draw()
    v2 = g2.view(0)
    res = bot.tree_search(v2, [m for m, _s in bot.hard.ranked(v2)], Rng(3)).result
    assert res is not None and res.nodes > res.iterations // 2  # the opponents' moves too
    choice = bot.choose(v2, Rng(3))
    assert choice in v2.legal_moves and choice.card in (2, 3, 5, 8, 12)


def test_mcts_options_are_checked() -> None:
    with pytest.raises(SorryError, match="search must be one of flat, mcts"):
        make_bot("expert", search="deep")
    with pytest.raises(SorryError, match="the mcts search needs the compiled engine"):
        make_bot("expert", search="mcts", engine="python")
    with pytest.raises(SorryError, match="exploration must not be negative"):
        make_bot("expert", search="mcts", exploration=-1.0)
    assert make_bot("expert").search_kind == "flat"  # type: ignore[attr-defined]
