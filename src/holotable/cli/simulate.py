"""The text report of ``holotable simulate``."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich import box
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from holotable.sim.batch import SimulationReport, Tally, count_endings
from holotable.sim.schedule import ScheduleReport
from holotable.sim.stats import MeanCI

from .common import err_console
from .render import compact

#: The exit status after Ctrl-C, as shells report a process ended by SIGINT.
INTERRUPTED = 130


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
        *_endings(report),
        *_measures(report),
        *_agent_measures(report),
        Text(_timing(report)),
    ]
    return Group(*lines)


def _timing(report: SimulationReport) -> str:
    text = f"Wall time: {report.wall_time:.2f} s"
    if report.games > report.resumed:
        text += f" · {report.games_per_second:.1f} games/s · {report.workers} worker(s)"
        if report.backend != "local":
            text += f" on {report.backend}"
    if report.resumed:
        text += f" · {report.resumed} game(s) read back from the results file"
    return text


#: More distinct outcome reasons than this are free text (scores in them), not categories.
MAX_ENDINGS_SHOWN = 12


def _mean(m: MeanCI, digits: int = 1) -> str:
    if math.isnan(m.mean):
        return "-"
    spread = "" if math.isnan(m.half_width) or m.n < 2 else f" ± {m.half_width:.{digits}f}"
    return f"{m.mean:.{digits}f}{spread}"


def _endings(report: SimulationReport) -> list[RenderableType]:
    endings = report.endings
    if not endings:
        return []
    if len(endings) > MAX_ENDINGS_SHOWN:
        return [Text(f"{len(endings)} distinct outcome reasons (listed by --json)", style="dim")]
    table = Table(title="How the games ended", box=box.SIMPLE_HEAVY, title_justify="left")
    table.add_column("Outcome reason")
    table.add_column("Games", justify="right")
    table.add_column("Share", justify="right")
    for reason, count in endings.items():
        table.add_row(reason or "-", str(count), _pct(count / report.games))
    return [table]


def _measures(report: SimulationReport) -> list[RenderableType]:
    if not report.measures:
        return []
    table = Table(title="Measures per game (mean ± 95% CI)", box=box.SIMPLE_HEAVY, title_justify="left")
    table.add_column("Measure")
    table.add_column("Mean ± 95% CI", justify="right")
    table.add_column("Games", justify="right")
    for name, m in report.measures.items():
        table.add_row(name, _mean(m, 2), str(m.n))
    return [table]


def _agent_measures(report: SimulationReport) -> list[RenderableType]:
    """The game's per-seat measures, one row per agent (mean ± 95% CI over its seat-games)."""
    names: list[str] = []
    for a in report.agents_summary:
        names.extend(n for n in a.measures if n not in names)
    if not names:
        return []
    table = Table(title="Measures per agent (mean ± 95% CI per seat-game)", box=box.SIMPLE_HEAVY,
                  title_justify="left")
    table.add_column("Agent")
    for name in names:
        table.add_column(name, justify="right")
    for a in report.agents_summary:
        table.add_row(a.agent, *[_mean(a.measures[n], 3) if n in a.measures else "-" for n in names])
    return [table]


#: Measures shown as columns of the schedule table (the first ones the game reports).
SCHEDULE_MEASURES = 2


def _losses(rep: SimulationReport, prefix: str) -> str:
    """The reasons of the games nobody won (a solo game's defeats), most frequent first."""
    lost = count_endings([rec for rec in rep.records if not rec.winners])
    return ", ".join(f"{reason.removeprefix(prefix)} {count}" for reason, count in lost.items()) or "-"


def _shared_prefix(reasons: list[str]) -> str:
    """The head every reason starts with, up to its first ``": "`` (``"defeat: "``); else empty."""
    heads = {reason.partition(": ")[0] for reason in reasons if ": " in reason}
    if len(heads) != 1 or any(": " not in reason for reason in reasons):
        return ""
    return f"{heads.pop()}: "


def render_schedule_report(report: ScheduleReport) -> RenderableType:
    """One row per scheduled game: wins, win rate with its interval, the game's first measures
    (mean ± 95% CI) and why the games nobody won were lost."""
    entries = report.entries
    first = entries[0][1]
    names = list(first.measures)[:SCHEDULE_MEASURES]
    lost = [rec.reason for _, rep in entries for rec in rep.records if not rec.winners]
    prefix = _shared_prefix(lost)
    head = Text.assemble(
        (f"{report.game}", "bold"),
        f" · schedule of {len(entries)} game(s) · {first.games} games each · seed {report.seed} · "
        f"agents {', '.join(first.agents)} · carry {report.carry or 'default'}"
        + (f" · {report.histories} histories pooled" if report.histories > 1 else ""),
    )
    table = Table(title="Per scheduled game", box=box.SIMPLE_HEAVY, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Scheduled game")
    for name in ("Won", "Win rate [95% CI]", "Steps", *names):
        table.add_column(name, justify="right")
    table.add_column(f"Not won: {prefix.rstrip(': ').lower()}" if prefix else "Not won: reason")
    for sched, rep in entries:
        tally = rep.seats[0]
        lo, hi = tally.win_rate_ci
        table.add_row(str(sched.number), sched.label, f"{tally.wins}/{tally.games}",
                      f"{100 * tally.win_rate:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]", f"{rep.length.mean:.0f}",
                      *[_mean(rep.measures[n]) if n in rep.measures else "-" for n in names],
                      _losses(rep, prefix))
    games = sum(rep.games for _, rep in entries)
    wins = sum(rep.seats[0].wins for _, rep in entries)
    return Group(
        head,
        table,
        Text(f"All scheduled games: {wins}/{games} won ({_pct(wins / games if games else math.nan)})"),
        Text(f"Wall time: {report.wall_time:.1f} s (of which {report.setup_time:.1f} s building the starting "
             "points)"),
    )


class RateColumn(ProgressColumn):
    """Games per second, over the last seconds of the run (games read back from a file not counted)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.1f} games/s", style="progress.data.speed")


@contextmanager
def progress_bar(enabled: bool, total: int) -> Iterator[Callable[[int, int], None] | None]:
    """A progress callback drawing a bar on stderr (games done, games/s, time left), or ``None`` when disabled."""
    if not enabled:
        yield None
        return
    console = Console(stderr=True)
    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), RateColumn(), TimeRemainingColumn())
    # No refresh thread: worker processes may be forked while the bar is shown.
    with Progress(*columns, console=console, transient=True, auto_refresh=False) as bar:
        task = bar.add_task("games", total=total)

        last = 0.0

        def update(done: int, of: int) -> None:
            nonlocal last
            now = time.monotonic()
            if done >= of or now - last >= 0.1:  # fast games would spend their time drawing
                last = now
                # Rich's rate skips the first update, so games resumed from a file (the first
                # update of a resumed run) do not count as played in no time.
                bar.update(task, completed=done, total=of, refresh=True)

        yield update


@contextmanager
def interrupted(results: Path | None) -> Iterator[None]:
    """Turn Ctrl-C into a one-line message (and how to resume) and exit status 130."""
    try:
        yield
    except KeyboardInterrupt:
        hint = ""
        if results is not None:
            hint = f"; finished games are saved in {escape(str(results))}: add --resume to the same command to finish"
        err_console().print(f"[bold yellow]interrupted[/]{hint}")
        raise typer.Exit(INTERRUPTED) from None
