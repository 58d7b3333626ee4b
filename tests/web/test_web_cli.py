"""``sorry serve`` on the command line (the server itself is run by the process tests)."""

from __future__ import annotations

from typing import Any

from sorry.cli import main
from sorry.web.db import default_database_url, normalise_url


def test_serve_rejects_bad_arguments(capsys: Any) -> None:
    assert main(["serve", "--port", "0"]) == 2
    assert "port" in capsys.readouterr().err
    assert main(["serve", "--bot-delay", "-1"]) == 2
    assert main(["serve", "--database", "mysql://x/y"]) == 2
    assert "unsupported database" in capsys.readouterr().err
    for bad, said in (
        (["--workers", "0"], "--workers"),
        (["--bot-time-limit", "0"], "--bot-time-limit"),
        (["--max-games", "0"], "--max-games"),
        (["--max-connections-per-address", "0"], "--max-connections-per-address"),
        (["--games-per-minute", "0"], "--games-per-minute"),
        (["--evict-after", "-1"], "--evict-after"),
    ):
        assert main(["serve", *bad]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err  # one clear line


def test_database_urls(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_database_url() == f"sqlite:///{tmp_path}/sorry/server.db"
    assert (tmp_path / "sorry").is_dir()
    assert normalise_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalise_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"


def test_page_loads_nothing_from_the_internet() -> None:
    import re
    from pathlib import Path

    import sorry.web

    static = Path(sorry.web.__file__).parent / "static"
    # text files (the app's icons are PNG images)
    files = sorted(f for f in static.rglob("*") if f.is_file() and f.suffix != ".png")
    assert {"index.html", "main.js", "app.css", "qrcode.mjs"} <= {f.name for f in files}
    for f in files:
        # code only: the vendored QR encoder's licence notice names its author's site
        code = "\n".join(
            line for line in f.read_text().splitlines() if not line.lstrip().startswith("//")
        )
        for url in re.findall(r"(?:https?:)?//[A-Za-z0-9.-]+\.[a-z]{2,}[^\s\"')]*", code):
            assert url.startswith("http://www.w3.org/"), (f.name, url)
        for module in re.findall(r'^import\b[^;]*?from\s*"([^"]+)"', code, re.M | re.S):
            assert module.startswith("./"), (f.name, module)  # every module is shipped here


def test_postgres_tests_fail_in_ci_when_the_server_is_unreachable(tmp_path: Any) -> None:
    """Under CI=true a missing PostgreSQL must fail the PostgreSQL tests, never skip them."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).parent
    env = dict(
        os.environ, CI="true", SORRY_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:9/test"
    )
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            f"{here / 'test_web_processes.py'}::test_postgres_database_layer",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert out.returncode != 0
    # pytest.fail in the fixture: reported as an error of the test, never as a skip
    assert "1 error" in out.stdout and "unreachable" in out.stdout
    assert "skipped" not in out.stdout
