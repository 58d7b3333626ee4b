"""The help screen's text: the keys, the board and the FAQ, in every language (the rules
themselves are :mod:`sorry.howto`, the rules screen's).

:func:`help_text` gives it in the current language: each section is one message of the
catalogs (``sorry/locale``), the English text being the message itself.
"""

from __future__ import annotations

from ..i18n import N_, _

#: The questions players ask most, with their answers (Markdown).
FAQ = N_("""\
## Questions and answers
**How do I get a pawn out of START?**
Draw a **1** or a **2** (or play a **Sorry!**, which puts the pawn straight on an
opponent's square). The pawn stops on the circle just outside its START.

**Where are the 6s and 9s?**
There are none: the deck has five 1s and four each of 2, 3, 4, 5, 7, 8, 10, 11, 12
and Sorry!, 45 cards in all.

**How does bumping work?**
End a move on a square held by an opponent's pawn and that pawn goes back to its
START. Pawns you only pass over stay where they are; a slide bumps every pawn on it.

**What if I would land on my own pawn?**
You can't: that move is not allowed. If no pawn can move, the turn is forfeited
(after a 2 you still draw again).

**Must I move if the only move is bad for me?**
Yes. A card that can be used must be used; only an 11 you cannot move forward may
be declined.

**Can a pawn go backwards into its Safety Zone?**
No, a backward move never enters it, but a 4 or the 1 back of a 10 can take a pawn
out of it. A pawn backed up behind its entry goes in on its next forward move.

**What happens when the draw pile runs out?**
The discards are shuffled and become the new draw pile.
""")

SECTIONS = (
    N_("# {game} — how to play here"),
    N_("""\
## Keys
| key | what it does |
|---|---|
| ← → ↑ ↓ / Tab | move between the highlighted choices |
| Enter / Space | take the choice under the cursor |
| 1 – 9 | take a numbered choice |
| Esc / Backspace | go back a step (e.g. choose another pawn) |
| mouse | click a highlighted square, pawn, START or HOME |
| p | decline an 11 (a turn with no move at all passes by itself) |
| m | the list of every legal move, numbered |
| h | hint: the best moves in words; h again: each move's chance of winning, interval at 95% |
| u | undo your last move (games with one person) |
| s | save the game (resume with `sorry tui --load FILE`) |
| + / − | play faster / slower: the walks and the pause after each bot's move (0 = instant) |
| r or F2 | the rules |
| n | a new game · q: quit · ? or F1: this help |"""),
    N_(
        "**x** resigns (it asks first): in a game of two, or in teams, the other side wins; "
        "in a game of three or four your pawns leave the board, you are ranked last and the "
        "others play on."
    ),
    N_(
        "**c** shows the whole rule of the card to play (in the points variant, of the card "
        "chosen, else of the cards in your hand); the middle of the board shows it when "
        "there is room."
    ),
    N_("""\
A move is chosen a step at a time: the pawn, then where it goes. For a **7** choose
the pawn, then either all 7 or the first part of a split, then the pawn that moves
the rest. For an **11** choose the pawn, then 11 forward or the opponent to swap with.
For **Sorry!** choose the pawn in START, then the opponent it sends home.
In the **points** variant first choose the card from your hand; a hand with no
usable card must discard one."""),
    N_("""\
## The board
Squares go clockwise; pawns are letters on their colour: **R**ed, **B**lue,
**Y**ellow, **G**reen. Slides are drawn ▶──● in their colour: land exactly on the
triangle of another colour's slide and you slide to the dot, bumping every pawn on
the way (your own too). Each colour's Safety Zone leads from its entry square to
its HOME; its START is beside the square where its pawns come out. The line under
the board says what the last move did, and the log below it lists every move."""),
    FAQ,
)


def help_text() -> str:
    """The help screen (Markdown) in the current language."""
    title = _(SECTIONS[0]).format(game=_("Sorry!"))
    return "\n\n".join((title, *(_(s) for s in SECTIONS[1:])))
