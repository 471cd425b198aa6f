"""The Kyrum campaign service: every campaign operation, written once, over a storage interface.

The terminal (:mod:`holotable.games.kyrum.campaign_commands`, over the SQLite book of :mod:`.store`) and the
server (:mod:`.server`, over the tables of :mod:`.server_store`) only translate: they read their input,
call a :class:`CampaignService` and show its answer. What a campaign may do between games (the Thoth
market, comments, journal notes, the questionnaire, partner codes, links) is decided here, with the
limits the pack defines; a storage only reads and writes (:class:`CampaignStorage`).

A refusal is a :class:`CampaignError` (the request cannot be done as asked: the server answers 422), a
:class:`CampaignConflict` (it clashes with what the campaign holds: 409), or an
:class:`~holotable.engine.IllegalActionError` of the rules (409, with its rule).

>>> item_id(load_pack("kyrum-demo"), "t1")
'T01'
>>> import holotable
>>> kyrum = holotable.load("kyrum")
>>> sent_message(kyrum, "send The heron is the ship"), sent_message(kyrum, "read")
('The heron is the ship', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from holotable.engine import HolotableError, IllegalActionError, MalformedActionError, State

from . import partner as partner_codes
from .campaign import (
    CampaignState,
    add_journal_note,
    buy_item,
    buy_refusal,
    finish_questionnaire,
    fold_game,
    score_answers,
    set_comment,
)
from .pack import Pack, load_pack


class CampaignError(HolotableError):
    """A campaign request that cannot be done as asked, or a campaign store that cannot be read."""

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        #: The rule ID (from the game's spec) the request breaks, when there is one.
        self.rule = rule


class CampaignConflict(CampaignError):
    """The request clashes with what the campaign already holds (or another writer changed it first)."""


@dataclass(frozen=True)
class Message:
    """A partner transmission as kept in a campaign store (KYR-ENC-09, KYR-AMB-19)."""

    id: int
    direction: str
    kind: str
    sender: str
    game: int
    text: str
    score: int | None
    used_in_game: int | None

    def code(self, pack_id: str, uid: str) -> str:
        return partner_codes.encode(self.payload(pack_id, uid))

    def payload(self, pack_id: str, uid: str) -> dict[str, Any]:
        return partner_codes.payload(pack_id, self.sender, uid, self.game, self.kind, self.text, self.score)


class CampaignRecord(Protocol):
    """What the service reads of a stored campaign (the terminal's ``Campaign``, the server's row)."""

    @property
    def id(self) -> Any: ...
    @property
    def name(self) -> str: ...
    @property
    def uid(self) -> str: ...
    @property
    def pack_ref(self) -> str: ...
    @property
    def state(self) -> CampaignState: ...
    @property
    def partner_id(self) -> Any: ...
    @property
    def answers(self) -> dict[str, int] | None: ...
    @property
    def playing(self) -> bool:
        """A game of the campaign is being played."""
        ...


class CampaignStorage(Protocol):
    """Where campaigns are kept. Every write checks that ``record`` is still what is stored (an optimistic
    lock: :class:`CampaignConflict` otherwise) and is one transaction."""

    def messages(self, record: Any, direction: str | None = None) -> list[Message]: ...

    def partner(self, record: Any) -> CampaignRecord | None:
        """The linked partner campaign of the same store, if any."""
        ...

    def save_state(self, record: Any, state: CampaignState) -> None: ...

    def save_answers(self, record: Any, answers: dict[str, int], state: CampaignState | None) -> None: ...

    def add_note(self, record: Any, text: str, state: CampaignState | None) -> None:
        """Between games the note joins the journal now (``state``); during a game it waits for the fold."""
        ...

    def import_message(self, record: Any, body: dict[str, Any]) -> int | None:
        """Keep a partner's code as an ``in`` message; its id, or ``None`` when it was already received."""
        ...


# ---------------------------------------------------------------------------------------------- pure parts
def item_id(pack: Pack, ref: str) -> str:
    """``T01``, ``t1`` (pack order) or an item name, to the item id."""
    order = pack.item_order
    low = ref.strip().lower()
    for iid in order:
        if low in (iid.lower(), pack.items[iid].name.lower()):
            return iid
    if low[:1] == "t" and low[1:].isdigit() and 1 <= int(low[1:]) <= len(order):
        return order[int(low[1:]) - 1]
    raise CampaignError(f"no Thoth item {ref!r}; items: {', '.join(order)}")


def campaign_name(text: str) -> str:
    """A campaign's name as kept: one line of 1 to 80 characters, without spaces around it."""
    name = text.strip()
    if not name or len(name) > 80 or any(ch in name for ch in "\r\n\x00"):
        raise CampaignError("a campaign name is one line of 1 to 80 characters")
    return name


def sent_message(game: Any, action: object) -> str | None:
    """The Black Hole message an action sends (``send <text>``), else ``None``: action text is read with
    the game's parser, an action object the game has already read is taken as it is."""
    parsed = action
    if isinstance(action, str):
        try:
            parsed = game.parse_action(action)
        except MalformedActionError:
            return None
    args = getattr(parsed, "args", ())
    return str(args[0]) if getattr(parsed, "verb", None) == "send" and args else None


def heard_messages(state: CampaignState, inbox: list[Message]) -> CampaignState:
    """The campaign about to start its next game with the partner messages received so far: they are heard
    at that game's Black Hole (KYR-ENC-09)."""
    out = CampaignState.from_dict(state.to_dict())
    for m in inbox:
        out.partner_log.append({"game": out.next_game, "sent": None, "received": m.text, "from": m.sender,
                                "partner_game": m.game})
    return out


def folded(current: CampaignState, game: State[Any, Any], notes: list[str]) -> CampaignState:
    """The campaign after its finished ``game``, with the notes written during it (KYR-SCRIPT-07)."""
    out = fold_game(current, game)
    for text in notes:
        out = add_journal_note(out, text)
        out.journal[-1]["game"] = int(game.data.game)
    return out


def questionnaire_max(pack: Pack) -> int:
    """The most a questionnaire scores, as the pack defines it (the rulebook's 50)."""
    return int(pack.questionnaire["max"])


def element_cap(pack: Pack) -> int:
    """The most cubes of one element type a player holds, as the pack defines it (the rulebook's 6)."""
    return max(int(n) for n in pack.rules["elements"].values())


# ---------------------------------------------------------------------------------------------- the service
class CampaignService:
    """Every campaign operation over one :class:`CampaignStorage`."""

    def __init__(self, storage: CampaignStorage) -> None:
        self.storage = storage

    # ------------------------------------------------------------------ reading
    @staticmethod
    def pack(record: CampaignRecord) -> Pack:
        return load_pack(record.pack_ref)

    def length(self, record: CampaignRecord) -> int:
        return int(self.pack(record).schedule["length"])

    def complete(self, record: CampaignRecord) -> bool:
        """Every scheduled game is finished (KYR-CAMPAIGN-05)."""
        return not record.playing and record.state.next_game > self.length(record)

    def inbox(self, record: CampaignRecord) -> list[Message]:
        """The partner messages received and not heard yet: the next game hears them."""
        return [m for m in self.storage.messages(record, "in") if m.kind == "message" and m.used_in_game is None]

    def next_game(self, record: CampaignRecord) -> tuple[CampaignState, list[Message]]:
        """What the next game starts from: the campaign with the unheard partner messages in its partner
        log (KYR-ENC-09), and those messages (the storage marks them heard when it stores the game)."""
        inbox = self.inbox(record)
        return heard_messages(record.state, inbox), inbox

    def market(self, record: CampaignRecord) -> dict[str, Any]:
        """The Thoth market between games: each item, what is owned and whether it can be bought now."""
        pack, st = self.pack(record), record.state
        is_open = not record.playing and st.next_game > 1
        items = []
        for t, iid in enumerate(pack.item_order, start=1):
            item = pack.items[iid]
            rec = st.items.get(iid, {"owned": 0, "consumed": 0})
            items.append({"ref": f"t{t}", "id": iid, "name": item.name, "cost": item.cost, "text": item.text,
                          "kind": item.kind, "max_owned": item.max_owned, "owned": rec["owned"] - rec["consumed"],
                          "can_buy": is_open and buy_refusal(st.items, st.np_bank, item) is None})
        return {"open": is_open, "items": items}

    def own_score(self, record: CampaignRecord) -> int | None:
        return None if record.answers is None else score_answers(self.pack(record), record.answers)

    def partner_score(self, record: CampaignRecord) -> int | None:
        """The partner's questionnaire score: an imported score code, else the linked campaign's answers."""
        imported = [m.score for m in self.storage.messages(record, "in") if m.kind == "score" and m.score is not None]
        if imported:
            return imported[-1]
        if record.partner_id is not None:
            other = self.storage.partner(record)
            if other is not None:
                return self.own_score(other)
        return None

    # ------------------------------------------------------------------ between games
    @staticmethod
    def between_games(record: CampaignRecord, what: str) -> None:
        if record.playing:
            raise IllegalActionError(f"{what} is only possible between games; game {record.state.next_game} is being "
                                     "played (finish it, or concede it)", rule="KYR-THOTH-01")

    def buy(self, record: CampaignRecord, ref: str) -> str:
        """A Thoth purchase between games (KYR-THOTH-01/04): the market of the last game stays open until
        the next game starts. Returns the item id."""
        self.between_games(record, "buying at the Thoth market")
        if record.state.next_game == 1:
            raise IllegalActionError("the Thoth market opens at the end of a game", rule="KYR-THOTH-01")
        pack = self.pack(record)
        iid = item_id(pack, ref)
        self.storage.save_state(record, buy_item(record.state, pack, iid))
        return iid

    def set_comment(self, record: CampaignRecord, text: str, game: int | None = None) -> int:
        """The scoreboard comment of the last finished game, until the next game starts (KYR-AMB-45).
        Returns the game commented."""
        if any(ch in text for ch in "\r\n\x00") or len(text) > 500:
            raise CampaignError("a comment is one line of at most 500 characters")
        self.between_games(record, "editing a comment")
        number = record.state.next_game - 1 if game is None else game
        if number < 1:
            raise IllegalActionError("no game has been finished yet", rule="KYR-CAMPAIGN-03")
        self.storage.save_state(record, set_comment(record.state, number, text))
        return number

    def add_note(self, record: CampaignRecord, text: str) -> None:
        """A journal note; written during a game it joins the journal when the game is folded."""
        text = text.strip()
        if not text or len(text) > 2000:
            raise CampaignError("a journal note is 1 to 2000 characters")
        state = None if record.playing else add_journal_note(record.state, text)
        self.storage.add_note(record, text, state)

    # ------------------------------------------------------------------ questionnaire (KYR-CAMPAIGN-05..08)
    def answer_questionnaire(self, record: CampaignRecord, answers: Mapping[str, int],
                             partner_score: int | None = None) -> CampaignState | None:
        """Record the answers (once) and score the questionnaire when the partner's score is known.

        Without a partner the score is doubled (KYR-CAMPAIGN-07). With one, the answers are kept and the
        result waits until the partner's score is given, imported or answered in a linked campaign.
        Returns the scored state, or ``None`` while it waits.
        """
        pack = self.pack(record)
        top = questionnaire_max(pack)
        if partner_score is not None and not 0 <= partner_score <= top:
            raise CampaignError(f"a partner score is 0..{top}, got {partner_score}")
        if not self.complete(record):
            raise IllegalActionError(
                f"the questionnaire opens only after game {self.length(record)}; "
                f"{record.state.next_game - 1} finished so far", rule="KYR-CAMPAIGN-05")
        if record.state.questionnaire is not None:
            raise IllegalActionError("the questionnaire has already been scored", rule="KYR-CAMPAIGN-06")
        if record.answers is not None and answers and dict(answers) != record.answers:
            raise IllegalActionError("the questionnaire has already been answered", rule="KYR-CAMPAIGN-06")
        chosen = dict(record.answers or answers)
        questions = pack.questionnaire["questions"]
        ids = [q["id"] for q in questions]
        unknown = sorted(set(chosen) - set(ids))
        if unknown:
            raise CampaignError(f"unknown question(s): {', '.join(unknown)}")
        for q in questions:
            choice = chosen.get(q["id"])
            if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < len(q["choices"]):
                raise CampaignError(f"question {q['id']} needs an answer 0..{len(q['choices']) - 1}")
        enabled = bool(record.state.partner.get("enabled"))
        if partner_score is not None and not enabled:
            raise CampaignError("this campaign has no Black Hole partner: the score is doubled instead")
        other = partner_score if partner_score is not None else (self.partner_score(record) if enabled else None)
        state = None
        if not enabled or other is not None:
            state = finish_questionnaire(record.state, pack, chosen, other)
        self.storage.save_answers(record, chosen, state)
        return state

    # ------------------------------------------------------------------ partner codes (KYR-AMB-19)
    @staticmethod
    def _partner_mode(record: CampaignRecord) -> None:
        if not record.state.partner.get("enabled"):
            raise CampaignError("this campaign has no Black Hole partner (KYR-CAMPAIGN-09)")

    def export_code(self, record: CampaignRecord, message: Message | None = None) -> str:
        """An offline code for the partner: the given message, else the latest Black Hole message written."""
        self._partner_mode(record)
        if message is None:
            out = self.storage.messages(record, "out")
            if not out:
                raise CampaignError("no Black Hole message has been written yet")
            message = out[-1]
        if message.direction != "out":
            raise CampaignError("only this campaign's own messages can be exported")
        return message.code(record.state.pack_id, record.uid)

    def score_code(self, record: CampaignRecord) -> str:
        """The code of this campaign's questionnaire score, for a partner elsewhere."""
        self._partner_mode(record)
        score = self.own_score(record)
        if score is None:
            raise CampaignError("answer the questionnaire first")
        body = partner_codes.payload(record.state.pack_id, record.name, record.uid, self.length(record), "score", "",
                                     score)
        return partner_codes.encode(body)

    def import_code(self, record: CampaignRecord, code: str) -> Message:
        """Receive a partner's code: checked completely before anything is written."""
        if not record.state.partner.get("enabled"):
            raise CampaignConflict("this campaign was created without a Black Hole partner; it cannot receive "
                                   "messages (KYR-CAMPAIGN-09)", rule="KYR-CAMPAIGN-09")
        body = partner_codes.decode(code)
        if body["pack"] != record.state.pack_id:
            raise CampaignError(f"the code is for pack {body['pack']!r}, this campaign plays {record.state.pack_id!r}")
        if body["uid"] == record.uid:
            raise CampaignError("this code was written by this very campaign; give it to your partner")
        if body["kind"] == "score" and not 0 <= int(body["score"]) <= questionnaire_max(self.pack(record)):
            raise CampaignError(f"the code's score {body['score']} is out of range")
        new = self.storage.import_message(record, body)
        if new is None:
            raise CampaignConflict("this code has already been received")
        return next(m for m in self.storage.messages(record, "in") if m.id == new)

    # ------------------------------------------------------------------ partner link (KYR-CAMPAIGN-09)
    @staticmethod
    def check_linkable(record: CampaignRecord) -> None:
        if not record.state.partner.get("enabled"):
            raise CampaignConflict(f"campaign {record.name!r} was created without a Black Hole partner; partner mode "
                                   "is chosen once, at creation (KYR-CAMPAIGN-09)", rule="KYR-CAMPAIGN-09")
        if record.partner_id is not None:
            raise CampaignConflict(f"campaign {record.name!r} already has a Black Hole partner")

    def check_link(self, first: CampaignRecord, second: CampaignRecord) -> None:
        """Whether two campaigns of one store may become each other's Black Hole partner."""
        if first.id == second.id:
            raise CampaignError("a campaign cannot be its own Black Hole partner")
        self.check_linkable(first)
        self.check_linkable(second)
        if first.state.pack_id != second.state.pack_id:
            raise CampaignError(f"the campaigns use different packs ({first.state.pack_id!r}, "
                                f"{second.state.pack_id!r})")

