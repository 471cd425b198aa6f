"""Kyrum's game data (spec §4.1): plain JSON-like fields with a hand-written copy.

``camp`` holds the campaign-persistent part (spec §4.3) as it stands during this game: the engine
updates it (flags, narratives, scripts seen, NP bank, items, scoreboard) and
:func:`holotable.games.kyrum.campaign.fold_game` turns it back into a :class:`CampaignState`.
Interpreter frames in ``todo`` refer to the pack's (read-only) op lists, shared between copies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def jcopy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars); op lists inside frames are shared."""
    if isinstance(value, dict):
        return {k: (v if k == "ops" else jcopy(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [jcopy(v) for v in value]
    return value


@dataclass
class KyrumData:
    game: int
    objectives: list[str]
    journey: int = 1
    area: int = 0
    areas_revealed: int = 0
    planet_deck: list[int] = field(default_factory=list)
    planet_discard: list[int] = field(default_factory=list)
    slot_planets: list[int] = field(default_factory=list)
    slot_dice: list[int] = field(default_factory=list)
    slot_explored: list[bool] = field(default_factory=list)
    window_open: bool = False
    encounter_deck: list[str] = field(default_factory=list)
    encounter_in_play: str | None = None
    encounter_removed: list[str] = field(default_factory=list)
    discovery_deck: list[str] = field(default_factory=list)
    discovery_discard: list[str] = field(default_factory=list)
    #: {"id", "paid": {el: n}, "waived": {el: n}, "studied": bool}
    inventory: list[dict[str, Any]] = field(default_factory=list)
    gauges: dict[str, int] = field(default_factory=dict)
    elements: dict[str, int] = field(default_factory=dict)
    peaks: dict[str, int] = field(default_factory=dict)
    discounts: list[list[int]] = field(default_factory=list)
    item_uses: dict[str, int] = field(default_factory=dict)
    script_np: int = 0
    exploring: int | None = None
    dice: list[int] = field(default_factory=list)
    todo: list[dict[str, Any]] = field(default_factory=list)
    decision: dict[str, Any] | None = None
    reading: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    finished: bool = False
    camp: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> KyrumData:
        return KyrumData(
            self.game, list(self.objectives), self.journey, self.area, self.areas_revealed,
            list(self.planet_deck), list(self.planet_discard), list(self.slot_planets), list(self.slot_dice),
            list(self.slot_explored), self.window_open, list(self.encounter_deck), self.encounter_in_play,
            list(self.encounter_removed), list(self.discovery_deck), list(self.discovery_discard),
            jcopy(self.inventory), dict(self.gauges), dict(self.elements), dict(self.peaks),
            [list(d) for d in self.discounts], dict(self.item_uses), self.script_np, self.exploring, list(self.dice),
            [dict(t) for t in self.todo], jcopy(self.decision), jcopy(self.reading), jcopy(self.result),
            self.finished, jcopy(self.camp),
        )

    def to_dict(self) -> dict[str, Any]:
        out = {k: jcopy(v) for k, v in vars(self).items() if k != "todo"}
        out["todo"] = [{k: v for k, v in t.items() if k != "ops"} for t in self.todo]
        if self.decision is not None:
            out["decision"] = {k: jcopy(v) for k, v in self.decision.items() if k != "ops"}
        return out
