"""The learned network's weights: created, saved and loaded (numpy alone).

A model is four arrays (the hidden layer's weights and biases, the output layer's) and a
little metadata (how it was trained: the variant, the command, the seed, the games played).
It is saved as one ``.npz`` file. The project ships one model per variant it was trained on,
``sorry/learned/data/<variant>.npz`` (standard, teams, points).
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

#: Inputs and outputs of the network (the layout is documented in :mod:`sorry.learned._net`):
#: the points variant's network also reads the chooser's kept hand (11 inputs more).
N_FEATURES = 555
N_HAND = 11
N_OUT = 4
#: The format of the saved file (bumped when the features change).
FORMAT = 1
#: The variants a model is trained for, each with its shipped file.
VARIANTS = ("standard", "teams", "points")


def inputs_for(variant: str) -> int:
    """The number of inputs of a network of ``variant``."""
    return N_FEATURES + (N_HAND if variant == "points" else 0)


@dataclass
class Model:
    """The weights of the network and how they were trained (``meta``)."""

    W1: Array
    b1: Array
    W2: Array
    b2: Array
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def new(cls, hidden: int, seed: int, variant: str = "standard") -> Model:
        """Small random weights (seeded) for a network of ``variant``."""
        rng = np.random.default_rng(seed)
        return cls(
            W1=rng.normal(0.0, 0.1, (N_FEATURES, hidden)),
            b1=np.zeros(hidden),
            W2=rng.normal(0.0, 0.1, (hidden, N_OUT)),
            b2=np.zeros(N_OUT),
            meta={"format": FORMAT, "hidden": hidden, "games": 0, "rules": variant},
        ).with_inputs(inputs_for(variant), rng)

    def with_inputs(self, n: int, rng: np.random.Generator) -> Model:
        """The model with ``n`` inputs: the hand's rows of a points network drawn after the
        others, so that its first 555 rows are a standard network's from the same seed."""
        extra = n - self.W1.shape[0]
        if extra > 0:
            self.W1 = np.vstack([self.W1, rng.normal(0.0, 0.1, (extra, self.W1.shape[1]))])
        return self

    @property
    def variant(self) -> str:
        """The variant the network was trained for (standard, teams or points)."""
        return str(self.meta.get("rules", "standard"))

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
        if (
            meta.get("format") != FORMAT
            or m.variant not in VARIANTS
            or m.W1.shape[0] != inputs_for(m.variant)
        ):
            raise SorryError(f"{path}: a model of another format (this version reads {FORMAT})")
        return m


_shipped: dict[str, Model] = {}


def has_shipped(variant: str) -> bool:
    """Whether the project ships a network of ``variant``."""
    return (
        variant in VARIANTS
        and (resources.files("sorry.learned") / "data" / f"{variant}.npz").is_file()
    )


def shipped(variant: str = "standard") -> Model:
    """The model the project ships for ``variant`` (loaded once)."""
    if variant not in VARIANTS:
        raise SorryError(f"no learned model for the variant {variant!r}")
    if variant not in _shipped:
        ref = resources.files("sorry.learned") / "data" / f"{variant}.npz"
        with resources.as_file(ref) as path:
            _shipped[variant] = Model.load(path)
    return _shipped[variant]
