"""Build hook: compile the gettext catalogs (.po -> .mo) into every build, so an installed
package has them. Everything else is in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(__file__).parent / "src"
        for po in sorted(root.glob("sorry/locale/*/LC_MESSAGES/sorry.po")):
            target = Path(self.build_lib) / po.relative_to(root).with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as fh:
                catalog = read_po(fh)
            with target.open("wb") as fh:
                write_mo(fh, catalog)


setup(cmdclass={"build_py": BuildWithCatalogs})
