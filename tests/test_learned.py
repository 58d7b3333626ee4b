"""The learned evaluation (``sorry.learned``) and the ``learned`` bot: the features of concrete
positions, their symmetry under a turn of the board, training that a seed reproduces and a
checkpoint resumes exactly (in each variant), the shipped models, the bot's choices, the hard
bot's learned leaves and ``sorry train``'s errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from sorry import Game, Rules
from sorry.bots import make_bot, play_game
from sorry.cli import main
from sorry.compiled.arrays import STATE_LEN, rule_arrays, state_array
from sorry.errors import SorryError
from sorry.learned import _net, evaluator
from sorry.learned.model import N_FEATURES, N_HAND, Model, inputs_for, shipped
from sorry.learned.train import TrainConfig, train
from sorry.moves import DISCARD
from sorry.position import Position
from sorry.rng import Rng

UNIFORM = np.full(11, 1 / 11)


def feats(text: str, ref: int, nxt: int, probs: np.ndarray = UNIFORM) -> np.ndarray:
    pos = Position.parse(text)
    cols = np.array(pos.colours, dtype=np.int64)
    _P, _slide, hitm, _E = rule_arrays(Rules())
    x = np.empty(N_FEATURES)
    S = state_array(pos)
    _net.features(S, cols, len(cols), ref, nxt, False, probs, 40, hitm, np.empty(40, np.int64), x)
    return x


def seat(x: np.ndarray, r: int) -> np.ndarray:
    return x[r * _net.SEAT_LEN : (r + 1) * _net.SEAT_LEN]


def test_features_of_a_concrete_position() -> None:
    # Red: two in START, one on square 10 (progress 7), one in the Safety Zone (s1 = 60);
    # Yellow: 20, 30, 40 and one in START. Seen from Red, Yellow to move next.
    x = feats("R:S,S,10,s1 Y:20,30,40,S R", ref=0, nxt=1)
    red, yellow = seat(x, 0), seat(x, 1)
    assert list(red[_net.F_START : _net.F_START + 4]) == [1, 1, 0, 0]
    assert red[_net.F_TRACK + 7] == 1 and red[_net.F_TRACK : _net.F_TRACK + 60].sum() == 1
    assert red[_net.F_SAFE] == 1 and red[_net.F_HOME : _net.F_HOME + 4].sum() == 0
    assert yellow[_net.F_START : _net.F_START + 4].sum() == 1
    assert yellow[_net.F_TRACK : _net.F_TRACK + 60].sum() == 3
    # Yellow has a pawn in START: Sorry! threatens Red's track pawn at least by its share
    assert red[_net.F_RISK + 7] >= UNIFORM[10] * _net.SORRY_SHARE
    assert seat(x, 2).sum() == seat(x, 3).sum() == 0  # two players: seats 2 and 3 empty
    g = x[_net.G_BASE :]
    assert list(g[0:4]) == [0, 1, 0, 0] and list(g[4:7]) == [1, 0, 0]
    assert g[18] == pytest.approx(40 / 45)


def test_risk_counts_the_cards_that_bump() -> None:
    # Yellow on 35 is 5 squares behind Red on 40: only a 5 is drawn, it bumps; from 34 not.
    only5 = np.zeros(11)
    only5[4] = 1.0  # the 5's slot
    x = feats("R:40,S,S,S Y:35,H,H,H R", ref=0, nxt=1, probs=only5)
    from sorry.rulebook import PROGRESS

    assert seat(x, 0)[_net.F_RISK + PROGRESS[0][40]] == 1.0
    x = feats("R:40,S,S,S Y:34,H,H,H R", ref=0, nxt=1, probs=only5)
    assert seat(x, 0)[_net.F_RISK + PROGRESS[0][40]] == 0.0


def rotate(text: str, turn: int) -> str:
    """The position with every colour c's pawns given to colour c + turn, the board turned
    with them (a track square moves by 15 per colour)."""
    pos = Position.parse(text)
    pawns: list[tuple[int, ...] | None] = [None] * 4
    for c, locs in enumerate(pos.pawns):
        if locs is None:
            continue
        pawns[(c + turn) % 4] = tuple((loc + 15 * turn) % 60 if loc < 60 else loc for loc in locs)
    return str(Position(tuple(pawns), (pos.to_move + turn) % 4))


@pytest.mark.parametrize(
    "text",
    ["R:S,S,10,s1 Y:20,30,40,S R", "R:4,33,45,S B:1,H,s3,S Y:59,2,S,S G:S,S,S,S R"],
)
def test_features_turn_with_the_board(text: str) -> None:
    """Seen from each seat's colour, a position and the same position turned by a colour
    (every pawn to the next colour, on the squares turned with it) read the same."""
    pos = Position.parse(text)
    n = len(pos.colours)
    turn = 2 if n == 2 else 1
    for ref in range(n):  # each colour is one seat further round the table once turned
        a = feats(text, ref, (ref + 1) % n)
        b = feats(rotate(text, turn), (ref + 1) % n, (ref + 2) % n)
        np.testing.assert_allclose(a, b)


def test_training_is_reproducible_and_resumes_exactly(tmp_path: Path) -> None:
    cfg = TrainConfig(games=12, seed=3, hidden=8, chunk=4, eval_every=6, eval_deals=2)
    a = train(tmp_path / "a.npz", cfg, progress=lambda _s: None)
    half = TrainConfig(games=6, seed=3, hidden=8, chunk=4, eval_every=6, eval_deals=2)
    train(tmp_path / "b.npz", half, progress=lambda _s: None)
    b = train(tmp_path / "b.npz", cfg, progress=lambda _s: None)
    assert a.meta["games"] == b.meta["games"] == 12
    for x, y in zip(a.net, b.net, strict=True):
        np.testing.assert_array_equal(x, y)
    assert [p["games"] for p in b.meta["curve"]] == [0, 6, 12]
    fresh = Model.new(8, 3)
    assert not np.array_equal(fresh.W1, a.W1)  # it learned something


def test_a_bad_model_file_is_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a model")
    with pytest.raises(SorryError, match="not a learned model"):
        Model.load(bad)


def test_the_shipped_model_says_how_it_was_made() -> None:
    m = shipped()
    assert m.W1.shape == (N_FEATURES, m.meta["hidden"])
    assert m.meta["seed"] == 2026 and m.meta["games"] > 0
    assert m.meta["curve"][-1]["games"] == m.meta["games"]


def test_the_evaluation_is_a_chance() -> None:
    g = Game.from_position("R:S,S,10,s1 Y:20,30,40,S R", card=5)
    ev = evaluator(g.view(0))
    p = ev.chance(g.view(0))
    assert 0.0 < p < 1.0
    # nearly home against a player with every pawn in START: far better than even
    g = Game.from_position("R:H,H,H,s4 Y:S,S,S,S R", card=1)
    assert evaluator(g.view(0)).chance(g.view(0)) > 0.8


def test_the_bot_takes_a_winning_move() -> None:
    # a 10 takes Red's last pawn (square 58, ten steps from HOME) home, or one square back
    start = "R:H,H,H,58 Y:S,S,S,S R"
    assert len(Game.from_position(start, card=10).legal_moves) == 2
    for search in ("ply", "draw"):
        g = Game.from_position(start, card=10)
        g.push(make_bot("learned", search=search).choose(g.view(0), Rng(1)))
        assert g.is_over() and g.winner == 0


@pytest.mark.parametrize("players", [2, 4])
def test_the_bot_plays_whole_games(players: int) -> None:
    bots = [make_bot("learned")] + [make_bot("easy") for _ in range(players - 1)]
    g = play_game(Rules(), bots, seed=7)
    assert g.is_over()


def test_an_unknown_search_is_refused() -> None:
    with pytest.raises(SorryError, match="search must be one of"):
        make_bot("learned", search="deep")


def test_train_command_checks_its_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["train", str(tmp_path / "m.txt")]) != 0
    assert "must end in .npz" in capsys.readouterr().err
    assert main(["train", str(tmp_path / "no" / "m.npz")]) != 0
    assert "no such directory" in capsys.readouterr().err
    assert main(["train", str(tmp_path / "m.npz"), "--players", "5:1"]) != 0
    assert "players" in capsys.readouterr().err
    assert (
        main(
            [
                "train",
                str(tmp_path / "m.npz"),
                "--games",
                "4",
                "--hidden",
                "4",
                "--eval-every",
                "4",
                "--eval-deals",
                "1",
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "curve: game 4" in err and "saved" in err
    assert Model.load(tmp_path / "m.npz").meta["games"] == 4


def test_state_len_matches_the_kernel() -> None:
    assert STATE_LEN == 76


def shipped_standard_path() -> str:
    from importlib import resources

    return str(resources.files("sorry.learned") / "data" / "standard.npz")


@pytest.mark.parametrize("variant", ["teams", "points"])
def test_a_network_of_another_variant_is_played_as_hard_plays(variant: str) -> None:
    rules = Rules(variant=variant)
    g = Game(rules, 4 if variant == "teams" else 2, seed=5)
    learned, hard = make_bot("learned", model=shipped_standard_path()), make_bot("hard")
    for _ in range(30):
        while g.is_chance():
            g.draw()
        if g.is_over():
            break
        view = g.view(g.to_move)
        move = learned.choose(view, Rng(1))
        assert move == hard.choose(view, Rng(1))
        g.push(move)


def test_points_features_read_the_kept_hand() -> None:
    x = np.zeros(inputs_for("points"))
    hand = np.zeros(N_HAND, dtype=np.int64)
    hand[0] = 2  # two 1s
    hand[10] = 1  # a Sorry!
    hand[4] = 2  # two 5s
    _net.hand_features(hand, 5, x)  # a 5 played: one 5 kept
    kept = x[_net.G_HAND :]
    assert list(kept) == [2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]
    x = np.zeros(N_FEATURES)  # a network without the hand's inputs: nothing written
    _net.hand_features(hand, 5, x)
    assert not x.any()


def test_points_next_card_is_what_the_chooser_cannot_see() -> None:
    """The compiled probabilities of a points game's next card are those of the view (the
    draw pile and the others' hands)."""
    from sorry.cards import CARD_INDEX

    g = Game(Rules(variant="points"), 2, seed=11)
    while g.is_chance():
        g.draw()
    view = g.view(g.to_move)
    piles = np.zeros((2, 48), dtype=np.int8)
    counts = np.zeros(6, dtype=np.int64)
    # the draw pile and the other hand as the kernel holds them
    unseen = view.unseen_counts()
    other = next(c for c in view.colours if c != view.viewer)
    hands = np.zeros((4, 11), dtype=np.int64)
    cards = [c for c, n in unseen.items() for _ in range(n)]
    for card in cards[:5]:
        hands[other, CARD_INDEX[card]] += 1
    for k, card in enumerate(cards[5:]):
        piles[0, k] = card
    counts[0] = len(cards) - 5
    for card in view.hand:
        hands[view.viewer, CARD_INDEX[card]] += 1
    probs = np.empty(11)
    _net.hidden_probs(piles, counts, hands, view.viewer, probs)
    want = np.zeros(11)
    for card, p in view.next_card_probabilities().items():
        want[CARD_INDEX[card]] = p
    np.testing.assert_allclose(probs, want)


@pytest.mark.parametrize("variant", ["teams", "points"])
def test_training_a_variant_is_reproducible_and_resumes(tmp_path: Path, variant: str) -> None:
    cfg = TrainConfig(games=8, seed=4, hidden=8, chunk=4, eval_every=4, eval_deals=2, rules=variant)
    a = train(tmp_path / "a.npz", cfg, progress=lambda _s: None)
    half = TrainConfig(
        games=4, seed=4, hidden=8, chunk=4, eval_every=4, eval_deals=2, rules=variant
    )
    train(tmp_path / "b.npz", half, progress=lambda _s: None)
    b = train(tmp_path / "b.npz", cfg, progress=lambda _s: None)
    assert a.variant == b.variant == variant and a.W1.shape[0] == inputs_for(variant)
    for x, y in zip(a.net, b.net, strict=True):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(Model.new(8, 4, variant).W1, a.W1)
    assert all(0.0 <= p["medium"] <= 1.0 for p in a.meta["curve"])
    other = TrainConfig(games=12, seed=4, hidden=8, rules="standard")
    with pytest.raises(SorryError, match=f"a network of the {variant} game"):
        train(tmp_path / "a.npz", other, progress=lambda _s: None)


def test_teams_training_needs_four_players() -> None:
    with pytest.raises(SorryError, match="four players"):
        TrainConfig(rules="teams", players="2:1").player_weights()


@pytest.mark.parametrize("variant", ["teams", "points"])
def test_the_shipped_variant_models_say_how_they_were_made(variant: str) -> None:
    m = shipped(variant)
    assert m.variant == variant and m.W1.shape == (inputs_for(variant), m.meta["hidden"])
    assert m.meta["seed"] == 2026 and m.meta["games"] > 0
    assert m.meta["curve"][0]["games"] == 0 and len(m.meta["curve"]) > 1


def test_a_network_values_only_its_own_variant() -> None:
    g = Game(Rules(variant="teams"), 4, seed=1)
    while g.is_chance():
        g.draw()
    with pytest.raises(SorryError, match="standard game cannot value the teams game"):
        evaluator(g.view(g.to_move), shipped("standard"))


@pytest.mark.parametrize("variant", ["teams", "points"])
@pytest.mark.parametrize("level", ["learned", "hard:evaluation=learned"])
def test_variant_bots_play_whole_games(variant: str, level: str) -> None:
    from sorry.sim.runner import build_bot

    n = 4 if variant == "teams" else 2
    bots = [build_bot(level)] + [make_bot("easy") for _ in range(n - 1)]
    g = play_game(Rules(variant=variant), bots, seed=3)
    assert g.is_over()


def test_the_learned_points_bot_values_the_hand_it_keeps(tmp_path: Path) -> None:
    """In points the network reads the cards kept: a dead hand's discards leave the same
    board, and a points network values each by the hand it leaves."""
    path = tmp_path / "points.npz"
    Model.new(8, 1, "points").save(path)
    g = Game.from_position(
        "R:S,S,S,S Y:S,S,S,S R",
        Rules(variant="points"),
        hands={0: [3, 4, 5, 7, 8], 2: [1, 2, 10, 11, 12]},
    )
    view = g.view(0)
    assert all(m.kind == DISCARD for m in view.legal_moves) and len(view.legal_moves) == 5
    values = [v for _m, v in make_bot("learned", model=str(path)).ranked(view)]
    assert len({round(v, 9) for v in values}) == 5
    assert all(0.0 < v < 1.0 for v in values)


@pytest.mark.parametrize("evaluation", ["tuned", "learned"])
def test_hard_takes_a_winning_move_with_either_evaluation(evaluation: str) -> None:
    start = "R:H,H,H,58 Y:S,S,S,S R"
    g = Game.from_position(start, card=10)
    g.push(make_bot("hard", evaluation=evaluation).choose(g.view(0), Rng(1)))
    assert g.is_over() and g.winner == 0


def test_hard_with_learned_leaves_values_plays_as_chances() -> None:
    g = Game.from_position("R:S,S,10,40 Y:36,S,S,S R", card=5)
    view = g.view(0)
    ranked = make_bot("hard", evaluation="learned").ranked(view)
    assert sorted(str(m) for m, _v in ranked) == sorted(str(m) for m in view.legal_moves)
    assert all(0.0 < v < 1.0 for _m, v in ranked)


def test_an_unknown_evaluation_is_refused() -> None:
    with pytest.raises(SorryError, match="evaluation must be one of"):
        make_bot("hard", evaluation="deep")


def test_the_bot_values_a_two_with_itself_to_move_next() -> None:
    # a 2 lets its player draw again: the afterstates are valued with the bot to move next
    # (a standard move does not carry its card: the view's card says it is a 2)
    from sorry.bots.base import state_of
    from sorry.bots.learned import LearnedBot

    g = Game.from_position("R:S,21,53,s3 Y:S,14,S,H R", card=2)
    view = g.view(0)
    moves = list(view.legal_moves)
    ev = evaluator(view)
    after = []
    for m in moves:
        s = state_of(view)
        s.apply(m, [])
        after.append(s)
    again = ev.values(after, [0] * len(moves), 0)
    passed = ev.values(after, [2] * len(moves), 0)
    got = LearnedBot().scores(view, moves)
    assert got == pytest.approx(again) and got != pytest.approx(passed)
