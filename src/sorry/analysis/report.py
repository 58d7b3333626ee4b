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
from .account import LABELS, THRESHOLDS, Z95, Analysis, Draw

FORMAT: Final = "sorry-analysis"
VERSION: Final = 2
#: Swings kept in the JSON, largest first.
SWINGS: Final = 10
#: The decisions that mattered kept in the JSON, and the luckiest and unluckiest draws (each).
KEY_DECISIONS: Final = 10
KEY_DRAWS: Final = 5
#: A total smaller than this (in wins) is said to be worth what average cards, or the
#: policy's moves, are worth.
NOTHING: Final = 0.005

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


def interval(se: float) -> str:
    """The half-width of a 95% interval, in points: ``±3.1`` (1.96 standard errors)."""
    return f"±{Z95 * se * 100:.1f}"


def points_with(value: float | Fraction, se: float) -> str:
    """A change with its 95% interval: ``+12.5 ±3.1`` (the interval left out when there is
    no uncertainty)."""
    return points(value) if se <= 0 else f"{points(value)} {interval(se)}"


def wins(value: float) -> str:
    """An amount of wins for a sentence: ``0.44``."""
    return f"{abs(value):.2f}"


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
            "luck_se": _vals(analysis, [d.se(c) for c in range(4)], 5),
            "with_move": None if d.with_move is None else _vals(analysis, d.with_move),
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
            "term_se": _vals(analysis, [x.term_se(c) for c in range(4)], 5),
            "loss_se": None if x.loss_se is None else round(x.loss_se, 5),
            "free": x.free,
            "ties": x.ties,
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
            "others_decisions": float(p.others_decisions),
            "result": float(p.result),
            "start_se": round(p.start_se, 5),
            "luck_se": round(p.luck_se, 5),
            "own_luck_se": round(p.own_luck_se, 5),
            "decisions_se": round(p.decisions_se, 5),
            "own_decisions_se": round(p.own_decisions_se, 5),
            "others_decisions_se": round(p.others_decisions_se, 5),
            "equity_lost": p.equity_lost,
            "real_decisions": p.real_decisions,
            "accuracy": p.accuracy,
            "inaccuracies": p.labels["inaccuracy"],
            "mistakes": p.labels["mistake"],
            "blunders": p.labels["blunder"],
            "label": None,
            "words": None,
        }
        for p in analysis.players
    ]
    letter = COLOUR_LETTERS
    key_decisions = [
        {
            "step": x.step,
            "turn": x.turn,
            "colour": letter[x.colour],
            "delta": round(float(x.term[x.colour]), 4),
            "se": round(x.term_se(x.colour), 5),
            "label": x.label,
            "text": None,
            "short": None,
        }
        for x in analysis.key_decisions(KEY_DECISIONS)
    ]
    lucky, unlucky = analysis.key_draws(KEY_DRAWS)

    def draw_item(d: Draw) -> dict[str, Any]:
        assert d.colour is not None and d.card is not None
        c = d.colour
        together = d.with_move
        return {
            "step": d.step,
            "turn": d.turn,
            "colour": letter[c],
            "card": card_name(d.card),
            "delta": round(float(d.luck[c]), 4),
            "se": round(d.se(c), 5),
            "with_move": None if together is None else round(float(together[c]), 4),
            "text": None,
            "short": None,
        }

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
            "reference": analysis.baseline,
            "engine": analysis.engine,
            "rollouts_per_card": analysis.rollouts,
            "worlds": analysis.worlds,
            "judged_from": "view" if analysis.hidden_information else "game",
            "temper": analysis.temper,
            "strengths": {
                letters[c]: analysis.strengths[c] if analysis.strengths else 0.0
                for c in rec.colours
            },
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
        "key_decisions": key_decisions,
        "luckiest_draws": [draw_item(d) for d in lucky],
        "unluckiest_draws": [draw_item(d) for d in unlucky],
        "swings": swings,
    }
    return localise(data, rec) if describe_moves else data


# -- the words ---------------------------------------------------------------------------------
def baseline_of(estimator: dict[str, Any]) -> str:
    """The bot level whose moves the decisions are judged against (``reference``; analyses
    written before it was said: the rollouts' ``policy``)."""
    return str(estimator.get("reference") or estimator["policy"])


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
    temper = float(estimator.get("temper", 1.0))
    if temper != 1.0:
        text += " " + _(
            "Those chances are then calibrated on recorded games: made less sure (their "
            "log-odds times {temper}) and moved by the players' levels (a person counts as "
            "the {policy} bot)."
        ).format(temper=f"{temper:g}", policy=level_label(estimator["policy"]))
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
    wanted = {x["step"] for x in out.get("key_decisions", [])}
    reference_texts: dict[int, str] = {}
    game = record.start()
    for n, step in enumerate(record.steps, 1):
        d = by_step.get(n)
        if d is not None:
            move, best = Move.parse(d["move"]), Move.parse(d["best"])
            d["text"] = describe(game, move)
            d["short"] = describe(game, move, short_form=True)
            d["best_text"] = describe(game, best) if best != move else None
            if n in wanted:
                reference_texts[n] = describe(game, Move.parse(d["reference"]), short_form=True)
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
    policy = level_label(baseline_of(out["estimator"]))
    for x in out["key_decisions"]:
        d = by_step[x["step"]]
        change = _("{points} for {side}").format(
            points=points_with(x["delta"], x["se"]), side=side_name(out, x["colour"])
        )
        reference = Move.parse(d["reference"])
        instead = reference_texts.get(x["step"])
        for form in ("text", "short"):
            what = d[form]
            if x["label"]:
                what = _("{move} ({label})").format(move=what, label=label_text(x["label"]))
            x[form] = _("turn {turn}: {what}: {change}").format(
                turn=x["turn"] + 1, what=what, change=change
            )
        if d.get("ties", 1) > 1:  # measured against the average of the ties
            x["text"] = _(
                "{line}; against the average of the {count} moves the {policy} bot finds "
                "equally good"
            ).format(line=x["text"], count=d["ties"], policy=policy)
            continue
        x["text"] = _("{line}; the {policy} bot: {reference}").format(
            line=x["text"],
            policy=policy,
            reference=instead if instead is not None else str(reference),
        )
    after_draw = {d["step"] - 1: d for d in out["decisions"]}
    for key in ("luckiest_draws", "unluckiest_draws"):
        for x in out[key]:
            change = _("{points} for {side}").format(
                points=points_with(x["delta"], x["se"]), side=side_name(out, x["colour"])
            )
            then = after_draw.get(x["step"])
            for form in ("text", "short"):
                line = _("turn {turn}: {draw}: {change}").format(
                    turn=x["turn"] + 1, draw=draws[x["step"]]["text"], change=change
                )
                moved = x["with_move"] is not None and x["with_move"] != x["delta"]
                if then is not None and moved and form == "text":
                    line = _("{line}; with the move played ({move}): {points}").format(
                        line=line, move=then["short"], points=points(x["with_move"])
                    )
                x[form] = line
    for p in out["players"]:
        p["label"] = _player_label(record, p["colour"])
        p["words"] = player_words(p, policy)
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


def player_words(p: dict[str, Any], policy: str) -> list[str]:
    """A player's totals in a player's words, in wins (fractions of one game): what the
    cards did, what the player's own moves did against the policy's moves, and what the
    others' moves did to the player (when anything)."""
    who = colour_name(_colour(p["colour"]))
    luck, own, others = p["luck"], p["own_decisions"], p["others_decisions"]
    values = {
        "player": who,
        "policy": policy,
        "luck": wins(luck),
        "luck_se": wins(Z95 * p.get("luck_se", 0.0)),
        "own": wins(own),
        "own_se": wins(Z95 * p.get("own_decisions_se", 0.0)),
        "others": wins(others),
    }
    if abs(luck) < NOTHING:
        cards = _("{player}: the cards were worth what average cards are worth (±{luck_se}).")
    elif luck > 0:
        cards = _(
            "{player}: the cards were worth {luck} wins more than average cards (±{luck_se})."
        )
    else:
        cards = _(
            "{player}: the cards were worth {luck} wins less than average cards (±{luck_se})."
        )
    if abs(own) < NOTHING:
        moves = _(
            "{player}: the moves played were worth what the {policy} bot's moves are worth "
            "(±{own_se})."
        )
    elif own > 0:
        moves = _(
            "{player}: the moves played gained {own} wins against the {policy} bot's moves "
            "(±{own_se})."
        )
    else:
        moves = _(
            "{player}: the moves played gave away {own} wins against the {policy} bot's moves "
            "(±{own_se})."
        )
    out = [cards.format(**values), moves.format(**values)]
    if abs(others) >= NOTHING:
        theirs = (
            _("{player}: the other players' moves gave {others} wins.")
            if others > 0
            else _("{player}: the other players' moves cost {others} wins.")
        )
        out.append(theirs.format(**values))
    return out


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
    """The report (from the localised JSON form): the method, the per-player table with each
    total's 95% interval, each player's totals in words, the decisions that mattered, the
    luckiest and unluckiest draws, the mistakes and blunders, the thresholds. A rough analysis
    (:func:`is_rough`) says so first and leaves the verdicts out: the accuracy, the mistakes
    and blunders."""
    rough = is_rough(data)
    lines = [data["summary"], data["method"], ""]
    if rough:
        lines[1:1] = [rough_text(data)]
    rows = [
        [
            _("player"),
            _("start"),
            _("luck"),
            _("own moves"),
            _("others' moves"),
            _("result"),
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
                points_with(p["luck"], p.get("luck_se", 0.0)),
                points_with(p["own_decisions"], p.get("own_decisions_se", 0.0)),
                points_with(p["others_decisions"], p.get("others_decisions_se", 0.0)),
                pct(p["result"]),
                "-" if acc is None else pct(acc),
                str(p["inaccuracies"]),
                str(p["mistakes"]),
                str(p["blunders"]),
            ]
        )
    if rough:
        rows = [r[:6] for r in rows]
    lines += _table(rows)
    lines.append(
        _(
            "start + luck + own moves + others' moves = result, exactly, for every player (±: "
            "the estimate's interval at 95%). Luck: what the cards did, against the average "
            "card; moves: each move against the move the {policy} bot would have made (points "
            "of win probability)."
        ).format(policy=level_label(baseline_of(data["estimator"])))
    )
    lines.append("")
    for p in data["players"]:
        lines += p["words"]
    key = data["key_decisions"][:turning_points]
    if key:
        lines += ["", _("The decisions that mattered:")]
        lines += ["  " + x["text"] for x in key]
    lucky, unlucky = data["luckiest_draws"][:3], data["unluckiest_draws"][:3]
    if lucky:
        lines += ["", _("The luckiest draws:")]
        lines += ["  " + x["text"] for x in lucky]
    if unlucky:
        lines += ["", _("The unluckiest draws:")]
        lines += ["  " + x["text"] for x in unlucky]
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
    lines += [
        "",
        _(
            "Thresholds (points of win probability lost): {limits}, and more than the "
            "estimate's own uncertainty."
        ).format(limits=limits),
    ]
    return "\n".join(lines)


__all__ = [
    "FORMAT",
    "KEY_DECISIONS",
    "KEY_DRAWS",
    "ROUGH_BELOW",
    "SWINGS",
    "VERSION",
    "draw_text",
    "interval",
    "is_rough",
    "localise",
    "method_text",
    "pct",
    "player_words",
    "points",
    "points_with",
    "rough_text",
    "text",
    "to_dict",
    "wins",
]
