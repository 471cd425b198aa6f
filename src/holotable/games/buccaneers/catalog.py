"""The Buccaneers table page's catalog: what a hand card's id means (the ``cards`` role of the manifest).

A view lists hand cards by id only, so the page asks once per table (``GET /api/tables/{id}/catalog``)
for every card's name, type, value/weight per orientation and effect, the black holes, token cards and
scoring cards, built from the data that table plays with (its data overrides included).
"""

from __future__ import annotations

from typing import Any

from holotable.engine import Config

from .data import Artifact, BuccaneersData, Relic, TimeMachinePart, data_for


def catalog(config: Config) -> dict[str, Any]:
    """Every space-junk card by id, plus the black holes, token cards and scoring cards of this config.

    >>> import holotable
    >>> config = holotable.load("buccaneers").spec.make_config(4)
    >>> catalog(config)["cards"]["TOY-4-6"]["stats"]
    [[4, 6]]
    """
    data: BuccaneersData = data_for(config)
    cards: dict[str, dict[str, Any]] = {}
    for card in data.junk:
        entry: dict[str, Any] = {
            "name": card.shown_name,
            "type": card.kind.value,
            "stats": [[s.value, s.weight] for s in card.stats],
        }
        if isinstance(card, TimeMachinePart):
            entry["part"] = card.part
        if isinstance(card, Artifact):
            entry["effect"], entry["timing"] = card.effect, card.timing
        if isinstance(card, Relic):
            entry["effect"], entry["step"] = card.effect, card.step
        cards[card.id] = entry
    return {
        "cards": cards,
        "black_holes": {h.id: {"category": h.category, "colour": h.colour, "cards": h.cards,
                               "threshold": h.threshold} for h in data.black_holes},
        "tokens": {**{w.id: {"kind": "weight", "amount": w.amount} for w in data.weight_cards},
                   **{v.id: {"kind": "value", "amount": v.amount} for v in data.value_cards}},
        "threshold_cards": {t.id: t.amount for t in data.threshold_cards},
        "scoring": {str(s.players): list(s.points) for s in data.scoring_cards},
    }
