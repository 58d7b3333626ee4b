"""The words of the game page's first steps and of following a game (``static/index.html``,
``lobby.js``, ``waiting.js``, ``main.js``, ``panels.js``): playing the computer in one tap,
the seats nobody took, the turns that pass by themselves, what the others just did, for the
page catalogs of :mod:`sorry.web.i18n`."""

from __future__ import annotations

from ..i18n import N_

#: Texts of ``index.html`` (text nodes and label attributes), translated when served.
PAGE_MESSAGES = (
    N_("Play the computer"),
    N_("Opponents"),
    N_("Level"),
    N_("New game with friends"),
    N_("Name of the game"),
    N_("Other players' moves"),
    N_("Replay speed"),
    N_("New chat message"),
    # the rules page (/rules: sorry.howto's words) and the links to it
    N_("Rules of the game"),
    N_("Play a game"),
    N_("Leave the game"),
    N_("Your games"),
    # the setting that plays a forced move (the only legal move) by itself
    N_("Play my only move for me"),
)

#: Strings the game page's scripts show through ``t()``.
SCRIPT_MESSAGES = (
    # the lobby's list of the games this browser holds a seat in (lobby.js)
    N_("Back to the game"),
    N_("Waiting for {colour}: invited, not here yet."),
    N_("Waiting for {colours}: invited, not here yet."),
    N_("Let a bot play {colour}"),
    # a turn with no legal move passes by itself; the line by the board says so
    N_("No move with a {card}: your turn passes."),
    N_("No move: your turn passes."),
    N_("Your only move, played for you: {move}"),
    N_("You drew {card}: no move, your turn passed."),
    N_("No move: your turn passed."),
    N_("{colour} drew {card}: no move, the turn passed."),
    N_("{colour} had no move: the turn passed."),
    N_("{player} draws {card}: no move, the turn passes."),
    # the speed at which the other players' moves are shown (the settings)
    N_("slow"),
    N_("normal"),
    N_("fast"),
    # a hint whose chances come from the Python engine's playouts, and one given while the
    # server's compiled search is still being prepared (the terminal game's words)
    # how the points variant scores, under the players (their points so far beside them)
    N_(
        "Points: 5 for each of your pawns HOME. The player who brings their fourth pawn HOME "
        "also scores 5 for each opponent's pawn not HOME, and a bonus: 100 if no opponent has "
        "a pawn HOME, 50 if none has more than one, 25 if none has more than two."
    ),
    # the prompts for a mouse (a finger taps)
    N_("Click a ringed pawn to move it."),
    N_("Click where it goes."),
    N_("Rough hint: {text}"),
    # a move with where it takes the pawns, as a player sees the board (sorry.describe)
    N_("{move} ({where})"),
    N_("{first}; {second}"),
    N_(
        "Leave the game? A bot plays for you until you come back: this game's link brings you back."
    ),
    # alone with bots, the game waits for its player (the lobby lists it under Your games)
    N_("Leave the game? It waits for you at your turn: Your games in the lobby brings you back."),
    # the hint's details (its words come with it: sorry.hintwords)
    N_("Details"),
    N_(
        "The computer's search is still being prepared (the first start compiles it, which can "
        "take minutes): this hint is a quick bot's choice, without chances."
    ),
)
