"""Black Hole Buccaneers' card data: the shipped files, the orientation model and validation.

Rule IDs are those of the Buccaneers spec (BHB-COMP-*, BHB-CARD-*, BHB-ROT-*, BHB-DATA-*); tests of
ASSUMED values carry the tag ``assumed:AMB-nn``.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holotable.engine import ConfigError, DataError
from holotable.games.buccaneers.data import (
    DATA_FILES,
    Artifact,
    BuccaneersData,
    JunkType,
    OrientationError,
    Relic,
    Robot,
    Stats,
    TimeMachinePart,
    load,
    load_default,
    parse,
)

DATA = load_default()


def _shipped() -> dict[str, Any]:
    folder = resources.files("holotable.games.buccaneers").joinpath("data")
    return {name: json.loads(folder.joinpath(name).read_text(encoding="utf-8")) for name in DATA_FILES}


def _printed(kind: JunkType) -> list[tuple[int, int]]:
    return sorted((c.printed.value, c.printed_weight) for c in DATA.of_kind(kind))


def _by_effect(effect: str) -> Artifact | Relic:
    for card in DATA.junk:
        if isinstance(card, (Artifact, Relic)) and card.effect == effect:
            return card
    raise KeyError(effect)


# --------------------------------------------------------------------------- the shipped files


def test_shipped_files_load_and_match_a_fresh_parse() -> None:
    assert isinstance(DATA, BuccaneersData)
    assert parse(_shipped()) == DATA
    assert sorted(p.name for p in resources.files("holotable.games.buccaneers").joinpath("data").iterdir()
                  if p.name.endswith(".json") and p.name != "limits.json") == sorted(DATA_FILES)


def test_BHB_COMP_01_thirteen_black_holes_by_category() -> None:
    assert len(DATA.black_holes) == 13
    assert Counter(h.category for h in DATA.black_holes) == {"menacing": 4, "risky": 4, "dangerous": 5}
    colours = {h.category: h.colour for h in DATA.black_holes}
    assert colours["menacing"] == "green" and colours["dangerous"] == "red"


def test_BHB_COMP_02_and_BHB_DATA_01_sixty_seven_junk_cards_by_type_with_unique_ids() -> None:
    """BHB-COMP-02, BHB-DATA-01. assumed:AMB-43"""
    assert len(DATA.junk) == 67
    assert Counter(c.kind for c in DATA.junk) == {
        JunkType.SPACESHIP: 10, JunkType.TOY: 10, JunkType.TIME_MACHINE: 12, JunkType.SHAPESHIFTER: 10,
        JunkType.ROBOT: 10, JunkType.ARTIFACT: 8, JunkType.RELIC: 7,
    }
    assert len({c.id for c in DATA.junk}) == 67
    assert DATA.card("TM-WE-2").name == "Warp Engine"


def test_BHB_COMP_03_and_BHB_CARD_VW_01_02_one_of_each_weight_and_value_card() -> None:
    """BHB-COMP-03, BHB-CARD-VW-01 (weight cards -6 and -10), BHB-CARD-VW-02 (value card +10)."""
    assert sorted((t.id, t.amount) for t in DATA.weight_cards) == [("W-10", -10), ("W-6", -6)]
    assert [(t.id, t.amount) for t in DATA.value_cards] == [("V+10", 10)]


def test_BHB_COMP_04_five_threshold_cards_and_who_places_them() -> None:
    assert sorted(t.amount for t in DATA.threshold_cards) == [-4, -2, 2, 3, 4]
    placed = {t.amount: t.placed_by for t in DATA.threshold_cards}
    assert placed == {-4: "laser", -2: "laser", 2: "laser", 3: "tiit", 4: "laser"}


def test_BHB_COMP_05_direction_card_has_two_sides() -> None:
    assert sorted(DATA.direction_card.sides) == ["CCW", "CW"]


def test_BHB_COMP_06_scoring_cards_only_for_three_to_six_players() -> None:
    assert [c.players for c in DATA.scoring_cards] == [3, 4, 5, 6]
    assert DATA.overview_cards == 6
    for players in (0, 1, 2, 7):
        with pytest.raises(ConfigError, match="3 to 6 players"):
            DATA.scoring_card(players)


def test_BHB_COMP_07_eight_unique_artifacts() -> None:
    names = sorted(c.name for c in DATA.of_kind(JunkType.ARTIFACT))
    assert names == sorted(["Analog GPS Tracker", "TIIT CLO UHL", "Swiss Pocket Laser", "Titan Tentacle",
                            "Reality Gyro", "Morphosucker", "Cubus Librae", "Lootbox"])


def test_BHB_COMP_08_seven_unique_relics_with_their_scoring_steps() -> None:
    steps = {c.name: c.step for c in DATA.junk if isinstance(c, Relic)}
    assert steps == {"Surprise Egg": "A", "Alien Wading Pool": "B", "One Ring": "D", "Anti-Grav Carpet": "E",
                     "Exoskeleton": "E", "XXL Paperweight": "F", "Space Blanket": "G"}


def test_BHB_CARD_SHIP_01_and_SHIP_04_spaceship_values_are_the_rulebook_list_and_distinct() -> None:
    """BHB-CARD-SHIP-01, BHB-CARD-SHIP-04."""
    assert _printed(JunkType.SPACESHIP) == sorted(
        [(-5, -4), (-4, -3), (-3, -2), (7, 5), (8, 6), (9, 7), (10, 7), (11, 8), (12, 9), (14, 10)]
    )
    values = [c.printed.value for c in DATA.of_kind(JunkType.SPACESHIP)]
    assert len(set(values)) == len(values)


def test_BHB_CARD_TOY_01_toy_values() -> None:
    assert _printed(JunkType.TOY) == [(1, 2), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5), (4, 6), (5, 5), (5, 6)]


def test_BHB_CARD_TM_01_three_copies_of_each_part() -> None:
    parts = Counter((c.part, c.name) for c in DATA.junk if isinstance(c, TimeMachinePart))
    assert parts == {("command_chair", "Command Chair"): 3, ("reflector_shield", "Reflector Shield"): 3,
                     ("quantum_control", "Quantum Control"): 3, ("warp_engine", "Warp Engine"): 3}


def test_BHB_CARD_TM_06_and_BHB_DATA_05_part_stats_and_group_totals() -> None:
    """BHB-CARD-TM-06, BHB-DATA-05 (the four pairs), read at orientation size - 1 (BHB-CARD-TM-05)."""
    part = DATA.card("TM-QC-1")
    assert [(s.value, s.weight) for s in part.stats] == [(2, 5), (4, 4), (5, 3), (5, 2)]
    # A group of size s lies at orientation s - 1 (BHB-CARD-TM-05); the rulebook's totals follow.
    totals = {size: (size * part.at(size - 1).value, size * part.at(size - 1).weight) for size in range(1, 5)}
    assert totals == {1: (2, 5), 2: (8, 8), 3: (15, 9), 4: (20, 8)}


def test_BHB_CARD_SHAPE_01_shapeshifter_values_and_known_names() -> None:
    assert _printed(JunkType.SHAPESHIFTER) == sorted([(3, 3), (3, 3), (4, 4), (4, 4), (7, 7), (7, 7), (8, 8), (8, 8),
                                                      (5, 5), (6, 6)])
    named = {c.name: (c.printed.value, c.printed_weight) for c in DATA.of_kind(JunkType.SHAPESHIFTER)}
    assert named["Morpho Cubo"] == (8, 8)
    assert named["Morpho Broccolo"] == (4, 4)
    assert named["Morpho Servientes"] == (7, 7)


def test_BHB_CARD_ROBOT_01_ten_robots_including_the_two_assumed_ones() -> None:
    """assumed:AMB-07 — the rulebook lists 8 robots; the data adds a fourth 4/2 and a fourth 6/3."""
    assert Counter((c.printed.value, c.printed_weight) for c in DATA.of_kind(JunkType.ROBOT)) == {
        (4, 2): 4, (6, 3): 4, (5, 2): 1, (7, 3): 1,
    }
    extra = sorted(c.id for c in DATA.of_kind(JunkType.ROBOT) if "AMB-07" in c.assumed)
    assert extra == ["ROBOT-4-2-d", "ROBOT-6-3-d"]


def test_BHB_CARD_ROBOT_03_and_ROBOT_08_turning_a_robot_swaps_value_and_weight_once() -> None:
    """BHB-CARD-ROBOT-03, BHB-CARD-ROBOT-08, BHB-DATA-05 (robots: stats[1] = swap(stats[0]))."""
    for robot in DATA.of_kind(JunkType.ROBOT):
        assert isinstance(robot, Robot)
        assert robot.reachable == (0, 1)
        assert robot.at(1) == Stats(robot.printed_weight, robot.printed.value)
        with pytest.raises(OrientationError):
            robot.at(2)


def test_BHB_CARD_SHIP_02_TOY_05_SHAPE_06_these_cards_never_rotate() -> None:
    """BHB-CARD-SHIP-02, BHB-CARD-TOY-05, BHB-CARD-SHAPE-06: only the printed pair exists."""
    for kind in (JunkType.SPACESHIP, JunkType.TOY, JunkType.SHAPESHIFTER, JunkType.RELIC):
        for card in DATA.of_kind(kind):
            assert card.reachable == (0,)
            assert card.at(0) == card.printed
            with pytest.raises(OrientationError, match=card.id):
                card.at(1)


# --------------------------------------------------------------------------- the orientation model


def test_BHB_ROT_02_and_ROT_03_the_pair_on_top_and_its_printed_edge() -> None:
    """BHB-ROT-02, BHB-ROT-03."""
    lootbox = _by_effect("lootbox")
    assert [lootbox.at(k) for k in range(4)] == [Stats(2, 2), Stats(6, 2), Stats(0, 1), Stats(9, 3)]
    # A clockwise quarter turn brings the upright card's left edge to the top.
    assert [lootbox.top_edge(k) for k in range(4)] == ["top", "left", "bottom", "right"]


@given(turns=st.integers(min_value=0, max_value=10_000))
def test_BHB_ROT_04_rotating_artifacts_wrap_modulo_four(turns: int) -> None:
    """assumed:AMB-09 — Morphosucker, Cubus Librae and Lootbox turn without limit, modulo 4."""
    for effect in ("morphosucker", "cubus_librae", "lootbox"):
        card = _by_effect(effect)
        assert card.wraps
        assert card.orientation(turns) == turns % 4
        assert card.at(turns) == card.stats[turns % 4]


@given(turns=st.integers(min_value=0, max_value=50))
def test_BHB_ROT_06_only_reachable_orientations_are_readable(turns: int) -> None:
    for card in DATA.junk:
        if card.wraps or turns < len(card.stats):
            assert card.at(turns) == card.stats[turns % 4]
        else:
            with pytest.raises(OrientationError):
                card.at(turns)


def test_BHB_ROT_01_turns_are_counted_clockwise_only() -> None:
    """A negative (counter-clockwise) turn count is refused for every card."""
    for card in DATA.junk:
        assert card.at(0) == card.printed
        with pytest.raises(OrientationError, match="cannot be turned -1 times"):
            card.at(-1)


def test_BHB_ROT_05_only_robots_time_machine_parts_and_three_artifacts_can_turn() -> None:
    turning = {c.id for c in DATA.junk if len(c.reachable) > 1}
    expected = {c.id for c in DATA.junk if c.kind in (JunkType.ROBOT, JunkType.TIME_MACHINE)}
    expected |= {"ART-MORPHO", "ART-CUBUS", "ART-LOOT"}
    assert turning == expected
    assert {c.id for c in DATA.junk if c.wraps} == {"ART-MORPHO", "ART-CUBUS", "ART-LOOT"}


def test_BHB_ROT_08_printed_weight_is_the_upright_weight() -> None:
    cubus = _by_effect("cubus_librae")
    assert cubus.printed_weight == 4 and cubus.at(3).weight == -2
    assert all(c.printed_weight == c.stats[0].weight for c in DATA.junk)


# --------------------------------------------------------------------------- BHB-DATA rules on the shipped data


def test_BHB_DATA_02_black_holes_deal_at_least_two_and_below_their_threshold() -> None:
    for hole in DATA.black_holes:
        assert 2 <= hole.cards < hole.threshold, hole.id


def test_BHB_DATA_03_the_worst_round_fits_in_the_deck() -> None:
    h_max = max(h.cards for h in DATA.black_holes)
    assert 6 * h_max + 6 + 3 + 1 <= len(DATA.junk)


def test_BHB_DATA_04_scoring_cards_fall_strictly_and_stay_positive() -> None:
    """assumed:AMB-05 — only 15 and 10 for 3 players come from the rulebook. assumed:AMB-21"""
    for card in DATA.scoring_cards:
        assert len(card.points) == card.players
        assert all(a > b for a, b in zip(card.points, card.points[1:], strict=False))
        assert min(card.points) > 0
        assert card.points[:2] == (15, 10)
        assert card.assumed == ("AMB-05",)


def test_BHB_DATA_06_artifacts_and_relics_are_too_light_to_trigger() -> None:
    """assumed:AMB-08."""
    for kind in (JunkType.ARTIFACT, JunkType.RELIC):
        for card in DATA.of_kind(kind):
            assert card.printed_weight <= 5, card.id


# --------------------------------------------------------------------------- ASSUMED values carry their records


def test_every_assumed_value_carries_a_record() -> None:
    """assumed:AMB-01 assumed:AMB-03 assumed:AMB-08 assumed:AMB-09 assumed:AMB-10 assumed:AMB-14 assumed:AMB-25."""
    assert all(h.assumed[0] == "AMB-01" for h in DATA.black_holes)
    assert all("AMB-43" in h.assumed for h in DATA.black_holes if h.category == "risky")
    assert DATA.first_game_stack == ("BH-M2", "BH-R2", "BH-D4") and DATA.first_game_assumed == ("AMB-03",)
    m2 = DATA.black_hole("BH-M2")
    assert (m2.cards, m2.threshold) == (6, 18)  # the rulebook example's threshold 18
    for card in DATA.of_kind(JunkType.ARTIFACT) + DATA.of_kind(JunkType.RELIC):
        assert "AMB-08" in card.assumed, card.id
    for effect in ("morphosucker", "cubus_librae", "lootbox"):
        assert "AMB-09" in _by_effect(effect).assumed
    assert DATA.card("TOY-4-6").name == "Card Reader" and DATA.card("TOY-4-6").printed_weight == 6
    assert "AMB-10" in DATA.card("TOY-4-6").assumed
    gps = _by_effect("gps")
    assert isinstance(gps, Artifact) and gps.timing == "on_reveal" and "AMB-14" in gps.assumed
    ring = _by_effect("one_ring")
    assert ring.printed == Stats(8, 5) and "AMB-25" in ring.assumed
    # Rulebook-given cards carry no record.
    assert DATA.card("TM-CC-1").assumed == () and DATA.card("SHAPE-8-a").assumed == ()
    assert {a.what.split(" ")[0] for a in DATA.assumptions()} >= {"BH-M1", "first_game_stack", "REL-RING"}


# --------------------------------------------------------------------------- broken data


def _set(file: str, path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        node: Any = raw[file]
        *parents, last = path.split(".")
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


def _drop(file: str, path: str) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        node: Any = raw[file]
        *parents, last = path.split(".")
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[last]

    return change


def _duplicate_card(raw: dict[str, Any]) -> None:
    raw["junk.json"]["cards"][1]["id"] = raw["junk.json"]["cards"][0]["id"]


def _extra_card(raw: dict[str, Any]) -> None:
    raw["junk.json"]["cards"].append(copy.deepcopy(raw["junk.json"]["cards"][0]) | {"id": "SHIP-99"})


def _remove_card(raw: dict[str, Any]) -> None:
    raw["junk.json"]["cards"].pop()


def _shift_part(raw: dict[str, Any]) -> None:
    for card in raw["junk.json"]["cards"]:
        if card["id"] == "TM-CC-1":
            card["part"] = "warp_engine"


def _two_lasers(raw: dict[str, Any]) -> None:
    for card in raw["junk.json"]["cards"]:
        if card["id"] == "ART-GYRO":
            card["effect"] = "laser"


def _same_ship_value(raw: dict[str, Any]) -> None:
    for card in raw["junk.json"]["cards"]:
        if card["id"] == "SHIP-10":
            card["stats"] = [[9, 7]]


def _heavy(card_id: str, stats: list[list[int]]) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        for card in raw["junk.json"]["cards"]:
            if card["id"] == card_id:
                card["stats"] = stats

    return change


def _hole_category(raw: dict[str, Any]) -> None:
    raw["black-holes.json"]["cards"][0]["category"] = "risky"


def _duplicate_hole(raw: dict[str, Any]) -> None:
    raw["black-holes.json"]["cards"][1]["id"] = "BH-M1"


def _deep_hole(raw: dict[str, Any]) -> None:
    raw["black-holes.json"]["cards"][3]["cards"] = 10
    raw["black-holes.json"]["cards"][3]["threshold"] = 40


# (label, change, text the message must contain). Each case is one way a hand-edited file goes wrong.
BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("junk file missing", _drop("junk.json", "cards"), "junk.json: field 'cards': missing"),
    ("junk not a list", _set("junk.json", "cards", {}), "junk.json: field 'cards': must be a list"),
    ("junk top level", lambda raw: raw.update({"junk.json": []}), "junk.json: must be an object"),
    ("junk unknown top field", _set("junk.json", "deck", 1), "junk.json: unknown field(s) 'deck'"),
    ("card not an object", _set("junk.json", "cards.3", "SHIP-07"), "junk.json: card #3: must be an object"),
    ("card without id", _drop("junk.json", "cards.0.id"), "junk.json: card #0: field 'id': missing"),
    ("id not a string", _set("junk.json", "cards.0.id", 7), "card #0: field 'id': must be a non-empty string"),
    ("duplicate id", _duplicate_card, "junk.json: card 'SHIP-N5': field 'id': duplicate id"),
    ("unknown kind", _set("junk.json", "cards.0.type", "asteroid"),
     "card 'SHIP-N5': field 'type': unknown value 'asteroid'"),
    ("missing type", _drop("junk.json", "cards.0.type"), "card 'SHIP-N5': field 'type': missing"),
    ("missing name", _drop("junk.json", "cards.0.name"), "card 'SHIP-N5': field 'name': missing"),
    ("empty name", _set("junk.json", "cards.0.name", ""), "card 'SHIP-N5': field 'name': must be a non-empty"),
    ("unknown card field", _set("junk.json", "cards.0.colour", "blue"), "card 'SHIP-N5': unknown field(s) 'colour'"),
    ("missing stats", _drop("junk.json", "cards.0.stats"), "card 'SHIP-N5': field 'stats': missing"),
    ("empty stats", _set("junk.json", "cards.0.stats", []), "field 'stats': needs at least the printed"),
    ("stats as text", _set("junk.json", "cards.0.stats", "5/4"), "field 'stats': must be a list"),
    ("stats pair short", _set("junk.json", "cards.0.stats", [[5]]), "field 'stats': each entry must be a [value"),
    ("stats float", _set("junk.json", "cards.0.stats", [[5.0, 4]]), "each entry must be a [value, weight] pair"),
    ("stats bool", _set("junk.json", "cards.0.stats", [[True, 4]]), "each entry must be a [value, weight] pair"),
    ("ship turns", _set("junk.json", "cards.0.stats", [[-5, -4], [-4, -5]]), "a spaceship never rotates"),
    ("toy turns", _set("junk.json", "cards.10.stats", [[1, 2], [2, 1]]), "card 'TOY-1-2': field 'stats': a toy"),
    ("robot not swapped", _set("junk.json", "cards.42.stats", [[4, 2], [4, 2]]), "o1 = o0 swapped"),
    ("robot upright only", _set("junk.json", "cards.42.stats", [[4, 2]]), "a robot needs exactly [o0, o1]"),
    ("robot third edge", _set("junk.json", "cards.42.stats", [[4, 2], [2, 4], [1, 1]]), "a robot needs exactly"),
    ("tm wrong pairs", _set("junk.json", "cards.20.stats", [[2, 5], [4, 4], [5, 3]]),
     "card 'TM-CC-1': field 'stats': a time-machine part needs the four pairs"),
    ("tm unknown part", _set("junk.json", "cards.20.part", "flux_capacitor"), "field 'part': unknown value"),
    ("tm missing part", _drop("junk.json", "cards.20.part"), "card 'TM-CC-1': field 'part': missing"),
    ("tm part count", _shift_part, "wrong count: 2 command_chair part(s)"),
    ("relic turns", _heavy("REL-EGG", [[1, 1], [1, 1]]), "card 'REL-EGG': field 'stats': a relic never rotates"),
    ("relic wrong step", _set("junk.json", "cards.60.step", "C"), "card 'REL-EGG': field 'step': unknown value 'C'"),
    ("relic unknown effect", _set("junk.json", "cards.60.effect", "wish"), "field 'effect': unknown value 'wish'"),
    ("artifact timing", _set("junk.json", "cards.53.timing", "ongoing"),
     "card 'ART-TIIT': field 'timing': unknown value 'ongoing'"),
    ("rotating artifact short", _heavy("ART-LOOT", [[2, 2]]), "lootbox needs 4 orientation pair(s), got 1"),
    ("plain artifact turns", _heavy("ART-GYRO", [[4, 2], [2, 4]]), "gyro needs 1 orientation pair(s), got 2"),
    ("artifact duplicate effect", _two_lasers, "wrong count: 2 card(s) with effect 'laser'"),
    ("relic too heavy", _heavy("REL-XXL", [[1, 6]]), "printed weight 6 is above 5"),
    ("artifact too heavy", _heavy("ART-CUBUS", [[3, 7], [3, 2], [3, 0], [3, -2]]), "(BHB-DATA-06)"),
    ("spaceship tie", _same_ship_value, "spaceship values must be distinct"),
    ("too many cards", _extra_card, "wrong count: 11 spaceship card(s), the box has 10"),
    ("too few cards", _remove_card, "wrong count: 6 relic card(s), the box has 7"),
    ("record malformed", _set("junk.json", "cards.0.assumed", ["amb-10"]), "field 'assumed': must be a non-empty list"),
    ("record empty", _set("junk.json", "cards.0.assumed", []), "field 'assumed'"),
    ("record text", _set("junk.json", "cards.0.assumed", "AMB-10"), "field 'assumed'"),
    ("holes missing", _drop("black-holes.json", "cards"), "black-holes.json: field 'cards': missing"),
    ("hole category", _set("black-holes.json", "cards.0.category", "scary"), "field 'category': unknown value"),
    ("hole category count", _hole_category, "wrong count: 3 menacing black hole(s), the box has 4"),
    ("hole duplicate", _duplicate_hole, "card 'BH-M1': field 'id': duplicate id"),
    ("hole cards text", _set("black-holes.json", "cards.0.cards", "5"), "card 'BH-M1': field 'cards': must be an int"),
    ("hole cards one", _set("black-holes.json", "cards.0.cards", 1), "field 'cards': must be at least 2"),
    ("hole threshold low", _set("black-holes.json", "cards.0.threshold", 5), "field 'threshold': must be above"),
    ("hole threshold missing", _drop("black-holes.json", "cards.0.threshold"), "field 'threshold': missing"),
    ("hole without record", _set("black-holes.json", "cards.0.assumed", None), "card 'BH-M1': field 'assumed'"),
    ("deck too small", _deep_hole, "a 10-card black hole with 6 players needs 70 cards but the deck has 67"),
    ("stack missing", _drop("black-holes.json", "first_game_stack"), "first_game_stack: must be an object"),
    ("stack without record", _drop("black-holes.json", "first_game_stack.assumed"),
     "first_game_stack: field 'assumed': missing"),
    ("stack unknown id", _set("black-holes.json", "first_game_stack.value", ["BH-M2", "BH-R2", "BH-X9"]),
     "must list 3 distinct black-hole ids"),
    ("stack repeated", _set("black-holes.json", "first_game_stack.value", ["BH-M2", "BH-M2", "BH-D4"]), "distinct"),
    ("stack wrong top", _set("black-holes.json", "first_game_stack.value", ["BH-M1", "BH-R2", "BH-D4"]),
     "the top must be a menacing black hole dealing 6 cards"),
    ("stack wrong bottom", _set("black-holes.json", "first_game_stack.value", ["BH-M2", "BH-R2", "BH-M4"]),
     "the bottom a dangerous one"),
    ("weight card amount", _set("components.json", "weight_cards.0.amount", -5),
     "field 'weight_cards': the box has exactly the amounts [-10, -6]"),
    ("weight card text", _set("components.json", "weight_cards.0.amount", "-6"),
     "weight_cards 'W-6': field 'amount': must be an integer"),
    ("value card missing", _set("components.json", "value_cards", []), "field 'value_cards': the box has exactly"),
    ("threshold duplicate id", _set("components.json", "threshold_cards.1.id", "TH-4"),
     "field 'threshold_cards': duplicate id"),
    ("threshold extra", _set("components.json", "threshold_cards.4.amount", 5), "the amounts [-4, -2, 2, 3, 4]"),
    ("threshold source", _set("components.json", "threshold_cards.3.placed_by", "laser"),
     "threshold_cards 'TH+3': field 'placed_by': unknown value 'laser'"),
    ("direction sides", _set("components.json", "direction_card.sides", ["CW", "CW"]), "direction_card: field 'sides'"),
    ("scoring missing count", _drop("components.json", "scoring_cards.value.6"),
     "scoring_cards: field 'value': needs exactly the player counts [3, 4, 5, 6]"),
    ("scoring two players", _set("components.json", "scoring_cards.value.2", [15, 10]), "needs exactly the player"),
    ("scoring wrong length", _set("components.json", "scoring_cards.value.4", [15, 10, 6]),
     "4 players need 4 strictly falling points"),
    ("scoring not falling", _set("components.json", "scoring_cards.value.3", [15, 10, 10]), "(BHB-DATA-04)"),
    ("scoring negative", _set("components.json", "scoring_cards.value.3", [15, 10, -1]), "(BHB-DATA-04)"),
    ("scoring without record", _drop("components.json", "scoring_cards.assumed"), "scoring_cards: field 'assumed'"),
    ("overview count", _set("components.json", "overview_cards", 5), "field 'overview_cards': the box has 6"),
]


@pytest.mark.parametrize(("label", "change", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_BHB_DATA_broken_data_raises_a_clear_data_error(label: str, change: Callable[[dict[str, Any]], None],
                                                        message: str) -> None:
    raw = copy.deepcopy(_shipped())
    change(raw)
    with pytest.raises(DataError) as err:
        parse(raw, where="test data")
    assert str(err.value).startswith("test data: "), str(err.value)
    assert message in str(err.value), str(err.value)


def test_index_based_cases_hit_the_intended_cards() -> None:
    cards = _shipped()["junk.json"]["cards"]
    assert [cards[i]["id"] for i in (10, 20, 42, 53, 60)] == ["TOY-1-2", "TM-CC-1", "ROBOT-4-2-a", "ART-TIIT",
                                                              "REL-EGG"]


def test_a_missing_file_is_named() -> None:
    raw = _shipped()
    del raw["components.json"]
    with pytest.raises(DataError, match=r"^x: components\.json: missing file$"):
        parse(raw, where="x")


@pytest.mark.parametrize("bad", [None, [], "junk.json"])
def test_the_files_must_come_as_a_mapping(bad: Any) -> None:
    with pytest.raises(DataError, match="mapping of file name"):
        parse(bad)


def _write(folder: Path, raw: dict[str, Any]) -> None:
    for name, content in raw.items():
        (folder / name).write_text(json.dumps(content), encoding="utf-8")


def test_load_reads_a_folder_and_names_bad_json(tmp_path: Path) -> None:
    _write(tmp_path, _shipped())
    assert load(tmp_path) == DATA
    (tmp_path / "black-holes.json").write_text('{"cards": [', encoding="utf-8")
    with pytest.raises(DataError, match=r"black-holes\.json: not valid JSON"):
        load(tmp_path)
    (tmp_path / "black-holes.json").unlink()
    with pytest.raises(DataError, match=r"black-holes\.json: cannot read"):
        load(tmp_path)


def test_the_amb_07_alternative_robot_set_is_accepted() -> None:
    """assumed:AMB-07 — the alternative 3x 4/2, 3x 6/3, 2x 5/2, 2x 7/3 is a data edit."""
    raw = _shipped()
    for card in raw["junk.json"]["cards"]:
        if card["id"] == "ROBOT-4-2-d":
            card["stats"] = [[5, 2], [2, 5]]
        if card["id"] == "ROBOT-6-3-d":
            card["stats"] = [[7, 3], [3, 7]]
    robots = Counter(c.printed for c in parse(raw).of_kind(JunkType.ROBOT))
    assert robots == {Stats(4, 2): 3, Stats(6, 3): 3, Stats(5, 2): 2, Stats(7, 3): 2}


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@given(file=st.sampled_from(DATA_FILES), index=st.integers(0, 66), key=st.text(max_size=8), value=_JSON)
def test_any_corrupted_entry_is_accepted_or_a_data_error(file: str, index: int, key: str, value: Any) -> None:
    """Whatever a hand edit puts into an entry, parsing never fails with anything but DataError."""
    raw = copy.deepcopy(_shipped())
    target: Any = raw[file]
    entries = target.get("cards") or target.get("threshold_cards")
    entry = entries[index % len(entries)]
    entry[key if key else "stats"] = value
    try:
        parse(raw)
    except DataError as exc:
        assert str(exc).startswith("buccaneers data: "), str(exc)


def test_the_docs_table_lists_every_assumed_value() -> None:
    """Every card or black hole with an assumed number appears in docs/games/buccaneers.md with its records."""
    doc = (Path(__file__).resolve().parents[3] / "docs" / "games" / "buccaneers.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(" `"): line for line in doc.splitlines() if line.startswith("| `")}
    for card in DATA.junk:
        if set(card.assumed) - {"AMB-10"}:
            assert all(r in rows[card.id] for r in set(card.assumed) - {"AMB-10"}), card.id
    for hole in DATA.black_holes:
        assert all(r in rows[hole.id] for r in hole.assumed), hole.id
        assert f"deals {hole.cards}" in rows[hole.id] and f"threshold {hole.threshold}" in rows[hole.id]
    assert "AMB-03" in rows["first_game_stack"]
