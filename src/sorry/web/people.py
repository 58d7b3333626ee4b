"""The accounts in the game service: who a request is (its session cookie), the seats accounts
hold, invitations by name, and what the players' pages show (profiles, the leaderboard).

* **Sessions.** A request or WebSocket carries the ``sorry_session`` cookie
  (:data:`~sorry.web.passwords.SESSION_COOKIE`); :meth:`People.account` gives its account.
  Requests that change anything on an account's behalf must also carry the session's CSRF token
  (``X-CSRF-Token``, :mod:`sorry.web.account_api`); a game request without it is a guest's.
* **Seats.** An account that joins a seat holds it (``sorry_game_accounts``): its name is the
  seat's, its profile lists the game, and its session is enough to sit there from any browser
  (a hello with the seat and no token). Seat tokens keep working for guests and for links;
  another account's session never opens a seat it does not hold. A seat invited by name is
  held by that account from the start.
* **Rated games** (``room.rated``) are for accounts: a guest cannot take their seats.
* **Blocks.** An account that blocks another never gets its chat lines or reactions, on any
  game (:mod:`sorry.web.chat`; a connection knows its account and blocks from its hello), and
  cannot be invited by it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection

from ..board import COLOUR_LETTERS, COLOUR_NAMES
from ..i18n import _, using
from .accounts import Account, AccountStore
from .cache import GameCache
from .config import Settings
from .games import Games, Refused
from .live import LiveGame
from .passwords import LoginLimits, Passwords
from .rating_graph import rating_svg
from .ratings import PROVISIONAL_SIGMA, Rating, display, display_interval

VARIANTS = ("standard", "teams", "points")
#: games a profile lists, and analysed games its luck line sums
PROFILE_GAMES = 50
LUCK_GAMES = 40

Link = Callable[[Connection], None]
NewLink = Callable[[Connection, str], None]  # given the new game's id


@dataclass(frozen=True)
class Invite:
    colour: int
    account: Account


class People:
    """The accounts' side of the service (see the module doc)."""

    def __init__(self, cache: GameCache, games: Games, settings: Settings) -> None:
        self.cache = cache
        self.games = games
        self.settings = settings
        db = cache.db
        self.store = AccountStore(
            db.engine,
            db.reader,
            Passwords(settings.password_memory_cost, settings.password_time_cost),
            LoginLimits(settings.login_per_name, settings.login_per_address),
        )

    # -- sessions ---------------------------------------------------------------------------
    async def account(self, token: str | None) -> Account | None:
        """The account of a session token (None: no session, expired, or disabled)."""
        if not token:
            return None
        return await asyncio.to_thread(self.store.session, token)

    # -- seats ------------------------------------------------------------------------------
    def link(self, game_id: str, colour: int, account_id: int, rated: bool) -> Link:
        """The write that makes ``account_id`` hold a seat (inside a game's transaction)."""

        def write(conn: Connection) -> None:
            self.store.seat(conn, game_id, colour, account_id, rated)

        return write

    def link_new(
        self, colour: int, account_id: int, rated: bool
    ) -> Callable[[Connection, str], None]:
        """The write that makes ``account_id`` hold a seat of a game being created."""

        def write(conn: Connection, game_id: str) -> None:
            self.store.seat(conn, game_id, colour, account_id, rated)

        return write

    async def invites(self, seats: list[dict[str, Any]], host: Account | None) -> list[Invite]:
        """The seats of a new game invited by account name (``"account"``), checked: the
        names exist, the host is logged in, and nobody invited blocked the host."""
        out: list[Invite] = []
        for s in seats:
            name = s.get("account")
            if name is None:
                continue
            if host is None:
                raise Refused(403, "log in to invite an account by name")
            other = await asyncio.to_thread(self.store.by_name, name)
            if other is None or other.disabled:
                raise Refused(404, "no account has that name")
            if other.id == host.id:
                raise Refused(400, "choose 'me' for your own seat")
            if await asyncio.to_thread(self.store.blocks_between, other.id, host.id):
                raise Refused(403, "that player does not take invitations from you")
            if any(i.account.id == other.id for i in out):
                raise Refused(400, "an account may be invited to one seat")
            out.append(Invite(int(s["colour"]), other))
        return out

    async def join(
        self,
        live: LiveGame,
        colour: int,
        name: str,
        token: str | None,
        account: Account | None,
    ) -> tuple[bool, str | None, str]:
        """Take a seat (see the module doc): (ok, the seat's token or None when the account's
        session is its key, the name shown or the reason it was refused)."""
        seat = live.seats.get(colour)
        if seat is not None and seat.kind == "human" and seat.account_id is not None:
            if account is None or account.id != seat.account_id:
                return False, None, "this seat is held by an account: log in as it to play"
            ok = await self.cache.write(
                self.cache.db.claim_seat_in, live.id, colour, account.name, None, False
            )
            await self.cache.refresh(live)
            return bool(ok), token, account.name if ok else "the seat could not be taken"
        rated = live.room.settings.rated
        if seat is not None and seat.kind == "human" and rated and account is None:
            return False, None, "a rated game is for accounts: log in to play it"
        link = None
        if account is not None and seat is not None and seat.kind == "human":
            if any(s.account_id == account.id for s in live.seats.values()):
                return False, None, "your account holds another seat of this game"
            name = account.name
            link = self.link(live.id, colour, account.id, live.room.settings.rated)
        ok, result = await self.games.join(live, colour, name, token, link=link)
        if not ok:
            return False, None, result
        return True, result, name

    def holds(self, live: LiveGame, colour: int, account: Account | None) -> bool:
        seat = live.seats.get(colour)
        return (
            account is not None
            and seat is not None
            and seat.kind == "human"
            and seat.account_id == account.id
        )

    async def forget(self, account_id: int) -> None:
        """A deleted account: the games in memory read their seats again (renamed)."""
        for live in list(self.cache.live.values()):
            if any(s.account_id == account_id for s in live.seats.values()):
                await self.cache.refresh(live)

    async def hidden_from(self, account_id: int) -> frozenset[int]:
        """The accounts whose chat lines and reactions ``account_id`` does not get (those it
        blocked), read when one of its pages opens a game (so a change made through another
        server process holds from the next page opened)."""
        return frozenset(await asyncio.to_thread(self.store.blocked_ids, account_id))

    async def blocks_changed(self, account_id: int) -> None:
        """An account's blocks changed: its connections to this process hear (or stop
        hearing) the chat of whom it blocked (or unblocked) from now on."""
        ids = await self.hidden_from(account_id)
        for live in list(self.cache.live.values()):
            for conn in live.conns:
                if conn.account == account_id:
                    conn.hidden = ids

    def carry(self, live: LiveGame) -> NewLink:
        """The write that gives the next game of a match the same accounts' seats."""
        held = [(c, s.account_id, s.rated) for c, s in live.seats.items() if s.account_id]

        def write(conn: Connection, game_id: str) -> None:
            for colour, account_id, rated in held:
                assert account_id is not None
                self.store.seat(conn, game_id, colour, account_id, rated)

        return write

    # -- what the pages show ------------------------------------------------------------------
    def your_turn(self, account_id: int) -> list[str]:
        """The unfinished, started games in which it is the account's turn."""
        return self.store.your_turn(account_id)

    def invitations(self, account_id: int) -> list[str]:
        """Games whose seat the account was invited to by name and has not taken yet."""
        return self.store.invitations(account_id)

    def luck_rows(self, account_id: int, limit: int = LUCK_GAMES) -> list[dict[str, float]]:
        return self.store.luck_rows(account_id, limit)

    def profile(self, name: str, lang: str, viewer: Account | None) -> dict[str, Any] | None:
        """``GET /api/players/NAME`` (None: no such account). The account's own view adds
        its invitations, recent opponents and blocked players."""
        from ..analysis import luck_over_games

        account = self.store.by_name(name)
        if account is None or account.disabled:
            return None
        ratings = {v: rating_json(r, n) for v, (r, n) in self.store.ratings(account.id).items()}
        turn = set(self.your_turn(account.id))
        changes = self._deltas(account.id)
        games = []
        for g in self.store.games(account.id, limit=PROFILE_GAMES):
            item: dict[str, Any] = {
                "id": g.game_id,
                "name": g.name or "",
                "variant": g.variant,
                "colour": COLOUR_LETTERS[g.colour],
                "status": g.status,
                "rated": bool(g.rated),
                "your_turn": g.game_id in turn,
                "won": g.rank == 1 if g.rank else None,
                "resigned": bool(g.resigned),
                "delta": changes.get(g.game_id),
            }
            games.append(item)
        rows = self.luck_rows(account.id)
        luck = None
        if rows:
            summary = luck_over_games(rows)
            with using(lang):
                luck = {
                    "games": summary.games,
                    "sentence": summary.sentence(),
                    "chance": chance_words(summary.within_chance),
                    "total": round(summary.total, 2),
                    "low": round(summary.total_low, 2),
                    "high": round(summary.total_high, 2),
                }
        out: dict[str, Any] = {
            "name": account.name,
            "since": account.created_at,
            "your_turn": len(turn),
            "ratings": ratings,
            "luck": luck,
            "games": games,
        }
        if viewer is not None and viewer.id == account.id:
            out["invitations"] = self.invitations(account.id)
            out["recent_opponents"] = self.store.recent_opponents(account.id)
            out["blocked"] = self.store.blocked(account.id)
        elif viewer is not None:
            out["blocked_by_you"] = self.store.blocks_between(viewer.id, account.id)
        return out

    def _deltas(self, account_id: int) -> dict[str, int]:
        rows = self.store.rating_deltas(account_id, PROFILE_GAMES * 2)
        return {r.game_id: display(r.mu_after) - display(r.mu_before) for r in rows}

    def rating_picture(self, name: str, variant: str, lang: str) -> str | None:
        account = self.store.by_name(name)
        if account is None or account.disabled:
            return None
        points = [(h.mu_after, h.sigma_after) for h in self.store.history(account.id, variant)]
        with using(lang):
            if points:
                label = _("Rating over time: now {rating}").format(rating=display(points[-1][0]))
            else:
                label = _("No rated game yet.")
        return rating_svg(points, label=label)

    def leaderboard(self, variant: str) -> dict[str, Any]:
        """``GET /api/leaderboard``: settled ratings best first, provisional ones apart."""
        players: list[dict[str, Any]] = []
        provisional: list[dict[str, Any]] = []
        for row in self.store.leaderboard(variant, limit=500):
            item = {
                "name": row.name,
                "rating": display(row.mu),
                "interval": display_interval(row.sigma),
                "games": row.games,
            }
            (provisional if row.sigma > PROVISIONAL_SIGMA else players).append(item)
        return {"variant": variant, "players": players[:100], "provisional": provisional[:100]}

    def game_ratings(self, live: LiveGame) -> dict[str, Any]:
        """``GET /api/games/ID/ratings``: the rating change of each account seat once the
        game is rated (``pending`` until then)."""
        rated = live.room.settings.rated
        changes = self.store.changes_of_game(live.id) if rated and live.game.is_over() else []
        names = {s.account_id: s.account for s in live.seats.values() if s.account_id}
        out = [
            {
                "colour": COLOUR_LETTERS[c.colour],
                "name": names.get(c.account_id) or COLOUR_NAMES[c.colour],
                "before": display(c.mu_before),
                "after": display(c.mu_after),
                "delta": display(c.mu_after) - display(c.mu_before),
                "interval": display_interval(c.sigma_after),
            }
            for c in sorted(changes, key=lambda c: c.colour)
        ]
        pending = rated and live.game.is_over() and not out and rateable(live)
        return {"rated": rated and rateable(live), "pending": pending, "changes": out}


def rating_json(r: Rating, games: int) -> dict[str, Any]:
    return {
        "rating": r.rating,
        "interval": r.interval,
        "games": games,
        "provisional": r.provisional,
    }


def rateable(live: LiveGame) -> bool:
    """Whether the game is one the ratings count: rated, and every person seated is an
    account that chose a rated game (bots hold fixed ratings), at least one of them."""
    humans = [s for s in live.seats.values() if s.kind == "human"]
    return (
        live.room.settings.rated
        and bool(humans)
        and all(s.account_id is not None and s.rated for s in humans)
    )


def chance_words(within: bool | None) -> str | None:
    if within is None:
        return None
    if within:
        return _("That is well within what chance alone gives.")
    return _("That is more than chance alone usually gives.")
