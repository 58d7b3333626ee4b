"""Catalogs are complete and correct; languages are chosen as documented; builds compile them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from sorry import i18n

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "sorry"
LANGS = [code for code in i18n.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\(?\w*\)?[sd]")
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}


def catalog(code: str):  # type: ignore[no-untyped-def]
    with (SRC / "locale" / code / "LC_MESSAGES" / "sorry.po").open("rb") as fh:
        return read_po(fh)


def source_messages() -> set[str]:
    found = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
        str(SRC), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        found.add(message if isinstance(message, str) else message[0])
    return found


@pytest.mark.parametrize("code", LANGS)
def test_catalog_complete_and_not_fuzzy(code: str) -> None:
    cat = catalog(code)
    ids = set()
    for msg in cat:
        if not msg.id:
            continue
        ids.add(msg.id if isinstance(msg.id, str) else msg.id[0])
        assert not msg.fuzzy, f"{code}: fuzzy entry {msg.id!r}"
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        assert all(strings), f"{code}: untranslated {msg.id!r}"
        originals = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        want = sorted(PLACEHOLDER.findall(originals[-1]))
        for s in strings:
            assert sorted(PLACEHOLDER.findall(s)) == want, f"{code}: placeholders in {msg.id!r}"
    missing = source_messages() - ids
    assert not missing, f"{code}: messages not in the catalog: {sorted(missing)[:10]}"


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("ca", "Ho sento!"),
        ("eo", "Pardonu!"),
        ("el", "Συγγνώμη!"),
        ("sw", "Samahani!"),
        ("en", "Sorry!"),
    ],
)
def test_game_name_in_each_language(code: str, name: str) -> None:
    assert i18n.translation(code).gettext("Sorry!") == name


def test_language_choice() -> None:
    assert i18n.language_from_env({"LC_ALL": "ca_ES.UTF-8", "LANG": "el_GR.UTF-8"}) == "ca"
    assert i18n.language_from_env({"LANGUAGE": "de:sw", "LANG": "C"}) == "sw"
    assert i18n.language_from_env({"LANG": "C"}) == "en"
    assert i18n.language_from_env({}) == "en"
    assert i18n.language_from_accept("de-DE,el;q=0.8,eo;q=0.9") == "eo"
    assert i18n.language_from_accept("fr") == "en"
    with pytest.raises(ValueError, match="unsupported language"):
        i18n.set_language("fr")
    try:
        assert i18n.set_language("el_GR") == "el"
        assert i18n.gettext("Sorry!") == "Συγγνώμη!"
    finally:
        i18n.set_language("en")


def test_po_reader_matches_babel() -> None:
    for code in LANGS:
        ours = i18n._PoTranslations(SRC / "locale" / code / "LC_MESSAGES" / "sorry.po")
        for msg in catalog(code):
            if msg.id and not isinstance(msg.id, tuple):
                assert ours.gettext(msg.id) == msg.string


@pytest.mark.slow
def test_built_wheel_has_compiled_catalogs(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for code in LANGS:
        assert f"sorry/locale/{code}/LC_MESSAGES/sorry.mo" in names


#: Every word the code makes with :func:`sorry.i18n.word` (or as a :class:`~sorry.i18n.Word`),
#: by its key in the tables of forms; ``square-N`` may give a square its own forms.
WORD_KEYS = {
    "red",
    "blue",
    "yellow",
    "green",
    "start",
    "home",
    "square",
    "safety",
    *(f"square-{n}" for n in range(60)),
    *(f"safety-{n}" for n in range(1, 6)),
    "random",
    "easy",
    "medium",
    "hard",
    "expert",
    "learned",  # named where an analysis judges moves against it
}
FORM_USE = i18n.FORM_MARK


@pytest.mark.parametrize("code", LANGS)
def test_forms_asked_for_are_in_the_table(code: str) -> None:
    """Each ``[form]{x}`` of a catalog names a form its language's table declares; the words
    of the table give only declared forms, each colour the same ones (a form a word does not
    give is the word as it is)."""
    table = i18n.forms_table(code)
    declared = set(table.get("forms", {}))
    words = table.get("words", {})
    for key, forms in words.items():
        assert key in WORD_KEYS, f"{code}: forms for an unknown word {key!r}"
        assert forms and set(forms) <= declared, f"{code}: {key} has forms {sorted(forms)}"
    colours = [set(words.get(c, {})) for c in ("red", "blue", "yellow", "green")]
    assert all(c == colours[0] for c in colours), f"{code}: the colours' forms differ"
    for msg in catalog(code):
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        for s in strings:
            for form, _name in FORM_USE.findall(s or ""):
                assert form.lower() in declared, f"{code}: [{form}] in {msg.id!r}"


def test_word_keys_are_the_codes() -> None:
    """The keys the tests know are the keys the code makes words with."""
    from sorry.board import COLOUR_KEYS
    from sorry.bots import LEVELS
    from sorry.describe import place_name

    assert set(COLOUR_KEYS) | set(LEVELS) <= WORD_KEYS
    assert {place_name(loc).key for loc in range(67) if loc != 64} <= WORD_KEYS


def test_word_forms_and_tolerant_format() -> None:
    from sorry.board import colour_name, colour_names
    from sorry.describe import place_name

    with i18n.using("ca"):
        assert f"{place_name(11):del} {place_name(13):al}" == "de l'11 al 13"
        assert i18n.Message("[El]{p} mou").format(p=colour_name(0)) == "El Vermell mou"
        team = colour_names([2, 3])
        assert str(team) == "Groc i Verd"
        assert format(team, "del") == "del Groc i del Verd"
        # a form asked of a plain value (a player's own name) shows the value
        assert i18n._("{player} starts.").format(player="Anna") == "Comença Anna."
    with i18n.using("el"):
        assert format(colour_name(2), "Gen") == "Του Κίτρινου"
        assert format(place_name(66), "sto") == "στην ΑΦΕΤΗΡΙΑ"
    with i18n.using("en"):
        assert format(colour_name(1), "acc") == "Blue"  # English has no forms
        # a message asking for no form is filled by str.format, the same words
        m = i18n.Message("{who} moves {n:>2} ({p:.0%})")
        assert m.format(who=colour_name(1), n=5, p=0.25) == "Blue moves  5 (25%)"
    with i18n.using("ca"):
        assert i18n.Message("{0:del} i {0}").format(place_name(11)) == "de l'11 i 11"


@pytest.mark.parametrize("code", LANGS)
def test_msgfmt_check(code: str) -> None:
    """GNU msgfmt's checks (formats, headers, plurals) pass: what translators' tools run."""
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        if os.environ.get("CI"):
            pytest.fail("msgfmt is missing (scripts/install-test-deps.sh installs gettext)")
        pytest.skip("msgfmt (GNU gettext) is not installed")
    po = SRC / "locale" / code / "LC_MESSAGES" / "sorry.po"
    run = subprocess.run(
        [msgfmt, "--check", "-o", os.devnull, str(po)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("code", LANGS)
def test_babel_compile_check(code: str) -> None:
    """Babel's checks (what ``pybabel compile`` and the build run) find no error."""
    from babel.messages.checkers import checkers

    errors = []
    cat = catalog(code)
    for msg in cat:
        if msg.id:
            for checker in checkers:
                try:
                    checker(cat, msg)
                except Exception as e:  # TranslationError
                    errors.append(f"{msg.id!r}: {e}")
    assert not errors, errors[:5]


def glossary(code: str) -> dict[str, Any]:
    with (SRC / "locale" / code / "glossary.toml").open("rb") as fh:
        return tomllib.load(fh)


def glossary_breaches(code: str) -> list[str]:
    """Every message of the catalog that uses a variant its glossary rejects."""
    rules: list[tuple[str, str, str | None]] = []  # (what, pattern, when)
    book = glossary(code)
    rules += [("address and forms", p, None) for p in book.get("avoid", [])]
    for term, entry in book["terms"].items():
        rules += [(term, p, entry.get("when")) for p in entry.get("avoid", [])]
    out = []
    for msg in catalog(code):
        if not msg.id:
            continue
        english = " ".join(msg.id) if isinstance(msg.id, tuple) else msg.id
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        for what, pattern, when in rules:
            if when is not None and not re.search(when, english):
                continue
            for s in strings:
                if re.search(pattern, s or "", re.IGNORECASE | re.MULTILINE):
                    out.append(f"{code}: {what} ({pattern}): {english!r} -> {s!r}")
    return out


@pytest.mark.parametrize("code", LANGS)
def test_catalogs_follow_the_glossary(code: str) -> None:
    """One word for each game term and one form of address in every message, as the
    language's glossary (``locale/<lang>/glossary.toml``) says; its rejected variants are
    nowhere."""
    book = glossary(code)
    assert book["address"]
    for term, entry in book["terms"].items():
        assert entry["use"], f"{code}: {term} has no translation"
    breaches = glossary_breaches(code)
    assert not breaches, "\n".join(breaches)


def test_glossary_terms_are_every_languages() -> None:
    """Each glossary covers the game's terms, and docs/i18n.md shows what each one uses."""
    needed = {"pawn", "card", "deck", "draw pile", "discard pile", "START", "HOME"}
    needed |= {"Safety Zone", "slide", "bump", "swap", "hint", "turn", "match", "record"}
    needed |= {"levels", "game", "bot", "rules"}
    docs = (ROOT / "docs" / "i18n.md").read_text(encoding="utf-8")
    for code in LANGS:
        book = glossary(code)
        assert needed <= set(book["terms"]), f"{code}: {sorted(needed - set(book['terms']))}"
        for term, entry in book["terms"].items():
            assert entry["use"] in docs, f"docs/i18n.md lacks {code} {term}: {entry['use']}"
        assert book["address"] in docs, f"docs/i18n.md lacks the {code} form of address"
