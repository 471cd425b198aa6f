"""The Kyrum log speaks the player's words: no pack ids, frame labels, rule IDs or arrows in a line a
player reads (issue 20's plain-language point); the ids stay in each event's data for the story pages."""

from __future__ import annotations

import re

import pytest
from kyr_helpers import GAME, MINI

from holotable.engine import Rng
from holotable.games.kyrum import words
from holotable.games.kyrum.pack import PACKS_DIR, load_pack

DEMO = str(PACKS_DIR / "kyrum-demo")
#: What a line a player reads must not hold: a rule ID, an ASCII arrow, a frame label such as "13/white"
#: or "ENC-07/black", an option label "/o2", a resource code, a Python list, a slot number (counted from 0
#: where actions are typed, so the log names the planet).
JARGON = re.compile(r"KYR-|->|\w/(white|black|if|roll|o\d)\b|\bNP\b|\[\d|\bsuit \d|\bslot \d")


def _played(seed: int, pack: str) -> list[str]:
    st = GAME.new_state(1, seed=seed, pack=pack, record=True)
    rng = Rng(seed)
    for _ in range(400):
        if st.is_terminal():
            break
        legal = [str(a) for a in st.legal_actions()]
        keep = [a for a in legal if a != "concede"] or legal
        st.apply(rng.choice(keep))
    return [e.text for e in st.events or []]


@pytest.mark.parametrize("pack", [MINI, DEMO])
def test_random_games_log_no_ids_labels_or_rule_ids(pack: str) -> None:
    lines = [line for seed in range(6) for line in _played(seed, pack)]
    assert len(lines) > 100  # the games got somewhere: explorations, arrows, gauges
    assert any("→" in line for line in lines)  # gauges moved and were logged
    bad = sorted({line for line in lines if JARGON.search(line)})
    assert not bad, bad[:10]


def test_a_frame_label_reads_as_where_the_effect_came_from() -> None:
    pack = load_pack(DEMO)
    planet = next(iter(pack.planets.values()))
    encounter = next(iter(pack.encounters.values()))
    item = next(iter(pack.items.values()))
    code = next(iter(pack.scripts))
    assert words.source(pack, f"{planet.number}/white") == f"{planet.name}, white arrow"
    assert words.source(pack, f"{encounter.id}/black/if") == f"{encounter.name}, black arrow"
    assert words.source(pack, item.id) == item.name
    assert words.source(pack, f"{code}/o2") == f"booklet entry {code}, option 2"
    assert words.source(pack, f"{code}/roll") == f"booklet entry {code}, the roll"
    assert words.source(pack, "travel to Myrrak") == "travel to Myrrak"  # already words: unchanged
    assert words.slot_die(pack, [planet.number], 0) == f"{planet.name}'s distance die"
    assert words.resource("suit") == "spacesuit integrity"
