"""``holotable balance``: run a game many times (or once per value of a swept setting) and write a report.

A run is one :class:`~holotable.sim.batch.SimulationReport` per swept value (a single entry without a
sweep), or, for a campaign game with a schedule (Kyrum), one per scheduled game. Every entry uses the
same master seed, so a sweep compares its values on the same deals (common random numbers): a
difference between two values comes from the setting, not from luckier games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from holotable.engine import ConfigError, State, load
from holotable.sim.batch import ProgressCallback, SimulationReport, simulate
from holotable.sim.hooks import schedule_for


def split_settings(game: str, settings: Mapping[str, Any]) -> dict[str, Any]:
    """``--set``/``--sweep`` keys as the keyword arguments of ``make_config``: game parameters, plus
    ``data`` (the data overrides) when a key is a data path (``holotable data GAME`` lists them)."""
    from holotable.engine import split_settings as split

    params, data = split(load(game), dict(settings))
    return {**params, "data": data} if data else params


def parse_settings(items: Sequence[str] | None, option: str = "--set") -> dict[str, str]:
    """``["max_handful=5"]`` -> ``{"max_handful": "5"}`` (values stay text; each setting converts its own)."""
    out: dict[str, str] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{option} expects key=value, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """``"max_handful=3,5,7"`` -> ``("max_handful", ["3", "5", "7"])``; values that are lists themselves
    are separated by ``;`` instead (a list's own items by spaces or commas).

    >>> parse_sweep("parrot_values=1 1 2;2,2,3")
    ('parrot_values', ['1 1 2', '2,2,3'])
    """
    key, sep, values = text.partition("=")
    names = [v.strip() for v in values.split(";" if ";" in values else ",") if v.strip()]
    if not sep or not key.strip() or not names:
        raise ConfigError(f"--sweep expects key=v1,v2,..., got {text!r}")
    if len(set(names)) != len(names):
        raise ConfigError(f"--sweep {key.strip()}: a value is repeated")
    return key.strip(), names


def sweep_value(text: str) -> float | str:
    """A swept value as a number when it reads as one (for the x axis), else the text."""
    try:
        return float(text)
    except ValueError:
        return text


@dataclass
class BalanceRun:
    game: str
    title: str
    players: int
    agents: list[str]
    seed: int
    games: int
    settings: dict[str, str]
    sweep_key: str | None = None
    #: (swept value or "" without a sweep, its report).
    entries: list[tuple[str, SimulationReport]] = field(default_factory=list)
    #: A campaign game's schedule: (number, label, report) per scheduled game.
    schedule: list[tuple[int, str, SimulationReport]] = field(default_factory=list)
    #: Parameters the schedule sets per scheduled game (Kyrum's ``campaign``), left out of the summary.
    scheduled_params: set[str] = field(default_factory=set)
    wall_time: float = 0.0

    @property
    def reports(self) -> list[SimulationReport]:
        return [rep for _, rep in self.entries] + [rep for _, _, rep in self.schedule]


def _run_one(game: str, players: int | None, games: int, agents: Sequence[str], seed: int, workers: int | None,
             settings: Mapping[str, Any], progress: ProgressCallback | None, where: Mapping[str, Any]
             ) -> SimulationReport:
    return simulate(game, players, games, agents, seed, workers, split_settings(game, settings), progress, **where)


def run_balance(
    game_name: str,
    games: int,
    agents: Sequence[str],
    seed: int,
    *,
    players: int | None = None,
    settings: Mapping[str, str] | None = None,
    sweep: tuple[str, Sequence[str]] | None = None,
    schedule: Sequence[int] | None = None,
    histories: int = 1,
    workers: int | None = None,
    progress: ProgressCallback | None = None,
    backend: str = "local",
    address: str | None = None,
) -> BalanceRun:
    """Play the games of a balance report; bad input raises a :class:`~holotable.engine.HolotableError`
    before the first game."""
    game = load(game_name)
    name = game.spec.name
    base = dict(settings or {})
    if not agents:
        raise ConfigError("name at least one agent")
    schedule_fn = schedule_for(game)
    if sweep is not None and schedule_fn is not None:
        raise ConfigError(f"{name} reports per scheduled game; --sweep is for games without a schedule")
    points = [{**base, sweep[0]: value} for value in sweep[1]] if sweep else [base]
    for point in points:  # every swept value must make a game before the first game is played
        params = split_settings(name, point)
        config = game.spec.make_config(players, **params)
        State.new(game, config, seed)  # some settings are only checked when a game is set up
    run = BalanceRun(name, game.spec.title, config.players, list(agents), seed, games, base,
                     sweep[0] if sweep else None)
    if schedule_fn is not None:
        from holotable.sim.schedule import simulate_schedule

        rep = simulate_schedule(name, players, games, agents, seed, schedule, histories=histories, workers=workers,
                                params=params,
                                progress=progress, backend=backend, address=address)
        run.schedule = [(sched.number, sched.label, r) for sched, r in rep.entries]
        run.scheduled_params = {key for sched, _ in rep.entries for key in sched.params}
        run.wall_time = rep.wall_time
        return run
    where = {"backend": backend, "address": address}
    if sweep is None:
        run.entries = [("", _run_one(name, players, games, agents, seed, workers, base, progress, where))]
    else:
        key, values = sweep
        for i, value in enumerate(values):
            step = None if progress is None else _offset(progress, i * games, games * len(values))
            run.entries.append((value, _run_one(name, players, games, agents, seed, workers,
                                                {**base, key: value}, step, where)))
    run.wall_time = sum(rep.wall_time for rep in run.reports)
    return run


def _offset(progress: ProgressCallback, before: int, total: int) -> ProgressCallback:
    def report(done: int, _total: int) -> None:
        progress(before + done, total)

    return report
