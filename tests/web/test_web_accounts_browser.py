"""The whole account flow in Debian's chromium against a live ``sorry serve``: two players
register in two browser contexts (a phone at 390×844, a desktop at 1280×800), Ann creates a
rated standard game with two bots and invites Bob by his link, both play, the game ends (the
bots play for the players who are away: a turn timer and a takeover keep it short), the end
screen shows each rating change, both profiles show the game, the new ratings and the luck
line, the leaderboard lists both; Ann logs out and logs in again in a second context. An
invitation by name to a game of a day a move: found in the lobby, the seat taken by the session
alone, "your turn in 1 game", a chat line reported, its writer blocked (her lines hidden, her
invitations refused). The players' pages are axe-clean, fit a phone (no sideways scroll, 44 px
targets) and show a player's name that is HTML as text."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import browser_kit
import pytest
from browser_kit import (
    Tapper,
    axe_violations,
    body,
    context,
    open_chat,
    shot,
    watch_errors,
)

pytest.importorskip("playwright")
pytestmark = [pytest.mark.browser]

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    old = os.environ.get("SORRY_ANALYSIS_ROLLOUTS")
    os.environ["SORRY_ANALYSIS_ROLLOUTS"] = "4"  # the profiles' luck: a quick analysis
    srv = browser_kit.start_server(
        tmp_path_factory.mktemp("accounts"),
        "--takeover-after",
        "1",
        "--timer-scale",
        "0.05",
    )
    try:
        yield srv
    finally:
        srv.stop()
        if old is None:
            del os.environ["SORRY_ANALYSIS_ROLLOUTS"]
        else:
            os.environ["SORRY_ANALYSIS_ROLLOUTS"] = old


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=browser_kit.CHROMIUM, args=browser_kit.FLAGS)
        try:
            yield b
        finally:
            b.close()


SMALL = """() => [...document.querySelectorAll('a, button, input, select, summary')]
  .filter(e => { const r = e.getBoundingClientRect();
     return r.width > 0 && r.height > 0 && !e.closest('[hidden]')
       && !(e.closest('details:not([open])') && !e.matches('summary')); })
  .map(e => [e.id || e.textContent.trim(), Math.round(e.getBoundingClientRect().height)])
  .filter(([, h]) => h < 44)"""


def fits(page: Any, width: int) -> None:
    """No sideways scroll; on a phone every target is 44 px tall; axe finds nothing serious."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if width < 500:
        assert page.evaluate(SMALL) == []
    assert axe_violations(page) == []


def register(page: Any, base: str, name: str) -> None:
    page.goto(base + "/account")
    page.fill("#register-name", name)
    page.fill("#register-password", PASSWORD)
    page.click("#register-form button[type=submit]")
    page.wait_for_url(re.compile(r"/u/"))
    page.wait_for_selector("body[data-ready=yes]")
    assert page.inner_text("#nav-account") == name


def test_register_play_rated_see_the_change_and_the_profiles(server: Any, chromium: Any) -> None:
    base = server.base
    ann_ctx = context(chromium, "phone")
    bob_ctx = context(chromium, "desktop")
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    errors = watch_errors(ann) + watch_errors(bob)
    try:
        # the account page before logging in, on a phone
        ann.goto(base + "/account")
        ann.wait_for_selector("body[data-ready=yes]")
        fits(ann, 390)
        shot(ann, "account-login-390")
        register(ann, base, "Ann")
        register(bob, base, "Bob")
        # Ann's new game: rated, Bob invited by link, two bots, a one-minute turn timer (30 s
        # ran out under load between Ann's move and Bob's tap, marking Bob away)
        ann.goto(base + "/")
        ann.wait_for_selector("#rated")
        ann.select_option("#seat-R", "me")
        ann.select_option("#seat-B", "invite")
        ann.select_option("#seat-Y", "bot:medium")
        ann.select_option("#seat-G", "bot:easy")
        ann.select_option("#start-mode", "full")
        ann.select_option("#timer", "60")
        ann.check("#rated")
        shot(ann, "lobby-account-390")
        ann.click("#create-btn")
        ann.wait_for_url(re.compile(r"/g/"))
        gid = ann.url.rsplit("/", 1)[1].split("#")[0]
        link = ann.evaluate(f"JSON.parse(localStorage.getItem('sorry:{gid}')).links.B")
        assert link and "#seat=B&token=" in link
        # Bob opens the link, joins with his account
        bob.goto(link)
        bob.click("#join-btn")
        bob.wait_for_function("() => document.body.dataset.started === 'yes'")
        seats = ann.evaluate(
            f"fetch('/api/games/{gid}').then(r => r.json()).then(g => g.seats.map(s => s.account))"
        )
        assert seats == ["Ann", "Bob", None, None]
        # each plays a move by tapping on the board
        Tapper(ann).turn(timeout=120)
        Tapper(bob, touch=False).turn(timeout=120)
        # Bob goes away (a takeover bot plays for him); Ann stays, idle: her timer runs out
        # and a bot plays for her until the end
        bob.goto(base + "/leaderboard")
        ann.wait_for_function("() => document.body.dataset.status === 'over'", timeout=420_000)
        ann.wait_for_selector("#rating-change li", timeout=60_000)
        changes = ann.locator("#rating-change li").all_inner_texts()
        assert len(changes) == 2 and all("→" in c for c in changes)
        shot(ann, "end-rating-390")
        # Bob's view of the end at 1280×800, with his session (no link needed any more)
        bob.goto(f"{base}/g/{gid}")
        bob.wait_for_selector("#rating-change li")
        assert body(bob, "status") == "over"
        shot(bob, "end-rating-1280")
        # both profiles: the game, the rating, the luck line (once the analysis is done)
        for page, name, width in ((ann, "Ann", 390), (bob, "Bob", 1280)):
            for _ in range(120):
                page.goto(f"{base}/u/{name}")
                page.wait_for_selector("body[data-ready=yes]")
                if page.inner_text("#luck-line").startswith("Over 1 game"):
                    break
                page.wait_for_timeout(1000)
            assert page.inner_text("#luck-line").startswith("Over 1 game")
            assert page.locator("#games li").count() == 1
            assert gid in page.get_attribute("#games li a", "href")
            assert re.match(r"\d+ ± \d+, 1 rated game", page.inner_text("#rating-line"))
            graph = page.locator("#rating-graph").bounding_box()
            assert graph is not None and graph["width"] >= 300
            fits(page, width)
            shot(page, f"profile-{width}")
        # the leaderboard: both, provisional after one game
        bob.goto(base + "/leaderboard?variant=standard")
        bob.wait_for_selector("#provisional li")
        names = bob.locator("#provisional li a").all_inner_texts()
        assert sorted(names) == ["Ann", "Bob"]
        fits(bob, 1280)
        shot(bob, "leaderboard-1280")
        # Ann logs out, and in again in a second context
        ann.goto(base + "/account")
        ann.wait_for_selector("#settings:not([hidden])")
        fits(ann, 390)
        shot(ann, "account-settings-390")
        ann.click("#logout")
        ann.wait_for_selector("#login-panel:not([hidden])")
        again_ctx = context(chromium, "phone")
        again = again_ctx.new_page()
        errors += watch_errors(again)
        again.goto(base + "/account")
        again.fill("#login-name", "ann")
        again.fill("#login-password", PASSWORD)
        again.click("#login-form button[type=submit]")
        again.wait_for_url(re.compile(r"/u/Ann"))
        again.wait_for_selector("body[data-ready=yes]")
        assert again.inner_text("#nav-account") == "Ann"
        assert again.locator("#games li").count() == 1
        again_ctx.close()
        assert errors == []
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_a_wrong_password_is_said_in_the_pages_language(server: Any, chromium: Any) -> None:
    ctx = context(chromium, "phone", locale="el-GR", extra_http_headers={"Accept-Language": "el"})
    page = ctx.new_page()
    try:
        page.goto(server.base + "/account")
        page.wait_for_selector("body[data-ready=yes]")
        assert page.get_attribute("html", "lang") == "el"
        page.fill("#login-name", "Nobody")
        page.fill("#login-password", "not the password")
        page.click("#login-form button[type=submit]")
        page.wait_for_function("() => document.getElementById('login-error').textContent !== ''")
        said = page.inner_text("#login-error")
        assert said and said != "wrong name or password"
        shot(page, "account-el-390")
        fits(page, 390)
    finally:
        ctx.close()


def test_a_name_that_is_html_cannot_be_registered(server: Any, chromium: Any) -> None:
    ctx = context(chromium, "phone")
    page = ctx.new_page()
    try:
        page.goto(server.base + "/account")
        page.fill("#register-name", "<img src=x onerror=alert(1)>")
        page.fill("#register-password", PASSWORD)
        page.click("#register-form button[type=submit]")
        page.wait_for_function("() => document.getElementById('register-error').textContent !== ''")
        assert "letters, digits" in page.inner_text("#register-error")
        assert page.locator("img[src=x]").count() == 0
    finally:
        ctx.close()


def test_invite_by_name_your_turn_report_and_block(
    server: Any, chromium: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ann invites Bob from his profile to a game of a day a move; Bob finds it in his lobby
    and takes his seat with his session alone; once Ann has moved, his lobby says it is his
    turn; he reports Ann's chat line, then blocks her on her profile: her lines are hidden on
    his game page, and she can no longer invite him."""
    base = server.base
    ann_ctx = context(chromium, "phone")
    bob_ctx = context(chromium, "desktop")
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    errors = watch_errors(ann) + watch_errors(bob)
    try:
        register(ann, base, "Cleo")
        register(bob, base, "Dan")
        # from Dan's profile: "Invite to a game" opens the lobby with his name filled in
        ann.goto(base + "/u/Dan")
        ann.wait_for_selector("body[data-ready=yes]")
        ann.click("#profile-actions a")
        ann.wait_for_selector("#invite-account")
        assert ann.input_value("#invite-account") == "Dan"
        ann.select_option("#seat-R", "me")
        ann.select_option("#seat-B", "invite")
        ann.select_option("#seat-Y", "none")
        ann.select_option("#seat-G", "none")
        ann.select_option("#start-mode", "full")
        ann.select_option("#per-move", "86400")
        assert ann.is_visible("#on-timeout")
        fits(ann, 390)
        shot(ann, "lobby-invite-390")
        ann.click("#create-btn")
        ann.wait_for_url(re.compile(r"/g/"))
        gid = ann.url.rsplit("/", 1)[1].split("#")[0]
        # Dan's lobby: the invitation; his session alone takes the seat
        bob.goto(base + "/")
        bob.wait_for_selector("#waiting-for-you a")
        bob.click("#waiting-for-you a")
        bob.wait_for_url(re.compile(f"/g/{gid}"))
        bob.click("#join-btn")
        bob.wait_for_function(
            "() => document.body.dataset.started === 'yes'"
            " && document.body.dataset.role === 'player'"
        )
        # Cleo moves (if the game begins with her) until it is Dan's turn
        cleo = Tapper(ann)
        for _ in range(600):
            if body(bob, "myTurn") == "yes":
                break
            if body(ann, "myTurn") == "yes":
                cleo.turn(timeout=60)
            bob.wait_for_timeout(200)
        assert body(bob, "myTurn") == "yes"
        bob.goto(base + "/")
        bob.wait_for_selector("#waiting-for-you .your-turn a")
        assert bob.inner_text("#waiting-for-you .your-turn") == "Your turn in 1 game"
        fits(bob, 1280)
        shot(bob, "lobby-your-turn-1280")
        # Cleo says something; Dan reports it
        open_chat(ann)  # a phone: the chat is a drawer
        ann.fill("#chat-input", "you will lose")
        ann.click("#chat-send")
        bob.goto(f"{base}/g/{gid}")
        bob.wait_for_selector("#chat-log li[data-colour=R] .report")
        bob.click("#chat-log li[data-colour=R] .report")
        bob.wait_for_function(
            "() => document.querySelector('#chat-log li[data-colour=R] .report')"
            ".textContent === 'Reported'"
        )
        assert bob.locator("#chat-log li[data-colour=R] .report").is_disabled()
        # a new line draws the chat again: the line reported stays reported, the new one can be
        ann.fill("#chat-input", "and again")
        ann.click("#chat-send")
        bob.wait_for_function(
            "() => document.querySelectorAll('#chat-log li[data-colour=R] .report').length === 2"
        )
        buttons = bob.locator("#chat-log li[data-colour=R] .report")
        assert buttons.nth(0).inner_text() == "Reported" and buttons.nth(0).is_disabled()
        assert buttons.nth(1).inner_text() == "Report" and buttons.nth(1).is_enabled()
        from sorry.cli import main

        assert main(["admin", "reports", "--database", server.database]) == 0
        assert f"game {gid} [open] Cleo: you will lose" in capsys.readouterr().out
        # Dan blocks Cleo on her profile: her lines are hidden on his page
        bob.goto(base + "/u/Cleo")
        bob.wait_for_selector("body[data-ready=yes]")
        bob.click("#profile-actions button")
        bob.wait_for_function(
            "() => document.querySelector('#profile-actions button')"
            ".textContent.startsWith('Unblock')"
        )
        bob.goto(f"{base}/g/{gid}")
        bob.wait_for_function("() => document.body.dataset.started === 'yes'")
        bob.wait_for_timeout(500)
        assert "you will lose" not in bob.inner_text("#chat-log")
        assert "you will lose" in ann.inner_text("#chat-log")
        shot(bob, "game-blocked-chat-1280")
        # and Cleo cannot invite Dan any more
        status = ann.evaluate(
            """async () => {
              const s = await (await fetch('/api/session')).json();
              const r = await fetch('/api/games', {method: 'POST', headers: {
                'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf}, body: JSON.stringify({
                seats: [{colour: 'R', kind: 'invite'},
                        {colour: 'B', kind: 'invite', account: 'Dan'}]})});
              return r.status;
            }"""
        )
        assert status == 403
        assert errors == []
    finally:
        ann_ctx.close()
        bob_ctx.close()
