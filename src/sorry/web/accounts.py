"""The account store: accounts, sessions, the games an account played, people.

Synchronous methods over the server's SQLAlchemy engine (the server calls them in a thread).
What the rules are (names, hashes, tokens, limits) is in :mod:`sorry.web.passwords`; the
tables in :mod:`sorry.web.account_tables`.

* **Register** (:meth:`AccountStore.create`) and **log in** (:meth:`AccountStore.login`) answer
  a session token; a login for a name nobody has costs the same argon2 work as a wrong
  password, and both answer the same error (``bad_login``), after the attempt is counted
  against the name and the address (:class:`~sorry.web.passwords.LoginLimits`).
* **Change the password**: every other session of the account ends.
* **Delete the account**: the password hash, sessions, ratings, notification settings, blocks
  and the name go; the games stay, with the account's seats renamed to a placeholder and no
  longer linked to it (other players' ratings and records are unchanged). The name becomes free.
* **Download your data** (:meth:`AccountStore.export`): the account, its ratings and their
  history, and the games it played (the server adds each game's record).
* **Claim a game** (:meth:`AccountStore.claim`): a finished game played as a guest joins the
  account's history when the seat's token is shown.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from . import account_tables as t
from .passwords import (
    SESSION_TTL,
    AccountError,
    LoginLimits,
    Passwords,
    check_password,
    clean_account_name,
    hash_session_token,
    name_key,
    new_session_token,
)
from .ratings import Rating, new_rating

DELETED_NAME = "—"  # a deleted account's seats in its games
SEEN_EVERY = 300.0  # a session's last use is written at most this often
MAX_BLOCKS = 500


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    created_at: float
    disabled: bool
    email: str | None
    webhook: str | None
    settings: dict[str, Any]


class LoginRefused(Exception):
    """``code``: ``bad_login`` (wrong name or password, the same for both) or
    ``login_limited`` (with ``retry_after`` seconds)."""

    def __init__(self, code: str, retry_after: int = 0) -> None:
        super().__init__(code)
        self.code = code
        self.retry_after = retry_after


def _account(row: Any) -> Account:
    return Account(
        id=row.id,
        name=row.name,
        created_at=row.created_at,
        disabled=bool(row.disabled),
        email=row.email,
        webhook=row.webhook,
        settings=json.loads(row.settings or "{}"),
    )


class AccountStore:
    def __init__(
        self,
        engine: Engine,
        reader: Engine | None = None,
        passwords: Passwords | None = None,
        limits: LoginLimits | None = None,
    ) -> None:
        self.engine = engine
        self.reader = reader or engine
        self.passwords = passwords or Passwords()
        self.limits = limits or LoginLimits()

    # -- accounts and sessions -----------------------------------------------------------------
    def create(self, name: str, password: str, now: float | None = None) -> tuple[Account, str]:
        """A new account and a session for it; :class:`AccountError` (``bad_name``,
        ``bad_password``, ``password_is_name``, ``name_taken``)."""
        clean = clean_account_name(name)
        why = check_password(password, clean)
        if why is not None:
            from .passwords import MESSAGES

            raise AccountError(why, MESSAGES[why])
        at = time.time() if now is None else now
        digest = self.passwords.hash(password)
        try:
            with self.engine.begin() as conn:
                r = conn.execute(
                    t.accounts.insert().values(
                        name=clean,
                        name_key=name_key(clean),
                        password_hash=digest,
                        created_at=at,
                        disabled=0,
                        deleted=0,
                        settings="{}",
                    )
                )
                assert r.inserted_primary_key is not None
                account_id = int(r.inserted_primary_key[0])
                token = self._new_session(conn, account_id, at)
        except sa.exc.IntegrityError:
            from .passwords import MESSAGES

            raise AccountError("name_taken", MESSAGES["name_taken"]) from None
        account = self.get(account_id)
        assert account is not None
        return account, token

    def _new_session(self, conn: Connection, account_id: int, at: float) -> str:
        token = new_session_token()
        conn.execute(
            t.sessions.insert().values(
                token_hash=hash_session_token(token),
                account_id=account_id,
                created_at=at,
                last_seen=at,
            )
        )
        return token

    def login(self, name: str, password: str, address: str, now: float | None = None) -> str:
        """A new session token, or :class:`LoginRefused`. The same work and the same answer
        whether the name exists or not."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > 1000:
            raise LoginRefused("bad_login")
        name = name.strip()[:80]
        if not self.limits.allowed(name, address):
            raise LoginRefused("login_limited", self.limits.retry_after(name, address))
        with self.reader.connect() as conn:
            row = conn.execute(
                sa.select(t.accounts).where(t.accounts.c.name_key == name_key(name))
            ).first()
        usable = row is not None and not row.disabled and not row.deleted
        stored = row.password_hash if usable and row is not None else None
        if not self.passwords.verify(stored, password) or row is None:
            self.limits.failed(name, address)
            raise LoginRefused("bad_login")
        at = time.time() if now is None else now
        with self.engine.begin() as conn:
            if self.passwords.needs_rehash(row.password_hash):
                conn.execute(
                    t.accounts.update()
                    .where(t.accounts.c.id == row.id)
                    .values(password_hash=self.passwords.hash(password))
                )
            return self._new_session(conn, row.id, at)

    def session(self, token: str | None, now: float | None = None) -> Account | None:
        """The account of a session token, or None (unknown, expired, account disabled)."""
        if not token or len(token) > 100:
            return None
        at = time.time() if now is None else now
        h = hash_session_token(token)
        with self.reader.connect() as conn:
            row = conn.execute(
                sa.select(t.accounts, t.sessions.c.last_seen)
                .join(t.sessions, t.sessions.c.account_id == t.accounts.c.id)
                .where(t.sessions.c.token_hash == h)
            ).first()
        if row is None or row.disabled or row.deleted or at - row.last_seen > SESSION_TTL:
            return None
        if at - row.last_seen > SEEN_EVERY:
            with self.engine.begin() as conn:
                conn.execute(
                    t.sessions.update().where(t.sessions.c.token_hash == h).values(last_seen=at)
                )
        return _account(row)

    def logout(self, token: str | None) -> None:
        if token:
            with self.engine.begin() as conn:
                conn.execute(
                    t.sessions.delete().where(t.sessions.c.token_hash == hash_session_token(token))
                )

    def get(self, account_id: int) -> Account | None:
        with self.reader.connect() as conn:
            row = conn.execute(sa.select(t.accounts).where(t.accounts.c.id == account_id)).first()
        return None if row is None or row.deleted else _account(row)

    def by_name(self, name: str) -> Account | None:
        if not isinstance(name, str) or len(name) > 80:
            return None
        with self.reader.connect() as conn:
            row = conn.execute(
                sa.select(t.accounts).where(t.accounts.c.name_key == name_key(name))
            ).first()
        return None if row is None or row.deleted else _account(row)

    def _check_password(self, account_id: int, password: str) -> bool:
        with self.reader.connect() as conn:
            stored = conn.execute(
                sa.select(t.accounts.c.password_hash).where(t.accounts.c.id == account_id)
            ).scalar()
        return isinstance(password, str) and self.passwords.verify(stored, password)

    def change_password(self, account_id: int, old: str, new: str, keep_token: str) -> None:
        """:class:`LoginRefused` (``bad_login``) if ``old`` is wrong, :class:`AccountError`
        if ``new`` cannot be used; every session but ``keep_token`` ends."""
        account = self.get(account_id)
        if account is None or not self._check_password(account_id, old):
            raise LoginRefused("bad_login")
        why = check_password(new, account.name)
        if why is not None:
            from .passwords import MESSAGES

            raise AccountError(why, MESSAGES[why])
        digest = self.passwords.hash(new)
        with self.engine.begin() as conn:
            conn.execute(
                t.accounts.update()
                .where(t.accounts.c.id == account_id)
                .values(password_hash=digest)
            )
            conn.execute(
                t.sessions.delete().where(
                    t.sessions.c.account_id == account_id,
                    t.sessions.c.token_hash != hash_session_token(keep_token),
                )
            )

    def delete(self, account_id: int, password: str) -> None:
        """Delete the account (its games stay, anonymised); :class:`LoginRefused` if the
        password is wrong."""
        if not self._check_password(account_id, password):
            raise LoginRefused("bad_login")
        with self.engine.begin() as conn:
            self._erase(conn, account_id)

    def _erase(self, conn: Connection, account_id: int) -> None:
        seats = conn.execute(
            sa.select(t.game_accounts.c.game_id, t.game_accounts.c.colour).where(
                t.game_accounts.c.account_id == account_id
            )
        ).all()
        for game_id, colour in seats:
            conn.execute(
                sa.text("UPDATE sorry_seats SET name = :name WHERE game_id = :g AND colour = :c"),
                {"name": DELETED_NAME, "g": game_id, "c": colour},
            )
        conn.execute(
            t.game_accounts.update()
            .where(t.game_accounts.c.account_id == account_id)
            .values(account_id=None)
        )
        for table, col in (
            (t.sessions, t.sessions.c.account_id),
            (t.ratings, t.ratings.c.account_id),
            (t.notifications, t.notifications.c.account_id),
            (t.blocks, t.blocks.c.account_id),
            (t.blocks, t.blocks.c.blocked_id),
        ):
            conn.execute(table.delete().where(col == account_id))
        # the rating history keeps other players' figures; this account's rows go
        conn.execute(t.rating_changes.delete().where(t.rating_changes.c.account_id == account_id))
        conn.execute(t.luck.delete().where(t.luck.c.account_id == account_id))
        conn.execute(
            t.reports.update().where(t.reports.c.reporter_id == account_id).values(reporter_id=None)
        )
        conn.execute(
            t.reports.update()
            .where(t.reports.c.reported_id == account_id)
            .values(reported_id=None, reported_name=DELETED_NAME)
        )
        conn.execute(
            t.accounts.update()
            .where(t.accounts.c.id == account_id)
            .values(
                name=DELETED_NAME,
                name_key=f"#deleted-{account_id}",  # '#' is in no name: the name is free
                password_hash=None,
                email=None,
                webhook=None,
                settings="{}",
                deleted=1,
            )
        )

    def set_disabled(self, name: str, disabled: bool) -> Account | None:
        """The administrator's switch; a disabled account's sessions end."""
        account = self.by_name(name)
        if account is None:
            return None
        with self.engine.begin() as conn:
            conn.execute(
                t.accounts.update()
                .where(t.accounts.c.id == account.id)
                .values(disabled=int(disabled))
            )
            if disabled:
                conn.execute(t.sessions.delete().where(t.sessions.c.account_id == account.id))
        return self.get(account.id)

    def set_notifications(
        self,
        account_id: int,
        webhook: str | None,
        email: str | None,
        settings: dict[str, Any],
    ) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                t.accounts.update()
                .where(t.accounts.c.id == account_id)
                .values(webhook=webhook, email=email, settings=json.dumps(settings))
            )

    # -- games ------------------------------------------------------------------------------------
    def seat(
        self,
        conn: Connection,
        game_id: str,
        colour: int,
        account_id: int,
        rated: bool,
        now: float | None = None,
    ) -> None:
        """Record, inside the caller's transaction, that an account sits at a seat."""
        conn.execute(
            t.game_accounts.insert().values(
                game_id=game_id,
                colour=colour,
                account_id=account_id,
                rated=int(rated),
                joined_at=time.time() if now is None else now,
            )
        )

    def seats_of(self, game_id: str) -> dict[int, tuple[int | None, bool]]:
        """Colour → (account id or None once deleted, rated) for a game's account seats."""
        with self.reader.connect() as conn:
            rows = conn.execute(
                sa.select(
                    t.game_accounts.c.colour, t.game_accounts.c.account_id, t.game_accounts.c.rated
                ).where(t.game_accounts.c.game_id == game_id)
            ).all()
        return {r.colour: (r.account_id, bool(r.rated)) for r in rows}

    def claim(
        self, account_id: int, game_id: str, colour: int, token_hash: str, now: float | None = None
    ) -> bool:
        """Add a finished guest game to the account's history, if ``token_hash`` is the seat's
        and nobody's account holds the seat yet (unrated: the game was played as a guest)."""
        import hmac

        with self.engine.begin() as conn:
            row = conn.execute(
                sa.text(
                    "SELECT s.token_hash, g.status FROM sorry_seats s JOIN sorry_games g "
                    "ON g.id = s.game_id WHERE s.game_id = :g AND s.colour = :c"
                ),
                {"g": game_id, "c": colour},
            ).first()
            if row is None or row.token_hash is None or row.status != "over":
                return False
            if not hmac.compare_digest(row.token_hash, token_hash):
                return False
            taken = conn.execute(
                sa.select(t.game_accounts.c.account_id).where(
                    t.game_accounts.c.game_id == game_id, t.game_accounts.c.colour == colour
                )
            ).first()
            if taken is not None:
                return False
            self.seat(conn, game_id, colour, account_id, rated=False, now=now)
        return True

    def games(self, account_id: int, limit: int = 50, before: float | None = None) -> list[Any]:
        """The account's games, newest first: game id, colour, rated, status, variant, name,
        when it was joined and last updated."""
        q = (
            sa.select(
                t.game_accounts.c.game_id,
                t.game_accounts.c.colour,
                t.game_accounts.c.rated,
                t.game_accounts.c.joined_at,
                t.game_accounts.c.rank,
                sa.literal_column("sorry_games.status").label("status"),
                sa.literal_column("sorry_games.variant").label("variant"),
                sa.literal_column("sorry_games.name").label("name"),
                sa.literal_column("sorry_games.updated_at").label("updated_at"),
            )
            .select_from(
                t.game_accounts.join(
                    sa.table("sorry_games", sa.column("id")),
                    sa.literal_column("sorry_games.id") == t.game_accounts.c.game_id,
                )
            )
            .where(t.game_accounts.c.account_id == account_id)
            .order_by(t.game_accounts.c.joined_at.desc())
            .limit(limit)
        )
        if before is not None:
            q = q.where(t.game_accounts.c.joined_at < before)
        with self.reader.connect() as conn:
            return list(conn.execute(q).all())

    # -- ratings ------------------------------------------------------------------------------
    def ratings(self, account_id: int) -> dict[str, tuple[Rating, int]]:
        with self.reader.connect() as conn:
            rows = conn.execute(
                sa.select(t.ratings).where(t.ratings.c.account_id == account_id)
            ).all()
        return {r.variant: (Rating(r.mu, r.sigma), r.games) for r in rows}

    def rating(self, account_id: int, variant: str) -> Rating:
        got = self.ratings(account_id).get(variant)
        return got[0] if got is not None else new_rating()

    def history(self, account_id: int, variant: str, limit: int = 500) -> list[Any]:
        with self.reader.connect() as conn:
            return list(
                conn.execute(
                    sa.select(t.rating_changes)
                    .where(
                        t.rating_changes.c.account_id == account_id,
                        t.rating_changes.c.variant == variant,
                    )
                    .order_by(t.rating_changes.c.at.desc())
                    .limit(limit)
                ).all()
            )[::-1]

    def changes_of_game(self, game_id: str) -> list[Any]:
        with self.reader.connect() as conn:
            return list(
                conn.execute(
                    sa.select(t.rating_changes).where(t.rating_changes.c.game_id == game_id)
                ).all()
            )

    def leaderboard(self, variant: str, limit: int = 100) -> list[Any]:
        """Name, μ, σ and games of every rated account of a variant, best μ first."""
        with self.reader.connect() as conn:
            return list(
                conn.execute(
                    sa.select(
                        t.accounts.c.name, t.ratings.c.mu, t.ratings.c.sigma, t.ratings.c.games
                    )
                    .join(t.accounts, t.accounts.c.id == t.ratings.c.account_id)
                    .where(
                        t.ratings.c.variant == variant,
                        t.accounts.c.disabled == 0,
                        t.accounts.c.deleted == 0,
                    )
                    .order_by(t.ratings.c.mu.desc(), t.accounts.c.name)
                    .limit(limit)
                ).all()
            )

    # -- people ---------------------------------------------------------------------------------
    def block(self, account_id: int, other_id: int, on: bool, now: float | None = None) -> None:
        with self.engine.begin() as conn:
            if on:
                n = conn.execute(
                    sa.select(sa.func.count())
                    .select_from(t.blocks)
                    .where(t.blocks.c.account_id == account_id)
                ).scalar_one()
                if n >= MAX_BLOCKS:
                    raise AccountError("too_many_blocks", f"at most {MAX_BLOCKS} blocked players")
                exists = conn.execute(
                    sa.select(t.blocks.c.at).where(
                        t.blocks.c.account_id == account_id, t.blocks.c.blocked_id == other_id
                    )
                ).first()
                if exists is None:
                    conn.execute(
                        t.blocks.insert().values(
                            account_id=account_id,
                            blocked_id=other_id,
                            at=time.time() if now is None else now,
                        )
                    )
            else:
                conn.execute(
                    t.blocks.delete().where(
                        t.blocks.c.account_id == account_id, t.blocks.c.blocked_id == other_id
                    )
                )

    def blocked(self, account_id: int) -> list[str]:
        with self.reader.connect() as conn:
            return [
                r.name
                for r in conn.execute(
                    sa.select(t.accounts.c.name)
                    .join(t.blocks, t.blocks.c.blocked_id == t.accounts.c.id)
                    .where(t.blocks.c.account_id == account_id)
                    .order_by(t.accounts.c.name)
                )
            ]

    def blocks_between(self, a: int, b: int) -> bool:
        """Whether ``a`` blocked ``b`` (then ``b`` cannot invite ``a``, and ``a`` does not
        see ``b``'s chat)."""
        with self.reader.connect() as conn:
            return (
                conn.execute(
                    sa.select(t.blocks.c.at).where(
                        t.blocks.c.account_id == a, t.blocks.c.blocked_id == b
                    )
                ).first()
                is not None
            )

    def recent_opponents(self, account_id: int, limit: int = 20) -> list[str]:
        """Names of the accounts met in the account's last games, most recent first."""
        mine = (
            sa.select(t.game_accounts.c.game_id, t.game_accounts.c.joined_at)
            .where(t.game_accounts.c.account_id == account_id)
            .order_by(t.game_accounts.c.joined_at.desc())
            .limit(100)
            .subquery()
        )
        q = (
            sa.select(t.accounts.c.name, sa.func.max(mine.c.joined_at).label("last"))
            .select_from(
                mine.join(t.game_accounts, t.game_accounts.c.game_id == mine.c.game_id).join(
                    t.accounts, t.accounts.c.id == t.game_accounts.c.account_id
                )
            )
            .where(t.accounts.c.id != account_id, t.accounts.c.deleted == 0)
            .group_by(t.accounts.c.name)
            .order_by(sa.desc("last"))
            .limit(limit)
        )
        with self.reader.connect() as conn:
            return [r.name for r in conn.execute(q)]

    def report(
        self,
        reporter_id: int,
        game_id: str,
        reported_name: str,
        reported_id: int | None,
        text: str,
        now: float | None = None,
    ) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                t.reports.insert().values(
                    reporter_id=reporter_id,
                    reported_id=reported_id,
                    reported_name=reported_name[:40],
                    game_id=game_id,
                    text=text[:400],
                    at=time.time() if now is None else now,
                    status="open",
                )
            )

    def reports(self, status: str | None = "open", limit: int = 100) -> list[Any]:
        q = sa.select(t.reports).order_by(t.reports.c.at.desc()).limit(limit)
        if status is not None:
            q = q.where(t.reports.c.status == status)
        with self.reader.connect() as conn:
            return list(conn.execute(q).all())

    def close_report(self, report_id: int) -> bool:
        with self.engine.begin() as conn:
            r = conn.execute(
                t.reports.update().where(t.reports.c.id == report_id).values(status="closed")
            )
            return bool(r.rowcount)

    # -- download your data ---------------------------------------------------------------------
    def export(self, account_id: int) -> dict[str, Any]:
        account = self.get(account_id)
        if account is None:
            return {}
        ratings = {
            v: {"mu": r.mu, "sigma": r.sigma, "rating": r.rating, "games": n}
            for v, (r, n) in self.ratings(account_id).items()
        }
        history = {
            v: [
                {
                    "game": h.game_id,
                    "at": h.at,
                    "before": h.mu_before,
                    "after": h.mu_after,
                    "sigma_after": h.sigma_after,
                    "rank": h.rank,
                }
                for h in self.history(account_id, v, limit=100_000)
            ]
            for v in ratings
        }
        games = [
            {
                "id": g.game_id,
                "colour": g.colour,
                "rated": bool(g.rated),
                "status": g.status,
                "variant": g.variant,
                "name": g.name,
                "joined_at": g.joined_at,
            }
            for g in self.games(account_id, limit=100_000)
        ]
        return {
            "account": {
                "name": account.name,
                "created_at": account.created_at,
                "email": account.email,
                "webhook": account.webhook,
                "settings": account.settings,
            },
            "ratings": ratings,
            "rating_history": history,
            "games": games,
            "blocked": self.blocked(account_id),
        }


def accounts_in(rows: Iterable[tuple[int, int | None]]) -> dict[int, int]:
    """Colour → account id of the seats that still have one."""
    return {c: a for c, a in rows if a is not None}
