"""The command line speaks every language: --lang, LANG/LC_ALL, error messages, plural forms."""

from __future__ import annotations

import pytest

from sorry import i18n
from sorry.cli import main
from sorry.describe import describe
from sorry.errors import SorryError
from sorry.game import Game
from sorry.position import Position

POS = "R:S,S,4,s2 Y:12,33,40,H R"

#: Per language: the game's name, the legend's "Safety Zone", Red, and the word for "card".
EXPECTED = {
    "en": ("Sorry!", "Safety Zone", "Red", "card"),
    "ca": ("Ho sento!", "Zona de seguretat", "Vermell", "carta"),
    "eo": ("Pardonu!", "Sekureca Zono", "Ruĝa", "karto"),
    "el": ("Συγγνώμη!", "Ζώνη Ασφαλείας", "Κόκκινο", "κάρτα"),
    "sw": ("Samahani!", "Eneo Salama", "Nyekundu", "kadi"),
}


@pytest.fixture(autouse=True)
def english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    i18n.set_language("en")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("lang", list(EXPECTED))
def test_help_and_show_in_each_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    name, zone, red, _card = EXPECTED[lang]
    with pytest.raises(SystemExit):
        main(["--lang", lang, "--help"])
    out, _err = capsys.readouterr()
    assert name in out and "--lang" in out
    code, out, _err = run(capsys, "--lang", lang, "show", POS, "--colour", "never")
    assert code == 0 and zone in out and red in out
    assert i18n.get_language() == "en"  # main() leaves the process's language as it was


@pytest.mark.parametrize("lang", list(EXPECTED))
def test_core_errors_in_each_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    _name, _zone, _red, card = EXPECTED[lang]
    code, _out, err = run(capsys, "--lang", lang, "moves", POS, "6")
    assert code == 2 and err.count("\n") == 1 and "'6'" in err and card in err


def test_language_from_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "el_GR.UTF-8")
    code, out, _err = run(capsys, "show", POS, "--colour", "never")
    assert code == 0 and "Ζώνη Ασφαλείας" in out
    monkeypatch.setenv("LC_ALL", "sw_KE.UTF-8")  # LC_ALL wins over LANG
    code, out, _err = run(capsys, "show", POS, "--colour", "never")
    assert "Eneo Salama" in out
    code, out, _err = run(capsys, "--lang", "ca", "show", POS, "--colour", "never")
    assert "Zona de seguretat" in out  # --lang wins over the environment


def test_unknown_language_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "--lang", "fr", "show", POS)
    assert code == 2 and err.startswith("sorry: error: unsupported language")


def test_argparse_messages_translated(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "ca", "moves"])
    _out, err = capsys.readouterr()
    assert "ús: sorry moves" in err and "calen els arguments següents" in err


@pytest.mark.parametrize("lang", list(EXPECTED))
def test_play_plain_in_each_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    name, _zone, _red, _card = EXPECTED[lang]
    code, out, _err = run(
        capsys,
        "--lang",
        lang,
        "play",
        "--plain",
        "--players",
        "2",
        "--seats",
        "random,easy",
        "--seed",
        "3",
        "--colour",
        "never",
    )
    assert code == 0 and name in out.splitlines()[0]
    finished = {
        "en": "wins after",
        "ca": "guanya després de",
        "eo": "venkas post",
        "el": "κερδίζει μετά από",
        "sw": "ameshinda baada ya",
    }
    assert finished[lang] in out


def test_moves_described_in_words() -> None:
    game = Game.from_position("R:S,S,13,s2 B:S,S,S,18 R", card=3)
    move = game.legal_moves[0]
    texts = {}
    for lang in EXPECTED:
        i18n.set_language(lang)
        texts[lang] = describe(game, move)
    i18n.set_language("en")
    assert texts["en"] == "Red moves a pawn from 13 to 16, slides to 19, bumps Blue from 18"
    assert texts["ca"] == (
        "El Vermell mou un peó del 13 al 16, llisca fins al 19, envia el Blau a l'INICI des del 18"
    )
    assert texts["el"] == (
        "Το Κόκκινο μετακινεί ένα πιόνι από το 13 στο 16, γλιστράει στο 19, "
        "διώχνει το Μπλε από το 18"
    )
    assert texts["eo"] == "Ruĝa movas peonon de 13 al 16, glitas al 19, repuŝas Bluan de 18"
    assert texts["sw"].endswith("inarudisha Bluu MWANZO kutoka 18")


def test_plural_forms() -> None:
    try:
        for lang, one, many in [
            ("ca", "té 1 peó", "té 3 peons"),
            ("eo", "havas 1 peonon", "havas 3 peonojn"),
            ("el", "1 πιόνι", "3 πιόνια"),
        ]:
            i18n.set_language(lang)
            with pytest.raises(SorryError, match=one):
                Position(((4,), None, (S := 66,) * 4, None), 0)
            with pytest.raises(SorryError, match=many):
                Position(((4, 5, 6), None, (S,) * 4, None), 0)
    finally:
        i18n.set_language("en")
    assert i18n.translation("el").ngettext("x", "xs", 0) == "xs"
