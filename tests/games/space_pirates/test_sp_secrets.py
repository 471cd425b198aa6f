"""What a Space Pirates seat could once learn around its view: token ids that named faces, and
zero-strength flicks that peeked at a token without the flick's risk (SP-INFO-01, SP-FLICK-01,
assumed:SP-AMB-55)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

import holotable
from holotable.agents import make_agent, observe
from holotable.engine import IllegalActionError, Rng, State
from holotable.games.space_pirates.actions import SPAction

GAME = holotable.load("space-pirates")


def _to_flick(seed: int, **params: Any) -> State[Any, Any]:
    st = GAME.new_state(players=2, seed=seed, **params)
    while GAME.decision(st).kind != "flick":
        seat = st.to_move()[0]
        st.apply(st.legal_actions(seat)[0], seat)
    return st


def test_a_flick_below_the_weakest_is_refused_with_the_rule_and_changes_nothing() -> None:
    st = _to_flick(3)
    seat = st.to_move()[0]
    before = st.fingerprint()
    for weak in ("flick 30 0", "flick 30 0.05", "flick 30 0.0999"):
        with pytest.raises(IllegalActionError, match=r"at least 0\.1: a touch that barely moves the token") as err:
            st.apply(weak, seat)
        assert err.value.rule == "SP-FLICK-01"
        assert st.fingerprint() == before
    assert st.view(seat)["flick_min_strength"] == 0.1
    st.apply("flick 30 0.1", seat)  # the weakest flick there is


def test_the_weakest_flick_is_data() -> None:
    st = _to_flick(3, data={"constants.min_flick_strength": 0.3})
    seat = st.to_move()[0]
    with pytest.raises(IllegalActionError, match=r"at least 0\.3"):
        st.apply("flick 30 0.25", seat)
    assert st.view(seat)["flick_min_strength"] == 0.3
    st.apply("flick 30 0.3", seat)


def test_the_bot_never_nudges_a_token_to_peek_at_it() -> None:
    weakest = GAME.content.constants.min_flick_strength
    strengths: list[float] = []
    st = GAME.new_state(players=2, seed=8, turn_cap=12)
    bots = [make_agent("heuristic", GAME, seed=s, flick_samples=1, flick_top=2) for s in range(2)]
    while not st.is_terminal():
        seat = st.to_move()[0]
        action = bots[seat].act(observe(st, seat))
        if isinstance(action, SPAction) and action.verb == "flick":
            strengths.append(float(action.b or 0.0))
        st.apply(action, seat)
    assert strengths and min(strengths) >= weakest


def test_a_token_id_names_no_face() -> None:
    """Ids were the faces (0-5 ore ... 32-33 police, in every game). Now a drawn token takes the lowest
    id in the bag, whatever its face, and the bag keeps no id-to-face order."""
    faces: dict[int, list[str]] = defaultdict(list)
    for seed in range(40):
        st = GAME.new_state(players=3, seed=seed)
        rng = Rng(seed)
        while st.ply < 30 and not st.is_terminal():
            d = st.data
            bag = [t for t, w in enumerate(d.where) if w == "bag"]
            seat = st.to_move()[0]
            legal = st.legal_actions(seat)
            st.apply(legal[rng.randrange(len(legal))], seat)
            drawn = [t for t in bag if st.data.where[t] != "bag"]
            if drawn:
                assert drawn == bag[: len(drawn)], "a token drawn takes the lowest ids in the bag"
                for t in drawn:
                    faces[t].append(st.data.ident[t])
            inside = [st.data.ident[t] for t, w in enumerate(st.data.where) if w == "bag"]
            assert inside == sorted(inside), "the bag is a multiset: its ids say nothing"
    often = {t: f for t, f in faces.items() if len(f) >= 10}
    assert len(often) >= 4
    assert all(len(set(f)) >= 4 for f in often.values()), dict(faces)  # 7 faces in all
