"""The batched environment (sorry.rl.vector): the same games as the reference engine for the
same seeds and actions, observation by observation and mask by mask (a differential test
against ``Game``, ``sorry.bots`` and ``sorry.rl.observation``), and Gymnasium's VectorEnv
interface: seeds, autoreset in both modes, illegal actions, self-play, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from sorry import Game
from sorry.actions import action_mask, legal_action_moves
from sorry.bots import Bot, make_bot
from sorry.errors import RulesError
from sorry.fast import game_seeds, policy_seed
from sorry.rl.observation import OBS_SIZE, observation
from sorry.rl.vector import OPPONENTS, SorryVectorEnv
from sorry.rng import Rng, derive_seed

_NAMES = {v: k for k, v in OPPONENTS.items()}


class Reference:
    """One slot's game replayed on the reference engine: Game(rules, players, seed), the
    other seats by sorry.bots with sorry.sim's streams, the agent's actions decoded."""

    def __init__(self, env: SorryVectorEnv, seed: int) -> None:
        self.env = env
        self.game = Game(env.rules, players=env.colours, seed=seed)
        self.bots: dict[int, Bot] = {c: make_bot(_NAMES[p]) for c, p in env.policies.items()}
        self.rngs = {c: Rng(policy_seed(seed, c)) for c in env.colours}
        self.advance()

    def advance(self) -> None:
        g = self.game
        while not g.is_over():
            if g.is_chance():
                g.draw()
            elif g.to_move in self.bots:
                c = g.to_move
                g.push(self.bots[c].choose(g.view(c), self.rngs[c]))
            else:
                return

    def viewer(self) -> int:
        return self.game.to_move if self.env.self_play else self.env.colour

    def play(self, action: int) -> tuple[bool, int]:
        """Play the agent's action (an illegal one: a random legal move from the mover's
        stream); return (illegal, the colour that moved)."""
        g = self.game
        moves = legal_action_moves(g)
        mover = g.to_move
        illegal = action not in moves
        move = g.legal_moves[self.rngs[mover].below(len(moves))] if illegal else moves[action]
        g.push(move)
        self.advance()
        return illegal, mover

    def check(self, k: int, obs: np.ndarray[Any, Any], info: dict[str, Any]) -> None:
        g = self.game
        view = g.view(self.viewer())
        want = observation(view)
        where = f"slot {k}, game seed {g.seed}, turn {g.turn}, {g.position_string()}"
        assert np.array_equal(obs[k], want), f"{where}: observation differs at " + str(
            np.flatnonzero(obs[k] != want)
        )
        mask = np.array(action_mask(g), dtype=bool) if not g.is_over() else np.zeros(684, bool)
        assert np.array_equal(info["action_mask"][k], mask), f"{where}: mask differs"
        assert int(info["seed"][k]) == g.seed and int(info["turn"][k]) == g.turn
        assert int(info["to_move"][k]) == self.viewer()


def _replay(env: SorryVectorEnv, seed: int, steps: int, illegal_every: int = 0) -> int:
    """Step env with random legal actions (some illegal ones too) alongside the reference;
    return the games finished."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    refs = [Reference(env, int(s)) for s in info["seed"]]
    for k, ref in enumerate(refs):
        ref.check(k, obs, info)
    finished = 0
    for t in range(steps):
        actions = env.sample_actions(rng)
        if illegal_every and t % illegal_every == 0:
            actions[::3] = 671  # a split no position lists: illegal
        obs, reward, term, trunc, info = env.step(actions)
        for k in range(env.num_envs):
            ref = refs[k]
            if ref.game.is_over():  # next-step autoreset: a new game, the action ignored
                finished += 1
                refs[k] = ref = Reference(env, int(info["seed"][k]))
                ref.check(k, obs, info)
                assert reward[k] == 0 and not term[k] and not trunc[k]
                continue
            illegal, mover = ref.play(int(actions[k]))
            ref.check(k, obs, info)
            g = ref.game
            assert bool(info["illegal"][k]) == illegal
            expected = env.illegal_reward if illegal else 0.0
            if g.is_over() and not g.unfinished:
                side = mover if env.self_play else env.colour
                expected += 1.0 if side in g.winners else -1.0
            assert reward[k] == pytest.approx(expected)
            assert bool(term[k]) == (g.is_over() and not g.unfinished)
            assert bool(trunc[k]) == g.unfinished
            if g.is_over():
                returns = [
                    0.0 if g.unfinished else (1.0 if c in g.winners else -1.0) for c in range(4)
                ]
                want = [returns[c] if c in g.colours else 0.0 for c in range(4)]
                assert list(info["returns"][k]) == want
    return finished


CASES: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 4, "opponents": "easy", "options": {"slide_on": "all"}},
    {"players": 3, "opponents": ["random", "easy"], "seat": 1, "options": {"deck": 44}},
    {"players": 4, "variant": "teams", "opponents": "easy"},
    {
        "players": 4,
        "variant": "teams",
        "opponents": "self",
        "options": {"team_swap_partner": "yes"},
    },
    {"players": 2, "variant": "points"},
    {"players": 4, "variant": "points", "opponents": "easy", "seat": 2},
    {"players": 4, "opponents": "self", "options": {"sorry_forward_4": "fallback"}},
    {"players": 2, "turn_limit": 40, "options": {"starting_pawns_out": 1}},
    {"players": 2, "opponents": "medium"},
    {"players": 4, "variant": "teams", "opponents": "medium", "seat": 1},
    {"players": 3, "variant": "points", "opponents": ["medium", "easy"], "seat": 2},
]
IDS = [
    "2",
    "4-easy-slides",
    "3-mixed",
    "teams",
    "teams-self",
    "points2",
    "points4-easy",
    "4-self",
    "limit",
    "2-medium",
    "teams-medium",
    "points3-medium",
]


@pytest.mark.parametrize("kw", CASES, ids=IDS)
def test_same_games_as_the_reference_engine(kw: dict[str, Any]) -> None:
    env = SorryVectorEnv(num_envs=6, illegal_reward=-0.5, **kw)
    # the Python medium bot is slow: fewer steps, still whole games
    steps = 150 if kw.get("turn_limit") else 220 if "medium" in str(kw.get("opponents")) else 450
    assert _replay(env, seed=11, steps=steps, illegal_every=9) >= 1


def test_seeds() -> None:
    env = SorryVectorEnv(num_envs=4, players=2)
    _obs, info = env.reset(seed=7)
    # slot i plays game i of the master seed, as sorry.sim and sorry.fast.simulate number them
    assert list(info["seed"]) == list(game_seeds(4, 7))
    obs2, info2 = SorryVectorEnv(num_envs=4, players=2).reset(seed=7)
    assert np.array_equal(_obs, obs2) and np.array_equal(info["action_mask"], info2["action_mask"])
    _obs, info = env.reset(seed=[5, 6, 7, 8])
    assert list(info["seed"]) == [5, 6, 7, 8]
    # the next games: k + N, k + 2N, ... of the master seed; derive_seed(s, 1), ... of a list
    env = SorryVectorEnv(num_envs=2, players=2, turn_limit=4)
    env.reset(seed=3)
    seen = {int(s) for s in env.reset(seed=3)[1]["seed"]}
    for _ in range(12):
        seen |= {int(s) for s in env.step(env.sample_actions(np.random.default_rng(0)))[4]["seed"]}
    assert seen == {derive_seed(3, k) for k in range(len(seen))}
    env.reset(seed=[5, 6])
    later = set()
    for _ in range(12):
        later |= {int(s) for s in env.step(np.zeros(2, np.int64))[4]["seed"]}
    assert {derive_seed(5, 1), derive_seed(6, 1)} <= later


def test_spaces_and_dtypes() -> None:
    env = SorryVectorEnv(num_envs=3, players=4, variant="points")
    obs, info = env.reset(seed=1)
    assert env.observation_space.shape == (3, OBS_SIZE) and env.single_action_space.n == 684
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.bool_ and info["action_mask"].any(axis=1).all()
    assert np.array_equal(env.action_masks(), info["action_mask"])
    obs, reward, term, trunc, info = env.step(env.sample_actions(np.random.default_rng(1)))
    assert obs.dtype == np.float32 and reward.dtype == np.float32
    assert term.dtype == np.bool_ and trunc.dtype == np.bool_
    assert all(info["_" + key].all() for key in ("action_mask", "seed", "to_move"))
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP


def test_copy_false_reuses_the_arrays_and_copy_true_does_not() -> None:
    rng = np.random.default_rng(2)
    env = SorryVectorEnv(num_envs=2, players=2, copy=False)
    a, _ = env.reset(seed=0)
    b = env.step(env.sample_actions(rng))[0]
    assert a is b
    env = SorryVectorEnv(num_envs=2, players=2)
    a, _ = env.reset(seed=0)
    before = a.copy()
    b = env.step(env.sample_actions(rng))[0]
    assert a is not b and np.array_equal(a, before)


def test_same_step_autoreset_gives_the_final_observation() -> None:
    env = SorryVectorEnv(num_envs=3, players=2, turn_limit=6, autoreset_mode="SameStep")
    obs, info = env.reset(seed=4)
    refs = [Reference(env, int(s)) for s in info["seed"]]
    rng = np.random.default_rng(4)
    ended = 0
    for _ in range(20):
        actions = env.sample_actions(rng)
        obs, _reward, term, trunc, info = env.step(actions)
        for k in range(3):
            refs[k].play(int(actions[k]))
            if refs[k].game.is_over():
                ended += 1
                assert (term[k] or trunc[k]) and info["_final_obs"][k]
                final = observation(refs[k].game.view(env.colour))
                assert np.array_equal(info["final_obs"][k], final)
                refs[k] = Reference(env, int(info["seed"][k]))  # already the next game
            else:
                assert not (term[k] or trunc[k])
            refs[k].check(k, obs, info)
    assert ended >= 3


def test_works_with_gymnasium_vector_wrappers() -> None:
    env = RecordEpisodeStatistics(SorryVectorEnv(num_envs=4, players=2, turn_limit=30))
    env.reset(seed=0)
    inner = env.unwrapped
    assert isinstance(inner, SorryVectorEnv)
    episodes = 0
    for _ in range(60):
        *_rest, info = env.step(inner.sample_actions(np.random.default_rng(0)))
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes >= 4 and len(env.return_queue) == episodes


def test_self_play_moves_every_seat() -> None:
    env = SorryVectorEnv(num_envs=2, players=4, opponents="self")
    _obs, info = env.reset(seed=9)
    movers = set()
    for _ in range(40):
        movers |= set(info["to_move"].tolist())
        info = env.step(env.sample_actions(np.random.default_rng(9)))[4]
    assert movers == {0, 1, 2, 3}


def test_render_and_position() -> None:
    env = SorryVectorEnv(num_envs=2, players=2, render_mode="ansi")
    env.reset(seed=1)
    frames = env.render()
    assert frames is not None and len(frames) == 2
    lines = frames[0].splitlines()
    assert len(lines) == 17 and " to move with a " in lines[-1]
    assert str(env.position(0)).startswith("R:")
    with pytest.warns(UserWarning, match="render_mode"):
        assert SorryVectorEnv(num_envs=1).render() is None


def test_errors() -> None:
    with pytest.raises(RulesError, match="num_envs"):
        SorryVectorEnv(num_envs=0)
    with pytest.raises(RulesError, match="unknown opponent"):
        SorryVectorEnv(num_envs=1, opponents="grandmaster")
    with pytest.raises(RulesError, match="opponents needed"):
        SorryVectorEnv(num_envs=1, players=3, opponents=["easy"])
    with pytest.raises(RulesError, match="seat"):
        SorryVectorEnv(num_envs=1, players=2, seat=2)
    with pytest.raises(RulesError, match="team_seven_split"):
        SorryVectorEnv(num_envs=1, variant="teams", options={"team_seven_split": "any"})
    with pytest.raises(RulesError, match="autoreset_mode"):
        SorryVectorEnv(num_envs=1, autoreset_mode=AutoresetMode.DISABLED)
    env = SorryVectorEnv(num_envs=2)
    with pytest.raises(RulesError, match="reset"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(RulesError, match="2 seeds"):
        env.reset(seed=[1])
    env.reset(seed=0)
    with pytest.raises(RulesError, match="give 2 actions"):
        env.step(np.zeros(3, np.int64))


def test_gymnasium_make_vec_gives_the_batched_environment() -> None:
    import gymnasium as gym

    from sorry.rl.gym_env import ENV_ID

    env = gym.make_vec(ENV_ID, num_envs=5, players=4, opponents="easy")
    assert isinstance(env, SorryVectorEnv) and env.num_envs == 5
    assert env.policies == {1: OPPONENTS["easy"], 2: OPPONENTS["easy"], 3: OPPONENTS["easy"]}
