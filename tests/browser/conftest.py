"""Fixtures of the browser tests (the `page`, `browser` and `live_server` fixtures are in tests/conftest.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page


@pytest.fixture
def page_errors(page: Page) -> list[str]:
    """JavaScript errors and failed requests of the `page` fixture's page (a test asserts it stays empty)."""
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(f"pageerror: {err}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    return errors
