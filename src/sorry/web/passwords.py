"""Account names, passwords and sessions: the rules that need no database.

* **Names** are what other players see and what they invite by: 3 to 20 letters, digits, ``_``,
  ``-`` or ``.``, beginning with a letter or a digit (so a name is never HTML, never a URL
  path trick, never blank). Two names that differ only in case or Unicode form are the same
  account (:func:`name_key`).
* **Passwords** are hashed with argon2id (``argon2-cffi``) with the parameters OWASP gives as a
  minimum (19 MiB, 2 passes, 1 lane); a hash made with weaker ones is replaced at the next
  login (:meth:`Passwords.needs_rehash`). A login for a name that does not exist verifies the
  password against a hash of a random password all the same, so that the answer takes as long
  as for a real account (no user enumeration by timing).
* **Sessions**: a random 256-bit token in an HttpOnly cookie; the database keeps only its
  SHA-256. The CSRF token a page sends back in ``X-CSRF-Token`` is derived from the session
  token (:func:`csrf_token`), so it needs no storage and another origin cannot read it.
* **Login attempts** are limited per name and address, per name from addresses that never
  logged in to it, and per address (:class:`LoginLimits`), the same way whether the name
  exists or not: guessing stays slow, and failing on purpose does not lock the owner out of
  the address they log in from.

>>> clean_account_name("  Ann_1 ")
'Ann_1'
>>> name_key("ANN_1") == name_key("ann_1")
True
>>> check_password("short", "ann") is not None
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..i18n import N_

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 200
_NAME = re.compile(r"^[^\W_][\w.-]*$")

#: The session cookie's name; the cookie is HttpOnly, SameSite=Lax, Secure behind HTTPS.
SESSION_COOKIE = "sorry_session"
#: A session lasts this long after its last use (30 days).
SESSION_TTL = 30 * 24 * 3600.0


class AccountError(ValueError):
    """A name or password that cannot be used; ``str()`` is the English message, ``code`` a
    stable key for programs."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def clean_account_name(raw: object) -> str:
    """The name as it will be stored and shown, or :class:`AccountError`.

    >>> clean_account_name("<b>x</b>")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sorry.web.passwords.AccountError: a name is 3 to 20 letters, digits, _ - or ., ...
    """
    if not isinstance(raw, str):
        raise AccountError("bad_name", "name must be a string")
    name = unicodedata.normalize("NFKC", raw).strip()
    if not NAME_MIN <= len(name) <= NAME_MAX or not _NAME.match(name):
        raise AccountError("bad_name", MESSAGES["bad_name"])
    return name


def name_key(name: str) -> str:
    """The key two names are compared by: NFKC, case folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_password(password: object, name: str = "") -> str | None:
    """Why a new password cannot be used (a key of :data:`MESSAGES`), or None."""
    if not isinstance(password, str):
        return "bad_password"
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return "bad_password"
    if name and name_key(password) == name_key(name):
        return "password_is_name"
    return None


#: The English messages of the account API (the page shows them translated).
MESSAGES = {
    "bad_name": N_("a name is 3 to 20 letters, digits, _ - or ., beginning with a letter or digit"),
    "bad_password": N_("a password is 8 to 200 characters"),
    "password_is_name": N_("the password must not be the name"),
    "name_taken": N_("that name is taken"),
    "bad_login": N_("wrong name or password"),
    "login_limited": N_("too many attempts: wait a few minutes and try again"),
    "not_logged_in": N_("you are not logged in"),
    "csrf": N_("the request did not come from this site's page"),
}


class Passwords:
    """argon2id hashing with one set of parameters.

    >>> p = Passwords(memory_cost=1024, time_cost=1)  # small, for the example
    >>> h = p.hash("correct horse")
    >>> h.startswith("$argon2id$")
    True
    >>> p.verify(h, "correct horse"), p.verify(h, "wrong horse"), p.verify(None, "x")
    (True, False, False)
    """

    def __init__(self, memory_cost: int = 19456, time_cost: int = 2, parallelism: int = 1) -> None:
        from argon2 import PasswordHasher, Type

        self._ph = PasswordHasher(
            time_cost=time_cost,
            memory_cost=memory_cost,
            parallelism=parallelism,
            hash_len=32,
            salt_len=16,
            type=Type.ID,
        )
        # the hash a login for an unknown name is checked against: same cost as a real one
        self._dummy = self._ph.hash(secrets.token_urlsafe(16))

    def hash(self, password: str) -> str:
        return self._ph.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with no stored hash (an unknown name, a
        disabled account) the same work is done against a dummy hash and False returned."""
        from argon2.exceptions import InvalidHashError, VerificationError

        try:
            ok = self._ph.verify(stored if stored is not None else self._dummy, password)
        except (VerificationError, InvalidHashError):
            return False
        return ok and stored is not None

    def needs_rehash(self, stored: str) -> bool:
        return self._ph.check_needs_rehash(stored)


def new_session_token() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def hash_session_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: derived, so nothing more is stored; the page reads it from
    ``GET /api/session`` (same origin only) and sends it in ``X-CSRF-Token``."""
    return hmac.new(session_token.encode(), b"sorry-csrf", hashlib.sha256).hexdigest()[:32]


def csrf_ok(session_token: str, sent: str | None) -> bool:
    return sent is not None and hmac.compare_digest(csrf_token(session_token), sent)


@dataclass
class _Window:
    start: float
    count: int


class LoginLimits:
    """Failed logins counted over a sliding window of ``window`` seconds, so that guessing a
    password stays slow while nobody can lock the owner out by failing on purpose.

    * **Per name and address**: an address that failed ``per_name`` times on a name is refused
      that name (with the right password too) until its window ends: guesses from one place,
      the owner's usual one included, stay bounded.
    * **Per name, from addresses it has not logged in from**: ``per_name`` failures on a name
      from such addresses (together, however many) close the name to every such address for
      the window. An address that logged in to the name successfully in the last ``trust``
      seconds (30 days) is not refused by this count: the owner logging in from their usual
      place is not locked out by what others fail, and a guesser cannot make an address
      trusted without the password.
    * **Per address**: ``per_address`` failures on any names refuse the address everything.

    So a name takes at most ``per_name`` guesses per window from all unknown addresses
    together, plus ``per_name`` from each address that logged in to it before. The count is
    the same whether or not an account has the name (no enumeration). Memory is bounded (the
    oldest entries go first beyond ``max_entries``); counts and trusted addresses live in the
    process (several server processes each keep their own).

    >>> limits = LoginLimits(per_name=2, per_address=5, window=60.0)
    >>> limits.succeeded("ann", "10.0.0.9", now=0.0)  # Ann's usual address
    >>> limits.failed("ann", "10.0.0.1", now=1.0); limits.failed("ann", "10.0.0.2", now=1.0)
    >>> limits.allowed("ann", "10.0.0.3", now=2.0), limits.allowed("ann", "10.0.0.9", now=2.0)
    (False, True)
    >>> limits.allowed("bob", "10.0.0.1", now=2.0), limits.allowed("ann", "10.0.0.3", now=62.0)
    (True, True)
    """

    def __init__(
        self,
        per_name: int = 10,
        per_address: int = 30,
        window: float = 900.0,
        trust: float = 30 * 24 * 3600.0,
        max_entries: int = 100_000,
    ) -> None:
        self.per_name = per_name
        self.per_address = per_address
        self.window = window
        self.trust = trust
        self.max_entries = max_entries
        #: name -> failures from addresses it was not logged in from
        self._names: OrderedDict[str, _Window] = OrderedDict()
        #: (name, address) -> failures
        self._pairs: OrderedDict[tuple[str, str], _Window] = OrderedDict()
        self._addresses: OrderedDict[str, _Window] = OrderedDict()
        #: (name, address) -> when the name last logged in from there
        self._trusted: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._lock = threading.Lock()

    def _count(self, table: OrderedDict[Any, _Window], key: Any, now: float) -> int:
        w = table.get(key)
        if w is None or now - w.start >= self.window:
            return 0
        return w.count

    def _is_trusted(self, key: str, address: str, now: float) -> bool:
        at = self._trusted.get((key, address))
        return at is not None and now - at < self.trust

    def _refusing(self, name: str, address: str, now: float) -> list[_Window]:
        """The windows that refuse a login now (empty: allowed)."""
        key = name_key(name)
        out = []
        pair = (key, address)
        if self._count(self._pairs, pair, now) >= self.per_name:
            out.append(self._pairs[pair])
        if self._count(self._addresses, address, now) >= self.per_address:
            out.append(self._addresses[address])
        strangers = self._count(self._names, key, now)
        if strangers >= self.per_name and not self._is_trusted(key, address, now):
            out.append(self._names[key])
        return out

    def allowed(self, name: str, address: str, now: float | None = None) -> bool:
        t = time.monotonic() if now is None else now
        with self._lock:
            return not self._refusing(name, address, t)

    def failed(self, name: str, address: str, now: float | None = None) -> None:
        t = time.monotonic() if now is None else now
        key = name_key(name)
        with self._lock:
            tables: list[tuple[OrderedDict[Any, _Window], Any]] = [
                (self._pairs, (key, address)),
                (self._addresses, address),
            ]
            if not self._is_trusted(key, address, t):
                tables.append((self._names, key))
            for table, k in tables:
                w = table.get(k)
                if w is None or t - w.start >= self.window:
                    table[k] = _Window(t, 1)
                else:
                    w.count += 1
                table.move_to_end(k)
                while len(table) > self.max_entries:
                    table.popitem(last=False)

    def succeeded(self, name: str, address: str, now: float | None = None) -> None:
        """A login (or a registration) with the right password from ``address``: the address
        is trusted for the name from now on, and its own failures on the name are forgotten
        (other addresses' are not)."""
        t = time.monotonic() if now is None else now
        key = name_key(name)
        with self._lock:
            self._pairs.pop((key, address), None)
            self._trusted[(key, address)] = t
            self._trusted.move_to_end((key, address))
            while len(self._trusted) > self.max_entries:
                self._trusted.popitem(last=False)

    def retry_after(self, name: str, address: str, now: float | None = None) -> int:
        """Seconds until every window that refuses has run out (at least 1)."""
        t = time.monotonic() if now is None else now
        with self._lock:
            ends = [w.start + self.window - t for w in self._refusing(name, address, t)]
        return max(1, int(max(ends, default=1.0)) + 1)
