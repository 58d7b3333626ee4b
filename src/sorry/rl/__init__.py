"""Interfaces for game-AI research (the ``rl`` extra; see docs/rl.md).

* :mod:`sorry.rl.observation`: the observation layout the interfaces share (NumPy);
* :mod:`sorry.rl.openspiel_game`: the OpenSpiel game ``python_sorry`` (needs ``open_spiel``);
* :mod:`sorry.rl.pettingzoo_env` (as :mod:`sorry.rl.sorry_v0`, PettingZoo's convention): a
  PettingZoo AEC environment (needs ``pettingzoo``);
* :mod:`sorry.rl.gym_env`: a Gymnasium single-agent environment against bots (``gymnasium``);
* :mod:`sorry.rl.vector`: a batched Gymnasium ``VectorEnv`` of N games stepped together in
  compiled code (``gymnasium`` and the ``fast`` extra, numba).

Each submodule imports its own third-party library, so import only what you use. Actions are
those of :mod:`sorry.actions`.
"""

from __future__ import annotations

from ..actions import NUM_ACTIONS

__all__ = ["NUM_ACTIONS"]
