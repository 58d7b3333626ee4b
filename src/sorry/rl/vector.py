"""A batched environment on the compiled engine: N games of Sorry! stepped together in
compiled code, behind Gymnasium's ``VectorEnv`` interface (docs/rl.md).

>>> env = SorryVectorEnv(num_envs=8, players=2, opponents="random")
>>> obs, info = env.reset(seed=0)
>>> obs.shape, obs.dtype.name, info["action_mask"].shape
((8, 339), 'float32', (8, 684))
>>> actions = env.sample_actions(np.random.default_rng(0))  # random legal actions
>>> bool(info["action_mask"][np.arange(8), actions].all())
True
>>> obs, reward, terminated, truncated, info = env.step(actions)
>>> reward.shape, terminated.dtype.name, env.agent_steps
((8,), 'bool', 8)

Each of the ``num_envs`` slots plays one game at a time. The agent plays the colour of
``seat`` (an index into the colours in play); every other seat, in teams the partner too, is
played inside the batch by a compiled policy (``opponents``: ``random``, ``easy``,
``medium``, or one name per other seat; exactly the bots of :mod:`sorry.bots`), or
``opponents="self"`` lets the agent play every seat (self-play: each step is the decision of
the colour to move, ``info["to_move"]``). Observations are the
339-float layout of :mod:`sorry.rl.observation` for the agent's colour, actions those of
:mod:`sorry.actions` (``info["action_mask"]``, :meth:`action_masks`), rewards +1 when the
agent's side wins and -1 when it loses (self-play: the side of the colour that moved), at the
last step of a game; a game stopped by ``turn_limit`` is truncated with reward 0.

Seeds: ``reset(seed=s)`` gives slot ``i`` the games ``i``, ``i + N``, ``i + 2N``, ... of the
master seed ``s`` (game ``k`` has the seed ``derive_seed(s, k)``, as in ``sorry.sim`` and
``sorry.fast.simulate``); ``reset(seed=[s_0, ..., s_{N-1}])`` gives slot ``i`` the seed
``s_i``, then ``derive_seed(s_i, 1)``, ``derive_seed(s_i, 2)``, ... ``info["seed"]`` is each
slot's game seed: the game is ``Game(rules, players, seed=...)``, and the other seats' bots
draw from ``sorry.fast.policy_seed(seed, colour)``, as ``sorry.sim`` seeds them, so the
reference engine replays every game exactly (``tests/test_rl_vector.py``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..actions import NUM_ACTIONS
from ..board import COLOUR_LETTERS
from ..errors import RulesError
from ..position import Position
from ..rules import VARIANTS
from .image import DEFAULT_SIZE, Image, board_rgb
from .observation import OBS_SIZE, make_rules
from .render import RENDER_FPS

try:
    from .. import fast
    from ..fast import _kernel as K, _vector as VK
    from ..fast.search import rule_arrays
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(f"sorry.rl.vector needs the fast extra (numba): {exc}") from exc

DEFAULT_TURN_LIMIT = 1000
#: The compiled policies the other seats can play (sorry.bots' levels, exactly).
OPPONENTS = {"random": K.POLICY_RANDOM, "easy": K.POLICY_EASYBOT, "medium": K.POLICY_MEDIUM}
SELF_PLAY = "self"

Array = npt.NDArray[Any]


class SorryVectorEnv(VectorEnv):
    """``num_envs`` games stepped together in compiled code (Gymnasium ``VectorEnv``)."""

    metadata = {  # noqa: RUF012 (gymnasium's convention)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": ["ansi", "rgb_array"],
        "render_fps": RENDER_FPS,
    }

    def __init__(
        self,
        num_envs: int = 1024,
        players: int = 2,
        variant: str = "standard",
        options: dict[str, Any] | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        turn_limit: int = DEFAULT_TURN_LIMIT,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        illegal_reward: float = 0.0,
        copy: bool = True,
        render_mode: str | None = None,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise RulesError(f"num_envs must be a positive integer, not {num_envs!r}")
        if variant not in VARIANTS:
            raise RulesError(f"unknown variant {variant!r} (expected standard, teams or points)")
        rules = make_rules(variant, options)
        if rules.turn_limit is None:
            rules = rules.replace(turn_limit=turn_limit)
        self.rules = rules
        self.colours = fast._colours(players, rules)
        if not 0 <= seat < len(self.colours):
            raise RulesError(f"seat {seat} is not one of the {len(self.colours)} seats")
        mode = AutoresetMode(autoreset_mode) if isinstance(autoreset_mode, str) else autoreset_mode
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise RulesError(f"autoreset_mode {mode.value} is not supported (NextStep, SameStep)")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesError(f"render_mode {render_mode!r} is not one of ansi, rgb_array")
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.autoreset_mode = mode
        self.metadata = dict(self.metadata, autoreset_mode=mode)
        self.illegal_reward = float(illegal_reward)
        self.copy = copy
        self.self_play = opponents == SELF_PLAY
        self.seat = seat
        self.colour = self.colours[seat]
        self.policies = self._seat_policies(opponents)
        P, slide = fast.params(rules, K.POLICY_RANDOM, [self.policies.get(c, 0) for c in range(4)])
        # the agent's seats are the game loop's POLICY_OUTSIDE: it stops at their decisions
        pols = np.array(
            [K.POLICY_OUTSIDE if c in self.colours and (self.self_play or c == self.colour)
             else self.policies.get(c, K.POLICY_RANDOM) for c in range(4)],
            dtype=np.int64,
        )  # fmt: skip
        # the medium bot's evaluation tables (threat masks, card probabilities and weights)
        _P, _slide, hitm, E = rule_arrays(rules)
        self._book = K.book(P, slide, np.array(self.colours), pols, hitm.copy(), E.copy())
        V = np.zeros(VK.V_LEN, dtype=np.int64)
        V[VK.V_SINGLE] = -1 if self.self_play else self.colour
        V[VK.V_NUM] = num_envs
        V[VK.V_AUTORESET] = int(mode == AutoresetMode.SAME_STEP)
        V[VK.V_VARIANT] = VARIANTS.index(rules.variant)
        V[VK.V_DECK] = rules.deck
        self._V = V
        self.single_observation_space = spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        n = num_envs
        self._slots = VK.new_slots(n)
        self._G = self._slots.G
        self._S = self._slots.S
        self._base = self._slots.base
        self._seeds = self._slots.seeds
        self._work = K.new_work()
        self._obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self._mask = np.zeros((n, NUM_ACTIONS), dtype=np.bool_)
        self._reward = np.zeros(n, dtype=np.float32)
        self._term = np.zeros(n, dtype=np.bool_)
        self._trunc = np.zeros(n, dtype=np.bool_)
        self._returns = np.zeros((n, 4), dtype=np.float32)
        self._illegal = np.zeros(n, dtype=np.bool_)
        self._final_obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self._has_final = np.zeros(n, dtype=np.bool_)
        self._all = np.ones(n, dtype=np.bool_)
        self._started = False
        #: decisions played by the agent since the environment was made (resets excluded)
        self.agent_steps = 0

    # -- construction -----------------------------------------------------------------------
    def _seat_policies(self, opponents: str | Sequence[str]) -> dict[int, int]:
        """The compiled policy of every colour the agent does not play."""
        if self.self_play:
            return {}
        others = [c for c in self.colours if c != self.colour]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise RulesError(f"{len(others)} opponents needed, {len(names)} given")
        out = {}
        for c, name in zip(others, names, strict=True):
            if name not in OPPONENTS:
                known = ", ".join([*OPPONENTS, SELF_PLAY])
                raise RulesError(f"unknown opponent {name!r} (known: {known})")
            out[c] = OPPONENTS[name]
        return out

    # -- the VectorEnv API ----------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Array, dict[str, Any]]:
        """Start a new game in every slot (see the module doc for the seeds)."""
        if options:
            raise RulesError(f"reset options are not supported: {sorted(options)}")
        mask64 = (1 << 64) - 1
        if seed is None or isinstance(seed, (int, np.integer)):
            master = int.from_bytes(os.urandom(8), "big") if seed is None else int(seed)
            self._base[:] = master & mask64
            self._V[VK.V_SEED_MODE] = 0
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise RulesError(f"{self.num_envs} seeds needed, {len(seeds)} given")
            self._base[:] = [int(s) & mask64 for s in seeds]
            self._V[VK.V_SEED_MODE] = 1
        self._fresh_outputs()
        VK.reset_slots(
            0, self.num_envs, self._book, self._work, self._V, self._slots, self._views()
        )
        self._illegal[:] = False
        self._started = True
        return self._obs, self._info(reset=True)

    def step(
        self, actions: Array | Sequence[int]
    ) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        """Play each slot's action (see the module doc); returns (observations, rewards,
        terminations, truncations, infos) as arrays over the slots."""
        if not self._started:
            raise RulesError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise RulesError(f"give {self.num_envs} actions, not an array of shape {acts.shape}")
        acts = acts.astype(np.int64, copy=False)
        self._fresh_outputs()
        decisions = VK.step_slots(
            0, self.num_envs, acts, self.illegal_reward, self._book, self._work, self._V,
            self._slots, self._views(),
        )  # fmt: skip
        self.agent_steps += int(decisions)
        return self._obs, self._reward, self._term, self._trunc, self._info(reset=False)

    def action_masks(self) -> Array:
        """The legal actions of every slot now (bool[num_envs, 684]; all false in a game that
        is over and waits for its next-step reset)."""
        return self._mask.copy()

    def sample_actions(self, rng: np.random.Generator) -> Array:
        """A uniformly random legal action for every slot (int64[num_envs])."""
        out = np.zeros(self.num_envs, dtype=np.int64)
        VK.sample_actions(self._G, self._slots.acts, rng.random(self.num_envs), out)
        return out

    def render(self) -> tuple[str, ...] | tuple[Image, ...] | None:
        """``ansi``: each slot's board as text with a status line; ``rgb_array``: each slot's
        board as ``uint8[640, 640, 3]`` (:func:`sorry.rl.image.board_rgb`; a frame of every
        slot, so record with a few slots)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode (ansi or rgb_array)")
            return None
        if self.render_mode == "rgb_array":
            return tuple(self.board_image(i) for i in range(self.num_envs))
        return tuple(self.board_text(i) for i in range(self.num_envs))

    def board_image(self, i: int, size: int = DEFAULT_SIZE) -> Image:
        """Slot ``i``'s board as a picture, with the card in play."""
        card = int(self._G[i][VK.G_CARD])
        over = bool(self._G[i][VK.G_OVER])
        return board_rgb(self.position(i), size=size, card=card if card and not over else None)

    def board_text(self, i: int) -> str:
        """Slot ``i``'s board (sorry.textboard) and a status line."""
        from ..textboard import render as board_picture

        return board_picture(self.position(i), colour=False) + "\n" + self._status(i)

    def position(self, i: int) -> Position:
        """Slot ``i``'s position (the pawns and the colour to move)."""
        g = self._G[i]
        text = fast.board_text(self._S[i], self.colours)
        return Position.parse(f"{text} {COLOUR_LETTERS[int(g[VK.G_TO_MOVE])]}")

    def _status(self, i: int) -> str:
        from ..board import COLOUR_NAMES
        from ..cards import card_name

        g = self._G[i]
        turn = int(g[VK.G_TURN])
        if g[VK.G_OVER]:
            w = int(g[VK.G_WINNER])
            if w < 0:
                return f"turn {turn}: stopped by the turn limit"
            won = self.rules.book.movers[w]
            return f"turn {turn}: {' and '.join(COLOUR_NAMES[c] for c in won)} won"
        text = f"turn {turn}: {COLOUR_NAMES[int(g[VK.G_TO_MOVE])]} to move"
        if g[VK.G_CARD]:
            text += f" with a {card_name(int(g[VK.G_CARD]))}"
        return text

    # -- internals ------------------------------------------------------------------------------
    def _views(self) -> VK.Views:
        """The step's output arrays as the kernel's record."""
        return VK.Views(self._obs, self._mask, self._reward, self._term, self._trunc,
                        self._returns, self._illegal, self._final_obs, self._has_final)  # fmt: skip

    def _fresh_outputs(self) -> None:
        """New arrays for the step's outputs (``copy``: what a step returned stays as it was),
        which the kernel fills whole; without ``copy`` the same arrays every step."""
        if not self.copy and self._started:
            return
        n = self.num_envs
        self._obs = np.empty((n, OBS_SIZE), dtype=np.float32)
        self._mask = np.empty((n, NUM_ACTIONS), dtype=np.bool_)
        self._reward = np.empty(n, dtype=np.float32)
        self._term = np.empty(n, dtype=np.bool_)
        self._trunc = np.empty(n, dtype=np.bool_)
        self._returns = np.empty((n, 4), dtype=np.float32)
        self._illegal = np.empty(n, dtype=np.bool_)

    def _info(self, reset: bool) -> dict[str, Any]:
        G = self._G
        info: dict[str, Any] = {
            "action_mask": self._mask,
            "to_move": G[:, VK.G_VIEWER].copy(),
            "seed": self._seeds.copy(),
            "turn": G[:, VK.G_TURN].copy(),
            "returns": self._returns,
            "illegal": self._illegal,
        }
        for key in list(info):
            info["_" + key] = self._all
        if not reset and self.autoreset_mode == AutoresetMode.SAME_STEP and self._has_final.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(self._has_final):
                final[i] = self._final_obs[i].copy()
            info["final_obs"] = final
            info["_final_obs"] = self._has_final.copy()
        return info


def make(num_envs: int = 1024, **kwargs: Any) -> SorryVectorEnv:
    """``SorryVectorEnv(num_envs, **kwargs)``."""
    return SorryVectorEnv(num_envs, **kwargs)


__all__ = ["OPPONENTS", "SELF_PLAY", "SorryVectorEnv", "make"]
