"""The words of the browser game as an installed app and of its extras on a phone: the app's
manifest and offline page (:mod:`sorry.web.installable`), the sound effects (``sound.js``) and
the chat in a drawer next to the board (``chat_drawer.js``), for the page catalogs of
:mod:`sorry.web.i18n`."""

from __future__ import annotations

from ..i18n import N_, ngettext

#: Texts of ``index.html`` (text nodes and label attributes), translated when served.
PAGE_MESSAGES = (N_("Sound effects: cards, slides, bumps, HOME"),)

#: The offline page's words (served in all five languages at once: the app shows it from
#: its cache, where the server cannot choose the language).
OFFLINE_MESSAGES = (
    N_("You are offline"),
    N_(
        "The game needs the network: your games are kept on the server, and go on where they "
        "were when you are back online."
    ),
    N_("Try again"),
)

#: The app's description in its manifest (what a phone shows when installing it).
DESCRIPTION = N_("The board game Sorry!: play the computer or your friends, learn the rules.")

#: Strings the game page's scripts show through ``t()``.
SCRIPT_MESSAGES = (
    N_("Chat"),
    N_("Close the chat"),
)


def plurals() -> dict[str, list[str]]:
    """The plural messages of those scripts (``tn()``) in the current language: singular
    msgid -> [the form for 1, the form for other numbers]."""
    return {
        "Chat: {n} new message": [
            ngettext("Chat: {n} new message", "Chat: {n} new messages", n) for n in (1, 2)
        ],
    }
