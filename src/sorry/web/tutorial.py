"""The tutorial in the browser (``/learn``, ``static/tutorial.js``): each step of
:mod:`sorry.tutorial` as the page needs it, in the page's language.

==================================  ============================================================
``GET /learn``                      the tutorial's page (``static/learn.html``)
``GET /api/tutorial/{n}``           step ``n``: the opponent's turns before it, the move it
                                    offers, its words
``GET /api/tutorial/{n}/play``      ``?move=M``: the step's move played, and the words after it
==================================  ============================================================

The server keeps no state: a step is its number, and the game at that step is replayed from
the script (:func:`sorry.tutorial.game_at`). ``step_json`` is what the page shows before the
learner's move: the opponent's turns since the learner's last move (log entries with their
walks and the pawns after each), the view with the one move the step offers (one of the
engine's legal moves, with the taps that choose it), and the step's words. ``played_json`` is
the engine's answer to that move: what it did and the words after it. Both are computed once
per step and language (a few milliseconds) and kept.

>>> s = step_json(0, "en")
>>> s["title"], [m["move"] for m in s["view"]["legal_moves"]]
('Leave START', ['RS>4'])
>>> played_json(0, "RS>4", "en")["last"]["text"]
'leaves START for 4'
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..board import COLOUR_LETTERS, loc_name
from ..game import Game
from ..i18n import _, using
from ..tutorial import (
    LEARNER,
    Turn,
    after_move,
    all_steps,
    before_move,
    game_at,
    lesson_move,
    start_game,
)
from .httpkit import error
from .i18n import render_page, request_language
from .live import Said, log_entry
from .protocol import view_json


class NotThisMove(ValueError):
    """The move sent is not the step's move (the page offers no other)."""


def _pawns(game: Game) -> dict[str, list[str]]:
    """Where the pawns are, as the views say it (in the position string's order)."""
    return {
        COLOUR_LETTERS[c]: [loc_name(x) for x in locs]
        for c, locs in enumerate(game.state.sorted_pawns())
        if locs is not None
    }


def steps_count() -> int:
    return len(all_steps())


@cache
def step_json(number: int, lang: str) -> dict[str, Any]:
    """Step ``number`` (0-based; ``IndexError`` past the last) in ``lang``."""
    placed = all_steps()[number]
    part = placed.part
    with using(lang):
        # where the pawns stood after the learner's last move, and the opponent's turns since
        then: tuple[Turn, ...] = ()
        if placed.first:
            game = start_game(part)
        else:
            game = game_at(number - 1, played=True)
            then = part.steps[placed.index - 1].then
        start = _pawns(game)
        before: list[dict[str, Any]] = []
        for turn in then:
            before_move(game, turn)
            move = game.listed_move(turn.move)
            entry = log_entry(
                len(before) + 1, game.to_move, "player", move, game.card, Said.of(game, move)
            )
            game.push(move)
            after_move(game, turn)
            entry["pawns"] = _pawns(game)
            before.append(entry)
        game = game_at(number)
        view = game.view(LEARNER)
        offered = replace(view, legal_moves=(lesson_move(game, placed.step),))
        how = placed.step.how
        return {
            "step": number,
            "steps": steps_count(),
            "part": part.key,
            "part_title": _(part.title),
            "first": placed.first,
            "title": _(placed.step.title),
            "text": _(placed.step.intro),
            # the page says the one its learner uses (a finger or a mouse)
            "how": {"tap": _(how.tap), "click": _(how.click)} if how else None,
            "start": start,
            "before": before,
            "view": view_json(offered, game),
        }


def played_json(number: int, move: str, lang: str) -> dict[str, Any]:
    """The learner's ``move`` at step ``number``, played by the engine: its log entry (words,
    walk), the view after it (the points so far, the winner at the end) and the step's words
    after it. ``NotThisMove`` for any other move."""
    if move != all_steps()[number].step.turn.move:
        raise NotThisMove(f"not the move of this step: {move[:40]!r}")
    return _played(number, lang)


@cache
def _played(number: int, lang: str) -> dict[str, Any]:
    placed = all_steps()[number]
    with using(lang):
        game = game_at(number)
        m = lesson_move(game, placed.step)
        entry = log_entry(1, LEARNER, "player", m, game.card, Said.of(game, m))
        game.push(m)
        after_move(game, placed.step.turn)
        return {
            "step": number,
            "last": entry,
            "view": view_json(game.view(LEARNER), game),
            "done": _(placed.step.done),
            "over": game.is_over(),
            "next": number + 1 if number + 1 < steps_count() else None,
            "part_done": placed.last,
        }


# -- HTTP ------------------------------------------------------------------------------------
async def learn_page(request: Request) -> Response:
    lang = request_language(request)
    return HTMLResponse(
        render_page(lang, "learn"),
        headers={
            "Cache-Control": "no-store",
            "Content-Language": lang,
            "Vary": "Accept-Language, Cookie",
        },
    )


def _number(request: Request) -> int | None:
    n: int = request.path_params["n"]
    return n if 0 <= n < steps_count() else None


async def step(request: Request) -> Response:
    n = _number(request)
    if n is None:
        return error(404, f"the tutorial has steps 0 to {steps_count() - 1}")
    return JSONResponse(step_json(n, request_language(request)))


async def play(request: Request) -> Response:
    n = _number(request)
    if n is None:
        return error(404, f"the tutorial has steps 0 to {steps_count() - 1}")
    try:
        return JSONResponse(
            played_json(n, request.query_params.get("move", ""), request_language(request))
        )
    except NotThisMove as exc:
        return error(400, str(exc))


ROUTES = [
    Route("/learn", learn_page),
    Route("/api/tutorial/{n:int}", step),
    Route("/api/tutorial/{n:int}/play", play),
]


__all__ = ["ROUTES", "NotThisMove", "played_json", "step_json", "steps_count"]
