"""Space Pirates in simulations and balance reports: game length, money by source, captures.

The finished state keeps only the money each seat ends with, so the measures replay the game's
action log with the event log on (replay is exact: same seed, same actions) and follow every MC
that moves. Per step, a seat's gain is ``income:sales`` up to what its ``sold`` events paid, and
``income:base`` beyond that (fines and energy paid to it as a base owner; no other MC reaches a
player); a loss is ``spent:base`` (buying a base), ``spent:fines`` (police fines), ``spent:energy``
(recharging at another player's base), or ``spent:other`` when one step mixes several.

Per game: turns, whether the turn cap ended it (``no_winner``), captures, arrests and damage.
Per seat: final MC, owning a base at the end, the money families above, captures, cargo sold,
arrests and damage taken.

>>> from holotable.sim import simulate
>>> report = simulate("space-pirates", players=2, games=1, agents=["random"], seed=1)
>>> sorted(n for n in report.agents_summary[0].measures if n.startswith("income:"))
['income:base', 'income:sales']
"""

from __future__ import annotations

from typing import Any

from holotable.engine import State

from .state import SPData

#: Event kinds counted per seat (event ``seat`` field) and per game.
COUNTED = {"captured": "captures", "sold": "cargo_sold", "arrested": "arrests", "damage": "damage"}
#: What a seat's own event says a loss in that step paid for.
SPENDING = {"base_bought": "spent:base", "fine_paid": "spent:fines", "recharged": "spent:energy"}


Flows = tuple[list[dict[str, float]], dict[str, list[float]]]
#: The last state replayed and its result: both measure hooks ask for the same finished state in turn.
_LAST: list[tuple[State[Any, Any], int, Flows]] = []


def money_flows(state: State[Any, Any]) -> Flows:
    """Replay ``state``'s game with events: (money by source per seat, event counts per seat)."""
    if _LAST and _LAST[0][0] is state and _LAST[0][1] == state.ply:
        return _LAST[0][2]
    result = _replay(state)
    _LAST[:] = [(state, state.ply, result)]
    return result


def _replay(state: State[Any, Any]) -> Flows:
    replay = State.new(state.game, state.config, state.seed, record=True)
    n = state.config.players
    flows: list[dict[str, float]] = [
        {"income:sales": 0.0, "income:base": 0.0, "spent:base": 0.0, "spent:fines": 0.0, "spent:energy": 0.0,
         "spent:other": 0.0} for _ in range(n)]
    counts = {name: [0.0] * n for name in COUNTED.values()}
    assert replay.events is not None
    for seat, action in state.history:
        before = list(replay.data.mc)
        seen = len(replay.events)
        replay.apply(action, seat)
        step = replay.events[seen:]
        sales = [0.0] * n
        spending: list[set[str]] = [set() for _ in range(n)]
        for ev in step:
            who = ev.data.get("seat")
            if not isinstance(who, int) or not 0 <= who < n:
                continue
            if ev.kind in COUNTED:
                counts[COUNTED[ev.kind]][who] += 1
            if ev.kind == "sold":
                sales[who] += float(ev.data.get("price", 0))
            if ev.kind in SPENDING:
                spending[who].add(SPENDING[ev.kind])
        for s in range(n):
            delta = float(replay.data.mc[s] - before[s])
            if delta > 0:
                from_sales = min(delta, sales[s])
                flows[s]["income:sales"] += from_sales
                flows[s]["income:base"] += delta - from_sales
            elif delta < 0:
                kind = next(iter(spending[s])) if len(spending[s]) == 1 else "spent:other"
                flows[s][kind] += -delta
    return flows, counts


def measures(state: State[Any, Any]) -> dict[str, float]:
    d: SPData = state.data
    _, counts = money_flows(state)
    out = {"turns": float(d.turn), "no_winner": 1.0 if d.winner is None else 0.0}
    out.update({name: float(sum(per_seat)) for name, per_seat in counts.items()})
    return out


def seat_measures(state: State[Any, Any]) -> list[dict[str, float]]:
    d: SPData = state.data
    flows, counts = money_flows(state)
    result = []
    for seat in range(d.n):
        numbers = {"final_mc": float(d.mc[seat]), "owns_base": 1.0 if d.owned[seat] is not None else 0.0}
        numbers.update(flows[seat])
        numbers.update({name: per_seat[seat] for name, per_seat in counts.items()})
        result.append(numbers)
    return result
