"""What the new-game screen offers and remembers, without Textual: the rule options a player can
choose in each variant, and the settings of the last game started (kept between runs in a small
JSON file).

>>> sorted(choosable("standard"))[:3]
['deck', 'slide_on', 'sorry_forward_4']
>>> "team_seven_split" in choosable("teams"), "team_seven_split" in choosable("standard")
(True, False)
>>> "starting_pawns_out" in choosable("points")  # the points variant always starts one out
False
>>> s = Settings(variant="points", seats={0: "human", 1: "off", 2: "easy", 3: "off"})
>>> session = s.session()
>>> session.rules.points, session.colours
(True, (0, 2))
>>> Settings.from_json(s.to_json()) == s
True
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..board import COLOUR_LETTERS, COLOURS
from ..errors import RulesError, SorryError
from ..i18n import _
from ..rules import OPTION_VALUES, VARIANTS, Rules
from .pace import DEFAULT_SPEED
from .players import DEFAULT_LEVEL, bot_levels, default_level
from .session import Session

#: What a seat of the new-game screen can hold besides a bot level.
OFF, HUMAN = "off", "human"


def choosable(variant: str) -> dict[str, tuple[str, ...]]:
    """The rule options a player can set in ``variant``, each with the values it accepts;
    options fixed by the variant (or meant for another one) are left out. Asked of the rules
    themselves, so no rule is written twice."""
    out = {}
    for name, values in OPTION_VALUES.items():
        if name == "turn_limit":
            continue
        allowed = tuple(v for v in values if _accepted(variant, name, v))
        if len(allowed) > 1:
            out[name] = allowed
    return out


def _accepted(variant: str, name: str, value: str) -> bool:
    try:
        Rules.from_options(variant, {name: value})
    except RulesError:
        return False
    return True


def default_seats() -> dict[int, str]:
    """You play Red, bots of the default level the other colours."""
    return {c: HUMAN if c == 0 else default_level() for c in COLOURS}


@dataclass
class Settings:
    """A new game as the new-game screen describes it."""

    variant: str = "standard"
    #: colour -> ``off``, ``human`` or a bot level
    seats: dict[int, str] = field(default_factory=default_seats)
    seed: int | None = None
    games: int = 1
    target: int | None = None
    #: the rule options that differ from the variant's defaults, as text
    options: dict[str, str] = field(default_factory=dict)
    speed: int = DEFAULT_SPEED

    def rules(self) -> Rules:
        return Rules.from_options(self.variant, self.options)

    def session(self) -> Session:
        """The match these settings describe (:class:`SorryError` when they make no sense)."""
        rules = self.rules()
        colours = [c for c in COLOURS if self.seats.get(c, OFF) != OFF]
        if len(colours) < 2:
            raise SorryError(_("seat at least two players (a person or a bot each)"))
        return Session(
            rules,
            players=colours,
            seats=[self.seats[c] for c in colours],
            seed=self.seed,
            games=self.games,
            target=self.target,
        )

    @classmethod
    def of_session(cls, session: Session, speed: int) -> Settings:
        """The settings of a game being played (its seed left out: the next game is new)."""
        default = Rules(variant=session.rules.variant).options()
        options = {k: v for k, v in session.rules.options().items() if default[k] != v}
        options.pop("turn_limit", None)
        seats = {c: OFF for c in COLOURS}
        for c, seat in session.seats.items():
            seats[c] = HUMAN if seat.human else str(seat.level)
        m = session.match
        return cls(session.rules.variant, seats, None, m.games or 1, m.target, options, speed)

    # -- kept between runs ---------------------------------------------------------------------
    def to_json(self) -> str:
        data = {
            "variant": self.variant,
            "seats": {COLOUR_LETTERS[c]: s for c, s in self.seats.items()},
            "seed": self.seed,
            "games": self.games,
            "target": self.target,
            "options": self.options,
            "speed": self.speed,
        }
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Settings:
        """Settings read back; anything missing, unknown or out of date takes its default (a
        stale file must never stop a game from starting)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return cls()
        if not isinstance(data, dict):
            return cls()
        out = cls()
        if data.get("variant") in VARIANTS:
            out.variant = str(data["variant"])
        seats = data.get("seats")
        if isinstance(seats, dict):
            levels = bot_levels()
            for c in COLOURS:
                seat = seats.get(COLOUR_LETTERS[c])
                if seat in (OFF, HUMAN) or seat in levels:
                    out.seats[c] = str(seat)
        for key in ("seed", "target"):
            value = data.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                setattr(out, key, value)
        games = data.get("games")
        if isinstance(games, int) and not isinstance(games, bool) and games >= 1:
            out.games = games
        speed = data.get("speed")
        if isinstance(speed, int) and not isinstance(speed, bool) and 0 <= speed <= 5:
            out.speed = speed
        options = data.get("options")
        if isinstance(options, dict):
            allowed = choosable(out.variant)
            out.options = {
                str(k): str(v) for k, v in options.items() if k in allowed and str(v) in allowed[k]
            }
        return out


def settings_path() -> Path:
    """Where the last settings are kept: ``$XDG_CONFIG_HOME/sorry/tui.json`` (else
    ``~/.config/sorry/tui.json``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "sorry" / "tui.json"


def load_settings(path: Path) -> Settings:
    try:
        return Settings.from_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return Settings()


def save_settings(settings: Settings, path: Path) -> bool:
    """Keep ``settings`` for the next run; False if the file cannot be written (the game goes
    on: remembering is a convenience)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(settings.to_json(), encoding="utf-8")
    except OSError:
        return False
    return True


__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_SPEED",
    "Settings",
    "choosable",
    "default_level",
    "load_settings",
    "save_settings",
    "settings_path",
]
