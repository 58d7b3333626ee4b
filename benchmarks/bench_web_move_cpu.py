"""The server's CPU per committed move, in one process, without sockets: ``--games`` games of
two seated clients (fake connections that keep what they are sent) and a spectator each, every
move judged, committed through the group writer (SQLite, ``synchronous=FULL``) and told to the
three connections as deltas, as ``sorry serve`` does. Reports the process's CPU time per move
(every thread: the event loop's and the writer's), a figure the machine's load changes far less
than the wall clock's (run the old and the new code back to back, ``PYTHONPATH=OLD/src``).

    python benchmarks/bench_web_move_cpu.py --games 50 --moves 3000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from typing import Any

from sorry.rules import Rules
from sorry.web import Settings
from sorry.web.db import Database
from sorry.web.service import GameService


def conn_class() -> Any:
    try:
        from sorry.web.conn import Conn  # since the restructuring
    except ImportError:
        from sorry.web.service import Conn  # type: ignore[attr-defined,no-redef]
    return Conn


async def run(args: argparse.Namespace, folder: str) -> dict[str, Any]:
    db = Database(f"sqlite:///{folder}/cpu.db")
    options: dict[str, Any] = {"bot_delay": 0, "allow_bot_games": True, "tick": 3600}
    if "auto_pass" in Settings.__dataclass_fields__:
        # the clients pass themselves, as before the server played forced passes: the same
        # work on both sides (a pass played by the server was not counted as a client's move)
        options["auto_pass"] = False
    service = GameService(db, Settings(**options))
    games = getattr(service, "games", service)  # games.py since the restructuring
    audience = getattr(service, "audience", service)
    Conn = conn_class()
    seats = [{"colour": 0, "kind": "invite"}, {"colour": 2, "kind": "invite"}]
    lives = []
    conns = []
    for i in range(args.games):
        gid, _ = await games.create_game(Rules(), seats, seed=i)
        live = await service.get(gid)
        for seat in (0, 2, None):
            c = Conn()
            c.seat = seat
            audience.attach(live, c)
            conns.append(c)
        lives.append(live)
    rng = random.Random(1)
    done = 0
    t0, w0 = time.process_time(), time.perf_counter()
    while done < args.moves:
        batch = [g for g in lives if not g.game.is_over()][: args.together]
        if not batch:
            break
        moves = []
        for live in batch:
            m = str(rng.choice(live.game.legal_moves))
            moves.append(games.submit(live, live.game.to_move, live.seq, m))
        replies = await asyncio.gather(*moves)
        done += sum(r["type"] == "accepted" for r in replies)
        for c in conns:  # the writers would send them: drop what waits
            q = getattr(c, "queue", None)
            if q is not None:
                while not q.empty():
                    q.get_nowait()
            else:
                while c.waiting:
                    c.take()
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    await service.stop()
    db.dispose()
    return {
        "moves": done,
        "cpu_ms_per_move": round(cpu / done * 1000, 3),
        "wall_s": round(wall, 1),
        "load": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--moves", type=int, default=3000)
    ap.add_argument("--together", type=int, default=20, help="moves submitted at once")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(asyncio.run(run(args, folder))), flush=True)


if __name__ == "__main__":
    main()
