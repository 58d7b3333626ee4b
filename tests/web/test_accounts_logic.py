"""Accounts' rules that need no server (sorry.web.passwords): names that cannot be HTML or
blank, argon2id hashes, a login for an unknown name costing what a wrong password costs, the
CSRF token tied to its session, and failed logins limited per name and per address."""

from __future__ import annotations

import time

import pytest

from sorry.web.passwords import (
    AccountError,
    LoginLimits,
    Passwords,
    check_password,
    clean_account_name,
    csrf_ok,
    csrf_token,
    hash_session_token,
    name_key,
    new_session_token,
)


@pytest.mark.parametrize(
    "bad",
    [
        "<b>ann</b>",
        "ann<script>",
        "a",
        "ab",
        "x" * 21,
        "_ann",
        "-ann",
        "ann bob",
        "ann/..",
        "",
        "   ",
        "ann\u200b",
        7,
        None,
        "&amp;x",
    ],
)
def test_names_that_cannot_be_used(bad: object) -> None:
    with pytest.raises(AccountError) as err:
        clean_account_name(bad)
    assert err.value.code == "bad_name"


def test_names_are_kept_as_written_and_compared_without_case() -> None:
    assert clean_account_name(" Zoë.K-9 ") == "Zoë.K-9"
    assert clean_account_name("Ｍａｒｙ") == "Mary"  # NFKC: full-width letters
    assert name_key("ANN") == name_key("ann") == name_key("Ann")
    assert name_key("Straße") == name_key("STRASSE")


def test_password_rules() -> None:
    assert check_password("correct horse") is None
    assert check_password("short") == "bad_password"
    assert check_password("x" * 201) == "bad_password"
    assert check_password(12345678) == "bad_password"
    assert check_password("AnnAnnAnn", "annannann") == "password_is_name"


def test_argon2id_hashes_verify_and_an_unknown_name_costs_the_same() -> None:
    p = Passwords()
    h = p.hash("correct horse battery")
    assert h.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert p.hash("correct horse battery") != h  # salted
    assert p.verify(h, "correct horse battery")
    assert not p.verify(h, "correct horse batterz")
    assert not p.verify("not a hash", "x")
    assert not p.needs_rehash(h)
    assert Passwords(memory_cost=1024, time_cost=1).needs_rehash(h)

    def cost(stored: str | None) -> float:
        best = 1e9
        for _ in range(5):
            t0 = time.process_time()
            p.verify(stored, "wrong password")
            best = min(best, time.process_time() - t0)
        return best

    # a wrong password and no account at all do the same argon2 work (within a factor)
    real, none = cost(h), cost(None)
    assert 0.5 < none / real < 2.0


def test_session_tokens_and_their_csrf_tokens() -> None:
    a, b = new_session_token(), new_session_token()
    assert a != b and len(a) >= 43
    assert hash_session_token(a) != a and len(hash_session_token(a)) == 64
    assert csrf_ok(a, csrf_token(a))
    assert not csrf_ok(a, csrf_token(b)) and not csrf_ok(a, None) and not csrf_ok(a, "")


def test_failed_logins_are_limited_per_name_and_per_address() -> None:
    lim = LoginLimits(per_name=3, per_address=5, window=100.0)
    for i in range(3):
        assert lim.allowed("ann", f"10.0.0.{i}", now=float(i))
        lim.failed("ann", f"10.0.0.{i}", now=float(i))
    # the name is locked from every address, whether or not an account has it
    assert not lim.allowed("ANN", "10.9.9.9", now=5.0)
    assert lim.allowed("bob", "10.9.9.9", now=5.0)
    assert lim.retry_after("ann", "10.9.9.9", now=5.0) == 96
    # one address trying many names
    for name in ("c1", "c2", "c3", "c4", "c5"):
        lim.failed(name, "10.7.7.7", now=10.0)
    assert not lim.allowed("someone", "10.7.7.7", now=10.0)
    assert lim.allowed("someone", "10.7.7.8", now=10.0)
    assert lim.allowed("ann", "10.9.9.9", now=100.5)  # the window has passed


def test_failures_by_others_do_not_lock_the_owner_out_of_her_usual_address() -> None:
    lim = LoginLimits(per_name=3, per_address=5, window=100.0)
    lim.succeeded("Ann", "10.0.0.9", now=0.0)  # Ann logs in from home
    for i in range(40):  # forty addresses guess her password, three times at most in all
        if lim.allowed("ann", f"10.1.0.{i}", now=1.0 + i):
            lim.failed("ann", f"10.1.0.{i}", now=1.0 + i)
    assert lim._count(lim._names, "ann", 45.0) == 3  # the guesses that were let through
    assert not lim.allowed("ann", "10.2.0.1", now=45.0)  # any other unknown address: closed
    assert lim.allowed("ANN", "10.0.0.9", now=45.0)  # Ann at home: open
    assert lim.retry_after("ann", "10.2.0.1", now=45.0) == 57  # the window opened at 1.0
    # a known address still has its own limit (someone at Ann's address guessing)
    for _ in range(3):
        assert lim.allowed("ann", "10.0.0.9", now=50.0)
        lim.failed("ann", "10.0.0.9", now=50.0)
    assert not lim.allowed("ann", "10.0.0.9", now=50.0)
    assert lim.allowed("ann", "10.0.0.9", now=150.5)  # its window has passed
    # a success forgets that address's own failures, not the others'
    lim.failed("ann", "10.0.0.9", now=151.0)
    lim.succeeded("ann", "10.0.0.9", now=152.0)
    assert lim._count(lim._pairs, ("ann", "10.0.0.9"), 152.0) == 0


def test_an_address_is_known_to_a_name_for_the_trust_period_only() -> None:
    lim = LoginLimits(per_name=1, per_address=100, window=1000.0, trust=500.0)
    lim.succeeded("ann", "10.0.0.9", now=0.0)
    lim.failed("ann", "10.1.0.1", now=400.0)
    assert lim.allowed("ann", "10.0.0.9", now=450.0)
    assert not lim.allowed("ann", "10.0.0.9", now=501.0)  # known no longer: closed as any
    # known to Ann, the address is a stranger to Bob
    lim.failed("bob", "10.1.0.2", now=10.0)
    assert not lim.allowed("bob", "10.0.0.9", now=11.0)


def test_failures_from_a_known_address_do_not_close_the_name_to_others() -> None:
    lim = LoginLimits(per_name=2, per_address=100, window=100.0)
    lim.succeeded("ann", "10.0.0.9", now=0.0)
    for _ in range(2):
        lim.failed("ann", "10.0.0.9", now=1.0)  # Ann mistypes at home, twice
    assert not lim.allowed("ann", "10.0.0.9", now=2.0)
    assert lim.allowed("ann", "10.3.0.1", now=2.0)  # her phone, elsewhere: still open


def test_the_limits_memory_is_bounded() -> None:
    lim = LoginLimits(per_name=1, per_address=1_000_000, max_entries=100)
    for i in range(1000):
        lim.failed(f"n{i}", "a", now=0.0)
    assert len(lim._names) == 100
