"""The learned network's weights: created, saved and loaded (numpy alone).

A model is four arrays (the hidden layer's weights and biases, the output layer's) and a
little metadata (how it was trained: the command, the seed, the games played). It is saved as
one ``.npz`` file; the one the project ships is ``sorry/learned/data/standard.npz``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import SorryError

Array = npt.NDArray[Any]

#: Inputs and outputs of the network (the layout is documented in :mod:`sorry.learned._net`).
N_FEATURES = 555
N_OUT = 4
#: The format of the saved file (bumped when the features change).
FORMAT = 1
SHIPPED = "standard.npz"


@dataclass
class Model:
    """The weights of the network and how they were trained (``meta``)."""

    W1: Array
    b1: Array
    W2: Array
    b2: Array
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def new(cls, hidden: int, seed: int) -> Model:
        """Small random weights (seeded)."""
        rng = np.random.default_rng(seed)
        return cls(
            W1=rng.normal(0.0, 0.1, (N_FEATURES, hidden)),
            b1=np.zeros(hidden),
            W2=rng.normal(0.0, 0.1, (hidden, N_OUT)),
            b2=np.zeros(N_OUT),
            meta={"format": FORMAT, "hidden": hidden, "games": 0},
        )

    @property
    def net(self) -> tuple[Array, Array, Array, Array]:
        """The arrays as the compiled code takes them."""
        return self.W1, self.b1, self.W2, self.b2

    def save(self, path: str | Path) -> None:
        """Write the model to ``path`` (an ``.npz``, float64 so that a run resumes exactly),
        atomically."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(
            tmp,
            W1=self.W1,
            b1=self.b1,
            W2=self.W2,
            b2=self.b2,
            meta=np.array(json.dumps(self.meta)),
        )
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> Model:
        """Read a model saved by :meth:`save` (a one-line :class:`SorryError` if it is not one)."""
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                m = cls(
                    W1=z["W1"].astype(np.float64),
                    b1=z["b1"].astype(np.float64),
                    W2=z["W2"].astype(np.float64),
                    b2=z["b2"].astype(np.float64),
                    meta=meta,
                )
        except (OSError, KeyError, ValueError) as exc:
            raise SorryError(f"{path}: not a learned model ({exc})") from None
        if meta.get("format") != FORMAT or m.W1.shape[0] != N_FEATURES:
            raise SorryError(f"{path}: a model of another format (this version reads {FORMAT})")
        return m


_shipped: Model | None = None


def shipped() -> Model:
    """The model the project ships (loaded once)."""
    global _shipped
    if _shipped is None:
        ref = resources.files("sorry.learned") / "data" / SHIPPED
        with resources.as_file(ref) as path:
            _shipped = Model.load(path)
    return _shipped
