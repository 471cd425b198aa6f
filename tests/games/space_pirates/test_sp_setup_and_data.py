"""Space Pirates content files and set-up (spec §3.1-3.2, §7; T-SP-01..05, T-SP-40, T-SP-45)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import holotable
from holotable.engine import DataError as EngineDataError
from holotable.games.space_pirates import geometry as geo
from holotable.games.space_pirates.data import DATA_DIR, DataError, load_content, load_default
from holotable.games.space_pirates.generator import layout_is_legal, random_preset

GAME = holotable.load("space-pirates")
CONTENT = load_default()


def test_SP_COMP_04_10_component_counts() -> None:
    """SP-COMP-04, SP-COMP-07, SP-COMP-08, SP-COMP-09, SP-COMP-10, SP-ENERGY-01 (T-SP-40): the data files.

    assumed:SP-AMB-51 assumed:SP-AMB-52 assumed:SP-AMB-53
    """
    tokens = Counter(CONTENT.tokens)
    assert len(CONTENT.tokens) == 34
    assert tokens == {"ORE": 6, "SPICE": 6, "TECH": 6, "MEDS": 6, "RELICS": 6, "ASTEROID": 2, "POLICE": 2}
    values = Counter(c.value for c in CONTENT.energy)
    assert [values[v] for v in range(1, 6)] == [9, 8, 7, 6, 6]
    assert sum(c.value for c in CONTENT.energy) == 100
    syms = Counter(s for c in CONTENT.energy for s in c.symbols)
    assert syms == {"FLICK": 18, "NEW_RIGHT": 16, "NEW_LEFT": 16, "ASTEROID": 12, "STORM": 11, "WIND": 11}
    assert all(len(c.symbols) == (2 if c.value <= 3 else 3) for c in CONTENT.energy)
    assert len(CONTENT.markets) == 10 and all(sum(m.prices.values()) == 20 for m in CONTENT.markets)
    for t in ("ORE", "SPICE", "TECH", "MEDS", "RELICS"):
        assert Counter(m.prices[t] for m in CONTENT.markets) == {2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
    assert len(CONTENT.elements) == 13
    for p in CONTENT.presets.values():
        assert len(p.bases) == 5


def test_bad_data_file_names_file_item_and_field(tmp_path: Path) -> None:
    """A broken energy card is reported with file, card and field (SP-ENERGY-01)."""
    for f in DATA_DIR.rglob("*.json"):
        target = tmp_path / f.relative_to(DATA_DIR)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f.read_text())
    path = tmp_path / "energy_cards.json"
    path.write_text(path.read_text().replace('"value": 5', '"value": 7', 1))
    with pytest.raises(DataError) as err:
        load_content(tmp_path)
    assert err.value.file == "energy_cards.json" and err.value.field == "value"
    assert isinstance(err.value, EngineDataError)  # caught with every game's data errors


def test_T_SP_01_standard_setup_money_and_hands() -> None:
    """SP-SETUP-05, SP-SETUP-06, SP-SETUP-07, SP-ENERGY-02, SP-MONEY-01, SP-COMP-06 (T-SP-01, T-SP-45)."""
    st = GAME.new_state(players=3, seed=4, first_seat=0)
    d = st.data
    assert d.mc == [10, 10, 10] and d.bank == 165 and d.bank + sum(d.mc) == 195
    for hand in d.hands:
        assert sorted(CONTENT.card(c).value for c in hand) == [1, 2, 3, 4, 5]
        assert sum(CONTENT.card(c).value for c in hand) == 15
    assert {v: len(d.draw[v]) for v in range(1, 6)} == {1: 6, 2: 5, 3: 4, 4: 3, 5: 3}
    assert all(not d.discard[v] for v in range(1, 6))


@pytest.mark.parametrize(("players", "inhabited", "out"), [(2, 3, 7), (3, 4, 6), (4, 5, 5)])
def test_T_SP_02_inhabited_bases_and_market_cards(players: int, inhabited: int, out: int) -> None:
    """SP-SETUP-03, SP-SETUP-04, SP-BASE-09 (T-SP-02): players + 1 bases inhabited, one market card each."""
    d = GAME.new_state(players=players, seed=2).data
    lay = d.layout
    assert sum(b.inhabited for b in lay.bases) == inhabited
    assert sum(m is not None for m in d.market) == inhabited and len(d.market_out) == out
    assert all((d.market[b.index] is None) == (not b.inhabited) for b in lay.bases)
    abandoned = [e.id for e in lay.elements if e.kind == "abandoned_base"]
    assert len(abandoned) == 5 - inhabited


def test_SP_SETUP_01_field_sizes_and_presets_are_legal() -> None:
    """SP-SETUP-01, SP-SETUP-02, SP-COMP-01: 60x60 for two, 80x70 for three or four; pieces do not overlap.

    assumed:SP-AMB-01 assumed:SP-AMB-50
    """
    assert (GAME.new_state(players=2).data.layout.W, GAME.new_state(players=2).data.layout.H) == (60.0, 60.0)
    lay4 = GAME.new_state(players=4).data.layout
    assert (lay4.W, lay4.H) == (80.0, 70.0)
    for pid in ("crossroads-60x60", "spiral-80x70", "rim-80x70"):
        assert layout_is_legal(CONTENT.presets[pid], CONTENT, 3) == []
    with pytest.raises(holotable.engine.ConfigError):
        GAME.new_state(players=5)


def test_SP_SETUP_02_random_layout_generator_is_legal_and_reproducible() -> None:
    """SP-SETUP-02: generated layouts keep every piece inside, apart, and leave room to place tokens."""
    a = random_preset(CONTENT, 3, 11)
    assert a == random_preset(CONTENT, 3, 11)
    assert layout_is_legal(a, CONTENT, 3) == []
    st = GAME.new_state(players=3, seed=0, layout_seed=11)
    assert st.data.layout.W == 80.0 and len(st.data.layout.elements) == 13 + 1


def test_T_SP_03_and_T_SP_05_setup_tokens_placed_then_flicked_by_left_neighbour() -> None:
    """SP-SETUP-08, SP-SETUP-09, SP-SETUP-10, SP-SETUP-11, SP-SETUP-12, SP-SETUP-13, SP-SETUP-14, SP-FLICK-02,
    SP-COMP-03 (T-SP-03, T-SP-05). assumed:SP-AMB-40 assumed:SP-AMB-41"""
    for players, drawn in ((2, 3), (3, 3), (4, 2)):
        st = GAME.new_state(players=players, seed=3, first_seat=0, dexterity="precise")
        for s in range(players):
            assert st.to_move() == (s,)
            st.apply(st.legal_actions(s)[0], s)
            base = st.data.ships[s].base
            assert base is not None and base in st.data.seen_markets[s]
        d = st.data
        assert sum(w == "transit" for w in d.where) == drawn
        assert sum(w == "bag" for w in d.where) == 34 - drawn
        assert d.storm is None
        for _ in range(drawn):
            assert st.to_move() == (0,)
            tid = GAME.decision(st).tid
            assert d.known[tid] == 1  # only the placer knows it
            st.apply(st.legal_actions(0)[0], 0)
        for _ in range(drawn):
            assert GAME.decision(st).kind == "flick" and st.to_move() == (1,)
            while GAME.decision(st).kind != "flick" or st.to_move() != (1,):
                st.apply(st.legal_actions(st.to_move()[0])[-1], st.to_move()[0])
            st.apply("flick 90.0 0.1", 1)
            while GAME.decision(st).kind in ("damage_pay", "blind_pick"):
                st.apply(st.legal_actions(st.to_move()[0])[0], st.to_move()[0])
        assert d.active == 0 and GAME.decision(st).seat == 0 and d.turn == 1


def test_T_SP_04_placement_clearance_one_ruler() -> None:
    """SP-GEO-07, SP-SETUP-11 (T-SP-04): 4.9 cm clearance is illegal, 5.0 legal. assumed:SP-AMB-18"""
    lay = geo.build_layout((60.0, 60.0, (), (("E09", 30.0, 30.0, 0.0),), 0))
    assert not geo.setup_placement_legal(lay, (38.65, 30.0), (), ())
    assert geo.setup_placement_legal(lay, (38.75, 30.0), (), ())
    assert geo.placement_clearance(lay, (38.65, 30.0), ()) == pytest.approx(4.9)


def test_SP_SETUP_08_first_seat_random_is_seeded() -> None:
    """SP-SETUP-08: without a configured first seat the first player comes from the seed."""
    seats = {GAME.new_state(players=4, seed=s).data.first_seat for s in range(30)}
    assert seats == {0, 1, 2, 3}
    assert GAME.new_state(players=4, seed=7).data.first_seat == GAME.new_state(players=4, seed=7).data.first_seat
