"""Real server processes: a SIGKILL mid-game loses no accepted move; PostgreSQL; two processes
sharing one PostgreSQL database serve the same game (moves fanned out by LISTEN/NOTIFY)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from websockets.sync.client import connect

from server_helpers import (
    ServerProcess,
    fast_settings,
    hello,
    new_game,
    play,
    recv,
    recv_until,
    track,
)
from sorry.record import GameRecord, verify
from sorry.web import create_app
from sorry.web.db import Database
from sorry.web.migrations import HEAD


class Client:
    """A WebSocket client of a server process."""

    def __init__(self, server: ServerProcess, gid: str) -> None:
        self._cm = connect(f"ws://127.0.0.1:{server.port}/ws/{gid}", open_timeout=10)
        self.ws = self._cm.__enter__()

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def receive_json(self, timeout: float = 20.0) -> dict[str, Any]:
        """The next message (a delta as the whole state it leads to: conftest.track)."""
        return track(self, json.loads(self.ws.recv(timeout=timeout)))

    send_json = send

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


async def _watch_until_killed(
    server: ServerProcess, gids: list[str], kill_after: int
) -> dict[str, dict[int, str]]:
    """Spectate every game, remembering each move the server announced (it announces only
    committed moves), and SIGKILL the server once ``kill_after`` new moves were announced in
    all (or every game is over), while the bots keep playing. No timing is assumed: the
    server is killed whenever the count is reached."""
    from websockets.asyncio.client import connect as aconnect

    seen: dict[str, dict[int, str]] = {gid: {} for gid in gids}
    over: set[str] = set()
    count = 0
    done = asyncio.Event()

    async def watch(gid: str) -> None:
        nonlocal count
        async with aconnect(f"ws://127.0.0.1:{server.port}/ws/{gid}", max_size=2**24) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            async for raw in ws:
                m = json.loads(raw)
                if m["type"] not in ("state", "delta"):
                    continue
                # a full state's log (after hello), then one move per delta
                entries = m.get("log") or ([m["last"]] if m.get("last") else [])
                for e in entries:
                    if e["seq"] not in seen[gid]:
                        seen[gid][e["seq"]] = e["move"]
                        count += m["type"] == "delta"
                if m.get("status") == "over":
                    over.add(gid)
                if count >= kill_after or len(over) == len(gids):
                    done.set()
                if done.is_set():
                    return

    tasks = [asyncio.create_task(watch(gid)) for gid in gids]
    await done.wait()
    server.kill()  # at once, whatever the server is doing
    for t in tasks:
        with contextlib.suppress(Exception):
            await t
    return seen


def watch_until_killed(
    server: ServerProcess, gids: list[str], kill_after: int
) -> dict[str, dict[int, str]]:
    return asyncio.run(_watch_until_killed(server, gids, kill_after))


@pytest.mark.slow
def test_sigkill_mid_game_loses_no_accepted_move(tmp_path: Any) -> None:
    """Six all-bot games at once, SIGKILLed three times: every move a client had been told of
    is in the database (acknowledged only once committed), in each game's order, and the
    games resume from it and finish. Their moves share commit groups (checked: some group
    holds the moves of several games), so a kill lands in the middle of groups of
    concurrent games."""
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    args = ("--bot-delay", "0", "--allow-bot-games")
    server = ServerProcess(db, *args)
    try:
        gids = [
            server.api(
                "/api/games",
                {"seats": [{"colour": c, "kind": "bot", "level": "random"} for c in "RBYG"]},
            )["id"]
            for _ in range(6)
        ]
        rng = random.Random(7)
        shared = 0  # commit groups that held moves of several games
        for _round in range(3):
            seen = watch_until_killed(server, gids, rng.randint(40, 120))
            # the server is dead: the database alone must hold every announced move
            store = Database(db)
            for gid, moves in seen.items():
                rows = {r.seq: r.move for r in store.load_moves(gid)}
                assert list(rows) == list(range(1, len(rows) + 1))  # in order, no gap
                for seq, move in moves.items():
                    assert rows.get(seq) == move, f"accepted move {seq} {move} lost after SIGKILL"
            # the moves of one commit group share its time (sorry.web.db.write_time)
            with store.reader.connect() as conn:
                groups = conn.exec_driver_sql(
                    "SELECT created_at FROM sorry_moves GROUP BY created_at"
                    " HAVING COUNT(DISTINCT game_id) > 1"
                ).all()
            shared = len(groups)
            store.dispose()
            # restart on the same database: the games resume from it
            server = ServerProcess(db, *args)
            for gid, moves in seen.items():
                c = Client(server, gid)
                state = hello(c)
                log = {e["seq"]: e["move"] for e in state["log"]}
                assert all(log.get(seq) == move for seq, move in moves.items())
                c.close()
        assert shared > 0, "no commit group held the moves of two games"
        # and every game still finishes, with a record that verifies
        deadline = time.monotonic() + 600
        for gid in gids:
            while server.api(f"/api/games/{gid}")["status"] != "over":
                assert time.monotonic() < deadline, "the games did not finish"
                time.sleep(0.5)
            record = GameRecord.from_dict(server.api(f"/api/games/{gid}/record"))
            assert verify(record).ok
            assert record.replay().is_over()
    finally:
        server.stop()


def test_postgres_database_layer(postgres_url: str) -> None:
    db = Database(postgres_url)
    try:
        assert db.revision() == HEAD
        assert db.migrate() == HEAD
        assert not db.is_sqlite
    finally:
        db.dispose()


def test_postgres_game_and_restart(postgres_url: str) -> None:
    app = create_app(postgres_url, fast_settings(listen=True))
    with TestClient(app) as c:
        g = new_game(c, {"R": "invite", "Y": "bot:easy"})
        gid, token = g["id"], g["tokens"]["R"]
        with c.websocket_connect(f"/ws/{gid}") as ws:
            state = hello(ws, "R", token)
            played = 0
            while played < 10 and state["status"] == "playing":
                if state["view"]["to_move"] == "R":
                    state = play(ws, state, state["view"]["legal_moves"][0]["move"])
                    played += 1
                else:
                    state = recv(ws, "state")
            before = state
    app2 = create_app(postgres_url, fast_settings())
    with TestClient(app2) as c2, c2.websocket_connect(f"/ws/{gid}") as ws:
        after = hello(ws, "R", token)
        assert after["seq"] >= before["seq"]
        assert [e["move"] for e in after["log"]][: before["seq"]] == [
            e["move"] for e in after["log"][: before["seq"]]
        ]
        assert after["log"][before["seq"] - 1]["move"] == before["last"]["move"]


@pytest.fixture
def two_servers(postgres_url: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    a = ServerProcess(postgres_url, "--bot-delay", "0.05")
    try:
        b = ServerProcess(postgres_url, "--bot-delay", "0.05")
    except Exception:
        a.stop()
        raise
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


@pytest.mark.slow
def test_two_processes_serve_one_game(two_servers: tuple[ServerProcess, ServerProcess]) -> None:
    """Red plays on process A, Yellow on process B, Blue is a bot; each sees every move of
    the other within moments (LISTEN/NOTIFY), and racing submissions never both commit."""
    a, b = two_servers
    g = a.api(
        "/api/games",
        {
            "seats": [
                {"colour": "R", "kind": "invite"},
                {"colour": "B", "kind": "bot", "level": "random"},
                {"colour": "Y", "kind": "invite"},
            ]
        },
    )
    gid, tokens = g["id"], {s["colour"]: s["token"] for s in g["seats"] if "token" in s}
    clients = {"R": Client(a, gid), "Y": Client(b, gid)}
    states = {seat: hello(c, seat, tokens[seat]) for seat, c in clients.items()}
    spectator_b = Client(b, gid)
    hello(spectator_b)
    moves = 0
    deadline = time.monotonic() + 120
    while moves < 40 and time.monotonic() < deadline:
        progressed = False
        for seat, c in clients.items():
            st = states[seat]
            if st["status"] != "playing":
                continue
            if st["view"]["to_move"] == seat and st["view"]["legal_moves"]:
                c.send(
                    {"type": "move", "seq": st["seq"], "move": st["view"]["legal_moves"][0]["move"]}
                )
                while True:
                    m = c.receive_json()
                    if m["type"] == "state":
                        states[seat] = m
                    if m["type"] == "accepted":
                        moves += 1
                        progressed = True
                        break
                    if m["type"] == "rejected":
                        break
        if not progressed:
            # wait for news from the other process (or the bot)
            for seat, c in clients.items():
                try:
                    m = c.receive_json(timeout=0.2)
                except TimeoutError:
                    continue
                if m["type"] == "state":
                    states[seat] = m
    assert moves >= 20
    # both processes converge on the same state
    time.sleep(1.0)
    final = {}
    for seat, c in clients.items():
        c.send({"type": "resync"})
        # the answer comes after any broadcasts already queued: keep the last state
        while True:
            try:
                m = c.receive_json(timeout=1.0)
            except TimeoutError:
                break
            if m["type"] == "state":  # the resync's, or a delta on the last one: with the log
                final[seat] = m
    assert final["R"]["seq"] == final["Y"]["seq"]
    assert final["R"]["view"]["position"] == final["Y"]["view"]["position"]
    assert [e["move"] for e in final["R"]["log"]] == [e["move"] for e in final["Y"]["log"]]
    # the same move sent at once to both processes is committed exactly once
    mover = final["R"]["view"]["to_move"]
    if mover in clients and final[mover]["view"]["legal_moves"]:
        seq = final[mover]["seq"]
        move = final[mover]["view"]["legal_moves"][0]["move"]
        dup = Client(b if mover == "R" else a, gid)
        hello(dup, mover, tokens[mover])
        clients[mover].send({"type": "move", "seq": seq, "move": move})
        dup.send({"type": "move", "seq": seq, "move": move})
        verdicts = []
        for c in (clients[mover], dup):
            m = c.receive_json()
            while m["type"] not in ("accepted", "rejected"):
                m = c.receive_json()
            verdicts.append(m["type"])
        assert sorted(verdicts) == ["accepted", "rejected"]
        dup.close()
    for c in [*clients.values(), spectator_b]:
        c.close()


def my_turn(c: Client, state: dict[str, Any], seat: str) -> dict[str, Any]:
    """The state once it is ``seat``'s decision (the bots' moves followed)."""
    while not (state["status"] == "over" or state["view"]["legal_moves"]):
        state = recv_until(c, lambda m: m["type"] == "state")
    assert state["view"]["to_move"] == seat or state["status"] == "over"
    return state


def at_seq(c: Client, seq: int) -> dict[str, Any]:
    """The first state at sequence number ``seq``."""
    return recv_until(c, lambda m: m["type"] == "state" and m["seq"] == seq)


def test_undo_on_one_process_is_seen_by_the_other_and_after_a_restart(
    two_servers: tuple[ServerProcess, ServerProcess], postgres_url: str
) -> None:
    """Red plays against a bot on process A; B serves the game too (a spectator, and Red's
    second tab). Red takes her move back on A: B's clients get the game at the undone
    decision (the position string, the card, the legal moves, the log), B's move at the
    state before the undo is refused as stale, and a server started afresh on the database
    reads the same. Played again there, the same move brings the same cards as the first
    time (the cards drawn since went back on the deck in their order)."""
    a, b = two_servers
    g = a.api(
        "/api/games",
        {
            "seats": [
                {"colour": "R", "kind": "invite"},
                {"colour": "Y", "kind": "bot", "level": "easy"},
            ]
        },
    )
    gid = g["id"]
    token = next(s["token"] for s in g["seats"] if s["colour"] == "R")
    red = Client(a, gid)
    state = my_turn(red, hello(red, "R", token), "R")
    # a turn with a choice, a few turns in, not a 2 (the bot plays after it)
    for _ in range(40):
        view = state["view"]
        if len(view["legal_moves"]) > 1 and state["seq"] >= 4 and view["card"] != "2":
            break
        state = my_turn(red, play(red, state, view["legal_moves"][0]["move"]), "R")
    before, seq = state["view"], state["seq"]
    move = before["legal_moves"][-1]["move"]
    after = my_turn(red, play(red, state, move), "R")
    assert after["seq"] > seq + 1  # the bot moved too
    cards_after = [e["card"] for e in after["log"][seq:]]  # Red's move's, then the bot's
    # B follows the game: a spectator and Red's second tab, both at the state after
    watcher, tab = Client(b, gid), Client(b, gid)
    for c, seat in ((watcher, None), (tab, "R")):
        st = hello(c, seat, token if seat else None)
        if st["seq"] < after["seq"]:
            st = at_seq(c, after["seq"])
        assert st["view"]["position"] == after["view"]["position"]
    red.send({"type": "undo", "seq": after["seq"]})
    assert recv_until(red, lambda m: m["type"] in ("undone", "rejected")) == {
        "type": "undone",
        "seq": seq,
    }
    # B's clients are told: the whole game again, at the decision taken back
    for c in (watcher, tab):
        back = at_seq(c, seq)
        assert back["view"]["position"] == before["position"]
        assert back["view"]["card"] == before["card"]
        assert back["view"]["draw_count"] == before["draw_count"]
        assert [e["seq"] for e in back["log"]] == list(range(1, seq + 1))
    assert back["view"]["legal_moves"] == before["legal_moves"]  # Red's tab's
    # a move sent to B at the state before the undo is refused, not played
    tab.send({"type": "move", "seq": after["seq"], "move": after["view"]["legal_moves"][0]["move"]})
    refused = recv_until(tab, lambda m: m["type"] in ("accepted", "rejected"))
    assert refused["type"] == "rejected" and refused["code"] == "stale", refused
    for c in (red, watcher, tab):
        c.close()
    a.stop()
    b.stop()
    # a server started afresh on the database reads the game at the undone decision
    fresh = ServerProcess(postgres_url, "--bot-delay", "0.05")
    try:
        red = Client(fresh, gid)
        read = hello(red, "R", token)
        assert read["seq"] == seq
        assert read["view"]["position"] == before["position"]
        assert read["view"]["card"] == before["card"]
        assert read["view"]["legal_moves"] == before["legal_moves"]
        assert read["view"]["draw_count"] == before["draw_count"]
        # the same move again: the same cards come, in the deck's order
        again = my_turn(red, play(red, read, move), "R")
        assert [e["card"] for e in again["log"][seq:]][: len(cards_after)] == cards_after
        assert again["view"]["card"] == after["view"]["card"]
        red.close()
    finally:
        fresh.stop()
