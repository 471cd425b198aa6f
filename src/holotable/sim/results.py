"""A results file: every finished game of a simulation run, saved as it finishes, so that a run can resume.

The file is an SQLite database (the standard library's :mod:`sqlite3`) with two tables:

* ``run``: the run's metadata, one ``key``/``value`` row each (JSON values): ``format``, ``game``,
  ``players``, ``params``, ``agents``, ``seed``, ``rotate`` and ``schedule``. Together they fix every
  game's result, so a file only ever takes more games of the *same* run; the number of games, the
  workers and the backend are free to change between sessions, because they never change a result.
* ``games``: one row per finished game: ``part`` (0, or the scheduled game's number for a schedule
  run), ``idx`` (the game's index) and ``record`` (:meth:`GameRecord.to_dict` as JSON).

Each batch of games is committed as one transaction, so a run killed at any moment leaves every
earlier batch intact and no half-written row.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "results.sqlite"
>>> meta = run_metadata("captain-black", 2, {"max_handful": 5}, ["random"], 1, rotate=True)
>>> with ResultsFile.open(path, meta, resume=False) as store:
...     store.finished()
{}
>>> with ResultsFile.open(path, {**meta, "seed": 2}, resume=True) as store:
...     pass
Traceback (most recent call last):
...
holotable.sim.results.ResultsMismatchError: ... holds another run: seed is 1 there, 2 here; ...
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from holotable.engine import ConfigError

from .record import GameRecord

#: Written into every results file; a file of another format is refused instead of misread.
FORMAT = "holotable-simulation-results/1"

#: The metadata every file holds, in the order error messages list them.
METADATA_KEYS = ("format", "game", "players", "params", "agents", "seed", "rotate", "schedule")


class ResultsFileError(ConfigError):
    """A results file that cannot be used: not a results file, unreadable, or already there."""


class ResultsMismatchError(ResultsFileError):
    """A results file that holds another run (its metadata differ from the run asked for)."""


def run_metadata(
    game: str,
    players: int,
    params: Mapping[str, Any],
    agents: Sequence[str],
    seed: int,
    *,
    rotate: bool,
    schedule: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The metadata that fix a run's results (``params`` as the game's configuration normalised them)."""
    return {
        "format": FORMAT,
        "game": game,
        "players": players,
        "params": _plain(dict(params)),
        "agents": list(agents),
        "seed": seed,
        "rotate": rotate,
        "schedule": None if schedule is None else _plain(dict(schedule)),
    }


def _plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists), so that comparisons are like for like."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


class ResultsFile:
    """An open results file. Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(self, path: Path, connection: sqlite3.Connection, metadata: dict[str, Any]) -> None:
        self.path = path
        self.metadata = metadata
        self._db = connection

    @classmethod
    def open(cls, path: str | Path, metadata: Mapping[str, Any], *, resume: bool) -> Self:
        """Create ``path`` for a new run, or (``resume``) reopen the same run's file to add its missing games.

        Raises :class:`ResultsFileError` when ``path`` already holds games and ``resume`` is false, or is
        not a results file, and :class:`ResultsMismatchError` when it holds another run.
        """
        path = Path(path)
        wanted = _plain(dict(metadata))
        try:
            db = sqlite3.connect(path, isolation_level=None)  # transactions are opened by hand
        except sqlite3.Error as exc:
            raise ResultsFileError(f"cannot open results file {path}: {exc}") from exc
        try:
            stored = _read_metadata(db, path)
            if stored is None:
                _create(db, wanted)
            else:
                if not resume:
                    raise ResultsFileError(
                        f"{path} already holds a simulation run; pass --resume (resume=True) to finish it, "
                        "or name another file")
                _check_same_run(path, stored, wanted)
        except BaseException:
            db.close()
            raise
        return cls(path, db, wanted)

    def finished(self, part: int = 0) -> dict[int, GameRecord]:
        """The games already saved for ``part``, by index."""
        rows = self._db.execute("SELECT idx, record FROM games WHERE part = ? ORDER BY idx", (part,))
        finished = {}
        for idx, text in rows:
            try:
                record = GameRecord.from_dict(json.loads(text))
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                raise ResultsFileError(f"{self.path}: the saved game {idx} cannot be read back ({exc!r})") from exc
            if record.index != idx:
                raise ResultsFileError(f"{self.path}: the row of game {idx} holds game {record.index}")
            finished[idx] = record
        return finished

    def count(self) -> int:
        """How many games the file holds (every part)."""
        (n,) = self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(n)

    def add(self, records: Iterable[GameRecord], part: int = 0) -> None:
        """Save finished games, all in one transaction."""
        rows = [(part, rec.index, json.dumps(rec.to_dict(), allow_nan=True)) for rec in records]
        if not rows:
            return
        with _transaction(self._db):
            # REPLACE: a game played twice (two sessions racing on one file) gives the same record anyway.
            self._db.executemany("INSERT OR REPLACE INTO games (part, idx, record) VALUES (?, ?, ?)", rows)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


class _transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._db.execute("ROLLBACK" if kind is not None else "COMMIT")


def _read_metadata(db: sqlite3.Connection, path: Path) -> dict[str, Any] | None:
    """The stored metadata; ``None`` for a new, empty database."""
    try:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return None
        if not {"run", "games"} <= tables:
            raise ResultsFileError(f"{path} is an SQLite database but not a holotable results file")
        stored = {key: json.loads(value) for key, value in db.execute("SELECT key, value FROM run")}
    except sqlite3.DatabaseError as exc:
        raise ResultsFileError(f"{path} is not a holotable results file ({exc})") from exc
    except json.JSONDecodeError as exc:
        raise ResultsFileError(f"{path} has unreadable run metadata ({exc})") from exc
    if stored.get("format") != FORMAT:
        raise ResultsFileError(f"{path} is not a results file of this version (format {stored.get('format')!r}, "
                               f"expected {FORMAT!r})")
    return stored


def _create(db: sqlite3.Connection, metadata: Mapping[str, Any]) -> None:
    with _transaction(db):
        db.execute("CREATE TABLE run (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("CREATE TABLE games (part INTEGER NOT NULL, idx INTEGER NOT NULL, record TEXT NOT NULL, "
                   "PRIMARY KEY (part, idx))")
        db.executemany("INSERT INTO run (key, value) VALUES (?, ?)",
                       [(key, json.dumps(value, sort_keys=True)) for key, value in metadata.items()])


def _check_same_run(path: Path, stored: Mapping[str, Any], wanted: Mapping[str, Any]) -> None:
    keys = [k for k in METADATA_KEYS if k in stored or k in wanted]
    keys += sorted((set(stored) | set(wanted)) - set(keys))
    differ = [k for k in keys if stored.get(k) != wanted.get(k)]
    if differ:
        details = "; ".join(f"{k} is {_show(stored.get(k))} there, {_show(wanted.get(k))} here" for k in differ)
        raise ResultsMismatchError(
            f"{path} holds another run: {details}; resume with the same options, or name another file")


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
