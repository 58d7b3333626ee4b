"""What the server sends about a game: views, log entries' words and deltas.

Everything a client learns of a game goes through :func:`view_json`, which serialises a
:class:`sorry.view.PlayerView` (a seat's view) or the public view of a spectator: never the
order of the draw pile, the seed, the generator's state, or a hand the receiver may not see.
The messages themselves are declared in :mod:`sorry.web.messages`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, cast

from ..board import COLOUR_LETTERS, HOME, loc_name
from ..cards import Card, card_label, card_name
from ..describe import landings, short
from ..effects import Effect, net_moves
from ..game import Game
from ..i18n import _
from ..moves import DISCARD, PASS, SORRY, SPLIT, SWAP, Move
from ..rulebook import declines, score
from ..rules import Rules
from ..view import PlayerView
from .messages import View


# -- what the server sends ------------------------------------------------------------------
def loc_text(loc: int) -> str:
    return loc_name(loc)


def public_view(game: Game) -> PlayerView:
    """What a spectator may see: a view with no hand and no moves."""
    view = game.view(game.colours[0])
    return replace(view, viewer=-1, hand=(), legal_moves=())


def paths_of(effects: Sequence[Effect]) -> list[list[Any]]:
    """Where the pawns a move touches go, from its effects (:mod:`sorry.effects`,
    ``Game.effects``): ``[[colour, from, to], ...]``, bumps included, the mover's pawn
    first."""
    return [[COLOUR_LETTERS[c], loc_name(src), loc_name(to)] for c, src, to in net_moves(effects)]


def movers_of(move: Move, effects: Sequence[Effect]) -> list[list[str]]:
    """The pawns the player moves, ``[colour, from, to]`` in playing order, ``to`` where each
    ends after any slide (``sorry.describe.landings``): what the page names the way a
    player sees the board and marks when the move is pointed at."""
    if move.kind in (PASS, DISCARD):
        return []
    parts = move.parts if move.kind == SPLIT else (move,)
    return [
        [COLOUR_LETTERS[p.colour], loc_name(p.src), loc_name(end)]
        for p, end in zip(parts, landings(move, effects), strict=True)
    ]


def describe_move(
    move: Move,
    effects: Sequence[Effect] | None = None,
    card: Card | None = None,
    declined: bool | None = None,
    mover: int | None = None,
) -> str:
    """Words for a move, for buttons and the game log, in the current language
    (:func:`sorry.i18n.using` picks each client's): the short form of :mod:`sorry.describe`
    (with ``effects``, its slides and bumps too), after the card it uses in the points variant.
    ``card``: the card of the turn; ``declined``: whether a pass declines it (an 11 that could
    swap, ``rulebook.declines``) or forfeits the turn; ``mover``: the player, for the log,
    whose line names them (their own pawns' moves are said without their colour)."""
    text = short(move, effects, move.card if move.card is not None else card, declined, mover)
    if move.card is not None and move.kind != DISCARD:
        # the card as players call it (one name for the Sorry! card everywhere)
        return _("[{card}] {move}").format(card=card_label(move.card), move=text)
    return text


def hint_words(game: Game, notation: str) -> str:
    """The hinted move (``notation``) in the words the page's list of moves gives it, its
    slides and bumps included, judged on ``game`` (the position hinted)."""
    move = Move.parse(notation)
    legal = move in game.legal_moves and move.kind not in (PASS, DISCARD)
    effects = game.effects(move) if legal else None
    return describe_move(move, effects, game.card, declines(game.card, game.legal_moves))


def move_picks(move: Move, paths: list[list[Any]]) -> dict[str, Any]:
    """What a player picks on the board for a move: ``movers`` (each pawn the player moves,
    ``[colour, from, to]``, in playing order) and ``target`` (the other pawn of a Sorry! or
    a swap, ``[colour, location]``), so the page needs no rule to offer it."""
    if move.kind in (PASS, DISCARD):
        return {"movers": [], "target": None}
    parts = move.parts if move.kind == SPLIT else (move,)
    movers = []
    for p in parts:
        c, src = COLOUR_LETTERS[p.colour], loc_name(p.src)
        end = next((q[2] for q in paths if q[0] == c and q[1] == src), src)
        movers.append([c, src, end])
    target = None
    if move.kind in (SORRY, SWAP):
        target = [COLOUR_LETTERS[move.target_colour], loc_name(move.target)]
    return {"movers": movers, "target": target}


def _scores_json(view: PlayerView) -> dict[str, int] | None:
    """The points: of the finished game; while a points game is played, each player's points
    so far (their pawns HOME, ``sorry.rulebook.score`` with no winner yet); None otherwise."""
    if view.scores is not None:
        return {COLOUR_LETTERS[c]: s for c, s in view.scores}
    if not view.rules.points:
        return None
    homes = [0 if locs is None else sum(1 for x in locs if x == HOME) for locs in view.pawns]
    cumulative = view.rules.points_bonus == "cumulative"
    return {COLOUR_LETTERS[c]: s for c, s in score(homes, view.colours, [], cumulative).items()}


def _pawns_json(view: PlayerView) -> dict[str, list[str]]:
    return {
        COLOUR_LETTERS[c]: [loc_name(x) for x in locs]
        for c, locs in enumerate(view.pawns)
        if locs is not None
    }


@functools.lru_cache(maxsize=256)
def options_text(rules: Rules) -> str:
    """``rules.options_text()``, worked out once per rules."""
    return rules.options_text()


def view_json(view: PlayerView, game: Game | None = None, position: str | None = None) -> View:
    """Serialise a view. ``game`` (the same moment) lets the server annotate each legal move
    with the pawns it moves, for highlighting; nothing else is taken from it. ``position``:
    the view's position string when the caller has it already (it is every viewer's)."""
    legal: list[dict[str, Any]] = []
    declined = declines(view.card, view.legal_moves)
    for m in view.legal_moves:
        effects = game.effects(m) if game is not None and m.kind not in (PASS, DISCARD) else []
        text = describe_move(m, effects, view.card, declined)
        entry: dict[str, Any] = {"move": str(m), "text": text}
        entry["card"] = card_name(m.card) if m.card is not None else None
        entry["kind"] = m.kind_name
        entry["paths"] = paths_of(effects)
        entry.update(move_picks(m, entry["paths"]))
        legal.append(entry)
    return cast(
        View,
        {
            "variant": view.rules.variant,
            "options": options_text(view.rules),
            "viewer": COLOUR_LETTERS[view.viewer] if view.viewer >= 0 else None,
            "colours": [COLOUR_LETTERS[c] for c in view.colours],
            "to_move": COLOUR_LETTERS[view.to_move],
            "phase": view.phase.word,
            "pawns": _pawns_json(view),
            "position": position if position is not None else view.position_string(),
            "card": card_name(view.card) if view.card is not None else None,
            "hand": [card_name(c) for c in view.hand],
            "hand_sizes": {COLOUR_LETTERS[c]: view.hand_sizes[c] for c in view.colours},
            "discard_pile": [card_name(c) for c in view.discard_pile],
            "draw_count": view.draw_count,
            "turn": view.turn,
            "first": COLOUR_LETTERS[view.first],
            "winners": [COLOUR_LETTERS[c] for c in view.winners],
            "scores": _scores_json(view),
            "legal_moves": legal,
        },
    )


def teams_json(game: Game) -> list[list[str]] | None:
    """The partnerships of the teams variant (``[["R", "Y"], ["B", "G"]]``), else None."""
    if not game.rules.teams:
        return None
    teams: list[list[str]] = []
    for c in game.colours:
        team = sorted(game.team_of(c))
        letters = [COLOUR_LETTERS[x] for x in team]
        if letters not in teams:
            teams.append(letters)
    return teams


# -- deltas ----------------------------------------------------------------------------------
#: The fields of a state message that are not kept as part of the state (``log`` comes only
#: with a full state; a delta's ``last`` adds one entry to it).
NOT_STATE = ("type", "log")


def state_delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
    """What changed from the state a client has (``old``) to ``new``, as a ``delta`` message:
    ``type``, ``seq``, and each other field of the state whose value changed, the ``view``
    field by field; None if nothing changed. A move's delta holds its log entry (``last``:
    the move, its words, effects and paths), the new ``seq``, and the view's fields it
    changed (pawns, card, hand, legal moves, ...): nothing the receiver's full state would
    not hold."""
    delta: dict[str, Any] = {"type": "delta", "seq": new["seq"]}
    changed = old.get("seq") != new["seq"]
    for key, value in new.items():
        if key in NOT_STATE or key == "seq":
            continue
        if key == "view":
            was = old.get("view") or {}
            fields = {k: v for k, v in value.items() if k not in was or was[k] != v}
            if fields:
                delta["view"] = fields
        elif key not in old or old[key] != value:
            delta[key] = value
    if len(delta) == 2 and not changed:
        return None
    return delta


def apply_delta(state: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The state a ``delta`` leads to from ``state`` (what the browser's ``net.js`` does): its
    fields replace the state's, the view's field by field; a new ``last`` entry is appended
    to the ``log`` when the state has one."""
    new = dict(state)
    for key, value in delta.items():
        if key == "type":
            continue
        if key == "view":
            new["view"] = {**state["view"], **value}
        else:
            new[key] = value
    last = delta.get("last")
    log = state.get("log")
    if log is not None and last is not None and (not log or log[-1]["seq"] < last["seq"]):
        new["log"] = [*log, last]
    return new


def dumps(message: Any) -> str:
    return json.dumps(message, separators=(",", ":"))
