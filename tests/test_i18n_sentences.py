"""The move descriptions of a fixed set of positions, every kind of move, in every language,
against the reviewed sentences of ``tests/data/sentences.txt``: a change to how sentences are
built (or to a catalog's words for them) shows up there as a diff a reviewer reads.

``python tests/test_i18n_sentences.py --update`` writes the file anew from the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sorry import Game, i18n
from sorry.describe import describe, long, short
from sorry.moves import DISCARD, PASS, Move
from sorry.rules import Rules

EXPECTED = Path(__file__).parent / "data" / "sentences.txt"

TEAMS = Rules(variant="teams")

#: (name, position, card, index of the legal move, or a move of its own, rules): every kind of
#: move, and a partner's pawn moved in the teams game.
CASES: list[tuple[str, str, int, int | Move] | tuple[str, str, int, int | Move, Rules]] = [
    ("start", "R:S,S,S,S B:S,S,S,S R", 1, 0),
    ("forward", "R:S,S,S,20 B:S,S,S,S R", 5, 0),
    ("slide", "R:S,S,S,13 B:S,S,S,S R", 3, 0),
    ("bump", "R:S,S,S,20 B:S,S,S,25 R", 5, 0),
    ("slide and bump", "R:S,S,13,s2 B:S,S,S,18 R", 3, 0),
    ("backward", "R:S,S,S,20 B:S,S,S,S R", 4, 0),
    ("backward 10", "R:S,S,S,1 Y:S,S,S,S R", 10, 0),
    ("safety zone", "R:S,S,S,s1 B:S,S,S,S R", 2, 1),
    ("home", "R:S,S,S,s3 B:S,S,S,S R", 3, 0),
    ("swap", "R:S,S,S,12 B:S,S,S,30 R", 11, 1),
    ("decline the 11", "", 11, Move(PASS)),
    ("split 7", "R:S,S,4,10 B:S,S,S,30 R", 7, 2),
    ("Sorry!", "R:S,S,S,12 Y:S,S,S,30 R", 13, 0),
    ("pass", "R:S,S,S,S B:S,S,S,S R", 3, 0),
    ("discard", "", 0, Move(DISCARD, card=5)),
    ("teams: the partner's pawn", "R:S,S,S,S B:S,S,S,S Y:S,S,S,10 G:S,S,S,S R", 5, 0, TEAMS),
    ("teams: split 7", "R:S,S,S,40 B:S,S,S,S Y:S,S,S,10 G:S,S,S,S R", 7, 2, TEAMS),
]


def rendered() -> list[str]:
    """Every case in every language: the long form, the short form, and the short form said
    without the mover (inside a sentence that names them)."""
    lines = []
    for name, position, card, which, *rules in CASES:
        for lang in i18n.LANGUAGES:
            with i18n.using(lang):
                if isinstance(which, Move):
                    card_ = card or None
                    texts = [
                        long(which, [], 0),
                        short(which, card=card_),
                        short(which, card=card_, mover=0),
                    ]
                else:
                    game = Game.from_position(position, *rules, card=card)
                    move = game.legal_moves[which]
                    effects = game.effects(move) if move.kind != PASS else []
                    texts = [
                        describe(game, move),
                        describe(game, move, short_form=True),
                        short(move, effects, card, None, mover=game.to_move),
                    ]
            for form, text in zip(("long", "short", "inside"), texts, strict=True):
                lines.append(f"{name} | {lang} | {form} | {text}")
        lines.append("")
    return lines


def test_move_sentences_are_the_reviewed_ones() -> None:
    want = EXPECTED.read_text(encoding="utf-8").splitlines()
    got = rendered()
    assert got == want, "\n".join(
        f"- {w}\n+ {g}" for w, g in zip(want, got, strict=False) if w != g
    )


def test_every_kind_of_move_is_there() -> None:
    from sorry.moves import BACKWARD, ENTER, FORWARD, SORRY, SPLIT, SWAP

    kinds = set()
    for _name, position, card, which, *rules in CASES:
        if isinstance(which, Move):
            kinds.add(which.kind)
        else:
            kinds.add(Game.from_position(position, *rules, card=card).legal_moves[which].kind)
    assert {FORWARD, BACKWARD, ENTER, SORRY, SWAP, SPLIT, PASS, DISCARD} <= kinds


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    EXPECTED.write_text("\n".join(rendered()) + "\n", encoding="utf-8")
