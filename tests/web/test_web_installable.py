"""The browser game as an installable app, seen by HTTP: the manifest (in the visitor's
language), linked from every page; the service worker at the site's root, its version a
digest of the files it keeps (a changed file, a new version) and every file it keeps served;
the offline page in the five languages. Chromium's view of it all:
test_web_installable_browser.py."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from sorry.i18n import LANGUAGES, translation
from sorry.web import app_words, installable


def test_the_manifest_names_the_app_in_the_visitors_language(client: TestClient) -> None:
    r = client.get("/manifest.webmanifest", headers={"accept-language": "el"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    data = json.loads(r.text)
    assert data["name"] == data["short_name"] == "Συγγνώμη!"
    assert data["lang"] == "el" and data["display"] == "standalone"
    assert data["start_url"] == "/" and data["scope"] == "/"
    assert (data["theme_color"], data["background_color"]) == ("#a8302a", "#f3efe3")
    english = client.get("/manifest.webmanifest").json()
    assert english["name"] == "Sorry!"
    assert english["description"].startswith("The board game Sorry!")


def test_the_icons_are_pngs_of_the_sizes_the_manifest_says(client: TestClient) -> None:
    icons = client.get("/manifest.webmanifest").json()["icons"]
    kinds = {(i["sizes"], i["purpose"]) for i in icons}
    assert kinds == {(s, p) for s in ("192x192", "512x512") for p in ("any", "maskable")}
    for icon in icons:
        r = client.get(icon["src"])
        assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n", icon
        width, height = int.from_bytes(r.content[16:20]), int.from_bytes(r.content[20:24])
        assert f"{width}x{height}" == icon["sizes"]


def test_the_icons_are_drawn_from_the_favicon() -> None:
    """scripts/make_icons.py draws them from static/favicon.svg: the same bytes again."""
    import importlib.util

    script = Path(__file__).parents[2] / "scripts" / "make_icons.py"
    spec = importlib.util.spec_from_file_location("make_icons", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    folder = installable.STATIC / "icons"
    for name, data in module.icons().items():
        assert (folder / name).read_bytes() == data, f"{name}: run scripts/make_icons.py"


@pytest.mark.parametrize("path", ["/", "/g/abc", "/learn", "/rules", "/account", "/leaderboard"])
def test_every_page_links_the_manifest_and_registers_the_worker(
    client: TestClient, path: str
) -> None:
    html = client.get(path).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<script type="module" src="/static/install.js"></script>' in html
    assert '<meta name="theme-color" content="#a8302a">' in html


def test_the_worker_keeps_every_file_of_the_shell(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200 and "javascript" in r.headers["content-type"]
    assert r.headers["cache-control"] == "no-cache"
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', r.text)
    assert version and version.group(1) == installable.shell_version()
    listed = re.search(r"const SHELL = (\[.*?\]);", r.text, re.S)
    assert listed
    shell = json.loads(listed.group(1))
    assert "/offline" in shell and "/static/main.js" in shell and "/static/app.css" in shell
    assert "/static/icons/maskable-512.png" in shell and "/static/sw.js" not in shell
    for url in shell:
        assert client.get(url).status_code == 200, url


def test_the_static_files_are_revalidated(client: TestClient) -> None:
    """Every use of a page's file asks the server (a 304 when unchanged): a browser never runs
    a script it kept from before an update, with or without the service worker."""
    r = client.get("/static/main.js")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    again = client.get("/static/main.js", headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304


def test_a_changed_file_makes_a_new_version(tmp_path: Path, monkeypatch: Any) -> None:
    """The browser replaces its worker when /sw.js changes: any file it keeps, changed,
    changes it (and the cache it keeps them in)."""
    before = installable.worker_script()
    copy = tmp_path / "static"
    shutil.copytree(installable.STATIC, copy)
    monkeypatch.setattr(installable, "STATIC", copy)
    for cached in (installable.shell_version, installable.worker_script):
        cached.cache_clear()
    try:
        assert installable.worker_script() == before  # the same files, the same worker
        main = copy / "main.js"
        main.write_text(main.read_text(encoding="utf-8") + "\n// changed\n", encoding="utf-8")
        for cached in (installable.shell_version, installable.worker_script):
            cached.cache_clear()
        after = installable.worker_script()
        assert after != before
        version = re.compile(r'const VERSION = "(\w+)";')
        old, new = version.search(before), version.search(after)
        assert old and new and old.group(1) != new.group(1)
    finally:
        for cached in (installable.shell_version, installable.worker_script):
            cached.cache_clear()


def test_the_offline_page_is_in_the_five_languages(client: TestClient) -> None:
    r = client.get("/offline")
    assert r.status_code == 200
    html = r.text
    for code in LANGUAGES:
        tr = translation(code)
        article = re.search(rf'<article [^>]*lang="{code}"[^>]*>(.*?)</article>', html, re.S)
        assert article, code
        for message in app_words.OFFLINE_MESSAGES:
            text = tr.gettext(message)
            assert text in article.group(1).replace("&#x27;", "'"), (code, text)
            if code != "en":
                assert text != message, f"{code}: {message!r} is not translated"
    assert '<script type="module" src="/static/offline.js"></script>' in html
