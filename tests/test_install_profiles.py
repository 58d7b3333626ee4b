"""Every install the README and the docs name, made fresh from this checkout and used the way a
person uses it: a new virtual environment that installs exactly that (``make play``'s, the core
alone, each extra, all of them), then what that install offers, on a terminal where a person
would meet it (tmux at 80x24: ``make play`` and ``sorry tui`` to the first board and a few moves
against each bot level), and the commands (``hint``, ``record`` and ``analyse``, ``simulate``,
``serve``). No traceback anywhere; a part the install lacks is said in one line
(sorry.features) and the command uses what is there.

Lean on purpose (they run in ``make test``): each environment is made without pip (the suite's
own pip installs into it, from pip's cache), installs the checkout in editable mode as ``make
play`` does (so numba's cache and the rollouts compiled ahead of time are the suite's), and one
test does each profile's every step. ``-m "not install"`` leaves them out.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [
    pytest.mark.install,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (the terminal checks)"),
]

POSITION = "R:S,S,4,s2 Y:12,33,40,H R"
#: Each profile: the pip extras installed (None: ``make play`` itself), and the optional parts
#: (sorry.features) it must then offer.
PROFILES: dict[str, tuple[str | None, set[str]]] = {
    "make-play": (None, {"terminal_game", "compiled_engine"}),
    "core": ("", set()),
    "cli": ("cli", {"terminal_game"}),
    "tui": ("tui", {"terminal_game"}),
    "fast": ("fast", {"compiled_engine"}),
    "web": ("web", {"web_server"}),
    "sim": ("sim", {"plots", "ray"}),
    "rl": ("rl", {"rl"}),
    "i18n": ("i18n", set()),
    "all": ("all", {"terminal_game", "compiled_engine", "web_server", "plots", "ray", "rl"}),
}
#: The bot levels, each seated in a game played a few moves on the terminal (the learned one
#: where the compiled engine is installed: elsewhere it is refused in one line).
LEVEL_GAMES = ("human,random,easy,medium", "human,hard,expert")
COMPILED_LEVEL_GAMES = ("human,learned",)


def _pip_cache() -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True, check=False
    )
    return done.stdout.strip() or str(Path.home() / ".cache" / "pip")


def _aot_dir() -> str:
    """The suite's folder of modules compiled ahead of time (the same sources: shared)."""
    root = os.environ.get("SORRY_AOT_DIR")
    if root:
        return root
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return str(Path(cache) / "sorry-engine" / "aot")


def environment(home: Path, venv: Path) -> dict[str, str]:
    """A newcomer's environment: an empty HOME, the venv first on the PATH, English; pip's
    cache and the compiled rollouts shared with the suite."""
    env = {
        "HOME": str(home),
        "PATH": f"{venv / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
        "PIP_CACHE_DIR": _pip_cache(),
        "SORRY_AOT_DIR": _aot_dir(),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    for key in ("PIP_CONFIG_FILE", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "CI", "NUMBA_CACHE_DIR"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env


@contextlib.contextmanager
def install_lock() -> Iterator[None]:
    """One editable install of the checkout at a time (each rewrites its egg-info)."""
    with open(os.path.join(os.environ.get("TMPDIR", "/tmp"), "sorry-profiles.lock"), "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def make_venv(where: Path, extras: str, env: dict[str, str]) -> Path:
    """A new environment at ``where`` with the checkout installed (editable) with ``extras``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    target = f"{ROOT}[{extras}]" if extras else str(ROOT)
    pip = [sys.executable, "-m", "pip", "--python", str(where / "bin" / "python")]
    with install_lock():
        done = subprocess.run(
            [*pip, "install", "--quiet", "-e", target],
            capture_output=True,
            text=True,
            env=env | {"PATH": os.environ["PATH"]},
            timeout=900,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return where


class Terminal:
    """A command on a tmux pane of ``size`` (its own server): type, and read the screen."""

    def __init__(self, tmp: Path, env: dict[str, str], size: tuple[int, int] = (80, 24)) -> None:
        self.socket = str(tmp / f"tmux-{id(self)}")  # its own server, its socket in tmp
        # a pytest-xdist worker has COLUMNS=80 and LINES=24 in its environment, and a program
        # that inherits them lays itself out for 80x24 whatever the pane's size
        self.env = {k: v for k, v in env.items() if k not in ("COLUMNS", "LINES")}
        self.size = size
        self.tmp = tmp
        self.seen: list[str] = []

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
        script = self.tmp / f"run-{id(self)}.sh"
        script.write_text(f'cd {cwd}\n{command}\necho "[exit $?]"\nsleep 600\n')
        w, h = self.size
        self.tmux("new-session", "-d", "-x", str(w), "-y", str(h), "-s", "t", f"bash {script}")
        self.tmux("set-option", "-t", "t", "history-limit", "5000")

    def screen(self) -> str:
        text = self.tmux("capture-pane", "-p", "-t", "t", "-S", "-2000")
        self.seen.append(text)
        return text

    def keys(self, *keys: str, pause: float = 0.4) -> None:
        for k in keys:
            self.tmux("send-keys", "-t", "t", k)
            time.sleep(pause)

    def wait(self, test: Callable[[str], bool], seconds: float, what: str) -> str:
        end = time.monotonic() + seconds
        text = ""
        while time.monotonic() < end:
            text = self.screen()
            assert "Traceback" not in text, text
            if test(text):
                return text
            time.sleep(0.5)
        raise AssertionError(f"no {what} after {seconds:.0f} s; the screen:\n{text}")

    def close(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[[dict[str, str]], Terminal]]:
    made: list[Terminal] = []

    def make(env: dict[str, str]) -> Terminal:
        t = Terminal(tmp_path, env)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def cards_left(screen: str) -> int | None:
    """The draw pile's count on the full-screen game's side panel (the last one shown)."""
    found = re.findall(r"(\d+) cards? to draw", screen)
    return int(found[-1]) if found else None


def board_shown(screen: str) -> bool:
    return cards_left(screen) is not None and "START" in screen and "HOME" in screen


def play_full_screen(term: Terminal, rounds: int, players: int) -> None:
    """Choose the first choice (Enter) until the draw pile is ``rounds`` rounds shorter: every
    seat, bots included, has played; then quit (q, and y to the question)."""
    first = cards_left(term.wait(board_shown, 240, "board"))
    assert first is not None
    want = first - rounds * players
    end = time.monotonic() + 300
    while time.monotonic() < end:
        left = cards_left(term.screen())
        if left is not None and (left <= want or left > first):  # a reshuffle counts too
            break
        term.keys("Enter", pause=0.8)
    else:
        raise AssertionError("the game did not go on:\n" + term.screen())
    term.keys("q", pause=1.0)
    term.keys("y", pause=1.0)
    text = term.wait(lambda s: "[exit " in s, 60, "exit")
    assert "[exit 0]" in text, text


def run(
    venv: Path, env: dict[str, str], *args: str, cwd: Path, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(venv / "bin" / "sorry"), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return done


def notes(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("sorry: note:")]


def missing_engine(stderr: str) -> bool:
    """Whether the command said (in one line) that it works without the compiled engine."""
    said = [n for n in notes(stderr) if "the compiled engine is not installed" in n]
    assert len(said) <= 1, stderr
    return bool(said)


@pytest.mark.parametrize("profile", list(PROFILES))
def test_an_install_offers_what_it_says_with_no_traceback(
    profile: str, tmp_path: Path, terminal: Callable[[dict[str, str]], Terminal]
) -> None:
    extras, offers = PROFILES[profile]
    home = tmp_path / "home"
    home.mkdir()
    venv = tmp_path / "venv"
    env = environment(home, venv)
    work = tmp_path / "work"
    work.mkdir()
    if extras is None:  # make play, on a terminal, from nothing to the first board
        term = terminal(env)
        python = getattr(sys, "_base_executable", sys.executable)
        term.start(
            f"make -C {ROOT} play PYTHON={python} VENV={venv} "
            "ARGS='--players 2 --seed 3 --speed 0'",
            work,
        )
        play_full_screen(term, rounds=3, players=2)
    else:
        make_venv(venv, extras, env)
    # what the install offers, decided in one place
    found = json.loads(run(venv, env, "features", "--json", cwd=work).stdout)
    assert {k for k, v in found.items() if v} - {"rollouts_ahead_of_time"} == offers
    compiled = "compiled_engine" in offers
    # the hints' and the expert's rollouts: compiled by numba, or built ahead of time (numpy
    # alone loads them: the rl and sim extras bring numpy)
    rollouts = compiled or found["rollouts_ahead_of_time"]
    tui = "terminal_game" in offers

    # the full-screen game: each bot level a few moves; sorry tui's new-game screen
    term = terminal(env)
    if tui:
        for seats in LEVEL_GAMES + (COMPILED_LEVEL_GAMES if compiled else ()):
            term = terminal(env)
            term.start(f"sorry play --seats {seats} --seed 5 --speed 0", work)
            play_full_screen(term, rounds=2, players=len(seats.split(",")))
        term = terminal(env)
        term.start("sorry tui", work)
        term.wait(lambda s: "Ctrl+S" in s or "^s" in s, 120, "new-game screen")
        term.keys("C-s", pause=1.0)
        play_full_screen(term, rounds=1, players=4)
    else:  # line by line, saying why
        term.start("sorry play --players 2 --bot easy --seed 5", work)
        text = term.wait(lambda s: "Your move" in s, 60, "prompt")
        assert "sorry: note: the full-screen game: not installed (no textual)" in text
        for _ in range(3):
            term.keys("1", "Enter", pause=0.6)
        term.keys("q", "Enter")
        assert "[exit 0]" in term.wait(lambda s: "[exit " in s, 60, "exit")

    if not compiled:
        done = run(venv, env, "tournament", "--bots", "learned,easy", "--games", "2", cwd=work)
        assert done.returncode == 2, done.stdout
        assert done.stderr.strip().splitlines() == [
            "sorry: error: the learned level needs the fast extra: pip install 'sorry-engine[fast]'"
        ]

    # the commands
    done = run(venv, env, "hint", POSITION, "7", cwd=work)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 5
    assert missing_engine(done.stderr) != rollouts, done.stderr
    rec = work / "g.json"
    done = run(
        venv, env, "record", "--out", str(rec), "--players", "2", "--bots", "expert,easy",
        "--seed", "6", cwd=work,
    )  # fmt: skip
    assert done.returncode == 0 and rec.is_file(), done.stderr
    assert missing_engine(done.stderr) != rollouts, done.stderr
    done = run(venv, env, "analyse", str(rec), "--top", "3", cwd=work)
    assert done.returncode == 0, done.stderr
    assert "start + luck + own moves + others' moves = result" in done.stdout
    assert ("Rough analysis" in done.stdout) != compiled, done.stdout
    done = run(venv, env, "simulate", "--games", "20", "--players", "2", "--bots", "easy",
               cwd=work)  # fmt: skip
    assert done.returncode == 0 and "games/s" in done.stdout, done.stderr
    if "web_server" in offers:
        serve_once(venv, env, work)
    else:
        done = run(venv, env, "serve", "--port", "1", cwd=work)
        assert done.returncode == 2
        assert done.stderr.startswith("sorry: error: the web server"), done.stderr


def serve_once(venv: Path, env: dict[str, str], work: Path) -> None:
    """``sorry serve`` answers the browser's first request, and stops on Ctrl-C."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [str(venv / "bin" / "sorry"), "serve", "--port", str(port), "--database",
         f"sqlite:///{work / 'games.db'}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=work,
    )  # fmt: skip
    try:
        end = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    assert r.status == 200
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < end, proc.stderr
                time.sleep(0.5)
    finally:
        proc.send_signal(2)
        out, err = proc.communicate(timeout=30)
    assert "Traceback" not in out + err, err
