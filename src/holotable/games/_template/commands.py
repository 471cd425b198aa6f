"""Last Pebble's own command-line tools (the ``commands`` role): a ``typer.Typer`` that the
``holotable`` command mounts as ``holotable <name> ...`` (Kyrum's campaigns and pack checks are the
real example). Most games need none: `play`, `simulate`, `replay` and `scenario` serve every game.

>>> from typer.testing import CliRunner
>>> print(CliRunner().invoke(app, ["takes", "--pile", "4"]).output.strip())
take 1, take 2 (4 pebbles: the first to move wins)
"""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(help="Last Pebble's tools.", no_args_is_help=True, add_completion=False)


@app.callback()
def tools() -> None:
    """Last Pebble's tools (a group, so that each tool is a sub-command)."""


@app.command("takes")
def takes_command(pile: Annotated[int, typer.Option("--pile", min=1, help="Pebbles at the start.")] = 7) -> None:
    """The moves of the game and who wins a pile of this size with perfect play."""
    from .rules import TAKES

    winner = "the second to move" if pile % (len(TAKES) + 1) == 0 else "the first to move"
    typer.echo(f"{', '.join(TAKES)} ({pile} pebbles: {winner} wins)")
