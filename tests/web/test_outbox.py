"""The notifications' outbox (sorry.web.outbox) against local receivers: a turn's notification
reaches the webhook receiver and the SMTP receiver once; adding it again, another dispatcher
(a restart) and two dispatchers at once on PostgreSQL send nothing more; a crash in the middle
of sending never sends it twice; refused addresses, limits and a missing SMTP server drop it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from receivers import Receiver, smtp_receiver

from sorry.web import account_tables as t
from sorry.web.correspondence import Notice, NotifyLimits
from sorry.web.mail import SmtpConfig
from sorry.web.outbox import Dispatcher, Message, enqueue
from sorry.web.webhooks import parse_networks

LOCAL = parse_networks(["127.0.0.1/32"])


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    try:
        yield r
    finally:
        r.close()


def engine_of(url: str) -> sa.Engine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    e = sa.create_engine(url)
    t.metadata.create_all(e)
    return e


def add_account(e: sa.Engine, name: str, webhook: str | None, email: str | None) -> int:
    with e.begin() as conn:
        r = conn.execute(
            t.accounts.insert().values(
                name=name, name_key=name.lower(), created_at=0.0, webhook=webhook, email=email
            )
        )
        assert r.inserted_primary_key is not None
        return int(r.inserted_primary_key[0])


def compose(row: Any) -> Message:
    return Message(
        subject=f"Your turn in {row.game_id}",
        text=f"{row.name}, it is your turn (move {row.seq}).",
        payload={"type": "your_turn", "game": row.game_id, "seq": row.seq},
    )


def dispatcher(e: sa.Engine, port: int | None, **kw: Any) -> Dispatcher:
    smtp = SmtpConfig("127.0.0.1", port, "games@example.org", security="none") if port else None
    kw.setdefault("allow", LOCAL)
    return Dispatcher(e, compose, smtp=smtp, timeout=2.0, **kw)


def statuses(e: sa.Engine) -> list[tuple[str, str]]:
    with e.connect() as conn:
        return [
            (r.channel, r.status)
            for r in conn.execute(
                sa.select(t.notifications.c.channel, t.notifications.c.status).order_by(
                    t.notifications.c.id
                )
            )
        ]


def test_a_turn_is_notified_once_by_webhook_and_email_across_a_restart(
    sqlite_url: str, receiver: Receiver
) -> None:
    e = engine_of(sqlite_url)
    ann = add_account(e, "Ann", receiver.url, "ann@example.org")
    notices = [Notice(ann, "g1", 5, "webhook"), Notice(ann, "g1", 5, "email")]
    with e.begin() as conn:
        assert enqueue(conn, notices) == 2
    with smtp_receiver() as (port, mails):
        assert asyncio.run(dispatcher(e, port).run_once()) == 2
        assert statuses(e) == [("webhook", "sent"), ("email", "sent")]
        with e.begin() as conn:  # the same turn again (another process, a replayed move)
            assert enqueue(conn, notices) == 0
        restarted = dispatcher(e, port)
        assert restarted.recover() == 0
        assert asyncio.run(restarted.run_once()) == 0
    [(_path, _headers, body)] = receiver.posts
    assert json.loads(body) == {"type": "your_turn", "game": "g1", "seq": 5}
    [m] = mails
    assert m.rcpt_tos == ["ann@example.org"] and "Subject: Your turn in g1" in m.content.decode()


def test_a_crash_while_sending_never_sends_twice(sqlite_url: str, receiver: Receiver) -> None:
    e = engine_of(sqlite_url)
    ann = add_account(e, "Ann", receiver.url, None)
    with e.begin() as conn:
        enqueue(conn, [Notice(ann, "g1", 5, "webhook")])
        # a process claimed it and died before it could say whether it was sent
        conn.execute(
            t.notifications.update().values(status="sending", claimed_at=time.time() - 120)
        )
    d = dispatcher(e, None)
    assert d.recover() == 1
    assert asyncio.run(d.run_once()) == 0
    assert statuses(e) == [("webhook", "failed")] and receiver.posts == []


def test_refused_targets_limits_and_no_smtp_server_drop_the_notification(
    sqlite_url: str, receiver: Receiver
) -> None:
    e = engine_of(sqlite_url)
    ann = add_account(e, "Ann", receiver.url, "ann@example.org")
    with e.begin() as conn:
        enqueue(conn, [Notice(ann, "g1", 1, "webhook"), Notice(ann, "g1", 1, "email")])
    # the default: no network of the server's own (127.0.0.1 is refused), and no SMTP
    asyncio.run(dispatcher(e, None, allow=()).run_once())
    assert statuses(e) == [("webhook", "failed"), ("email", "dropped")]
    assert receiver.posts == []
    # an account's limit
    with e.begin() as conn:
        enqueue(conn, [Notice(ann, "g1", s, "webhook") for s in range(2, 6)])
    asyncio.run(dispatcher(e, None, limits=NotifyLimits(per_account=1, burst=2)).run_once())
    assert [s for _c, s in statuses(e)[2:]] == ["sent", "sent", "dropped", "dropped"]
    assert len(receiver.posts) == 2


def test_a_receiver_that_fails_is_tried_again_later_then_given_up(
    sqlite_url: str, receiver: Receiver
) -> None:
    e = engine_of(sqlite_url)
    ann = add_account(e, "Ann", receiver.url, None)
    receiver.mode = "error"
    with e.begin() as conn:
        enqueue(conn, [Notice(ann, "g1", 1, "webhook")], now=0.0)
    d = dispatcher(e, None)
    for round_ in range(5):
        asyncio.run(d.run_once(now=10_000.0 * (round_ + 1)))
    assert statuses(e) == [("webhook", "failed")] and len(receiver.posts) == 3


def test_two_dispatchers_on_postgresql_send_each_notification_once(
    postgres_url: str, receiver: Receiver
) -> None:
    e = engine_of(postgres_url)
    people = [add_account(e, f"P{i}", receiver.url, None) for i in range(4)]
    with e.begin() as conn:
        enqueue(conn, [Notice(p, "g1", s, "webhook") for p in people for s in range(5)])

    async def both() -> None:
        a, b = dispatcher(e, None), dispatcher(e, None)
        await asyncio.gather(a.run_once(), b.run_once())

    asyncio.run(both())
    assert [s for _c, s in statuses(e)] == ["sent"] * 20
    assert len(receiver.posts) == 20
