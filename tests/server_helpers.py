"""Shared helpers for the web server's tests: settings no functional test reaches, creating
games over the API, speaking the WebSocket protocol (full states and deltas), and ``sorry
serve`` in a subprocess.

Import them with ``from server_helpers import fast_settings, hello, new_game`` (the fixtures
that use them are in ``tests/web/conftest.py``)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.testclient import TestClient

from sorry.web import Settings
from sorry.web.limits import LimitSettings
from sorry.web.protocol import apply_delta


def generous_limits(**kw: float) -> LimitSettings:
    """Per-address limits no functional test reaches (the tests share one address)."""
    for what in ("connect", "create", "hint", "replay", "state", "chat", "token"):
        kw.setdefault(f"{what}_rate", 1000.0)
        kw.setdefault(f"{what}_burst", 1000.0)
    kw.setdefault("connections", 1000)
    return LimitSettings(**kw)  # type: ignore[arg-type]


def fast_settings(**kw: Any) -> Settings:
    kw.setdefault("bot_delay", 0.0)
    kw.setdefault("auto_pass", False)  # the tests play their seats' passes themselves
    kw.setdefault("takeover_after", 3600.0)
    kw.setdefault("tick", 0.05)
    kw.setdefault("rate", 1000.0)
    kw.setdefault("burst", 1000.0)
    kw.setdefault("allow_bot_games", True)
    kw.setdefault("allowed_hosts", ("testserver",))  # the TestClient's Host
    kw.setdefault("hint_rate", 1000.0)
    kw.setdefault("hint_burst", 1000.0)
    kw.setdefault("limits", generous_limits())
    return Settings(**kw)


def new_game(
    client: TestClient,
    seats: dict[str, str] | None = None,
    variant: str = "standard",
    **extra: Any,
) -> dict[str, Any]:
    """Create a game: ``seats`` maps colour to invite/open/bot (or bot:LEVEL)."""
    seats = seats or {"R": "invite", "Y": "invite"}
    body: dict[str, Any] = {"variant": variant, "seats": [], **extra}
    for colour, kind in seats.items():
        k, _, level = kind.partition(":")
        seat: dict[str, Any] = {"colour": colour, "kind": k}
        if level:
            seat["level"] = level
        body["seats"].append(seat)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    data["tokens"] = {s["colour"]: s["token"] for s in data["seats"] if "token" in s}
    return data


def track(ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
    """Keep the state a client of ``ws`` has, as the page does (``net.js``): a full state
    as it comes, a ``delta`` applied to the last state (``sorry.web.protocol.apply_delta``,
    the log grown by its move), seats taken in. Returns ``msg``, or for a delta the whole
    state it leads to (type ``state``, with the log)."""
    if msg["type"] == "state":
        ws.sorry_state = msg
    elif msg["type"] == "delta":
        ws.sorry_state = apply_delta(ws.sorry_state, msg)
        return dict(ws.sorry_state)
    elif msg["type"] == "seats" and getattr(ws, "sorry_state", None) is not None:
        ws.sorry_state = {**ws.sorry_state, "seats": msg["seats"]}
    return msg


def receive(ws: Any) -> dict[str, Any]:
    """The next message, a delta expanded into the state it leads to (:func:`track`)."""
    return track(ws, ws.receive_json())


def recv(ws: Any, kind: str, limit: int = 500) -> dict[str, Any]:
    """Receive messages until one of type ``kind`` (others are skipped); deltas count as
    the states they lead to."""
    for _ in range(limit):
        msg = receive(ws)
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def recv_until(
    ws: Any, done: Callable[[dict[str, Any]], bool], seconds: float = 120.0
) -> dict[str, Any]:
    """Receive messages (deltas as the states they lead to) until ``done(msg)``; fail after
    ``seconds`` without one (generous: the machine may be loaded), never hang."""
    deadline = time.monotonic() + seconds
    got: queue.Queue[Any] = queue.Queue()
    while True:
        reader = threading.Thread(target=lambda: got.put(_receive_or_error(ws)), daemon=True)
        reader.start()
        try:
            msg = got.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"nothing awaited came in {seconds:.0f} s") from None
        if isinstance(msg, BaseException):
            raise msg
        if done(msg):
            result: dict[str, Any] = msg
            return result


def _receive_or_error(ws: Any) -> dict[str, Any] | BaseException:
    try:
        return receive(ws)
    except BaseException as exc:  # handed to the waiting test
        return exc


def hello(ws: Any, seat: str | None = None, token: str | None = None) -> dict[str, Any]:
    """Send hello; return the first full state."""
    msg: dict[str, Any] = {"type": "hello"}
    if seat is not None:
        msg.update(seat=seat, token=token)
    ws.send_json(msg)
    welcome = recv(ws, "welcome")
    assert welcome["seat"] == seat
    return recv(ws, "state")


def play(ws: Any, state: dict[str, Any], move: str) -> dict[str, Any]:
    """Send ``move`` at ``state``'s seq; expect it accepted; return the newest state after."""
    ws.send_json({"type": "move", "seq": state["seq"], "move": move})
    latest = state
    while True:
        msg = receive(ws)
        if msg["type"] == "state":
            latest = msg
        elif msg["type"] == "accepted":
            break
        elif msg["type"] in ("rejected", "error"):
            raise AssertionError(f"move {move} rejected: {msg}")
    while latest["seq"] < msg["seq"]:
        latest = recv(ws, "state")
    return latest


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``sorry serve`` in a subprocess on a free port of 127.0.0.1."""

    def __init__(self, database: str, *args: str, port: int | None = None) -> None:
        import subprocess
        import sys
        import time
        import urllib.request

        self.database = database
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        cmd = [sys.executable, "-m", "sorry", "serve", "--port", str(self.port)]
        cmd += ["--database", database, *args]
        # the tests all come from 127.0.0.1: the per-address limits must not refuse them
        # (tests/web/test_web_limits.py tests the limits themselves)
        if "--games-per-minute" not in args:
            cmd += ["--games-per-minute", "10000"]
        if "--max-connections-per-address" not in args:
            cmd += ["--max-connections-per-address", "10000"]
        # the tests play their seats' passes themselves, and follow the bots at once
        if "--auto-pass" not in args:
            cmd += ["--no-auto-pass"]
        if "--show-moves" not in args:
            cmd += ["--show-moves", "0"]
        import tempfile

        # not a pipe: a chatty server must not block on a full pipe
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the server)
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=self.errors)
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.base + "/api/meta", timeout=1).read()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    self.errors.seek(0)
                    err = self.errors.read().decode(errors="replace")
                    raise RuntimeError(f"server did not start: {err}") from None
                time.sleep(0.1)

    def api(self, path: str, body: Any = None) -> Any:
        import json
        import urllib.request

        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.base + path, data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def kill(self) -> None:
        import signal

        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except Exception:
                self.kill()
