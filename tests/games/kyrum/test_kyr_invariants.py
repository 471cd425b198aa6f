"""Property tests of spec §11 over random legal play (P-K-01..17) on the test pack.

P-K-01 gauges in bounds, P-K-02 elements <= 6 and held + supply = 6, P-K-03 suit never 0 at a TLDP,
P-K-04 card conservation, P-K-05 one exploration per slot, P-K-06 apply iff legal, P-K-07 journey/area order,
P-K-08 sorted distance dice, P-K-09 study bookkeeping, P-K-10 game over flow, P-K-11 victory checks,
P-K-12 NP arithmetic, P-K-13 replay exactness, P-K-14 knowledge monotone, P-K-15/16/17 campaign monotony.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from kyr_helpers import GAME, MINI

from holotable.agents import make_agent
from holotable.agents.base import observe
from holotable.engine import Match, Rng, State
from holotable.games.kyrum.pack import PACKS_DIR, load_pack

PACK = load_pack(MINI)
PACKS = [MINI] + ([str(PACKS_DIR / "kyrum-demo")] if (PACKS_DIR / "kyrum-demo").is_dir() else [])
BOUNDS = {"fuel": 16, "knowledge": 16, "health": 6, "suit": 6, "ship": 6, "firepower": 6}


def pick(st: State, rng: Rng) -> str:  # type: ignore[type-arg]
    """A random legal action; rarely concedes, prefers progress, so games run long."""
    legal = [str(a) for a in st.legal_actions()]
    keep = [a for a in legal if a != "concede"] or legal
    if rng.random() < 0.6:
        keen = [a for a in keep if a.split()[0] in ("explore", "read", "option", "study", "validate", "buy", "use")]
        keep = keen or keep
    return rng.choice(keep)


def check(st: State, prev: tuple[int, int], knowledge: int) -> None:  # type: ignore[type-arg]
    d = st.data
    pack = load_pack(st.config["pack"])
    for g, hi in BOUNDS.items():
        assert 0 <= d.gauges[g] <= hi, g  # P-K-01
    for e in ("common", "uncommon", "rare"):
        assert 0 <= d.elements[e] <= 6 and st.view(0)["supply"][e] + d.elements[e] == 6  # P-K-02
    tldp = d.decision is None and d.result is None
    if tldp:
        assert d.gauges["suit"] >= 1 and d.encounter_in_play is None  # P-K-03, P-K-04 in_play empty
    assert sorted(d.planet_deck + d.slot_planets + d.planet_discard) == sorted(pack.planets)  # P-K-04
    held = [c["id"] for c in d.inventory]
    assert sorted(d.discovery_deck + held + d.discovery_discard) == sorted(pack.discoveries)
    in_play = [d.encounter_in_play] if d.encounter_in_play else []
    assert len(d.encounter_deck + in_play + d.encounter_removed) == 9
    assert 1 <= d.journey <= 4 and 1 <= d.area <= 5 and (d.journey, d.area) >= prev  # P-K-07
    assert d.areas_revealed <= 20
    for card in d.inventory:  # P-K-09
        cost = pack.discoveries[card["id"]].cost
        assert all(card["paid"][k] + card["waived"][k] <= cost[k] for k in cost)
        assert card["studied"] == all(card["paid"][k] + card["waived"][k] == cost[k] for k in cost)
    if d.result is None:
        assert d.gauges["knowledge"] >= knowledge  # P-K-14 (no knowledge losses in the test pack's play)
    else:
        assert all(a.split()[0] in ("buy", "close", "option") for a in map(str, st.legal_actions(0)))  # P-K-10
        np = d.result["np"]
        if d.result["outcome"] == "victory":  # P-K-11, P-K-12
            assert np["total"] == np["knowledge"] + np["discovery"] + np["journey"] + np["script"]
        else:
            assert np["total"] == (np["knowledge"] + np["script"]) // 2 and np["journey"] == np["discovery"] == 0
    assert d.camp["np_bank"] >= 0


@settings(max_examples=5, deadline=None)
@given(seed=hs.integers(0, 2**32 - 1))
def test_P_K_random_play_keeps_the_invariants(seed: int) -> None:
    """P-K-01..12, P-K-14 after every action of a random game; P-K-05 explored slots <= 4."""
    st = GAME.new_state(1, seed=seed, pack=MINI, record=True)
    assert st.data.slot_dice == sorted(st.data.slot_dice)  # P-K-08 for the set-up roll
    rng = Rng(seed)
    prev, knowledge = (1, 1), 0
    while not st.is_terminal():
        assert st.ply < 3000
        check(st, prev, knowledge)
        prev, knowledge = (st.data.journey, st.data.area), st.data.gauges["knowledge"]
        assert sum(st.data.slot_explored) <= 4
        st.apply(pick(st, rng))
    check(st, prev, knowledge)
    rolls = [e.data for e in st.events or [] if e.kind == "dice" and e.data.get("dice_kind") == "distance"]
    assert all(r["assigned"] == sorted(r["values"]) for r in rolls)  # P-K-08 for every later roll
    assert st.data.camp["next_game"] == 2 and st.data.camp["scoreboard"][0]["result"] is not None  # P-K-17


@settings(max_examples=4, deadline=None)
@given(seed=hs.integers(0, 2**32 - 1))
def test_P_K_13_replay_and_save_load(seed: int) -> None:
    """P-K-13: the same seed and action list give the same final state; a saved match reloads to it."""
    st = GAME.new_state(1, seed=seed, pack=MINI)
    rng = Rng(seed)
    log = []
    seen: list[str] = []
    while not st.is_terminal():
        a = pick(st, rng)
        log.append((0, a))
        st.apply(a)
        assert set(seen) <= set(st.data.camp["scripts_seen"])  # P-K-15 monotone
        seen = list(st.data.camp["scripts_seen"])
    match = Match(GAME, st.config, seed, log)
    assert match.state.fingerprint() == st.fingerprint()
    assert Match.from_json(match.to_json()).state.fingerprint() == st.fingerprint()
    assert set(st.data.camp["main_seen"]) <= set(PACK.main_codes())  # P-K-15


def test_P_K_06_legal_iff_applies() -> None:
    """P-K-06: every listed action applies; a sample of unlisted indices is refused without change."""
    st = GAME.new_state(1, seed=11, pack=MINI)
    rng = Rng(3)
    for _ in range(40):
        if st.is_terminal():
            break
        legal = set(map(str, st.legal_actions()))
        for a in sorted(legal)[::5]:
            st.child(a)
        before = st.fingerprint()
        for i in rng.sample(range(GAME.num_actions(st.config)), 30):
            if str(GAME.index_action(i)) not in legal:
                try:
                    st.apply(i)
                except ValueError:
                    pass
                else:  # pragma: no cover - would be a bug
                    raise AssertionError(f"index {i} applied but was not listed")
                assert st.fingerprint() == before
        st.apply(pick(st, rng))


@pytest.mark.parametrize("pack", PACKS, ids=lambda p: Path(p).name)
@settings(max_examples=4, deadline=None)
@given(seed=hs.integers(0, 2**32 - 1))
def test_P_K_invariants_under_the_heuristic(pack: str, seed: int) -> None:
    """P-K-01..12 and P-K-14 along heuristic games, which run deep into journeys 2-4 and reach victories, the
    market and the end-of-game procedure (on the test pack and the shipped demo pack)."""
    st = GAME.new_state(1, seed=seed, pack=pack)
    bot = make_agent("heuristic", GAME, seed=seed)
    prev, knowledge = (1, 1), 0
    while not st.is_terminal():
        assert st.ply < 3000
        check(st, prev, knowledge)
        prev, knowledge = (st.data.journey, st.data.area), st.data.gauges["knowledge"]
        st.apply(bot.act(observe(st, 0)))
    check(st, prev, knowledge)
    res = st.data.result
    if res["outcome"] == "victory":  # P-K-11: validated in journey <= 4
        assert res["journey_at_end"] <= 4 and res["reason"].startswith("validated")


def test_P_K_16_done_narratives_stay_done() -> None:
    """P-K-16: a done narrative is not recreated unless repeatable; an active one is never duplicated."""
    from kyr_helpers import QUIET_TOP, arranged

    from holotable.games.kyrum.discoveries import add_narrative
    from holotable.games.kyrum.rules import table

    st = arranged(planet_deck_top_first=QUIET_TOP)
    t = table(st)
    op = {"op": "add_narrative", "nd_id": "ND-X", "name": "X", "cost": {"common": 1}, "on_complete": "A.11.81"}
    add_narrative(t, op)
    add_narrative(t, op)
    assert [n["state"] for n in st.data.camp["narratives"]] == ["active"]
    st.data.camp["narratives"][0]["state"] = "done"
    add_narrative(t, op)
    assert [n["state"] for n in st.data.camp["narratives"]] == ["done"]
    add_narrative(t, {**op, "repeatable": True})
    assert [n["state"] for n in st.data.camp["narratives"]] == ["done", "active"]
