"""Whole games played by tapping on the board in headless Chromium (Debian's chromium through
Playwright), one seat a person, the others bots: standard (then the replay, in step with the
board, the log and the status), teams (partners shown) and points (the card first). Each
whole game is seeded (the same game every time) so that its taps hold a 7 split, an 11 swap
and a Sorry! (and in points a dead hand's discard), and each of those is also tapped from a
preset position. A spectator never gets a move."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    Tapper,
    body,
    check_sizes,
    context,
    preset_game,
    shot,
    watch_errors,
)

from server_helpers import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("play") / "play.db"
    # a finished game's analysis takes a worker for a while: the bots keep the other
    s = ServerProcess(
        f"sqlite:///{db}", "--bot-delay", "0.01", "--takeover-after", "3600", "--workers", "2"
    )
    try:
        yield s
    finally:
        s.stop()


def open_seat(browser: Any, link: str, **kw: Any) -> Any:
    """Red's page on an invitation link, joined."""
    page = context(browser, reduced_motion="reduce", **kw).new_page()
    page.set_default_timeout(60000)  # generous: the machine running the tests may be loaded
    page.goto(link)
    page.wait_for_selector("#join-btn")
    page.fill("#name-input", "Ann")
    page.tap("#join-btn")
    page.wait_for_function("() => document.body.dataset.role === 'player'")
    return page


#: The seed of each whole game: with it the deck, the bots' choices and the Tapper's (which
#: takes a 7 split, an 11 swap, a Sorry! and a discard whenever it has not played one yet) are
#: the same every time, and these seeds give Red every one of those moves (found by playing
#: the same game in the core, without the server: Red as the Tapper, the others medium bots
#: seeded as the server seeds them).
SEEDS = {"standard": 1, "teams": 0, "points": 0}
#: The moves each whole game makes by tapping.
WANTED = {
    "standard": {"split", "swap", "sorry"},
    "teams": {"split", "swap", "sorry"},
    "points": {"split", "swap", "sorry", "discard"},
}


def seated(server: ServerProcess, browser: Any, variant: str, seats: dict[str, str]) -> Any:
    """A whole game from the start (seeded: SEEDS) with Red invited (the person) and medium
    bots elsewhere; Red's page, seated."""
    g = preset_game(
        server.database,
        None,
        base=server.base,
        variant=variant,
        seats=seats,
        seed=SEEDS[variant],
        name=variant,
    )
    page = open_seat(browser, g["links"]["R"])  # no walks: quicker
    return page, g["id"]


def pawn_places(page: Any) -> dict[str, list[str]]:
    places: dict[str, list[str]] = page.evaluate(
        """() => { const out = {};
        for (const p of document.querySelectorAll('.pawn')) {
          (out[p.dataset.colour] = out[p.dataset.colour] || []).push(p.dataset.loc); }
        for (const k in out) out[k].sort(); return out; }"""
    )
    return places


def test_standard_game_by_tapping_then_replay(server: ServerProcess, browser: Any) -> None:
    page, gid = seated(server, browser, "standard", {"R": "invite", "Y": "bot:medium"})
    errors = watch_errors(page)
    spectator = context(browser).new_page()
    spectator.goto(f"{server.base}/g/{gid}")
    spectator.wait_for_function("() => document.body.dataset.role === 'spectator'")
    tapper = Tapper(page)
    turns = 0
    while tapper.turn():
        turns += 1
        if turns == 8:
            shot(page, "game-standard-phone")
        assert spectator.locator("#moves .move, .pawn.movable, .dest").count() == 0
    assert WANTED["standard"] <= tapper.kinds, tapper.kinds
    page.wait_for_selector("#over-panel:not([hidden])")
    assert "won" in page.inner_text("#result")
    assert page.locator("#moves-panel").is_hidden() or page.locator("#moves .move").count() == 0
    log_count = page.locator("#log li").count()
    assert log_count > 20
    # the log is numbered by sequence number at every width (the 100th move keeps its digits)
    numbers = page.eval_on_selector_all("#log li .n", "els => els.map(e => e.textContent)")
    assert numbers[-1] == str(log_count)
    clipped = page.evaluate(
        """() => { const box = document.getElementById('log').getBoundingClientRect();
        return [...document.querySelectorAll('#log li .n')].filter(n => {
          const r = n.getBoundingClientRect(); return r.left < box.left - 0.5
            || n.scrollWidth > n.clientWidth + 0.5; }).map(n => n.textContent); }"""
    )
    assert clipped == []  # every digit on screen
    # the replay: board, log, status and move in step, step by step and by jumps
    with urllib.request.urlopen(f"{server.base}/api/games/{gid}/replay", timeout=180) as r:
        frames = json.loads(r.read())["frames"]
    page.tap("#replay-btn")
    page.wait_for_function("() => document.body.dataset.replayAt === '0'", timeout=180000)
    assert page.locator("#log li").count() == 0
    assert pawn_places(page) == {c: sorted(v) for c, v in frames[0]["view"]["pawns"].items()}
    for i in (1, 2, 3):
        page.tap("#replay-next")
        page.wait_for_function(f"() => document.body.dataset.replayAt === '{i}'")
        assert page.locator("#log li").count() == i
        want = {c: sorted(v) for c, v in frames[i]["view"]["pawns"].items()}
        assert pawn_places(page) == want
        entry = frames[i]["entry"]
        said_as_pass = (
            entry["move"] == "pass"
            and entry["card"]
            and (entry["actor"] == "forced" or entry["card"] != "11")
        )
        if said_as_pass:  # the page says a pass with its card, in its own words
            assert "the turn passes" in page.inner_text("#replay-move"), entry
        else:
            assert entry["text"] in page.inner_text("#replay-move")
        assert "Replay" in page.inner_text("#status")
    shot(page, "replay-phone")
    page.tap("#replay-last")
    last = len(frames) - 1
    page.wait_for_function(f"() => document.body.dataset.replayAt === '{last}'")
    assert "won" in page.inner_text("#status")
    page.tap("#replay-play")  # play from the start, then pause
    page.wait_for_function("() => Number(document.body.dataset.replayAt) >= 2", timeout=5000)
    page.tap("#replay-play")
    at = body(page, "replayAt")
    page.wait_for_timeout(1200)
    assert body(page, "replayAt") == at  # paused
    page.tap("#replay-close")
    page.wait_for_selector("#replay-panel", state="hidden")
    assert not errors


def test_teams_game_by_tapping(server: ServerProcess, browser: Any) -> None:
    page, _gid = seated(
        server,
        browser,
        "teams",
        {"R": "invite", "B": "bot:medium", "Y": "bot:medium", "G": "bot:medium"},
    )
    errors = watch_errors(page)
    page.wait_for_selector(".seat")
    seats = page.inner_text("#seats")
    assert "partner: Yellow" in seats and "partner: Green" in seats
    assert "Teams: Red and Yellow against Blue and Green" in seats
    shot(page, "game-teams-phone")
    tapper = Tapper(page)
    tapper.whole_game()
    assert "won" in page.inner_text("#result")
    assert WANTED["teams"] <= tapper.kinds, tapper.kinds
    assert not errors


def test_points_game_by_tapping_card_first(server: ServerProcess, browser: Any) -> None:
    """A whole points game, the card tapped first, a dead hand's discard among the taps (and
    from a preset position in test_dead_hand_discard_from_a_preset_position)."""
    page, _gid = seated(server, browser, "points", {"R": "invite", "B": "bot:medium"})
    errors = watch_errors(page)
    tapper = Tapper(page)
    turns = 0
    while tapper.turn():
        turns += 1
        if turns == 3:
            assert page.locator("#hand .card").count() >= 1
            shot(page, "game-points-phone")
        # the Sorry! card has one name in the hand, the moves and the log
        assert "[S]" not in page.inner_text("#log") and "[S]" not in page.inner_text("#moves")
    assert "points" in page.inner_text("#seats") or page.locator("#scores").is_visible()
    assert WANTED["points"] <= tapper.kinds, tapper.kinds
    # the replay reveals every hand, in step with the board and the card
    with urllib.request.urlopen(f"{server.base}/api/games/{_gid}/replay", timeout=180) as r:
        frames = json.loads(r.read())["frames"]
    page.tap("#replay-btn")
    page.wait_for_function("() => document.body.dataset.replayAt === '0'", timeout=180000)
    for i in (1, 2, 3, len(frames) // 2):
        if i > 3:
            page.evaluate(
                f"""() => {{ const r = document.getElementById('replay-range');
                r.value = '{i}'; r.dispatchEvent(new Event('input')); }}"""
            )
        else:
            page.tap("#replay-next")
        page.wait_for_function(f"() => document.body.dataset.replayAt === '{i}'")
        frame = frames[i]
        for colour, hand in frame["hands"].items():
            shown = page.inner_text(f'.seat[data-colour="{colour}"] .revealed')
            want = " ".join("Sorry!" if c == "S" else c for c in hand)
            assert shown == f"hand: {want}", (i, colour)
        played = frame["view"]["discard_pile"][-1]
        card = page.text_content(".centre-card .card-number")
        assert card == ("Sorry!" if played == "S" else played), i
        assert page.locator("#log li").count() == i
    shot(page, "replay-points-phone")
    assert not errors


def test_dead_hand_discard_from_a_preset_position(server: ServerProcess, browser: Any) -> None:
    """Points, a dead hand: every Red pawn in START and no 1, 2 or Sorry! to take one out.
    The page says so; the card tapped (the second of two 5s, and only it, is chosen) and then
    its Discard button discard it; the log says so and the hand is refilled."""
    g = preset_game(
        server.database,
        "R:S,S,S,S Y:S,S,S,4 R",
        base=server.base,
        variant="points",
        hands={"R": "3 5 5 8 10"},
    )
    page = open_seat(browser, g["links"]["R"])
    errors = watch_errors(page)
    page.wait_for_selector("#hand .card")
    assert "discard" in page.inner_text("#prompt")
    assert page.locator(".pawn.movable").count() == 0
    fives = page.locator('#hand .card[data-card="5"]')
    assert fives.count() == 2
    fives.nth(1).tap()
    page.wait_for_selector('#choices button[data-move="discard:5"]')
    pressed = page.eval_on_selector_all(
        "#hand .card", "els => els.map(e => e.getAttribute('aria-pressed'))"
    )
    assert pressed == ["false", "false", "true", "false", "false"]
    assert page.locator("#hand .card.selected").count() == 1
    fives.nth(0).tap()  # the other 5: the choice moves to it
    page.wait_for_function(
        "() => document.querySelectorAll('#hand .card')[1].getAttribute('aria-pressed') === 'true'"
    )
    assert page.locator("#hand .card.selected").count() == 1
    button = page.locator('#choices button[data-move="discard:5"]')
    assert "5" in button.inner_text() and button.bounding_box()["height"] >= 44
    shot(page, "points-dead-hand-phone")
    button.tap()
    page.wait_for_function("() => document.body.dataset.seq !== '0'")
    page.wait_for_function("() => document.querySelector('#log li[data-seq=\"1\"]')")
    assert "5" in page.inner_text('#log li[data-seq="1"]')
    assert "discard" in page.inner_text('#log li[data-seq="1"]')
    assert not errors


TAPS = {
    # a 7 split: the pawn on 10 four squares, then the pawn on 20 the other three
    "split": (
        "R:S,S,10,20 Y:S,S,30,40 R",
        "7",
        [
            '.pawn[data-loc="10"]',
            '.dest[data-place="14"]',
            '.pawn[data-loc="20"]',
            '.dest[data-place="23"]',
        ],
        {"R": ["14", "23", "S", "S"], "Y": ["30", "40", "S", "S"]},
    ),
    # an 11 swap: the pawn on 10, then the Yellow pawn on 30 to swap with
    "swap": (
        "R:S,S,10,20 Y:S,S,30,40 R",
        "11",
        ['.pawn-R[data-loc="10"]', '.pawn-Y[data-loc="30"]'],
        {"R": ["20", "30", "S", "S"], "Y": ["10", "40", "S", "S"]},
    ),
    # a Sorry!: the pawn it takes (a pawn comes out of START by itself)
    "sorry": (
        "R:S,S,S,S Y:S,S,30,40 R",
        "S",
        ['.pawn-Y[data-loc="30"]'],
        {"R": ["30", "S", "S", "S"], "Y": ["40", "S", "S", "S"]},
    ),
}


@pytest.mark.parametrize("kind", list(TAPS))
def test_split_swap_and_sorry_by_tapping(server: ServerProcess, browser: Any, kind: str) -> None:
    """From a preset position, the move is made by tapping exactly the pawns and squares a
    player would, and the board shows the position the server reached."""
    position, card, taps, after = TAPS[kind]
    g = preset_game(
        server.database, position, base=server.base, card=card, seats={"R": "invite", "Y": "invite"}
    )
    page = open_seat(browser, g["links"]["R"])
    errors = watch_errors(page)
    for i, target in enumerate(taps):
        page.locator(target).tap(timeout=10000)
        if i == 1 and kind == "split":
            # half-way: the first pawn's square is marked, the second pawn is asked for
            page.wait_for_selector('.planned-pawn[data-place="14"]')
            assert "second pawn" in page.inner_text("#prompt")
            assert page.locator(".pawn.movable").count() == 1
            check_sizes(page, "phone")
            shot(page, "split-phone")
        if i == 0 and kind == "swap":
            # your pawn chosen: where it can go, and the pawns it can swap with
            assert page.locator(".pawn-Y.takeable").count() == 2
            check_sizes(page, "phone")
            shot(page, "swap-phone")
    page.wait_for_function("() => document.body.dataset.seq === '1'")
    assert pawn_places(page) == {c: sorted(v) for c, v in after.items()}
    assert page.locator('#log li[data-seq="1"]').count() == 1
    assert not errors


def test_two_moves_with_the_same_taps_are_asked_which(server: ServerProcess, browser: Any) -> None:
    """An 11 from 10 lands on the Yellow pawn on 21: it bumps it, or swaps with it. The same
    taps (the pawn, then 21) make both, so the page asks which, in words; the swap is sent."""
    g = preset_game(
        server.database,
        "R:S,S,S,10 Y:S,S,S,21 R",
        base=server.base,
        card="11",
        seats={"R": "invite", "Y": "invite"},
    )
    page = open_seat(browser, g["links"]["R"])
    errors = watch_errors(page)
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
    page.locator('.pawn-R[data-loc="10"]').tap()
    page.locator('.pawn-Y[data-loc="21"]').tap()
    buttons = page.locator("#choices button")
    buttons.first.wait_for()
    assert sorted(buttons.evaluate_all("bs => bs.map(b => b.dataset.move)")) == [
        "R10+11",
        "R10<>Y21",
    ]
    words = buttons.all_inner_texts()
    assert any("bumps" in w for w in words) and any("swaps" in w for w in words), words
    assert body(page, "seq") == "0"  # nothing sent before the choice
    check_sizes(page, "phone")
    shot(page, "which-phone")
    page.locator('#choices button[data-move="R10<>Y21"]').tap()
    page.wait_for_function("() => document.body.dataset.seq === '1'")
    assert pawn_places(page) == {"R": ["21", "S", "S", "S"], "Y": ["10", "S", "S", "S"]}
    assert not errors
