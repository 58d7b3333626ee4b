"""The bot protocol and the levels: legality in every variant, determinism, behaviour."""

from __future__ import annotations

import dataclasses
import time

import pytest

from sorry import Game, Move, Rules
from sorry.bots import LEVELS, Bot, hint, make_bot, play_game
from sorry.errors import SorryError
from sorry.rng import Rng
from sorry.view import PlayerView

FAST_LEVELS = ("random", "easy", "medium")
TINY = {"simulations": 2, "candidates": 2, "depth": 6}


def tiny(level: str) -> Bot:
    """A bot of the level with the smallest search budget (fast tests)."""
    return make_bot(level, **TINY) if level == "expert" else make_bot(level)


def test_make_bot_levels_follow_protocol() -> None:
    for level in LEVELS:
        bot = make_bot(level)
        assert isinstance(bot, Bot)
        assert bot.name == level
    assert LEVELS == ("random", "easy", "medium", "hard", "learned", "expert")
    with pytest.raises(SorryError):
        make_bot("grandmaster")


@pytest.mark.parametrize("level", FAST_LEVELS)
@pytest.mark.parametrize("variant", ["standard", "teams", "points"])
def test_levels_play_legal_games_in_every_variant(level: str, variant: str) -> None:
    players = 4 if variant == "teams" else 2
    bots = [make_bot(level) for _ in range(players)]
    g = play_game(Rules(variant=variant), bots, seed=11)
    assert g.is_over() and g.winner is not None


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize("variant", ["standard", "teams", "points"])
def test_search_levels_play_legal_moves_in_every_variant(level: str, variant: str) -> None:
    """Every decision of a searching bot in the first 40 moves of a game is legal (push
    checks legality), against a random opponent."""
    players = 4 if variant == "teams" else 3
    g = Game(Rules(variant=variant), players=players, seed=21)
    bot = tiny(level)
    rng = Rng(1)
    opponent = make_bot("random")
    while g.turn < 40 and not g.is_over():
        if g.is_chance():
            g.draw()
            continue
        view = g.view(g.to_move)
        who = bot if g.to_move in (0, 1) else opponent
        move = who.choose(view, rng)
        assert move in view.legal_moves
        g.push(move)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "teams", "points"])
def test_search_levels_finish_games(variant: str) -> None:
    players = 4 if variant == "teams" else 2
    for level in ("hard", "expert"):
        bots = [tiny(level) for _ in range(players)]
        g = play_game(Rules(variant=variant), bots, seed=13)
        assert g.is_over() and g.winner is not None


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_same_seed_same_game(level: str) -> None:
    rules = Rules(variant="points")
    a = play_game(rules, [make_bot(level), make_bot("random")], seed=3)
    b = play_game(rules, [make_bot(level), make_bot("random")], seed=3)
    assert a.history == b.history


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_search_levels_are_deterministic_under_a_seed(level: str) -> None:
    g = Game(Rules(variant="points"), players=2, seed=17)
    picks = []
    for _ in range(12):
        while g.is_chance():
            g.draw()
        view = g.view(g.to_move)
        a = tiny(level).choose(view, Rng(9))
        assert a == tiny(level).choose(view, Rng(9))
        picks.append(a)
        g.push(a)
    assert len(picks) == 12


def test_play_game_accepts_a_mapping_of_colours() -> None:
    g = play_game(Rules(), {0: make_bot("easy"), 1: make_bot("easy"), 3: make_bot("random")}, 4)
    assert g.colours == (0, 1, 3) and g.is_over()


def test_easy_takes_a_pawn_home() -> None:
    g = Game.from_position("R:S,S,10,s1 Y:20,30,40,S R", card=5)
    move = make_bot("easy").choose(g.view(0), Rng(1))
    assert move == Move.parse("Rs1+5")


def test_easy_bumps_rather_than_plods() -> None:
    # A 3 either takes the pawn on 10 to 13 (bumping Yellow) or the pawn on 30 to 33.
    g = Game.from_position("R:S,S,10,30 Y:13,S,S,S R", card=3)
    assert make_bot("easy").choose(g.view(0), Rng(1)) == Move.parse("R10+3")


def test_medium_moves_out_of_danger() -> None:
    # Yellow on 20 is a 5 (or a split 7) behind the Red pawn on 25, which can escape 12
    # ahead; the far pawn on 45 has nobody behind it.
    g = Game.from_position("R:S,S,25,45 Y:20,S,S,S R", card=12)
    move = make_bot("medium").choose(g.view(0), Rng(1))
    assert move == Move.parse("R25+12")


def test_hard_steps_out_of_reach_of_a_likely_bump() -> None:
    # A 5 takes Red's pawn on 5 to 10, three squares ahead of Yellow's pawn on 7 (a 3 or a
    # split 7 bumps it), or the pawn on 40 to 45, out of everyone's reach: same progress.
    g = Game.from_position("R:S,S,5,40 Y:7,S,S,S R", card=5)
    view = g.view(0)
    for seed in range(5):
        assert make_bot("hard").choose(view, Rng(seed)) == Move.parse("R40+5")


def test_hard_counts_cards() -> None:
    """With every 3 and 7 already played, the square 3 ahead of Yellow is safe: the hard bot
    knows it (its scores for the two moves move closer together)."""
    from sorry.bots import HardBot

    g = Game.from_position("R:S,S,5,40 Y:7,S,S,S R", card=5)
    fresh = g.view(0)
    counted = dataclasses.replace(fresh, discard_pile=(3, 3, 3, 3, 7, 7, 7, 7))
    bot = HardBot()
    plays = [Move.parse("R5+5"), Move.parse("R40+5")]
    a = bot.scores(fresh, plays)
    b = bot.scores(counted, plays)
    assert a[1] - a[0] > b[1] - b[0]


def test_expert_respects_its_time_limit() -> None:
    g = Game.from_position("R:S,10,25,45 Y:20,S,33,s2 R", card=7)
    view = g.view(0)
    bot = make_bot("expert", simulations=10**6, time_limit=0.05)
    t0 = time.perf_counter()
    move = bot.choose(view, Rng(3))
    elapsed = time.perf_counter() - t0
    assert move in view.legal_moves
    assert elapsed < 1.0  # the limit plus one world's playouts and the hard bot's ranking


def test_expert_budget_is_validated() -> None:
    with pytest.raises(ValueError):
        make_bot("expert", simulations=0)
    with pytest.raises(ValueError):
        make_bot("expert", time_limit=0)


def test_hint_ranks_every_legal_move() -> None:
    g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=10)
    ranked = hint(g, rollouts=4, seed=1)
    assert sorted(str(m) for m, _p in ranked) == sorted(str(m) for m in g.legal_moves)
    probs = [p for _m, p in ranked]
    assert probs == sorted(probs, reverse=True) and all(0 <= p <= 1 for p in probs)
    assert ranked == hint(g.view(0), rollouts=4, seed=1)
    g2 = Game(Rules(), players=2, seed=1)
    with pytest.raises(SorryError):
        hint(g2)  # a card must be drawn first


def dead_hand_view() -> PlayerView:
    """Points: Red, all pawns in START, holds 3 5 8 12 4 (no card moves a pawn); Yellow on 20."""
    g = Game.from_position(
        "R:S,S,S,S Y:20,S,S,S R",
        rules=Rules(variant="points"),
        hands={0: [3, 5, 8, 12, 4], 2: [1, 2, 3, 5, 7]},
    )
    while g.is_chance():
        g.draw()
    return g.view(0)


def test_points_discard_when_the_hand_is_dead() -> None:
    view = dead_hand_view()
    assert all(m.is_discard for m in view.legal_moves)
    for level in LEVELS:
        assert tiny(level).choose(view, Rng(2)) in view.legal_moves


def test_bots_only_see_the_view() -> None:
    """A bot handed views of two games that differ only in hidden cards plays the same."""
    rules = Rules(variant="points")
    g = Game(rules, players=2, seed=8)
    while g.is_chance():
        g.draw()
    view = g.view(g.to_move)
    other = Game.from_view(view, seed=99)
    assert other.view(view.viewer) == view
    for level in LEVELS:
        assert tiny(level).choose(view, Rng(5)) == tiny(level).choose(
            other.view(view.viewer), Rng(5)
        )
    # A view carries no reference to the game it was taken from.
    assert not any(isinstance(getattr(view, f), Game) for f in view.__slots__)


def test_hard_parameters_are_validated() -> None:
    for bad in ({"potential": "psychic"}, {"reply_hand": 0}, {"hand_weight": -1.0}):
        with pytest.raises(ValueError):
            make_bot("hard", **bad)


@pytest.mark.parametrize("potential", ["progress", "eval", "draw"])
def test_hard_hand_potentials_play_points_games(potential: str) -> None:
    """Every way of valuing the kept cards plays whole legal points games, deterministically."""
    rules = Rules(variant="points")
    bots = [make_bot("hard", potential=potential), make_bot("medium")]
    g = play_game(rules, bots, seed=3)
    assert g.is_over() and g.winner is not None
    again = play_game(rules, [make_bot("hard", potential=potential), make_bot("medium")], seed=3)
    assert again.to_dict() == g.to_dict()


def test_hard_counts_the_card_drawn_to_refill_the_hand() -> None:
    """No kept card can move Red's pawns out of START, but the card drawn to refill the hand
    may be a 1, a 2 or a Sorry!: the "draw" potential counts that chance, "eval" does not."""
    from sorry.bots.hard import draw_potential, eval_potential
    from sorry.bots.levels import KEEP_VALUE
    from sorry.state import PawnState

    view = dead_hand_view()
    state = PawnState(view.pawns, view.rules)
    kept = [3, 5, 8, 12]

    def value(s: PawnState) -> float:
        return float(sum(1 for loc in s.pawns[0] if loc < 60))  # Red pawns on the track

    keep = 0.2 * sum(KEEP_VALUE[c] for c in kept)
    assert eval_potential(state, view, kept, value) == pytest.approx(keep)
    unseen = view.unseen_counts()
    starters = unseen.get(1, 0) + unseen.get(2, 0) + unseen.get(13, 0)
    expected = keep + starters / sum(unseen.values())
    assert draw_potential(state, view, kept, value) == pytest.approx(expected)


def test_every_level_says_how_strong_it_is_in_every_language() -> None:
    """One sentence per level, from the bots' table, translated (the new-game screens show
    it): the sentences differ from each other and from English in each language."""
    from sorry.bots import LEVEL_TABLE, level_label, level_strength
    from sorry.i18n import LANGUAGES, using

    assert tuple(info.level for info in LEVEL_TABLE) == LEVELS
    english = [level_strength(level) for level in LEVELS]
    assert all(s.endswith(".") and len(s) > 30 for s in english)
    assert len(set(english)) == len(LEVELS)
    for lang in LANGUAGES:
        if lang == "en":
            continue
        with using(lang):
            texts = [level_strength(level) for level in LEVELS]
            assert len(set(texts)) == len(LEVELS)
            assert not set(texts) & set(english), lang
            assert level_label("medium") != "medium"
    assert level_strength("grandmaster") == "" and level_label("grandmaster") == "grandmaster"


def test_the_learned_level_needs_the_compiled_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the fast extra the learned level is refused in one line naming the extra, and
    the new-game screens (terminal and browser) leave it out; with it, both offer it."""
    import sorry.features
    from sorry.bots import COMPILED_LEVELS
    from sorry.tui import players as tui_players

    web_players = pytest.importorskip("sorry.web.players")
    assert set(COMPILED_LEVELS) == {"learned"}
    for cache in (tui_players.bot_levels, web_players._bot_levels):
        cache.cache_clear()
    assert "learned" in tui_players.bot_levels() and "learned" in web_players.bot_levels()
    missing = sorry.features.Feature("compiled_engine", "the compiled engine", False, "no numba")
    monkeypatch.setattr(sorry.features, "compiled_engine", lambda: missing)
    try:
        with pytest.raises(SorryError, match=r"^the learned level needs the fast extra: pip"):
            make_bot("learned")
        for cache in (tui_players.bot_levels, web_players._bot_levels):
            cache.cache_clear()
        without = ("random", "easy", "medium", "hard", "expert")
        assert tui_players.bot_levels() == without
        assert tuple(web_players.bot_levels()) == without
    finally:
        for cache in (tui_players.bot_levels, web_players._bot_levels):
            cache.cache_clear()
