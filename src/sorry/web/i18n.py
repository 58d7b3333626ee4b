"""The browser game in the player's language.

Each request picks a language (:func:`request_language`): the ``sorry_lang`` cookie that the
page's language menu sets, else a ``lang`` query parameter, else the browser's
``Accept-Language``. The page (``static/index.html``) is served with every known text node and
label attribute translated (:func:`render_page`), ``<html lang>`` set, a language menu in the
header, and the catalog of the strings the page's script shows (:data:`SCRIPT_MESSAGES`) as a
JSON block that ``static/i18n.js`` reads (``t()`` and ``tn()`` in the script).

>>> "Ho sento!" in render_page("ca")
True
>>> request_language_from({"accept-language": "el-GR,el;q=0.9"}, {})
'el'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from html import escape
from pathlib import Path

from ..i18n import (
    DEFAULT,
    LANGUAGES,
    N_,
    language_from_accept,
    ngettext,
    normalise,
    translation,
    using,
)

STATIC = Path(__file__).parent / "static"
COOKIE = "sorry_lang"

#: The texts of ``index.html`` (text nodes and label attributes), translated when served.
PAGE_MESSAGES = (
    N_("Sorry!"),
    N_("New game"),
    N_("Name"),
    N_("Friday game"),
    N_("Variant"),
    N_("List in the lobby"),
    N_("Rule options"),
    N_("Seats"),
    N_("Create game"),
    N_("Invite links"),
    N_("Send each person their own link (it is their seat's secret)."),
    N_("Go to the game"),
    N_("Lobby"),
    N_("Loading…"),
    N_("Join"),
    N_("Your name"),
    N_("Connecting…"),
    N_(
        "SHA-256 commitment to the seed and deck, published before the first card; the record "
        "reveals them when the game is over"
    ),
    N_("Your moves"),
    N_("Hint"),
    N_("Show all"),
    N_("Next game of the match"),
    N_("Go to the next game →"),
    N_("Download the game record"),
    N_("Replay"),
    N_("Previous move"),
    N_("Next move"),
    N_("Game log"),
    N_("Language"),
)

#: Controls whose text is a symbol get a name for screen readers (element id -> label).
ARIA_LABELS = {"replay-prev": N_("Previous move"), "replay-next": N_("Next move")}

#: The strings ``static/app.js`` shows, looked up with ``t()``/``tn()`` (``{name}`` placeholders).
SCRIPT_MESSAGES = (
    # the HTTP API's errors a player can meet (the server sends them in English)
    N_("this seat is taken (it needs its invite link)"),
    N_("somebody else took this seat first"),
    N_("wrong token for this seat"),
    N_("the game is not over yet"),
    N_("each colour may be seated once"),
    N_("the teams variant needs all four seats"),
    N_("seats must be a list of 2 to 4 seats"),
    N_("name must be printable text of at most 60 characters"),
    # the rule options (RULES.md section 9) and their values: English shows the names
    N_("deck"),
    N_("two_draws_again"),
    N_("sorry_forward_4"),
    N_("slide_on"),
    N_("swap_slides"),
    N_("starting_pawns_out"),
    N_("team_seven_split"),
    N_("team_swap_partner"),
    N_("points_bonus"),
    N_("yes"),
    N_("no"),
    N_("always"),
    N_("fallback"),
    N_("other"),
    N_("own"),
    N_("all"),
    N_("mover"),
    N_("both"),
    N_("two"),
    N_("any"),
    N_("highest"),
    N_("cumulative"),
    N_("the game had moved on: look again"),
    N_("the game is over"),
    N_("it is not your turn"),
    N_("that move is not one of the legal moves"),
    N_("the move could not be saved: try again"),
    N_("too many messages: slow down"),
    N_("wrong seat or token"),
    N_("no such game"),
    N_("Sorry!"),
    N_("START"),
    N_("HOME"),
    N_("Safety {n}"),
    N_("Red"),
    N_("Blue"),
    N_("Yellow"),
    N_("Green"),
    N_("not playing"),
    N_("me"),
    N_("invite a person"),
    N_("open seat (lobby)"),
    N_("bot: {level}"),
    N_("choose 'me' once"),
    N_("No public games yet."),
    N_("finished — replay"),
    N_("open: {seats}"),
    N_("watch"),
    N_("You are invited to play {colour}"),
    N_("Join as {colour}"),
    N_("Watching. Take an open seat?"),
    N_("Play {colour}"),
    N_("Player"),
    N_("Disconnected — reconnecting…"),
    N_("Not accepted: {reason}"),
    N_("Hint: {text}"),
    N_("Shuffle commitment: {digest}…"),
    N_("Winner: {names}"),
    N_("Unfinished"),
    N_(" — scores: {scores}"),
    N_(" — wins: {wins}"),
    N_(" — points: {points}"),
    N_("{names} won!"),
    N_("Game over"),
    N_("Your turn"),
    N_("{colour} to move"),
    N_(" — you are {colour}"),
    N_(" — watching"),
    N_("Your hand: "),
    N_("(open seat)"),
    N_("(invited)"),
    N_("(away)"),
    N_("— a bot is playing for them"),
    N_(" (bot)"),
    N_(" (bot for player)"),
    N_("{colour} pawn in START"),
    N_("{colour} pawn at HOME"),
    N_("{colour} pawn on square {square}"),
    N_("{colour} pawn on Safety Zone square {k}"),
    N_("{colour} pawn on {place}, can move"),
    N_("Card: {card}"),
    N_("standard"),
    N_("teams"),
    N_("points"),
    N_("random"),
    N_("easy"),
    N_("medium"),
    N_("hard"),
    N_("expert"),
)


def script_plurals() -> dict[str, list[str]]:
    """The script's plural messages (``tn()``) in the current language: singular msgid ->
    [the form for 1, the form for other numbers] (every language served has ``n != 1``)."""
    return {
        "{n} card to draw": [ngettext("{n} card to draw", "{n} cards to draw", n) for n in (1, 2)],
        "{n} card": [ngettext("{n} card", "{n} cards", n) for n in (1, 2)],
        "Match: {n} game played": [
            ngettext("Match: {n} game played", "Match: {n} games played", n) for n in (1, 2)
        ],
    }


def request_language_from(headers: Mapping[str, str], cookies: Mapping[str, str]) -> str:
    """The language of a request: the language menu's cookie, else ``Accept-Language``."""
    chosen = normalise(cookies.get(COOKIE))
    if chosen is not None:
        return chosen
    return language_from_accept(headers.get("accept-language"))


def request_language(request: object) -> str:
    """:func:`request_language_from` for a Starlette request or WebSocket; a ``lang`` query
    parameter wins over both (links to a page in a given language)."""
    query = getattr(request, "query_params", {})
    asked = normalise(query.get("lang")) if query else None
    if asked is not None:
        return asked
    headers = getattr(request, "headers", {})
    cookies = getattr(request, "cookies", {})
    return request_language_from(headers, cookies)


def script_catalog(lang: str) -> dict[str, object]:
    """The script's strings in ``lang``: msgid -> text, and for plurals the singular msgid
    -> [singular, plural] (every language served has the rule ``n != 1``)."""
    tr = translation(lang)
    out: dict[str, object] = {m: tr.gettext(m) for m in SCRIPT_MESSAGES}
    with using(lang):
        out.update(script_plurals())
    return out


_TEXT = re.compile(r">(\s*)([^<>]*?[^\s<>])(\s*)<")
_ATTR = re.compile(r'\b(placeholder|title|aria-label|alt)="([^"]*)"')


@cache
def render_page(lang: str) -> str:
    """``index.html`` in ``lang``: texts translated, ``lang`` set, the language menu and the
    script's catalog added."""
    code = normalise(lang) or DEFAULT
    tr = translation(code)
    known = set(PAGE_MESSAGES)

    def text(m: re.Match[str]) -> str:
        body = m.group(2)
        if body in known:
            body = escape(tr.gettext(body), quote=False)
        return f">{m.group(1)}{body}{m.group(3)}<"

    def attr(m: re.Match[str]) -> str:
        value = m.group(2)
        if value in known:
            value = escape(tr.gettext(value))
        return f'{m.group(1)}="{value}"'

    html = (STATIC / "index.html").read_text(encoding="utf-8")
    html = _ATTR.sub(attr, _TEXT.sub(text, html))
    for ident, label in ARIA_LABELS.items():
        html = html.replace(
            f'id="{ident}"', f'id="{ident}" aria-label="{escape(tr.gettext(label))}"', 1
        )
    html = re.sub(r'<html lang="[^"]*"', f'<html lang="{code}"', html, count=1)
    menu = [f'<label class="lang-menu">{escape(tr.gettext("Language"))} <select id="lang-menu">']
    for c, name in LANGUAGES.items():
        selected = " selected" if c == code else ""
        menu.append(f'<option value="{c}" lang="{c}"{selected}>{escape(name)}</option>')
    menu.append("</select></label>")
    html = html.replace("</header>", "".join(menu) + "</header>", 1)
    data = json.dumps({"lang": code, "messages": script_catalog(code)}, ensure_ascii=False)
    data = data.replace("</", "<\\/")
    extra = (
        f'<script id="i18n-data" type="application/json">{data}</script>\n'
        '<script src="/static/i18n.js"></script>\n'
    )
    html = html.replace("</head>", '<link rel="stylesheet" href="/static/a11y.css">\n</head>', 1)
    return html.replace('<script src="/static/app.js">', extra + '<script src="/static/app.js">', 1)


__all__ = ["COOKIE", "render_page", "request_language", "request_language_from"]
