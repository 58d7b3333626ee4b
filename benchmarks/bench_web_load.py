"""Load benchmark of the game server: many concurrent games over real WebSockets on 127.0.0.1.

Starts ``sorry serve`` in a subprocess (SQLite in a temporary folder, or PostgreSQL with
``--database``), creates ``--games`` games of two simulated browser clients (Red and Yellow)
and two random bots (Blue and Green, no think delay), and lets every client play random legal
moves as fast as the server answers, for ``--seconds``. Reports:

* moves/s: every committed decision (clients' and bots'), from the games' sequence numbers;
* client move latency: from sending a move to receiving ``accepted`` (which comes after the
  move and the new state are committed and every client of the game has been sent it),
  50th and 99th percentile.

    python benchmarks/bench_web_load.py --games 20 --seconds 20
    python benchmarks/bench_web_load.py --games 20 --seconds 20 \\
        --database postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def api(base: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


async def player(
    url: str, seat: str, token: str, stop: float, latencies: list[float], rng: random.Random
) -> int:
    moves = 0
    async with connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
        state: dict[str, Any] | None = None
        pending: float | None = None
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            m = json.loads(raw)
            if m["type"] == "state":
                state = m
            elif m["type"] == "accepted" and pending is not None:
                latencies.append(time.perf_counter() - pending)
                pending = None
                moves += 1
            elif m["type"] == "rejected":
                pending = None
            if (
                state is not None
                and pending is None
                and state["status"] == "playing"
                and state["view"]["to_move"] == seat
                and state["view"]["legal_moves"]
            ):
                move = rng.choice(state["view"]["legal_moves"])["move"]
                pending = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "seq": state["seq"], "move": move}))
                state = None  # wait for the next state before choosing again
            if state is not None and state["status"] == "over":
                break
    return moves


def pg_schema_url(base: str) -> tuple[str, str]:
    import psycopg

    schema = "sorry_bench_" + secrets.token_hex(4)
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}", schema


async def run(base: str, games: int, seconds: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    created = []
    for _ in range(games):
        g = api(
            base,
            "/api/games",
            {
                "seats": [
                    {"colour": "R", "kind": "invite"},
                    {"colour": "B", "kind": "bot", "level": "random"},
                    {"colour": "Y", "kind": "invite"},
                    {"colour": "G", "kind": "bot", "level": "random"},
                ]
            },
        )
        created.append(g)
    start_seq = {g["id"]: api(base, f"/api/games/{g['id']}")["seq"] for g in created}
    latencies: list[float] = []
    t0 = time.monotonic()
    stop = t0 + seconds
    tasks = []
    ws_base = base.replace("http://", "ws://")
    for g in created:
        for s in g["seats"]:
            if "token" in s:
                url = f"{ws_base}/ws/{g['id']}"
                r = random.Random(rng.random())
                tasks.append(player(url, s["colour"], s["token"], stop, latencies, r))
    client_moves = sum(await asyncio.gather(*tasks))
    elapsed = time.monotonic() - t0
    total = 0
    finished = 0
    for g in created:
        s = api(base, f"/api/games/{g['id']}")
        total += s["seq"] - start_seq[g["id"]]
        finished += s["status"] == "over"
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    return {
        "games": games,
        "seconds": round(elapsed, 1),
        "moves": total,
        "moves_per_s": round(total / elapsed, 1),
        "client_moves": client_moves,
        "p50_ms": round(pct(0.50), 1),
        "p99_ms": round(pct(0.99), 1),
        "mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else None,
        "finished_games": finished,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--database", help="postgresql://... (default: SQLite in a temporary folder)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    schema = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.database:
            url, schema = pg_schema_url(args.database)
        else:
            url = f"sqlite:///{tmp}/bench.db"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "sorry",
                "serve",
                "--port",
                str(port),
                "--database",
                url,
                "--bot-delay",
                "0",
                "--takeover-after",
                "3600",
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            for _ in range(300):
                try:
                    api(base, "/api/meta")
                    break
                except OSError:
                    time.sleep(0.1)
            result = asyncio.run(run(base, args.games, args.seconds, args.seed))
        finally:
            proc.terminate()
            proc.wait(10)
            if schema is not None:
                import psycopg

                with psycopg.connect(args.database, autocommit=True) as conn:
                    conn.execute(f"DROP SCHEMA {schema} CASCADE")
    result["database"] = "postgresql" if args.database else "sqlite"
    print(json.dumps(result))


if __name__ == "__main__":
    main()
