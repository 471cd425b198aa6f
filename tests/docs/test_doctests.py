"""Every docstring example in the package runs (python-chess style doctests): the package itself
and every public module under it."""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import holotable

ROOT = Path(holotable.__file__).parent


def _private(name: str) -> bool:
    """A module or package named ``_x`` (not a dunder such as ``__main__``) is private."""
    return any(part.startswith("_") and not part.endswith("__") for part in name.split("."))


def _unimportable(name: str) -> None:
    # walk_packages skips a package whose import fails; import it again so the error shows.
    importlib.import_module(name)


MODULES = [
    "holotable",
    *sorted(
        m.name
        for m in pkgutil.walk_packages(holotable.__path__, prefix="holotable.", onerror=_unimportable)
        if not _private(m.name)
    ),
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_every_public_source_file_is_collected() -> None:
    """A folder of modules without ``__init__.py`` would be skipped by the package walk."""
    on_disk = set()
    for path in ROOT.rglob("*.py"):
        parts = ["holotable", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        if not _private(name):
            on_disk.add(name)
    assert on_disk == set(MODULES)


def test_doctests_exist() -> None:
    total = sum(
        len(doctest.DocTestFinder().find(importlib.import_module(name))) for name in MODULES
    )
    assert total > 10
