"""Kyrum campaigns kept in an embedded SQLite database (spec §4.3, KYR-CAMPAIGN-01..10).

This is the terminal's storage of the campaign service (:mod:`.service`): what a campaign may do is
decided there; this module keeps it, and plays the running game in process.

One database file holds any number of campaigns, each by a unique name. A campaign row keeps the
:class:`~holotable.games.kyrum.campaign.CampaignState` as JSON; the game being played is kept as its
:class:`~holotable.engine.Match` (config, seed, action log, one row per action) and rebuilt by
replaying it, so a campaign resumes exactly where it stopped, even in the middle of a script.

Every accepted action is written in its own transaction before :meth:`Campaign.play` returns; a
finished game is folded into the campaign in the same transaction as its last action. A stored row
that cannot be read (bad JSON, an action that no longer replays, a gap in the log) raises
:class:`StoreError` naming the campaign, game and row, and nothing of it is used.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as tmp, KyrumStore(pathlib.Path(tmp) / "k.sqlite3") as store:
...     camp = store.create("solo", seed=5)
...     _ = camp.start_game()
...     camp.game_number, [c.name for c in store.campaigns()]
(1, ['solo'])
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holotable.engine import (
    ConfigError,
    DataError,
    Event,
    IllegalActionError,
    Match,
    SaveError,
    SeedSeal,
    State,
    registry,
)

from . import partner as partner_codes
from .campaign import CampaignState, new_campaign, start_game
from .pack import DEFAULT_PACK, PACKS_DIR, Pack, load_pack, resolve_pack_path
from .service import (
    CampaignConflict,
    CampaignError,
    CampaignService,
    Message,
    campaign_name,
    folded,
    sent_message,
)
from .service import item_id as service_item_id

SCHEMA_VERSION = 1
DB_NAME = "kyrum.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS campaigns (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    uid TEXT NOT NULL UNIQUE,
    pack TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    state TEXT NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0,
    partner_id INTEGER REFERENCES campaigns(id),
    answers TEXT
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    game INTEGER NOT NULL,
    config TEXT NOT NULL,
    seed TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished')),
    result TEXT,
    UNIQUE (campaign_id, game)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    direction TEXT NOT NULL CHECK (direction IN ('out', 'in')),
    kind TEXT NOT NULL CHECK (kind IN ('message', 'score')),
    sender TEXT NOT NULL,
    game INTEGER NOT NULL,
    text TEXT NOT NULL DEFAULT '',
    score INTEGER,
    digest TEXT NOT NULL,
    used_in_game INTEGER,
    UNIQUE (campaign_id, direction, digest)
);
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    text TEXT NOT NULL
);
"""


#: The campaign database cannot do what was asked, or holds something unreadable: the service's error,
#: so that one ``except`` catches what the book and the campaign rules refuse.
StoreError = CampaignError


def default_database_path() -> Path:
    """``$XDG_DATA_HOME/holotable/kyrum.sqlite3`` (``~/.local/share`` when the variable is unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "holotable" / DB_NAME


def pack_reference(pack: str | Path) -> str:
    """How a campaign names its pack: the id of a shipped pack, otherwise an absolute directory."""
    root = resolve_pack_path(pack).resolve()
    if root.parent == PACKS_DIR.resolve():
        return root.name
    return str(root)


@dataclass(frozen=True)
class CampaignInfo:
    """One line of the campaign list."""

    name: str
    pack_id: str
    partner: bool
    partner_name: str | None
    finished_games: int
    length: int
    np_bank: int
    playing: int | None
    questionnaire: str | None


class KyrumStore:
    """A campaign database; :meth:`open` gives a :class:`Campaign` to play. It is the terminal's
    :class:`~holotable.games.kyrum.service.CampaignStorage`: its records are the :class:`Campaign`
    objects it opens, kept up to date by each write."""

    def __init__(self, path: str | Path, *, timeout: float = 10.0, seal: SeedSeal | None = None) -> None:
        self.path = Path(path)
        #: Seals the seeds the book holds (the campaign's and each game's), so that a player who opens
        #: the file finds no seed of a running campaign (``holotable kyrum`` passes the user's key,
        #: :mod:`holotable.cli.seal`); ``None`` stores them in the clear.
        self.seal = seal
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(str(path), timeout=timeout, isolation_level=None)
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.execute("PRAGMA journal_mode = WAL")  # one sync per commit, readers never blocked
            self.conn.execute("PRAGMA synchronous = FULL")  # a committed action survives a crash
            with self.transaction():
                for stmt in filter(str.strip, SCHEMA.split(";")):
                    self.conn.execute(stmt)
                row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
                if row is None:
                    self.conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
                elif row[0] != str(SCHEMA_VERSION):
                    raise StoreError(f"{path}: database schema version {row[0]} is not supported "
                                     f"(this holotable reads version {SCHEMA_VERSION})")
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise StoreError(f"{path} is not a usable Kyrum campaign database: {exc}") from None
        except StoreError:
            self.conn.close()
            raise

    # ------------------------------------------------------------------ plumbing
    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> KyrumStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All or nothing: a write lock for the whole block, committed (durably) at its end."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # ------------------------------------------------------------------ sealed seeds
    def state_text(self, state: CampaignState) -> str:
        """The ``campaigns.state`` column for ``state``: its JSON, the campaign seed sealed."""
        data = state.to_dict()
        if self.seal is not None:
            data["campaign_seed"] = self.seal.seal(int(data["campaign_seed"]))
        return json.dumps(data, sort_keys=True)

    def state_of(self, text: str) -> CampaignState:
        """The campaign state a ``campaigns.state`` column holds (sealed or not); ``DataError`` if unreadable."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise DataError(f"not valid JSON: {exc}") from None
        if isinstance(data, dict) and isinstance(data.get("campaign_seed"), str):
            data = {**data, "campaign_seed": self._unseal(data["campaign_seed"])}
        return CampaignState.from_dict(data)

    def _unseal(self, token: str) -> int:
        if self.seal is None:
            raise DataError("its seeds are sealed with a key of this computer's user; open it with "
                            "'holotable kyrum'")
        try:
            return self.seal.unseal(token)
        except SaveError as exc:
            raise DataError(str(exc)) from None

    def config_text(self, config: Mapping[str, Any]) -> str:
        """The ``games.config`` column: the game's config, the campaign inside it sealed as above."""
        params = dict(config.get("params", {}))
        if isinstance(params.get("campaign"), str) and params["campaign"]:
            params["campaign"] = self.state_text(CampaignState.from_json(params["campaign"]))
        return json.dumps({**config, "params": params})

    def config_of(self, text: str) -> dict[str, Any]:
        raw = json.loads(text)
        if not isinstance(raw, dict):
            raise DataError("a game config must be a JSON object")
        params = raw.get("params", {})
        if isinstance(params, dict) and isinstance(params.get("campaign"), str) and params["campaign"]:
            raw = {**raw, "params": {**params, "campaign": self.state_of(params["campaign"]).to_json()}}
        return raw

    def seed_text(self, seed: int) -> str:
        return str(seed) if self.seal is None else self.seal.seal(seed)

    def seed_of(self, text: object) -> int:
        if isinstance(text, str) and text.isdigit():
            return int(text)
        if isinstance(text, str) and text.startswith("sealed"):  # a seal's token names itself
            return self._unseal(text)
        raise DataError(f"the stored game seed {text!r} is not a number")

    def _row(self, name: str) -> tuple[Any, ...]:
        row = self.conn.execute("SELECT id, name, uid, pack, options, state, revision, partner_id, answers "
                                "FROM campaigns WHERE name = ?", (name,)).fetchone()
        if row is None:
            known = ", ".join(self.names()) or "none yet"
            raise StoreError(f"no campaign named {name!r} in {self.path} (campaigns: {known})")
        return tuple(row)

    # ------------------------------------------------------------------ campaigns
    def names(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM campaigns ORDER BY id")]

    def latest(self) -> str:
        """The campaign written to most recently (for commands given no name)."""
        row = self.conn.execute(
            "SELECT c.name FROM campaigns c LEFT JOIN games g ON g.campaign_id = c.id "
            "LEFT JOIN actions a ON a.game_id = g.id GROUP BY c.id "
            "ORDER BY MAX(COALESCE(a.rowid, 0)) DESC, MAX(COALESCE(g.id, 0)) DESC, c.id DESC LIMIT 1").fetchone()
        if row is None:
            raise StoreError(f"no campaign in {self.path} yet; create one with 'holotable kyrum new NAME'")
        return str(row[0])

    def create(self, name: str, pack: str | Path = DEFAULT_PACK, *, seed: int | None = None, partner: bool = False,
               partner_name: str | None = None, options: Mapping[str, Any] | None = None) -> Campaign:
        """A new campaign (KYR-CAMPAIGN-01/09): partner mode is fixed here, for good."""
        name = campaign_name(name)
        try:
            ref = pack_reference(pack)
            built = load_pack(ref)
        except DataError as exc:
            raise StoreError(str(exc)) from None
        opts = dict(options or {})
        for key in ("pack", "campaign", "partner"):
            if key in opts:
                raise StoreError(f"option {key!r} is set by the campaign itself")
        try:
            registry.load("kyrum").spec.make_config(1, pack=ref, **opts)
        except ConfigError as exc:
            raise StoreError(f"bad campaign option: {exc}") from None
        camp_seed = secrets.randbits(62) if seed is None else int(seed)
        state = new_campaign(built, seed=camp_seed, partner=partner, partner_name=partner_name)
        try:
            with self.transaction() as db:
                db.execute("INSERT INTO campaigns (name, uid, pack, options, state) VALUES (?, ?, ?, ?, ?)",
                           (name, secrets.token_hex(4), ref, json.dumps(opts, sort_keys=True), self.state_text(state)))
        except sqlite3.IntegrityError:
            raise StoreError(f"a campaign named {name!r} already exists in {self.path}") from None
        return self.open(name)

    def open(self, name: str) -> Campaign:
        """The campaign with its running game rebuilt; :class:`StoreError` if any stored row is unreadable."""
        return Campaign(self, self._row(name))

    def campaigns(self) -> list[CampaignInfo]:
        out = []
        for name in self.names():
            cid, _, _, _, _, state_json, _, partner_id, answers = self._row(name)
            try:
                state = self.state_of(state_json)
            except DataError as exc:
                raise StoreError(f"campaign {name!r}: the saved campaign state is corrupt: {exc}") from None
            playing = self.conn.execute("SELECT game FROM games WHERE campaign_id = ? AND status = 'playing'",
                                        (cid,)).fetchone()
            partner = self.conn.execute("SELECT name FROM campaigns WHERE id = ?", (partner_id,)).fetchone()
            done = sum(1 for r in state.scoreboard if r["result"] is not None)
            quest = state.questionnaire["status"] if state.questionnaire else ("answered" if answers else None)
            out.append(CampaignInfo(name, state.pack_id, bool(state.partner.get("enabled")),
                                    partner[0] if partner else state.partner.get("partner_name"), done,
                                    len(state.scoreboard), state.np_bank, playing[0] if playing else None, quest))
        return out

    def link(self, first: str, second: str) -> None:
        """Make two partner-mode campaigns of this database each other's Black Hole partner (KYR-CAMPAIGN-09)."""
        if first == second:
            raise StoreError("a campaign cannot be its own Black Hole partner")
        a, b = self.open(first), self.open(second)
        self.service.check_link(a, b)
        with self.transaction() as db:
            a._bump(db)
            b._bump(db)
            db.execute("UPDATE campaigns SET partner_id = ? WHERE id = ?", (b.id, a.id))
            db.execute("UPDATE campaigns SET partner_id = ? WHERE id = ?", (a.id, b.id))

    # ------------------------------------------------------------------ the service's storage
    @property
    def service(self) -> CampaignService:
        return CampaignService(self)

    def messages(self, camp: Campaign, direction: str | None = None) -> list[Message]:
        sql = ("SELECT id, direction, kind, sender, game, text, score, used_in_game FROM messages "
               "WHERE campaign_id = ?")
        args: list[Any] = [camp.id]
        if direction is not None:
            sql += " AND direction = ?"
            args.append(direction)
        return [Message(*r) for r in self.conn.execute(sql + " ORDER BY id", args)]

    def partner(self, camp: Campaign) -> Campaign | None:
        if camp.partner_id is None:
            return None
        row = self.conn.execute("SELECT name FROM campaigns WHERE id = ?", (camp.partner_id,)).fetchone()
        return None if row is None else self.open(row[0])

    def save_state(self, camp: Campaign, state: CampaignState) -> None:
        with self.transaction() as db:
            camp._bump(db)
            camp._save_state(db, state)
        camp.revision += 1
        camp.state = state

    def save_answers(self, camp: Campaign, answers: dict[str, int], state: CampaignState | None) -> None:
        with self.transaction() as db:
            camp._bump(db)
            db.execute("UPDATE campaigns SET answers = ? WHERE id = ?", (json.dumps(answers, sort_keys=True), camp.id))
            if state is not None:
                camp._save_state(db, state)
        camp.revision += 1
        camp.answers = answers
        if state is not None:
            camp.state = state

    def add_note(self, camp: Campaign, text: str, state: CampaignState | None) -> None:
        with self.transaction() as db:
            camp._bump(db)
            if state is not None:
                camp._save_state(db, state)
            else:
                db.execute("INSERT INTO notes (campaign_id, text) VALUES (?, ?)", (camp.id, text))
        camp.revision += 1
        if state is not None:
            camp.state = state

    def import_message(self, camp: Campaign, body: dict[str, Any]) -> int | None:
        try:
            with self.transaction() as db:
                camp._bump(db)
                cur = db.execute(
                    "INSERT INTO messages (campaign_id, direction, kind, sender, game, text, score, digest) "
                    "VALUES (?, 'in', ?, ?, ?, ?, ?, ?)",
                    (camp.id, body["kind"], body["from"], body["game"], body["text"], body["score"],
                     partner_codes.digest(body)))
        except sqlite3.IntegrityError:
            return None
        camp.revision += 1
        return cur.lastrowid


class Campaign:
    """One campaign of a :class:`KyrumStore`: its state, its running game, and every change to them."""

    def __init__(self, store: KyrumStore, row: tuple[Any, ...]) -> None:
        self.store = store
        self.id: int = row[0]
        self.name: str = row[1]
        self.uid: str = row[2]
        self.pack_ref: str = row[3]
        self.revision: int = row[6]
        self.partner_id: int | None = row[7]
        where = f"campaign {self.name!r}"
        try:
            self.options: dict[str, Any] = json.loads(row[4])
            if not isinstance(self.options, dict):
                raise DataError("options must be a JSON object")
            self.state = store.state_of(row[5])
            self.answers: dict[str, int] | None = None if row[8] is None else _answers(json.loads(row[8]))
        except (DataError, ValueError, TypeError) as exc:
            raise StoreError(f"{where}: the saved campaign row is corrupt: {exc}; nothing was loaded") from None
        try:
            self.pack: Pack = load_pack(self.pack_ref)
        except DataError as exc:
            raise StoreError(f"{where}: its content pack cannot be loaded: {exc}") from None
        if self.pack.pack_id != self.state.pack_id:
            raise StoreError(f"{where}: the saved state is for pack {self.state.pack_id!r}, "
                             f"but {self.pack_ref} holds {self.pack.pack_id!r}")
        self.game_id: int | None = None
        self.match: Match | None = None
        self._load_running_game()

    # ------------------------------------------------------------------ loading
    def _load_running_game(self) -> None:
        db = self.store.conn
        rows = db.execute("SELECT id, game, config, seed FROM games WHERE campaign_id = ? AND status = 'playing'",
                          (self.id,)).fetchall()
        if not rows:
            return
        if len(rows) > 1:
            raise StoreError(f"campaign {self.name!r}: several games are marked as being played")
        game_id, number, config_json, seed = rows[0]
        where = f"campaign {self.name!r}, game {number}"
        if number != self.state.next_game:
            raise StoreError(f"{where}: the running game does not follow the scoreboard "
                             f"(next game is {self.state.next_game}); the database is inconsistent")
        actions = db.execute("SELECT ply, seat, action FROM actions WHERE game_id = ? ORDER BY ply",
                             (game_id,)).fetchall()
        for expected, (ply, seat, text) in enumerate(actions, start=1):
            if ply != expected or not isinstance(seat, int) or not isinstance(text, str):
                raise StoreError(f"{where}: stored action {expected} is missing or malformed; nothing was loaded")
        try:
            raw_config = self.store.config_of(config_json)
        except (json.JSONDecodeError, TypeError) as exc:
            raise StoreError(f"{where}: the stored game config is not valid JSON: {exc}") from None
        except DataError as exc:
            raise StoreError(f"{where}: the stored game config cannot be read: {exc}") from None
        if raw_config.get("params", {}).get("campaign") != self.state.to_json():
            raise StoreError(f"{where}: the stored game config does not match the saved campaign state")
        try:
            game_seed = self.store.seed_of(seed)
        except DataError as exc:
            raise StoreError(f"{where}: {exc}") from None
        data = {"format": "holotable-match", "version": 1, "game": "kyrum", "config": raw_config, "seed": game_seed,
                "actions": [{"seat": s, "action": a} for _, s, a in actions], "meta": {}}
        try:
            self.match = Match.from_dict(data)
        except SaveError as exc:
            raise StoreError(f"{where}: the stored game does not replay: {exc}; nothing was loaded") from None
        self.game_id = game_id

    def reload(self) -> Campaign:
        """A fresh copy read from the database (what another session would see)."""
        return self.store.open(self.name)

    # ------------------------------------------------------------------ queries
    @property
    def state_now(self) -> State[Any, Any] | None:
        return None if self.match is None else self.match.state

    @property
    def game_number(self) -> int | None:
        return None if self.match is None else int(self.match.state.data.game)

    @property
    def length(self) -> int:
        return int(self.pack.schedule["length"])

    @property
    def playing(self) -> bool:
        return self.match is not None

    @property
    def complete(self) -> bool:
        """Every scheduled game is finished (KYR-CAMPAIGN-05)."""
        return self.store.service.complete(self)

    @property
    def partner_name(self) -> str | None:
        if self.partner_id is not None:
            row = self.store.conn.execute("SELECT name FROM campaigns WHERE id = ?", (self.partner_id,)).fetchone()
            return None if row is None else str(row[0])
        name = self.state.partner.get("partner_name")
        return None if name is None else str(name)

    def messages(self, direction: str | None = None) -> list[Message]:
        return self.store.messages(self, direction)

    def notes_pending(self) -> list[str]:
        return [r[0] for r in self.store.conn.execute("SELECT text FROM notes WHERE campaign_id = ? ORDER BY id",
                                                      (self.id,))]

    # ------------------------------------------------------------------ writing
    def _bump(self, db: sqlite3.Connection) -> None:
        """Optimistic lock: refuse to write over changes made by another session since this one read."""
        cur = db.execute("UPDATE campaigns SET revision = revision + 1 WHERE id = ? AND revision = ?",
                         (self.id, self.revision))
        if cur.rowcount != 1:
            raise CampaignConflict(f"campaign {self.name!r} was changed by another session; open it again")

    def _save_state(self, db: sqlite3.Connection, state: CampaignState) -> None:
        db.execute("UPDATE campaigns SET state = ? WHERE id = ?", (self.store.state_text(state), self.id))

    def start_game(self) -> Match:
        """Start the next scheduled game (KYR-SETUP-01, KYR-CAMPAIGN-02); partner messages received so far
        are handed to it (they are heard at the next Black Hole, KYR-ENC-09)."""
        if self.match is not None:
            raise IllegalActionError(f"game {self.game_number} is already being played; continue it",
                                     rule="KYR-CAMPAIGN-02")
        number = self.state.next_game
        state, inbox = self.store.service.next_game(self)
        st = start_game(state, self.pack_ref, **self.options)
        match = Match(st.game, st.config, st.seed)
        with self.store.transaction() as db:
            self._bump(db)
            self._save_state(db, state)
            cur = db.execute("INSERT INTO games (campaign_id, game, config, seed, status) VALUES (?, ?, ?, ?, ?)",
                             (self.id, number, self.store.config_text(match.config.to_dict()),
                              self.store.seed_text(match.seed), "playing"))
            for m in inbox:
                db.execute("UPDATE messages SET used_in_game = ? WHERE id = ?", (number, m.id))
        self.revision += 1
        self.state, self.match, self.game_id = state, match, cur.lastrowid
        return match

    def play(self, action: object) -> list[Event]:
        """Apply one action of the running game and store it durably before returning its events.

        A refused action raises :class:`~holotable.engine.ActionError` and changes nothing; when the
        action ends the game (after its market closes), the game is folded into the campaign in the same
        transaction (KYR-END-04, KYR-CAMPAIGN-02/04).
        """
        if self.match is None or self.game_id is None:
            raise IllegalActionError("no game is being played; start the next one first", rule="KYR-CAMPAIGN-02")
        match = self.match
        before = len(match.state.events or [])
        backup = match.state.clone()
        match.play(action)  # refused actions raise here and change nothing
        seat, text = match.actions[-1]
        st = match.state
        try:
            with self.store.transaction() as db:
                self._bump(db)
                db.execute("INSERT INTO actions (game_id, ply, seat, action) VALUES (?, ?, ?, ?)",
                           (self.game_id, len(match.actions), seat, text))
                message = sent_message(st.game, text)
                if message is not None:
                    self._send(db, st.data.game, message)
                done = None
                if st.is_terminal():
                    done = self._fold(db, st)
        except BaseException as exc:
            match.state = backup
            match.actions.pop()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"campaign {self.name!r}: the action could not be saved: {exc}") from None
            raise
        self.revision += 1
        if done is not None:
            self.state, self.match, self.game_id = done, None, None
        return list((st.events or [])[before:])

    def _fold(self, db: sqlite3.Connection, st: State[Any, Any]) -> CampaignState:
        out = folded(self.state, st, self.notes_pending())
        db.execute("DELETE FROM notes WHERE campaign_id = ?", (self.id,))
        self._save_state(db, out)
        db.execute("UPDATE games SET status = 'finished', result = ? WHERE id = ?",
                   (json.dumps(st.data.result, sort_keys=True), self.game_id))
        return out

    def _send(self, db: sqlite3.Connection, game: int, text: str) -> None:
        """Keep an outgoing Black Hole message; hand it to a partner campaign of this database."""
        body = partner_codes.payload(self.state.pack_id, self.name, self.uid, game, "message", text, None)
        digest = partner_codes.digest(body)
        db.execute("INSERT OR IGNORE INTO messages (campaign_id, direction, kind, sender, game, text, digest) "
                   "VALUES (?, 'out', 'message', ?, ?, ?, ?)", (self.id, self.name, game, text, digest))
        if self.partner_id is not None:
            db.execute("INSERT OR IGNORE INTO messages (campaign_id, direction, kind, sender, game, text, digest) "
                       "VALUES (?, 'in', 'message', ?, ?, ?, ?)", (self.partner_id, self.name, game, text, digest))

    def concede(self) -> list[Event]:
        return self.play("concede")

    # ------------------------------------------------------------------ the service's operations
    def set_comment(self, text: str, game: int | None = None) -> None:
        """The scoreboard comment of the last finished game, until the next game starts (KYR-AMB-45)."""
        self.store.service.set_comment(self, text, game)

    def add_note(self, text: str) -> None:
        """A journal note; written during a game it joins the journal when the game is folded."""
        self.store.service.add_note(self, text)

    def item_id(self, ref: str) -> str:
        """``T01``, ``t1`` (pack order) or an item name, to the item id."""
        return service_item_id(self.pack, ref)

    def buy(self, ref: str) -> str:
        """A Thoth purchase between games (KYR-THOTH-01/04)."""
        return self.store.service.buy(self, ref)

    def own_score(self) -> int | None:
        return self.store.service.own_score(self)

    def partner_score(self) -> int | None:
        """The partner's questionnaire score: an imported score code, else the linked campaign's answers."""
        return self.store.service.partner_score(self)

    def answer_questionnaire(self, answers: Mapping[str, int], partner_score: int | None = None) -> CampaignState:
        """Record the answers (once) and score the questionnaire when the partner's score is known
        (:meth:`CampaignService.answer_questionnaire`); the campaign state after it."""
        self.store.service.answer_questionnaire(self, answers, partner_score)
        return self.state

    def export_code(self, message: Message | None = None) -> str:
        """An offline code for the partner: the given message, else the latest Black Hole message written."""
        return self.store.service.export_code(self, message)

    def export_score_code(self) -> str:
        return self.store.service.score_code(self)

    def import_code(self, code: str) -> Message:
        """Receive a partner's code: checked completely before anything is written."""
        return self.store.service.import_code(self, code)

def _answers(raw: Any) -> dict[str, int]:
    if not isinstance(raw, dict) or not all(isinstance(k, str) and isinstance(v, int) for k, v in raw.items()):
        raise DataError("answers must map question ids to choice numbers")
    return dict(raw)

