"""The abuses of a game server, each reproduced against ``sorry serve`` on 127.0.0.1 with real
WebSocket and HTTP clients, bounded in time and count; one JSON line of figures each.

``--server-src DIR`` runs the server from another checkout's ``src`` (the same command before
and after a change, back to back). Scenarios (``--only NAME``, repeatable):

``resync``   8 think-time games measured (two players each) while ``--flood`` spectators from
             three addresses each ask a finished 190-move game's whole state 8 times a second:
             the measured moves' p50/p99 and count, the whole states answered, the server's CPU
``unread``   ``--flood`` connections ask whole states 8 times a second and never read: the
             server's memory (RSS) before, at the peak, and 5 s after they closed
``timer``    5 games: Red invited and never there, three bots, a 30 s timer (x0.1): moves
             played by bots in 20 s
``surrogate`` 50 joins with the token "\\ud800": answers by status, bytes of server log
``chat``     ``--flood`` spectators (three addresses) send a chat line as fast as answered:
             lines a seated player receives a second, spectators' share of the history
``tokens``   ``--flood`` connections send hellos with wrong tokens as fast as answered: hellos
             answered a second and the server's CPU share
``slowhttp`` 300 connections send half a request's headers: how many the server still holds
             after 15 s
``lobby``    50 public games made from one address: how many the lobby shows
``idle``     1,000 spectators connect, then leave, ``--rounds`` times: the server's RSS with
             them and 5 s after, each time

    python benchmarks/bench_web_abuse.py                       # this checkout
    python benchmarks/bench_web_abuse.py --server-src /tmp/old/src --only resync
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any

from websockets.asyncio.client import connect

from bench_web_load import Stats, client_address, cpu_seconds, free_port, player


def api(base: str, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()[:200]


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


class Server:
    def __init__(self, src: str | None, *args: str, bot_games: bool = True) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        if src:
            env["PYTHONPATH"] = src
        self.log = open(os.path.join(self.tmp.name, "log"), "wb")  # noqa: SIM115
        cmd = [sys.executable, "-m", "sorry", "serve", "--port", str(self.port)]
        cmd += ["--database", f"sqlite:///{self.tmp.name}/abuse.db"]
        cmd += ["--allow-bot-games"] if bot_games else []
        cmd += ["--games-per-minute", "100000", "--takeover-after", "3600", "--bot-delay", "0"]
        cmd += [*args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=self.log, env=env)
        for _ in range(600):
            try:
                api(self.base, "/api/meta")
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def log_bytes(self) -> int:
        self.log.flush()
        return os.path.getsize(self.log.name)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.log.close()
        self.tmp.cleanup()


def finished_game(base: str) -> str:
    _, g = api(base, "/api/games", {"seats": [{"colour": c, "kind": "bot"} for c in "RY"]})
    for _ in range(1200):
        _, s = api(base, f"/api/games/{g['id']}")
        if s["status"] == "over":
            break
        time.sleep(0.1)
    return str(g["id"])


def think_games(base: str, n: int) -> list[dict[str, Any]]:
    seats = [{"colour": "R", "kind": "invite"}, {"colour": "B", "kind": "bot"}]
    seats += [{"colour": "Y", "kind": "invite"}, {"colour": "G", "kind": "bot"}]
    return [api(base, "/api/games", {"seats": seats})[1] for _ in range(n)]


async def players(base: str, games: list[dict[str, Any]], seconds: float, stats: Stats) -> None:
    ws = base.replace("http://", "ws://")
    stop = time.monotonic() + seconds
    rng = random.Random(1)
    tasks = []
    for i, g in enumerate(games):
        for s in g["seats"]:
            if "token" in s:
                url = f"{ws}/ws/{g['id']}"
                r = random.Random(rng.random())
                where = client_address(i)
                tasks.append(
                    player(url, s["colour"], s["token"], stop, stats, r, (1.0, 3.0), where)
                )
    await asyncio.gather(*tasks)


async def asker(
    url: str, address: str, stop: float, rate: float, read: bool, out: dict[str, int]
) -> None:
    """A spectator asking whole states ``rate`` times a second (reading them, or not)."""
    try:
        async with connect(url, max_size=2**24, local_addr=(address, 0), open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            while time.monotonic() < stop:
                await ws.send(json.dumps({"type": "resync"}))
                out["asked"] += 1
                if read:
                    end = time.monotonic() + 1 / rate
                    while (left := end - time.monotonic()) > 0:
                        try:
                            m = await asyncio.wait_for(ws.recv(), left)
                        except TimeoutError:
                            break
                        out["bytes"] += len(m)
                        out["states"] += '"type":"state"' in m[:20]
                else:
                    await asyncio.sleep(1 / rate)
    except Exception:
        out["dropped"] += 1


def spectator_urls(base: str, gid: str, n: int) -> list[tuple[str, str]]:
    ws = base.replace("http://", "ws://")
    return [(f"{ws}/ws/{gid}", f"127.0.9.{2 + i % 3}") for i in range(n)]


async def resync(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    gid = finished_game(server.base)
    games = think_games(server.base, 8)
    stats = Stats()
    out = {"asked": 0, "bytes": 0, "states": 0, "dropped": 0}
    stop = time.monotonic() + args.seconds
    cpu0 = cpu_seconds(server.proc.pid)
    await asyncio.gather(
        players(server.base, games, args.seconds, stats),
        *(asker(u, a, stop, 8, True, out) for u, a in spectator_urls(server.base, gid, args.flood)),
    )
    cpu = cpu_seconds(server.proc.pid) - cpu0
    return {**stats.summary(), **out, "server_cpu_share": round(cpu / args.seconds, 2)}


async def unread(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    gid = finished_game(server.base)
    before = rss_mb(server.proc.pid)
    out = {"asked": 0, "bytes": 0, "states": 0, "dropped": 0}
    stop = time.monotonic() + args.seconds
    peak = before

    async def watch() -> None:
        nonlocal peak
        while time.monotonic() < stop:
            peak = max(peak, rss_mb(server.proc.pid))
            await asyncio.sleep(0.5)

    urls = spectator_urls(server.base, gid, args.flood)
    await asyncio.gather(watch(), *(asker(u, a, stop, 8, False, out) for u, a in urls))
    await asyncio.sleep(5)
    return {
        "rss_before_mb": before,
        "rss_peak_mb": peak,
        "rss_after_mb": rss_mb(server.proc.pid),
        **out,
    }


async def timer(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    seats = [{"colour": "R", "kind": "invite"}] + [
        {"colour": c, "kind": "bot", "level": "random"} for c in "BYG"
    ]
    ids = [
        api(server.base, "/api/games", {"seats": seats, "room": {"start": "now", "timer": 30}})[1][
            "id"
        ]
        for _ in range(5)
    ]
    await asyncio.sleep(2)
    first = sum(api(server.base, f"/api/games/{g}")[1]["seq"] for g in ids)
    await asyncio.sleep(20)
    last = sum(api(server.base, f"/api/games/{g}")[1]["seq"] for g in ids)
    return {"games": 5, "moves_in_20s_after_the_first_2s": last - first}


async def surrogate(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    _, g = api(
        server.base,
        "/api/games",
        {"seats": [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "invite"}]},
    )
    log0 = server.log_bytes()
    codes: dict[int, int] = {}
    for _ in range(50):
        code, _ = api(
            server.base, f"/api/games/{g['id']}/join", raw=b'{"seat": "R", "token": "\\ud800"}'
        )
        codes[code] = codes.get(code, 0) + 1
    return {"answers": codes, "log_bytes_added": server.log_bytes() - log0}


async def chat(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    _, g = api(
        server.base,
        "/api/games",
        {"seats": [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "bot"}]},
    )
    url = server.base.replace("http://", "ws://") + f"/ws/{g['id']}"
    token = next(s["token"] for s in g["seats"] if "token" in s)
    stop = time.monotonic() + args.seconds
    got = {"lines": 0}

    async def reader() -> None:
        async with connect(url, max_size=2**24) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": "R", "token": token}))
            while time.monotonic() < stop:
                try:
                    m = json.loads(
                        await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
                    )
                except TimeoutError:
                    break
                got["lines"] += m["type"] == "chat"

    async def spammer(address: str, i: int) -> None:
        try:
            async with connect(url, local_addr=(address, 0)) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                while time.monotonic() < stop:
                    await ws.send(
                        json.dumps({"type": "chat", "text": f"spam {i}", "name": f"Red {i}"})
                    )
                    await asyncio.sleep(0.5)
        except Exception:
            pass

    await asyncio.gather(reader(), *(spammer(f"127.0.9.{2 + i % 3}", i) for i in range(args.flood)))
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        history = None
        while history is None:
            m = json.loads(await ws.recv())
            if m["type"] == "chat_history":
                history = m["messages"]
    spam = sum(1 for m in history if m["colour"] is None)
    return {
        "lines_per_s_to_a_player": round(got["lines"] / args.seconds, 1),
        "history": len(history),
        "spectator_lines_in_history": spam,
    }


async def tokens(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    _, g = api(
        server.base,
        "/api/games",
        {"seats": [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "invite"}]},
    )
    url = server.base.replace("http://", "ws://") + f"/ws/{g['id']}"
    stop = time.monotonic() + args.seconds
    out: dict[str, int] = {"answered": 0}

    async def prober(address: str, i: int) -> None:
        n = 0
        while time.monotonic() < stop:
            try:
                async with connect(url, local_addr=(address, 0)) as ws:
                    while time.monotonic() < stop:
                        n += 1
                        await ws.send(
                            json.dumps({"type": "hello", "seat": "R", "token": f"w{i}x{n}"})
                        )
                        m = json.loads(await asyncio.wait_for(ws.recv(), 5))
                        out["answered"] += 1
                        code = m.get("code", m["type"])
                        out[code] = out.get(code, 0) + 1
            except Exception:
                await asyncio.sleep(0.2)

    cpu0 = cpu_seconds(server.proc.pid)
    await asyncio.gather(*(prober(client_address(2000 + i), i) for i in range(args.flood)))
    cpu = cpu_seconds(server.proc.pid) - cpu0
    return {
        "hellos_answered_per_s": round(out["answered"] / args.seconds, 1),
        "answers": {k: v for k, v in out.items() if k != "answered"},
        "server_cpu_share": round(cpu / args.seconds, 2),
    }


async def slowhttp(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    socks = []
    for i in range(300):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + str(i).encode())
        s.setblocking(False)
        socks.append(s)
    await asyncio.sleep(15)
    held = 0
    for s in socks:
        try:
            held += s.recv(10) != b""
        except BlockingIOError:
            held += 1  # nothing came, not closed: still held
        except OSError:
            pass
        s.close()
    return {"connections": 300, "held_after_15s": held}


async def lobby(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    seats = [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "open"}]
    for i in range(50):
        api(server.base, "/api/games", {"seats": seats, "public": True, "name": f"spam {i}"})
    _, found = api(server.base, "/api/games")
    return {"made": 50, "shown": sum(1 for x in found["games"] if x["name"].startswith("spam"))}


async def idle(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    _, g = api(
        server.base,
        "/api/games",
        {"seats": [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "bot"}]},
    )
    url = server.base.replace("http://", "ws://") + f"/ws/{g['id']}"
    out: dict[str, Any] = {"rss_before_mb": rss_mb(server.proc.pid)}
    for _ in range(args.rounds):
        socks = []
        for i in range(1000):
            where = client_address(3000 + i // 25)  # within an address's burst of connections
            ws = await connect(url, local_addr=(where, 0), open_timeout=30)
            await ws.send(json.dumps({"type": "hello"}))
            socks.append(ws)
        await asyncio.sleep(3)
        out.setdefault("rss_with_1000_mb", []).append(rss_mb(server.proc.pid))
        for ws in socks:
            await ws.close()
        await asyncio.sleep(5)
        out.setdefault("rss_5s_after_mb", []).append(rss_mb(server.proc.pid))
    return out


SCENARIOS = {
    f.__name__: f for f in (resync, unread, timer, surrogate, chat, tokens, slowhttp, lobby, idle)
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--server-src", help="run the server from this checkout's src folder")
    ap.add_argument("--only", action="append", choices=sorted(SCENARIOS))
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--flood", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3, help="idle: times 1,000 come and leave")
    args = ap.parse_args()
    for name in args.only or list(SCENARIOS):
        extra = ["--timer-scale", "0.1"] if name == "timer" else []
        server = Server(args.server_src, *extra, bot_games=name != "timer")
        try:
            load0 = os.getloadavg()[0]
            result = asyncio.run(SCENARIOS[name](args, server))
        finally:
            server.stop()
        print(
            json.dumps(
                {
                    "scenario": name,
                    **result,
                    "load": [round(load0, 1), round(os.getloadavg()[0], 1)],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
