"""Limits and hardening: each limit answers with a clear error (HTTP 429/403/503 or a WebSocket
close with its reason), a rebinding Host is refused, the security headers are present, hints
are shared and limited, bots and hints run in the worker pool by priority, idle games leave
memory and come back on demand."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server_helpers import fast_settings, generous_limits, hello, new_game, play, recv
from sorry import Game
from sorry.rng import Rng
from sorry.web import create_app
from sorry.web.limits import HostPolicy, Turns, split_host
from sorry.web.workers import BOT, LOW, PoolBusy, WorkerPool, bot_move


def app_client(sqlite_url: str, **kw: Any) -> TestClient:
    return TestClient(create_app(sqlite_url, fast_settings(**kw)))


# -- Host allow-list (DNS rebinding) ---------------------------------------------------------
def test_host_policy() -> None:
    local = HostPolicy("127.0.0.1")
    for ok in ("localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST"):
        assert local.allows(ok), ok
    for bad in ("evil.example", "evil.example:8000", "10.0.0.7:8000", "", None, "a b", "x;y"):
        assert not local.allows(bad), bad
    named = HostPolicy("127.0.0.1", ("games.example.org",))
    assert named.allows("games.example.org") and named.allows("games.example.org:443")
    assert not named.allows("evil.example")
    everywhere = HostPolicy("0.0.0.0")
    assert everywhere.allows("192.168.1.20:8000") and everywhere.allows("[fe80::1]:8000")
    assert not everywhere.allows("evil.example:8000")  # a name: maybe rebound
    assert HostPolicy("127.0.0.1", ("*",)).allows("anything.example")
    assert split_host("[::1]:80") == "::1" and split_host("Name:1") == "name"


def test_a_rebinding_host_is_refused(sqlite_url: str) -> None:
    with app_client(sqlite_url) as c:
        g = new_game(c)
        evil = {"Host": "evil.example:8000"}
        for path in ("/", f"/g/{g['id']}", "/api/meta", f"/api/games/{g['id']}"):
            r = c.get(path, headers=evil)
            assert r.status_code == 403, path
            assert "Host not allowed" in r.json()["error"]
        r = c.post("/api/games", json={"seats": []}, headers=evil)
        assert r.status_code == 403
        r = c.post(f"/api/games/{g['id']}/join", json={"seat": "R"}, headers=evil)
        assert r.status_code == 403
        with c.websocket_connect(f"/ws/{g['id']}", headers=evil) as ws:
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008 and "Host not allowed" in closed.value.reason
        assert c.get("/api/meta", headers={"Host": "localhost:8000"}).status_code == 200


def test_security_headers_on_every_response(sqlite_url: str) -> None:
    with app_client(sqlite_url) as c:
        g = new_game(c)
        for path in ("/", f"/g/{g['id']}", "/api/meta", "/static/app.js", "/nothing"):
            r = c.get(path)
            csp = r.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp, path
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp
            assert "connect-src 'self' ws://testserver wss://testserver" in csp
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["referrer-policy"] == "no-referrer"
            assert r.headers["x-frame-options"] == "DENY"


def test_the_page_has_no_inline_script() -> None:
    """The CSP allows scripts from files only: the page may hold a JSON data block, no code."""
    import re

    from sorry.web.i18n import render_page

    html = render_page("en")
    for attrs in re.findall(r"<script([^>]*)>", html):
        assert "src=" in attrs or 'type="application/json"' in attrs, attrs
    assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers


# -- per-address limits ----------------------------------------------------------------------
def test_game_creation_is_rate_limited_per_address(sqlite_url: str) -> None:
    limits = generous_limits(create_rate=0.001, create_burst=2)
    with app_client(sqlite_url, limits=limits) as c:
        new_game(c)
        new_game(c)
        two = {"seats": [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "invite"}]}
        r = c.post("/api/games", json=two)
        assert r.status_code == 429
        assert "too many games created" in r.json()["error"]
        assert int(r.headers["retry-after"]) > 0


def test_connections_per_address_are_capped(sqlite_url: str) -> None:
    with app_client(sqlite_url, limits=generous_limits(connections=2)) as c:
        g = new_game(c)
        with c.websocket_connect(f"/ws/{g['id']}") as a, c.websocket_connect(f"/ws/{g['id']}") as b:
            hello(a)
            hello(b)
            with c.websocket_connect(f"/ws/{g['id']}") as third:
                m = third.receive_json()
                assert m["code"] == "rate_limited" and "too many connections" in m["error"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.receive_json()
                assert closed.value.code == 1013 and "too many connections" in closed.value.reason
        # closed connections no longer count
        with c.websocket_connect(f"/ws/{g['id']}") as again:
            hello(again)


def test_new_connections_are_rate_limited_per_address(sqlite_url: str) -> None:
    limits = generous_limits(connect_rate=0.001, connect_burst=3)
    with app_client(sqlite_url, limits=limits) as c:
        g = new_game(c)
        for _ in range(3):
            with c.websocket_connect(f"/ws/{g['id']}") as ws:
                hello(ws)
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = ws.receive_json()
            assert m["code"] == "rate_limited" and "new connections" in m["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1013


def test_a_client_sending_too_fast_is_told_then_closed_with_the_reason(sqlite_url: str) -> None:
    with app_client(sqlite_url, rate=1.0, burst=2.0) as c:
        g = new_game(c)
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            hello(ws)
            for _ in range(60):
                ws.send_json({"type": "ping"})
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(200):
                    m = ws.receive_json()
                    codes.append(m.get("code"))
            assert "rate_limited" in codes
            assert closed.value.code == 1008 and "too many messages" in closed.value.reason


def test_games_without_a_human_only_when_allowed(sqlite_url: str) -> None:
    with app_client(sqlite_url, allow_bot_games=False) as c:
        r = c.post(
            "/api/games",
            json={"seats": [{"colour": "R", "kind": "bot"}, {"colour": "Y", "kind": "bot"}]},
        )
        assert r.status_code == 403 and "--allow-bot-games" in r.json()["error"]
        new_game(c, {"R": "invite", "Y": "bot"})  # one human is enough


# -- hints -----------------------------------------------------------------------------------
def to_move_socket(
    socks: dict[str, Any], states: dict[str, dict[str, Any]]
) -> tuple[str, Any, dict[str, Any]]:
    mover = states["R"]["view"]["to_move"]
    return mover, socks[mover], states[mover]


def test_hints_are_shared_and_limited_per_seat(sqlite_url: str) -> None:
    with app_client(sqlite_url, hint_rate=0.001, hint_burst=1) as c:
        g = new_game(c)
        service = c.app.state.service  # type: ignore[attr-defined]
        gid, tokens = g["id"], g["tokens"]
        with (
            c.websocket_connect(f"/ws/{gid}") as wr,
            c.websocket_connect(f"/ws/{gid}") as wr2,
            c.websocket_connect(f"/ws/{gid}") as wy,
        ):
            states = {"R": hello(wr, "R", tokens["R"]), "Y": hello(wy, "Y", tokens["Y"])}
            hello(wr2, "R", tokens["R"])
            socks = {"R": wr, "Y": wy}
            mover, ws, st = to_move_socket(socks, states)
            other = "Y" if mover == "R" else "R"
            # the seat's hint: computed once, the same answer on every connection of the seat
            # (counted here; an answer of the worker still loading the estimator is made final,
            # as it would be once loaded: test_a_provisional_hint_is_not_kept)
            real, asked = service.pool.hint, []

            async def counted(view: Any, seed: int) -> Any:
                asked.append(seed)
                result = await real(view, seed)
                result.pop("provisional", None)
                return result

            service.pool.hint = counted
            ws.send_json({"type": "hint", "seq": st["seq"]})
            first = recv(ws, "hint")
            if mover == "R":
                wr2.send_json({"type": "hint", "seq": st["seq"]})
                assert recv(wr2, "hint")["move"] == first["move"]
            ws.send_json({"type": "hint", "seq": st["seq"]})
            assert recv(ws, "hint")["move"] == first["move"]
            assert len(asked) == 1
            assert first["move"] in [m["move"] for m in st["view"]["legal_moves"]]
            # the seat's next position: over its limit
            states[mover] = play(ws, st, first["move"])
            states[other] = recv(socks[other], "state")
            while states[other]["view"]["to_move"] != mover:
                o = states[other]
                states[other] = play(socks[other], o, o["view"]["legal_moves"][0]["move"])
                states[mover] = recv(ws, "state")
            while states[mover]["seq"] < states[other]["seq"]:
                states[mover] = recv(ws, "state")
            ws.send_json({"type": "hint", "seq": states[mover]["seq"]})
            m = recv(ws, "error")
            assert m["code"] == "hint_rate_limited" and "this seat" in m["error"]


def test_a_provisional_hint_is_not_kept(sqlite_url: str) -> None:
    """While a worker loads the estimator its hint is the medium bot's move with no estimates
    (``provisional``): asked again, the seat gets the estimates, not that stand-in from the
    cache; an answer with estimates is kept."""
    with app_client(sqlite_url) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        g = new_game(c)
        answers: list[dict[str, Any]] = []

        async def fake_hint(view: Any, seed: int) -> dict[str, Any]:
            move = str(view.legal_moves[0])
            if not answers:
                answers.append({"move": move, "moves": [], "separated": False, "provisional": True})
            else:
                chance = {
                    "move": move,
                    "win": 0.5,
                    "low": 0.4,
                    "high": 0.6,
                    "worlds": 9,
                    "tied": False,
                }
                answers.append({"move": move, "moves": [chance], "separated": True})
            return answers[-1]

        service.pool.hint = fake_hint
        with (
            c.websocket_connect(f"/ws/{g['id']}") as wr,
            c.websocket_connect(f"/ws/{g['id']}") as wy,
        ):
            states = {"R": hello(wr, "R", g["tokens"]["R"]), "Y": hello(wy, "Y", g["tokens"]["Y"])}
            _mover, ws, st = to_move_socket({"R": wr, "Y": wy}, states)
            for expected in ([], [9], [9]):
                ws.send_json({"type": "hint", "seq": st["seq"]})
                reply = recv(ws, "hint")
                assert [m["worlds"] for m in reply["moves"]] == expected
                assert reply["provisional"] is (expected == [])  # the stand-in said as such
            assert len(answers) == 2  # the provisional one asked again, the real one kept


def test_hints_are_limited_per_address(sqlite_url: str) -> None:
    limits = generous_limits(hint_rate=0.001, hint_burst=1)
    with app_client(sqlite_url, limits=limits) as c:
        a, b = new_game(c), new_game(c)
        answers = []
        for g in (a, b):
            with c.websocket_connect(f"/ws/{g['id']}") as ws:
                mover = hello(ws)["view"]["to_move"]  # watch first, to learn who is to move
            with c.websocket_connect(f"/ws/{g['id']}") as ws:
                state = hello(ws, mover, g["tokens"][mover])
                ws.send_json({"type": "hint", "seq": state["seq"]})
                while True:
                    m = ws.receive_json()
                    if m["type"] in ("hint", "error"):
                        answers.append(m)
                        break
        assert answers[0]["type"] == "hint"
        assert answers[1]["code"] == "hint_rate_limited" and "address" in answers[1]["error"]


# -- the worker pool -------------------------------------------------------------------------
def test_hints_are_admitted_one_a_turn_of_the_loop_the_moves_between() -> None:
    """A flood of hints waits for its turns: a move that becomes ready meanwhile runs after
    one or two of them, not after all; the hints keep their order; one whose connection
    went away is skipped."""

    async def main() -> list[str]:
        turns = Turns()
        order: list[str] = []

        async def hint(i: int) -> None:
            await turns.turn()
            order.append(f"hint {i}")

        async def move() -> None:
            await asyncio.sleep(0)  # ready in the next turn of the loop, as a commit's answer
            order.append("move")

        hints = [asyncio.create_task(hint(i)) for i in range(20)]
        await asyncio.sleep(0)  # every hint waits for its turn now
        assert turns.waiting == 20
        hints[5].cancel()  # its connection went away
        moving = asyncio.create_task(move())
        await asyncio.gather(*hints, moving, return_exceptions=True)
        return order

    order = asyncio.run(main())
    assert order.index("move") <= 2
    assert [x for x in order if x != "move"] == [f"hint {i}" for i in range(20) if i != 5]


def test_worker_pool_runs_bots_before_hints_and_bounds_the_queue() -> None:
    async def scenario() -> tuple[list[str], bool]:
        pool = WorkerPool(workers=1, queue_limit=2)
        order: list[str] = []

        async def job(priority: int, name: str, seconds: float) -> None:
            await pool.run(priority, time.sleep, seconds)
            order.append(name)

        try:
            await pool.start()
            first = asyncio.ensure_future(job(LOW, "busy", 0.5))
            await asyncio.sleep(0.05)  # the worker is busy
            jobs = [
                asyncio.ensure_future(job(LOW, "hint1", 0)),
                asyncio.ensure_future(job(LOW, "hint2", 0)),
            ]
            await asyncio.sleep(0)
            refused = False
            try:
                await pool.run(LOW, time.sleep, 0)  # a third hint waiting: refused
            except PoolBusy:
                refused = True
            jobs.append(asyncio.ensure_future(job(BOT, "bot", 0)))
            await asyncio.gather(first, *jobs)
        finally:
            pool.stop()
        return order, refused

    order, refused = asyncio.run(scenario())
    assert refused
    assert order == ["busy", "bot", "hint1", "hint2"]


def test_quick_bots_share_trips_to_the_workers() -> None:
    """The moves of quick bots waiting together go to a worker in one trip, each answered as
    if alone; a bot whose move fails fails alone; a searching bot travels by itself."""
    games = []
    for seed in range(12):
        g = Game(players=[0, 1, 2, 3], seed=seed)
        while g.is_chance():
            g.draw()
        games.append(g)

    async def scenario() -> tuple[list[Any], int]:
        pool = WorkerPool(workers=1)
        try:
            await pool.start()
            busy = asyncio.ensure_future(pool.run(BOT, time.sleep, 0.3))  # they all wait
            await asyncio.sleep(0.05)
            jobs = [
                pool.bot_move("random", None, g.view(g.to_move), i) for i, g in enumerate(games)
            ]
            jobs.append(pool.bot_move("random", None, "not a view", 0))  # type: ignore[arg-type]
            jobs.append(pool.bot_move("hard", 0.1, games[0].view(games[0].to_move), 0))
            out = await asyncio.gather(busy, *jobs, return_exceptions=True)
            return out[1:], pool.trips
        finally:
            pool.stop()

    out, trips = asyncio.run(scenario())
    expected = [bot_move("random", None, g.view(g.to_move), i) for i, g in enumerate(games)]
    assert out[: len(games)] == expected
    assert isinstance(out[len(games)], AttributeError)  # the broken one alone
    assert out[-1] in {str(m) for m in games[0].legal_moves}
    assert trips == 4  # start, the busy job, the 13 quick bots together, the searcher


# -- memory: the cap on games, idle games evicted and reloaded ------------------------------
def test_the_cap_on_games_evicts_idle_ones_and_refuses_beyond(sqlite_url: str) -> None:
    with app_client(sqlite_url, max_games=2, evict_after=3600.0) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        a, b = new_game(c), new_game(c)
        with (
            c.websocket_connect(f"/ws/{a['id']}") as wa,
            c.websocket_connect(f"/ws/{b['id']}") as wb,
        ):
            hello(wa)
            hello(wb)
            two = {"seats": [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "bot"}]}
            r = c.post("/api/games", json=two)
            assert r.status_code == 503 and "the server is full" in r.json()["error"]
        # nobody has them open any more: the one idle longest makes room
        third = new_game(c)
        assert third["id"] in service.live and len(service.live) == 2
        gone = [g["id"] for g in (a, b) if g["id"] not in service.live]
        assert len(gone) == 1
        summary = c.get(f"/api/games/{gone[0]}").json()  # loaded again on demand
        assert summary["id"] == gone[0] and gone[0] in service.live


def test_idle_games_leave_memory_and_resume(sqlite_url: str) -> None:
    with app_client(sqlite_url, evict_after=0.0) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        g = new_game(c)
        gid, token = g["id"], g["tokens"]["R"]
        with c.websocket_connect(f"/ws/{gid}") as ws:
            state = hello(ws, "R", token)
            if state["view"]["to_move"] == "R":
                state = play(ws, state, state["view"]["legal_moves"][0]["move"])
            assert gid in service.live  # watched: kept
        deadline = time.monotonic() + 30
        while gid in service.live and time.monotonic() < deadline:
            time.sleep(0.02)
        assert gid not in service.live
        with c.websocket_connect(f"/ws/{gid}") as ws:
            again = hello(ws, "R", token)

            # the reloaded log is the same, but for the paths and effects of its last move
            # (only a move just played is animated: sorry.web.live.log_entries)
            def words(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
                return [{k: v for k, v in e.items() if k not in ("paths", "effects")} for e in log]

            assert again["seq"] == state["seq"]
            assert words(again["log"]) == words(state.get("log", again["log"]))
            assert again["view"]["position"] == state["view"]["position"]


def test_nobody_seated_means_no_takeover(sqlite_url: str) -> None:
    """Takeover bots play for an absent player only while somebody is at the table: a game
    everybody left waits (and can leave memory) instead of being played out by bots."""
    with app_client(sqlite_url, takeover_after=0.0) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        g = new_game(c)
        live = service.live[g["id"]]
        time.sleep(0.5)  # several ticks
        assert live.seq == 0


# -- finished games --------------------------------------------------------------------------
def _finished_bot_game(c: TestClient) -> str:
    gid: str = new_game(c, {"R": "bot", "Y": "bot"})["id"]
    deadline = time.monotonic() + 120
    while c.get(f"/api/games/{gid}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return gid


def test_replay_and_record_cached_and_rate_limited(sqlite_url: str) -> None:
    """Computing a replay or a record costs a token of the address's bucket; reading one
    already computed costs nothing (several tabs of a finished game are never refused)."""
    limits = generous_limits(replay_rate=0.001, replay_burst=1)
    with app_client(sqlite_url, limits=limits) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        gid = _finished_bot_game(c)
        first = c.get(f"/api/games/{gid}/replay")
        assert first.status_code == 200 and first.json()["frames"]
        assert (gid, "replay") in service.finished.done
        for _ in range(5):
            again = c.get(f"/api/games/{gid}/replay")
            assert again.status_code == 200 and again.content == first.content
        r = c.get(f"/api/games/{gid}/record")
        assert r.status_code == 429 and "too many record requests" in r.json()["error"]
        assert (gid, "record") not in service.finished.done


def test_a_replay_asked_while_it_is_computed_waits_for_that_computation(
    sqlite_url: str,
) -> None:
    """Requests for a replay that is being computed join that computation: the game is
    replayed once, and they cost no token (the bucket holds one: they would be refused)."""
    limits = generous_limits(replay_rate=0.001, replay_burst=1)
    with app_client(sqlite_url, limits=limits) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        gid = _finished_bot_game(c)
        jobs: list[str] = []
        real_run = service.pool.run

        async def slow_run(priority: int, fn: Any, *args: Any) -> Any:
            jobs.append(fn.__name__)
            await asyncio.sleep(0.5)
            return await real_run(priority, fn, *args)

        service.pool.run = slow_run
        url = f"/api/games/{gid}/replay"
        with ThreadPoolExecutor(4) as pool:
            first = pool.submit(c.get, url)
            deadline = time.monotonic() + 30
            while not jobs:  # the first request is computing the replay
                assert time.monotonic() < deadline and not first.done()
                time.sleep(0.005)
            others = [pool.submit(c.get, url) for _ in range(3)]
            responses = [first.result(), *(f.result() for f in others)]
        assert [r.status_code for r in responses] == [200] * 4
        assert len({r.content for r in responses}) == 1 and responses[0].json()["frames"]
        assert jobs == ["replay_json"] and not service.finished.working


def test_polling_an_analysis_is_not_limited(sqlite_url: str) -> None:
    """The page polls the analysis while it is computed (every 1.5 s, from each tab): only the
    requests that start work count, so the polls never use up the address's bucket, and a
    replay asked meanwhile is not refused (a browser test waited 180 s for one)."""
    from sorry.web.analysis import AnalysisCache

    limits = generous_limits(replay_rate=0.001, replay_burst=3)
    app = create_app(sqlite_url, fast_settings(limits=limits))
    app.state.analysis = AnalysisCache(rollouts=2)
    with TestClient(app) as c:
        gid = _finished_bot_game(c)
        statuses = []
        deadline = time.monotonic() + 300
        while not statuses or statuses[-1] != 200:
            assert time.monotonic() < deadline, "the analysis took too long"
            statuses.append(c.get(f"/api/games/{gid}/analysis?lang=en").status_code)
            time.sleep(0.02)
        # one token to compute it, one for its English words; the polls were free
        assert set(statuses) <= {200, 202} and statuses.count(200) == 1, statuses
        for _ in range(5):
            assert c.get(f"/api/games/{gid}/analysis?lang=en").status_code == 200
        assert c.get(f"/api/games/{gid}/replay").status_code == 200  # the third token
        r = c.get(f"/api/games/{gid}/analysis?lang=ca")  # new words: new work
        assert r.status_code == 429 and "too many analysis requests" in r.json()["error"]
        assert c.get(f"/api/games/{gid}/replay").status_code == 200  # cached


def test_the_bots_thinking_time_is_capped_by_the_server(sqlite_url: str) -> None:
    """--bot-time-limit reaches every bot move (the expert stops searching then); a level that
    does not search is made without it."""
    from sorry.web.players import make_bot

    assert getattr(make_bot("expert", 0.05), "time_limit", None) == 0.05
    for level in ("random", "easy", "medium"):
        assert not hasattr(make_bot(level, 0.05), "time_limit"), level
    # a worker's bot plays its level, not the fallback (the first legal move)
    from sorry.bots import make_bot as bots_make_bot

    g = Game(players=[0, 2], seed=3)
    for n in range(400):
        while g.is_chance():
            g.draw()
        if g.is_over():
            break
        view = g.view(g.to_move)
        mine = bot_move("medium", 0.05, view, n)
        assert mine == str(bots_make_bot("medium").choose(view, Rng(n)))
        g.push(mine)
    assert g.is_over()
    asked: list[tuple[str, float | None]] = []
    with app_client(sqlite_url, bot_time_limit=0.05) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        real = service.pool.bot_move

        async def spy(level: str, limit: float | None, view: Any, seed: int) -> str:
            asked.append((level, limit))
            return str(await real(level, limit, view, seed))

        service.pool.bot_move = spy
        g = new_game(c, {"R": "invite", "Y": "bot:expert"})
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            state = hello(ws, "R", g["tokens"]["R"])
            deadline = time.monotonic() + 60
            while not asked and time.monotonic() < deadline:
                if state["view"]["to_move"] == "R" and state["view"]["legal_moves"]:
                    state = play(ws, state, state["view"]["legal_moves"][0]["move"])
                else:
                    state = recv(ws, "state")
    assert asked and all(limit == 0.05 for _level, limit in asked)
    assert asked[0][0] == "expert"
