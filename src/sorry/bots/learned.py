"""The ``learned`` level: moves chosen by the evaluation learned by self-play
(:mod:`sorry.learned`, a small network trained by TD(lambda) on the compiled engine).

``search="ply"`` (the default) plays the move whose afterstate the network values most for
its team: the learned evaluation alone, no search. ``search="draw"`` looks one draw further,
as ``hard`` does: for every card that can come next (the card-counted probabilities) the
player who gets it makes the reply the network values most for *that* player, and the bot
takes the expected value of its own chance of winning.

The network was trained on the standard game (two, three and four players); the level plays
the standard game with it and the variants it was not trained on (teams, points) as ``hard``
does.
"""

from __future__ import annotations

from typing import Any

from ..movegen import card_moves
from ..moves import DISCARD, Move
from ..rng import Rng
from ..state import Change, PawnState
from ..view import PlayerView
from .base import next_colour, state_of
from .hard import HardBot
from .levels import _argmax

SEARCHES = ("ply", "draw")


def trained_for(view: PlayerView) -> bool:
    """Whether the network was trained on the view's game (the standard game)."""
    return not (view.rules.points or view.rules.teams)


class LearnedBot:
    """Greedy (or one draw deep) on the learned evaluation (see the module doc)."""

    name = "learned"

    def __init__(self, search: str = "ply", model: str = "") -> None:
        if search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, not {search!r}")
        from ..features import compiled_engine

        compiled_engine().require()  # numpy and numba: a one-line error without them
        from ..learned.model import Model, shipped

        self.search = search
        self.model = Model.load(model) if model else shipped()
        self._fallback = HardBot()

    def choose(self, view: PlayerView, rng: Rng) -> Move:
        moves = list(view.legal_moves)
        if len(moves) == 1:
            return moves[0]
        if not trained_for(view):
            return self._fallback.choose(view, rng)
        return _argmax(moves, self.scores(view, moves), rng)

    def ranked(self, view: PlayerView) -> list[tuple[Move, float]]:
        """Every legal move with its value (the bot's chance of winning), best first."""
        moves = list(view.legal_moves)
        if not trained_for(view):
            return self._fallback.ranked(view)
        scores = self.scores(view, moves)
        order = sorted(range(len(moves)), key=lambda i: -scores[i])
        return [(moves[i], scores[i]) for i in order]

    def scores(self, view: PlayerView, moves: list[Move]) -> list[float]:
        """The chance of winning (the team's in teams) after each move, by the network."""
        from ..learned import evaluator

        ev = evaluator(view, self.model)
        state = state_of(view)
        me = view.viewer
        colours = view.colours
        after: list[PawnState] = []
        nexts: list[int] = []
        wins: list[bool] = []
        for m in moves:
            changes: list[Change] = []
            state.apply(m, changes)
            after.append(state.copy())
            state.undo(changes)
            again = m.card is not None and view.rules.book.plays_again(
                m.card, discarded=m.kind == DISCARD
            )
            nexts.append(me if again else next_colour(colours, me))
            wins.append(ev.won(after[-1], me))
        values = ev.values(after, nexts, me)
        if self.search == "ply":
            return [1.0 if w else v for w, v in zip(wins, values, strict=True)]
        return [
            1.0 if w else self._draw_value(ev, s, n, me)
            for s, n, w in zip(after, nexts, wins, strict=True)
        ]

    def _draw_value(self, ev: Any, state: PawnState, mover: int, me: int) -> float:
        """The expectation over the next card of ``me``'s chance of winning after ``mover``
        plays the reply it values most with that card."""
        rules = ev.rules
        colours = ev.colours
        total = 0.0
        for card, p in ev.probs.items():
            if p == 0.0:
                continue
            replies = card_moves(state, rules, mover, card)
            if not replies:
                total += p * ev.values([state], [next_colour(colours, mover)], me, drawn=card)[0]
                continue
            again = rules.book.plays_again(card, discarded=False)
            nxt = mover if again else next_colour(colours, mover)
            after = []
            for r in replies:
                changes: list[Change] = []
                state.apply(r, changes)
                after.append(state.copy())
                state.undo(changes)
            seats = ev.seat_values(after, [nxt] * len(after), mover, drawn=card)
            best = max(range(len(after)), key=lambda i: seats[i][0])
            if ev.won(after[best], mover):
                v = 1.0 if ev.same_team(mover, me) else 0.0
            else:
                v = ev.value_for(seats[best], mover, me)
            total += p * v
        return total


__all__ = ["SEARCHES", "LearnedBot", "trained_for"]
