"""The OpenSpiel playthroughs of python_sorry (tests/data/openspiel/, written by OpenSpiel's
own generator through scripts/openspiel_playthroughs.py) regenerate exactly, as OpenSpiel's
playthrough_test checks its built-in games: same strings, tensors, legal actions, action
names, chance outcomes and returns at every state of the recorded game."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    path = ROOT / "scripts" / "openspiel_playthroughs.py"
    spec = importlib.util.spec_from_file_location("openspiel_playthroughs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()


@pytest.mark.parametrize("name", [p[0] for p in SCRIPT.PLAYTHROUGHS])
def test_playthrough_regenerates(name: str) -> None:
    original, new = SCRIPT.replay(name)
    for k, (want, got) in enumerate(zip(original.splitlines(), new.splitlines(), strict=False)):
        assert want == got, (
            f"{name} line {k + 1} differs (regenerate: scripts/openspiel_playthroughs.py)"
        )
    assert original == new


def test_playthroughs_cover_the_variants_and_end() -> None:
    variants = set()
    for name, game_string, _seed in SCRIPT.PLAYTHROUGHS:
        text = (SCRIPT.DATA / name).read_text()
        assert text.startswith(f"game: {game_string}\n")
        assert "IsTerminal() = True" in text
        # a whole game, won (a game stopped by the turn limit would return all zeros)
        returns = re.findall(r"^Returns\(\) = \[(.*)\]$", text, re.MULTILINE)[-1]
        assert sorted(float(x) for x in returns.split(", "))[-1] > 0
        params = re.search(r"^GetParameters\(\) = .*variant=(\w+)", text, re.MULTILINE)
        assert params is not None
        variants.add(params[1])
    assert variants == {"standard", "teams", "points"}
