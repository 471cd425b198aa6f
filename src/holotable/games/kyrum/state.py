"""Kyrum's game data (spec §4.1): plain JSON-like fields with a hand-written copy.

``camp`` holds the campaign-persistent part (spec §4.3) as it stands during this game: the engine
updates it (flags, narratives, scripts seen, NP bank, items, scoreboard) and
:func:`holotable.games.kyrum.campaign.fold_game` turns it back into a :class:`CampaignState`.
``tasks`` is the pending work (:mod:`.tasks`): typed values, shared between copies; its script
frames refer to the pack's (read-only) op lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from holotable.engine.tasks import TaskStack

from .story import Page, page_dict, page_from_dict
from .tasks import KyrumDecision, Stack, pending, saved_form


def jcopy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: jcopy(v) for k, v in value.items()}
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
    #: The pending work, a decision on top when one waits (saved as ``todo`` and ``decision``).
    tasks: Stack = field(default_factory=TaskStack)
    #: Every page read this game, in order (:mod:`.story`); pages are values, shared between copies.
    story: tuple[Page, ...] = ()
    #: The first page of what is being read now, and the first page not yet shown to the player.
    story_turn: int = 0
    story_shown: int = 0
    story_changed: tuple[int, ...] = ()
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
            self.tasks.copy(), self.story, self.story_turn, self.story_shown, self.story_changed, jcopy(self.result),
            self.finished, jcopy(self.camp),
        )

    @property
    def decision(self) -> KyrumDecision | None:
        """The decision waiting for the player, or ``None`` at a TLDP or once the game is over."""
        return pending(self.tasks)

    def to_dict(self) -> dict[str, Any]:
        # the saved form of the stack of dicts it replaced, keys in the same order: ``decision`` in
        # place of the stack, ``todo`` last
        out: dict[str, Any] = {}
        todo: list[dict[str, Any]] = []
        for k, v in vars(self).items():
            if k == "tasks":
                todo, out["decision"] = saved_form(v)
            elif k == "story":
                out[k] = [page_dict(p) for p in v]
            else:
                out[k] = jcopy(v)
        out["todo"] = todo
        return out


def saved_story(raw: dict[str, Any]) -> tuple[tuple[Page, ...], int, int]:
    """``(story, story_turn, story_shown)`` of a saved game's data: saves made before the story was kept
    hold one ``reading`` page (or none), which becomes a story of that page, being read and shown."""
    if "story" in raw:
        pages = tuple(page_from_dict(p) for p in raw["story"] or ())
        return pages, int(raw.get("story_turn", 0)), int(raw.get("story_shown", 0))
    old = raw.get("reading")
    if not old:
        return (), 0, 0
    return (page_from_dict({"kind": "main", **old}),), 0, 1
