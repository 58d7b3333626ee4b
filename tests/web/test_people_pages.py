"""The players' pages (static/people.html, people.js, people.css) in Debian's chromium
at 390×844 first: the profile, the leaderboard and the account page, rendered from API answers
the test gives (the browser's requests are answered by the test, so only the page is tested),
with no serious axe violation, nothing wider than the screen, 44 px tap targets, and a player's
name that is HTML shown as text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import browser_kit
import pytest

pytest.importorskip("playwright")
pytestmark = [pytest.mark.browser]

WEB = Path(__file__).resolve().parents[2] / "src" / "sorry" / "web"
STATIC = WEB / "static"
PAGES = STATIC
BASE = "http://people.test"
SHOTS = Path("build/screenshots")

PLAYER = {
    "name": "Ann",
    "your_turn": 2,
    "ratings": {
        "standard": {"rating": 1587, "interval": 412, "games": 14, "provisional": False},
        "teams": {"rating": 1512, "interval": 880, "games": 2, "provisional": True},
    },
    "luck": {
        "games": 14,
        "sentence": "Over 14 games your cards were worth 0.4 wins more than average "
        "(95% interval -1.1 to 1.9): well within chance.",
    },
    "games": [
        {
            "id": "a1",
            "name": "Friday game",
            "variant": "standard",
            "status": "playing",
            "rated": True,
            "your_turn": True,
        },
        {
            "id": "a2",
            "name": "<img src=x onerror=alert(1)>",
            "variant": "standard",
            "status": "over",
            "rated": True,
            "won": True,
            "delta": 31,
        },
        {
            "id": "a3",
            "name": "",
            "variant": "teams",
            "status": "over",
            "rated": True,
            "won": False,
            "delta": -18,
        },
    ],
}
BOARD = {
    "variant": "standard",
    "players": [
        {"name": "Ann", "rating": 1587, "interval": 412, "games": 14},
        {"name": "Bob_the_Builder", "rating": 1540, "interval": 455, "games": 11},
    ],
    "provisional": [{"name": "Cyd", "rating": 1620, "interval": 930, "games": 2}],
}
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 160" width="360" height="160">'
    '<polyline points="40,100 200,80 350,60" fill="none" stroke="#1d5fa8" stroke-width="2"/></svg>'
)


def open_page(chromium: Any, path: str, session: dict[str, Any]) -> Any:
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def handle(route: Any) -> None:
        url = route.request.url[len(BASE) :]
        if url.startswith("/static/"):
            f = STATIC / url.split("?")[0][len("/static/") :]
            if not f.exists():
                f = PAGES / f.name
            ctype = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}
            route.fulfill(path=str(f), content_type=ctype.get(f.suffix[1:], "text/plain"))
        elif url.startswith("/api/session"):
            route.fulfill(json=session)
        elif url.startswith("/api/players/") and "rating.svg" in url:
            route.fulfill(body=SVG, content_type="image/svg+xml")
        elif url.startswith("/api/players/"):
            route.fulfill(json=PLAYER)
        elif url.startswith("/api/leaderboard"):
            route.fulfill(json=BOARD)
        elif url.startswith("/api/account"):
            route.fulfill(json={"webhook": "https://ntfy.sh/ann", "email": None})
        else:
            route.fulfill(path=str(PAGES / "people.html"), content_type="text/html")

    page.route(f"{BASE}/**", handle)
    page.goto(BASE + path)
    page.wait_for_load_state("networkidle")
    return page, errors


def check_layout(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    small = page.evaluate(
        """() => [...document.querySelectorAll('a, button, input, select, summary')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim() || e.id, e.getBoundingClientRect().height])
        .filter(([, h]) => h < 43.5)"""
    )
    assert small == []
    assert browser_kit.axe_violations(page) == []


@pytest.fixture(scope="module")
def chromium() -> Any:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=browser_kit.CHROMIUM, args=browser_kit.FLAGS)
        try:
            yield b
        finally:
            b.close()


def test_a_profile_on_a_phone(chromium: Any) -> None:
    page, errors = open_page(chromium, "/u/Ann", {"account": {"name": "Ann"}, "csrf": "c"})
    page.wait_for_selector("#games li")
    assert page.inner_text("#profile-name") == "Ann"
    assert page.inner_text("#your-turn") == "Your turn in 2 games"
    assert page.inner_text("#rating-line").startswith("1587 ± 412, 14 rated games")
    assert "well within chance" in page.inner_text("#luck-line")
    # a game's name that is HTML is shown as text
    assert "<img src=x onerror=alert(1)>" in page.inner_text("#games")
    assert page.locator("#games img").count() == 0
    graph = page.locator("#rating-graph").bounding_box()
    assert graph is not None and graph["width"] >= 330 and graph["height"] >= 140
    # the teams tab: provisional
    page.click("#variant-tabs button:nth-child(2)")
    assert "Provisional" in page.inner_text("#rating-line")
    check_layout(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.click("#variant-tabs button:nth-child(1)")
    page.screenshot(path=str(SHOTS / "profile-390.png"), full_page=True)
    assert errors == []


def test_the_leaderboard_on_a_phone(chromium: Any) -> None:
    page, errors = open_page(chromium, "/leaderboard?variant=standard", {"account": None})
    page.wait_for_selector("#board-rows tr")
    rows = page.locator("#board-rows tr").all_inner_texts()
    assert [r.split("\t")[:2] for r in rows] == [["1", "Ann"], ["2", "Bob_the_Builder"]]
    assert page.inner_text("#provisional").startswith("Cyd")
    check_layout(page)
    page.screenshot(path=str(SHOTS / "leaderboard-390.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize("logged_in", [False, True])
def test_the_account_page_on_a_phone(chromium: Any, logged_in: bool) -> None:
    session = {"account": {"name": "Ann"}, "csrf": "c"} if logged_in else {"account": None}
    page, errors = open_page(chromium, "/account", session)
    page.wait_for_selector("#settings:not([hidden])" if logged_in else "#login-panel")
    assert page.is_visible("#settings") == logged_in
    assert page.is_visible("#login-form") != logged_in
    if logged_in:
        assert page.input_value("#webhook") == "https://ntfy.sh/ann"
    check_layout(page)
    page.screenshot(
        path=str(SHOTS / f"account-{'in' if logged_in else 'out'}-390.png"), full_page=True
    )
    assert errors == []
