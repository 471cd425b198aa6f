"""Hidden information: views per seat and determinisation (BHB-INFO-01..04, BHB-CARD-TOY-04, BHB-SEL-02).

Every hidden item is checked for every seat: other hands, sealed step-1 choices, other seats' face-down toys,
other seats' black-hole cards, another seat's Tentacle cards, the draw pile, and (standard set-up) the black
holes of later rounds.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

import pytest
from bhb_helpers import BState, new, play, selection

from holotable.engine import Rng
from holotable.games.buccaneers import cards as tb


def _public(st: BState) -> set[str]:
    d = st.data
    out = set(d.discard)
    for tableau in d.tableaux:
        out.update(it.card for it in tableau if not it.face_down)
    if d.bh_revealed:
        out.add(d.bh_revealed)
    return out


def _secrets(st: BState, seat: int | None) -> set[str]:
    """Card ids ``seat`` must not see (minus those public anyway)."""
    d = st.data
    hidden: set[str] = set(d.draw)
    for s in range(d.players):
        if s != seat:
            hidden.update(d.hands[s])
            hidden.update(it.card for it in d.tableaux[s] if it.face_down)
    hidden.update(c for c, s in zip(d.bh_pile, d.bh_from, strict=True) if s != seat and c != d.bh_revealed)
    if not (d.ask[0] == "tentacle" and d.ask[1] == seat):
        hidden.update(d.tentacle)
    for s, action in st.pending.items():
        if s != seat:
            hidden.add(action.card)
    return hidden - _public(st)


def _positions(players: int, seed: int) -> Iterator[BState]:
    st = new(players, seed, record=False)
    rng = Rng(seed)
    while not st.is_terminal():
        yield st
        seat = rng.choice(st.to_move())
        legal = list(st.legal_actions(seat))
        st.apply(legal[rng.randrange(len(legal))], seat)
    yield st


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (6, 3)])
def test_BHB_INFO_01_02_03_04_no_secret_in_any_view(players: int, seed: int) -> None:
    """BHB-INFO-01, BHB-INFO-02, BHB-INFO-03, BHB-INFO-04, BHB-SEL-02, BHB-CARD-TOY-04: at every position of a
    random game, no view shows a card id the seat may not know, and each seat sees its own hand."""
    for ply, st in enumerate(_positions(players, seed)):
        for seat in (*range(players), None):
            view = st.view(seat)
            text = json.dumps({k: v for k, v in view.items() if k not in ("pad", "outcome")})  # history
            leaked = [c for c in _secrets(st, seat) if f'"{c}"' in text]
            assert not leaked, f"ply {ply}, seat {seat} sees {leaked}"
            if seat is not None:
                assert sorted(view["hand"]) == sorted(st.data.hands[seat])
            assert view["hand_sizes"] == [len(h) for h in st.data.hands]
            assert view["draw_size"] == len(st.data.draw) and "draw" not in view


def test_BHB_CARD_TOY_04_face_down_toy_shows_only_that_it_is_a_toy() -> None:
    """BHB-CARD-TOY-04, BHB-INFO-02, BHB-INFO-03: a toy laid face down shows its id to its owner only; everyone
    else (spectators too) sees a face-down card, which must be a toy. assumed:AMB-34"""
    st = selection([["TOY-5-6", "SHIP-07", "SHIP-08"], ["SHIP-09", "SHIP-10", "SHIP-11"],
                    ["SHIP-12", "SHIP-14", "SHIP-N3"]])
    play(st, "TOY-5-6", "SHIP-09", "SHIP-12")
    assert st.view(0)["tableaux"][0][0]["card"] == "TOY-5-6"
    for seat in (1, 2, None):
        assert st.view(seat)["tableaux"][0][0] == {"card": None, "face_down": True}
        assert st.view(seat)["totals"][0] is None
        assert "TOY-5-6" not in json.dumps(st.view(seat))
    for k in range(5):
        det = st.determinize(1, Rng(k))
        assert tb.is_toy(det.data.tableaux[0][0].card)
        assert det.view(1) == st.view(1)
    assert {st.determinize(1, Rng(k)).data.tableaux[0][0].card for k in range(12)} != {"TOY-5-6"}


def test_BHB_SEL_02_sealed_choice_hidden_until_step_2() -> None:
    """BHB-SEL-02, BHB-INFO-03: a step-1 choice is held sealed; other seats see only that the seat has chosen."""
    st = selection([["SHIP-07", "SHIP-08", "SHIP-09"], ["SHIP-10", "SHIP-11", "SHIP-12"],
                    ["SHIP-14", "SHIP-N3", "SHIP-N4"]])
    st.apply("play SHIP-08", 0)
    assert st.view(0)["my_choice"] == "play SHIP-08"
    for seat in (1, 2, None):
        view = st.view(seat)
        assert view["committed"] == [0] and "my_choice" not in view
    assert st.data.tableaux[0] == [] and "SHIP-08" in st.data.hands[0]
    det = st.determinize(1, Rng(0))
    assert det.pending == {}


def test_BHB_INFO_03_determinize_redeals_every_hidden_zone() -> None:
    """BHB-INFO-02, BHB-INFO-03: determinize(seat) keeps the seat's hand, its black-hole card and every public card,
    and re-deals other hands, the draw pile and (standard set-up) the later black holes; nothing is lost."""
    st = new(4, 6)
    for seat in range(4):
        dets = [st.determinize(seat, Rng(k)) for k in range(6)]
        for det in dets:
            d = det.data
            assert d.hands[seat] == st.data.hands[seat]
            assert Counter(tb.all_cards(d)) == Counter(list(tb.CARDS))
            assert det.view(seat) == st.view(seat)
        assert any(det.data.hands[(seat + 1) % 4] != st.data.hands[(seat + 1) % 4] for det in dets)
        assert any(det.data.draw != st.data.draw for det in dets)
        assert any(det.data.stack[1:] != st.data.stack[1:] for det in dets)
        assert all(det.data.stack[0] == st.data.stack[0] for det in dets)
    first = new(4, 6, setup="first_game")
    assert all(first.determinize(0, Rng(k)).data.stack == ["BH-M2", "BH-R2", "BH-D4"] for k in range(4))


def test_BHB_INFO_02_black_hole_card_and_tentacle_private() -> None:
    """BHB-INFO-02, BHB-INFO-03: each seat sees its own black-hole card only; the Tentacle's cards only their
    drawer sees, and determinize keeps them for the drawer and re-deals them for others."""
    st = selection([["ART-TENTACLE", "SHIP-07", "SHIP-08"], ["SHIP-09", "SHIP-10", "SHIP-11"],
                    ["SHIP-12", "SHIP-14", "SHIP-N3"]], draw_top=["TOY-1-2", "TOY-2-2", "TOY-2-3"])
    play(st, "ART-TENTACLE", "SHIP-09", "SHIP-12")
    assert sorted(st.view(0)["tentacle"]) == ["TOY-1-2", "TOY-2-2", "TOY-2-3"]
    assert st.determinize(0, Rng(1)).data.tentacle == st.data.tentacle
    assert any(st.determinize(1, Rng(k)).data.tentacle != st.data.tentacle for k in range(5))
    assert st.determinize(1, Rng(1)).legal_actions(1) == ()
    st = selection([["SHIP-07", "TOY-1-2"], ["SHIP-09", "TOY-2-2"], ["SHIP-12", "TOY-2-3"]], round_=3,
                   script={"reveal": ["TOY-1-2"]})
    play(st, "SHIP-07", "SHIP-09", "SHIP-12")
    assert [st.view(s)["my_bh_cards"] for s in range(3)] == [["TOY-1-2"], ["TOY-2-2"], ["TOY-2-3"]]
    assert st.view(None)["my_bh_cards"] == [] and st.view(None)["bh_revealed"] == "TOY-1-2"
