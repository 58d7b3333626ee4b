"""The guided first game: a short game on a prepared deck that has a newcomer make each kind
of move once, with a few words before and after each.

The tutorial is a script for the engine, never a copy of the rules: each :class:`Part` starts
a real :class:`~sorry.game.Game` from a position string, and the deck gives the cards the
script names, in order (``Game.draw(card)``). At each :class:`Step` the learner makes one
move, which must be one of the engine's legal moves (the interfaces offer only that one, so
that the game goes on as the next steps expect); the opponent's turns in between are moves
too, played through ``Game.push``. :func:`game_at` replays the script to any step, so an
interface keeps no state but the step's number.

>>> steps = all_steps()
>>> len(steps), steps[0].part.key, steps[-1].part.key
(10, 'standard', 'points')
>>> g = game_at(0)
>>> g.position_string(), [str(m) for m in g.legal_moves]
('R:S,S,S,41 Y:S,S,22,52 R', ['RS>4', 'R41+1'])
>>> str(lesson_move(g, steps[0].step))
'RS>4'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .board import COLOUR_LETTERS
from .cards import SORRY, Card
from .errors import GameStateError
from .game import Game
from .i18n import N_
from .moves import Move
from .rules import Rules

#: The learner's colour (the opponent is Yellow, across the board).
LEARNER = COLOUR_LETTERS.index("R")


@dataclass(frozen=True, slots=True)
class Turn:
    """A move of the script and the card the deck gives at that turn: in the standard game
    the card drawn to play it, in the points variant the card drawn after it (the hand is
    refilled to five; none is drawn once the game is over)."""

    card: Card
    move: str


@dataclass(frozen=True, slots=True)
class Gestures:
    """How to make a step's move, in the words of the input at hand: a finger (``tap``), a
    mouse (``click``), the terminal's keys (``keys``)."""

    tap: str
    click: str
    keys: str


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the learner does: the words before (``title``, ``intro``, and ``how`` to
    make the move where the board alone does not say it), the move to make with its card
    (:class:`Turn`), the words after (``done``), and the opponent's turns that follow before
    the next step (``then``). The words are catalog messages (``N_``): an interface
    translates them where it shows them."""

    key: str
    title: str
    intro: str
    turn: Turn
    done: str
    then: tuple[Turn, ...] = ()
    how: Gestures | None = None


@dataclass(frozen=True, slots=True)
class Part:
    """A game of the tutorial: its variant, where it starts, the hands dealt (points) and
    its steps."""

    key: str
    title: str
    rules: Rules
    position: str
    steps: tuple[Step, ...]
    hands: tuple[tuple[int, tuple[Card, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class Placed:
    """A step of the whole tutorial: its part, its number in the part, in the whole."""

    part: Part
    index: int
    number: int

    @property
    def step(self) -> Step:
        return self.part.steps[self.index]

    @property
    def first(self) -> bool:
        return self.index == 0

    @property
    def last(self) -> bool:
        return self.index == len(self.part.steps) - 1


STANDARD = Part(
    key="standard",
    title=N_("The game"),
    rules=Rules(),
    position="R:S,S,S,41 Y:S,S,22,52 R",
    steps=(
        Step(
            key="start",
            title=N_("Leave START"),
            intro=N_(
                "You play Red against Yellow: the first to bring all four pawns from START "
                "round the board to HOME wins. Your pawns start in your START: a 1 or a 2 "
                "brings one out onto the square in front of it. You drew a 1."
            ),
            how=Gestures(
                tap=N_("Tap a pawn in your START, then the square it goes to."),
                click=N_("Click a pawn in your START, then the square it goes to."),
                keys=N_(
                    "With the arrow keys and Enter, choose a pawn in your START, then the "
                    "square it goes to."
                ),
            ),
            turn=Turn(1, "RS>4"),
            done=N_(
                "Your pawn is out. Pawns go round the board clockwise, and each card says "
                "how far. Now Yellow plays."
            ),
            then=(Turn(1, "YS>34"),),
        ),
        Step(
            key="slide",
            title=N_("Slide"),
            intro=N_(
                "A 12 takes your new pawn 12 squares, onto the triangle of a slide of "
                "another colour. A pawn that ends its move on such a triangle slides to the "
                "end of the slide."
            ),
            turn=Turn(12, "R4+12"),
            done=N_(
                "You slid to the end of the slide. A slide sends every pawn on it back to "
                "its START, even your own. You never slide on your own colour's triangles."
            ),
            then=(Turn(5, "Y52+5"),),
        ),
        Step(
            key="bump",
            title=N_("Bump"),
            intro=N_(
                "A 3 takes your pawn exactly onto Yellow's pawn. A pawn that ends its move "
                "on an opponent's pawn bumps it: that pawn goes back to its START."
            ),
            turn=Turn(3, "R19+3"),
            done=N_(
                "Yellow's pawn is back in its START. Two pawns never share a square: you "
                "cannot end a move on your own pawn."
            ),
            then=(Turn(10, "Y34+10"),),
        ),
        Step(
            key="split",
            title=N_("Split a 7"),
            intro=N_(
                "A 7 moves one pawn 7, or two pawns with the 7 split between them. Split "
                "it: move one pawn 3 and the other 4 (either one first)."
            ),
            turn=Turn(7, "R22+3/R41+4"),
            done=N_(
                "Both pawns moved, 3 and 4: seven in all. Each part of a split is played in full."
            ),
            then=(Turn(8, "Y44+8"),),
        ),
        Step(
            key="swap",
            title=N_("Swap with an 11"),
            intro=N_(
                "An 11 moves a pawn 11, or swaps one of your pawns on the track with an "
                "opponent's pawn. Swap your pawn with Yellow's pawn near your Safety Zone."
            ),
            how=Gestures(
                tap=N_("Tap your pawn, then Yellow's."),
                click=N_("Click your pawn, then Yellow's."),
                keys=N_("With the arrow keys and Enter, choose your pawn, then Yellow's."),
            ),
            turn=Turn(11, "R45<>Y57"),
            done=N_(
                "You jumped ahead and sent Yellow's pawn back. You may also swap to get out "
                "of danger; an 11 can even be declined when no pawn can move 11 forward."
            ),
            then=(Turn(12, "Y45+12"),),
        ),
        Step(
            key="sorry",
            title=N_("Sorry!"),
            intro=N_(
                "Yellow bumped your pawn back to START. A Sorry! card takes a pawn from "
                "your START onto an opponent's pawn anywhere on the track and sends that "
                "pawn to its START."
            ),
            how=Gestures(
                tap=N_("Tap Yellow's pawn to take its place."),
                click=N_("Click Yellow's pawn to take its place."),
                keys=N_(
                    "With the arrow keys and Enter, choose a pawn in your START, then "
                    "Yellow's pawn to take its place."
                ),
            ),
            turn=Turn(SORRY, "RS>Y57"),
            done=N_(
                "Sorry, Yellow! Your pawn is back where it was, and Yellow's is in its "
                "START. A Sorry! needs a pawn in your START and an opponent's pawn on the "
                "track."
            ),
            then=(Turn(3, "Y52+3"),),
        ),
        Step(
            key="safety",
            title=N_("Enter the Safety Zone"),
            intro=N_(
                "Your pawn is near the end of its way round. An 8 takes it past your entry "
                "into your Safety Zone: the five squares of your colour that lead HOME. "
                "No opponent can reach you there."
            ),
            turn=Turn(8, "R57+8"),
            done=N_(
                "Your pawn is safe. Only your own cards move it now, forward or backward, "
                "and it must reach HOME by the exact count."
            ),
            then=(Turn(7, "Y55+7"),),
        ),
        Step(
            key="home",
            title=N_("Reach HOME exactly"),
            intro=N_(
                "Three squares to HOME, and you drew a 3: exactly what it takes. A card "
                "that would go past HOME cannot move that pawn."
            ),
            turn=Turn(3, "Rs3+3"),
            done=N_(
                "One pawn HOME! The first player to bring all four pawns HOME wins. "
                "Now the points game, where you hold a hand of cards."
            ),
        ),
    ),
)

POINTS = Part(
    key="points",
    title=N_("Playing for points"),
    rules=Rules(variant="points"),
    position="R:55,H,H,H Y:S,20,40,H R",
    hands=((LEARNER, (8, 5, SORRY, 11, 12)), (COLOUR_LETTERS.index("Y"), (7, 1, 10, 4, 12))),
    steps=(
        Step(
            key="hand",
            title=N_("Keep a hand"),
            intro=N_(
                "In the points game you hold five cards and choose which one to play; then "
                "you draw one, so you always have five. Three of your pawns are HOME. Play "
                "the 8 into your Safety Zone and keep the 5 for later."
            ),
            how=Gestures(
                tap=N_("Tap the 8, then your pawn, then its square."),
                click=N_("Click the 8, then your pawn, then its square."),
                keys=N_(
                    "With the arrow keys and Enter, choose the 8, then your pawn, then its square."
                ),
            ),
            turn=Turn(3, "8:R55+8"),
            done=N_(
                "Your pawn is on the first square of your Safety Zone, five from HOME, and "
                "the 5 is still in your hand. You drew a 3 in place of the 8."
            ),
            then=(Turn(2, "7:Y40+7"),),
        ),
        Step(
            key="score",
            title=N_("Score"),
            intro=N_(
                "Play the 5 you kept: exactly five squares to HOME. Each pawn HOME is worth "
                "5 points, and the player who brings the fourth one HOME wins and scores "
                "more."
            ),
            turn=Turn(1, "5:Rs1+5"),
            done=N_(
                "You won! You score 5 for each of your pawns HOME, 5 for each of Yellow's "
                "pawns that is not HOME, and a bonus: 100 if no opponent has a pawn HOME, "
                "50 if none has more than one, 25 if none has more than two. Yellow scores "
                "5 for its pawn HOME."
            ),
        ),
    ),
)

#: The tutorial's games, in order.
PARTS: tuple[Part, ...] = (STANDARD, POINTS)


@cache
def all_steps() -> tuple[Placed, ...]:
    """Every step of the tutorial, in order."""
    out: list[Placed] = []
    for part in PARTS:
        for i in range(len(part.steps)):
            out.append(Placed(part, i, len(out)))
    return tuple(out)


def start_game(part: Part) -> Game:
    """The part's game at its start: its position, the first card drawn (standard) or the
    hands dealt (points)."""
    if part.rules.points:
        hands: dict[int, Sequence[Card]] = dict(part.hands)
        return Game.from_position(part.position, part.rules, hands=hands)
    return Game.from_position(part.position, part.rules, card=part.steps[0].turn.card)


def before_move(game: Game, turn: Turn) -> None:
    """What the deck gives before a turn's move: in the standard game, its card."""
    while not game.rules.points and game.is_chance():
        game.draw(turn.card)


def after_move(game: Game, turn: Turn) -> None:
    """What the deck gives after a turn's move: in the points variant, the card that refills
    the hand (none once the game is over)."""
    while game.rules.points and game.is_chance():
        game.draw(turn.card)


def play_turn(game: Game, turn: Turn, step: Step | None = None) -> None:
    """One turn of the script on the engine; a learner's ``step``: its move must be one the
    engine lists (:func:`lesson_move`)."""
    before_move(game, turn)
    game.push(lesson_move(game, step) if step is not None else turn.move)
    after_move(game, turn)


def game_at(number: int, played: bool = False, replies: int = 0) -> Game:
    """The game at step ``number`` of :func:`all_steps`: the learner to move, the step's
    card drawn; with ``played``, just after the learner's move and that many of the
    opponent's turns that follow it (``replies``)."""
    placed = all_steps()[number]
    game = start_game(placed.part)
    for i, step in enumerate(placed.part.steps[: placed.index + 1]):
        if i == placed.index and not played:
            before_move(game, step.turn)
            break
        play_turn(game, step.turn, step)
        for turn in step.then if i < placed.index else step.then[:replies]:
            play_turn(game, turn)
    return game


def lesson_move(game: Game, step: Step) -> Move:
    """The step's move among the engine's legal moves (raises ``GameStateError`` if the
    script and the engine disagree: a test plays the whole script)."""
    for m in game.legal_moves:
        if str(m) == step.turn.move:
            return m
    raise GameStateError(f"the tutorial's move {step.turn.move} is not a legal move here")


__all__ = [
    "LEARNER",
    "PARTS",
    "Gestures",
    "Part",
    "Placed",
    "Step",
    "Turn",
    "after_move",
    "all_steps",
    "before_move",
    "game_at",
    "lesson_move",
    "play_turn",
    "start_game",
]
