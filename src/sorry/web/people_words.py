"""The words of the players' pages (``static/people.html`` and ``people.js``) and of the
account's parts of the game page (``static/account.js``), for the page catalogs of
:mod:`sorry.web.i18n`."""

from __future__ import annotations

from ..i18n import N_, ngettext
from .passwords import MESSAGES

#: The texts of ``people.html`` (text nodes and label attributes), translated when served.
PAGE_MESSAGES = (
    N_("Players"),
    N_("Leaderboard"),
    N_("Log in"),
    N_("Name"),
    N_("Password"),
    N_("New here?"),
    N_("An account keeps your name, your rating and your games. You can always play as a guest."),
    N_("Create account"),
    N_("Your profile"),
    N_("Log out"),
    N_("Notifications"),
    N_("When it is your turn in a correspondence game and you are not on its page."),
    N_("Webhook address"),
    N_("E-mail"),
    N_("Save"),
    N_("Blocked players"),
    N_("Their chat is hidden from you and they cannot invite you."),
    N_("Change password"),
    N_("Current password"),
    N_("New password"),
    N_("Your data"),
    N_("Download your data"),
    N_("Delete the account"),
    N_("Your games stay, without your name. This cannot be undone."),
    N_("Ratings"),
    N_("Variant"),
    N_("Invitations"),
    N_("Luck"),
    N_("Games"),
    N_("Recent opponents"),
    N_("Player"),
    N_("Rating"),
    N_("Provisional"),
    N_("Fewer games, so a wide interval: listed apart until it narrows."),
)

#: The strings ``people.js`` and ``account.js`` show through ``t()``.
SCRIPT_MESSAGES = (
    N_("Block {name}"),
    N_("Unblock {name}"),
    N_("Game"),
    N_("Invite an account by name (the first invited seat)"),
    N_("Invite to a game"),
    N_("Invite {name}"),
    N_("Leaderboard"),
    N_("Log in"),
    N_("Players"),
    N_("Live: everyone on the page"),
    N_("Log in to play rated games and keep your games."),
    N_("No games yet."),
    N_("No player has that name."),
    N_("No rated game in this variant yet."),
    N_("Nobody has a settled rating in this variant yet."),
    N_("Nobody."),
    N_("Open the game you are invited to"),
    N_("Open"),
    N_("Pace"),
    N_("Password changed. Your other sessions have ended."),
    N_("Provisional: the interval is still wide."),
    N_("Rated (every player needs an account)"),
    N_("Rating over time: now {rating}"),
    N_("Replay and analysis"),
    N_("Report"),
    N_("Reported"),
    N_("Saved."),
    N_("Something went wrong."),
    N_("The luck of the cards shows here once a game is analysed."),
    N_("When a move's time runs out"),
    N_("a bot plays for them"),
    N_("the game waits for them"),
    N_("lost"),
    N_("won"),
    N_("playing"),
    N_("your turn"),
    N_("{name} ({colour}): {before} → {after} ({change})"),
    N_("{variant}, rated"),
    # a correspondence game's clock (panels.js)
    N_("{d} d {h} h"),
    N_("{h} h {m} min"),
    N_("{h} h {m} min left"),
    # the account API's refusals a player can meet (sorry.web.people)
    N_("this seat is held by an account: log in as it to play"),
    N_("a rated game is for accounts: log in to play it"),
    N_("your account holds another seat of this game"),
    N_("log in to create a rated game"),
    N_("log in to invite an account by name"),
    N_("no account has that name"),
    N_("that player does not take invitations from you"),
    # the account API's refusals by code (sorry.web.passwords)
    *MESSAGES.values(),
)


def plurals() -> dict[str, list[str]]:
    """The plural messages of those scripts (``tn()``) in the current language: singular
    msgid -> [the form for 1, the form for other numbers]."""
    return {
        "Your turn in {n} game": [
            ngettext("Your turn in {n} game", "Your turn in {n} games", n) for n in (1, 2)
        ],
        "{rating} ± {interval}, {n} game": [
            ngettext("{rating} ± {interval}, {n} game", "{rating} ± {interval}, {n} games", n)
            for n in (1, 2)
        ],
        "± {interval}, {n} rated game": [
            ngettext("± {interval}, {n} rated game", "± {interval}, {n} rated games", n)
            for n in (1, 2)
        ],
    }
