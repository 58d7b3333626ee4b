"""The layers of docs/design.md hold: the core's modules, in the order its layout lists them,
import only modules listed above them (typing-only imports aside), and never an interface."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "src" / "sorry"
#: The packages above the core (docs/design.md, Layers), wherever they are on disk.
INTERFACES = {p.name for p in CORE.iterdir() if (p / "__init__.py").exists()}
#: The one module of a package allowed to import a package beside or above it: the bots reach
#: the compiled engine through their registry, and the learned level its model.
REGISTRIES = {("bots", "fast"): "fast_engine.py", ("bots", "learned"): "learned.py"}


def layout() -> list[str]:
    """The core modules in the order of the layout block of docs/design.md."""
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    block = text.split("```", 2)[1]
    names: list[str] = []
    for line in block.splitlines():
        head = line[:36]  # the names column; the descriptions start at column 36
        names += re.findall(r"\b(\w+)\.py\b", head)
    return names


def imports(path: Path) -> set[str]:
    """The modules of ``sorry`` that ``path`` imports at run time (``from .x import ...``
    anywhere, outside ``if TYPE_CHECKING:`` blocks)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only |= {id(n) for b in node.body for n in ast.walk(b)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and id(node) not in typing_only:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out |= {a.name for a in node.names}
    return out


def test_the_layout_lists_every_core_module_once() -> None:
    names = layout()
    assert len(names) == len(set(names))
    on_disk = {p.stem for p in CORE.glob("*.py")} - {"__init__", "__main__"}
    assert set(names) == on_disk


def test_core_modules_import_only_modules_above_them() -> None:
    names = layout()
    for k, name in enumerate(names):
        used = imports(CORE / f"{name}.py")
        below = sorted(u for u in used if u in names and names.index(u) >= k)
        assert not below, f"{name}.py imports {below}, listed after it in docs/design.md"
        assert not used & INTERFACES, f"{name}.py imports an interface: {used & INTERFACES}"


def package_layers() -> list[set[str]]:
    """The packages above the core, one set per line of the second block of docs/design.md
    (Layers), the lowest first."""
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    block = text.split("```", 4)[3]
    layers: list[set[str]] = []
    for line in block.splitlines():
        head = line[:33]  # the names column; the descriptions start at column 33
        if head.strip():
            layers.append(set(re.findall(r"\w+", head)))
    return layers


def package_imports(path: Path, package: str, root: Path = CORE) -> set[str]:
    """The other packages of ``sorry`` (at ``root``) that the module ``path`` of ``package``
    imports at run time: ``from ..x`` (relative to its depth) or ``sorry.x``, anywhere in it."""
    depth = len(path.relative_to(root).parts) - 1
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only |= {id(n) for b in node.body for n in ast.walk(b)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        names: list[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level == depth + 1:
                names = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
            elif node.level == 0 and (node.module or "").startswith("sorry."):
                names = [str(node.module).split(".")[1]]
        elif isinstance(node, ast.Import):
            names = [a.name.split(".")[1] for a in node.names if a.name.startswith("sorry.")]
        out |= {n for n in names if n in INTERFACES and n != package}
    return out


def test_the_layers_list_every_package_once() -> None:
    listed = [name for layer in package_layers() for name in layer]
    assert len(listed) == len(set(listed))
    missing = INTERFACES - set(listed)
    assert not missing, f"add to the package layers of docs/design.md: {sorted(missing)}"


def test_packages_import_only_the_layers_below_them() -> None:
    """No package imports one beside it or above it (docs/design.md, Layers): not even inside
    a function, and not through a typing-only import that a later edit could make real."""
    layers = package_layers()
    level = {name: k for k, layer in enumerate(layers) for name in layer}
    wrong: list[str] = []
    for package in sorted(INTERFACES):
        for path in sorted((CORE / package).rglob("*.py")):
            for used in sorted(package_imports(path, package)):
                if level[used] < level[package]:
                    continue
                if REGISTRIES.get((package, used)) == path.name:
                    continue
                wrong.append(f"{path.relative_to(CORE)} imports {used}")
    assert not wrong, "imports across the layers of docs/design.md: " + "; ".join(wrong)


def test_the_package_check_sees_upward_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "sorry" / "fast"
    pkg.mkdir(parents=True)
    src = pkg / "m.py"
    src.write_text(
        "from ..bots.levels import KEEP_VALUE\nfrom .. import rulebook\nimport sorry.sim.runner\n"
        "def f():\n    from ..rl import observation\n",
        encoding="utf-8",
    )
    assert package_imports(src, "fast", tmp_path / "sorry") == {"bots", "sim", "rl"}


def test_the_check_sees_an_import_and_skips_typing_only_ones(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text(
        "from typing import TYPE_CHECKING\nfrom .board import X\nfrom . import __version__\n"
        "if TYPE_CHECKING:\n    from .game import Game\n"
        "def f():\n    from .state import PawnState\n",
        encoding="utf-8",
    )
    assert imports(src) == {"board", "__version__", "state"}


# -- the web server's modules ---------------------------------------------------------------
WEB = ROOT / "src" / "sorry" / "web"


def web_layout() -> list[str]:
    """The modules of web/ in the order of the layout block of docs/web.md (Structure)."""
    text = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    block = text.split("## Structure", 1)[1].split("```", 2)[1]
    return [m for line in block.splitlines() for m in re.findall(r"^(\w+)(?:\.py|/)", line)]


def test_the_web_layout_lists_every_module_once() -> None:
    names = web_layout()
    assert len(names) == len(set(names))
    on_disk = {p.stem for p in WEB.glob("*.py")} - {"__init__"}
    on_disk |= {p.name for p in WEB.iterdir() if (p / "__init__.py").exists()}
    assert not on_disk - set(names), f"add to the Structure of docs/web.md: {on_disk - set(names)}"
    assert set(names) == on_disk


def test_web_modules_import_only_modules_above_them() -> None:
    """No import circle in web/: each module imports (at run time, anywhere in it) only the
    modules listed before it."""
    names = web_layout()
    for k, name in enumerate(names):
        path = WEB / f"{name}.py"
        if not path.exists():
            path = WEB / name / "__init__.py"
        used = imports(path)
        below = sorted(u for u in used if u in names and names.index(u) >= k)
        assert not below, f"web/{name} imports {below}, listed after it in docs/web.md"


def test_no_private_calls_across_web_modules() -> None:
    """A name with a leading underscore is used only by its own class or module: never
    ``other._name`` (only ``self._name`` and ``cls._name``; the standard library's
    ``os._exit`` aside)."""
    for path in sorted(WEB.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            private = node.attr.startswith("_") and not node.attr.startswith("__")
            own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls", "os")
            assert not private or own, f"{path.name}:{node.lineno}: {ast.unparse(node)}"


#: The modules of web/ that write SQL (docs/web.md, Structure): the games' storage, the
#: accounts' tables and store, the two modules that are each the one writer of their own tables
#: (the ratings' update, the notifications' outbox), and PostgreSQL's LISTEN.
SQL_MODULES = {"db.py", "account_tables.py", "accounts.py", "ratings.py", "outbox.py", "notify.py"}


def sql_uses(path: Path) -> list[str]:
    """What in the module ``path`` writes SQL or reaches the database: an import of
    SQLAlchemy (but for the ``Connection`` type of a write handed to the storage), a
    statement run (``.execute``), a transaction or connection opened (``.begin()``,
    ``.connect()``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [f"import {a.name}" for a in node.names if a.name.split(".")[0] == "sqlalchemy"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlalchemy":
            names = {a.name for a in node.names}
            if node.module != "sqlalchemy.engine" or names != {"Connection"}:
                out.append(f"from {node.module} import {', '.join(sorted(names))}")
        elif isinstance(node, ast.Attribute) and node.attr in ("execute", "begin", "connect"):
            out.append(f"line {node.lineno}: .{node.attr}")
    return out


def test_sql_is_written_in_the_storage_modules_only() -> None:
    """web/ has one place for SQL: the service's modules call the storage's methods."""
    wrong = {
        p.name: uses
        for p in sorted(WEB.glob("*.py"))
        if p.name not in SQL_MODULES and (uses := sql_uses(p))
    }
    assert not wrong, f"SQL outside the storage modules of docs/web.md: {wrong}"


def test_the_sql_check_sees_a_statement(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text(
        "import sqlalchemy as sa\nfrom sqlalchemy.engine import Connection\n"
        "def f(conn: Connection):\n    conn.execute(sa.text('SELECT 1'))\n",
        encoding="utf-8",
    )
    assert sql_uses(src) == ["import sqlalchemy", "line 4: .execute"]
