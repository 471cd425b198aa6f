"""Helpers for driving the command line in-process."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from typer.testing import CliRunner, Result

from holotable.agents import agent_names
from holotable.cli import app

Invoke = Callable[..., Result]


@pytest.fixture
def cli() -> Invoke:
    """``cli(*args, input="...")`` runs ``holotable args`` with scripted stdin."""
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, list(args), input=input)

    return invoke


@pytest.fixture
def require_agent() -> Callable[[str], None]:
    """``require_agent("heuristic")`` skips the test while that agent is not registered."""

    def check(name: str, game: str = "captain-black") -> None:
        if name not in agent_names(game):
            pytest.skip(f"agent {name!r} is not registered for {game}")

    return check
