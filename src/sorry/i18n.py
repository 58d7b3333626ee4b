"""Languages: gettext catalogs for every string a player sees (standard library only).

The catalogs live in ``sorry/locale/<lang>/LC_MESSAGES/sorry.po`` and are compiled to ``.mo``
files when the package is built (``setup.py``, with Babel). A source checkout without compiled
catalogs (an editable install) reads the ``.po`` files directly, so both give the same text.

>>> tr = translation("ca")
>>> tr.gettext("Sorry!")
'Ho sento!'
>>> normalise("el_GR.UTF-8"), normalise("pt_BR"), normalise("sw")
('el', None, 'sw')
>>> language_from_env({"LANG": "eo.UTF-8"})
'eo'
"""

from __future__ import annotations

import ast
import gettext as _gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Final

#: The languages the game speaks, by code, with their own names.
LANGUAGES: Final = {
    "en": "English",
    "ca": "Català",
    "eo": "Esperanto",
    "el": "Ελληνικά",
    "sw": "Kiswahili",
}
DEFAULT: Final = "en"
DOMAIN: Final = "sorry"
LOCALE_DIR: Final = Path(__file__).with_name("locale")

_current = DEFAULT


def normalise(tag: str | None) -> str | None:
    """The supported language code of a locale or language tag (``el_GR.UTF-8``, ``ca-ES``,
    ``sw``), or None."""
    if not tag:
        return None
    code = tag.replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return code if code in LANGUAGES else None


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, in gettext's order of precedence), or English."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if not value:
            continue
        for tag in value.split(":"):
            code = normalise(tag)
            if code is not None:
                return code
        if var != "LANGUAGE":
            return DEFAULT  # the first locale variable that is set decides (C, POSIX, ...)
    return DEFAULT


def language_from_accept(header: str | None) -> str:
    """The best supported language of an HTTP ``Accept-Language`` header, or English."""
    best: tuple[float, str] | None = None
    for item in (header or "").split(","):
        tag, _sep, params = item.strip().partition(";")
        code = normalise(tag.strip())
        if code is None:
            continue
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if best is None or q > best[0]:
            best = (q, code)
    return best[1] if best is not None and best[0] > 0 else DEFAULT


class _PoTranslations(_gettext.GNUTranslations):
    """A catalog read straight from a ``.po`` file (for source checkouts)."""

    def __init__(self, path: Path) -> None:
        _gettext.NullTranslations.__init__(self)
        self._catalog: dict[str | tuple[str, int], str] = {}
        self.plural = lambda n: int(n != 1)
        entries = parse_po(path.read_text(encoding="utf-8"))
        for msgid, plural, strs, fuzzy in entries:
            if msgid == "" or fuzzy:
                continue
            if plural is None:
                if strs.get(0):
                    self._catalog[msgid] = strs[0]
            else:
                for n, text in strs.items():
                    if text:
                        self._catalog[(msgid, n)] = text
        self._charset = "utf-8"


PoEntry = tuple[str, str | None, dict[int, str], bool]


def parse_po(text: str) -> list[PoEntry]:
    """Entries of a ``.po`` file: (msgid, msgid_plural or None, {index: msgstr}, fuzzy)."""
    entries: list[PoEntry] = []
    msgid: str | None = None
    plural: str | None = None
    strs: dict[int, str] = {}
    fuzzy = False
    field: tuple[str, int] | None = None
    flags_fuzzy = False

    def flush() -> None:
        nonlocal msgid, plural, strs, fuzzy
        if msgid is not None:
            entries.append((msgid, plural, strs, fuzzy))
        msgid, plural, strs, fuzzy = None, None, {}, False

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#,"):
            flags_fuzzy = "fuzzy" in line
            continue
        if line.startswith("#"):
            continue
        if line.startswith("msgid "):
            flush()
            fuzzy = flags_fuzzy
            flags_fuzzy = False
            msgid = _unquote(line[6:])
            field = ("id", 0)
        elif line.startswith("msgid_plural "):
            plural = _unquote(line[13:])
            field = ("plural", 0)
        elif line.startswith("msgstr["):
            n = int(line[7 : line.index("]")])
            strs[n] = _unquote(line[line.index("]") + 1 :].strip())
            field = ("str", n)
        elif line.startswith("msgstr "):
            strs[0] = _unquote(line[7:])
            field = ("str", 0)
        elif line.startswith('"') and field is not None:
            more = _unquote(line)
            kind, n = field
            if kind == "id" and msgid is not None:
                msgid += more
            elif kind == "plural" and plural is not None:
                plural += more
            elif kind == "str":
                strs[n] = strs.get(n, "") + more
    flush()
    return entries


def _unquote(token: str) -> str:
    value = ast.literal_eval(token)
    if not isinstance(value, str):
        raise ValueError(f"bad .po string {token!r}")
    return value


@cache
def translation(lang: str) -> _gettext.NullTranslations:
    """The catalog of a language (English: the messages themselves)."""
    code = normalise(lang) or DEFAULT
    if code == DEFAULT:
        return _gettext.NullTranslations()
    mo = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    po = mo.with_suffix(".po")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fh:
            return _gettext.GNUTranslations(fh)
    if po.exists():
        return _PoTranslations(po)
    return _gettext.NullTranslations()


def set_language(lang: str | None) -> str:
    """Make ``lang`` (a code or locale; None: from the environment) the current language."""
    global _current
    code = normalise(lang) if lang else language_from_env()
    if lang and code is None:
        raise ValueError(f"unsupported language {lang!r} (supported: {', '.join(LANGUAGES)})")
    _current = code or DEFAULT
    return _current


def get_language() -> str:
    return _current


@contextmanager
def using(lang: str | None) -> Iterator[str]:
    """Speak ``lang`` (a supported code; None or unknown: English) inside a ``with`` block,
    then go back to the language before: for servers that answer each client in its own
    language. Not for threads; in asyncio, do not ``await`` inside the block.

    >>> with using("eo"):
    ...     gettext("Sorry!")
    'Pardonu!'
    """
    global _current
    previous = _current
    _current = normalise(lang) or DEFAULT
    try:
        yield _current
    finally:
        _current = previous


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translation(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the current language (its plural rules)."""
    return translation(_current).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it now."""
    return message


_ = gettext
