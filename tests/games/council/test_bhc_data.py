"""Components and the data file: BHC-COMP, BHC-PLAYERS-01 and the ASSUMED records (spec §1)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from importlib import resources
from itertools import combinations
from typing import Any

import pytest
from bhc_helpers import DATA, GAME, new_state

from holotable.engine import ConfigError, DataError
from holotable.games.council import actions as A
from holotable.games.council.data import COLOURS, OUTCOMES, RAINBOW, parse


def raw() -> dict[str, Any]:
    text = resources.files("holotable.games.council").joinpath("data", "council.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


def test_BHC_COMP_05_06_07_09_planets() -> None:
    """BHC-COMP-05: 32 planets, six per colour plus two Rainbows; BHC-COMP-06: coloured planets 0..3
    (assumed:AMB-05: 0,1,1,2,2,3 per colour); BHC-COMP-07: Rainbows +1 and -1; BHC-COMP-09: 16 carry a
    coin symbol, 21 coins in all."""
    assert len(DATA.planets) == 32
    per_colour = Counter(p.colour for p in DATA.planets)
    assert [per_colour[c] for c in range(5)] == [6] * 5 and per_colour[RAINBOW] == 2
    for colour in range(5):
        cards = [p for p in DATA.planets if p.colour == colour]
        assert sorted(p.points for p in cards) == [0, 1, 1, 2, 2, 3]
        assert sum(p.points for p in cards) == 9
        assert sum(p.coin for p in cards) == 4
    assert sorted(p.points for p in DATA.planets if p.rainbow) == [-1, 1]
    assert sum(1 for p in DATA.planets if p.coin) == 16
    assert sum(p.coin for p in DATA.planets) == 21
    assert DATA.planet("RBW-MINUS").coin == 1 and DATA.planet("RBW-PLUS").coin == 0


def test_BHC_COMP_10_agendas_are_the_affine_maps() -> None:
    """BHC-COMP-10 (assumed:AMB-06): 20 distinct bijections; each (colour, outcome) pair on exactly 4 cards;
    two cards share at most one Goal; AG-01 is the rulebook's example card; AG-k sends colour i to (a*i+b) mod 5."""
    assert len(DATA.agendas) == 20 and len(set(DATA.agendas)) == 20
    for card in DATA.agendas:
        assert sorted(card) == [0, 1, 2, 3, 4]
    pairs = Counter((c, o) for card in DATA.agendas for c, o in enumerate(card))
    assert set(pairs.values()) == {4} and len(pairs) == 25
    for x, y in combinations(DATA.agendas, 2):
        assert sum(1 for c in range(5) if x[c] == y[c]) <= 1
    assert DATA.agendas[0] == (0, 1, 2, 3, 4)
    for k, card in enumerate(DATA.agendas):
        a, b = k // 5 + 1, k % 5
        assert card == tuple((a * i + b) % 5 for i in range(5)), DATA.agenda_ids[k]


def test_BHC_COMP_12_intrigue_cards() -> None:
    """BHC-COMP-12 (assumed:AMB-07): ten Intrigue cards, two of each of the five kinds."""
    assert DATA.intrigue_counts == (2, 2, 2, 2, 2)


def test_BHC_COMP_01_02_13_18_player_components() -> None:
    """BHC-COMP-01 / BHC-COMP-13: eight player colours (sets and tokens); BHC-COMP-02 (assumed:AMB-02): a
    Deduction guess is one of the five planet colours, a vote Pass or Fail; BHC-COMP-18: five outcomes in board
    order."""
    assert len(DATA.player_colours) == 8
    assert OUTCOMES == ("settle", "tax", "mine", "conquer", "black_hole")
    assert COLOURS == ("red", "green", "yellow", "blue", "black")
    guesses = {str(a) for a in A.SPACE if a.kind == A.GUESS}
    assert len(guesses) == 10  # five colour cards, pointed left or right
    assert {str(a) for a in A.SPACE if a.kind == A.VOTE} == {"vote pass", "vote fail"}


def test_BHC_COMP_03_04_coins_are_values() -> None:
    """BHC-COMP-03: coins are plain integer values with no holding limit (assumed:AMB-03); BHC-COMP-04: each
    coin paid counts one point towards an Advance (pay 5 covers a cost of 5 with 0 points)."""
    st = new_state(4)
    st.arrange({"banks": [40, 1, 1, 1], "positions": [8, 1, 1, 1], "agendas": ["AG-01", "AG-02", "AG-03", "AG-04"],
                "table": ["GRN-A", "RED-A", "BLU-A", "YEL-A", "RED-F"], "leader": 0})
    st.apply("call vote", 0)
    for s in (1, 2, 3):
        st.apply("vote pass", s)
    assert GAME.points(st.data, 0) == 0
    st.apply("pay 5", 0)
    assert st.data.positions[0] == 9 and st.data.banks[0] == 35


def test_BHC_COMP_14_15_16_17_board() -> None:
    """BHC-COMP-14: a Round Track of 10 spaces; BHC-COMP-15: the timer is the negotiation_seconds param (120
    by default, assumed:AMB-11); BHC-COMP-16: the Leader Token's Proposal Track 1..3; BHC-COMP-17: the
    board's track, outcomes and Bribe Space all appear in every view."""
    st = new_state(5)
    view = st.view(None)
    assert len(view["round_order"]) == 10 and view["round"] == 1
    assert view["negotiation_seconds"] == 120
    assert view["proposal"] == 1
    assert list(view["table"]) == list(OUTCOMES)
    assert view["bribe_space"] == 1 and len(view["track_costs"]) == 14


def test_BHC_COMP_11_no_quotes_in_play() -> None:
    """BHC-COMP-11: the Agenda's quote has no effect; the data file has no such field and the view shows
    only the id and the five Goals."""
    assert set(raw()["agendas"][0]) == {"id", "goals"}
    assert set(new_state(4).view(0)["you"]["agenda"]) == {"id", "goals"}


def test_BHC_PLAYERS_01_player_range() -> None:
    """BHC-PLAYERS-01 (assumed:AMB-01): 4 to 8 players; other counts are rejected."""
    assert (GAME.spec.min_players, GAME.spec.max_players) == (4, 8)
    for n in (3, 9):
        with pytest.raises(ConfigError):
            GAME.spec.make_config(n)
    for n in range(4, 9):
        assert new_state(n).players == n


def test_assumed_values_are_parameters_with_records() -> None:
    """Every ASSUMED choice is a Param carrying its BHC-AMB record (assumed:AMB-04, AMB-08, AMB-10, AMB-11,
    AMB-13, AMB-33, AMB-34)."""
    records = {p.name: p.assumed for p in GAME.spec.params}
    assert records["track_costs"] == "BHC-AMB-04"
    assert records["round_order"] == "BHC-AMB-08"
    assert records["first_leader"] == "BHC-AMB-10"
    assert records["negotiation_seconds"] == "BHC-AMB-11"
    assert records["bribe_increment"] == "BHC-AMB-13"
    assert records["house_timeouts"] == "BHC-AMB-34"
    assert GAME.spec.param("track_costs").default == (1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8)
    assert GAME.spec.param("round_order").default == "NNDNNDNNDP"


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("planets", 0, "points"), 7, "RED-A"),
        (("planets", 0, "colour"), "purple", "RED-A"),
        (("planets", 31, "points"), 3, "rainbow"),
        (("agendas", 1, "goals", "tax"), "black", "AG-02"),
        (("agendas", 1, "goals"), {"settle": "red"}, "AG-02"),
        (("intrigue", "settle"), -1, "intrigue.settle"),
        (("assumed", "round_order", "value"), "NNNNNNNDDP", "round_order"),
        (("assumed", "track_costs", "value"), [1, 0], "track_costs[1]"),
        (("assumed", "max_players"), {"value": 9}, "max_players"),
    ],
)
def test_a_bad_data_file_names_the_problem(path: tuple[Any, ...], value: Any, message: str) -> None:
    """The data file is validated on load; DataError names the file, card and field."""
    doc = copy.deepcopy(raw())
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(DataError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse(doc)


def test_duplicate_agenda_is_refused() -> None:
    doc = copy.deepcopy(raw())
    doc["agendas"][1] = dict(doc["agendas"][0], id="AG-02")
    with pytest.raises(DataError, match="no two agendas"):
        parse(doc)


def test_the_shipped_file_parses() -> None:
    assert parse(raw()) == DATA
