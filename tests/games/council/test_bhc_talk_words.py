"""Council's table talk reads as sentences in the log (issue 20's plain language): who said what about
which outcome, never the typed action ("claim 1 settle green", "pledge pass if swap tax mine")."""

from __future__ import annotations

import re
from itertools import islice

import holotable
from holotable.games.council.words import talk_line
from holotable.testing.conformance import playout

GAME = holotable.load("council")
TYPED = re.compile(r"\bclaim \d|\bpledge (pass|fail)|\bask bribe|\bsuggest swap|\b[a-z]+_[a-z]+\b|^Seat \d+: [a-z]")


def test_random_games_log_talk_as_sentences() -> None:
    lines: list[str] = []
    for seed in range(4):
        *_, st = islice(playout(GAME, GAME.spec.make_config(5), seed, record=True), 300)
        lines += [e.text for e in st.events or [] if e.kind == "talk"]
    assert len(lines) > 20 and any(" claims " in line for line in lines)
    assert not [line for line in lines if TYPED.search(line)]


def test_talk_lines() -> None:
    table = ["A", "B", "C", "D", "E"]
    assert talk_line({"seat": 1, "kind": "pledge", "text": "pledge pass if swap tax mine", "vote": "pass",
                      "table": table, "wants": ["A", "C", "B", "D", "E"]}) \
        == "Seat 2 pledges to vote pass if the Leader swaps Tax and Mine"
    assert talk_line({"seat": 0, "kind": "claim", "about": 0, "outcome": "black_hole", "colour": "red"}) \
        == "Seat 1 claims their own Agenda wants red on Black Hole"
    assert talk_line({"seat": 2, "kind": "say", "text": "say hello"}, name=lambda s: f"Seat {s + 1} (you)") \
        == "Seat 3 (you) says: “hello”"
