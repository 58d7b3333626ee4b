"""The page's types (``static/messages.js``), written from the declarations of
:mod:`sorry.web.messages`: ``python -m sorry.web.typegen`` writes the file, ``--check`` says
whether it is up to date (the test suite checks it too)."""

from __future__ import annotations

import json
import sys
import types
import typing
from dataclasses import fields
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, Union

from . import messages
from .messages import CLIENT_PAYLOADS, NAMED, PARTIAL, PARTS, SERVER_MESSAGES, Path_, Payload


def _hints(cls: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(cls, globalns=vars(messages), include_extras=True)


def optional_keys(cls: type[Any]) -> set[str]:
    """The keys of a TypedDict that may be left out (``NotRequired``: with postponed
    annotations the class itself cannot tell)."""
    total = getattr(cls, "__total__", True)
    return {
        k
        for k, tp in _hints(cls).items()
        if typing.get_origin(tp) is NotRequired
        or (not total and typing.get_origin(tp) is not typing.Required)
    }


def js_type(tp: Any) -> str:
    """The JSDoc type of a Python annotation."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        if NAMED in tp.__metadata__:
            return "Path"
        if PARTIAL in tp.__metadata__:
            return f"Partial<{js_type(args[0])}>"
        return js_type(args[0])
    if origin in (NotRequired, typing.Required):
        return js_type(args[0])
    simple = {str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}
    if tp in simple:
        return simple[tp]
    if tp is Any:
        return "any"
    if origin is Literal:
        return " | ".join(json.dumps(a) for a in args)
    if origin in (Union, types.UnionType):
        return " | ".join(js_type(a) for a in args)
    if origin is list:
        inner = js_type(args[0])
        return f"({inner})[]" if " " in inner else f"{inner}[]"
    if origin is tuple:
        return "[" + ", ".join(js_type(a) for a in args) + "]"
    if origin is dict:
        return f"Record<string, {js_type(args[1])}>"
    if typing.is_typeddict(tp):
        return str(tp.__name__)
    raise TypeError(f"no JavaScript type for {tp!r}")


def _doc(tp: Any) -> str:
    """The words of an ``Annotated`` field (inside NotRequired too), or ''."""
    if typing.get_origin(tp) in (NotRequired, typing.Required):
        tp = typing.get_args(tp)[0]
    if typing.get_origin(tp) is Annotated:
        marks = (PARTIAL, NAMED)
        return " ".join(m for m in tp.__metadata__ if isinstance(m, str) and m not in marks)
    return ""


def _typedef(cls: type[Any]) -> str:
    lines = ["/**"]
    doc = " ".join((cls.__doc__ or "").split())
    if doc:
        lines += [f" * {doc}"]
    lines.append(f" * @typedef {{object}} {cls.__name__}")
    optional = optional_keys(cls)
    for name, tp in _hints(cls).items():
        key = f"[{name}]" if name in optional else name
        words = _doc(tp)
        lines.append(f" * @property {{{js_type(tp)}}} {key}" + (f"  {words}" if words else ""))
    lines.append(" */")
    return "\n".join(lines)


def _union(name: str, members: list[str], doc: str) -> str:
    body = "\n *   | ".join(members)
    return f"/**\n * {doc}\n * @typedef {{{body}}} {name}\n */"


def _client_typedef(payload: type[Payload]) -> str:
    hints = _hints(payload)
    parts = [f'type: "{payload.TYPE}"']
    for f in fields(payload):
        tp = hints[f.name]
        if f.name == "seat":  # a colour letter on the wire
            parts.append("seat?: string")
            continue
        optional = f.default is None
        inner = js_type(tp).replace(" | null", "") if optional else js_type(tp)
        parts.append(f"{f.name}{'?' if optional else ''}: {inner}")
    return "{" + ", ".join(parts) + "}"


def javascript() -> str:
    """The text of ``static/messages.js``."""
    head = (
        "// @ts-check\n"
        "// The messages of the game protocol, written by `python -m sorry.web.typegen` from\n"
        "// sorry/web/messages.py (where each is declared): do not edit, write it again."
    )
    out = [
        head,
        "/**\n * " + " ".join(str(typing.get_args(Path_)[2]).split()) + "\n"
        " * @typedef {[string, string, string]} Path\n */",
    ]
    out += [_typedef(part) for part in PARTS]
    out += [_typedef(message) for message in SERVER_MESSAGES.values()]
    out.append(
        _union(
            "ServerMessage",
            [m.__name__ for m in SERVER_MESSAGES.values()],
            "Every message the server sends.",
        )
    )
    out.append(
        _union(
            "ClientMessage",
            [_client_typedef(p) for p in CLIENT_PAYLOADS.values()],
            "Every message a client may send (sorry.web.messages.CLIENT_PAYLOADS).",
        )
    )
    reactions = json.dumps(list(messages.REACTIONS), ensure_ascii=False)
    out.append("/** The reactions a client may send (react). */")
    out[-1] += f"\nexport const REACTIONS = {reactions};"
    return "\n\n".join(out) + "\n"


JS_FILE = Path(__file__).parent / "static" / "messages.js"


def main(argv: list[str] | None = None) -> int:
    """Write ``static/messages.js`` (``--check``: only say whether it is up to date)."""
    argv = sys.argv[1:] if argv is None else argv
    text = javascript()
    if "--check" in argv:
        same = JS_FILE.exists() and JS_FILE.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{JS_FILE} is out of date: python -m sorry.web.typegen")
        return 0 if same else 1
    JS_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {JS_FILE}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
