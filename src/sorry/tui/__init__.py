"""The full-screen terminal game (Textual; the optional extra ``tui``).

:func:`run_app` starts it: with no rules, players or seats it opens the new-game screen;
otherwise it starts the described game (or match) at once. ``sorry tui`` and ``sorry play``
call it. The parts that use no Textual widgets (the board drawing, choosing a move step by
step, moves in words, the session with undo and saving) are modules of their own, tested
without a screen, and import without Textual (``sorry play --load`` resumes a game line by line
with :mod:`sorry.tui.session`); :func:`run_app` needs it (ask
:func:`sorry.features.terminal_game` first).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..game import Game
from ..rules import Rules

if TYPE_CHECKING:
    from .settings import Settings


def run_app(
    rules: Rules | None = None,
    players: int | Sequence[int] | None = None,
    seats: str | Sequence[str] | None = None,
    seed: int | None = None,
    *,
    games: int = 1,
    target: int | None = None,
    speed: int | None = None,
    load: str | None = None,
    save_path: str | None = None,
    setup: bool | None = None,
    hint_seconds: float | None = None,
    game: Game | None = None,
    save: str | None = None,
    learn: bool = False,
) -> int:
    """Run the terminal game and return its exit status.

    ``rules``, ``players`` (a count or colours) and ``seats`` (``"human,medium,..."``, one per
    colour in play: ``human`` or a bot level) describe the game; ``seed`` makes it
    reproducible; ``games``/``target`` make it a match; ``speed`` 0-5 is the animation pace
    (0 instant); ``load`` resumes a saved game; ``save_path`` is the default file to save to.
    ``setup=True`` opens the new-game screen pre-filled with these settings (the default when
    none of rules, players, seats, seed or load is given: then it shows the settings of the
    last game started there, kept in :func:`sorry.tui.settings.settings_path`). ``game`` is a
    game to play (made with ``Game(rules, players, seed)``); ``save`` names a file the game
    record is written to at the end of each game (and the default file for the save key).
    ``learn`` opens the guided first game (:mod:`sorry.tui.learn`), then the new-game screen.
    """
    from .app import SorryApp
    from .session import Session
    from .settings import load_settings, settings_path

    described = any(x is not None for x in (rules, players, seats, seed, game))
    if setup is None:
        setup = not described and load is None
    session: Session | None = None
    if load is not None:
        session = Session.load(load)
    elif game is not None:
        session = Session(seats=seats, seed=game.seed, game=game, games=games, target=target)
    elif not setup:
        session = Session(rules, players, seats, seed, games=games, target=target)
    path = settings_path()
    settings = load_settings(path)
    if setup and described:
        settings = _settings(rules, players, seats, seed, games, target, settings.speed)
    if speed is not None:
        settings.speed = speed
    app = SorryApp(
        session,
        speed=settings.speed,
        save_path=save_path or save or load or "sorry-save.json",
        save_at_end=save,
        hint_seconds=hint_seconds,
        settings=settings,
        settings_file=path,
        learn=learn,
    )
    if load is not None and session is not None:  # its own file: saving over it asks nothing
        app.saved_files[os.path.abspath(load)] = session
    try:
        result = app.run()
    finally:
        app.ahead.close()  # the process valuing the game ahead of its end
    if app.farewell:
        print(app.farewell)
    if app.warmup.busy():
        # numba is loading or compiling in the background thread (the first run: minutes). The
        # interpreter's exit would tear LLVM down under its code generation, which then aborts
        # ("DAG root value is not a chain!"); the game is over and saved: leave at once.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(int(result or 0))
    return int(result or 0)


def _settings(
    rules: Rules | None,
    players: int | Sequence[int] | None,
    seats: str | Sequence[str] | None,
    seed: int | None,
    games: int,
    target: int | None,
    speed: int,
) -> Settings:
    """The new-game screen filled in from the command line's options."""
    from ..board import COLOURS
    from ..rulebook import colours_for
    from .players import parse_seats
    from .settings import OFF, Settings

    rules = rules or Rules()
    colours = COLOURS if rules.teams else colours_for(players, rules)
    parsed = parse_seats(seats, colours)
    default = Rules(variant=rules.variant).options()
    return Settings(
        variant=rules.variant,
        seats={c: OFF for c in range(4)}
        | {c: "human" if s.human else str(s.level) for c, s in parsed.items()},
        seed=seed,
        games=games,
        target=target,
        options={k: v for k, v in rules.options().items() if default[k] != v},
        speed=speed,
    )


__all__ = ["run_app"]
