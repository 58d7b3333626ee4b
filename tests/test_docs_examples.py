"""Every example of README.md and docs/*.md that shows output is run and compared
(``docs_examples.py`` says how examples are written); and the runner itself fails on a document
changed by hand to a wrong figure."""

from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path

import pytest

from docs_examples import DOCUMENTS, ROOT, Example, ExampleFailed, examples, matches, run

ALL = [e for doc in DOCUMENTS for e in examples(ROOT / doc)]


@functools.cache
def _warm_analysis() -> None:
    """Load (on a cold cache: compile) the analysis' numba rollouts once in this process, so
    that a documented `sorry analyse` prints what a second run prints, not the first run's
    compile note, whichever test of the run (or of another worker) came first."""
    if importlib.util.find_spec("numba") is None:
        return
    from sorry.analysis.estimator import CompiledEstimator
    from sorry.game import Game
    from sorry.rules import Rules

    game = Game(Rules(), 2, seed=1)
    while game.is_chance():
        game.draw()
    CompiledEstimator().values([game], 1, 0)


@pytest.mark.parametrize("example", ALL, ids=[e.name for e in ALL])
def test_documented_example(example: Example) -> None:
    if example.mode == "skip":
        pytest.skip(example.reason)
    if any("sorry analyse" in command for command, _ in example.commands):
        _warm_analysis()
    run(example)


def test_the_examples_are_found() -> None:
    """The runner sees the examples the documents have (a parser that found none would pass)."""
    names = {e.name for e in ALL}
    kinds = {e.kind for e in ALL}
    assert kinds == {"shell", "doctest", "python"}
    for doc in ("README.md", "docs/analysis.md", "docs/variants.md", "docs/actions.md"):
        assert any(n.startswith(doc + ":") for n in names), doc
    readme = [e for e in ALL if e.name.startswith("README.md:") and e.kind == "shell"]
    assert readme[0].commands[0][0].startswith("sorry moves ")
    assert len(readme[0].commands[0][1]) == 5  # the five moves of the 7
    assert any(e.mode == "shape" for e in ALL), "no example marked as depending on the machine"


# -- the comparison --------------------------------------------------------------------------------
def test_exact_comparison() -> None:
    assert matches(["a 1", "b 2"], "a 1\nb 2\n")
    assert matches(["a 1", "b 2", ""], "a 1  \nb 2")  # trailing spaces and blank lines
    assert not matches(["a 1", "b 2"], "a 1\nb 3\n")
    assert not matches(["a 1"], "a 1\nb 2\n")  # a line more
    assert not matches(["a 1", "b 2"], "a 1\n")  # a line less
    assert matches([], "")
    assert not matches([], "something\n")


def test_elisions() -> None:
    assert matches(["first", "...", "last"], "first\nx\ny\nlast\n")
    assert matches(["first", "...", "last"], "first\nlast\n")
    assert matches(["first", "[...]"], "first\nx\ny\n")
    assert matches(["total 3 [...]"], "total 3 and more words\n")
    assert not matches(["total 3 [...]"], "total 4 and more words\n")
    assert not matches(["first", "...", "last"], "first\nx\n")


def test_shape_comparison() -> None:
    shown = ["1,000 games in 0.12 s: 8,333.3 games/s", "Red 50.1% [47.0, 53.2]"]
    printed = "1,000 games in 0.31 s: 3,225.8 games/s\nRed 50.1% [47.0, 53.2]\n"
    assert matches(shown, printed, shape=True)
    assert not matches(shown, printed)  # exact: the time differs
    assert not matches(shown, printed.replace("games/s", "games per s"), shape=True)
    assert not matches(shown, printed.replace("Red", "Blue"), shape=True)


# -- a document changed by hand to a wrong figure fails ------------------------------------------
def _mutated(tmp_path: Path, doc: str, old: str, new: str) -> list[Example]:
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert old in text, f"{doc} no longer shows {old!r}: update this test"
    copy = tmp_path / Path(doc).name
    copy.write_text(text.replace(old, new, 1), encoding="utf-8")
    return examples(copy)


def _the_one_with(found: list[Example], text: str) -> Example:
    return next(e for e in found if text in e.text)


def test_a_wrong_figure_in_a_shell_example_fails(tmp_path: Path) -> None:
    found = _mutated(tmp_path, "README.md", "R4+5/Rs2+2 => R:S,S,9,s4", "R4+5/Rs2+2 => R:S,S,9,s3")
    with pytest.raises(ExampleFailed, match=r"README\.md:\d+: `\$ sorry moves") as failure:
        run(_the_one_with(found, "sorry moves"))
    assert "+R4+5/Rs2+2 => R:S,S,9,s4" in str(failure.value)  # the diff shows what it prints


def test_a_wrong_figure_in_the_analysis_example_fails(tmp_path: Path) -> None:
    text = (ROOT / "docs/analysis.md").read_text(encoding="utf-8")
    row = re.search(r"^Red \(medium\) +(\d+)%", text, re.MULTILINE)
    assert row, "docs/analysis.md's example no longer has Red's row"
    wrong = str(int(row.group(1)) + 4)
    found = _mutated(
        tmp_path,
        "docs/analysis.md",
        row.group(0),
        row.group(0)[: -len(row.group(1)) - 1] + wrong + "%",
    )
    with pytest.raises(ExampleFailed, match="sorry analyse"):
        run(_the_one_with(found, "sorry analyse"))


def test_a_wrong_figure_in_a_doctest_fails(tmp_path: Path) -> None:
    found = _mutated(tmp_path, "docs/actions.md", "[41, 44, 60]", "[41, 44, 61]")
    with pytest.raises(ExampleFailed, match="doctest fails"):
        run(_the_one_with(found, "legal_actions"))


def test_a_shape_example_compares_its_figures_as_numbers(tmp_path: Path) -> None:
    """In the example whose speed varies, the speed line's numbers may differ but not its words,
    and the other lines' figures are compared exactly."""
    shaped = next(e for e in ALL if e.mode == "shape")
    assert shaped.reason == "games/s" and shaped.path.name == "statistics.md"
    shown = shaped.commands[0][1]
    speed = next(line for line in shown if "games/s" in line)
    table = next(line for line in shown if line.startswith("Red "))

    def mutated(old: str, new: str) -> Example:
        found = _mutated(tmp_path, "docs/statistics.md", old, new)
        return next(e for e in found if e.mode == "shape")

    run(mutated(speed, re.sub(r"\d", "9", speed)))  # other figures: the same shape
    with pytest.raises(ExampleFailed, match="numbers compared as numbers on the lines with"):
        run(mutated(speed, speed.replace("games/s", "games a second")))
    with pytest.raises(ExampleFailed, match="numbers compared as numbers"):
        run(mutated(table, table.replace("52.8%", "53.8%")))


def test_a_skip_needs_a_reason(tmp_path: Path) -> None:
    doc = tmp_path / "d.md"
    doc.write_text("<!-- example: skip -->\n```python\nprint(1)\n```\n", encoding="utf-8")
    with pytest.raises(ExampleFailed, match="needs a reason"):
        examples(doc)


def test_a_python_block_that_raises_fails(tmp_path: Path) -> None:
    doc = tmp_path / "d.md"
    doc.write_text(
        "```python\nfrom sorry import Game\nGame.from_position('nonsense')\n```\n", encoding="utf-8"
    )
    with pytest.raises(ExampleFailed, match="raises"):
        run(examples(doc)[0])
