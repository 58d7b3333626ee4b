"""Training the learned evaluation by self-play, TD(lambda) (``sorry train``).

The network plays against itself on the compiled engine (every seat greedy on its own
evaluation of the afterstates); after each game every afterstate's prediction is moved
towards its lambda-return (the result at the end, the later predictions before it).
Games are seeded ``derive_seed(seed, k)`` for game k, so a run is reproducible and resumes
where its checkpoint stopped. Every ``eval_every`` games the network plays paired deals
(heads-up; in teams two against two) against the compiled ``medium`` and ``easy`` bots (the
same deals each time): the learning curve, kept in the checkpoint's metadata.

One network is trained per variant (``rules``): standard, teams (four players, the
partnership's win: a move's value is its seat's chance plus its partner's) or points (the
win of the hand, the network also reading the chooser's kept cards).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SorryError
from ..i18n import _
from ..rng import derive_seed
from ..rules import Rules
from .model import VARIANTS, Model

#: The policies the learning curve is measured against (the compiled bots).
CURVE_OPPONENTS = {"medium": 10, "easy": 3}
#: The seed of the learning curve's deals (apart from the training games).
CURVE_SEED = 7_777
#: The player counts of the self-play games and their weights (heads-up is what the ladder
#: measures), in the standard game and points.
DEFAULT_PLAYERS = "2:7,3:1,4:2"


@dataclass
class TrainConfig:
    games: int = 100_000
    seed: int = 1
    hidden: int = 128
    lam: float = 0.7
    lr: float = 0.01
    explore: float = 0.0
    chunk: int = 200
    eval_every: int = 5_000
    eval_deals: int = 500
    minutes: float | None = None
    players: str = ""  # player counts and their weights ("" : the variant's default)
    rules: str = "standard"  # the variant: standard, teams or points

    def player_mix(self) -> str:
        """The player counts and their weights (teams: four players only)."""
        if self.players:
            return self.players
        return "4:1" if self.rules == "teams" else DEFAULT_PLAYERS

    def player_weights(self) -> list[tuple[int, int]]:
        if self.rules not in VARIANTS:
            raise SorryError(f"rules: {self.rules!r} (one of {', '.join(VARIANTS)})")
        out = []
        for part in self.player_mix().split(","):
            n, _sep, w = part.partition(":")
            try:
                pair = (int(n), int(w or 1))
            except ValueError:
                raise SorryError(f"players: {part!r} is not N:WEIGHT (e.g. 2:7,4:3)") from None
            if pair[0] not in (2, 3, 4) or pair[1] < 0:
                raise SorryError(f"players: {part!r} (2, 3 or 4 players, a weight >= 0)")
            if self.rules == "teams" and pair[0] != 4 and pair[1] > 0:
                raise SorryError(
                    _("players: {part!r} (the teams variant needs four players)").format(part=part)
                )
            out.append(pair)
        if not out or sum(w for _n, w in out) == 0:
            raise SorryError("players: give at least one count with a positive weight")
        return out


def _arrays(rules: Rules) -> tuple[Any, Any, Any, Any]:
    from ..compiled.arrays import rule_arrays

    P, slide, hitm, E = rule_arrays(rules)
    return P, slide, hitm, E


def game_plan(cfg: TrainConfig, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """Seeds and player counts of training games lo..hi-1 (each from its own index)."""
    weights = cfg.player_weights()
    total = sum(w for _n, w in weights)
    seeds = np.array([derive_seed(cfg.seed, k) for k in range(lo, hi)], dtype=np.uint64)
    counts = np.empty(hi - lo, dtype=np.int64)
    for i, k in enumerate(range(lo, hi)):
        u = derive_seed(cfg.seed, 1_000_000_000 + k) % total
        for n, w in weights:
            if u < w:
                counts[i] = n
                break
            u -= w
    return seeds, counts


def curve_point(model: Model, deals: int, rules: Rules | None = None) -> dict[str, float]:
    """The network's score (share of games won) on ``deals`` paired deals against each of
    :data:`CURVE_OPPONENTS`, played greedily on its evaluation (heads-up; in teams the
    network's two seats against the bot's two), in the variant it was trained for."""
    from . import _net

    rules = rules or Rules(variant=model.variant)
    P, slide, hitm, E = _arrays(rules)
    seeds = np.array([derive_seed(CURVE_SEED, k) for k in range(deals)], dtype=np.uint64)
    out: dict[str, float] = {}
    for name, pol in CURVE_OPPONENTS.items():
        wins = np.zeros(deals, dtype=np.int64)
        _net.match_batch(seeds, pol, slide, P, hitm, E, model.net, wins)
        out[name] = float(wins.sum()) / (2 * deals)
    return out


Progress = Callable[[str], None]


def train(
    path: str | Path, cfg: TrainConfig, progress: Progress = print, resume: bool = True
) -> Model:
    """Train (or go on training) the model at ``path`` until ``cfg.games`` games or
    ``cfg.minutes``; a checkpoint is written after every evaluation and at the end, also on
    Ctrl-C (which then ends the run cleanly)."""
    from . import _net

    path = Path(path)
    cfg.player_weights()  # a bad --players or --rules: one line before anything starts
    if path.exists() and resume:
        model = Model.load(path)
        if model.variant != cfg.rules:
            raise SorryError(
                _(
                    "{path} is a network of the {variant} game, not {rules} "
                    "(give --rules {variant} to go on training it)"
                ).format(path=path, variant=model.variant, rules=cfg.rules)
            )
        progress(f"resuming {path} at game {model.meta.get('games', 0):,}")
    else:
        if path.parent and not path.parent.exists():
            raise SorryError(f"{path.parent}: no such directory")
        model = Model.new(cfg.hidden, cfg.seed, cfg.rules)
        model.meta.update(
            seed=cfg.seed,
            lam=cfg.lam,
            lr=cfg.lr,
            explore=cfg.explore,
            players=cfg.player_mix(),
            rules=cfg.rules,
            curve=[],
            seconds=0.0,
        )
    meta = model.meta
    rules = Rules(variant=model.variant)
    P, slide, hitm, _E = _arrays(rules)
    start = time.monotonic()
    base_seconds = float(meta.get("seconds", 0.0))
    done = int(meta.get("games", 0))
    if not meta.get("curve"):
        meta["curve"] = [{"games": 0, "seconds": 0.0, **curve_point(model, cfg.eval_deals)}]
        progress(_curve_line(meta["curve"][-1]))
    stats = np.zeros(4)
    last_report = time.monotonic()
    interrupted = False
    try:
        while done < cfg.games:
            if cfg.minutes is not None and time.monotonic() - start > 60 * cfg.minutes:
                progress(f"time limit ({cfg.minutes:g} min) reached")
                break
            hi = min(cfg.games, done + cfg.chunk, (done // cfg.eval_every + 1) * cfg.eval_every)
            seeds, counts = game_plan(cfg, done, hi)
            _net.selfplay_batch(
                seeds, counts, slide, P, hitm, model.net, cfg.lam, cfg.lr, cfg.explore, stats
            )
            done = hi
            meta["games"] = done
            meta["seconds"] = base_seconds + time.monotonic() - start
            if time.monotonic() - last_report > 10:
                last_report = time.monotonic()
                rate = stats[0] / max(1e-9, meta["seconds"] - base_seconds)
                mse = stats[2] / max(1.0, stats[1])
                progress(
                    f"game {done:,}/{cfg.games:,}  {rate:.0f} games/s  "
                    f"{stats[1] / max(1.0, stats[0]):.0f} moves/game  td error {mse:.4f}"
                )
            if done % cfg.eval_every == 0:
                point = {
                    "games": done,
                    "seconds": round(meta["seconds"], 1),
                    **curve_point(model, cfg.eval_deals),
                }
                meta["curve"].append(point)
                progress(_curve_line(point))
                model.save(path)
    except KeyboardInterrupt:
        interrupted = True
        progress("interrupted: saving the checkpoint")
    meta["seconds"] = base_seconds + time.monotonic() - start
    model.save(path)
    progress(f"saved {path} ({done:,} games, {meta['seconds'] / 60:.1f} min of training)")
    if interrupted:
        raise KeyboardInterrupt
    return model


def _curve_line(point: dict[str, Any]) -> str:
    scores = "  ".join(f"vs {k} {100 * point[k]:.1f}%" for k in CURVE_OPPONENTS)
    return f"curve: game {point['games']:,}  {scores}"
