"""Batch simulation: many games between agents, in parallel, with reproducible results.

Game ``i`` always uses seed ``derive_seed(seed, "game", i)`` and its own freshly
built agents, and results are combined in game order, so a report depends only on
its inputs, never on the backend, on ``workers`` or on how the games were split into chunks.
With ``results_path`` every finished game is saved as it finishes (:mod:`holotable.sim.results`),
and ``resume=True`` plays only the games that file is missing.

>>> report = simulate("captain-black", players=2, games=4, agents=["random"], seed=1, workers=1)
>>> report.games, [s.games for s in report.seats]
(4, [4, 4])
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from holotable.agents.base import UnknownAgentError, agent_names, make_agent, parse_agent_spec
from holotable.engine import Config, ConfigError, Game, load

from .backends import Backend, Chunk, Work, check_backend, open_backend, play_games
from .record import GameRecord as GameRecord  # re-exported: it was defined here first
from .results import ResultsFile, run_metadata
from .stats import MeanCI, mean_ci, wilson_interval

#: ``progress(done, total)`` is called in the calling process as games finish.
ProgressCallback = Callable[[int, int], None]

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Tally:
    """Results of one group of seat-games (a seat position, or an agent name).

    A shared win counts as a win for each winner (``wins``); ``win_share`` instead
    credits ``1 / len(winners)``, so win shares over all seats add up to the games.
    """

    games: int
    wins: int
    win_share: float
    win_rate_ci: tuple[float, float]
    score: MeanCI
    mean_rank: float
    #: Mean and 95% interval of each of the game's per-seat measures over these seat-games.
    measures: dict[str, MeanCI]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @classmethod
    def of(cls, samples: Sequence[tuple[GameRecord, int]], **labels: Any) -> Self:
        """Tally ``(game, seat)`` pairs; ``labels`` fill a subclass's own fields."""
        wins = sum(1 for rec, seat in samples if seat in rec.winners)
        share = math.fsum(1.0 / len(rec.winners) for rec, seat in samples if seat in rec.winners)
        ranks = [rec.ranks[seat] for rec, seat in samples]
        return cls(
            games=len(samples),
            wins=wins,
            win_share=share,
            win_rate_ci=wilson_interval(wins, len(samples), CONFIDENCE),
            score=mean_ci([rec.scores[seat] for rec, seat in samples], CONFIDENCE),
            mean_rank=math.fsum(ranks) / len(ranks) if ranks else math.nan,
            measures=_seat_measure_summary(samples),
            **labels,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "win_share": self.win_share,
            "win_rate": self.win_rate,
            "win_rate_ci": list(self.win_rate_ci),
            "mean_score": self.score.mean,
            "mean_score_ci": [self.score.lo, self.score.hi],
            "mean_rank": self.mean_rank,
            "measures": {name: m.to_dict() for name, m in self.measures.items()},
        }


def _seat_measure_summary(samples: Sequence[tuple[GameRecord, int]]) -> dict[str, MeanCI]:
    values: dict[str, list[float]] = {}
    for rec, seat in samples:
        if rec.seat_measures:
            for name, value in rec.seat_measures[seat]:
                values.setdefault(name, []).append(value)
    return {name: mean_ci(vals, CONFIDENCE) for name, vals in values.items()}


@dataclass(frozen=True)
class SeatStats(Tally):
    """The results of one seat position."""

    seat: int
    #: The agent that sat here, or ``"mixed"`` when rotation put several agents here.
    agent: str
    agent_games: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "agent": self.agent, "agent_games": self.agent_games, **super().to_dict()}


@dataclass(frozen=True)
class AgentStats(Tally):
    """The results of every seat-game played by one agent name."""

    agent: str

    def to_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, **super().to_dict()}


@dataclass
class SimulationReport:
    game: str
    players: int
    seed: int
    agents: list[str]
    rotate: bool
    params: dict[str, Any]
    records: list[GameRecord]
    workers: int = 1
    #: Seconds this session spent playing (games read back from a results file took none).
    wall_time: float = 0.0
    #: Games read back from a results file instead of played (a resumed run).
    resumed: int = 0
    backend: str = "local"
    seats: list[SeatStats] = field(init=False)
    agents_summary: list[AgentStats] = field(init=False)
    length: MeanCI = field(init=False)
    #: How many games ended for each outcome reason, most frequent first.
    endings: dict[str, int] = field(init=False)
    #: Mean and 95% interval of each of the game's measures (empty for a game without any).
    measures: dict[str, MeanCI] = field(init=False)

    def __post_init__(self) -> None:
        self.seats = []
        for seat in range(self.players):
            counts: dict[str, int] = {}
            for rec in self.records:
                counts[rec.agents[seat]] = counts.get(rec.agents[seat], 0) + 1
            label = next(iter(counts)) if len(counts) == 1 else "mixed"
            samples = [(rec, seat) for rec in self.records]
            self.seats.append(SeatStats.of(samples, seat=seat, agent=label, agent_games=counts))
        by_agent: dict[str, list[tuple[GameRecord, int]]] = {}
        for rec in self.records:
            for seat, name in enumerate(rec.agents):
                by_agent.setdefault(name, []).append((rec, seat))
        self.agents_summary = [AgentStats.of(samples, agent=name) for name, samples in by_agent.items()]
        self.length = mean_ci([float(rec.steps) for rec in self.records], CONFIDENCE)
        self.endings = count_endings(self.records)
        self.measures = summarise_measures(self.records)

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def shared_wins(self) -> int:
        """Games that ended with more than one winner."""
        return sum(1 for rec in self.records if len(rec.winners) > 1)

    @property
    def games_per_second(self) -> float:
        """Games played per second of this session (games resumed from a file not counted)."""
        played = self.games - self.resumed
        return played / self.wall_time if self.wall_time > 0 else math.inf

    def to_dict(self, *, include_games: bool = False) -> dict[str, Any]:
        """JSON-ready. Everything outside ``timing`` depends only on the inputs."""
        out: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "agents": self.agents,
            "rotate": self.rotate,
            "params": self.params,
            "confidence": CONFIDENCE,
            "seats": [s.to_dict() for s in self.seats],
            "agents_summary": [a.to_dict() for a in self.agents_summary],
            "mean_length": self.length.mean,
            "length_ci": [self.length.lo, self.length.hi],
            "shared_wins": self.shared_wins,
            "endings": dict(self.endings),
            "measures": {name: m.to_dict() for name, m in self.measures.items()},
            "timing": {
                "wall_time_s": self.wall_time,
                "games_per_s": self.games_per_second if self.wall_time > 0 else None,
                "workers": self.workers,
                "backend": self.backend,
                "resumed_games": self.resumed,
            },
        }
        if include_games:
            out["results"] = [rec.to_dict() for rec in self.records]
        return out


def count_endings(records: Sequence[GameRecord]) -> dict[str, int]:
    """Games per outcome reason, most frequent first (ties in order of first appearance)."""
    counts: dict[str, int] = {}
    for rec in records:
        counts[rec.reason] = counts.get(rec.reason, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def summarise_measures(records: Sequence[GameRecord]) -> dict[str, MeanCI]:
    """Mean and interval of every measure, over the games that report it."""
    values: dict[str, list[float]] = {}
    for rec in records:
        for name, value in rec.measures:
            values.setdefault(name, []).append(float(value))
    return {name: mean_ci(vals, CONFIDENCE) for name, vals in values.items()}


# ---------------------------------------------------------------------- running


def lineup(base: Sequence[str], index: int, rotate: bool) -> tuple[str, ...]:
    """The agent at each seat in game ``index``: ``base`` turned one seat per game when rotating.

    >>> [lineup(["a", "b", "a"], i, True) for i in range(3)]
    [('a', 'b', 'a'), ('b', 'a', 'a'), ('a', 'a', 'b')]
    """
    n = len(base)
    shift = index % n if rotate else 0
    return tuple(base[(seat + shift) % n] for seat in range(n))


def check_agents(game: Game[Any, Any], agents: Sequence[str], seats: int) -> None:
    """Raise before any game is played for no agent, too many, an unknown one or bad options."""
    if not agents:
        raise ConfigError("name at least one agent")
    if len(agents) > seats:
        raise ConfigError(f"{len(agents)} agents named for {seats} seats")
    known = agent_names(game.spec.name)
    for spec in agents:
        name, _ = parse_agent_spec(spec)
        if name not in known:
            raise UnknownAgentError(f"no agent {name!r} for {game.spec.name}; available: {', '.join(known)}")
        try:  # build one now so that bad options fail before any game is played
            make_agent(spec, game, seed=0)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"agent {spec!r}: {exc}") from exc


def simulate(
    game_name: str,
    players: int | None,
    games: int,
    agents: Sequence[str],
    seed: int,
    workers: int | None = None,
    params: Mapping[str, Any] | None = None,
    progress: ProgressCallback | None = None,
    *,
    rotate: bool = True,
    backend: str = "local",
    address: str | None = None,
    results_path: str | Path | None = None,
    resume: bool = False,
    lineups: Sequence[Sequence[str]] | None = None,
) -> SimulationReport:
    """Play ``games`` games of ``game_name`` and summarise them.

    ``agents`` are cycled over the seats when there are fewer names than seats. ``workers`` is the
    number of games played at once (``None``: every local core, or every CPU of the Ray cluster).
    ``backend`` is ``"local"`` (processes on this machine) or ``"ray"`` (``address``: an existing
    cluster's ``host:port``, ``"auto"`` for the one the environment names, ``None`` for
    ``RAY_ADDRESS`` or else a Ray started for the run). ``results_path`` names an SQLite file
    that gets every game as it finishes; ``resume`` reopens such a file (it must hold the same
    run: game, players, parameters, agents, seed and rotation) and plays only its missing games.
    ``lineups`` (one agent per seat for each game, e.g. a tournament's balanced seating) replaces the
    cycling and rotation of ``agents``; every name in it must be one of ``agents``.

    Raises :class:`~holotable.engine.HolotableError` subclasses for a bad game, agent, parameter,
    player count, backend or results file, before any game is played.
    """
    game = load(game_name)
    config = game.spec.make_config(players, **dict(params or {}))
    if games < 1:
        raise ConfigError(f"the number of games must be at least 1, got {games}")
    check_backend(backend, address, workers)
    if lineups is None:
        check_agents(game, agents, config.players)
    else:
        check_agents(game, agents, len(agents))
        check_lineups(lineups, agents, games, config.players)
    with ExitStack() as stack:
        store = None
        if results_path is not None:
            meta = run_metadata(game.spec.name, config.players, config.params, agents, seed, rotate=rotate)
            if lineups is not None:
                meta["lineups"] = [list(names) for names in lineups]
            store = stack.enter_context(ResultsFile.open(results_path, meta, resume=resume))
        runner = stack.enter_context(open_backend(backend, address, workers))
        return run(game, config, games, agents, seed, runner, progress, rotate=rotate, store=store, lineups=lineups)


def check_lineups(lineups: Sequence[Sequence[str]], agents: Sequence[str], games: int, seats: int) -> None:
    """Raise unless there is one lineup per game, each naming one of ``agents`` at every seat."""
    if len(lineups) != games:
        raise ConfigError(f"{len(lineups)} lineups given for {games} games")
    known = set(agents)
    for index, names in enumerate(lineups):
        if len(names) != seats:
            raise ConfigError(f"lineup {index} names {len(names)} agents for {seats} seats")
        if not known.issuperset(names):
            raise ConfigError(f"lineup {index} names agents not among {list(agents)}: {sorted(set(names) - known)}")


def run(
    game: Game[Any, Any],
    config: Config,
    games: int,
    agents: Sequence[str],
    seed: int,
    backend: Backend,
    progress: ProgressCallback | None = None,
    *,
    rotate: bool = True,
    store: ResultsFile | None = None,
    part: int = 0,
    lineups: Sequence[Sequence[str]] | None = None,
    first: int = 0,
) -> SimulationReport:
    """:func:`simulate` on an open backend (and results file: its ``part`` holds this run's games).

    ``first`` is the index of the first game (game ``i`` is seeded by its index), for a run that
    continues another's games in the same part (a schedule's second campaign history)."""
    if lineups is not None:
        work = [(first + i, tuple(names)) for i, names in enumerate(lineups)]
    else:
        base = [agents[s % len(agents)] for s in range(config.players)]
        work = [(first + i, lineup(base, first + i, rotate)) for i in range(games)]
    records, resumed, wall = play_records(game, config, seed, work, backend, progress, store=store, part=part)
    return SimulationReport(
        game=game.spec.name,
        players=config.players,
        seed=seed,
        agents=list(agents),
        rotate=rotate,
        params=config.params,
        records=records,
        workers=backend.slots if len(work) > resumed else 0,
        wall_time=wall,
        resumed=resumed,
        backend=backend.name,
    )


def play_records(
    game: Game[Any, Any],
    config: Config,
    seed: int,
    work: Sequence[Work],
    backend: Backend,
    progress: ProgressCallback | None = None,
    *,
    store: ResultsFile | None = None,
    part: int = 0,
) -> tuple[list[GameRecord], int, float]:
    """Play ``work`` (``(index, agents per seat)`` pairs) on ``backend``, skipping the games ``store``
    already holds and saving the others as they finish. Returns the records in ``work``'s order, how
    many came from ``store``, and the seconds spent playing."""
    saved = store.finished(part) if store is not None else {}
    records = {index: saved[index] for index, _ in work if index in saved}
    resumed = len(records)
    total = len(work)
    if progress is not None and resumed:
        progress(resumed, total)

    def finished(batch: Sequence[GameRecord]) -> None:
        if store is not None:
            store.add(batch, part)
        records.update((rec.index, rec) for rec in batch)
        if progress is not None:
            progress(len(records), total)

    # ``config.params`` (not ``config.items``): it carries data overrides too, and rebuilds the same
    # configuration in whatever process plays the chunk.
    params = tuple(config.params.items())

    def chunk(games: tuple[Work, ...]) -> Chunk:
        return Chunk(game.spec.name, config.players, params, seed, games)

    missing = [w for w in work if w[0] not in records]
    if missing:
        backend.start()  # e.g. connect to Ray now, so that connecting is not counted as playing
    start = time.perf_counter()
    play_games(backend, chunk, missing, finished)
    wall = time.perf_counter() - start
    return [records[index] for index, _ in work], resumed, wall
