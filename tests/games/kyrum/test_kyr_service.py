"""The Kyrum campaign service against both of its storages: every test runs once over the terminal's
SQLite book (:class:`KyrumStore`) and once over the server's tables (:class:`CampaignStore`), so the
two can no longer drift. The drift cases the service fixed are here too: the questionnaire maximum and
the element cap come from the pack, and a ``send`` is read with the game's parser."""

from __future__ import annotations

import json
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine

import holotable
from holotable.engine import IllegalActionError
from holotable.games.kyrum import partner as partner_codes
from holotable.games.kyrum.campaign import CampaignState, buy_refusal, new_campaign
from holotable.games.kyrum.pack import PACKS_DIR, load_pack
from holotable.games.kyrum.server import _reference
from holotable.games.kyrum.server_store import CampaignRow, CampaignStore
from holotable.games.kyrum.service import (
    CampaignConflict,
    CampaignError,
    CampaignService,
    campaign_name,
    element_cap,
    questionnaire_max,
    sent_message,
)
from holotable.games.kyrum.store import KyrumStore

DEMO = str(PACKS_DIR / "kyrum-demo")


class Book:
    """One storage behind the service: make campaigns, read them again, overwrite their state."""

    def __init__(self, kind: str, tmp_path: Path) -> None:
        self.kind = kind
        if kind == "file":
            self.file = KyrumStore(tmp_path / "kyrum.sqlite3")
            self.service = CampaignService(self.file)
        else:
            self.engine = create_engine(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
            self.tables = CampaignStore(self.engine)
            self.tables.create_schema()
            self.service = CampaignService(self.tables)

    def create(self, name: str, pack: str = DEMO, *, partner: bool = False) -> Any:
        if self.kind == "file":
            return self.file.create(name, pack, seed=7, partner=partner)
        row = CampaignRow(id=secrets.token_hex(8), name=name, token_hash="-", uid=secrets.token_hex(4), pack=pack,
                          state=new_campaign(load_pack(pack), seed=7, partner=partner), revision=0, partner_id=None,
                          answers=None, table_id=None, created_at=0.0)
        self.tables.insert(row)
        return self.tables.get(row.id)

    def reload(self, record: Any) -> Any:
        return self.file.open(record.name) if self.kind == "file" else self.tables.get(record.id)

    def set_state(self, record: Any, **changes: Any) -> Any:
        """The campaign as if earlier games had brought it there (the stored state is its only truth)."""
        state = CampaignState.from_dict({**record.state.to_dict(), **changes})
        self.service.storage.save_state(record, state)
        return self.reload(record)

    def close(self) -> None:
        if self.kind == "file":
            self.file.close()
        else:
            self.engine.dispose()


@pytest.fixture(params=["file", "server"])
def book(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Book]:
    made = Book(request.param, tmp_path)
    yield made
    made.close()


@pytest.fixture
def small_pack(tmp_path: Path) -> str:
    """The demo pack with a questionnaire out of 40 and five cubes of each element."""
    root = tmp_path / "kyrum-small"
    shutil.copytree(PACKS_DIR / "kyrum-demo", root)
    quest = json.loads((root / "questionnaire.json").read_text())
    quest["max"] = 40
    for q in quest["questions"][-2:]:
        q["points"] -= 5
    (root / "questionnaire.json").write_text(json.dumps(quest))
    rules = json.loads((root / "rules.json").read_text())
    rules.update(questionnaire_max=40, elements={"common": 5, "uncommon": 5, "rare": 5})
    (root / "rules.json").write_text(json.dumps(rules))
    return str(root)


def right_answers(pack: str = DEMO) -> dict[str, int]:
    return {q["id"]: q["answer"] for q in load_pack(pack).questionnaire["questions"]}


# ---------------------------------------------------------------------------------------------- market
def test_market_buys_once_the_first_game_is_over_and_can_buy_agrees(book: Book) -> None:
    camp = book.create("ada")
    with pytest.raises(IllegalActionError, match="opens at the end of a game"):
        book.service.buy(camp, "t4")
    assert book.service.market(camp)["open"] is False
    camp = book.set_state(camp, next_game=2, np_bank=3)
    market = book.service.market(camp)
    pack = load_pack(DEMO)
    for entry in market["items"]:  # the page's flag is the rule that buying applies
        item = pack.items[entry["id"]]
        assert entry["can_buy"] is (buy_refusal(camp.state.items, 3, item) is None)
    assert [e["id"] for e in market["items"] if e["can_buy"]] == [
        i for i in pack.item_order if pack.items[i].cost <= 3]
    assert book.service.buy(camp, "T04") == "T04"
    camp = book.reload(camp)
    assert camp.state.np_bank == 3 - pack.items["T04"].cost and camp.state.items["T04"]["owned"] == 1
    with pytest.raises(CampaignError, match="no Thoth item 't99'"):
        book.service.buy(camp, "t99")
    dear = next(i for i in pack.item_order if pack.items[i].cost > camp.state.np_bank)
    with pytest.raises(IllegalActionError, match=f"costs {pack.items[dear].cost} NP; the bank holds 1"):
        book.service.buy(camp, dear)
    assert book.reload(camp).state == camp.state


def test_a_stale_record_writes_nothing(book: Book) -> None:
    camp = book.set_state(book.create("ada"), next_game=2)
    stale = book.reload(camp)
    book.service.set_comment(camp, "first")
    with pytest.raises(CampaignConflict):
        book.service.set_comment(stale, "second")
    assert book.reload(camp).state.scoreboard[0]["comment"] == "first"


def test_comments_and_notes(book: Book) -> None:
    camp = book.create("ada")
    with pytest.raises(IllegalActionError, match="no game has been finished yet"):
        book.service.set_comment(camp, "too early")
    with pytest.raises(CampaignError, match="one line of at most 500"):
        book.service.set_comment(camp, "two\nlines")
    with pytest.raises(CampaignError, match="1 to 2000 characters"):
        book.service.add_note(camp, "   ")
    book.service.add_note(camp, "  ash everywhere ")
    camp = book.reload(camp)
    assert camp.state.journal == [{"game": 1, "text": "ash everywhere"}]
    camp = book.set_state(camp, next_game=2)
    assert book.service.set_comment(camp, "close call") == 1
    assert book.reload(camp).state.scoreboard[0]["comment"] == "close call"


# ---------------------------------------------------------------------------------------------- questionnaire
def test_questionnaire_scores_a_solo_campaign_twice(book: Book) -> None:
    camp = book.create("ada")
    with pytest.raises(IllegalActionError, match="opens only after game 30"):
        book.service.answer_questionnaire(camp, right_answers())
    camp = book.set_state(camp, next_game=31)
    with pytest.raises(CampaignError, match="unknown question"):
        book.service.answer_questionnaire(camp, {**right_answers(), "Q99": 0})
    with pytest.raises(CampaignError, match="question Q2 needs an answer"):
        book.service.answer_questionnaire(camp, {"Q1": 1})
    with pytest.raises(CampaignError, match="no Black Hole partner"):
        book.service.answer_questionnaire(camp, right_answers(), 20)
    done = book.service.answer_questionnaire(camp, right_answers())
    assert done is not None and done.questionnaire is not None
    assert (done.questionnaire["own_score"], done.questionnaire["shared_score"]) == (50, 100)
    with pytest.raises(IllegalActionError, match="already been scored"):
        book.service.answer_questionnaire(book.reload(camp), right_answers())


def test_a_partner_campaign_waits_for_the_partner_score_then_imports_it(book: Book) -> None:
    camp = book.set_state(book.create("ada", partner=True), next_game=31)
    assert book.service.answer_questionnaire(camp, right_answers()) is None  # waits
    camp = book.reload(camp)
    assert book.service.own_score(camp) == 50 and book.service.partner_score(camp) is None
    code = partner_codes.encode(partner_codes.payload("kyrum-demo", "Bo", "beef", 30, "score", "", 35))
    msg = book.service.import_code(camp, code)
    assert (msg.kind, msg.score, msg.sender) == ("score", 35, "Bo")
    camp = book.reload(camp)
    with pytest.raises(CampaignConflict, match="already been received"):
        book.service.import_code(camp, code)
    assert book.service.partner_score(camp) == 35
    done = book.service.answer_questionnaire(camp, {})
    assert done is not None and done.questionnaire is not None and done.questionnaire["shared_score"] == 85


def test_the_questionnaire_maximum_is_the_packs(book: Book, small_pack: str) -> None:
    """The server once capped a partner score at 50 whatever the pack said (drift)."""
    assert questionnaire_max(load_pack(small_pack)) == 40
    camp = book.set_state(book.create("ada", small_pack, partner=True), next_game=31)
    with pytest.raises(CampaignError, match=r"a partner score is 0\.\.40, got 41"):
        book.service.answer_questionnaire(camp, right_answers(small_pack), 41)
    too_high = partner_codes.encode(partner_codes.payload("kyrum-demo", "Bo", "beef", 30, "score", "", 45))
    with pytest.raises(CampaignError, match="score 45 is out of range"):
        book.service.import_code(camp, too_high)
    done = book.service.answer_questionnaire(camp, right_answers(small_pack), 40)
    assert done is not None and done.questionnaire is not None
    assert (done.questionnaire["own_score"], done.questionnaire["shared_score"]) == (40, 80)


# ---------------------------------------------------------------------------------------------- partner codes
def test_codes_are_checked_before_anything_is_written(book: Book) -> None:
    solo = book.create("solo")
    code = partner_codes.encode(partner_codes.payload("kyrum-demo", "Bo", "beef", 1, "message", "hello", None))
    with pytest.raises(CampaignConflict, match="created without a Black Hole partner") as refused:
        book.service.import_code(solo, code)
    assert refused.value.rule == "KYR-CAMPAIGN-09"
    with pytest.raises(CampaignError, match="no Black Hole partner"):
        book.service.export_code(solo)
    camp = book.create("ada", partner=True)
    own = partner_codes.encode(partner_codes.payload("kyrum-demo", "ada", camp.uid, 1, "message", "me", None))
    with pytest.raises(CampaignError, match="written by this very campaign"):
        book.service.import_code(camp, own)
    other_pack = partner_codes.encode(partner_codes.payload("elsewhere", "Bo", "beef", 1, "message", "hi", None))
    with pytest.raises(CampaignError, match="the code is for pack 'elsewhere'"):
        book.service.import_code(camp, other_pack)
    with pytest.raises(CampaignError, match="no Black Hole message has been written yet"):
        book.service.export_code(camp)
    with pytest.raises(CampaignError, match="answer the questionnaire first"):
        book.service.score_code(camp)
    assert book.service.storage.messages(book.reload(camp)) == []
    book.service.import_code(camp, code)
    camp = book.reload(camp)
    assert [(m.text, m.used_in_game) for m in book.service.inbox(camp)] == [("hello", None)]
    state, heard = book.service.next_game(camp)  # the next game hears it at its Black Hole
    assert [m.text for m in heard] == ["hello"]
    assert state.partner_log == [{"game": 1, "sent": None, "received": "hello", "from": "Bo", "partner_game": 1}]
    assert book.reload(camp).state.partner_log == []  # nothing is written until the game is stored


def test_links_are_checked(book: Book) -> None:
    ada, bob = book.create("ada", partner=True), book.create("bob", partner=True)
    solo = book.create("solo")
    with pytest.raises(CampaignError, match="its own Black Hole partner"):
        book.service.check_link(ada, book.reload(ada))
    with pytest.raises(CampaignConflict, match="'solo' was created without a Black Hole partner"):
        book.service.check_link(ada, solo)
    book.service.check_link(ada, bob)  # allowed


# ---------------------------------------------------------------------------------------------- pure parts
def test_send_is_read_with_the_games_parser() -> None:
    """The server once took any action text starting with 'send' for a message (drift)."""
    kyrum = holotable.load("kyrum")
    assert sent_message(kyrum, "send Look for the heron") == "Look for the heron"
    assert sent_message(kyrum, "  SEND  Look for the heron ") == "Look for the heron"
    assert sent_message(kyrum, "send") is None  # sends nothing
    assert sent_message(kyrum, "sending") is None  # not a send at all
    assert sent_message(kyrum, "read") is None
    assert sent_message(kyrum, kyrum.parse_action("send hi")) == "hi"  # an action object reads the same


def test_campaign_names() -> None:
    assert campaign_name("  Ada ") == "Ada"
    for bad in ("", "   ", "two\nlines", "x" * 81):
        with pytest.raises(CampaignError, match="one line of 1 to 80 characters"):
            campaign_name(bad)


def test_the_element_cap_is_the_packs(small_pack: str) -> None:
    """The table page's reference once said 6 whatever the pack said (drift)."""
    assert element_cap(load_pack("kyrum-demo")) == 6
    assert element_cap(load_pack(small_pack)) == 5
    assert _reference(small_pack)["element_cap"] == 5
