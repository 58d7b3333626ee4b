"""The bot levels as players read them: each level's name and one sentence saying how strong it
is, in words a player understands (beginner to expert). One place for every face: the terminal
and browser new-game screens and ``docs/strength.md`` read this table.

The texts are marked for translation (``N_``) and translated where shown:

>>> from sorry.i18n import using
>>> level_strength("easy")
'Rushes its pawns forward and ignores danger: for beginners and children.'
>>> with using("eo"):
...     level_label("hard")
'malfacila'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_, Word, _, word


@dataclass(frozen=True, slots=True)
class LevelInfo:
    """A bot level: its ``level`` key (``make_bot``'s argument), its ``name`` and its
    ``strength`` sentence (both untranslated: pass them through ``_()``, or use
    :func:`level_label` and :func:`level_strength`)."""

    level: str
    name: str
    strength: str


#: Every level, weakest first (the order of :data:`sorry.bots.LEVELS`).
LEVEL_TABLE: tuple[LevelInfo, ...] = (
    LevelInfo(
        "random",
        N_("random"),
        N_("Plays any legal move at random: for learning the rules."),
    ),
    LevelInfo(
        "easy",
        N_("easy"),
        N_("Rushes its pawns forward and ignores danger: for beginners and children."),
    ),
    LevelInfo(
        "medium",
        N_("medium"),
        N_(
            "Plays safely and sends your pawns back to START when it can: a fair game for a "
            "casual player."
        ),
    ),
    LevelInfo(
        "hard",
        N_("hard"),
        N_(
            "Counts the cards already played and looks one draw ahead: a challenge for a "
            "regular player."
        ),
    ),
    LevelInfo(
        "learned",
        N_("learned"),
        N_(
            "Taught itself by playing thousands of games against itself, and moves at once: "
            "nearly as hard to beat as the expert."
        ),
    ),
    LevelInfo(
        "expert",
        N_("expert"),
        N_(
            "Plays out hundreds of possible games before each move: hard to beat even for a "
            "strong player."
        ),
    ),
)

_BY_LEVEL = {info.level: info for info in LEVEL_TABLE}


def level_info(level: str) -> LevelInfo | None:
    """The table's entry of ``level`` (None for a level it does not know)."""
    return _BY_LEVEL.get(level)


def level_label(level: str) -> Word:
    """The level's name in the current language (the key itself for an unknown level), a
    :class:`~sorry.i18n.Word` that knows its other forms (``{level:acc}``)."""
    info = _BY_LEVEL.get(level)
    return word(level, info.name) if info is not None else Word(level, level)


def level_strength(level: str) -> str:
    """The level's one-sentence strength in the current language ('' for an unknown level)."""
    info = _BY_LEVEL.get(level)
    return _(info.strength) if info is not None else ""


__all__ = ["LEVEL_TABLE", "LevelInfo", "level_info", "level_label", "level_strength"]
