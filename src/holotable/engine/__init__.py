"""The game-agnostic core: specs, states, actions, views, matches and the registry."""

from .data import DataCatalog, DataKey, DataOverrideError, split_settings
from .errors import (
    ActionError,
    ConfigError,
    DataError,
    GameOverError,
    HolotableError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    SaveError,
    ScenarioError,
    UnknownGameError,
)
from .events import Event
from .game import Game
from .match import Match, SeedSeal
from .outcome import Outcome
from .periods import Period, PeriodTracker
from .registry import load, names, register, specs
from .rng import Rng, derive_seed
from .scenario import Mismatch, Scenario, ScenarioAction, run_scenario
from .spec import Chance, Config, Dynamics, GameSpec, Information, Param
from .state import State
from .tasks import Decision, Task, TaskStack, run_tasks
from .undo import Step, UndoRefusedError

__all__ = [
    "ActionError",
    "Chance",
    "Config",
    "ConfigError",
    "DataCatalog",
    "DataError",
    "DataKey",
    "DataOverrideError",
    "Decision",
    "Dynamics",
    "Event",
    "Game",
    "GameOverError",
    "GameSpec",
    "HolotableError",
    "IllegalActionError",
    "Information",
    "MalformedActionError",
    "Match",
    "Mismatch",
    "NotYourTurnError",
    "Outcome",
    "Param",
    "Period",
    "PeriodTracker",
    "Rng",
    "SaveError",
    "Scenario",
    "ScenarioAction",
    "ScenarioError",
    "SeedSeal",
    "State",
    "Step",
    "Task",
    "TaskStack",
    "UndoRefusedError",
    "UnknownGameError",
    "derive_seed",
    "load",
    "names",
    "register",
    "run_scenario",
    "run_tasks",
    "specs",
    "split_settings",
]
