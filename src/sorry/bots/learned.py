"""The ``learned`` level: moves chosen by the evaluation learned by self-play
(:mod:`sorry.learned`, a small network trained by TD(lambda) on the compiled engine).

``search="ply"`` (the default) plays the move whose afterstate the network values most for
its team: the learned evaluation alone, no search. ``search="draw"`` looks one draw further,
as ``hard`` does: for every card that can come next (the card-counted probabilities) the
player who gets it makes the reply the network values most for *that* player, and the bot
takes the expected value of its own chance of winning.

One network is trained per variant (``sorry/learned/data/<variant>.npz``): the standard game
(two, three and four players), teams (the partnership's chance) and points (the win of the
hand, reading the cards the bot keeps: a discard is valued by what it leaves in the hand). In
points the next player's hand is hidden, so ``search="draw"`` values moves as ``"ply"`` does
there. A variant without a network, or ``model`` trained for another variant than the game's,
is played as ``hard`` plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card
from ..i18n import _
from ..movegen import card_moves
from ..moves import DISCARD, Move
from ..rng import Rng
from ..rulebook import may_decline
from ..state import Change, PawnState
from ..view import PlayerView
from .base import next_colour, state_of
from .hard import HardBot, best_in_hand
from .levels import _argmax
from .table import level_label

SEARCHES = ("ply", "draw")


def trained_for(view: PlayerView, model: Any = None) -> bool:
    """Whether there is a network of the view's variant (``model``'s, else a shipped one)."""
    from ..learned.model import has_shipped

    variant = view.rules.variant
    if model is not None:
        return bool(model.variant == variant)
    return has_shipped(variant)


class LearnedBot:
    """Greedy (or one draw deep) on the learned evaluation (see the module doc)."""

    name = "learned"

    def __init__(self, search: str = "ply", model: str = "") -> None:
        if search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, not {search!r}")
        from ..features import FeatureMissing, compiled_engine

        if not compiled_engine():  # numpy and numba: a one-line error without them
            raise FeatureMissing(
                _(
                    "the {level} level needs the fast extra: pip install 'sorry-engine[fast]'"
                ).format(level=level_label(self.name))
            )
        from ..learned.model import Model

        self.search = search
        self.model = Model.load(model) if model else None
        self._fallback = HardBot()

    def _model(self, view: PlayerView) -> Any:
        """The network for the view's game, or None (then the bot plays as ``hard``)."""
        from ..learned.model import shipped

        if self.model is not None:
            return self.model if trained_for(view, self.model) else None
        return shipped(view.rules.variant) if trained_for(view) else None

    def choose(self, view: PlayerView, rng: Rng) -> Move:
        moves = list(view.legal_moves)
        if len(moves) == 1:
            return moves[0]
        if self._model(view) is None:
            return self._fallback.choose(view, rng)
        return _argmax(moves, self.scores(view, moves), rng)

    def ranked(self, view: PlayerView) -> list[tuple[Move, float]]:
        """Every legal move with its value (the bot's chance of winning), best first."""
        moves = list(view.legal_moves)
        if self._model(view) is None:
            return self._fallback.ranked(view)
        scores = self.scores(view, moves)
        order = sorted(range(len(moves)), key=lambda i: -scores[i])
        return [(moves[i], scores[i]) for i in order]

    def scores(self, view: PlayerView, moves: list[Move]) -> list[float]:
        """The chance of winning (the team's in teams) after each move, by the network (in
        points with the cards the move leaves in the hand)."""
        from ..learned import evaluator

        ev = evaluator(view, self._model(view))
        state = state_of(view)
        me = view.viewer
        colours = view.colours
        after: list[PawnState] = []
        nexts: list[int] = []
        wins: list[bool] = []
        kept: list[list[Card]] | None = [] if view.rules.points else None
        for m in moves:
            if kept is not None:
                hand = list(view.hand)
                if m.card is not None and m.card in hand:
                    hand.remove(m.card)
                kept.append(hand)
            changes: list[Change] = []
            state.apply(m, changes)
            after.append(state.copy())
            state.undo(changes)
            # the card played: a standard move does not carry it (the view's card does)
            played = m.card if view.rules.points else view.card
            again = played is not None and view.rules.book.plays_again(
                played, discarded=m.kind == DISCARD
            )
            nexts.append(me if again else next_colour(colours, me))
            wins.append(ev.won(after[-1], me))
        values = ev.values(after, nexts, me, kept=kept)
        if self.search == "ply" or view.rules.points:
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


def hard_scores(view: PlayerView, plays: Sequence[Move], reply_hand: int = 1) -> list[float]:
    """The ``hard`` bot's expectimax over the next draw with the learned evaluation at its
    leaves (``make_bot("hard", evaluation="learned")``): for each play, every card that can
    come next (counted probabilities), the reply of the player who gets it that is best for
    the bot if it is a friend (itself after a 2, its partner) and worst if an opponent (a card
    that cannot be played, or an 11 declined, leaves the board as it is), each leaf valued by
    the network of the game's variant: the bot's (its team's) chance of winning, with who
    moves next and the card just drawn. In points the next player's hidden hand is taken as
    ``hard`` takes it (``reply_hand`` cards, hypergeometric over the unseen cards) and the
    network reads the cards the bot keeps (``hard``'s hand potential is left out: the network
    values the kept hand itself)."""
    from ..learned import evaluator
    from ..learned.model import shipped

    rules = view.rules
    ev = evaluator(view, shipped(rules.variant))
    me = view.viewer
    colours = view.colours
    book = rules.book
    state = state_of(view)
    out: list[float] = []
    for m in plays:
        changes: list[Change] = []
        state.apply(m, changes)
        if ev.won(state, me):
            out.append(1.0)
            state.undo(changes)
            continue
        kept: list[Card] | None = None
        if rules.points:
            kept = list(view.hand)
            if m.card is not None and m.card in kept:
                kept.remove(m.card)
        played = m.card if rules.points else view.card
        assert played is not None
        again = book.plays_again(played, discarded=m.kind == DISCARD)
        mover = me if again else next_colour(colours, me)
        if rules.points and again:  # the bot plays again from its refilled hand
            v = ev.values([state], [me], me, kept=[kept] if kept is not None else None)[0]
        else:
            v = _expect_reply(ev, view, state, mover, kept, reply_hand)
        out.append(v)
        state.undo(changes)
    return out


def _expect_reply(
    ev: Any,
    view: PlayerView,
    state: PawnState,
    mover: int,
    kept: list[Card] | None,
    reply_hand: int,
) -> float:
    """The expectation over the card ``mover`` gets next (drawn; in points one of its hidden
    hand) of the bot's chance after the reply best for it (a friend) or worst (an opponent)."""
    rules = view.rules
    me = view.viewer
    colours = view.colours
    friendly = ev.same_team(mover, me)
    after_pass = next_colour(colours, mover)
    if rules.points:
        unseen = view.unseen_counts()
        weights = {c: float(n) for c, n in unseen.items() if n > 0}
    else:
        weights = {c: p for c, p in ev.probs.items() if p > 0.0}
    if not weights:  # no card left to come: the board as it is
        return float(ev.values([state], [after_pass], me, kept=[kept] if kept else None)[0])
    # every leaf of every card, valued in one call of the network
    leaves: list[PawnState] = []
    nexts: list[int] = []
    drawn: list[Card] = []
    wins: list[bool] = []
    spans: dict[Card, tuple[int, int, bool]] = {}
    for card in weights:
        replies = card_moves(state, rules, mover, card)
        again = rules.book.plays_again(card, discarded=False)
        lo = len(leaves)
        leaves.append(state)  # the board as it is: the card cannot be played, or is declined
        nexts.append(mover if again else after_pass)
        drawn.append(card)
        wins.append(False)
        for r in replies:
            changes: list[Change] = []
            state.apply(r, changes)
            leaves.append(state.copy())
            state.undo(changes)
            nexts.append(mover if again else after_pass)
            drawn.append(card)
            wins.append(ev.won(leaves[-1], mover))
        base_only = not replies or may_decline(card, replies)
        spans[card] = (lo, len(leaves), base_only)
    kept_all = [kept] * len(leaves) if kept is not None else None
    seats = ev.seat_values(leaves, nexts, me, drawn, kept_all)
    values = [
        (1.0 if friendly else 0.0) if w else ev.value_for(row, me, me)
        for row, w in zip(seats, wins, strict=True)
    ]
    best: dict[Card, float] = {}
    for card, (lo, hi, base_ok) in spans.items():
        replies_v = values[lo + 1 : hi]
        if not replies_v:
            best[card] = values[lo]
            continue
        v = max(replies_v) if friendly else min(replies_v)
        if base_ok:
            v = max(v, values[lo]) if friendly else min(v, values[lo])
        best[card] = v
    if not rules.points:
        return sum(weights[c] * best[c] for c in best)
    return _hidden_hand(best, weights, friendly, view.hand_sizes[mover] or 5, reply_hand)


def _hidden_hand(
    best: dict[Card, float], counts: dict[Card, float], friendly: bool, held: int, reply_hand: int
) -> float:
    """Points: the expected value when the mover holds ``min(held, reply_hand)`` of the unseen
    cards (``counts`` by kind) and plays the one best for it (hypergeometric, as ``hard``)."""
    total = int(sum(counts.values()))
    h = min(held, reply_hand, total)
    if total == 0 or h == 0:
        return 0.0
    order = sorted(((best[c], int(n)) for c, n in counts.items()), reverse=friendly)
    return best_in_hand(order, total, h)


def cutoff_root(view: PlayerView, batched: bool = False, policy: str = "medium") -> Any:
    """The root of the expert's search from ``view`` whose rollouts cut off are scored by the
    network of the view's variant (:class:`sorry.learned._cutoff.NetRoot`; ``batched``: one
    numpy forward pass per round of worlds instead of one inside the compiled loop per
    cut-off; ``policy="learned"``: every seat of the rollouts played by the network)."""
    from ..learned._cutoff import NetRoot
    from ..learned.model import shipped

    return NetRoot(view, shipped(view.rules.variant), batched=batched, policy=policy)


__all__ = ["SEARCHES", "LearnedBot", "cutoff_root", "hard_scores", "trained_for"]
