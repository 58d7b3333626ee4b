"""Accounts through the server's HTTP API and WebSocket (docs/web.md, Accounts): register and
log in with the session cookie, the CSRF token on every change, seats held by accounts (a
session opens them, another account's does not), a rated game rated once when it ends with
the changes on its end screen, the profile and the leaderboard, invitations by name and
blocks, reports, a guest's game claimed, a deleted account's games, a game that ended while
no process could rate it (rated at the next start-up, once, also by two processes at once), and
the attacks: wrong passwords in a loop, another account's cookie on a seat, CSRF from another
origin, a name that is HTML. On SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from server_helpers import fast_settings, hello, new_game, recv, recv_until
from sorry.web import create_app
from sorry.web.passwords import SESSION_COOKIE

PASSWORD = "correct horse battery"


def settings(**kw: Any) -> Any:
    kw.setdefault("password_memory_cost", 1024)
    kw.setdefault("password_time_cost", 1)
    kw.setdefault("login_per_name", 3)
    kw.setdefault("analyse_account_games", False)
    return fast_settings(**kw)


class Browser:
    """One browser: its own cookies and headers, over the app's one TestClient (whose event
    loop is the server's: a second TestClient would run its requests in a loop of its own)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies = httpx2.Cookies()
        self.headers: dict[str, str] = {}

    def request(self, method: str, url: str, **kw: Any) -> httpx2.Response:
        self.client.cookies = self.cookies
        kw["headers"] = {**self.headers, **kw.get("headers", {})}
        try:
            return self.client.request(method, url, **kw)
        finally:
            self.cookies = httpx2.Cookies(self.client.cookies)
            self.client.cookies = httpx2.Cookies()

    def get(self, url: str, **kw: Any) -> httpx2.Response:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> httpx2.Response:
        return self.request("POST", url, **kw)

    def delete(self, url: str, **kw: Any) -> httpx2.Response:
        return self.request("DELETE", url, **kw)

    @contextlib.contextmanager
    def websocket_connect(self, url: str) -> Iterator[Any]:
        self.client.cookies = self.cookies
        try:
            with self.client.websocket_connect(url) as ws:
                yield ws
        finally:
            self.client.cookies = httpx2.Cookies()


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest) -> str:
    """The database of a test: SQLite, and PostgreSQL as several server processes use it."""
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture
def app(database: str) -> Iterator[TestClient]:
    application = create_app(database, settings(takeover_after=0.0))
    with TestClient(application) as client:
        yield client


def browser(client: TestClient) -> Browser:
    return Browser(client)


def register(c: Browser, name: str) -> str:
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    csrf: str = r.json()["csrf"]
    c.headers["X-CSRF-Token"] = csrf
    return csrf


def wait_over(c: Any, gid: str, seconds: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        g: dict[str, Any] = c.get(f"/api/games/{gid}").json()
        if g["status"] == "over":
            return g
        time.sleep(0.1)
    raise AssertionError("the game did not end")


def play_out(c: Browser, gid: str, seat: str) -> dict[str, Any]:
    """Sit at ``seat`` with the account's session and play its first legal move each turn
    until the game is over (the absent players' seats are played by takeover bots)."""
    with c.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": seat})
        state = recv(ws, "state")
        while state["status"] != "over":
            moves = state["view"]["legal_moves"]
            if moves and state["view"]["to_move"] == seat:
                ws.send_json({"type": "move", "seq": state["seq"], "move": moves[0]["move"]})
            state = recv(ws, "state")
    return wait_over(c, gid)


def wait_rated(c: Browser, gid: str) -> dict[str, Any]:
    for _ in range(200):
        r: dict[str, Any] = c.get(f"/api/games/{gid}/ratings").json()
        if not r["pending"]:
            return r
        time.sleep(0.05)
    raise AssertionError("the game was not rated")


def test_register_log_in_and_out_with_an_httponly_samesite_cookie(app: TestClient) -> None:
    c = browser(app)
    r = c.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
    assert r.status_code == 201
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=") and "HttpOnly" in cookie
    assert "SameSite=lax" in cookie and "Secure" not in cookie  # http: no Secure
    s = c.get("/api/session").json()
    assert s["account"] == {"name": "Ann"} and s["csrf"] == r.json()["csrf"]
    # logging out is a change: the CSRF token is needed
    assert c.delete("/api/session").status_code == 403
    assert c.delete("/api/session", headers={"X-CSRF-Token": s["csrf"]}).status_code == 204
    assert c.get("/api/session").json() == {"account": None, "csrf": None}
    # log in again, from another browser
    d = browser(app)
    r = d.post("/api/session", json={"name": "ANN", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["name"] == "Ann"
    assert d.get("/api/session").json()["account"] == {"name": "Ann"}


def test_the_cookie_is_secure_behind_https(sqlite_url: str) -> None:
    application = create_app(sqlite_url, settings())
    with TestClient(application, base_url="https://testserver") as c:
        r = c.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        assert "Secure" in r.headers["set-cookie"]


def test_wrong_passwords_in_a_loop_are_limited_and_unknown_names_alike(app: TestClient) -> None:
    register(browser(app), "Ann")
    c = browser(app)
    codes = [
        c.post("/api/session", json={"name": "Ann", "password": f"wrong {i}"}).status_code
        for i in range(6)
    ]
    assert codes[:3] == [401, 401, 401] and set(codes[3:]) == {429}
    # limited now even with the right password
    r = c.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
    # an unknown name: the same answer as a wrong password, then the same limit
    unknown = c.post("/api/session", json={"name": "Nobody", "password": "whatever1"})
    wrong = c.post("/api/session", json={"name": "Bob", "password": "whatever1"})
    assert unknown.status_code == wrong.status_code == 401
    assert (
        unknown.json() == wrong.json() == {"error": "wrong name or password", "code": "bad_login"}
    )


def test_guessing_from_other_addresses_does_not_lock_the_owner_out(database: str) -> None:
    """Ann registered from her address; guessers at two other addresses get three guesses in
    all, then 429 even with the right password; Ann logs in from her address all along."""
    application = create_app(database, settings())
    with TestClient(application) as client:
        ann = browser(client)
        register(ann, "Ann")
        codes = []
        for k in range(2):
            # a client of its own (no second start-up): its requests come from another address
            other = TestClient(application, client=(f"203.0.113.{k + 1}", 5000))
            codes += [
                other.post("/api/session", json={"name": "Ann", "password": f"w{i}"}).status_code
                for i in range(3)
            ]
            r = other.post("/api/session", json={"name": "ann", "password": PASSWORD})
            assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
            other.close()
        assert codes == [401, 401, 401, 429, 429, 429]
        r = ann.post("/api/session", json={"name": "Ann", "password": PASSWORD})
        assert r.status_code == 200 and r.json()["name"] == "Ann"


def test_wrong_passwords_on_many_names_from_one_address_are_limited(database: str) -> None:
    with TestClient(create_app(database, settings(login_per_address=5))) as client:
        register(browser(client), "Ann")
        c = browser(client)
        codes = [
            c.post("/api/session", json={"name": f"name{i}", "password": "whatever1"}).status_code
            for i in range(7)
        ]
        assert codes == [401] * 5 + [429] * 2
        # the address is limited, even for a name it never tried, with the right password
        r = c.post("/api/session", json={"name": "Ann", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["code"] == "login_limited"


@pytest.mark.parametrize(
    "name", ["<b>ann</b>", "<img src=x onerror=alert(1)>", "&amp;x", "a\u200bb"]
)
def test_a_name_that_is_html_is_refused(app: Any, name: str) -> None:
    r = browser(app).post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 400 and r.json()["code"] == "bad_name"


def test_csrf_from_another_origin_or_without_the_token_is_refused(app: TestClient) -> None:
    c = browser(app)
    csrf = register(c, "Ann")
    body = {"old": PASSWORD, "new": "another long one"}
    del c.headers["X-CSRF-Token"]
    # a form or script of another site: the cookie goes with it, the token cannot
    r = c.post("/api/account/password", json=body, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    r = c.post("/api/account/password", json=body)
    assert r.status_code == 403
    # a wrong token
    r = c.post("/api/account/password", json=body, headers={"X-CSRF-Token": "0" * 32})
    assert r.status_code == 403
    # the token, but from another origin: the Origin check refuses it
    r = c.post(
        "/api/account/password",
        json=body,
        headers={"X-CSRF-Token": csrf, "Origin": "http://evil.example"},
    )
    assert r.status_code == 400 and "Origin" in r.json()["error"]
    # a join without the token is a guest's: the seat is not the account's
    g = new_game(c, {"R": "invite", "Y": "bot:random"})
    r = c.post(f"/api/games/{g['id']}/join", json={"seat": "R", "token": g["tokens"]["R"]})
    assert r.status_code == 200 and r.json()["account"] is False
    seat = c.get(f"/api/games/{g['id']}").json()["seats"][0]
    assert seat["account"] is None
    assert c.post("/api/account/password", json=body, headers={"X-CSRF-Token": csrf}).json() == {
        "changed": True
    }


def rated_game(a: Browser, b: Browser) -> str:
    """A rated standard game: Ann (Red) and Bob (Blue), bots in the other seats; both join
    as their accounts. Returns its id."""
    g = new_game(
        a,
        {"R": "invite", "B": "invite", "Y": "bot:medium", "G": "bot:easy"},
        room={"start": "full", "rated": True},
    )
    gid = g["id"]
    r = a.post(f"/api/games/{gid}/join", json={"seat": "R", "token": g["tokens"]["R"]})
    assert r.json()["account"] is True and r.json()["name"] == "Ann"
    r = b.post(f"/api/games/{gid}/join", json={"seat": "B", "token": g["tokens"]["B"]})
    assert r.json()["account"] is True
    return gid


def test_a_rated_game_is_rated_once_when_it_ends_and_shows_on_profiles(app: TestClient) -> None:
    a, b, guest = browser(app), browser(app), browser(app)
    register(a, "Ann")
    # a guest cannot create a rated game, nor take a rated game's seat
    r = guest.post(
        "/api/games",
        json={
            "seats": [{"colour": "R", "kind": "invite"}, {"colour": "B", "kind": "invite"}],
            "room": {"rated": True},
        },
    )
    assert r.status_code == 403
    g = new_game(a, {"R": "invite", "B": "invite"}, room={"start": "full", "rated": True})
    r = guest.post(f"/api/games/{g['id']}/join", json={"seat": "B", "token": g["tokens"]["B"]})
    assert r.status_code == 403 and "account" in r.json()["error"]
    register(b, "Bob")
    gid = rated_game(a, b)
    summary = play_out(a, gid, "R")
    assert [s["account"] for s in summary["seats"]] == ["Ann", "Bob", None, None]
    rated = wait_rated(a, gid)
    assert rated["rated"] is True
    changes = {c["colour"]: c for c in rated["changes"]}
    assert set(changes) == {"R", "B"}
    winner = summary["winners"][0]
    for colour, ch in changes.items():
        assert ch["after"] - ch["before"] == ch["delta"]
        if colour == winner:
            assert ch["delta"] > 0
    # rated once: the sweep finds nothing, settling again changes nothing
    service = app.app.state.service
    assert service.results.unsettled() == []
    live = service.live[gid]
    assert service.results.write(live) is None
    assert wait_rated(a, gid)["changes"] == rated["changes"]
    # the profile: the game, its result and rating change, the rating
    ann = a.get("/api/players/ann").json()
    assert ann["name"] == "Ann" and ann["ratings"]["standard"]["games"] == 1
    game = next(x for x in ann["games"] if x["id"] == gid)
    assert game["rated"] and game["status"] == "over" and game["delta"] == changes["R"]["delta"]
    assert game["won"] == (winner == "R")
    assert ann["ratings"]["standard"]["rating"] == changes["R"]["after"]
    svg = a.get("/api/players/Ann/rating.svg?variant=standard")
    assert svg.headers["content-type"].startswith("image/svg+xml") and "<svg" in svg.text
    # the leaderboard: both, provisional after one game
    board = guest.get("/api/leaderboard?variant=standard").json()
    assert board["players"] == []
    assert {p["name"] for p in board["provisional"]} == {"Ann", "Bob"}
    assert guest.get("/api/leaderboard?variant=chess").status_code == 400
    assert guest.get("/api/players/nobody").status_code == 404


def test_a_session_opens_its_accounts_seat_and_no_other(app: TestClient) -> None:
    a, b = browser(app), browser(app)
    register(a, "Ann")
    register(b, "Bob")
    g = new_game(a, {"R": "invite", "B": "invite"}, room={"start": "host"})
    gid = g["id"]
    a.post(f"/api/games/{gid}/join", json={"seat": "R", "token": g["tokens"]["R"]})
    b.post(f"/api/games/{gid}/join", json={"seat": "B", "token": g["tokens"]["B"]})
    # Ann's session, no token: her seat
    with a.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": "R"})
        assert recv(ws, "welcome")["role"] == "player"
    # Bob's session on Ann's seat: refused
    with b.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": "R"})
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "bad_token"
    # no session at all: refused
    with browser(app).websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": "R"})
        assert ws.receive_json()["code"] == "bad_token"
    # Bob cannot rename Ann's seat with her link either: the seat is her account's
    r = b.post(f"/api/games/{gid}/join", json={"seat": "R", "token": g["tokens"]["R"]})
    assert r.status_code == 403
    # the link itself still opens the seat (seat tokens keep working for links)
    with browser(app).websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": "R", "token": g["tokens"]["R"]})
        assert recv(ws, "welcome")["role"] == "player"


def test_invitations_by_name_blocks_and_recent_opponents(app: TestClient) -> None:
    a, b = browser(app), browser(app)
    register(a, "Ann")
    register(b, "Bob")
    seats = [{"colour": "R", "kind": "invite"}, {"colour": "B", "kind": "invite", "account": "bob"}]
    r = a.post("/api/games", json={"seats": seats, "room": {"start": "full"}})
    assert r.status_code == 201
    gid = r.json()["id"]
    assert b.get("/api/account").json()["invitations"] == [gid]
    # Bob takes the seat with his session alone (no link needed)
    r = b.post(f"/api/games/{gid}/join", json={"seat": "B"})
    assert r.status_code == 200 and r.json()["token"] is None and r.json()["name"] == "Bob"
    assert b.get("/api/account").json()["invitations"] == []
    # a guest cannot invite by name; nobody can invite a name that does not exist
    r = browser(app).post("/api/games", json={"seats": seats})
    assert r.status_code == 403
    bad = [{"colour": "R", "kind": "invite"}, {"colour": "B", "kind": "invite", "account": "zed"}]
    assert a.post("/api/games", json={"seats": bad}).status_code == 404
    # Bob blocks Ann: she cannot invite him any more
    assert b.post("/api/account/block", json={"name": "Ann"}).json() == {
        "name": "Ann",
        "blocked": True,
    }
    assert a.post("/api/games", json={"seats": seats}).status_code == 403
    assert b.get("/api/account").json()["blocked"] == ["Ann"]


def _said(ws: Any) -> dict[str, Any]:
    """The next chat line or reaction a connection gets (other messages skipped)."""
    return recv_until(ws, lambda m: m["type"] in ("chat", "reaction"), seconds=30)


def test_a_blocked_players_chat_and_reactions_never_reach_the_blocker(app: TestClient) -> None:
    """Bob blocked Ann: the server sends her lines and reactions to everyone on the game but
    Bob's connections (the history he gets on opening the game too); once he unblocks her,
    her next line reaches him."""
    a, b = browser(app), browser(app)
    register(a, "Ann")
    register(b, "Bob")
    g = new_game(a, {"R": "invite", "B": "invite"}, room={"start": "host"})
    gid = g["id"]
    a.post(f"/api/games/{gid}/join", json={"seat": "R", "token": g["tokens"]["R"]})
    b.post(f"/api/games/{gid}/join", json={"seat": "B", "token": g["tokens"]["B"]})
    assert b.post("/api/account/block", json={"name": "Ann"}).status_code == 200
    watcher = browser(app)
    with (
        b.websocket_connect(f"/ws/{gid}") as bob,
        watcher.websocket_connect(f"/ws/{gid}") as guest,
        a.websocket_connect(f"/ws/{gid}") as ann,
    ):
        hello(bob, "B")
        hello(guest)
        hello(ann, "R", g["tokens"]["R"])
        ann.send_json({"type": "chat", "text": "from Ann"})
        ann.send_json({"type": "react", "emoji": "👍"})
        assert _said(guest)["message"]["text"] == "from Ann"
        assert _said(guest) == {"type": "reaction", "colour": "R", "name": "Ann", "emoji": "👍"}
        guest.send_json({"type": "chat", "text": "from a watcher", "name": "Watcher"})
        assert _said(bob)["message"]["text"] == "from a watcher"  # Ann's two never came
        # the history a new page of Bob's gets leaves her line out; the watcher's has it
        with b.websocket_connect(f"/ws/{gid}") as again:
            again.send_json({"type": "hello", "seat": "B"})
            history = recv(again, "chat_history")["messages"]
        assert [m["text"] for m in history] == ["from a watcher"]
        with watcher.websocket_connect(f"/ws/{gid}") as again:
            again.send_json({"type": "hello"})
            history = recv(again, "chat_history")["messages"]
        assert [m["text"] for m in history] == ["from Ann", "from a watcher"]
        # unblocked: her next line reaches his open page
        assert b.post("/api/account/block", json={"name": "Ann", "blocked": False}).json() == {
            "name": "Ann",
            "blocked": False,
        }
        ann.send_json({"type": "chat", "text": "sorry"})
        assert _said(bob)["message"]["text"] == "sorry"


def test_report_a_chat_line(app: TestClient) -> None:
    a, b = browser(app), browser(app)
    register(a, "Ann")
    register(b, "Bob")
    g = new_game(a, {"R": "invite", "B": "invite"}, room={"start": "host"})
    gid = g["id"]
    a.post(f"/api/games/{gid}/join", json={"seat": "R", "token": g["tokens"]["R"]})
    b.post(f"/api/games/{gid}/join", json={"seat": "B", "token": g["tokens"]["B"]})
    with b.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": "B"})
        recv(ws, "welcome")
        ws.send_json({"type": "chat", "text": "you are bad"})
        line = recv(ws, "chat")["message"]
    r = a.post(f"/api/games/{gid}/report", json={"n": line["n"]})
    assert r.status_code == 201
    reports = app.app.state.service.people.store.reports()
    assert [(x.reported_name, x.text) for x in reports] == [("Bob", "you are bad")]
    assert a.post(f"/api/games/{gid}/report", json={"n": 99}).status_code == 404
    assert browser(app).post(f"/api/games/{gid}/report", json={"n": 1}).status_code == 401


def test_a_guests_finished_game_is_claimed_with_its_seat_token(app: TestClient) -> None:
    guest = browser(app)
    g = new_game(guest, {"R": "invite", "Y": "bot:random"})
    gid = g["id"]
    guest.post(f"/api/games/{gid}/join", json={"seat": "R", "token": g["tokens"]["R"]})
    with guest.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": "R", "token": g["tokens"]["R"]})
        state = recv(ws, "state")
        while state["status"] != "over":
            moves = state["view"]["legal_moves"]
            if moves and state["view"]["to_move"] == "R":
                ws.send_json({"type": "move", "seq": state["seq"], "move": moves[0]["move"]})
            state = recv(ws, "state")
    register(guest, "Cyd")
    r = guest.post(f"/api/games/{gid}/claim", json={"seat": "R", "token": "wrong"})
    assert r.status_code == 403
    r = guest.post(f"/api/games/{gid}/claim", json={"seat": "R", "token": g["tokens"]["R"]})
    assert r.status_code == 200
    games = guest.get("/api/players/Cyd").json()["games"]
    assert [x["id"] for x in games] == [gid] and games[0]["rated"] is False
    data = guest.get("/api/account/data")
    assert data.headers["content-disposition"].startswith("attachment")
    body = data.json()
    assert body["account"]["name"] == "Cyd" and [x["id"] for x in body["games"]] == [gid]
    assert body["records"][gid]["result"] is not None


def test_a_deleted_accounts_games_stay_anonymised(app: TestClient) -> None:
    a, b = browser(app), browser(app)
    register(a, "Ann")
    register(b, "Bob")
    gid = rated_game(a, b)
    play_out(b, gid, "B")
    wait_rated(a, gid)
    assert a.request("DELETE", "/api/account", json={"password": "wrong one"}).status_code == 403
    r = a.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 204
    assert a.get("/api/session").json()["account"] is None
    assert b.get("/api/players/Ann").status_code == 404
    seats = b.get(f"/api/games/{gid}").json()["seats"]
    assert seats[0]["name"] == "—" and seats[0]["account"] is None
    assert seats[1]["account"] == "Bob"
    bob = b.get("/api/players/Bob").json()
    assert bob["ratings"]["standard"]["games"] == 1 and bob["games"][0]["id"] == gid
    assert "Ann" not in b.get("/api/account").json()["recent_opponents"]
    # the name is free again, without the old games
    register(browser(app), "Ann")
    assert b.get("/api/players/Ann").json()["games"] == []


def test_the_migration_makes_the_account_tables_as_declared(sqlite_url: str) -> None:
    import sqlalchemy as sa

    from sorry.web import account_tables
    from sorry.web.db import Database

    db = Database(sqlite_url)
    try:
        inspector = sa.inspect(db.engine)
        for table in account_tables.metadata.sorted_tables:
            migrated = {c["name"] for c in inspector.get_columns(table.name)}
            assert migrated == {c.name for c in table.columns}, table.name
            indexes = {i["name"] for i in inspector.get_indexes(table.name)}
            assert {i.name for i in table.indexes} <= indexes, table.name
    finally:
        db.dispose()


def test_sorry_admin_lists_reports_and_disables_an_account(
    app: TestClient, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sorry.cli import main

    a, b = browser(app), browser(app)
    register(a, "Ann")
    register(b, "Bob")
    g = new_game(a, {"R": "invite", "B": "invite"}, room={"start": "host"})
    gid = g["id"]
    a.post(f"/api/games/{gid}/join", json={"seat": "R", "token": g["tokens"]["R"]})
    b.post(f"/api/games/{gid}/join", json={"seat": "B", "token": g["tokens"]["B"]})
    with b.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "seat": "B"})
        recv(ws, "welcome")
        ws.send_json({"type": "chat", "text": "rude words"})
        n = recv(ws, "chat")["message"]["n"]
    assert a.post(f"/api/games/{gid}/report", json={"n": n}).status_code == 201
    assert main(["admin", "reports", "--database", database]) == 0
    out = capsys.readouterr().out
    assert f"game {gid} [open] Bob: rude words" in out
    assert main(["admin", "close", "1", "--database", database]) == 0
    assert main(["admin", "reports", "--database", database]) == 0
    assert "no reports" in capsys.readouterr().out
    assert main(["admin", "disable", "bob", "--database", database]) == 0
    assert "Bob is disabled" in capsys.readouterr().out
    # his session ended, he cannot log in, he leaves the leaderboard and his profile
    assert b.get("/api/session").json()["account"] is None
    r = browser(app).post("/api/session", json={"name": "Bob", "password": PASSWORD})
    assert r.status_code == 401
    assert a.get("/api/players/Bob").status_code == 404
    assert main(["admin", "disable", "nobody", "--database", database]) != 0
    assert main(["admin", "enable", "Bob", "--database", database]) == 0
    r = browser(app).post("/api/session", json={"name": "Bob", "password": PASSWORD})
    assert r.status_code == 200


def test_a_game_that_ended_while_no_process_could_rate_it_is_rated_at_start_up_once(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that stops between a rated game's last move and its rating (as a crash
    would: the move is committed, the settling never runs) leaves it to the next start-up:
    there the sweep rates it, once, also when two processes start at the same time on one
    PostgreSQL."""
    import threading

    import sqlalchemy as sa

    from server_helpers import ServerProcess
    from sorry.web.results import Results

    monkeypatch.setattr(Results, "changed", lambda self, live, remote=False: None)
    with TestClient(create_app(database, settings(takeover_after=0.0))) as client:
        a, b = browser(client), browser(client)
        register(a, "Ann")
        register(b, "Bob")
        gid = rated_game(a, b)
        winner = play_out(a, gid, "R")["winners"][0]
        assert a.get(f"/api/games/{gid}/ratings").json()["pending"] is True
        assert client.app.state.service.results.unsettled() == [gid]  # type: ignore[attr-defined]
    monkeypatch.undo()
    # the next start-up: one process on SQLite, two at once on PostgreSQL
    count = 2 if database.startswith("postgresql") else 1
    servers: list[ServerProcess] = []

    def start() -> None:
        servers.append(ServerProcess(database))

    threads = [threading.Thread(target=start) for _ in range(count)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    try:
        assert len(servers) == count
        # the leaderboard reads the ratings alone (it opens no game): the sweep rated it
        for srv in servers:
            for _ in range(300):
                board = httpx2.get(f"{srv.base}/api/leaderboard?variant=standard", timeout=30)
                if board.json()["provisional"]:
                    break
                time.sleep(0.1)
            assert {p["name"]: p["games"] for p in board.json()["provisional"]} == {
                "Ann": 1,
                "Bob": 1,
            }
            rated = httpx2.get(f"{srv.base}/api/games/{gid}/ratings", timeout=30).json()
            changes = {c["colour"]: c["delta"] for c in rated["changes"]}
            assert not rated["pending"] and set(changes) == {"R", "B"}
            assert winner not in changes or changes[winner] > 0
    finally:
        for srv in servers:
            srv.stop()
    engine = sa.create_engine(database.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT COUNT(*) FROM sorry_rating_changes WHERE game_id = :g"), {"g": gid}
            ).scalar()
            games = conn.execute(sa.text("SELECT games FROM sorry_ratings")).scalars().all()
    finally:
        engine.dispose()
    assert rows == 2 and games == [1, 1]


def test_turn_rows_written_together_never_go_back(database: str) -> None:
    """The turn rows of games without a clock are written in one statement, each replacing
    an older row of its game and never a newer one (another process's later move)."""
    import sqlalchemy as sa

    from sorry.web import account_tables as t
    from sorry.web.accounts import AccountStore, TurnRow
    from sorry.web.db import Database

    db = Database(database)
    try:

        def turn(gid: str, seq: int, to_move: int) -> TurnRow:
            return TurnRow(gid, seq, to_move, float(seq), None)

        def rows() -> dict[str, tuple[int, int]]:
            with db.engine.connect() as conn:
                got = conn.execute(sa.select(t.turns.c.game_id, t.turns.c.seq, t.turns.c.to_move))
                return {r.game_id: (r.seq, r.to_move) for r in got}

        with db.engine.begin() as conn:
            AccountStore.write_turns_in(conn, [turn("a", 5, 1), turn("b", 2, 0)])
        assert rows() == {"a": (5, 1), "b": (2, 0)}
        with db.engine.begin() as conn:
            AccountStore.write_turns_in(conn, [turn("a", 3, 2), turn("b", 4, 3), turn("c", 1, 1)])
        assert rows() == {"a": (5, 1), "b": (4, 3), "c": (1, 1)}
    finally:
        db.dispose()
