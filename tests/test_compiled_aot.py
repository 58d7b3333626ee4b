"""The rollouts compiled ahead of time (sorry.compiled.aot, ``sorry compile``): the same scores as
the code compiled just in time, world by world; never loaded for other sources; and a fresh
``sorry hint`` that uses them without importing numba."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("numba")

import numpy as np

from sorry import Game, Rules
from sorry.compiled import aot
from sorry.compiled.arrays import ViewArrays
from sorry.fast.search import ViewRoot

HINT_POSITION = ["R:S,S,10,s1 Y:20,30,40,S R", "5"]


@pytest.fixture(scope="module")
def compiled() -> Callable[..., None]:
    """The ahead-of-time evaluate_worlds for these sources (built if missing or stale: the
    test install builds it with ``sorry compile``)."""
    fn = aot.load()
    if fn is None:
        from sorry.fast.search import build_ahead

        build_ahead()
        fn = aot.load()
    assert fn is not None, aot.status()
    return fn


def _positions(rules: Rules, seed: int, count: int) -> Iterator[Game]:
    """Positions of a game played by random choices, the player to move each time."""
    import random

    rnd = random.Random(seed)
    g = Game(rules, 4 if rules.teams else rnd.choice([2, 3, 4]), seed=seed)
    seen = 0
    while not g.is_over() and seen < count:
        while g.is_chance():
            g.draw()
        if g.is_over():
            break
        if len(g.legal_moves) > 1:
            seen += 1
            yield g
        g.push(rnd.choice(g.legal_moves))


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(variant="points"),
        Rules(variant="teams"),
        Rules(sorry_forward_4="fallback", swap_slides="both", starting_pawns_out=1, slide_on="all"),
    ],
    ids=["standard", "points", "teams", "options"],
)
def test_the_ahead_of_time_rollouts_score_every_world_as_the_just_in_time_ones(
    rules: Rules, compiled: Callable[..., None]
) -> None:
    compared = 0
    for k, g in enumerate(_positions(rules, seed=40 + len(str(rules)), count=12)):
        view = g.view(g.to_move)
        cands = list(range(len(view.legal_moves)))
        worlds = [k * 1000 + w for w in range(1, 25)]
        depth = 100_000 if k % 2 else 12  # whole games and cut-off rollouts (the leaf value)
        jit = ViewRoot(view).scores(cands, worlds, depth)
        aot = ViewArrays(view, evaluate_worlds=compiled).scores(cands, worlds, depth)
        assert aot.shape == (len(worlds), len(cands))
        np.testing.assert_array_equal(aot, jit, err_msg=g.position_string())
        compared += 1
    assert compared >= 8


def test_a_module_built_from_other_sources_is_not_loaded(
    compiled: Callable[..., None], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = aot.directory()
    monkeypatch.setenv("SORRY_AOT_DIR", str(tmp_path))
    copy = aot.directory()
    shutil.copytree(here, copy, ignore=shutil.ignore_patterns("build-*"))
    aot.load.cache_clear()
    try:
        assert aot.status() == "ready"
        assert aot.load() is not None
        manifest = json.loads((copy / aot.MANIFEST).read_text())
        manifest["sources"] = [*manifest["sources"], "no_such_module.py"]
        (copy / aot.MANIFEST).write_text(json.dumps(manifest))
        aot.load.cache_clear()
        assert aot.status() == "stale"
        assert aot.load() is None
        # compiled for this processor's instructions: not loaded on another
        manifest = json.loads((here / aot.MANIFEST).read_text())
        manifest["processor"] = "another processor"
        (copy / aot.MANIFEST).write_text(json.dumps(manifest))
        aot.load.cache_clear()
        assert aot.status() == "stale"
        assert aot.load() is None
        (copy / aot.MANIFEST).unlink()
        assert aot.status() == "missing"
        # SORRY_AOT=0 turns it off, built or not
        (copy / aot.MANIFEST).write_text((here / aot.MANIFEST).read_text())
        monkeypatch.setenv("SORRY_AOT", "0")
        aot.load.cache_clear()
        assert aot.status() == "ready"
        assert aot.load() is None
    finally:
        aot.load.cache_clear()


def test_the_manifest_names_the_kernels_and_the_rules_but_not_the_command_line(
    compiled: Callable[..., None],
) -> None:
    manifest = json.loads((aot.directory() / aot.MANIFEST).read_text())
    sources = set(manifest["sources"])
    assert {
        "fast/_kernel.py",
        "fast/_loop.py",
        "fast/_policy.py",
        "fast/_search.py",
        "compiled/arrays.py",
    } <= sources
    assert {"board.py", "rulebook.py", "cards.py"} <= sources
    assert not any(s.startswith(("cli/", "web/", "tui/")) for s in sources)


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SORRY_AOT"}
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_a_fresh_sorry_hint_uses_them_without_importing_numba(
    compiled: Callable[..., None],
) -> None:
    code = (
        "import sys, json\n"
        "from sorry.cli import main\n"
        "rc = main(['hint', *sys.argv[1:], '--json'])\n"
        "print(json.dumps({'rc': rc, 'numba': 'numba' in sys.modules}))\n"
    )
    done = _run(code, *HINT_POSITION)
    assert done.returncode == 0, done.stderr
    hint, status = (json.loads(line) for line in done.stdout.strip().splitlines())
    assert status == {"rc": 0, "numba": False}
    assert hint["engine"] == "compiled"
    assert sorted(m["move"] for m in hint["moves"]) == ["R10+5", "Rs1+5"]
    best = hint["moves"][0]
    # the budget counts from the process's start (0.26 s) but is at least 0.1 s of sampling:
    # hundreds of worlds of a two-move position
    assert best["worlds"] >= 100
    assert best["low"] < best["win"] < best["high"]


def test_sorry_compile_status_says_where_the_module_is(compiled: Callable[..., None]) -> None:
    done = _run("import sys; from sorry.cli import main; sys.exit(main(['compile', '--status']))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"built for these sources: {aot.directory()}"


def test_sorry_compile_status_fails_when_the_module_is_missing(tmp_path: Path) -> None:
    env = {**os.environ, "SORRY_AOT_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "sorry", "compile", "--status"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stdout.startswith("not built: run 'sorry compile': ")
    assert str(tmp_path) in done.stdout


def _hint_stderr_on_a_terminal(env: dict[str, str]) -> str:
    """What ``sorry hint`` writes on its standard error when that is a terminal."""
    import pty

    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "sorry", "hint", *HINT_POSITION],
            stdout=subprocess.PIPE,
            stderr=follower,
            env=env,
            timeout=300,
        )
        assert done.returncode == 0
        os.close(follower)
        follower = -1
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed (Linux: EIO once it is drained)
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks).decode()
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)


def test_sorry_hint_tells_a_terminal_of_sorry_compile_only_when_it_is_not_built(
    compiled: Callable[..., None], tmp_path: Path
) -> None:
    base = {k: v for k, v in os.environ.items() if k not in ("SORRY_AOT", "LANGUAGE", "LANG")}
    missing = _hint_stderr_on_a_terminal({**base, "SORRY_AOT_DIR": str(tmp_path)})
    assert "tip: 'sorry compile' makes this command about three times as fast" in missing
    assert "sorry compile" not in _hint_stderr_on_a_terminal(base)
    assert "sorry compile" not in _hint_stderr_on_a_terminal({**base, "SORRY_AOT": "0"})


def test_sorry_compile_does_nothing_when_the_module_is_current(
    compiled: Callable[..., None],
) -> None:
    module = aot.directory() / json.loads((aot.directory() / aot.MANIFEST).read_text())["file"]
    before = module.stat().st_mtime_ns
    done = _run("import sys; from sorry.cli import main; sys.exit(main(['compile']))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"built for these sources: {aot.directory()}"
    assert "compiling" not in done.stderr
    assert module.stat().st_mtime_ns == before
