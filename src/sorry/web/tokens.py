"""Seat tokens, host tokens and display names: made, hashed and checked before any use.

Everything a client sends that becomes a token or a name passes through here first, so that a
bad value is a clear refusal (HTTP 400, or a WebSocket ``error`` ``bad_field``), never an
exception further in: a JSON string may hold a lone surrogate (``"\\ud800"``), which no UTF-8
encoder takes.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from typing import Any

from ..board import COLOUR_NAMES

MAX_TOKEN_CHARS = 128
MAX_NAME_CHARS = 24
#: What a token made here looks like (``secrets.token_urlsafe``); anything else is refused
#: before it is hashed or compared.
TOKEN = re.compile(r"^[A-Za-z0-9_-]{1,128}$")
#: Names a spectator may not take: the seats' colours (in the languages the page speaks) and
#: the words the page itself shows for people.
RESERVED_NAMES = frozenset(
    {c.casefold() for c in COLOUR_NAMES}
    | {
        "rot",
        "blau",
        "gelb",
        "grün",
        "rouge",
        "bleu",
        "jaune",
        "vert",
        "rojo",
        "azul",
        "amarillo",
        "verde",
        "κόκκινο",
        "μπλε",
        "κίτρινο",
        "πράσινο",
        "spectator",
        "host",
        "server",
        "admin",
        "system",
        "bot",
        "you",
    }
)


class BadValue(ValueError):
    """A token or name a client sent that is not acceptable (its message says why)."""


def hash_token(token: str) -> str:
    """The SHA-256 of a token already checked by :func:`parse_token` (ASCII)."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def parse_token(value: object, what: str = "token") -> str:
    """A token as a client sent it: a string of 1-128 URL-safe characters (BadValue)."""
    if not isinstance(value, str) or not TOKEN.match(value):
        raise BadValue(f"{what} must be a string of 1-128 characters A-Z a-z 0-9 _ -")
    return value


def has_lone_surrogate(value: Any) -> bool:
    """Whether a decoded JSON value holds, anywhere, a string no UTF-8 encoder takes."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    return False


def clean_name(name: object, fallback: str) -> str:
    """A display name: printable, trimmed, at most 24 characters (BadValue otherwise)."""
    if name is None:
        return fallback
    if not isinstance(name, str):
        raise BadValue("name must be a string")
    text = " ".join(name.split())
    if not text:
        return fallback
    if len(text) > MAX_NAME_CHARS:
        raise BadValue(f"name must be at most {MAX_NAME_CHARS} characters")
    if any(not ch.isprintable() for ch in text):
        raise BadValue("name must be printable text")
    return text


def name_key(name: str) -> str:
    """How two names are compared: compatibility forms folded, case folded, no spaces
    (``Ｒｅｄ``, ``RED`` and ``r e d`` are all ``red``)."""
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


def spectator_name(name: str | None, players: list[str]) -> str | None:
    """A spectator's chosen name, refused (BadValue) when it is a seat colour, a reserved word,
    or the name of a player of the game: a spectator must not pass for a player."""
    if name is None:
        return None
    key = name_key(name)
    letters = "".join(ch for ch in key if ch.isalnum())  # "Red!", "(red)" are "red"
    if key in RESERVED_NAMES or letters in RESERVED_NAMES:
        raise BadValue("that name is reserved for the seats: choose another")
    if {key, letters} & {name_key(p) for p in players}:
        raise BadValue("that name is a player's: choose another")
    return name
