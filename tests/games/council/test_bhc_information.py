"""Who sees what (spec §6.3): BHC-INFO, BHC-INV-21 redaction per seat, determinisation, BHC-DIG-03/05."""

from __future__ import annotations

import json

import pytest
from bhc_helpers import DATA, GAME, BState, agendas, all_pass, arranged, new_state

from holotable.agents import make_agent, observe
from holotable.engine import IllegalActionError, MalformedActionError, Rng, derive_seed
from holotable.games.council.scoring import round_points
from holotable.testing.conformance import random_step


def random_game(n: int, seed: int, *, record: bool = True, stop: int | None = None) -> list[BState]:
    """The positions of a seeded random game (one clone per ply, up to ``stop`` plies)."""
    st = new_state(n, seed, record=record, first_leader=None)
    rng = Rng(derive_seed(seed, "bhc-info"))
    states = [st.clone()]
    while not st.is_terminal() and (stop is None or st.ply < stop):
        random_step(st, rng)
        states.append(st.clone())
    return states


def check_redaction(st: BState) -> None:
    """BHC-INV-21 for every seat and the spectator."""
    d = st.data
    for seat in [None, *range(st.players)]:
        view = st.view(seat)
        text = json.dumps(view)
        assert "deck_top_first" not in text and "stock" not in view  # the deck order is never shown
        if not d.over:
            assert view["agendas"] is None
            others = [DATA.agenda_ids[a] for s, a in enumerate(d.agendas) if s != seat]
            assert not any(f'"{a}"' in text for a in others), "another seat's Agenda is visible"
        assert ("you" in view) == (seat is not None)
        if seat is not None:
            assert view["you"]["agenda"]["id"] == DATA.agenda_ids[d.agendas[seat]]
        played = {e["seat"] for e in view["intrigue_discards"]}
        assert played == {s for s in range(st.players) if d.intrigue_played[s] >= 0}
        for rnd in view["deductions"]:
            for r in rnd:
                assert ("colour" in r) == (seat in (r["guesser"], r["target"]))
        for s in view["history"]:
            assert (s["planets"] is None) == s["written_off"]
        if st.pending and seat is not None:
            assert view.get("my_choice") == (GAME.action_to_str(st.pending[seat]) if seat in st.pending else None)
        for event in st.log_for(seat):
            if event.kind == "deduction_card":
                assert event.to is not None and seat in event.to


@pytest.mark.parametrize(("n", "seed"), [(4, 1), (6, 2), (8, 3)])
def test_BHC_INV_21_INFO_01_03_05_06_views_per_seat(n: int, seed: int) -> None:
    """BHC-INFO-01: cards are private until a rule reveals them (Agendas at Pay-Out, Intrigue when played,
    votes at the reveal, a Deduction card to its target); BHC-INFO-03: points only to their owner;
    BHC-INFO-05 (assumed:AMB-31): Banks, pending bribes and the Bribe Space are public; BHC-INFO-06: no view
    or log shows a card face outside those cases."""
    states = random_game(n, seed)
    for st in [*states[:: max(1, len(states) // 40)], states[-1]]:
        check_redaction(st)
        view = st.view(None)
        assert view["banks"] == st.data.banks and view["pending"] == st.data.pending
        assert view["bribe_space"] == st.data.bribe_space
    final = states[-1]
    assert final.is_terminal() and final.view(0)["agendas"] is not None


def test_BHC_INFO_03_SCORE_04_points_are_private() -> None:
    """BHC-INFO-03 / BHC-SCORE-04 (assumed:AMB-39): the engine computes each seat's points and shows them
    only to that seat."""
    st = arranged(4, agendas=agendas(1, 2, 3, 4), leader=0, table=["RBW-MINUS", "GRN-E", "YEL-F", "RED-C", "BLU-D"])
    all_pass(st)
    assert st.view(0)["you"]["points"] == 4
    assert "you" not in st.view(None)
    for seat in (None, 1, 2, 3):
        assert not [k for k in st.view(seat) if "points" in k]  # only the seat's own "you" block has points
    assert [st.view(s)["you"]["points"] for s in range(4)] == [
        round_points(DATA, DATA.agendas[a], st.data.table) for a in st.data.agendas]


def test_BHC_INFO_02_talk_is_never_checked() -> None:
    """BHC-INFO-02: players may say anything, lies included: a false claim about one's own Agenda is accepted
    and stored as said."""
    st = arranged(4, agendas=agendas(1, 2, 3, 4))
    st.apply("claim 1 settle red", 1)  # seat 1 holds AG-02: Settle black
    st.apply("say I hold AG-07", 1)
    assert [t["text"] for t in st.data.talk] == ["claim 1 settle red", "say I hold AG-07"]


def test_BHC_INFO_06_no_action_reveals_a_card() -> None:
    """BHC-INFO-06: there is no 'show my agenda' action."""
    for text in ("show agenda", "reveal", "show intrigue 0", "reveal agenda"):
        with pytest.raises(MalformedActionError):
            GAME.parse_action(text)


def test_determinize_keeps_every_public_fact() -> None:
    """determinize re-deals other seats' Agendas and unplayed Intrigue cards (and the unseen deck) so that every
    announced Advance stays legal (natural: points >= cost, pay c: points + c >= cost) and every Deduction card
    the seat played keeps its result; the seat's own cards never change."""
    states = random_game(5, 11, record=False)
    checked = 0
    for st in states[::25]:
        if st.is_terminal():
            continue
        for seat in range(5):
            for k in range(3):
                det = st.determinize(seat, Rng(derive_seed("det", st.ply, seat, k)))
                d = det.data
                assert d.agendas[seat] == st.data.agendas[seat] and d.intrigue[seat] == st.data.intrigue[seat]
                assert len(set(d.agendas)) == 5
                assert sorted(d.deck) == sorted(st.data.deck)
                for rec in d.advances:
                    if rec["choice"] == "get paid":
                        continue
                    sets = [s for s in d.history if s["round"] == rec["round"] and not s["written_off"]]
                    table, failed = (sets[0]["planets"], sets[0]["failed"]) if sets else (d.table, d.failed)
                    kind = None if rec["intrigue"] is None else ["settle", "tax", "mine", "conquer",
                                                                 "black_hole"].index(rec["intrigue"])
                    pts = round_points(DATA, DATA.agendas[d.agendas[rec["seat"]]], table, kind, failed)
                    assert pts + rec["coins"] >= rec["cost"]
                    checked += 1
                assert det.view(seat) == st.view(seat) or st.pending
    assert checked > 50


def test_determinize_redeals_hidden_cards() -> None:
    """determinize does change what the seat cannot see (other Agendas, unplayed Intrigue, deck order)."""
    st = new_state(6, seed=4)
    dets = [st.determinize(0, Rng(k)).data for k in range(10)]
    assert len({tuple(d.agendas[1:]) for d in dets}) > 1
    assert len({tuple(d.deck) for d in dets}) > 1
    assert {d.agendas[0] for d in dets} == {st.data.agendas[0]}


def test_BHC_DIG_03_house_timeouts() -> None:
    """BHC-DIG-03 (assumed:AMB-34): off by default; when enabled the defaults are vote Fail, Get Paid without
    Intrigue, a seeded random colour (left in D1 and D3, right in D2), and the Leader's call for the Vote."""
    st = new_state(5)
    with pytest.raises(IllegalActionError):
        GAME.timeout_action(st, 0)
    st = new_state(5, house_timeouts=True)
    assert str(GAME.timeout_action(st, 0)) == "call vote"
    with pytest.raises(IllegalActionError):
        GAME.timeout_action(st, 1)
    st.apply(GAME.timeout_action(st, 0), 0)
    assert str(GAME.timeout_action(st, 1)) == "vote fail"
    for seat in (1, 2, 3, 4):
        st.apply("vote pass", seat)
    assert str(GAME.timeout_action(st, 0)) == "get paid"
    st = arranged(5, round=3, params={"house_timeouts": True},
                  history=[{"planets": [p.id for p in DATA.planets[i:i + 5]]} for i in (0, 5)])
    guess = GAME.timeout_action(st, 2)
    assert guess.kind == "guess" and guess.b == 0 and guess == GAME.timeout_action(st, 2)


def test_BHC_DIG_05_bots_act_through_the_api_on_their_view() -> None:
    """BHC-DIG-05: a bot gets its seat's observation (its view and legal actions) and acts through the same
    validated API as a human."""
    st = new_state(5, seed=2)
    bot = make_agent("random", GAME, seed=1)
    obs = observe(st, 3)
    assert obs.view == st.view(3) and "you" in obs.view
    action = bot.act(obs)
    st.apply(action, 3)
    assert st.ply == 1
