"""The help screen's text: the keys and the rules in brief."""

from __future__ import annotations

HELP = """\
# Sorry! — how to play here

## Keys
| key | what it does |
|---|---|
| ← → ↑ ↓ / Tab | move between the highlighted choices |
| Enter / Space | take the choice under the cursor |
| 1 – 9 | take a numbered choice |
| Esc / Backspace | go back a step (e.g. choose another pawn) |
| mouse | click a highlighted square, pawn, START or HOME |
| p | pass: decline an 11, or forfeit when nothing can move |
| m | the list of every legal move, numbered |
| h | hints: each choice's estimated chance of winning |
| u | undo your last move (games with one person) |
| s | save the game (resume with `sorry tui --load FILE`) |
| + / − | animation faster / slower (0 = instant) |
| n | a new game · q: quit · ? or F1: this help |

A move is chosen a step at a time: the pawn, then where it goes. For a **7** choose
the pawn, then either all 7 or the first part of a split, then the pawn that moves
the rest. For an **11** choose the pawn, then 11 forward or the opponent to swap with.
For **Sorry!** choose the pawn in START, then the opponent it sends home.
In the **points** variant first choose the card from your hand; a hand with no
usable card must discard one.

## The board
Squares go clockwise; pawns are letters on their colour: **R**ed, **B**lue,
**Y**ellow, **G**reen. Slides are drawn ▶──● in their colour: land exactly on the
triangle of another colour's slide and you slide to the dot, bumping every pawn on
the way (your own too). Each colour's Safety Zone leads from its entry square to
its HOME; its START is beside the square where its pawns come out.

## The rules in brief
- Draw a card and move by it; if the card can be used you must use it. After a
  **2** you draw again.
- **1** or **2** start a pawn (or move it 1 or 2). **4** goes back 4. **7** may be
  split between two pawns. **10** is 10 forward or 1 back. **11** is 11 forward or a
  swap with an opponent's pawn (you may decline an 11 that cannot go forward).
  **Sorry!** puts a pawn from START on an opponent's square and sends that pawn to
  its START.
- Landing on an opponent bumps it back to its START; you can never land on your own
  pawn. HOME is reached by exact count only.
- The first to bring all four pawns HOME wins.
- **Teams**: Red+Yellow against Blue+Green; move any of your team's eight pawns.
- **Points**: hands of five cards; play one and draw one; scores of 5 per pawn HOME
  plus the winner's bonus for the opponents' pawns still out.
"""
