"""Shared helpers for the Kyrum tests: the small test pack, arranged states, fixed dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import holotable
from holotable.engine import State
from holotable.games.kyrum.campaign import CampaignState, new_campaign
from holotable.games.kyrum.pack import load_pack

MINI = str(Path(__file__).parent / "packs" / "mini")
GAME = holotable.load("kyrum")
KState = State[Any, Any]


def fresh(seed: int = 0, *, pack: str = MINI, record: bool = True, **params: Any) -> KState:
    """A new game whose set-up stopped at a TLDP (no encounter decision pending)."""
    for s in range(seed, seed + 200):
        st = GAME.new_state(1, seed=s, pack=pack, record=record, **params)
        if st.data.decision is None:
            return st
    raise AssertionError("no seed gives a set-up without a decision")


def arranged(seed: int = 0, *, pack: str = MINI, params: dict[str, Any] | None = None, **arrangement: Any) -> KState:
    st = fresh(seed, pack=pack, **(params or {}))
    st.arrange(arrangement)
    return st


def slots(*planets: int, dice: tuple[int, ...] = (1, 2, 3, 4), explored: tuple[bool, ...] = ()) -> list[dict[str, Any]]:
    ex = explored or (False,) * 4
    return [{"planet": p, "die": d, "explored": e} for p, d, e in zip(planets, dice, ex, strict=True)]


#: A deck top with no alert mark (so no encounter after the next reveal).
QUIET_TOP = [20, 22, 23, 25]


def play(st: KState, *actions: str) -> KState:
    for a in actions:
        st.apply(a)
    return st


def kinds(st: KState) -> list[str]:
    return [e.kind for e in st.events or []]


def texts(st: KState) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def campaign(partner: bool = False, seed: int = 0) -> CampaignState:
    return new_campaign(load_pack(MINI), seed=seed, partner=partner)


def campaign_state(camp: CampaignState, seed: int = 0, **params: Any) -> KState:
    for s in range(seed, seed + 200):
        st = GAME.new_state(1, seed=s, pack=MINI, record=True, campaign=camp.to_json(), **params)
        if st.data.decision is None:
            return st
    raise AssertionError("no quiet seed")


def finish_by_concede(st: KState) -> KState:
    """Concede at the TLDP and close the end-of-game flow (end script options: first)."""
    st.apply("concede")
    while not st.is_terminal():
        legal = texts(st)
        st.apply("close" if "close" in legal else legal[0])
    return st
