"""An analysis as text (``sorry analyse``) and as JSON (``--json``, the browser, the server).

Every figure is in percentage points of win probability. The text is in the current language
(:mod:`sorry.i18n`); the JSON keys and values are not translated (``docs/analysis.md`` lists
them).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Final

from ..board import COLOUR_LETTERS, colour_name
from ..cards import card_label, card_name, parse_card
from ..describe import describe
from ..game import Game
from ..i18n import _, ngettext
from ..moves import Move
from ..record import GameRecord
from .account import LABELS, THRESHOLDS, Analysis, Decision, Draw, Swing

FORMAT: Final = "sorry-analysis"
VERSION: Final = 1


def pct(value: float | Fraction) -> str:
    """A probability as whole percent: ``54%``."""
    return f"{round(float(value) * 100)}%"


def points(value: float | Fraction) -> str:
    """A change of probability in signed percentage points: ``+12.5``, ``-3.0``, ``0.0``."""
    v = round(float(value) * 100, 1)
    if v == 0:
        return "0.0"
    return f"{v:+.1f}"


def side_name(analysis: Analysis, colour: int) -> str:
    """A colour's name, or its team's (``Red and Yellow``) in the team game."""
    if analysis.rules.teams:
        a, b = (colour, (colour + 2) % 4) if colour < 2 else ((colour + 2) % 4, colour)
        return _("{a} and {b}").format(a=colour_name(a), b=colour_name(b))
    return colour_name(colour)


def player_name(analysis: Analysis, colour: int) -> str:
    seat = analysis.record.seat_of.get(colour)
    who = colour_name(colour)
    if seat is None or seat.kind == "unknown" or not seat.name:
        return who
    return _("{colour} ({name})").format(colour=who, name=seat.name)


def game_at(record: GameRecord, step: int) -> Game:
    """The game after the record's first ``step`` steps."""
    return record.replay(step)


def move_text(record: GameRecord, step: int, move: Move, short_form: bool = False) -> str:
    """The move played at record step ``step`` (1-based) in words (``move`` may be another
    legal move there, such as the best one)."""
    return describe(game_at(record, step - 1), move, short_form=short_form)


def draw_text(analysis: Analysis, draw: Draw) -> str:
    if draw.colour is None:
        return _("the deal")
    assert draw.card is not None
    return _("{player} draws {card}").format(
        player=colour_name(draw.colour), card=card_label(draw.card)
    )


def label_text(label: str | None) -> str:
    return _(LABELS[label]) if label else ""


def swing_text(analysis: Analysis, swing: Swing, short_form: bool = False) -> str:
    """``turn 57: Red draws Sorry! (Red plays Sorry!: ...): +21.0 for Red`` (a draw with the
    move it was played for), or the move with its label."""
    ev = swing.event
    change = _("{points} for {side}").format(
        points=points(swing.delta), side=side_name(analysis, swing.colour)
    )
    if isinstance(ev, Draw):
        what = draw_text(analysis, ev)
        then = next((d for d in analysis.decisions if d.step > ev.step), None)
        if then is not None and ev.colour is not None and not analysis.rules.points:
            played = move_text(analysis.record, then.step, then.move, short_form)
            what = _("{draw} ({move})").format(draw=what, move=played)
    else:
        what = move_text(analysis.record, ev.step, ev.move, short_form)
        if ev.label:
            what = _("{move} ({label})").format(move=what, label=label_text(ev.label))
    return _("turn {turn}: {what}: {change}").format(turn=ev.turn + 1, what=what, change=change)


def decision_text(analysis: Analysis, d: Decision) -> str:
    played = move_text(analysis.record, d.step, d.move)
    best = move_text(analysis.record, d.step, d.best)
    return _("turn {turn}: {label}, {lost} points lost: {played}; best: {best}").format(
        turn=d.turn + 1,
        label=label_text(d.label),
        lost=f"{d.equity_lost * 100:.1f}",
        played=played,
        best=best,
    )


def method_text(analysis: Analysis) -> str:
    engine = _("compiled engine") if analysis.engine == "compiled" else _("pure-Python playouts")
    text = ngettext(
        "Win probabilities from rollouts to the end of the game with the {policy} policy for "
        "every player, {n} rollout per card that could come ({engine}).",
        "Win probabilities from rollouts to the end of the game with the {policy} policy for "
        "every player, {n} rollouts per card that could come ({engine}).",
        analysis.rollouts,
    ).format(policy=analysis.policy, n=analysis.rollouts, engine=engine)
    if analysis.hidden_information:
        text += " " + ngettext(
            "Each decision is judged from what the player could know (its own hand, the "
            "discards): the other hands and the draw pile dealt at random in {n} world "
            "consistent with that. The graph and the luck use the hands the record reveals.",
            "Each decision is judged from what the player could know (its own hand, the "
            "discards): the other hands and the draw pile dealt at random in {n} worlds "
            "consistent with that. The graph and the luck use the hands the record reveals.",
            analysis.worlds or 0,
        ).format(n=analysis.worlds)
    return text


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)
        ]
        out.append("  ".join(cells).rstrip())
    return out


def text(analysis: Analysis, turning_points: int = 5, errors: int = 10) -> str:
    """The report: the method, the per-player table, the moves that mattered, the errors."""
    rec = analysis.record
    lines = [rec.result.describe(), method_text(analysis), ""]
    rows = [
        [
            _("player"),
            _("start"),
            _("luck"),
            _("decisions"),
            _("result"),
            _("equity lost"),
            _("accuracy"),
            _("inaccuracies"),
            _("mistakes"),
            _("blunders"),
        ]
    ]
    for p in analysis.players:
        acc = p.accuracy
        rows.append(
            [
                player_name(analysis, p.colour),
                pct(p.start),
                points(p.luck),
                points(p.decisions),
                pct(p.result),
                f"{p.equity_lost * 100:.1f}",
                "-" if acc is None else pct(acc),
                str(p.labels["inaccuracy"]),
                str(p.labels["mistake"]),
                str(p.labels["blunder"]),
            ]
        )
    lines += _table(rows)
    lines.append(
        _(
            "start + luck + decisions = result, exactly, for every player. Luck: what the cards "
            "did, against the average card; decisions: every move against the move the "
            "{policy} policy would have made; equity lost: each player's own moves against "
            "the best move (points of win probability)."
        ).format(policy=analysis.policy)
    )
    swings = analysis.swings(turning_points)
    if swings:
        lines += ["", _("The moves that mattered:")]
        lines += ["  " + swing_text(analysis, s) for s in swings]
    bad = [d for d in analysis.decisions if d.label in ("mistake", "blunder")]
    bad.sort(key=lambda d: -d.equity_lost)
    if bad:
        lines += ["", _("Mistakes and blunders:")]
        for d in sorted(bad[:errors], key=lambda d: d.step):
            lines.append(
                "  "
                + _("{player}, {text}").format(
                    player=colour_name(d.colour), text=decision_text(analysis, d)
                )
            )
    limits = ", ".join(
        _("{label} from {points}").format(label=label_text(name), points=f"{limit * 100:g}")
        for name, limit in reversed(THRESHOLDS)
    )
    lines += ["", _("Thresholds (points of win probability lost): {limits}.").format(limits=limits)]
    return "\n".join(lines)


# -- JSON ------------------------------------------------------------------------------------
def _move_texts(analysis: Analysis) -> dict[tuple[int, Move], str]:
    """Each decision's move and best move in words, from one pass through the game."""
    wanted: dict[int, tuple[Move, ...]] = {d.step: (d.move, d.best) for d in analysis.decisions}
    game = analysis.record.start()
    out: dict[tuple[int, Move], str] = {}
    for n, step in enumerate(analysis.record.steps, 1):
        for m in wanted.get(n, ()):
            out[(n, m)] = describe(game, m)
        if step.is_draw:
            game.draw(parse_card(step.draw or ""))
        else:
            game.push(Move.parse(step.move or ""))
    return out


def _vals(
    analysis: Analysis, values: Sequence[float | Fraction], digits: int = 4
) -> dict[str, float]:
    return {COLOUR_LETTERS[c]: round(float(values[c]), digits) for c in analysis.colours}


def to_dict(analysis: Analysis, describe_moves: bool = True) -> dict[str, Any]:
    """A JSON-able description (``docs/analysis.md``). With ``describe_moves`` each draw and
    decision carries a sentence in the current language (for faces that show it)."""
    rec = analysis.record
    letters = COLOUR_LETTERS

    texts = _move_texts(analysis) if describe_moves else {}

    def described(step: int, move: Move) -> str | None:
        return texts.get((step, move))

    draws = []
    for d in analysis.draws:
        draws.append(
            {
                "step": d.step,
                "turn": d.turn,
                "colour": letters[d.colour] if d.colour is not None else None,
                "card": card_name(d.card) if d.card is not None else None,
                "before": _vals(analysis, d.before),
                "after": _vals(analysis, d.after),
                "luck": _vals(analysis, d.luck),
                "outcomes": [
                    {"card": card_name(c), "p": round(float(p), 4), "values": _vals(analysis, v)}
                    for c, p, v in d.outcomes
                ],
                "text": draw_text(analysis, d) if describe_moves else None,
            }
        )
    decisions = []
    for x in analysis.decisions:
        decisions.append(
            {
                "step": x.step,
                "turn": x.turn,
                "colour": letters[x.colour],
                "card": card_name(x.card) if x.card is not None else None,
                "move": str(x.move),
                "reference": str(x.reference),
                "best": str(x.best),
                "real": x.real,
                "equity_lost": round(x.equity_lost, 4),
                "label": x.label,
                "before": _vals(analysis, x.before),
                "after": _vals(analysis, x.after),
                "term": _vals(analysis, x.term),
                "options": [
                    {"move": str(o.move), "value": round(o.value[x.colour], 4)} for o in x.options
                ],
                "text": described(x.step, x.move),
                "best_text": described(x.step, x.best) if x.best != x.move else None,
            }
        )
    players = []
    for p in analysis.players:
        players.append(
            {
                "colour": letters[p.colour],
                "name": p.name,
                "side": [letters[c] for c in p.side],
                "start": float(p.start),
                "luck": float(p.luck),
                "own_luck": float(p.own_luck),
                "decisions": float(p.decisions),
                "own_decisions": float(p.own_decisions),
                "result": float(p.result),
                "equity_lost": p.equity_lost,
                "real_decisions": p.real_decisions,
                "accuracy": p.accuracy,
                "inaccuracies": p.labels["inaccuracy"],
                "mistakes": p.labels["mistake"],
                "blunders": p.labels["blunder"],
            }
        )
    swings = []
    for s in analysis.swings(3):
        ev = s.event
        swings.append(
            {
                "step": ev.step,
                "turn": ev.turn,
                "kind": "draw" if isinstance(ev, Draw) else "move",
                "colour": letters[ev.colour] if ev.colour is not None else None,
                "side": letters[s.colour],
                "delta": round(float(s.delta), 4),
                "text": swing_text(analysis, s) if describe_moves else None,
                "short": swing_text(analysis, s, short_form=True) if describe_moves else None,
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "commitment": rec.commitment,
        "rules": rec.rules.to_dict(),
        "colours": [letters[c] for c in rec.colours],
        "sides": [[letters[c] for c in side] for side in analysis.sides],
        "result": rec.result.to_dict(),
        "estimator": {
            "policy": analysis.policy,
            "engine": analysis.engine,
            "rollouts_per_card": analysis.rollouts,
            "worlds": analysis.worlds,
            "judged_from": "view" if analysis.hidden_information else "game",
        },
        "method": method_text(analysis),
        "thresholds": {name: limit for name, limit in THRESHOLDS},
        "points": [
            {"step": p.step, "turn": p.turn, "kind": p.kind, "values": _vals(analysis, p.values)}
            for p in analysis.points
        ],
        "draws": draws,
        "decisions": decisions,
        "players": players,
        "swings": swings,
    }


__all__ = ["FORMAT", "VERSION", "draw_text", "pct", "points", "swing_text", "text", "to_dict"]
