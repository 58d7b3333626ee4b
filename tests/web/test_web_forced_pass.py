"""A turn with no legal move passes by itself (``auto_pass``), and the game goes on at once:
the next seat's bot is started when the pass is committed, not by the next tick."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from server_helpers import fast_settings, hello, new_game, receive
from sorry.web import create_app


def test_after_a_forced_pass_the_next_bot_moves_at_once(sqlite_url: str) -> None:
    """Red (a person) plays what it can; its turns with no legal move are passed by the server.
    With the tick at 20 s, the bot's move after each forced pass must come well before it."""
    settings = fast_settings(auto_pass=True, tick=20.0)
    with TestClient(create_app(sqlite_url, settings)) as client:
        g = new_game(client, {"R": "invite", "B": "bot:random"}, seed=3)
        with client.websocket_connect(f"/ws/{g['id']}") as ws:
            state = hello(ws, "R", g["tokens"]["R"])
            passes_followed: list[float] = []
            passed_at: float | None = None
            while len(passes_followed) < 3:
                view = state["view"]
                if state.get("status") == "over":
                    break
                if view["to_move"] == "R" and view["legal_moves"] and passed_at is None:
                    moves = [m["move"] for m in view["legal_moves"]]
                    if moves != ["pass"]:
                        ws.send_json({"type": "move", "seq": state["seq"], "move": moves[0]})
                msg = receive(ws)
                if msg["type"] != "state":
                    continue
                state = msg
                last: dict[str, Any] | None = state.get("last")
                if last is None:
                    continue
                if last["actor"] == "forced":
                    passed_at = time.monotonic()
                elif passed_at is not None and last["colour"] == "B":
                    passes_followed.append(time.monotonic() - passed_at)
                    passed_at = None
            assert len(passes_followed) == 3, passes_followed
            assert max(passes_followed) < 10.0, passes_followed
