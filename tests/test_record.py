"""Game records: JSON round trip, exact replay in every variant, and verification that catches
tampered cards, moves, commitments and results while accepting honest records."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from engine_helpers import below_moves, play_out
from sorry import Game, Rules
from sorry.cards import card_name
from sorry.record import (
    Commitment,
    GameRecord,
    RecordError,
    Seat,
    Step,
    commitment_hash,
    commitment_text,
    mix_seed,
    save_record,
    verify,
    verify_file,
)
from sorry.rng import Rng

NONCE = "5f" * 16


def play(game: Game, seed: int, steps: int | None = None) -> Game:
    """Random moves (``Rng(seed)``) to the end of the game, or for ``steps`` steps."""
    return play_out(game, below_moves(Rng(seed)), max_steps=steps)


def finished(variant: str = "standard", players: int = 2, seed: int = 1, **opts: str) -> Game:
    rules = Rules.from_options(variant, opts)
    return play(Game(rules, players=4 if variant == "teams" else players, seed=seed), seed)


def record_of(game: Game, seats: list[str] | None = None) -> GameRecord:
    return GameRecord.from_game(game, seats, commitment=Commitment.for_game(game, NONCE))


def tamper(record: GameRecord, n: int, **changes: str) -> GameRecord:
    """The record with step ``n`` (1-based) changed."""
    steps = list(record.steps)
    steps[n - 1] = dataclasses.replace(steps[n - 1], **changes)
    return dataclasses.replace(record, steps=tuple(steps))


# -- round trip ---------------------------------------------------------------------------------
GOLDEN = """\
{
  "format": "sorry-record",
  "version": 1,
  "engine": "sorry-engine 0.1.0",
  "rules": {"variant": "standard", "options": {"deck": "45", "two_draws_again": "yes", \
"sorry_forward_4": "no", "ten_backward": "choice", "slide_on": "other", "swap_slides": "mover", \
"starting_pawns_out": "0", \
"team_seven_split": "two", "team_swap_partner": "no", "points_bonus": "highest", \
"turn_limit": "4"}},
  "colours": ["R", "Y"],
  "first": "Y",
  "first_chosen_by": "seed",
  "seats": [
    {"colour": "R", "kind": "human", "name": "Ann", "level": null},
    {"colour": "Y", "kind": "bot", "name": "random", "level": "random"}
  ],
  "meta": {"event": "golden test"},
  "commitment": {"scheme": "sorry-commit-v1", "sha256": "COMMIT"},
  "steps": [
STEPS
  ],
  "result": RESULT,
  "reveal": {"seed": "42", "nonce": "5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f", "deck": DECK}
}
"""


def golden_game() -> Game:
    return play_out(Game(Rules(turn_limit=4), players=2, seed=42))


def test_record_text_is_stable() -> None:
    """The exact bytes this version writes (schema version 1) for a short game."""
    game = golden_game()
    rec = GameRecord.from_game(
        game,
        ["human:Ann", "random"],
        commitment=Commitment.for_game(game, NONCE),
        meta={"event": "golden test"},
    )
    text = rec.to_json()
    data = json.loads(text)
    expected = (
        GOLDEN.replace("COMMIT", data["commitment"]["sha256"])
        .replace("STEPS", ",\n".join("    " + _c(s) for s in data["steps"]))
        .replace("RESULT", _c(data["result"]))
        .replace("DECK", _c(data["reveal"]["deck"]))
    )
    assert text == expected
    assert data["first"] == COLOUR_LETTER[game.first]
    deck = [c for c in data["reveal"]["deck"]]
    text_to_hash = "sorry-commit-v1|42|" + ",".join(deck) + "|" + NONCE
    assert data["commitment"]["sha256"] == hashlib.sha256(text_to_hash.encode()).hexdigest()
    assert GameRecord.from_json(text).to_json() == text
    assert verify(GameRecord.from_json(text)).ok


COLOUR_LETTER = "RBYG"


def _c(value: object) -> str:
    return json.dumps(value, separators=(", ", ": "))


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(("standard", "teams", "points")),
    st.integers(2, 4),
    st.integers(0, 2**64 - 1),
    st.integers(0, 400),
)
def test_round_trip_is_byte_for_byte(variant: str, players: int, seed: int, steps: int) -> None:
    rules = Rules(variant=variant)
    game = play(Game(rules, players=4 if variant == "teams" else players, seed=seed), seed, steps)
    rec = GameRecord.from_game(game, None, meta={"note": 'é ü ∑ "quoted"'})
    text = rec.to_json()
    back = GameRecord.from_json(text)
    assert back == rec
    assert back.to_json() == text


def test_save_and_load_unchanged(tmp_path: Path) -> None:
    game = finished("points", 3, seed=8)
    path = tmp_path / "game.json"
    rec = save_record(game, ["human:Zoë", "bot:hard", "easy"], path)
    raw = path.read_bytes()
    assert raw == rec.to_json().encode("utf-8")
    loaded = GameRecord.load(path)
    assert loaded == rec
    again = tmp_path / "again.json"
    loaded.save(again)
    assert again.read_bytes() == raw
    assert [s.describe() for s in loaded.seats] == ["Zoë", "bot hard", "bot easy"]
    assert verify_file(path).ok


# -- replay reproduces the game -------------------------------------------------------------------
OPTIONS = {
    "standard": [
        {},
        {"deck": "44"},
        {"two_draws_again": "no"},
        {"slide_on": "all"},
        {"sorry_forward_4": "always"},
        {"turn_limit": "30"},
    ],
    "teams": [{}, {"team_seven_split": "any"}, {"team_swap_partner": "yes"}],
    "points": [{}, {"points_bonus": "cumulative"}, {"deck": "44"}],
}


@st.composite
def any_game(draw: st.DrawFn) -> Game:
    variant = draw(st.sampled_from(sorted(OPTIONS)))
    opts = draw(st.sampled_from(OPTIONS[variant]))
    rules = Rules.from_options(variant, opts)
    colours = (
        (0, 1, 2, 3)
        if variant == "teams"
        else draw(st.sampled_from([(0, 2), (0, 1, 2), (0, 1, 2, 3), (1, 3), (0, 3), (1, 2, 3)]))
    )
    first = draw(st.sampled_from((None, *colours)))
    seed = draw(st.integers(0, 2**64 - 1))
    steps = draw(st.sampled_from((0, 5, 60, 100_000, 100_000)))
    return play(Game(rules, players=colours, seed=seed, first=first), seed ^ 1, steps)


@settings(max_examples=30, deadline=None)
@given(any_game())
def test_replay_reproduces_the_final_state(game: Game) -> None:
    rec = GameRecord.from_game(game, None)
    again = GameRecord.from_json(rec.to_json())
    replayed = again.replay()
    assert replayed == game
    assert replayed.position_string() == game.position_string()
    assert replayed.draw_pile == game.draw_pile and replayed.discard_pile == game.discard_pile
    assert replayed.hands == game.hands and replayed.scores == game.scores
    assert replayed.winners == game.winners and replayed.rng.state == game.rng.state
    assert [str(x) for x in replayed.history] == [str(x) for x in game.history]
    result = verify(again)
    assert result.ok, str(result)
    assert result.steps_checked == len(game.history)
    # replaying part of the record gives the game at that step
    k = len(rec.steps) // 2
    part = rec.replay(k)
    assert len(part.history) == k
    assert [str(x) for x in part.history] == [str(x) for x in game.history[:k]]


def test_the_first_player_named_or_from_the_seed() -> None:
    named = play(Game(players=3, seed=12, first=1), 3)
    rec = record_of(named)
    assert rec.first_chosen_by == "players" and rec.first == 1
    assert verify(rec).ok and rec.replay() == named
    drawn = play(Game(players=3, seed=12), 3)
    assert record_of(drawn).first_chosen_by == "seed"


def test_a_record_needs_a_seeded_game() -> None:
    game = Game.from_position("R:S,S,S,4 Y:S,S,S,S R", card=5)
    with pytest.raises(RecordError, match="began from its seed"):
        GameRecord.from_game(game)


def test_commitment_can_be_published_before_play() -> None:
    game = Game(players=4, seed=99)
    c = Commitment.for_game(game)
    published = c.sha256  # before the first card
    play(game, 5)
    rec = GameRecord.from_game(game, None, commitment=c)
    assert rec.commitment == published
    assert rec.nonce == c.nonce and len(c.nonce) == 32
    assert commitment_hash(rec.seed, c.deck, rec.nonce) == published
    assert c.text == commitment_text(99, c.deck, c.nonce)
    assert c.text.startswith("sorry-commit-v1|99|")
    other = Game(players=4, seed=100)
    with pytest.raises(RecordError, match="not that of this game"):
        GameRecord.from_game(game, None, commitment=Commitment.for_game(other))
    # two fresh nonces: the same deal gives unrelated commitments (the hash hides the seed)
    assert Commitment.for_game(game).sha256 != Commitment.for_game(game).sha256


def test_the_deck_is_the_seeded_deck_in_drawing_order() -> None:
    game = Game(players=2, seed=7)
    rec = record_of(play(game, 7))
    draws = [s.draw for s in rec.steps if s.draw is not None]
    assert draws[: len(rec.deck)] == list(rec.deck)
    assert len(draws) > len(rec.deck), "the game went through a reshuffle"


# -- verification ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def honest() -> GameRecord:
    return record_of(finished("standard", 4, seed=3), ["human", "random", "random", "random"])


def test_an_honest_record_is_accepted(honest: GameRecord) -> None:
    result = verify(honest)
    assert result.ok and bool(result)
    assert str(result).startswith("OK: ")
    assert "won after" in str(result)


def first_draw(record: GameRecord, after: int = 0) -> int:
    return next(n for n, s in enumerate(record.steps, 1) if s.draw is not None and n > after)


def first_move(record: GameRecord, after: int = 0) -> int:
    return next(n for n, s in enumerate(record.steps, 1) if s.move is not None and n > after)


def other_card(name: str) -> str:
    return "5" if name != "5" else "7"


def test_a_tampered_card_is_caught(honest: GameRecord) -> None:
    n = first_draw(honest, 20)
    real = honest.steps[n - 1].draw
    assert real is not None
    result = verify(tamper(honest, n, draw=other_card(real)))
    assert not result.ok
    assert result.step == n
    assert "not the deck's" in result.problem
    assert result.expected == real and result.found == other_card(real)
    assert f"step {n}:" in str(result)


def test_a_tampered_card_after_a_reshuffle_is_caught(honest: GameRecord) -> None:
    draws = [n for n, s in enumerate(honest.steps, 1) if s.draw is not None]
    n = draws[len(honest.deck) + 3]
    real = honest.steps[n - 1].draw
    assert real is not None
    result = verify(tamper(honest, n, draw=other_card(real)))
    assert result.step == n and "after reshuffle 1" in result.problem


def test_a_tampered_move_is_caught(honest: GameRecord) -> None:
    # another legal move (a different result): the recorded position gives it away
    game = honest.replay()
    for n in range(len(honest.steps), 0, -1):
        step = honest.steps[n - 1]
        game.pop()
        if step.move is None:
            continue
        alternatives = [m for m in game.legal_moves if str(m) != step.move]
        if alternatives:
            break
    bad = tamper(honest, n, move=str(alternatives[0]))
    result = verify(bad)
    assert result.step == n and "position" in result.problem
    # an illegal move
    m = first_move(honest, 10)
    result = verify(tamper(honest, m, move="R59+12"))
    assert result.step == m and "illegal move" in result.problem
    assert result.found == "R59+12"
    # an unreadable move
    result = verify(tamper(honest, m, move="R4++"))
    assert result.step == m and "unreadable move" in result.problem


def test_a_wrong_commitment_is_caught(honest: GameRecord) -> None:
    flipped = ("0" if honest.commitment[0] != "0" else "1") + honest.commitment[1:]
    result = verify(dataclasses.replace(honest, commitment=flipped))
    assert not result.ok and result.step == 0
    assert "commitment" in result.problem
    assert result.expected == flipped
    # a different nonce revealed than the one committed to
    result = verify(dataclasses.replace(honest, nonce="00" * 16))
    assert result.step == 0 and "commitment" in result.problem
    assert str(result).startswith("start: ")


def test_a_deck_the_seed_does_not_give_is_caught(honest: GameRecord) -> None:
    """A dealer who stacks the deck and commits to it honestly is still caught: the revealed
    seed does not shuffle to that deck."""
    deck = list(reversed(honest.deck))
    rigged = dataclasses.replace(
        honest,
        deck=tuple(deck),
        commitment=commitment_hash(honest.seed, [_card(c) for c in deck], honest.nonce),
    )
    result = verify(rigged)
    assert result.step == 0 and "does not shuffle to the revealed deck" in result.problem
    # a deck with a card too many
    padded = (*honest.deck[:-1], "S")
    result = verify(
        dataclasses.replace(
            honest,
            deck=padded,
            commitment=commitment_hash(honest.seed, [_card(c) for c in padded], honest.nonce),
        )
    )
    assert result.step == 0 and "45-card deck" in result.problem


def _card(name: str) -> int:
    from sorry.cards import parse_card

    return parse_card(name)


def test_rigged_draws_are_caught() -> None:
    """A game where someone chose the cards (draw(card)) is recorded faithfully and fails
    verification at the first card that is not the deck's."""
    game = Game(players=2, seed=21)
    c = Commitment.for_game(game, NONCE)
    game.draw()
    game.push(game.legal_moves[0])
    top = game.draw_pile[-1]
    wanted = next(x for x in game.draw_pile if x != top)
    game.draw(wanted)
    play(game, 2, 50)
    rec = GameRecord.from_game(game, None, commitment=c)
    assert rec.replay() == game
    result = verify(rec)
    assert result.step == 3
    assert result.expected == card_name(top) and result.found == card_name(wanted)
    assert "card 2 of the revealed deck" in result.problem


def test_wrong_player_and_wrong_order_are_caught(honest: GameRecord) -> None:
    m = first_move(honest, 5)
    colour = honest.steps[m - 1].colour
    wrong = next(c for c in "RBYG" if c != colour)
    assert "wrong player" in verify(tamper(honest, m, colour=wrong)).problem
    d = first_draw(honest, 5)
    colour = honest.steps[d - 1].colour
    wrong = next(c for c in "RBYG" if c != colour)
    assert "wrong player" in verify(tamper(honest, d, colour=wrong)).problem
    # a step dropped: a move where a card must be drawn
    red = next(n for n, s in enumerate(honest.steps, 1) if s.draw is not None and s.colour == "R")
    for d in (first_draw(honest, 5), red):
        steps = list(honest.steps)
        colour = steps[d - 1].colour
        del steps[d - 1]
        result = verify(dataclasses.replace(honest, steps=tuple(steps)))
        assert result.step == d and "a move where a card must be drawn" in result.problem
        assert result.expected == f"a card for {colour}"


def test_a_tampered_result_is_caught(honest: GameRecord) -> None:
    end = len(honest.steps) + 1
    fake = dataclasses.replace(honest.result, winners=("B",))
    result = verify(dataclasses.replace(honest, result=fake))
    assert result.step == end and "winners" in result.problem
    fake = dataclasses.replace(honest.result, turns=honest.result.turns - 1)
    assert verify(dataclasses.replace(honest, result=fake)).step == end
    extra = (*honest.steps, Step("R", draw="5"))
    result = verify(dataclasses.replace(honest, steps=extra))
    assert result.step == end and "after the end" in result.problem
    short = honest.steps[:-1]
    result = verify(dataclasses.replace(honest, steps=short))
    assert result.step == len(short) + 1 and "status" in result.problem


def test_a_wrong_first_player_is_caught() -> None:
    rec = record_of(finished("standard", 2, seed=4))
    other = 0 if rec.first == 2 else 2
    result = verify(dataclasses.replace(rec, first=other))
    assert result.step == 0 and "first player" in result.problem


def test_verify_in_the_points_variant() -> None:
    rec = record_of(finished("points", 4, seed=17))
    assert verify(rec).ok
    assert rec.result.scores is not None
    fake = dataclasses.replace(rec.result, scores=tuple((c, s + 5) for c, s in rec.result.scores))
    assert "scores" in verify(dataclasses.replace(rec, result=fake)).problem
    d = first_draw(rec)  # the first card dealt
    real = rec.steps[d - 1].draw
    assert real is not None
    assert verify(tamper(rec, d, draw=other_card(real))).step == d


# -- reading errors -----------------------------------------------------------------------------
def test_unreadable_records(tmp_path: Path, honest: GameRecord) -> None:
    with pytest.raises(RecordError, match="not a JSON record"):
        GameRecord.from_json("{")
    with pytest.raises(RecordError, match="not a game record"):
        GameRecord.from_json('{"format": "sorry-game"}')
    data = json.loads(honest.to_json())
    data["version"] = 2
    with pytest.raises(RecordError, match="version 2 is not supported"):
        GameRecord.from_dict(data)
    for key in ("rules", "steps", "reveal", "commitment", "seats", "result"):
        data = json.loads(honest.to_json())
        del data[key]
        with pytest.raises(RecordError, match=key):
            GameRecord.from_dict(data)
    data = json.loads(honest.to_json())
    data["reveal"]["seed"] = 12
    with pytest.raises(RecordError, match="seed"):
        GameRecord.from_dict(data)
    data = json.loads(honest.to_json())
    data["rules"]["options"]["deck"] = "46"
    with pytest.raises(RecordError, match="bad record"):
        GameRecord.from_dict(data)
    data = json.loads(honest.to_json())
    data["seats"] = data["seats"][:-1]
    with pytest.raises(RecordError, match="seats"):
        GameRecord.from_dict(data)
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "missing.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe")
    with pytest.raises(RecordError, match="UTF-8"):
        GameRecord.load(tmp_path / "bin.json")


def test_replay_of_an_impossible_record_says_which_step(honest: GameRecord) -> None:
    m = first_move(honest, 4)
    with pytest.raises(RecordError, match=f"step {m} "):
        tamper(honest, m, move="R59+12").replay()


# -- seats and seeds ----------------------------------------------------------------------------
def test_seats() -> None:
    assert Seat.parse(0, "human") == Seat(0, "human", "")
    assert Seat.parse(1, "human:Ann") == Seat(1, "human", "Ann")
    assert Seat.parse(2, "easy") == Seat(2, "bot", "easy", "easy")
    assert Seat.parse(3, "bot:mcts") == Seat(3, "bot", "mcts", "mcts")
    game = Game(players=2, seed=1)
    assert [s.kind for s in GameRecord.from_game(game).seats] == ["unknown", "unknown"]
    rec = GameRecord.from_game(game, {0: "human", 2: Seat(2, "bot", "Robo", "hard")})
    assert rec.seats[1] == Seat(2, "bot", "Robo", "hard")
    with pytest.raises(RecordError, match="3 seats for 2 players"):
        GameRecord.from_game(game, ["human", "easy", "easy"])


def test_mix_seed() -> None:
    a = mix_seed("dealer", "alice", "bob")
    assert a == mix_seed("dealer", "alice", "bob")
    assert a != mix_seed("dealer", "alice", "bobby")
    assert 0 <= a < 2**64
    digest = hashlib.sha256(b"sorry-seed-v1|dealer|alice|bob").digest()
    assert a == int.from_bytes(digest[:8], "big")


# -- docs/records.md ------------------------------------------------------------------------------
DOC = Path(__file__).resolve().parent.parent / "docs" / "records.md"


def doc_block(lang: str, index: int = 0) -> str:
    text = DOC.read_text(encoding="utf-8")
    blocks = text.split(f"```{lang}\n")[1:]
    return blocks[index].split("```")[0]


def test_the_documented_example_is_what_this_version_writes() -> None:
    """The example of docs/records.md verifies, reads back byte for byte, and is exactly what
    this engine writes for that game (the moves are the example's own: no bot is involved)."""
    text = doc_block("json")
    rec = GameRecord.from_dict(json.loads(text))
    assert rec.to_json() == text
    game = rec.replay()
    commitment = Commitment(rec.seed, tuple(_card(c) for c in rec.deck), rec.nonce)
    again = GameRecord.from_game(game, rec.seats, commitment=commitment)
    written, documented = json.loads(again.to_json()), json.loads(text)
    written.pop("engine")
    documented.pop("engine")
    assert written == documented
    result = verify(rec)
    doc = DOC.read_text(encoding="utf-8")
    assert result.ok and str(result) in doc
    bad = tamper(rec, 11, draw="5")
    assert f"FAILED at {verify(bad)}" in doc.replace("\n", " ")


def test_the_documented_independent_audit(honest: GameRecord) -> None:
    """The standard-library script of docs/records.md accepts honest records of every variant
    (through reshuffles) and rejects tampered deals."""
    namespace: dict[str, object] = {"__name__": "audit"}
    exec(compile(doc_block("python", 0), str(DOC), "exec"), namespace)
    audit = namespace["audit"]
    assert callable(audit)
    cases = [
        record_of(finished("standard", 2, seed=31, deck="44")),
        record_of(play(Game(players=3, seed=32, first=1), 32)),
        record_of(finished("teams", seed=33)),
        record_of(finished("points", 3, seed=34)),
        record_of(finished("points", 2, seed=35, two_draws_again="no")),
        honest,
    ]
    for rec in cases:
        data = json.loads(rec.to_json())
        draws = sum(1 for s in data["steps"] if "draw" in s)
        assert draws > len(rec.deck)  # a reshuffle happened
        assert audit(data) is True
        n = [i for i, s in enumerate(data["steps"]) if "draw" in s][len(rec.deck) + 2]
        data["steps"][n]["draw"] = other_card(data["steps"][n]["draw"])
        with pytest.raises(AssertionError, match=f"step {n + 1}:"):
            audit(data)
    data = json.loads(honest.to_json())
    data["reveal"]["nonce"] = "0" * 32
    with pytest.raises(AssertionError, match="commitment"):
        audit(data)
