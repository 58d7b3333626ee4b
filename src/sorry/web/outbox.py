"""The notifications' outbox: "your turn" sent once, by webhook and by e-mail.

A move that makes it an absent account's turn in a correspondence game adds rows to
``sorry_notifications`` (:func:`enqueue`), one per channel the account chose; the unique key
(account, game, sequence number, channel) drops a second row for the same turn, whichever
process or restart adds it. :class:`Dispatcher` (one task per server process) sends them:

1. it claims a row by changing it from ``pending`` to ``sending`` with a conditional UPDATE
   (two processes never both claim one);
2. sends it (a thread: :func:`sorry.web.webhooks.post_json`, :func:`sorry.web.mail.send`);
3. marks it ``sent``, or ``pending`` again for a later try (at most :data:`MAX_ATTEMPTS`), or
   ``failed``.

A process killed between 1 and 3 leaves the row ``sending``; at start-up such rows older than a
minute become ``failed``, not ``pending``: a notification may be lost in a crash but is never
sent twice. Rows over an account's limit (:class:`~sorry.web.correspondence.NotifyLimits`)
become ``dropped``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from . import account_tables as t
from .correspondence import Notice, NotifyLimits
from .mail import SmtpConfig
from .webhooks import IPNetwork, WebhookRefused

log = logging.getLogger("sorry.web")
MAX_ATTEMPTS = 3
RETRY_AFTER = 60.0
STALE_SENDING = 60.0


def enqueue(conn: Connection, notices: Iterable[Notice], now: float | None = None) -> int:
    """Add the notices to the outbox inside the caller's transaction; those already there are
    skipped. The number added."""
    at = time.time() if now is None else now
    added = 0
    for n in notices:
        exists = conn.execute(
            sa.select(t.notifications.c.id).where(
                t.notifications.c.account_id == n.account_id,
                t.notifications.c.game_id == n.game_id,
                t.notifications.c.seq == n.seq,
                t.notifications.c.channel == n.channel,
            )
        ).first()
        if exists is not None:
            continue
        try:
            with conn.begin_nested():
                conn.execute(
                    t.notifications.insert().values(
                        account_id=n.account_id,
                        game_id=n.game_id,
                        seq=n.seq,
                        channel=n.channel,
                        status="pending",
                        attempts=0,
                        created_at=at,
                    )
                )
            added += 1
        except sa.exc.IntegrityError:  # another process added it meanwhile
            pass
    return added


@dataclass(frozen=True)
class Message:
    """What one notification says: built by the server (its language, the game's name, the
    link, how many games wait for the player)."""

    subject: str
    text: str
    payload: dict[str, Any]


class Dispatcher:
    """Sends the outbox's pending rows; ``compose(row)`` (the notification's row with its
    account's ``name``, ``email``, ``webhook``, ``settings``) gives the :class:`Message` (None:
    nothing to send any more, e.g. the turn has passed)."""

    def __init__(
        self,
        engine: Engine,
        compose: Callable[[Any], Message | None],
        smtp: SmtpConfig | None = None,
        allow: Sequence[IPNetwork] = (),
        limits: NotifyLimits | None = None,
        interval: float = 2.0,
        timeout: float = 5.0,
    ) -> None:
        self.engine = engine
        self.compose = compose
        self.smtp = smtp
        self.allow = tuple(allow)
        self.limits = limits or NotifyLimits()
        self.interval = interval
        self.timeout = timeout
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # -- the loop --------------------------------------------------------------------------------
    def start(self) -> None:
        self.recover()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="sorry-outbox")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup: try again on the next round
                log.exception("notification outbox")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)
            self._wake.clear()

    def recover(self, now: float | None = None) -> int:
        """Rows left ``sending`` by a process that died: ``failed`` (never sent twice)."""
        at = time.time() if now is None else now
        with self.engine.begin() as conn:
            r = conn.execute(
                t.notifications.update()
                .where(
                    t.notifications.c.status == "sending",
                    t.notifications.c.claimed_at < at - STALE_SENDING,
                )
                .values(status="failed", detail="interrupted")
            )
            return int(r.rowcount or 0)

    async def run_once(self, now: float | None = None) -> int:
        """Send what is due; the number of rows handled."""
        rows = await asyncio.to_thread(self._due, now)
        for row in rows:
            await self._send(row)
        return len(rows)

    def _due(self, now: float | None, limit: int = 50) -> list[Any]:
        at = time.time() if now is None else now
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(
                    t.notifications,
                    t.accounts.c.name,
                    t.accounts.c.email,
                    t.accounts.c.webhook,
                    t.accounts.c.settings,
                    t.accounts.c.disabled,
                    t.accounts.c.deleted,
                )
                .select_from(t.notifications)
                .join(t.accounts, t.accounts.c.id == t.notifications.c.account_id)
                .where(
                    t.notifications.c.status == "pending",
                    t.notifications.c.created_at <= at - RETRY_AFTER * t.notifications.c.attempts,
                )
                .order_by(t.notifications.c.id)
                .limit(limit)
            ).all()
        return list(rows)

    def _claim(self, nid: int) -> bool:
        with self.engine.begin() as conn:
            r = conn.execute(
                t.notifications.update()
                .where(t.notifications.c.id == nid, t.notifications.c.status == "pending")
                .values(
                    status="sending",
                    attempts=t.notifications.c.attempts + 1,
                    claimed_at=time.time(),
                )
            )
            return bool(r.rowcount)

    def _finish(self, nid: int, status: str, detail: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                t.notifications.update()
                .where(t.notifications.c.id == nid)
                .values(
                    status=status,
                    detail=detail[:200],
                    sent_at=time.time() if status == "sent" else None,
                )
            )

    async def _send(self, row: Any) -> None:
        nid = row.id
        if not await asyncio.to_thread(self._claim, nid):
            return  # another process has it
        target = row.webhook if row.channel == "webhook" else row.email
        if row.disabled or row.deleted or not target:
            await asyncio.to_thread(self._finish, nid, "dropped", "no address")
            return
        if row.channel == "email" and self.smtp is None:
            await asyncio.to_thread(self._finish, nid, "dropped", "no SMTP server configured")
            return
        if not self.limits.take(row.account_id, None):
            await asyncio.to_thread(self._finish, nid, "dropped", "over the account's limit")
            return
        message = await asyncio.to_thread(self.compose, row)
        if message is None:
            await asyncio.to_thread(self._finish, nid, "dropped", "no longer due")
            return
        ok, detail, final = await asyncio.to_thread(self._deliver, row.channel, target, message)
        if ok:
            status = "sent"
        elif final or row.attempts + 1 >= MAX_ATTEMPTS:
            status = "failed"
        else:
            status = "pending"
        await asyncio.to_thread(self._finish, nid, status, detail)

    def _deliver(self, channel: str, target: str, message: Message) -> tuple[bool, str, bool]:
        """(delivered, what happened, whether trying again is pointless)."""
        if channel == "webhook":
            from .webhooks import post_json

            try:
                d = post_json(target, message.payload, allow=self.allow, timeout=self.timeout)
            except WebhookRefused as exc:
                return False, str(exc), True
            return d.ok, d.detail, d.status is not None and 300 <= d.status < 500
        from . import mail

        assert self.smtp is not None
        try:
            mail.send(self.smtp, target, message.subject, message.text)
        except (OSError, ValueError) as exc:
            return False, f"{type(exc).__name__}: {exc}", isinstance(exc, ValueError)
        except Exception as exc:  # smtplib.SMTPException and its kinds
            return False, f"{type(exc).__name__}: {exc}", False
        return True, "sent", False
