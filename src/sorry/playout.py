"""Whole games and rollouts without a :class:`~sorry.game.Game`'s bookkeeping: a lean loop over
the reference's own move generation (:mod:`sorry.movegen`) and pawns (:class:`PawnState`), with
no undo records, no views and no checks of the chosen moves. Simulations of random bots, the
bots' pure-Python rollouts and the after-game analysis without the compiled engine play on it;
every rule they follow is the reference's (the winner: ``Rulebook.wins``; the deal of the
points variant: ``rulebook.deal_to``; who plays again: ``Rulebook.plays_again``).

A game with a seed is exactly the game ``Game(rules, players, seed)`` plays with the same
choices (tests compare them move for move, in every variant and option).

>>> from sorry.rules import Rules
>>> winners, turns = random_game(Rules(), players=4, seed=1)
>>> winners, turns > 100
((2,), True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from .board import HOME
from .cards import Card
from .game import Game
from .movegen import hand_moves, legal_moves
from .moves import DISCARD, PASS, Move
from .rng import Rng, derive_seed
from .rulebook import deal_to, score, seat_after
from .rules import Rules, Unsupported
from .state import Change, PawnState

#: The settings the lean loop cannot play: none (see rules.Unsupported).
UNSUPPORTED: Final[Unsupported] = frozenset()

#: The kinds of decision that move no pawn.
_NO_MOVE: Final = (PASS, DISCARD)

#: A policy: given the state, the player, the card drawn (None in the points variant, where
#: the moves carry their cards) and the legal moves (two or more), the index of the one it
#: plays.
Policy = Callable[[PawnState, int, Card | None, list[Move]], int]


class Table:
    """A game in progress, reduced to what a turn reads and changes: the pawns, whose turn,
    the draw pile (top last), the discard pile, the hands (points), the generator of the
    reshuffles and the turns played. :meth:`play` plays it forward (changing it)."""

    __slots__ = ("colours", "discard", "hands", "mover", "pile", "rng", "rules", "state", "turn")

    def __init__(
        self,
        rules: Rules,
        colours: tuple[int, ...],
        state: PawnState,
        mover: int,
        pile: list[Card],
        discard: list[Card],
        hands: list[list[Card]],
        rng: Rng,
        turn: int = 0,
    ) -> None:
        self.rules = rules
        self.colours = colours
        self.state = state
        self.mover = mover
        self.pile = pile
        self.discard = discard
        self.hands = hands
        self.rng = rng
        self.turn = turn

    @classmethod
    def new(cls, rules: Rules, players: int | Sequence[int], seed: int) -> Table:
        """The start of ``Game(rules, players, seed)`` (its first player, its shuffled deck,
        the same generator), and in the points variant its opening deal."""
        game = Game(rules, players, seed)
        table = cls(
            rules,
            game.colours,
            game.state,
            game.to_move,
            game.draw_pile,
            game.discard_pile,
            game.hands,
            game.rng,
        )
        if rules.points:
            table.deal()
        return table

    @classmethod
    def of(cls, game: Game) -> Table:
        """A table that goes on from ``game`` as the game would (the game is left as it is):
        copies of its pawns, piles, hands and generator; a card drawn and not yet played is
        put back on top of the draw pile, and in the points variant the cards owed are dealt
        first."""
        pile = game.draw_pile[:]
        if game.card is not None:
            pile.append(game.card)
        table = cls(
            game.rules,
            game.colours,
            game.state.copy(),
            game.to_move,
            pile,
            game.discard_pile[:],
            [h[:] for h in game.hands],
            Rng(game.rng.state),
            game.turn,
        )
        if game.rules.points:
            table.deal()
        return table

    def draw(self) -> Card:
        """The top card of the draw pile (the discard pile reshuffled into it when it is
        empty, as ``Game.draw``)."""
        if not self.pile:
            self.pile, self.discard = self.discard, []
            self.rng.shuffle(self.pile)
        return self.pile.pop()

    def deal(self) -> None:
        """Points: deal cards until every hand holds five, in ``rulebook.deal_to``'s order."""
        hands = self.hands
        while True:
            c = deal_to(self.colours, [len(h) for h in hands], self.mover)
            if c is None:
                return
            hands[c].append(self.draw())

    def play(
        self,
        policy: Policy | None = None,
        limit: int | None = None,
        chooser: Rng | None = None,
        streams: Sequence[Rng] | None = None,
    ) -> tuple[int, ...]:
        """Play turns until a side wins (returned: the winner, then its partner in teams) or
        ``limit`` turns have been played in all (returned: ``()``). A single legal move is
        played; a choice is ``policy``'s, or without one a uniformly random move, one draw of
        ``chooser.below``. With ``streams`` (one generator per colour) every decision, forced
        ones included, is a uniformly random move drawn from the mover's generator, as
        :class:`sorry.bots.RandomBot` draws from its own."""
        rules = self.rules
        book = rules.book
        state = self.state
        pawns = state.pawns
        apply = state.apply
        wins = book.wins
        plays_again = book.plays_again
        points = book.points
        nxt = seat_after(self.colours)
        hands = self.hands
        below = chooser.below if chooser is not None else None
        mover = self.mover
        turn = self.turn
        stop = -1 if limit is None else limit
        no_move = _NO_MOVE
        changes: list[Change] = []
        card: Card | None = None
        try:
            while turn != stop:
                if points:
                    moves = hand_moves(state, rules, mover, hands[mover])
                else:
                    pile = self.pile
                    card = pile.pop() if pile else self.draw()
                    moves = legal_moves(state, rules, mover, card)
                n = len(moves)
                if streams is not None:
                    move = moves[streams[mover].below(n)]
                elif n == 1:
                    move = moves[0]
                elif policy is not None:
                    move = moves[policy(state, mover, card, moves)]
                else:
                    assert below is not None, "a random game needs a chooser"
                    move = moves[below(n)]
                kind = move.kind
                moved = kind not in no_move
                if moved:
                    apply(move, changes)
                    changes.clear()
                played = card if card is not None else move.card
                assert played is not None
                if points:
                    hands[mover].remove(played)
                self.discard.append(played)
                turn += 1
                if moved and wins(pawns, mover):  # a pass or a discard wins nothing
                    return book.movers[mover]
                player = mover
                if not plays_again(played, kind == DISCARD):
                    mover = nxt[mover]
                if points:  # the player draws a card for the one played, as in Game
                    hands[player].append(self.draw())
            return ()
        finally:
            self.mover = mover
            self.turn = turn

    def scores(self, winners: Sequence[int]) -> dict[int, int] | None:
        """Points (``rulebook.score``) of a points game ended with ``winners``; None for any
        other game and an unfinished one (as ``Game.scores``)."""
        if not winners or not self.rules.points:
            return None
        homes = [p.count(HOME) for p in self.state.pawns]
        return score(homes, self.colours, winners, self.rules.points_bonus == "cumulative")


def random_game(
    rules: Rules,
    players: int | Sequence[int] = 4,
    seed: int = 0,
    choice_seed: int | None = None,
) -> tuple[tuple[int, ...], int]:
    """Play a game with uniformly random moves. Returns (winners, turns); winners is ``()`` if
    ``rules.turn_limit`` stopped the game. The moves are chosen with ``Rng(choice_seed)``
    (default: ``seed ^ 0x5EED``), one draw for each decision with a choice."""
    return play(rules, players, seed, None, seed ^ 0x5EED if choice_seed is None else choice_seed)


class Played(NamedTuple):
    """A whole game of random bots: its winners (``()``: unfinished), turns, first player and
    points (the points variant; none for an unfinished game)."""

    winners: tuple[int, ...]
    turns: int
    first: int
    scores: dict[int, int] | None


def random_bots_game(rules: Rules, players: int | Sequence[int], seed: int) -> Played:
    """The game ``sorry.sim`` plays with ``random`` bots in every seat (each colour ``c``
    draws its choices from ``Rng(derive_seed(seed, 1000 + c))``, one draw per decision), move
    for move, without the game object."""
    table = Table.new(rules, players, seed)
    first = table.mover
    streams = [Rng(derive_seed(seed, 1000 + c)) for c in range(4)]
    winners = table.play(limit=rules.turn_limit, streams=streams)
    return Played(tuple(sorted(winners)), table.turn, first, table.scores(winners))


def play(
    rules: Rules,
    players: int | Sequence[int],
    seed: int,
    policy: Policy | None,
    choice_seed: int = 0,
) -> tuple[tuple[int, ...], int]:
    """Play a whole game with ``policy`` choosing every move (``None``: uniformly at random
    with ``Rng(choice_seed)``, as :meth:`Table.play`). Returns (winners, turns)."""
    table = Table.new(rules, players, seed)
    winners = table.play(policy, rules.turn_limit, Rng(choice_seed))
    return winners, table.turn
