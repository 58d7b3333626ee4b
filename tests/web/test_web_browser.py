"""End-to-end: real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright against
``sorry serve`` in a subprocess. Two browser players and two bots play a whole game; one player
reloads mid-game; a spectator watches and never sees a hand or a move list."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def server(tmp_path: Any) -> Iterator[ServerProcess]:
    s = ServerProcess(
        f"sqlite:///{tmp_path / 'e2e.db'}", "--bot-delay", "0.02", "--takeover-after", "3600"
    )
    try:
        yield s
    finally:
        s.stop()


def body(page: Any, key: str) -> str | None:
    value: str | None = page.evaluate(f"document.body.dataset.{key} || null")
    return value


def test_create_page_makes_a_game_with_invite_links(server: ServerProcess, browser: Any) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("#seat-Y option", state="attached")
    page.fill("#game-name", "Browser made")
    page.select_option("#seat-R", "me")
    page.select_option("#seat-B", "invite")
    page.select_option("#seat-Y", "bot:easy")
    page.check("#public")
    page.click("#create-btn")
    page.wait_for_selector("#created:not([hidden])")
    links = page.locator(".invite-link")
    assert links.count() == 1 and "#seat=B&token=" in links.first.input_value()
    page.click("#go-to-game")
    page.wait_for_selector("#join-btn")
    page.fill("#name-input", "Maker")
    page.click("#join-btn")
    page.wait_for_function("document.body.dataset.role === 'player'")
    assert "#" not in page.url  # the token was taken off the address bar
    page.goto(server.base + "/")
    page.wait_for_selector("#lobby-list a")
    assert "Browser made" in page.inner_text("#lobby-list")
    assert not errors


def test_two_browsers_two_bots_reload_and_spectator(server: ServerProcess, browser: Any) -> None:
    g = server.api(
        "/api/games",
        {
            "name": "e2e",
            "seats": [
                {"colour": "R", "kind": "invite"},
                {"colour": "B", "kind": "bot", "level": "medium"},
                {"colour": "Y", "kind": "invite"},
                {"colour": "G", "kind": "bot", "level": "medium"},
            ],
        },
    )
    links = {s["colour"]: s["link"] for s in g["seats"] if "link" in s}
    pages: dict[str, Any] = {}
    errors: list[str] = []
    for seat, name in (("R", "Ann"), ("Y", "Yan")):
        ctx = browser.new_context()
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(links[seat].replace("http://testserver", server.base))
        page.wait_for_selector("#join-btn")
        page.fill("#name-input", name)
        page.click("#join-btn")
        page.wait_for_function("document.body.dataset.role === 'player'")
        pages[seat] = page
    spectator = browser.new_context().new_page()
    spectator.on("pageerror", lambda e: errors.append(str(e)))
    spectator.goto(f"{server.base}/g/{g['id']}")
    spectator.wait_for_function("document.body.dataset.role === 'spectator'")

    clicks = {"R": 0, "Y": 0}
    reloaded = False
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if all(body(p, "status") == "over" for p in pages.values()):
            break
        for seat, page in pages.items():
            if body(page, "toMove") != seat or body(page, "status") != "playing":
                continue
            buttons = page.locator("#moves button:not([disabled])")
            if buttons.count() == 0:
                continue
            seq = body(page, "seq")
            try:
                buttons.first.click(timeout=2000)
            except Exception:
                continue  # the state moved on under us: the page re-renders
            clicks[seat] += 1
            page.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=10000)
            if not reloaded and clicks["R"] == 5 and seat == "R":
                # a reload mid-game resumes where it was, still seated, without a link
                before = int(body(page, "seq") or 0)
                page.reload()
                page.wait_for_function("document.body.dataset.role === 'player'")
                assert int(body(page, "seq") or 0) >= before
                assert "You are Red" in page.inner_text(
                    "#status"
                ) or "you are Red" in page.inner_text("#status")
                reloaded = True
        # the spectator sees the board but never a hand or a move to make
        assert spectator.locator("#hand .card").count() == 0
        assert spectator.locator("#moves button").count() == 0
        time.sleep(0.02)
    assert reloaded and clicks["R"] > 5 and clicks["Y"] > 0
    for page in [*pages.values(), spectator]:
        page.wait_for_function("document.body.dataset.status === 'over'", timeout=20000)
        assert "won" in page.inner_text("#status")
        assert page.locator("#log li").count() > 20
    final_seq = body(spectator, "seq")
    assert body(pages["R"], "seq") == final_seq == body(pages["Y"], "seq")
    # a finished game replays move by move and downloads as a record
    page = pages["Y"]
    page.click("#replay-btn")
    page.wait_for_function("document.body.dataset.replayAt === '0'")
    page.click("#replay-next")
    page.wait_for_function("document.body.dataset.replayAt === '1'")
    with page.expect_download() as dl:
        page.click("#download")
    assert dl.value.suggested_filename.endswith(".json")
    # the next game of the match: both players land in it, seated, without a new link
    page.click("#rematch-btn")
    for p in pages.values():
        p.wait_for_selector("#next-game:not([hidden])")
        assert "Match: 1 game played" in p.inner_text("#match")
        p.click("#next-game")
        p.wait_for_function("document.body.dataset.role === 'player'")
        assert p.locator("#join-btn").count() == 0 or not p.locator("#join").is_visible()
    assert not errors
