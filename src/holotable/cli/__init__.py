"""The ``holotable`` command line: list games, play in the terminal, simulate, replay, run scenarios.

Every user error (unknown game, agent or parameter, bad player count, corrupt
save) prints one line to stderr and exits with status 2.
"""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from holotable import __version__
from holotable.agents import agent_names
from holotable.engine import ConfigError, Match, registry, specs

from . import data_keys as _data_keys
from .common import (
    HUMAN,
    LineReader,
    check_agents,
    fail,
    load_game,
    load_match,
    out_console,
    split_names,
    stdin_is_interactive,
    user_errors,
)

app = typer.Typer(
    name="holotable",
    help="A digital tabletop: play board games in the terminal, simulate bots, replay matches.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"holotable {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """A digital tabletop: play board games in the terminal, simulate bots, replay matches."""


ParamOption = Annotated[
    list[str] | None,
    typer.Option("--param", "-p", help="A game parameter as key=value (repeatable); 'none' clears it."),
]


@app.command("games")
def games_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the registered games."""
    with user_errors():
        rows = [(spec, agent_names(spec.name)) for spec in specs()]
    if as_json:
        payload = [{**spec.to_dict(), "agents": agents} for spec, agents in rows]
        typer.echo(json.dumps(payload, indent=1))
        return
    table = Table(title="Games", box=box.SIMPLE_HEAVY)
    for name in ("Name", "Title", "Players", "Dynamics", "Chance", "Information", "Agents"):
        table.add_column(name, no_wrap=name != "Agents")
    for spec, agents in rows:
        players = str(spec.min_players) if spec.min_players == spec.max_players else (
            f"{spec.min_players}-{spec.max_players}"
        )
        table.add_row(spec.name, spec.title, players, spec.dynamics.value, spec.chance.value,
                      spec.information.value, ", ".join(agents))
    out_console().print(table)


@app.command("play")
def play_command(
    game_name: Annotated[str | None, typer.Argument(metavar="GAME", help="Game name (optional with --load).")] = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of seats.")] = None,
    humans: Annotated[int | None, typer.Option("--humans", help="Human seats, the first ones (default 1).")] = None,
    seats: Annotated[str | None, typer.Option("--seats", help="Each seat: human or an agent, comma-separated.")] = None,
    bots: Annotated[str | None, typer.Option("--bots", help="Agents for the other seats, cycled.")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Random seed (default: a fresh one). A game with secrets shows its seed only at the end, "
        "and a chosen seed is announced to every seat.")] = None,
    param: ParamOption = None,
    set_: _data_keys.SetOption = None,
    save: Annotated[Path | None, typer.Option(
        "--save", help="Save the match here at the end or on quit (a running game's seed is sealed).")] = None,
    load: Annotated[Path | None, typer.Option("--load", help="Resume a saved match.")] = None,
) -> None:
    """Play a game in the terminal: hot-seat humans against bots (scriptable through stdin).

    At a terminal a timed open phase (Black Hole Council's negotiation) plays live: you type while the timer counts down in the status bar and the bots act in time. Piped input plays it in turns."""  # noqa: E501 - one paragraph for --help
    from .play import SEEDED, PlaySession, choose_seats, seats_from_meta

    with user_errors():
        if load is not None:
            if seed is not None or param or set_:
                raise ConfigError("--seed, --param and --set cannot change a loaded match")
            match = load_match(load)
            if game_name is not None and load_game(game_name).spec.name != match.game.spec.name:
                raise ConfigError(f"{load} is a {match.game.spec.name} match, not {game_name}")
            if players is not None and players != match.config.players:
                raise ConfigError(f"{load} has {match.config.players} players, not {players}")
            stored = seats_from_meta(match)
        else:
            if game_name is None:
                fail("name a GAME (see `holotable games`) or give --load FILE")
            if players is None and seats is not None:
                players = len(split_names(seats))
            chosen_seed = seed if seed is not None else secrets.randbelow(2**31)
            game = load_game(game_name)  # a human table: table-only defaults apply (e.g. no turn cap)
            settings = _data_keys.merge_settings(game, param, set_)
            match = Match(game, game.spec.make_config(players, table=True, **settings), chosen_seed)
            if seed is not None:
                match.meta[SEEDED] = "the command line (--seed)"
            stored = None
        default_bot = "heuristic" if "heuristic" in agent_names(match.game.spec.name) else "random"
        lineup = choose_seats(
            match.config.players,
            seats=split_names(seats) if seats is not None else None,
            humans=humans,
            bots=split_names(bots) or [default_bot],
            bots_given=bots is not None,
            stored=stored,
        )
        check_agents(match.game, lineup, allow_human=True)
        console = out_console()
        reader: LineReader
        if stdin_is_interactive() and console.is_terminal:  # a person at a terminal: read while the table plays
            from .prompt import PromptReader

            reader = PromptReader(console)
        else:  # piped input (or output): turn by turn, as before
            reader = LineReader(console, stdin_is_interactive())
        session = PlaySession(match, lineup, console, reader, save_path=save)
        session.run()


@app.command("simulate")
def simulate_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of seats.")] = None,
    games: Annotated[int, typer.Option("--games", "-g", help="How many games to play.")] = 100,
    agents: Annotated[str, typer.Option("--agents", "-a", help="Agents, comma-separated, cycled over seats.")] = (
        "random"
    ),
    seed: Annotated[int, typer.Option("--seed", help="Master seed; game i uses derive_seed(seed, 'game', i).")] = 0,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-w", help="Games played at once (default: every core; with --backend ray: "
                     "every CPU of the cluster)."),
    ] = None,
    rotate: Annotated[bool, typer.Option("--rotate/--no-rotate", help="Turn the seating one seat per game.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    param: ParamOption = None,
    set_: _data_keys.SetOption = None,
    schedule: Annotated[
        str | None,
        typer.Option("--schedule", help="A campaign game (kyrum): play each scheduled game --games times; "
                     "'all', '1-30' or '1,5,9-12'."),
    ] = None,
    carry: Annotated[
        str | None,
        typer.Option("--carry", help="With --schedule: what earlier games leave behind (kyrum: played, fresh)."),
    ] = None,
    histories: Annotated[
        int,
        typer.Option("--histories", help="With --schedule: split each scheduled game's --games over this many "
                     "independent campaign histories and pool them (default 1: one history)."),
    ] = 1,
    backend: Annotated[
        str, typer.Option("--backend", help="Where games run: local (processes here) or ray (a Ray cluster).")
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option("--address", help="With --backend ray: the cluster's host:port, or 'auto' for the one "
                     "RAY_ADDRESS or `ray start` names (default: RAY_ADDRESS, else a Ray started for the run)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Save every finished game to this SQLite file as it finishes."),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="With --out: finish the run saved in that file (same options), "
                           "playing only the games it lacks."),
    ] = False,
) -> None:
    """Play many games between agents and report win rates, scores and lengths with 95% intervals."""
    from holotable.sim.batch import SimulationReport, simulate
    from holotable.sim.schedule import ScheduleReport, parse_numbers, simulate_schedule

    from .simulate import interrupted, progress_bar, render_report, render_schedule_report

    names = split_names(agents)
    with user_errors():
        if resume and out is None:
            raise ConfigError("--resume continues a results file: name it with --out FILE")
        game = load_game(game_name)
        params = _data_keys.merge_settings(game, param, set_)  # --set: parameters and data values
        check_agents(game, names)
        scheduled = schedule is not None or carry is not None or histories != 1
        numbers = parse_numbers(schedule or "all") if scheduled else []
        show_bar = not as_json and sys.stderr.isatty()
        total = games * (len(numbers) if numbers else 1)
        report: SimulationReport | ScheduleReport
        with interrupted(out), progress_bar(show_bar, total) as progress:
            if not scheduled:
                report = simulate(game.spec.name, players, games, names, seed, workers, params, progress,
                                  rotate=rotate, backend=backend, address=address, results_path=out, resume=resume)
            else:
                report = simulate_schedule(game.spec.name, players, games, names, seed, numbers or None,
                                           carry=carry, histories=histories, workers=workers, params=params,
                                           progress=progress,
                                           backend=backend, address=address, results_path=out, resume=resume)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=1))
    elif isinstance(report, ScheduleReport):
        out_console().print(render_schedule_report(report))
    else:
        out_console().print(render_report(report))


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A match saved by `holotable play --save`.")],
    seat: Annotated[int | None, typer.Option("--seat", help="See the match as this seat (default: spectator).")] = None,
    omniscient: Annotated[bool, typer.Option("--omniscient", help="Show the full state, secrets included.")] = False,
    to_end: Annotated[bool, typer.Option("--to-end", help="Print every step to the end, no prompts.")] = False,
    ply: Annotated[int | None, typer.Option("--ply", help="Start at (or, non-interactively, show only) this ply.")] = (
        None
    ),
) -> None:
    """Step through a saved match (Enter/n next, b back, g N go to, q quit)."""
    from .replay import Replay

    with user_errors():
        match = load_match(file)
        if seat is not None and not 0 <= seat < match.config.players:
            raise ConfigError(f"there is no seat {seat} in a {match.config.players}-player match")
        if match.seed_is_secret and (seat is not None or omniscient):
            raise ConfigError("this match is not over, so its players' secrets stay hidden: replay it as a "
                              "spectator (no --seat, no --omniscient), or once it has ended")
        replay = Replay(match, seat, omniscient=omniscient)
        if ply is not None and not 0 <= ply <= replay.last_ply:
            raise ConfigError(f"--ply must be 0..{replay.last_ply}, not {ply}")
    console = out_console()
    if to_end or not stdin_is_interactive():
        start = ply or 0
        replay.print_range(console, start, replay.last_ply if (to_end or ply is None) else start)
    else:
        try:
            replay.interactive(console, LineReader(console, True), ply or 0)
        except KeyboardInterrupt:
            console.print()


@app.command("scenario")
def scenario_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A scenario file (see docs/scenarios.md).")],
    seat: Annotated[int | None, typer.Option("--seat", help="Print this seat's view instead of the full state.")] = (
        None
    ),
    check: Annotated[bool, typer.Option("--check", help="Compare the 'expect' entries; exit 1 if any fails.")] = False,
) -> None:
    """Run a scenario: set up, arrange, play its actions; print the state as JSON or check it."""
    from .scenario import scenario_report

    with user_errors():
        text, status = scenario_report(file, seat, check)
    typer.echo(text)
    if status:
        raise typer.Exit(status)


# Sub-commands that live in their own modules (imported here, after `app` exists).
from . import render_png as _render_png  # noqa: E402
from . import serve as _serve  # noqa: E402

for _name in registry.names():  # a game's own tools (Kyrum's campaigns and packs), from its manifest
    if registry.manifest(_name).commands is not None:
        app.add_typer(registry.offered(_name, "commands"), name=_name)
app.command("render")(_render_png.render_command)
app.command("serve")(_serve.serve_command)
app.command("data")(_data_keys.data_command)
__import__("holotable.cli.lab", fromlist=["register"]).register(app)  # tournament, balance


def main(argv: list[str] | None = None) -> Any:
    """The ``holotable`` console script."""
    return app(args=argv, prog_name="holotable")


__all__ = ["HUMAN", "app", "main"]
