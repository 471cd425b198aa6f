"""Captain Black's data values changed per configuration (issue 9): the component counts of the data
file. Its ASSUMED values (CB-AMB-nn) are game parameters, set by name with the same ``--set``."""

from __future__ import annotations

from typing import Any

import pytest

import holotable
from holotable.engine import ConfigError, DataOverrideError, Match, State, split_settings
from holotable.games.captain_black.data import DATA_FILE, data_for, load_default
from holotable.games.captain_black.state import EMPTY, FILLED

GAME = holotable.load("captain-black")


def test_coin_counts_fill_the_bag_and_size_the_action_space() -> None:
    """CB-SETUP-04 with 60 gold and 10 black coins: the bag, the draws offered and the index space."""
    config = GAME.spec.make_config(2, data={"components.gold_coins": 60, "components.black_coins": 10},
                                   island_fields=10)
    st = State.new(GAME, config, 4)
    assert (st.data.bag_gold, st.data.bag_black) == (60, 10)
    assert GAME.num_actions(config) == 70
    assert len(st.legal_actions(st.to_move()[0])) == 70
    st.apply(69, st.to_move()[0])  # index 69 = draw 70, beyond the shipped 50 coins
    assert st.data.last_draw is not None and st.data.last_draw.k == 70
    assert (st.data.last_draw.gold, st.data.last_draw.black) == (60, 10)
    default = State.new(GAME, GAME.spec.make_config(2), 4)
    assert (default.data.bag_gold, default.data.bag_black, GAME.num_actions(default.config)) == (42, 8, 50)


def test_a_new_round_refills_the_bag_with_the_overridden_counts() -> None:
    """CB-NEXT-02: every coin goes back into the bag — 20 gold here."""
    config = GAME.spec.make_config(2, data={"components.gold_coins": 20})
    match = Match(GAME, config, 1)
    while match.state.data.round == 1:
        match.play("draw 1")
    assert (match.state.data.bag_gold, match.state.data.bag_black) == (20, 8)
    again = Match.from_json(match.to_json())
    assert again.state.fingerprint() == match.state.fingerprint()


def test_chest_counts_build_the_chest_deck() -> None:
    """CB-SETUP-02 with 10 filled and 10 empty chest cards."""
    config = GAME.spec.make_config(3, data={"components.chest_filled": 10, "components.chest_empty": 10})
    deck = State.new(GAME, config, 2).data.chest_deck
    assert deck.count(FILLED) == 10 and deck.count(EMPTY) == 10


def test_assumed_values_are_parameters_and_set_the_same_way() -> None:
    params, data = split_settings(GAME, {"min_draw": "2", "components.gold_coins": "30"})
    config = GAME.spec.make_config(2, **params, data=data)
    assert config["min_draw"] == 2 and config.data == (("components.gold_coins", 30),)
    assert not [k for k in GAME.spec.data_keys() if k.startswith("assumed.")]


@pytest.mark.parametrize(("data", "error", "message"), [
    ({"components.gold_coins": 0}, ConfigError, "takes a number from 1 to 200"),  # its declared range
    ({"components.gold_coins": 195}, DataOverrideError, "must be at most 200"),
    # The file's island_fields (8) must fit the black coins (CB-AMB-03).
    ({"components.black_coins": 7}, DataOverrideError, "island_fields must be 1..7"),
    ({"components.gold_coins": "many"}, ConfigError, "expects int"),
    ({"components.parrot_cards": 12}, ConfigError, "no data value 'components.parrot_cards'"),
])
def test_bad_overrides_are_refused_with_the_reason(data: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error) as err:
        GAME.spec.make_config(2, data=data)
    assert message in str(err.value)
    if error is DataOverrideError:
        assert DATA_FILE in str(err.value)


def test_default_configs_use_the_shipped_data() -> None:
    assert data_for(GAME.spec.make_config(2)) is load_default()
