"""Games that last days: the correspondence clock, and who is told that it is their turn.

A correspondence game gives each move a time chosen at creation, from one hour to three days
(:data:`CHOICES` on the page; any whole number of seconds in that range through the API). A
player need not be on the page: nobody is taken over after a minute away. When a move's time
runs out, the host's choice at creation decides (:data:`ON_TIMEOUT`):

* ``"wait"`` (the default): no bot plays for anyone; the game waits for the player, who is
  reminded once that the time has run out;
* ``"bot"``: a bot plays for the player (the seat is *away*, as with a turn timer, until the
  player comes back).

(:func:`forfeit_ranks` is the ranking a forfeit would give; the server does not end games by
forfeit: the rules engine has no such end.)

Notifications: when a move makes it a person's turn in a correspondence game, each channel
that person asked for (webhook, e-mail) gets one notification for that turn
(:func:`turn_notifications`): the outbox's unique key (account, game, sequence number,
channel) makes it once, also across restarts and processes. Limits per account and per
client address (:class:`NotifyLimits`) cap what one player, or one address inviting people,
can make the server send.

>>> c = Clock(per_move=3600.0)
>>> c.deadline(turn_started=1000.0)
4600.0
>>> c.left(turn_started=1000.0, now=4000.0), c.expired(turn_started=1000.0, now=4600.0)
(600.0, True)
>>> parse_per_move(7200), parse_per_move(60)
(7200.0, None)
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

from ..i18n import N_

HOUR = 3600.0
DAY = 24 * HOUR
MIN_PER_MOVE, MAX_PER_MOVE = HOUR, 3 * DAY
#: The per-move times the new-game form offers (seconds).
CHOICES = (HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 3 * DAY)
ON_TIMEOUT = ("wait", "bot")
CHANNELS = ("webhook", "email")

#: The words of the per-move times on the form.
CHOICE_WORDS = {
    HOUR: N_("1 hour a move"),
    6 * HOUR: N_("6 hours a move"),
    12 * HOUR: N_("12 hours a move"),
    DAY: N_("1 day a move"),
    2 * DAY: N_("2 days a move"),
    3 * DAY: N_("3 days a move"),
}


def parse_per_move(value: object) -> float | None:
    """Seconds a move, or None when ``value`` is not a whole number from an hour to 3 days."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if value != int(value) or not MIN_PER_MOVE <= value <= MAX_PER_MOVE:
        return None
    return float(value)


@dataclass(frozen=True)
class Clock:
    per_move: float
    on_timeout: str = "wait"

    def deadline(self, turn_started: float) -> float:
        return turn_started + self.per_move

    def left(self, turn_started: float, now: float) -> float:
        return max(0.0, self.deadline(turn_started) - now)

    def expired(self, turn_started: float, now: float) -> bool:
        return now >= self.deadline(turn_started)


def forfeit_ranks(colours: Iterable[int], out: int, teams: bool) -> dict[int, int]:
    """Ranks when ``out`` ran out of time: everyone else (in teams: the other partnership)
    ranks 1, ``out`` (and its partner) 2.

    >>> forfeit_ranks([0, 1, 2, 3], 1, False)
    {0: 1, 1: 2, 2: 1, 3: 1}
    >>> forfeit_ranks([0, 1, 2, 3], 1, True)
    {0: 1, 1: 2, 2: 1, 3: 2}
    """
    losers = {out}
    if teams:
        from ..rulebook import partner

        losers.add(partner(out))
    return {c: 2 if c in losers else 1 for c in colours}


@dataclass(frozen=True)
class Notice:
    account_id: int
    game_id: str
    seq: int
    channel: str


def turn_notifications(
    game_id: str,
    seq: int,
    to_move: Iterable[int],
    seat_accounts: dict[int, int],
    channels: dict[int, tuple[str, ...]],
    connected: Iterable[int] = (),
) -> list[Notice]:
    """The notifications one accepted move causes: for each colour now to move that an account
    holds and that has no page open (``connected``), one per channel it chose.

    >>> [(n.account_id, n.seq, n.channel) for n in turn_notifications(
    ...     "g1", 7, [2], {0: 10, 2: 11}, {11: ("webhook", "email")})]
    [(11, 7, 'webhook'), (11, 7, 'email')]
    >>> turn_notifications("g1", 7, [2], {2: 11}, {11: ("email",)}, connected=[2])
    []
    """
    here = set(connected)
    out = []
    for colour in to_move:
        account = seat_accounts.get(colour)
        if account is None or colour in here:
            continue
        for ch in channels.get(account, ()):
            if ch in CHANNELS:
                out.append(Notice(account, game_id, seq, ch))
    return out


class _Bucket:
    __slots__ = ("stamp", "tokens")

    def __init__(self, tokens: float, stamp: float) -> None:
        self.tokens = tokens
        self.stamp = stamp


class NotifyLimits:
    """Token buckets on what notifications cost: per receiving account (``per_account`` an hour,
    bursts of ``burst``) and per client address that caused them (an invitation, a move:
    ``per_address`` an hour). A notification over either is dropped (its outbox row says
    ``dropped``), never queued for later.

    >>> lim = NotifyLimits(per_account=2, per_address=100, burst=2)
    >>> [lim.take(account=1, address="a", now=0.0) for _ in range(3)]
    [True, True, False]
    >>> lim.take(account=1, address="a", now=1800.0)  # one token back after half an hour
    True
    """

    def __init__(
        self,
        per_account: float = 30.0,
        per_address: float = 120.0,
        burst: float = 10.0,
        max_entries: int = 100_000,
    ) -> None:
        self.per_account = per_account
        self.per_address = per_address
        self.burst = burst
        self.max_entries = max_entries
        self._buckets: OrderedDict[tuple[str, object], _Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def _level(self, key: tuple[str, object], rate: float, cap: float, now: float) -> _Bucket:
        b = self._buckets.get(key)
        if b is None:
            b = _Bucket(cap, now)
            self._buckets[key] = b
            while len(self._buckets) > self.max_entries:
                self._buckets.popitem(last=False)
        else:
            b.tokens = min(cap, b.tokens + (now - b.stamp) * rate / HOUR)
            b.stamp = now
            self._buckets.move_to_end(key)
        return b

    def take(self, account: int, address: str | None, now: float | None = None) -> bool:
        t = time.monotonic() if now is None else now
        with self._lock:
            a = self._level(("account", account), self.per_account, self.burst, t)
            b = (
                self._level(("address", address), self.per_address, self.burst * 4, t)
                if address is not None
                else None
            )
            if a.tokens < 1 or (b is not None and b.tokens < 1):
                return False
            a.tokens -= 1
            if b is not None:
                b.tokens -= 1
            return True
