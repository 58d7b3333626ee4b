"""The server's garbage collection (sorry.web.collector): the full collections are the
collector's, on the service's tick, not while the server is busy; their survivors are set
aside, and everything is collected again every ``reclaim_every`` seconds."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from sorry.cli import main
from sorry.web.collector import FULL_AFTER, NEVER, Collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def collector() -> Iterator[tuple[Collector, list[bool]]]:
    busy = [False]
    c = Collector(60.0, lambda: busy[0], defer=10.0)
    threshold = gc.get_threshold()
    c.start()
    yield c, busy
    c.stop()
    assert gc.get_threshold() == threshold  # the interpreter's own again
    gc.unfreeze()  # the rest of the test run keeps Python's own collector
    gc.collect()


def middle_collections(n: int = FULL_AFTER) -> None:
    """As many collections of the middle generation as make a full collection due."""
    for _ in range(n):
        gc.collect(1)


def test_full_collections_wait_for_a_quiet_tick_and_their_survivors_are_set_aside(
    collector: tuple[Collector, list[bool]],
) -> None:
    c, busy = collector
    assert gc.get_threshold()[2] == NEVER  # the interpreter makes no full collection itself
    assert gc.get_freeze_count() > 0
    t = c._reclaimed
    garbage = cycle()
    old = garbage()
    gc.collect(1)  # it survived the middle generation: old now
    kept = [cycle()]
    strong = kept[0]()
    del old  # garbage in the oldest generation: only a full collection frees it
    c.tick(t + 1)
    assert c.collections == 0  # not due yet
    middle_collections()
    assert garbage() is not None  # the middle generation's collections do not free it
    busy[0] = True
    c.tick(t + 2)  # due, but busy: it waits
    c.tick(t + 11)
    assert c.collections == 0 and garbage() is not None
    c.tick(t + 12.5)  # waited ten seconds: runs anyway
    assert c.collections == 1 and garbage() is None
    busy[0] = False
    aside = kept[0]
    del strong, kept  # garbage now, among the objects set aside by that collection
    middle_collections()
    c.tick(t + 13)  # due and quiet: runs at once, but does not see what was set aside
    assert c.collections == 2 and aside() is not None
    assert c.reclaims == 0


def test_everything_is_collected_again_every_reclaim_interval(
    collector: tuple[Collector, list[bool]],
) -> None:
    c, busy = collector
    t = c._reclaimed
    held = [cycle()]
    ref = held[0]
    strong = ref()
    middle_collections()
    c.tick(t + 1)
    assert c.collections == 1  # the cycle, alive then, is set aside
    del strong, held
    middle_collections()
    c.tick(t + 2)
    assert c.collections == 2 and ref() is not None  # out of the collections' sight
    busy[0] = True
    c.tick(t + 61)  # the reclaim is due, but the server is busy
    assert c.reclaims == 0 and ref() is not None
    c.tick(t + 121)  # overdue: it runs anyway
    assert c.reclaims == 1 and ref() is None
    assert gc.get_freeze_count() > 0  # what survived it is set aside again


def test_reclaim_every_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        Collector(0)


def test_serve_refuses_a_negative_reclaim_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--gc-reclaim-every", "-1"]) == 2
    err = capsys.readouterr().err
    assert "--gc-reclaim-every" in err and err.count("\n") == 1, err
