"""The accounts' HTTP API (docs/web.md, Accounts): sessions, the account's settings and data,
players' profiles, the leaderboard, a game's rating changes, claiming a guest's game,
blocking and reporting.

=====================================  =========================================================
``GET    /api/session``                ``{account: {name} | null, csrf}``
``POST   /api/accounts``               ``{name, password}``: create an account and log in
``POST   /api/session``                ``{name, password}``: log in
``DELETE /api/session``                log out
``GET    /api/account``                the account's settings, invitations, opponents, blocks
``DELETE /api/account``                ``{password}``: delete the account (its games stay)
``POST   /api/account/password``       ``{old, new}``: every other session ends
``POST   /api/account/notifications``  ``{webhook, email}``: where "your turn" goes
``POST   /api/account/block``          ``{name, blocked}``
``GET    /api/account/data``           everything kept about the account, with its games
``GET    /api/players/{name}``         a profile; ``/rating.svg?variant=`` its graph
``GET    /api/leaderboard``            ``?variant=standard|teams|points``
``GET    /api/games/{id}/ratings``     the rating changes of a finished rated game
``POST   /api/games/{id}/claim``       ``{seat, token}``: a guest's finished game joins the
                                       account's history
``POST   /api/games/{id}/report``      ``{n}``: report chat line ``n`` of the game
=====================================  =========================================================

Every request that changes an account carries the session cookie and the CSRF token
(``X-CSRF-Token``, from ``GET /api/session``): refused with 403 otherwise. Logging in and
creating an account need no CSRF token (there is no session yet); the Origin check
(:func:`sorry.web.httpkit.read_json`) and the cookie's ``SameSite=Lax`` keep other sites out.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..board import COLOUR_LETTERS
from .accounts import Account, LoginRefused
from .httpkit import (
    BadRequest,
    client_address,
    csrf_checked,
    error,
    limits_of,
    read_json,
    session_token,
    token_field,
    too_many,
)
from .i18n import request_language
from .live import LiveGame
from .mail import valid_address
from .passwords import (
    MESSAGES,
    SESSION_COOKIE,
    SESSION_TTL,
    AccountError,
    csrf_token,
)
from .people import VARIANTS
from .tokens import hash_token
from .webhooks import WebhookRefused, check_url, parse_networks
from .workers import PoolBusy

if TYPE_CHECKING:
    from .people import People
    from .service import GameService

#: finished games whose records the data download holds at most
DATA_RECORDS = 200


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _people(request: Request) -> People:
    return _service(request).people


def refusal(status: int, code: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """An account error: its English message (the page translates it) and its code."""
    return JSONResponse(
        {"error": MESSAGES.get(code, code), "code": code}, status_code=status, headers=headers
    )


def with_session(request: Request, response: Response, token: str) -> Response:
    """The session cookie: HttpOnly (no script reads it), SameSite=Lax (another site's
    requests do not carry it), Secure when the page is served over HTTPS (directly, or behind
    a proxy uvicorn trusts for X-Forwarded-Proto)."""
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(SESSION_TTL),
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


def without_session(request: Request, response: Response) -> Response:
    response.delete_cookie(
        SESSION_COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


async def current(request: Request) -> tuple[Account | None, str | None]:
    """The request's account and session token (reading, no CSRF token needed)."""
    token = session_token(request)
    account = await _people(request).account(token)
    return account, token if account is not None else None


async def acting(request: Request) -> tuple[Account, str] | JSONResponse:
    """The account a changing request acts for: its session, with the CSRF token."""
    token = csrf_checked(request)
    if token is None:
        if session_token(request) is None:
            return refusal(401, "not_logged_in")
        return refusal(403, "csrf")
    account = await _people(request).account(token)
    if account is None:
        return refusal(401, "not_logged_in")
    return account, token


async def acting_if_any(request: Request) -> Account | None:
    """For a game request (create, join): the account it acts for, or None (a guest: no
    session, or a request without the CSRF token, as another site's would be)."""
    token = csrf_checked(request)
    return await _people(request).account(token) if token is not None else None


def _credentials(data: dict[str, Any]) -> tuple[str, str]:
    name, password = data.get("name"), data.get("password")
    if not isinstance(name, str) or not isinstance(password, str):
        raise BadRequest("name and password must be strings")
    return name, password


# -- sessions -----------------------------------------------------------------------------------
async def get_session(request: Request) -> Response:
    account, token = await current(request)
    body: dict[str, Any] = {"account": None, "csrf": None}
    if account is not None and token is not None:
        body = {"account": {"name": account.name}, "csrf": csrf_token(token)}
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def register(request: Request) -> Response:
    people = _people(request)
    if not limits_of(request).allow(client_address(request), "create"):
        return too_many("too many requests from this address: wait a minute", 60)
    try:
        name, password = _credentials(await read_json(request))
        account, token = await asyncio.to_thread(
            people.store.create, name, password, None, client_address(request)
        )
    except BadRequest as exc:
        return error(400, str(exc))
    except AccountError as exc:
        return refusal(409 if exc.code == "name_taken" else 400, exc.code)
    body = {"name": account.name, "csrf": csrf_token(token)}
    return with_session(request, JSONResponse(body, status_code=201), token)


async def login(request: Request) -> Response:
    people = _people(request)
    try:
        name, password = _credentials(await read_json(request))
    except BadRequest as exc:
        return error(400, str(exc))
    address = client_address(request)
    try:
        token = await asyncio.to_thread(people.store.login, name, password, address)
    except LoginRefused as exc:
        if exc.code == "login_limited":
            return refusal(429, exc.code, {"Retry-After": str(exc.retry_after)})
        return refusal(401, exc.code)
    account = await people.account(token)
    assert account is not None
    body = {"name": account.name, "csrf": csrf_token(token)}
    return with_session(request, JSONResponse(body), token)


async def logout(request: Request) -> Response:
    if session_token(request) is None:
        return Response(status_code=204)
    token = csrf_checked(request)
    if token is None:
        return refusal(403, "csrf")
    await asyncio.to_thread(_people(request).store.logout, token)
    return without_session(request, Response(status_code=204))


# -- the account ----------------------------------------------------------------------------------
async def get_account(request: Request) -> Response:
    account, _token = await current(request)
    if account is None:
        return refusal(401, "not_logged_in")
    people = _people(request)

    def read() -> dict[str, Any]:
        return {
            "name": account.name,
            "created_at": account.created_at,
            "webhook": account.webhook,
            "email": account.email,
            "email_possible": people.settings.smtp is not None,
            "invitations": people.invitations(account.id),
            "your_turn": people.your_turn(account.id),
            "recent_opponents": people.store.recent_opponents(account.id),
            "blocked": people.store.blocked(account.id),
        }

    return JSONResponse(await asyncio.to_thread(read), headers={"Cache-Control": "no-store"})


async def delete_account(request: Request) -> Response:
    who = await acting(request)
    if isinstance(who, JSONResponse):
        return who
    account, _token = who
    try:
        data = await read_json(request)
    except BadRequest as exc:
        return error(400, str(exc))
    password = data.get("password")
    if not isinstance(password, str):
        return error(400, "password must be a string")
    try:
        await asyncio.to_thread(_people(request).store.delete, account.id, password)
    except LoginRefused:
        return refusal(403, "bad_login")
    await _service(request).people.forget(account.id)
    return without_session(request, Response(status_code=204))


async def change_password(request: Request) -> Response:
    who = await acting(request)
    if isinstance(who, JSONResponse):
        return who
    account, token = who
    try:
        data = await read_json(request)
    except BadRequest as exc:
        return error(400, str(exc))
    old, new = data.get("old"), data.get("new")
    if not isinstance(old, str) or not isinstance(new, str):
        return error(400, "old and new must be strings")
    try:
        await asyncio.to_thread(_people(request).store.change_password, account.id, old, new, token)
    except LoginRefused:
        return refusal(403, "bad_login")
    except AccountError as exc:
        return refusal(400, exc.code)
    return JSONResponse({"changed": True})


async def set_notifications(request: Request) -> Response:
    who = await acting(request)
    if isinstance(who, JSONResponse):
        return who
    account, _token = who
    people = _people(request)
    try:
        data = await read_json(request)
    except BadRequest as exc:
        return error(400, str(exc))
    webhook, email = data.get("webhook"), data.get("email")
    if webhook is not None:
        if not isinstance(webhook, str):
            return error(400, "webhook must be an address or null")
        allow = parse_networks(people.settings.webhook_allow)
        try:
            await asyncio.to_thread(check_url, webhook, allow)
        except WebhookRefused as exc:
            return error(400, str(exc))
    if email is not None and not valid_address(email):
        return error(400, "email must be an e-mail address or null")
    settings = dict(account.settings)
    settings["lang"] = request_language(request)
    await asyncio.to_thread(people.store.set_notifications, account.id, webhook, email, settings)
    return JSONResponse({"webhook": webhook, "email": email})


async def block(request: Request) -> Response:
    who = await acting(request)
    if isinstance(who, JSONResponse):
        return who
    account, _token = who
    people = _people(request)
    try:
        data = await read_json(request)
    except BadRequest as exc:
        return error(400, str(exc))
    name, on = data.get("name"), data.get("blocked", True)
    if not isinstance(name, str) or not isinstance(on, bool):
        return error(400, "name must be a string and blocked true or false")
    other = await asyncio.to_thread(people.store.by_name, name)
    if other is None:
        return error(404, "no account has that name")
    if other.id == account.id:
        return error(400, "you cannot block yourself")
    try:
        await asyncio.to_thread(people.store.block, account.id, other.id, on)
    except AccountError as exc:
        return error(409, str(exc))
    await people.blocks_changed(account.id)
    return JSONResponse({"name": other.name, "blocked": on})


async def download_data(request: Request) -> Response:
    """Everything kept about the account, and each finished game's record (JSON)."""
    account, _token = await current(request)
    if account is None:
        return refusal(401, "not_logged_in")
    service = _service(request)
    data = await asyncio.to_thread(service.people.store.export, account.id)
    records: dict[str, Any] = {}
    finished = [g["id"] for g in data.get("games", []) if g["status"] == "over"]
    for gid in finished[:DATA_RECORDS]:
        live = await service.get(gid)
        if live is None or not live.game.is_over():
            continue
        if not service.finished.cached(gid, "record") and not limits_of(request).allow(
            client_address(request), "replay"
        ):
            records[gid] = None  # over this address's allowance: download again later
            continue
        try:
            records[gid] = json.loads(await service.finished.json(live, "record"))
        except (PermissionError, PoolBusy):
            records[gid] = None
    data["records"] = records
    return JSONResponse(
        data,
        headers={
            "Cache-Control": "no-store",
            "Content-Disposition": 'attachment; filename="sorry-account.json"',
        },
    )


# -- players, the leaderboard ---------------------------------------------------------------------
async def player(request: Request) -> Response:
    name = request.path_params["name"]
    viewer, _token = await current(request)
    lang = request_language(request)
    data = await asyncio.to_thread(_people(request).profile, name, lang, viewer)
    if data is None:
        return error(404, "no player has that name")
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


def _variant(request: Request) -> str | None:
    v = request.query_params.get("variant", "standard")
    return v if v in VARIANTS else None


async def rating_picture(request: Request) -> Response:
    variant = _variant(request)
    if variant is None:
        return error(400, f"variant must be one of {', '.join(VARIANTS)}")
    lang = request_language(request)
    name = request.path_params["name"]
    svg = await asyncio.to_thread(_people(request).rating_picture, name, variant, lang)
    if svg is None:
        return error(404, "no player has that name")
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


async def leaderboard(request: Request) -> Response:
    variant = _variant(request)
    if variant is None:
        return error(400, f"variant must be one of {', '.join(VARIANTS)}")
    data = await asyncio.to_thread(_people(request).leaderboard, variant)
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


# -- games ----------------------------------------------------------------------------------------
async def game_ratings(request: Request) -> Response:
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    data = await asyncio.to_thread(_people(request).game_ratings, live)
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


async def claim(request: Request) -> Response:
    who = await acting(request)
    if isinstance(who, JSONResponse):
        return who
    account, _token = who
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    try:
        data = await read_json(request)
        colour = _colour(data.get("seat"))
        token = token_field(data)
    except BadRequest as exc:
        return error(400, str(exc))
    wrong = limits_of(request).bucket(client_address(request), "token")
    if wrong.empty:
        return too_many("too many wrong tokens from this address: wait a moment")
    people = _people(request)
    ok = await asyncio.to_thread(people.store.claim, account.id, live.id, colour, hash_token(token))
    if not ok:
        wrong.allow()
        return error(403, "this game cannot be claimed with that seat and token")
    await _service(request).cache.refresh(live)
    return JSONResponse({"claimed": live.id, "seat": COLOUR_LETTERS[colour]})


async def report(request: Request) -> Response:
    who = await acting(request)
    if isinstance(who, JSONResponse):
        return who
    account, _token = who
    live = await _live(request)
    if live is None:
        return error(404, "no such game")
    try:
        data = await read_json(request)
    except BadRequest as exc:
        return error(400, str(exc))
    n = data.get("n")
    if isinstance(n, bool) or not isinstance(n, int):
        return error(400, "n must be the number of a chat line")
    line = next((m for m in live.room.chat.messages if m.n == n), None)
    if line is None:
        return error(404, "no such chat line (it may be too old)")
    reported_id = None
    if line.colour is not None:
        seat = live.seats.get(COLOUR_LETTERS.index(line.colour))
        reported_id = seat.account_id if seat is not None else None
    if not limits_of(request).allow(client_address(request), "create"):
        return too_many("too many reports from this address: wait a minute", 60)
    await asyncio.to_thread(
        _people(request).store.report,
        account.id,
        live.id,
        line.name,
        reported_id,
        line.text or f"[{line.phrase}]",
    )
    return JSONResponse({"reported": n}, status_code=201)


def _colour(value: object) -> int:
    if not isinstance(value, str) or len(value) != 1 or value not in COLOUR_LETTERS:
        raise BadRequest("seat colour must be one of R, B, Y, G")
    return COLOUR_LETTERS.index(value)


async def _live(request: Request) -> LiveGame | None:
    gid = request.path_params["gid"]
    if not isinstance(gid, str) or not 1 <= len(gid) <= 32:
        return None
    if not all(c.isalnum() or c in "_-" for c in gid) or not gid.isascii():
        return None
    return await _service(request).get(gid)


ROUTES = [
    Route("/api/session", get_session, methods=["GET"]),
    Route("/api/session", login, methods=["POST"]),
    Route("/api/session", logout, methods=["DELETE"]),
    Route("/api/accounts", register, methods=["POST"]),
    Route("/api/account", get_account, methods=["GET"]),
    Route("/api/account", delete_account, methods=["DELETE"]),
    Route("/api/account/password", change_password, methods=["POST"]),
    Route("/api/account/notifications", set_notifications, methods=["POST"]),
    Route("/api/account/block", block, methods=["POST"]),
    Route("/api/account/data", download_data, methods=["GET"]),
    Route("/api/players/{name}", player, methods=["GET"]),
    Route("/api/players/{name}/rating.svg", rating_picture, methods=["GET"]),
    Route("/api/leaderboard", leaderboard, methods=["GET"]),
    Route("/api/games/{gid}/ratings", game_ratings, methods=["GET"]),
    Route("/api/games/{gid}/claim", claim, methods=["POST"]),
    Route("/api/games/{gid}/report", report, methods=["POST"]),
]
