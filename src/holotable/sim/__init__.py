"""The simulation lab: playing games between agents, one at a time or in large batches.

>>> from holotable.sim import simulate
>>> simulate("captain-black", players=2, games=2, agents=["random"], seed=0).games
2
"""

from .batch import AgentStats, GameRecord, SeatStats, SimulationReport, simulate
from .runner import GameResult, RunawayGameError, make_agents, play_game
from .stats import MeanCI, mean_ci, t_critical, wilson_interval

__all__ = [
    "AgentStats",
    "GameRecord",
    "GameResult",
    "MeanCI",
    "RunawayGameError",
    "SeatStats",
    "SimulationReport",
    "make_agents",
    "mean_ci",
    "play_game",
    "simulate",
    "t_critical",
    "wilson_interval",
]
