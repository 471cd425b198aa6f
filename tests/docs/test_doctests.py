"""Every docstring example in the package runs (python-chess style doctests)."""

import doctest
import importlib
import pkgutil

import pytest

import holotable

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(holotable.__path__, prefix="holotable.") if not m.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_doctests_exist() -> None:
    total = sum(
        len(doctest.DocTestFinder().find(importlib.import_module(name))) for name in MODULES
    )
    assert total > 10
