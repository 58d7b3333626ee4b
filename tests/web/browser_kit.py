"""Helpers for the browser tests: Debian's chromium through Playwright, the viewports the
game is made for, size checks, and a player who plays by tapping on the board."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from server_helpers import ServerProcess

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
#: name -> (width, height, touch)
VIEWPORTS = {
    "phone": (390, 844, True),
    "phone-landscape": (844, 390, True),
    "tablet": (768, 1024, True),
    "desktop": (1280, 800, False),
}


def preset_game(
    database: str,
    position: str | None,
    *,
    base: str,
    variant: str = "standard",
    card: str | None = None,
    hands: dict[str, str] | None = None,
    seats: dict[str, str] | None = None,
    room: dict[str, Any] | None = None,
    name: str = "preset",
    seed: int = 0,
    public: bool = False,
) -> dict[str, Any]:
    """A game in a given position (``sorry.Game.from_position``), or with ``position`` None a
    whole game from the start (``Game(rules, seats, seed)``: with the same seed, the same
    deck), written straight into the
    server's database: the server loads it when its page is first opened. ``card`` is the
    card drawn (standard, teams), ``hands`` each colour's hand in the points variant (e.g.
    ``{"R": "5 5 7 8 10"}``); ``seats`` maps colour to ``invite`` or ``bot:LEVEL`` (default:
    Red invited, the others medium bots); ``room`` the stored room (started by default);
    ``public``: listed in the lobby.
    Returns the id, each invited seat's token and link, and the host token (if a room
    waits for the host)."""
    from sorry import Game, Rules
    from sorry.board import COLOUR_LETTERS, COLOUR_NAMES
    from sorry.cards import parse_card
    from sorry.position import Position
    from sorry.record import Commitment
    from sorry.web.db import Database, SeatRow
    from sorry.web.room import Room
    from sorry.web.tokens import hash_token, new_token

    rules = Rules(variant=variant, starting_pawns_out=1 if variant == "points" else 0)
    if position is None:
        assert seats, "a game from the start needs its seats"
        game = Game(rules, players=sorted(COLOUR_LETTERS.index(c) for c in seats), seed=seed)
        playing = [c for c in COLOUR_LETTERS if c in seats]
    else:
        pos = Position.parse(position)
        dealt = None
        if hands:
            dealt = {
                COLOUR_LETTERS.index(c): [parse_card(x) for x in h.split()]
                for c, h in hands.items()
            }
        drawn = parse_card(card) if card else None
        game = Game.from_position(pos, rules=rules, card=drawn, hands=dealt, seed=seed)
        playing = [COLOUR_LETTERS[c] for c, locs in enumerate(pos.pawns) if locs is not None]
    commit = Commitment.for_game(game)
    while game.is_chance():
        game.draw()
    seats = seats or {c: ("invite" if c == "R" else "bot:medium") for c in playing}
    tokens: dict[str, str] = {}
    rows = []
    for c in playing:
        kind, _, level = seats[c].partition(":")
        i = COLOUR_LETTERS.index(c)
        if kind == "bot":
            rows.append(SeatRow(i, "bot", level or "medium", f"{level} bot", None, True))
        else:
            tokens[c] = new_token()
            rows.append(SeatRow(i, "human", None, COLOUR_NAMES[i], hash_token(tokens[c]), False))
    host = None
    stored = Room()
    if room is not None:
        if not room.get("started", True):
            host = new_token()
            room = {**room, "host_hash": hash_token(host)}
        stored = Room(**room)
    gid = new_token()[:12].replace("-", "x").replace("_", "y")
    db = Database(database)
    try:
        db.create_game(
            gid,
            name,
            public,
            variant,
            rules.to_dict(),
            game.to_dict(),
            rows,
            None,
            None,
            (commit.sha256, commit.nonce),
            stored.to_json(),
        )
    finally:
        db.dispose()
    links = {c: f"{base}/g/{gid}#seat={c}&token={tok}" for c, tok in tokens.items()}
    return {"id": gid, "tokens": tokens, "links": links, "host_token": host}


def context(browser: Any, viewport: str = "phone", **kw: Any) -> Any:
    w, h, touch = VIEWPORTS[viewport]
    made = browser.new_context(
        viewport={"width": w, "height": h}, has_touch=touch, is_mobile=touch, **kw
    )
    # a loaded machine (the whole suite beside other work) may take tens of seconds for what
    # takes one alone: every wait without a timeout of its own gets a minute, not 30 s
    made.set_default_timeout(60000)
    return made


def watch_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the page must run under its Content-Security-Policy: a violation is an error too
    page.on("console", lambda m: errors.append(m.text) if "Security Policy" in m.text else None)
    return errors


def shot(page: Any, name: str) -> None:
    """A screenshot into $SORRY_SCREENSHOTS (to look at), when it is set."""
    folder = os.environ.get("SORRY_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def body(page: Any, key: str) -> str | None:
    value: str | None = page.evaluate(f"document.body.dataset.{key} || null")
    return value


def page_and_server(page: Any, server: ServerProcess) -> str:
    """What the page and the server say now, for a wait that timed out: the page's marks and
    status line, its last turn marks (``window.trace`` if the test keeps one), the game as the
    server has it, and the end of the server's log."""
    import urllib.request

    marks = page.evaluate(
        "() => ({...document.body.dataset, status_line:"
        " (document.getElementById('status') || {}).textContent,"
        " trace: (window.trace || []).slice(-4), url: location.pathname})"
    )
    said = [f"page: {json.dumps(marks)}"]
    gid = str(marks.get("url", "")).rsplit("/", 1)[-1]
    try:
        with urllib.request.urlopen(f"{server.base}/api/games/{gid}", timeout=10) as r:
            said.append(f"server: {r.read().decode()[:2000]}")
    except OSError as exc:
        said.append(f"server: {exc}")
    server.errors.seek(0)
    said.append("log: " + server.errors.read().decode(errors="replace")[-3000:])
    return "\n".join(said)


#: Where the chat is a drawer opened from the turn banner (chat_drawer.js's NARROW).
CHAT_IS_DRAWER = "matchMedia('(orientation: portrait), (max-height: 500px)').matches"


def open_chat(page: Any) -> None:
    """Open the chat where it is a drawer (a phone, an upright tablet); elsewhere it is in view."""
    if page.evaluate(CHAT_IS_DRAWER) and body(page, "chatOpen") != "yes":
        page.click("#chat-open")
        page.wait_for_selector("#chat-panel.open")


def close_chat(page: Any) -> None:
    """Close the chat's drawer if it is open (it covers the page)."""
    if body(page, "chatOpen") == "yes":
        page.click("#chat-panel .chat-close")
        page.wait_for_selector("#chat-panel.open", state="detached")


SMALL_TARGETS = """() => {
  const out = [];
  const visible = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !e.closest('[hidden]')
      && !(e.closest('details:not([open])') && !e.matches('summary')); };
  for (const e of document.querySelectorAll(
      'button, select, a.button, summary, input:not([type=checkbox]):not([type=hidden])')) {
    if (!visible(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 44 || r.height < 44)
      out.push(`${e.tagName}#${e.id}.${e.className} ${r.width}x${r.height}`);
  }
  // nothing sticks out of its panel (cut off, or reachable only by scrolling sideways)
  for (const e of document.querySelectorAll('button, select, a.button, input:not([type=hidden])')) {
    const box = e.closest('.panel, #banner');
    if (!box || !visible(e)) continue;
    const r = e.getBoundingClientRect(), p = box.getBoundingClientRect();
    if (r.right > p.right + 0.5 || r.left < p.left - 0.5)
      out.push(`${e.tagName}#${e.id}.${e.className} "${e.textContent}" outside its panel`);
  }
  // a control's own text is not cut off (a word longer than its button)
  for (const e of document.querySelectorAll('button, a.button')) {
    if (visible(e) && e.scrollWidth > e.clientWidth + 1)
      out.push(`${e.tagName}#${e.id}.${e.className} "${e.textContent}" cut off`);
  }
  for (const e of document.querySelectorAll('label.check')) {
    if (visible(e) && e.getBoundingClientRect().height < 44) out.push('label ' + e.textContent);
  }
  // the board's targets: 44 px, except where two targets are closer than that (a 7's squares
  // side by side): then as wide as the distance between them, and a tap on one's centre is
  // that one's
  const board = [...document.querySelectorAll(
    '.pawn.movable, .pawn.takeable, .dest:not(.on-pawn)')];
  const centres = board.map((g) => { const r = g.querySelector('.hit').getBoundingClientRect();
    return {g, x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height}; });
  for (const a of centres) {
    let near = Infinity;
    for (const b of centres) if (b !== a) near = Math.min(near, Math.hypot(a.x - b.x, a.y - b.y));
    const want = Math.min(44, near) - 1;
    if (a.w < want || a.h < want) out.push(`board target ${a.w}x${a.h} (${near} px away)`);
    const top = document.elementFromPoint(a.x, a.y);
    const onScreen = a.x >= 0 && a.y >= 0 && a.x < innerWidth && a.y < innerHeight;
    if (onScreen && (!top || !a.g.contains(top)))
      out.push(`board target ${a.g.getAttribute('class')} covered at its centre`);
  }
  return out;
}"""


#: Are the turn banner and most of the board on screen (the test of follow.js)?
BOARD_IN_VIEW = """() => { const r = document.querySelector('#board svg').getBoundingClientRect();
  const b = document.getElementById('banner').getBoundingClientRect();
  const seen = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
  return seen >= 0.8 * Math.min(r.height, innerHeight) && b.top >= 0 && b.bottom <= innerHeight;
}"""


#: Wait until no pawn is walking (a walk takes a few seconds at most).
PAWNS_STILL = """() => Promise.all(document.getAnimations()
  .filter(a => a.effect && a.effect.target && a.effect.target.classList
    && a.effect.target.classList.contains('pawn'))
  .map(a => a.finished.catch(() => null)))"""


def check_sizes(page: Any, viewport: str, board: bool = True) -> None:
    """Nothing scrolls sideways, every tap target is at least 44 CSS px, and the board (on a
    game's page) takes the room it should."""
    w, h, _touch = VIEWPORTS[viewport]
    page.evaluate(PAWNS_STILL)  # targets are measured where they stand, not half-way
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{viewport}: {overflow} px of horizontal overflow"
    small = page.evaluate(SMALL_TARGETS)
    assert small == [], f"{viewport}: tap targets under 44 px or cut off: {small}"
    header = page.evaluate("document.querySelector('header').getBoundingClientRect().height")
    assert header <= 60, f"{viewport}: the header wraps ({header} px)"
    if not board:
        return
    box = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().toJSON()")
    if viewport in ("phone", "tablet"):  # portrait: the whole width
        assert box["width"] >= 0.95 * w, box
    else:  # landscape: as tall as the screen under the header, the rest beside it
        assert box["height"] >= 0.85 * (h - header) and box["right"] <= 0.7 * w, box


KINDS = {
    "split": re.compile(r"/"),
    "swap": re.compile(r"<>"),
    "sorry": re.compile(r"S>[RBYG]"),
    "discard": re.compile(r"^discard:"),
}


def kind_of(move: str) -> str:
    for kind, pattern in KINDS.items():
        if pattern.search(move):
            return kind
    return "other"


class Tapper:
    """Plays one seat by tapping on the board (the card first in the points variant), and
    remembers which kinds of move it played."""

    def __init__(self, page: Any, touch: bool = True) -> None:
        self.page = page
        self.touch = touch
        self.played: list[str] = []
        self.kinds: set[str] = set()
        self.offered: set[str] = set()  # kinds of move it was offered

    def legal(self) -> list[str]:
        moves: list[str] = self.page.evaluate(
            "[...document.querySelectorAll('#moves .move')].map(b => b.dataset.move)"
        )
        return moves

    def choose(self, moves: list[str]) -> str:
        self.offered |= {kind_of(m) for m in moves}
        for kind in ("split", "swap", "sorry", "discard"):
            if kind in self.kinds:
                continue
            for m in moves:
                if kind_of(m) == kind:
                    return m
        return moves[0]

    #: milliseconds a tap, or the page's answer to it, may take: generous, the machine
    #: running the tests may be loaded
    WAIT = 60000

    def tap(self, locator: Any) -> None:
        if self.touch:
            locator.tap(timeout=self.WAIT)
        else:
            locator.click(timeout=self.WAIT)

    def play(self, move: str) -> None:
        """Tap until ``move`` is sent."""
        page = self.page
        seq = body(page, "seq")
        card = move.split(":")[1] if move.startswith("discard:") else None
        if ":" in move and not move.startswith("discard:"):
            card = move.split(":")[0]
        if card is not None:
            self.tap(page.locator(f'#hand button[data-card="{card}"]').first)
        for _ in range(6):
            if body(page, "seq") != seq:
                break
            target = page.locator(
                f'.pawn[data-moves~="{move}"], .dest:not(.on-pawn)[data-moves~="{move}"]'
            )
            if target.count():
                picks = body(page, "picks") or ""
                self.tap(target.first)
                # the tap chose a pawn or a square, or sent the move
                page.wait_for_function(
                    f"() => document.body.dataset.seq !== '{seq}' || "
                    f"((document.body.dataset.picks || '') !== {json.dumps(picks)}"
                    " && document.body.dataset.sending !== 'yes')",
                    timeout=self.WAIT,
                )
                continue
            button = page.locator(f'#choices button[data-move="{move}"]')
            if button.count():
                self.tap(button.first)
                break
            if body(page, "myTurn") != "yes":
                raise AssertionError(
                    f"the turn left before {move} was tapped (a turn timer?): "
                    + page.inner_html("#actions")
                )
            tappable = page.eval_on_selector_all(
                ".pawn[data-moves], .dest[data-moves]",
                "els => els.map(e => e.getAttribute('class') + ' ' + e.dataset.loc + ' '"
                " + e.dataset.place + ' ' + e.dataset.moves)",
            )
            raise AssertionError(
                f"nothing to tap for {move} (picks {body(page, 'picks')}): {tappable} "
                + page.inner_html("#actions")
            )
        page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'", timeout=self.WAIT)
        self.played.append(move)
        self.kinds.add(kind_of(move))

    def turn(self, timeout: float = 60) -> bool:
        """Wait for this seat's turn (or the end) and play one move; False when it is over."""
        page = self.page
        page.wait_for_function(
            "() => document.body.dataset.myTurn === 'yes'"
            " || document.body.dataset.status === 'over'",
            timeout=timeout * 1000,
        )
        if body(page, "status") == "over":
            return False
        # the moves are listed, or the turn has passed meanwhile (a timer, a takeover)
        page.wait_for_function(
            "() => document.querySelector('#moves .move')"
            " || document.body.dataset.myTurn !== 'yes'",
            timeout=self.WAIT,
        )
        moves = self.legal()
        if not moves:
            return body(page, "status") != "over"
        self.play(self.choose(moves))
        return True

    def whole_game(self, limit: float = 240) -> None:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if not self.turn():
                return
        raise AssertionError("the game did not finish in time")


AXE = Path(__file__).parent.parent / "vendor" / "axe-core" / "axe.min.js"


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """Serious and critical axe-core violations (vendored in tests/vendor/axe-core) of the page
    as it is now."""
    # evaluated, not added as an inline <script>: the page's CSP allows no inline script
    page.evaluate(AXE.read_text(encoding="utf-8"))
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations']})"
    )
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def start_server(folder: Path, *extra: str) -> ServerProcess:
    """``sorry serve`` for the browser tests, on a new database in ``folder``: quick bots, no
    takeover, two workers (a finished game's analysis takes one for a while: the bots keep the
    other)."""
    return ServerProcess(
        f"sqlite:///{folder / 'e2e.db'}",
        "--bot-delay",
        "0.02",
        "--takeover-after",
        "3600",
        "--workers",
        "2",
        *extra,
    )
