"""The account store (sorry.web.accounts) on a real database: register, log in and out, the
same refusal for an unknown name and a wrong password, limits, a password change ending the
other sessions, a deleted account's games kept and anonymised, the data download, a guest's
finished game claimed with its seat token, blocks, recent opponents, reports, disabling."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
import sqlalchemy as sa

from sorry.web import account_tables as t
from sorry.web.accounts import DELETED_NAME, AccountStore, LoginRefused
from sorry.web.db import Database
from sorry.web.passwords import AccountError, LoginLimits, Passwords
from sorry.web.ratings import Entry, rate_game


@pytest.fixture
def store(sqlite_url: str) -> Any:
    db = Database(sqlite_url)
    t.metadata.create_all(db.engine)
    s = AccountStore(
        db.engine,
        passwords=Passwords(memory_cost=1024, time_cost=1),
        limits=LoginLimits(per_name=3, per_address=10),
    )
    yield s
    db.engine.dispose()


def add_game(store: AccountStore, gid: str, names: dict[int, str], status: str = "over") -> None:
    with store.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO sorry_games (id, name, public, variant, rules, seq, status, state,"
                " created_at, updated_at) VALUES (:id, 'g', 1, 'standard', '{}', 10, :st, '{}',"
                " 1, 2)"
            ),
            {"id": gid, "st": status},
        )
        for colour, name in names.items():
            conn.execute(
                sa.text(
                    "INSERT INTO sorry_seats (game_id, colour, kind, name, token_hash, claimed)"
                    " VALUES (:g, :c, 'human', :n, :h, 1)"
                ),
                {"g": gid, "c": colour, "n": name, "h": hashlib.sha256(name.encode()).hexdigest()},
            )


def seat_names(store: AccountStore, gid: str) -> dict[int, str]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT colour, name FROM sorry_seats WHERE game_id = :g"), {"g": gid}
        )
        return {r.colour: r.name for r in rows}


def test_register_log_in_and_out(store: AccountStore) -> None:
    ann, token = store.create("Ann", "correct horse")
    assert store.session(token) == ann and ann.name == "Ann"
    with pytest.raises(AccountError) as err:
        store.create("ANN", "another password")
    assert err.value.code == "name_taken"
    t2 = store.login("ann", "correct horse", "10.0.0.1")
    assert t2 != token and store.session(t2) == ann
    store.logout(t2)
    assert store.session(t2) is None and store.session(token) == ann
    assert store.session("forged") is None and store.session(None) is None


def test_an_unknown_name_and_a_wrong_password_are_refused_alike(store: AccountStore) -> None:
    store.create("Ann", "correct horse")
    for name, password in (("Ann", "wrong horse"), ("Nobody", "correct horse")):
        with pytest.raises(LoginRefused) as err:
            store.login(name, password, "10.0.0.1")
        assert err.value.code == "bad_login"


def test_wrong_passwords_in_a_loop_are_limited_even_with_the_right_one(store: AccountStore) -> None:
    store.create("Ann", "correct horse")
    codes = []
    for i in range(6):
        try:
            store.login("Ann", f"guess {i}", f"10.0.1.{i}")
            codes.append("ok")
        except LoginRefused as exc:
            codes.append(exc.code)
    assert codes == ["bad_login"] * 3 + ["login_limited"] * 3
    with pytest.raises(LoginRefused) as err:
        store.login("Ann", "correct horse", "10.0.2.1")
    assert err.value.code == "login_limited" and err.value.retry_after > 0
    # a name nobody has is limited the same way (its limit says nothing about existence)
    for _i in range(3):
        with pytest.raises(LoginRefused):
            store.login("Nobody", "x", "10.0.3.1")
    with pytest.raises(LoginRefused) as err:
        store.login("Nobody", "x", "10.0.3.2")
    assert err.value.code == "login_limited"


def test_the_owner_logs_in_from_her_usual_address_while_others_guess(
    store: AccountStore,
) -> None:
    """Forty addresses guessing Ann's password lock her name for strangers, not for her: she
    registered from 10.0.9.9, and logs in from there with the right password; the guesses let
    through are three in all (per_name), whatever the number of addresses."""
    store.create("Ann", "correct horse", address="10.0.9.9")
    codes = []
    for i in range(40):
        try:
            store.login("Ann", f"guess {i}", f"10.0.4.{i}")
        except LoginRefused as exc:
            codes.append(exc.code)
    assert codes.count("bad_login") == 3 and codes.count("login_limited") == 37
    assert store.login("Ann", "correct horse", "10.0.9.9")
    with pytest.raises(LoginRefused) as err:  # a new address waits, right password or not
        store.login("Ann", "correct horse", "10.0.5.1")
    assert err.value.code == "login_limited"


def test_changing_the_password_ends_the_other_sessions(store: AccountStore) -> None:
    ann, here = store.create("Ann", "correct horse")
    there = store.login("Ann", "correct horse", "10.0.0.2")
    with pytest.raises(LoginRefused):
        store.change_password(ann.id, "wrong", "new password 1", here)
    with pytest.raises(AccountError):
        store.change_password(ann.id, "correct horse", "short", here)
    store.change_password(ann.id, "correct horse", "new password 1", here)
    assert store.session(here) == ann and store.session(there) is None
    with pytest.raises(LoginRefused):
        store.login("Ann", "correct horse", "10.0.0.3")
    assert store.session(store.login("Ann", "new password 1", "10.0.0.3")) == ann


def test_a_deleted_accounts_games_stay_anonymised(store: AccountStore) -> None:
    ann, _ = store.create("Ann", "correct horse")
    bob, bob_token = store.create("Bob", "battery staple")
    add_game(store, "g1", {0: "Ann", 2: "Bob"})
    with store.engine.begin() as conn:
        store.seat(conn, "g1", 0, ann.id, rated=True)
        store.seat(conn, "g1", 2, bob.id, rated=True)
        rate_game(conn, "g1", "standard", [Entry(0, 0, ann.id), Entry(2, 2, bob.id)], {0: 1, 2: 2})
    bob_rating = store.rating(bob.id, "standard")
    with pytest.raises(LoginRefused):
        store.delete(bob.id, "wrong")
    store.delete(bob.id, "battery staple")
    assert store.session(bob_token) is None and store.get(bob.id) is None
    assert store.by_name("Bob") is None
    assert seat_names(store, "g1") == {0: "Ann", 2: DELETED_NAME}
    assert store.seats_of("g1") == {0: (ann.id, True), 2: (None, True)}
    assert [g.game_id for g in store.games(ann.id)] == ["g1"]
    assert store.ratings(bob.id) == {} and bob_rating.mu < 25
    assert [c.account_id for c in store.changes_of_game("g1")] == [ann.id]
    assert [r.name for r in store.leaderboard("standard")] == ["Ann"]
    # the name is free again, for a new account that has none of the old one's games
    bob2, _ = store.create("Bob", "another staple")
    assert bob2.id != bob.id and store.games(bob2.id) == []
    with pytest.raises(LoginRefused):
        store.login("Bob", "battery staple", "10.0.0.9")


def test_download_your_data(store: AccountStore) -> None:
    ann, _ = store.create("Ann", "correct horse")
    add_game(store, "g1", {0: "Ann", 1: "x"})
    with store.engine.begin() as conn:
        store.seat(conn, "g1", 0, ann.id, rated=True)
        rate_game(
            conn, "g1", "standard", [Entry(0, 0, ann.id), Entry(1, 1, level="easy")], {0: 1, 1: 2}
        )
    data = store.export(ann.id)
    assert data["account"]["name"] == "Ann" and "password_hash" not in str(data)
    assert data["games"][0]["id"] == "g1" and data["games"][0]["rated"]
    assert data["ratings"]["standard"]["games"] == 1
    assert data["rating_history"]["standard"][0]["after"] > 25


def test_a_guest_claims_a_finished_game_with_the_seat_token(store: AccountStore) -> None:
    ann, _ = store.create("Ann", "correct horse")
    add_game(store, "g1", {0: "guest-ann", 1: "other"})
    add_game(store, "g2", {0: "guest-ann"}, status="playing")
    good = hashlib.sha256(b"guest-ann").hexdigest()
    assert not store.claim(ann.id, "g1", 0, hashlib.sha256(b"wrong").hexdigest())
    assert not store.claim(ann.id, "g2", 0, good)  # not finished
    assert store.claim(ann.id, "g1", 0, good)
    assert not store.claim(ann.id, "g1", 0, good)  # once
    assert store.seats_of("g1") == {0: (ann.id, False)}


def test_blocks_recent_opponents_reports_and_disabling(store: AccountStore) -> None:
    ann, ann_token = store.create("Ann", "correct horse")
    bob, _ = store.create("Bob", "battery staple")
    cy, _ = store.create("Cyd", "third password")
    for i, other in enumerate((bob, cy)):
        add_game(store, f"g{i}", {0: "Ann", 1: other.name})
        with store.engine.begin() as conn:
            store.seat(conn, f"g{i}", 0, ann.id, rated=False, now=float(i))
            store.seat(conn, f"g{i}", 1, other.id, rated=False, now=float(i))
    assert store.recent_opponents(ann.id) == ["Cyd", "Bob"]
    store.block(ann.id, bob.id, True)
    store.block(ann.id, bob.id, True)
    assert store.blocked(ann.id) == ["Bob"]
    assert store.blocks_between(ann.id, bob.id) and not store.blocks_between(bob.id, ann.id)
    store.block(ann.id, bob.id, False)
    assert store.blocked(ann.id) == []
    store.report(ann.id, "g0", "Bob", bob.id, "<script>alert(1)</script>")
    [r] = store.reports()
    assert (r.reported_name, r.text, r.status) == ("Bob", "<script>alert(1)</script>", "open")
    assert store.close_report(r.id) and store.reports() == []
    disabled = store.set_disabled("ann", True)
    assert disabled is not None and disabled.disabled
    assert store.session(ann_token) is None
    with pytest.raises(LoginRefused) as err:
        store.login("Ann", "correct horse", "10.0.0.1")
    assert err.value.code == "bad_login"
    store.set_disabled("Ann", False)
    assert store.session(store.login("Ann", "correct horse", "10.0.0.1")) is not None
