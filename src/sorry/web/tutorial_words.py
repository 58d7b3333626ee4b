"""The words of the tutorial's page (``static/learn.html``, ``tutorial.js``) and of its link in
the lobby, for the page catalogs of :mod:`sorry.web.i18n`. The words of each step are the
script's own (:mod:`sorry.tutorial`), translated by the server (:mod:`sorry.web.tutorial`)."""

from __future__ import annotations

from ..i18n import N_

#: Texts of ``learn.html`` and of the lobby's link (text nodes and label attributes).
PAGE_MESSAGES = (
    N_("Learn to play"),
    N_("New to the game? Play a short guided game: each move once, explained."),
    N_("Next"),
    N_("You know the game!"),
    N_(
        "You have made every kind of move once. A whole game is the same, until one player "
        "has all four pawns HOME."
    ),
    N_("Start again"),
)

#: Strings the tutorial's script shows through ``t()``.
SCRIPT_MESSAGES = (
    N_("Step {i} of {n} · {part}"),
    N_("Points so far: {scores}"),
    N_("{colour} {points}"),
    # the learner's own move, said as theirs
    N_("You drew {card}: {move}"),
    N_("You: {move}"),
)
