"""Scale-out on an existing Ray cluster, the way docs/cluster.md tells it: a head and a second
node started with ``ray start`` on 127.0.0.1 (one CPU each), then ``sorry simulate`` and ``sorry
tournament --backend ray --address`` with each engine give the games and totals of one process;
Ray's log lines stay out of the progress line; a bad address fails within seconds and a cluster
that goes away mid-run ends the run, each with one line. Every cluster is stopped by the ids of
the processes the test started, whatever happens."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray")

from sorry.errors import SorryError
from sorry.sim.ray_backend import check_address

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

BIN = Path(sys.executable).parent
RAY = BIN / "ray"
SORRY = BIN / "sorry"
#: Keys of a report that depend on the run's speed or backend, not on its games.
RUN_KEYS = {"seconds", "games_per_second", "backend", "jobs", "load_seconds"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment() -> dict[str, str]:
    # RAY_AUTH_MODE: no token authentication (Ray turns it on for a cluster off 127.0.0.1, and
    # writes a token into ~/.ray, shared by whatever else runs on the machine)
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled", LANG="C.UTF-8")
    env.pop("RAY_ADDRESS", None)
    return env


class Cluster:
    """Ray nodes started by ``ray start --block`` (each in a process group of its own), on
    loopback addresses: the head on ``host``, a second node on the next address. Ray replaces
    127.0.0.1 by the machine's network address unless told that the cluster is this machine's
    (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``, a switch that a node joining a head refuses), and
    a head started on 127.0.0.1 answers on 127.0.0.1 alone; other loopback addresses are kept
    as they are, so a cluster of two nodes runs on 127.0.0.2 and 127.0.0.3."""

    def __init__(self, host: str = "127.0.0.2") -> None:
        self.temp = Path(tempfile.mkdtemp(prefix="sray", dir="/tmp"))  # short: socket paths
        self.host = host
        self.port = free_port()
        self.address = f"{host}:{self.port}"
        self.nodes: list[subprocess.Popen[bytes]] = []

    def start_node(self, cpus: int = 1) -> None:
        head = not self.nodes
        ip = self.host if head else f"127.0.0.{2 + len(self.nodes)}"
        args = [str(RAY), "start", "--block", "--node-ip-address", ip]
        args += ["--num-cpus", str(cpus), "--object-store-memory", str(80 * 1024 * 1024)]
        args += ["--disable-usage-stats", "--dashboard-agent-listen-port", str(free_port())]
        env = environment()
        if head:
            args += ["--head", "--port", str(self.port), "--include-dashboard", "false"]
            args += ["--temp-dir", str(self.temp)]
            env["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
        else:
            args += ["--address", self.address]
        log = open(self.temp / f"node{len(self.nodes)}.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen(
            args, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        log.close()
        self.nodes.append(proc)

    def wait_for(self, nodes: int, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for proc in self.nodes:
                if proc.poll() is not None:
                    raise AssertionError(f"a Ray node ended: {self.logs()}")
            done = subprocess.run(
                [str(RAY), "status", "--address", self.address],
                capture_output=True,
                text=True,
                env=dict(environment(), RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0"),
                timeout=60,
            )
            if done.returncode == 0 and done.stdout.count(" node_") >= nodes:
                return
            time.sleep(1)
        raise AssertionError(f"the cluster did not come up: {self.logs()}")

    def logs(self) -> str:
        return "\n".join(p.read_text(errors="replace")[-2000:] for p in self.temp.glob("*.log"))

    def kill_head(self) -> None:
        _stop([self.nodes[0]], signal.SIGKILL)

    def stop(self) -> None:
        _stop(self.nodes, signal.SIGTERM)
        shutil.rmtree(self.temp, ignore_errors=True)


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    return out


def _stop(nodes: list[subprocess.Popen[bytes]], sig: int) -> None:
    """End each node's processes: its process group, and every process started under it (Ray's
    workers start sessions of their own), found before anything is killed."""
    children = _children()
    pids: set[int] = set()
    todo = [p.pid for p in nodes]
    while todo:
        pid = todo.pop()
        if pid not in pids:
            pids.add(pid)
            todo.extend(children.get(pid, []))
    for proc in nodes:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
    deadline = time.monotonic() + 10
    for proc in nodes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(max(0.1, deadline - time.monotonic()))
    for proc in nodes:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    c = Cluster()
    try:
        c.start_node()
        c.wait_for(1)
        c.start_node()
        c.wait_for(2)
        yield c
    finally:
        c.stop()


def sorry(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SORRY), *args],
        capture_output=True,
        text=True,
        env=environment(),
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def games_of(report: dict[str, Any]) -> dict[str, Any]:
    """A report without its timings (any ``*seconds`` or ``*per_second`` figure) and backend."""
    return {
        k: v
        for k, v in report.items()
        if k not in RUN_KEYS and not k.endswith("seconds") and "per_second" not in k
    }


RUNS = [
    ("python", ["--bots", "easy,random", "--players", "2", "--games", "40"]),
    ("playout", ["--players", "3", "--games", "300"]),
    ("fast", ["--bots", "medium,easy,random", "--games", "300"]),
]


@pytest.mark.parametrize(("engine", "args"), RUNS, ids=[r[0] for r in RUNS])
def test_simulate_on_the_cluster_plays_the_games_of_one_process(
    cluster: Cluster, engine: str, args: list[str]
) -> None:
    common = ["simulate", "--engine", engine, "--seed", "5", "--json", "-", "--no-progress", *args]
    here = sorry(*common)
    there = sorry(*common, "--backend", "ray", "--address", cluster.address)
    assert here.returncode == 0, here.stderr
    assert there.returncode == 0, there.stderr
    assert there.stderr == ""  # no Ray log line
    a, b = json.loads(here.stdout), json.loads(there.stdout)
    assert b["backend"] == "ray" and b["engine"] == engine
    assert games_of(a) == games_of(b)
    assert sum(s["wins"] for s in b["seats"]) + b["unfinished"] == b["games"]


TOURNAMENTS = [
    ("python", ["--bots", "hard,random"]),
    ("playout", ["--bots", "random,random,random"]),
    ("fast", ["--bots", "medium,easy"]),
]


@pytest.mark.parametrize(("engine", "bots"), TOURNAMENTS, ids=[t[0] for t in TOURNAMENTS])
def test_tournament_on_the_cluster_plays_the_games_of_one_process(
    cluster: Cluster, engine: str, bots: list[str], tmp_path: Path
) -> None:
    games = "24" if engine == "python" else "120"
    common = ["tournament", *bots, "--games", games, "--seed", "9", "--engine", engine]
    here = sorry(*common, "--out", str(tmp_path / "here"), "--no-progress")
    there = sorry(
        *common,
        "--out",
        str(tmp_path / "there"),
        "--no-progress",
        "--backend",
        "ray",
        "--address",
        cluster.address,
    )
    assert here.returncode == 0, here.stderr
    assert there.returncode == 0, there.stderr
    assert there.stderr == ""
    a = json.loads((tmp_path / "here.json").read_text())
    b = json.loads((tmp_path / "there.json").read_text())
    assert b["backend"] == "ray" and b["engine"] == engine
    assert games_of(a) == games_of(b)
    # the printed tables agree too, but for the line with the speed
    assert here.stdout.splitlines()[:-1] == there.stdout.splitlines()[:-1]


def test_the_progress_line_is_not_broken_by_ray(cluster: Cluster) -> None:
    """On a terminal the progress line is redrawn in place: Ray prints nothing around it."""
    main, other = pty.openpty()
    proc = subprocess.Popen(
        [
            str(SORRY),
            "simulate",
            "--engine",
            "python",
            "--players",
            "2",
            "--games",
            "200",
            "--backend",
            "ray",
            "--address",
            cluster.address,
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=other,
        env=environment(),
    )
    os.close(other)
    seen = b""
    try:
        while True:
            ready, _, _ = select.select([main], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(main, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            elif proc.poll() is not None:
                break
        out = proc.communicate(timeout=300)[0].decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
    assert proc.returncode == 0
    assert "200 games, 2 players" in out
    text = seen.decode(errors="replace").replace("\r\n", "\n")
    pieces = [p.strip() for line in text.split("\n") for p in line.split("\r")]
    assert any("200/200 games" in p for p in pieces), text
    strays = [p for p in pieces if p and not (p.startswith("[") and " games " in p)]
    assert not strays, strays


def test_a_bad_address_fails_within_seconds_in_one_line() -> None:
    for address, message in [
        (f"127.0.0.1:{free_port()}", "no Ray cluster answers at 127.0.0.1:"),
        ("nonsense", "bad Ray address 'nonsense': expected HOST:PORT"),
    ]:
        for command in (["simulate"], ["tournament", "--bots", "easy,random"]):
            t0 = time.monotonic()
            done = sorry(*command, "--backend", "ray", "--address", address, timeout=60)
            assert time.monotonic() - t0 < 15
            assert done.returncode == 2 and done.stdout == ""
            assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    done = sorry("simulate", "--address", "127.0.0.1:6379")
    assert done.returncode == 2 and "--address needs --backend ray" in done.stderr


def test_an_unknown_host(monkeypatch: pytest.MonkeyPatch) -> None:
    def unknown(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(-2, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", unknown)
    with pytest.raises(SorryError, match="cannot reach the Ray cluster at bogus:1: unknown host"):
        check_address("bogus:1")


def test_a_cluster_that_goes_away_ends_the_run_in_one_line() -> None:
    c = Cluster("127.0.0.1")  # the address Ray rewrites unless told not to: the CLI does
    try:
        c.start_node()
        c.wait_for(1)
        proc = subprocess.Popen(
            [
                str(SORRY),
                "simulate",
                "--engine",
                "python",
                "--games",
                "100000",
                "--no-progress",
                "--backend",
                "ray",
                "--address",
                c.address,
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(),
        )
        try:
            time.sleep(8)  # connected and playing
            assert proc.poll() is None, proc.communicate()
            c.kill_head()
            t0 = time.monotonic()
            out, err = proc.communicate(timeout=60)
            took = time.monotonic() - t0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert proc.returncode == 2, err
        assert out == ""
        lines = err.splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith(f"sorry: error: the Ray cluster at {c.address} went away: ")
        assert lines[0].endswith(" of 100000 games were played")
        assert took < 30
    finally:
        c.stop()
