"""Kyrum campaigns kept in the server's database (SQLAlchemy Core: SQLite or PostgreSQL).

A campaign row keeps the :class:`~holotable.games.kyrum.campaign.CampaignState` as JSON, the hash of
its owner's token (never the token), and the table of the game being played. Each scheduled game has
a row in ``kyrum_campaign_games`` whose status goes from ``playing`` to ``folded`` exactly once: the
fold is an ``UPDATE ... WHERE status = 'playing'`` in the same transaction as the folded state, so a
second attempt (after a restart, or from two requests at once) finds nothing to do and writes nothing.
Every other write checks the campaign's ``revision`` (optimistic lock): two writers never both win.

Partner messages (Black Hole, KYR-ENC-09) are kept like the terminal's store keeps them: one ``out``
row for the writer and, when the campaign is linked to a partner campaign of this server, one ``in``
row for the partner, heard at the partner's next game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    delete,
    insert,
    select,
    update,
)

from holotable.games.kyrum import partner as partner_codes
from holotable.games.kyrum.campaign import CampaignState
from holotable.games.kyrum.service import CampaignConflict, Message
from holotable.server.storage import add_columns

metadata = MetaData()

campaigns_t = Table(
    "kyrum_campaigns",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("uid", String(16), nullable=False),
    Column("pack", String(64), nullable=False),
    Column("state", Text, nullable=False),
    Column("revision", Integer, nullable=False),
    Column("partner_id", String(32), nullable=True),
    Column("answers", Text, nullable=True),
    Column("table_id", String(32), nullable=True, index=True),
    Column("created_at", Float, nullable=False),
    # The owner chose the campaign seed (so every game's deal): each game's table says so. Added after
    # the first layout (NULL in older rows reads as drawn by the server).
    Column("seed_chosen", Boolean, nullable=True),
)

#: Columns added to the first layout (see :func:`holotable.server.storage.add_columns`).
ADDED_COLUMNS: dict[str, tuple[str, ...]] = {"kyrum_campaigns": ("seed_chosen",)}

games_t = Table(
    "kyrum_campaign_games",
    metadata,
    Column("campaign_id", String(32), primary_key=True),
    Column("game", Integer, primary_key=True, autoincrement=False),
    Column("table_id", String(32), nullable=False),
    Column("status", String(16), nullable=False),
)

messages_t = Table(
    "kyrum_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("campaign_id", String(32), nullable=False, index=True),
    Column("direction", String(4), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("sender", String(200), nullable=False),
    Column("game", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("score", Integer, nullable=True),
    Column("digest", String(64), nullable=False),
    Column("used_in_game", Integer, nullable=True),
    UniqueConstraint("campaign_id", "direction", "digest", name="kyrum_messages_once"),
)

notes_t = Table(
    "kyrum_notes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("campaign_id", String(32), nullable=False, index=True),
    Column("text", Text, nullable=False),
)

invites_t = Table(
    "kyrum_link_invites",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("campaign_id", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
)


class Conflict(CampaignConflict):
    """Another request changed the campaign first; nothing was written."""


@dataclass(frozen=True)
class CampaignRow:
    id: str
    name: str
    token_hash: str
    uid: str
    pack: str
    state: CampaignState
    revision: int
    partner_id: str | None
    answers: dict[str, int] | None
    table_id: str | None
    created_at: float
    #: The owner chose the campaign seed (rather than the server drawing it).
    seed_chosen: bool = False

    # what the campaign service reads of a record (holotable.games.kyrum.service.CampaignRecord)
    @property
    def pack_ref(self) -> str:
        return self.pack

    @property
    def playing(self) -> bool:
        return self.table_id is not None


def _row(raw: Any) -> CampaignRow:
    answers = None if raw["answers"] is None else {str(k): int(v) for k, v in json.loads(raw["answers"]).items()}
    return CampaignRow(id=raw["id"], name=raw["name"], token_hash=raw["token_hash"], uid=raw["uid"],
                       pack=raw["pack"], state=CampaignState.from_json(raw["state"]), revision=int(raw["revision"]),
                       partner_id=raw["partner_id"], answers=answers, table_id=raw["table_id"],
                       created_at=float(raw["created_at"]), seed_chosen=bool(raw["seed_chosen"]))


class CampaignStore:
    """The campaign tables on the server's engine; every method is one short transaction. It is the
    server's :class:`~holotable.games.kyrum.service.CampaignStorage`: its records are
    :class:`CampaignRow` values, read afresh for each request."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create_schema(self) -> None:
        metadata.create_all(self.engine)
        add_columns(self.engine, metadata, ADDED_COLUMNS)

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    # ------------------------------------------------------------------ reads
    def get(self, campaign_id: str) -> CampaignRow | None:
        with self.engine.connect() as conn:
            raw = conn.execute(select(campaigns_t).where(campaigns_t.c.id == campaign_id)).mappings().first()
        return None if raw is None else _row(raw)

    def by_table(self, table_id: str) -> CampaignRow | None:
        with self.engine.connect() as conn:
            raw = conn.execute(select(campaigns_t).where(campaigns_t.c.table_id == table_id)).mappings().first()
        return None if raw is None else _row(raw)

    def campaign_of_table(self, table_id: str) -> str | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(games_t.c.campaign_id).where(games_t.c.table_id == table_id)).first()
        return None if found is None else str(found[0])

    def playing(self) -> list[CampaignRow]:
        """The campaigns with a game on a table (to fold the ones whose table finished while we were down)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(campaigns_t).where(campaigns_t.c.table_id.is_not(None))).mappings().all()
        return [_row(r) for r in rows]

    def games(self, campaign_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(games_t).where(games_t.c.campaign_id == campaign_id)
                                .order_by(games_t.c.game)).mappings().all()
        return [{"game": r["game"], "table_id": r["table_id"], "status": r["status"]} for r in rows]

    def messages(self, row: CampaignRow, direction: str | None = None) -> list[Message]:
        query = select(messages_t).where(messages_t.c.campaign_id == row.id).order_by(messages_t.c.id)
        if direction is not None:
            query = query.where(messages_t.c.direction == direction)
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return [Message(r["id"], r["direction"], r["kind"], r["sender"], r["game"], r["text"], r["score"],
                           r["used_in_game"]) for r in rows]

    def partner(self, row: CampaignRow) -> CampaignRow | None:
        return None if row.partner_id is None else self.get(row.partner_id)

    def notes(self, campaign_id: str) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(notes_t.c.text).where(notes_t.c.campaign_id == campaign_id)
                                .order_by(notes_t.c.id)).all()
        return [r[0] for r in rows]

    # ------------------------------------------------------------------ writes
    def insert(self, row: CampaignRow) -> None:
        with self._tx() as conn:
            conn.execute(insert(campaigns_t).values(
                id=row.id, name=row.name, token_hash=row.token_hash, uid=row.uid, pack=row.pack,
                state=row.state.to_json(), revision=0, partner_id=None, answers=None, table_id=None,
                created_at=row.created_at, seed_chosen=row.seed_chosen))

    @staticmethod
    def _bump(conn: Connection, row: CampaignRow, **values: Any) -> None:
        done = conn.execute(update(campaigns_t)
                            .where(campaigns_t.c.id == row.id, campaigns_t.c.revision == row.revision)
                            .values(revision=row.revision + 1, **values)).rowcount
        if done != 1:
            raise Conflict(f"campaign {row.id} was changed by another request; try again")

    def save_state(self, row: CampaignRow, state: CampaignState) -> None:
        with self._tx() as conn:
            self._bump(conn, row, state=state.to_json())

    def start_game(self, row: CampaignRow, state: CampaignState, number: int, table_id: str,
                   used_messages: list[int]) -> None:
        """The campaign now plays ``number`` on ``table_id``; the partner messages it hears are marked used."""
        with self._tx() as conn:
            self._bump(conn, row, state=state.to_json(), table_id=table_id)
            conn.execute(insert(games_t).values(campaign_id=row.id, game=number, table_id=table_id,
                                                status="playing"))
            for mid in used_messages:
                conn.execute(update(messages_t).where(messages_t.c.id == mid).values(used_in_game=number))

    def add_note(self, row: CampaignRow, text: str, state: CampaignState | None) -> None:
        """Between games the note joins the journal now (``state``); during a game it waits for the fold."""
        with self._tx() as conn:
            if state is not None:
                self._bump(conn, row, state=state.to_json())
            else:
                self._bump(conn, row)
                conn.execute(insert(notes_t).values(campaign_id=row.id, text=text))

    def fold(self, campaign_id: str, number: int, table_id: str, fold: Any, sent: list[tuple[int, str]]) -> bool:
        """Fold game ``number`` (played on ``table_id``) once: ``fold(state, notes) -> CampaignState``.

        Returns false, writing nothing, when that game was already folded (or is not this campaign's)."""
        with self._tx() as conn:
            done = conn.execute(update(games_t).where(
                games_t.c.campaign_id == campaign_id, games_t.c.game == number, games_t.c.table_id == table_id,
                games_t.c.status == "playing").values(status="folded")).rowcount
            if done != 1:
                return False
            raw = conn.execute(select(campaigns_t).where(campaigns_t.c.id == campaign_id)).mappings().first()
            assert raw is not None
            row = _row(raw)
            notes = [r[0] for r in conn.execute(select(notes_t.c.text).where(notes_t.c.campaign_id == campaign_id)
                                                .order_by(notes_t.c.id)).all()]
            folded: CampaignState = fold(row.state, notes)
            for game, text in sent:  # a message whose after-action record was lost in a crash is kept now
                self._record_send(conn, row, game, text)
            conn.execute(delete(notes_t).where(notes_t.c.campaign_id == campaign_id))
            self._bump(conn, row, state=folded.to_json(), table_id=None)
            return True

    def record_send(self, campaign_id: str, game: int, text: str) -> None:
        with self._tx() as conn:
            raw = conn.execute(select(campaigns_t).where(campaigns_t.c.id == campaign_id)).mappings().first()
            if raw is not None:
                self._record_send(conn, _row(raw), game, text)

    @staticmethod
    def _insert_message(conn: Connection, campaign_id: str, direction: str, body: dict[str, Any]) -> int | None:
        digest = partner_codes.digest(body)
        exists = conn.execute(select(messages_t.c.id).where(
            messages_t.c.campaign_id == campaign_id, messages_t.c.direction == direction,
            messages_t.c.digest == digest)).first()
        if exists is not None:
            return None
        result = conn.execute(insert(messages_t).values(
            campaign_id=campaign_id, direction=direction, kind=body["kind"], sender=body["from"], game=body["game"],
            text=body["text"], score=body["score"], digest=digest, used_in_game=None))
        key = result.inserted_primary_key
        return None if key is None else int(key[0])

    def _record_send(self, conn: Connection, row: CampaignRow, game: int, text: str) -> None:
        if not text:
            return
        body = partner_codes.payload(row.state.pack_id, row.name, row.uid, game, "message", text, None)
        self._insert_message(conn, row.id, "out", body)
        if row.partner_id is not None:
            self._insert_message(conn, row.partner_id, "in", body)

    def import_message(self, row: CampaignRow, body: dict[str, Any]) -> int | None:
        """A partner's code received by hand: its message id; ``None`` when it was already received."""
        with self._tx() as conn:
            new = self._insert_message(conn, row.id, "in", body)
            if new is None:
                return None
            self._bump(conn, row)
            return new

    def save_answers(self, row: CampaignRow, answers: dict[str, int], state: CampaignState | None) -> None:
        with self._tx() as conn:
            values: dict[str, Any] = {"answers": json.dumps(answers, sort_keys=True)}
            if state is not None:
                values["state"] = state.to_json()
            self._bump(conn, row, **values)

    # ------------------------------------------------------------------ partner link
    def add_invite(self, row: CampaignRow, code_hash: str, now: float) -> None:
        with self._tx() as conn:
            conn.execute(delete(invites_t).where(invites_t.c.campaign_id == row.id))  # one open invite each
            conn.execute(insert(invites_t).values(code_hash=code_hash, campaign_id=row.id, created_at=now))

    def invite_owner(self, code_hash: str) -> str | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(invites_t.c.campaign_id).where(invites_t.c.code_hash == code_hash)).first()
        return None if found is None else str(found[0])

    def link(self, first: CampaignRow, second: CampaignRow, code_hash: str) -> None:
        """Both campaigns name each other; the invite is used up. Any change in between refuses it all."""
        with self._tx() as conn:
            gone = conn.execute(delete(invites_t).where(invites_t.c.code_hash == code_hash)).rowcount
            if gone != 1:
                raise Conflict("that link code was used or withdrawn meanwhile")
            self._bump(conn, first, partner_id=second.id)
            self._bump(conn, second, partner_id=first.id)
