"""The after-game analysis computed while the game is played (sorry.web.analysis): the
decisions of a game with a person in it are valued as they are played, in the workers'
lowest priority, so that at the end only the last few remain; the result is byte for byte
the analysis of the finished game in one go; a game of bots only gets none of it; at most
``ahead_games`` games at once; an abandoned game's work is dropped."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from server_helpers import fast_settings, hello, new_game, play, recv, recv_until
from sorry.analysis import account, report
from sorry.record import GameRecord
from sorry.web import analysis, create_app
from sorry.web.analysis import SEED, AnalysisCache, localised_job

ROLLOUTS = 2  # few rollouts: the bookkeeping is tested, not the estimates


@pytest.fixture
def app_client(sqlite_url: str) -> Iterator[tuple[Any, TestClient]]:
    app = create_app(sqlite_url, fast_settings())
    app.state.analysis = AnalysisCache(rollouts=ROLLOUTS)
    with TestClient(app) as c:
        yield app, c


def _until(what: Callable[[], bool], seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)


def _moves(state: dict[str, Any]) -> int:
    """Decisions played so far (the log has one entry a decision)."""
    return len(state["log"])


def _play_red(
    client: TestClient,
    gid: str,
    token: str,
    pause_at: int | None = None,
    at_pause: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Red (a person) plays the first legal move each turn until the game is over; once
    ``pause_at`` decisions are played, ``at_pause(decisions)`` is called (Red waits)."""
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws, "R", token)
        paused = False
        while state["status"] == "playing":
            if not paused and pause_at is not None and _moves(state) >= pause_at:
                paused = True
                assert at_pause is not None
                at_pause(_moves(state))
            view = state["view"]
            if view["to_move"] == "R" and view["legal_moves"]:
                state = play(ws, state, view["legal_moves"][0]["move"])
            else:
                state = recv(ws, "state", limit=5000)
        return state


def _analysis(client: TestClient, gid: str) -> bytes:
    deadline = time.monotonic() + 600
    while True:
        r = client.get(f"/api/games/{gid}/analysis?lang=en&wait=10")
        if r.status_code == 200:
            return r.content
        assert r.status_code == 202 and time.monotonic() < deadline, r.text


def _one_go(client: TestClient, gid: str) -> bytes:
    """The finished game's analysis in one go, as `sorry analyse` makes it, with the words
    the server adds."""
    record = GameRecord.from_json(client.get(f"/api/games/{gid}/record").text)
    whole = account.analyse(record, rollouts=ROLLOUTS, seed=SEED)
    return localised_job(report.to_dict(whole, describe_moves=False), record.to_json(), "en")


def test_a_persons_game_is_analysed_as_it_is_played_and_equals_the_analysis_in_one_go(
    app_client: tuple[Any, TestClient],
) -> None:
    app, client = app_client
    g = new_game(client, {"R": "invite", "Y": "bot:easy"})
    cache: AnalysisCache = app.state.analysis
    seen: list[int] = []

    def caught_up(played: int) -> None:
        # mid-game the decisions played so far get valued, while Red thinks
        _until(lambda: cache.ahead_of(g["id"]) >= played)
        seen.append(cache.ahead_of(g["id"]))
        assert cache.analysed_ahead == 1

    state = _play_red(client, g["id"], g["tokens"]["R"], pause_at=40, at_pause=caught_up)
    assert seen and seen[0] >= 40
    body = _analysis(client, g["id"])
    # the analysis used the work done during the game: at least what was valued mid-game
    assert cache.ahead_of(g["id"]) >= seen[0]
    assert cache.analysed_ahead == 0  # the game is over: its advance work is done with
    assert body == _one_go(client, g["id"])
    assert len(json.loads(body)["decisions"]) == _moves(state)  # the whole game


def test_a_game_of_bots_only_is_not_analysed_ahead(app_client: tuple[Any, TestClient]) -> None:
    app, client = app_client
    cache: AnalysisCache = app.state.analysis
    gid = new_game(client, {"R": "bot:easy", "Y": "bot:easy"})["id"]
    most = 0
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws)
        while state["status"] == "playing":
            most = max(most, cache.analysed_ahead, cache.ahead_of(gid))
            state = recv(ws, "state", limit=5000)
    assert most == 0 and cache.ahead_of(gid) == 0
    body = _analysis(client, gid)  # analysed at the end, as before
    assert cache.ahead_of(gid) == 0 and body == _one_go(client, gid)


def test_at_most_so_many_games_ahead_and_an_abandoned_games_work_is_dropped(
    app_client: tuple[Any, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, client = app_client
    cache = app.state.analysis = AnalysisCache(rollouts=ROLLOUTS, ahead_games=1)
    cache.CHECK = 0.1  # look at idle games often
    first = new_game(client, {"R": "invite", "Y": "bot:easy"})
    second = new_game(client, {"R": "invite", "Y": "bot:easy"})
    with (
        client.websocket_connect(f"/ws/{first['id']}") as one,
        client.websocket_connect(f"/ws/{second['id']}") as two,
    ):
        states = [hello(one, "R", first["tokens"]["R"]), hello(two, "R", second["tokens"]["R"])]
        for _round in range(6):  # a few moves in each game
            for k, ws in enumerate((one, two)):
                state = states[k]
                while state["view"]["to_move"] != "R":
                    state = recv(ws, "state", limit=5000)
                states[k] = play(ws, state, state["view"]["legal_moves"][0]["move"])
        _until(lambda: cache.ahead_of(first["id"]) > 0)
        assert cache.analysed_ahead == 1 and cache.ahead_of(second["id"]) == 0
        # nobody moves for longer than AHEAD_IDLE: the work is dropped, the slot freed
        monkeypatch.setattr(analysis, "AHEAD_IDLE", 0.0)
        _until(lambda: cache.analysed_ahead == 0, 30)
        assert cache.ahead_of(first["id"]) == 0
        monkeypatch.setattr(analysis, "AHEAD_IDLE", 600.0)
        # the next move of the other game takes the free slot
        state = states[1]
        while state["view"]["to_move"] != "R":
            state = recv(two, "state", limit=5000)
        play(two, state, state["view"]["legal_moves"][0]["move"])
        _until(lambda: cache.ahead_of(second["id"]) > 0)
        assert cache.analysed_ahead == 1


def test_a_request_may_wait_for_the_analysis(app_client: tuple[Any, TestClient]) -> None:
    """``?wait=S``: the answer comes when the analysis is ready (or after S seconds, with the
    progress); a bad value is no wait."""
    _app, client = app_client
    gid = new_game(client, {"R": "bot:easy", "Y": "bot:easy"})["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws)
        while state["status"] == "playing":
            state = recv(ws, "state", limit=5000)
    r = client.get(f"/api/games/{gid}/analysis?wait=nonsense")
    assert r.status_code == 202  # no wait: the progress at once
    for _ask in range(100):
        r = client.get(f"/api/games/{gid}/analysis?wait=10")
        if r.status_code == 200:
            break
        assert r.status_code == 202
    assert r.status_code == 200 and r.json()["format"] == "sorry-analysis"


def test_moves_taken_back_drop_their_values(app_client: tuple[Any, TestClient]) -> None:
    """Red plays a move, its decision is valued ahead, Red takes it back and plays another:
    the analysis at the end is still the one of the game as played, byte for byte."""
    app, client = app_client
    cache: AnalysisCache = app.state.analysis
    g = new_game(client, {"R": "invite", "Y": "bot:easy"})
    gid = g["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws, "R", g["tokens"]["R"])
        undone = False
        while state["status"] == "playing":
            view = state["view"]
            if view["to_move"] != "R" or not view["legal_moves"]:
                state = recv(ws, "state", limit=5000)
                continue
            legal = view["legal_moves"]
            if not undone and len(legal) > 1 and _moves(state) >= 20:
                undone = True
                seq = state["seq"]
                after = play(ws, state, legal[-1]["move"])
                while after["view"]["to_move"] != "R":  # the bot answers: Red's turn again
                    after = recv(ws, "state", limit=5000)
                assert after["status"] == "playing"
                _until(lambda s=seq: cache.ahead_of(gid) > s)  # the move is valued
                ws.send_json({"type": "undo", "seq": after["seq"]})
                state = recv_until(
                    ws, lambda m, s=seq: m["type"] in ("state", "rejected") and m["seq"] == s
                )
                assert state["view"]["legal_moves"] == legal
                _until(lambda s=seq: cache.ahead_of(gid) <= s, 30)  # its value is dropped
            state = play(ws, state, state["view"]["legal_moves"][0]["move"])
    assert undone
    body = _analysis(client, gid)
    assert cache.ahead_of(gid) > 0
    assert body == _one_go(client, gid)
