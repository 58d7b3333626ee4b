"""Every engine plays every value of every rule option, built from the option table itself.

For each setting (a variant with its defaults, or one option of ``sorry.rules.OPTION_VALUES``
set to another of its values, in each variant it applies to), each engine either plays the
same games as the reference (:class:`sorry.game.Game`) with the same seeds and choices, or
declares the setting in its ``UNSUPPORTED`` set and refuses it with a clear error. The
setting must change at least one game of the sample, so an engine that ignored a new option
would play the default games and fail: adding an option that an engine neither plays nor
declares fails here.

The engines: the lean loop of ``sorry.playout`` (random games, and games with a policy), the
bots' pure-Python rollouts (``sorry.bots.greedy_rollout`` on a ``sorry.playout.Table``, followed
turn by turn beside the reference: every turn must be a legal move with the same piles, hands
and next player), and every policy the
compiled engine plays, each against the reference playing the same policy with the same
streams: ``sorry.fast.simulate`` with ``random``, ``easy``, ``easybot`` and ``medium`` (whole
games: the final pawns, the turns, the winner and the points, which an unfinished points game
does not have), the searches' compiled rollouts (``sorry.bots.rollouts``: the score of moves
in dealt worlds, cut after 3 and 60 moves) and the vector environment's
opponents (``sorry.rl.vector``: whole episodes, the agent's actions decoded in the reference).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import pytest

from engine_helpers import play_out, python_score, rng_moves
from sorry import Game, Move, playout
from sorry.errors import RulesError
from sorry.rng import Rng
from sorry.rules import OPTION_VALUES, VARIANT_ONLY, VARIANTS, Rules
from sorry.view import PlayerView

#: A value to try for options whose table lists only the default (``turn_limit``: a number).
EXTRA_VALUES = {"turn_limit": ("40",)}
SEEDS = range(6)
#: fewer games for the engines whose reference plays the Python medium bot (slow)
ENGINE_SEEDS = {"fast-medium": range(3), "search-rollouts": range(2), "vector-opponents": range(2)}
#: the engines that play a compiled policy against the same policy in the reference
POLICY_SAMPLES = ("fast-easy", "fast-easybot", "fast-medium", "search-rollouts", "vector-opponents")

Setting = tuple[str, tuple[tuple[str, str], ...]]  # (variant, ((name, value), ...))


def settings() -> list[Setting]:
    """Each variant with its defaults, then every other value of every option in every
    variant it applies to."""
    out: list[Setting] = [(variant, ()) for variant in VARIANTS]
    for name, values in OPTION_VALUES.items():
        for value in (*values[1:], *EXTRA_VALUES.get(name, ())):
            for variant in VARIANTS:
                if VARIANT_ONLY.get(name, variant) != variant:
                    continue
                if variant == "points" and name == "starting_pawns_out":
                    continue  # points always start one pawn out: the value is the default
                out.append((variant, ((name, value),)))
    return out


SETTINGS = settings()


def rules_of(setting: Setting) -> Rules:
    variant, options = setting
    return Rules.from_options(variant, dict(options))


def players_of(setting: Setting) -> int:
    return 4 if setting[0] == "teams" else 3


def label(setting: Setting) -> str:
    return " ".join([setting[0], *(f"{k}={v}" for k, v in setting[1])])


# -- the engines ----------------------------------------------------------------------------------
Result = tuple[Any, ...]
Engine = Callable[[Rules, int, int], Result]


def game_random(rules: Rules, players: int, seed: int) -> Result:
    """The reference with the lean loop's random player (``Rng(seed ^ 0x5EED)``)."""
    g = play_out(Game(rules, players, seed=seed), rng_moves(Rng(seed ^ 0x5EED)))
    return g.winners, g.turn, g.scores


def playout_random(rules: Rules, players: int, seed: int) -> Result:
    """The lean loop's uniformly random games."""
    table = playout.Table.new(rules, players, seed)
    winners = table.play(limit=rules.turn_limit, chooser=Rng(seed ^ 0x5EED))
    return winners, table.turn, table.scores(winners)


def playout_policy(rules: Rules, players: int, seed: int) -> Result:
    """The lean loop's games with a policy, choosing as above."""
    rng = Rng(seed ^ 0x5EED)
    table = playout.Table.new(rules, players, seed)
    winners = table.play(lambda s, c, card, moves: rng.next64() % len(moves), rules.turn_limit)
    return winners, table.turn, table.scores(winners)


def game_fast_streams(rules: Rules, players: int, seed: int) -> Result:
    """The reference with the fast engine's policy streams."""
    from fast_helpers import play_reference

    g, _trace = play_reference(seed, players, rules, "random")
    scores = g.scores
    if rules.points and scores is None:  # unfinished: no scores, the fast engine's zeros
        scores = dict.fromkeys(g.colours, 0)
    return g.board_text(), g.turn, g.winner, scores


def fast_random(rules: Rules, players: int, seed: int) -> Result:
    fast = pytest.importorskip("sorry.fast")
    r = fast.simulate(1, players, rules=rules, seeds=[seed], threads=1)
    winner = int(r.winner[0])
    scores = {c: int(r.scores[0, c]) for c in r.colours} if rules.points else None
    return r.position(0), int(r.turns[0]), winner if winner >= 0 else None, scores


def game_bots(level: str) -> Engine:
    """The reference with ``sorry.bots``' ``level`` at every seat, drawing from the fast
    engine's policy streams (``sorry.fast.policy_seed``)."""

    def run(rules: Rules, players: int, seed: int) -> Result:
        from sorry.bots import make_bot
        from sorry.fast import policy_seed

        g = Game(rules, players, seed=seed)
        bot = make_bot(level)
        rngs = {c: Rng(policy_seed(seed, c)) for c in g.colours}
        play_out(g, lambda g, moves: bot.choose(g.view(g.to_move), rngs[g.to_move]))
        return _outcome(g)

    return run


def game_fast_easy(rules: Rules, players: int, seed: int) -> Result:
    """The reference with the fast engine's ``easy`` policy (most progress, first on ties)."""
    from fast_helpers import play_reference

    return _outcome(play_reference(seed, players, rules, "easy")[0])


def _outcome(g: Game) -> Result:
    """What a whole game leaves: the pawns, the turns, the winner, the points (none for an
    unfinished points game: the compiled engine reports zeros)."""
    scores = g.scores
    if g.rules.points and scores is None:
        scores = dict.fromkeys(g.colours, 0)
    return g.board_text(), g.turn, g.winner, scores


def fast_policy(policy: str) -> Engine:
    """``sorry.fast.simulate`` with the built-in ``policy`` at every seat."""

    def run(rules: Rules, players: int, seed: int) -> Result:
        fast = pytest.importorskip("sorry.fast")
        r = fast.simulate(1, players, rules=rules, seeds=[seed], threads=1, policy=policy)
        winner = int(r.winner[0])
        scores = {c: int(r.scores[0, c]) for c in r.colours} if rules.points else None
        return r.position(0), int(r.turns[0]), winner if winner >= 0 else None, scores

    return run


#: the searches' rollouts: depths (moves after the candidate) and worlds per decision
ROLLOUT_DEPTHS = (3, 60)
ROLLOUT_WORLDS = (5, 17)


def _search_views(rules: Rules, players: int, seed: int) -> list[PlayerView]:
    """A decision with a choice, some turns into a random reference game."""
    g = Game(rules, players, seed=seed)
    prng = Rng(seed ^ 0x5EED)
    views: list[PlayerView] = []
    while not g.is_over() and not views:
        if g.is_chance():
            g.draw()
            continue
        moves = g.legal_moves
        if len(moves) > 1 and g.turn >= 12:
            views.append(g.view(g.to_move))
        g.push(moves[prng.below(len(moves))])
    return views


def search_compiled(rules: Rules, players: int, seed: int) -> Result:
    """The compiled rollouts' scores of up to three moves of a decision, in two worlds."""
    from sorry.bots.rollouts import compiled_available, root_of

    if not compiled_available():
        pytest.skip("needs the fast extra")
    out = []
    for v in _search_views(rules, players, seed):
        root = root_of(v, "compiled")
        cands = list(range(min(3, len(v.legal_moves))))
        for depth in ROLLOUT_DEPTHS:
            got = root.scores(cands, list(ROLLOUT_WORLDS), depth)
            out.append(tuple(round(x, 9) for row in got for x in row))
    return tuple(out)


def search_python(rules: Rules, players: int, seed: int) -> Result:
    """The same scores from the reference: the move, then MediumBots (engine_helpers)."""
    out = []
    for v in _search_views(rules, players, seed):
        cands = range(min(3, len(v.legal_moves)))
        for depth in ROLLOUT_DEPTHS:
            row = [
                python_score(v, v.legal_moves[j], w, depth) for w in ROLLOUT_WORLDS for j in cands
            ]
            out.append(tuple(round(x, 9) for x in row))
    return tuple(out)


#: the vector environment's opponents played in the matrix (the agent takes the first action)
VECTOR_OPPONENTS = ("easy", "medium")


def vector_env(rules: Rules, players: int, seed: int) -> Result:
    """One episode of ``sorry.rl.vector`` with compiled opponents, the agent at seat 0 taking
    the lowest legal action: the final pawns, the turns, the returns."""
    pytest.importorskip("gymnasium")
    from sorry.rl.vector import SorryVectorEnv

    names = [VECTOR_OPPONENTS[k % 2] for k in range(players - 1)]
    defaults = {k: values[0] for k, values in OPTION_VALUES.items()}
    options = {k: v for k, v in rules.settings().items() if defaults.get(k, v) != v}
    options.pop("turn_limit", None)
    env = SorryVectorEnv(
        num_envs=1,
        players=players,
        variant=rules.variant,
        options=options,
        opponents=names,
        turn_limit=rules.turn_limit or 1000,
    )
    _obs, info = env.reset(seed=[seed])
    while True:
        action = int(np.flatnonzero(info["action_mask"][0])[0])
        _obs, _r, term, trunc, info = env.step(np.array([action]))
        if term[0] or trunc[0]:
            returns = tuple(float(x) for x in info["returns"][0])
            return str(env.position(0)).split()[0], int(info["turn"][0]), returns


def game_vector(rules: Rules, players: int, seed: int) -> Result:
    """The same episode on the reference: sorry.bots' levels at the other seats with the fast
    engine's streams, the agent's lowest legal action (``sorry.actions``)."""
    from sorry.actions import legal_action_moves
    from sorry.bots import make_bot
    from sorry.fast import policy_seed

    g = Game(rules if rules.turn_limit else rules.replace(turn_limit=1000), players, seed=seed)
    agent = g.colours[0]
    names = [VECTOR_OPPONENTS[k % 2] for k in range(players - 1)]
    bots = {c: make_bot(n) for c, n in zip(g.colours[1:], names, strict=True)}
    rngs = {c: Rng(policy_seed(seed, c)) for c in g.colours}

    def choose(g: Game, moves: list[Move]) -> Move:
        if g.to_move == agent:
            return next(iter(legal_action_moves(g).values()))
        return bots[g.to_move].choose(g.view(g.to_move), rngs[g.to_move])

    play_out(g, choose)
    returns = [0.0] * 4
    if not g.unfinished:
        for c in g.colours:
            returns[c] = 1.0 if c in g.winners else -1.0
    position = g.position_string().split()[0]
    return position, g.turn, tuple(returns)


def game_and_rollout(rules: Rules, players: int, seed: int) -> Result:
    """The bots' rollout (``sorry.bots.greedy_rollout``, greedy on progress) turn by turn
    beside the reference: after each of the rollout's turns the reference plays the listed
    move (or pass, or discard) that leads to the same pawns with the same card, and both must
    agree on who plays next, the piles and the hands. The rollout plays the depth its caller
    gives it (here one turn at a time): the comparison ends where the reference's game ends."""
    from sorry.bots import greedy_rollout
    from sorry.playout import Table

    g = Game(rules, players, seed=seed)
    while rules.points and g.is_chance():  # the deal
        g.draw()
    sim = Table(
        rules,
        g.colours,
        g.state.copy(),
        g.to_move,
        g.draw_pile[:],
        g.discard_pile[:],
        [h[:] for h in g.hands],
        Rng(g.rng.state),
    )
    while not g.is_over():
        winner = greedy_rollout.run(sim, 1)
        if g.is_chance():
            g.draw()
        same = [m for m in g.legal_moves if _agrees(_after(g, m), sim)]
        assert same, f"seed {seed}: the rollout's turn is no legal move in {g.position_string()}"
        g.push(same[0])
        if rules.points and g.is_chance():  # the refill
            g.draw()
        if g.is_over():
            assert winner == g.winner, f"seed {seed}, turn {g.turn}"
        else:
            assert winner is None, f"seed {seed}, turn {g.turn}"
    return g.winners, g.turn, g.position_string()


def _after(game: Game, move: Move) -> Game:
    """The game after ``move`` and, in the points variant, the refill of the mover's hand."""
    trial = game.copy(stack=False)
    trial.push(move)
    if trial.rules.points and trial.is_chance():
        trial.draw()
    return trial


def _agrees(game: Game, sim: Any) -> bool:
    """Whether the game and the rollout have the same pawns, piles, hands and next player
    (only the pawns after the winning move: the rollout refills the winner's hand anyway)."""
    if game.state.key() != sim.state.key():
        return False
    return game.is_over() or (
        game.discard_pile == sim.discard
        and game.draw_pile == sim.pile
        and [sorted(h) for h in game.hands] == [sorted(h) for h in sim.hands]
        and game.to_move == sim.mover
    )


def _fast_unsupported() -> frozenset[tuple[str, str]]:
    unsupported: frozenset[tuple[str, str]] = pytest.importorskip("sorry.fast").UNSUPPORTED
    return unsupported


#: name -> (the engine, the reference it must equal, what it declares it cannot play)
ENGINES: dict[str, tuple[Engine, Engine, Callable[[], frozenset[tuple[str, str]]]]] = {
    "playout-random": (playout_random, game_random, lambda: playout.UNSUPPORTED),
    "playout-policy": (playout_policy, game_random, lambda: playout.UNSUPPORTED),
    "fast": (fast_random, game_fast_streams, _fast_unsupported),
    "fast-easy": (fast_policy("easy"), game_fast_easy, _fast_unsupported),
    "fast-easybot": (fast_policy("easybot"), game_bots("easy"), _fast_unsupported),
    "fast-medium": (fast_policy("medium"), game_bots("medium"), _fast_unsupported),
    "search-rollouts": (search_compiled, search_python, _fast_unsupported),
    "vector-opponents": (vector_env, game_vector, _fast_unsupported),
    # the rollout is checked against the reference inside game_and_rollout
    "rollout": (game_and_rollout, game_and_rollout, frozenset),
}


@cache
def reference(name: str, setting: Setting) -> tuple[Result, ...]:
    _engine, ref, _unsupported = ENGINES[name]
    rules = rules_of(setting)
    return tuple(ref(rules, players_of(setting), seed) for seed in ENGINE_SEEDS.get(name, SEEDS))


@pytest.mark.parametrize("name", list(ENGINES))
@pytest.mark.parametrize("setting", SETTINGS, ids=label)
def test_engine_plays_the_setting_or_declares_it(name: str, setting: Setting) -> None:
    engine, ref, unsupported = ENGINES[name]
    rules = rules_of(setting)
    declared = unsupported() & set(rules.settings().items())
    if declared:
        with pytest.raises(RulesError, match=r"cannot play|is not supported"):
            engine(rules, players_of(setting), 0)
        return
    expected = reference(name, setting)
    if engine is ref:  # the rollout: compared with the reference turn by turn in there
        return
    # the option must change a game of the sample, or the check proves nothing; the policies'
    # samples are a few bot games, which the rarest values (swap_slides=both, points_bonus=
    # cumulative) may not change: that the kernel reads every option, the random games prove
    if setting[1] and name not in POLICY_SAMPLES:
        assert expected != reference(name, (setting[0], ())), f"{label(setting)} changes no game"
    seeds = ENGINE_SEEDS.get(name, SEEDS)
    got = tuple(engine(rules, players_of(setting), seed) for seed in seeds)
    assert got == expected, label(setting)


@pytest.mark.parametrize("name", list(ENGINES))
def test_declarations_name_real_settings(name: str) -> None:
    """What an engine declares it cannot play is a value of the option table (no stale names)."""
    known = {("variant", v) for v in VARIANTS}
    known |= {(k, v) for k, values in OPTION_VALUES.items() for v in values}
    assert ENGINES[name][2]() <= known


def test_the_matrix_covers_the_option_table() -> None:
    """Every value of every option is in some setting, in every variant it applies to."""
    tried = {(v, k, x) for v, opts in SETTINGS for k, x in opts}
    for name, values in OPTION_VALUES.items():
        for value in values[1:]:
            assert any((k, x) == (name, value) for _v, k, x in tried), name
    assert {v for v, _ in SETTINGS} == set(VARIANTS)
