"""Learn to play in the terminal: the guided first game of :mod:`sorry.tutorial` on the game
screen, step by step.

Each step's words stand at the top of the side panel; the board offers the step's move alone
(in each of its ways: the halves of a split 7 in either order), chosen with the keys or the
mouse as in a game. After the move the words say what it did; Enter goes on: Yellow's turns
are played at the game's pace, said in the line under the board, and the next step begins.
Hints, undo, saving and the move list are not offered (the script decides the game)."""

from __future__ import annotations

from rich.text import Text

from ..game import Game
from ..i18n import N_, _
from ..moves import Move
from ..tutorial import (
    LEARNER,
    Placed,
    Turn,
    after_move,
    all_steps,
    before_move,
    game_at,
    lesson_move as script_move,
)
from .app import GameScreen, NewGameScreen
from .choice import Chooser
from .pace import SPEEDS
from .session import Session

#: The words of the end of the tutorial (the browser's too).
FINISHED = (
    N_("You know the game!"),
    N_(
        "You have made every kind of move once. A whole game is the same, until one player "
        "has all four pawns HOME."
    ),
)


class ScriptSession(Session):
    """The tutorial's table: the learner (a person) and Yellow, whom the script plays (no bot
    to name under its colour)."""

    def seat_name(self, colour: int) -> str:
        return super().seat_name(colour) if colour == LEARNER else ""


def session_at(number: int) -> Session:
    """The table at step ``number``."""
    game = game_at(number)
    seats = ["human" if c == LEARNER else "random" for c in game.colours]
    return ScriptSession(seats=seats, game=game)


def scripted(game: Game, notation: str) -> Move:
    """The legal move the script names (Yellow's turns and the learner's step)."""
    for m in game.legal_moves:
        if str(m) == notation:
            return m
    raise LookupError(f"the tutorial's move {notation} is not legal here")


class LearnScreen(GameScreen):
    """The tutorial on the game screen: ``intro`` (the step's move to make), ``done`` (its
    words after; Enter goes on), ``end`` (the tutorial is over; Enter: the new-game screen)."""

    #: The game screen's keys that the script leaves no room for.
    OFF = frozenset({"hint", "undo", "save", "move_list", "pass"})

    def __init__(self, number: int = 0) -> None:
        super().__init__(session_at(number))
        self.number = number
        self.phase = "intro"

    @property
    def placed(self) -> Placed:
        return all_steps()[self.number]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.OFF:
            return False
        return super().check_action(action, parameters)

    # -- the flow of the script -----------------------------------------------------------
    def advance(self, move: Move | None = None) -> None:
        self.run_worker(self._learn(move), exclusive=True, group="play")

    async def _learn(self, move: Move | None) -> None:
        if move is None:  # the step begins: its card drawn, its move offered
            self.offer()
            return
        await self._animate_and_play(move)
        after_move(self.session.game, self.placed.step.turn)
        self.phase = "done"
        self.note = ""
        self.refresh_all()

    def offer(self) -> None:
        game = self.session.game
        self.chooser = Chooser(game, only=script_move(game, self.placed.step))
        self.cursor = 0
        self.phase = "intro"
        self.note = ""
        self.refresh_all()

    async def _go_on(self) -> None:
        """Yellow's turns after the step, at the game's pace, then the next step."""
        self.phase = "replies"
        self.refresh_all()
        pace = SPEEDS[self.sorry_app.speed]
        for turn in self.placed.step.then:
            await self._reply(turn, pace.think, pace.read)
        self.number += 1
        if self.placed.first:  # a new part: its own game
            self.session = session_at(self.number)
            self.last = []
            self.rebuild_log()
        else:
            before_move(self.session.game, self.placed.step.turn)
        self.offer()

    async def _reply(self, turn: Turn, think: float, read: float) -> None:
        game = self.session.game
        before_move(game, turn)
        self.thinking = game.to_move
        self.note = self.thinking_note()
        self.refresh_all()
        if think:
            await self.hold(think)
        self.thinking = None
        await self._animate_and_play(scripted(game, turn.move))
        after_move(game, turn)
        self.refresh_all()
        if read:
            await self.hold(read)

    # -- keys -------------------------------------------------------------------------------
    def action_choose(self) -> None:
        if self.phase == "done" and self.number == len(all_steps()) - 1:
            self.phase = "end"
            self.refresh_all()
        elif self.phase == "done":
            self.run_worker(self._go_on(), exclusive=True, group="play")
        elif self.phase == "end":
            self.action_leave()
        elif self.phase == "intro":
            super().action_choose()

    def action_leave(self) -> None:
        self.workers.cancel_group(self, "play")
        self.app.switch_screen(NewGameScreen())

    def action_new_game(self) -> None:
        self.action_leave()

    def action_quit(self) -> None:
        self.app.exit(0)

    # -- words ------------------------------------------------------------------------------
    def status_text(self) -> Text:
        """The step: where it stands in the tutorial, what to do (or what the move did)."""
        placed = self.placed
        step = placed.step
        text = Text()
        head = _("Step {i} of {n} · {part}").format(
            i=placed.number + 1, n=len(all_steps()), part=_(placed.part.title)
        )
        text.append(head + "\n", style="dim")
        if self.phase == "end":
            text.append(_(FINISHED[0]) + "\n", style="bold")
            text.append(_(FINISHED[1]) + "\n\n")
            text.append(_("Enter: back to the new-game screen"), style="bold")
            return text
        text.append(_(step.title) + "\n", style="bold")
        if self.phase == "intro":
            text.append(_(step.intro))
            if step.how:  # how to make the move, on the keys (the mouse works too)
                text.append("\n\n" + _(step.how.keys), style="bold")
        else:
            text.append(_(step.done))
            if self.phase == "done":
                text.append("\n\n")
                text.append(_("Enter: go on"), style="bold")
        return text


__all__ = ["LearnScreen", "session_at"]
