"""The account store: accounts, sessions, the games an account played, people.

Synchronous methods over the server's SQLAlchemy engine (the server calls them in a thread).
What the rules are (names, hashes, tokens, limits) is in :mod:`sorry.web.passwords`; the
tables in :mod:`sorry.web.account_tables`.

* **Register** (:meth:`AccountStore.create`) and **log in** (:meth:`AccountStore.login`) answer
  a session token; a login for a name nobody has costs the same argon2 work as a wrong
  password, and both answer the same error (``bad_login``), after the attempt is counted
  against the name and the address (:class:`~sorry.web.passwords.LoginLimits`); a login with
  the right password makes its address one the name is not locked out of.
* **Change the password**: every other session of the account ends.
* **Delete the account**: the password hash, sessions, ratings, notification settings, blocks
  and the name go; the games stay, with the account's seats renamed to a placeholder and no
  longer linked to it (other players' ratings and records are unchanged). The name becomes free.
* **Download your data** (:meth:`AccountStore.export`): the account, its ratings and their
  history, and the games it played (the server adds each game's record).
* **Claim a game** (:meth:`AccountStore.claim`): a finished game played as a guest joins the
  account's history when the seat's token is shown.

With :mod:`sorry.web.db` (the games' tables), this is where the server's SQL is written: the
accounts' tables (:mod:`sorry.web.account_tables`) are read and written here only (the ratings'
update of :func:`~sorry.web.ratings.rate_game` and the notifications' outbox of
:mod:`sorry.web.outbox` aside, each the one writer of its own tables); the service's modules
(:mod:`~sorry.web.people`, :mod:`~sorry.web.clocks`, :mod:`~sorry.web.results`) call the
methods below.
"""

from __future__ import annotations

import hmac
import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from . import account_tables as t
from .db import RESIGN, games as game_rows, moves as move_rows, seats as seat_rows
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
from .ratings import Change, Entry, Rating, new_rating, rate_game

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


@dataclass(frozen=True)
class TurnRow:
    """A game's row of ``sorry_turns``: whose turn it is since when, and in a correspondence
    game when that move's time runs out."""

    game_id: str
    seq: int
    to_move: int | None  # None: nobody (not started, or over)
    since: float
    deadline: float | None


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
    def create(
        self, name: str, password: str, now: float | None = None, address: str | None = None
    ) -> tuple[Account, str]:
        """A new account and a session for it; :class:`AccountError` (``bad_name``,
        ``bad_password``, ``password_is_name``, ``name_taken``). ``address``, the client's, is
        trusted for the name from now on (:class:`~sorry.web.passwords.LoginLimits`)."""
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
        if address is not None:
            self.limits.succeeded(clean, address)
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
        self.limits.succeeded(name, address)
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
                seat_rows.update()
                .where(seat_rows.c.game_id == game_id, seat_rows.c.colour == colour)
                .values(name=DELETED_NAME)
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
        with self.engine.begin() as conn:
            row = conn.execute(
                sa.select(seat_rows.c.token_hash, game_rows.c.status)
                .join(game_rows, game_rows.c.id == seat_rows.c.game_id)
                .where(seat_rows.c.game_id == game_id, seat_rows.c.colour == colour)
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
        when it was joined and last updated, and whether the account resigned it."""
        resigned = (
            sa.exists()
            .where(
                move_rows.c.game_id == t.game_accounts.c.game_id,
                move_rows.c.colour == t.game_accounts.c.colour,
                move_rows.c.move == RESIGN,
            )
            .label("resigned")
        )
        q = (
            sa.select(
                t.game_accounts.c.game_id,
                t.game_accounts.c.colour,
                t.game_accounts.c.rated,
                t.game_accounts.c.joined_at,
                t.game_accounts.c.rank,
                game_rows.c.status,
                game_rows.c.variant,
                game_rows.c.name,
                game_rows.c.updated_at,
                resigned,
            )
            .select_from(
                t.game_accounts.join(game_rows, game_rows.c.id == t.game_accounts.c.game_id)
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

    def rating_deltas(self, account_id: int, limit: int) -> list[Any]:
        """The account's last rating changes (``game_id``, ``mu_before``, ``mu_after``),
        newest first, every variant."""
        with self.reader.connect() as conn:
            return list(
                conn.execute(
                    sa.select(
                        t.rating_changes.c.game_id,
                        t.rating_changes.c.mu_before,
                        t.rating_changes.c.mu_after,
                    )
                    .where(t.rating_changes.c.account_id == account_id)
                    .order_by(t.rating_changes.c.at.desc())
                    .limit(limit)
                ).all()
            )

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

    def your_turn(self, account_id: int) -> list[str]:
        """The unfinished, started games in which it is the account's turn, longest waiting
        first."""
        q = (
            sa.select(t.game_accounts.c.game_id)
            .join(t.turns, t.turns.c.game_id == t.game_accounts.c.game_id)
            .where(
                t.game_accounts.c.account_id == account_id,
                t.turns.c.to_move == t.game_accounts.c.colour,
            )
            .order_by(t.turns.c.since)
        )
        with self.reader.connect() as conn:
            return [r[0] for r in conn.execute(q)]

    def invitations(self, account_id: int, limit: int = 50) -> list[str]:
        """Games being played whose seat the account was invited to by name and has not
        taken yet, newest first."""
        q = (
            sa.select(t.game_accounts.c.game_id)
            .join(
                seat_rows,
                (seat_rows.c.game_id == t.game_accounts.c.game_id)
                & (seat_rows.c.colour == t.game_accounts.c.colour),
            )
            .join(game_rows, game_rows.c.id == t.game_accounts.c.game_id)
            .where(
                t.game_accounts.c.account_id == account_id,
                seat_rows.c.claimed == 0,
                game_rows.c.status == "playing",
            )
            .order_by(t.game_accounts.c.joined_at.desc())
            .limit(limit)
        )
        with self.reader.connect() as conn:
            return [r[0] for r in conn.execute(q)]

    def seat_colour(self, game_id: str, account_id: int) -> int | None:
        """The colour the account holds in a game, if any."""
        with self.reader.connect() as conn:
            return conn.execute(
                sa.select(t.game_accounts.c.colour).where(
                    t.game_accounts.c.game_id == game_id,
                    t.game_accounts.c.account_id == account_id,
                )
            ).scalar()

    # -- finished games: ranks, ratings, luck -------------------------------------------------
    def settle(
        self,
        game_id: str,
        ranks: dict[int, int] | None,
        colours: Iterable[int],
        rating: tuple[str, Sequence[Entry]] | None,
    ) -> list[Change] | None:
        """In one transaction: each account seat's rank (``colours``; 0: nobody won) and, for
        a rated game (``rating``: its variant and seats), the ratings, once
        (:func:`~sorry.web.ratings.rate_game`). Returns the rating changes (None: not rated
        now)."""
        with self.engine.begin() as conn:
            for c in colours:
                conn.execute(
                    t.game_accounts.update()
                    .where(t.game_accounts.c.game_id == game_id, t.game_accounts.c.colour == c)
                    .values(rank=ranks.get(c, 0) if ranks else 0)
                )
            if ranks is None or rating is None:
                return None
            variant, entries = rating
            return rate_game(conn, game_id, variant, entries, ranks)

    def write_luck(self, game_id: str, rows: list[dict[str, Any]]) -> None:
        """A game's luck rows (``colour``, ``account_id``, ``luck``, ``luck_se``, ``at``),
        replacing those it had."""
        with self.engine.begin() as conn:
            conn.execute(t.luck.delete().where(t.luck.c.game_id == game_id))
            conn.execute(t.luck.insert(), [{"game_id": game_id, **r} for r in rows])

    def luck_rows(self, account_id: int, limit: int) -> list[dict[str, float]]:
        """The luck of the account's last ``limit`` analysed games, newest first."""
        with self.reader.connect() as conn:
            rows = conn.execute(
                sa.select(t.luck.c.luck, t.luck.c.luck_se)
                .where(t.luck.c.account_id == account_id)
                .order_by(t.luck.c.at.desc())
                .limit(limit)
            ).all()
        return [{"luck": r.luck, "luck_se": r.luck_se or 0.0} for r in rows]

    def unsettled(self, limit: int) -> list[str]:
        """Finished games with an account seat whose rank is not written, or rated and not
        rated yet."""
        rated = sa.exists().where(t.rated_games.c.game_id == t.game_accounts.c.game_id)
        q = (
            sa.select(t.game_accounts.c.game_id)
            .distinct()
            .join(game_rows, game_rows.c.id == t.game_accounts.c.game_id)
            .where(
                game_rows.c.status == "over",
                t.game_accounts.c.account_id.is_not(None),
                sa.or_(
                    t.game_accounts.c.rank.is_(None),
                    sa.and_(t.game_accounts.c.rated == 1, ~rated),
                ),
            )
            .limit(limit)
        )
        with self.reader.connect() as conn:
            return [r[0] for r in conn.execute(q)]

    # -- turns (sorry_turns) ------------------------------------------------------------------
    def turn(self, game_id: str) -> Any:
        """A game's turn row (``seq``, ``to_move``, ``since``, ``deadline``), or None."""
        with self.reader.connect() as conn:
            return conn.execute(sa.select(t.turns).where(t.turns.c.game_id == game_id)).first()

    @staticmethod
    def write_turns_in(conn: Connection, rows: Sequence[TurnRow]) -> None:
        """The turn rows without a deadline, inside the caller's transaction, each replacing
        an older one of its game (not a newer): one statement for them all."""
        insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
        ins = insert(t.turns)
        new = ins.excluded
        conn.execute(
            ins.on_conflict_do_update(
                index_elements=[t.turns.c.game_id],
                set_={"seq": new.seq, "to_move": new.to_move, "since": new.since, "deadline": None},
                where=t.turns.c.seq <= new.seq,
            ),
            [
                {"game_id": x.game_id, "seq": x.seq, "to_move": x.to_move, "since": x.since}
                for x in rows
            ],
        )

    @staticmethod
    def write_turn_in(conn: Connection, row: TurnRow) -> bool:
        """One turn row, inside the caller's transaction, unless a newer one is written
        (False)."""
        values: dict[str, Any] = {
            "seq": row.seq,
            "to_move": row.to_move,
            "since": row.since,
            "deadline": row.deadline,
        }
        updated = conn.execute(
            t.turns.update()
            .where(t.turns.c.game_id == row.game_id, t.turns.c.seq <= row.seq)
            .values(**values)
        ).rowcount
        if updated:
            return True
        exists = conn.execute(
            sa.select(t.turns.c.seq).where(t.turns.c.game_id == row.game_id)
        ).first()
        if exists is not None:
            return False  # a newer turn is written already
        conn.execute(t.turns.insert().values(game_id=row.game_id, **values))
        return True

    @staticmethod
    def channels_in(conn: Connection, account_id: int) -> Any:
        """The account's ``webhook`` and ``email`` (inside the caller's transaction), or None."""
        return conn.execute(
            sa.select(t.accounts.c.webhook, t.accounts.c.email).where(t.accounts.c.id == account_id)
        ).first()

    def due_turns(self, now: float, limit: int = 200) -> list[Any]:
        """Claim the turns whose time ran out (each by one process only: a conditional
        update): their ``game_id``, ``seq`` and ``to_move``."""
        with self.reader.connect() as conn:
            rows = conn.execute(
                sa.select(t.turns.c.game_id, t.turns.c.seq, t.turns.c.to_move)
                .where(t.turns.c.deadline.is_not(None), t.turns.c.deadline <= now)
                .limit(limit)
            ).all()
        claimed = []
        with self.engine.begin() as conn:
            for r in rows:
                got = conn.execute(
                    t.turns.update()
                    .where(
                        t.turns.c.game_id == r.game_id,
                        t.turns.c.seq == r.seq,
                        t.turns.c.deadline.is_not(None),
                    )
                    .values(deadline=None)
                ).rowcount
                if got:
                    claimed.append(r)
        return claimed

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

    def blocked_ids(self, account_id: int) -> list[int]:
        """The ids of the accounts ``account_id`` blocked."""
        with self.reader.connect() as conn:
            return [
                r[0]
                for r in conn.execute(
                    sa.select(t.blocks.c.blocked_id).where(t.blocks.c.account_id == account_id)
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
