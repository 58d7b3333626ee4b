"""A correspondence game on a live ``sorry serve``: Ann invites Bob by his account's name to a
game of an hour a move; when it becomes Bob's turn and he has no page of it open, his
notifications reach the local webhook receiver and the local SMTP receiver (started by the
test) once each, and not again after the server restarts; his profile and the lobby's account
say it is his turn; no takeover bot plays for him; when his time runs out (the clock is in the
database, so it survives the restart) the game waits, or a bot plays that move when the host
asked for one."""

from __future__ import annotations

import email
import email.policy
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import sqlalchemy as sa
from receivers import Receiver, smtp_receiver
from websockets.sync.client import connect

from server_helpers import ServerProcess

PASSWORD = "correct horse battery"


class Player:
    """An account's HTTP client (its cookies) on the server."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.http = httpx2.Client(base_url=base, timeout=30)
        r = self.http.post("/api/accounts", json={"name": name, "password": PASSWORD})
        if r.status_code == 409:  # after a restart: log in again
            r = self.http.post("/api/session", json={"name": name, "password": PASSWORD})
        assert r.status_code in (200, 201), r.text
        self.http.headers["X-CSRF-Token"] = r.json()["csrf"]

    def cookie(self) -> str:
        return f"sorry_session={self.http.cookies['sorry_session']}"

    def until(self, gid: str, seat: str, done: Any, seconds: float = 60.0) -> dict[str, Any]:
        """Sit at ``seat`` with the session and play its first legal move each turn until
        ``done(state)``; returns that state."""
        ws_url = self.base.replace("http://", "ws://") + f"/ws/{gid}"
        with connect(ws_url, additional_headers={"Cookie": self.cookie()}) as ws:
            ws.send(json.dumps({"type": "hello", "seat": seat}))
            state: dict[str, Any] | None = None
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                msg = json.loads(ws.recv(timeout=seconds))
                if msg["type"] == "state":
                    state = msg
                elif msg["type"] == "delta" and state is not None:
                    from sorry.web.protocol import apply_delta

                    state = apply_delta(state, msg)
                else:
                    continue
                assert state is not None
                if done(state):
                    return state
                view = state["view"]
                if view["to_move"] == seat and view["legal_moves"]:
                    move = view["legal_moves"][0]["move"]
                    ws.send(json.dumps({"type": "move", "seq": state["seq"], "move": move}))
        raise AssertionError("the awaited state did not come")


def server(db: str, smtp_port: int, *extra: str) -> ServerProcess:
    return ServerProcess(
        db,
        "--bot-delay",
        "0",
        "--webhook-allow",
        "127.0.0.1/32",
        "--smtp-host",
        "127.0.0.1",
        "--smtp-port",
        str(smtp_port),
        "--smtp-from",
        "games@example.org",
        "--smtp-security",
        "none",
        *extra,
    )


@pytest.fixture
def receivers() -> Iterator[tuple[Receiver, int, list[Any]]]:
    hook = Receiver()
    try:
        with smtp_receiver() as (port, mails):
            yield hook, port, mails
    finally:
        hook.close()


def wait_for(what: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        if time.monotonic() > deadline:
            raise AssertionError("it did not happen in time")
        time.sleep(0.1)


def test_your_turn_reaches_the_webhook_and_smtp_once_even_across_a_restart(
    tmp_path: Path, receivers: tuple[Receiver, int, list[Any]]
) -> None:
    hook, smtp_port, mails = receivers
    db = f"sqlite:///{tmp_path / 'c.db'}"
    srv = server(db, smtp_port)
    try:
        ann, bob = Player(srv.base, "Ann"), Player(srv.base, "Bob")
        r = bob.http.post(
            "/api/account/notifications", json={"webhook": hook.url, "email": "bob@example.org"}
        )
        assert r.status_code == 200, r.text
        seats = [
            {"colour": "R", "kind": "invite"},
            {"colour": "B", "kind": "invite", "account": "Bob"},
        ]
        room = {"start": "full", "per_move": 3600, "rated": True}
        g = ann.http.post("/api/games", json={"seats": seats, "room": room}).json()
        gid = g["id"]
        token = next(s["token"] for s in g["seats"] if s["colour"] == "R")
        assert ann.http.post(
            f"/api/games/{gid}/join", json={"seat": "R", "token": token}
        ).is_success
        assert bob.http.get("/api/account").json()["invitations"] == [gid]
        assert bob.http.post(f"/api/games/{gid}/join", json={"seat": "B"}).is_success
        # Ann plays until it is Bob's turn; Bob has no page open
        state = ann.until(
            gid, "R", lambda s: s["view"]["to_move"] == "B" and s["room"]["deadline_in"]
        )
        assert state["room"]["per_move"] == 3600 and 3500 < state["room"]["deadline_in"] <= 3600
        wait_for(lambda: len(hook.posts) >= 1 and len(mails) >= 1)
        time.sleep(3)  # the sender's next rounds: nothing more
        assert len(hook.posts) == 1 and len(mails) == 1
        _path, _headers, raw = hook.posts[0]
        payload = json.loads(raw)
        assert payload["event"] == "your_turn" and payload["game"] == gid
        assert payload["url"].endswith(f"/g/{gid}") and payload["your_turn"] == 1
        assert mails[0].rcpt_tos == ["bob@example.org"]
        mail = email.message_from_bytes(mails[0].content, policy=email.policy.default)
        assert f"/g/{gid}" in mail.get_body().get_content()  # type: ignore[union-attr]
        # it is Bob's turn on his profile and in the lobby's account; no takeover bot moved
        assert bob.http.get("/api/players/Bob").json()["your_turn"] == 1
        assert bob.http.get("/api/account").json()["your_turn"] == [gid]
        seq = state["seq"]
    finally:
        srv.stop()
    # a restart: nothing is sent again, the clock is still there
    srv = server(db, smtp_port)
    try:
        time.sleep(5)
        assert len(hook.posts) == 1 and len(mails) == 1

        def summary() -> dict[str, Any]:
            got: dict[str, Any] = httpx2.get(f"{srv.base}/api/games/{gid}", timeout=60).json()
            return got

        wait_for(lambda: summary()["room"]["deadline_in"] is not None, 10)  # read once loaded
        assert summary()["seq"] == seq  # nobody played for Bob
        assert 3400 < summary()["room"]["deadline_in"] <= 3600
        bob = Player(srv.base, "Bob")
        # Bob plays his move; Ann (no notifications chosen) gets none
        bob.until(gid, "B", lambda s: s["seq"] > seq and s["view"]["to_move"] == "R")
        time.sleep(3)
        assert len(hook.posts) == 1 and len(mails) == 1
    finally:
        srv.stop()


def expire(db: str, gid: str) -> None:
    """Make the game's move time run out (as if the hour had passed)."""
    engine = sa.create_engine(db)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE sorry_turns SET deadline = 1 WHERE game_id = :g"), {"g": gid})
    engine.dispose()


@pytest.mark.parametrize("on_timeout", ["wait", "bot"])
def test_a_move_whose_time_ran_out(tmp_path: Path, on_timeout: str) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    srv = ServerProcess(db, "--bot-delay", "0", "--takeover-after", "0")
    try:
        ann, bob = Player(srv.base, "Ann"), Player(srv.base, "Bob")
        seats = [
            {"colour": "R", "kind": "invite"},
            {"colour": "B", "kind": "invite", "account": "Bob"},
        ]
        room = {"start": "full", "per_move": 3600, "on_timeout": on_timeout}
        g = ann.http.post("/api/games", json={"seats": seats, "room": room}).json()
        gid = g["id"]
        token = next(s["token"] for s in g["seats"] if s["colour"] == "R")
        ann.http.post(f"/api/games/{gid}/join", json={"seat": "R", "token": token})
        bob.http.post(f"/api/games/{gid}/join", json={"seat": "B"})
        # Ann on the page, Bob away: the takeover after 0 s does not apply to this game
        state = ann.until(gid, "R", lambda s: s["view"]["to_move"] == "B")
        time.sleep(2)
        assert httpx2.get(f"{srv.base}/api/games/{gid}", timeout=60).json()["seq"] == state["seq"]
        expire(db, gid)
    finally:
        srv.stop()
    srv = ServerProcess(db, "--bot-delay", "0")
    try:
        # the clocks are looked at when the server starts: a bot plays Bob's move, or the
        # game waits
        deadline = time.monotonic() + (60 if on_timeout == "bot" else 6)
        moved = False
        while time.monotonic() < deadline and not moved:
            moved = (
                httpx2.get(f"{srv.base}/api/games/{gid}", timeout=60).json()["seq"] > state["seq"]
            )
            time.sleep(0.5)
        assert moved == (on_timeout == "bot")
    finally:
        srv.stop()
