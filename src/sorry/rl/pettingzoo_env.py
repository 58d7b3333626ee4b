"""Sorry! as a PettingZoo AEC environment (docs/rl.md), with the classic environments'
conventions: :func:`env` wraps :class:`raw_env` in PettingZoo's illegal-move, bounds and
order wrappers; the versioned name is ``sorry_v0`` (also importable as
:mod:`sorry.rl.sorry_v0`).

>>> e = env(players=2)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["observation"].shape, obs["action_mask"].shape
(['action_mask', 'observation'], (339,), (684,))

Agents are the colours in play, lower case (``red``, ``blue``, ``yellow``, ``green``). Card draws
are resolved inside :meth:`step` from the game's seeded deck, so every agent step is a decision:
the agent selected is the colour to move (after a ``2`` the same agent moves again). Observations
are built lazily by :meth:`observe`: ``{"observation": float32[339], "action_mask":
int8[684]}`` (the mask is all zeros for an agent not to move). Rewards come at the end:
``n-1`` for the winner and ``-1`` for the others (teams ``+1``/``-1``); a game stopped by the
turn limit is truncated with rewards 0. Through :func:`env`, an illegal action ends the game
with ``-1`` for the agent that made it and 0 for the others (PettingZoo's
``TerminateIllegalWrapper``); :class:`raw_env` raises :class:`~sorry.errors.IllegalMoveError`.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..actions import NUM_ACTIONS, decode, legal_actions
from ..board import COLOUR_NAMES
from ..errors import IllegalMoveError, RulesError
from ..game import Game
from ..rng import Rng
from .image import Image, board_rgb
from .observation import OBS_SIZE, make_rules, observation
from .render import RENDER_FPS, RENDER_MODES, board_text

DEFAULT_TURN_LIMIT = 1000
AGENT_NAMES = tuple(name.lower() for name in COLOUR_NAMES)
ILLEGAL_REWARD = -1.0


class SorryAECEnv(AECEnv, EzPickle):  # type: ignore[misc]
    """PettingZoo AEC environment for every variant of Sorry! (the raw environment)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "sorry_v0",
        "is_parallelizable": False,
        "render_fps": RENDER_FPS,
    }

    def __init__(
        self,
        players: int = 4,
        variant: str = "standard",
        options: dict[str, Any] | None = None,
        turn_limit: int = DEFAULT_TURN_LIMIT,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, players, variant, options, turn_limit, render_mode)
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise RulesError(f"render_mode {render_mode!r} is not one of {', '.join(RENDER_MODES)}")
        rules = make_rules(variant, options)
        if rules.turn_limit is None:
            rules = rules.replace(turn_limit=turn_limit)
        self.rules = rules
        self.n_players = players
        self.render_mode = render_mode
        self.colours = Game(rules, players=players, seed=0).colours
        self.possible_agents = [AGENT_NAMES[c] for c in self.colours]
        self._colour_of = {AGENT_NAMES[c]: c for c in self.colours}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seeds = Rng(int.from_bytes(os.urandom(8), "big"))
        self.game: Game | None = None
        self._observed: dict[str, dict[str, np.ndarray[Any, Any]]] = {}  # this state's

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = Rng(seed)
        game = Game(self.rules, players=self.colours, seed=self._seeds.next64())
        while game.is_chance():
            game.draw()
        self.game = game
        self._observed.clear()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = AGENT_NAMES[game.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        game = self.game
        assert game is not None, "call reset() first"
        cached = self._observed.get(agent)
        if cached is not None:  # the same state: what was built for it (a copy)
            return {k: v.copy() for k, v in cached.items()}
        view = game.view(self._colour_of[agent])
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if not game.is_over() and view.to_move == view.viewer:
            mask[legal_actions(view)] = 1
        obs: dict[str, np.ndarray[Any, Any]] = {
            "observation": observation(view),
            "action_mask": mask,
        }
        self._observed[agent] = obs
        return {k: v.copy() for k, v in obs.items()}

    def action_mask(self, agent: str | None = None) -> np.ndarray[Any, Any]:
        """The legal-action mask of ``agent`` (default: the agent selected)."""
        return self.observe(agent or self.agent_selection)["action_mask"]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None, "call reset() first"
        if action is None:
            raise IllegalMoveError(f"{agent} is to move: give an action, not None")
        a = int(action)
        if not 0 <= a < NUM_ACTIONS or not self.observe(agent)["action_mask"][a]:
            raise IllegalMoveError(f"action {a} is not legal for {agent} now")
        self._observed.clear()
        self._cumulative_rewards[agent] = 0.0
        game.push(decode(game, a))
        while game.is_chance():
            game.draw()
        self._clear_rewards()
        if game.is_over():
            returns = game.returns()
            for ag in self.agents:
                self.rewards[ag] = returns[self._colour_of[ag]]
                if game.unfinished:
                    self.truncations[ag] = True
                else:
                    self.terminations[ag] = True
        else:
            self.agent_selection = AGENT_NAMES[game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | Image | None:
        """``ansi``: the board as text with a status line; ``human``: the same printed;
        ``rgb_array``: the board as ``uint8[640, 640, 3]`` (:func:`sorry.rl.image.board_rgb`)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode (ansi, human or rgb_array)"
            )
            return None
        if self.render_mode == "rgb_array":
            return board_rgb(self.game)
        text = self.board_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def board_text(self) -> str:
        """The board as text (:mod:`sorry.textboard`, no colours) and a status line."""
        return board_text(self.game)

    def close(self) -> None:
        pass


raw_env = SorryAECEnv


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment, as PettingZoo's classic games: an illegal action ends the game
    with -1 for its agent (``TerminateIllegalWrapper``), an action outside the space is an
    assertion error (``AssertOutOfBoundsWrapper``), calls out of order are errors
    (``OrderEnforcingWrapper``). Keyword arguments as :class:`SorryAECEnv`."""
    wrapped: AECEnv = SorryAECEnv(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


__all__ = ["AGENT_NAMES", "SorryAECEnv", "env", "raw_env"]
