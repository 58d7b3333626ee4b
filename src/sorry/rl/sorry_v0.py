"""PettingZoo's versioned-module convention: ``from sorry.rl import sorry_v0; sorry_v0.env()``
(the classic games' ``from pettingzoo.classic import chess_v6``). See
:mod:`sorry.rl.pettingzoo_env`."""

from __future__ import annotations

from .pettingzoo_env import SorryAECEnv, env, raw_env

__all__ = ["SorryAECEnv", "env", "raw_env"]
