"""The server's garbage collection (sorry.web.collector): the survivors are set aside, and
collected again every ``reclaim_every`` seconds, later while the server is busy."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from sorry.cli import main
from sorry.web.collector import Collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    yield
    gc.unfreeze()  # the rest of the test run keeps Python's own collector
    gc.collect()


def test_survivors_are_set_aside_and_reclaimed_when_due() -> None:
    busy = [False]
    c = Collector(60.0, lambda: busy[0])
    c.start()
    assert gc.get_freeze_count() > 0
    start = c._reclaimed
    holder = [cycle()]
    kept = holder[0]
    strong = kept()  # alive through a full collection
    gc.collect()  # a full collection ran: its survivors are set aside at the next tick
    before = c.freezes
    c.tick(start + 1.0)
    assert c.freezes == before + 1 and c.reclaims == 0
    c.tick(start + 2.0)  # no full collection since: nothing to do
    assert c.freezes == before + 1
    del strong, holder  # now garbage, among the objects set aside
    gc.collect()
    assert kept() is not None  # a full collection does not see what was set aside
    busy[0] = True
    c.tick(start + 61.0)  # due, but the server is busy: it waits
    assert c.reclaims == 0 and kept() is not None
    c.tick(start + 121.0)  # overdue: it runs anyway
    assert c.reclaims == 1 and kept() is None
    busy[0] = False
    again = cycle()
    strong = again()
    gc.collect()
    c.tick(c._reclaimed + 1.0)  # set aside
    del strong
    gc.collect()
    assert again() is not None
    c.tick(c._reclaimed + 60.0)  # due and quiet
    assert c.reclaims == 2 and again() is None


def test_reclaim_every_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        Collector(0)


def test_serve_refuses_a_negative_reclaim_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--gc-reclaim-every", "-1"]) == 2
    err = capsys.readouterr().err
    assert "--gc-reclaim-every" in err and err.count("\n") == 1, err
