"""Notifications when a player is away: the webhook sender's SSRF guard against a local HTTP
receiver the test starts (refused by default, allowed by the server's option; no redirect
followed; a short timeout; a size cap on the answer), e-mail through a local SMTP receiver
(aiosmtpd), and the correspondence clock's and the outbox's rules."""

from __future__ import annotations

import ipaddress
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from receivers import Receiver, smtp_receiver

from sorry.web import mail, webhooks
from sorry.web.correspondence import (
    CHOICES,
    MAX_PER_MOVE,
    MIN_PER_MOVE,
    Clock,
    NotifyLimits,
    parse_per_move,
    turn_notifications,
)

LOCAL = webhooks.parse_networks(["127.0.0.1/32"])


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    try:
        yield r
    finally:
        r.close()


def test_a_webhook_to_the_servers_own_network_is_refused_by_default(receiver: Receiver) -> None:
    with pytest.raises(webhooks.WebhookRefused, match="not public"):
        webhooks.post_json(receiver.url, {"x": 1})
    assert receiver.posts == []


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://10.1.2.3/", "private"),
        ("http://192.168.0.1/", "private"),
        ("http://172.16.5.4/", "private"),
        ("http://169.254.169.254/latest/meta-data", "link-local"),
        ("http://[::1]/", "loopback"),
        ("http://[fe80::1]/", "link-local"),
        ("http://[::ffff:127.0.0.1]/", "loopback"),
        ("http://0.0.0.0/", "unspecified"),
        ("http://100.64.0.1/", "shared"),
        ("http://224.0.0.1/", "multicast"),
        ("http://user:pw@example.org/", "user name"),
        ("gopher://example.org/", "http"),
        ("http://example.org:99999/", "port"),
    ],
)
def test_private_and_special_targets_are_refused(url: str, why: str) -> None:
    with pytest.raises(webhooks.WebhookRefused, match=why):
        webhooks.check_url(url, resolve=lambda h, p: [ipaddress.ip_address("93.184.215.14")])


def test_a_name_that_resolves_to_a_private_address_is_refused() -> None:
    def rebinding(host: str, port: int) -> list[Any]:
        # one public and one private address: any private one refuses the name
        return [ipaddress.ip_address("93.184.215.14"), ipaddress.ip_address("10.0.0.7")]

    with pytest.raises(webhooks.WebhookRefused, match=r"10\.0\.0\.7"):
        webhooks.check_url("https://hooks.example.org/x", resolve=rebinding)
    ok = webhooks.check_url(
        "https://hooks.example.org/x?a=1",
        resolve=lambda h, p: [ipaddress.ip_address("93.184.215.14")],
    )
    # the request goes to the address that was checked, for the name written
    assert (ok.address, ok.host, ok.port, ok.path) == (
        "93.184.215.14",
        "hooks.example.org",
        443,
        "/x?a=1",
    )


def test_the_servers_option_allows_the_local_receiver(receiver: Receiver) -> None:
    d = webhooks.post_json(receiver.url, {"type": "your_turn", "game": "g1"}, allow=LOCAL)
    assert d.ok and d.status == 204
    [(path, headers, body)] = receiver.posts
    assert path == "/hook?topic=sorry"
    assert headers["Content-Type"] == "application/json"
    assert json.loads(body) == {"type": "your_turn", "game": "g1"}
    # the option allows those networks only
    with pytest.raises(webhooks.WebhookRefused):
        webhooks.post_json("http://127.0.0.2:9/", {}, allow=LOCAL)


def test_redirects_are_not_followed(receiver: Receiver) -> None:
    receiver.mode = "redirect"
    d = webhooks.post_json(receiver.url, {}, allow=LOCAL)
    assert not d.ok and d.status == 302 and "redirect" in d.detail
    assert len(receiver.posts) == 1  # the Location (a private address) was never asked


def test_a_slow_receiver_times_out(receiver: Receiver) -> None:
    receiver.mode = "slow"
    t0 = time.monotonic()
    d = webhooks.post_json(receiver.url, {}, allow=LOCAL, timeout=0.5)
    assert not d.ok and d.status is None and "timed out" in d.detail
    assert time.monotonic() - t0 < 1.8


def test_a_huge_answer_is_not_read(receiver: Receiver) -> None:
    receiver.mode = "huge"
    t0 = time.monotonic()
    d = webhooks.post_json(receiver.url, {}, allow=LOCAL, max_response=4096)
    assert d.ok and d.status == 200
    assert time.monotonic() - t0 < 1.5


def test_a_receiver_that_is_not_there_fails_quietly() -> None:
    d = webhooks.post_json("http://127.0.0.1:9/", {}, allow=LOCAL, timeout=1.0)
    assert not d.ok and d.status is None


# -- e-mail ---------------------------------------------------------------------------------
def test_an_email_reaches_a_local_smtp_receiver() -> None:
    with smtp_receiver() as (port, got):
        cfg = mail.SmtpConfig("127.0.0.1", port, "games@example.org", security="none")
        mail.send(cfg, "ann@example.org", "Your turn", "It is your turn in Friday game.")
        with pytest.raises(ValueError):
            mail.send(cfg, "ann@example.org\nBcc: x@example.org", "s", "t")
    [env] = got
    assert env.mail_from == "games@example.org" and env.rcpt_tos == ["ann@example.org"]
    text = env.content.decode()
    assert "Subject: Your turn" in text and "It is your turn in Friday game." in text
    assert "Auto-Submitted: auto-generated" in text


# -- the clock and the outbox's rules -------------------------------------------------------
def test_the_per_move_times() -> None:
    assert CHOICES[0] == MIN_PER_MOVE == 3600 and CHOICES[-1] == MAX_PER_MOVE == 3 * 86400
    assert [parse_per_move(x) for x in (3600, 86400.0, 259200)] == [3600.0, 86400.0, 259200.0]
    assert [parse_per_move(x) for x in (3599, 259201, 3600.5, "3600", True, None)] == [None] * 6
    c = Clock(per_move=86400.0, on_timeout="bot")
    assert c.left(0.0, 86399.0) == 1.0 and not c.expired(0.0, 86399.0)
    assert c.left(0.0, 90000.0) == 0.0 and c.expired(0.0, 86400.0)


def test_a_turn_notifies_the_absent_account_on_each_channel_it_chose() -> None:
    seats = {0: 5, 1: 6}
    chans = {5: ("webhook",), 6: ("webhook", "email", "pigeon")}
    assert [(n.account_id, n.channel) for n in turn_notifications("g", 3, [1], seats, chans)] == [
        (6, "webhook"),
        (6, "email"),
    ]
    assert turn_notifications("g", 3, [1], seats, chans, connected=[1]) == []
    assert turn_notifications("g", 3, [2], seats, chans) == []  # a guest or a bot


def test_notification_limits_per_account_and_per_address() -> None:
    lim = NotifyLimits(per_account=6, per_address=12, burst=3)
    assert [lim.take(1, "a", now=0.0) for _ in range(4)] == [True, True, True, False]
    # another account is not held back by the first's bucket, but the address is shared
    assert [lim.take(2, "a", now=0.0) for _ in range(3)] == [True, True, True]
    assert lim.take(3, "a", now=0.0) and lim.take(3, "a", now=0.0)
    assert lim.take(3, "a", now=0.0)  # the address's bucket is 12: 3 + 3 + 3 so far
    assert lim.take(4, "a", now=0.0) and lim.take(4, "a", now=0.0) and lim.take(4, "a", now=0.0)
    assert not lim.take(5, "a", now=0.0)  # 12 from one address
    assert lim.take(5, "b", now=0.0)  # another address
    assert lim.take(1, "a", now=600.0)  # ten minutes give one account token (6 an hour)
