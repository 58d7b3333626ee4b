"""The game: turn flow, chance (card draws), hands, scoring, push/pop, copy and JSON.

A game alternates between two kinds of node, as in OpenSpiel:

* a **chance node** (:meth:`Game.is_chance`): a card must be drawn. :meth:`Game.chance_outcomes`
  gives every possible card with its exact probability given the draw pile; :meth:`Game.draw`
  draws the top card of the seeded deck, or a chosen card (for search);
* a **decision node**: the player :attr:`Game.to_move` picks one of :attr:`Game.legal_moves`
  and :meth:`Game.push` plays it.

:meth:`Game.pop` takes back the last step, whichever kind, exactly.

A player may also resign (:meth:`Game.resign`, a step of the history as a move or a draw is):
the game ends when one player (or one partnership) is left, the others winning; in a game of
three or four, the resigner's pawns leave the board and the others play on (docs/rules.md,
Resigning).

>>> g = Game(seed=7)
>>> g.is_chance(), len(g.chance_outcomes())
(True, 11)
>>> while not g.is_over():
...     if g.is_chance():
...         _ = g.draw()
...     else:
...         g.push(g.legal_moves[0])
>>> g.winner is not None and g.winner_name in ("Red", "Blue", "Yellow", "Green")
True
"""

from __future__ import annotations

import copy
import json
import os
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Final, NamedTuple

from .board import COLOUR_LETTERS, COLOUR_NAMES, HOME, START, START_EXIT, TRACK_LEN, colour_name
from .cards import CARDS, Card, card_name, deck_cards, parse_card
from .effects import Effect
from .errors import GameStateError, IllegalMoveError, NotationError, RulesError
from .i18n import _
from .movegen import hand_moves, legal_moves as standard_moves, matching_move
from .moves import DISCARD, PASS, SPLIT, Move
from .position import Position, field_text
from .rng import Rng
from .rulebook import (
    DEFAULT_COLOURS,
    HAND_SIZE,
    check_colours,
    colours_for,
    deal_to,
    score as points_score,
    seat_after,
)
from .rules import Rules
from .state import Change, PawnState
from .view import Phase, PlayerView

CHANCE: Final = Phase.CHANCE
DECISION: Final = Phase.DECISION
OVER: Final = Phase.OVER


#: The game's scalars that a step changes, as they were before it (in each undo record): to
#: move, phase, card, turn, winners, scores, deal_to. A plain tuple: one is made every step.
Counters = tuple[int, Phase, Card | None, int, tuple[int, ...], dict[int, int] | None, int | None]


_new = tuple.__new__


class Resign(NamedTuple):
    """A player's resignation, as a step of a game's history (``resign:B``)."""

    colour: int

    def __str__(self) -> str:
        return f"resign:{COLOUR_LETTERS[self.colour]}"

    @classmethod
    def parse(cls, text: str) -> Resign:
        """``resign:B`` (:class:`NotationError` else)."""
        head, sep, letter = text.strip().partition(":")
        if head.lower() != "resign" or not sep or letter.upper() not in COLOUR_LETTERS:
            raise NotationError(
                _("bad resignation {text!r} (resign:R, B, Y or G)").format(text=text)
            )
        return cls(COLOUR_LETTERS.index(letter.upper()))


#: One step of a game's history: a move, a card drawn, or a resignation.
HistoryStep = Move | Card | Resign


class Undo(NamedTuple):
    """How to take back one step exactly: a draw or a move, and what it changed."""

    step: HistoryStep  # the move played, the card drawn, or the resignation
    drawn: bool  # a draw (else a move)
    before: Counters
    changes: list[Change]  # a move: the pawns it moved (PawnState.undo)
    at: int  # a draw: where the card lay in the draw pile; a move: where in the hand, or -1
    hand: int  # the colour whose hand received (draw) or gave (move) the card, or -1
    #: a draw that emptied the discard pile into the draw pile: that pile and the generator's
    #: state before the shuffle (else None)
    reshuffled: tuple[list[Card], int] | None
    #: a resignation: what it replaced (colours, next seats, pawns, hands, discard pile, the
    #: resigned before it); else None
    resigned: Any


class Game:
    """A game of Sorry! in any variant. See the module doc for the chance/decision loop."""

    def __init__(
        self,
        rules: Rules | None = None,
        players: int | Sequence[int] | None = None,
        seed: int | None = None,
        first: int | None = None,
    ) -> None:
        self.rules = rules or Rules()
        colours = colours_for(players, self.rules)
        self.seed = int.from_bytes(os.urandom(8), "big") if seed is None else seed
        rng = Rng(self.seed)
        if first is None:
            first = colours[rng.below(len(colours))]
        elif first not in colours:
            raise RulesError(
                _("{colour} is not playing and cannot start").format(colour=colour_name(first))
            )
        pawns: list[tuple[int, ...] | None] = [None] * 4
        out = 1 if self.rules.starting_pawns_out else 0
        for c in colours:
            pawns[c] = (START,) * (4 - out) + (START_EXIT[c],) * out
        deck = deck_cards(self.rules.deck)
        rng.shuffle(deck)
        self._setup(Position(tuple(pawns), first), deck, [], rng)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_position(
        cls,
        position: Position | str,
        rules: Rules | None = None,
        card: Card | None = None,
        hands: dict[int, Sequence[Card]] | None = None,
        seed: int = 0,
    ) -> Game:
        """A game in a given position: to move with ``card`` drawn (or at a chance node), or
        in the points variant with the given hands (the other hands are dealt from the deck).
        The remaining cards form the draw pile, shuffled with ``seed``."""
        pos = Position.parse(position) if isinstance(position, str) else position
        rules = rules or Rules()
        check_colours(pos.colours, rules)
        game = cls.__new__(cls)
        game.rules = rules
        game.seed = seed
        rng = Rng(seed)
        deck = deck_cards(rules.deck)
        rng.shuffle(deck)
        taken: list[Card] = []
        if card is not None:
            if rules.points:
                raise GameStateError(_("in the points variant give the hands, not a drawn card"))
            taken.append(card)
        for hand in (hands or {}).values():
            taken.extend(hand)
        for c in taken:
            if c not in deck:
                name = card_name(c) if c in CARDS else repr(c)
                raise GameStateError(_("the deck has no {card} left to give").format(card=name))
            deck.reverse()
            deck.remove(c)
            deck.reverse()
        game._setup(pos, deck, [], rng, dealt=hands, card=card)
        return game

    @classmethod
    def from_view(cls, view: PlayerView, seed: int) -> Game:
        """A whole game that agrees with ``view``: the cards the viewer cannot see dealt at
        random (seeded) among the others' hands and the draw pile (:meth:`PlayerView.deal`).
        A determinisation, for search in the hidden-information game; the game's own
        generator goes on from the deal's (for reshuffles).

        >>> g = Game(Rules(variant="points"), players=3, seed=5)
        >>> while g.is_chance():
        ...     _ = g.draw()
        >>> v = g.view(0)
        >>> world = Game.from_view(v, seed=2)
        >>> world.view(0) == v, world.hands[0] == g.hands[0], len(world.hands[1])
        (True, True, 5)
        """
        rng = Rng(seed)
        deal = view.deal(rng)
        game = cls.__new__(cls)
        game.rules = view.rules
        game.seed = seed
        game._setup(view.position(), deal.draw_pile, list(view.discard_pile), rng, card=view.card)
        game.hands = deal.hands
        game.phase = view.phase
        game.turn = view.turn
        game.first = view.first
        game.winners = view.winners
        game.scores = dict(view.scores) if view.scores is not None else None
        game._deal_to = view.deal_to if view.rules.points else None
        game._initial = game.snapshot()
        return game

    def _setup(
        self,
        pos: Position,
        draw_pile: list[Card],
        discard: list[Card],
        rng: Rng,
        dealt: dict[int, Sequence[Card]] | None = None,
        card: Card | None = None,
    ) -> None:
        rules = self.rules
        self.colours: tuple[int, ...] = pos.colours
        self._next = seat_after(self.colours)  # the next colour to play after each colour
        self.state = PawnState.of(pos.pawns, rules)
        self.to_move: int = pos.to_move
        self.first: int = pos.to_move
        self.draw_pile: list[Card] = draw_pile  # the top card is the last one
        self.discard_pile: list[Card] = discard
        self.rng = rng
        self.card: Card | None = card
        self.hands: list[list[Card]] = [[] for _ in range(4)]
        self.turn = 0
        self.winners: tuple[int, ...] = ()
        self.scores: dict[int, int] | None = None
        #: the colours that resigned, in order (in a game of three or four they have left
        #: ``colours``; see :meth:`resign`)
        self.resigned: tuple[int, ...] = ()
        self.phase = DECISION if card is not None else CHANCE
        self._deal_to: int | None = None  # points: who receives the next chance card
        self._stack: list[Undo] = []
        self._moves_cache: list[Move] | None = None
        self._initial = self.snapshot()
        if rules.points:
            for c, hand in (dealt or {}).items():
                if c not in self.colours:
                    raise GameStateError(_("{colour} is not playing").format(colour=colour_name(c)))
                if len(hand) != HAND_SIZE:
                    raise GameStateError(_("a hand holds five cards"))
                self.hands[c] = list(hand)
            self._next_deal()
            self._initial = self.snapshot()

    def _next_deal(self) -> None:
        """Points: the next seat short of five cards (dealing round the table), or none."""
        best = deal_to(self.colours, [len(h) for h in self.hands], self.to_move)
        self._deal_to = best
        self.phase = CHANCE if best is not None else DECISION

    # -- queries ------------------------------------------------------------------------------
    def is_chance(self) -> bool:
        return self.phase == CHANCE

    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def winner(self) -> int | None:
        """The winning colour (in teams: the player whose move completed the team)."""
        return self.winners[0] if self.winners else None

    @property
    def winner_name(self) -> str | None:
        return COLOUR_NAMES[self.winners[0]] if self.winners else None

    @property
    def unfinished(self) -> bool:
        """Over without a winner (the turn limit was reached)."""
        return self.phase == OVER and not self.winners

    @property
    def pawns(self) -> list[list[int]]:
        return self.state.pawns

    @property
    def deal_to(self) -> int | None:
        """At a chance node: the colour the card goes to (the mover in the standard game)."""
        if self.phase != CHANCE:
            return None
        return self._deal_to if self.rules.points else self.to_move

    def view(self, colour: int) -> PlayerView:
        """What ``colour`` may know now (see :mod:`sorry.view`)."""
        if colour not in self.colours:
            raise GameStateError(f"{COLOUR_NAMES[colour]} is not playing: no view")
        return PlayerView(
            rules=self.rules,
            viewer=colour,
            colours=self.colours,
            to_move=self.to_move,
            phase=self.phase,
            pawns=self.state.sorted_pawns(),
            card=self.card,
            hand=tuple(self.hands[colour]),
            hand_sizes=tuple(len(h) for h in self.hands),
            discard_pile=tuple(self.discard_pile),
            draw_count=len(self.draw_pile),
            turn=self.turn,
            first=self.first,
            winners=self.winners,
            scores=tuple(sorted(self.scores.items())) if self.scores is not None else None,
            legal_moves=tuple(self.legal_moves) if self.to_move == colour else (),
            deal_to=self.deal_to,
        )

    def position(self) -> Position:
        return Position(self.state.sorted_pawns(), self.to_move)

    def position_string(self) -> str:
        return str(self.position())

    def board_text(self) -> str:
        return " ".join(field_text(c, self.state.pawns[c]) for c in self.colours)

    def team_of(self, colour: int) -> tuple[int, ...]:
        """The colours whose pawns ``colour`` moves and whose win is its win."""
        return self.rules.book.movers[colour]

    def next_colour(self, colour: int) -> int:
        """The colour that plays after ``colour`` (seat order among the colours in play)."""
        return self._next[colour]

    def chance_outcomes(self) -> list[tuple[Card, float]]:
        """Each card that can be drawn next with its probability (the discard pile's cards if
        the draw pile is empty and will be reshuffled)."""
        return [(c, float(p)) for c, p in self.chance_fractions()]

    def chance_fractions(self) -> list[tuple[Card, Fraction]]:
        if self.phase != CHANCE:
            raise GameStateError(_("not a chance node: no card is to be drawn"))
        pile = self.draw_pile or self.discard_pile
        counts = Counter(pile)
        total = len(pile)
        return [(c, Fraction(counts[c], total)) for c in CARDS if counts[c]]

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move (a fresh list; empty at chance nodes)."""
        if self.phase != DECISION:
            return []
        if self._moves_cache is None:
            self._moves_cache = self._generate()
        return list(self._moves_cache)

    def _generate(self) -> list[Move]:
        if not self.rules.points:
            assert self.card is not None
            return standard_moves(self.state, self.rules, self.to_move, self.card)
        return hand_moves(self.state, self.rules, self.to_move, self.hands[self.to_move])

    def is_legal(self, move: Move) -> bool:
        if self.phase != DECISION:
            return False
        return move in self.legal_moves or self._matching(move) is not None

    def _matching(self, move: Move) -> Move | None:
        """The listed move that ``move``, typed another way, plays (movegen.matching_move)."""
        card = move.card if self.rules.points else self.card
        return matching_move(self.state, self.rules, self.to_move, card, move, self.legal_moves)

    # -- actions ------------------------------------------------------------------------------
    def draw(self, card: Card | None = None) -> Card:
        """At a chance node, draw the top card of the seeded deck, or ``card`` (for search)."""
        if self.phase != CHANCE:
            raise GameStateError(_("no card is to be drawn now (a move is expected)"))
        if card is not None and card not in (self.draw_pile or self.discard_pile):
            name = card_name(card) if card in CARDS else repr(card)
            raise GameStateError(_("no {card} is left in the draw pile").format(card=name))
        before = self._counters()
        reshuffled = None
        if not self.draw_pile:
            reshuffled = (self.discard_pile[:], self.rng.state)
            self.draw_pile = self.discard_pile
            self.discard_pile = []
            self.rng.shuffle(self.draw_pile)
        pile = self.draw_pile
        if card is None:
            idx = len(pile) - 1
        else:
            try:
                idx = len(pile) - 1 - pile[::-1].index(card)
            except ValueError:
                raise GameStateError(
                    _("no {card} is left in the draw pile").format(card=card_name(card))
                ) from None
        drawn = pile.pop(idx)
        hand = -1
        if self.rules.points:
            assert self._deal_to is not None
            hand = self._deal_to
            self.hands[hand].append(drawn)
            self._next_deal()
        else:
            self.card = drawn
            self.phase = DECISION
        self._stack.append(_new(Undo, (drawn, True, before, [], idx, hand, reshuffled, None)))
        self._moves_cache = None
        return drawn

    def push(self, move: Move | str) -> None:
        """Play a legal move (a :class:`Move` or its notation); :class:`IllegalMoveError` else."""
        self._play(self.listed_move(move))

    def listed_move(self, move: Move | str) -> Move:
        """The listed legal move that ``move`` plays: itself, or the listed move with the same
        result (a split typed in the other order, a move left out because another ends alike,
        a points move without its card). :class:`IllegalMoveError` if it is not legal."""
        if isinstance(move, str):
            move = Move.parse(move)
        if self.phase != DECISION:
            raise GameStateError(
                _("the game is over") if self.phase == OVER else _("a card must be drawn first")
            )
        if self.rules.points and move.card is None and move.kind != PASS:
            candidates = [m for m in self.legal_moves if m._replace(card=None) == move]
            if len(candidates) == 1:
                move = candidates[0]
            elif move.kind == SPLIT:  # only a 7 splits (its halves may be in any order)
                move = move._replace(card=7)
        listed = self._moves_cache
        if listed is None:
            listed = self._moves_cache = self._generate()
        if move not in listed:
            matching = self._matching(move)
            if matching is None:
                raise IllegalMoveError(self._illegal_reason(move))
            move = matching
        return move

    def effects(self, move: Move | str) -> list[Effect]:
        """What the legal ``move`` would do, in order: each pawn's path square by square, its
        slide, every bump, a swap (see :mod:`sorry.effects`). The game is not changed; call
        it before :meth:`push`. :class:`IllegalMoveError` if the move is not legal.

        >>> g = Game.from_position("R:S,S,S,2 Y:S,S,S,5 R", card=4)
        >>> [str(e) for e in g.effects("R2-4")]
        ['R 2 backward 1 0 59 58']
        """
        return self.state.effects(self.listed_move(move))

    def _illegal_reason(self, move: Move) -> str:
        where = self.position_string()
        if self.rules.points:
            hand = ",".join(card_name(c) for c in self.hands[self.to_move])
            if move.card is None and move.kind not in (PASS, DISCARD):
                return _(
                    "in the points variant say which card is played (e.g. 5:R12+5): {move}"
                ).format(move=move)
            return _("illegal move {move} with hand {hand} in {position}").format(
                move=move, hand=hand, position=where
            )
        card = card_name(self.card) if self.card is not None else "?"
        return _("illegal move {move} with card {card} in {position}").format(
            move=move, card=card, position=where
        )

    def _play(self, move: Move) -> None:
        rules = self.rules
        book = rules.book
        before = self._counters()
        changes: list[Change] = []
        mover = self.to_move
        self.state.apply(move, changes)
        idx = hand = -1
        if book.points:
            played = move.card
            assert played is not None
            hand = mover
            idx = self.hands[mover].index(played)
            self.hands[mover].pop(idx)
        else:
            played = self.card
            assert played is not None
            self.card = None
        self.discard_pile.append(played)
        self.turn += 1
        # tuple.__new__: a NamedTuple's own constructor is a Python call, and one is made
        # every step
        self._stack.append(_new(Undo, (move, False, before, changes, idx, hand, None, None)))
        self._moves_cache = None
        # Who won? Only the team of the mover can have completed its pawns.
        if book.wins(self.state.pawns, mover):
            self.winners = book.movers[mover]
            self.phase = OVER
            if book.points:
                self.scores = self._score()
            return
        if rules.turn_limit is not None and self.turn >= rules.turn_limit:
            self.phase = OVER
            return
        if not book.plays_again(played, move.kind == DISCARD):
            self.to_move = self._next[mover]
        if book.points:
            self._deal_to = mover
        self.phase = CHANCE

    def pop(self) -> HistoryStep:
        """Take back the last step (a move or a draw) exactly; returns what was undone."""
        if not self._stack:
            raise GameStateError(_("nothing to take back"))
        undo = self._stack.pop()
        if undo.resigned is not None:
            colours, nxt, state, hands, discard, resigned = undo.resigned
            self.colours, self._next, self.resigned = colours, nxt, resigned
            self.state = state.copy()  # copies of a game share their undo records
            self.hands = [h[:] for h in hands]
            self.discard_pile = discard[:]
        elif undo.drawn:
            assert isinstance(undo.step, int)
            if undo.hand >= 0:
                self.hands[undo.hand].pop()
            self.draw_pile.insert(undo.at, undo.step)
            if undo.reshuffled is not None:
                discard, self.rng.state = undo.reshuffled
                self.discard_pile = discard[:]
                self.draw_pile = []
        else:
            self.state.undo(undo.changes)
            played = self.discard_pile.pop()
            if undo.hand >= 0:
                self.hands[undo.hand].insert(undo.at, played)
        self._restore_counters(undo.before)
        self._moves_cache = None
        return undo.step

    def step(self, move: Move | str | None = None) -> None:
        """Convenience: draw at a chance node, else push ``move``."""
        if self.phase == CHANCE:
            self.draw()
        elif move is None:
            raise GameStateError(_("a move is expected"))
        else:
            self.push(move)

    def resign(self, colour: int) -> None:
        """``colour`` resigns (at any moment, its turn or not). If that leaves one player, or
        one partnership, the game is over and they win (in teams a resignation concedes for
        the partnership). Else (three or four players) the resigner is out: its pawns leave
        the board, its card or hand goes to the discard pile, and the others play on; it
        ranks last (:attr:`resigned`). :meth:`pop` takes it back.

        >>> g = Game(players=3, seed=1)
        >>> g.resign(1)
        >>> g.colours, g.resigned, g.is_over(), g.players
        ((0, 2), (1,), False, (0, 1, 2))
        >>> g.resign(2)
        >>> g.is_over(), g.winners, str(g.history[-1])
        (True, (0,), 'resign:Y')
        """
        if self.phase == OVER:
            raise GameStateError(_("the game is over"))
        if colour not in self.colours:
            raise GameStateError(_("{colour} is not playing").format(colour=colour_name(colour)))
        book = self.rules.book
        before = self._counters()
        saved = (
            self.colours,
            self._next,
            self.state,
            [h[:] for h in self.hands],
            self.discard_pile[:],
            self.resigned,
        )
        self.resigned = (*self.resigned, colour)
        side = book.movers[colour]
        others = [c for c in self.colours if c not in side]
        if len({frozenset(book.movers[c]) for c in others}) == 1:  # one side left: it wins
            self.winners = book.movers[others[0]]
            self.phase = OVER
            if book.points:
                self.scores = self._score()
        else:  # three or four players: the resigner's pawns leave the board
            pawns = list(self.state.sorted_pawns())
            pawns[colour] = None
            nxt = self._next[colour]
            self.colours = tuple(c for c in self.colours if c != colour)
            self._next = seat_after(self.colours)
            self.state = PawnState.of(tuple(pawns), self.rules)
            self.discard_pile.extend(self.hands[colour])
            self.hands[colour] = []
            if self.to_move == colour:
                if self.card is not None:
                    self.discard_pile.append(self.card)
                    self.card = None
                self.to_move = nxt
                self.phase = CHANCE
            if book.points:
                self._next_deal()
        self._stack.append(_new(Undo, (Resign(colour), False, before, [], -1, -1, None, saved)))
        self._moves_cache = None

    @property
    def players(self) -> tuple[int, ...]:
        """Every colour that played this game: those in play and those that resigned."""
        return tuple(sorted({*self.colours, *self.resigned}))

    def _counters(self) -> Counters:
        return (
            self.to_move,
            self.phase,
            self.card,
            self.turn,
            self.winners,
            self.scores,
            self._deal_to,
        )

    def _restore_counters(self, c: Counters) -> None:
        (
            self.to_move,
            self.phase,
            self.card,
            self.turn,
            self.winners,
            self.scores,
            self._deal_to,
        ) = c

    @property
    def history(self) -> list[HistoryStep]:
        """Every step since the game (or position) began, in order: each move played (a
        :class:`Move`), each card drawn (an int) and each resignation (:class:`Resign`)."""
        return [u.step for u in self._stack]

    @property
    def move_stack(self) -> list[Move]:
        """The moves played since the game (or position) began."""
        return [u.step for u in self._stack if isinstance(u.step, Move)]

    # -- scoring ------------------------------------------------------------------------------
    def _score(self) -> dict[int, int]:
        """Points of the finished game (``sorry.rulebook.score``; docs/variants.md, Play for
        points)."""
        homes = [p.count(HOME) for p in self.state.pawns]
        return points_score(
            homes, self.colours, self.winners, self.rules.points_bonus == "cumulative"
        )

    def returns(self) -> list[float]:
        """Per colour R B Y G (0 for colours not playing): zero-sum, as OpenSpiel. The winner
        gets n-1 and each other player -1; in teams each winner +1 and each loser -1."""
        out = [0.0] * 4
        if not self.winners:
            return out
        n = len(self.players)
        for c in self.players:
            if c in self.winners:
                out[c] = 1.0 if self.rules.teams else float(n - 1)
            else:
                out[c] = -1.0
        return out

    # -- copies and serialisation -------------------------------------------------------------
    def copy(self, stack: bool = True) -> Game:
        """An independent copy (with the undo history unless ``stack=False``)."""
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        new.state = self.state.copy()
        new.draw_pile = self.draw_pile[:]
        new.discard_pile = self.discard_pile[:]
        new.hands = [h[:] for h in self.hands]
        new.rng = Rng(self.rng.state)
        new._stack = self._stack[:] if stack else []
        new.scores = dict(self.scores) if self.scores is not None else None
        new._moves_cache = self._moves_cache
        return new

    def snapshot(self) -> dict[str, Any]:
        """The whole state now, without the history, as JSON-able data: the position, the
        phase, the card, the hands, the piles (in order), the generator's state, the turn
        count and the first player. :meth:`from_snapshot` reads it back."""
        return {
            "position": self.position_string(),
            "phase": self.phase.word,
            "card": card_name(self.card) if self.card is not None else None,
            "hands": {
                COLOUR_LETTERS[c]: [card_name(x) for x in self.hands[c]] for c in self.colours
            }
            if self.rules.points
            else None,
            "deal_to": COLOUR_LETTERS[self._deal_to] if self._deal_to is not None else None,
            "draw_pile": [card_name(x) for x in self.draw_pile],
            "discard_pile": [card_name(x) for x in self.discard_pile],
            "rng": self.rng.state,
            "turn": self.turn,
            "first": COLOUR_LETTERS[self.first],
            **({"resigned": [COLOUR_LETTERS[c] for c in self.resigned]} if self.resigned else {}),
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able description: rules, the starting snapshot, every step, the current
        snapshot. :meth:`from_dict` replays the steps, so undo works after loading too."""
        return {
            "format": "sorry-game",
            "version": 1,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "initial": self.initial_snapshot(),
            "steps": [
                "draw:" + card_name(u.step) if isinstance(u.step, int) else str(u.step)
                for u in self._stack
            ],
            "current": self.snapshot(),
            "winners": [COLOUR_LETTERS[c] for c in self.winners],
            "scores": {COLOUR_LETTERS[c]: s for c, s in self.scores.items()}
            if self.scores is not None
            else None,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        if data.get("format") != "sorry-game":
            raise NotationError(_("not a serialised sorry game (format must be 'sorry-game')"))
        rules = Rules.from_dict(data["rules"])
        game = cls.__new__(cls)
        game.rules = rules
        game.seed = int(data.get("seed", 0))
        game._restore(data["initial"])
        for step in data["steps"]:
            if step.startswith("draw:"):
                game.draw(parse_card(step[5:]))
            elif step.startswith("resign:"):
                game.resign(Resign.parse(step).colour)
            else:
                game.push(Move.parse(step))
        if game.snapshot() != data["current"]:
            raise NotationError(_("the serialised steps do not lead to the serialised state"))
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(_("bad JSON: {error}").format(error=exc)) from None
        return cls.from_dict(data)

    def initial_snapshot(self) -> dict[str, Any]:
        """The :meth:`snapshot` of the state the history begins from (a game's start)."""
        return copy.deepcopy(self._initial)

    @classmethod
    def from_snapshot(cls, snap: dict[str, Any], rules: Rules, seed: int = 0) -> Game:
        """A game in the state of ``snap`` (a :meth:`snapshot`), with no history. A finished
        game's winners are the team of the player to move if it has every pawn HOME (the
        winning move leaves it to move), and in the points variant its scores follow."""
        game = cls.__new__(cls)
        game.rules = rules
        game.seed = seed
        game._restore(snap)
        if game.phase == OVER and rules.book.wins(game.state.pawns, game.to_move):
            game.winners = game.team_of(game.to_move)
        elif game.phase == OVER and game.resigned:  # the side the last resignation left
            last = rules.book.movers[game.resigned[-1]]
            game.winners = rules.book.movers[next(c for c in game.colours if c not in last)]
        if game.winners and rules.points:
            game.scores = game._score()
        return game

    def _restore(self, snap: dict[str, Any]) -> None:
        pos = Position.parse(snap["position"])
        draw = [parse_card(x) for x in snap["draw_pile"]]
        discard = [parse_card(x) for x in snap["discard_pile"]]
        card = parse_card(snap["card"]) if snap.get("card") else None
        hands = None
        if snap.get("hands"):
            hands = {
                COLOUR_LETTERS.index(k): [parse_card(x) for x in v]
                for k, v in snap["hands"].items()
            }
        self._setup(pos, draw, discard, Rng(int(snap["rng"])), card=card)
        if hands:
            for c, h in hands.items():
                self.hands[c] = h
        self.first = COLOUR_LETTERS.index(snap.get("first", COLOUR_LETTERS[pos.to_move]))
        self.turn = int(snap.get("turn", 0))
        phase = snap.get("phase", "chance")
        self.phase = Phase[phase.upper()]
        deal = snap.get("deal_to")
        self._deal_to = COLOUR_LETTERS.index(deal) if deal else None
        self.resigned = tuple(COLOUR_LETTERS.index(x) for x in snap.get("resigned", ()))
        self._initial = self.snapshot()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.rules == other.rules and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        extra = f" card={card_name(self.card)}" if self.card is not None else ""
        return f"<Game {self.rules.variant} {self.position_string()!r}{extra}>"


__all__ = [
    "CHANCE",
    "DECISION",
    "DEFAULT_COLOURS",
    "HAND_SIZE",
    "OVER",
    "TRACK_LEN",
    "Counters",
    "Game",
    "HistoryStep",
    "Phase",
    "Resign",
    "Undo",
]
