"""Every text reaches the player (issue 18): each script of the demo pack, read the way the game reads it,
is in the view's pages and on the terminal screen, in reading order, with what it did.

KYR-SCRIPT-02 (reading a script displays its text), KYR-ENC-03/04 (a danger card's check shown), KYR-ENC-09
(every partner message heard), KYR-END-04 (the end-of-game script), KYR-SETUP-08 (the first area's encounter).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_
from kyr_helpers import GAME, KState, fresh, play, slots, texts
from rich.console import Console

from holotable.cli.render import render_view
from holotable.games.kyrum import terminal
from holotable.games.kyrum.campaign import new_campaign
from holotable.games.kyrum.pack import load_pack
from holotable.games.kyrum.state import saved_story

DEMO = "kyrum-demo"
PACK = load_pack(DEMO)
#: Planets with no alert on their back (a deck top that brings no encounter), and with one.
QUIET = [p for p, rec in sorted(PACK.planets.items()) if not rec.back_alert]
ALERTS = [p for p, rec in sorted(PACK.planets.items()) if rec.back_alert]
BLACK_HOLE = next(e for e, rec in PACK.encounters.items() if rec.kind == "black_hole")


def screen(view: dict[str, Any]) -> str:
    """The terminal's picture of ``view`` as one line of words (panel borders and wrapping removed)."""
    console = Console(record=True, width=110, color_system=None)
    console.print(render_view(view))
    return words(console.export_text())


def words(text: str) -> str:
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def prose(code: str) -> str:
    """A script's text as the player reads it: glossary links as their labels."""
    return words(terminal.script_text(PACK.scripts[code]["text"]).plain)


def assert_shown(st: KState, code: str) -> dict[str, Any]:
    """``code`` was read just now: a new page of the view with the script's own text, and on the screen."""
    view = st.view(0)
    page = next((p for p in view["pages"] if p["code"] == code and p["new"]), None)
    assert page is not None, f"{code} is not among the new pages {[p['code'] for p in view['pages']]}"
    assert page["text"] == PACK.scripts[code]["text"] and page["kind"] == PACK.scripts[code]["kind"]
    assert page in [{**p, "new": page["new"]} for p in view["story"]]
    out = screen(view)
    assert prose(code) in out, code
    assert "[[" not in out
    return page


def game_at(number: int, *, partner: bool = False, seed: int = 0) -> KState:
    """Game ``number`` of a fresh demo campaign, its set-up stopped at a TLDP."""
    camp = new_campaign(PACK, seed=seed, partner=partner)
    camp.next_game = number
    return fresh(seed, pack=DEMO, campaign=camp.to_json())


def explore_double(planet: int, double: int, *, flags: dict[str, int] | None = None, game: int = 1,
                   **more: Any) -> KState:
    """``planet`` in slot 0 explored with a double of ``double``, the script read."""
    st = game_at(game)
    others = [p for p in QUIET if p != planet]
    st.arrange({"slots": slots(planet, *others[:3]), "gauges": {"fuel": 10, "suit": 6},
                "dice": [double, double], "planet_deck_top_first": others[3:],
                **({"flags": flags} if flags is not None else {}), **more})
    play(st, "explore 0")
    if st.data.decision is not None and st.data.decision.kind == "item_timing":
        play(st, "skip")
    assert st.data.decision is not None and st.data.decision.kind == "offer"
    play(st, "read")
    return st


def main_reads() -> Iterator[tuple[int, int, str]]:
    for number, planet in sorted(PACK.planets.items()):
        for double in range(1, 7):
            code = planet.double_script or f"A.{number:02d}.{2 * double:02d}"
            if code in PACK.scripts and (planet.double_script is None or double == 1):
                yield number, double, code


MAIN_READS = list(main_reads())


def test_every_main_script_is_reached_by_the_test() -> None:
    assert sorted(code for *_, code in MAIN_READS) == sorted(PACK.main_codes())


@pytest.mark.parametrize(("planet", "double", "code"), MAIN_READS, ids=[c for *_, c in MAIN_READS])
def test_every_main_script_is_shown_when_read(planet: int, double: int, code: str) -> None:
    """KYR-SCRIPT-02: the text of each main script, then what it says, on the screen as it is read."""
    st = explore_double(planet, double)
    page = assert_shown(st, code)
    out = screen(st.view(0))
    for said in page["says"]:
        assert words(terminal.script_text(said).plain) in out


def chains() -> list[tuple[str, str, dict[str, int], int]]:
    """(main, secondary, flags, game) of each main script that reads a secondary under a condition on
    flags and the game number (the demo pack's shape), with the flags and game that meet it."""
    out = []
    for code, rec in sorted(PACK.scripts.items()):
        for op in rec["effects"]:
            reads = [o["code"] for o in op.get("then", []) if o.get("op") == "read"] if op.get("op") == "if" else []
            if not reads:
                continue
            flags, game = {}, 1
            for cond in op["cond"].get("all", [op["cond"]]):
                if "flag" in cond:
                    flags[cond["flag"]] = int(cond["value"])
                elif "game" in cond:
                    game = int(cond["game"]["value"])
            out.append((code, reads[0], flags, game))
    return out


CHAINS = chains()


def test_the_ten_chained_main_scripts_are_all_tested() -> None:
    assert sorted(c[0] for c in CHAINS) == ["A.10.04", "A.11.12", "A.14.02", "A.15.08", "A.17.08", "A.19.04",
                                            "A.23.10", "A.24.04", "A.26.12", "A.28.12"]


@pytest.mark.parametrize(("main", "secondary", "flags", "game"), CHAINS, ids=[c[0] for c in CHAINS])
def test_a_chained_main_and_its_secondary_are_both_shown_in_order(main: str, secondary: str,
                                                                  flags: dict[str, int], game: int) -> None:
    """Both texts, the main script first; the main's own effects stay on its page."""
    number, double = int(main[2:4]), int(main[5:7]) // 2
    st = explore_double(number, double, flags=flags, game=game)
    assert_shown(st, main)
    while st.data.decision is not None and st.data.decision.kind == "choice":  # the chain may follow a choice
        play(st, next(t for t in texts(st) if t.startswith("option")))
    assert_shown(st, secondary)
    codes = [p["code"] for p in st.view(0)["pages"]]
    assert codes.index(main) < codes.index(secondary)
    out = screen(st.view(0))
    assert out.index(prose(main)) < out.index(prose(secondary))
    main_page = next(p for p in st.view(0)["pages"] if p["code"] == main)
    assert any(line.startswith("+1 knowledge") or "story mark" in line for line in main_page["effects"])


def test_every_secondary_script_is_read_by_a_chain() -> None:
    secondaries = {c for c, rec in PACK.scripts.items() if rec["kind"] == "secondary"}
    assert secondaries <= {c[1] for c in CHAINS}


def narrative_record(code: str) -> dict[str, Any]:
    zero = {"common": 0, "uncommon": 0, "rare": 0, "any": 0}
    return {"nd_id": f"nd-{code}", "name": f"Trail to {code}", "cost": {**zero, "common": 1}, "paid": dict(zero),
            "waived": dict(zero), "on_complete": code, "keep_after_study": False, "state": "active", "text": ""}


NARRATIVES = sorted(c for c, rec in PACK.scripts.items() if rec["kind"] == "narrative")


@pytest.mark.parametrize("code", NARRATIVES)
def test_every_narrative_script_is_shown_when_its_discovery_is_studied(code: str) -> None:
    st = game_at(1)
    st.arrange({"narratives": [narrative_record(code)], "elements": {"common": 1}})
    play(st, "study n1 common 1")
    assert_shown(st, code)


def end_scripts() -> list[tuple[int, str]]:
    return [(int(g["game"]), str(g["end_script"])) for g in PACK.schedule["games"] if g.get("end_script")]


@pytest.mark.parametrize(("game", "code"), end_scripts(), ids=[c for _, c in end_scripts()])
def test_every_end_of_game_script_is_shown_at_the_market_and_after_the_game(game: int, code: str) -> None:
    """KYR-END-04: the end-of-game script is read after the result, still there at the market and once
    the game is over (the market no longer clears it)."""
    st = game_at(game)
    play(st, "concede")
    assert_shown(st, code)
    while st.data.decision is not None and st.data.decision.kind == "choice":
        play(st, texts(st)[0])
    assert st.data.decision is not None and st.data.decision.kind == "market"
    view = st.view(0)
    assert code in [p["code"] for p in view["pages"]] and prose(code) in screen(view)
    play(st, "close")
    assert st.is_terminal()
    assert code in [p["code"] for p in st.view(0)["pages"]]
    assert code in [p["code"] for p in st.view(0)["story"]]


def epilogues() -> list[tuple[int, str, int, str]]:
    """(game, end script, option, epilogue) of each end-of-game choice whose option reads another script."""
    out = []
    for game, code in end_scripts():
        for op in PACK.scripts[code]["effects"]:
            for i, option in enumerate(op.get("options", []) if op.get("op") == "choice" else [], start=1):
                out += [(game, code, i, o["code"]) for o in option["do"] if o.get("op") == "read"]
    return out


@pytest.mark.parametrize(("game", "end", "option", "code"), epilogues(), ids=[e[3] for e in epilogues()])
def test_every_epilogue_is_shown_after_the_finale_choice(game: int, end: str, option: int, code: str) -> None:
    st = game_at(game)
    play(st, "concede")
    assert_shown(st, end)
    play(st, f"option {option}")
    page = assert_shown(st, code)
    view = st.view(0)
    finale = next(p for p in view["pages"] if p["code"] == end)
    assert finale["new"], "the finale page changed (the choice, its last lines): shown again"
    assert any(line.startswith("you chose") for line in finale["effects"])
    assert [p["code"] for p in view["pages"]].index(end) < [p["code"] for p in view["pages"]].index(code)
    assert page["kind"] == "end_of_game"


def test_every_script_of_the_pack_is_covered_by_a_reading_test() -> None:
    """No script is left out: main (by exploration), secondary (by a chain), narrative (by study),
    end-of-game and epilogues (by the game's end), the Black Hole (by its encounter)."""
    covered = {c for *_, c in MAIN_READS} | {c[1] for c in CHAINS} | set(NARRATIVES)
    covered |= {c for _, c in end_scripts()} | {e[3] for e in epilogues()} | {PACK.rules["black_hole_script"]}
    assert covered == set(PACK.scripts)


#: Leaving this area reveals four planets with the alert planet's back on top of the deck: an encounter.
ENCOUNTER_NEXT = {"slots": slots(*ALERTS[:4]), "planet_deck_top_first": [*QUIET[:4], ALERTS[4], *QUIET[4:]]}


def black_hole_game(partner_log: list[dict[str, Any]], number: int = 1) -> KState:
    """Game ``number`` of a partner campaign whose next area brings the Black Hole (at its partner prompt)."""
    camp = new_campaign(PACK, seed=0, partner=True)
    camp.next_game = number
    camp.partner_log = partner_log
    st = fresh(0, pack=DEMO, campaign=camp.to_json())
    st.arrange({**ENCOUNTER_NEXT, "encounter_deck_top_first": [BLACK_HOLE], "gauges": {"fuel": 10}})
    play(st, "leave")
    return st


def test_black_hole_script_and_every_partner_message_are_shown_in_order() -> None:
    """KYR-ENC-09: every message received is heard at the Black Hole, oldest first, the ones not heard
    before marked new (not only the latest); the log keeps what was sent."""
    log = [{"game": 1, "sent": None, "received": "first: the Heron is the ship", "from": "ada", "partner_game": 1},
           {"game": 1, "sent": "RAHEL lies", "received": None},
           {"game": 2, "sent": None, "received": "second: Ilune was here", "from": "ada", "partner_game": 3}]
    st = black_hole_game(log)
    assert st.data.decision is not None and st.data.decision.kind == "partner"
    assert_shown(st, PACK.rules["black_hole_script"])
    view = st.view(0)
    heard = [m for m in view["partner_log"] if m["direction"] == "received"]
    assert [m["text"] for m in heard] == ["first: the Heron is the ship", "second: Ilune was here"]
    assert all(m["new"] for m in heard)
    assert [m["text"] for m in view["partner_log"] if m["direction"] == "sent"] == ["RAHEL lies"]
    out = screen(view)
    assert out.index("first: the Heron is the ship") < out.index("second: Ilune was here")
    assert "NEW from ada" in out
    card = next(p for p in view["pages"] if p["kind"] == "encounter")
    assert card["code"] == BLACK_HOLE
    play(st, "send The Mouth remembers")
    page = next(p for p in st.view(0)["pages"] if p["code"] == PACK.rules["black_hole_script"])
    assert "message sent to your partner: “The Mouth remembers”" in page["effects"]
    assert "+1 knowledge (" in " ".join(page["effects"])
    logged = terminal.partner_log_text(st.view(0))
    console = Console(record=True, width=110, color_system=None)
    console.print(logged)
    told = words(console.export_text())
    assert told.count("from ada") == 2 and told.endswith("you sent (game 1): The Mouth remembers")


def test_partner_messages_not_heard_in_a_game_are_heard_at_the_next_black_hole() -> None:
    """A message heard in an earlier game is in the log, not new; one never heard is new now."""
    log = [{"game": 1, "sent": None, "received": "old news", "from": "ada", "partner_game": 1, "heard_in": 1},
           {"game": 2, "sent": None, "received": "fresh news", "from": "ada", "partner_game": 2}]
    st = black_hole_game(log, number=2)
    heard = {m["text"]: m["new"] for m in st.view(0)["partner_log"] if m["direction"] == "received"}
    assert heard == {"old news": False, "fresh news": True}


def test_partner_log_before_the_black_hole_holds_no_message_not_heard_yet() -> None:
    camp = new_campaign(PACK, seed=0, partner=True)
    camp.partner_log = [{"game": 1, "sent": None, "received": "not yet", "from": "ada", "partner_game": 1}]
    st = fresh(0, pack=DEMO, campaign=camp.to_json())
    assert st.view(0)["partner_log"] == []


def test_setup_encounter_is_the_first_page_shown() -> None:
    """KYR-SETUP-08, KYR-AREA-02: an encounter met when the first area is revealed (during set-up) is on the
    first screen: its card, dice, check and effects."""
    found = 0
    for seed in range(60):
        st = GAME.new_state(1, seed=seed)
        if not st.data.story:
            continue
        view = st.view(0)
        page = view["pages"][0]
        assert page["kind"] == "encounter" and page["new"] and page["title"] in screen(view)
        if page["check"] is not None:
            assert terminal.check_line(page["check"]) in screen(view)
        found += 1
    assert found >= 5


@pytest.mark.parametrize(("dice", "suit", "result"), [((2, 5), 4, "failed"), ((2, 5), 5, "passed"),
                                                      ((3, 3), 1, "cancelled")])
def test_danger_check_shows_gauge_dice_and_threshold(dice: tuple[int, int], suit: int, result: str) -> None:
    """KYR-ENC-03/04: the card, both dice, the arrow, the gauge checked with its value and threshold, and the
    outcome; a double says it cancelled the card."""
    danger = next(e for e, rec in PACK.encounters.items()
                  if rec.kind == "danger" and (rec.black or {}).get("check", {}).get("res") == "suit"
                  and rec.black["check"]["lt"] == 5)
    st = fresh(0, pack=DEMO)
    st.arrange({**ENCOUNTER_NEXT, "encounter_deck_top_first": [danger], "gauges": {"suit": suit},
                "dice": [*dice, 1, 1, 1, 1]})
    play(st, "leave")
    view = st.view(0)
    page = next(p for p in view["pages"] if p["code"] == danger)
    check = page["check"]
    assert (check["white"], check["black"], check["result"]) == (*dice, result)
    out = screen(view)
    assert f"dice white {dice[0]}, black {dice[1]}" in out
    if result == "cancelled":
        assert "a double, the encounter is cancelled" in out
    else:
        assert (check["arrow"], check["gauge"], check["value"], check["threshold"]) == ("black", "suit", suit, 5)
        assert f"check spacesuit {suit}, at least 5 needed: {result}" in out
        assert bool(page["effects"]) is (result == "failed")


def test_story_command_lists_every_page_of_the_game_in_order() -> None:
    st = explore_double(10, 4)
    while st.data.decision is not None:
        play(st, texts(st)[0])
    play(st, "leave")
    first = [p["code"] for p in st.view(0)["story"]]
    assert "A.10.08" in first and "A.10.08" not in [p["code"] for p in st.view(0)["pages"]]
    answer = terminal.story_command(st, 0, "")
    console = Console(record=True, width=110, color_system=None)
    console.print(answer)
    assert prose("A.10.08") in words(console.export_text())


def test_no_page_of_a_script_not_read_and_spectators_of_a_private_game_see_nothing() -> None:
    """Secrets: the view's pages are scripts read in this game; an unread script's text is never in it."""
    rng = random.Random(5)
    openings = {code: rec["text"][:60] for code, rec in PACK.scripts.items()}
    st = GAME.new_state(1, seed=4, private=True)
    for _ in range(400):
        if st.is_terminal():
            break
        view = st.view(0)
        seen = set(st.data.camp["scripts_seen"])
        assert {p["code"] for p in view["story"] if p["kind"] != "encounter"} <= seen
        blob = repr(view)
        assert not [c for c, head in openings.items() if c not in seen and head in blob]
        spectator = st.view(None)
        assert spectator["private"] is True and not {"pages", "story", "reading", "partner_log"} & set(spectator)
        legal = [a for a in st.legal_actions(0) if a.verb not in ("concede", "leave")] or st.legal_actions(0)
        st.apply(rng.choice(legal))


def test_old_saved_data_with_a_reading_page_still_loads_as_a_story() -> None:
    old = {"reading": {"code": "A.10.08", "title": "t", "text": "x", "says": ["s"]}}
    story, turn, shown = saved_story(old)
    assert [(p.code, p.says) for p in story] == [("A.10.08", ("s",))] and (turn, shown) == (0, 1)
    st = explore_double(10, 4)
    saved = st.full()["data"]
    assert saved_story(saved)[0] == st.data.story
    assert saved_story({"reading": None}) == ((), 0, 0)


def test_copies_share_the_pages_and_stay_independent() -> None:
    st = explore_double(10, 4)
    clone = st.data.copy()
    assert clone.story is st.data.story
    play(st, texts(st)[0])
    assert clone.story != st.data.story or clone.story_changed != st.data.story_changed


def test_a_page_shown_before_is_named_once_then_shown_again_when_it_changes() -> None:
    """Crafting during a script's choice: the page was shown, the screen names it in one line; choosing an
    option changes it (the choice, its effects), so it is shown in full again with them."""
    st = explore_double(10, 4, elements={"common": 1})
    assert st.data.decision is not None and st.data.decision.kind == "choice"
    play(st, "craft common fuel")
    view = st.view(0)
    assert [p["new"] for p in view["pages"]] == [False]
    out = screen(view)
    assert "(read above: Script A.10.08 · " in out and prose("A.10.08") not in out
    play(st, next(t for t in texts(st) if t.startswith("option")))
    view = st.view(0)
    page = view["pages"][0]
    assert page["new"] and page["effects"][-1] != "" and any(e.startswith("you chose") for e in page["effects"])
    assert prose("A.10.08") in screen(view)


@settings(max_examples=12, deadline=None)
@given(seed=st_.integers(0, 10**6), policy=st_.integers(0, 10**6))
def test_the_story_only_grows_and_pages_are_its_latest_part(seed: int, policy: int) -> None:
    """Invariants over random games: a page once written keeps its place, kind, code, title and text (only
    says and effects are added); ``pages`` is the end of ``story``; a page is new exactly when written or
    changed since the last action; every script page is of a script read in this campaign."""
    rng = random.Random(policy)
    st = GAME.new_state(1, seed=seed, partner=True)
    before: list[dict[str, Any]] = []
    for _ in range(150):
        view = st.view(0)
        story = view["story"]
        fixed = [(p["kind"], p["code"], p["title"], p["text"]) for p in story]
        assert fixed[: len(before)] == [(p["kind"], p["code"], p["title"], p["text"]) for p in before]
        for old, now in zip(before, story, strict=False):
            assert now["says"][: len(old["says"])] == old["says"] and now["effects"][: len(old["effects"])] == \
                old["effects"]
        pages = view["pages"]
        assert [{k: v for k, v in p.items() if k != "new"} for p in pages] == story[len(story) - len(pages):]
        for i, p in enumerate(pages, start=len(story) - len(pages)):
            assert p["new"] is (i >= len(before) or story[i] != before[i])
        assert {p["code"] for p in story if p["kind"] != "encounter"} <= set(st.data.camp["scripts_seen"])
        if st.is_terminal():
            break
        before = story
        legal = [a for a in st.legal_actions(0) if a.verb != "concede"] or st.legal_actions(0)
        action = rng.choice(legal)
        st.apply("send hello" if action.verb == "send" else action)
