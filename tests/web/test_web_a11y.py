"""Accessibility of the browser game, in headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright) against ``sorry serve``: axe-core (vendored in tests/vendor/axe-core, MPL-2.0)
finds no serious or critical violation on the main pages in every language; the game can be
played with the keyboard alone, the focus is visible, and each move is announced in a live
region; pawns carry their letter, so colour is never the only clue."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import browser_kit
import pytest

from server_helpers import ServerProcess

pytest.importorskip("starlette")
pytest.importorskip("playwright")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LANGS = ["en", "ca", "eo", "el", "sw"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = browser_kit.start_server(tmp_path_factory.mktemp("a11y"))
    try:
        yield s
    finally:
        s.stop()


def new_game(server: ServerProcess) -> tuple[str, dict[str, str]]:
    g = server.api(
        "/api/games",
        {
            "name": "a11y",
            "public": True,
            "seats": [
                {"colour": "R", "kind": "invite"},
                {"colour": "Y", "kind": "bot", "level": "random"},
            ],
        },
    )
    links = {
        s["colour"]: s["link"].replace("http://testserver", server.base)
        for s in g["seats"]
        if "link" in s
    }
    return g["id"], links


def open_page(browser: Any, url: str, lang: str, scheme: str = "light") -> tuple[Any, list[str]]:
    ctx = browser.new_context(
        locale=lang, extra_http_headers={"Accept-Language": lang}, color_scheme=scheme
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page, errors


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_serious_violations_on_the_main_pages(
    server: ServerProcess, browser: Any, lang: str, scheme: str
) -> None:
    # the lobby with its create form
    page, errors = open_page(browser, server.base + "/", lang, scheme)
    page.wait_for_selector("#seat-Y option", state="attached")
    assert page.evaluate("document.documentElement.lang") == lang
    assert browser_kit.axe_violations(page) == []
    # the waiting room of a game the host made, with its invitation, QR code and chat
    page.fill("#host-name", "Ann")
    page.select_option("#seat-B", "invite")
    page.click("#create-btn")
    page.wait_for_selector("#room:not([hidden]) .invite-link")
    page.click(".show-qr")
    browser_kit.open_chat(page)
    page.click(".phrase")
    page.wait_for_selector("#chat-log li")
    assert browser_kit.axe_violations(page) == []
    # a game, seated, a pawn chosen and its squares marked, every move listed
    _gid, links = new_game(server)
    page, errors = open_page(browser, links["R"], lang, scheme)
    page.wait_for_selector("#join-btn")
    page.click("#join-btn")
    page.wait_for_function("() => document.body.dataset.role === 'player'")
    page.wait_for_selector("#moves button", state="attached")
    page.click("#moves-panel summary")
    if page.locator(".pawn.movable").count():
        page.locator(".pawn.movable").first.click()
    assert browser_kit.axe_violations(page) == []
    # the same game watched by someone else
    spectator, more = open_page(browser, page.url.split("#")[0], lang, scheme)
    spectator.wait_for_function("() => document.body.dataset.role === 'spectator'")
    assert browser_kit.axe_violations(spectator) == []
    # the end of a game (its last move tapped: a pawn into a HOME that holds three), its replay
    g = browser_kit.preset_game(
        server.database,
        "R:H,H,H,s5 Y:S,S,40,48 R",
        base=server.base,
        card="1",
        seats={"R": "invite", "Y": "invite"},
    )
    end, last = open_page(browser, g["links"]["R"], lang, scheme)
    end.wait_for_selector("#join-btn")
    end.click("#join-btn")
    end.wait_for_function("() => document.body.dataset.role === 'player'")
    end.click('.pawn[data-loc="s5"]')
    end.click('.dest[data-place="RH"]')
    end.wait_for_selector("#over-panel:not([hidden])")
    assert browser_kit.axe_violations(end) == []
    end.click("#replay-btn")
    end.wait_for_function("() => document.body.dataset.replayAt === '0'", timeout=180000)
    end.click("#replay-next")
    end.wait_for_function("() => document.body.dataset.replayAt === '1'")
    assert browser_kit.axe_violations(end) == []
    assert not errors and not more and not last


def test_keyboard_play_focus_and_announcements(server: ServerProcess, browser: Any) -> None:
    _gid, links = new_game(server)
    page, errors = open_page(browser, links["R"], "ca")
    page.wait_for_selector("#join-btn")
    page.focus("#join-btn")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.role === 'player'")
    for _ in range(40):
        # Tab through the page to the first move and play it with Enter, no mouse
        page.wait_for_function(
            "() => document.body.dataset.toMove === 'R' && document.querySelector('#moves button')"
        )
        seq = page.evaluate("document.body.dataset.seq")
        if not page.evaluate("document.getElementById('moves-panel').open"):
            page.focus("#moves-panel summary")  # the list of moves opens from the keyboard
            page.keyboard.press("Enter")
        for _tab in range(200):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.closest('#moves') !== null"):
                break
        else:
            pytest.fail("the moves cannot be reached with Tab")
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("", "none")  # the focus is visible
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'")
        live = page.wait_for_function(
            "() => document.getElementById('live') && document.getElementById('live').textContent"
        ).json_value()
        assert live and ("Vermell" in live or "Groc" in live)  # announced, in Catalan
        movable = page.locator(".pawn.movable")
        if movable.count():
            break
        if page.evaluate("document.body.dataset.status") == "over":
            break
    # a movable pawn is a button for the keyboard; Enter selects it and filters the moves
    if page.locator(".pawn.movable").count():
        pawn = page.locator(".pawn.movable").first
        assert pawn.get_attribute("tabindex") == "0" and pawn.get_attribute("role") == "button"
        assert "es pot moure" in (pawn.get_attribute("aria-label") or "")
        pawn.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".pawn.selected")
        # the chosen pawn is no longer a target: the focus is on where it can go
        assert page.evaluate("!!document.activeElement.closest('#board [tabindex]')")
    # never colour alone: every pawn shows its letter and says its colour in words
    for p in page.locator(".pawn").all():
        assert (p.text_content() or "").strip() in ("R", "B", "Y", "G")
        assert p.get_attribute("aria-label")
    assert page.get_attribute("#live", "aria-live") == "polite"
    assert not errors


def test_language_menu_is_remembered(server: ServerProcess, browser: Any) -> None:
    ctx = browser.new_context(locale="el", extra_http_headers={"Accept-Language": "el"})
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#seat-Y option", state="attached")
    assert page.evaluate("document.documentElement.lang") == "el"  # the browser's language
    with page.expect_navigation():
        page.select_option("#lang-menu", "eo")
    page.wait_for_selector("#seat-Y option", state="attached")
    assert page.evaluate("document.documentElement.lang") == "eo"
    assert "Nova ludo" in page.inner_text("#lobby-page")
    assert "Ruĝa" in page.inner_text("#seat-choices")  # the script's strings too
    other = ctx.new_page()  # the choice holds for the next page (cookie)
    other.goto(server.base + "/")
    assert other.evaluate("document.documentElement.lang") == "eo"
    ctx.clear_cookies()  # and is restored from localStorage when the cookie is gone
    other.goto(server.base + "/")
    other.wait_for_function("() => document.documentElement.lang === 'eo'")
    other.wait_for_selector("#seat-Y option", state="attached")
    assert "Pardonu!" in other.inner_text("header")
