"""Resigning and undo against bots over the WebSocket: a resignation is committed before
anyone is told, ends a game of two (the other wins) and takes the resigner's pawns off the
board in a game of three (the others play on); the record verifies and names it; a rated
game counts it as a loss. Undo takes back the person's last move and the bots' moves after
it, with the same card (the server owns the deck), only in a casual game against bots; the
database agrees (the game read again is the same)."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from server_helpers import fast_settings, hello, new_game, play, recv, recv_until
from sorry.record import GameRecord, verify
from sorry.web import create_app


def state_of(msg: dict[str, Any]) -> bool:
    return msg["type"] == "state"


def reply(ws: Any, *kinds: str) -> dict[str, Any]:
    """The next message of one of ``kinds`` (states and deltas on the way are kept)."""
    return recv_until(ws, lambda m: m["type"] in kinds)


def my_turn(ws: Any, state: dict[str, Any], seat: str) -> dict[str, Any]:
    """The state once it is ``seat``'s decision (the bots' moves followed)."""
    while not (state["status"] == "over" or state["view"]["legal_moves"]):
        state = recv_until(ws, state_of)
    assert state["view"]["to_move"] == seat or state["status"] == "over"
    return state


def test_resigning_a_game_of_two_ends_it_and_the_record_says_so(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "Y": "invite"})
    with (
        client.websocket_connect(f"/ws/{g['id']}") as wr,
        client.websocket_connect(f"/ws/{g['id']}") as wy,
    ):
        hello(wr, "R", g["tokens"]["R"])
        hello(wy, "Y", g["tokens"]["Y"])
        wy.send_json({"type": "resign"})
        got = reply(wy, "resigned", "rejected")
        assert got == {"type": "resigned", "seq": 1, "colour": "Y"}
        over = recv_until(wr, lambda m: m["type"] == "state" and m["status"] == "over")
        assert over["view"]["winners"] == ["R"]
        assert [s["resigned"] for s in over["seats"]] == [False, True]
        assert over["last"]["move"] == "resign" and over["last"]["colour"] == "Y"
        wy.send_json({"type": "resign"})
        assert reply(wy, "rejected")["code"] == "game_over"
    record = GameRecord.from_json(client.get(f"/api/games/{g['id']}/record").text)
    assert record.result.resigned == ("Y",) and record.result.winners == ("R",)
    assert record.steps[-1].resign and verify(record).ok
    summary = client.get(f"/api/games/{g['id']}").json()
    assert summary["status"] == "over"
    frames = client.get(f"/api/games/{g['id']}/replay").json()["frames"]
    assert frames[-1]["entry"]["move"] == "resign" and frames[-1]["view"]["winners"] == ["R"]


def test_resigning_a_game_of_three_takes_the_pawns_off_and_the_others_play_on(
    client: TestClient,
) -> None:
    g = new_game(client, {"R": "invite", "B": "bot:easy", "Y": "bot:easy"})
    with client.websocket_connect(f"/ws/{g['id']}") as wr:
        state = hello(wr, "R", g["tokens"]["R"])
        state = my_turn(wr, state, "R")
        card = state["view"]["card"]
        wr.send_json({"type": "resign"})
        assert reply(wr, "resigned", "rejected")["type"] == "resigned"
        after = recv_until(wr, lambda m: m["type"] == "state" and "R" not in m["view"]["colours"])
        # the resigner's pawns have left the board; its card went to the discard pile
        assert not after["view"]["position"].startswith("R:")
        assert set(after["view"]["pawns"]) == {"B", "Y"}
        assert card in after["view"]["discard_pile"]
        assert next(s for s in after["seats"] if s["colour"] == "R")["resigned"] is True
        assert after["view"]["legal_moves"] == []  # Red is a spectator of the rest
        over = recv_until(wr, lambda m: m["type"] == "state" and m["status"] == "over", 300)
        assert over["view"]["winners"][0] in ("B", "Y")
    record = GameRecord.from_json(client.get(f"/api/games/{g['id']}/record").text)
    assert record.colours == (0, 1, 2) and record.result.resigned == ("R",)
    assert verify(record).ok
    frames = client.get(f"/api/games/{g['id']}/replay").json()["frames"]
    out = next(i for i, f in enumerate(frames) if f["entry"] and f["entry"]["move"] == "resign")
    assert "R" in frames[out - 1]["view"]["colours"] and "R" not in frames[out]["view"]["colours"]
    # the next game of the match seats everyone again, the resigner too
    r = client.post(f"/api/games/{g['id']}/rematch", json={"seat": "R", "token": g["tokens"]["R"]})
    nxt = client.get(f"/api/games/{r.json()['id']}").json()
    assert [s["colour"] for s in nxt["seats"]] == ["R", "B", "Y"]


def test_undo_against_bots_restores_the_position_and_the_same_card(
    client: TestClient, sqlite_url: str
) -> None:
    """Red plays, the bot answers, Red takes it back: the position string, the card and the
    legal moves are those before Red's move; played again, the same move brings the same
    cards (undo cannot redraw a card). The database holds the game as it is now."""
    g = new_game(client, {"R": "invite", "Y": "bot:easy"})
    gid = g["id"]
    with client.websocket_connect(f"/ws/{gid}") as wr:
        state = my_turn(wr, hello(wr, "R", g["tokens"]["R"]), "R")
        wr.send_json({"type": "undo", "seq": state["seq"]})
        assert reply(wr, "rejected")["code"] == "nothing_to_undo"
        # a turn with a choice, a few turns in, not a 2 (the bot plays after it)
        for _ in range(40):
            view = state["view"]
            if len(view["legal_moves"]) > 1 and state["seq"] >= 4 and view["card"] != "2":
                break
            state = my_turn(wr, play(wr, state, state["view"]["legal_moves"][0]["move"]), "R")
        before = state["view"]
        seq = state["seq"]
        move = before["legal_moves"][-1]["move"]
        after = my_turn(wr, play(wr, state, move), "R")
        assert after["seq"] > seq + 1  # the bot moved too
        next_card = after["view"]["card"]
        wr.send_json({"type": "undo", "seq": after["seq"]})
        # everyone gets the whole state again (with the log), then the undoer's answer
        back = recv_until(wr, lambda m: m["type"] in ("rejected", "state") and m["seq"] == seq)
        assert reply(wr, "undone", "rejected") == {"type": "undone", "seq": seq}
        assert back["view"]["position"] == before["position"]
        assert back["view"]["card"] == before["card"]
        assert back["view"]["legal_moves"] == before["legal_moves"]
        assert back["view"]["draw_count"] == before["draw_count"]
        assert [e["seq"] for e in back["log"]] == list(range(1, seq + 1))
        # a stale undo (the state before) is refused, not applied twice
        wr.send_json({"type": "undo", "seq": after["seq"]})
        assert reply(wr, "rejected")["code"] == "stale"
        again = my_turn(wr, play(wr, back, move), "R")
        assert again["view"]["card"] == next_card
        assert again["view"]["position"] == after["view"]["position"]
        now = again["view"]["position"], again["seq"]
    # a server started afresh on the database reads the same game
    with (
        TestClient(create_app(sqlite_url, fast_settings())) as fresh,
        fresh.websocket_connect(f"/ws/{gid}") as ws,
    ):
        read = hello(ws)
        assert (read["view"]["position"], read["seq"]) == now
    # ended by a resignation, the record verifies: the taken-back moves are not in it, and the
    # cards after them came again in the deck's order
    with client.websocket_connect(f"/ws/{gid}") as wr:
        hello(wr, "R", g["tokens"]["R"])
        wr.send_json({"type": "resign"})
        assert reply(wr, "resigned")["seq"] == now[1] + 1
    record = GameRecord.from_json(client.get(f"/api/games/{gid}/record").text)
    assert verify(record).ok and sum(1 for s in record.steps if not s.is_draw) == now[1] + 1


def test_undo_is_refused_in_a_game_with_another_person(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "B": "invite"})
    with (
        client.websocket_connect(f"/ws/{g['id']}") as wr,
        client.websocket_connect(f"/ws/{g['id']}") as wb,
    ):
        red = hello(wr, "R", g["tokens"]["R"])
        blue = hello(wb, "B", g["tokens"]["B"])
        ws, state = (wr, red) if red["view"]["to_move"] == "R" else (wb, blue)
        state = play(ws, state, state["view"]["legal_moves"][0]["move"])
        ws.send_json({"type": "undo", "seq": state["seq"]})
        refused = reply(ws, "rejected")
        assert (refused["code"], refused["reason"]) == (
            "undo_people",
            "undo is only for a game against bots",
        )
        assert refused["seq"] == state["seq"]


def test_undo_is_refused_in_a_rated_game_and_a_resignation_is_a_loss(
    sqlite_url: str,
) -> None:
    from test_web_accounts import Browser, register, settings, wait_rated

    with TestClient(create_app(sqlite_url, settings())) as app:
        ann = Browser(app)
        register(ann, "Ann")
        g = new_game(ann, {"R": "invite", "Y": "bot:easy"}, room={"start": "full", "rated": True})
        gid = g["id"]
        r = ann.post(f"/api/games/{gid}/join", json={"seat": "R", "token": g["tokens"]["R"]})
        assert r.json()["account"] is True
        with ann.websocket_connect(f"/ws/{gid}") as ws:
            ws.send_json({"type": "hello", "seat": "R"})
            state = my_turn(ws, recv(ws, "state"), "R")
            state = my_turn(ws, play(ws, state, state["view"]["legal_moves"][0]["move"]), "R")
            ws.send_json({"type": "undo", "seq": state["seq"]})
            refused = reply(ws, "rejected")
            assert (refused["code"], refused["reason"]) == ("undo_rated", "no undo in a rated game")
            ws.send_json({"type": "resign"})
            assert reply(ws, "resigned")["colour"] == "R"
        rated = wait_rated(ann, gid)
        assert rated["rated"] is True
        changes = {c["colour"]: c for c in rated["changes"]}
        assert changes["R"]["delta"] < 0
        # the profile's list of games says so
        games = ann.get("/api/players/Ann").json()["games"]
        assert [(g["id"], g["won"], g["resigned"]) for g in games] == [(gid, False, True)]
