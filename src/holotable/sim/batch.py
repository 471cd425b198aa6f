"""Batch simulation: many games between agents, in parallel, with reproducible results.

Game ``i`` always uses seed ``derive_seed(seed, "game", i)`` and its own freshly
built agents, and results are combined in game order, so a report depends only on
its inputs, never on ``workers`` or on how the games were split into chunks.

>>> report = simulate("captain-black", players=2, games=4, agents=["random"], seed=1)
>>> report.games, [s.games for s in report.seats]
(4, [4, 4])
"""

from __future__ import annotations

import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Self

from holotable.agents.base import UnknownAgentError, agent_names, make_agent, parse_agent_spec
from holotable.engine import Config, ConfigError, Game, derive_seed, load

from .hooks import measures_for, seat_measures_for
from .runner import make_agents, play_game
from .stats import MeanCI, mean_ci, wilson_interval

#: ``progress(done, total)`` is called in the calling process as games finish.
ProgressCallback = Callable[[int, int], None]

CONFIDENCE = 0.95


@dataclass(frozen=True)
class GameRecord:
    """The compact result of one simulated game."""

    index: int
    seed: int
    agents: tuple[str, ...]  # the agent name at each seat
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    steps: int
    #: The outcome's reason (how the game ended).
    reason: str = ""
    #: The game's own measures of the finished game (:mod:`holotable.sim.hooks`), in its order.
    measures: tuple[tuple[str, float], ...] = ()
    #: The game's per-seat measures (:mod:`holotable.sim.hooks`): one tuple of pairs per seat, or empty.
    seat_measures: tuple[tuple[tuple[str, float], ...], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "agents": list(self.agents),
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "steps": self.steps,
            "reason": self.reason,
            "measures": dict(self.measures),
            "seat_measures": [dict(m) for m in self.seat_measures],
        }


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
    wall_time: float = 0.0
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
        return self.games / self.wall_time if self.wall_time > 0 else math.inf

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


@dataclass(frozen=True)
class _Chunk:
    """A picklable slice of the work for one worker call."""

    game: str
    players: int
    params: tuple[tuple[str, Any], ...]
    seed: int
    games: tuple[tuple[int, tuple[str, ...]], ...]  # (index, agents per seat)


def _play_chunk(chunk: _Chunk) -> list[GameRecord]:
    game = load(chunk.game)
    config = game.spec.make_config(chunk.players, **dict(chunk.params))
    return [_play_one(game, config, chunk.seed, index, names) for index, names in chunk.games]


def _play_one(game: Game[Any, Any], config: Config, seed: int, index: int, names: tuple[str, ...]) -> GameRecord:
    game_seed = derive_seed(seed, "game", index)
    state, result = play_game(game, config, game_seed, make_agents(game, names, game_seed))
    out = result.outcome
    measure = measures_for(game)
    measured = () if measure is None else tuple((k, float(v)) for k, v in measure(state).items())
    per_seat = seat_measures_for(game)
    seat_measured = () if per_seat is None else tuple(
        tuple((k, float(v)) for k, v in seat.items()) for seat in per_seat(state)
    )
    return GameRecord(index, game_seed, names, tuple(out.scores), tuple(out.ranks), out.winners, result.steps,
                      out.reason, measured, seat_measured)


def _chunks(work: list[tuple[int, tuple[str, ...]]], size: int) -> list[tuple[tuple[int, tuple[str, ...]], ...]]:
    return [tuple(work[i : i + size]) for i in range(0, len(work), size)]


def simulate(
    game_name: str,
    players: int | None,
    games: int,
    agents: Sequence[str],
    seed: int,
    workers: int = 1,
    params: Mapping[str, Any] | None = None,
    progress: ProgressCallback | None = None,
    *,
    rotate: bool = True,
) -> SimulationReport:
    """Play ``games`` games of ``game_name`` and summarise them.

    ``agents`` are cycled over the seats when there are fewer names than seats.
    Raises :class:`~holotable.engine.HolotableError` subclasses for a bad game,
    agent, parameter or player count, before any game is played.
    """
    game = load(game_name)
    params = dict(params or {})
    config = game.spec.make_config(players, **params)
    n = config.players
    if games < 1:
        raise ConfigError(f"the number of games must be at least 1, got {games}")
    if workers < 1:
        raise ConfigError(f"workers must be at least 1, got {workers}")
    if not agents:
        raise ConfigError("name at least one agent")
    if len(agents) > n:
        raise ConfigError(f"{len(agents)} agents named for {n} seats")
    known = agent_names(game.spec.name)
    for spec in agents:
        name, _ = parse_agent_spec(spec)
        if name not in known:
            raise UnknownAgentError(f"no agent {name!r} for {game.spec.name}; available: {', '.join(known)}")
        try:  # build one now so that bad options fail before any game is played
            make_agent(spec, game, seed=0)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"agent {spec!r}: {exc}") from exc
    base = [agents[s % len(agents)] for s in range(n)]
    work = [(i, lineup(base, i, rotate)) for i in range(games)]
    records: list[GameRecord] = []
    start = time.perf_counter()
    if workers == 1:
        for index, names in work:
            records.append(_play_one(game, config, seed, index, names))
            if progress is not None:
                progress(len(records), games)
    else:
        records = _run_parallel(game.spec.name, config, seed, work, workers, progress)
    wall = time.perf_counter() - start
    records.sort(key=lambda rec: rec.index)
    return SimulationReport(
        game=game.spec.name,
        players=n,
        seed=seed,
        agents=list(agents),
        rotate=rotate,
        params=config.params,
        records=records,
        workers=workers,
        wall_time=wall,
    )


def _start_method() -> str:
    """Fork on Linux, so that workers inherit games and agents registered at run time
    (by a script or a test), not only the importable ones; spawn elsewhere, where
    fork is unsafe or missing. Callers should not run threads while a pool forks
    (the CLI's progress bar is refreshed by hand for that reason)."""
    return "fork" if sys.platform.startswith("linux") else "spawn"


def _run_parallel(
    game: str,
    config: Config,
    seed: int,
    work: list[tuple[int, tuple[str, ...]]],
    workers: int,
    progress: ProgressCallback | None,
) -> list[GameRecord]:
    # A few chunks per worker balances the load; a cap keeps the progress bar moving.
    size = max(1, min(50, math.ceil(len(work) / (workers * 4))))
    tasks = [_Chunk(game, config.players, config.items, seed, part) for part in _chunks(work, size)]
    records: list[GameRecord] = []
    context = multiprocessing.get_context(_start_method())
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context) as pool:
        for batch in pool.map(_play_chunk, tasks):
            records.extend(batch)
            if progress is not None:
                progress(len(records), len(work))
    return records
