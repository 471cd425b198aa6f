"""The Black Hole partner: linked campaigns in one database, offline codes, the shared questionnaire score.

KYR-ENC-09, KYR-SETUP-04, KYR-CAMPAIGN-07, KYR-CAMPAIGN-08, KYR-CAMPAIGN-09, KYR-COMP-05; assumed:KYR-AMB-19,
assumed:KYR-AMB-46.
"""

from __future__ import annotations

import base64
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kyr_store_helpers import play_game, waiting_for

from holotable.games.kyrum import partner
from holotable.games.kyrum.campaign import CampaignState
from holotable.games.kyrum.pack import load_pack
from holotable.games.kyrum.partner import CodeError
from holotable.games.kyrum.store import Campaign, KyrumStore, StoreError

PACK = load_pack("kyrum-demo")


def to_black_hole(camp: Campaign, rng: random.Random, games: int = 12) -> None:
    """Play until the Black Hole script asks for the partner message (KYR-ENC-09)."""
    for _ in range(games):
        play_game(camp, rng, stop=waiting_for("partner"))
        if camp.match is not None:
            return
    raise AssertionError("no Black Hole encounter in the games played")


def revision(db: Path, name: str) -> tuple[int, int]:
    with sqlite3.connect(db) as conn:
        rev = conn.execute("SELECT revision FROM campaigns WHERE name = ?", (name,)).fetchone()[0]
        msgs = conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    return int(rev), int(msgs)


def test_black_hole_card_only_with_a_partner(tmp_path: Path) -> None:
    """KYR-SETUP-04, KYR-COMP-05, KYR-CAMPAIGN-09: the deck has 10 encounter cards in partner mode, 9 without
    (the Black Hole is removed, as the rulebook says), for every game of the campaign."""
    with KyrumStore(tmp_path / "k.sqlite3") as store:
        for name, with_partner, size in (("solo", False, 9), ("duo", True, 10)):
            camp = store.create(name, seed=3, partner=with_partner)
            for _ in range(2):
                camp.start_game()
                assert camp.match is not None
                d = camp.match.state.data
                cards = [*d.encounter_deck, *d.encounter_removed, *filter(None, [d.encounter_in_play])]
                assert len(cards) == size
                assert any(PACK.encounters[e].kind == "black_hole" for e in cards) is with_partner
                camp.play("concede")
                play_game(camp, random.Random(1))


def test_partner_message_through_the_shared_database(tmp_path: Path) -> None:
    """KYR-ENC-09, assumed:KYR-AMB-19: the Black Hole script's message reaches the linked campaign in the
    same transaction as the action; the partner hears it at its own next Black Hole."""
    db = tmp_path / "k.sqlite3"
    with KyrumStore(db) as store:
        ada = store.create("ada", seed=21, partner=True)
        bob = store.create("bob", seed=22, partner=True)
        store.link("ada", "bob")
        ada = store.open("ada")
        to_black_hole(ada, random.Random(4))
        assert ada.match is not None
        view = ada.match.state.view(0)
        assert view["decision"] == {"kind": "partner", "prompt": "Share one thing you have learned about Jaakub.",
                                    "received": None}
        assert view["reading"]["code"] == "A.53.11"
        sent_in = ada.match.state.data.game
        ada.play("send The Heron is the ship's name; RAHEL is a machine.")
        with KyrumStore(db) as other:  # another connection: already delivered
            inbox = other.open("bob").messages("in")
        assert [(m.sender, m.game, m.text, m.used_in_game) for m in inbox] == [
            ("ada", sent_in, "The Heron is the ship's name; RAHEL is a machine.", None)]
        assert [m.text for m in ada.messages("out")] == ["The Heron is the ship's name; RAHEL is a machine."]
        bob = store.open("bob")
        to_black_hole(bob, random.Random(8))
        assert bob.match is not None
        assert bob.match.state.view(0)["decision"]["received"] == "The Heron is the ship's name; RAHEL is a machine."
        log = bob.match.state.data.camp["partner_log"]
        assert {"game": 1, "sent": None, "received": "The Heron is the ship's name; RAHEL is a machine.",
                "from": "ada", "partner_game": sent_in,
                "heard_in": bob.match.state.data.game} in log  # heard at bob's Black Hole, maybe games later
        assert [m.used_in_game for m in bob.messages("in")] == [1]
        bob.play("send")  # an empty answer is allowed and sends nothing
        assert ada.reload().messages("in") == []


def test_partner_message_by_code_between_two_databases(tmp_path: Path) -> None:
    """KYR-ENC-09, assumed:KYR-AMB-19: offline partners swap a checksummed code; importing it twice, into
    the wrong campaign, or into the campaign that wrote it is refused and changes nothing."""
    with KyrumStore(tmp_path / "ada.sqlite3") as mine, KyrumStore(tmp_path / "bob.sqlite3") as theirs:
        ada = mine.create("ada", seed=31, partner=True)
        with pytest.raises(StoreError, match="no Black Hole message has been written yet"):
            ada.export_code()
        to_black_hole(ada, random.Random(5))
        ada.play("send Selaine taught him the charts.")
        code = ada.export_code()
        assert code.startswith("KYR1-") and len(code) < 200
        with pytest.raises(StoreError, match="written by this very campaign"):
            ada.import_code(code)
        bob = theirs.create("bob", seed=32, partner=True)
        solo = theirs.create("solo", seed=33)
        with pytest.raises(StoreError, match="created without a Black Hole partner"):
            solo.import_code(code)
        msg = bob.import_code(code.lower().replace("-", " "))  # forgiving about case and spacing
        assert (msg.kind, msg.sender, msg.text) == ("message", "ada", "Selaine taught him the charts.")
        with pytest.raises(StoreError, match="already been received"):
            bob.import_code(code)
        bob.start_game()
        assert bob.match is not None
        assert bob.match.state.data.camp["partner_log"][-1]["received"] == "Selaine taught him the charts."


def test_the_same_message_linked_and_by_code_is_received_once(tmp_path: Path) -> None:
    """assumed:KYR-AMB-19: a transmission has one identity, however it arrives."""
    with KyrumStore(tmp_path / "k.sqlite3") as store:
        store.create("ada", seed=21, partner=True)
        store.create("bob", seed=22, partner=True)
        store.link("ada", "bob")
        ada = store.open("ada")
        to_black_hole(ada, random.Random(4))
        ada.play("send hello")
        with pytest.raises(StoreError, match="already been received"):
            store.open("bob").import_code(ada.export_code())


def flip(code: str, at: int) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    ch = code[at]
    return code[:at] + letters[(letters.index(ch) + 1) % 32] + code[at + 1:]


def test_tampered_or_broken_codes_are_refused_and_change_nothing(tmp_path: Path) -> None:
    """assumed:KYR-AMB-19: a changed letter, a cut, a stray character or a foreign pack: a clear error, and
    the receiving campaign is exactly as before."""
    db = tmp_path / "k.sqlite3"
    body = partner.payload("kyrum-demo", "ada", "feedbeef", 4, "message", "The tide-priests call it the Mouth.", None)
    good = partner.encode(body)
    with KyrumStore(db) as store:
        bob = store.create("bob", seed=2, partner=True)
        before = revision(db, "bob")
        middle = len(good) // 2 if good[len(good) // 2] != "-" else len(good) // 2 + 1
        bad_codes = {
            flip(good, middle): "checksum does not match",
            flip(good, len(good) - 2): "checksum does not match",
            good[:-6]: "checksum does not match",
            good[:12] + "1" + good[13:]: "cannot be part of it",
            "KYR2" + good[4:]: "not a Kyrum partner code",
            "": "not a Kyrum partner code",
            partner.encode({**body, "pack": "other-pack"}): "code is for pack 'other-pack'",
            partner.encode({**body, "kind": "score", "text": "", "score": 51}): "score 51 is out of range",
        }
        for code, message in bad_codes.items():
            with pytest.raises((CodeError, StoreError), match=message):
                bob.import_code(code)
            assert revision(db, "bob") == before
        assert store.open("bob").messages() == []
        assert bob.import_code(good).text == "The tide-priests call it the Mouth."


def forged(fields: Any) -> str:
    """A code whose checksum is right but whose content is not a transmission."""
    raw = b"\x00" + json.dumps(fields).encode()
    text = base64.b32encode(raw + partner._checksum(raw)).decode().rstrip("=")
    return "KYR1-" + text


@pytest.mark.parametrize(("fields", "message"), [
    ({"v": 1}, "content is unreadable"),
    ([2, "kyrum-demo", "ada", "u", 1, "message", "hi", None], "version 2"),
    ([1, "kyrum-demo", "ada", "u", 0, "message", "hi", None], "game number must be a positive integer"),
    ([1, "kyrum-demo", "ada", "u", 1, "gift", "hi", None], "kind must be one of"),
    ([1, "kyrum-demo", "ada", "u", 1, "message", "x" * 501, None], "at most 500 characters"),
    ([1, "kyrum-demo", "ada", "u", 1, "message", "", None], "carries a text and no score"),
    ([1, "kyrum-demo", "", "u", 1, "message", "hi", None], "'from' must be a short non-empty text"),
])
def test_codes_with_a_valid_checksum_but_bad_content_are_refused(fields: Any, message: str) -> None:
    with pytest.raises(CodeError, match=message):
        partner.decode(forged(fields))


def test_partner_mode_is_fixed_and_links_are_checked(tmp_path: Path) -> None:
    """KYR-CAMPAIGN-09: partner mode is chosen once, at creation; only partner campaigns of the same pack
    can be linked, one partner each; a solo campaign has no codes to give."""
    with KyrumStore(tmp_path / "k.sqlite3") as store:
        store.create("ada", seed=1, partner=True)
        store.create("bob", seed=2, partner=True)
        solo = store.create("solo", seed=3)
        with pytest.raises(StoreError, match="created without a Black Hole partner"):
            store.link("ada", "solo")
        with pytest.raises(StoreError, match="its own Black Hole partner"):
            store.link("ada", "ada")
        store.link("ada", "bob")
        store.create("cyd", seed=4, partner=True)
        with pytest.raises(StoreError, match="'ada' already has a Black Hole partner"):
            store.link("cyd", "ada")
        assert store.open("ada").partner_name == "bob" and store.open("bob").partner_name == "ada"
        with pytest.raises(StoreError, match="no Black Hole partner"):
            solo.export_code()
        named = store.create("eve", seed=5, partner=True, partner_name="Marta")
        assert named.partner_name == "Marta"


def complete(db: Path, name: str) -> None:
    """Arrange a stored campaign whose 30 games are all played (the questionnaire's precondition)."""
    with sqlite3.connect(db) as conn:
        state = CampaignState.from_json(conn.execute("SELECT state FROM campaigns WHERE name = ?",
                                                     (name,)).fetchone()[0])
        for row in state.scoreboard:
            row["result"], row["np"] = "defeat", 0
        state.next_game = len(state.scoreboard) + 1
        conn.execute("UPDATE campaigns SET state = ?, revision = revision + 1 WHERE name = ?", (state.to_json(), name))


def answers(correct: int) -> dict[str, int]:
    qs = PACK.questionnaire["questions"]
    return {q["id"]: q["answer"] if i < correct else (q["answer"] + 1) % len(q["choices"]) for i, q in enumerate(qs)}


def test_shared_score_with_a_linked_partner(tmp_path: Path) -> None:
    """KYR-CAMPAIGN-06, KYR-CAMPAIGN-07, KYR-CAMPAIGN-08, assumed:KYR-AMB-46: each partner's score is out of 50; the
    shared score adds them (out of 100). The first to answer waits; the second is scored at once from the first's
    answers."""
    db = tmp_path / "k.sqlite3"
    with KyrumStore(db) as store:
        store.create("ada", seed=1, partner=True)
        store.create("bob", seed=2, partner=True)
        store.link("ada", "bob")
    complete(db, "ada")
    complete(db, "bob")
    with KyrumStore(db) as store:
        ada = store.open("ada")
        assert ada.answer_questionnaire(answers(8)).questionnaire is None  # 40/50, waiting for bob
        assert ada.own_score() == 40 and store.open("ada").answers == answers(8)
        with pytest.raises(Exception, match="already been answered"):
            ada.answer_questionnaire(answers(2))
        bob = store.open("bob")
        result = bob.answer_questionnaire(answers(6)).questionnaire
        assert result is not None
        assert (result["own_score"], result["partner_score"], result["shared_score"], result["status"]) == (
            30, 40, 70, "Great Traveller")
        done = store.open("ada").answer_questionnaire({}).questionnaire
        assert done is not None and (done["own_score"], done["shared_score"], done["status"]) == (40, 70,
                                                                                                   "Great Traveller")


@pytest.mark.parametrize(("own", "theirs", "shared", "status"), [
    (6, 5, 55, "Lost"), (6, 6, 60, "Traveller"), (9, 9, 90, "Great Explorer"), (8, 8, 80, "Explorer")])
def test_shared_score_by_score_code(tmp_path: Path, own: int, theirs: int, shared: int, status: str) -> None:
    """KYR-CAMPAIGN-07, KYR-CAMPAIGN-08 (T-KYR-32): offline partners swap score codes; statuses follow the rulebook
    bands."""
    with KyrumStore(tmp_path / "a.sqlite3") as first, KyrumStore(tmp_path / "b.sqlite3") as second:
        first.create("ada", seed=1, partner=True)
        second.create("bob", seed=2, partner=True)
    complete(tmp_path / "a.sqlite3", "ada")
    complete(tmp_path / "b.sqlite3", "bob")
    with KyrumStore(tmp_path / "a.sqlite3") as first, KyrumStore(tmp_path / "b.sqlite3") as second:
        ada, bob = first.open("ada"), second.open("bob")
        bob.answer_questionnaire(answers(theirs))
        ada.import_code(bob.export_score_code())
        result = ada.answer_questionnaire(answers(own)).questionnaire
        assert result is not None
        assert (result["own_score"], result["partner_score"], result["shared_score"], result["status"]) == (
            own * 5, theirs * 5, shared, status)


def test_partner_score_can_be_entered_by_hand(tmp_path: Path) -> None:
    """assumed:KYR-AMB-46: manual entry, 0-50, validated."""
    db = tmp_path / "k.sqlite3"
    with KyrumStore(db) as store:
        store.create("ada", seed=1, partner=True)
    complete(db, "ada")
    with KyrumStore(db) as store:
        ada = store.open("ada")
        with pytest.raises(StoreError, match=r"0\.\.50"):
            ada.answer_questionnaire(answers(7), partner_score=51)
        assert ada.answers is None
        result = ada.answer_questionnaire(answers(7), partner_score=29).questionnaire
        assert result is not None and (result["shared_score"], result["status"]) == (64, "Traveller")


one_line = st.text(st.characters(blacklist_characters="\r\n\x00", blacklist_categories=("Cs",)), min_size=1,
                   max_size=500)
names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40)


@settings(max_examples=40, deadline=None)
@given(text=one_line, sender=names, game=st.integers(1, 50))
def test_any_message_round_trips_through_a_code(text: str, sender: str, game: int) -> None:
    """assumed:KYR-AMB-19: whatever one line a partner writes arrives unchanged."""
    body = partner.payload("kyrum-demo", sender, "0a1b2c3d", game, "message", text, None)
    code = partner.encode(body)
    assert partner.decode(code) == body
    assert set(code) <= set("KYR1-ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")


@settings(max_examples=60, deadline=None)
@given(text=one_line, data=st.data())
def test_any_single_changed_letter_is_detected(text: str, data: st.DataObject) -> None:
    """assumed:KYR-AMB-19: changing any one letter of a code makes it fail as a whole (never a different message)."""
    code = partner.encode(partner.payload("kyrum-demo", "ada", "0a1b2c3d", 3, "message", text, None))
    spots = [i for i, ch in enumerate(code) if i > 4 and ch != "-"]
    at = data.draw(st.sampled_from(spots))
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    other = data.draw(st.sampled_from([c for c in letters if c != code[at]]))
    changed = code[:at] + other + code[at + 1:]
    with pytest.raises(CodeError):
        partner.decode(changed)


@pytest.mark.parametrize("text", ["hi", "hello there", "The heron", "x" * 37])
def test_every_single_letter_change_is_detected_even_in_the_last_letter(text: str) -> None:
    """assumed:KYR-AMB-19: exhaustively, no one-letter change of a code is accepted (the last base32 letter
    carries unused bits, so only the canonical spelling is read)."""
    code = partner.encode(partner.payload("kyrum-demo", "ada", "0a1b2c3d", 3, "message", text, None))
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    accepted = []
    for at in range(5, len(code)):
        if code[at] == "-":
            continue
        for other in letters.replace(code[at], ""):
            try:
                partner.decode(code[:at] + other + code[at + 1:])
            except CodeError:
                continue
            accepted.append((at, other))
    assert accepted == []
