"""Shared helpers for the terminal game's tests (Textual's Pilot): run an app headlessly, let
it settle, press keys, and set an app up on a position.

Import them with ``from tui_helpers import run, keys, position_app``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from textual.pilot import Pilot

from sorry import Game, Rules
from sorry.tui.app import SorryApp
from sorry.tui.session import Session

Body = Callable[[SorryApp, Pilot[Any]], Awaitable[None]]
#: The ``snap_compare`` fixture of pytest-textual-snapshot.
Compare = Callable[..., bool]


def run(app: SorryApp, body: Body, size: tuple[int, int] = (80, 24)) -> None:
    """Run ``app`` headlessly at ``size``, settled, and drive it with ``body``."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await body(app, pilot)

    asyncio.run(main())


async def settle(app: SorryApp, pilot: Pilot[Any]) -> None:
    """Wait until the app has handled its messages and its workers (bots, hints) are done."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def keys(app: SorryApp, pilot: Pilot[Any], *presses: str) -> None:
    """Press each key in turn, settling after each."""
    for key in presses:
        await pilot.press(key)
        await settle(app, pilot)


def presses(keys: Sequence[str]) -> Callable[[Pilot[Any]], Any]:
    """A snapshot's ``run_before``: settle, then press ``keys`` one by one."""

    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, SorryApp)
        await settle(app, pilot)
        for key in keys:
            await pilot.press(key)
            await settle(app, pilot)

    return run_before


def position_app(
    position: str, card: int | None = None, rules: Rules | None = None, **kw: Any
) -> tuple[SorryApp, Session]:
    """An app on ``position`` (with ``card`` drawn): a human to move, random bots for the
    other colours, no animation."""
    game = Game.from_position(position, rules=rules, card=card, **kw)
    seats = ["human"] + ["random"] * (len(game.colours) - 1)
    session = Session(seats=seats, game=game)
    return SorryApp(session, speed=0), session


def as_terminal(monkeypatch: Any) -> None:
    """Make ``sorry play``/``sorry tui`` see a terminal on standard input and output (they play
    line by line without one), for tests that check what they hand the full-screen game."""
    import sorry.cli.cmd_play as cmd_play

    class Terminal:
        stdin = type("In", (), {"isatty": staticmethod(lambda: True)})()
        stdout = type("Out", (), {"isatty": staticmethod(lambda: True)})()

    monkeypatch.setattr(cmd_play, "sys", Terminal)
