"""The prompt_toolkit reader of live phases: a typed line, the table ending a read, Ctrl-C and
end of input, driven through a pipe with nothing on screen (``DummyOutput``) and no sleeping."""

from __future__ import annotations

import asyncio
import io

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from holotable.cli.live import CTRL_C, LiveReader, run_loop
from holotable.cli.prompt import PromptReader

#: A safety net only: a read that never ends fails the test instead of hanging it.
NET = 10.0


def reads(*keys: str, interrupt_after: int | None = None) -> str | None:
    """What one live read returns for ``keys`` typed into the pipe; ``interrupt_after``: the table
    ends the read after that many turns of the event loop (0: before the prompt is even up)."""

    async def go() -> str | None:
        with create_pipe_input() as pipe:
            reader = PromptReader(Console(file=io.StringIO()), input=pipe, output=DummyOutput())
            reader.status = lambda: "⏱ 0:42 left"
            task = asyncio.ensure_future(reader.read("seat 0> "))
            for key in keys:
                pipe.send_text(key)
            if interrupt_after is not None:
                for _ in range(interrupt_after):
                    await asyncio.sleep(0)
                reader.interrupt()
            return await asyncio.wait_for(task, NET)

    return run_loop(go())


def test_the_prompt_reader_is_a_live_reader_and_reads_a_line() -> None:
    assert isinstance(PromptReader(Console(file=io.StringIO()), input=None, output=DummyOutput()), LiveReader)
    assert reads("swap settle black hole\r") == "swap settle black hole"


def test_the_table_can_end_a_read_before_or_after_the_prompt_is_up() -> None:
    assert reads(interrupt_after=0) == ""
    assert reads("half a li", interrupt_after=50) == ""


def test_a_read_works_where_an_event_loop_already_runs() -> None:
    """A notebook (or a browser driver in the same process) keeps a loop running: the read still works."""

    async def inside() -> str | None:
        return reads("hello\r")

    assert run_loop(inside()) == "hello"  # a loop runs inside; in a browser test's worker, outside too


def test_ctrl_c_and_ctrl_d() -> None:
    assert reads("\x03") == CTRL_C
    assert reads("\x04") is None
