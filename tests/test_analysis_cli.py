"""`sorry analyse`: the table, --json, --plot (SVG and PNG), and bad input refused in one line,
agreeing with `sorry verify` on what a valid record is."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from analysis_helpers import record, replace_step
from sorry.analysis.calibration import ProgressEstimator
from sorry.cli import cmd_analyse, main
from sorry.record import GameRecord


@pytest.fixture
def naive(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command with the instant naive estimator (the bookkeeping is what is tested)."""
    monkeypatch.setattr(cmd_analyse, "_estimator", lambda name, against=None: ProgressEstimator())


def saved(tmp_path: Path, rec: GameRecord, name: str = "game.json") -> str:
    path = tmp_path / name
    rec.save(path)
    return str(path)


def test_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """End to end with real rollouts on the default (compiled) engine."""
    path = saved(tmp_path, record("standard", 2, seed=9))
    assert main(["analyse", path, "--rollouts", "2"]) == 0
    out = capsys.readouterr().out
    assert "won after" in out and "(compiled engine)" in out
    assert "start + luck + own moves + others' moves = result" in out
    assert "The luckiest draws:" in out and "The unluckiest draws:" in out
    assert "Red: the cards were worth" in out and "±" in out
    assert out.count("%") >= 4
    assert "Red (easy)" in out and "Yellow (easy)" in out


def test_moves_judged_against_another_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--against learned``: each decision's reference is the learned bot's move (its term 0
    where that move was played), said in the words, and the account still adds up exactly."""
    from sorry.bots import make_bot
    from sorry.rng import Rng, derive_seed

    rec = record("standard", 2, seed=9)
    path = saved(tmp_path, rec)
    assert main(["analyse", path, "--rollouts", "2", "--json", "--against", "learned"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["estimator"]["reference"] == "learned"
    assert data["estimator"]["policy"] == "medium"  # the rollouts are the model's still
    assert any("against the learned bot's moves" in w for p in data["players"] for w in p["words"])
    bot = make_bot("learned")
    differ = 0
    for d in data["decisions"]:
        game = rec.replay(d["step"] - 1)  # the card drawn, the move to make
        assert "RBYG"[game.to_move] == d["colour"]
        seeded = Rng(derive_seed(game.turn, 0x5EF))  # the reference move's seed
        assert d["reference"] == str(bot.choose(game.view(game.to_move), seeded))
        if d["move"] == d["reference"]:
            assert d["term"] == {"R": 0.0, "Y": 0.0}
        differ += d["move"] != d["reference"]
    assert differ > 0  # the easy bots' moves are not all the learned bot's
    for p in data["players"]:
        total = p["start"] + p["luck"] + p["own_decisions"] + p["others_decisions"]
        assert total == pytest.approx(p["result"], abs=1e-9)
    # the default judges against the rollouts' own bot
    assert main(["analyse", path, "--rollouts", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["estimator"]["reference"] == "medium"


def test_json_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str], naive: None) -> None:
    path = saved(tmp_path, record("standard", 2))
    svg, png = tmp_path / "g.svg", tmp_path / "g.png"
    assert main(["analyse", path, "--json", "--plot", str(svg)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "sorry-analysis" and data["estimator"]["judged_from"] == "game"
    # the calibrated model, said: the easy bots' strength for both colours, the log-odds x 0.9
    assert data["estimator"]["temper"] == 0.9
    assert data["estimator"]["strengths"] == {"R": -0.262, "Y": -0.262}
    assert "(their log-odds times 0.9)" in data["method"]
    for p in data["players"]:
        assert p["start"] + p["luck"] + p["decisions"] == pytest.approx(p["result"], abs=1e-9)
        total = p["start"] + p["luck"] + p["own_decisions"] + p["others_decisions"]
        assert total == pytest.approx(p["result"], abs=1e-9)
        assert {"luck_se", "own_decisions_se", "others_decisions_se", "words"} <= set(p)
    assert data["version"] == 2
    assert {"key_decisions", "luckiest_draws", "unluckiest_draws"} <= set(data)
    assert len(data["decisions"]) == data["result"]["turns"]
    assert len(data["points"]) == 1 + len(data["draws"]) + len(data["decisions"])
    root = ET.parse(svg).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == ns + "svg"
    lines = root.findall(f"{ns}polyline")
    assert len(lines) == 2
    assert all(len(x.get("points", "").split()) == len(data["points"]) for x in lines)
    turns = [r for r in root.iter(f"{ns}rect") if r.get("class") == "turn"]
    assert len(turns) == data["result"]["turns"]
    assert main(["analyse", path, "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"graph written to {png}" in capsys.readouterr().out


def test_points_says_how_decisions_are_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], naive: None
) -> None:
    path = saved(tmp_path, record("points", 2))
    assert main(["analyse", path]) == 0
    out = capsys.readouterr().out
    assert "judged from what the player could know" in out
    assert main(["analyse", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["estimator"]["judged_from"] == "view"


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert err.startswith("sorry: error: ") and "\n" not in err and "Traceback" not in err
    return err


def test_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], naive: None) -> None:
    good = saved(tmp_path, record("standard", 2))
    not_json = tmp_path / "x.json"
    not_json.write_text("hello")
    assert main(["analyse", str(not_json)]) == 2
    assert "not a JSON record" in _one_line_error(capsys)
    other = tmp_path / "y.json"
    other.write_text('{"format": "sorry-game"}')
    assert main(["analyse", str(other)]) == 2
    assert "not a game record" in _one_line_error(capsys)
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in _one_line_error(capsys)
    assert main(["analyse", good, "--plot", str(tmp_path / "g.pdf")]) == 2
    assert ".png or .svg" in _one_line_error(capsys)
    assert main(["analyse", good, "--plot", str(tmp_path / "no" / "g.svg")]) == 2
    assert "no such folder" in _one_line_error(capsys)
    assert main(["analyse", good, "--rollouts", "0"]) == 2
    assert "--rollouts" in _one_line_error(capsys)


def test_verify_and_analyse_agree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], naive: None
) -> None:
    rec = record("standard", 2)
    draw = next(i for i, s in enumerate(rec.steps, 1) if s.is_draw and i > 20)
    move = next(i for i, s in enumerate(rec.steps, 1) if not s.is_draw and i > 20)
    cases = {
        "honest": rec,
        "card": replace_step(rec, draw, draw="5" if rec.steps[draw - 1].draw != "5" else "4"),
        "move": replace_step(rec, move, move="pass"),
        "position": replace_step(rec, move, position="R:S,S,S,S Y:S,S,S,S R"),
    }
    for name, case in cases.items():
        path = saved(tmp_path, case, f"{name}.json")
        verified = main(["verify", path])
        capsys.readouterr()
        analysed = main(["analyse", path])
        if verified == 0:
            assert analysed == 0, name
            capsys.readouterr()
        else:
            assert verified == 1 and analysed == 2, name
            assert "the record does not verify" in _one_line_error(capsys)


def test_an_unfinished_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], naive: None
) -> None:
    out = tmp_path / "short.json"
    assert main(["record", "--seed", "3", "--option", "turn_limit=8", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["verify", str(out)]) == 0
    capsys.readouterr()
    assert main(["analyse", str(out)]) == 2
    assert "not finished" in _one_line_error(capsys)


def test_every_png_marker_is_inside_the_plot(naive: None) -> None:
    """A luckiest draw at 100% (the winner's last draw) and an unluckiest at 0% are drawn off
    the line by their offset: the plot's range leaves room for them, and for the mistakes."""
    pytest.importorskip("matplotlib")
    from sorry.analysis import analyse, graph, report

    data = report.to_dict(analyse(record("standard", 2), estimator=ProgressEstimator()))
    marks = graph.marks(data)
    assert {"luckiest", "unluckiest"} <= {m["kind"] for m in marks}
    # the extremes a game reaches: every luck marker at 100% or 0%, every draw a blunder
    for d in data["draws"]:
        d["after"] = {c: 1.0 if c == d["colour"] else 0.0 for c in d["after"]}
    for d in data["decisions"]:
        d["label"] = "blunder"
        d["after"] = {c: 0.0 for c in d["after"]}
    fig = graph.png_figure(data)
    fig.canvas.draw()
    ax = fig.axes[0]
    box = ax.get_window_extent()
    seen = 0
    for coll in ax.collections:
        if not (coll.get_gid() or "").startswith("mark-"):
            continue
        radius = (coll.get_sizes()[0] ** 0.5) / 2 * fig.dpi / 72  # points to pixels
        for x, y in coll.get_offset_transform().transform(coll.get_offsets()):
            seen += 1
            assert box.x0 <= x - radius and x + radius <= box.x1, (coll.get_gid(), x, box)
            assert box.y0 <= y - radius and y + radius <= box.y1, (coll.get_gid(), y, box)
    assert seen >= 4
    import matplotlib.pyplot as plt

    plt.close(fig)
