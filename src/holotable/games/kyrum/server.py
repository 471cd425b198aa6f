"""Kyrum campaigns on the server: the campaign page's API and the fold of each finished table.

A campaign is created with ``POST /api/campaigns`` and read, between games, with its owner token
(``Authorization: Bearer <campaign token>``; only a hash is stored, like seat tokens). ``POST
/api/campaigns/{id}/games`` starts the next scheduled game as a one-seat table of game ``kyrum``: its
parameters are :func:`~holotable.games.kyrum.campaign.start_game`'s config, so the table replays
exactly. The seat token of that table is derived from the campaign token (whoever holds the campaign
holds its games, on any browser). When the table's game ends the manager's ``after_action`` folds it
into the campaign; a table that finished while the server was down (or whose fold failed) is folded on
start and whenever the campaign is read. The fold is exactly-once (see :mod:`.server_store`).

The routes only translate HTTP: every campaign operation is :class:`.service.CampaignService`'s (the one
the terminal uses too), over :class:`.server_store.CampaignStore`.

Between games: the Thoth market, scoreboard comments, journal notes, the tracking list and, after the
last game, the questionnaire. Two campaigns of this server may be linked for the Black Hole encounter
(one owner creates a link code, the other accepts it): each ``send`` played at one table is then
delivered to the partner's inbox, heard at the partner's next game (KYR-ENC-09). Partner codes (the
terminal's ``KYR1-...`` text) still work both ways for a partner elsewhere.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import logging
import secrets
import weakref
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Header
from fastapi.responses import Response
from pydantic import Field

from holotable.engine import DataError, HolotableError, IllegalActionError, State
from holotable.games.kyrum.campaign import CampaignState, game_seed, new_campaign, start_game, tracking_list
from holotable.games.kyrum.pack import DEFAULT_PACK, PACKS_DIR, load_pack, recipe_name
from holotable.games.kyrum.service import (
    CampaignConflict,
    CampaignService,
    Message,
    campaign_name,
    element_cap,
    folded,
    sent_message,
)
from holotable.server.extensions import TableExtension
from holotable.server.live import ApiError, bearer_token
from holotable.server.routes.shared import NEW_TABLE
from holotable.server.schemas import MAX_SEED, CreateTableRequest, Strict
from holotable.server.tokens import hash_token, new_id, new_token, token_matches

from .server_store import CampaignRow, CampaignStore, Conflict

if TYPE_CHECKING:
    from holotable.server.live import LiveTable
    from holotable.server.storage import ActionRecord
    from holotable.server.tables import TableManager

log = logging.getLogger("holotable.server.kyrum")


# ---------------------------------------------------------------------------------------------- requests
class CreateCampaignRequest(Strict):
    name: str = Field(min_length=1, max_length=80, description="the campaign's name (one line)")
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="campaign seed (default: random)")
    pack: str = Field(DEFAULT_PACK, min_length=1, max_length=64, description="a content pack shipped with holotable")
    partner: bool = Field(False, description="Black Hole partner mode, fixed for good (KYR-CAMPAIGN-09)")


class TextRequest(Strict):
    text: str = Field(min_length=1, max_length=2000)


class CommentRequest(Strict):
    text: str = Field(max_length=500)


class BuyRequest(Strict):
    item: str = Field(min_length=1, max_length=64, examples=["t1", "T01"])


class QuestionnaireRequest(Strict):
    answers: dict[str, int] = Field(default_factory=dict)
    # The top of the range is the pack's (CampaignService.answer_questionnaire checks it).
    partner_score: int | None = Field(None, ge=0)


class CodeRequest(Strict):
    code: str = Field(min_length=1, max_length=4000)


def shipped_packs() -> list[str]:
    return sorted(p.name for p in PACKS_DIR.iterdir() if p.is_dir())


def table_seed(campaign_seed: int, number: int) -> int:
    """The table seed of game ``number``: the spec's game seed cut to what a server table stores (62 bits)."""
    return game_seed(campaign_seed, number) & (MAX_SEED - 1)


def seat_token_for(campaign_token: str, table_id: str) -> str:
    """The seat token of a campaign's table: only the campaign token's holder can compute it."""
    digest = hashlib.sha256(f"kyrum-seat:{campaign_token}:{table_id}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def _rule_error(exc: HolotableError) -> ApiError:
    """A refusal of the campaign service or the rules as an HTTP answer: 409 for what clashes with the
    campaign or the rules, 422 for a request that cannot be read."""
    rule = getattr(exc, "rule", None)
    status = 409 if isinstance(exc, IllegalActionError | CampaignConflict) else 422
    return ApiError(status, str(exc), rule if isinstance(rule, str) else None)


async def _call(fn: Any, *args: Any) -> Any:
    """A campaign service call, off the event loop, with its refusals translated."""
    try:
        return await asyncio.to_thread(fn, *args)
    except HolotableError as exc:
        raise _rule_error(exc) from exc


def _sent_messages(table: LiveTable) -> list[tuple[int, str]]:
    """The Black Hole messages written at ``table`` (``send <text>`` actions), with the game number."""
    number = int(table.state.data.game)
    out = []
    for record in table.actions:
        message = sent_message(table.game, record.action)
        if message is not None:
            out.append((number, message))
    return out


class KyrumExtension(TableExtension):
    game = "kyrum"
    lobby_note = ("Kyrum is played as a campaign: 30 or more scheduled games whose story, items and discoveries "
                  "carry over from one game to the next. A table made here is a single game outside any campaign.",
                  "Start or continue a campaign", "/campaigns")

    def __init__(self) -> None:
        # One server process may run several apps (tests, a restart): everything is kept per manager.
        self.stores: weakref.WeakKeyDictionary[TableManager, CampaignStore] = weakref.WeakKeyDictionary()
        #: per manager, campaign id -> (its lock, how many requests hold or wait for it)
        self.locks: weakref.WeakKeyDictionary[TableManager, dict[str, tuple[asyncio.Lock, int]]] = \
            weakref.WeakKeyDictionary()
        #: table id -> campaign id (a cache of the campaign game rows).
        self.table_campaigns: dict[str, str | None] = {}

    # ------------------------------------------------------------------ plumbing
    def store(self, manager: TableManager) -> CampaignStore:
        found = self.stores.get(manager)
        if found is None:
            found = self.stores[manager] = CampaignStore(manager.store.engine)
        return found

    def service(self, manager: TableManager) -> CampaignService:
        return CampaignService(self.store(manager))

    def campaign_of(self, manager: TableManager, table: LiveTable) -> str | None:
        """The campaign whose game ``table`` plays (``None``: an ordinary Kyrum table). Looked up once
        per table: :meth:`start_table` records its own tables itself, after their game row exists."""
        if table.id not in self.table_campaigns:
            self.table_campaigns[table.id] = self.store(manager).campaign_of_table(table.id)
        return self.table_campaigns[table.id]

    def forget(self, table_id: str) -> None:
        self.table_campaigns.pop(table_id, None)

    @contextlib.asynccontextmanager
    async def lock(self, manager: TableManager, campaign_id: str) -> AsyncIterator[None]:
        """One change at a time per campaign in this server (the revision check guards the database).
        A lock lives only while a request holds or waits for it: made-up campaign ids (the routes check
        the token inside the lock) leave nothing behind."""
        locks = self.locks.setdefault(manager, {})
        lock, users = locks.get(campaign_id, (asyncio.Lock(), 0))
        locks[campaign_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = locks[campaign_id]
            if users == 1:
                del locks[campaign_id]
            else:
                locks[campaign_id] = (lock, users - 1)

    async def start(self, manager: TableManager) -> None:
        store = self.store(manager)
        await asyncio.to_thread(store.create_schema)
        for row in await asyncio.to_thread(store.playing):
            try:
                await self.reconcile(manager, row)
            except Exception:  # one campaign's trouble must not keep the server down
                log.exception("kyrum campaign %s could not be checked at start", row.id)

    async def reconcile(self, manager: TableManager, row: CampaignRow) -> CampaignRow:
        """Fold the campaign's game when its table has finished (e.g. while the server was down)."""
        if row.table_id is None:
            return row
        table = manager.tables.get(row.table_id)
        if table is not None:
            state = table.state
            sent = _sent_messages(table)
        else:
            stored = await asyncio.to_thread(manager.store.table, row.table_id)
            if stored is None or stored[0].status != "finished":
                return row
            try:
                rebuilt = manager.rebuild(*stored)
            except (HolotableError, ValueError) as exc:
                log.error("kyrum campaign %s: table %s does not rebuild: %s", row.id, row.table_id, exc)
                return row
            state, sent = rebuilt.state, _sent_messages(rebuilt)
        if state.is_terminal():
            await asyncio.to_thread(self.fold, manager, row.id, row.table_id, state, sent)
            fresh = await asyncio.to_thread(self.store(manager).get, row.id)
            assert fresh is not None
            return fresh
        return row

    def fold(self, manager: TableManager, campaign_id: str, table_id: str, state: State[Any, Any],
             sent: list[tuple[int, str]]) -> bool:
        number = int(state.data.game)

        def fold(current: CampaignState, notes: list[str]) -> CampaignState:
            return folded(current, state, notes)

        done = self.store(manager).fold(campaign_id, number, table_id, fold, sent)
        if done:
            log.info("kyrum campaign %s: game %s folded", campaign_id, number)
        return done

    # ------------------------------------------------------------------ table hooks
    def after_action(self, manager: TableManager, table: LiveTable, seat: int, before: State[Any, Any],
                     after: State[Any, Any], action: Any, source: str) -> None:
        store = self.store(manager)
        message = sent_message(after.game, action)
        if message is None and not after.is_terminal():
            return
        row = store.by_table(table.id)
        if row is None:
            return
        if message is not None:
            store.record_send(row.id, int(after.data.game), message)
        if after.is_terminal():
            self.fold(manager, row.id, table.id, after, _sent_messages(table))

    def undo_refusal(self, manager: TableManager, table: LiveTable, seat: int, action: ActionRecord) -> str | None:
        # A campaign's `send` is delivered (to the outbox and a linked partner's inbox) as it is played;
        # `send` alone sends nothing. (The rules refuse it too: sending is a reveal.)
        if sent_message(table.game, action.action) is not None and self.campaign_of(manager, table) is not None:
            return "your message has already gone to your Black Hole partner: it cannot be taken back"
        return None

    def rematch_refusal(self, manager: TableManager, table: LiveTable) -> str | None:
        if self.campaign_of(manager, table) is None:
            return None
        return ("a campaign's game is followed by the campaign's next game, not by a rematch"
                " (start it on the campaign page)")

    def payload_extra(self, manager: TableManager, table: LiveTable, seat: int | None) -> dict[str, Any] | None:
        """The pack's public reference (crafting recipes, gauge ranges, Thoth items) for everyone; the
        descriptions of the cards the viewer's view shows (``cards``: none for a private game's spectator);
        the campaign's page link only for the seat (a spectator learns nothing of the campaign)."""
        out: dict[str, Any] = {"reference": _reference(str(table.config.params.get("pack", DEFAULT_PACK))),
                               "cards": _cards(table, seat)}
        campaign_id = self.campaign_of(manager, table) if seat is not None else None
        if campaign_id is not None:
            out["campaign_id"] = campaign_id
            out["campaign_url"] = f"/campaigns/{campaign_id}"
        return out

    # ------------------------------------------------------------------ routes
    def router(self, manager: TableManager) -> APIRouter:
        routes = APIRouter()
        ext = self

        async def owned(campaign_id: str, authorization: str | None) -> tuple[CampaignRow, str]:
            token = bearer_token(authorization, what="campaign token",
                                 missing="a campaign needs its token (Authorization: Bearer <campaign token>)")
            if len(campaign_id) > 32:
                raise ApiError(404, f"no campaign {campaign_id!r}")
            row = await asyncio.to_thread(ext.store(manager).get, campaign_id)
            if row is None:
                raise ApiError(404, f"no campaign {campaign_id!r}")
            if not token_matches(token, row.token_hash):
                raise ApiError(403, "that token does not open this campaign")
            if row.table_id is not None:
                ext.table_campaigns[row.table_id] = row.id
                row = await ext.reconcile(manager, row)
            return row, token

        @routes.post("/api/campaigns", status_code=201, tags=["kyrum"], dependencies=[NEW_TABLE])
        async def create_campaign(body: CreateCampaignRequest) -> dict[str, Any]:
            try:
                name = campaign_name(body.name)
            except HolotableError as exc:
                raise _rule_error(exc) from exc
            if body.pack not in shipped_packs():
                raise ApiError(422, f"pack takes one of {shipped_packs()} here")
            seed = body.seed if body.seed is not None else secrets.randbelow(MAX_SEED)
            try:
                state = new_campaign(body.pack, seed=seed, partner=body.partner)
            except DataError as exc:
                raise ApiError(422, str(exc)) from exc
            token = new_token()
            row = CampaignRow(id=new_id(), name=name, token_hash=hash_token(token), uid=secrets.token_hex(4),
                              pack=body.pack, state=state, revision=0, partner_id=None, answers=None, table_id=None,
                              created_at=manager.clock.now(), seed_chosen=body.seed is not None)
            await asyncio.to_thread(ext.store(manager).insert, row)
            return {"campaign_id": row.id, "token": token, "url": f"/campaigns/{row.id}"}

        @routes.get("/api/campaigns/{campaign_id}", tags=["kyrum"])
        async def read_campaign(campaign_id: str,
                                authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            row, token = await owned(campaign_id, authorization)
            return await ext.describe(manager, row, token)

        @routes.post("/api/campaigns/{campaign_id}/games", status_code=201, tags=["kyrum"])
        async def start_next(campaign_id: str,
                             authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            async with ext.lock(manager, campaign_id):
                row, token = await owned(campaign_id, authorization)
                await _call(CampaignService.between_games, row, "starting a game")
                return await ext.start_table(manager, row, token)

        @routes.post("/api/campaigns/{campaign_id}/notes", tags=["kyrum"])
        async def add_note(campaign_id: str, body: TextRequest,
                           authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            async with ext.lock(manager, campaign_id):
                row, token = await owned(campaign_id, authorization)
                await _call(ext.service(manager).add_note, row, body.text)
                return await ext.describe(manager, (await owned(campaign_id, authorization))[0], token)

        @routes.post("/api/campaigns/{campaign_id}/comment", tags=["kyrum"])
        async def comment(campaign_id: str, body: CommentRequest,
                          authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            async with ext.lock(manager, campaign_id):
                row, token = await owned(campaign_id, authorization)
                await _call(ext.service(manager).set_comment, row, body.text)
                return await ext.describe(manager, (await owned(campaign_id, authorization))[0], token)

        @routes.post("/api/campaigns/{campaign_id}/market", tags=["kyrum"])
        async def buy(campaign_id: str, body: BuyRequest,
                      authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            async with ext.lock(manager, campaign_id):
                row, token = await owned(campaign_id, authorization)
                await _call(ext.service(manager).buy, row, body.item)
                return await ext.describe(manager, (await owned(campaign_id, authorization))[0], token)

        @routes.post("/api/campaigns/{campaign_id}/questionnaire", tags=["kyrum"])
        async def questionnaire(campaign_id: str, body: QuestionnaireRequest,
                                authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            async with ext.lock(manager, campaign_id):
                row, token = await owned(campaign_id, authorization)
                await _call(ext.service(manager).answer_questionnaire, row, body.answers, body.partner_score)
                return await ext.describe(manager, (await owned(campaign_id, authorization))[0], token)

        @routes.post("/api/campaigns/{campaign_id}/link-invites", status_code=201, tags=["kyrum"])
        async def link_invite(campaign_id: str,
                              authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            row, _ = await owned(campaign_id, authorization)
            await _call(CampaignService.check_linkable, row)
            code = "KYRLINK-" + new_token()
            await asyncio.to_thread(ext.store(manager).add_invite, row, hash_token(code), manager.clock.now())
            return {"code": code}

        @routes.post("/api/campaigns/{campaign_id}/link", tags=["kyrum"])
        async def accept_link(campaign_id: str, body: CodeRequest,
                              authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            row, token = await owned(campaign_id, authorization)
            store = ext.store(manager)
            code_hash = hash_token(body.code.strip())
            other_id = await asyncio.to_thread(store.invite_owner, code_hash)
            if other_id is None:
                raise ApiError(404, "no such link code on this server (used, withdrawn or mistyped)")
            other = await asyncio.to_thread(store.get, other_id)
            assert other is not None
            await _call(ext.service(manager).check_link, other, row)
            await _call(store.link, other, row, code_hash)
            return await ext.describe(manager, (await owned(campaign_id, authorization))[0], token)

        @routes.post("/api/campaigns/{campaign_id}/codes", tags=["kyrum"])
        async def import_code(campaign_id: str, body: CodeRequest,
                              authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            async with ext.lock(manager, campaign_id):
                row, token = await owned(campaign_id, authorization)
                await _call(ext.service(manager).import_code, row, body.code)
                return await ext.describe(manager, (await owned(campaign_id, authorization))[0], token)

        @routes.get("/campaigns", include_in_schema=False, response_model=None)
        async def campaigns_page() -> Response:
            return _page("campaign.html")

        @routes.get("/campaigns/{campaign_id}", include_in_schema=False, response_model=None)
        async def campaign_page(campaign_id: str) -> Response:
            return _page("campaign.html")

        return routes

    # ------------------------------------------------------------------ campaign actions
    async def start_table(self, manager: TableManager, row: CampaignRow, token: str) -> dict[str, Any]:
        store = self.store(manager)
        number = row.state.next_game
        state, inbox = await asyncio.to_thread(self.service(manager).next_game, row)
        try:
            probe = start_game(state, row.pack, private=True)  # spectators see nothing of it
        except HolotableError as exc:
            raise _rule_error(exc) from exc
        params = {k: v for k, v in probe.config.params.items() if k in ("pack", "campaign", "private")}
        req = CreateTableRequest.model_validate({
            "game": "kyrum", "players": 1, "params": params, "seats": [{"kind": "human", "name": row.name[:40]}],
            "seed": table_seed(row.state.campaign_seed, number)})
        # the seat's token is the one the campaign token derives: whoever holds the campaign holds its games
        # A campaign seed the owner chose makes each game a seeded table (its deal is known in advance).
        table, you = await manager.create(req, creator_token=lambda table_id: seat_token_for(token, table_id),
                                          seed_chosen=row.seed_chosen)
        assert you is not None
        seat_token = you[1]
        try:
            await asyncio.to_thread(store.start_game, row, state, number, table.id, [m.id for m in inbox])
        except Conflict as exc:
            raise ApiError(409, str(exc)) from exc
        self.table_campaigns[table.id] = row.id
        return {"table_id": table.id, "game": number, "seat": 0, "token": seat_token, "url": f"/t/{table.id}"}

    # ------------------------------------------------------------------ what the owner sees
    async def describe(self, manager: TableManager, row: CampaignRow, token: str) -> dict[str, Any]:
        store, service = self.store(manager), self.service(manager)
        pack = service.pack(row)
        st = row.state
        length = service.length(row)
        messages = await asyncio.to_thread(store.messages, row)
        other = await asyncio.to_thread(store.partner, row)
        partner_name = None if other is None else other.name
        own = service.own_score(row)
        playing = None
        if row.table_id is not None:
            playing = {"game": st.next_game, "table_id": row.table_id, "seat": 0,
                       "token": seat_token_for(token, row.table_id), "url": f"/t/{row.table_id}"}
        complete = service.complete(row)
        return {
            "campaign_id": row.id,
            "name": row.name,
            "pack": row.pack,
            "pack_title": pack.title,
            # The campaign seed fixes every game's deal: it is shown only once the campaign is over.
            "seed": st.campaign_seed if complete else None,
            "seed_chosen": row.seed_chosen,
            "next_game": st.next_game,
            "length": length,
            "complete": complete,
            "playing": playing,
            "games": [{**g, "token": seat_token_for(token, g["table_id"]), "url": f"/t/{g['table_id']}"}
                      for g in await asyncio.to_thread(store.games, row.id)],
            "np_bank": st.np_bank,
            "scoreboard": st.scoreboard,
            "journal": st.journal,
            "notes_pending": await asyncio.to_thread(store.notes, row.id),
            "narratives": st.narratives,
            "glossary": [{"term": term, **pack.glossary.get(term, {})} for term in st.glossary],
            "tracking": [{"planet": n, "name": pack.planets[n].name, "scripts": codes}
                         for n, codes in tracking_list(st, pack).items()],
            "market": service.market(row),
            "questionnaire": {
                "open": complete and st.questionnaire is None,
                "questions": [{"id": q["id"], "text": q["text"], "choices": q["choices"], "points": q["points"]}
                              for q in pack.questionnaire["questions"]],
                "max": pack.questionnaire["max"],
                "answered": row.answers is not None,
                "own_score": own,
                "result": st.questionnaire,
            },
            "partner": {
                "enabled": bool(st.partner.get("enabled")),
                "linked": row.partner_id is not None,
                "partner_name": partner_name,
                "inbox": [_message(m) for m in messages if m.direction == "in"],
                "outbox": [{**_message(m), "code": m.code(st.pack_id, row.uid)}
                           for m in messages if m.direction == "out"],
                "score_code": None if own is None or not st.partner.get("enabled") else service.score_code(row),
                "log": st.partner_log,
            },
        }


def _message(m: Message) -> dict[str, Any]:
    return {"kind": m.kind, "from": m.sender, "game": m.game, "text": m.text, "score": m.score,
            "heard_in_game": m.used_in_game}


@functools.cache
def _reference(pack_id: str) -> dict[str, Any]:
    """What the table page shows beside the view: crafting costs, gauge ranges, the items' rules."""
    try:
        pack = load_pack(pack_id)
    except DataError:
        return {}
    return {
        "crafting": {el: [{"name": recipe_name(r), "recipe": r} for r in recipes]
                     for el, recipes in pack.rules["crafting"].items()},
        "gauges": pack.rules["gauges"],
        "element_cap": element_cap(pack),
        "items": [{"ref": f"t{t}", "id": iid, "name": pack.items[iid].name, "cost": pack.items[iid].cost,
                   "text": pack.items[iid].text} for t, iid in enumerate(pack.item_order, start=1)],
        "validation_fuel_cost": pack.rules.get("validation_fuel_cost"),
    }


def _cards(table: LiveTable, seat: int | None) -> dict[str, Any]:
    """The card descriptions of what ``seat`` sees (the table's own pack, data overrides included)."""
    from holotable.games.kyrum.card_text import cards_on_table
    from holotable.games.kyrum.rules import pack_of

    try:
        pack = pack_of(table.config)
    except HolotableError:
        return {}
    return cards_on_table(pack, table.state.view(seat))


def _page(name: str) -> Response:
    """A packaged browser page, as the app serves its own (404 with a reason when the pages are not installed)."""
    from holotable.server.routes.pages import default_static_dir, page

    return page(default_static_dir(), name)

