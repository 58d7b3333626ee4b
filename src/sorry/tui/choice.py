"""Choosing a move one click (or key) at a time, with no Textual needed.

Every legal move is a short path of tokens: in the points variant first the card (or the
discard of a dead hand), then the pawn, then where it goes; a split 7 is pawn, half, other pawn,
its destination (in either order of the halves); an 11 swap is pawn then the opponent's pawn; a
Sorry! is the START pawn then its victim; declining an 11 or forfeiting is one token. At each
stage the distinct next tokens are the options; once the choices so far fit one move only, that
move is chosen.

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,8,50 B:12,13,40,S R", card=7)
>>> ch = Chooser(g)
>>> [t.label for t in ch.options()]
['Red pawn on 8', 'Red pawn on 50']
>>> ch.choose(ch.options()[0]) is None
True
>>> [t.label for t in ch.options()][:3]
['8 → 15 (+7)', 'first 1: 8 → 9, then 50 → 56', 'first 2: 8 → 10, then 50 → 55']
>>> str(ch.choose(ch.options()[3]))
'R8+3/R50+4'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..board import START, TRACK_LEN, colour_name
from ..game import Game
from ..i18n import _
from ..moves import BACKWARD, DISCARD, ENTER, FORWARD, PASS, SORRY as SORRY_KIND, SPLIT, SWAP, Move
from ..rulebook import declines
from ..state import PawnState
from .describe import card_help, card_words, outcome, place_name

Place = tuple[int, int]  # (colour or -1 for a track square, location): a key for board marks


@dataclass(frozen=True, slots=True)
class Token:
    """One step of choosing a move."""

    kind: str  # card, discard, pass, pawn, dest, half, swap, sorry
    colour: int = -1
    loc: int = -1
    value: int = 0
    label: str = field(default="", compare=False)

    @property
    def place(self) -> Place | None:
        """Where this choice is drawn on the board (None for cards and passes)."""
        if self.kind in ("card", "discard", "pass") or self.loc < 0:
            return None
        if self.loc < TRACK_LEN:
            return (-1, self.loc)
        return (self.colour, self.loc)


@dataclass(frozen=True, slots=True)
class Option:
    path: tuple[Token, ...]
    move: Move  # the move to push (a split in the order chosen)
    legal: Move  # the same move as the game lists it


def _pawn_token(colour: int, loc: int, mover: int) -> Token:
    who = colour_name(colour)
    if loc == START:
        label = _("{colour} pawn in START").format(colour=who)
    else:
        label = _("{colour} pawn on {place}").format(colour=who, place=place_name(loc))
    return Token("pawn", colour, loc, label=label)


def _tail(state: PawnState, part: Move, text: str) -> tuple[int, str]:
    """Where ``part`` lands, and ``text`` with what else it does (``…, slides to 19, bumps
    Blue``): each clause a message that takes the label so far."""
    o = outcome(state, part)
    if o.final != o.landing and o.final >= 0:
        text = _("{move}, slides to {place}").format(move=text, place=place_name(o.final))
    for c, x in o.bumped:
        if part.kind == SORRY_KIND and (c, x) == (part.target_colour, part.target):
            continue  # the Sorry! label already says whom it sends back
        text = _("{move}, bumps {colour}").format(move=text, colour=colour_name(c))
    return o.landing, text


def _simple_path(state: PawnState, move: Move, mover: int) -> tuple[Token, ...]:
    c, src = move.colour, move.src
    pawn = _pawn_token(c, src, mover)
    landing = outcome(state, move).landing
    kind = move.kind
    start, end = place_name(src), place_name(landing)
    if kind == FORWARD:
        label = _("{start} → {end} (+{n})").format(start=start, end=end, n=move.steps)
        return pawn, Token("dest", c, landing, move.steps, _tail(state, move, label)[1])
    if kind == BACKWARD:
        label = _("{start} → {end} (back {n})").format(start=start, end=end, n=move.steps)
        return pawn, Token("dest", c, landing, -move.steps, _tail(state, move, label)[1])
    if kind == ENTER:
        label = _("{start} → {end}").format(start=place_name(START), end=end)
        return pawn, Token("dest", c, landing, 0, _tail(state, move, label)[1])
    other = colour_name(move.target_colour)
    square = place_name(move.target)
    if kind == SORRY_KIND:
        label = _("Sorry! {colour} on {square}").format(colour=other, square=square)
        return pawn, Token(
            "sorry", move.target_colour, move.target, 0, _tail(state, move, label)[1]
        )
    assert kind == SWAP
    label = _("swap with {colour} on {square}").format(colour=other, square=square)
    return pawn, Token("swap", move.target_colour, move.target, 0, _tail(state, move, label)[1])


def _split_path(state: PawnState, parts: tuple[Move, ...], mover: int) -> tuple[Token, ...]:
    s = state.copy()
    out: list[Token] = []
    left = 7
    for i, part in enumerate(parts):
        landing = outcome(s, part).landing
        start, end = place_name(part.src), place_name(landing)
        step = _tail(s, part, _("{start} → {end}").format(start=start, end=end))[1]
        left -= part.steps
        pawn = _pawn_token(part.colour, part.src, mover)
        if i == 0:
            out.append(pawn)
            label = _("first {n}: {step}").format(n=part.steps, step=step)
            out.append(Token("half", part.colour, landing, part.steps, label))
        else:
            last = left == 0
            if last:
                label = _("{pawn}: {n} → {place}").format(pawn=pawn.label, n=part.steps, place=end)
                out.append(Token("pawn", part.colour, part.src, label=_tail(s, part, label)[1]))
                out.append(Token("dest", part.colour, landing, part.steps, step))
            else:
                out.append(pawn)
                out.append(Token("half", part.colour, landing, part.steps, step))
        s.apply(part, [])
    return tuple(out)


def options_of(game: Game) -> list[Option]:
    """Every legal move of the player to move as a path of tokens."""
    mover = game.to_move
    state = game.state
    out: list[Option] = []
    seen: set[tuple[Token, ...]] = set()
    card = game.card
    for move in game.legal_moves:
        prefix: tuple[Token, ...] = ()
        if game.rules.points and move.kind != DISCARD and move.card is not None:
            label = _("play {card}: {help}").format(
                card=card_words(move.card), help=card_help(move.card)
            )
            prefix = (Token("card", value=move.card, label=label),)
        paths: list[tuple[tuple[Token, ...], Move]] = []
        if move.kind == PASS:
            # Declining is a choice only when the 11 could be used; else there is no move.
            declined = declines(card, game.legal_moves)
            label = _("decline the 11") if declined else _("no legal move: forfeit the turn")
            paths.append(((Token("pass", label=label),), move))
        elif move.kind == DISCARD:
            assert move.card is not None
            label = _("discard {card}").format(card=card_words(move.card))
            tok = Token("discard", value=move.card, label=label)
            paths.append(((tok,), move))
        elif move.kind == SPLIT:
            paths.append((_split_path(state, move.parts, mover), move))
            if len(move.parts) == 2:
                flipped = Move(SPLIT, parts=move.parts[::-1], card=move.card)
                if game.is_legal(flipped):
                    paths.append((_split_path(state, flipped.parts, mover), flipped))
        else:
            paths.append((_simple_path(state, move, mover), move))
        for path, m in paths:
            full = prefix + path
            if full not in seen:
                seen.add(full)
                out.append(Option(full, m, move))
    return out


class Chooser:
    """The choices made so far for the player to move, and what can come next."""

    def __init__(self, game: Game, only: Move | None = None) -> None:
        """``only``: offer that legal move alone (the tutorial's step), in each of its ways."""
        self.game = game
        self.all = [o for o in options_of(game) if only is None or o.legal == only]
        self.chosen: list[Token] = []

    def candidates(self) -> list[Option]:
        n = len(self.chosen)
        return [o for o in self.all if o.path[:n] == tuple(self.chosen)]

    def options(self) -> list[Token]:
        """The distinct tokens that can be chosen next."""
        n = len(self.chosen)
        out: list[Token] = []
        for o in self.candidates():
            if len(o.path) > n and o.path[n] not in out:
                out.append(o.path[n])
        if out and all(t.kind in ("dest", "half") for t in out):
            out.sort(key=lambda t: (t.kind == "half", t.value))
        return [self._labelled(t) for t in out]

    def _labelled(self, token: Token) -> Token:
        """A half of a 7 says how the rest is played when that is forced."""
        if token.kind != "half":
            return token
        key = (*self.chosen, token)
        rest = [o.path[len(key) :] for o in self.all if o.path[: len(key)] == key]
        if len(rest) == 1:
            label = token.label
            for t in rest[0]:
                if t.kind in ("dest", "half"):
                    label = _("{first}, then {rest}").format(first=label, rest=t.label)
            return replace(token, label=label)
        label = _("{first}, then {n} with another pawn").format(
            first=token.label, n=7 - token.value
        )
        return replace(token, label=label)

    def choose(self, token: Token) -> Move | None:
        """Take ``token``; return the move once the choices fit exactly one."""
        if token not in self.options():
            raise ValueError(
                _("{choice} is not a choice now").format(choice=token.label or token.kind)
            )
        self.chosen.append(token)
        cands = self.candidates()
        if len(cands) == 1:
            return cands[0].move
        done = [o for o in cands if len(o.path) == len(self.chosen)]
        return done[0].move if done else None

    def back(self) -> bool:
        if not self.chosen:
            return False
        self.chosen.pop()
        return True

    def moves_from(self, token: Token) -> list[Move]:
        """The moves that remain if ``token`` is chosen next."""
        key = (*self.chosen, token)
        return [o.move for o in self.all if o.path[: len(key)] == key]

    def options_from(self, token: Token) -> list[Option]:
        """The options that remain if ``token`` is chosen next."""
        key = (*self.chosen, token)
        return [o for o in self.all if o.path[: len(key)] == key]

    def preview(self) -> list[list[int]]:
        """The pawns with the halves of a 7 chosen so far played."""
        s = self.game.state.copy()
        toks = self.chosen
        for i, tok in enumerate(toks):
            if tok.kind == "half" and i > 0 and toks[i - 1].kind == "pawn":
                pawn = toks[i - 1]
                s.apply(Move(FORWARD, pawn.colour, pawn.loc, tok.value), [])
        return [p[:] for p in s.pawns]

    def prompt(self) -> str:
        opts = self.options()
        kinds = {t.kind for t in opts}
        if kinds <= {"card", "discard"}:
            if "card" not in kinds:
                return _("No card in your hand can move: choose one to discard")
            return _("Choose a card from your hand")
        if kinds == {"pass"}:
            return _("No legal move: press Enter to forfeit the turn")
        if self.chosen and self.chosen[-1].kind == "half":
            rest = 7 - sum(t.value for t in self.chosen if t.kind == "half")
            return _("Choose the pawn that moves the other {n}").format(n=rest)
        if self.chosen and self.chosen[-1].kind == "pawn":
            if kinds == {"swap"} or kinds == {"swap", "dest"}:
                return _("Choose where it goes, or the pawn to swap with")
            if "sorry" in kinds:
                return _("Choose the pawn to send back to START")
            if "half" in kinds:
                return _("Move all 7, or choose the first part of a split")
            return _("Choose where it goes")
        if "pass" in kinds and "pawn" in kinds:
            return _("Choose a pawn (or decline the 11)")
        return _("Choose a pawn")
