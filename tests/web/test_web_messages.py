"""The message table (sorry.web.messages, sorry.web.handlers): every client message has one
payload, one cost class and one handler; the page's types are written from the table and up to
date; and every message a server sends in a game is one the table declares, with the declared
fields and types."""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, NotRequired, Union

from server_helpers import hello, new_game, recv
from sorry.web.handlers import ROUTES
from sorry.web.messages import CLIENT_PAYLOADS, PARTIAL, SERVER_MESSAGES, Cost, Payload
from sorry.web.typegen import JS_FILE, _hints, javascript, optional_keys


def test_the_page_types_are_written_from_the_table() -> None:
    assert JS_FILE.read_text(encoding="utf-8") == javascript(), (
        "static/messages.js is out of date: python -m sorry.web.typegen"
    )


def test_every_client_message_has_one_route_and_a_cost() -> None:
    assert set(ROUTES) == set(CLIENT_PAYLOADS)
    for kind, route in ROUTES.items():
        assert route.payload is CLIENT_PAYLOADS[kind]
        assert isinstance(route.payload.COST, Cost)
        assert issubclass(route.payload, Payload)
    javascript_text = javascript()
    for kind in CLIENT_PAYLOADS:
        assert f'type: "{kind}"' in javascript_text


def conforms(value: Any, tp: Any, where: str, partial: bool = False) -> None:
    """``value`` is of the declared type ``tp`` (TypedDicts key by key; a TypedDict marked
    PARTIAL, a delta's view, may leave out any of its keys)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:
        return conforms(value, args[0], where, PARTIAL in tp.__metadata__)
    if origin is NotRequired:
        return conforms(value, args[0], where)
    if tp is Any:
        return None
    if tp is type(None):
        assert value is None, where
    elif tp is float:
        assert isinstance(value, int | float) and not isinstance(value, bool), where
    elif tp in (str, int, bool):
        assert type(value) is tp, (where, value)
    elif origin is Literal:
        assert value in args, where
    elif origin in (Union, types.UnionType):
        for a in args:
            try:
                conforms(value, a, where)
                return None
            except AssertionError:
                continue
        raise AssertionError((where, value, tp))
    elif origin is list or origin is tuple:
        assert isinstance(value, list), where
        if origin is tuple:
            assert len(value) == len(args), where
            for v, a in zip(value, args, strict=True):
                conforms(v, a, where)
        else:
            for v in value:
                conforms(v, args[0], where)
    elif origin is dict:
        assert isinstance(value, dict), where
        for v in value.values():
            conforms(v, args[1], where)
    elif typing.is_typeddict(tp):
        assert isinstance(value, dict), where
        hints = _hints(tp)
        optional = optional_keys(tp)
        assert set(value) <= set(hints), (where, set(value) - set(hints))
        if not partial:
            missing = set(hints) - optional - set(value)
            assert not missing, (where, missing)
        for k, v in value.items():
            conforms(v, hints[k], f"{where}.{k}")
    else:
        raise AssertionError(f"no check for {tp!r}")
    return None


def test_a_delta_may_carry_part_of_the_view_but_only_declared_fields() -> None:
    """A delta's view holds only the fields that changed (PARTIAL); a whole state's view must
    hold every field; in both, a field of the wrong type or one not declared is refused."""
    delta = SERVER_MESSAGES["delta"]
    conforms({"type": "delta", "seq": 3, "view": {"turn": 4, "card": "7"}}, delta, "delta")
    for wrong in ({"turn": "4"}, {"turn": 4, "mood": "fine"}):
        try:
            conforms({"type": "delta", "seq": 3, "view": wrong}, delta, "delta")
        except AssertionError:
            continue
        raise AssertionError(f"accepted {wrong}")
    view = _hints(SERVER_MESSAGES["state"])["view"]
    try:
        conforms({"turn": 4}, view, "state.view")
    except AssertionError as refused:
        assert "state.view" in str(refused)
    else:
        raise AssertionError("a state with part of a view was accepted")


def test_every_message_sent_is_declared(client: Any) -> None:
    """A points game (hands) with a bot, a player and a spectator: hello, chat, ping, a stale
    move, resync, a bad message: every message received (the bot's deltas too) matches the
    table."""
    g = new_game(client, {"R": "invite", "B": "bot:random"}, variant="points")
    seen: set[str] = set()
    with (
        client.websocket_connect(f"/ws/{g['id']}") as ws,
        client.websocket_connect(f"/ws/{g['id']}") as spectator,
    ):

        def until(sock: Any, kind: str) -> dict[str, Any]:
            while True:
                raw = sock.receive_json()
                assert raw["type"] in SERVER_MESSAGES, raw["type"]
                conforms(raw, SERVER_MESSAGES[raw["type"]], raw["type"])
                seen.add(raw["type"])
                if raw["type"] == kind:
                    return dict(raw)

        ws.send_json({"type": "hello", "seat": "R", "token": g["tokens"]["R"]})
        until(ws, "state")
        spectator.send_json({"type": "hello"})
        until(spectator, "chat_history")
        for message, answer in (
            ({"type": "chat", "phrase": "hello"}, "chat"),
            ({"type": "ping"}, "pong"),
            ({"type": "move", "seq": 10**6, "move": "x"}, "rejected"),
            ({"type": "resync"}, "state"),
            ({"type": "bogus"}, "error"),
        ):
            ws.send_json(message)
            until(ws, answer)
        spectator.send_json({"type": "ping"})
        until(spectator, "pong")
    assert {"chat", "pong", "rejected", "error", "state"} <= seen


def test_a_reaction_goes_to_everyone_on_the_game(client: Any) -> None:
    """The message type added last (react): checked, limited as the chat is, and sent to the
    players and spectators with the seat and name of who reacted."""
    g = new_game(client, {"R": "invite", "Y": "invite"})
    joined = {"seat": "R", "name": "Alice", "token": g["tokens"]["R"]}
    assert client.post(f"/api/games/{g['id']}/join", json=joined).status_code == 200
    with (
        client.websocket_connect(f"/ws/{g['id']}") as red,
        client.websocket_connect(f"/ws/{g['id']}") as watcher,
    ):
        hello(red, "R", g["tokens"]["R"])
        hello(watcher)
        red.send_json({"type": "react", "emoji": "🎉"})
        for ws in (red, watcher):
            m = recv(ws, "reaction")
            assert m == {"type": "reaction", "colour": "R", "name": "Alice", "emoji": "🎉"}
        watcher.send_json({"type": "react", "emoji": "👍"})
        assert recv(red, "reaction") == {
            "type": "reaction",
            "colour": None,
            "name": None,
            "emoji": "👍",
        }
        watcher.send_json({"type": "react", "emoji": "<b>"})
        assert recv(watcher, "error")["code"] == "bad_field"
