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

from ..board import COLOUR_KEYS, COLOUR_LETTERS, COLOUR_NAMES, COLOURS, TRACK_LEN
from ..describe import CARD_HELP, square_words
from ..howto import CARD_RULES, blocks
from ..i18n import (
    DEFAULT,
    LANGUAGES,
    N_,
    forms_table,
    language_from_accept,
    ngettext,
    normalise,
    translation,
    using,
)
from ..rules import FORM_OPTIONS, OPTIONS
from . import app_words, people_words, play_words, resign_words, tutorial_words
from .analysis import SCRIPT_MESSAGES as ANALYSIS_MESSAGES
from .messages import WORDS as MESSAGE_WORDS
from .players import level_sentences

STATIC = Path(__file__).parent / "static"
COOKIE = "sorry_lang"

#: The app's colour (the header's red, ``static/app.css``): the browser's bar, an installed
#: app's title bar.
THEME_COLOUR = "#a8302a"

#: What the head of every page links to besides its own styles: the web app manifest and the
#: script registering the service worker (``sorry.web.installable``).
HEAD_LINKS = (
    '<link rel="manifest" href="/manifest.webmanifest">\n'
    f'<meta name="theme-color" content="{THEME_COLOUR}">\n'
    '<link rel="apple-touch-icon" href="/static/icons/icon-192.png">\n'
    '<script type="module" src="/static/install.js"></script>\n'
)

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
    # the waiting room, chat, replay and settings
    N_("All moves"),
    N_("Back to the game"),
    N_("Chat"),
    N_("I'm back"),
    N_("I'm ready"),
    N_("Message"),
    N_("Mute spectators"),
    N_("Notify me when it is my turn"),
    N_("Open games"),
    N_("Players"),
    N_("Recently finished"),
    N_("Send"),
    N_("Settings"),
    N_("Sound on my turn"),
    N_("Start"),
    N_("Start the game"),
    N_("Switch the chat off"),
    N_("The host switched the chat off."),
    N_("Turn timer"),
    N_("Waiting room"),
    N_("Cancel"),
    N_("Play"),
)

#: Controls whose text is a symbol get a name for screen readers (element id -> label).
ARIA_LABELS = {
    "replay-first": N_("First move"),
    "replay-prev": N_("Previous move"),
    "replay-next": N_("Next move"),
    "replay-last": N_("Last move"),
}

#: The rule options' labels and values' words as the browser's form shows them (the core's
#: table, sorry.rules.OPTIONS; ``/api/meta`` sends them in English).
OPTION_MESSAGES = tuple(
    dict.fromkeys(
        text
        for o in OPTIONS
        if o.name in FORM_OPTIONS
        for text in (o.label, *(long for long, _short in o.words.values()))
    )
)

#: The strings ``static/app.js`` shows, looked up with ``t()``/``tn()`` (``{name}`` placeholders).
SCRIPT_MESSAGES = (
    # lists of colours (a team), as static/i18n.js series() says them
    N_("{first} and {second}"),
    N_("{items}, {item}"),
    # the page's subtitle (main.js): the game's name, its variant and rule options
    N_("{name} — {variant}"),
    N_("{text} ({options})"),
    # the game log's lines (panels.js logLine)
    N_("{player} draws {card}: {move}"),
    N_("{player}: {move}"),
    # the HTTP API's errors a player can meet (the server sends them in English)
    N_("this seat is taken (it needs its invite link)"),
    N_("somebody else took this seat first"),
    N_("wrong token for this seat"),
    N_("the game is not over yet"),
    N_("each colour may be seated once"),
    N_("the teams variant needs all four seats"),
    N_("seats must be a list of 2 to 4 seats"),
    N_("name must be printable text of at most 60 characters"),
    # the rule options (docs/variants.md) and their values, in words (lobby.js, from /api/meta)
    *OPTION_MESSAGES,
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
    N_("learned"),
    # playing on the board, the waiting room, chat, timers, notifications
    N_(" (bot, time ran out)"),
    N_(" against "),
    N_("2 minutes"),
    N_("Bot level"),
    N_("Bye!"),
    N_("Choose a card from your hand."),
    N_("Choose the move:"),
    N_("Copied"),
    N_("Copy link"),
    N_("Good luck!"),
    N_("Hello!"),
    N_("Invitation link for {colour}"),
    N_("Move here: {place}"),
    N_("Move {i} of {n}"),
    N_("Mute"),
    N_("Mute spectators"),
    N_("Mute {name}"),
    N_("Nice move!"),
    N_("No finished games yet."),
    N_("No move on the board: choose below."),
    N_("No open games right now."),
    N_("Notifications are blocked by the browser."),
    N_("Notifications are on."),
    N_("Now move a second pawn with the rest of the 7."),
    N_("Oops!"),
    N_("Pause"),
    N_("Play"),
    N_("Play it with a bot"),
    N_("QR code"),
    N_("QR code of the invitation for {colour}"),
    N_("Replay: {text}"),
    N_("Send each person their link. Start the game when everyone is here."),
    N_("Sending…"),
    N_("Show spectators' messages"),
    N_("Switch the chat off"),
    N_("Switch the chat on"),
    N_("Tap a ringed pawn to move it."),
    N_("Tap where it goes."),
    N_("Teams: {teams}"),
    N_("Thanks!"),
    N_("The game has started."),
    N_("The game starts when every seat is taken."),
    N_("The host starts the game when everyone is here."),
    N_("The next game of the match starts when every player is ready."),
    N_("The start"),
    N_("This browser cannot notify."),
    N_("Unmute"),
    N_("Unmute {name}"),
    N_("Waiting for the start"),
    N_("Waiting for {colour}…"),
    N_("Watch"),
    N_("Well played!"),
    N_("a bot is playing for them"),
    N_("at once"),
    N_("away"),
    N_("disconnected"),
    N_("hand: {cards}"),
    N_("invited"),
    N_("invited, not here yet"),
    N_("last played: {card}"),
    N_("none"),
    N_("not ready yet"),
    N_("one chat message at a time"),
    N_("open seat"),
    N_("open seat: anyone in the lobby may take it"),
    N_("partner: {colour}"),
    N_("ready"),
    N_("square {square}"),
    N_("the game has not started yet"),
    N_("the host switched chat off"),
    N_("turn {n}"),
    N_("waiting to start"),
    N_("when I start it"),
    N_("when every seat is taken"),
    N_("{colour} HOME"),
    N_("{colour} START"),
    N_("{name} (watching)"),
    N_("{name} is here"),
    N_("{name} joined (not connected)"),
    N_("{n} of 4 home"),
    N_("{n} points"),
    N_("{pawn}, can be taken"),
    N_("{s} s"),
    N_("{s} seconds"),
    N_("{s} seconds left"),
    N_("only the host may do that"),
    N_("only a seat nobody has taken can become a bot"),
    N_("the game has started"),
    N_("Join"),
    N_("Replay"),
    N_("Scores: {scores}"),
    N_("you"),
    N_("{colour} Safety Zone, square {k}"),
    # the lead's review of the phone game
    N_("No card in your hand can move a pawn: choose one to discard."),
    N_("Discard the {card}"),
    # the end of a game and the next of the match
    N_("You won!"),
    N_("{name}'s game"),
    N_("Join the next game of the match"),
    N_("Next game of the match"),
    N_("Loading…"),
    # the end screen's analysis (static/analysis.js)
    *ANALYSIS_MESSAGES,
    *MESSAGE_WORDS,  # the words of the protocol's messages (sorry.web.messages)
    # the players' pages and the account in the game page (people.js, account.js)
    *people_words.SCRIPT_MESSAGES,
    *play_words.SCRIPT_MESSAGES,  # the first game and following it (play_words)
    *tutorial_words.SCRIPT_MESSAGES,  # the tutorial (tutorial_words)
    *resign_words.SCRIPT_MESSAGES,  # resigning and undo (resign_words)
    *app_words.SCRIPT_MESSAGES,  # the sound effects, the chat's drawer (app_words)
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
        **people_words.plurals(),
        **app_words.plurals(),
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


def script_forms(lang: str) -> dict[str, object]:
    """The forms the script's messages may ask for (``[gen]{colour}``, see docs/i18n.md): the
    words it shows by their text in ``lang`` (the colours, START, HOME, the bot levels) ->
    {form: text}, and ``square`` -> the templates of a track square (``{n}``) with the
    numbers that have their own (``square-11``)."""
    table = forms_table(normalise(lang) or DEFAULT).get("words", {})
    tr = translation(lang)
    named = {key: message for key, message in zip(COLOUR_KEYS, COLOUR_NAMES, strict=True)}
    named.update(start=N_("START"), home=N_("HOME"))
    # the other words are the bot levels, whose English names are their keys
    named.update({k: k for k in table if k not in named and not k.startswith(("square", "safety"))})
    words = {tr.gettext(m): table[key] for key, m in named.items() if key in table}
    squares = {k.removeprefix("square-"): v for k, v in table.items() if k.startswith("square-")}
    return {"words": words, "square": table.get("square", {}), "squares": squares}


def square_table(lang: str) -> dict[str, object]:
    """The track squares as a player sees the board (``sorry.describe.square_words``) in
    ``lang``: ``"-"`` -> every square's words for a spectator (colours named), and each
    colour's letter -> the squares said otherwise to that player (``your Safety Zone``)."""
    with using(lang):
        seen = [square_words(s) for s in range(TRACK_LEN)]
        table: dict[str, object] = {"-": seen}
        for c in COLOURS:
            own = {str(s): square_words(s, c) for s in range(TRACK_LEN)}
            table[COLOUR_LETTERS[c]] = {k: v for k, v in own.items() if v != seen[int(k)]}
    return table


def script_catalog(lang: str) -> dict[str, object]:
    """The script's strings in ``lang``: msgid -> text, and for plurals the singular msgid
    -> [singular, plural] (every language served has the rule ``n != 1``)."""
    tr = translation(lang)
    out: dict[str, object] = {m: tr.gettext(m) for m in SCRIPT_MESSAGES}
    # the bot levels' sentences (sorry.bots.LEVEL_TABLE, sent in English by /api/meta)
    out.update({m: tr.gettext(m) for m in level_sentences().values()})
    # what each card does (sorry.describe.CARD_HELP, sent in English by /api/meta)
    out.update({m: tr.gettext(m) for m in CARD_HELP.values()})
    out.update({m: tr.gettext(m) for m in CARD_RULES.values()})  # and its sentence (howto)
    with using(lang):
        out.update(script_plurals())
    return out


_TEXT = re.compile(r">(\s*)([^<>]*?[^\s<>])(\s*)<")
_ATTR = re.compile(r'\b(placeholder|title|aria-label|alt)="([^"]*)"')


#: The pages served (``static/NAME.html``) and their scripts.
PAGES = {"index": "main", "people": "people", "learn": "tutorial", "rules": "rules"}


def rules_html(lang: str) -> str:
    """The rules in a player's words (:mod:`sorry.howto`) as the rules page's HTML, in
    ``lang``: a heading for each part, its paragraphs and lists."""
    out: list[str] = []
    listing = False
    with using(lang):
        parts = blocks()
    for kind, text in parts:
        if listing and kind != "li":
            out.append("</ul>")
            listing = False
        if kind == "li" and not listing:
            out.append("<ul>")
            listing = True
        tag = {"h": "h2", "p": "p", "li": "li"}[kind]
        out.append(f"<{tag}>{escape(text, quote=False)}</{tag}>")
    if listing:
        out.append("</ul>")
    return "\n".join(out)


@cache
def render_page(lang: str, page: str = "index") -> str:
    """``index.html`` (or another of :data:`PAGES`) in ``lang``: texts translated, ``lang``
    set, the language menu and the script's catalog added."""
    code = normalise(lang) or DEFAULT
    tr = translation(code)
    known = set(PAGE_MESSAGES) | set(people_words.PAGE_MESSAGES) | set(play_words.PAGE_MESSAGES)
    known |= set(tutorial_words.PAGE_MESSAGES) | set(resign_words.PAGE_MESSAGES)
    known |= set(app_words.PAGE_MESSAGES)

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

    html = (STATIC / f"{page}.html").read_text(encoding="utf-8")
    html = _ATTR.sub(attr, _TEXT.sub(text, html))
    if page == "rules":
        html = html.replace("<!--rules-->", rules_html(code), 1)
    for ident, label in ARIA_LABELS.items():
        html = html.replace(
            f'id="{ident}"', f'id="{ident}" aria-label="{escape(tr.gettext(label))}"', 1
        )
    html = re.sub(r'<html lang="[^"]*"', f'<html lang="{code}"', html, count=1)
    word = escape(tr.gettext("Language"))
    menu = [
        f'<label class="lang-menu"><span class="lang-word">{word}</span> <select id="lang-menu">'
    ]
    for c, name in LANGUAGES.items():
        selected = " selected" if c == code else ""
        menu.append(f'<option value="{c}" lang="{c}"{selected}>{escape(name)}</option>')
    menu.append("</select></label>")
    html = html.replace("</header>", "".join(menu) + "</header>", 1)
    catalog = {
        "lang": code,
        "messages": script_catalog(code),
        "forms": script_forms(code),
        "squares": square_table(code),
    }
    data = json.dumps(catalog, ensure_ascii=False)
    data = data.replace("</", "<\\/")
    # a data block, not a script: nothing inline runs (the page allows no inline script)
    extra = f'<script id="i18n-data" type="application/json">{data}</script>\n'
    # every page: the accessibility styles, and what makes the site an installable app
    html = html.replace(
        "</head>", '<link rel="stylesheet" href="/static/a11y.css">\n' + HEAD_LINKS + "</head>", 1
    )
    main = f'<script type="module" src="/static/{PAGES[page]}.js">'
    return html.replace(main, extra + main, 1)


__all__ = ["COOKIE", "render_page", "request_language", "request_language_from"]
