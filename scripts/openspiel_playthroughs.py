"""Write (or check) the OpenSpiel playthroughs of ``python_sorry`` in tests/data/openspiel/,
made by OpenSpiel's own generator (``open_spiel.python.algorithms.generate_playthrough``) as
for its built-in games: every state of one game with random actions (seeded), its strings,
tensors, legal actions, chance outcomes and returns.

    python scripts/openspiel_playthroughs.py           # (re)write the files
    python scripts/openspiel_playthroughs.py --check   # regenerate and compare (exit 1: differs)

``tests/test_rl_openspiel_playthrough.py`` runs the check. Regenerate after a deliberate change
to the game (its rules, action names, strings or tensors) and review the diff.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from absl import flags

import sorry.rl.openspiel_game  # noqa: F401  (registers python_sorry)

# isort: split
from open_spiel.python.algorithms import generate_playthrough

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "openspiel"

#: file name, OpenSpiel game string, seed of the generator's random actions
PLAYTHROUGHS: tuple[tuple[str, str, int], ...] = (
    ("python_sorry.txt", "python_sorry(players=2)", 2),
    ("python_sorry_teams.txt", "python_sorry(variant=teams)", 2),
    ("python_sorry_points.txt", "python_sorry(players=2,variant=points)", 1),
)


def replay(name: str) -> tuple[str, str]:
    """(the file's text, the same playthrough regenerated now)."""
    if not flags.FLAGS.is_parsed():  # the generator reads an absl flag (action ids)
        flags.FLAGS.mark_as_parsed()
    original, new = generate_playthrough.replay(str(DATA / name))
    return str(original), str(new)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    status = 0
    for name, game_string, seed in PLAYTHROUGHS:
        path = DATA / name
        if args.check:
            original, new = replay(name)
            same = original == new
            print(f"{'same' if same else 'DIFFERENT'}: {path}")
            status |= 0 if same else 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(generate_playthrough.playthrough(game_string, None, seed=seed))
            print(f"wrote {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
