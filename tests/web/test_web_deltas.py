"""Deltas: after the full state of hello, a client is sent only what changed. Applying the
deltas it received (``sorry.web.protocol.apply_delta``, what the page's ``net.js`` does) gives
exactly the full state it would be sent at that moment, at every sequence number, for every
seat and for spectators, in the process that committed the moves and in another process that
learns of them from the database (``GameService.refresh``: only the new move rows); and no
delta carries anything that seat's full state does not hold."""

from __future__ import annotations

import asyncio
import json
import os
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from server_helpers import fast_settings
from sorry.board import COLOUR_LETTERS
from sorry.web.conn import Conn
from sorry.web.db import Database
from sorry.web.live import LiveGame
from sorry.web.protocol import apply_delta, state_delta
from sorry.web.room import Room
from sorry.web.service import GameService

# the subject is what clients are told, not durability: a folder in memory when there is one
# (each commit's fsync then costs nothing)
MEMORY = "/dev/shm" if os.path.isdir("/dev/shm") else None
FORBIDDEN_KEYS = {"draw_pile", "seed", "rng", "initial", "steps", "current", "token_hash"}


class Client:
    """A connection as the page sees it: its messages, and the state they add up to."""

    def __init__(self, seat: int | None, lang: str = "en") -> None:
        self.conn = Conn()
        self.conn.seat = seat
        self.conn.lang = lang
        self.state: dict[str, Any] | None = None
        self.deltas = 0
        self.who = "spectator" if seat is None else COLOUR_LETTERS[seat]

    def drain(self) -> list[dict[str, Any]]:
        """Apply every message waiting; returns the deltas among them."""
        deltas = []
        while self.conn.waiting:
            raw = self.conn.take()
            assert raw is not None
            m = json.loads(raw)
            if m["type"] == "state":
                assert "log" in m  # a whole state comes only with its log (hello, resync)
                self.state = m
            elif m["type"] == "delta":
                assert self.state is not None, "a delta before any state"
                self.state = apply_delta(self.state, m)
                deltas.append(m)
                self.deltas += 1
            elif m["type"] == "seats":
                assert self.state is not None
                self.state = {**self.state, "seats": m["seats"]}
        return deltas

    def check(
        self,
        service: GameService,
        live: LiveGame,
        deltas: list[dict[str, Any]],
        history: dict[int, dict[str, Any]],
    ) -> None:
        """The state the client has is the full state it would be sent now (kept in
        ``history`` by sequence number, unless there), and each delta it received holds
        nothing that the full state of its sequence number does not."""
        full = service.audience.state_message(live, self.conn, full=True)
        assert self.state == full, (self.who, live.seq)
        history.setdefault(live.seq, full)
        for d in deltas:
            then = history[d["seq"]]
            for key, value in d.items():
                if key == "view":
                    for field, v in value.items():
                        assert then["view"][field] == v, (self.who, field)
                elif key != "type":
                    assert then[key] == value, (self.who, key)
            for _path, k in walk(d):
                assert k not in FORBIDDEN_KEYS, (self.who, k)
            hand = d.get("view", {}).get("hand")
            if hand is not None:  # a seat's own hand, never another's; a spectator none
                assert self.conn.seat is not None and hand == then["view"]["hand"]


def walk(obj: Any, path: str = "") -> Any:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path + "/" + str(k), k
            yield from walk(v, path + "/" + str(k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, f"{path}/{i}")


def open_clients(service: GameService, live: LiveGame) -> list[Client]:
    clients = [Client(c) for c in live.game.colours]
    clients += [Client(None), Client(None, "el")]  # spectators, one of them in Greek
    for c in clients:
        service.audience.attach(live, c.conn)
        c.drain()
    return clients


async def play_and_check(
    folder: Path, variant: str, colours: list[int], seed: int, choices: int, length: int
) -> tuple[int, int]:
    """Play ``length`` decisions (or to the end) through service A; service B, on the same
    database, catches up every one to three moves. Every client of both is checked after
    each catch-up. Returns (moves played, deltas checked)."""
    from sorry.rules import Rules

    url = f"sqlite:///{folder / 'deltas.db'}"
    db_a, db_b = Database(url), Database(url)
    a, b = GameService(db_a, fast_settings()), GameService(db_b, fast_settings())
    try:
        seats = [{"colour": c, "kind": "invite"} for c in colours]
        gid, _tokens = await a.games.create_game(Rules.from_options(variant), seats, seed=seed)
        live_a, live_b = await a.get(gid), await b.get(gid)
        assert live_a is not None and live_b is not None
        clients_a, clients_b = open_clients(a, live_a), open_clients(b, live_b)
        # each client's full state at each sequence number, as service A tells it
        history: list[dict[int, dict[str, Any]]] = [{} for _ in clients_a]
        rng = random.Random(choices)
        played = 0
        catch_up = rng.randint(1, 3)
        while played < length and not live_a.game.is_over():
            game = live_a.game
            move = str(rng.choice(game.legal_moves))
            reply = await a.games.submit(live_a, game.to_move, live_a.seq, move)
            assert reply["type"] == "accepted", reply
            played += 1
            for c, h in zip(clients_a, history, strict=True):
                c.check(a, live_a, c.drain(), h)
            if played % catch_up == 0 or live_a.game.is_over():
                assert await b.cache.refresh(live_b)
                assert live_b.seq == live_a.seq
                for c, h in zip(clients_b, history, strict=True):
                    c.check(b, live_b, c.drain(), h)
                catch_up = rng.randint(1, 3)
        if live_b.seq < live_a.seq:  # the last moves
            assert await b.cache.refresh(live_b)
            for c, h in zip(clients_b, history, strict=True):
                c.check(b, live_b, c.drain(), h)
        # both processes tell the same game
        for ca, cb in zip(clients_a, clients_b, strict=True):
            assert ca.state is not None and cb.state is not None
            assert ca.state["view"] == cb.state["view"]
            assert ca.state["log"] == cb.state["log"]
            assert len(ca.state["log"]) == live_a.seq
        return played, sum(c.deltas for c in clients_a + clients_b)
    finally:
        await a.stop()
        await b.stop()
        db_a.dispose()
        db_b.dispose()


GAMES = st.sampled_from(
    [
        ("standard", [0, 2]),
        ("standard", [0, 1, 2]),
        ("standard", [0, 1, 2, 3]),
        ("teams", [0, 1, 2, 3]),
        ("points", [0, 2]),
        ("points", [0, 1, 2, 3]),
    ]
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=GAMES,
    seed=st.integers(0, 2**32 - 1),
    choices=st.integers(0, 2**32 - 1),
    length=st.sampled_from([40, 120, 10_000]),
)
def test_deltas_add_up_to_the_full_state(
    game: tuple[str, list[int]], seed: int, choices: int, length: int
) -> None:
    variant, colours = game
    with tempfile.TemporaryDirectory(dir=MEMORY) as folder:
        played, deltas = asyncio.run(
            play_and_check(Path(folder), variant, colours, seed, choices, length)
        )
    assert played > 0 and deltas >= played * 2


def test_a_whole_points_game_adds_up() -> None:
    """One points game to its end (the hands, secret, change with every move)."""
    with tempfile.TemporaryDirectory(dir=MEMORY) as folder:
        played, _ = asyncio.run(play_and_check(Path(folder), "points", [0, 1, 2, 3], 5, 6, 10**6))
    assert played > 50


def test_state_delta_and_apply_delta() -> None:
    old = {
        "type": "state",
        "seq": 3,
        "status": "playing",
        "view": {"card": "5", "pawns": {"R": ["S"]}, "hand": []},
        "last": {"seq": 3, "move": "x"},
        "log": [{"seq": 3, "move": "x"}],
    }
    new = {
        "type": "state",
        "seq": 4,
        "status": "playing",
        "view": {"card": "7", "pawns": {"R": ["S"]}, "hand": []},
        "last": {"seq": 4, "move": "y"},
    }
    d = state_delta(old, new)
    assert d == {"type": "delta", "seq": 4, "view": {"card": "7"}, "last": {"seq": 4, "move": "y"}}
    got = apply_delta(old, d)
    assert got["view"] == new["view"] and got["seq"] == 4
    assert got["log"] == [{"seq": 3, "move": "x"}, {"seq": 4, "move": "y"}]
    assert state_delta(new, new) is None  # nothing changed: nothing to send
    assert state_delta(new, {**new, "status": "over"}) == {
        "type": "delta",
        "seq": 4,
        "status": "over",
    }


@pytest.mark.parametrize("start", ["host"])
def test_room_changes_are_deltas(tmp_path: Path, start: str) -> None:
    """Not only moves: the start of the game and the chat switched off come as deltas too."""

    async def run() -> None:
        from sorry.rules import Rules

        db = Database(f"sqlite:///{tmp_path / 'room.db'}")
        service = GameService(db, fast_settings())
        try:
            settings = Room(started=False, start=start, host_hash="h")
            seats = [{"colour": c, "kind": "invite"} for c in (0, 2)]
            gid, _ = await service.games.create_game(Rules(), seats, room=settings)
            live = await service.get(gid)
            assert live is not None
            clients = open_clients(service, live)
            await service.hosting.host_action(live, "h", "start", None, None)
            for c in clients:
                deltas = c.drain()
                assert [d["room"]["started"] for d in deltas] == [True]
                c.check(service, live, deltas, {})
            await service.hosting.host_action(live, "h", "chat", None, False)
            for c in clients:
                deltas = c.drain()
                assert [d["room"]["chat"] for d in deltas] == [False]
                assert set(deltas[0]) == {"type", "seq", "room"}
                c.check(service, live, deltas, {})
        finally:
            await service.stop()
            db.dispose()

    asyncio.run(run())
