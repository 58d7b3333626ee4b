"""Fixtures for the web server tests: an app on a fresh SQLite database (or PostgreSQL) and a
TestClient. The helpers they use, and that tests import, are in ``tests/server_helpers.py``."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")  # the web extra; CI installs every extra

from browser_kit import CHROMIUM, FLAGS
from starlette.testclient import TestClient

from server_helpers import (  # noqa: F401 (the others: for tests that still import them here)
    ServerProcess,
    fast_settings,
    free_port,
    generous_limits,
    hello,
    new_game,
    play,
    receive,
    recv,
    track,
)
from sorry.web import create_app


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'web.db'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    app = create_app(sqlite_url, fast_settings())
    with TestClient(app) as c:
        yield c


def postgres_base_url() -> str:
    """SORRY_TEST_POSTGRES_URL, else the CI machine's server."""
    return os.environ.get("SORRY_TEST_POSTGRES_URL") or "postgresql://postgres@127.0.0.1:5432/test"


def postgres_required() -> bool:
    return bool(os.environ.get("SORRY_TEST_POSTGRES_URL")) or os.environ.get("CI") == "true"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema, dropped afterwards. Under CI=true
    (or with SORRY_TEST_POSTGRES_URL set) an unreachable server fails the test."""
    base = postgres_base_url()
    import psycopg

    schema = "sorry_t_" + secrets.token_hex(5)
    try:
        conn = psycopg.connect(base, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        if postgres_required():
            pytest.fail(f"PostgreSQL at {base} is unreachable: {exc}")
        pytest.skip(f"PostgreSQL unreachable: {exc}")
    with conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


# -- the browser tests' chromium ---------------------------------------------------------
@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's chromium, one per test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The module's chromium, the pages a test opened closed after it: a page left open
    keeps its connection and its polling (a finished game's page asks for the analysis every
    1.5 s) while the next tests run. (A module's fixture that keeps a page for several tests
    opens it from ``chromium``.)"""
    before = set(chromium.contexts)
    yield chromium
    for ctx in chromium.contexts:
        if ctx not in before:
            ctx.close()
