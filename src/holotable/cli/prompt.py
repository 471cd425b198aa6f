"""The interactive reader: prompt_toolkit reads the line while the table plays on.

At a real terminal ``holotable play`` reads through :class:`PromptReader`, a
:class:`~.live.LiveReader`: during a live phase the line being typed stays put at the bottom,
the session's lines are printed above it, and a status bar under it (the timer and the game's
compact picture of the table) is redrawn every half second and after each change. Outside live
phases it is an ordinary line editor (with history).

Tests build it on ``prompt_toolkit.input.create_pipe_input()`` and ``DummyOutput()``; the session's
rich console is where the lines go, printed with prompt_toolkit's ``run_in_terminal`` so they do
not tear the prompt.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich.console import Console, RenderableType

from .common import LineReader
from .live import CTRL_C

#: How often the status bar is redrawn while a line is read (the timer's seconds tick by).
REFRESH_INTERVAL = 0.5


class PromptReader(LineReader):
    """A :class:`~.common.LineReader` on prompt_toolkit that can also read during a live phase."""

    def __init__(self, console: Console, *, input: Input | None = None, output: Output | None = None) -> None:
        super().__init__(console, interactive=True)
        # No room kept for a completion menu: the status bar sits right under the line.
        self.session: PromptSession[str] = PromptSession(input=input, output=output, reserve_space_for_menu=0)
        #: The status bar's text during a live phase (set by :class:`~.live.LiveLoop`).
        self.status: Callable[[], str] | None = None
        self._printing: list[asyncio.Future[Any]] = []
        #: An interrupt that came before the prompt was up.
        self._stop = False

    def _toolbar(self) -> str:
        return self.status() if self.status is not None else ""

    def ask(self, prompt: str) -> str | None:
        try:
            return self.session.prompt(prompt, bottom_toolbar=None, refresh_interval=0)
        except EOFError:  # Ctrl-D
            return None

    async def read(self, prompt: str) -> str | None:
        try:
            return await self.session.prompt_async(prompt, bottom_toolbar=self._toolbar, pre_run=self._stop_early,
                                                   refresh_interval=REFRESH_INTERVAL)
        except EOFError:
            return None
        except KeyboardInterrupt:  # raised again by the live loop, outside prompt_toolkit's task
            return CTRL_C
        finally:
            self._stop = False  # an interrupt is for this read only

    def interrupt(self) -> None:
        app = self.session.app
        if app.is_running and app.future is not None and not app.future.done():
            app.exit(result="")
        else:  # the prompt is not up yet: it ends as soon as it is
            self._stop = True

    def _stop_early(self) -> None:
        if self._stop:
            self._stop = False
            self.session.app.exit(result="")

    def show(self, renderable: RenderableType) -> None:
        self._printing = [f for f in self._printing if not f.done()]
        if not self.session.app.is_running and not self._printing:
            self.console.print(renderable)
            return
        # Above the prompt, after whatever is still waiting to be printed (run_in_terminal keeps the order).
        self._printing.append(asyncio.ensure_future(run_in_terminal(lambda: self.console.print(renderable))))

    def refresh(self) -> None:
        if self.session.app.is_running:
            self.session.app.invalidate()

    def clear(self) -> None:
        self.console.clear()

    async def settle(self) -> None:
        pending, self._printing = self._printing, []
        if pending:
            await asyncio.gather(*pending)
