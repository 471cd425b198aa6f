"""Space Pirates' log speaks the player's words: energy cards by value and adventures, transports by
their face, never a card id, an adventure's code name or a rule ID (issue 20's plain-language point)."""

from __future__ import annotations

import re
from itertools import islice

import holotable
from holotable.games.space_pirates import words
from holotable.testing.conformance import playout

GAME = holotable.load("space-pirates")
#: A card id ("E3-2"), a code name in capitals ("NEW_RIGHT", "MEDS"), a rule ID, an ASCII arrow.
JARGON = re.compile(r"\bE\d-\d+\b|\b(FLICK|NEW_RIGHT|NEW_LEFT|ASTEROID|STORM|WIND|ORE|SPICE|TECH|MEDS|RELICS|POLICE)\b"
                    r"|SP-[A-Z]+-\d|->")


def test_random_games_log_no_card_ids_code_names_or_rule_ids() -> None:
    lines: list[str] = []
    for seed in range(3):
        *_, st = islice(playout(GAME, GAME.spec.make_config(2), seed, record=True), 150)
        lines += [e.text for e in st.events or []]
    assert any(line.startswith("Adventure: ") for line in lines)  # cards were played and their symbols read
    bad = sorted({line for line in lines if JARGON.search(line)})
    assert not bad, bad[:10]


def test_adventures_and_faces_have_names() -> None:
    assert words.adventure("WIND") == "solar wind" and words.adventure("NEW_LEFT") == "new transport (left)"
    assert words.face("MEDS") == "medicine"
    assert words.energy_card(2, ["FLICK", "STORM"]) == "a 2 energy card (flick, storm)"
