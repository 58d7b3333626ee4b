"""Resigning in the core, the record and the command line (docs/rules.md, Resigning): a game of
two or teams ends, the other side winning; in a game of three or four the resigner's pawns
leave the board and the others play on; the step is taken back exactly by ``pop``, survives
the engine's JSON and the record's, verifies, replays, and the analysis refuses it in one
line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from sorry import Game
from sorry.errors import GameStateError, NotationError
from sorry.game import Resign
from sorry.record import GameRecord, verify
from sorry.rng import Rng
from sorry.rules import Rules


def played(game: Game, steps: int, rng: Rng) -> Game:
    """``steps`` steps of random play (draws and legal moves), or to the end."""
    for _ in range(steps):
        if game.is_over():
            break
        if game.is_chance():
            game.draw()
        else:
            moves = game.legal_moves
            game.push(moves[rng.below(len(moves))])
    return game


def test_a_game_of_two_ends_and_the_other_wins() -> None:
    g = Game.from_position("R:S,S,12,H Y:S,S,40,s2 R", card=5)
    g.resign(0)
    assert g.is_over() and g.winners == (2,) and g.resigned == (0,)
    assert g.position_string() == "R:S,S,12,H Y:S,S,40,s2 R"  # the pawns stay
    assert g.returns() == [-1.0, 0.0, 1.0, 0.0]
    with pytest.raises(GameStateError):
        g.resign(2)


def test_a_game_of_three_goes_on_without_the_resigners_pawns() -> None:
    g = Game.from_position("R:S,S,12,H B:S,4,20,s1 Y:S,S,40,s2 B", card=5, seed=3)
    discards = len(g.discard_pile)
    g.resign(1)  # Blue, with the 5 drawn: the card is discarded, Yellow draws next
    assert g.position_string() == "R:S,S,12,H Y:S,S,40,s2 Y"
    assert g.colours == (0, 2) and g.players == (0, 1, 2) and g.is_chance()
    assert g.card is None and len(g.discard_pile) == discards + 1 and g.discard_pile[-1] == 5
    assert g.deal_to == 2
    g.resign(0)  # one player left: Yellow wins, the pawns as they were
    assert g.is_over() and g.winners == (2,) and g.resigned == (1, 0)
    assert g.position_string() == "R:S,S,12,H Y:S,S,40,s2 Y"
    assert g.returns() == [-1.0, -1.0, 2.0, 0.0]
    assert str(g.history[-1]) == "resign:R" and g.pop() == Resign(0)


def test_not_the_resigners_turn_nothing_else_changes() -> None:
    g = Game.from_position("R:S,S,12,H B:S,4,20,s1 Y:S,S,40,s2 B", card=5, seed=3)
    g.resign(2)
    assert g.to_move == 1 and g.card == 5 and g.legal_moves
    assert g.position_string() == "R:S,S,12,H B:S,4,20,s1 B"


def test_teams_a_resignation_concedes_for_the_partnership() -> None:
    g = played(Game(Rules(variant="teams"), players=4, seed=9), 20, Rng(1))
    g.resign(3)  # Green: Blue and Green lose
    assert g.is_over() and set(g.winners) == {0, 2}


def test_points_the_winner_is_scored_and_a_hand_is_discarded() -> None:
    g = played(Game(Rules(variant="points"), players=3, seed=4), 30, Rng(2))
    hand = list(g.hands[2])
    pile = len(g.discard_pile)
    g.resign(2)
    assert g.hands[2] == [] and len(g.discard_pile) == pile + len(hand)
    g.resign(1)
    assert g.is_over() and g.winners == (0,) and g.scores is not None and 0 in g.scores


def test_bad_resignations() -> None:
    with pytest.raises(NotationError):
        Resign.parse("resign:X")
    assert Resign.parse(" resign:g ") == Resign(3)
    g = Game(players=2, seed=1)
    with pytest.raises(GameStateError):
        g.resign(1)  # Blue is not playing


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(["standard", "points", "teams"]),
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**32),
    at=st.lists(st.integers(0, 200), min_size=1, max_size=3),
)
def test_pop_takes_a_resignation_back_exactly(
    variant: str, players: int, seed: int, at: list[int]
) -> None:
    """Whenever a resignation comes, pop gives the game before it; the engine's JSON and the
    record round-trip; the record verifies and replays to the game."""
    if variant == "teams":
        players = 4
    g = Game(Rules(variant=variant), players=players, seed=seed)
    rng = Rng(seed)
    for steps in sorted(at):
        played(g, steps - len(g.history) if steps > len(g.history) else 0, rng)
        if g.is_over():
            break
        before = g.snapshot()
        copy = g.copy()
        g.resign(g.colours[rng.below(len(g.colours))])
        copy.resign(g.resigned[-1])
        assert copy == g
        copy.pop()
        assert copy.snapshot() == before
    played(g, 2000, rng)
    assert Game.from_dict(json.loads(g.to_json())) == g
    record = GameRecord.from_game(g)
    text = record.to_json()
    assert GameRecord.from_json(text).to_json() == text
    assert verify(record).ok and record.replay() == g
    assert record.result.resigned == tuple("RBYG"[c] for c in g.resigned)


def _record(players: int = 3) -> GameRecord:
    g = played(Game(players=players, seed=21), 25, Rng(5))
    g.resign(g.colours[-1])
    return GameRecord.from_game(played(g, 3000, Rng(6)), ["human:Ann", *["easy"] * (players - 1)])


def test_a_tampered_resignation_does_not_verify() -> None:
    record = _record()
    data = json.loads(record.to_json())
    at = next(i for i, s in enumerate(data["steps"]) if s.get("resign"))
    data["steps"][at]["colour"] = "G"  # not playing
    result = verify(GameRecord.from_dict(data))
    assert not result.ok and result.step == at + 1
    assert "not in play" in result.problem
    data = json.loads(record.to_json())
    del data["result"]["resigned"]
    result = verify(GameRecord.from_dict(data))
    assert not result.ok and result.at_result


def sorry(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sorry", *args], capture_output=True, text=True, timeout=120
    )


def test_the_command_line_tools_read_a_resigned_record(tmp_path: Path) -> None:
    path = tmp_path / "resigned.json"
    _record(2).save(path)
    done = sorry("verify", str(path))
    assert done.returncode == 0 and "resigned: Yellow" in done.stdout, done
    done = sorry("replay", "--print", str(path))
    assert done.returncode == 0 and "Yellow resigns [resign:Y]" in done.stdout, done.stderr
    assert "End: Red won after" in done.stdout
    done = sorry("analyse", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "sorry: error: Yellow resigned: only a game played to the end can be analysed"
    ]


PLAYERS = ("--seats", "human,easy", "--seed", "11", "--speed", "0", "--save")


def test_the_line_by_line_game_resigns_after_asking(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    done = subprocess.run(
        [sys.executable, "-m", "sorry", "play", "--plain", "--players", "2", *PLAYERS, str(save)],
        input="x\nn\nx\ny\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.count("Resign? (y/n)") == 2
    assert "Red resigns" in done.stdout and "Resigned: Red." in done.stdout
    record = GameRecord.load(save)
    assert record.result.resigned == ("R",) and verify(record).ok
