"""Sorry! as a Gymnasium single-agent environment: one seat is the agent, the others are bots.

>>> env = SorryEnv(players=2, opponents="random")
>>> obs, info = env.reset(seed=3)
>>> obs.shape, env.action_masks().shape, bool(info["action_mask"].any())
((339,), (684,), True)

The agent plays ``seat`` (an index into the colours in play; default 0, Red); every other seat
(in teams the partner too) is played by a bot of :mod:`sorry.bots` (``opponents``: a level name,
a bot, or one level/bot per other seat). Card draws and the bots' moves happen inside
:meth:`step`, which returns when the agent has a decision again or the game is over.

Observations are the float32 vector of :mod:`sorry.rl.observation` (339 values in [0, 1]);
actions are those of :mod:`sorry.actions` (``Discrete(684)``). :meth:`action_masks` gives the
legal actions (the convention of sb3-contrib's MaskablePPO), also ``info["action_mask"]``. An
illegal action is replaced by a random legal move (seeded) and flagged ``info["illegal"] =
True`` with reward ``illegal_reward``. The reward is +1 when the agent's side wins, -1 when it
loses, 0 otherwise (a game stopped by the turn limit is *truncated*).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..actions import NUM_ACTIONS, decode, legal_action_moves
from ..bots import Bot, make_bot
from ..errors import RulesError
from ..game import Game
from ..rng import Rng
from .image import Image, board_rgb
from .observation import OBS_SIZE, make_rules, observation
from .render import RENDER_FPS, RENDER_MODES, board_text

DEFAULT_TURN_LIMIT = 1000


class SorryEnv(gym.Env[np.ndarray[Any, Any], np.int64]):
    """Gymnasium environment: the agent against bots."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}  # noqa: RUF012

    def __init__(
        self,
        players: int = 2,
        variant: str = "standard",
        options: dict[str, Any] | None = None,
        opponents: str | Bot | Sequence[str | Bot] = "random",
        seat: int = 0,
        turn_limit: int = DEFAULT_TURN_LIMIT,
        illegal_reward: float = 0.0,
        render_mode: str | None = None,
    ) -> None:
        rules = make_rules(variant, options)
        if rules.turn_limit is None:
            rules = rules.replace(turn_limit=turn_limit)
        self.rules = rules
        self.colours = Game(rules, players=players, seed=0).colours
        if not 0 <= seat < len(self.colours):
            raise RulesError(f"seat {seat} is not one of the {len(self.colours)} seats")
        self.colour = self.colours[seat]
        others = [c for c in self.colours if c != self.colour]
        if isinstance(opponents, (str, Bot)):
            opponents = [opponents] * len(others)
        if len(opponents) != len(others):
            raise RulesError(f"{len(others)} opponents needed, {len(opponents)} given")
        self.bots: dict[int, Bot] = {
            c: make_bot(b) if isinstance(b, str) else b
            for c, b in zip(others, opponents, strict=True)
        }
        self.illegal_reward = illegal_reward
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesError(f"render_mode {render_mode!r} is not one of {', '.join(RENDER_MODES)}")
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self._rng = Rng(0)

    # -- the gymnasium API --------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63))
        self._rng = Rng(int(self.np_random.integers(0, 2**63)))
        self.game = Game(self.rules, players=self.colours, seed=game_seed)
        self._advance()
        return self._obs(), self._info(False)

    def step(
        self, action: np.int64 | int
    ) -> tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]:
        game = self.game
        assert game is not None, "call reset() first"
        if game.is_over():
            raise RulesError("the game is over: call reset()")
        moves = legal_action_moves(game)
        a = int(action)
        illegal = a not in moves
        if illegal:
            keys = list(moves)
            a = keys[self._rng.below(len(keys))]
        game.push(moves[a] if a in moves else decode(game, a))
        self._advance()
        reward = self.illegal_reward if illegal else 0.0
        terminated = truncated = False
        if game.is_over():
            if game.unfinished:
                truncated = True
            else:
                terminated = True
                reward += 1.0 if self.colour in game.winners else -1.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, self._info(illegal)

    def action_masks(self) -> np.ndarray[Any, Any]:
        """Booleans of length 684: the agent's legal actions now."""
        mask = np.zeros(NUM_ACTIONS, np.bool_)
        game = self.game
        if game is not None and not game.is_over():
            mask[list(legal_action_moves(game))] = True
        return mask

    def render(self) -> str | Image | None:
        """``ansi``: the board as text with a status line; ``human``: the same printed;
        ``rgb_array``: the board as ``uint8[640, 640, 3]`` (:func:`sorry.rl.image.board_rgb`)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode (ansi, human or rgb_array)")
            return None
        if self.render_mode == "rgb_array":
            return board_rgb(self.game)
        text = board_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- internals ----------------------------------------------------------------------------
    def _advance(self) -> None:
        """Draw cards and let the bots move until the agent decides or the game ends."""
        game = self.game
        assert game is not None
        while not game.is_over():
            if game.is_chance():
                game.draw()
            elif game.to_move == self.colour:
                return
            else:
                bot = self.bots[game.to_move]
                game.push(bot.choose(game.view(game.to_move), self._rng))

    def _obs(self) -> np.ndarray[Any, Any]:
        assert self.game is not None
        return observation(self.game.view(self.colour))

    def _info(self, illegal: bool) -> dict[str, Any]:
        game = self.game
        assert game is not None
        return {
            "action_mask": self.action_masks(),
            "illegal": illegal,
            "winners": game.winners,
            "turn": game.turn,
        }


#: Gymnasium's id: ``gym.make(ENV_ID, players=2, opponents="easy")`` is a SorryEnv, and
#: ``gym.make_vec(ENV_ID, num_envs=1024, players=2)`` the compiled batched environment
#: (sorry.rl.vector.SorryVectorEnv, its vector entry point).
ENV_ID = "sorry/Sorry-v0"
if ENV_ID not in gym.registry:
    gym.register(
        id=ENV_ID,
        entry_point="sorry.rl.gym_env:SorryEnv",
        vector_entry_point="sorry.rl.vector:SorryVectorEnv",
    )

__all__ = ["ENV_ID", "SorryEnv"]
