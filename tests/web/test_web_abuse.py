"""Every abuse of the server we know of, reproduced, and the bound that holds it (docs/web.md,
Security): whole states asked again and again, a client that never reads, a turn timer
playing a game nobody is at, tokens and names that are not text, chat floods and spectators
passing for players, wrong tokens, half-sent HTTP requests, one address filling the lobby, and
closed connections kept in memory.
"""

from __future__ import annotations

import contextlib
import gc
import json
import socket
import threading
import time
import weakref
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server_helpers import (
    ServerProcess,
    fast_settings,
    free_port,
    generous_limits,
    hello,
    new_game,
    recv,
)
from sorry.web import create_app
from sorry.web.conn import Conn
from sorry.web.serving import uvicorn_options

SURROGATE = '"\\ud800"'  # a lone surrogate as JSON writes it: no UTF-8 encoder takes it


def app_client(sqlite_url: str, **kw: Any) -> TestClient:
    return TestClient(create_app(sqlite_url, fast_settings(**kw)))


# -- whole states ----------------------------------------------------------------------------
def test_whole_states_are_limited_per_connection_and_per_address(sqlite_url: str) -> None:
    limits = generous_limits(state_rate=0.01, state_burst=5)
    with app_client(sqlite_url, limits=limits) as c:
        g = new_game(c, {"R": "invite", "B": "bot"})
        with c.websocket_connect(f"/ws/{g['id']}") as a, c.websocket_connect(f"/ws/{g['id']}") as b:
            hello(a)
            hello(b)
            answers = []
            for _ in range(6):  # a connection has three whole states in a burst
                a.send_json({"type": "resync"})
                a.send_json({"type": "ping"})
                while True:
                    m = a.receive_json()
                    if m["type"] in ("state", "error"):
                        answers.append(m["type"] if m["type"] == "state" else m["code"])
                    if m["type"] == "pong":
                        break
            assert answers == ["state"] * 3 + ["rate_limited"] * 3
            for _ in range(4):  # the address has five: two left for the other connection
                b.send_json({"type": "resync"})
            kinds = []
            while len(kinds) < 4:
                m = b.receive_json()
                if m["type"] in ("state", "error"):
                    kinds.append(m["type"])
            assert kinds == ["state", "state", "error", "error"]


def test_a_whole_state_reuses_the_log_text(client: TestClient) -> None:
    """The log of a whole state is written once per language and grown by each move, not
    serialised again for every resync (a 470-move game's is most of its 112 KB)."""
    g = new_game(client, {"R": "bot", "B": "bot"})
    service = client.app.state.service  # type: ignore[attr-defined]
    live = service.live[g["id"]]
    deadline = time.monotonic() + 60
    while live.seq < 40 and time.monotonic() < deadline:
        time.sleep(0.05)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        first = hello(ws)
        kept = live.log_text["en"]
        ws.send_json({"type": "resync"})
        again = recv(ws, "state")
        assert len(again["log"]) >= len(first["log"]) >= 40
        if again["seq"] == first["seq"]:
            assert live.log_text["en"] is kept  # the same text object: nothing serialised


# -- slow readers ----------------------------------------------------------------------------
def test_a_client_that_does_not_read_is_dropped_by_bytes_and_its_queue_freed() -> None:
    conn = Conn(max_bytes=1000)
    for _ in range(9):
        conn.send_text("x" * 100)
    assert conn.queued_bytes == 900 and not conn.closed
    conn.send_text("x" * 200)  # over the allowance: dropped, what waited thrown away
    assert conn.dropped and conn.closed and conn.close_code == 1008
    assert conn.queued_bytes == 0 and conn.waiting == 1  # only the close marker
    conn.send_text("more")  # nothing is queued for a dropped client
    assert conn.waiting == 1 and conn.take() is None


# -- turn timers -----------------------------------------------------------------------------
def test_a_turn_timer_never_plays_a_game_nobody_is_at(sqlite_url: str) -> None:
    """Red invited and never there, three bots, a 30 s timer (scaled to 0.6 s): the bots play
    up to Red's turn, then the game waits; Red's clock runs again when Red sits down."""
    settings = {"allow_bot_games": False, "timer_scale": 0.02}
    with app_client(sqlite_url, **settings) as c:
        body = {
            "seats": [
                {"colour": "R", "kind": "invite"},
                *({"colour": x, "kind": "bot", "level": "random"} for x in "BYG"),
            ],
            "room": {"start": "now", "timer": 30},
        }
        r = c.post("/api/games", json=body)
        assert r.status_code == 201
        g = r.json()
        live = c.app.state.service.live[g["id"]]  # type: ignore[attr-defined]
        deadline = time.monotonic() + 30
        while live.game.to_move != 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        seq = live.seq
        time.sleep(2.0)  # three timers' worth
        assert live.seq == seq and live.game.to_move == 0
        assert not live.room.away and live.room.deadline is None
        token = next(s["token"] for s in g["seats"] if s["colour"] == "R")
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            hello(ws, "R", token)
            assert live.room.deadline is not None  # Red is here: the clock runs


# -- tokens and names ------------------------------------------------------------------------
def test_tokens_and_names_that_are_not_text_are_refused_with_400(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "Y": "open"})
    gid = g["id"]
    requests = [
        (f"/api/games/{gid}/join", f'{{"seat": "R", "token": {SURROGATE}}}'),
        (f"/api/games/{gid}/join", f'{{"seat": "Y", "name": {SURROGATE}}}'),
        (f"/api/games/{gid}/rematch", f'{{"seat": "R", "token": {SURROGATE}}}'),
        (f"/api/games/{gid}/ready", f'{{"seat": "R", "token": {SURROGATE}}}'),
        (f"/api/games/{gid}/host", f'{{"host_token": {SURROGATE}, "action": "start"}}'),
        ("/api/games", f'{{"seats": [{{"colour": "R", "kind": "invite"}}], "name": {SURROGATE}}}'),
        ("/api/games", f'{{"seats": [], "options": {{{SURROGATE}: "x"}}}}'),
    ]
    for path, body in requests:
        r = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (path, r.status_code, r.text)
        assert "Unicode" in r.json()["error"] or "token" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/join", json={"seat": "R", "token": "a b"})
    assert r.status_code == 400  # not a token's characters
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_text(f'{{"type": "hello", "seat": "R", "token": {SURROGATE}}}')
        m = recv(ws, "error")
        assert m["code"] == "bad_field"
        ws.send_text(f'{{"type": "chat", "text": {SURROGATE}}}')  # not attached: hello first
        assert recv(ws, "error")["code"] in ("bad_field", "hello_first")
        hello(ws)
        ws.send_text(f'{{"type": "chat", "text": "hi", "name": {SURROGATE}}}')
        assert recv(ws, "error")["code"] == "bad_field"


# -- chat ------------------------------------------------------------------------------------
def test_chat_is_limited_per_address_and_the_spectators_per_game(sqlite_url: str) -> None:
    limits = generous_limits(chat_rate=0.01, chat_burst=6)
    with app_client(sqlite_url, limits=limits) as c:
        g = new_game(c, {"R": "invite", "Y": "invite"})
        socks = [c.websocket_connect(f"/ws/{g['id']}") for _ in range(4)]
        outcomes = []
        try:
            for s in socks:
                s.__enter__()
                hello(s)
            for i in range(8):  # two each: within each connection's own allowance
                s = socks[i % 4]
                s.send_json({"type": "chat", "phrase": "hello"})
                while True:
                    m = s.receive_json()
                    if m["type"] == "chat" and m["message"]["who"] and m["message"]["n"] > i:
                        outcomes.append("said")
                        break
                    if m["type"] == "error":
                        outcomes.append(m["code"])
                        break
        finally:
            for s in socks:
                s.__exit__(None, None, None)
        # the spectators of a game share five lines in a burst, the address six
        assert outcomes.count("said") == 5 and outcomes.count("chat_rate") == 3


def test_a_spectator_may_not_take_a_seat_colour_or_a_players_name(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "Y": "invite"})
    joined = {"seat": "R", "name": "Alice", "token": g["tokens"]["R"]}
    assert client.post(f"/api/games/{g['id']}/join", json=joined).status_code == 200
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        hello(ws)
        for name in ("Red", "RED", "ｒｅｄ", "Rojo", "κόκκινο", "alice", "Spectator", "Red!"):
            ws.send_json({"type": "chat", "text": "hi", "name": name})
            m = recv(ws, "error")
            assert m["code"] == "bad_field" and "name" in m["error"], name
        ws.send_json({"type": "chat", "text": "hi", "name": "Redwood"})
        assert recv(ws, "chat")["message"]["name"] == "Redwood"


# -- wrong tokens ----------------------------------------------------------------------------
def test_a_wrong_token_is_read_from_the_database_once_and_limited(sqlite_url: str) -> None:
    limits = generous_limits(token_rate=0.01, token_burst=30)
    with app_client(sqlite_url, limits=limits) as c:
        g = new_game(c, {"R": "invite", "Y": "invite"})
        service = c.app.state.service  # type: ignore[attr-defined]
        reads = []
        real = service.db.load_since
        service.db.load_since = lambda *a: (reads.append(a), real(*a))[1]
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            for _ in range(20):  # the same wrong token: one read, then none
                ws.send_json({"type": "hello", "seat": "R", "token": "wrong-token"})
                assert recv(ws, "error")["code"] == "bad_token"
            assert len(reads) == 1
            for i in range(10):  # new wrong tokens: at most a read a second for the game
                ws.send_json({"type": "hello", "seat": "R", "token": f"wrong-{i}"})
                assert recv(ws, "error")["code"] == "bad_token"
            assert len(reads) <= 3
            ws.send_json({"type": "hello", "seat": "R", "token": "one-more"})
            m = recv(ws, "error")  # thirty wrong tokens from this address: refused, closed
            assert m["code"] == "rate_limited"
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
        r = c.post(f"/api/games/{g['id']}/join", json={"seat": "R", "name": "x", "token": "wrong"})
        assert r.status_code == 429


# -- the lobby -------------------------------------------------------------------------------
def test_one_address_cannot_fill_the_lobby(client: TestClient) -> None:
    for i in range(8):
        new_game(client, {"R": "invite", "Y": "open"}, public=True, name=f"spam {i}")
    games = client.get("/api/games").json()["games"]
    assert len(games) == 3 and {x["name"] for x in games} <= {f"spam {i}" for i in range(8)}


# -- HTTP timeouts ---------------------------------------------------------------------------
@pytest.mark.slow
def test_half_sent_requests_are_timed_out(tmp_path: Any) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'slow.db'}", "--request-timeout", "1")
    try:
        port = server.port
        idle = socket.create_connection(("127.0.0.1", port))
        half = socket.create_connection(("127.0.0.1", port))
        half.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        body = socket.create_connection(("127.0.0.1", port))
        body.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"seats"'
        )
        started = time.monotonic()
        for s in (idle, half, body):
            s.settimeout(5)
        assert idle.recv(100) == b""  # closed: nothing came in time
        assert half.recv(100) == b""  # closed: the headers did not come in time
        answer = b""
        while b"in time" not in answer:  # the body did not come in time: 400
            chunk = body.recv(4096)
            if not chunk:
                break
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 400") and b"in time" in answer
        assert time.monotonic() - started < 4
        assert "variants" in server.api("/api/meta")  # still serving
    finally:
        server.stop()


# -- memory ----------------------------------------------------------------------------------
def test_a_closed_websocket_is_freed_without_the_garbage_collector(sqlite_url: str) -> None:
    """Every object of a closed WebSocket (uvicorn's HTTP and WebSocket protocols, the
    websockets connection, the session) goes when its last reference does. The server collects
    its oldest objects rarely (sorry.web.collector): a cycle among them kept each closed
    connection's buffers for minutes, and 1,000 spectators opening and leaving grew the server
    by 5-8 MB each time. The collector is off here, as it is for those objects."""
    import urllib.request

    import uvicorn
    from websockets.sync.client import connect

    settings = fast_settings(tick=3600.0)
    app = create_app(sqlite_url, settings)
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", **uvicorn_options(settings)
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.05)
        seats = [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "bot"}]
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games",
            json.dumps({"seats": seats}).encode(),
            {"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=30) as answer:
            gid = json.loads(answer.read())["id"]
        url = f"ws://127.0.0.1:{port}/ws/{gid}"
        gc.collect()
        gc.disable()  # what the collector does to long-lived objects: never collected
        opened = contextlib.ExitStack()
        sockets = [opened.enter_context(connect(url)) for _ in range(5)]
        for ws in sockets:
            ws.send(json.dumps({"type": "hello"}))
            while json.loads(ws.recv(10))["type"] != "state":
                pass
        kinds = {"HeaderTimeout", "Uncycled", "ServerProtocol", "Conn"}
        alive = [weakref.ref(o) for o in gc.get_objects() if type(o).__name__ in kinds]
        # uvicorn's HTTP protocols went at the upgrades; the WebSocket protocol, the
        # websockets connection and the session's Conn of each socket are here
        assert sorted({type(r()).__name__ for r in alive}) == ["Conn", "ServerProtocol", "Uncycled"]
        assert len(alive) == 3 * len(sockets)
        opened.close()
        del sockets, ws
        # the sessions end as the server gets to them (slowly on a loaded machine); with the
        # collector off, a cycle never goes however long this waits
        deadline = time.monotonic() + 30
        while any(r() is not None for r in alive) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = sorted(type(o).__name__ for r in alive if (o := r()) is not None)
        assert not left, f"kept after the sockets closed: {left}"
    finally:
        gc.enable()
        server.should_exit = True
        thread.join(10)
