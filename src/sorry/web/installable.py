"""The browser game as an app a phone or a desktop can install: its manifest, its service
worker and the page the worker shows when the network is gone.

=================================  =========================================================
``GET  /manifest.webmanifest``     the app's name (in the request's language), colours, icons
``GET  /sw.js``                    the service worker (``static/sw.js``), at the site's root
                                   so that it serves every page; versioned by the files it
                                   keeps (:func:`shell_version`)
``GET  /offline``                  "You are offline", in the five languages (``offline.js``
                                   shows the visitor's)
=================================  =========================================================

The worker keeps the app's shell (the scripts, styles, icons and the offline page) in a cache
named after :func:`shell_version`, a digest of the package's version and of those files: a
server with any of them changed serves a worker of different bytes, which the browser installs
in place of the old one, and the new worker deletes the old cache. It fetches everything from
the network first and answers from its cache only when the network fails: an online page never
runs a stale script.

>>> manifest("en")["display"], manifest("ca")["name"]
('standalone', 'Ho sento!')
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from html import escape
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from .. import __version__
from ..i18n import DEFAULT, LANGUAGES, normalise, translation
from . import app_words
from .i18n import STATIC, THEME_COLOUR, request_language

#: The light theme's page background (``static/app.css``); the theme's colour, the header's
#: red, is :data:`sorry.web.i18n.THEME_COLOUR` (every page's head says it).
BACKGROUND_COLOUR = "#f3efe3"

#: The kinds of file of ``static/`` the worker keeps (the pages' templates are not served
#: as they are: their routes translate them).
SHELL_SUFFIXES = (".js", ".mjs", ".css", ".svg", ".png")


def manifest(lang: str) -> dict[str, Any]:
    """The web app manifest in ``lang``."""
    code = normalise(lang) or DEFAULT
    tr = translation(code)
    name = tr.gettext("Sorry!")
    icons = [
        {"src": f"/static/icons/{kind}-{size}.png", "sizes": f"{size}x{size}",
         "type": "image/png", "purpose": purpose}
        for kind, purpose in (("icon", "any"), ("maskable", "maskable"))
        for size in (192, 512)
    ]  # fmt: skip
    return {
        "id": "/",
        "name": name,
        "short_name": name,
        "description": tr.gettext(app_words.DESCRIPTION),
        "lang": code,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }


def shell_files() -> list[str]:
    """The URLs of ``static/`` the worker keeps, sorted (the worker itself left out)."""
    return sorted(
        "/static/" + p.relative_to(STATIC).as_posix()
        for p in STATIC.rglob("*")
        if p.is_file() and p.suffix in SHELL_SUFFIXES and p.name != "sw.js"
    )


@cache
def offline_html() -> str:
    """The offline page: its words in every language, English shown until ``offline.js``
    shows the visitor's (their language menu's choice, else their browser's)."""
    parts = []
    for code in LANGUAGES:
        tr = translation(code)
        title, text, again = (escape(tr.gettext(m)) for m in app_words.OFFLINE_MESSAGES)
        hidden = "" if code == DEFAULT else " hidden"
        name = escape(tr.gettext("Sorry!"))
        parts.append(
            f'<article class="panel offline" lang="{code}" data-title="{name}"{hidden}>\n'
            f"<h1>{title}</h1>\n<p>{text}</p>\n"
            f'<p><button type="button" class="primary again">{again}</button></p>\n</article>'
        )
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">\n'
        '<meta name="color-scheme" content="light dark">\n<title>Sorry!</title>\n'
        '<link rel="icon" type="image/svg+xml" href="/static/favicon.svg">\n'
        '<link rel="stylesheet" href="/static/app.css">\n'
        '<link rel="stylesheet" href="/static/a11y.css">\n'
        '<link rel="manifest" href="/manifest.webmanifest">\n'
        f'<meta name="theme-color" content="{THEME_COLOUR}">\n</head>\n<body>\n'
        '<header>\n  <a href="/" class="logo">Sorry!</a>\n</header>\n'
        '<main id="offline-page">\n' + "\n".join(parts) + "\n</main>\n"
        '<script type="module" src="/static/offline.js"></script>\n</body>\n</html>\n'
    )


@cache
def shell_version() -> str:
    """A digest of the package's version, the shell's files and the offline page."""
    digest = hashlib.sha256(__version__.encode())
    for url in shell_files():
        digest.update(url.encode() + b"\0")
        digest.update((STATIC / url.removeprefix("/static/")).read_bytes())
    digest.update(offline_html().encode())
    return digest.hexdigest()[:16]


@cache
def worker_script() -> str:
    """``static/sw.js`` with its version and the list of files it keeps filled in."""
    source = (STATIC / "sw.js").read_text(encoding="utf-8")
    version = 'const VERSION = "unversioned";'
    shell = 'const SHELL = ["/offline"];'
    if version not in source or shell not in source:
        raise RuntimeError("static/sw.js lost the lines its route fills in")
    source = source.replace(version, f"const VERSION = {json.dumps(shell_version())};", 1)
    files = json.dumps(["/offline", *shell_files()], indent=2)
    return source.replace(shell, f"const SHELL = {files};", 1)


class RevalidatedFiles(StaticFiles):
    """The page's files (``/static``), each to be asked of the server again before it is used
    (``no-cache``: an unchanged file costs a ``304``). Sent without a lifetime, a browser keeps
    a file by its own heuristics, a day or so for one ten days old: after the server's files
    change, a browser without the service worker would run an old script against a new page."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


async def manifest_route(request: Request) -> Response:
    lang = request_language(request)
    return JSONResponse(
        manifest(lang),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache", "Vary": "Accept-Language, Cookie"},
    )


async def worker_route(request: Request) -> Response:
    # no-cache: the browser asks again each time it checks for an update
    return Response(
        worker_script(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


async def offline_route(request: Request) -> Response:
    return HTMLResponse(offline_html(), headers={"Cache-Control": "no-cache"})


ROUTES = [
    Route("/manifest.webmanifest", manifest_route),
    Route("/sw.js", worker_route),
    Route("/offline", offline_route),
]

__all__ = [
    "ROUTES",
    "RevalidatedFiles",
    "manifest",
    "offline_html",
    "shell_version",
    "worker_script",
]
