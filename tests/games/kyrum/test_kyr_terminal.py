"""The terminal picture of Kyrum (spec §9.1-9.2): boards, area, objectives, scripts, decisions, campaign tables.

KYR-AREA-04, KYR-OBJ-17, KYR-CAMPAIGN-03, KYR-CAMPAIGN-10, KYR-THOTH-01, KYR-SCRIPT-06.
"""

from __future__ import annotations

import random
from typing import Any

from rich.console import Console, RenderableType

from holotable.cli.render import renderer_for
from holotable.games.kyrum import terminal
from holotable.games.kyrum.campaign import CampaignState, fold_game, new_campaign, start_game, tracking_list
from holotable.games.kyrum.pack import load_pack

PACK = load_pack("kyrum-demo")


def text(renderable: RenderableType) -> str:
    console = Console(record=True, width=120, color_system=None)
    console.print(renderable)
    return console.export_text()


def first_view(kind: str, *, seed: int = 3, games: int = 30) -> dict[str, Any]:
    """The first view, in a seeded random campaign, where the game waits for a ``kind`` decision."""
    camp = new_campaign(PACK, seed=seed, partner=True)
    rng = random.Random(1)
    for _ in range(games):
        st = start_game(camp)
        while not st.is_terminal():
            if st.data.decision is not None and st.data.decision.kind == kind:
                return st.view(0)
            action = rng.choice([a for a in st.legal_actions() if a.verb != "concede"])
            st.apply("send hi" if action.verb == "send" else action)
        camp = fold_game(camp, st)
    raise AssertionError(f"no {kind} decision in {games} games")


def test_the_kyrum_renderer_is_registered() -> None:
    assert renderer_for("kyrum") is terminal.render


def test_boards_area_and_objectives_at_a_glance() -> None:
    """Spec §9.1, KYR-AREA-04, KYR-OBJ-17: the three boards, the area with its dice, the top planet back,
    deck sizes, journey and its NP, and each objective with its live status."""
    view = start_game(new_campaign(PACK, seed=3)).view(0)
    out = text(terminal.render(view))
    g = view["gauges"]
    for label, key, top in (("FUEL", "fuel", 16), ("KNOW", "knowledge", 16), ("HP", "health", 6),
                            ("SUIT", "suit", 6), ("SHIP", "ship", 6), ("FIRE", "firepower", 6)):
        assert f"{label}" in out and f"{g[key]}/{top}" in out
    for el in ("C", "U", "R"):
        assert f"supply {view['supply'][{'C': 'common', 'U': 'uncommon', 'R': 'rare'}[el]]}" in out
    assert f"journey {view['journey']}/4 (worth {view['journey_np']} NP)" in out
    assert f"area {view['area']}/5" in out
    back = "! ALERT" if view["top_planet_back_alert"] else "no alert"
    assert f"Top planet back: {back}" in out
    assert f"planets {view['planet_deck_size']}, encounters {view['encounter_deck_size']}" in out
    for slot in view["slots"]:
        line = next(ln for ln in out.splitlines() if f"{slot['planet']} {slot['name']}" in ln)
        assert f"[{slot['die']}]" in line
        assert (f"SUIT {slot['danger']}" in line) is (slot["danger"] > 0)
    for o in view["objectives"]:
        mark = "✓" if o["satisfied"] else "✗"
        assert f"{mark} {o['letter']}  {o['text']}" in out


def test_a_double_offers_read_or_refuse() -> None:
    """Spec §9.1: doubles show 'read script A.xx.yy / refuse and re-roll'."""
    view = first_view("offer")
    out = text(terminal.render(view))
    assert f"'read' script {view['decision']['code']}, or 'refuse'" in out
    dice = view["dice"]
    assert f"Exploration dice: white {dice[0]} · black {dice[1]}" in out
    assert "exploring" in out


def test_a_script_is_shown_as_text_with_its_choices() -> None:
    """Spec §9.1, KYR-SCRIPT-06: the reader shows code, title and text (glossary words highlighted, without
    their markup), what the script said, then the pending choice with every option."""
    view = first_view("choice")
    out = text(terminal.render(view))
    reading, dec = view["reading"], view["decision"]
    assert f"Script {reading['code']} · {reading['title']}" in out
    first_words = " ".join(terminal.script_text(reading["text"]).plain.split()[:6])
    assert first_words in " ".join(out.split())
    assert "[[" not in out
    assert dec["prompt"] in out
    for i, (label, ok) in enumerate(zip(dec["labels"], dec["enabled"], strict=True), start=1):
        assert f"option {i}: {label}" + ("" if ok else "  (cannot be paid now)") in out


def test_black_hole_partner_decision_and_market() -> None:
    """KYR-ENC-09, KYR-THOTH-01: the partner prompt with the last transmission, and the market decision."""
    out = text(terminal.render(first_view("partner")))
    assert "Share one thing you have learned about Jaakub." in out
    assert "No transmission from your partner has reached you yet." in out
    assert "Script A.53.11" in out
    market = first_view("market")
    out = text(terminal.render(market))
    assert "The Thoth market is open" in out
    res = market["result"]
    word = "VICTORY" if res["outcome"] == "victory" else "DEFEAT"
    assert f"{word} ({res['reason']}) in journey {res['journey_at_end']} · NP {res['np']['total']}" in out


def test_glossary_links_render_as_their_label() -> None:
    styled = terminal.script_text("He saw [[rahel|the machine]] and [[kyrum]].")
    assert styled.plain == "He saw the machine and kyrum."
    spans = {styled.plain[s.start:s.end]: str(s.style) for s in styled.spans}
    assert spans == {"the machine": "bold italic", "kyrum": "bold italic"}


def test_scoreboard_has_the_six_columns() -> None:
    """KYR-CAMPAIGN-03: game, objectives, result, NP, comment, end-of-game script."""
    camp = new_campaign(PACK, seed=1)
    camp.scoreboard[0].update(result="defeat", np=1, comment="ash & <tags> [b]kept[/b]")
    out = text(terminal.scoreboard_table(camp.scoreboard, current=2))
    header = next(ln for ln in out.splitlines() if "Objectives" in ln)
    assert header.split() == ["Game", "Objectives", "Result", "NP", "Comment", "End", "script"]
    row1 = next(ln for ln in out.splitlines() if ln.split()[:1] == ["1"])
    assert row1.split()[:6] == ["1", "B", "F", "N", "defeat", "1"] and "[b]kept[/b]" in row1 and "A.70.01" in row1
    row2 = next(ln for ln in out.splitlines() if ln.split()[:1] == ["2"])
    assert "playing…" in row2
    assert len([ln for ln in out.splitlines() if ln.strip()[:2].strip().isdigit()]) == 30


def test_tracking_list_counts_main_scripts() -> None:
    """KYR-CAMPAIGN-10: 19 planets × 6 + RAHEL × 1 = 115 entries, read ones ticked."""
    camp = new_campaign(PACK, seed=1)
    assert "0 of 115 main scripts read" in text(terminal.tracking_table(tracking_list(camp, PACK), PACK))
    seen = CampaignState.from_dict({**camp.to_dict(), "main_seen": ["A.10.08", "A.29.01"]})
    out = text(terminal.tracking_table(tracking_list(seen, PACK), PACK))
    assert "2 of 115 main scripts read" in out
    rymios = next(ln for ln in out.splitlines() if "10 Rymios" in ln)
    assert "08 ✓" in rymios and "02 ·" in rymios
    assert "01 ✓" in next(ln for ln in out.splitlines() if "29 RAHEL" in ln)


def test_market_and_questionnaire_tables() -> None:
    """KYR-THOTH-04, KYR-CAMPAIGN-06: prices and ownership; the questionnaire never shows its answers."""
    out = text(terminal.market_table(PACK, {"T01": {"owned": 1, "consumed": 0}}, 5))
    assert "NP bank 5" in out
    for t, iid in enumerate(PACK.item_order, start=1):
        line = next(ln for ln in out.splitlines() if f"{iid} {PACK.items[iid].name}" in ln)
        assert line.split()[0] == f"t{t}" and f"{PACK.items[iid].cost} NP" in line
    assert "1/1" in next(ln for ln in out.splitlines() if "T01" in ln)
    quiz = text(terminal.questionnaire_text(PACK))
    for q in PACK.questionnaire["questions"]:
        assert q["text"] in quiz and q["source"] not in quiz
    result = {"own_score": 35, "partner_score": None, "shared_score": 70, "status": "Great Traveller"}
    assert "own 35 × 2 (no Black Hole partner) = 70/100 → Great Traveller" in text(
        terminal.questionnaire_result(result))


def test_crafting_cards_at_a_glance() -> None:
    """KYR-CRAFT-02, KYR-CRAFT-03, KYR-CRAFT-04, KYR-CRAFT-05: the crafting cards, one line per element type."""
    out = text(terminal.crafting_text(PACK))
    assert "1 C → +2 FUEL, re-roll a distance die (window open)" in out
    assert "1 U → +3 FUEL, +1 SUIT, +1 SHIP, +1 FIRE, set a distance die to 1 (window open)" in out
    assert "1 R → +6 FUEL, +1 HP" in out
