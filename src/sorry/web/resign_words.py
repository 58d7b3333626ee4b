"""The words of resigning and of undo against bots on the game page (``static/index.html``,
``main.js``), for the page catalogs of :mod:`sorry.web.i18n`."""

from __future__ import annotations

from ..i18n import N_

#: Texts of ``index.html`` (text nodes and label attributes), translated when served.
PAGE_MESSAGES = (
    N_("Undo"),
    N_("Resign"),
)

#: Texts built by ``main.js`` (``t()``).
SCRIPT_MESSAGES = (
    N_("Resign? The game ends and the other side wins."),
    N_("Resign? You are out, ranked last; your pawns leave the board and the others play on."),
    N_("Take back your last move (and the bots' moves after it)"),
    N_("{names} resigned."),
    N_("{colour} resigns"),
    N_("resigned"),
    N_("Your last move was taken back."),
    # the server's reasons (main.js reasonText)
    N_("no undo in a rated game"),
    N_("undo is only for a game against bots"),
    N_("no move of yours to undo"),
    N_("a resignation is not taken back"),
    N_("you have resigned already"),
)
