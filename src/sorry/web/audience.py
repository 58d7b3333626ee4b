"""Who is on a game and what each is told: the seats as the page shows them, the whole state
as one connection may see it, the deltas every connection gets after a change, and the
connections coming and going.

A whole state holds the game's log (a long game's is most of its 100 KB); the log's JSON text
is kept per language and grown by each move (:attr:`LiveGame.log_text`), so a whole state
costs its view, not its log, however often it is asked for.
"""

from __future__ import annotations

import time
from typing import Any

from ..board import COLOUR_LETTERS
from ..i18n import using
from .config import Settings
from .conn import Conn
from .live import LiveGame, translated_entry
from .protocol import dumps, public_view, state_delta, teams_json, view_json
from .room import turn_began


def match_totals(live: LiveGame) -> dict[str, Any]:
    """The match so far, this game included once it is over: games played, wins and (in
    the points variant) points per colour."""
    info = live.match_info or {}
    games = int(info.get("games", 0))
    wins = dict(info.get("wins", {}))
    points = dict(info.get("points", {}))
    game = live.game
    if game.is_over():
        games += 1
        for c in game.winners:
            wins[COLOUR_LETTERS[c]] = wins.get(COLOUR_LETTERS[c], 0) + 1
        for c, p in (game.scores or {}).items():
            points[COLOUR_LETTERS[c]] = points.get(COLOUR_LETTERS[c], 0) + p
    return {
        "number": int(info.get("games", 0)) + 1,
        "games": games,
        "wins": wins,
        "points": points,
    }


class Audience:
    """What the clients of every game are told."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def seats_json(self, live: LiveGame) -> list[dict[str, Any]]:
        out = []
        takeover = self.settings.takeover_after
        now = time.monotonic()
        present = {c.seat for c in live.conns if c.seat is not None and not c.closed}
        for c in live.game.players:  # a resigned seat is listed (and says so)
            s = live.seats[c]
            away = (
                s.kind == "human"
                and c not in present
                and now - live.away_since.get(c, now) >= takeover
            )
            out.append(
                {
                    "colour": COLOUR_LETTERS[c],
                    "kind": s.kind,
                    "level": s.bot_level,
                    "name": s.name,
                    "claimed": s.claimed,
                    "open": s.kind == "human" and s.token_hash is None,
                    "connected": s.kind == "bot" or c in present,
                    "bot_playing": away,
                    "away": c in live.room.away,  # timed out: a bot plays until they act
                    "ready": COLOUR_LETTERS[c] in live.room.settings.ready,
                    "account": s.account,
                    "resigned": c in live.game.resigned,
                }
            )
        return out

    def common(self, live: LiveGame) -> dict[str, Any]:
        """The fields of a state message that are the same for every client."""
        return {
            "type": "state",
            "game": live.id,
            "name": live.name,
            "seq": live.seq,
            "status": live.status,
            "seats": self.seats_json(live),
            "match": match_totals(live),
            "next_game": live.next_id,
            "commitment": live.commitment,
            "room": live.room.public(),
            "teams": teams_json(live.game),
        }

    def state_message(
        self,
        live: LiveGame,
        conn: Conn,
        full: bool = False,
        common: dict[str, Any] | None = None,
        position: str | None = None,
    ) -> dict[str, Any]:
        """The whole state as ``conn`` may see it (with the log on ``full``). ``common`` and
        ``position``: the parts every client shares, when the caller has them already."""
        game = live.game
        seat = conn.seat
        if position is None:
            position = game.position_string()
        with using(conn.lang):  # moves and the log in the client's language
            if seat is not None and seat in game.colours:
                view = game.view(seat)
                vj = view_json(view, game if view.legal_moves else None, position)
            else:
                vj = view_json(public_view(game), None, position)
            last = live.log[-1] if live.log else None
            if last is not None and conn.lang != "en":
                last = translated_entry(last, live.said)
            msg = {**(common or self.common(live)), "view": vj, "last": last}
            if full:
                msg["log"] = self.log_in(live, conn.lang)
        return msg

    def log_in(self, live: LiveGame, lang: str) -> list[dict[str, Any]]:
        """The log with its words in ``lang``."""
        if lang == "en":
            return live.log
        with using(lang):
            return [translated_entry(e, live.said) for e in live.log]

    def log_text(self, live: LiveGame, lang: str) -> str:
        """The log as JSON in ``lang``: kept, and grown by the entries added since."""
        count, text = live.log_text.get(lang, (0, "[]"))
        if count > len(live.log):  # the log was read again from the database
            count, text = 0, "[]"
        if count < len(live.log):
            new = live.log[count:]
            if lang != "en":
                with using(lang):
                    new = [translated_entry(e, live.said) for e in new]
            more = dumps(new)
            text = more if count == 0 else text[:-1] + "," + more[1:]
            live.log_text[lang] = (len(live.log), text)
        return text

    def send_state(self, live: LiveGame, conn: Conn, full: bool = False) -> None:
        """Tell a client the game's state: the whole of it (with the log) on ``full`` or when
        it has none yet, else a ``delta`` with only what changed since what it has."""
        msg = self.state_message(live, conn)
        if full or conn.state is None:
            conn.state = msg
            text = dumps(msg)
            conn.send_text(text[:-1] + ',"log":' + self.log_text(live, conn.lang) + "}")
            return
        delta = state_delta(conn.state, msg)
        conn.state = msg
        if delta is not None:
            conn.send(delta)

    def broadcast(self, live: LiveGame) -> None:
        """Every client of the game gets what changed since what it was last told (a delta
        each). What clients share is worked out once, each (seat, language)'s state once, and
        the delta once for the clients that had the same state."""
        conns = []
        for conn in list(live.conns):
            if conn.closed:
                live.conns.discard(conn)
            elif conn.state is None:
                self.send_state(live, conn, full=True)
            else:
                conns.append(conn)
        if not conns:
            return
        common = self.common(live)
        position = live.game.position_string()
        # (seat, language) -> [its state, the state its delta was taken from, the delta's text]
        made: dict[tuple[int | None, str], list[Any]] = {}
        for conn in conns:
            key = (conn.seat, conn.lang)
            got = made.get(key)
            if got is None:
                msg = self.state_message(live, conn, common=common, position=position)
                got = made[key] = [msg, None, None]
            if conn.state is not got[1] or got[1] is None:
                delta = state_delta(conn.state or {}, got[0])
                text = dumps(delta) if delta is not None else None
                if got[1] is None:
                    got[1], got[2] = conn.state, text
            else:
                text = got[2]
            conn.state = got[0]
            if text is not None:
                conn.send_text(text)

    def broadcast_seats(self, live: LiveGame) -> None:
        """The seats to every client whose seats differ (a spectator coming or going changes
        nobody's), written once."""
        seats = self.seats_json(live)
        text: str | None = None
        for conn in list(live.conns):
            if conn.state is not None:
                if conn.state["seats"] == seats:
                    continue
                conn.state = {**conn.state, "seats": seats}
            if text is None:
                text = dumps({"type": "seats", "seq": live.seq, "seats": seats})
            conn.send_text(text)

    def attach(self, live: LiveGame, conn: Conn) -> None:
        """A connection that said hello joins the game: the whole state, the chat, and the
        seats to everyone. A turn whose clock had stopped (nobody seated) starts again."""
        live.opening = max(0, live.opening - 1)
        live.conns.add(conn)
        if conn.seat is not None:
            live.away_since.pop(conn.seat, None)
            if live.room.deadline is None:
                turn_began(live)
        self.send_state(live, conn, full=True)
        conn.send(live.room.chat.history_message(conn.hidden))
        self.broadcast_seats(live)

    def detach(self, live: LiveGame, conn: Conn) -> None:
        live.conns.discard(conn)
        live.last_change = max(live.last_change, time.monotonic())
        if conn.seat is not None and not live.connected(conn.seat):
            live.away_since[conn.seat] = time.monotonic()
            self.broadcast_seats(live)
