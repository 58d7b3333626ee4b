"""Learning the game while playing, in Chromium (Debian's, through Playwright) against ``sorry
serve``: moves named the way a player sees the board (the log, the line by the board, the list
of moves) with their squares marked on the board when the line is tapped or pointed at; the
rules page in the page's language; the cards of the hand saying what they do; the new-game
form's Create on screen without scrolling. Sizes asserted (text of 10 CSS px at least, tap
targets of 44 px, nothing scrolling sideways), axe-core on the new screens in both themes. Set
SORRY_SCREENSHOTS=DIR to keep the screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    axe_violations,
    body,
    check_sizes,
    context,
    preset_game,
    shot,
    start_server,
    watch_errors,
)

from server_helpers import ServerProcess
from sorry.cards import parse_card
from sorry.describe import card_help
from sorry.howto import blocks, card_rule
from sorry.i18n import translation, using

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Red's 5 takes its pawn from 53 to 58: four squares before Red's own Safety Zone (and with
#: a pawn on 20 too, Red has a move with every card next turn: nothing passes by itself while
#: the test taps).
POSITION = ("R:S,S,20,53 Y:S,S,S,40 R", "5")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = start_server(tmp_path_factory.mktemp("words"), "--show-moves", "0.3")
    try:
        yield s
    finally:
        s.stop()


def font_px(page: Any, selector: str) -> float:
    """The smallest font size (CSS px) of the elements ``selector`` finds."""
    size: float = page.eval_on_selector_all(
        selector, "els => Math.min(...els.map(e => parseFloat(getComputedStyle(e).fontSize)))"
    )
    return size


def seated(server: ServerProcess, browser: Any, viewport: str, lang: str = "en") -> Any:
    g = preset_game(server.database, POSITION[0], base=server.base, card=POSITION[1])
    ctx = context(browser, viewport, locale=lang, extra_http_headers={"Accept-Language": lang})
    page = ctx.new_page()
    page.goto(g["links"]["R"])
    page.wait_for_selector("#join-btn")
    page.tap("#join-btn") if viewport != "desktop" else page.click("#join-btn")
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
    page.wait_for_selector('#moves .move[data-move="R53+5"]', state="attached")
    return page


@pytest.mark.parametrize(("viewport", "lang"), [("phone", "en"), ("phone", "el")])
def test_the_log_names_squares_as_a_player_sees_them_and_marks_them(
    server: ServerProcess, browser: Any, viewport: str, lang: str
) -> None:
    tr = translation(lang)
    page = seated(server, browser, viewport, lang)
    errors = watch_errors(page)
    mine = tr.ngettext(
        "{n} square before your Safety Zone", "{n} squares before your Safety Zone", 4
    ).format(n=4)
    # the list of moves says it before the move is made
    listed = page.locator('#moves .move[data-move="R53+5"]').text_content() or ""
    assert listed.endswith(f"({mine})"), listed
    page.evaluate("() => document.querySelector('#moves .move[data-move=\"R53+5\"]').click()")
    page.wait_for_selector('#log li[data-seq="1"]', state="attached")
    line = page.locator('#log li[data-seq="1"]')
    assert f"53 → 58 ({mine})" in (line.text_content() or "")
    # the line by the board says the same; it names Yellow's squares after Yellow's move
    page.wait_for_function(
        """() => { const d = document.body.dataset;
          return Number(d.seq) >= 2 && d.myTurn === 'yes' && d.following === 'no'
            && document.querySelectorAll('#log li').length === Number(d.seq); }""",
        timeout=30000,
    )
    happened = page.inner_text("#happened")
    assert happened and "(" in happened, happened
    # a tap on the log's line marks where the pawn came from and where it went
    line.scroll_into_view_if_needed()
    line.tap()
    assert page.get_attribute("#board svg", "data-spots") == "R:53:58"
    assert page.locator("#spots circle.spot-to").count() == 1
    assert page.locator("#spots circle.spot-from").count() == 1
    line.tap()  # a second tap clears them
    assert page.locator("#spots circle").count() == 0
    # the line by the board: tapped, it marks the last move
    page.locator("#happened").scroll_into_view_if_needed()
    page.tap("#happened")
    spots = page.get_attribute("#board svg", "data-spots") or ""
    assert spots.startswith("Y:"), spots
    assert font_px(page, "#log li span") >= 10 and font_px(page, "#happened") >= 10
    check_sizes(page, viewport)
    shot(page, f"words-log-{viewport}-{lang}")
    assert not errors


def test_a_mouse_pointing_at_a_line_marks_its_squares(server: ServerProcess, browser: Any) -> None:
    page = seated(server, browser, "desktop")
    page.evaluate("() => document.querySelector('#moves .move[data-move=\"R53+5\"]').click()")
    page.wait_for_selector('#log li[data-seq="1"]')
    page.hover('#log li[data-seq="1"]')
    assert page.get_attribute("#board svg", "data-spots") == "R:53:58"
    page.mouse.move(1, 1)
    assert page.locator("#spots circle").count() == 0


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_rules_page(server: ServerProcess, browser: Any, lang: str, scheme: str) -> None:
    """From the lobby's link, in the page's language, readable on a phone, no serious axe
    violation in either theme."""
    ctx = context(
        browser,
        "phone",
        locale=lang,
        color_scheme=scheme,
        extra_http_headers={"Accept-Language": lang},
    )
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.wait_for_selector("#quick-level option", state="attached")
    page.tap("#quick .rules-link a")
    page.wait_for_selector("#rules-page h2")
    page.wait_for_load_state("load")  # its stylesheets too: sizes before them are wrong
    with using(lang):
        said = blocks()
    assert page.inner_text("#rules-page h2 >> nth=0") == said[0][1]
    assert page.locator("#rules-page li").count() == sum(1 for k, _ in said if k == "li")
    assert font_px(page, "#rules-page p, #rules-page li") >= 14
    check_sizes(page, "phone", board=False)
    assert axe_violations(page) == []
    shot(page, f"rules-{lang}-{scheme}")
    page.tap("#rules-page a.button")  # back to play
    page.wait_for_selector("#quick-btn")
    assert not errors


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_create_is_on_screen_without_scrolling(
    server: ServerProcess, browser: Any, viewport: str
) -> None:
    """The new-game form's Create game is on screen when the lobby opens, uncovered; the form's
    defaults make a game that starts when the invited friend comes."""
    page = context(browser, viewport).new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.wait_for_selector("#seat-Y option", state="attached")
    box = page.locator("#create-btn").bounding_box()
    height = page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    on_top = page.evaluate(
        """() => { const b = document.getElementById('create-btn').getBoundingClientRect();
          return document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2).id; }"""
    )
    assert on_top == "create-btn"
    assert page.input_value("#start-mode") == "full"
    assert page.input_value("#seat-B") == "invite"
    check_sizes(page, viewport, board=False)
    shot(page, f"create-visible-{viewport}")
    page.fill("#host-name", "Ann")
    page.click("#create-btn")
    page.wait_for_selector("#room:not([hidden]) .invite-link")
    assert body(page, "started") == "no"
    assert not errors


def test_each_card_of_the_hand_says_what_it_does(server: ServerProcess, browser: Any) -> None:
    g = preset_game(
        server.database,
        "R:S,S,S,4 Y:S,S,S,34 R",
        base=server.base,
        variant="points",
        hands={"R": "1 4 7 11 S", "Y": "2 3 5 8 10"},
    )
    page = context(browser, "phone").new_page()
    errors = watch_errors(page)
    page.goto(g["links"]["R"])
    page.wait_for_selector("#join-btn")
    page.click("#join-btn")
    page.wait_for_selector("#hand .card")
    words = page.eval_on_selector_all(
        "#hand .card",
        "els => els.map(e => [e.dataset.card, e.querySelector('.card-words').textContent])",
    )
    assert [w for _, w in words] == [card_help(parse_card(c)) for c, _ in words]
    assert font_px(page, "#hand .card .card-words") >= 10
    # the card chosen, in its sentence of the rules (the rules page's); each card's on hover
    assert page.inner_text("#card-rule") == ""
    titles = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.title)")
    assert titles == [card_rule(parse_card(c)) for c, _ in words]
    page.tap('#hand .card[data-card="7"]')
    page.wait_for_function("() => document.getElementById('card-rule').textContent")
    assert page.inner_text("#card-rule") == card_rule(7)
    assert font_px(page, "#card-rule") >= 10
    check_sizes(page, "phone")
    page.locator("#hand").scroll_into_view_if_needed()
    shot(page, "hand-words-phone")
    assert not errors


@pytest.mark.parametrize(("viewport", "lang"), [("phone", "en"), ("phone-landscape", "el")])
def test_the_card_drawn_says_what_it_does_in_its_sentence_of_the_rules(
    server: ServerProcess, browser: Any, viewport: str, lang: str
) -> None:
    """At the player's turn the card drawn is said in full under the board (beside it on a
    landscape phone), on screen with the board, 10 CSS px at least."""
    page = seated(server, browser, viewport, lang)
    errors = watch_errors(page)
    with using(lang):
        assert page.inner_text("#card-rule") == card_rule(5)
    assert font_px(page, "#card-rule") >= 10
    box = page.locator("#card-rule").bounding_box()
    w, h = page.viewport_size["width"], page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= h, box
    assert box["x"] + box["width"] <= w
    check_sizes(page, viewport)
    shot(page, f"card-rule-{lang}-{viewport}")
    # played: nothing to say until the next card of the player's own
    page.locator('#moves .move[data-move="R53+5"]').dispatch_event("click")
    page.wait_for_function(
        "() => document.body.dataset.myTurn !== 'yes'"
        " && document.getElementById('card-rule').textContent === ''"
    )
    assert not errors


def hint_reply(seq: int, lang: str, chances: list[tuple[str, float, float, float, bool]]) -> str:
    """The server's hint message for the position of POSITION, with made-up chances (the
    page's words are under test here, not the estimates: tests/web/test_web_hints.py)."""
    import json

    from sorry import Game
    from sorry.web.bots import words_of
    from sorry.web.protocol import hint_words

    game = Game.from_position(POSITION[0], card=parse_card(POSITION[1]))
    moves = [
        {"move": m, "win": w, "low": lo, "high": hi, "worlds": 400, "tied": tied}
        for m, w, lo, hi, tied in chances
    ]
    with using(lang):  # the words the server makes for the page's language
        text = hint_words(game, chances[0][0])
        words = words_of(moves, rough=False)
    return json.dumps(
        {
            "type": "hint",
            "seq": seq,
            "move": chances[0][0],
            "text": text,
            "moves": moves,
            "words": words,
            "separated": not any(tied for *_, tied in chances),
            "forced": False,
            "rough": False,
            "provisional": False,
        }
    )


@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_hint_in_a_players_words_with_the_figures_on_demand(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    """The hint's sentence, its list (best, as good, not as good) with where the pawns end,
    and the figures under Details, for a hint told apart and for two moves tied; the line
    above the list says the hinted move as the list does."""
    import json

    tr = translation(lang)
    answers = [
        [("R53+5", 0.62, 0.58, 0.66, False), ("R20+5", 0.41, 0.37, 0.45, False)],
        [("R53+5", 0.52, 0.48, 0.56, False), ("R20+5", 0.5, 0.46, 0.54, True)],
    ]

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "hint":  # answered here, with the chances of the test
                ws.send(hint_reply(data["seq"], lang, answers.pop(0)))
            else:
                upstream.send(message)

        ws.on_message(from_page)
        upstream.on_message(lambda message: ws.send(message))

    g = preset_game(server.database, POSITION[0], base=server.base, card=POSITION[1])
    ctx = context(browser, "phone", locale=lang, extra_http_headers={"Accept-Language": lang})
    page = ctx.new_page()
    page.route_web_socket("**/ws/**", route)
    errors = watch_errors(page)
    page.goto(g["links"]["R"])
    page.wait_for_selector("#join-btn")
    page.tap("#join-btn")
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
    mine = tr.ngettext(
        "{n} square before your Safety Zone", "{n} squares before your Safety Zone", 4
    ).format(n=4)
    for case in ("apart", "tied"):
        page.tap("#hint-btn")
        page.wait_for_selector("#hint-list:not([hidden]) .hint-moves li")
        rows = page.eval_on_selector_all(
            "#hint-list .hint-moves li",
            "els => els.map(li => [li.dataset.move, li.querySelector('.tag').textContent,"
            " li.querySelector('.words').textContent])",
        )
        listed = page.locator('#moves .move[data-move="R53+5"]').text_content()
        assert rows[0] == ["R53+5", tr.gettext("best"), listed], rows
        assert rows[0][2].endswith(f"({mine})")
        assert page.inner_text("#hint") == tr.gettext("Hint: {text}").format(text=listed)
        say = page.inner_text("#hint-list .hint-say")
        chance = tr.ngettext("about {n} chance in 10 to win", "about {n} chances in 10 to win", 6)
        if case == "apart":
            assert rows[1][1] == tr.gettext("not as good")
            assert say == tr.gettext("Best: {chance}, better than the others.").format(
                chance=chance.format(n=6)
            )
        else:
            assert rows[1][1] == tr.gettext("as good")
            two = tr.gettext("Best: {chance}; these two are about as good as each other.")
            assert say == two.format(chance=chance.format(n=5))
        # the figures only when asked for
        assert page.locator("#hint-list .hint-figures").is_hidden()
        page.tap("#hint-list .hint-details summary")
        figures = page.locator("#hint-list .hint-figures .chance").all_inner_texts()
        assert figures[0] == ("62% [58–66]" if case == "apart" else "52% [48–56]")
        assert font_px(page, "#hint-list .hint-moves li, #hint-list .hint-say") >= 10
        check_sizes(page, "phone")
        assert axe_violations(page) == []
        page.locator("#hint-list").scroll_into_view_if_needed()
        shot(page, f"hint-words-{case}-{lang}")  # then the same turn's hint asked again
    assert not errors
