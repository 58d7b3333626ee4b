"""The browser game in every language: the page served per request (Accept-Language, the
language menu's cookie, ?lang=), the script's catalog, the board's text alternatives and the
words of moves sent over the WebSocket."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from server_helpers import fast_settings
from sorry.web import create_app
from sorry.web.protocol import apply_delta

#: Per language: the game's name, "New game with friends", "Create game", Red, "Square 4".
WORDS = {
    "en": ("Sorry!", "New game with friends", "Create game", "Red", "Square 4"),
    "ca": ("Ho sento!", "Partida nova amb amics", "Crea la partida", "Vermell", "Casella 4"),
    "eo": ("Pardonu!", "Nova ludo kun amikoj", "Krei ludon", "Ruĝa", "Kampo 4"),
    "el": (
        "Συγγνώμη!",
        "Νέο παιχνίδι με φίλους",
        "Δημιουργία παιχνιδιού",
        "Κόκκινο",
        "Τετράγωνο 4",
    ),
    "sw": ("Samahani!", "Mchezo mpya na marafiki", "Unda mchezo", "Nyekundu", "Kisanduku 4"),
}
ACCEPT = {
    "en": "en-GB,en;q=0.9",
    "ca": "ca-ES,ca;q=0.9,es;q=0.5",
    "eo": "eo",
    "el": "el-GR,el;q=0.9,en;q=0.3",
    "sw": "sw-KE,sw;q=0.9",
}


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'i18n.db'}", fast_settings())
    with TestClient(app) as c:
        yield c


def catalog(html: str) -> dict[str, Any]:
    m = re.search(r'<script id="i18n-data" type="application/json">(.*?)</script>', html, re.S)
    assert m is not None
    data: dict[str, Any] = json.loads(m.group(1))
    return data


@pytest.mark.parametrize("lang", list(WORDS))
def test_page_in_each_language(client: TestClient, lang: str) -> None:
    name, new_game, create, red, _square = WORDS[lang]
    for path in ("/", "/g/abc123"):
        r = client.get(path, headers={"Accept-Language": ACCEPT[lang]})
        assert r.status_code == 200
        html = r.text
        assert f'<html lang="{lang}"' in html and r.headers["content-language"] == lang
        assert "Accept-Language" in r.headers["vary"]
        assert f">{name}</a>" in html and f">{new_game}</h2>" in html and create in html
        assert '<select id="lang-menu">' in html
        assert f'value="{lang}" lang="{lang}" selected' in html
        data = catalog(html)
        assert data["lang"] == lang and data["messages"]["Red"] == red
        one, other = data["messages"]["{n} card to draw"]
        assert "{n}" in one and "{n}" in other


def test_cookie_and_query_choose_the_language(client: TestClient) -> None:
    client.cookies.set("sorry_lang", "sw")
    r = client.get("/", headers={"Accept-Language": "el"})
    assert '<html lang="sw"' in r.text  # the language menu's choice wins over the browser's
    r = client.get("/?lang=eo", headers={"Accept-Language": "el"})
    assert '<html lang="eo"' in r.text
    client.cookies.set("sorry_lang", "xx")
    r = client.get("/", headers={"Accept-Language": "ca"})
    assert '<html lang="ca"' in r.text  # a bad cookie is ignored
    client.cookies.clear()
    r = client.get("/", headers={"Accept-Language": "fr-FR,de;q=0.8"})
    assert '<html lang="en"' in r.text  # nothing we speak: English


@pytest.mark.parametrize("lang", list(WORDS))
def test_board_text_alternatives_in_each_language(client: TestClient, lang: str) -> None:
    name, _new, _create, red, square = WORDS[lang]
    svg = client.get(
        "/api/board.svg",
        params={"position": "R:S,S,4,s2 Y:12,33,40,H R"},
        headers={"Accept-Language": ACCEPT[lang]},
    ).text
    labels = re.findall(r'aria-label="([^"]*)"', svg)
    # the board, 60 squares, 20 Safety Zone squares, 8 START and HOME circles, 8 pawns
    assert len(labels) == 1 + 60 + 20 + 8 + 8
    assert name in labels[0]
    assert any(label.startswith(square) for label in labels)
    assert sum(red in label for label in labels) > 10
    # every drawn square and pawn is named; decoration is hidden from screen readers
    assert svg.count('class="sq"') == svg.count('class="sq" data-sq') == 60
    assert 'aria-hidden="true">4<' in svg


def test_moves_and_log_in_the_clients_language(client: TestClient) -> None:
    r = client.post(
        "/api/games",
        json={
            "variant": "standard",
            "seats": [
                {"colour": "R", "kind": "invite"},
                {"colour": "Y", "kind": "bot", "level": "random"},
            ],
        },
    )
    game = r.json()
    token = next(s["token"] for s in game["seats"] if s["colour"] == "R")
    texts = {}
    for lang in ("en", "ca", "el"):
        headers = {"Accept-Language": ACCEPT[lang], "Origin": "http://testserver"}
        with client.websocket_connect(f"/ws/{game['id']}", headers=headers) as ws:
            ws.send_json({"type": "hello", "seat": "R", "token": token})
            state = None
            log: list[dict[str, Any]] = []
            known: dict[str, Any] | None = None
            for _ in range(200):  # until Red has moves to choose (the bot may start)
                msg = ws.receive_json()
                if msg["type"] == "delta":  # what changed since the last state
                    assert known is not None
                    msg = apply_delta(known, msg)
                if msg["type"] == "state":
                    known = msg
                    log = msg.get("log") or log
                    if msg["view"]["legal_moves"]:
                        state = msg
                        break
            assert state is not None
            texts[lang] = [m["text"] for m in state["view"]["legal_moves"]]
            texts[lang + "-log"] = [e["text"] for e in log]
    assert texts["en"] and len(texts["en"]) == len(texts["ca"]) == len(texts["el"])
    # Red's moves name Red's pawns (or say the turn is lost, or decline an 11), in each
    # client's language, move by move.
    for en, ca, el in zip(texts["en"], texts["ca"], texts["el"], strict=True):
        if "declines the 11" in en:
            assert "renuncia a l'11" in ca and "αρνείται το 11" in el
        elif "legal move" in en:
            assert "moviment legal" in ca and "έγκυρη κίνηση" in el
        else:
            assert "Red" in en and "Vermell" in ca and "Κόκκινο" in el
    for en, ca in zip(texts["en-log"], texts["ca-log"], strict=False):
        assert ("Red" in en) == ("Vermell" in ca)  # the log, in the client's language too
        assert ("Yellow" in en) == ("Groc" in ca)


def test_every_script_string_is_in_the_catalog() -> None:
    """Each literal the page's script shows through t()/tn() is in SCRIPT_MESSAGES (so it is
    extracted, translated and sent to the page); index.html's texts are translated."""
    from pathlib import Path

    from sorry.web import i18n as web_i18n

    static = Path(web_i18n.__file__).with_name("static")
    modules = sorted(static.glob("*.js"))
    assert {"main.js", "i18n.js", "board.js", "panels.js"} <= {m.name for m in modules}
    script = "".join(m.read_text(encoding="utf-8") for m in modules)
    known = set(web_i18n.SCRIPT_MESSAGES) | set(web_i18n.script_plurals())
    used = set(re.findall(r'\btn?\("((?:[^"\\]|\\.)*)"', script))
    used |= set(
        re.findall(
            r"\b(?:stale|game_over|not_your_turn|illegal|server_error|rate_limited|"
            r'bad_token|no_game|not_started|chat_off|chat_rate): "([^"]*)"',
            script,
        )
    )
    # the chat's quick phrases, said in the reader's language
    phrases = re.search(r"export const PHRASES = \{(.*?)\};", script, re.S)
    assert phrases is not None
    said = re.findall(r'\w+: "([^"]*)"', phrases.group(1))
    assert len(said) == 8
    used |= set(said)
    # the rule options in words: the core's table, sent by /api/meta, shown through t()
    from sorry.rules import FORM_OPTIONS, OPTION_TABLE

    assert "meta.option_words" in script and "OPTION_WORDS" not in script
    for name in FORM_OPTIONS:
        o = OPTION_TABLE[name]
        used |= {o.label, *(o.value_words(v) for v in o.values)}
    assert {"Deck", "every slide"} <= used
    missing = sorted(u for u in used if u not in known)
    assert not missing, missing
    page = web_i18n.render_page("sw")
    for english in ("New game with friends", "Create game", "Your moves", "Game log", "Lobby"):
        assert f">{english}<" not in page


@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_page_names_every_track_square_as_a_player_sees_the_board(lang: str) -> None:
    """The catalog the page reads holds sorry.describe's words of each square: as a
    spectator reads them, and what differs for each player ("your Safety Zone")."""
    import json

    from sorry.describe import square_words
    from sorry.i18n import using
    from sorry.web.i18n import render_page

    page = render_page(lang)
    block = re.search(r'<script id="i18n-data" type="application/json">(.*?)</script>', page)
    assert block is not None
    squares = json.loads(block.group(1).replace("<\\/", "</"))["squares"]
    with using(lang):
        assert squares["-"] == [square_words(s) for s in range(60)]
        for k, letter in enumerate("RBYG"):
            own = {int(s): w for s, w in squares[letter].items()}
            assert 13 <= len(own) <= 15  # the squares by the player's own landmarks
            assert all(w == square_words(s, k) != square_words(s) for s, w in own.items())


@pytest.mark.parametrize("lang", ["en", "ca", "eo", "el", "sw"])
def test_the_rules_page_says_the_players_rules_in_each_language(
    client: TestClient, lang: str
) -> None:
    """/rules is sorry.howto's text (the words of docs/rules.md's "How to play") in the
    page's language, every part in order, and the lobby and the game page link to it."""
    from html import unescape

    from sorry.howto import blocks
    from sorry.i18n import using

    r = client.get(f"/rules?lang={lang}")
    assert r.status_code == 200 and f'<html lang="{lang}"' in r.text
    shown = [unescape(t) for t in re.findall(r"<(?:h2|p|li)>([^<]*)</(?:h2|p|li)>", r.text)]
    with using(lang):
        said = [text for _kind, text in blocks()]
    assert shown == said
    page = client.get(f"/?lang={lang}").text
    assert page.count('href="/rules"') == 2  # the lobby's and the game page's
