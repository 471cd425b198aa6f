"""The server translates the games for the web; it imports nothing from the terminal front end
(both read the game's own contract, timed periods included)."""

from __future__ import annotations

import ast
from pathlib import Path

import holotable.server

SERVER = Path(holotable.server.__file__).parent


def _imported(path: Path) -> set[str]:
    """Every absolute module name ``path`` imports (relative imports resolved inside the package)."""
    package = ["holotable", *path.relative_to(SERVER.parent).parent.parts]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            names.add(".".join([*base, *(node.module or "").split(".")]).strip("."))
    return names


def test_no_server_module_imports_the_cli() -> None:
    modules = sorted(SERVER.rglob("*.py"))
    assert len(modules) > 5
    offenders = {p.name: sorted(n for n in _imported(p) if n == "holotable.cli" or n.startswith("holotable.cli."))
                 for p in modules}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_import_reader_sees_relative_imports() -> None:
    assert "holotable.server.clocks" in _imported(SERVER / "tables.py")
    assert "holotable.engine" in _imported(SERVER / "tables.py")
