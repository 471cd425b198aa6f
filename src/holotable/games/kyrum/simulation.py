"""Kyrum in ``holotable simulate``: the measures of a finished game and the campaign schedule.

:func:`measures` turns a finished game into numbers (its length in explorations, areas and
journeys, NP by source, gauges at the end); the simulation report gives each one's mean with a
95% interval, and later balance reports can reuse it. How games end (``victory: validated in
journey 2``, ``defeat: journeys``, ``defeat: health``...) is the outcome's reason, which the report
counts for every game.

:func:`schedule` gives, for each scheduled game ``k`` of the pack (the demo's 30), the campaign
(parameter ``campaign``) that starts game ``k``, so ``holotable simulate kyrum --schedule 1-30``
plays each scheduled game many times. What earlier games leave behind (``carry``):

* ``played`` (default): one campaign played from game 1 by the simulation's agent, with the
  campaign seed of ``--seed``; game ``k`` starts from that campaign after game ``k - 1`` (its
  NP bank and the Thoth items bought with it, narrative discoveries, flags, main scripts seen).
  That is what a player of the same skill brings to game ``k``: one typical history, the same
  for every game ``k`` is played from.
* ``fresh``: a new campaign whose next game is ``k``: no items, NP, narratives, flags or scripts
  seen; only the schedule's objectives (and end script) change from game to game.

One ``played`` history is one random draw: game ``k``'s start (NP bank, items, narratives) and so
its win rate hang on how games ``1..k-1`` happened to go. ``--histories H`` (see
:mod:`holotable.sim.schedule`) asks this function once per history, with the master seed for the
first and ``derive_seed(seed, "history", h)`` for the others, and pools game ``k``'s games over the
``H`` starts: the figure a designer tunes the schedule against.

>>> import holotable
>>> game = holotable.load("kyrum")
>>> config = game.spec.make_config(1)
>>> [g.label for g in schedule(config, [1, 2], agent="heuristic", seed=0, carry="fresh")]
['B F N', 'C H P']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from holotable.agents.base import make_agent
from holotable.engine import Config, ConfigError, State, derive_seed, load
from holotable.sim.hooks import ScheduledGame
from holotable.sim.runner import play_game

from .campaign import CampaignState, fold_game, game_seed, new_campaign
from .rules import pack_of

CARRY_MODES = ("played", "fresh")


def measures(state: State[Any, Any]) -> dict[str, float]:
    """Named numbers of a finished game (the simulation report averages them)."""
    d = state.data
    result = d.result or {"np": {}, "journey_at_end": d.journey}
    explorations = sum(1 for _, action in state.history if action.verb == "explore")
    out = {
        "explorations": float(explorations),
        "journey_at_end": float(result["journey_at_end"]),
        "areas": float(d.areas_revealed),
        "np_total": float(result["np"].get("total", 0)),
    }
    for source in ("knowledge", "discovery", "journey", "script"):
        out[f"np_{source}"] = float(result["np"].get(source, 0))
    for gauge in ("fuel", "knowledge", "health", "ship", "suit", "firepower"):
        out[f"end_{gauge}"] = float(d.gauges[gauge])
    return out


def campaign_before(config: Config, number: int, *, agent: str, seed: int, carry: str | None) -> CampaignState:
    """The campaign that starts scheduled game ``number`` (see the module docstring)."""
    return campaigns_before(config, [number], agent=agent, seed=seed, carry=carry)[number]


def campaigns_before(
    config: Config, numbers: Sequence[int], *, agent: str, seed: int, carry: str | None
) -> dict[int, CampaignState]:
    """The campaign that starts each of ``numbers``; a ``played`` history is played once, to the last."""
    carry = carry or CARRY_MODES[0]
    if carry not in CARRY_MODES:
        raise ConfigError(f"unknown carry {carry!r} for kyrum; choose one of: {', '.join(CARRY_MODES)}")
    pack = pack_of(config)
    length = int(pack.schedule["length"])
    bad = [n for n in numbers if not 1 <= n <= length]
    if bad:
        raise ConfigError(f"the {pack.pack_id} schedule has games 1-{length}, not {bad[0]}")
    partner = bool(config["partner"])
    if carry == "fresh":
        out = {}
        for n in numbers:
            camp = new_campaign(pack, seed=seed, partner=partner)
            camp.next_game = n
            out[n] = camp
        return out
    game = load("kyrum")
    camp = new_campaign(pack, seed=seed, partner=partner)
    wanted = set(numbers)
    found: dict[int, CampaignState] = {}
    for number in range(1, max(numbers, default=0) + 1):
        if number in wanted:
            found[number] = CampaignState.from_dict(camp.to_dict())
        if number == max(numbers):
            break
        played = game.spec.make_config(1, **{**config.params, "campaign": camp.to_json()})
        player = make_agent(agent, game, seed=derive_seed(seed, "campaign", number))
        state, _ = play_game(game, played, game_seed(camp.campaign_seed, number), [player])
        camp = fold_game(camp, state)
    return found


def schedule(
    config: Config, numbers: Sequence[int] | None, *, agent: str, seed: int, carry: str | None
) -> list[ScheduledGame]:
    """One :class:`ScheduledGame` per asked game number: its objectives' letters as the label, its campaign."""
    pack = pack_of(config)
    asked = list(numbers) if numbers is not None else list(range(1, int(pack.schedule["length"]) + 1))
    camps = campaigns_before(config, asked, agent=agent, seed=seed, carry=carry)
    out = []
    for n in asked:
        label = " ".join(pack.game_entry(n)["objectives"])
        out.append(ScheduledGame(n, label, {"campaign": camps[n].to_json()}))
    return out
