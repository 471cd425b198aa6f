"""The race to a base and 20 MC, as the search bot values it (the heuristic does not look at it).

Space Pirates is won by the first player who owns a base and holds the victory sum (SP-WIN-01). The
heuristic (:mod:`.bots`) gathers cargo greedily: it heads for a base only to sell a hold or recharge,
buys a base only with money to spare, and pays up to 4 MC for energy whenever its hand runs under 10
points. Measured in heuristic-against-heuristic games, the loser had often earned enough but was
still without a base (one ended with 32 MC and none), or had spent 28-32 MC on energy. The search bot
plays the race instead:

* **Goals.** While it has no base and its money plus what its hold would sell for reaches the base
  price, every free inhabited base is a target; once it owns one and money plus hold reach the
  victory sum, every base it can sell at is (docking there wins). Targets draw across the whole
  galaxy (``GOAL_REACH``), not only the heuristic's 35 cm, and docking at one is worth the game
  step it buys (:func:`goal_dock_value`).
* **Economy** (:class:`RaceEconomy`): buy the first base it can (staying a turn for it), and sell
  everything when the sale buys a base or wins. Energy is bought as the heuristic buys it: a first
  version that bought only 10 points at a time drifted a ruler a turn for up to 20 turns a game and
  won fewer games, not more.

Everything else is the heuristic's valuation, which these functions extend.
"""

from __future__ import annotations

from typing import Any

from holotable.agents.base import Observation
from holotable.engine import State

from . import flow
from . import geometry as geo
from .actions import SPAction
from .bots import XY, Knowledge, SpacePiratesHeuristic, Valuation, dock_value, end_potential, hold_sale
from .data import content_for
from .state import SPData

#: Distance (cm) over which a goal base draws a ship: the galaxy is 60 cm across.
GOAL_REACH = 70.0
#: What docking where a base can be bought is worth (buying it next turn at the latest).
BUY_WORTH = 9.0
#: What docking where the sale wins the game is worth.
WIN_WORTH = 40.0
#: A goal base's pull on a resting point, per unit of closeness.
BUY_PULL = 6.0
WIN_PULL = 14.0
#: With a hand this thin its own base draws it (free energy there).
THIN_HAND = 5


def can_afford_base(k: Knowledge, base: int) -> bool:
    return k.mc + hold_sale(k, base) >= k.content.constants.base_price


def free_slot(d: SPData, base: int) -> bool:
    return None in d.docked[base]


def goal_dock_value(k: Knowledge, d: SPData, base: int, goal: int, *, card_value: int = 0) -> float:
    """The heuristic's :func:`.bots.dock_value` plus the race: a docking that wins or buys a base."""
    value = dock_value(k, d, base, card_value=card_value)
    if not d.layout.bases[base].inhabited:
        return value
    if k.owned is not None and k.mc + hold_sale(k, base) >= goal:
        return value + WIN_WORTH
    if not k.bought and d.owner[base] is None and can_afford_base(k, base):
        value += BUY_WORTH
    if d.owner[base] == k.seat and k.hand_points - card_value < 8:
        value += 2.0  # free energy at its own base
    return value


def goal_targets(k: Knowledge, d: SPData, goal: int) -> list[tuple[XY, float]]:
    """The gates worth heading for now, and each one's pull."""
    out: list[tuple[XY, float]] = []
    for b in d.layout.bases:
        if not b.inhabited or not free_slot(d, b.index):
            continue
        if k.owned is not None and k.mc + hold_sale(k, b.index) >= goal:
            out.append((b.gate_mid, WIN_PULL))
        elif not k.bought and d.owner[b.index] is None and can_afford_base(k, b.index):
            out.append((b.gate_mid, BUY_PULL))
        elif d.owner[b.index] == k.seat and k.hand_points < THIN_HAND:
            out.append((b.gate_mid, 3.0))
    return out


def goal_potential(k: Knowledge, d: SPData, end: XY, taken: frozenset[int], extra_hold: float, goal: int) -> float:
    """The heuristic's :func:`.bots.end_potential`, or the pull of the nearest goal base if stronger."""
    best = end_potential(k, d, end, taken, extra_hold)
    for gate, pull in goal_targets(k, d, goal):
        best = max(best, pull * max(0.0, 1.0 - geo.dist(end, gate) / GOAL_REACH))
    return best


def goal_values(goal: int) -> Valuation:
    """The race-aware :class:`.bots.Valuation` for a game won at ``goal`` MC."""

    def dock(k: Knowledge, d: SPData, base: int, *, card_value: int = 0) -> float:
        return goal_dock_value(k, d, base, goal, card_value=card_value)

    def potential(k: Knowledge, d: SPData, end: XY, taken: frozenset[int], extra: float) -> float:
        return goal_potential(k, d, end, taken, extra, goal)

    return Valuation(dock, potential)


def victory_sum(st: State[SPData, SPAction]) -> int:
    """The money that wins this game with a base (SP-WIN-01/02)."""
    return flow.threshold(flow.Ctx(st, content_for(st.config)))


class RaceEconomy(SpacePiratesHeuristic):
    """The heuristic, valuing courses with :func:`goal_values` and running its money for the race."""

    name = "race-economy"

    def act_on(self, obs: Observation, st: State[SPData, SPAction]) -> Any:
        self.values = goal_values(victory_sum(st))
        return super().act_on(obs, st)

    def _turn_mode(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        base = st.data.ships[k.seat].base
        assert base is not None
        if (not dec.get("after_base") and not k.bought and st.data.owner[base] is None
                and k.mc >= k.content.constants.base_price):
            return SPAction("stay")  # buy it: the base actions start with the purchase
        action: SPAction = super()._turn_mode(obs, k, st, dec)  # otherwise as the heuristic: stay if low
        return action

    def _base_buy(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        return SPAction("buy")  # one base a game, and no win without it

    def _base_sell(self, obs: Observation, k: Knowledge, st: State[SPData, SPAction], dec: Any) -> SPAction:
        base = dec["base"]
        d = st.data
        total = hold_sale(k, base)
        wins = k.owned is not None and k.mc + total >= victory_sum(st)
        buys = not k.bought and d.owner[base] is None and k.mc < k.content.constants.base_price <= k.mc + total
        if (wins or buys) and k.hold:
            tid = max(k.hold, key=lambda h: k.price(base, h[1]))[0]
            return SPAction("sell", tid)
        action: SPAction = super()._base_sell(obs, k, st, dec)
        return action
