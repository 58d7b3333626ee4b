"""The browser game as an installable app in Chromium (Debian's, through Playwright), against
``sorry serve`` in a subprocess: the manifest parses and Chromium finds nothing missing to
install the app (CDP ``Page.getAppManifest``, ``Page.getInstallabilityErrors``); the service
worker registers and keeps the shell; with the network gone, a page's navigation shows the
offline page in the visitor's language; a server with a changed file serves a new worker,
which replaces the old one and its cache (the changed script is what the page then gets, even
offline). The offline page: axe clean in light and dark, tap targets, no sideways scroll, at
each size. Set SORRY_SCREENSHOTS=DIR to keep a screenshot of it at each size."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import (
    CHROMIUM,
    FLAGS,
    VIEWPORTS,
    axe_violations,
    check_sizes,
    context,
    shot,
    start_server,
)

from server_helpers import ServerProcess, free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT = 60000

#: the worker controls the page (after clients.claim())
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
CACHES = "async () => (await caches.keys()).filter((k) => k.startsWith('sorry-shell-')).sort()"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = start_server(tmp_path_factory.mktemp("app"))
    try:
        yield s
    finally:
        s.stop()


def until(page: Any, script: str, seconds: float = 60) -> None:
    """Wait until ``script`` (an async function: wait_for_function does not wait for its
    promise) answers true."""
    end = time.monotonic() + seconds
    while not page.evaluate(script):
        assert time.monotonic() < end, f"not true after {seconds} s: {script}"
        time.sleep(0.1)


def back_online(page: Any) -> bool:
    """Is the page the one asked for (not the offline page)? Else "Try again" (the page may be
    reloading meanwhile, by itself)."""
    from playwright.sync_api import Error

    try:
        page.wait_for_load_state("load")
        return bool(
            page.evaluate(
                "!document.querySelector('article.offline')"
                " || (document.querySelector('button.again:not([hidden])')?.click(), false)"
            )
        )
    except Error:  # the page went away as it was asked: it is reloading
        return False


def installed(page: Any) -> None:
    """Wait until the worker has kept the shell and controls the page."""
    until(page, "async () => (await navigator.serviceWorker.ready).active.state === 'activated'")
    page.wait_for_function(CONTROLLED, timeout=WAIT)


def test_chromium_can_install_the_app(browser: Any, server: ServerProcess, tmp_path: Path) -> None:
    # a profile of its own: Chromium installs no app from an incognito context (Playwright's
    # usual contexts)
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=FLAGS,
        viewport={"width": 1280, "height": 800},
    )
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        can_install(ctx, page, server)
    finally:
        ctx.close()


def can_install(ctx: Any, page: Any, server: ServerProcess) -> None:
    page.goto(server.base + "/", wait_until="load")
    installed(page)
    cdp = ctx.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == server.base + "/manifest.webmanifest"
    assert manifest["errors"] == [], manifest["errors"]
    parsed = manifest.get("manifest") or {}
    if parsed:  # newer Chromium: the manifest as it understood it
        assert parsed["startUrl"] == server.base + "/"
        assert parsed["display"].lower().endswith("standalone")
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    keys = page.evaluate(CACHES)
    assert len(keys) == 1, keys
    shell = page.evaluate(
        "async (k) => (await (await caches.open(k)).keys()).map((r) => new URL(r.url).pathname)",
        keys[0],
    )
    assert {"/offline", "/static/main.js", "/static/app.css", "/static/offline.js"} <= set(shell)


@pytest.mark.parametrize(
    ("lang", "title"), [("en", "You are offline"), ("el", "Δεν έχετε σύνδεση")]
)
def test_offline_a_page_shows_the_offline_page(
    browser: Any, server: ServerProcess, lang: str, title: str
) -> None:
    ctx = context(browser, "phone", locale="el-GR" if lang == "el" else "en-US")
    page = ctx.new_page()
    page.goto(server.base + "/rules", wait_until="load")
    installed(page)
    ctx.set_offline(True)
    page.goto(server.base + "/g/somegame", wait_until="load")
    page.wait_for_function(f"() => document.body.dataset.lang === '{lang}'", timeout=WAIT)
    assert page.locator(f"article[lang={lang}] h1").inner_text() == title
    assert page.locator("article.offline:visible").count() == 1
    assert page.evaluate("document.documentElement.lang") == lang
    # its styles came from the cache: the page is laid out as the game's pages are
    assert page.evaluate("getComputedStyle(document.querySelector('header')).display") == "flex"
    # "Try again" loads the page again (still offline: the offline page again)
    page.evaluate("window.beforeTrying = true")
    page.locator(f"article[lang={lang}] button.again").tap()
    page.wait_for_function("() => !window.beforeTrying", timeout=WAIT)
    page.wait_for_function(f"() => document.body.dataset.lang === '{lang}'", timeout=WAIT)
    assert page.url == server.base + "/g/somegame"
    # back online: the page the visitor asked for comes back (by itself when the browser says
    # it is online, else at "Try again")
    ctx.set_offline(False)
    end = time.monotonic() + 60
    while not back_online(page):
        assert time.monotonic() < end, "the page did not come back online"
        time.sleep(0.5)
    assert page.url == server.base + "/g/somegame"


def test_the_offline_page_follows_the_language_menu(browser: Any, server: ServerProcess) -> None:
    ctx = context(browser, "phone")
    ctx.add_cookies([{"name": "sorry_lang", "value": "sw", "url": server.base}])
    page = ctx.new_page()
    page.goto(server.base + "/rules", wait_until="load")
    installed(page)
    ctx.set_offline(True)
    page.goto(server.base + "/", wait_until="load")
    page.wait_for_function("() => document.body.dataset.lang === 'sw'", timeout=WAIT)
    assert page.locator("article[lang=sw] h1").inner_text() == "Huko mtandaoni"
    assert page.locator("header .logo").inner_text() == "Samahani!"


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_offline_page_fits_and_passes_axe(
    browser: Any, server: ServerProcess, viewport: str
) -> None:
    for scheme in ("light", "dark"):
        ctx = context(browser, viewport, color_scheme=scheme)
        page = ctx.new_page()
        page.goto(server.base + "/offline", wait_until="load")
        check_sizes(page, viewport, board=False)
        assert axe_violations(page) == [], (viewport, scheme)
        shot(page, f"offline-{viewport}-{scheme}")
        ctx.close()


def test_a_new_version_replaces_the_old(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's files change (a new version installed): the page's next visit finds the
    new worker, which takes over, keeps the new files and deletes the old cache."""
    import sorry

    copy = tmp_path / "v" / "sorry"
    shutil.copytree(
        Path(sorry.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__", "*.nb?")
    )
    monkeypatch.setenv("PYTHONPATH", str(copy.parent))
    port = free_port()
    database = f"sqlite:///{tmp_path / 'e2e.db'}"
    server = ServerProcess(database, port=port)
    ctx = context(browser, "phone")
    page = ctx.new_page()
    try:
        page.goto(server.base + "/rules", wait_until="load")
        installed(page)
        old = page.evaluate(CACHES)
        assert len(old) == 1, old
        assert "a new version" not in page.evaluate(
            "fetch('/static/rules.js').then((r) => r.text())"
        )
    finally:
        server.stop()
    script = copy / "web" / "static" / "rules.js"
    script.write_text(script.read_text() + "\n// a new version\n", encoding="utf-8")
    server = ServerProcess(database, port=port)
    try:
        page.goto(server.base + "/rules", wait_until="load")
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r && r.update())")
        # the new worker active, alone, its cache alone (the old one deleted)
        until(
            page,
            f"""async () => {{ const r = await navigator.serviceWorker.getRegistration();
          const k = await ({CACHES})();
          return !!r && !r.installing && !r.waiting && r.active.state === 'activated'
            && navigator.serviceWorker.controller?.scriptURL === r.active.scriptURL
            && k.length === 1 && k[0] !== {old[0]!r}; }}""",
        )
        assert "a new version" in page.evaluate("fetch('/static/rules.js').then((r) => r.text())")
        ctx.set_offline(True)  # the copy kept is the new one
        kept = page.evaluate("fetch('/static/rules.js').then((r) => r.text())")
        assert "a new version" in kept
        ctx.set_offline(False)
    finally:
        server.stop()
