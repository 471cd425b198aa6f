"""Plain words in every game's log: what a player reads says "1 coin" and "2 coins", never "coin(s)", and
never shows a Python value ("True", "None", "[15, 22]") or a bare rule ID in brackets (rule IDs go in a
details line)."""

from __future__ import annotations

import random
import re

import pytest

from holotable.engine import State, load, registry
from holotable.engine.words import plural, times

FORM_LIKE = re.compile(r"\w\(s\)|\b(True|False|None)\b|\[[A-Z]+-[A-Z]+(-[A-Z0-9]+)*\]|\[\d+(, \d+)*\]")


def test_counts_in_words() -> None:
    assert [plural(n, "coin") for n in (0, 1, 2)] == ["0 coins", "1 coin", "2 coins"]
    assert plural(3, "copy", "copies") == "3 copies" and plural(1, "copy", "copies") == "1 copy"
    assert [times(n) for n in (1, 2, 5)] == ["once", "twice", "5 times"]


@pytest.mark.parametrize("name", registry.names())
def test_no_log_line_reads_like_a_form(name: str) -> None:
    game = load(name)
    spec = game.spec
    seen: set[str] = set()
    for seed in range(3):
        players = spec.default_players or spec.min_players
        st = State.new(game, spec.make_config(players), seed, record=True)
        rng = random.Random(seed)
        for _ in range(300):
            if st.is_terminal():
                break
            seat = st.to_move()[0]
            st.apply(rng.choice(list(st.legal_actions(seat))), seat)
        seen |= {e.text for e in st.events or []}
    assert seen, "the games log what happens"
    assert not [t for t in seen if FORM_LIKE.search(t)], sorted(t for t in seen if FORM_LIKE.search(t))[:10]
