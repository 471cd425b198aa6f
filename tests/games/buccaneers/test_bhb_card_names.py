"""A card's name as a player reads it: the copy letter that tells identical cards apart in the data
("Robot 6/3 (b)") is not printed on the card, so the catalog, the views and the log leave it out."""

from __future__ import annotations

import re

import holotable
from holotable.engine import Rng
from holotable.games.buccaneers import cards as tb
from holotable.games.buccaneers.catalog import catalog

GAME = holotable.load("buccaneers")
COPY = re.compile(r"\([a-z]\)")


def test_copies_share_the_printed_name() -> None:
    assert tb.CARDS["ROBOT-6-3-a"].shown_name == tb.CARDS["ROBOT-6-3-b"].shown_name == "Robot 6/3"
    assert tb.CARDS["SHAPE-4-a"].shown_name == "Morpho Broccolo"  # a name of its own stays as it is


def test_no_copy_letter_in_the_catalog_views_or_log() -> None:
    config = GAME.spec.make_config(3)
    assert not [c["name"] for c in catalog(config)["cards"].values() if COPY.search(c["name"])]
    st = GAME.new_state(3, seed=2, record=True)
    rng = Rng(2)
    while not st.is_terminal():
        seat = st.to_move()[0]
        st.apply(rng.choice([str(a) for a in st.legal_actions(seat)]), seat)
    texts = [e.text for e in st.events or []] + [str(st.view(s)) for s in range(3)]
    assert any("Robot" in t or "Shapeshifter" in t for t in texts)  # such cards were played and named
    assert not [t for t in texts if COPY.search(t)]
