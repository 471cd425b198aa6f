"""A built wheel ships every file the package reads at run time (web pages, game data, packs).

Editable installs read the source tree, so a missing package-data pattern would only show up for
users who install a wheel; this test reads the patterns from pyproject.toml and checks every
non-Python file under ``src/holotable`` against them.
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "holotable"


def _patterns() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["setuptools"]["package-data"]["holotable"])


def _data_files() -> list[str]:
    return sorted(
        p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix not in {".py", ".pyc"} and "__pycache__" not in p.parts
    )


def _shipped(path: str, patterns: list[str]) -> bool:
    # setuptools matches each pattern segment by segment: "*" never crosses a "/".
    parts = path.split("/")
    return any(
        len(pattern.split("/")) == len(parts)
        and all(fnmatch.fnmatchcase(a, b) for a, b in zip(parts, pattern.split("/"), strict=True))
        for pattern in patterns
    )


def test_every_runtime_file_is_package_data() -> None:
    files = _data_files()
    assert any(f.startswith("web/static/") for f in files)
    assert any(f.startswith("games/buccaneers/data/") for f in files)
    missing = [f for f in files if not _shipped(f, _patterns())]
    assert missing == [], f"add package-data patterns to pyproject.toml for: {missing}"


def test_the_pattern_check_is_segment_wise() -> None:
    assert _shipped("web/static/js/api.js", ["web/static/js/*.js"])
    assert not _shipped("web/static/js/deep/api.js", ["web/static/js/*.js"])
    assert not _shipped("web/static/js/api.js", ["web/static/*.js"])
