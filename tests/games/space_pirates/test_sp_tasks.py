"""Space Pirates' pending work as typed tasks on the engine's TaskStack (the house plan's one mechanism).

Tasks are values (frozen), so a clone shares them and only copies the list; the full state shows the
stack bottom first, each task as its fields then its kind, as the scenario files read it.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

import holotable
from holotable.games.space_pirates import decisions
from holotable.games.space_pirates.decisions import DECISION_KINDS, ChooseCard, Ruler, StartBase
from holotable.games.space_pirates.encoding import KINDS
from holotable.games.space_pirates.flow import SetupDraw
from holotable.games.space_pirates.tasks import SPDecision

GAME = holotable.load("space-pirates")


def test_every_decision_kind_is_listed_once_for_the_encoder() -> None:
    kinds = [v.kind for v in vars(decisions).values()
             if isinstance(v, type) and issubclass(v, SPDecision) and "kind" in vars(v)]
    assert len(kinds) == len(set(kinds)) == len(DECISION_KINDS)
    assert set(kinds) == DECISION_KINDS == set(KINDS)


def test_the_set_up_stack_and_its_plain_form() -> None:
    st = GAME.new_state(players=3, seed=2, first_seat=1)
    assert list(st.data.stack) == [StartBase(1), StartBase(2), StartBase(0), SetupDraw()]  # top first
    plain = st.full()["data"]["stack"]
    assert plain == [{"kind": "setup_draw"}, {"seat": 0, "kind": "start_base"},
                     {"seat": 2, "kind": "start_base"}, {"seat": 1, "kind": "start_base"}]
    assert list(plain[-1]) == ["seat", "kind"]  # fields first, then the kind
    assert GAME.decision(st) == StartBase(1) and st.to_move() == (1,)


def test_tasks_are_values_and_a_clone_shares_no_pending_work() -> None:
    st = GAME.new_state(players=2, seed=5, first_seat=0)
    top = GAME.decision(st)
    assert isinstance(top, StartBase)
    with pytest.raises(dataclasses.FrozenInstanceError):
        top.seat = 1  # type: ignore[misc]
    before = json.dumps(st.full())
    other = st.clone()
    for _ in range(6):  # both start bases and the first placements, on the clone only
        other.apply(other.legal_actions()[0])
    assert json.dumps(st.full()) == before and GAME.decision(st) is top


def test_optional_fields_show_only_when_set() -> None:
    assert dict(ChooseCard(0, docked=True).items()) == {"seat": 0, "docked": True, "kind": "choose_card"}
    assert dict(ChooseCard(0, docked=True, more=True).items())["more"] is True
    move = Ruler(1, 2, 0, (3.0, 4.0), 90.0, False, (), (5,), 0.0, False)
    plain = move.plain()
    assert plain["anchor"] == [3.0, 4.0] and plain["hits"] == [5] and plain["kind"] == "ruler"
