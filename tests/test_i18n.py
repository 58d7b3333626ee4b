"""Catalogs are complete and correct; languages are chosen as documented; builds compile them."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

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
