"""The tutorial's HTTP face (sorry.web.tutorial): each step offers one of the engine's legal
moves with the taps that choose it, the server plays only that move, and every word is in
the five languages."""

from __future__ import annotations

import re
from urllib.parse import quote

from starlette.testclient import TestClient

from sorry.i18n import LANGUAGES
from sorry.tutorial import all_steps


def test_the_whole_tutorial_through_the_api(client: TestClient) -> None:
    n: int | None = 0
    seen = []
    while n is not None:
        step = client.get(f"/api/tutorial/{n}?lang=en").json()
        assert step["step"] == n and step["steps"] == len(all_steps())
        (move,) = step["view"]["legal_moves"]  # one move, with what to tap
        assert move["movers"] and move["paths"]
        if step["first"]:
            assert step["before"] == []
        else:  # the opponent's turns since the learner's move, each with its walk
            for entry in step["before"]:
                assert entry["colour"] == "Y" and entry["text"] and entry["paths"]
                assert set(entry["pawns"]) == {"R", "Y"}
        played = client.get(f"/api/tutorial/{n}/play?move={quote(move['move'])}&lang=en").json()
        assert played["last"]["move"] == move["move"] and played["last"]["effects"]
        assert played["done"] and played["view"]["legal_moves"] == []
        seen.append((step["part"], move["move"]))
        n = played["next"]
    assert seen[0] == ("standard", "RS>4") and seen[-1] == ("points", "5:Rs1+5")
    assert played["over"] and played["view"]["winners"] == ["R"]
    assert played["view"]["scores"] == {"R": 85, "Y": 5}


def test_a_step_shows_the_opponent_s_turn_before_it(client: TestClient) -> None:
    step = client.get("/api/tutorial/1?lang=en").json()
    assert step["start"] == {"R": ["S", "S", "4", "41"], "Y": ["S", "S", "22", "52"]}
    (yellow,) = step["before"]
    assert (yellow["move"], yellow["card"]) == ("YS>34", "1")
    assert yellow["pawns"]["Y"] == ["S", "22", "34", "52"]
    assert step["view"]["pawns"] == yellow["pawns"] and step["view"]["card"] == "12"
    assert step["title"] == "Slide"


def test_only_the_step_s_move_is_played(client: TestClient) -> None:
    legal_but_not_this = client.get("/api/tutorial/0/play?move=R41%2B1")
    assert legal_but_not_this.status_code == 400
    assert "not the move of this step" in legal_but_not_this.json()["error"]
    assert client.get("/api/tutorial/0/play").status_code == 400
    assert client.get(f"/api/tutorial/{len(all_steps())}").status_code == 404
    assert client.get("/api/tutorial/-1").status_code == 404


def test_every_word_in_the_five_languages(client: TestClient) -> None:
    english: dict[int, tuple[str, ...]] = {}
    for lang in LANGUAGES:
        for p in all_steps():
            step = client.get(f"/api/tutorial/{p.number}?lang={lang}").json()
            move = step["view"]["legal_moves"][0]["move"]
            played = client.get(
                f"/api/tutorial/{p.number}/play?move={quote(move)}&lang={lang}"
            ).json()
            how = step["how"] or {}
            words = (step["title"], step["text"], played["done"], *how.values())
            assert all(w and "{" not in w for w in words), (lang, words)
            if lang == "en":
                english[p.number] = words
            else:  # translated, each of them
                assert all(a != b for a, b in zip(words, english[p.number], strict=True)), words
        page = client.get(f"/learn?lang={lang}")
        assert page.status_code == 200 and "/static/tutorial.js" in page.text
        assert f'<html lang="{lang}"' in page.text
    # how to make the move: a finger taps, a mouse clicks; the step's own words say neither
    how = {n: w[3:] for n, w in english.items() if len(w) > 3}
    assert sorted(how) == [0, 4, 5, 8]
    for tap, click in how.values():
        assert tap.startswith("Tap ") and click.startswith("Click "), (tap, click)
        assert tap.removeprefix("Tap ") == click.removeprefix("Click ")
    assert not [w for w in english.values() if re.search(r"\b(tap|click)", " ".join(w[:3]), re.I)]
    assert "Aprèn a jugar" in client.get("/learn?lang=ca").text
    assert 'href="/learn"' in client.get("/?lang=en").text  # the lobby's link
