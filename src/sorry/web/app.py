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
``WS   /ws/{id}``                  the game protocol (see :mod:`sorry.web.protocol`)
=================================  =========================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..board import COLOUR_LETTERS
from ..errors import SorryError
from ..i18n import using
from ..moves import Move
from ..rules import OPTION_VALUES, VARIANTS, Rules
from ..svg import board_geometry, board_svg
from . import chat, room
from .analysis import AnalysisCache
from .db import Database
from .i18n import render_page, request_language
from .limits import AddressLimits, Guard, HostPolicy, RateLimit
from .players import bot_levels, level_sentences
from .protocol import (
    MAX_MESSAGE_BYTES,
    ClientMessage,
    ProtocolError,
    describe_move,
    dumps,
    parse_client_message,
)
from .service import (
    Conn,
    GameService,
    LiveGame,
    Refused,
    Settings,
    clean_name,
    hash_token,
    new_token,
)
from .workers import PoolBusy

STATIC = Path(__file__).parent / "static"
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
MAX_BODY = 8192
HELLO_TIMEOUT = 15.0
MAX_VIOLATIONS = 40  # rate-limit violations before the connection is closed


class BadRequest(Exception):
    pass


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """A browser's Origin must be this server itself or one of ``allowed``; clients that
    send no Origin (not browsers) are let through: their seat token still guards them."""
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def too_many(message: str, retry_after: int = 10) -> JSONResponse:
    return JSONResponse(
        {"error": message}, status_code=429, headers={"Retry-After": str(retry_after)}
    )


def client_address(conn: Request | WebSocket) -> str:
    """The client's address: the peer's, or the one a trusted proxy forwarded (uvicorn)."""
    return conn.client.host if conn.client is not None else "unknown"


def limits_of(conn: Request | WebSocket) -> AddressLimits:
    limits: AddressLimits = conn.app.state.limits
    return limits


async def read_json(request: Request) -> dict[str, Any]:
    if not origin_allowed(
        request.headers.get("origin"),
        request.headers.get("host"),
        request.app.state.service.settings.allowed_origins,
    ):
        raise BadRequest("cross-site request refused (Origin not allowed)")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadRequest(f"request body larger than {MAX_BODY} bytes")
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        raise BadRequest("request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("request body must be a JSON object")
    return data


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
        seats.append({"colour": colour, "kind": kind, "level": level})
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
    return {
        "id": live.id,
        "name": live.name,
        "public": live.public,
        "variant": live.game.rules.variant,
        "options": live.game.rules.options_text(),
        "status": live.status,
        "seq": live.seq,
        "turn": live.game.turn,
        "seats": service.seats_json(live),
        "winners": [COLOUR_LETTERS[c] for c in live.game.winners],
        "match": service.match_totals(live),
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
    return JSONResponse(
        {
            "variants": list(VARIANTS),
            "options": {k: list(v) for k, v in OPTION_VALUES.items()},
            "option_variants": option_variants(),
            "bot_levels": bot_levels(),
            "level_sentences": level_sentences(),
            "colours": list(COLOUR_LETTERS),
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
    rows = await asyncio.to_thread(service.db.lobby)
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
        host_token = new_token()  # the host starts the game, changes seats, switches chat
        settings.host_hash = hash_token(host_token)
        gid, tokens = await service.create_game(rules, seats, name, public, room=settings)
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
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or not 1 <= len(token) <= 128):
            raise BadRequest("token must be a string of 1-128 characters")
    except (BadRequest, ValueError) as exc:
        return error(400, str(exc))
    ok, result = await service.join(live, colour, name, token)
    if not ok:
        return error(403, result)
    await room.maybe_start(service, live)  # "start when every seat is taken"
    return JSONResponse({"seat": COLOUR_LETTERS[colour], "token": result, "name": name})


async def rematch(request: Request) -> Response:
    service: GameService = request.app.state.service
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    try:
        data = await read_json(request)
        colour = parse_colour(data.get("seat"))
        token = data.get("token")
        if not isinstance(token, str) or not 1 <= len(token) <= 128:
            raise BadRequest("token must be a string of 1-128 characters")
    except BadRequest as exc:
        return error(400, str(exc))
    ok, result = await service.rematch(live, colour, token)
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
        token = data.get("token")
        if not isinstance(token, str) or not 1 <= len(token) <= 128:
            raise BadRequest("token must be a string of 1-128 characters")
    except BadRequest as exc:
        return error(400, str(exc))
    if not service.check_token(live, colour, token):
        return error(403, "wrong seat or token")
    await room.set_ready(service, live, colour)
    return JSONResponse({"room": live.room.public()})


async def host(request: Request) -> Response:
    service: GameService = request.app.state.service
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    try:
        data = await read_json(request)
        token = data.get("host_token")
        if not isinstance(token, str) or not 1 <= len(token) <= 128:
            raise BadRequest("host_token must be a string of 1-128 characters")
        action = data.get("action")
        if action not in ("start", "bot", "chat"):
            raise BadRequest("action must be start, bot or chat")
        args: dict[str, Any] = {"enabled": data.get("enabled"), "level": data.get("level")}
        if action == "bot":
            args["colour"] = parse_colour(data.get("seat"))
    except BadRequest as exc:
        return error(400, str(exc))
    refused = await room.host_action(service, live, hash_token(token), action, args)
    if refused is not None:
        return error(403 if "host" in refused else 409, refused)
    return JSONResponse({"room": live.room.public()})


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
    if not service.finished_cached(live.id, what) and not limits_of(request).allow(
        client_address(request), "replay"
    ):
        return too_many(f"too many {what} requests from this address: wait a moment")
    try:
        data = await service.finished_json(live, what)
    except PermissionError as exc:
        return error(409, str(exc))
    except PoolBusy as exc:
        return error(503, str(exc))
    headers = {"Cache-Control": "public, max-age=3600"}
    if what == "record":
        headers["Content-Disposition"] = f'attachment; filename="sorry-{live.id}.json"'
    return Response(data, media_type="application/json", headers=headers)


async def analysis(request: Request) -> Response:
    """A finished game's analysis (:mod:`sorry.web.analysis`): 202 while it is computed.
    Only the requests that start work count against the address's limit: the page polls
    while the analysis is computed, and a poll is a dictionary lookup."""
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
        status, data = await cache.get(request.app.state.service, live, lang)
    except PermissionError as exc:
        return error(409, str(exc))
    cached = "public, max-age=3600" if status == 200 else "no-store"
    return Response(
        data, status_code=status, media_type="application/json", headers={"Cache-Control": cached}
    )


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
        await _session(ws, service, gid, address)
    finally:
        limits.close_connection(address)


async def _session(ws: WebSocket, service: GameService, gid: str, address: str) -> None:
    live = await service.get(gid) if GAME_ID.match(gid) else None
    if live is None:
        await ws.send_text(dumps({"type": "error", "code": "no_game", "error": "no such game"}))
        await ws.close(code=4404)
        return
    live.opening += 1  # not evicted from memory before its hello
    conn = Conn()
    conn.address = address
    conn.lang = request_language(ws)  # the page's language (cookie, else Accept-Language)
    writer = asyncio.create_task(_writer(ws, conn))
    limit = RateLimit(service.settings.rate, service.settings.burst)
    violations = 0
    attached = False
    try:
        while not conn.closed:
            try:
                timeout = None if attached else HELLO_TIMEOUT
                msg = await asyncio.wait_for(ws.receive(), timeout)
            except TimeoutError:
                conn.send({"type": "error", "code": "timeout", "error": "send hello first"})
                conn.close(1008, "no hello: send hello first")
                break
            if msg["type"] == "websocket.disconnect":
                break
            raw = msg.get("text")
            if raw is None:
                raw = msg.get("bytes") or b""
            if not limit.allow():
                violations += 1
                if violations == 1 or violations % 10 == 0:
                    conn.send(
                        {
                            "type": "error",
                            "code": "rate_limited",
                            "error": "too many messages: slow down",
                        }
                    )
                if violations >= MAX_VIOLATIONS:
                    conn.close(1008, "too many messages: closed")
                    break
                continue
            try:
                cm = parse_client_message(raw)
            except ProtocolError as exc:
                conn.send({"type": "error", "code": exc.code, "error": exc.message})
                continue
            if not attached:
                if cm.type != "hello":
                    conn.send(
                        {
                            "type": "error",
                            "code": "hello_first",
                            "error": "the first message must be hello",
                        }
                    )
                    continue
                if cm.seat is not None:
                    assert cm.token is not None
                    if not service.check_token(live, cm.seat, cm.token):
                        await service.refresh(live)
                    if not service.check_token(live, cm.seat, cm.token):
                        conn.send(
                            {"type": "error", "code": "bad_token", "error": "wrong seat or token"}
                        )
                        continue
                    conn.seat = cm.seat
                await service.turns.turn()  # the full state waits for its turn (moves first)
                fresh = await service.get(gid)  # the game object in memory now
                if fresh is not None and fresh is not live:
                    live.opening = max(0, live.opening - 1)
                    live = fresh
                    live.opening += 1
                conn.send(
                    {
                        "type": "welcome",
                        "game": live.id,
                        "seat": COLOUR_LETTERS[conn.seat] if conn.seat is not None else None,
                        "role": "player" if conn.seat is not None else "spectator",
                        "max_message_bytes": MAX_MESSAGE_BYTES,
                    }
                )
                service.attach(live, conn)
                attached = True
                continue
            await _handle(service, live, conn, cm)
    except WebSocketDisconnect:
        pass
    finally:
        if attached:
            service.detach(live, conn)
        else:
            live.opening = max(0, live.opening - 1)
        conn.close()
        with contextlib.suppress(Exception):
            await writer
        with contextlib.suppress(Exception):
            await ws.close()


async def _handle(service: GameService, live: LiveGame, conn: Conn, cm: ClientMessage) -> None:
    if cm.type == "ping":
        conn.send({"type": "pong", "seq": live.seq})
    elif cm.type == "resync":
        service.send_state(live, conn, full=True)
    elif cm.type == "hello":
        conn.send({"type": "error", "code": "already_hello", "error": "hello was already sent"})
    elif cm.type == "chat":  # players and spectators
        chat.handle(service, live, conn, cm)
    elif conn.seat is None:
        conn.send(
            {
                "type": "rejected",
                "code": "spectator",
                "seq": live.seq,
                "resync": False,
                "reason": "spectators cannot play",
            }
        )
    elif cm.type == "back":
        if room.acted(live, conn.seat):
            room.turn_began(live)
            service.broadcast_seats(live)
    elif cm.type == "move":
        assert cm.seq is not None and cm.move is not None
        reply = await service.submit(live, conn.seat, cm.seq, cm.move)
        conn.send(reply)
        if reply.get("resync"):
            service.send_state(live, conn, full=True)
    elif cm.type == "hint":
        assert cm.seq is not None
        await service.turns.turn()  # hints wait for their turn: the games' moves first
        limit = service.limits.bucket(conn.address, "hint")
        reply = await service.hint_for(live, conn.seat, cm.seq, limit)
        if reply["type"] == "hint":
            with using(conn.lang):  # the hint's words in the client's language
                reply["text"] = describe_move(Move.parse(reply["move"]))
        conn.send(reply)


async def _writer(ws: WebSocket, conn: Conn) -> None:
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                break
            await ws.send_text(text)
    except Exception:
        conn.closed = True
    finally:
        if not conn.closed:
            conn.closed = True
        with contextlib.suppress(Exception):
            await ws.close(code=conn.close_code, reason=conn.close_reason[:120])


def create_app(
    database: str | Database | None = None, settings: Settings | None = None
) -> Starlette:
    """The application. ``database``: a URL (``sqlite:///...``, ``postgresql://...``), a
    :class:`Database`, or None for SQLite in the per-user data folder."""
    db = database if isinstance(database, Database) else Database(database)
    service = GameService(db, settings)
    hosts = HostPolicy(service.settings.bind_host, service.settings.allowed_hosts)
    analyses = AnalysisCache()

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
        WebSocketRoute("/ws/{gid}", ws_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Guard, hosts=hosts)])
    app.state.service = service
    app.state.db = db
    app.state.limits = service.limits
    app.state.analysis = analyses
    return app
