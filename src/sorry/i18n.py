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

Words the code inserts into sentences (colours, places, bot levels) are :class:`Word` values: a
translation asks for another form of one by writing the form's name in brackets before the
placeholder (``[gen]{victim}``, ``[del]{place}``), found in the language's table of forms
(``locale/<lang>/forms.toml``; docs/i18n.md). The placeholder itself stays as the English has
it, so gettext's tools (``msgfmt --check``) check it as usual:

>>> with using("el"):
...     _("{colour} from START takes {victim}'s place on {square}").format(
...         colour=word("red", N_("Red")), victim=word("yellow", N_("Yellow")),
...         square=Word("12", "square", 12))
'Το Κόκκινο βγαίνει από την ΑΦΕΤΗΡΙΑ και παίρνει τη θέση του Κίτρινου στο 12'
"""

from __future__ import annotations

import ast
import gettext as _gettext
import os
import re
import string
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final, Self

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


class _Messages(_gettext.NullTranslations):
    """Translations whose messages are :class:`Message` values (they fill forms)."""

    def gettext(self, message: str) -> str:
        return Message(super().gettext(message))

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return Message(super().ngettext(msgid1, msgid2, n))


class _MoTranslations(_Messages, _gettext.GNUTranslations):
    """A compiled catalog (``.mo``)."""


class _PoTranslations(_Messages, _gettext.GNUTranslations):
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
        return _Messages()
    mo = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    po = mo.with_suffix(".po")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fh:
            return _MoTranslations(fh)
    if po.exists():
        return _PoTranslations(po)
    return _Messages()


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


#: A form's name: two or more letters, the first capital when the form starts a sentence.
#: As a format spec (``{victim:gen}``) it never looks like one of Python's own.
FORM_SPEC: Final = re.compile(r"[A-Za-z][a-z_]+\Z")
#: A form asked for in a translation: ``[gen]{victim}`` (the form's name in brackets, then the
#: placeholder as the English message has it).
FORM_MARK: Final = re.compile(r"\[([A-Za-z][a-z_]+)\]\{(\w+)\}")


class Word(str):
    """A word the code inserts into sentences (a colour, a place, a bot level), in the language
    it was made in, that knows its other forms: ``format(word, "gen")`` (what ``[gen]{x}`` in a
    translation does) is its ``gen`` form from that language's table of forms; a capital first
    letter (``[Gen]{x}``) capitalises the form, for the start of a sentence. Without a form, or
    where the table has no such form (English has none), it is the word itself.

    ``key`` names the word in the tables (``red``, ``start``, ``square``); ``n`` is the number
    of a numbered word (a square): its forms are templates with ``{n}``, and ``square-11`` may
    give its own forms where a language treats that number apart (Catalan elides ``l'11``).
    """

    key: str
    n: int | None
    lang: str
    capitals: bool  # False: inside a sentence, where a capital form is not capitalised
    tag: str  # written after every form: the colour's letter, " (R)"

    def __new__(cls, text: str, key: str, n: int | None = None, lang: str | None = None) -> Self:
        self = super().__new__(cls, text)
        self.key = key
        self.n = n
        self.lang = _current if lang is None else lang
        self.capitals = True
        self.tag = ""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Word, (str(self), self.key, self.n, self.lang))

    def inside(self) -> Word:
        """The word for a clause inside a sentence (after a colon): a form asked for with a
        capital (``[Nom]{colour}``, the start of a sentence) keeps the table's small letter
        (``το Κίτρινο``)."""
        word = Word(str(self), self.key, self.n, self.lang)
        word.capitals, word.tag = False, self.tag
        return word

    def tagged(self, tag: str) -> Word:
        """The word with ``tag`` after it and after each of its forms (``Vermell (R)``,
        ``al Vermell (R)``)."""
        word = Word(str(self)[: len(str(self)) - len(self.tag)] + tag, self.key, self.n, self.lang)
        word.capitals, word.tag = self.capitals, tag
        return word

    def form(self, name: str) -> str:
        """The form ``name`` of the word (``Gen``: the ``gen`` form with a capital)."""
        found = word_form(self.lang, self.key, name.lower(), self.n)
        text = str(self) if found is None else found + self.tag
        capital = name[:1].isupper() and self.capitals
        return text[:1].upper() + text[1:] if capital else text

    def __format__(self, spec: str) -> str:
        if spec and FORM_SPEC.match(spec):
            return self.form(spec)
        return format(str(self), spec)


class Words(Word):
    """Words said together (``Red and Green``, the winners of a team game): a form of the
    whole is that form of each (``[gen]{names}``: ``του Κόκκινου και του Πράσινου``), joined
    by the catalog's own words for a list."""

    parts: tuple[Word, ...]

    def __new__(cls, parts: Sequence[Word], lang: str | None = None) -> Self:
        plain = _series([str(p) for p in parts])
        self = super().__new__(cls, plain, "", None, lang)
        self.parts = tuple(parts)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Words, (self.parts, self.lang))

    def form(self, name: str) -> str:
        rest = name[:1].lower() + name[1:]
        return _series([p.form(name if i == 0 else rest) for i, p in enumerate(self.parts)])


def _series(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: a list in the current language's words."""
    if not items:
        return ""
    text = items[0]
    for i, item in enumerate(items[1:], start=1):
        if i < len(items) - 1:
            text = gettext("{items}, {item}").format(items=text, item=item)
        else:
            text = gettext("{first} and {second}").format(first=text, second=item)
    return text


def enumeration(items: Sequence[str]) -> str:
    """Items one after the other (``a, b, c``: what a label lists), in the current
    language's words (``{items}, {item}``)."""
    text = items[0] if items else ""
    for item in items[1:]:
        text = gettext("{items}, {item}").format(items=text, item=item)
    return text


def word(key: str, message: str, n: int | None = None) -> Word:
    """The word ``message`` (an English message, translated now; ``{n}`` filled from ``n``)
    as a :class:`Word` of the current language that knows its forms by ``key``."""
    text = gettext(message)
    return Word(text.format(n=n) if n is not None else text, key, n)


def words(parts: Iterable[Word]) -> Words:
    """Several words said together: ``Red and Green`` (see :class:`Words`)."""
    return Words(list(parts))


@cache
def forms_table(lang: str) -> Mapping[str, Any]:
    """A language's table of forms (``locale/<lang>/forms.toml``), empty where it has none:
    ``{"forms": {name: what it is for}, "words": {key: {name: text}}}``."""
    path = LOCALE_DIR / lang / "forms.toml"
    if not path.exists():
        return {"forms": {}, "words": {}}
    with path.open("rb") as fh:
        return tomllib.load(fh)


def word_form(lang: str, key: str, name: str, n: int | None = None) -> str | None:
    """The form ``name`` of the word ``key`` (number ``n``) in ``lang``'s table, or None."""
    table: Mapping[str, Mapping[str, str]] = forms_table(lang).get("words", {})
    for k in (f"{key}-{n}", key) if n is not None else (key,):
        found = table.get(k, {}).get(name)
        if found is not None:
            return found.format(n=n) if n is not None else found
    return None


class _Formatter(string.Formatter):
    """``str.format`` that lets a catalog ask for a form of any value: a plain value (a
    player's own name, a number) is shown as it is."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec and FORM_SPEC.match(format_spec) and not isinstance(value, Word):
            return format(value, "")
        return format(value, format_spec)


_FORMATTER: Final = _Formatter()


#: A placeholder asking for a form: ``{victim:gen}`` (what ``[gen]{victim}`` becomes).
FORM_FIELD: Final = re.compile(r"\{[^{}:]*:[A-Za-z][a-z_]+\}")


@lru_cache(maxsize=4096)
def _template(message: str) -> tuple[str, bool]:
    """``message`` with its forms asked as format specs (``[gen]{victim}`` ->
    ``{victim:gen}``), and whether it asks for any: without, ``str.format`` fills it as
    :class:`_Formatter` would (a :class:`Word` formats itself), ten times faster (the server
    words every legal move of every state it sends)."""
    template = FORM_MARK.sub(r"{\2:\1}", message)
    return template, FORM_FIELD.search(template) is not None


class Message(str):
    """A translated message: its :meth:`format` fills ``{name}`` placeholders, and those
    with a form asked for (``[gen]{name}``) with that form of the :class:`Word` given."""

    def format(self, *args: Any, **kwargs: Any) -> str:
        template, forms = _template(str(self))
        if not forms:
            return template.format(*args, **kwargs)
        return _FORMATTER.vformat(template, args, kwargs)


def gettext(message: str) -> str:
    """``message`` in the current language (a :class:`Message`)."""
    return translation(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the current language (its plural rules; a
    :class:`Message`)."""
    return translation(_current).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it now."""
    return message


_ = gettext
