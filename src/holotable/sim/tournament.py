"""Tournaments: several agents over many games, seated so that no seat favours anyone, rated with OpenSkill.

**Seating.** With ``A`` agents at ``P`` seats, the games are played in *blocks* of ``A`` games. In
block ``b`` (stride ``k_b``), game ``i`` of the block seats agent ``(i + s * k_b) mod A`` at seat ``s``:

* ``A == P``: the plain rotation (stride 1): each agent sits once at each seat per block.
* ``A < P`` (more seats than agents): agents are cycled over the seats, so one table seats some of
  them more than once, but over a block each seat sees every agent exactly once, so every agent
  fills every seat equally often (and plays the same number of seat-games).
* ``A > P`` (more agents than seats): each game seats ``P`` different agents; over a block each
  seat again sees every agent once, so every agent plays ``P`` games per block, once per seat.
  Successive blocks take the next stride coprime with ``A`` (1, then others), so agents meet
  different opponents, not only their neighbours in the list.

The number of games is rounded up to a whole number of blocks: only whole blocks are balanced.
Game ``i`` uses the seed ``derive_seed(seed, "game", i)``, like :func:`holotable.sim.batch.simulate`.

**Ratings.** OpenSkill's Plackett-Luce model, updated game by game in game order (deterministic),
each seat a one-player team ranked by the Outcome's ranks (ties share a rank). When an agent holds
several seats of one game (``A < P``), its seats are rated as separate players of that game and
their updates are added up: the mean moves by the sum of the changes and the variance shrinks by
the sum of the reductions (as if they were separate games against the same field).

>>> plan = balanced_lineups(["a", "b", "c"], 2, 3)
>>> plan.lineups
[('a', 'b'), ('b', 'c'), ('c', 'a')]
>>> plan.seat_counts()["a"], plan.block
([1, 1], 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from holotable.engine import ConfigError, load

from .batch import GameRecord, ProgressCallback, SimulationReport, simulate

#: OpenSkill's usual scale: a new rating is mu 25, sigma 25/3; the ordinal is mu - 3 sigma.
ORDINAL_Z = 3.0
#: Variance never shrinks below this when an agent's several seats of one game are combined.
MIN_SIGMA = 1e-3


@dataclass(frozen=True)
class SeatingPlan:
    """The line-up (agent per seat) of every game, and how it balances."""

    agents: tuple[str, ...]
    players: int
    lineups: list[tuple[str, ...]]
    #: Games per balanced block: every agent sits at every seat equally often in each block.
    block: int
    requested: int

    @property
    def games(self) -> int:
        return len(self.lineups)

    def seat_counts(self) -> dict[str, list[int]]:
        """How many games each agent played at each seat."""
        counts = {name: [0] * self.players for name in self.agents}
        for names in self.lineups:
            for seat, name in enumerate(names):
                counts[name][seat] += 1
        return counts

    def describe(self) -> str:
        """One sentence on how the seating balances (printed by ``holotable tournament``)."""
        a, p = len(self.agents), self.players
        per_seat = self.games // a if a else 0
        if a == p:
            how = f"{a} agents on {p} seats rotate one seat per game"
        elif a < p:
            how = (f"{a} agents on {p} seats are cycled (a table may seat an agent more than once) "
                   "and turned one seat per game")
        else:
            how = (f"{a} agents share {p} seats: each game seats {p} of them, with a different stride "
                   "each block so that everyone meets everyone")
        note = "" if self.games == self.requested else f" ({self.requested} asked, rounded up to whole blocks)"
        return (f"{how}; every block of {self.block} games puts each agent once at each seat, so over "
                f"{self.games} games{note} each agent sits {per_seat} times at every seat")

    def to_dict(self) -> dict[str, Any]:
        return {"block": self.block, "games": self.games, "requested_games": self.requested,
                "seat_counts": self.seat_counts(), "description": self.describe()}


def _strides(a: int) -> list[int]:
    """Strides coprime with ``a``: with them, ``(i + s * k) mod a`` is a different agent at each seat."""
    return [k for k in range(1, max(a, 2)) if math.gcd(k, a) == 1] or [1]


def balanced_lineups(agents: Sequence[str], players: int, games: int) -> SeatingPlan:
    """The seating of ``games`` games (rounded up to whole blocks), see the module docstring."""
    names = tuple(agents)
    a = len(names)
    if a == 0:
        raise ConfigError("name at least one agent")
    if len(set(names)) != a:
        raise ConfigError("name each agent once (give options to tell two of the same kind apart)")
    if players < 1:
        raise ConfigError(f"a table needs at least one seat, got {players}")
    if games < 1:
        raise ConfigError(f"the number of games must be at least 1, got {games}")
    blocks = math.ceil(games / a)
    strides = _strides(a) if a > players else [1]
    lineups = []
    for b in range(blocks):
        k = strides[b % len(strides)]
        for i in range(a):
            lineups.append(tuple(names[(i + s * k) % a] for s in range(players)))
    return SeatingPlan(names, players, lineups, a, games)


# ---------------------------------------------------------------------- ratings


@dataclass(frozen=True)
class Rating:
    agent: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate, ``mu - 3 sigma``: the figure the ranking sorts by."""
        return self.mu - ORDINAL_Z * self.sigma

    def to_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


def rate(records: Sequence[GameRecord], agents: Sequence[str]) -> list[Rating]:
    """OpenSkill Plackett-Luce ratings after ``records`` (in their order), best ordinal first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    mu = dict.fromkeys(agents, model.mu)
    sigma = dict.fromkeys(agents, model.sigma)
    for rec in records:
        if len(rec.agents) < 2:
            continue  # a solo game ranks nobody against anybody
        teams = [[model.rating(mu=mu[name], sigma=sigma[name], name=name)] for name in rec.agents]
        new = model.rate(teams, ranks=[float(r) for r in rec.ranks])
        d_mu: dict[str, float] = {}
        d_var: dict[str, float] = {}
        for name, team in zip(rec.agents, new, strict=True):
            d_mu[name] = d_mu.get(name, 0.0) + team[0].mu - mu[name]
            d_var[name] = d_var.get(name, 0.0) + sigma[name] ** 2 - team[0].sigma ** 2
        for name in d_mu:
            mu[name] += d_mu[name]
            sigma[name] = math.sqrt(max(MIN_SIGMA**2, sigma[name] ** 2 - d_var[name]))
    out = [Rating(name, mu[name], sigma[name]) for name in agents]
    return sorted(out, key=lambda r: -r.ordinal)


# ---------------------------------------------------------------------- running


@dataclass
class TournamentReport:
    """A :class:`SimulationReport` of the balanced games, the seating plan and the ratings."""

    simulation: SimulationReport
    plan: SeatingPlan
    ratings: list[Rating] = field(init=False)

    def __post_init__(self) -> None:
        self.ratings = rate(self.simulation.records, self.plan.agents) if self.plan.players > 1 else []

    def standings(self) -> list[dict[str, Any]]:
        """One row per agent, best rating first (by win rate for a solo game)."""
        by_agent = {a.agent: a for a in self.simulation.agents_summary}
        order = [r.agent for r in self.ratings] or sorted(
            self.plan.agents, key=lambda n: -by_agent[n].win_rate if n in by_agent else 0.0)
        ratings = {r.agent: r for r in self.ratings}
        rows = []
        for name in order:
            tally = by_agent[name]
            row: dict[str, Any] = {
                "agent": name,
                "games": tally.games,
                "wins": tally.wins,
                "win_rate": tally.win_rate,
                "win_rate_ci": list(tally.win_rate_ci),
                "mean_rank": tally.mean_rank,
                "mean_score": tally.score.mean,
                "seat_games": self.plan.seat_counts()[name],
            }
            if name in ratings:
                r = ratings[name]
                row.update(mu=r.mu, sigma=r.sigma, ordinal=r.ordinal)
            rows.append(row)
        return rows

    def to_dict(self) -> dict[str, Any]:
        sim = self.simulation
        return {
            "game": sim.game,
            "players": sim.players,
            "games": sim.games,
            "seed": sim.seed,
            "agents": list(self.plan.agents),
            "params": sim.params,
            "confidence": 0.95,
            "seating": self.plan.to_dict(),
            "rating_model": "openskill PlackettLuce" if self.ratings else None,
            "standings": self.standings(),
            "seats": [s.to_dict() for s in sim.seats],
            "mean_length": sim.length.mean,
            "timing": {"wall_time_s": sim.wall_time, "workers": sim.workers},
        }


def default_players(game_name: str, agents: Sequence[str]) -> int:
    """One seat per agent, within the game's player range."""
    spec = load(game_name).spec
    return min(spec.max_players, max(spec.min_players, len(agents)))


def tournament(
    game_name: str,
    agents: Sequence[str],
    games: int,
    seed: int,
    players: int | None = None,
    workers: int | None = None,
    params: dict[str, Any] | None = None,
    progress: ProgressCallback | None = None,
    *,
    backend: str = "local",
    address: str | None = None,
) -> TournamentReport:
    """Play a balanced tournament (``workers``: games at once, ``None`` for every core); raises
    :class:`~holotable.engine.HolotableError` on bad input, before any game is played."""
    game = load(game_name)
    n = players if players is not None else default_players(game.spec.name, agents)
    config = game.spec.make_config(n, **dict(params or {}))
    plan = balanced_lineups(agents, config.players, games)
    sim = simulate(game.spec.name, config.players, plan.games, list(agents), seed, workers, params, progress,
                   lineups=plan.lineups, backend=backend, address=address)
    return TournamentReport(sim, plan)
