"""Group commit (sorry.web.db.GroupWriter): writes that wait together share one transaction;
each is acknowledged only after its commit; order within a game is kept; a conflicting or
failing write does not take the others with it."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import Any

import pytest
import sqlalchemy as sa

from sorry import Game
from sorry.cards import card_name
from sorry.web.db import ConflictError, Database, MoveRow, SeatRow, restore_game


def new_game(db: Database, gid: str, seed: int) -> Game:
    game = Game(players=[0, 2], seed=seed)
    while game.is_chance():
        game.draw()
    seats = [SeatRow(c, "bot", "random", "b", None, True) for c in (0, 2)]
    db.create_game(gid, gid, False, "standard", game.rules.to_dict(), game.to_dict(), seats)
    return game


def next_move(game: Game, seq: int) -> MoveRow:
    """Play the first legal move on ``game`` and the draws after it; the row that records it."""
    colour = game.to_move
    move = game.legal_moves[0]
    game.push(move)
    draws = []
    while game.is_chance():
        draws.append(card_name(game.draw()))
    return MoveRow(seq, colour, "bot", str(move), draws)


def committed_seqs(db: Database, gid: str) -> list[int]:
    return [m.seq for m in db.load_moves(gid)]


@pytest.fixture
def db(sqlite_url: str) -> Any:
    database = Database(sqlite_url)
    yield database
    database.dispose()


def test_writes_waiting_together_share_one_transaction_in_order(db: Database) -> None:
    games = {f"g{i}": new_game(db, f"g{i}", seed=i) for i in range(5)}
    gate = threading.Event()
    started = threading.Event()

    def block(conn: Any) -> None:
        started.set()
        gate.wait(30)

    first = db.writer.submit(block)
    assert started.wait(30)
    batches = db.writer.batches
    # while the writer is busy: 3 moves of each game in a row, then a stale duplicate
    futures: dict[tuple[str, int], Future[None]] = {}
    for seq in (1, 2, 3):
        for gid, game in games.items():
            row = next_move(game, seq)
            futures[gid, seq] = db.writer.submit(db.write_move, gid, seq - 1, row, None, "playing")
    dup_row = MoveRow(2, 0, "bot", "pass", [])
    dup = db.writer.submit(db.write_move, "g0", 1, dup_row, None, "playing")

    def broken(conn: Any) -> None:
        conn.execute(sa.text("INSERT INTO sorry_moves (game_id) VALUES ('nothing')"))

    bad = db.writer.submit(broken)
    assert not any(f.done() for f in futures.values())  # nothing acknowledged before commit
    gate.set()
    first.result(30)
    for f in futures.values():
        f.result(30)
    with pytest.raises(ConflictError):
        dup.result(30)
    with pytest.raises(sa.exc.IntegrityError):
        bad.result(30)
    # the 15 moves and the duplicate went in one transaction; the broken write rolled it back
    # and the writes were tried again one by one
    assert db.writer.batches - batches >= 2
    for gid, game in games.items():
        assert committed_seqs(db, gid) == [1, 2, 3]
        found = db.load_full(gid)
        assert found is not None
        row, rows = found
        assert row.seq == 3
        assert restore_game(row.state, rows) == game


def test_a_conflict_does_not_fail_the_rest_of_the_group(db: Database) -> None:
    a, b = new_game(db, "a", 1), new_game(db, "b", 2)
    gate = threading.Event()
    started = threading.Event()

    def block(conn: Any) -> None:
        started.set()
        gate.wait(30)

    db.writer.submit(block)
    assert started.wait(30)
    batches = db.writer.batches
    ra, rb = next_move(a, 1), next_move(b, 1)
    stale = db.writer.submit(db.write_move, "a", 5, MoveRow(6, 0, "bot", "pass", []), None, "x")
    fa = db.writer.submit(db.write_move, "a", 0, ra, None, "playing")
    fb = db.writer.submit(db.write_move, "b", 0, rb, None, "playing")
    gate.set()
    fa.result(30)
    fb.result(30)
    with pytest.raises(ConflictError):
        stale.result(30)
    assert db.writer.batches - batches == 2  # the blocker's, then all three in one
    assert committed_seqs(db, "a") == [1] and committed_seqs(db, "b") == [1]


def test_acknowledged_only_after_commit(db: Database, sqlite_url: str) -> None:
    """Each write's future completes after its transaction committed: another connection
    already sees the move when the acknowledgement arrives."""
    games = {f"g{i}": new_game(db, f"g{i}", seed=10 + i) for i in range(4)}
    other = Database(sqlite_url)
    seen: list[bool] = []
    lock = threading.Lock()

    def check(gid: str, seq: int) -> Any:
        def done(f: Future[None]) -> None:
            visible = seq in committed_seqs(other, gid)
            with lock:
                seen.append(visible)

        return done

    def player(gid: str) -> None:
        game = games[gid]
        for seq in range(1, 21):
            if game.is_over():
                break
            f = db.writer.submit(db.write_move, gid, seq - 1, next_move(game, seq), None, "playing")
            f.add_done_callback(check(gid, seq))
            f.result(30)

    threads = [threading.Thread(target=player, args=(gid,)) for gid in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    other.dispose()
    assert seen and all(seen)
    for gid in games:
        assert committed_seqs(db, gid) == list(range(1, 21))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_moves_of_different_games_written_together_and_a_conflict_among_them(
    backend: str, request: pytest.FixtureRequest
) -> None:
    """Moves of different games waiting together are written by one statement of each kind
    (Database.write_moves); a stale one among them makes the group roll back and run again
    one write at a time: it alone is refused, the others are committed, in order."""
    url = request.getfixturevalue("sqlite_url" if backend == "sqlite" else "postgres_url")
    db = Database(url)
    try:
        games = {f"w{i}": new_game(db, f"w{i}", seed=20 + i) for i in range(4)}
        stale_game = new_game(db, "stale", 99)
        gate = threading.Event()
        started = threading.Event()

        def block(conn: Any) -> None:
            started.set()
            gate.wait(30)

        db.writer.submit(block)
        assert started.wait(30)
        batches = db.writer.batches
        rows = {gid: next_move(g, 1) for gid, g in games.items()}
        futures = {
            gid: db.writer.submit(db.write_move, gid, 0, rows[gid], None, "playing")
            for gid in games
        }
        # then the second move of each, and a finished game's state stored with one of them
        rows2 = {gid: next_move(g, 2) for gid, g in games.items()}
        futures2 = {
            gid: db.writer.submit(
                db.write_move, gid, 1, rows2[gid], g.to_dict() if gid == "w0" else None, "playing"
            )
            for gid, g in games.items()
        }
        gate.set()
        for f in [*futures.values(), *futures2.values()]:
            f.result(30)
        assert db.writer.batches - batches == 2  # the blocker's, then one for all eight
        for gid, g in games.items():
            found = db.load_full(gid)
            assert found is not None
            row, moves = found
            assert [m.seq for m in moves] == [1, 2] and row.seq == 2
            assert restore_game(row.state, moves) == g
        # a stale move in the middle of a run of moves of other games
        gate.clear()
        started.clear()
        db.writer.submit(block)
        assert started.wait(30)
        batches = db.writer.batches
        rows3 = {gid: next_move(g, 3) for gid, g in games.items()}
        ids = list(games)
        fa = db.writer.submit(db.write_move, ids[0], 2, rows3[ids[0]], None, "playing")
        stale = db.writer.submit(
            db.write_move, "stale", 7, MoveRow(8, 0, "bot", "pass", []), None, "playing"
        )
        rest = [
            db.writer.submit(db.write_move, gid, 2, rows3[gid], None, "playing") for gid in ids[1:]
        ]
        gate.set()
        fa.result(30)
        for f in rest:
            f.result(30)
        with pytest.raises(ConflictError):
            stale.result(30)
        # the blocker's; the group of five rolled back; then each of the five alone
        assert db.writer.batches - batches == 1 + 5
        for gid in games:
            assert committed_seqs(db, gid) == [1, 2, 3]
        assert committed_seqs(db, "stale") == []
        assert stale_game.turn == 0
    finally:
        db.dispose()


def test_the_writer_keeps_its_connection_and_replaces_it_after_a_failure(db: Database) -> None:
    """The writer thread writes every group on one connection (no pool checkout per group);
    a group that fails leaves it for a fresh one, and the writes after it go on."""
    game = new_game(db, "k", 3)
    seen: list[Any] = []

    def which(conn: Any) -> None:
        seen.append(conn.connection.driver_connection)

    db.writer.submit(which).result(30)
    db.writer.submit(db.write_move, "k", 0, next_move(game, 1), None, "playing").result(30)
    db.writer.submit(which).result(30)
    assert seen[0] is seen[1]

    def broken(conn: Any) -> None:
        conn.execute(sa.text("INSERT INTO sorry_moves (game_id) VALUES ('nothing')"))

    with pytest.raises(sa.exc.IntegrityError):
        db.writer.submit(broken).result(30)
    db.writer.submit(which).result(30)
    assert seen[2] is not seen[0]
    db.writer.submit(db.write_move, "k", 1, next_move(game, 2), None, "playing").result(30)
    with pytest.raises(ConflictError):  # the same step again: nothing written
        db.writer.submit(db.write_move, "k", 1, MoveRow(2, 0, "bot", "pass", []), None, "x").result(
            30
        )
    assert committed_seqs(db, "k") == [1, 2]
    found = db.load_full("k")
    assert found is not None and found[0].seq == 2 and found[0].status == "playing"
    assert restore_game(found[0].state, found[1]) == game
