"""Builders for the Black Hole Council tests: arranged states and scripted table moves.

States are arranged through the game's own ``arrange`` hook (the scenario format), so every
position a test starts from passes the same conservation checks as a scenario file.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

import holotable
from holotable.engine import IllegalActionError, State
from holotable.games.council.actions import Act
from holotable.games.council.data import load_default
from holotable.games.council.state import BHCData

GAME = holotable.load("council")
DATA = load_default()
BState = State[BHCData, Act]
PLANET_IDS = [p.id for p in DATA.planets]
EX01_TABLE = ["RBW-MINUS", "GRN-E", "YEL-F", "RED-C", "BLU-D"]


def new_state(players: int = 5, seed: int = 0, *, first_leader: int | None = 0, record: bool = False,
              **params: Any) -> BState:
    return GAME.new_state(players=players, seed=seed, record=record, first_leader=first_leader, **params)


def arranged(players: int = 5, seed: int = 0, *, params: dict[str, Any] | None = None, record: bool = False,
             **arrangement: Any) -> BState:
    st = new_state(players, seed, record=record, **(params or {}))
    st.arrange(arrangement)
    return st


def agendas(*ids: int) -> list[str]:
    return [f"AG-{i:02d}" for i in ids]


def rejected(st: BState, seat: int, text: str, rule: str) -> None:
    """``text`` by ``seat`` is refused, naming ``rule``, and the state is left exactly as it was."""
    before = st.fingerprint()
    with pytest.raises(IllegalActionError) as info:
        st.apply(text, seat)
    assert info.value.rule == rule, str(info.value)
    assert st.fingerprint() == before


def play(st: BState, *moves: tuple[int, str]) -> None:
    for seat, text in moves:
        st.apply(text, seat)


def call_and_vote(st: BState, passing: Iterable[int]) -> None:
    """The Leader calls the Vote; the seats in ``passing`` vote Pass, the other voters Fail."""
    yes = set(passing)
    leader = st.data.leader
    st.apply("call vote", leader)
    for seat in range(st.players):
        if seat != leader:
            st.apply("vote pass" if seat in yes else "vote fail", seat)


def all_pass(st: BState) -> None:
    call_and_vote(st, range(st.players))


def all_fail(st: BState) -> None:
    call_and_vote(st, ())


def get_paid_all(st: BState) -> None:
    """Everyone takes Get Paid in the Advance phase."""
    while st.data.phase == "advance":
        st.apply("get paid", st.to_move()[0])


def coins_in_play(d: BHCData) -> int:
    """Every coin's account (BHC-INV-01): the Stock ledger plus Banks, Bribe Space and pending coins."""
    return d.stock + sum(d.banks) + d.bribe_space + sum(d.pending) + (1 if d.accepted_from >= 0 else 0)
