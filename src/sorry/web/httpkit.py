"""What every HTTP handler of the server uses: the request's JSON body read within limits and
checked for its origin, the client's address and limits, errors as JSON, and the account
session a request carries (its cookie, and for a change the CSRF token in ``X-CSRF-Token``).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

from .limits import AddressLimits
from .passwords import SESSION_COOKIE, csrf_ok
from .tokens import BadValue, has_lone_surrogate, parse_token

MAX_BODY = 8192
CSRF_HEADER = "x-csrf-token"


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
    try:
        async for chunk in request.stream():  # its time is Guard's (Settings.body_timeout)
            body += chunk
            if len(body) > MAX_BODY:
                raise BadRequest(f"request body larger than {MAX_BODY} bytes")
    except ClientDisconnect:
        raise BadRequest("the request body did not arrive in time") from None
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise BadRequest("request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("request body must be a JSON object")
    if has_lone_surrogate(data):
        raise BadRequest("request body has text that is not valid Unicode (a lone surrogate)")
    return data


def token_field(data: dict[str, Any], key: str = "token") -> str:
    try:
        return parse_token(data.get(key), key)
    except BadValue as exc:
        raise BadRequest(str(exc)) from None


def session_token(conn: Request | WebSocket) -> str | None:
    """The session cookie's token, if the request has one (not checked)."""
    token = conn.cookies.get(SESSION_COOKIE)
    return token if token and len(token) <= 100 else None


def csrf_checked(request: Request) -> str | None:
    """The session token of a request that may act for its account: it carries the session
    cookie and the CSRF token derived from it (a page of another site cannot read that
    token, so cannot send it). None otherwise."""
    token = session_token(request)
    if token is None or not csrf_ok(token, request.headers.get(CSRF_HEADER)):
        return None
    return token
