"""The waiting room, chat, turn timers and the next game of a match, through the HTTP API and
the WebSocket protocol (sorry.web.room, sorry.web.chat)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from server_helpers import fast_settings, hello, new_game, receive, recv, recv_until
from sorry.moves import PASS
from sorry.web import create_app


@pytest.fixture
def timed_client(sqlite_url: str) -> Iterator[TestClient]:
    """Turn timers 100 times shorter (a 30 s timer runs out in 0.3 s)."""
    app = create_app(sqlite_url, fast_settings(timer_scale=0.01))
    with TestClient(app) as c:
        yield c


def host(client: TestClient, g: dict[str, Any], action: str, **kw: Any) -> Any:
    return client.post(
        f"/api/games/{g['id']}/host", json={"host_token": g["host_token"], "action": action, **kw}
    )


def blue_until_a_bot_moved(ws: Any, state: dict[str, Any]) -> None:
    """Blue (``ws``) plays each of its turns until a bot has moved, however slow the bots
    are on a loaded machine (the first player may be Blue)."""
    while not any(e["actor"] == "bot" for e in state["log"]):
        if state["status"] == "playing" and state["view"]["to_move"] == "B":
            move = state["view"]["legal_moves"][0]["move"]
            ws.send_json({"type": "move", "seq": state["seq"], "move": move})
        state = recv_until(ws, lambda m: m["type"] == "state")


def test_nobody_moves_before_the_host_starts(client: TestClient) -> None:
    seats = {"R": "bot:random", "B": "invite", "Y": "bot:random"}
    g = new_game(client, seats, room={"start": "host"})
    summary = client.get(f"/api/games/{g['id']}").json()
    assert summary["room"]["started"] is False and summary["room"]["start"] == "host"
    # the same game started at once: its bots move; the host's game waits meanwhile
    control = new_game(client, seats)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        state = hello(ws, "B", g["tokens"]["B"])
        assert state["room"]["started"] is False
        with client.websocket_connect(f"/ws/{control['id']}") as other:
            blue_until_a_bot_moved(other, hello(other, "B", control["tokens"]["B"]))
        assert client.get(f"/api/games/{g['id']}").json()["seq"] == 0
        ws.send_json({"type": "move", "seq": 0, "move": "pass"})
        code = recv(ws, "rejected")["code"]
        assert code == "not_started"  # whoever is to move
        # only the host may start
        wrong = client.post(
            f"/api/games/{g['id']}/host", json={"host_token": "x" * 32, "action": "start"}
        )
        assert wrong.status_code == 403
        assert host(client, g, "start").status_code == 200
        state = recv_until(ws, lambda m: m["type"] == "state")
        assert state["room"]["started"] is True
        assert host(client, g, "start").status_code == 409  # once
        blue_until_a_bot_moved(ws, state)  # the bots play now


def test_the_host_turns_a_seat_into_a_bot_and_full_starts_by_itself(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "B": "invite", "Y": "open"}, room={"start": "full"})
    gid = g["id"]
    assert host(client, g, "bot", seat="B", level="nope").status_code == 409
    assert host(client, g, "bot", seat="B", level="random").status_code == 200
    seats = {s["colour"]: s for s in client.get(f"/api/games/{gid}").json()["seats"]}
    assert seats["B"]["kind"] == "bot" and seats["B"]["level"] == "random"
    r = client.post(f"/api/games/{gid}/join", json={"seat": "R", "token": g["tokens"]["R"]})
    assert r.status_code == 200
    assert client.get(f"/api/games/{gid}").json()["room"]["started"] is False
    # a taken seat cannot become a bot
    assert host(client, g, "bot", seat="R", level="random").status_code == 409
    r = client.post(f"/api/games/{gid}/join", json={"seat": "Y", "name": "Yan"})
    assert r.status_code == 200  # the last seat taken: the game starts
    assert client.get(f"/api/games/{gid}").json()["room"]["started"] is True
    assert host(client, g, "bot", seat="Y", level="random").status_code == 409


def test_an_invited_seat_nobody_opened_goes_to_a_bot_after_the_start(client: TestClient) -> None:
    """The host started without Blue (invited, never came): a bot takes Blue's seat at once
    when the host asks, and plays its turns (no minute-long wait for a takeover)."""
    g = new_game(client, {"R": "invite", "B": "invite"}, room={"start": "host"})
    r = client.post(f"/api/games/{g['id']}/join", json={"seat": "R", "token": g["tokens"]["R"]})
    assert r.status_code == 200
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        state = hello(ws, "R", r.json()["token"])
        assert host(client, g, "start").status_code == 200
        state = recv_until(ws, lambda m: m["type"] == "state" and m["room"]["started"])
        assert host(client, g, "bot", seat="B", level="random").status_code == 200
        seats = {s["colour"]: s for s in client.get(f"/api/games/{g['id']}").json()["seats"]}
        assert seats["B"]["kind"] == "bot"
        # Red plays its turns; Blue's are the bot's (the takeover would wait an hour here)
        while not any(e["colour"] == "B" and e["actor"] == "bot" for e in state["log"]):
            if state["view"]["to_move"] == "R":
                move = state["view"]["legal_moves"][0]["move"]
                ws.send_json({"type": "move", "seq": state["seq"], "move": move})
            state = recv_until(ws, lambda m: m["type"] == "state", seconds=30)
        # a seat somebody holds stays theirs
        assert host(client, g, "bot", seat="R", level="random").status_code == 409


def test_room_settings_are_checked(client: TestClient) -> None:
    for room in ({"timer": 45}, {"start": "later"}, {"chat": "yes"}, {"colour": 1}, []):
        r = client.post(
            "/api/games",
            json={
                "seats": [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "bot"}],
                "room": room,
            },
        )
        assert r.status_code == 400 and "room" in r.json()["error"], room


def test_chat_plain_text_limits_and_switch_off(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "Y": "invite"}, room={"start": "host"})
    with (
        client.websocket_connect(f"/ws/{g['id']}") as wr,
        client.websocket_connect(f"/ws/{g['id']}") as ws,
    ):
        hello(wr, "R", g["tokens"]["R"])
        assert recv(wr, "chat_history")["messages"] == []
        hello(ws)  # a spectator may chat too, with a name
        ws.send_json({"type": "chat", "text": "  <script>x</script>\t hi  ", "name": "Eve"})
        line = recv(wr, "chat")["message"]
        assert line["text"] == "<script>x</script> hi" and line["colour"] is None
        assert line["name"] == "Eve"
        assert recv(ws, "chat")["message"]["name"] == "Eve"  # everyone hears it, Eve too
        wr.send_json({"type": "chat", "phrase": "good_luck"})
        line = recv(ws, "chat")["message"]
        assert line["phrase"] == "good_luck" and line["colour"] == "R" and line["text"] is None
        for bad in (
            {"type": "chat", "text": "x" * 201},
            {"type": "chat", "text": "   "},
            {"type": "chat", "phrase": "insult"},
            {"type": "chat", "text": "a", "phrase": "hello"},
            {"type": "chat", "text": "bell\x07"},
        ):
            wr.send_json(bad)
            assert recv(wr, "error")["code"] == "bad_field", bad
        # a burst is cut short
        codes = []
        for i in range(8):
            ws.send_json({"type": "chat", "text": f"spam {i}"})
        for _ in range(8):
            m = receive(ws)
            while m["type"] not in ("chat", "error"):
                m = receive(ws)
            codes.append(m.get("code", "ok"))
        assert "chat_rate" in codes
        # the host switches the chat off: nobody can write
        assert host(client, g, "chat", enabled=False).status_code == 200
        assert recv(wr, "state")["room"]["chat"] is False
        time.sleep(2.1)
        wr.send_json({"type": "chat", "text": "anyone?"})
        assert recv(wr, "error")["code"] == "chat_off"
    # a newcomer gets the recent lines
    with client.websocket_connect(f"/ws/{g['id']}") as w2:
        hello(w2)
        said = [m["text"] or m["phrase"] for m in recv(w2, "chat_history")["messages"]]
        assert said[:2] == ["<script>x</script> hi", "good_luck"]


def test_a_timer_running_out_makes_the_seat_away(timed_client: TestClient) -> None:
    client = timed_client
    g = new_game(client, {"R": "invite", "Y": "bot:random"}, room={"timer": 30})
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        state = hello(ws, "R", g["tokens"]["R"])
        while state["view"]["to_move"] != "R":
            state = recv(ws, "state")
        assert state["room"]["timer"] == 30 and state["room"]["deadline_in"] is not None
        # Red does nothing: a bot plays for Red, and Red is away
        while True:
            msg = receive(ws)
            if msg["type"] == "state" and msg["last"] and msg["last"]["colour"] == "R":
                break
        assert msg["last"]["actor"] == "timeout"
        red = next(s for s in msg["seats"] if s["colour"] == "R")
        assert red["away"] is True
        ws.send_json({"type": "back"})  # Red is back
        seats = recv(ws, "seats")["seats"]
        assert next(s for s in seats if s["colour"] == "R")["away"] is False


def test_the_next_game_starts_when_every_player_accepts(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "Y": "invite"})
    service = client.app.state.service  # type: ignore[attr-defined]
    live = service.live[g["id"]]
    with client.websocket_connect(f"/ws/{g['id']}") as wr:
        state = hello(wr, "R", g["tokens"]["R"])
        with client.websocket_connect(f"/ws/{g['id']}") as wy:
            hello(wy, "Y", g["tokens"]["Y"])
            # both resign their turns until the game is over (passes are legal only when
            # nothing else is; play the first legal move instead)
            socks = {"R": wr, "Y": wy}
            while not live.game.is_over():
                mover = "RBYG"[live.game.to_move]
                seq = live.seq
                socks[mover].send_json(
                    {"type": "move", "seq": seq, "move": str(live.game.legal_moves[0])}
                )
                recv(socks[mover], "accepted")
    del state
    gid = g["id"]
    r = client.post(f"/api/games/{gid}/rematch", json={"seat": "R", "token": g["tokens"]["R"]})
    nxt = r.json()["id"]
    room = client.get(f"/api/games/{nxt}").json()["room"]
    assert room["started"] is False and room["start"] == "ready" and room["ready"] == ["R"]
    r = client.post(f"/api/games/{nxt}/ready", json={"seat": "Y", "token": "nope"})
    assert r.status_code == 403
    r = client.post(f"/api/games/{nxt}/ready", json={"seat": "Y", "token": g["tokens"]["Y"]})
    assert r.json()["room"]["started"] is True


def test_takeover_bots_wait_for_the_start(sqlite_url: str) -> None:
    """An invited seat nobody opened counts as away only from the start: in the waiting room
    no takeover bot plays it, however long the host takes; after the start one does."""
    app = create_app(sqlite_url, fast_settings(takeover_after=0.2))
    with TestClient(app) as client:
        g = new_game(client, {"R": "invite", "B": "invite"}, room={"start": "host"})
        gid = g["id"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            hello(ws, "R", g["tokens"]["R"])  # Red is here; Blue never comes
            time.sleep(1.0)  # five times the takeover delay
            assert client.get(f"/api/games/{gid}").json()["seq"] == 0
            assert host(client, g, "start").status_code == 200
            live = client.app.state.service.live[gid]  # type: ignore[attr-defined]
            deadline = time.monotonic() + 10
            while not any(e["actor"] == "takeover" for e in live.log):
                assert time.monotonic() < deadline, live.log
                if live.game.to_move == 0 and not live.game.is_over():  # Red plays itself
                    ws.send_json(
                        {"type": "move", "seq": live.seq, "move": str(live.game.legal_moves[0])}
                    )
                    recv(ws, "accepted")
                time.sleep(0.05)
            assert all(e["colour"] == "B" for e in live.log if e["actor"] == "takeover")


def test_alone_with_bots_a_player_who_leaves_finds_the_game_at_their_turn(
    sqlite_url: str,
) -> None:
    """Leave a game against the computer: the bots play up to the player's turn and the game
    waits there (no bot plays for them, however long they are gone); back, it is their turn,
    their seat not away."""
    app = create_app(sqlite_url, fast_settings(takeover_after=0.1, auto_pass=True))
    with TestClient(app) as client:
        g = new_game(client, {"R": "invite", "B": "bot:random", "Y": "bot:random"})
        gid = g["id"]
        live = client.app.state.service.live[gid]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{gid}") as wr:
            hello(wr, "R", g["tokens"]["R"])
            wr.send_json({"type": "leave"})
            wr.send_json({"type": "ping"})
            recv_until(wr, lambda m: m["type"] == "pong", 30)  # the leave was taken
        deadline = time.monotonic() + 10

        # the bots' turns played up to a decision of Red's (none when Red moves first: the
        # deal decides); a turn of Red's with no legal move passes by itself (not a decision)
        def red_decides() -> bool:
            moves = live.game.legal_moves
            forced = len(moves) == 1 and moves[0].kind == PASS
            return live.game.to_move == 0 and live.bot_task is None and not forced

        while not (red_decides() and (live.seq > 0 or live.game.first == 0)):
            assert time.monotonic() < deadline, live.log
            time.sleep(0.05)
        seq = live.seq
        time.sleep(1.0)  # ten times the takeover delay: still Red's turn, nothing played
        assert live.seq == seq and live.game.to_move == 0 and not live.room.away
        assert all(e["colour"] != "R" or e["actor"] in ("player", "forced") for e in live.log)
        with client.websocket_connect(f"/ws/{gid}") as wr:
            state = hello(wr, "R", g["tokens"]["R"])
            assert state["view"]["to_move"] == "R" and state["view"]["legal_moves"]
            assert not next(s for s in state["seats"] if s["colour"] == "R")["away"]


def test_a_player_who_leaves_is_played_by_a_bot_until_back(client: TestClient) -> None:
    """Leave: the seat is away at once, a bot plays its turns while the other player plays
    on; back, the seat is the player's again."""
    g = new_game(client, {"R": "invite", "B": "invite"})
    with (
        client.websocket_connect(f"/ws/{g['id']}") as wr,
        client.websocket_connect(f"/ws/{g['id']}") as wb,
    ):
        hello(wr, "R", g["tokens"]["R"])
        state = hello(wb, "B", g["tokens"]["B"])
        wr.send_json({"type": "leave"})

        def red_away(msg: dict[str, Any]) -> bool:
            seats = msg.get("seats") if msg["type"] in ("seats", "state") else None
            return bool(seats) and next(s for s in seats if s["colour"] == "R")["away"]

        recv_until(wr, red_away)
        # Blue plays; Red's turns are the bot's (actor timeout, as after a turn timer)
        while True:
            if state["view"]["to_move"] == "B" and state["view"]["legal_moves"]:
                move = state["view"]["legal_moves"][0]["move"]
                wb.send_json({"type": "move", "seq": state["seq"], "move": move})
            state = recv_until(wb, lambda m: m["type"] == "state")
            last = state["last"]
            if last and last["colour"] == "R":
                break
        assert last["actor"] in ("timeout", "forced")
        wr.send_json({"type": "back"})
        seats = recv_until(wr, lambda m: m["type"] == "seats")["seats"]
        assert next(s for s in seats if s["colour"] == "R")["away"] is False
