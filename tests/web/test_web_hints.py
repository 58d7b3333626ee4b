"""The server's hint reply: the suggested move, its words, and each move's chance of winning
with its 95% interval and a tie mark, in concrete positions; the bot levels'
sentences of /api/meta and the page's catalog (item 5)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from server_helpers import fast_settings, hello, new_game, play, recv
from sorry import Game
from sorry.bots import LEVEL_TABLE
from sorry.bots.estimate import _cache as estimate_cache
from sorry.bots.rollouts import compiled_available
from sorry.i18n import translation
from sorry.rng import Rng
from sorry.web import create_app
from sorry.web.bots import hint_reply
from sorry.web.i18n import script_catalog
from sorry.web.players import HINT_MOVES, hint_estimates

#: Red's pawn in Safety 1 goes HOME with the 5 (three are there): far better than the 50.
SEPARATED = ("R:H,H,50,s1 Y:H,H,H,40 R", 5)
#: Yellow goes HOME with its next 1, whatever Red does with the 2: no move is better.
TIED = ("R:S,S,S,10 Y:H,H,H,s5 R", 2)
FIELDS = {"move", "win", "low", "high", "worlds", "tied"}


def view_of(position: str, card: int) -> Any:
    g = Game.from_position(position, card=card)
    return g.view(g.to_move)


def check_estimates(reply: dict[str, Any], legal: list[str]) -> None:
    """What every hint reply with estimates holds."""
    moves = reply["moves"]
    assert [m["move"] for m in moves] and reply["move"] == moves[0]["move"]
    assert {m["move"] for m in moves} <= set(legal) and len(moves) == min(len(legal), HINT_MOVES)
    for m in moves:
        assert set(m) == FIELDS
        assert 0.0 <= m["low"] <= m["win"] <= m["high"] <= 1.0
        assert all(m[k] == round(m[k], 3) for k in ("win", "low", "high"))
        assert m["worlds"] >= 1 and isinstance(m["tied"], bool)
    wins = [m["win"] for m in moves]
    assert wins == sorted(wins, reverse=True)
    assert reply["separated"] == (not moves[0]["tied"])
    json.dumps(reply)  # it travels as JSON


def test_the_reply_tells_the_better_move_apart() -> None:
    view = view_of(*SEPARATED)
    reply = hint_reply(7, hint_estimates(view, Rng(1), cpu_seconds=None, max_worlds=64))
    assert reply["type"] == "hint" and reply["seq"] == 7
    assert reply["move"] == "Rs1+5" and reply["text"] == "Red Safety 1 → HOME"
    check_estimates(reply, ["Rs1+5", "R50+5"])
    best, other = reply["moves"]
    assert reply["separated"] and not best["tied"] and not other["tied"]
    assert best["win"] > other["win"] and best["low"] > other["low"]
    assert best["worlds"] == other["worlds"] <= 64


def test_the_reply_marks_moves_it_cannot_tell_apart_as_tied() -> None:
    view = view_of(*TIED)
    reply = hint_reply(3, hint_estimates(view, Rng(1), cpu_seconds=None, max_worlds=64))
    check_estimates(reply, ["RS>4", "R10+2"])
    assert not reply["separated"]
    assert [m["tied"] for m in reply["moves"]] == [True, True]
    assert all(m["win"] < 0.2 for m in reply["moves"])  # Yellow wins nearly always


def test_the_hint_is_the_terminal_games_the_same_every_time_and_cached() -> None:
    """The browser's hint and the terminal game's are one estimate (a fixed number of
    rollouts, no time budget): the same numbers, computed again or not."""
    pytest.importorskip("numba")
    from sorry.bots import hint_estimate
    from sorry.bots.rollouts import warmup
    from sorry.tui.players import estimate_chances

    warmup()  # the compiled rollouts loaded (a cold cache compiles them: minutes)
    view = view_of(*SEPARATED)
    estimate_cache.clear()
    first = hint_estimates(view, Rng(1))
    assert first["move"] == "Rs1+5" and first["separated"]
    est = hint_estimate(view)
    assert [(m["move"], m["win"], m["worlds"]) for m in first["moves"]] == [
        (str(m.move), round(m.win, 3), m.worlds) for m in est.moves
    ]
    g = Game.from_position(SEPARATED[0], card=SEPARATED[1])
    tui = estimate_chances(g)  # the terminal game's hint, as its side panel asks for it
    assert [(c.move, c.win, c.worlds) for c in tui] == [
        (m.move, m.win, m.worlds) for m in est.moves
    ]
    estimate_cache.clear()
    assert hint_estimates(view, Rng(2)) == first  # computed again: the same numbers
    c0 = time.process_time()
    assert hint_estimates(view, Rng(3)) == first  # cached
    assert time.process_time() - c0 < 0.005


def test_a_forced_move_has_no_chance_of_winning() -> None:
    view = view_of("R:S,S,S,S Y:20,30,40,S R", 5)  # nothing can move: a pass
    reply = hint_reply(4, hint_estimates(view, Rng(1)))
    assert reply["move"] == "pass" and reply["forced"] and reply["moves"] == []


def warm() -> None:
    """The compiled rollouts in numba's cache (compiled now if it is cold: minutes), so that
    the server's workers load them when they start."""
    try:
        from sorry.bots.rollouts import warmup
    except ImportError:  # pragma: no cover - the bots are part of the package
        return
    warmup()


def test_the_hint_over_the_websocket_carries_each_moves_estimate(sqlite_url: str) -> None:
    warm()
    with TestClient(create_app(sqlite_url, fast_settings())) as client:
        hints_over_the_websocket(client)


def hints_over_the_websocket(client: TestClient) -> None:
    g = new_game(client, {"R": "invite", "Y": "invite"})
    gid, tokens = g["id"], g["tokens"]
    with client.websocket_connect(f"/ws/{gid}") as wr, client.websocket_connect(f"/ws/{gid}") as wy:
        states = {"R": hello(wr, "R", tokens["R"]), "Y": hello(wy, "Y", tokens["Y"])}
        socks = {"R": wr, "Y": wy}
        deadline = time.monotonic() + 300  # the worker loads the compiled rollouts first
        estimated = 0
        while estimated < 3:
            assert time.monotonic() < deadline, "no estimates in 300 s"
            mover = states["R"]["view"]["to_move"]
            state = states[mover]
            assert state["status"] == "playing"
            legal = [m["move"] for m in state["view"]["legal_moves"]]
            socks[mover].send_json({"type": "hint", "seq": state["seq"]})
            reply = recv(socks[mover], "hint")
            assert set(reply) == {
                "type", "seq", "move", "text", "moves", "words", "separated", "forced",
                "rough", "provisional",
            }  # fmt: skip
            assert reply["rough"] is (not compiled_available())  # compiled here: a verdict
            assert reply["seq"] == state["seq"] and reply["move"] in legal and reply["text"]
            if reply["moves"]:
                check_estimates(reply, legal)
                estimated += 1
                # the hint in a player's words, the terminal game's (sorry.hintwords)
                words = reply["words"]
                assert words["say"].startswith("Best: ")
                assert words["tags"][0] == "best" and len(words["tags"]) == len(reply["moves"])
                assert words["figures"][0].endswith("]") and "%" not in words["say"]
                socks[mover].send_json({"type": "hint", "seq": state["seq"]})
                assert recv(socks[mover], "hint") == reply  # computed once, the same answer
            else:
                time.sleep(0.5)  # the workers still load the estimator
            other = "Y" if mover == "R" else "R"
            states[mover] = play(socks[mover], state, reply["move"])
            states[other] = recv(socks[other], "state")


def test_meta_sends_each_levels_sentence_and_the_page_translates_it(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    sentences = meta["level_sentences"]
    assert sentences == {info.level: info.strength for info in LEVEL_TABLE}
    assert set(sentences) == set(meta["bot_levels"])
    for lang in ("el", "sw"):
        catalog = script_catalog(lang)
        tr = translation(lang)
        for text in sentences.values():
            assert catalog[text] == tr.gettext(text) != text
    page = client.get("/?lang=eo").text
    assert translation("eo").gettext(sentences["easy"]) in page  # in the page's own catalog
