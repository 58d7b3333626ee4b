"""The attacks on accounts, each made against ``sorry serve`` on 127.0.0.1 (SQLite in a
temporary folder, the server's own argon2id cost and login limits) with real HTTP and WebSocket
clients, bounded in count; one JSON line of figures each. Scenarios (``--only NAME``,
repeatable):

``guess``    one address tries ``--guesses`` wrong passwords on one account as fast as they
             are answered, then the right one: the answers by status, the attempt the limit
             began at, its Retry-After, the right password's answer
``spread``   one address tries one wrong password on each of 60 accounts: where the address'
             limit began
``botnet``   40 addresses try one wrong password each on one account: where the name's limit
             began, and what the right password gets from a 41st address meanwhile
``timing``   ``--pairs`` pairs of failed logins, one on an account's name with a wrong password
             and one on a name nobody has, in random order within each pair, each name tried
             once, the pairs spread over 30 addresses (the limits never reached): the answers
             (status and body) and the time of each, medians and the median of the pairs'
             differences with its 95% interval (bootstrap)
``cookie``   the session cookie's attributes, over plain HTTP and with ``X-Forwarded-Proto:
             https`` from the proxy uvicorn trusts (127.0.0.1)
``csrf``     the account's session cookie on every changing request, without the CSRF token
             (as another site's form or script would send it) and with another Origin: the
             answers by request; then whether anything changed
``seat``     another account's session on a seat (a WebSocket hello, a join): the answers

    python benchmarks/bench_web_accounts.py
    python benchmarks/bench_web_accounts.py --only timing --pairs 200
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from typing import Any

import httpx2

from bench_web_abuse import Server
from bench_web_load import client_address

PASSWORD = "correct horse battery"


def client(base: str, address: str = "127.0.0.1") -> httpx2.Client:
    """An HTTP client whose connections come from ``address`` (a loopback address)."""
    transport = httpx2.HTTPTransport(local_address=address)
    return httpx2.Client(base_url=base, transport=transport, timeout=120)


def register(base: str, name: str, address: str = "127.0.0.1") -> httpx2.Client:
    c = client(base, address)
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    if r.status_code != 201:
        raise RuntimeError(f"register {name}: {r.status_code} {r.text}")
    c.headers["X-CSRF-Token"] = r.json()["csrf"]
    return c


def login(c: httpx2.Client, name: str, password: str) -> httpx2.Response:
    return c.post("/api/session", json={"name": name, "password": password})


def tally(codes: list[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for code in codes:
        out[str(code)] = out.get(str(code), 0) + 1
    return out


def first(codes: list[int], code: int) -> int | None:
    """The 1-based attempt that first got ``code``."""
    return codes.index(code) + 1 if code in codes else None


def guess(args: argparse.Namespace, base: str) -> dict[str, Any]:
    register(base, "Ann").close()
    c = client(base, "127.0.9.1")
    codes, retry = [], None
    t0 = time.perf_counter()
    for i in range(args.guesses):
        r = login(c, "Ann", f"guess number {i}")
        codes.append(r.status_code)
        if r.status_code == 429 and retry is None:
            retry = int(r.headers["retry-after"])
    seconds = time.perf_counter() - t0
    right = login(c, "Ann", PASSWORD)
    return {
        "attempts": args.guesses,
        "answers": tally(codes),
        "limited_from_attempt": first(codes, 429),
        "retry_after_s": retry,
        "attempts_per_s": round(args.guesses / seconds, 1),
        "right_password_then": right.status_code,
    }


def spread(args: argparse.Namespace, base: str) -> dict[str, Any]:
    names = [f"user{i}" for i in range(60)]
    for i, name in enumerate(names):
        register(base, name, client_address(i)).close()
    c = client(base, "127.0.9.2")
    codes = [login(c, name, "not the password").status_code for name in names]
    return {"names": len(names), "answers": tally(codes), "limited_from_attempt": first(codes, 429)}


def botnet(args: argparse.Namespace, base: str) -> dict[str, Any]:
    register(base, "Ann").close()
    codes = []
    for i in range(40):
        with client(base, client_address(100 + i)) as c:
            codes.append(login(c, "Ann", f"guess from {i}").status_code)
    with client(base, client_address(200)) as c:
        right = login(c, "Ann", PASSWORD)
    return {
        "addresses": 40,
        "answers": tally(codes),
        "limited_from_attempt": first(codes, 429),
        "right_password_from_a_new_address": right.status_code,
    }


def median_interval(diffs: list[float], rng: random.Random) -> tuple[float, float]:
    meds = sorted(statistics.median(rng.choices(diffs, k=len(diffs))) for _ in range(2000))
    return meds[50], meds[1949]


def timing(args: argparse.Namespace, base: str) -> dict[str, Any]:
    rng = random.Random(1)
    names = [f"known{i}" for i in range(args.pairs)]
    for i, name in enumerate(names):
        register(base, name, client_address(i)).close()
    clients = [client(base, client_address(300 + i)) for i in range(30)]
    known: list[float] = []
    unknown: list[float] = []
    bodies: set[str] = set()
    statuses: set[int] = set()
    for i, name in enumerate(names):
        c = clients[i % len(clients)]
        tries = [("known", name), ("unknown", f"nobody{i}")]
        rng.shuffle(tries)
        for kind, who in tries:
            t0 = time.perf_counter()
            r = login(c, who, "not the password")
            took = (time.perf_counter() - t0) * 1000
            statuses.add(r.status_code)
            bodies.add(r.text)
            (known if kind == "known" else unknown).append(took)
    for c in clients:
        c.close()
    diffs = [k - u for k, u in zip(known, unknown, strict=True)]
    low, high = median_interval(diffs, rng)
    return {
        "pairs": args.pairs,
        "statuses": sorted(statuses),
        "distinct_bodies": len(bodies),
        "known_median_ms": round(statistics.median(known), 1),
        "unknown_median_ms": round(statistics.median(unknown), 1),
        "known_p10_p90_ms": [round(q, 1) for q in statistics.quantiles(known, n=10)[::8]],
        "unknown_p10_p90_ms": [round(q, 1) for q in statistics.quantiles(unknown, n=10)[::8]],
        "median_difference_ms": round(statistics.median(diffs), 2),
        "difference_95_interval_ms": [round(low, 2), round(high, 2)],
    }


def cookie(args: argparse.Namespace, base: str) -> dict[str, Any]:
    with client(base) as c:
        plain = c.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        proxied = c.post(
            "/api/session",
            json={"name": "Ann", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https"},
        )
    return {
        "http": plain.headers["set-cookie"],
        "https_behind_proxy": proxied.headers["set-cookie"],
    }


def csrf(args: argparse.Namespace, base: str) -> dict[str, Any]:
    ann = register(base, "Ann")
    register(base, "Bob").close()
    token = ann.headers.pop("X-CSRF-Token")
    evil = {"Origin": "http://evil.example"}
    two = [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "bot", "level": "random"}]
    g = ann.post("/api/games", json={"seats": two}).json()
    gid = g["id"]
    tok = g["seats"][0]["token"]
    attempts = {
        "change password": ("POST", "/api/account/password", {"old": PASSWORD, "new": "x" * 12}),
        "delete the account": ("DELETE", "/api/account", {"password": PASSWORD}),
        "notifications": ("POST", "/api/account/notifications", {"webhook": None, "email": None}),
        "block": ("POST", "/api/account/block", {"name": "Bob", "blocked": True}),
        "log out": ("DELETE", "/api/session", None),
        "rated game": (
            "POST",
            "/api/games",
            {"seats": two, "room": {"rated": True}},
        ),
        "invite by name": (
            "POST",
            "/api/games",
            {"seats": [{"colour": "R", "kind": "invite", "account": "Bob"}, two[1]]},
        ),
        "join as the account": (
            "POST",
            f"/api/games/{gid}/join",
            {"seat": "R", "token": tok},
        ),
    }
    out: dict[str, Any] = {}
    for label, (method, path, body) in attempts.items():
        answers = []
        for headers in ({}, evil):
            r = ann.request(method, path, json=body, headers=headers)
            said = r.json() if r.content else None
            joined = said.get("account") if isinstance(said, dict) else None
            answers.append(f"{r.status_code}" + ("" if joined is None else f" account={joined}"))
        out[label] = answers
    ann.headers["X-CSRF-Token"] = token
    after = ann.get("/api/account").json()
    out["after"] = {
        "logged_in": ann.get("/api/session").json()["account"] is not None,
        "password_unchanged": login(client(base), "Ann", PASSWORD).status_code == 200,
        "blocked": after["blocked"],
        "seat_held_by_account": ann.get(f"/api/games/{gid}").json()["seats"][0]["account"],
    }
    return out


def seat(args: argparse.Namespace, base: str) -> dict[str, Any]:
    from websockets.sync.client import connect

    ann, bob = register(base, "Ann"), register(base, "Bob")
    seats = [{"colour": "R", "kind": "invite"}, {"colour": "B", "kind": "invite"}]
    g = ann.post("/api/games", json={"seats": seats, "room": {"start": "host"}}).json()
    gid, tokens = g["id"], {s["colour"]: s["token"] for s in g["seats"]}
    ann.post(f"/api/games/{gid}/join", json={"seat": "R", "token": tokens["R"]})
    ws_url = base.replace("http://", "ws://") + f"/ws/{gid}"

    def hello(c: httpx2.Client) -> str:
        cookie = f"sorry_session={c.cookies['sorry_session']}"
        with connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
            ws.send(json.dumps({"type": "hello", "seat": "R"}))
            while True:
                m = json.loads(ws.recv(timeout=30))
                if m["type"] == "welcome":
                    return f"welcome as {m['role']}"
                if m["type"] == "error":
                    return f"error {m['code']}"

    return {
        "ann_own_session": hello(ann),
        "bob_session_on_anns_seat": hello(bob),
        "bob_join_with_anns_link": bob.post(
            f"/api/games/{gid}/join", json={"seat": "R", "token": tokens["R"]}
        ).status_code,
        "seat_still_anns": ann.get(f"/api/games/{gid}").json()["seats"][0]["account"],
    }


SCENARIOS = {
    "guess": guess,
    "spread": spread,
    "botnet": botnet,
    "timing": timing,
    "cookie": cookie,
    "csrf": csrf,
    "seat": seat,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", action="append", choices=sorted(SCENARIOS))
    ap.add_argument("--guesses", type=int, default=50)
    ap.add_argument("--pairs", type=int, default=60)
    args = ap.parse_args()
    for name in args.only or list(SCENARIOS):
        server = Server(None, bot_games=False)
        try:
            load0 = os.getloadavg()[0]
            result = SCENARIOS[name](args, server.base)
        finally:
            server.stop()
        load = [round(load0, 1), round(os.getloadavg()[0], 1)]
        print(json.dumps({"scenario": name, **result, "load": load}), flush=True)


if __name__ == "__main__":
    main()
