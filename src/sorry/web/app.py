"""The HTTP and WebSocket face of the game service (Starlette).

Routes:

=================================  =========================================================
``GET  /``                         the lobby and the form to create a game
``GET  /g/{id}``                   a game's page (play, watch or replay)
``GET  /static/...``               the page's JavaScript and CSS (shipped with the package)
``GET  /api/meta``                 variants, rule options and bot levels
``GET  /api/board``                board geometry for drawing pawns, ``/api/board.svg`` the board
``GET  /api/games``                the lobby: public games
``POST /api/games``                create a game; answers each invited seat's link and token
``GET  /api/games/{id}``           a game's public summary
``POST /api/games/{id}/join``      sit at a seat with a display name
``POST /api/games/{id}/rematch``   the next game of the match (a seated player, game over)
``POST /api/games/{id}/ready``     a seated player accepts the next game of the match
``POST /api/games/{id}/host``      the host: start, turn a seat into a bot, chat on/off
``GET  /api/games/{id}/record``    the full game record (finished games only)
``GET  /api/games/{id}/replay``    public frames, move by move (finished games only)
``GET  /api/games/{id}/analysis``  after the game: win probabilities, luck and decisions
``GET  /learn``                    the tutorial, with ``/api/tutorial/...`` (sorry.web.tutorial)
``GET  /manifest.webmanifest``     the installable app: with ``/sw.js`` and ``/offline``
                                   (sorry.web.installable)
``WS   /ws/{id}``                  the game protocol (see :mod:`sorry.web.protocol`)
=================================  =========================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket

from ..board import COLOUR_LETTERS
from ..cards import card_name
from ..describe import CARD_HELP
from ..errors import SorryError
from ..howto import CARD_RULES
from ..rules import FORM_OPTIONS, OPTION_VALUES, OPTIONS, VARIANTS, Rules
from ..svg import board_geometry, board_svg
from . import account_api, installable, room, session, tutorial
from .account_api import acting_if_any
from .analysis import AnalysisCache
from .config import Settings
from .db import Database
from .games import Refused
from .httpkit import (
    BadRequest,
    client_address,
    error,
    limits_of,
    origin_allowed,
    read_json,
    token_field,
    too_many,
)
from .i18n import render_page, request_language
from .limits import Guard, HostPolicy
from .live import LiveGame
from .players import bot_levels, level_sentences
from .protocol import dumps
from .service import GameService
from .tokens import BadValue, clean_name, hash_token, new_token
from .workers import PoolBusy

STATIC = Path(__file__).parent / "static"
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def address_digest(address: str) -> str:
    """Who created a game, as the lobby groups them: a digest of the client address (the
    address itself is not stored)."""
    return hash_token(address.encode("ascii", "replace").decode("ascii"))[:32]


def parse_colour(value: object) -> int:
    if not isinstance(value, str) or len(value) != 1 or value not in COLOUR_LETTERS:
        raise BadRequest("seat colour must be one of R, B, Y, G")
    return COLOUR_LETTERS.index(value)


def parse_create(
    data: dict[str, Any],
) -> tuple[Rules, list[dict[str, Any]], str, bool, room.Room]:
    variant = data.get("variant", "standard")
    if variant not in VARIANTS:
        raise BadRequest(f"variant must be one of {', '.join(VARIANTS)}")
    options = data.get("options", {})
    if not isinstance(options, dict) or len(options) > len(OPTION_VALUES):
        raise BadRequest("options must be an object of rule options")
    clean: dict[str, str] = {}
    for k, v in options.items():
        if not isinstance(v, str | int) or isinstance(v, bool):
            raise BadRequest(f"option {str(k)[:30]!r} must be a string")
        clean[str(k)] = str(v)
    try:
        rules = Rules.from_options(variant, clean)
    except SorryError as exc:
        raise BadRequest(str(exc)) from None
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not 2 <= len(raw_seats) <= 4:
        raise BadRequest("seats must be a list of 2 to 4 seats")
    seats: list[dict[str, Any]] = []
    seen: set[int] = set()
    levels = bot_levels()
    for s in raw_seats:
        if not isinstance(s, dict):
            raise BadRequest("each seat must be an object {colour, kind, level}")
        colour = parse_colour(s.get("colour"))
        if colour in seen:
            raise BadRequest("each colour may be seated once")
        seen.add(colour)
        kind = s.get("kind")
        if kind not in ("invite", "open", "bot"):
            raise BadRequest("seat kind must be invite, open or bot")
        level = s.get("level")
        if kind == "bot":
            if level is None:
                level = levels[0]
            if level not in levels:
                raise BadRequest(f"bot level must be one of {', '.join(levels)}")
        account = s.get("account")
        if account is not None and (kind != "invite" or not isinstance(account, str)):
            raise BadRequest("account (a name) goes with an invited seat only")
        seats.append({"colour": colour, "kind": kind, "level": level, "account": account})
    if rules.teams and len(seats) != 4:
        raise BadRequest("the teams variant needs all four seats")
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > 60 or any(not c.isprintable() for c in name):
        raise BadRequest("name must be printable text of at most 60 characters")
    public = data.get("public", False)
    if not isinstance(public, bool):
        raise BadRequest("public must be true or false")
    try:
        settings = room.parse_room(data.get("room"))
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    return rules, seats, name.strip(), public, settings


def summary(service: GameService, live: LiveGame) -> dict[str, Any]:
    from .audience import match_totals

    return {
        "id": live.id,
        "name": live.name,
        "public": live.public,
        "variant": live.game.rules.variant,
        "options": live.game.rules.options_text(),
        "status": live.status,
        "seq": live.seq,
        "turn": live.game.turn,
        "to_move": COLOUR_LETTERS[live.game.to_move],
        "seats": service.audience.seats_json(live),
        "winners": [COLOUR_LETTERS[c] for c in live.game.winners],
        "match": match_totals(live),
        "next_game": live.next_id,
        "commitment": live.commitment,
        "room": live.room.public(),
    }


# -- HTTP handlers -------------------------------------------------------------------------
async def page(request: Request) -> Response:
    lang = request_language(request)
    return HTMLResponse(
        render_page(lang),
        headers={
            "Cache-Control": "no-store",
            "Content-Language": lang,
            "Vary": "Accept-Language, Cookie",
        },
    )


async def people_page(request: Request) -> Response:
    """The players' pages (``/account``, ``/u/NAME``, ``/leaderboard``: static/people.js)."""
    lang = request_language(request)
    return HTMLResponse(
        render_page(lang, "people"),
        headers={
            "Cache-Control": "no-store",
            "Content-Language": lang,
            "Vary": "Accept-Language, Cookie",
        },
    )


async def rules_page(request: Request) -> Response:
    """The rules in a player's words (``sorry.howto``), in the request's language."""
    lang = request_language(request)
    return HTMLResponse(
        render_page(lang, "rules"),
        headers={"Content-Language": lang, "Vary": "Accept-Language, Cookie"},
    )


async def favicon(request: Request) -> Response:
    return Response(status_code=204)


def option_variants() -> dict[str, list[str]]:
    """For each rule option, the variants in which every one of its values may be chosen
    (asked of the rules themselves: the page offers an option only where it applies)."""

    def accepted(variant: str, name: str, value: str) -> bool:
        try:
            Rules.from_options(variant, {name: value})
        except SorryError:
            return False
        return True

    return {
        name: [v for v in VARIANTS if all(accepted(v, name, x) for x in values)]
        for name, values in OPTION_VALUES.items()
        if name != "turn_limit"
    }


async def meta(request: Request) -> Response:
    settings = request.app.state.service.settings
    return JSONResponse(
        {
            "variants": list(VARIANTS),
            "options": {k: list(v) for k, v in OPTION_VALUES.items()},
            "option_variants": option_variants(),
            # each option's label and its values with their words, the default first (English:
            # the page's catalog translates)
            "option_words": {
                o.name: [o.label, [[v, o.value_words(v)] for v in o.values]]
                for o in OPTIONS
                if o.name in FORM_OPTIONS
            },
            "bot_levels": bot_levels(),
            "level_sentences": level_sentences(),
            "colours": list(COLOUR_LETTERS),
            # how the page follows a game (sorry.web.config.Settings)
            "auto_pass": settings.auto_pass,
            # what each card does in a few words (English: the page's catalog translates)
            "card_help": {card_name(c): words for c, words in CARD_HELP.items()},
            # and in its sentence of the rules (sorry.howto), shown beside the card
            "card_rules": {card_name(c): words for c, words in CARD_RULES.items()},
            "show_moves": settings.show_moves,
        }
    )


async def board(request: Request) -> Response:
    return JSONResponse(board_geometry())


async def board_picture(request: Request) -> Response:
    position = request.query_params.get("position")
    try:
        text = board_svg(position[:200] if position else None, lang=request_language(request))
    except SorryError as exc:
        return error(400, str(exc))
    return Response(text, media_type="image/svg+xml")


async def lobby(request: Request) -> Response:
    service: GameService = request.app.state.service
    rows = await asyncio.to_thread(service.db.lobby, 50, service.settings.lobby_per_address)
    out = []
    for row in rows:
        live = await service.get(row.id)
        if live is not None:
            out.append(summary(service, live))
    return JSONResponse({"games": out})


async def create(request: Request) -> Response:
    service: GameService = request.app.state.service
    if not limits_of(request).allow(client_address(request), "create"):
        return too_many("too many games created from this address: wait a minute", 60)
    try:
        rules, seats, name, public, settings = parse_create(await read_json(request))
        account = await acting_if_any(request)
        if settings.rated and account is None:
            raise Refused(403, "log in to create a rated game")
        invites = await service.people.invites(seats, account)
        links = [service.people.link_new(i.colour, i.account.id, settings.rated) for i in invites]
        host_token = new_token()  # the host starts the game, changes seats, switches chat
        settings.host_hash = hash_token(host_token)
        creator = address_digest(client_address(request))
        gid, tokens = await service.games.create_game(
            rules, seats, name, public, room=settings, creator=creator, links=links
        )
    except Refused as exc:
        return error(exc.status, exc.message)
    except (BadRequest, ValueError) as exc:
        return error(400, str(exc))
    base = str(request.base_url).rstrip("/")
    out = []
    for s in seats:
        c = s["colour"]
        item: dict[str, Any] = {"colour": COLOUR_LETTERS[c], "kind": s["kind"]}
        if c in tokens:
            item["token"] = tokens[c]
            item["link"] = f"{base}/g/{gid}#seat={COLOUR_LETTERS[c]}&token={tokens[c]}"
        out.append(item)
    return JSONResponse(
        {"id": gid, "url": f"{base}/g/{gid}", "seats": out, "host_token": host_token},
        status_code=201,
    )


async def _live(request: Request) -> LiveGame | None:
    gid = request.path_params["gid"]
    if not GAME_ID.match(gid):
        return None
    service: GameService = request.app.state.service
    return await service.get(gid)


async def game_summary(request: Request) -> Response:
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    return JSONResponse(summary(request.app.state.service, live))


async def join(request: Request) -> Response:
    service: GameService = request.app.state.service
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    try:
        data = await read_json(request)
        colour = parse_colour(data.get("seat"))
        name = clean_name(data.get("name"), "Player")
        token = token_field(data) if data.get("token") is not None else None
    except (BadRequest, BadValue) as exc:
        return error(400, str(exc))
    wrong = limits_of(request).bucket(client_address(request), "token")
    if token is not None and wrong.empty:
        return too_many("too many wrong tokens from this address: wait a moment")
    account = await acting_if_any(request)
    ok, seat_token, result = await service.people.join(live, colour, name, token, account)
    if not ok:
        if token is not None and not wrong.allow():
            return too_many("too many wrong tokens from this address: wait a moment")
        return error(403, result)
    await service.hosting.maybe_start(live)  # "start when every seat is taken"
    return JSONResponse(
        {
            "seat": COLOUR_LETTERS[colour],
            "token": seat_token,
            "name": result,
            "account": account is not None,
        }
    )


async def rematch(request: Request) -> Response:
    service: GameService = request.app.state.service
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    try:
        data = await read_json(request)
        colour = parse_colour(data.get("seat"))
        token = await seat_credential(request, live, colour, data)
    except BadRequest as exc:
        return error(400, str(exc))
    if token is None:
        return error(403, "wrong seat or token")
    carry = [service.people.carry(live)]
    ok, result = await service.games.rematch(live, colour, token or None, carry)
    if not ok:
        return error(403 if "token" in result else 409, result)
    return JSONResponse({"id": result, "url": f"{str(request.base_url).rstrip('/')}/g/{result}"})


async def ready(request: Request) -> Response:
    service: GameService = request.app.state.service
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    try:
        data = await read_json(request)
        colour = parse_colour(data.get("seat"))
        token = await seat_credential(request, live, colour, data)
    except BadRequest as exc:
        return error(400, str(exc))
    if token is None or (token and not service.games.check_token(live, colour, token)):
        return error(403, "wrong seat or token")
    await service.hosting.set_ready(live, colour)
    return JSONResponse({"room": live.room.public()})


async def host(request: Request) -> Response:
    service: GameService = request.app.state.service
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    try:
        data = await read_json(request)
        token = token_field(data, "host_token")
        action = data.get("action")
        if action not in ("start", "bot", "chat"):
            raise BadRequest("action must be start, bot or chat")
        colour = parse_colour(data.get("seat")) if action == "bot" else None
        value = data.get("level") if action == "bot" else data.get("enabled")
    except BadRequest as exc:
        return error(400, str(exc))
    refused = await service.hosting.host_action(live, hash_token(token), action, colour, value)
    if refused is not None:
        return error(403 if "host" in refused else 409, refused)
    return JSONResponse({"room": live.room.public()})


async def seat_credential(
    request: Request, live: LiveGame, colour: int, data: dict[str, Any]
) -> str | None:
    """What a request for a seat shows: the seat's token (to be checked), "" when the request
    acts for the account holding the seat (its session and CSRF token), None when neither."""
    if data.get("token") is not None:
        return token_field(data)
    service: GameService = request.app.state.service
    account = await acting_if_any(request)
    return "" if service.people.holds(live, colour, account) else None


async def record(request: Request) -> Response:
    return await _finished(request, "record")


async def replay(request: Request) -> Response:
    return await _finished(request, "replay")


async def _finished(request: Request, what: str) -> Response:
    """A finished game's record or replay: cached, and limited per address (only the requests
    that compute one: a cached one costs nothing)."""
    service: GameService = request.app.state.service
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    if not service.finished.cached(live.id, what) and not limits_of(request).allow(
        client_address(request), "replay"
    ):
        return too_many(f"too many {what} requests from this address: wait a moment")
    try:
        data = await service.finished.json(live, what)
    except PermissionError as exc:
        return error(409, str(exc))
    except PoolBusy as exc:
        return error(503, str(exc))
    headers = {"Cache-Control": "public, max-age=3600"}
    if what == "record":
        headers["Content-Disposition"] = f'attachment; filename="sorry-{live.id}.json"'
    return Response(data, media_type="application/json", headers=headers)


async def analysis(request: Request) -> Response:
    """A finished game's analysis (:mod:`sorry.web.analysis`): 202 while it is computed
    (``?wait=S``: after waiting up to S seconds for it). Only the requests that start work
    count against the address's limit: the page asks again while the analysis is computed,
    and a poll is a dictionary lookup."""
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    cache: AnalysisCache = request.app.state.analysis
    lang = request_language(request)
    if cache.starts_work(live.id, lang) and not limits_of(request).allow(
        client_address(request), "replay"
    ):
        return too_many("too many analysis requests from this address: wait a moment")
    try:
        status, data = await cache.get(
            request.app.state.service, live, lang, _seconds(request.query_params.get("wait"))
        )
    except PermissionError as exc:
        return error(409, str(exc))
    cached = "public, max-age=3600" if status == 200 else "no-store"
    return Response(
        data, status_code=status, media_type="application/json", headers={"Cache-Control": cached}
    )


def _seconds(text: str | None) -> float:
    """A number of seconds from a query parameter (0 for anything else)."""
    try:
        value = float(text or 0)
    except ValueError:
        return 0.0
    return value if 0 < value < float("inf") else 0.0


# -- WebSocket -----------------------------------------------------------------------------
async def ws_endpoint(ws: WebSocket) -> None:
    service: GameService = ws.app.state.service
    if not origin_allowed(
        ws.headers.get("origin"), ws.headers.get("host"), service.settings.allowed_origins
    ):
        await ws.close(code=1008, reason="Origin not allowed")
        return
    gid = ws.path_params["gid"]
    address = client_address(ws)
    limits = limits_of(ws)
    refused = limits.open_connection(address)
    await ws.accept()
    if refused is not None:
        await ws.send_text(dumps({"type": "error", "code": "rate_limited", "error": refused}))
        await ws.close(code=1013, reason=refused[:120])  # 1013: try again later
        return
    try:
        live = await service.get(gid) if GAME_ID.match(gid) else None
        if live is None:
            await ws.send_text(dumps({"type": "error", "code": "no_game", "error": "no such game"}))
            await ws.close(code=4404)
            return
        await session.run(ws, service, live, address)
    finally:
        limits.close_connection(address)


def create_app(
    database: str | Database | None = None, settings: Settings | None = None
) -> Starlette:
    """The application. ``database``: a URL (``sqlite:///...``, ``postgresql://...``), a
    :class:`Database`, or None for SQLite in the per-user data folder."""
    db = database if isinstance(database, Database) else Database(database)
    service = GameService(db, settings)
    settings = service.settings
    hosts = HostPolicy(settings.bind_host, settings.allowed_hosts)
    analyses = AnalysisCache()
    service.results.analyses = analyses  # the players' luck over their games

    def changed(live: Any, remote: bool = False) -> None:  # games are analysed as they go
        app.state.analysis.changed(service, live)

    service.cache.listeners.append(changed)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            analyses.close()
            await service.stop()

    routes = [
        Route("/", page),
        Route("/g/{gid}", page),
        Route("/account", people_page),
        Route("/leaderboard", people_page),
        Route("/u/{name}", people_page),
        Route("/rules", rules_page),
        Route("/favicon.ico", favicon),
        Route("/api/meta", meta),
        Route("/api/board", board),
        Route("/api/board.svg", board_picture),
        Route("/api/games", lobby, methods=["GET"]),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{gid}", game_summary),
        Route("/api/games/{gid}/join", join, methods=["POST"]),
        Route("/api/games/{gid}/rematch", rematch, methods=["POST"]),
        Route("/api/games/{gid}/ready", ready, methods=["POST"]),
        Route("/api/games/{gid}/host", host, methods=["POST"]),
        Route("/api/games/{gid}/record", record),
        Route("/api/games/{gid}/replay", replay),
        Route("/api/games/{gid}/analysis", analysis),
        *account_api.ROUTES,
        *tutorial.ROUTES,
        *installable.ROUTES,
        WebSocketRoute("/ws/{gid}", ws_endpoint),
        Mount("/static", installable.RevalidatedFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(Guard, hosts=hosts, body_timeout=settings.body_timeout)],
    )
    app.state.service = service
    app.state.db = db
    app.state.limits = service.limits
    app.state.analysis = analyses
    return app
