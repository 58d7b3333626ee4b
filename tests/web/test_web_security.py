"""What must never happen: a seat acting for another, a hand or the deck order reaching someone
who may not see it, a hostile message crashing a handler."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st
from starlette.testclient import TestClient

from server_helpers import fast_settings, hello, new_game, recv, track
from sorry import Game, Rules
from sorry.cards import card_name
from sorry.web import create_app
from sorry.web.messages import (
    MAX_MESSAGE_BYTES,
    MoveRequest,
    ProtocolError,
    parse_client_message,
)
from sorry.web.protocol import public_view, view_json

FORBIDDEN_KEYS = {"draw_pile", "seed", "rng", "initial", "steps", "current", "token_hash"}
SERVER_TYPES = {
    "welcome",
    "state",
    "delta",
    "seats",
    "accepted",
    "rejected",
    "hint",
    "error",
    "pong",
    "chat",
    "chat_history",
}


def walk(obj: Any, path: str = "") -> Any:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path + "/" + str(k), k, v
            yield from walk(v, path + "/" + str(k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, f"{path}/{i}")


def test_view_json_never_holds_other_hands_or_the_deck() -> None:
    game = Game(Rules(variant="points"), players=4, seed=11)
    for _ in range(60):
        while game.is_chance():
            game.draw()
        if game.is_over():
            break
        for c in game.colours:
            data = view_json(game.view(c), game)
            assert data["hand"] == [card_name(x) for x in game.hands[c]]
            keys = {k for _, k, _ in walk(data)}
            assert not keys & FORBIDDEN_KEYS
            if c != game.to_move:
                assert data["legal_moves"] == []
        spectator = view_json(public_view(game))
        assert spectator["hand"] == [] and spectator["legal_moves"] == []
        assert spectator["viewer"] is None
        game.push(game.legal_moves[0])


def test_every_message_type_keeps_secrets(client: TestClient) -> None:
    """A points game (secret hands): every message each client receives, of every type, holds
    only the receiver's own hand and never the draw pile, seed or generator state."""
    g = new_game(client, {"R": "invite", "B": "invite", "Y": "bot"}, variant="points")
    gid, tokens = g["id"], g["tokens"]
    service = client.app.state.service  # type: ignore[attr-defined]
    seen: dict[str, list[dict[str, Any]]] = {"R": [], "B": [], "spectator": []}
    states: dict[str, list[dict[str, Any]]] = {"R": [], "B": [], "spectator": []}  # deltas applied
    with (
        client.websocket_connect(f"/ws/{gid}") as wr,
        client.websocket_connect(f"/ws/{gid}") as wb,
        client.websocket_connect(f"/ws/{gid}") as wsp,
    ):
        socks = {"R": wr, "B": wb, "spectator": wsp}

        def take(who: str, kind: str) -> dict[str, Any]:
            while True:
                m: dict[str, Any] = socks[who].receive_json()
                seen[who].append(m)  # as sent
                m = track(socks[who], m)
                if m["type"] == "state":
                    states[who].append(m)
                if m["type"] == kind:
                    return m

        wr.send_json({"type": "ping"})  # before hello: an error
        take("R", "error")
        for who in ("R", "B"):
            socks[who].send_json({"type": "hello", "seat": who, "token": tokens[who]})
            take(who, "state")
        wsp.send_json({"type": "hello"})
        take("spectator", "state")
        wsp.send_json({"type": "move", "seq": 0, "move": "pass"})
        take("spectator", "rejected")
        wsp.send_json({"type": "ping"})
        take("spectator", "pong")
        wsp.send_json({"type": "chat", "text": "<b>hi</b>", "name": "Eve"})
        said = take("spectator", "chat")["message"]
        assert said["text"] == "<b>hi</b>" and said["colour"] is None  # plain text, as sent
        moves = 0
        while moves < 25:
            live = service.live[gid]
            mover = "RBYG"[live.game.to_move]
            if mover not in socks:
                take("R", "state")
                continue
            seq = live.seq
            other = "B" if mover == "R" else "R"
            socks[other].send_json({"type": "move", "seq": seq, "move": "pass"})
            take(other, "rejected")
            if moves == 0:  # hints search: one is enough here
                socks[mover].send_json({"type": "hint", "seq": seq})
                take(mover, "hint")
            move = str(live.game.legal_moves[0])
            socks[mover].send_json({"type": "move", "seq": seq, "move": move})
            take(mover, "accepted")
            moves += 1
        wr.send_json({"type": "bogus"})
        take("R", "error")
        hidden = {c: [card_name(x) for x in service.live[gid].game.hands[c]] for c in (0, 1, 2)}
        draw = [card_name(x) for x in service.live[gid].game.draw_pile]
    types = {m["type"] for msgs in seen.values() for m in msgs}
    assert types >= SERVER_TYPES - {"seats"} or types >= SERVER_TYPES
    for who, msgs in seen.items():
        for m in msgs:
            assert m["type"] in SERVER_TYPES
            for path, key, value in walk(m):
                assert key not in FORBIDDEN_KEYS, (who, path)
                if key == "hand":
                    if who == "spectator":
                        assert value == [], path
                    elif m["type"] == "state":
                        assert m["view"]["viewer"] == who
                if key == "viewer":
                    assert value == (None if who == "spectator" else who)
            if m["type"] in ("state", "delta") and who != "spectator":
                assert all(
                    e["card"] is None or e["move"].startswith(e["card"]) or "discard" in e["move"]
                    for e in m.get("log", []) + ([m["last"]] if m.get("last") else [])
                )
        for state in states[who]:  # every state the client had: its own hand only
            assert state["view"]["viewer"] == (None if who == "spectator" else who)
            if who == "spectator":
                assert state["view"]["hand"] == []
    # the current hands of others and the draw pile order appear in nobody else's last state
    last_r = states["R"][-1]
    assert last_r["view"]["hand"] != hidden[1] or hidden[0] == hidden[1]
    text = json.dumps(seen)
    assert json.dumps(draw[-10:]) not in text


def test_rate_limit(sqlite_url: str) -> None:
    app = create_app(sqlite_url, fast_settings(rate=1.0, burst=5.0))
    with TestClient(app) as c:
        g = new_game(c, {"R": "invite", "Y": "invite"})
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            hello(ws)
            for _ in range(12):
                ws.send_json({"type": "ping"})
            kinds = [ws.receive_json()["type"] for _ in range(5)]
            assert "rate_limited" in json.dumps(recv(ws, "error")) or "error" in kinds


def test_oversized_and_binary_messages(client: TestClient) -> None:
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        hello(ws)
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * (MAX_MESSAGE_BYTES + 10)}))
        assert recv(ws, "error")["code"] == "too_large"
        ws.send_bytes(b"\xff\xfe\x00")
        assert recv(ws, "error")["code"] == "bad_json"
        ws.send_bytes(b'{"type": "ping"}')
        assert recv(ws, "pong")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
field_values = st.one_of(
    json_values,
    st.sampled_from(["R", "B", "Y", "G", "r", "", "pass", "R4+1", "RS>4", "discard:7", "7:R4+7"]),
    st.integers(min_value=-(2**70), max_value=2**70),
)
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "move", "hint", "resync", "ping", "nope", ""])},
    optional={
        "seq": field_values,
        "move": field_values,
        "seat": field_values,
        "token": field_values,
    },
)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.text(max_size=300),
        st.binary(max_size=300),
        json_values.map(json.dumps),
        messages.map(json.dumps),
    )
)
def test_parse_client_message_fuzz(raw: Any) -> None:
    try:
        m = parse_client_message(raw)
    except ProtocolError as exc:
        assert exc.code and exc.message
    else:
        assert m.TYPE in ("hello", "move", "hint", "resync", "ping")
        if isinstance(m, MoveRequest):
            assert isinstance(m.seq, int) and isinstance(m.move, str)


def test_hostile_messages_over_a_live_socket(sqlite_url: str) -> None:
    """Hypothesis drives a seated connection with hostile messages: every one gets an answer of
    a known type, the connection stays up, and the game moves only by a legal move."""
    app = create_app(sqlite_url, fast_settings())
    with TestClient(app) as c:
        g = new_game(c, {"R": "invite", "Y": "invite"})
        service = app.state.service
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            hello(ws, "R", g["tokens"]["R"])

            @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
            @given(messages)
            def run(msg: dict[str, Any]) -> None:
                live = service.live[g["id"]]
                before = live.seq
                ws.send_text(json.dumps(msg))
                ws.send_json({"type": "ping"})
                replies = []
                while True:
                    r = ws.receive_json()
                    replies.append(r)
                    assert r["type"] in SERVER_TYPES
                    if r["type"] == "pong":
                        break
                accepted = [r for r in replies if r["type"] == "accepted"]
                assert live.seq == before + len(accepted)
                if not accepted and msg.get("type") not in ("resync",):
                    assert any(r["type"] in ("error", "rejected", "hint", "pong") for r in replies)

            run()
            ws.send_json({"type": "ping"})
            assert recv(ws, "pong")
