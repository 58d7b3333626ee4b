"""The rules for players, in a player's words: one text in the catalogs, for every face.

The browser's rules page (``/rules``) shows it in the page's language, the terminal game can
show it, and ``docs/rules.md`` holds it in English under "How to play" (a test keeps that
section equal to :func:`markdown`). The rest of ``docs/rules.md`` is the engine's exact
statement of the same rules; this text says them as a player needs them.

>>> blocks()[0]
('h', 'The aim')
>>> from sorry.i18n import using
>>> with using("el"):
...     blocks()[0][1]
'Ο σκοπός'
"""

from __future__ import annotations

from typing import Final

from .cards import SORRY, Card
from .i18n import N_, _

#: Each card's sentence of the rules, as :data:`RULES` says it under "The cards" (English,
#: marked for translation): what a face shows beside a card drawn or chosen
#: (:func:`card_rule`). The 3, 5, 8 and 12 share theirs.
CARD_RULES: Final[dict[Card, str]] = {
    1: N_("1: move a pawn out of START, or 1 forward."),
    2: N_("2: move a pawn out of START, or 2 forward. Then draw again and play another turn."),
    **dict.fromkeys((3, 5, 8, 12), N_("3, 5, 8 and 12: move a pawn that many squares forward.")),
    4: N_("4: move a pawn 4 squares backward."),
    7: N_(
        "7: move one pawn 7 forward, or split the 7 between two pawns (for example 4 and 3). "
        "A 7 never moves a pawn out of START."
    ),
    10: N_("10: move a pawn 10 forward, or 1 backward."),
    11: N_(
        "11: move a pawn 11 forward, or swap places with an opponent's pawn on the track. "
        "When no pawn can move 11 forward you may also let the card go."
    ),
    SORRY: N_(
        "Sorry!: take a pawn from your START and put it on the square of an opponent's pawn "
        "on the track; that pawn goes back to its START. With no pawn in your START, or no "
        "opponent on the track, the turn passes."
    ),
}

#: The text, in order: ``h`` a heading, ``p`` a paragraph, ``li`` an item of a list (English,
#: marked for translation).
RULES: Final = (
    ("h", N_("The aim")),
    (
        "p",
        N_(
            "Each player has four pawns of one colour, in their START. Be the first to bring all "
            "four round the board, into your Safety Zone and HOME."
        ),
    ),
    ("h", N_("A turn")),
    ("li", N_("Draw a card and move one of your pawns as the card says.")),
    (
        "li",
        N_(
            "Pawns go clockwise, round the track. They jump over other pawns: only the square "
            "where a move ends counts."
        ),
    ),
    (
        "li",
        N_(
            "If the card can move a pawn, you must move, even if you would rather not. If it "
            "cannot, your turn passes."
        ),
    ),
    (
        "li",
        N_(
            "A pawn leaves START only with a 1, a 2 or a Sorry! card. With a 1 or a 2 it goes "
            "to the square outside your START."
        ),
    ),
    ("h", N_("The cards")),
    *(("li", text) for text in dict.fromkeys(CARD_RULES.values())),
    ("h", N_("Bumping and slides")),
    (
        "li",
        N_(
            "A move may not end on a square where one of your own pawns stands. End it on an "
            "opponent's pawn and that pawn goes back to its START."
        ),
    ),
    (
        "li",
        N_(
            "A slide starts at a triangle. End a move exactly on the triangle of a slide of "
            "another colour and your pawn slides to its end, sending every pawn on the slide "
            "back to its START, your own too. Your own colour's slides do nothing for you."
        ),
    ),
    ("h", N_("The Safety Zone and HOME")),
    (
        "li",
        N_(
            "Your Safety Zone turns off the track two squares before the square outside your "
            "START: five squares only your pawns may enter, leading to HOME. No one can bump "
            "you there."
        ),
    ),
    (
        "li",
        N_(
            "A pawn goes HOME only by the exact count: a move that would take it past HOME "
            "cannot be made."
        ),
    ),
    (
        "li",
        N_(
            "Moving backward (a 4, or the 10's one back) never enters a Safety Zone. A pawn "
            "moved back from just outside its START is close to its Safety Zone again: a short "
            "way HOME."
        ),
    ),
    ("h", N_("The end")),
    ("p", N_("The first player with all four pawns HOME wins.")),
    ("h", N_("Teams and points")),
    (
        "li",
        N_(
            "Teams: four players, Red and Yellow against Blue and Green. On your turn you may "
            "move your partner's pawns too; the team whose eight pawns are all HOME wins."
        ),
    ),
    (
        "li",
        N_(
            "Points: each player holds five cards and plays one of them each turn, then draws a "
            "new one. With no card that can move a pawn, discard one."
        ),
    ),
    (
        "li",
        N_(
            "Points: 5 for each of your pawns HOME. The player who brings their fourth pawn HOME "
            "also scores 5 for each opponent's pawn not HOME, and a bonus: 100 if no opponent "
            "has a pawn HOME, 50 if none has more than one, 25 if none has more than two."
        ),
    ),
)


def blocks() -> list[tuple[str, str]]:
    """The rules in the current language: ``(kind, text)`` in order (:data:`RULES`)."""
    return [(kind, _(text)) for kind, text in RULES]


def card_rule(card: Card) -> str:
    """What ``card`` does, in its sentence of the rules, in the current language.

    >>> card_rule(4), card_rule(5) == card_rule(12)
    ('4: move a pawn 4 squares backward.', True)
    """
    return _(CARD_RULES[card])


def markdown() -> str:
    """The rules as Markdown (``###`` headings, paragraphs, ``-`` lists), in the current
    language: what ``docs/rules.md`` holds under "How to play"."""
    out: list[str] = []
    for kind, text in blocks():
        if kind == "h":
            out.append(f"### {text}")
        elif kind == "li" and out and out[-1].startswith("- "):
            out[-1] += f"\n- {text}"
        else:
            out.append(f"- {text}" if kind == "li" else text)
    return "\n\n".join(out) + "\n"


__all__ = ["CARD_RULES", "RULES", "blocks", "card_rule", "markdown"]
