"""``holotable scenario FILE``: run a scenario file, print the state or check its expectations."""

from __future__ import annotations

import json
from pathlib import Path

from holotable.engine import ConfigError, Scenario, run_scenario

#: Exit status when a scenario ran but some expectation did not hold.
CHECK_FAILED = 1


def scenario_report(path: Path, seat: int | None, check: bool) -> tuple[str, int]:
    """The text to print and the exit status. Bad files raise :class:`ScenarioError` (exit 2 upstream)."""
    if check and seat is not None:
        raise ConfigError("--seat shows a view; --check compares the full state: give one of them")
    scenario = Scenario.load(path)
    state, mismatches = run_scenario(scenario)
    if check:
        name = scenario.title or str(path)
        if mismatches:
            lines = [f"FAIL {name}: {len(mismatches)} of {len(scenario.expect)} expectation(s) do not hold"]
            lines += [f"  {m}" for m in mismatches]
            return "\n".join(lines), CHECK_FAILED
        return f"PASS {name}: {len(scenario.expect)} expectation(s) hold", 0
    if seat is not None:
        if not 0 <= seat < state.players:
            raise ConfigError(f"there is no seat {seat} in a {state.players}-player scenario")
        payload = state.view(seat)
    else:
        payload = state.full()
        if state.is_terminal():
            payload["outcome"] = state.outcome().to_dict()
    return json.dumps(payload, indent=1), 0
