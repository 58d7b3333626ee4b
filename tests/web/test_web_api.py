"""HTTP API and WebSocket protocol of the game server (Starlette TestClient, SQLite)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from server_helpers import fast_settings, hello, new_game, play, recv
from sorry import Game, Move
from sorry.record import GameRecord, verify
from sorry.web import create_app
from sorry.web.db import Database
from sorry.web.migrations import HEAD


def test_meta_board_and_pages(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert meta["variants"] == ["standard", "teams", "points"]
    assert "random" in meta["bot_levels"]
    # the rule options' words come from the core's table, values in order (the default first)
    from sorry.rules import FORM_OPTIONS, OPTION_VALUES

    assert list(meta["option_words"]) == list(FORM_OPTIONS)
    label, values = meta["option_words"]["deck"]
    assert label == "Deck" and values == [
        ["45", "45 cards (five 1s)"],
        ["44", "44 cards (first edition)"],
    ]
    for name, (_label, values) in meta["option_words"].items():
        assert [v for v, _words in values] == list(OPTION_VALUES[name])
    geo = client.get("/api/board").json()
    assert len(geo["track"]) == 60
    svg = client.get("/api/board.svg", params={"position": "R:S,S,4,s2 Y:12,33,40,H R"})
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.count('class="pawn') == 8
    assert client.get("/api/board.svg", params={"position": "nonsense"}).status_code == 400
    page = client.get("/")
    assert page.status_code == 200 and "<script" in page.text
    assert client.get("/g/abc").status_code == 200
    assert client.get("/static/main.js").status_code == 200
    assert client.get("/static/app.css").status_code == 200


def test_create_validation(client: TestClient) -> None:
    bad: list[Any] = [
        {"variant": "chess", "seats": [{"colour": "R", "kind": "bot"}] * 2},
        {"seats": [{"colour": "R", "kind": "bot"}]},
        {"seats": [{"colour": "R", "kind": "bot"}, {"colour": "R", "kind": "bot"}]},
        {"seats": [{"colour": "X", "kind": "bot"}, {"colour": "R", "kind": "bot"}]},
        {"seats": [{"colour": "Y", "kind": "robot"}, {"colour": "R", "kind": "bot"}]},
        {"seats": [{"colour": "Y", "kind": "bot", "level": "god"}, {"colour": "R", "kind": "bot"}]},
        {"options": {"deck": "46"}, "seats": [{"colour": "R", "kind": "bot"}] * 2},
        {
            "variant": "teams",
            "seats": [{"colour": "R", "kind": "bot"}, {"colour": "Y", "kind": "bot"}],
        },
        {
            "public": "yes",
            "seats": [{"colour": "R", "kind": "bot"}, {"colour": "Y", "kind": "bot"}],
        },
        {
            "name": "x" * 100,
            "seats": [{"colour": "R", "kind": "bot"}, {"colour": "Y", "kind": "bot"}],
        },
        [1, 2],
    ]
    for body in bad:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, body
        assert r.json()["error"]
    r = client.post("/api/games", content=b"{not json")
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = client.post("/api/games", content=b"{" + b" " * 10000 + b"}")
    assert r.status_code == 400 and "larger" in r.json()["error"]
    r = client.post(
        "/api/games",
        json={"seats": [{"colour": "R", "kind": "bot"}, {"colour": "Y", "kind": "bot"}]},
        headers={"origin": "http://evil.example"},
    )
    assert r.status_code == 400 and "Origin" in r.json()["error"]


def test_create_join_and_summary(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "B": "open", "Y": "bot:random"}, public=True, name="Fun")
    gid = g["id"]
    assert set(g["tokens"]) == {"R"}
    assert g["seats"][0]["link"].endswith(f"/g/{gid}#seat=R&token={g['tokens']['R']}")
    s = client.get(f"/api/games/{gid}").json()
    assert s["name"] == "Fun" and s["status"] == "playing"
    assert [x["kind"] for x in s["seats"]] == ["human", "human", "bot"]
    assert s["seats"][1]["open"] is True
    assert any(x["id"] == gid for x in client.get("/api/games").json()["games"])
    # the invited seat needs its token; the open seat is first come, first served
    r = client.post(f"/api/games/{gid}/join", json={"seat": "R", "name": "Ann", "token": "bad"})
    assert r.status_code == 403
    r = client.post(
        f"/api/games/{gid}/join", json={"seat": "R", "name": "Ann", "token": g["tokens"]["R"]}
    )
    assert r.status_code == 200 and r.json()["name"] == "Ann"
    r = client.post(f"/api/games/{gid}/join", json={"seat": "B", "name": "Bob"})
    assert r.status_code == 200
    bob_token = r.json()["token"]
    assert (
        client.post(f"/api/games/{gid}/join", json={"seat": "B", "name": "Eve"}).status_code == 403
    )
    assert (
        client.post(f"/api/games/{gid}/join", json={"seat": "Y", "name": "Eve"}).status_code == 403
    )
    assert (
        client.post(f"/api/games/{gid}/join", json={"seat": "G", "name": "Eve"}).status_code == 403
    )
    assert client.post(f"/api/games/{gid}/join", json={"seat": "Q"}).status_code == 400
    assert (
        client.post(f"/api/games/{gid}/join", json={"seat": "B", "name": "x" * 50}).status_code
        == 400
    )
    assert client.post("/api/games/nope/join", json={"seat": "B"}).status_code == 404
    seats = client.get(f"/api/games/{gid}").json()["seats"]
    assert [x["name"] for x in seats[:2]] == ["Ann", "Bob"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws, "B", bob_token)
        assert state["view"]["viewer"] == "B"
    assert client.get("/api/games/doesnotexist").status_code == 404
    assert client.get("/api/games/bad%20id").status_code == 404


def play_first_moves(ws: Any, state: dict[str, Any], seat: str, count: int) -> dict[str, Any]:
    """Play ``count`` of our own turns choosing the first legal move."""
    played = 0
    while played < count and state["status"] == "playing":
        view = state["view"]
        if view["to_move"] == seat and view["legal_moves"]:
            after = play(ws, state, view["legal_moves"][0]["move"])
            assert after["seq"] == state["seq"] + 1
            state = after
            played += 1
        else:
            state = recv(ws, "state")
    return state


def test_play_against_bot_and_sequence_rules(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "Y": "bot:random"})
    gid, token = g["id"], g["tokens"]["R"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws, "R", token)
        assert "log" in state
        commitment = state["commitment"]
        assert len(commitment) == 64
        # wait for our turn (the bot may start)
        while state["view"]["to_move"] != "R":
            state = recv(ws, "state")
        seq = state["seq"]
        legal = [m["move"] for m in state["view"]["legal_moves"]]
        assert legal
        # an illegal move, a stale sequence number, a made-up move: each rejected with a reason
        ws.send_json({"type": "move", "seq": seq, "move": "R59+12"})
        r = recv(ws, "rejected")
        assert r["code"] == "illegal" and "legal" in r["reason"] and r["seq"] == seq
        ws.send_json({"type": "move", "seq": seq + 5, "move": legal[0]})
        r = recv(ws, "rejected")
        # the client had every state already: no whole state is sent again
        assert r["code"] == "stale" and r["resync"] is False
        ws.send_json({"type": "ping"})
        assert recv(ws, "pong")["seq"] == seq
        state = play(ws, state, legal[0])
        assert state["seq"] == seq + 1
        # the same message again is stale now
        ws.send_json({"type": "move", "seq": seq, "move": legal[0]})
        r = recv(ws, "rejected")
        assert r["code"] == "stale" and not r["resync"]
        ws.send_json({"type": "resync"})  # a whole state when asked for it
        state = recv(ws, "state")
        assert "log" in state
        state = play_first_moves(ws, state, "R", 1000)
        assert state["view"]["winners"]
        ws.send_json({"type": "move", "seq": state["seq"], "move": "pass"})
        assert recv(ws, "rejected")["code"] == "game_over"
    # finished: record and replay are available and consistent with the log
    rec = client.get(f"/api/games/{gid}/record")
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    record = GameRecord.from_json(rec.text)
    assert verify(record).ok  # the revealed seed, deck and nonce match the commitment
    assert record.commitment == commitment
    assert [s.kind for s in record.seats] == ["human", "bot"]
    game = record.replay()
    assert game.is_over()
    with client.websocket_connect(f"/ws/{gid}") as ws2:
        log = hello(ws2)["log"]
    assert [e["move"] for e in log] == [str(m) for m in game.move_stack]
    frames = client.get(f"/api/games/{gid}/replay").json()["frames"]
    assert len(frames) == len(log) + 1
    assert frames[-1]["view"]["position"].split()[:-1] == game.position_string().split()[:-1]


def test_record_and_replay_refused_while_playing(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "Y": "invite"})
    assert client.get(f"/api/games/{g['id']}/record").status_code == 409
    assert client.get(f"/api/games/{g['id']}/replay").status_code == 409


@pytest.mark.parametrize("variant", ["standard", "teams", "points"])
def test_bot_game_runs_to_the_end_and_spectator_follows(client: TestClient, variant: str) -> None:
    g = new_game(client, {"R": "bot", "B": "bot:learned", "Y": "bot", "G": "bot:easy"}, variant)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        state = hello(ws)
        assert state["view"]["viewer"] is None and state["view"]["legal_moves"] == []
        seqs = [state["seq"]]
        while state["status"] == "playing":
            state = recv(ws, "state", limit=5000)
            seqs.append(state["seq"])
            assert state["view"]["hand"] == []
        assert seqs == sorted(seqs)
        assert state["view"]["winners"]
        ws.send_json({"type": "move", "seq": state["seq"], "move": "pass"})
        assert recv(ws, "rejected")["code"] == "spectator"


def test_ws_hello_and_auth(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "Y": "invite"})
    gid, tokens = g["id"], g["tokens"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "move", "seq": 0, "move": "pass"})
        assert recv(ws, "error")["code"] == "hello_first"
        ws.send_json({"type": "hello", "seat": "R", "token": tokens["Y"]})
        assert recv(ws, "error")["code"] == "bad_token"
        ws.send_json({"type": "hello", "seat": "B", "token": tokens["R"]})
        assert recv(ws, "error")["code"] == "bad_token"
        state = hello(ws, "Y", tokens["Y"])
        assert state["view"]["viewer"] == "Y"
        ws.send_json({"type": "hello"})
        assert recv(ws, "error")["code"] == "already_hello"
        ws.send_json({"type": "ping"})
        assert recv(ws, "pong")["seq"] == state["seq"]
        ws.send_json({"type": "resync"})
        assert "log" in recv(ws, "state")
    with client.websocket_connect("/ws/nosuchgame") as ws:
        assert ws.receive_json()["code"] == "no_game"


def test_ws_origin_check(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    g = new_game(client)
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/{g['id']}", headers={"origin": "http://evil.example"}) as ws,
    ):
        ws.receive_json()
    with client.websocket_connect(f"/ws/{g['id']}", headers={"origin": "http://testserver"}) as ws:
        hello(ws)


def test_one_seat_cannot_act_for_another(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "Y": "invite"})
    gid, tokens = g["id"], g["tokens"]
    with client.websocket_connect(f"/ws/{gid}") as wr, client.websocket_connect(f"/ws/{gid}") as wy:
        sr = hello(wr, "R", tokens["R"])
        sy = hello(wy, "Y", tokens["Y"])
        mover, other = (wr, wy) if sr["view"]["to_move"] == "R" else (wy, wr)
        state = sr if mover is wr else sy
        legal = [m["move"] for m in state["view"]["legal_moves"]]
        assert legal
        # the other seat sends the mover's legal move: rejected, and the game did not move
        other.send_json({"type": "move", "seq": state["seq"], "move": legal[0]})
        assert recv(other, "rejected")["code"] == "not_your_turn"
        other.send_json({"type": "hint", "seq": state["seq"]})
        assert recv(other, "rejected")["code"] == "not_your_turn"
        mover.send_json({"type": "hint", "seq": state["seq"]})
        h = recv(mover, "hint")
        assert h["move"] in legal
        assert play(mover, state, h["move"])["seq"] == state["seq"] + 1


def test_restart_resumes_from_database(sqlite_url: str) -> None:
    app = create_app(sqlite_url, fast_settings())
    with TestClient(app) as c:
        g = new_game(c, {"R": "invite", "Y": "invite"})
        gid, tokens = g["id"], g["tokens"]
        with c.websocket_connect(f"/ws/{gid}") as wr, c.websocket_connect(f"/ws/{gid}") as wy:
            states = {"R": hello(wr, "R", tokens["R"]), "Y": hello(wy, "Y", tokens["Y"])}
            socks = {"R": wr, "Y": wy}
            for _ in range(12):
                mover = states["R"]["view"]["to_move"]
                st = states[mover]
                other = "Y" if mover == "R" else "R"
                states[mover] = play(socks[mover], st, st["view"]["legal_moves"][0]["move"])
                states[other] = recv(socks[other], "state")
            before = states["R"]
    app2 = create_app(sqlite_url, fast_settings())
    with TestClient(app2) as c2, c2.websocket_connect(f"/ws/{gid}") as ws:
        after = hello(ws, "R", tokens["R"])
        assert after["seq"] == before["seq"] == 12
        assert after["view"]["position"] == before["view"]["position"]
        assert len(after["log"]) == 12 and after["log"][-1] == {
            **before["last"],
            "paths": [],
            "effects": [],
        }


def test_database_migrations_and_conflicts(sqlite_url: str) -> None:
    db = Database(sqlite_url)  # made on start-up
    assert db.revision() == HEAD and db.upgraded == (None, HEAD)
    assert Database(sqlite_url).migrate() == HEAD  # idempotent
    from sorry.web.db import ConflictError, MoveRow, SeatRow

    game = Game(seed=5)
    game.draw()
    db.create_game(
        "g1",
        "t",
        False,
        "standard",
        game.rules.to_dict(),
        game.to_dict(),
        [
            SeatRow(0, "bot", "random", "b", None, True),
            SeatRow(2, "bot", "random", "b", None, True),
        ],
    )
    move = game.legal_moves[0]
    game.push(move)
    row = MoveRow(1, 0, "bot", str(move), [])
    db.commit_move("g1", 0, row, game.to_dict(), "playing")
    try:
        db.commit_move("g1", 0, row, game.to_dict(), "playing")
    except ConflictError:
        pass
    else:
        raise AssertionError("a second write at the same seq must conflict")
    loaded = db.load_game("g1")
    assert loaded is not None and loaded.seq == 1
    assert Game.from_dict(loaded.state).move_stack == [Move.parse(str(move))]
    assert [m.move for m in db.load_moves("g1")] == [str(move)]


def test_bot_takes_over_an_absent_player_who_can_take_the_seat_back(sqlite_url: str) -> None:
    import time

    app = create_app(sqlite_url, fast_settings(takeover_after=0.3))
    with TestClient(app) as c:
        g = new_game(c, {"R": "invite", "Y": "invite"})
        gid, tokens = g["id"], g["tokens"]
        service = app.state.service
        with c.websocket_connect(f"/ws/{gid}") as wr:
            state = hello(wr, "R", tokens["R"])
            # Yellow never comes: after 0.3 s on Yellow's turn a bot plays for Yellow
            takeovers = 0
            while takeovers < 3:
                if state["view"]["to_move"] == "R" and state["status"] == "playing":
                    state = play(wr, state, state["view"]["legal_moves"][0]["move"])
                else:
                    state = recv(wr, "state")
                    if state["last"] and state["last"]["colour"] == "Y":
                        assert state["last"]["actor"] == "takeover"
                        takeovers += 1
            # Yellow comes back: no bot plays for Yellow while connected
            with c.websocket_connect(f"/ws/{gid}") as wy:
                ys = hello(wy, "Y", tokens["Y"])
                live = service.live[gid]
                seats = {s["colour"]: s for s in ys["seats"]}
                assert seats["Y"]["connected"] and not seats["Y"]["bot_playing"]
                while live.game.to_move != 2:
                    if state["view"]["to_move"] == "R" and state["seq"] == live.seq:
                        state = play(wr, state, state["view"]["legal_moves"][0]["move"])
                    else:
                        state = recv(wr, "state")
                seq = live.seq
                time.sleep(1.0)
                assert live.seq == seq  # waiting for Yellow, not playing for them
                ys = recv(wy, "state") if ys["seq"] != seq else ys
                while ys["seq"] < seq:
                    ys = recv(wy, "state")
                after = play(wy, ys, ys["view"]["legal_moves"][0]["move"])
                assert after["seq"] == seq + 1 and after["last"]["actor"] == "player"


def test_match_next_game_keeps_seats_and_the_winner_starts(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "Y": "bot"}, variant="points")
    gid, token = g["id"], g["tokens"]["R"]
    r = client.post(f"/api/games/{gid}/rematch", json={"seat": "R", "token": token})
    assert r.status_code == 409  # not over yet
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws, "R", token)
        state = play_first_moves(ws, state, "R", 2000)
        assert state["status"] == "over"
        bad = client.post(f"/api/games/{gid}/rematch", json={"seat": "R", "token": "nope"})
        assert bad.status_code == 403
        r = client.post(f"/api/games/{gid}/rematch", json={"seat": "R", "token": token})
        assert r.status_code == 200
        nid = r.json()["id"]
        # asked again (or by another player): the same next game
        again = client.post(f"/api/games/{gid}/rematch", json={"seat": "R", "token": token})
        assert again.json()["id"] == nid
        told = recv(ws, "state")
        assert told["next_game"] == nid
        winner = state["view"]["winners"][0]
        scores = state["view"]["scores"]
    nxt = client.get(f"/api/games/{nid}").json()
    assert nxt["match"]["number"] == 2 and nxt["match"]["games"] == 1
    assert nxt["match"]["wins"] == {winner: 1} and nxt["match"]["points"] == scores
    with client.websocket_connect(f"/ws/{nid}") as ws:
        state = hello(ws, "R", token)  # the same token plays the same seat
        assert state["view"]["first"] == winner


def test_finished_unwatched_games_leave_memory_and_reload(sqlite_url: str) -> None:
    import time

    app = create_app(sqlite_url, fast_settings(evict_after=0.0))
    with TestClient(app) as c:
        g = new_game(c, {"R": "bot", "Y": "bot"})
        service = app.state.service
        deadline = time.monotonic() + 60
        while g["id"] in service.live and time.monotonic() < deadline:
            time.sleep(0.05)
        assert g["id"] not in service.live  # finished, nobody watching: evicted
        summary = c.get(f"/api/games/{g['id']}").json()  # and loaded again on demand
        assert summary["status"] == "over" and summary["winners"]


def test_a_failing_database_rejects_the_move_explicitly(
    client: TestClient, monkeypatch: Any
) -> None:
    g = new_game(client, {"R": "invite", "Y": "invite"})
    service = client.app.state.service  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        state = hello(ws, "R", g["tokens"]["R"])
        live = service.live[g["id"]]
        seat = state["view"]["to_move"]
        if seat != "R":
            ws.close()
        with client.websocket_connect(f"/ws/{g['id']}") as wm:
            st = hello(wm, seat, g["tokens"][seat])

            def broken(*args: Any, **kw: Any) -> None:
                raise OSError("disk on fire")

            monkeypatch.setattr(service.db, "write_move", broken)
            move = st["view"]["legal_moves"][0]["move"]
            wm.send_json({"type": "move", "seq": st["seq"], "move": move})
            r = recv(wm, "rejected")
            assert r["code"] == "server_error" and not r["resync"]
            assert live.seq == st["seq"]  # nothing accepted
            monkeypatch.undo()
            assert play(wm, st, move)["seq"] == st["seq"] + 1
