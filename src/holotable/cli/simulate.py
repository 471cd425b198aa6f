"""The text report of ``holotable simulate``."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich import box
from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from holotable.sim.batch import SimulationReport, Tally

from .render import compact


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _tally_cells(t: Tally) -> list[str]:
    lo, hi = t.win_rate_ci
    score = t.score
    spread = "" if math.isnan(score.half_width) else f" ± {score.half_width:.2f}"
    return [
        str(t.games),
        str(t.wins),
        f"{t.win_share:.1f}",
        f"{_pct(t.win_rate)} [{_pct(lo)}, {_pct(hi)}]",
        f"{score.mean:.2f}{spread}",
        f"{t.mean_rank:.2f}",
    ]


def _table(title: str, first: list[str]) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAVY, title_justify="left")
    for name in first:
        table.add_column(name)
    for name in ("Games", "Wins", "Win share", "Win rate [95% CI]", "Mean score ± 95% CI", "Mean rank"):
        table.add_column(name, justify="right")
    return table


def render_report(report: SimulationReport) -> RenderableType:
    rotation = "rotated each game" if report.rotate else "fixed seats"
    params = " ".join(f"{k}={compact(v).replace(' ', '')}" for k, v in sorted(report.params.items()))
    head = Text.assemble(
        (f"{report.game}", "bold"),
        f" · {report.players} players · {report.games} games · seed {report.seed} · "
        f"agents {', '.join(report.agents)} ({rotation})",
    )
    seats = _table("Per seat position", ["Seat", "Agent"])
    for s in report.seats:
        seats.add_row(str(s.seat), s.agent, *_tally_cells(s))
    agents = _table("Per agent", ["Agent"])
    for a in report.agents_summary:
        agents.add_row(a.agent, *_tally_cells(a))
    length = report.length
    spread = "" if math.isnan(length.half_width) else f" ± {length.half_width:.1f}"
    lines: list[RenderableType] = [
        head,
        Text(f"params: {params}", style="dim"),
        seats,
        agents,
        Text(f"Shared wins: {report.shared_wins} game(s) (each winner counts a win; win share splits it)"),
        Text(f"Mean game length: {length.mean:.1f}{spread} steps"),
        Text(
            f"Wall time: {report.wall_time:.2f} s · {report.games_per_second:.1f} games/s · "
            f"{report.workers} worker(s)"
        ),
    ]
    return Group(*lines)


@contextmanager
def progress_bar(enabled: bool, total: int) -> Iterator[Callable[[int, int], None] | None]:
    """A progress callback drawing a bar on stderr, or ``None`` when disabled."""
    if not enabled:
        yield None
        return
    console = Console(stderr=True)
    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    # No refresh thread: worker processes may be forked while the bar is shown.
    with Progress(*columns, console=console, transient=True, auto_refresh=False) as bar:
        task = bar.add_task("games", total=total)

        last = 0.0

        def update(done: int, _total: int) -> None:
            nonlocal last
            now = time.monotonic()
            if done >= total or now - last >= 0.1:  # fast games would spend their time drawing
                last = now
                bar.update(task, completed=done, refresh=True)

        yield update
