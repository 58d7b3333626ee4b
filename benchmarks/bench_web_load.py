"""Load benchmark of the game server: many concurrent games over real WebSockets on 127.0.0.1.

Starts ``sorry serve`` in a subprocess (SQLite in a temporary folder on disk, or PostgreSQL with
``--database``) and creates ``--games`` four-player games: Red and Yellow are simulated browser
clients (``websockets``, in this process, each game's two from a loopback address of their own,
127.0.0.2, 127.0.0.3, ..., so the per-address limits stay on), Blue and Green are bots
(``--bot-level``, random by default). Clients keep their state as the page does: the whole
state after hello, then the deltas applied (``sorry.web.protocol.apply_delta``). Modes:

``think``      (the default) clients think ``--think T1 T2`` seconds (uniform) before each
               move, bots wait ``--bot-delay`` (0.6 s): live games as people play them.
``saturate``   clients move as soon as it is their turn, bots have no delay: the most moves
               per second the server commits, with the clients' CPU on the same machine.
``bots``       every seat is a bot with no delay, no client is connected (``--allow-bot-games``):
               the server's own ceiling.
``hints``      the ``think`` games, plus ``--hint-games`` more games whose two players ask a
               hint at each of their turns before they move (every position a new one: the
               cache answers none of them), thinking ``--think`` as the others: the measured
               games' latency while the hints are computed (``hint_flood``)
``flood``      the ``think`` games, plus ``--flood-games`` more games whose seated Red opens
               ``--flood`` connections in all (spread over those games, each from an address
               of its own, so no per-address limit stops them) and asks a hint on each,
               ``--flood-repeat`` times as fast as the answers come: the latency of the other
               games' moves sent while the flood is answered (``flood.meanwhile``). The
               flooding clients run in a process of their own (``--flood-in-process``: in
               this one, beside the measured players, as the first version did); the flood
               comes ``--flood-rounds`` times, ``--flood-gap`` seconds apart, each round on
               games of its own (a bigger sample of moves made meanwhile).

Reports, as one JSON line: moves/s (every committed decision, from the games' sequence
numbers), the latency from sending a move to receiving ``accepted`` (sent only after the move
is committed and the deltas queued to every client of its game): p50, p90, p99 and max; the
CPU seconds of the server process (and per move) and of its worker processes (and
their children) over the run;
the machine's load average at the start and end (``os.getloadavg``); ``warmup_s``, the
seconds it took, before the server started, to load the compiled search from numba's cache,
or to compile it when its sources changed (then minutes).

    python benchmarks/bench_web_load.py --games 100 --seconds 60                 # think
    python benchmarks/bench_web_load.py --mode saturate --games 100 --seconds 30
    python benchmarks/bench_web_load.py --mode bots --games 200 --seconds 30
    python benchmarks/bench_web_load.py --mode flood --games 100 --flood 100 \\
        --flood-games 100 --flood-repeat 20 --seconds 60 --flood-rounds 5
    python benchmarks/bench_web_load.py --games 100 --seconds 60 \\
        --database postgresql://postgres@127.0.0.1:5432/test
    python benchmarks/bench_web_load.py --games 100 --seconds 60 --accounts   # half logged in
    python benchmarks/bench_web_load.py --mode saturate --server-src OLD/src   # another checkout

``--accounts``: Red of each game is an account (registered, seated with its session and CSRF
token, its WebSocket opened with the session cookie and no token), Yellow a guest with its
seat's token: half the seats of people logged in, whose games keep their turns in
``sorry_turns`` as they go.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from sorry.web.protocol import apply_delta


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def api(base: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def cpu_seconds(pid: int, reaped: bool = False) -> float:
    """User + system CPU seconds of a process (Linux /proc); ``reaped``: with those of its
    children that have ended (and been waited for)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    if reaped:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    out: list[int] = []
    kids: list[int] = []
    try:  # the children of each of its threads
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as fh:
                kids += [int(x) for x in fh.read().split()]
    except OSError:
        return out
    for k in kids:
        out.append(k)
        out.extend(descendants(k))
    return out


def cpu_of_tree(pid: int) -> tuple[float, float]:
    """(the process's CPU seconds, its descendants', the ended ones included)."""
    own = cpu_seconds(pid)
    kids = cpu_seconds(pid, reaped=True) - own
    for k in descendants(pid):
        with contextlib.suppress(OSError):
            kids += cpu_seconds(k, reaped=True)
    return own, kids


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.sent_at: list[float] = []  # time.monotonic() each move was sent
        self.rejected = 0
        self.hints = 0
        self.hints_estimated = 0  # answered with each move's estimate (searched or cached)
        self.hint_errors: dict[str, int] = {}
        self.last_answer = 0.0  # time.monotonic() of the last hint answered

    def summary(self, windows: list[tuple[float, float]] | None = None) -> dict[str, Any]:
        """Latency percentiles of the moves sent within ``windows`` (``(start, end)`` pairs of
        ``time.monotonic()``; default: all)."""
        lat = sorted(
            x
            for x, t in zip(self.latencies, self.sent_at, strict=True)
            if windows is None or any(start <= t <= end for start, end in windows)
        )

        def pct(p: float) -> float | None:
            if not lat:
                return None
            return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1)

        return {
            "client_moves": len(lat),
            "p50_ms": pct(0.50),
            "p90_ms": pct(0.90),
            "p99_ms": pct(0.99),
            "max_ms": round(lat[-1] * 1000, 1) if lat else None,
            "rejected": self.rejected,
        }


def client_address(i: int) -> str:
    """The loopback address of the ``i``-th game's players (127.0.0.2, 127.0.0.3, ...): each
    game's clients come from an address of their own, as people do, so the per-address
    limits stay on for them."""
    return f"127.0.{1 + i // 250}.{2 + i % 250}"


def account_seat(base: str, game_id: str, seat: str, token: str, name: str) -> str:
    """Register an account and take ``seat`` with it (its session and CSRF token, as the
    page does); returns the session cookie its WebSocket then opens the seat with."""
    import http.client

    host = base.split("//", 1)[1]

    def post(path: str, body: Any, headers: dict[str, str]) -> tuple[Any, Any]:
        conn = http.client.HTTPConnection(host, timeout=60)
        conn.request(
            "POST", path, json.dumps(body), {"Content-Type": "application/json", **headers}
        )
        r = conn.getresponse()
        data = json.loads(r.read() or b"null")
        cookie = r.getheader("Set-Cookie")
        conn.close()
        if r.status >= 400:
            raise RuntimeError(f"{path}: {r.status} {data}")
        return data, cookie

    data, cookie = post("/api/accounts", {"name": name, "password": "bench password"}, {})
    session = cookie.split(";", 1)[0]
    headers = {"Cookie": session, "X-CSRF-Token": data["csrf"]}
    post(f"/api/games/{game_id}/join", {"seat": seat, "token": token}, headers)
    return str(session)


#: The server plays a turn's forced pass itself (/api/meta's auto_pass): the page, and so the
#: clients here, never send it (a pass sent too would be refused as stale).
AUTO_PASS = False


def only_pass(legal: list[dict[str, Any]]) -> bool:
    return len(legal) == 1 and legal[0]["move"] == "pass"


async def player(
    url: str,
    seat: str,
    token: str,
    stop: float,
    stats: Stats,
    rng: random.Random,
    think: tuple[float, float],
    address: str = "127.0.0.1",
    hints: Stats | None = None,
    session: str | None = None,
) -> None:
    """A browser client: hello, then on each state where it is to move, think, then move.
    With ``hints``: it first asks a hint for each position it is to move in (every position
    a new one, never asked before), and counts the answers there. With ``session`` (an
    account's cookie) it opens its seat as the page of a logged-in player does: the session,
    no token."""
    headers = {"Cookie": session} if session else None
    async with connect(
        url, max_size=2**24, open_timeout=60, local_addr=(address, 0), additional_headers=headers
    ) as ws:
        hello = {"type": "hello", "seat": seat}
        if session is None:
            hello["token"] = token
        await ws.send(json.dumps(hello))
        state: dict[str, Any] | None = None  # the state to act on (None: wait for news)
        known: dict[str, Any] | None = None  # the last state (deltas applied)
        pending: float | None = None
        sent_at = 0.0
        move_at: float | None = None
        hinted = -1  # the seq of the last position a hint was asked for
        while True:
            now = time.monotonic()
            if now >= stop:
                break
            wait = stop - now
            if move_at is not None:
                wait = max(0.0, min(wait, move_at - now))
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=wait)
            except TimeoutError:
                raw = None
            if raw is not None:
                m = json.loads(raw)
                if m["type"] == "delta" and known is not None:  # what changed: apply it
                    m = apply_delta(known, m)
                if m["type"] == "state":
                    state = known = m
                elif m["type"] == "accepted" and pending is not None:
                    stats.latencies.append(time.perf_counter() - pending)
                    stats.sent_at.append(sent_at)
                    pending = None
                elif m["type"] == "rejected":
                    stats.rejected += 1
                    pending = None
                elif hints is not None and m["type"] in ("hint", "error"):
                    if m["type"] == "hint":
                        hints.hints += 1
                    else:
                        hints.hint_errors[m["code"]] = hints.hint_errors.get(m["code"], 0) + 1
            if state is not None and state["status"] == "over":
                break
            mine = (
                state is not None
                and pending is None
                and state["status"] == "playing"
                and state["view"]["to_move"] == seat
                and bool(state["view"]["legal_moves"])
                and not (AUTO_PASS and only_pass(state["view"]["legal_moves"]))
            )
            if not mine:
                move_at = None
                continue
            assert state is not None
            if hints is not None and hinted != state["seq"]:
                hinted = state["seq"]
                await ws.send(json.dumps({"type": "hint", "seq": state["seq"]}))
            if move_at is None:
                move_at = time.monotonic() + (rng.uniform(*think) if think[1] > 0 else 0.0)
            if time.monotonic() < move_at:
                continue
            move = rng.choice(state["view"]["legal_moves"])["move"]
            pending = time.perf_counter()
            sent_at = time.monotonic()
            move_at = None
            await ws.send(json.dumps({"type": "move", "seq": state["seq"], "move": move}))
            state = None  # wait for the next state before choosing again


async def hinter(
    url: str, token: str, repeat: int, stop: float, stats: Stats, address: str
) -> None:
    """One of the flooding connections: hello as Red, and once it is Red's turn ask a hint,
    ``repeat`` times, each as soon as the last was answered."""
    async with connect(url, max_size=2**24, open_timeout=60, local_addr=(address, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": "R", "token": token}))
        seq = None
        asked = 0
        waiting = False
        known: dict[str, Any] | None = None
        while time.monotonic() < stop and asked <= repeat:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            except ConnectionClosed:  # the server closed it (a limit, told before)
                break
            m = json.loads(raw)
            if m["type"] == "delta" and known is not None:
                m = apply_delta(known, m)
            if m["type"] == "state":
                known = m
            if m["type"] == "state" and m["view"]["to_move"] == "R":
                seq = m["seq"]
            elif m["type"] == "hint":
                stats.hints += 1
                if m.get("moves"):  # estimates: a search (not the fallback while loading)
                    stats.hints_estimated += 1
                stats.last_answer = time.monotonic()
                waiting = False
            elif m["type"] in ("error", "rejected"):
                stats.hint_errors[m["code"]] = stats.hint_errors.get(m["code"], 0) + 1
                stats.last_answer = time.monotonic()
                waiting = False
            if seq is not None and not waiting:
                if asked == repeat:
                    break
                asked += 1
                waiting = True
                await ws.send(json.dumps({"type": "hint", "seq": seq}))


Target = tuple[str, str, str]  # a flooding connection: (url, Red's token, local address)


async def flood_rounds(
    rounds: list[list[Target]], repeat: int, gap: float, start: float, stop: float, stats: Stats
) -> list[tuple[float, float]]:
    """The flood, once per round (each on games of its own, so that every round asks for
    hints nobody has asked yet), ``gap`` seconds apart: the ``(start, end)`` of each, from
    its first connection to its last answer."""
    windows: list[tuple[float, float]] = []
    at = start
    for targets in rounds:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        begun = time.monotonic()
        if begun >= stop:
            break
        stats.last_answer = 0.0
        await asyncio.gather(
            *(hinter(url, token, repeat, stop, stats, where) for url, token, where in targets)
        )
        windows.append((begun, stats.last_answer or time.monotonic()))
        at = time.monotonic() + gap
    return windows


def _flood_child(conn: Any, rounds: list[list[Target]], repeat: int, gap: float) -> None:
    """The flooding clients in a process of their own (``multiprocessing``): their CPU (a
    hundred connections' frames, JSON and deltas) does not delay the event loop of the
    measured players. Receives the flood's start and stop times, sends back its statistics
    and windows (``time.monotonic()`` is the same clock in every process)."""
    start, stop = conn.recv()
    stats = Stats()
    windows = asyncio.run(flood_rounds(rounds, repeat, gap, start, stop, stats))
    conn.send(
        {
            "hints": stats.hints,
            "estimated": stats.hints_estimated,
            "hint_errors": stats.hint_errors,
            "windows": windows,
        }
    )


def seat_list(mode: str, bot_level: str) -> list[dict[str, Any]]:
    bot = {"kind": "bot", "level": bot_level}
    if mode == "bots":
        return [{"colour": c, **bot} for c in "RBYG"]
    return [
        {"colour": "R", "kind": "invite"},
        {"colour": "B", **bot},
        {"colour": "Y", "kind": "invite"},
        {"colour": "G", **bot},
    ]


async def run(base: str, args: argparse.Namespace, server_pid: int) -> dict[str, Any]:
    global AUTO_PASS
    AUTO_PASS = bool(api(base, "/api/meta").get("auto_pass"))
    rng = random.Random(args.seed)
    created = [api(base, "/api/games", {"seats": seat_list(args.mode, args.bot_level)})]
    for _ in range(args.games - 1):
        created.append(api(base, "/api/games", {"seats": seat_list(args.mode, args.bot_level)}))
    ws_base = base.replace("http://", "ws://")
    rounds: list[list[Target]] = []
    if args.mode == "flood":  # Red is flooding, Yellow a bot: it stays Red's turn
        seats = [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "bot"}]
        for _ in range(args.flood_rounds):
            games = [api(base, "/api/games", {"seats": seats}) for _ in range(args.flood_games)]
            targets = []
            for i in range(args.flood):
                g = games[i % len(games)]
                token = next(s["token"] for s in g["seats"] if s["colour"] == "R")
                where = client_address(1000 + i)  # an address each: no per-address limit
                targets.append((f"{ws_base}/ws/{g['id']}", token, where))
            rounds.append(targets)
    hinting = []
    if args.mode == "hints":
        seats = seat_list("think", args.bot_level)
        hinting = [api(base, "/api/games", {"seats": seats}) for _ in range(args.hint_games)]
    # --accounts: Red of each game is a logged-in account (half the seats of people)
    sessions: dict[tuple[str, str], str] = {}
    if args.accounts and args.mode != "bots":
        for i, g in enumerate(created):
            token = next(s["token"] for s in g["seats"] if s["colour"] == "R")
            sessions[(g["id"], "R")] = await asyncio.to_thread(
                account_seat, base, g["id"], "R", token, f"player{i}"
            )
    start_seq = {g["id"]: api(base, f"/api/games/{g['id']}")["seq"] for g in created}
    stats = Stats()
    flood_stats = Stats()
    think = (0.0, 0.0) if args.mode == "saturate" else (args.think[0], args.think[1])
    flooder = None
    if rounds and not args.flood_in_process:
        ctx = multiprocessing.get_context("spawn")
        here, there = ctx.Pipe()
        flooder = ctx.Process(
            target=_flood_child, args=(there, rounds, args.flood_repeat, args.flood_gap)
        )
        flooder.start()  # started now: it imports while the players connect
        there.close()  # its end is the child's now: a child that dies ends recv below
    load0 = os.getloadavg()
    cpu0 = cpu_of_tree(server_pid)
    t0 = time.monotonic()
    stop = t0 + args.seconds
    tasks = []
    if args.mode != "bots":
        for i, g in enumerate(created):
            for s in g["seats"]:
                if "token" in s:
                    url = f"{ws_base}/ws/{g['id']}"
                    r = random.Random(rng.random())
                    where = client_address(i)
                    session = sessions.get((g["id"], s["colour"]))
                    tasks.append(
                        player(
                            url,
                            s["colour"],
                            s["token"],
                            stop,
                            stats,
                            r,
                            think,
                            where,
                            session=session,
                        )
                    )
    hint_stats = Stats()
    if args.mode == "hints":
        for i, g in enumerate(hinting):
            for s in g["seats"]:
                if "token" in s:
                    url = f"{ws_base}/ws/{g['id']}"
                    r = random.Random(rng.random())
                    where = client_address(500 + i)
                    colour, token = s["colour"], s["token"]
                    mute = Stats()  # their moves are not the ones measured
                    tasks.append(
                        player(url, colour, token, stop, mute, r, think, where, hint_stats)
                    )
    flood_start = t0 + args.flood_after
    windows: list[tuple[float, float]] = []
    if flooder is not None:
        here.send((flood_start, stop))
    elif rounds:

        async def flood() -> None:
            windows.extend(
                await flood_rounds(
                    rounds, args.flood_repeat, args.flood_gap, flood_start, stop, flood_stats
                )
            )

        tasks.append(flood())
    if tasks:
        await asyncio.gather(*tasks)
    else:
        await asyncio.sleep(args.seconds)
    if flooder is not None:
        report = await asyncio.to_thread(here.recv)
        flooder.join()
        flood_stats.hints = report["hints"]
        flood_stats.hints_estimated = report["estimated"]
        flood_stats.hint_errors = report["hint_errors"]
        windows = [tuple(w) for w in report["windows"]]
    elapsed = time.monotonic() - t0
    cpu1 = cpu_of_tree(server_pid)
    load1 = os.getloadavg()
    total = 0
    finished = 0
    for g in created:
        s = api(base, f"/api/games/{g['id']}")
        total += s["seq"] - start_seq[g["id"]]
        finished += s["status"] == "over"
    out: dict[str, Any] = {
        "mode": args.mode,
        "games": args.games,
        "account_seats": len(sessions),
        "seconds": round(elapsed, 1),
        "moves": total,
        "moves_per_s": round(total / elapsed, 1),
        **stats.summary(),
        "finished_games": finished,
        "server_cpu_s": round(cpu1[0] - cpu0[0], 1),
        "server_cpu_ms_per_move": round((cpu1[0] - cpu0[0]) / max(1, total) * 1000, 2),
        "workers_cpu_s": round(cpu1[1] - cpu0[1], 1),
        "load_before": [round(x, 2) for x in load0],
        "load_after": [round(x, 2) for x in load1],
    }
    if args.mode == "hints":
        out["hint_flood"] = {
            "games": args.hint_games,
            "hints_answered": hint_stats.hints,
            "hints_per_s": round(hint_stats.hints / elapsed, 1),
            "hint_errors": hint_stats.hint_errors,
        }
    if rounds:
        out["flood"] = {
            "connections": args.flood,
            "games": args.flood_games,
            "rounds": len(windows),
            "in_process": args.flood_in_process,
            "hints_answered": flood_stats.hints,
            "hints_with_estimates": flood_stats.hints_estimated,
            "hint_errors": flood_stats.hint_errors,
            "seconds": round(sum(end - start for start, end in windows), 1),
            # the other games' moves sent while a round of the flood was being answered
            "meanwhile": stats.summary(windows),
            # each round's (start, end) in time.monotonic(), the same clock as the server's:
            # for matching server-side measurements to the flood
            "windows": [[round(a, 3), round(b, 3)] for a, b in windows],
        }
    return out


def pg_schema_url(base: str) -> tuple[str, str]:
    import psycopg

    schema = "sorry_bench_" + secrets.token_hex(4)
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}", schema


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--mode", choices=("think", "saturate", "bots", "flood", "hints"), default="think"
    )
    ap.add_argument("--hint-games", type=int, default=100, help="games asking hints (hints mode)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--think", type=float, nargs=2, default=(1.0, 3.0), metavar=("T1", "T2"))
    ap.add_argument("--bot-delay", type=float, default=None, help="default 0.6 (0 to saturate)")
    ap.add_argument("--bot-level", default="random")
    ap.add_argument("--flood", type=int, default=100, help="hint connections (flood mode)")
    ap.add_argument("--flood-games", type=int, default=1, help="games the flood is spread over")
    ap.add_argument("--flood-repeat", type=int, default=1, help="hints asked by each")
    ap.add_argument("--flood-after", type=float, default=2.0, help="seconds before the flood")
    ap.add_argument("--flood-rounds", type=int, default=1, help="floods, one after the other")
    ap.add_argument("--flood-gap", type=float, default=3.0, help="seconds between two rounds")
    ap.add_argument(
        "--flood-in-process",
        action="store_true",
        help="the flooding clients in the benchmark's process, beside the measured players\n"
        "(the first version: their CPU delayed the players' reading of their answers)",
    )
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--database", help="postgresql://... (default: SQLite in a temporary folder)")
    ap.add_argument(
        "--folder", help="where the SQLite database goes (default: a temporary folder on disk)"
    )
    ap.add_argument(
        "--cold",
        action="store_true",
        help="no warm-up before the server starts (with NUMBA_CACHE_DIR set to an empty\n"
        "folder: a server started after its compiled search's sources changed)",
    )
    ap.add_argument(
        "--accounts",
        action="store_true",
        help="Red of each game is a logged-in account (half the seats of people): registered,\n"
        "seated with its session, its WebSocket opened with the session cookie",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--server-arg", action="append", default=[], help="passed to sorry serve")
    ap.add_argument(
        "--server-src", help="run the server from this checkout's src folder (before and after)"
    )
    args = ap.parse_args()
    if args.bot_delay is None:
        args.bot_delay = 0.0 if args.mode in ("saturate", "bots") else 0.6
    # the compiled search loaded (or compiled) once before the server starts: after a change
    # of its sources numba compiles it again, minutes of CPU that the server's worker would
    # otherwise spend (in a process of its own) during the measured run
    t0 = time.monotonic()
    if not args.cold:
        print(
            "loading the compiled search (numba compiles it first if its sources changed: minutes)",
            file=sys.stderr,
            flush=True,
        )
        warm = "from sorry.bots.rollouts import warmup; warmup()"
        subprocess.run([sys.executable, "-c", warm], check=True, stdout=subprocess.DEVNULL)
    warmup_s = time.monotonic() - t0
    schema = None
    with tempfile.TemporaryDirectory(dir=args.folder) as tmp:
        if args.database:
            url, schema = pg_schema_url(args.database)
        else:
            url = f"sqlite:///{tmp}/bench.db"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        cmd = [sys.executable, "-m", "sorry", "serve", "--port", str(port), "--database", url]
        cmd += ["--bot-delay", str(args.bot_delay), "--takeover-after", "3600"]
        cmd += ["--workers", str(args.workers)]
        # each game's players, and each flooding connection, come from a loopback address of
        # their own (client_address): the per-address limits stay on for them; the games are
        # all created from 127.0.0.1, whose limit on new games is lifted
        cmd += ["--games-per-minute", "1000000"]
        cmd += ["--max-games", "100000", *args.server_arg]
        if args.mode == "bots":
            cmd.append("--allow-bot-games")
        env = dict(os.environ)
        if args.server_src:
            env["PYTHONPATH"] = args.server_src
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env)
        try:
            for _ in range(600):
                try:
                    api(base, "/api/meta")
                    break
                except OSError:
                    time.sleep(0.1)
            result = asyncio.run(run(base, args, proc.pid))
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:  # a server that does not stop is stopped
                print("the server did not stop in 30 s: killed", file=sys.stderr)
                proc.kill()
                proc.wait(10)
            if schema is not None:
                import psycopg

                with psycopg.connect(args.database, autocommit=True) as conn:
                    conn.execute(f"DROP SCHEMA {schema} CASCADE")
    result["database"] = "postgresql" if args.database else "sqlite"
    result["warmup_s"] = None if args.cold else round(warmup_s, 1)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
