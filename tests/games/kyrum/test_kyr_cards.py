"""Every Kyrum card is readable (issue 18): planets, encounters, discoveries, Thoth items and narratives in
plain words from the pack's data, found by a forgiving name, shown by ``card NAME`` in both terminals.

KYR-EXPLORE-03, KYR-EXPLORE-04, KYR-EXPLORE-05, KYR-EXPLORE-01, KYR-ENC-03, KYR-ENC-04, KYR-ENC-07, KYR-TLDP-02.
"""

from __future__ import annotations

import io
import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from rich.console import Console

from holotable.engine import IllegalActionError
from holotable.games.kyrum import card_text, terminal
from holotable.games.kyrum.actions import parse
from holotable.games.kyrum.campaign import new_campaign, start_game
from holotable.games.kyrum.pack import _OP_FIELDS, RESOURCES, load_pack, walk_ops

PACK = load_pack("kyrum-demo")
#: The pack's own words that must never reach a player raw (op names, field names of ops).
RAW = re.compile(r"\b(draw_discovery|discard_discovery|add_narrative|travel_discount|gain_item|partner_exchange|"
                 r"end_game|on_complete|keep_after_study|nd_id|after_exploration_roll|declare_exploration|tldp|"
                 r"white_equals_black|choose_double_value|die_minus_1|back_alert|double_script|per_game|res|op)\b")


def words(card: card_text.CardText) -> str:
    return " ".join([card.title, card.text, *(f"{a} {b}" for a, b in card.lines)])


def clean(text: str) -> None:
    assert not RAW.search(text), RAW.search(text)
    assert "{" not in text and "}" not in text and "'" + "op" not in text


def text_of(renderable: Any) -> str:
    console = Console(record=True, width=120, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


# ---------------------------------------------------------------------------------------------- every card
def test_every_card_of_the_pack_is_described_in_plain_words() -> None:
    cards = card_text.every_card(PACK)
    assert len(cards) == len(PACK.planets) + len(PACK.encounters) + len(PACK.discoveries) + len(PACK.items)
    assert len({c.key for c in cards}) == len(cards)
    for card in cards:
        clean(words(card))
        assert card.lines and all(label and value for label, value in card.lines)
        json.dumps(card.to_dict())  # what the browser gets


def test_a_planet_card_has_its_arrows_danger_double_and_description() -> None:
    """KYR-EXPLORE-03/04/05, KYR-EXPLORE-01: the white and black arrows, the danger level a suit must
    reach, which script a double reads (RAHEL's special one), the back and the description."""
    rymios = dict(card_text.planet_card(PACK, PACK.planets[10]).lines)
    assert rymios["White arrow"] == "white die higher: +2 common elements"
    assert rymios["Black arrow"] == "black die higher: +1 uncommon element, lose 1 spacesuit integrity"
    assert "A.10.XX, XX the dice total (A.10.02 to A.10.12)" in rymios["Double"]
    assert rymios["Danger"].startswith("none")
    assert card_text.planet_card(PACK, PACK.planets[10]).text == PACK.planets[10].description
    rahel = dict(card_text.planet_card(PACK, PACK.planets[29]).lines)
    assert rahel["Double"].startswith("read script A.29.01, whatever the double")
    assert rahel["Danger"].startswith(f"level {PACK.planets[29].danger}: explore only with spacesuit integrity")
    venthe = card_text.planet_card(PACK, PACK.planets[12])
    assert dict(venthe.lines)["Back"].startswith("alert")
    assert dict(venthe.lines)["White arrow"] == "white die higher: draw 1 discovery card"


def test_every_planet_arrow_reads_its_outcomes_in_order() -> None:
    """What the bots read (each arrow's ops) is what the card says, outcome by outcome, in order."""
    for planet in PACK.planets.values():
        lines = dict(card_text.planet_card(PACK, planet).lines)
        for side in ("white", "black"):
            said = lines[f"{side.title()} arrow"].split(": ", 1)[1].split(", ")
            assert len(said) == len(getattr(planet, side))
            for part, op in zip(said, getattr(planet, side), strict=True):
                n = int(op.get("n", 1))
                if op["op"] == "draw_discovery":
                    assert part == f"draw {n} discovery card" + ("s" if n > 1 else "")
                else:
                    sign = "+" if op["op"] == "gain" else "lose "
                    assert part.startswith(f"{sign}{n} {card_text.RESOURCE_NAMES[op['res']]}")


def test_a_planet_card_shows_no_script_text() -> None:
    """Secrets: a double's script is named by its code only; its title and text stay in the booklet."""
    for planet in PACK.planets.values():
        said = words(card_text.planet_card(PACK, planet, seen=planet.main_codes()[:1]))
        for code in planet.main_codes():
            script = PACK.scripts[code]
            assert script["text"][:40] not in said
            assert not script["title"] or f"“{script['title']}”" not in said
        assert "Main scripts read 1 of" in said


def test_danger_cards_say_what_they_check_and_what_failing_costs() -> None:
    """KYR-ENC-03/04: the higher die picks the arrow; its check is strictly less than; a double cancels."""
    for enc in PACK.encounters.values():
        lines = dict(card_text.encounter_card(PACK, enc).lines)
        if enc.kind != "danger":
            continue
        assert "a double cancels the encounter" in lines["Danger"]
        for side in ("white", "black"):
            arrow = getattr(enc, side)
            check = arrow["check"]
            expected = (f"check your {card_text.RESOURCE_NAMES[check['res']]}: if it is less than {check['lt']}, "
                        f"{card_text.describe_ops(arrow['effects'], PACK)}; otherwise nothing happens")
            assert lines[f"{side.title()} arrow"] == f"{side} die higher: {expected}"
    first = dict(card_text.encounter_card(PACK, PACK.encounters["ENC-01"]).lines)
    assert first["White arrow"] == ("white die higher: check your firepower: if it is less than 1, lose 1 ship "
                                    "integrity; otherwise nothing happens")


def test_the_trader_and_the_black_hole() -> None:
    """KYR-ENC-07: the trader's three trades from rules.json; the Black Hole names its script."""
    trader = next(e for e in PACK.encounters.values() if e.kind == "trader")
    lines = dict(card_text.encounter_card(PACK, trader).lines)
    assert lines["Trade a"] == "give 1 unstudied discovery card → get 2 common elements"
    assert lines["Trade b"] == "give 1 studied discovery card → get 3 common elements"
    assert lines["Trade c"] == "give 2 studied discovery cards → get 1 rare element"
    hole = next(e for e in PACK.encounters.values() if e.kind == "black_hole")
    assert dict(card_text.encounter_card(PACK, hole).lines)["Black Hole"].startswith("read script A.53.11")


def test_discovery_and_item_cards() -> None:
    d = dict(card_text.discovery_card(PACK, PACK.discoveries["D05"]).lines)
    assert d == {"Type": "fossil", "Study cost": "1 common element + 1 rare element", "Knowledge": "+3 once studied",
                 "Notoriety": "+1 NP once studied, if you win the game"}
    held = {"id": "D05", "paid": {"common": 1}, "waived": {}, "studied": False}
    assert dict(card_text.discovery_card(PACK, PACK.discoveries["D05"], held).lines)["Study"] == \
        "paid so far 1/1 common, 0/1 rare"
    chart = dict(card_text.item_card(PACK, PACK.items["T04"]).lines)
    assert chart["Effect"] == "your next exploration costs 2 fuel less (never below 0)"
    assert chart["When"].startswith("when you declare an exploration")
    assert chart["Price"] == "2 NP at the Thoth market (own at most 3)"
    tuner = dict(card_text.item_card(PACK, PACK.items["T05"]).lines)
    assert tuner["When"] == "right after an exploration roll that is not a double"
    assert tuner["Effect"] == "set the white die equal to the black die"
    tank = dict(card_text.item_card(PACK, PACK.items["T01"]).lines)
    assert tank["Effect"] == "at the start of every game: +2 fuel"


# ---------------------------------------------------------------------------------------------- every op
def _pack_ops() -> list[dict[str, Any]]:
    programs = [s["effects"] for s in PACK.scripts.values()]
    programs += [list(p.white) + list(p.black) for p in PACK.planets.values()]
    programs += [list(i.on_game_start) + list((i.use or {}).get("do", [])) for i in PACK.items.values()]
    return [op for ops in programs for op in walk_ops(ops)]


#: One example of each op the pack's scripts may use but the shipped pack happens not to.
EXAMPLES = {
    "set": {"op": "set", "res": "fuel", "value": 0},
    "encounter": {"op": "encounter"},
    "end_game": {"op": "end_game", "outcome": "defeat", "reason": "the ship is lost"},
    "travel_discount": {"op": "travel_discount", "amount": 1, "uses": 2},
    "discard_discovery": {"op": "discard_discovery", "which": "random", "n": 2, "studied": False},
    "gain_item": {"op": "gain_item", "item": "T01"},
    "partner_exchange": {"op": "partner_exchange", "prompt": "Tell them of the heron."},
    "roll": {"op": "roll", "dice": "2d6", "branches": [{"when": {"roll_double": True}, "do": []},
                                                         {"when": {"roll": {"cmp": ">=", "value": 8}}, "do": []}]},
}


def test_every_op_kind_is_described_as_a_player_reads_it() -> None:
    ops = _pack_ops()
    kinds = {op["op"] for op in ops}
    for name, example in EXAMPLES.items():
        if name not in kinds:
            ops.append(example)
    assert {op["op"] for op in ops} == set(_OP_FIELDS), "every op kind of the schema has an example"
    for op in ops:
        said = card_text.describe_op(op, PACK)
        assert said and said != "an effect of the story", op["op"]
        clean(said.replace(str(op.get("text", "")), "").replace(str(op.get("prompt", "")), "")
              .replace(str(op.get("name", "")), "").replace(str(op.get("label", "")), ""))
    assert card_text.describe_ops([{"op": "gain", "res": "fuel", "n": 2}, {"op": "gain", "res": "uncommon", "n": 1}]) \
        == "+2 fuel, +1 uncommon element"
    assert card_text.describe_op({"op": "lose", "res": "health", "n": 1}) == "lose 1 health"
    assert card_text.describe_op({"op": "draw_discovery", "n": 1}) == "draw 1 discovery card"


def test_every_condition_of_the_pack_reads_as_a_clause() -> None:
    conds: list[dict[str, Any]] = []
    for op in _pack_ops():
        if op["op"] == "if":
            conds.append(op["cond"])
        for o in op.get("options") or []:
            if "if" in o:
                conds.append(o["if"])
        for b in op.get("branches") or []:
            conds.append(b["when"])
    conds += [o["predicate"] for o in PACK.objectives.values()]
    assert conds
    for c in conds:
        said = card_text.describe_condition(c, PACK)
        assert said != "a condition of the story", c
        clean(said)


@settings(max_examples=60, deadline=None)
@given(res=hs.sampled_from(RESOURCES), n=hs.integers(1, 9), gain=hs.booleans())
def test_an_amount_always_names_its_number_and_resource(res: str, n: int, gain: bool) -> None:
    said = card_text.describe_op({"op": "gain" if gain else "lose", "res": res, "n": n})
    assert said.startswith(("+" if gain else "lose ") + str(n) + " ")
    name = card_text.RESOURCE_NAMES[res]
    assert name.split()[0] in said
    assert said.endswith("s") is (n != 1 and name.endswith("element"))


# ---------------------------------------------------------------------------------------------- finding cards
@pytest.mark.parametrize(("name", "title"), [
    ("10", "10 Rymios"), ("p10", "10 Rymios"), ("rymios", "10 Rymios"), ("RYM", "10 Rymios"), ("rahel", "29 RAHEL"),
    ("d3", "D3 Singing Reed"), ("D03", "D3 Singing Reed"), ("singing reed", "D3 Singing Reed"),
    ("t1", "T1 Auxiliary Tank"), ("T05", "T5 Resonance Tuner"), ("tank", "T1 Auxiliary Tank"),
    ("trader", "Itinerant Trader (ENC-09)"), ("enc-03", "Dark Threat (ENC-03)"), ("Black Hole", "Black Hole (ENC-10)"),
])
def test_find_card_is_forgiving(name: str, title: str) -> None:
    assert [c.title for c in card_text.find_card(PACK, name)] == [title]


def test_two_cards_printed_with_one_name_are_both_shown() -> None:
    assert [c.title for c in card_text.find_card(PACK, "asteroids")] == ["Asteroids (ENC-01)", "Asteroids (ENC-02)"]
    assert len(card_text.find_card(PACK, "pir")) == 2


def test_find_card_errors_say_what_was_meant() -> None:
    with pytest.raises(card_text.CardNotFoundError, match="no card called 'rymois'; did you mean Rymios"):
        card_text.find_card(PACK, "rymois")
    with pytest.raises(card_text.CardNotFoundError, match="could be several cards: D11 Star Salt, T4 Star Chart"):
        card_text.find_card(PACK, "star")
    with pytest.raises(card_text.CardNotFoundError, match="which card"):
        card_text.find_card(PACK, "  ")
    with pytest.raises(card_text.CardNotFoundError, match=r"d1\.\.d15, t1\.\.t8"):
        card_text.find_card(PACK, "qqqqqqq")


def test_narratives_and_held_cards_come_from_the_view() -> None:
    nd = {"nd_id": "ND-HERON", "name": "Heron Feather", "cost": {"common": 0, "uncommon": 0, "rare": 2, "any": 0},
          "paid": {"rare": 1}, "waived": {}, "on_complete": "A.10.04", "state": "active", "ref": "n1",
          "text": "A grey feather that hums."}
    view = {"narratives": [nd], "inventory": [{"id": "D01", "paid": {"common": 1}, "waived": {}, "studied": False}]}
    (card,) = card_text.find_card(PACK, "n1", view)
    assert card.title == "N1 Heron Feather" and card.text == "A grey feather that hums."
    lines = dict(card.lines)
    assert lines["Study cost"] == "2 rare elements" and lines["Once studied"] == "read script A.10.04"
    assert lines["Study"] == "paid so far 1/2 rare"
    assert card_text.find_card(PACK, "heron", view) == [card]
    assert dict(card_text.find_card(PACK, "d1", view)[0].lines)["Study"] == "paid so far 1/2 common"
    with pytest.raises(card_text.CardNotFoundError):
        card_text.find_card(PACK, "n1")  # no view: no narrative


def test_cards_on_table_are_the_cards_a_view_shows_and_nothing_for_a_private_spectator() -> None:
    st = start_game(new_campaign(PACK, seed=3))
    view = st.view(0)
    cards = card_text.cards_on_table(PACK, view)
    planets = {k for k in cards if k.startswith("planet:")}
    assert planets == {f"planet:{s['planet']}" for s in view["slots"]}
    assert {k for k in cards if k.startswith("item:")} == {f"item:{i}" for i in PACK.item_order}
    assert not any(k.startswith("discovery:") for k in cards)  # nothing drawn yet: no deck card is told
    json.dumps(cards)
    assert card_text.cards_on_table(PACK, {"private": True, "game_number": 1, "phase": "AREA"}) == {}


# ---------------------------------------------------------------------------------------------- terminals
def test_the_area_table_shows_arrows_and_an_explored_planets_description() -> None:
    st = start_game(new_campaign(PACK, seed=3))
    view = st.view(0)
    out = text_of(terminal.area_table(view))
    for s in view["slots"]:
        planet = PACK.planets[s["planet"]]
        assert f"▷ {terminal.arrow_summary(planet.white)}" in out and f"▶ {terminal.arrow_summary(planet.black)}" in out
        assert planet.description[:30] not in out  # not explored yet
    assert terminal.arrow_summary(PACK.planets[10].black) == "+1 U −1 SUIT"
    slot = int(next(a for a in st.legal_actions() if a.verb == "explore").args[0])
    st.apply(f"explore {slot}")
    after = st.view(0)
    explored = PACK.planets[after["slots"][slot]["planet"]]
    assert " ".join(explored.description.split()[:5]) in " ".join(text_of(terminal.render(after)).split())


def test_card_in_holotable_play_kyrum() -> None:
    from typer.testing import CliRunner

    from holotable.cli import app

    done = CliRunner().invoke(app, ["play", "kyrum", "--seed", "3"], input="card 10\ncard asteroids\ncard zz\n"
                              "help\nquit\n")
    assert done.exit_code == 0, done.output
    out = done.output
    assert "Planet · 10 Rymios" in out and "white die higher: +2 common elements" in out
    assert PACK.planets[10].description in " ".join(out.split())
    assert "Encounter · Asteroids (ENC-01)" in out and "Encounter · Asteroids (ENC-02)" in out
    assert "✗ no card called 'zz'" in out
    assert "card NAME" in out  # the help lists the game's own command
    assert "cannot read" not in out  # 'card' never reached the action parser
    changed = CliRunner().invoke(app, ["play", "kyrum", "--seed", "3", "--set", "planets.10.white.0.n=5"],
                                 input="card 10\nquit\n")
    assert "white die higher: +5 common elements" in changed.output  # the table's own pack, as the rules read it


def test_card_in_the_campaign_terminal(tmp_path: Any) -> None:
    from test_kyr_cli_campaign import run

    db = tmp_path / "k.sqlite3"
    run(db, "new", "ada", "--seed", "3")
    played = run(db, "continue", input="card rymios\ncard t4\ncard nope\nhelp\nconcede\ny\n" + "1\n" * 12 +
                 "card d1\nquit\n")
    assert played.exit_code == 0, played.output
    out = played.output
    assert "Planet · 10 Rymios" in out and "black die higher: +1 uncommon element" in out
    assert "Thoth item · T4 Star Chart" in out and "your next exploration costs 2 fuel less" in out
    assert "✗ no card called 'nope'" in out
    assert "card NAME" in out
    assert "Game 1 is over" in out and "Discovery · D1 Glasswort Bloom" in out  # between games too


# ---------------------------------------------------------------------------------------------- the two fixes
def test_a_question_keeps_its_y_n_through_the_real_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prompt is plain text: rich markup read ``[y/N]`` as a style tag and dropped it."""
    from holotable.cli.common import LineReader

    buf = io.StringIO()
    console = Console(file=buf, width=100, color_system=None)
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    assert LineReader(console, interactive=False).ask("Concede? [y/N] ") == "y"
    assert "Concede? [y/N] y" in buf.getvalue()
    typed = iter(["n"])
    monkeypatch.setattr("builtins.input", lambda *a: next(typed))
    assert LineReader(console, interactive=True).ask("Leave anyway? [y/N] [bold]x[/] ") == "n"
    assert "Leave anyway? [y/N] [bold]x[/] " in buf.getvalue()


def test_the_campaign_concede_question_shows_y_n(tmp_path: Any) -> None:
    from test_kyr_cli_campaign import run

    db = tmp_path / "k.sqlite3"
    run(db, "new", "ada", "--seed", "3")
    asked = run(db, "continue", input="concede\nn\nquit\n")
    assert "Conceding ends this game as a defeat. Concede? [y/N] n" in asked.output


def _state_waiting_for(kind: str, need: Any) -> Any:
    for seed in range(300):
        st = start_game(new_campaign(PACK, seed=seed))
        rng = random.Random(seed)
        while not st.is_terminal():
            dec = st.data.decision
            if dec is not None and dec.kind == kind and need(st):
                return st
            st.apply(rng.choice([a for a in st.legal_actions() if a.verb not in ("concede", "send")]))
    raise AssertionError(f"no {kind} decision found")


def test_KYR_TLDP_02_crafting_during_a_choice_gives_the_true_reason() -> None:
    """During a script's choice only fuel crafts are allowed: the refusal says so (not 'not enough uncommon
    elements' while some are held), and the rule ID is the error's detail, not part of its reason."""
    st = _state_waiting_for("choice", lambda s: s.data.elements["uncommon"] >= 1 and not s.data.decision.eog)
    held = st.data.elements["uncommon"]
    with pytest.raises(IllegalActionError) as refused:
        st.game.check(st, 0, parse("craft uncommon suit"))
    reason = refused.value.reason
    assert "only fuel can be crafted" in reason and "not enough" not in reason and f"({held} held)" not in reason
    assert refused.value.rule == "KYR-TLDP-02" and "KYR-" not in reason
    st.game.check(st, 0, parse("craft uncommon fuel"))  # the fuel craft is allowed
    with pytest.raises(IllegalActionError) as waiting:
        st.game.check(st, 0, parse("explore 0"))
    assert "waits until the script's choice is made" in waiting.value.reason and "KYR-" not in waiting.value.reason


def test_crafting_during_an_offer_waits_and_a_missing_element_is_named() -> None:
    st = _state_waiting_for("offer", lambda s: s.data.elements["common"] >= 1)
    with pytest.raises(IllegalActionError) as refused:
        st.game.check(st, 0, parse("craft common fuel"))
    assert refused.value.reason.endswith("crafting waits until the offered script is read or refused")
    free = start_game(new_campaign(PACK, seed=3))
    assert free.data.elements["rare"] == 0
    with pytest.raises(IllegalActionError) as none_held:
        free.game.check(free, 0, parse("craft rare fuel"))
    assert "crafting takes 1 rare element and you hold none" in none_held.value.reason


def test_area_table_reads_the_arrows_of_the_tables_own_pack_data_overrides_included() -> None:
    """The area's arrows come from the view (the table's pack), not the shipped files: a designer's
    `--set planets.N.white.0.n=5` shows on the screen the player plays."""
    from holotable import load
    from holotable.engine import State

    game = load("kyrum")
    k, colour, gained = next((k, colour, i) for k, slot in enumerate(game.new_state(1, seed=3).view(0)["slots"])
                             for colour in ("white", "black") for i, op in enumerate(slot[colour])
                             if op["op"] == "gain" and op["n"] != 5)
    planet = game.new_state(1, seed=3).view(0)["slots"][k]["planet"]
    changed = State.new(game, game.spec.make_config(data={f"planets.{planet}.{colour}.{gained}.n": 5}), 3)
    view = changed.view(0)
    assert view["slots"][k][colour][gained]["n"] == 5
    console = Console(record=True, width=160, color_system=None)
    console.print(terminal.area_table(view))
    assert "+5" in console.export_text()
