"""The compiled rollouts built ahead of time: hints without numba in the process.

The rollouts of the hints and of the ``expert`` search (``evaluate_worlds`` of
:mod:`sorry.fast._search`, with everything it calls) are compiled by numba just in time: a
process that uses them first imports numba and loads the machine code from numba's cache,
0.4 s or more before its first world. ``sorry compile`` (:func:`build`) compiles the same
function ahead of time with ``numba.pycc`` into an extension module that numpy alone can load
(a millisecond), so a fresh ``sorry hint`` answers in 0.3 s.

The module is kept in the user's cache directory (:func:`directory`: ``$SORRY_AOT_DIR``, else
``$XDG_CACHE_HOME/sorry-engine/aot`` or ``~/.cache/sorry-engine/aot``, one folder per Python
and numpy), beside a manifest naming the source files it was compiled from and their digest.
:func:`load` returns the compiled function only while those sources are unchanged (else
``None``, and the callers use the code compiled just in time): a module built from other
sources is never run. Same source, same results: ``tests/test_compiled_aot.py`` compares the two
world by world.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import SorryError

#: the extension module's name (its file: sorry_rollouts.<python tag>.so)
MODULE = "sorry_rollouts"
MANIFEST = "manifest.json"
#: evaluate_worlds' argument types, as sorry.compiled.arrays.ViewArrays passes them
SIGNATURE = (
    "void(i8[::1], i1[::1], i1[:, ::1], i8[::1], i8[::1], i8[::1], u8[::1], i8, i8[:, :, ::1], "
    "f8[::1], f8[::1], f8[:, ::1])"
)
_PACKAGE = Path(__file__).resolve().parent.parent  # the sorry package


def directory() -> Path:
    """Where the module of this Python and numpy is kept (numpy must be installed: ask
    :func:`sorry.features.rollouts_ahead_of_time` first)."""
    import numpy as np

    root = os.environ.get("SORRY_AOT_DIR")
    if root:
        base = Path(root)
    else:
        cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        base = Path(cache) / "sorry-engine" / "aot"
    tag = f"{sys.implementation.cache_tag}-{platform.machine()}-numpy{np.__version__}"
    return base / tag


def _digest(sources: list[str]) -> str:
    """The digest of the package's files ``sources`` (paths relative to the package)."""
    h = hashlib.sha256()
    for rel in sources:
        h.update(rel.encode())
        try:
            h.update((_PACKAGE / rel).read_bytes())
        except OSError:
            h.update(b"\0missing")
    return h.hexdigest()


def _processor() -> str | None:
    """The digest of this processor's model and features (Linux: the first processor of
    /proc/cpuinfo), or None where it cannot be read (the module is then built for any
    processor of the architecture, about 10% slower)."""
    try:
        with open("/proc/cpuinfo") as f:
            lines = []
            for line in f:
                if not line.strip():
                    break
                if line.startswith(("vendor_id", "model name", "flags", "Features", "CPU part")):
                    lines.append(" ".join(line.split()))
    except OSError:
        return None
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16] if lines else None


def status() -> str:
    """``ready``, ``stale`` (built from other sources, or for another processor) or
    ``missing``."""
    try:
        manifest = json.loads((directory() / MANIFEST).read_text())
    except (OSError, ValueError):
        return "missing"
    if not isinstance(manifest, dict) or manifest.get("digest") != _digest(
        list(manifest.get("sources", []))
    ):
        return "stale"
    if manifest.get("processor") != _processor():  # compiled for the host's instructions
        return "stale"
    return "ready" if (directory() / str(manifest.get("file"))).is_file() else "missing"


def _installed(package: str) -> bool:
    """Whether ``package`` can be imported (found on the path, not imported)."""
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):
        return False


@functools.cache
def load() -> Callable[..., None] | None:
    """The ahead-of-time ``evaluate_worlds``, or ``None`` when it is not built for the
    present sources (or this Python and numpy, or numpy is missing, or ``SORRY_AOT=0``).
    Once a process: :func:`sorry.features.rollouts_ahead_of_time` asks here."""
    if os.environ.get("SORRY_AOT") == "0" or not _installed("numpy"):
        return None
    if status() != "ready":
        return None
    where = directory()
    manifest = json.loads((where / MANIFEST).read_text())
    spec = importlib.util.spec_from_file_location(MODULE, where / manifest["file"])
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError:  # built for another numpy ABI, or a damaged file
        return None
    fn: Callable[..., None] = module.evaluate_worlds
    return fn


#: run in a new process: the package's modules that the compiled function's module imports
_LIST_SOURCES = """
import json, sys
from pathlib import Path
import sorry.fast._search
root = Path(sorry.__file__).resolve().parent
out = set()
for name, mod in list(sys.modules.items()):
    path = getattr(mod, "__file__", None)
    if (name == "sorry" or name.startswith("sorry.")) and path and path.endswith(".py"):
        out.add(Path(path).resolve().relative_to(root).as_posix())
print(json.dumps(sorted(out)))
"""


def _sources() -> list[str]:
    """The package's files the compiled code is built from: every module of the package that
    importing the kernels imports (the kernels, the tables they read, the rules), listed by a
    new process so that what this one imported (the command line, say) is not counted."""
    done = subprocess.run(
        [sys.executable, "-c", _LIST_SOURCES], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SorryError(f"listing the compiled code's sources failed: {last}")
    sources: list[str] = json.loads(done.stdout)
    return sources


def build(function: Any, say: Callable[[str], None] | None = None) -> Path:
    """Compile ``function`` (``sorry.fast._search.evaluate_worlds``, a numba dispatcher: the
    compiled engine hands it here, :func:`sorry.fast.search.build_ahead`) ahead of time into
    :func:`directory` (about 1.5 minutes of processor time; needs numba and a C compiler) and
    return the module's path."""
    try:
        from numba.pycc import CC  # type: ignore[import-untyped, import-not-found, attr-defined, unused-ignore]
    except ImportError as exc:
        raise SorryError(
            f"compiling ahead of time needs numba's pycc: pip install 'sorry-engine[fast]' ({exc})"
        ) from exc
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        raise SorryError("compiling ahead of time needs a C compiler (cc or gcc) on the PATH")
    where = directory()
    where.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    sources = _sources()
    digest = _digest(sources)  # of the sources as they were when the compile began
    with tempfile.TemporaryDirectory(prefix="build-", dir=where) as tmp:
        cc: Any = CC(MODULE)  # type: ignore[no-untyped-call, unused-ignore]
        cc.output_dir = tmp
        cc.verbose = False
        processor = _processor()
        if processor is not None:  # this processor's instructions (as numba's own JIT)
            cc.target_cpu = "host"
        python_function: Any = getattr(function, "py_func")  # noqa: B009
        cc.export("evaluate_worlds", SIGNATURE)(python_function)
        if say is not None:
            say(f"compiling the rollouts ahead of time into {where}")
        try:
            cc.compile()
        except Exception as exc:  # the compiler's or linker's failure, in one line
            raise SorryError(f"compiling ahead of time failed: {exc}".splitlines()[0]) from exc
        built = [p for p in Path(tmp).iterdir() if p.name.startswith(MODULE + ".")]
        if len(built) != 1:
            raise SorryError(f"compiling ahead of time wrote no module {MODULE} in {tmp}")
        # the old manifest first, the new one last: a manifest always names its own module
        (where / MANIFEST).unlink(missing_ok=True)
        for old in where.glob(MODULE + ".*"):
            if old.is_file():
                old.unlink()
        target = where / built[0].name
        os.replace(built[0], target)
        manifest = {
            "file": target.name,
            "sources": sources,
            "digest": digest,
            "processor": processor,
            "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        (Path(tmp) / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
        os.replace(Path(tmp) / MANIFEST, where / MANIFEST)
    load.cache_clear()
    return target


__all__ = ["MODULE", "SIGNATURE", "build", "directory", "load", "status"]
