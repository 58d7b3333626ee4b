"""The analysis is the same in every process: nothing it adds up depends on the order of a set
(Python orders a set of text by the process's hash seed, and a sum in another order differs in
its last digits), so a game analysed in pieces by other processes (the server's workers, the
terminal game's analysis ahead) is the game analysed in one go, to the last bit."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from importlib.util import find_spec
from pathlib import Path

import pytest

from sorry import Game, Rules
from sorry.bots import make_bot
from sorry.record import GameRecord
from sorry.rng import Rng

SCRIPT = textwrap.dedent(
    """
    import sys
    from sorry.analysis import pieces
    from sorry.analysis.account import checked, decision_count
    from sorry.analysis.calibration import game_model
    from sorry.analysis.estimator import CompiledEstimator, PlayoutEstimator
    from sorry.record import GameRecord

    record = checked(GameRecord.load(sys.argv[1]))
    base = CompiledEstimator() if sys.argv[2] == "compiled" else PlayoutEstimator()
    est = game_model(record, base)
    for v in pieces.value(record, est, int(sys.argv[3]), 0, decision_count(record)):
        print(repr((v.after, v.before, v.after_var, v.before_var, v.term_var, v.measured_var)))
    """
)


def a_game(path: Path) -> None:
    """A person who plays a random legal move against the medium bot: many decisions whose
    move is not the bot's, each measured against the bot's equal moves."""
    rng, bot, bot_rng = Rng(1), make_bot("medium"), Rng(1)
    game = Game(Rules(), 2, seed=1)
    while not game.is_over() and game.turn < 60:
        if game.is_chance():
            game.draw()
            continue
        moves = game.legal_moves
        if game.to_move == 0:
            move = moves[rng.below(len(moves))]
        else:
            move = bot.choose(game.view(game.to_move), bot_rng)
        game.push(move)
    while not game.is_over():  # the end: quickly, by the bot for both
        if game.is_chance():
            game.draw()
        else:
            game.push(bot.choose(game.view(game.to_move), bot_rng))
    GameRecord.from_game(game, ["human", "bot:medium"]).save(str(path))


@pytest.mark.parametrize(
    ("engine", "rollouts"),
    [
        pytest.param("python", 2, id="python"),
        pytest.param(
            "compiled",
            8,
            id="compiled",
            marks=pytest.mark.skipif(find_spec("numba") is None, reason="the compiled engine"),
        ),
    ],
)
def test_the_values_do_not_depend_on_the_hash_seed(
    tmp_path: Path, engine: str, rollouts: int
) -> None:
    record = tmp_path / "game.json"
    a_game(record)
    script = tmp_path / "values.py"
    script.write_text(SCRIPT)
    outputs = []
    for hash_seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(
            [sys.executable, str(script), str(record), engine, str(rollouts)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=600,
        )
        outputs.append(done.stdout)
    assert outputs[0].count("\n") > 20
    assert outputs[0] == outputs[1] == outputs[2]
