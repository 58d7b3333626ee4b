"""The rule set: a variant plus the named rule options of docs/variants.md, validated.

>>> r = Rules.from_options("standard", ["deck=44", "slide_on=own"])
>>> r.deck, r.slide_on, r.options_text()
(44, 'own', 'deck=44 slide_on=own')
>>> Rules.from_options("standard", ["team_swap_partner=yes"])
Traceback (most recent call last):
...
sorry.errors.RulesError: option team_swap_partner only applies to the teams variant
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .errors import RulesError
from .i18n import N_, _
from .rulebook import Rulebook

VARIANTS: Final = ("standard", "teams", "points")


@dataclass(frozen=True)
class RuleOption:
    """A rule option as players meet it, in one place: its name, its values as text (the
    first is the default), the variant it alone applies to, and its words (English, marked
    for the catalogs; a face translates them where it shows them): a label and each value's
    words, each long (the browser's form) and short (the terminal's new-game screen, which
    must fit 80 columns). The terminal game, the server and, through the server's
    ``/api/meta``, the browser read this table; none of them spells an option again."""

    name: str
    values: tuple[str, ...]
    label: str
    short: str
    #: value -> (long words, short words)
    words: Mapping[str, tuple[str, str]]
    variant: str | None = None

    def value_words(self, value: str, short: bool = False) -> str:
        """The words of ``value`` (English: translate with ``_()``), or the value itself."""
        pair = self.words.get(value)
        return value if pair is None else pair[short]


_YES_NO: Final = {"yes": (N_("yes"), N_("yes")), "no": (N_("no"), N_("no"))}

#: Every rule option (docs/variants.md), in the order faces list them.
OPTIONS: Final[tuple[RuleOption, ...]] = (
    RuleOption(
        "deck",
        ("45", "44"),
        N_("Deck"),
        N_("Deck"),
        {
            "45": (N_("45 cards (five 1s)"), "45"),
            "44": (N_("44 cards (first edition)"), "44"),
        },
    ),
    RuleOption(
        "two_draws_again",
        ("yes", "no"),
        N_("A 2 lets you draw again"),
        N_("A 2 draws again"),
        {"yes": _YES_NO["yes"], "no": (N_("no (later editions)"), N_("no"))},
    ),
    RuleOption(
        "sorry_forward_4",
        ("no", "always", "fallback"),
        N_("Sorry! may move 4 forward instead"),
        N_("Sorry! or 4 forward"),
        {
            "no": _YES_NO["no"],
            "always": (N_("always"), N_("always")),
            "fallback": (N_("only when there is no target"), N_("if no one to bump")),
        },
    ),
    RuleOption(
        "ten_backward",
        ("choice", "fallback"),
        N_("A 10 may move 1 backward"),
        N_("10: 1 backward"),
        {
            "choice": (N_("instead of 10 forward, as the player chooses"), N_("as you choose")),
            "fallback": (
                N_("only when no pawn can move 10 forward (house rule)"),
                N_("if 10 forward is impossible"),
            ),
        },
    ),
    RuleOption(
        "slide_on",
        ("other", "own", "all"),
        N_("Pawns slide on"),
        N_("Slides"),
        {
            "other": (N_("other colours' slides"), N_("other colours'")),
            "own": (N_("only their own colour's (later editions)"), N_("own colour's")),
            "all": (N_("every slide"), N_("all")),
        },
    ),
    RuleOption(
        "swap_slides",
        ("mover", "both"),
        N_("After an 11 swap, who slides"),
        N_("Slide after an 11"),
        {
            "mover": (N_("the pawn that moved"), N_("the mover")),
            "both": (N_("both pawns"), N_("both")),
        },
    ),
    RuleOption(
        "starting_pawns_out",
        ("0", "1"),
        N_("Pawns on the board at the start"),
        N_("Pawns out at start"),
        {
            "0": (N_("none, all in START"), "0"),
            "1": (N_("one, on its START exit"), "1"),
        },
    ),
    RuleOption(
        "team_seven_split",
        ("two", "any"),
        N_("Teams: a 7 may be split among"),
        N_("Teams: split a 7"),
        {
            "two": (N_("two pawns"), N_("two pawns")),
            "any": (N_("any number of the team's pawns"), N_("any number")),
        },
        variant="teams",
    ),
    RuleOption(
        "team_swap_partner",
        ("no", "yes"),
        N_("Teams: an 11 may swap with your partner"),
        N_("Teams: swap partner"),
        _YES_NO,
        variant="teams",
    ),
    RuleOption(
        "points_bonus",
        ("highest", "cumulative"),
        N_("Points: the winner's bonus"),
        N_("Points: bonus"),
        {
            "highest": (N_("only the highest that applies"), N_("the highest")),
            "cumulative": (N_("all that apply, added up"), N_("cumulative")),
        },
        variant="points",
    ),
    # or a positive integer: for simulations, so no face's form offers it (no words)
    RuleOption("turn_limit", ("none",), "turn_limit", "turn_limit", {}),
)
#: option name -> its entry of :data:`OPTIONS`.
OPTION_TABLE: Final = {o.name: o for o in OPTIONS}
#: option name -> allowed values as text (the first is the default).
OPTION_VALUES: Final[dict[str, tuple[str, ...]]] = {o.name: o.values for o in OPTIONS}
#: Options whose values are booleans (``yes``/``no`` as text).
_BOOLS: Final = ("two_draws_again", "team_swap_partner")
#: Options that only make sense in one variant.
VARIANT_ONLY: Final = {o.name: o.variant for o in OPTIONS if o.variant is not None}
#: Options a player chooses in a new-game form (``turn_limit`` is for simulations).
FORM_OPTIONS: Final = tuple(o.name for o in OPTIONS if o.name != "turn_limit")

#: What an engine cannot play, as ``(name, value)`` settings (``variant`` is one of the names,
#: values as text): each engine other than :class:`~sorry.game.Game` declares its own
#: (``sorry.playout.UNSUPPORTED``, ``sorry.fast.UNSUPPORTED``), and a test plays every value
#: of every option in every engine that does not declare it.
Unsupported = frozenset[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Rules:
    """A variant and its options. Every field has the default (docs/rules.md, Options)."""

    variant: str = "standard"
    deck: int = 45
    two_draws_again: bool = True
    sorry_forward_4: str = "no"
    ten_backward: str = "choice"
    slide_on: str = "other"
    swap_slides: str = "mover"
    starting_pawns_out: int = 0
    team_seven_split: str = "two"
    team_swap_partner: bool = False
    points_bonus: str = "highest"
    turn_limit: int | None = None
    #: The tables of these rules (see :attr:`book`), built on first use.
    _book: Rulebook | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise RulesError(
                _("unknown variant {variant!r} (expected standard, teams or points)").format(
                    variant=self.variant
                )
            )
        for name, values in OPTION_VALUES.items():
            if name == "turn_limit":
                continue
            value = getattr(self, name)
            if isinstance(value, str) and value in values:
                value = _convert(name, value)  # "44" -> 44, "no" -> False, as from_options
                object.__setattr__(self, name, value)
            if _text(value) not in values or isinstance(value, bool) != (name in _BOOLS):
                raise RulesError(
                    _("bad value {value!r} for option {name}").format(value=value, name=name)
                )
            only = VARIANT_ONLY.get(name)
            if only is not None and only != self.variant and _text(value) != values[0]:
                raise RulesError(
                    _("option {name} only applies to the {only} variant").format(
                        name=name, only=only
                    )
                )
        if self.turn_limit is not None and (
            isinstance(self.turn_limit, bool)
            or not isinstance(self.turn_limit, int)
            or self.turn_limit < 1
        ):
            raise RulesError(_("turn_limit must be a positive integer or none"))
        if self.variant == "points" and self.starting_pawns_out != 1:
            object.__setattr__(self, "starting_pawns_out", 1)

    @property
    def book(self) -> Rulebook:
        """The rulebook of these rules (:class:`sorry.rulebook.Rulebook`), built once."""
        book = self._book
        if book is None:
            book = Rulebook.build(self)
            object.__setattr__(self, "_book", book)
        return book

    @property
    def teams(self) -> bool:
        return self.variant == "teams"

    @property
    def points(self) -> bool:
        return self.variant == "points"

    @classmethod
    def from_options(
        cls, variant: str = "standard", options: Iterable[str] | Mapping[str, Any] = ()
    ) -> Rules:
        """Rules from ``key=value`` strings (or a mapping), refusing what makes no sense."""
        if variant not in VARIANTS:
            raise RulesError(
                _("unknown variant {variant!r} (expected standard, teams or points)").format(
                    variant=variant
                )
            )
        pairs: list[tuple[str, str]] = []
        if isinstance(options, Mapping):
            pairs = [(str(k), _text(v)) for k, v in options.items()]
        else:
            for item in options:
                key, sep, value = item.partition("=")
                if not sep:
                    raise RulesError(
                        _("option {item!r} is not of the form key=value").format(item=item)
                    )
                pairs.append((key.strip(), value.strip()))
        kwargs: dict[str, Any] = {}
        for key, value in pairs:
            if key not in OPTION_VALUES:
                known = ", ".join(OPTION_VALUES)
                raise RulesError(
                    _("unknown rule option {key!r} (known: {known})").format(key=key, known=known)
                )
            if key in kwargs:
                raise RulesError(_("option {key} given twice").format(key=key))
            only = VARIANT_ONLY.get(key)
            if only is not None and only != variant:
                raise RulesError(
                    _("option {name} only applies to the {only} variant").format(
                        name=key, only=only
                    )
                )
            kwargs[key] = _convert(key, value)
        if variant == "points" and kwargs.get("starting_pawns_out") == 0:
            raise RulesError(
                _(
                    "the points variant always starts one pawn on its START exit "
                    "(starting_pawns_out=0 makes no sense there)"
                )
            )
        return cls(variant=variant, **kwargs)

    def settings(self) -> dict[str, str]:
        """The variant and every option as text: ``{"variant": "teams", "deck": "45", ...}``."""
        return {"variant": self.variant, **self.options()}

    def check_supported(self, unsupported: Unsupported, engine: str) -> None:
        """:class:`RulesError` if these rules use a setting that ``engine`` declares it cannot
        play (``unsupported``, see :data:`Unsupported`)."""
        refused = unsupported & self.book.settings
        if refused:
            name, value = min(refused)
            raise RulesError(
                _("{engine} cannot play {name}={value}").format(
                    engine=engine, name=name, value=value
                )
            )

    def options(self) -> dict[str, str]:
        """Every option (defaults included) as text, in the order of OPTION_VALUES."""
        return {name: _text(getattr(self, name)) for name in OPTION_VALUES}

    def options_text(self) -> str:
        """The options that differ from the defaults, as ``key=value`` words."""
        default = Rules(variant=self.variant).options()
        return " ".join(f"{k}={v}" for k, v in self.options().items() if default[k] != v)

    def to_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "options": self.options()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        variant = data.get("variant", "standard")
        opts = dict(data.get("options", {}))
        default = Rules(variant=variant if variant in VARIANTS else "standard").options()
        explicit = {k: v for k, v in opts.items() if default.get(k) != v}
        return cls.from_options(variant, explicit)

    def replace(self, **changes: Any) -> Rules:
        return dataclasses.replace(self, **changes)


def _text(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "none"
    return str(value)


def _convert(key: str, value: str) -> Any:
    if key == "turn_limit":
        if value == "none":
            return None
        if value.isdigit() and int(value) > 0:
            return int(value)
        raise RulesError(
            _("bad value {value!r} for option turn_limit (a positive integer or none)").format(
                value=value
            )
        )
    allowed = OPTION_VALUES[key]
    if value not in allowed:
        raise RulesError(
            _("bad value {value!r} for option {key} (expected {values})").format(
                value=value, key=key, values=_(" or ").join(allowed)
            )
        )
    if key in ("deck", "starting_pawns_out"):
        return int(value)
    if key in ("two_draws_again", "team_swap_partner"):
        return value == "yes"
    return value
