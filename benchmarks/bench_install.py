"""Each documented install, the way a newcomer meets it: from a fresh ``git clone`` of this
checkout with nothing cached, the time to install and the time to the first board on an 80x24
terminal, and what the install offers.

    python benchmarks/bench_install.py                       # every profile, one after another
    python benchmarks/bench_install.py --profile core --profile make-play
    python benchmarks/bench_install.py --json results.jsonl  # also one JSON line per profile

For each profile, in a new temporary folder: ``git clone`` of the checkout's committed HEAD
(``--source``), an empty ``HOME`` (only the invoking user's pip configuration copied into it,
so that the machine's index is still the one used) and an empty pip cache (every package is
downloaded and every wheel built), no compiled caches. Then:

``make-play``  ``make play`` on a tmux pane of 80x24 (it installs the ``cli`` and ``fast``
               extras, compiles the computer players' search ahead of time, and starts the
               game): install seconds up to its "Installed in" line, then to the first board
``core``, ``cli``, ``tui``, ``fast``, ``web``, ``sim``, ``rl``, ``i18n``, ``all``
               ``python -m venv .venv`` and ``.venv/bin/pip install '.[EXTRA]'`` (the core:
               ``'.'``) in the clone, timed; then, on the pane, ``sorry tui`` (where the
               install has the terminal game: its new-game screen, Ctrl+S, the board) or
               ``sorry play`` (line by line) to the first board

and ``sorry features --json`` (the parts the install offers). The board is detected on the
screen (tmux ``capture-pane`` twice a second); a traceback on the screen ends the profile as
failed. The table gives the clone, install and command-to-board seconds, the total from
``git clone`` to the first board, what the install offers, and the machine's one-minute load
average sampled during the profile (mean and range). Progress goes to stderr; Ctrl-C stops
cleanly (the pane's tmux server and any pip are ended, the folder removed unless ``--keep``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Each profile: the pip extras installed ("" the core alone; None: ``make play`` itself).
PROFILES: dict[str, str | None] = {
    "make-play": None,
    "core": "",
    "cli": "cli",
    "tui": "tui",
    "fast": "fast",
    "web": "web",
    "sim": "sim",
    "rl": "rl",
    "i18n": "i18n",
    "all": "all",
}
#: pip's settings passed on from this environment (the machine's index, certificates, ...);
#: its cache is the one thing replaced (an empty one).
PIP_CACHE_KEYS = ("PIP_CACHE_DIR", "PIP_NO_CACHE_DIR")
#: the invoking user's pip configuration files, copied into the empty HOME
USER_PIP_CONFIGS = (".config/pip/pip.conf", ".pip/pip.conf")


class ProfileFailed(Exception):
    """A profile's install or board did not come (the message says what and shows the end)."""


@dataclass
class Result:
    profile: str
    clone_s: float = 0.0
    install_s: float = 0.0
    board_s: float = 0.0  # from the command's start to the first board on the screen
    total_s: float = 0.0  # from git clone to the first board
    compile_s: float | None = None  # make play: its "Compiled in N s." line
    offers: list[str] = field(default_factory=list)
    command: str = ""
    load_mean: float = 0.0
    load_min: float = 0.0
    load_max: float = 0.0
    error: str = ""


class LoadSampler:
    """The one-minute load average every ``every`` seconds, in a thread, while in ``with``."""

    def __init__(self, every: float = 5.0) -> None:
        self.every = every
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while True:
            self.samples.append(os.getloadavg()[0])
            if self._stop.wait(self.every):
                return

    def __enter__(self) -> LoadSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


class Pane:
    """A command on a tmux pane of 80x24 on its own tmux server (socket in the work folder)."""

    def __init__(self, work: Path, env: dict[str, str], size: tuple[int, int]) -> None:
        self.socket = str(work / "tmux.sock")
        self.env = env
        self.size = size
        self.work = work

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            env=self.env,
            check=False,
        )
        return done.stdout

    def start(self, command: str, cwd: Path) -> None:
        script = self.work / "pane.sh"
        where = shlex.quote(str(cwd))
        script.write_text(f'cd {where}\n{command}\necho "[exit $?]"\nsleep 3600\n')
        w, h = self.size
        self.tmux("new-session", "-d", "-x", str(w), "-y", str(h), "-s", "b", f"bash {script}")
        self.tmux("set-option", "-t", "b", "history-limit", "5000")

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "b", "-S", "-2000")

    def keys(self, *keys: str) -> None:
        for k in keys:
            self.tmux("send-keys", "-t", "b", k)
            time.sleep(0.3)

    def wait(
        self, test: Callable[[str], bool], seconds: float, what: str, progress: Callable[[], None]
    ) -> str:
        end = time.monotonic() + seconds
        text = ""
        while time.monotonic() < end:
            text = self.screen()
            if "Traceback" in text or re.search(r"\[exit [1-9]\d*\]", text):
                raise ProfileFailed(f"the command failed before the {what}:\n{tail(text)}")
            if test(text):
                return text
            progress()
            time.sleep(0.5)
        raise ProfileFailed(f"no {what} after {seconds:.0f} s; the screen:\n{tail(text)}")

    def close(self) -> None:
        self.tmux("kill-server")


def tail(text: str, lines: int = 24) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def full_screen_board(screen: str) -> bool:
    """The full-screen game's board: the side panel's draw pile, START and HOME drawn."""
    return bool(re.search(r"\d+ cards? to draw", screen)) and "START" in screen and "HOME" in screen


def line_board(screen: str) -> bool:
    """The line-by-line game's board: its legend, printed under the board."""
    return "pawns in START" in screen


def new_game_screen(screen: str) -> bool:
    return "Ctrl+S" in screen or "^s" in screen


def newcomer_env(home: Path, pip_cache: Path) -> dict[str, str]:
    """An empty HOME and pip cache, no virtual environment on the PATH, no compiled caches
    (SORRY_AOT_DIR, NUMBA_CACHE_DIR, XDG_CACHE_HOME left out); pip's own settings kept."""
    venv = os.environ.get("VIRTUAL_ENV")
    path = [
        p
        for p in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
        if p and not (venv and p.startswith(venv)) and not p.endswith("/.venv/bin")
    ]
    env = {
        "HOME": str(home),
        "PATH": os.pathsep.join(path),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
        "PIP_CACHE_DIR": str(pip_cache),
    }
    for key, value in os.environ.items():
        if key.startswith("PIP_") and key not in PIP_CACHE_KEYS:
            env[key] = value
    for name in ("TMPDIR", "http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        if name in os.environ:
            env[name] = os.environ[name]
    for rel in USER_PIP_CONFIGS:
        mine = Path.home() / rel
        if mine.is_file():
            (home / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(mine, home / rel)
    return env


@contextlib.contextmanager
def child(argv: list[str], env: dict[str, str], cwd: Path) -> Iterator[subprocess.Popen[str]]:
    """A child in its own process group, ended with its children if we leave early."""
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def run_timed(argv: list[str], env: dict[str, str], cwd: Path, what: str, timeout: float) -> float:
    t0 = time.monotonic()
    with child(argv, env, cwd) as proc:
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise ProfileFailed(f"{what}: no end after {timeout:.0f} s") from exc
    if proc.returncode != 0:
        raise ProfileFailed(f"{what} failed (exit {proc.returncode}):\n{tail(out, 15)}")
    return time.monotonic() - t0


def features(venv: Path, env: dict[str, str], cwd: Path) -> list[str]:
    done = subprocess.run(
        [str(venv / "bin" / "sorry"), "features", "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        raise ProfileFailed(f"sorry features --json failed:\n{tail(done.stderr, 10)}")
    return sorted(k for k, v in json.loads(done.stdout).items() if v)


def measure(profile: str, args: argparse.Namespace, say: Callable[[str], None]) -> Result:
    extras = PROFILES[profile]
    res = Result(profile)
    work = Path(tempfile.mkdtemp(prefix=f"bench-install-{profile}-"))
    home, cache, clone = work / "home", work / "pip-cache", work / "clone"
    home.mkdir()
    cache.mkdir()
    env = newcomer_env(home, cache)
    pane = Pane(work, env, (args.columns, args.lines))
    started = time.monotonic()

    def tick(stage: str) -> Callable[[], None]:
        last = [0.0]

        def show() -> None:
            now = time.monotonic()
            if now - last[0] >= 15:
                last[0] = now
                say(f"{profile}: {stage} ({now - started:.0f} s, load {os.getloadavg()[0]:.1f})")

        return show

    try:
        with LoadSampler() as load:
            say(f"{profile}: git clone {args.source}")
            res.clone_s = run_timed(
                ["git", "clone", "--quiet", str(args.source), str(clone)],
                env,
                work,
                "git clone",
                600,
            )
            venv = clone / ".venv"
            if extras is None:
                python = shlex.quote(args.python)
                res.command = "make play"
                t0 = time.monotonic()
                pane.start(f"make play PYTHON={python}", clone)
                say(f"{profile}: make play (installs, compiles, then the board)")
                pane.wait(
                    lambda s: "Installed in" in s, args.timeout, "install", tick("installing")
                )
                res.install_s = time.monotonic() - t0
                say(f"{profile}: installed in {res.install_s:.0f} s; compiling and starting")
                compiled: list[float] = []  # seen before the game's full screen covers it

                def board_or_compiled(screen: str) -> bool:
                    found = re.search(r"Compiled in (\d+) s", screen)
                    if found and not compiled:
                        compiled.append(float(found.group(1)))
                    return full_screen_board(screen)

                pane.wait(board_or_compiled, args.timeout, "board", tick("compiling, starting"))
                res.board_s = time.monotonic() - t0 - res.install_s
                res.compile_s = compiled[0] if compiled else None
                res.offers = features(venv, env, clone)
            else:
                target = f".[{extras}]" if extras else "."
                say(f"{profile}: python -m venv .venv && .venv/bin/pip install '{target}'")
                res.install_s = run_timed(
                    [args.python, "-m", "venv", str(venv)], env, clone, "venv", 600
                )
                res.install_s += run_timed(
                    [str(venv / "bin" / "pip"), "install", "--quiet", target],
                    env,
                    clone,
                    f"pip install '{target}'",
                    args.timeout,
                )
                say(f"{profile}: installed in {res.install_s:.0f} s")
                res.offers = features(venv, env, clone)
                bin_ = shlex.quote(str(venv / "bin"))
                t0 = time.monotonic()
                if "terminal_game" in res.offers:
                    res.command = "sorry tui, Ctrl+S"
                    pane.start(f"PATH={bin_}:$PATH sorry tui", clone)
                    pane.wait(new_game_screen, args.timeout, "new-game screen", tick("starting"))
                    pane.keys("C-s")
                    pane.wait(full_screen_board, args.timeout, "board", tick("starting the game"))
                else:
                    res.command = "sorry play (line by line)"
                    pane.start(f"PATH={bin_}:$PATH sorry play --players 2", clone)
                    pane.wait(line_board, args.timeout, "board", tick("starting"))
                res.board_s = time.monotonic() - t0
            res.total_s = time.monotonic() - started
        samples = load.samples
        res.load_mean = sum(samples) / len(samples)
        res.load_min, res.load_max = min(samples), max(samples)
        say(
            f"{profile}: first board {res.total_s:.0f} s after the clone began "
            f"(install {res.install_s:.0f} s, board {res.board_s:.0f} s); "
            f"offers {', '.join(res.offers) or 'the core alone'}"
        )
    except ProfileFailed as exc:
        res.error = str(exc)
        say(f"{profile}: FAILED: {exc}")
    finally:
        pane.close()
        if args.keep:
            say(f"{profile}: kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return res


def row(r: Result) -> str:
    if r.error:
        first = r.error.splitlines()[0]
        return f"| {r.profile} | failed: {first} | | | | | |"
    install = f"{r.install_s:.0f}"
    board = f"{r.board_s:.0f}"
    if r.compile_s is not None:
        board += f" (compile {r.compile_s:.0f})"
    offers = ", ".join(o for o in r.offers) or "the core alone"
    return (
        f"| {r.profile} | {r.clone_s:.1f} | {install} | {r.command}: {board} | {r.total_s:.0f} "
        f"| {offers} | {r.load_mean:.1f} ({r.load_min:.1f}-{r.load_max:.1f}) |"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--profile",
        action="append",
        choices=list(PROFILES),
        help="a profile to measure (repeatable; default: every one, in this order: "
        + ", ".join(PROFILES)
        + ")",
    )
    p.add_argument(
        "--source",
        type=Path,
        default=ROOT,
        help="the checkout to clone (its committed HEAD; default: this one)",
    )
    p.add_argument(
        "--python",
        default=getattr(sys, "_base_executable", sys.executable),
        help="the Python that makes the virtual environments (default: this one's base)",
    )
    p.add_argument(
        "--timeout", type=float, default=3600, help="seconds allowed for each stage (3600)"
    )
    p.add_argument("--columns", type=int, default=80)
    p.add_argument("--lines", type=int, default=24)
    p.add_argument("--json", type=Path, help="also append one JSON line per profile to FILE")
    p.add_argument("--keep", action="store_true", help="keep each profile's folder")
    args = p.parse_args(argv)
    for tool in ("git", "tmux", "make"):
        if shutil.which(tool) is None:
            p.error(f"needs {tool} on the PATH")
    if not (args.source / ".git").exists():
        p.error(f"not a git checkout: {args.source}")
    if shutil.which(args.python) is None and not Path(args.python).is_file():
        p.error(f"no such Python: {args.python}")
    if args.timeout <= 0:
        p.error("--timeout must be positive")
    if args.json is not None and not args.json.parent.is_dir():
        p.error(f"no such folder: {args.json.parent}")
    head = subprocess.run(
        ["git", "-C", str(args.source), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()

    def say(line: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {line}", file=sys.stderr, flush=True)

    profiles = args.profile or list(PROFILES)
    cpus = os.cpu_count()
    print(
        f"bench_install: {head} on {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.machine()}, {cpus} cores; "
        f"load at start {os.getloadavg()[0]:.1f}"
    )
    print()
    print(
        "| profile | clone s | install s | to the first board s | clone to board s | offers "
        "| load 1-min: mean (range) |"
    )
    print("|---|---|---|---|---|---|---|")
    failed = 0
    try:
        for name in profiles:
            res = measure(name, args, say)
            failed += bool(res.error)
            print(row(res), flush=True)
            if args.json is not None:
                with args.json.open("a") as fh:
                    fh.write(json.dumps({"commit": head, **asdict(res)}) + "\n")
    except KeyboardInterrupt:
        print("\nbench_install: interrupted", file=sys.stderr)
        return 130
    print(f"\nload at end {os.getloadavg()[0]:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
