"""How long a newcomer waits for the first card: ``sorry serve`` in a subprocess with its
default settings (SQLite in a temporary folder; only the limit of new games per address and
minute lifted, as the benchmark makes twenty in a minute), Chromium (Debian's, through
Playwright) at each of the four sizes the browser game is checked at, the lobby opened and
**Play the computer** tapped (clicked on the desktop); the time from the tap until a card is
turned over in the middle of the board. ``--runs`` runs per size, a new game each, after one
run not counted (the browser's and the server's first page). Prints each size's median and
worst.

    python benchmarks/bench_first_game.py --runs 5
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

VIEWPORTS = {
    "phone": (390, 844, True),
    "phone-landscape": (844, 390, True),
    "tablet": (768, 1024, True),
    "desktop": (1280, 800, False),
}
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def first_card(browser: object, base: str, viewport: str) -> float:
    """Seconds from the tap on Play the computer to the first card on the board."""
    w, h, touch = VIEWPORTS[viewport]
    ctx = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": w, "height": h}, has_touch=touch, is_mobile=touch
    )
    try:
        page = ctx.new_page()
        page.goto(base + "/")
        page.wait_for_selector("#quick-level option", state="attached")
        began = time.perf_counter()
        page.tap("#quick-btn") if touch else page.click("#quick-btn")
        try:
            page.wait_for_selector("#board .centre-card .card-number", timeout=60000)
        except Exception:  # playwright's TimeoutError
            raise SystemExit(f"bench_first_game: no card 60 s after the tap ({viewport})") from None
        return time.perf_counter() - began
    finally:
        ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per size (5)")
    parser.add_argument("--port", type=int, default=0, help="the server's port (a free one)")
    args = parser.parse_args()
    if not args.port:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            args.port = s.getsockname()[1]
    from playwright.sync_api import sync_playwright

    folder = tempfile.mkdtemp(prefix="bench-first-")
    base = f"http://127.0.0.1:{args.port}"
    cmd = [sys.executable, "-m", "sorry", "serve", "--port", str(args.port)]
    # many games from one address in a minute: the limit of a public server set aside
    cmd += ["--database", f"sqlite:///{folder}/first.db", "--games-per-minute", "10000"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/api/meta", timeout=5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("bench_first_game: the server did not start") from None
                time.sleep(0.2)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            first_card(browser, base, "desktop")  # warming up, not counted
            print(f"load {os.getloadavg()[0]:.1f}; {args.runs} runs per size")
            print("| size | median | worst |")
            print("|---|---|---|")
            for viewport in VIEWPORTS:
                times = [first_card(browser, base, viewport) for _ in range(args.runs)]
                print(
                    f"| {viewport} | {statistics.median(times):.2f} s | {max(times):.2f} s |",
                    flush=True,
                )
            print(f"load {os.getloadavg()[0]:.1f}")
            browser.close()
    except KeyboardInterrupt:
        print("stopped")
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
