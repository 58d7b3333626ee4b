"""The after-game analysis on the server (sorry.web.analysis): computed once per finished game
in the worker processes and cached, the words in each reader's language, progress while it
works, and a clear refusal for a game that is still played or cannot be analysed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import preset_game
from starlette.testclient import TestClient

from server_helpers import fast_settings, hello, new_game, recv
from sorry.record import Seat
from sorry.web import create_app
from sorry.web.analysis import AnalysisCache


@pytest.fixture
def app_client(sqlite_url: str) -> Iterator[tuple[Any, TestClient]]:
    app = create_app(sqlite_url, fast_settings())
    app.state.analysis = AnalysisCache(rollouts=2)  # few rollouts: the bookkeeping is tested
    with TestClient(app) as c:
        yield app, c


def _finished_bot_game(client: TestClient, variant: str = "standard") -> str:
    seats = {"R": "bot:easy", "Y": "bot:easy"}
    if variant == "teams":
        seats = {"R": "bot:easy", "B": "bot:easy", "Y": "bot:easy", "G": "bot:easy"}
    gid: str = new_game(client, seats, variant)["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws)
        while state["status"] == "playing":
            state = recv(ws, "state", limit=5000)
    return gid


def _analysis(client: TestClient, gid: str, lang: str = "en", seconds: float = 600) -> Any:
    """Ask until the analysis is ready; every answer on the way is a progress report."""
    deadline = time.monotonic() + seconds
    seen_progress = []
    while time.monotonic() < deadline:
        r = client.get(f"/api/games/{gid}/analysis?lang={lang}")
        if r.status_code == 200:
            assert r.headers["cache-control"].startswith("public")
            return r.json(), seen_progress
        assert r.status_code == 202, r.text
        assert r.headers["cache-control"] == "no-store"
        body = r.json()
        assert body["status"] == "working" and 0 <= body["done"] <= body["total"]
        seen_progress.append(body["done"])
        time.sleep(0.2)
    raise AssertionError("the analysis took too long")


@pytest.mark.parametrize("variant", ["standard", "teams"])
def test_a_finished_game_is_analysed_once_and_read_in_every_language(
    app_client: tuple[Any, TestClient], variant: str
) -> None:
    app, client = app_client
    gid = _finished_bot_game(client, variant)
    data, progress = _analysis(client, gid)
    assert progress == sorted(progress)
    assert data["format"] == "sorry-analysis" and data["estimator"]["rollouts_per_card"] == 2
    turns = data["result"]["turns"]
    assert len(data["decisions"]) == turns and len(data["turns"]) == turns
    assert len(data["points"]) == 1 + len(data["draws"]) + turns
    for p in data["players"]:  # the account adds up (rounded to floats here)
        assert p["start"] + p["luck"] + p["decisions"] == pytest.approx(p["result"], abs=1e-9)
        assert p["label"].startswith(("Red", "Blue", "Yellow", "Green"))
    assert all(t["text"] for t in data["turns"])
    assert {m["kind"] for m in data["marks"]} >= {"luckiest", "unluckiest"}
    assert len(data["swings"]) >= 3 and all(s["text"].startswith("turn ") for s in data["swings"])
    # computed once: asking again, or in another language, runs no new analysis
    pool = app.state.service.pool
    done = pool.done
    again, _progress = _analysis(client, gid)
    assert again == data and pool.done == done
    catalan, _progress = _analysis(client, gid, "ca")
    assert pool.done == done + 1  # the words, in a worker (the language is per process)
    assert catalan["players"][0]["label"].startswith(("Vermell", "Blau", "Groc", "Verd"))
    assert catalan["points"] == data["points"] and catalan["turns"] != data["turns"]
    _analysis(client, gid, "ca")
    assert pool.done == done + 1


def test_not_over_unknown_and_not_analysable(
    app_client: tuple[Any, TestClient], sqlite_url: str
) -> None:
    _app, client = app_client
    playing = new_game(client, {"R": "invite", "Y": "invite"})["id"]
    r = client.get(f"/api/games/{playing}/analysis")
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert client.get("/api/games/nosuchgame00/analysis").status_code == 404
    # a game set up in a position (not from a seed) has no record to analyse: one line
    g = preset_game(
        sqlite_url,
        "R:s5,H,H,H Y:S,S,S,S R",
        base="http://testserver",
        card="1",
        seats={"R": "invite", "Y": "bot:easy"},
    )
    with client.websocket_connect(f"/ws/{g['id']}") as ws:
        state = hello(ws, "R", g["tokens"]["R"])
        ws.send_json(
            {"type": "move", "seq": state["seq"], "move": state["view"]["legal_moves"][0]["move"]}
        )
        while state["status"] == "playing":
            state = recv(ws, "state")
    deadline = time.monotonic() + 60
    while True:
        r = client.get(f"/api/games/{g['id']}/analysis")
        if r.status_code != 202 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert r.status_code == 422
    error = r.json()["error"]
    assert "no record to analyse" in error and "\n" not in error


def test_values_made_for_other_seats_are_made_again() -> None:
    """The analysis models the players the record names (a bot's level): values made ahead
    of the end for other players (a seat that became a bot) are not used, the finished game
    is valued again, and the result is the record's own analysis."""
    from analysis_helpers import record
    from sorry.analysis import account, report
    from sorry.analysis.calibration import seat_strengths
    from sorry.web.analysis import SEED, ahead_job, final_job, start_job

    rec = record("standard", 2, levels=("hard", "easy"))
    text = rec.to_json()
    start = start_job(text, 2)
    assert start[5] == seat_strengths(rec)
    people = {c: Seat(c, "human", "Ann") for c in rec.colours}  # as if two people sat there
    model, early, values, _seconds = ahead_job(rec.start().to_dict(), people, 2, 0, 3, True)
    assert model[1] == (0.0, 0.0, 0.0, 0.0) and early is not None
    assert final_job(text, 2, early, values) is None  # not the record's players
    whole = report.to_dict(account.analyse(rec, rollouts=2, seed=SEED), describe_moves=False)
    assert final_job(text, 2, start, []) == whole


def test_a_finished_games_pieces_end_after_half_a_second() -> None:
    """A piece of a finished game's analysis values decisions one after the other and ends
    with the one under way after half a second (a decision takes up to seconds: a bot's move
    waits for one piece at most), giving the same values as the whole range at once; the
    server asks for the rest until every decision is valued."""
    import asyncio

    from sorry.analysis import account
    from sorry.game import Game
    from sorry.record import GameRecord
    from sorry.web import analysis

    game = Game(players=[0, 2], seed=3)
    while not game.is_over() and len(game.move_stack) < 40:
        if game.is_chance():
            game.draw()
        else:
            game.push(game.legal_moves[-1])
    record = GameRecord.from_game(game, {c: Seat(c, "human", "P") for c in (0, 2)})
    text = record.to_json()
    total = account.decision_count(record)
    whole = analysis.chunk_job(text, 4, 0, total)
    assert len(whole) == total >= 10
    assert analysis.chunk_job(text, 4, 3, total, budget=0.0) == whole[3:4]  # one, at least
    assert analysis.chunk_job(text, 4, 3, 7, budget=60.0) == whole[3:7]

    asked: list[tuple[int, int, float]] = []

    async def run(_priority: int, fn: Any, *args: Any) -> Any:
        assert fn is analysis.chunk_job
        _text, _rollouts, first, last, budget = args
        asked.append((first, last, budget))
        return [f"d{i}" for i in range(first, min(last, first + 3))]  # three within budget

    entry = analysis._Entry()
    entry.total = 10

    async def scenario() -> list[Any]:
        return await AnalysisCache()._pieces(run, "", entry, ["d0"])

    assert asyncio.run(scenario()) == [f"d{i}" for i in range(10)] and entry.done == 10
    budget = analysis.PIECE_BUDGET
    assert asked == [(1, 10, budget), (4, 10, budget), (7, 10, budget)]
    assert analysis.piece_size("compiled", 2, 0.84, 0.2) == 1  # the advance jobs' sizes
    assert analysis.piece_size("compiled", 16, 0.11, 0.2) == 16
    assert analysis.piece_size("python", 1, 0.01, 0.2) == 2
