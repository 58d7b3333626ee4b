"""The rules in a player's words (``sorry.howto``): one text for the browser's rules page, the
terminal game and docs/rules.md, in the five languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sorry.howto import RULES, blocks, markdown
from sorry.i18n import LANGUAGES, using

RULES_MD = Path(__file__).parents[1] / "docs" / "rules.md"


def test_docs_rules_holds_the_players_rules_word_for_word() -> None:
    """The section "How to play" of docs/rules.md is the text the rules page shows."""
    text = RULES_MD.read_text(encoding="utf-8")
    found = re.search(
        r"<!-- the players' rules: sorry.howto.markdown\(\) -->\n\n(.*?)\n<!-- end of the "
        r"players' rules -->",
        text,
        re.S,
    )
    assert found, "docs/rules.md lost its section of the players' rules"
    with using("en"):
        assert found.group(1) == markdown(), "docs/rules.md and sorry.howto drifted apart"


def test_every_card_of_the_deck_is_explained() -> None:
    said = " ".join(text for kind, text in RULES if kind == "li")
    for card in ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "Sorry!"):
        assert re.search(rf"(^|[ ,]){re.escape(card)}(:|,| and)", said), card


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_the_rules_are_translated_into_every_language(lang: str) -> None:
    with using("en"):
        english = blocks()
    with using(lang):
        said = blocks()
    assert [k for k, _ in said] == [k for k, _ in english]
    untranslated = [e for (_, e), (_, s) in zip(english, said, strict=True) if e == s]
    assert not untranslated, untranslated
