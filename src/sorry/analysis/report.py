"""An analysis as JSON (``--json``, the browser, the server) and as text (``sorry analyse``).

:func:`to_dict` turns an :class:`~sorry.analysis.account.Analysis` into its JSON form
(``docs/analysis.md``): numbers and notation only, the same in every language, so a server
can compute it once and keep it. :func:`localise` adds the words (each draw and move in a
sentence, the swings, the method) in the current language (:mod:`sorry.i18n`), from the JSON
and the record, and :func:`text` prints the report from it. Every figure is in percentage
points of win probability.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Final

from ..board import COLOUR_LETTERS, colour_name, colour_names
from ..bots.table import level_label
from ..cards import card_label, card_name, parse_card
from ..describe import describe
from ..i18n import _, ngettext
from ..moves import Move
from ..record import GameRecord
from .account import LABELS, THRESHOLDS, Analysis, Draw

FORMAT: Final = "sorry-analysis"
VERSION: Final = 1
#: Swings kept in the JSON, largest first (the faces show three, the command five).
SWINGS: Final = 10

Data = dict[str, Any]


def pct(value: float | Fraction) -> str:
    """A probability as whole percent: ``54%``."""
    return f"{round(float(value) * 100)}%"


def points(value: float | Fraction) -> str:
    """A change of probability in signed percentage points: ``+12.5``, ``-3.0``, ``0.0``."""
    v = round(float(value) * 100, 1)
    if v == 0:
        return "0.0"
    return f"{v:+.1f}"


def _colour(letter: str) -> int:
    return COLOUR_LETTERS.index(letter)


def side_name(data: Data, letter: str) -> str:
    """A colour's name, or its team's (``Red and Yellow``) in the team game."""
    side = next(s for s in data["sides"] if letter in s)
    return colour_names(_colour(c) for c in side)  # words: a sentence may ask for a form


def label_text(label: str | None) -> str:
    return _(LABELS[label]) if label else ""


# -- JSON --------------------------------------------------------------------------------------
def _vals(
    analysis: Analysis, values: Sequence[float | Fraction], digits: int = 4
) -> dict[str, float]:
    return {COLOUR_LETTERS[c]: round(float(values[c]), digits) for c in analysis.colours}


def to_dict(analysis: Analysis, describe_moves: bool = True) -> Data:
    """The JSON form (``docs/analysis.md``), with the words in the current language
    (:func:`localise`) unless ``describe_moves`` is false (the text fields are then None)."""
    rec = analysis.record
    letters = COLOUR_LETTERS
    draws = [
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
            "text": None,
        }
        for d in analysis.draws
    ]
    decisions = [
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
            "text": None,
            "short": None,
            "best_text": None,
        }
        for x in analysis.decisions
    ]
    players = [
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
            "label": None,
        }
        for p in analysis.players
    ]
    swings = [
        {
            "step": s.event.step,
            "turn": s.event.turn,
            "kind": "draw" if isinstance(s.event, Draw) else "move",
            "colour": letters[s.event.colour] if s.event.colour is not None else None,
            "side": letters[s.colour],
            "delta": round(float(s.delta), 4),
            "text": None,
            "short": None,
        }
        for s in analysis.swings(SWINGS)
    ]
    data: Data = {
        "format": FORMAT,
        "version": VERSION,
        "commitment": rec.commitment,
        "rules": rec.rules.to_dict(),
        "colours": [letters[c] for c in rec.colours],
        "sides": [[letters[c] for c in side] for side in analysis.sides],
        "result": rec.result.to_dict(),
        "summary": None,
        "estimator": {
            "policy": analysis.policy,
            "engine": analysis.engine,
            "rollouts_per_card": analysis.rollouts,
            "worlds": analysis.worlds,
            "judged_from": "view" if analysis.hidden_information else "game",
        },
        "method": None,
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
    return localise(data, rec) if describe_moves else data


# -- the words ---------------------------------------------------------------------------------
def method_text(estimator: dict[str, Any]) -> str:
    """How the values were estimated (and, in the points variant, how decisions are judged)."""
    n = int(estimator["rollouts_per_card"])
    engine = (
        _("compiled engine") if estimator["engine"] == "compiled" else _("pure-Python playouts")
    )
    text = ngettext(
        "Win probabilities from rollouts to the end of the game with the {policy} policy for "
        "every player, {n} rollout per card that could come ({engine}).",
        "Win probabilities from rollouts to the end of the game with the {policy} policy for "
        "every player, {n} rollouts per card that could come ({engine}).",
        n,
    ).format(policy=level_label(estimator["policy"]), n=n, engine=engine)
    if estimator["judged_from"] == "view":
        worlds = int(estimator["worlds"] or 0)
        text += " " + ngettext(
            "Each decision is judged from what the player could know (its own hand, the "
            "discards): the other hands and the draw pile dealt at random in {n} world "
            "consistent with that. The graph and the luck use the hands the record reveals.",
            "Each decision is judged from what the player could know (its own hand, the "
            "discards): the other hands and the draw pile dealt at random in {n} worlds "
            "consistent with that. The graph and the luck use the hands the record reveals.",
            worlds,
        ).format(n=worlds)
    return text


def draw_text(draw: dict[str, Any]) -> str:
    if draw["colour"] is None:
        return _("the deal")
    return _("{player} draws {card}").format(
        player=colour_name(_colour(draw["colour"])), card=card_label(parse_card(draw["card"]))
    )


def _player_label(record: GameRecord, letter: str) -> str:
    colour = _colour(letter)
    seat = record.seat_of.get(colour)
    who = colour_name(colour)
    if seat is not None and seat.kind == "bot" and seat.level:
        # a bot by its level in the reader's language (a server names it "easy bot")
        return _("{colour} ({name})").format(colour=who, name=level_label(seat.level))
    if seat is None or seat.kind == "unknown" or not seat.name:
        return who
    return _("{colour} ({name})").format(colour=who, name=seat.name)


def localise(data: Data, record: GameRecord) -> Data:
    """A copy of the JSON form with its words in the current language: every draw
    (``text``), every move (``text``, ``short``; ``best_text`` when another move was best),
    the swings, the players' labels, the summary and the method. ``record`` is the game's
    (the moves are described by replaying it once)."""
    out = copy.deepcopy(data)
    by_step = {d["step"]: d for d in out["decisions"]}
    game = record.start()
    for n, step in enumerate(record.steps, 1):
        d = by_step.get(n)
        if d is not None:
            move, best = Move.parse(d["move"]), Move.parse(d["best"])
            d["text"] = describe(game, move)
            d["short"] = describe(game, move, short_form=True)
            d["best_text"] = describe(game, best) if best != move else None
        if step.is_draw:
            game.draw(parse_card(step.draw or ""))
        else:
            game.push(Move.parse(step.move or ""))
    for dr in out["draws"]:
        dr["text"] = draw_text(dr)
    draws = {dr["step"]: dr for dr in out["draws"]}
    points_variant = out["rules"]["variant"] == "points"
    for s in out["swings"]:
        change = _("{points} for {side}").format(
            points=points(s["delta"]), side=side_name(out, s["side"])
        )
        forms = []
        for form in ("text", "short"):
            if s["kind"] == "draw":
                what = draws[s["step"]]["text"]
                then = next((d for d in out["decisions"] if d["step"] > s["step"]), None)
                if then is not None and s["colour"] is not None and not points_variant:
                    what = _("{draw} ({move})").format(draw=what, move=then[form])
            else:
                d = by_step[s["step"]]
                what = d[form]
                if d["label"]:
                    what = _("{move} ({label})").format(move=what, label=label_text(d["label"]))
            forms.append(
                _("turn {turn}: {what}: {change}").format(
                    turn=s["turn"] + 1, what=what, change=change
                )
            )
        s["text"], s["short"] = forms
    for p in out["players"]:
        p["label"] = _player_label(record, p["colour"])
    out["summary"] = record.result.describe()
    out["method"] = method_text(out["estimator"])
    return out


#: Fewer rollouts a card than this make a rough analysis: its figures move by several points
#: from one seed to the next, so no move is called a mistake or a blunder on them.
ROUGH_BELOW = 16


def is_rough(data: Data) -> bool:
    """Whether the analysis (its JSON form) is rough: too few rollouts a card for verdicts
    (the pure-Python default, 4)."""
    return int(data["estimator"]["rollouts_per_card"]) < ROUGH_BELOW


def rough_text(data: Data) -> str:
    """The line a rough analysis starts with."""
    n = int(data["estimator"]["rollouts_per_card"])
    return ngettext(
        "Rough analysis ({n} rollout a card): the figures are a guide, not a verdict; no move "
        "is called a mistake on so few rollouts.",
        "Rough analysis ({n} rollouts a card): the figures are a guide, not a verdict; no move "
        "is called a mistake on so few rollouts.",
        n,
    ).format(n=n)


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)
        ]
        out.append("  ".join(cells).rstrip())
    return out


def text(data: Data, turning_points: int = 5, errors: int = 10) -> str:
    """The report (from the localised JSON form): the method, the per-player table, the
    moves that mattered, the mistakes and blunders, the thresholds. A rough analysis
    (:func:`is_rough`) says so first and leaves the verdicts out: the accuracy, the equity lost,
    the mistakes and blunders."""
    rough = is_rough(data)
    lines = [data["summary"], data["method"], ""]
    if rough:
        lines[1:1] = [rough_text(data)]
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
    for p in data["players"]:
        acc = p["accuracy"]
        rows.append(
            [
                p["label"],
                pct(p["start"]),
                points(p["luck"]),
                points(p["decisions"]),
                pct(p["result"]),
                f"{p['equity_lost'] * 100:.1f}",
                "-" if acc is None else pct(acc),
                str(p["inaccuracies"]),
                str(p["mistakes"]),
                str(p["blunders"]),
            ]
        )
    if rough:
        rows = [r[:5] for r in rows]
    lines += _table(rows)
    if rough:
        lines.append(
            _(
                "start + luck + decisions = result, exactly, for every player. Luck: what the "
                "cards did, against the average card; decisions: every move against the move "
                "the {policy} policy would have made."
            ).format(policy=level_label(data["estimator"]["policy"]))
        )
    else:
        lines.append(
            _(
                "start + luck + decisions = result, exactly, for every player. Luck: what the "
                "cards did, against the average card; decisions: every move against the move "
                "the {policy} policy would have made; equity lost: each player's own moves "
                "against the best move (points of win probability)."
            ).format(policy=level_label(data["estimator"]["policy"]))
        )
    swings = data["swings"][:turning_points]
    if swings:
        lines += ["", _("The moves that mattered:")]
        lines += ["  " + s["text"] for s in swings]
    if rough:
        return "\n".join(lines)
    bad = [d for d in data["decisions"] if d["label"] in ("mistake", "blunder")]
    bad.sort(key=lambda d: -d["equity_lost"])
    if bad:
        lines += ["", _("Mistakes and blunders:")]
        for d in sorted(bad[:errors], key=lambda d: d["step"]):
            line = _("turn {turn}: {label}, {lost} points lost: {played}; best: {best}").format(
                turn=d["turn"] + 1,
                label=label_text(d["label"]),
                lost=f"{d['equity_lost'] * 100:.1f}",
                played=d["text"],
                best=d["best_text"],
            )
            lines.append(
                "  "
                + _("{player}, {text}").format(player=colour_name(_colour(d["colour"])), text=line)
            )
    limits = ", ".join(
        _("{label} from {points}").format(label=label_text(name), points=f"{limit * 100:g}")
        for name, limit in reversed(THRESHOLDS)
    )
    lines += ["", _("Thresholds (points of win probability lost): {limits}.").format(limits=limits)]
    return "\n".join(lines)


__all__ = [
    "FORMAT",
    "ROUGH_BELOW",
    "SWINGS",
    "VERSION",
    "draw_text",
    "is_rough",
    "localise",
    "method_text",
    "pct",
    "points",
    "rough_text",
    "text",
    "to_dict",
]
