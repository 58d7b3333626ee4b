"""Board geometry (docs/rules.md, Board and coordinates) as plain ints and tables computed once
at import.

Locations are small ints:

* ``0``–``59``: the track, clockwise;
* ``60``–``64``: squares ``s1``–``s5`` of the Safety Zone *of the pawn's own colour*;
* ``65``: HOME;
* ``66``: START.

Colours are ``0``–``3`` for Red, Blue, Yellow, Green, in seat (clockwise) order.

>>> SAFETY_ENTRY[RED], START_EXIT[RED], START_EXIT[BLUE]
(2, 4, 19)
>>> loc_name(forward_dest(RED, 4, 12)), loc_name(forward_dest(RED, 0, 8))
('16', 'H')
>>> loc_name(backward_dest(RED, SAFE_BASE + 1, 1))
'2'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .i18n import N_, Word, _, word, words

Colour = int
Location = int

RED: Final = 0
BLUE: Final = 1
YELLOW: Final = 2
GREEN: Final = 3
COLOURS: Final = (RED, BLUE, YELLOW, GREEN)
COLOUR_LETTERS: Final = "RBYG"
#: English colour names (marked for translation: use :func:`colour_name` to show one).
COLOUR_NAMES: Final = (N_("Red"), N_("Blue"), N_("Yellow"), N_("Green"))

TRACK_LEN: Final = 60
SAFE_BASE: Final = 59  # s k is SAFE_BASE + k, k = 1..5
SAFETY_LEN: Final = 5
HOME: Final = 65
START: Final = 66
NUM_LOCATIONS: Final = 67
PAWNS_PER_COLOUR: Final = 4

#: Square where each colour's pawn turns into its Safety Zone (b+2).
SAFETY_ENTRY: Final = tuple(15 * c + 2 for c in COLOURS)
#: Square where each colour's pawn lands when it leaves START (b+4).
START_EXIT: Final = tuple(15 * c + 4 for c in COLOURS)
#: The slides: (triangle, end, colour of the slide).
SLIDES: Final = tuple(
    (15 * s + off, 15 * s + off + length, s) for s in COLOURS for off, length in ((1, 3), (9, 4))
)

MAX_STEPS: Final = 12


#: The colours' keys in the languages' tables of forms (``locale/<lang>/forms.toml``).
COLOUR_KEYS: Final = ("red", "blue", "yellow", "green")


def colour_name(colour: Colour) -> Word:
    """The colour's name in the current language (``Red`` in English), a player's name in
    sentences: a :class:`~sorry.i18n.Word` that knows its other forms (``{colour:gen}``)."""
    return word(COLOUR_KEYS[colour], COLOUR_NAMES[colour])


def colour_names(colours: Iterable[Colour]) -> Word:
    """Colours said together, a team's name: ``Red and Green`` in the current language (its
    forms are each colour's: ``{team:gen}``)."""
    return words(colour_name(c) for c in colours)


def place_name(loc: Location) -> Word:
    """A location for people: ``12``, ``Safety 2``, ``HOME``, ``START``, in the current
    language; a :class:`~sorry.i18n.Word`, so a sentence can ask for its forms
    (``[sto]{place}``: ``στο 12``, ``στην ΑΦΕΤΗΡΙΑ``)."""
    if loc < TRACK_LEN:
        return Word(str(loc), "square", loc)
    if loc == HOME:
        return word("home", N_("HOME"))
    if loc == START:
        return word("start", N_("START"))
    return word("safety", N_("Safety {n}"), loc - SAFE_BASE)


def colour_of_letter(letter: str) -> Colour:
    """The colour named by ``R``, ``B``, ``Y`` or ``G`` (``ValueError`` otherwise)."""
    idx = COLOUR_LETTERS.find(letter) if len(letter) == 1 else -1
    if idx < 0:
        raise ValueError(
            _("unknown colour {letter!r} (expected one of R, B, Y, G)").format(letter=letter)
        )
    return idx


def loc_name(loc: Location) -> str:
    """The notation of a location: ``S``, ``0``–``59``, ``s1``–``s5`` or ``H``."""
    if loc < TRACK_LEN:
        return str(loc)
    if loc == START:
        return "S"
    if loc == HOME:
        return "H"
    return f"s{loc - SAFE_BASE}"


def parse_loc(text: str) -> Location:
    """Inverse of :func:`loc_name`; raises ``ValueError`` with a clear message."""
    if text == "S":
        return START
    if text == "H":
        return HOME
    if len(text) == 2 and text[0] == "s" and text[1] in "12345":
        return SAFE_BASE + int(text[1])
    if text.isdigit() and (len(text) == 1 or text[0] != "0"):
        value = int(text)
        if value < TRACK_LEN:
            return value
        raise ValueError(
            _("square {value} is off the track (squares are 0-59)").format(value=value)
        )
    raise ValueError(
        _("bad pawn location {text!r} (expected S, 0-59, s1-s5 or H)").format(text=text)
    )


def loc_sort_key(loc: Location) -> int:
    """Order of locations in a position string: START, track ascending, s1..s5, HOME."""
    return -1 if loc == START else loc


def _forward(colour: Colour, loc: Location, n: int) -> Location:
    if n == 0:
        return loc
    if loc in (START, HOME):
        return -1
    if loc > SAFE_BASE:  # in the Safety Zone
        k = loc - SAFE_BASE + n
    else:
        d = (SAFETY_ENTRY[colour] - loc) % TRACK_LEN
        if n <= d:
            return (loc + n) % TRACK_LEN
        k = n - d
    if k <= SAFETY_LEN:
        return SAFE_BASE + k
    return HOME if k == SAFETY_LEN + 1 else -1


def _backward(colour: Colour, loc: Location, n: int) -> Location:
    if n == 0:
        return loc
    if loc in (START, HOME):
        return -1
    if loc < TRACK_LEN:
        return (loc - n) % TRACK_LEN
    k = loc - SAFE_BASE
    if n < k:
        return SAFE_BASE + k - n
    return (SAFETY_ENTRY[colour] - (n - k)) % TRACK_LEN


#: FORWARD[colour][location][n]: landing location of n steps forward, or -1 if impossible.
FORWARD: Final = tuple(
    tuple(tuple(_forward(c, loc, n) for n in range(MAX_STEPS + 1)) for loc in range(NUM_LOCATIONS))
    for c in COLOURS
)
#: BACKWARD[colour][location][n] for n = 0..4: landing location of n steps backward, or -1.
BACKWARD: Final = tuple(
    tuple(tuple(_backward(c, loc, n) for n in range(5)) for loc in range(NUM_LOCATIONS))
    for c in COLOURS
)


def forward_dest(colour: Colour, loc: Location, n: int) -> Location:
    """Where a ``colour`` pawn at ``loc`` lands after ``n`` steps forward (-1: impossible)."""
    return FORWARD[colour][loc][n]


def backward_dest(colour: Colour, loc: Location, n: int) -> Location:
    """Where a ``colour`` pawn at ``loc`` lands after ``n`` steps backward (-1: impossible)."""
    return BACKWARD[colour][loc][n]


def forward_path(colour: Colour, loc: Location, n: int) -> tuple[Location, ...]:
    """Every location a ``colour`` pawn at ``loc`` enters on ``n`` steps forward, in order
    (``()`` if the move is impossible).

    >>> [loc_name(x) for x in forward_path(RED, 0, 4)]
    ['1', '2', 's1', 's2']
    """
    row = FORWARD[colour][loc]
    if row[n] < 0:
        return ()
    return tuple(row[k] for k in range(1, n + 1))


def backward_path(colour: Colour, loc: Location, n: int) -> tuple[Location, ...]:
    """Every location a ``colour`` pawn at ``loc`` enters on ``n`` steps backward, in order."""
    row = BACKWARD[colour][loc]
    if row[n] < 0:
        return ()
    return tuple(row[k] for k in range(1, n + 1))


def steps_to_home(colour: Colour, loc: Location) -> int:
    """Forward steps from ``loc`` to HOME (65 for a pawn in START: 1 to leave, 64 after)."""
    if loc == HOME:
        return 0
    if loc == START:
        return 65
    if loc > SAFE_BASE:
        return SAFETY_LEN + 1 - (loc - SAFE_BASE)
    return (SAFETY_ENTRY[colour] - loc) % TRACK_LEN + SAFETY_LEN + 1


def slide_table(slide_on: str) -> tuple[tuple[int, ...], ...]:
    """SLIDE[colour][square] = end of the slide a ``colour`` pawn landing there takes, or -1.

    ``slide_on`` is the rule option: ``other`` (other colours' slides), ``own`` or ``all``.
    """
    table = []
    for c in COLOURS:
        row = [-1] * TRACK_LEN
        for triangle, end, owner in SLIDES:
            if (
                slide_on == "all"
                or (slide_on == "other" and owner != c)
                or (slide_on == "own" and owner == c)
            ):
                row[triangle] = end
        table.append(tuple(row))
    return tuple(table)
