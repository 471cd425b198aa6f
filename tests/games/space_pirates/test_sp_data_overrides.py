"""Space Pirates' content numbers as data overrides (issue 9): market prices (assumed:SP-AMB-52),
energy card values (assumed:SP-AMB-51), the asteroid/police counts, and the physical and economic
constants (assumed:SP-AMB-01, assumed:SP-AMB-55) reach the game through ``--set``/``data=``
without editing the files; the default game keeps the shared, once-loaded content."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
from typer.testing import CliRunner

import holotable
from holotable.cli import app
from holotable.engine import Config, ConfigError, DataOverrideError, Match, Rng, State
from holotable.games.space_pirates import bots
from holotable.games.space_pirates import geometry as geo
from holotable.games.space_pirates.data import CATALOG, content_for, load_default
from holotable.games.space_pirates.encoding import INDEX, make_encoder

GAME = holotable.load("space-pirates")
B1 = ["B1", 30, 6.5, 90]
B2 = ["B2", 53.5, 30, 180]
FAR = {"center": [55, 55], "heading": 0}
#: Two cards with the same symbols and swapped values keep the deck's 9/8/7/6/6 (SP-ENERGY-01).
SWAP = {"energy_cards.E1-5.value": 2, "energy_cards.E2-3.value": 1}


def make(arr: dict[str, Any], data: dict[str, Any] | None = None, players: int = 2) -> State[Any, Any]:
    st = GAME.new_state(players=players, seed=1, first_seat=0, dexterity="precise", data=data or {}, record=True)
    st.arrange({"layout": {"field": [60, 60], "bases": [B1, B2], "elements": [], "inhabited": 2}, **arr})
    return st


def kind(st: State[Any, Any]) -> str:
    return str(GAME.decision(st).kind)


def _sell_ore_at_m01(data: dict[str, Any]) -> tuple[list[int], list[int], int]:
    st = make({"ships": [{"base": 0}, FAR], "holds": [["ORE"], []], "market": {"0": "M01"}, "start": {"base": 0}},
              data)
    while kind(st) != "base_sell":
        st.apply("skip")
    before = list(st.data.mc)
    st.apply(f"sell {st.data.holds[0][0]}")
    return before, list(st.data.mc), st.data.bank


def test_SP_BASE_04_a_market_price_override_changes_what_a_sale_earns() -> None:
    """SP-BASE-04 assumed:SP-AMB-52 — ORE sells for 9 MC at M01 instead of the shipped 2."""
    shipped = next(m for m in load_default().markets if m.id == "M01").prices["ORE"]
    before, after, bank = _sell_ore_at_m01({})
    assert after[0] - before[0] == shipped
    before, after, changed_bank = _sell_ore_at_m01({"market_cards.M01.prices.ORE": 9})
    assert after[0] - before[0] == 9 and after[1] == before[1]
    assert bank - changed_bank == 9 - shipped  # the bank pays it (SP-MONEY-04)


def test_the_view_shows_the_configurations_prices() -> None:
    """SP-INFO-02 assumed:SP-AMB-52 — a face-up market card shows the overridden price to every seat."""
    st = make({"ships": [{"base": 0}, FAR], "holds": [["ORE"], []], "market": {"0": "M01"}, "start": {"base": 0}},
              {"market_cards.M01.prices.ORE": 9})
    while kind(st) != "base_sell":
        st.apply("skip")
    st.apply(f"sell {st.data.holds[0][0]}")  # the sale turns the card face up (SP-BASE-05)
    assert st.view(1)["bases"][0]["prices"]["ORE"] == 9
    assert st.view(None)["bases"][0]["prices"]["ORE"] == 9


def _rulers_for_card(data: dict[str, Any]) -> tuple[int, list[str]]:
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR], "hands": [["E1-5"], ["E2-3"]]}, data)
    while kind(st) != "ruler":  # the card, then its two placement adventures
        seat = GAME.decision(st).seat
        st.apply(st.legal_actions(seat)[0], seat)
    played = [e.text for e in st.log_for(None) if e.kind == "card_played"]
    return int(GAME.decision(st).left), played


def test_SP_MOVE_01_an_energy_cards_value_sets_the_moves_ruler_count() -> None:
    """SP-MOVE-01, SP-TURN-06 assumed:SP-AMB-51 — E1-5 worth 2 (and E2-3 worth 1) gives its move 2 rulers."""
    assert _rulers_for_card({}) == (1, ["Seat 1 plays a 1 energy card (new transport (right), new transport (left))"])
    assert _rulers_for_card(SWAP) == (2, ["Seat 1 plays a 2 energy card (new transport (right), new transport (left))"])


def test_SP_SETUP_05_swapped_card_values_deal_into_their_new_value_stacks() -> None:
    """SP-SETUP-05, SP-SETUP-07, SP-COMP-07 assumed:SP-AMB-51 — stacks, hands and determinisation sort
    cards by the configuration's values."""
    st = GAME.new_state(players=3, seed=4, data=SWAP)
    d = st.data
    content = content_for(st.config)
    for hand in d.hands:
        assert sorted(content.card(c).value for c in hand) == [1, 2, 3, 4, 5]
    placed = {v: [*d.draw[v], *(c for h in d.hands for c in h if content.card(c).value == v)] for v in range(1, 6)}
    assert "E1-5" in placed[2] and "E2-3" in placed[1]
    for _ in range(5):
        sample = st.determinize(1, Rng(7))
        assert all(content.card(c).value == v for v, stack in sample.data.draw.items() for c in stack)


def test_SP_COMP_04_asteroid_and_police_counts_change_the_setup() -> None:
    """SP-COMP-04 — three asteroids and one police token instead of two of each (34 tokens in all)."""
    default = Counter(GAME.new_state(players=2, seed=3).data.ident)
    changed = Counter(GAME.new_state(players=2, seed=3, data={"cargo.ASTEROID.tokens": 3,
                                                             "cargo.POLICE.tokens": 1}).data.ident)
    assert (default["ASTEROID"], default["POLICE"]) == (2, 2)
    assert (changed["ASTEROID"], changed["POLICE"]) == (3, 1)
    assert sum(changed.values()) == 34 and all(changed[c] == 6 for c in ("ORE", "SPICE", "TECH", "MEDS", "RELICS"))


def test_SP_SETUP_06_start_money_and_bank_follow_the_constants() -> None:
    """SP-SETUP-06, SP-MONEY-01 assumed:SP-AMB-29 — 12 MC each from a 200 MC bank."""
    st = GAME.new_state(players=3, seed=2, data={"constants.start_mc": 12, "constants.bank_total": 200})
    assert st.data.mc == [12, 12, 12] and st.data.bank == 200 - 36


def test_SP_GEO_04_the_ruler_length_reaches_geometry_and_leaves_the_default_board_alone() -> None:
    """SP-GEO-04, SP-MOVE-03 assumed:SP-AMB-01 — a 6 cm ruler moves the ship 6 cm; boards of the two
    configurations are built and cached separately."""
    def one_ruler(data: dict[str, Any]) -> tuple[float, float]:
        st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR], "start": {"move": 1}}, data)
        st.apply("ruler 0.0")
        center = st.data.ships[0].center
        assert center is not None
        return center

    assert one_ruler({"constants.ruler_length": 6.0}) == (26.0, 30.0)
    assert one_ruler({}) == (25.0, 30.0)
    longer = GAME.new_state(players=2, seed=1, data={"constants.ruler_length": 6.0})
    default = GAME.new_state(players=2, seed=1)
    assert longer.data.layout.c.ruler_length == 6.0 and default.data.layout.c.ruler_length == 5.0
    assert default.data.layout is geo.build_layout(default.data.layout_key[:5])  # a key without overrides


def test_random_layouts_are_built_with_the_configurations_base_size() -> None:
    """SP-SETUP-02 assumed:SP-AMB-01 — a generated board uses the configuration's base width."""
    st = GAME.new_state(players=3, seed=1, layout_seed=4, data={"constants.base.width": 10.0})
    widths = {round(b.polygon.length - 2 * 6.0, 6) for b in st.data.layout.bases}  # perimeter = 2w + 2d
    assert widths == {2 * 10.0}
    default = GAME.new_state(players=3, seed=1, layout_seed=4)
    assert {round(b.polygon.length - 2 * 6.0, 6) for b in default.data.layout.bases} == {2 * 8.0}


def test_default_configs_share_the_shipped_content() -> None:
    config = GAME.spec.make_config(3)
    assert config.data == () and "data" not in config.params
    assert content_for(config) is load_default() is GAME.content
    st = GAME.new_state(players=3, seed=5)
    assert st.data.layout.c is load_default().constants
    assert GAME.spec.data is CATALOG
    keys, shipped = CATALOG.keys(), load_default()
    assert keys["constants.start_mc"].value == shipped.constants.start_mc == 10
    assert keys["constants.physics.mu_table"].value == shipped.constants.physics["mu_table"]
    m04 = next(m for m in shipped.markets if m.id == "M04")
    assert keys["market_cards.M04.prices.SPICE"].value == m04.prices["SPICE"]
    assert keys["energy_cards.E5-1.value"].value == shipped.card("E5-1").value == 5


def test_overrides_travel_with_saves_and_replays() -> None:
    """A match made with overrides saves them and replays exactly (SP-AMB-52, SP-AMB-01)."""
    data = {"market_cards.M03.prices.TECH": 11, "constants.ruler_length": 5.5, **SWAP}
    config = GAME.spec.make_config(2, first_seat=0, data=data)
    match = Match(GAME, config, 9)
    rng = Rng(9)
    for _ in range(40):
        st = match.state
        if st.is_terminal():
            break
        seat = st.to_move()[0]
        match.play(rng.choice(list(st.legal_actions(seat))), seat)
    saved = json.loads(match.to_json())
    assert saved["config"]["params"]["data"] == {key: data[key] for key in sorted(data)}
    again = Match.from_json(json.dumps(saved))
    assert again.config == config and again.config.data == tuple(sorted(data.items()))
    assert again.state.fingerprint() == match.state.fingerprint()
    assert again.state.data.layout.c.ruler_length == 5.5
    rebuilt = GAME.spec.make_config(2, **config.params)
    assert rebuilt == config


@pytest.mark.parametrize(("data", "message"), [
    ({"energy_cards.E1-1.value": 2}, "36 cards 9/8/7/6/6"),
    ({"energy_cards.E1-1.value": 6}, "must be 1..5"),
    ({"cargo.ASTEROID.tokens": 3}, "34 tokens"),
])
def test_overrides_that_break_the_content_rules_are_refused_like_a_bad_file(data: dict[str, Any],
                                                                               message: str) -> None:
    with pytest.raises(DataOverrideError, match=re.escape(message)):
        GAME.spec.make_config(2, data=data)


@pytest.mark.parametrize(("data", "message"), [
    ({"market_cards.M01.prices.ORE": -1}, "takes a number from 0 to 100"),
    ({"constants.ruler_length": 0.0}, "takes a number from 1 to 20"),
    ({"constants.physics.iterations": 10**6}, "takes a number from 1 to 50"),
])
def test_overrides_outside_their_declared_range_are_refused_before_the_loader(data: dict[str, Any],
                                                                               message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        GAME.spec.make_config(2, data=data)


def test_unknown_or_mistyped_values_are_refused_with_the_reason() -> None:
    with pytest.raises(ConfigError, match=re.escape("closest: market_cards.M01.prices.ORE")):
        GAME.spec.make_config(2, data={"market_cards.M01.prices.OER": 3})
    with pytest.raises(ConfigError, match="expects int"):
        GAME.spec.make_config(2, data={"constants.start_mc": "ten"})
    assert GAME.spec.make_config(2, data={"constants.start_mc": "12"}).data == (("constants.start_mc", 12),)


def test_values_that_cannot_vary_per_configuration_are_not_offered() -> None:
    """SP-COMP-04: the cargo counts are printed; the turn cap is the ``turn_cap`` parameter (SP-AMB-59);
    element outlines are shapes."""
    keys = CATALOG.keys()
    assert not [k for k in keys if k.startswith("elements")]
    assert "constants.sim_turn_cap" not in keys and "cargo.ORE.tokens" not in keys
    with pytest.raises(ConfigError, match=re.escape("no data value 'constants.sim_turn_cap'")):
        GAME.spec.make_config(2, data={"constants.sim_turn_cap": 10})
    assert GAME.spec.make_config(2, turn_cap=10)["turn_cap"] == 10


def test_the_data_command_lists_space_pirates_values_with_their_records() -> None:
    result = CliRunner().invoke(app, ["data", "space-pirates", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["key"]: row for row in json.loads(result.output)}
    price = rows["market_cards.M01.prices.ORE"]
    assert (price["source"], price["kind"], price["value"], price["assumed"]) == ("data", "int", 2, ["SP-AMB-52"])
    assert rows["energy_cards.E1-5.value"]["assumed"] == ["SP-AMB-51"]
    assert rows["constants.dexterity.standard.angle_sd"]["value"] == 3.0
    assert rows["cargo.ASTEROID.tokens"]["value"] == 2
    assert len([r for r in rows.values() if r["source"] == "data"]) == len(CATALOG.keys())


def test_the_heuristic_bot_and_the_encoder_read_the_configurations_numbers() -> None:
    """The bot counts its hand with the configuration's card values; the encoder scales by its bank."""
    st = make({"ships": [{"center": [20, 30], "heading": 0}, FAR], "hands": [["E1-5", "E4-1"], ["E2-3"]]}, SWAP)
    content = content_for(st.config)
    k = bots.read_view(st.view(0), 0, content)
    assert k.hand_points == 2 + 4
    assert bots.read_view(st.view(0), 0).hand_points == 1 + 4  # the shipped values, for comparison
    rich = GAME.new_state(players=2, seed=1, data={"constants.bank_total": 390})
    plain = GAME.new_state(players=2, seed=1)
    vec_rich = make_encoder(rich.config)(rich.view(0))
    vec_plain = make_encoder(plain.config)(plain.view(0))
    assert vec_rich[INDEX["bank"]] == pytest.approx((390 - 20) / 390)
    assert vec_plain[INDEX["bank"]] == pytest.approx((195 - 20) / 195)


def test_the_content_builder_checks_paths_at_the_data_level() -> None:
    items = CATALOG.check({"market_cards.M01.prices.ORE": 9, "constants.start_mc": "12"})
    content = content_for(Config("space-pirates", 2, (), items))
    assert next(m for m in content.markets if m.id == "M01").prices["ORE"] == 9
    assert content.constants.start_mc == 12 and content.overrides == items
    assert next(m for m in load_default().markets if m.id == "M01").prices["ORE"] == 2


@pytest.mark.slow
def test_a_generated_layout_that_cannot_fit_the_configurations_sizes_is_refused_with_the_reason() -> None:
    """SP-SETUP-02 assumed:SP-AMB-01 — 30 cm deep bases never fit a 60 cm field: a ConfigError, not a crash."""
    with pytest.raises(ConfigError, match="no legal 2-player layout found for layout_seed 2"):
        GAME.new_state(players=2, seed=1, layout_seed=2, data={"constants.base.depth": 30.0})
