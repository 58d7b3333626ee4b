"""The Ray backend: a run's batches as Ray tasks, on a Ray instance started for the run or on an
existing cluster (``address``: the head node's ``HOST:PORT``, as ``ray start --head`` prints it).

Every engine runs on it (the compiled engine's batches too, one thread a task), and the games
are the run's own: batch results are put back in game order, so the totals are those of one
process. A node whose compiled engine is not built yet plays its batches on the next fastest
engine (the same games) rather than compile for minutes in the middle of the run.

What a user meets is checked first and said in one line: a malformed or unreachable address
fails within seconds (Ray itself would retry for a minute and more), a cluster that goes away
mid-run ends the run with one line saying how many games were played, and Ray's own log lines
are kept out of the terminal (the progress line is ours).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import socket
import sys
import threading
import time
from collections.abc import Generator, Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace
from typing import Any

from ..errors import SorryError
from ..i18n import _
from .runner import GameRecord, RunSpec, _batch_size, choose_engine, fast_batch, run_batch

#: Seconds to wait for an address to resolve and for its port to answer.
CONNECT_TIMEOUT = 5.0
#: Seconds without an answer from the cluster's head before a run calls it gone.
GONE_AFTER = 3.0


def ray_installed() -> None:
    """:class:`SorryError` unless Ray can be imported (the ``sim`` extra)."""
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        raise SorryError(_("the ray backend needs Ray: pip install 'sorry-engine[sim]'"))


def parse_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT`` too) as its host and port, or :class:`SorryError`."""
    host, sep, port_text = address.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise SorryError(
            _("bad Ray address {address!r}: expected HOST:PORT, such as 10.0.0.5:6379").format(
                address=address
            )
        )
    return host, int(port_text)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_address(address: str, timeout: float = CONNECT_TIMEOUT) -> tuple[str, int]:
    """The address parsed, after checking within ``timeout`` seconds that its host resolves and
    that something answers on its port (:class:`SorryError` in one line otherwise)."""
    host, port = parse_address(address)
    found: list[Any] = []

    def resolve() -> None:
        try:
            found.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as exc:
            found.append(exc)

    worker = threading.Thread(target=resolve, daemon=True)
    worker.start()
    worker.join(timeout)
    if not found or isinstance(found[0], OSError):
        reason = _("unknown host") if found else _("no answer from the name service")
        raise SorryError(
            _("cannot reach the Ray cluster at {address}: {reason}").format(
                address=address, reason=reason
            )
        )
    family, kind, proto, _name, target = found[0][0]
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.settimeout(timeout)
            probe.connect(target)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise SorryError(
            _("no Ray cluster answers at {address}: {reason}").format(
                address=address, reason=reason.lower()
            )
        ) from None
    return host, port


def _answers(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        socket.create_connection((host, port), timeout).close()
    except OSError:
        return False
    return True


def _import_ray(loopback: bool) -> Any:
    """Ray, told to keep a loopback address as it is: by default it replaces 127.0.0.1 by the
    machine's network address (on which a cluster of this machine may not answer, and which a
    test must not use). The switch is the one Ray reads for clusters on one machine."""
    if loopback:
        os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # read when ray is imported
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    if loopback:  # already imported by this process: the same switch, on the module
        constants = getattr(getattr(ray, "_private", None), "ray_constants", None)
        if constants is not None and hasattr(constants, "ENABLE_RAY_CLUSTER"):
            constants.ENABLE_RAY_CLUSTER = False
    return ray


#: The start of a log line of Ray's C++ core (``[2026-12-05 10:54:02,075 E 708 736] ...``).
_RAY_LINE = re.compile(rb"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [DIWEF] \d+ \d+\] ")


@contextmanager
def _without_ray_lines() -> Iterator[None]:
    """Standard error without the log lines that Ray's C++ core writes there (at any moment,
    from its own threads: they would break into the progress line, and say in ten lines what
    the run says in one). Everything else written to it goes through as it comes."""
    try:
        real = os.dup(2)
    except OSError:  # no standard error to filter
        yield
        return
    read_end, write_end = os.pipe()
    sys.stderr.flush()
    os.dup2(write_end, 2)
    os.close(write_end)

    def pump() -> None:
        pending = b""
        while True:
            try:
                chunk = os.read(read_end, 65536)
            except OSError:
                return
            if not chunk:
                if pending:
                    _write(real, pending)
                return
            pending += chunk
            while pending:
                if _RAY_LINE.match(pending) or (pending[:1] == b"[" and b"\n" not in pending
                                                 and len(pending) < 64):  # fmt: skip
                    end = pending.find(b"\n")
                    if end < 0:
                        break  # a line that may be Ray's: wait for its end
                    if not _RAY_LINE.match(pending):
                        _write(real, pending[: end + 1])
                    pending = pending[end + 1 :]
                else:
                    cut = pending.find(b"[", 1)
                    out, pending = (pending, b"") if cut < 0 else (pending[:cut], pending[cut:])
                    _write(real, out)

    thread = threading.Thread(target=pump, name="ray-stderr", daemon=True)
    thread.start()
    try:
        yield
    finally:
        with suppress(Exception):
            sys.stderr.flush()
        os.dup2(real, 2)  # the pipe's last write end closes: the pump reads its end
        thread.join(2.0)
        os.close(real)
        with suppress(OSError):
            os.close(read_end)


def _write(fd: int, data: bytes) -> None:
    with suppress(OSError):
        while data:
            data = data[os.write(fd, data) :]


def _connect(ray: Any, address: str | None, jobs: int, loopback: bool) -> None:
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
    try:
        if address:
            ray.init(address=address, **quiet)
        else:
            # this run's own instance, on the loopback: no token to write into ~/.ray (which
            # Ray would do for a new local instance, and use for every later one)
            os.environ.setdefault("RAY_AUTH_MODE", "disabled")
            ray.init(
                num_cpus=max(1, jobs),
                include_dashboard=False,
                _node_ip_address="127.0.0.1",
                **quiet,
            )
    except Exception as exc:  # Ray raises many kinds; the user gets one line
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        if address:
            raise SorryError(
                _("cannot connect to the Ray cluster at {address}: {reason}").format(
                    address=address, reason=first
                )
            ) from None
        raise SorryError(_("cannot start Ray: {reason}").format(reason=first)) from None


def play_batch(spec: RunSpec, indices: list[int]) -> list[GameRecord]:
    """One batch, in a Ray worker: the compiled engine's from its cache only (a node where it
    is not built plays the batch on the next engine: the same games)."""
    if spec.engine != "fast":
        return run_batch(spec, indices)
    from ..fast.cache import CompileNeeded, cache_only

    try:
        with cache_only():
            return fast_batch(spec, indices, threads=1)
    except CompileNeeded:
        engine = choose_engine(spec.rules, spec.bots, "auto", fast=False)
        return run_batch(replace(spec, engine=engine), indices)


def run_ray(
    spec: RunSpec, games: int, jobs: int, address: str | None
) -> Generator[list[GameRecord], None, None]:
    """The batches of games ``0..games-1`` as Ray tasks, a few in flight per CPU of the cluster;
    yields each batch's records as it finishes."""
    ray_installed()
    host_port = check_address(address) if address else None
    with _without_ray_lines():
        yield from _run_ray(spec, games, jobs, address, host_port)


def _run_ray(
    spec: RunSpec,
    games: int,
    jobs: int,
    address: str | None,
    host_port: tuple[str, int] | None,
) -> Generator[list[GameRecord], None, None]:
    # an instance started for the run is this machine's alone: on the loopback too
    loopback = host_port is None or is_loopback(host_port[0])
    ray = _import_ray(loopback)
    started = False
    if not ray.is_initialized():
        _connect(ray, address, jobs, loopback)
        started = True
    head = parse_address(ray.get_runtime_context().gcs_address)
    pending: list[Any] = []
    gone = False
    done = 0
    try:
        remote = ray.remote(play_batch)
        workers = max(1, int(ray.cluster_resources().get("CPU", jobs)))
        size = _batch_size(spec, games, workers)
        parts = iter(list(range(i, min(games, i + size))) for i in range(0, games, size))
        # A few batches in flight per CPU, more as they finish (a run of a million games is not
        # a million tasks queued at once, and Ctrl-C has little to cancel).
        for b in parts:
            pending.append(remote.remote(spec, b))
            if len(pending) >= 2 * workers:
                break
        silent_since: float | None = None
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=1.0)
            if not ready:
                if _answers(*head):
                    silent_since = None
                    continue
                now = time.monotonic()
                silent_since = silent_since or now
                if now - silent_since >= GONE_AFTER:
                    gone = True
                    raise SorryError(
                        _(
                            "the Ray cluster at {address} went away: {done} of {games} games "
                            "were played"
                        ).format(address=address or "(local)", done=done, games=games)
                    )
                continue
            silent_since = None
            for ref in ready:
                try:
                    records = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    gone = not _answers(*head)
                    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                    raise SorryError(
                        _("a Ray task failed: {reason}").format(reason=first)
                    ) from None
                done += len(records)
                yield records
                nxt = next(parts, None)
                if nxt is not None:
                    pending.append(remote.remote(spec, nxt))
    finally:
        if not gone:
            for ref in pending:
                ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


__all__ = ["check_address", "parse_address", "play_batch", "ray_installed", "run_ray"]
