"""Durable storage of tables, seats and action logs (SQLAlchemy Core; SQLite or PostgreSQL).

A table is stored as what rebuilds it exactly: the game, player count, parameters and seed,
its seats (a seat token is stored only as a hash) and the accepted actions in order. Each
accepted action is committed in its own transaction before anyone is told about it, and so is
each action taken back (:meth:`Store.remove_action`).

The tables are created with ``create_all``; a column added since (:data:`ADDED_COLUMNS`) is added
to an older database in place (``ALTER TABLE ... ADD COLUMN``, nullable, so the rows it already
holds read as the column's default); any other difference is refused with the reason.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

DB_NAME = "server.sqlite3"

metadata = MetaData()

tables_t = Table(
    "holotable_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("params", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("clock_mode", String(16), nullable=False),
    Column("clock_seconds", Integer, nullable=False),
    Column("invite", String(64), nullable=False),
    # A public table shows its invitation in the lobby: anyone may take a free seat.
    Column("public", Boolean, nullable=False, default=False),
    Column("status", String(16), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    # When the last human seat was claimed: the seat clocks start then.
    Column("started_at", Float, nullable=True),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch_id", String(32), nullable=True),
    # The seed was chosen by the table's creator (not drawn by the server), and the creator's name:
    # every seat is told. (Added after the first layout: NULL in older rows reads as "drawn".)
    Column("seeded", Boolean, nullable=True),
    Column("seeded_by", String(64), nullable=True),
    # How many actions have been taken back at this table: a client that sees it change knows the
    # table went back (its ply may be lower than the last one it saw). NULL in older rows reads as 0.
    Column("undos", Integer, nullable=True),
    Column("tutorial", Boolean, nullable=True),
)

seats_t = Table(
    "holotable_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("holotable_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(8), nullable=False),
    Column("level", String(16), nullable=True),
    Column("agent", String(200), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("claimed", Boolean, nullable=False),
)

actions_t = Table(
    "holotable_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("holotable_tables.id"), primary_key=True),
    Column("ply", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("source", String(16), nullable=False),
    Column("at", Float, nullable=False),
)

#: Columns added to the first layout, by table: :meth:`Store.create_schema` adds them to an older
#: database (they are nullable; see :func:`_table_record` for what NULL reads as).
ADDED_COLUMNS: dict[str, tuple[str, ...]] = {"holotable_tables": ("seeded", "seeded_by", "undos", "tutorial")}


@dataclass
class Seat:
    """A seat as stored and as a live table holds it (a seat being taken: the manager stores a changed
    copy, then puts it in the table's place)."""

    seat: int
    kind: str
    level: str | None
    agent: str | None
    name: str | None
    token_hash: str | None
    claimed: bool

    def summary(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "name": self.name, "level": self.level,
                "agent": self.agent, "claimed": self.claimed}


@dataclass(frozen=True)
class ActionRecord:
    ply: int
    seat: int
    action: str
    source: str
    at: float


@dataclass(frozen=True)
class TableRecord:
    id: str
    game: str
    players: int
    params: dict[str, Any]
    seed: int
    clock_mode: str
    clock_seconds: int
    invite: str
    status: str
    created_at: float
    started_at: float | None = None
    rematch_of: str | None = None
    rematch_id: str | None = None
    public: bool = False
    #: The creator chose the seed (rather than the server drawing it): the table says so to everyone.
    seeded: bool = False
    #: The name of whoever chose it (``None``: the creator gave none).
    seeded_by: str | None = None
    #: Actions taken back at this table so far.
    undos: int = 0
    #: A guided first game: the game's tutorial (its manifest's ``tutorial``) set it up and teaches at it.
    tutorial: bool = False


class SchemaError(RuntimeError):
    """The database holds tables of another layout."""


class StaleActionError(Exception):
    """The ply was already taken: another writer stored an action first."""


class SoleUseError(RuntimeError):
    """Another server process already uses this SQLite database."""


#: The PostgreSQL channel on which every change to a table is announced (:meth:`Store.notify`).
CHANNEL = "holotable_tables"
#: The longest announcement sent whole (PostgreSQL refuses payloads of 8000 bytes or more).
NOTIFY_LIMIT = 7000


def default_database_path() -> Path:
    """``$XDG_DATA_HOME/holotable/server.sqlite3`` (``~/.local/share`` when the variable is unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "holotable" / DB_NAME


def default_database_url() -> str:
    return f"sqlite:///{default_database_path()}"


def normalise_url(url: str) -> str:
    """A SQLAlchemy URL with the psycopg 3 driver for PostgreSQL (``postgresql://`` alone would
    pick psycopg2, which is not a dependency).

    >>> normalise_url("postgresql://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> normalise_url("sqlite:///x.db")
    'sqlite:///x.db'
    """
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers go on while an action commits; FULL syncs every commit to disk.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Store:
    """The repository: every method is one short transaction (call it from a worker thread)."""

    def __init__(self, url: str) -> None:
        url = normalise_url(url)
        parsed = make_url(url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        in_memory = self.is_sqlite and parsed.database in (None, "", ":memory:")
        if self.is_sqlite and not in_memory:
            Path(str(parsed.database)).expanduser().parent.mkdir(parents=True, exist_ok=True)
        if in_memory:  # one connection shared by every thread, or each would see its own empty database
            self.engine: Engine = create_engine(url, poolclass=StaticPool,
                                                connect_args={"check_same_thread": False})
        else:
            self.engine = create_engine(url, pool_pre_ping=not self.is_sqlite)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.url = url
        #: Several server processes may share this database (PostgreSQL): each change is announced on
        #: :data:`CHANNEL`, and every process catches up with what the others stored.
        self.shared = not self.is_sqlite
        #: Who made a change, in its announcement: a process ignores its own.
        self.origin = secrets.token_hex(8)
        self._sole: int | None = None
        self._sole_path = None if self.is_sqlite is False or in_memory else Path(str(parsed.database)).expanduser()

    def claim_sole_use(self) -> None:
        """Make sure this is the only server process on a SQLite file (a second one would keep its own copy
        of each table and the two would silently diverge): an exclusive lock beside the file, held until
        :meth:`close`. :class:`SoleUseError`, with what to do instead, when another process holds it.
        Nothing to do for PostgreSQL (any number of processes share it) or an in-memory database."""
        if self._sole_path is None or self._sole is not None:
            return
        import fcntl

        lock = self._sole_path.with_name(self._sole_path.name + ".lock")
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise SoleUseError(
                f"another holotable server already uses {self._sole_path}: one SQLite database serves one "
                "process. Stop the other one, give this one its own --database, or use PostgreSQL to run "
                "several processes on the same tables") from None
        self._sole = fd

    def notify(self, conn: Connection, table_id: str, kind: str, **details: Any) -> None:
        """Announce, with the transaction on ``conn`` (delivered when it commits, not before), that the
        table changed; ``kind`` says what (``action``, ``undo``, ``seats``, ``table``, or an extension's
        own, like ``chat``), ``details`` what a listener may use without reading the store (an action's
        row), dropped when they would not fit PostgreSQL's payload limit. A no-op unless the database is
        shared."""
        if self.shared:
            payload = json.dumps({"table": table_id, "kind": kind, "origin": self.origin, **details})
            if len(payload.encode()) > NOTIFY_LIMIT:
                payload = json.dumps({"table": table_id, "kind": kind, "origin": self.origin})
            conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})

    def _version(self, conn: Connection, table_id: str) -> tuple[int, int]:
        """The table's undo count and number of stored actions, its row locked until the transaction ends
        (PostgreSQL: ``FOR UPDATE``; SQLite has one writer at a time anyway), so that two processes
        change one table one after the other."""
        undos = conn.execute(select(tables_t.c.undos).where(tables_t.c.id == table_id).with_for_update()).scalar()
        count = conn.execute(select(func.count()).select_from(actions_t)
                             .where(actions_t.c.table_id == table_id)).scalar_one()
        return int(undos or 0), int(count)

    def create_schema(self) -> None:
        """Create the tables that are missing, add the columns added since (:data:`ADDED_COLUMNS`) to an
        older database, and refuse (with the reason) a database laid out differently."""
        metadata.create_all(self.engine)
        add_columns(self.engine, metadata, ADDED_COLUMNS)
        found = inspect(self.engine)
        for table in metadata.sorted_tables:
            have = {c["name"] for c in found.get_columns(table.name)}
            missing = sorted({c.name for c in table.columns} - have)
            if missing:
                raise SchemaError(
                    f"{table.name} in {self.engine.url.render_as_string(hide_password=True)} lacks the columns "
                    f"{', '.join(missing)}: it was made by another version of holotable; use a new database"
                )

    def close(self) -> None:
        self.engine.dispose()
        if self._sole is not None:
            os.close(self._sole)  # the lock goes with the file descriptor
            self._sole = None

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    # ------------------------------------------------------------------ writes
    def insert_table(self, record: TableRecord, seats: Sequence[Seat]) -> None:
        with self._tx() as conn:
            conn.execute(insert(tables_t).values(
                id=record.id, game=record.game, players=record.players, params=json.dumps(record.params),
                seed=record.seed, clock_mode=record.clock_mode, clock_seconds=record.clock_seconds,
                invite=record.invite, public=record.public, status=record.status, created_at=record.created_at,
                started_at=record.started_at, rematch_of=record.rematch_of, rematch_id=None,
                seeded=record.seeded, seeded_by=record.seeded_by, undos=record.undos,
                tutorial=record.tutorial,
            ))
            conn.execute(insert(seats_t), [
                {"table_id": record.id, "seat": s.seat, "kind": s.kind, "level": s.level, "agent": s.agent,
                 "name": s.name, "token_hash": s.token_hash, "claimed": s.claimed}
                for s in seats
            ])

    def claim_seat(self, table_id: str, seat: int, token_hash: str, name: str | None, status: str,
                   started_at: float | None) -> bool:
        """Claim a free human seat (false if someone else got it first); sets the table's status."""
        with self._tx() as conn:
            done = conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat, seats_t.c.claimed.is_(False))
                .values(claimed=True, token_hash=token_hash, name=name)
            ).rowcount
            if done != 1:
                return False
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(status=status, started_at=started_at))
            self.notify(conn, table_id, "seats")
            return True

    def rename_seat(self, table_id: str, seat: int, name: str) -> None:
        """Set the name a claimed human seat shows at the table."""
        with self._tx() as conn:
            conn.execute(update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                         .values(name=name))
            self.notify(conn, table_id, "seats")

    def append_action(self, table_id: str, action: ActionRecord, status: str, undos: int | None = None) -> None:
        """Commit one accepted action (and the table's status after it) in one transaction.

        The database decides between writers (several processes): the ply is the version (its row may
        be stored once), and so is ``undos`` (the undo count the action was applied after; ``None``:
        not checked), since after an undo the same ply is another position. :class:`StaleActionError`
        when either moved on."""
        try:
            with self._tx() as conn:
                stored_undos, count = self._version(conn, table_id)
                if (undos is not None and stored_undos != undos) or count != action.ply - 1:
                    raise StaleActionError(f"table {table_id} moved on (ply {count}, {stored_undos} undos) before "
                                           f"ply {action.ply} was stored")
                conn.execute(insert(actions_t).values(
                    table_id=table_id, ply=action.ply, seat=action.seat, action=action.action,
                    source=action.source, at=action.at,
                ))
                conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(status=status))
                self.notify(conn, table_id, "action", ply=action.ply, seat=action.seat, action=action.action,
                            source=action.source, at=action.at, undos=stored_undos, status=status)
        except IntegrityError as exc:
            raise StaleActionError(f"ply {action.ply} of table {table_id} is already stored") from exc

    def remove_action(self, table_id: str, action: ActionRecord, status: str, undos: int,
                      last_ply: int | None = None) -> None:
        """Take back one stored action (an undo) in one transaction: delete its row, renumber the rows
        after it (a sealed choice withdrawn from among the others' choices) and set the table's
        status and undo count (``undos``, one more than before). :class:`StaleActionError` when the row
        is not the one expected, or the table moved on: another undo, or an action after ``last_ply``
        (the last ply the undo was worked out from)."""
        with self._tx() as conn:
            stored_undos, count = self._version(conn, table_id)
            if stored_undos != undos - 1 or (last_ply is not None and count != last_ply):
                raise StaleActionError(f"table {table_id} moved on (ply {count}, {stored_undos} undos) before the "
                                       "undo was stored")
            done = conn.execute(delete(actions_t).where(
                actions_t.c.table_id == table_id, actions_t.c.ply == action.ply, actions_t.c.seat == action.seat,
                actions_t.c.action == action.action)).rowcount
            if done != 1:
                raise StaleActionError(f"ply {action.ply} of table {table_id} is not {action.action!r} any more")
            # Two steps, so that no row ever takes a ply another row still holds (the key is checked
            # row by row on SQLite and PostgreSQL): first out of the way (negative), then one down.
            later = (actions_t.c.table_id == table_id, actions_t.c.ply > action.ply)
            conn.execute(update(actions_t).where(*later).values(ply=-actions_t.c.ply))
            conn.execute(update(actions_t).where(actions_t.c.table_id == table_id, actions_t.c.ply < 0)
                         .values(ply=-actions_t.c.ply - 1))
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(status=status, undos=undos))
            self.notify(conn, table_id, "undo")

    def reserve_rematch(self, table_id: str, rematch_id: str) -> str:
        """Name ``rematch_id`` as the table's rematch unless one is named already; the one that stands."""
        with self._tx() as conn:
            done = conn.execute(update(tables_t).where(tables_t.c.id == table_id, tables_t.c.rematch_id.is_(None))
                                .values(rematch_id=rematch_id)).rowcount
            if done == 1:
                self.notify(conn, table_id, "table")
                return rematch_id
            return str(conn.execute(select(tables_t.c.rematch_id).where(tables_t.c.id == table_id)).scalar_one())

    def release_rematch(self, table_id: str, rematch_id: str) -> None:
        """Undo :meth:`reserve_rematch` when the rematch could not be made."""
        with self._tx() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id, tables_t.c.rematch_id == rematch_id)
                         .values(rematch_id=None))

    # ------------------------------------------------------------------ reads
    def table(self, table_id: str) -> tuple[TableRecord, list[Seat], list[ActionRecord]] | None:
        """The table's record, seats and every action (plies count from 1), or ``None``."""
        return self.changes(table_id, 0)

    def changes(self, table_id: str, after_ply: int) -> tuple[TableRecord, list[Seat], list[ActionRecord]] | None:
        """The table's record and seats as stored now, and its actions after ``after_ply`` (to catch up
        with what another process stored), or ``None`` when there is no such table."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if row is None:
                return None
            seats = conn.execute(
                select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
            ).mappings().all()
            actions = conn.execute(
                select(actions_t).where(actions_t.c.table_id == table_id, actions_t.c.ply > after_ply)
                .order_by(actions_t.c.ply)
            ).mappings().all()
        return _table_record(row), [_seat_record(s) for s in seats], [_action_record(a) for a in actions]

    def table_ids(self, statuses: Sequence[str], *, clocked: bool = False) -> list[str]:
        """The ids of the tables of ``statuses``, oldest first; ``clocked``: only those with a seat clock."""
        with self.engine.connect() as conn:
            query = select(tables_t.c.id).where(tables_t.c.status.in_(list(statuses)))
            if clocked:
                query = query.where(tables_t.c.clock_mode != "none")
            rows = conn.execute(query.order_by(tables_t.c.created_at)).all()
        return [r[0] for r in rows]

    def summaries(self, status: str | None, limit: int = 200) -> list[tuple[TableRecord, list[Seat], int]]:
        """The newest tables (optionally of one status) with their seats and action counts."""
        with self.engine.connect() as conn:
            query = select(tables_t).order_by(tables_t.c.created_at.desc()).limit(limit)
            if status is not None:
                query = query.where(tables_t.c.status == status)
            rows = [_table_record(r) for r in conn.execute(query).mappings().all()]
            ids = [r.id for r in rows]
            if not ids:
                return []
            seats: dict[str, list[Seat]] = {i: [] for i in ids}
            for s in conn.execute(
                select(seats_t).where(seats_t.c.table_id.in_(ids)).order_by(seats_t.c.seat)
            ).mappings().all():
                seats[s["table_id"]].append(_seat_record(s))
            counts: dict[str, int] = dict(conn.execute(
                select(actions_t.c.table_id, func.count())
                .where(actions_t.c.table_id.in_(ids)).group_by(actions_t.c.table_id)
            ).all())
        return [(r, seats[r.id], int(counts.get(r.id, 0))) for r in rows]

    def action_count(self, table_id: str) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(
                select(func.count()).select_from(actions_t).where(actions_t.c.table_id == table_id)
            ).scalar_one())


def add_columns(engine: Engine, meta: MetaData, added: dict[str, tuple[str, ...]]) -> list[str]:
    """Add to an existing database the columns of ``meta`` named in ``added`` that it lacks
    (``ALTER TABLE ... ADD COLUMN``, as SQLite and PostgreSQL both take it); return them as
    ``table.column``. Each column must be nullable: the rows already there get NULL."""
    found = inspect(engine)
    present = set(found.get_table_names())
    done: list[str] = []
    with engine.begin() as conn:
        for table_name, names in added.items():
            if table_name not in present:
                continue
            table = meta.tables[table_name]
            have = {c["name"] for c in found.get_columns(table_name)}
            for name in names:
                if name in have:
                    continue
                column = table.c[name]
                assert column.nullable, f"{table_name}.{name} is added to older databases: it must be nullable"
                quote = engine.dialect.identifier_preparer.quote
                kind = column.type.compile(dialect=engine.dialect)
                conn.execute(text(f"ALTER TABLE {quote(table_name)} ADD COLUMN {quote(name)} {kind}"))
                done.append(f"{table_name}.{name}")
    return done


def _table_record(row: Any) -> TableRecord:
    return TableRecord(
        id=row["id"], game=row["game"], players=row["players"], params=json.loads(row["params"]),
        seed=int(row["seed"]), clock_mode=row["clock_mode"], clock_seconds=row["clock_seconds"],
        invite=row["invite"], public=bool(row["public"]), status=row["status"], created_at=row["created_at"],
        started_at=row["started_at"], rematch_of=row["rematch_of"], rematch_id=row["rematch_id"],
        seeded=bool(row["seeded"]), seeded_by=row["seeded_by"], undos=int(row["undos"] or 0),
        tutorial=bool(row["tutorial"]),
    )


def _seat_record(row: Any) -> Seat:
    return Seat(
        seat=row["seat"], kind=row["kind"], level=row["level"], agent=row["agent"], name=row["name"],
        token_hash=row["token_hash"], claimed=bool(row["claimed"]),
    )


def _action_record(row: Any) -> ActionRecord:
    return ActionRecord(ply=row["ply"], seat=row["seat"], action=row["action"], source=row["source"], at=row["at"])
