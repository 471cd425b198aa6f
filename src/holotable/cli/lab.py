"""The simulation lab's commands: ``holotable tournament`` and ``holotable balance`` (see docs/lab.md).

Bad input (unknown game, agent or setting, a bad sweep, too few games) prints one line and exits 2,
before any game is played.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from holotable.engine import ConfigError

from .common import check_agents, load_game, out_console, split_names, user_errors


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


BackendOption = Annotated[str, typer.Option("--backend", help="Where games run: local (processes here) or ray.")]
AddressOption = Annotated[str | None, typer.Option("--address", help="With --backend ray: the cluster's host:port or "
                                                   "'auto' (default: RAY_ADDRESS, else a Ray started for the run).")]


def tournament_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    agents: Annotated[str, typer.Option("--agents", "-a", help="Agents, comma-separated, each named once.")],
    games: Annotated[int, typer.Option("--games", "-g", help="Games to play (rounded up to whole balanced blocks).")
                     ] = 100,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Seats per game (default: one per agent, "
                                                "within the game's range).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Master seed; game i uses derive_seed(seed, 'game', i).")] = 0,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="Games played at once (default: every core)."
                                                )] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    setting: Annotated[list[str] | None, typer.Option("--set", help="A game parameter or data value, key=value "
                                                       "(repeatable).")] = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
) -> None:
    """Agents against each other, every agent in every seat equally often: win rates, mean rank, OpenSkill ratings."""
    from holotable.sim.report import parse_settings, split_settings
    from holotable.sim.tournament import tournament

    from .simulate import progress_bar

    names = split_names(agents)
    with user_errors():
        game = load_game(game_name)
        check_agents(game, names)
        params = split_settings(game.spec.name, parse_settings(setting))
        show_bar = not as_json and sys.stderr.isatty()
        with progress_bar(show_bar, games) as progress:
            report = tournament(game.spec.name, names, games, seed, players=players, workers=workers, params=params,
                                progress=progress, backend=backend, address=address)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=1))
        return
    sim = report.simulation
    table = Table(title="Standings (best rating first)", box=box.SIMPLE_HEAVY, title_justify="left")
    for col in ("#", "Agent", "Games", "Wins", "Win rate [95% CI]", "Mean rank", "Mean score", "mu", "sigma",
                "Ordinal"):
        table.add_column(col, justify="left" if col == "Agent" else "right")
    for i, row in enumerate(report.standings(), 1):
        lo, hi = row["win_rate_ci"]
        rating = [f"{row[k]:.2f}" if k in row else "-" for k in ("mu", "sigma", "ordinal")]
        table.add_row(str(i), row["agent"], str(row["games"]), str(row["wins"]),
                      f"{_pct(row['win_rate'])} [{_pct(lo)}, {_pct(hi)}]", f"{row['mean_rank']:.2f}",
                      f"{row['mean_score']:.2f}", *rating)
    seats = Table(title="Per seat position", box=box.SIMPLE_HEAVY, title_justify="left")
    for col in ("Seat", "Games", "Win rate [95% CI]", "Mean score"):
        seats.add_column(col, justify="right")
    for s in sim.seats:
        lo, hi = s.win_rate_ci
        seats.add_row(str(s.seat), str(s.games), f"{_pct(s.win_rate)} [{_pct(lo)}, {_pct(hi)}]", f"{s.score.mean:.2f}")
    rating_note = ("Ratings: OpenSkill Plackett-Luce, updated game by game; ordinal = mu - 3 sigma."
                   if report.ratings else "No ratings for a one-seat game: compare the win rates.")
    out_console().print(Group(
        Text.assemble((sim.game, "bold"), f" · {sim.players} seats · {sim.games} games · seed {sim.seed}"),
        Text(f"Seating: {report.plan.describe()}.", style="dim"),
        table, seats, Text(rating_note, style="dim"),
        Text(f"Wall time: {sim.wall_time:.2f} s · {sim.workers} worker(s)", style="dim"),
    ))


def balance_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for report.html and the CSV files.")],
    games: Annotated[int, typer.Option("--games", "-g", help="Games per run (per swept value, per scheduled game).")
                     ] = 200,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of seats.")] = None,
    agents: Annotated[str | None, typer.Option("--agents", "-a", help="Agents, comma-separated, cycled over seats and "
                                               "rotated each game (default: the game's heuristic).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Master seed (the same for every swept value).")] = 0,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="Games played at once (default: every core)."
                                                )] = None,
    setting: Annotated[list[str] | None, typer.Option("--set", help="A game parameter or data value, key=value "
                                                       "(repeatable).")] = None,
    sweep: Annotated[str | None, typer.Option("--sweep", help="Run once per value: key=v1,v2,... (values that are "
                                              "lists: 'key=1 1 2;2 2 3').")] = None,
    schedule: Annotated[str | None, typer.Option("--schedule", help="A campaign game (kyrum): which scheduled "
                                                 "games, 'all', '1-30' or '1,5,9-12' (default all).")] = None,
    histories: Annotated[int, typer.Option("--histories", help="A campaign game: split each scheduled game's games "
                                           "over this many independent campaign histories (default 1).")] = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
) -> None:
    """Play many games and write a balance report: DIR/report.html (self-contained) and DIR/*.csv."""
    from holotable.agents import agent_names
    from holotable.sim.hooks import schedule_for
    from holotable.sim.report import parse_settings, parse_sweep, run_balance, write_report
    from holotable.sim.schedule import parse_numbers

    from .simulate import progress_bar

    with user_errors():
        game = load_game(game_name)
        names = split_names(agents) or ["heuristic" if "heuristic" in agent_names(game.spec.name) else "random"]
        check_agents(game, names)
        settings = parse_settings(setting)
        swept = parse_sweep(sweep) if sweep is not None else None
        numbers = parse_numbers(schedule) if schedule is not None else None
        if schedule is not None and schedule_for(game) is None:
            raise ConfigError(f"{game.spec.name} has no schedule of games; --schedule is for campaign games")
        if out.exists() and not out.is_dir():
            raise ConfigError(f"--out {out} is a file, not a directory")
        total = games * (len(swept[1]) if swept else 1)
        with progress_bar(sys.stderr.isatty(), total) as progress:
            run = run_balance(game.spec.name, games, names, seed, players=players, settings=settings, sweep=swept,
                              schedule=numbers, histories=histories, workers=workers, progress=progress,
                              backend=backend, address=address)
        written = write_report(run, out)
    for value, rep in run.entries:  # the headline figure: is any seat favoured?
        where = f"{run.sweep_key}={value}: " if run.sweep_key else ""
        seats = ", ".join(f"seat {s.seat} {_pct(s.win_rate)} [{_pct(s.win_rate_ci[0])}, {_pct(s.win_rate_ci[1])}]"
                          for s in rep.seats)
        typer.echo(f"{where}win rate by seat: {seats}")
    for number, label, rep in run.schedule:
        lo, hi = rep.seats[0].win_rate_ci
        typer.echo(f"scheduled game {number} ({label}): won {_pct(rep.seats[0].win_rate)} [{_pct(lo)}, {_pct(hi)}]")
    typer.echo(f"wrote {written[0]} and {len(written) - 1} CSV file(s) in {out}")


def register(app: Any) -> None:
    """Add the lab's commands to the ``holotable`` app."""
    app.command("tournament")(tournament_command)
    app.command("balance")(balance_command)
