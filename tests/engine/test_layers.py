"""The house plan's import rules (docs/architecture.md, "What may import what"), read from the source.

The engine imports only itself and the standard library and names no game; a game's rules modules
import only the engine and their own package; only the adapter modules a manifest names (bots,
encoders, lab hooks, terminal, server, pictures, catalogs) import the front end they adapt; no front
end names a game; the server imports nothing from the command line.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import holotable

SRC = Path(holotable.__file__).parent
GAMES = ("buccaneers", "captain_black", "council", "kyrum", "space_pirates", "_template")
#: A game's modules that adapt it to a front end (their manifest roles, and what only they use).
ADAPTERS = frozenset({"bots", "planner_bot", "encoding", "simulation", "terminal", "server", "server_store",
                      "catalog", "render", "picture", "commands", "campaign_commands"})


def _is_adapter(stem: str) -> bool:
    # ``bot_*`` and ``terminal_*``: a bot's or the terminal's own modules, beside bots.py / terminal.py
    return stem in ADAPTERS or stem.startswith(("bot_", "terminal_"))


FRONT_ENDS = ("agents", "cli", "rl", "server", "sim", "web")


def imported(path: Path) -> set[str]:
    """Every absolute module name ``path`` imports (relative imports resolved inside its package)."""
    # a module's package is its folder (for ``__init__.py`` too: the package itself)
    package = ["holotable", *path.relative_to(SRC).with_suffix("").parts][:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                names.add(".".join([*base, *([node.module] if node.module else [])]))
            else:
                names.add(node.module or "")
    return names


def _modules(folder: str) -> list[Path]:
    found = sorted((SRC / folder).rglob("*.py"))
    assert found, folder
    return found


def _outside(names: set[str], allowed: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if n.split(".")[0] == "holotable"
                  and not any(n == a or n.startswith(a + ".") for a in allowed))


def test_the_engine_imports_only_itself_and_the_standard_library() -> None:
    offenders = {}
    for path in _modules("engine"):
        names = imported(path)
        bad = _outside(names, ("holotable.engine",))
        bad += sorted(n for n in names if n.split(".")[0] not in sys.stdlib_module_names
                      and n.split(".")[0] != "holotable")
        if bad:
            offenders[path.name] = bad
    assert offenders == {}


def _code_strings(path: Path) -> set[str]:
    """The string constants of ``path``'s code: not its docstrings (a doctest may show a real game)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings}


def test_the_engine_names_no_game() -> None:
    games = {"captain-black", "buccaneers", "council", "kyrum", "space-pirates"}
    named = {p.name: sorted(s for s in _code_strings(p) if any(g in s or g.replace("-", "_") in s for g in games))
             for p in _modules("engine")}
    assert {name: found for name, found in named.items() if found} == {}


def test_a_games_rules_import_only_the_engine_and_their_own_package() -> None:
    offenders = {}
    for game in GAMES:
        own = f"holotable.games.{game}"
        for path in _modules(f"games/{game}"):
            if _is_adapter(path.stem):
                continue
            names = imported(path)
            bad = _outside(names, ("holotable.engine", own))
            # a rules module never reaches up into its own adapters (the rules know no front end)
            bad += sorted(n for n in names if n.startswith(own + ".") and _is_adapter(n.rsplit(".", 1)[-1]))
            if bad:
                offenders[f"{game}/{path.name}"] = bad
    assert offenders == {}


def test_no_front_end_names_a_game() -> None:
    offenders = {}
    for folder in FRONT_ENDS:
        for path in _modules(folder):
            bad = sorted(n for n in imported(path) if n.startswith("holotable.games."))
            if bad:
                offenders[f"{folder}/{path.name}"] = bad
    assert offenders == {}


def test_the_server_imports_nothing_from_the_command_line() -> None:
    allowed = ("holotable.engine", "holotable.server", "holotable.agents", "holotable.sim", "holotable.web")
    offenders = {p.name: bad for p in _modules("server")
                 if (bad := [n for n in _outside(imported(p), allowed) if n != "holotable"])}  # (the version)
    assert offenders == {}


def test_the_import_reader_resolves_relative_imports() -> None:
    assert "holotable.engine.errors" in imported(SRC / "engine" / "game.py")
    assert "holotable.games.council.actions" in imported(SRC / "games" / "council" / "rules.py")
    assert "holotable.games.kyrum.decisions" in imported(SRC / "games" / "kyrum" / "__init__.py") or \
        "holotable.engine.manifest" in imported(SRC / "games" / "kyrum" / "__init__.py")
