"""The examples of README.md and docs/*.md, run and compared with what they show.

Three kinds of fenced block are examples:

* a block whose lines start with ``$ ``: shell commands, each followed by the output it shows.
  The commands of one block run one after the other in one scratch folder (a file the first
  writes is there for the second), with ``sorry`` on the PATH and the language set to English;
  what a command prints (standard output and error together, as a terminal shows them) must
  match the lines under it;
* a ``python`` block with ``>>>`` prompts: a doctest, compared the doctest way;
* any other ``python`` block: run in a fresh namespace in a scratch folder; it must not raise.

In the shown output, a line that is only ``...`` or ``[...]`` stands for any number of lines,
and ``[...]`` inside a line for any text. An HTML comment on the line before a block changes how
it is checked:

* ``<!-- example: shape -->``: its figures depend on the machine (a speed, a time): every
  number is compared as *a number*, the words and the layout exactly; ``<!-- example: shape
  TEXT -->`` does so only on the shown lines that contain ``TEXT`` (say ``games/s``), the others
  exactly. The text around such an example must say which figures vary;
* ``<!-- example: skip REASON -->``: not run (the reason is required: a server, a full-screen
  game that waits for keys, ...).

Every other fenced block (a command list without ``$``, a listing, JSON) is not an example.

Run by ``tests/test_docs_examples.py``; by hand, to see every difference at once::

    python tests/docs_examples.py docs/analysis.md README.md

When a change alters what a documented command prints, this fails and shows the output the
command prints now: check that it is right, then copy it into the document (keeping the
``[...]`` elisions).
"""

from __future__ import annotations

import contextlib
import difflib
import doctest
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The documents whose examples the test suite runs.
DOCUMENTS = ("README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")))

COMMAND_TIMEOUT = 600  # seconds, for one documented command

_FENCE = re.compile(r"^(\s*)(```+)\s*([\w+-]*)\s*$")
_MARKER = re.compile(r"^<!--\s*example:\s*(shape|skip)\b\s*(.*?)\s*-->\s*$")
_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")
_ELIDED_LINE = ("...", "[...]")


@dataclass
class Example:
    """One example: where it is, what kind, its text."""

    path: Path
    line: int  # the opening fence's line, from 1
    kind: str  # "shell", "doctest" or "python"
    text: str
    mode: str = "exact"  # "exact", "shape" or "skip"
    reason: str = ""
    commands: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def name(self) -> str:
        try:
            shown = self.path.relative_to(ROOT)
        except ValueError:
            shown = self.path
        return f"{shown}:{self.line}"


class ExampleFailed(AssertionError):
    """A documented example does not do what its document shows."""


def examples(path: Path) -> list[Example]:
    """The examples of one Markdown document, in order."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found: list[Example] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.groups()
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            j += 1
        body = [
            line[len(indent) :] if line.startswith(indent) else line for line in lines[i + 1 : j]
        ]
        text = "\n".join(body) + "\n"
        marker = _MARKER.match(lines[i - 1].strip()) if i > 0 else None
        kind = _kind(lang, body)
        if kind:
            example = Example(path, i + 1, kind, text)
            if marker:
                example.mode, example.reason = marker.group(1), marker.group(2)
                if example.mode == "skip" and not example.reason:
                    raise ExampleFailed(f"{example.name}: `example: skip` needs a reason")
            if kind == "shell":
                example.commands = _commands(body)
            found.append(example)
        elif marker:
            raise ExampleFailed(
                f"{path}:{i + 1}: an `example:` marker on a block that is no example"
            )
        i = j + 1
    return found


def _kind(lang: str, body: list[str]) -> str | None:
    if lang in ("python", "py", "pycon"):
        return "doctest" if any(line.lstrip().startswith(">>> ") for line in body) else "python"
    if lang in ("", "sh", "shell", "console", "bash") and body and body[0].startswith("$ "):
        return "shell"
    return None


def _commands(body: list[str]) -> list[tuple[str, list[str]]]:
    commands: list[tuple[str, list[str]]] = []
    for line in body:
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
    return commands


# -- comparing ------------------------------------------------------------------------------------
def expected_pattern(shown: list[str], shape: bool | str = False) -> re.Pattern[str]:
    """A regular expression for output shown as ``shown`` (see the module's doc); ``shape``:
    numbers compared as numbers, on every line (True) or on the lines containing it (text)."""
    lines = [line.rstrip() for line in shown]
    while lines and not lines[-1]:
        lines.pop()
    parts: list[str] = []
    for line in lines:
        if line.strip() in _ELIDED_LINE:
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pieces = []
        for k, chunk in enumerate(line.split("[...]")):
            if k:
                pieces.append(r".*?")
            pieces.append(_literal(chunk, shape is True or (bool(shape) and str(shape) in line)))
        parts.append("".join(pieces) + r"[ \t]*\n")
    return re.compile("".join(parts), re.DOTALL)


def _literal(text: str, shape: bool) -> str:
    if not shape:
        return re.escape(text)
    out, last = [], 0
    for m in _NUMBER.finditer(text):
        out.append(re.escape(text[last : m.start()]))
        out.append(r"[-+]?\d[\d,]*(?:\.\d+)?")
        last = m.end()
    out.append(re.escape(text[last:]))
    return "".join(out)


def matches(shown: list[str], printed: str, shape: bool | str = False) -> bool:
    """Whether ``printed`` is what ``shown`` shows."""
    text = "\n".join(line.rstrip() for line in printed.rstrip("\n").split("\n")) + "\n"
    if not printed.strip():
        text = ""
    return expected_pattern(shown, shape).fullmatch(text) is not None


# -- running --------------------------------------------------------------------------------------
def _environment(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANGUAGE"))}
    env.update(LANG="C.UTF-8", NO_COLOR="1", COLUMNS="120", PYTHONIOENCODING="utf-8")
    env.pop("SORRY_LANG", None)
    bin_dir = folder / ".bin"
    bin_dir.mkdir(exist_ok=True)
    here = Path(sys.executable).parent
    if (here / "sorry").exists():
        env["PATH"] = f"{here}{os.pathsep}{env.get('PATH', '')}"
    else:  # a Python without the entry point installed: the module stands in for it
        script = bin_dir / "sorry"
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sorry "$@"\n')
        script.chmod(0o755)
        env["PATH"] = f"{bin_dir}{os.pathsep}{here}{os.pathsep}{env.get('PATH', '')}"
    return env


@contextlib.contextmanager
def _scratch() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="sorry-docs-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(example: Example) -> None:
    """Run one example; raise ``ExampleFailed`` saying how it differs from its document."""
    if example.mode == "skip":
        return
    with _scratch() as folder:
        if example.kind == "shell":
            _run_shell(example, folder)
        elif example.kind == "doctest":
            _run_doctest(example, folder)
        else:
            _run_python(example, folder)


def _run_shell(example: Example, folder: Path) -> None:
    env = _environment(folder)
    for command, shown in example.commands:
        try:
            done = subprocess.run(
                ["bash", "-c", command],
                cwd=folder,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=COMMAND_TIMEOUT,
            )
        except subprocess.TimeoutExpired:
            raise ExampleFailed(
                f"{example.name}: `{command}` ran over {COMMAND_TIMEOUT} s"
            ) from None
        if not matches(shown, done.stdout, shape=_shape(example)):
            raise ExampleFailed(_difference(example, command, shown, done.stdout))


def _shape(example: Example) -> bool | str:
    if example.mode != "shape":
        return False
    return example.reason or True


def _difference(example: Example, command: str, shown: list[str], printed: str) -> str:
    diff = "\n".join(
        difflib.unified_diff(
            [line.rstrip() for line in shown],
            printed.rstrip("\n").split("\n"),
            "shown in the document",
            "printed now",
            lineterm="",
        )
    )
    how = "compared exactly"
    if example.mode == "shape":
        lines = f" on the lines with {example.reason!r}" if example.reason else ""
        how = f"numbers compared as numbers{lines}"
    return (
        f"{example.name}: `$ {command}` prints something else than its document shows ({how};"
        f" `...` / `[...]` elide).\n{diff}\n\nWhat it prints now:\n{printed}\n"
        "If the new output is right, copy it into the document (keep the `[...]` elisions);"
        " `python tests/docs_examples.py FILE` runs one document's examples."
    )


def _run_doctest(example: Example, folder: Path) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(example.text, {}, example.name, str(example.path), example.line)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    out: list[str] = []
    runner = doctest.DocTestRunner(optionflags=flags)
    with contextlib.chdir(folder):
        result = runner.run(test, out=out.append, clear_globs=True)
    if result.failed:
        raise ExampleFailed(f"{example.name}: the doctest fails\n" + "".join(out))


def _run_python(example: Example, folder: Path) -> None:
    code = compile(example.text, f"{example.name}", "exec")
    namespace: dict[str, object] = {"__name__": "__docs_example__"}
    with contextlib.chdir(folder), contextlib.redirect_stdout(io.StringIO()):
        try:
            exec(code, namespace)
        except Exception as error:
            raise ExampleFailed(f"{example.name}: the example raises {error!r}") from error


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or [ROOT / d for d in DOCUMENTS]
    failed = 0
    for path in paths:
        for example in examples(path.resolve()):
            try:
                run(example)
            except ExampleFailed as error:
                failed += 1
                print(error, file=sys.stderr)
            else:
                state = f"skipped ({example.reason})" if example.mode == "skip" else "ok"
                print(f"{example.name}: {example.kind}, {state}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
