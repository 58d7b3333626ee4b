"""Which optional parts are installed is decided in one place (sorry.features), and a command
that misses one says so in one line and uses what is there: here the lighter installs are
imitated in a child process whose numpy and numba (or Textual) cannot be imported
(``sys.modules[name] = None``); tests/test_install_profiles.py installs them for real."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sorry import features

POSITION = "R:S,S,4,s2 Y:12,33,40,H R"

#: A child ``sorry`` whose listed packages cannot be imported (as if not installed).
WITHOUT = (
    "import sys\n"
    "for name in sys.argv[1].split(','):\n"
    "    sys.modules[name] = None\n"
    "from sorry.cli import main\n"
    "raise SystemExit(main(sys.argv[2:]))\n"
)


def sorry_without(
    packages: str, *args: str, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT, packages, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(cwd or Path.cwd())},
    )


def notes(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("sorry: note:")]


def test_every_feature_says_why_it_is_missing_in_one_line() -> None:
    for f in features.every_feature():
        assert f.available == bool(f)
        if f.available:
            assert f.reason == ""
        else:
            assert f.reason and "\n" not in f.reason


def test_a_package_blocked_in_sys_modules_counts_as_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)
    features.installed.cache_clear()
    try:
        engine = features.compiled_engine()
        assert not engine
        assert engine.reason == (
            "the compiled engine: not installed (no numba): pip install 'sorry-engine[fast]'"
        )
        with pytest.raises(features.FeatureMissing, match="no numba"):
            engine.require()
    finally:
        features.installed.cache_clear()


def test_without_numpy_the_compiled_parts_are_missing_not_a_crash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sorry.compiled import aot

    monkeypatch.setitem(sys.modules, "numpy", None)
    features.installed.cache_clear()
    aot.load.cache_clear()
    try:
        assert not features.rollouts_ahead_of_time()
        assert "need numpy" in features.rollouts_ahead_of_time().reason
        assert aot.load() is None
        assert not features.compiled_rollouts()
    finally:
        features.installed.cache_clear()
        aot.load.cache_clear()


def test_hint_without_the_compiled_engine_says_so_and_answers(tmp_path: Path) -> None:
    done = sorry_without("numpy,numba", "hint", POSITION, "7", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert len(notes(done.stderr)) == 1
    assert "hints come from short Python playouts and are rough" in done.stderr
    out = json.loads(done.stdout)
    assert out["engine"] == "python" and len(out["moves"]) == 5


def test_the_expert_without_the_compiled_engine_plays_on_python(tmp_path: Path) -> None:
    rec = tmp_path / "g.json"
    done = sorry_without(
        "numpy,numba",
        "record",
        "--out",
        str(rec),
        "--players",
        "2",
        "--bots",
        "expert,easy",
        "--seed",
        "4",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert notes(done.stderr) == [
        "sorry: note: the compiled engine is not installed: the expert searches with Python "
        "playouts (weaker, about a second a move); pip install 'sorry-engine[fast]' for full "
        "strength"
    ]
    assert rec.is_file()
    # the analysis of that game without the compiled engine: rough, and says so
    done = sorry_without("numpy,numba", "analyse", str(rec), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "rough analysis" in notes(done.stderr)[0]
    lines = done.stdout.splitlines()
    assert lines[1].startswith("Rough analysis (4 rollouts a card): the figures are a guide")
    assert "blunder" not in done.stdout and "accuracy" not in done.stdout
    assert "Mistakes and blunders" not in done.stdout


def test_compile_without_the_compiled_engine(tmp_path: Path) -> None:
    done = sorry_without("numpy,numba", "compile", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "sorry: error: the compiled engine: not installed (no numba, numpy): "
        "pip install 'sorry-engine[fast]'"
    ]
    # make play's call: nothing to do, nothing said
    done = sorry_without("numpy,numba", "compile", "--if-needed", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_plain_play_against_the_expert_without_the_compiled_engine(tmp_path: Path) -> None:
    done = sorry_without(
        "numpy,numba,textual",
        "play",
        "--players",
        "2",
        "--bot",
        "expert",
        "--seed",
        "2",
        stdin="q\n",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert len(notes(done.stderr)) == 1
    assert "Game abandoned." in done.stdout
