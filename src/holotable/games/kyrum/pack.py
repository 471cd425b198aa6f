"""Kyrum content packs: loading with strict schemas, and the pack validator (spec §6, KYR-AMB-51).

A pack is a directory of JSON files (spec §6.1). :func:`check_pack` reads one and returns the
:class:`Pack` (``None`` when it is unusable) and every :class:`Problem` found, errors and warnings;
:func:`load_pack` returns the pack or raises :class:`DataError` naming file, record and field.
The engine hard-codes only mechanics; every card, script, item and the schedule come from here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from holotable.engine.data import DataCatalog, read_packaged_json
from holotable.engine.errors import ConfigError, DataError

PACKS_DIR = Path(__file__).parent / "packs"
DEFAULT_PACK = "kyrum-demo"


def shipped_packs() -> set[str]:
    """The ids of the packs shipped with the game (the only ``pack`` values a server table accepts)."""
    return {p.name for p in PACKS_DIR.iterdir() if p.is_dir()}

GAUGES = ("fuel", "knowledge", "health", "suit", "ship", "firepower")
ELEMENTS = ("common", "uncommon", "rare")
RESOURCES = GAUGES + ELEMENTS
NARRATIVE_COST = (*ELEMENTS, "any")
DISCOVERY_TYPES = ("plant", "fossil", "microorganism", "mineral", "animal")
SCRIPT_KINDS = ("main", "secondary", "narrative", "end_of_game", "black_hole")
ITEM_KINDS = ("permanent", "per_game", "consumable")
ITEM_WHEN = ("tldp", "declare_exploration", "after_exploration_roll", "after_distance_roll")
DICE_MODS = ("white_equals_black", "choose_double_value", "die_minus_1")
CMPS = ("==", "!=", "<", "<=", ">", ">=")
MAIN_SUMS = (2, 4, 6, 8, 10, 12)
CODE_RE = re.compile(r"^[A-Z]\.\d{2}\.\d{2}$")
LINK_RE = re.compile(r"\[\[([^\]|]+)(?:\|[^\]]*)?\]\]")
DANGER_KINDS = {"Asteroids": 2, "Dark Threat": 2, "Rick Cloud": 2, "Pirates": 2}
#: Fixed sizes of the integer action space (spec §4.2 actions are enumerated once).
MAX_ITEMS = 16
MAX_OPTIONS = 8
MAX_NARRATIVES = 16
ARROW_OPS = ("gain", "lose", "draw_discovery")
ENCOUNTER_OPS = ("gain", "lose", "draw_discovery", "read")
END_SCRIPT_OPS = ("say", "if", "choice", "read", "flag", "journal", "glossary", "add_narrative", "notoriety",
                  "gain_item")
#: The mechanics values of the rulebook; a pack that changes them gets a warning (spec §6.2).
RULEBOOK_RULES: dict[str, Any] = {
    "gauges": {
        "fuel": {"min": 0, "max": 16, "start": 10},
        "knowledge": {"min": 0, "max": 16, "start": 0},
        "health": {"min": 0, "max": 6, "start": 6},
        "suit": {"min": 0, "max": 6, "start": 6},
        "ship": {"min": 0, "max": 6, "start": 6},
        "firepower": {"min": 0, "max": 6, "start": 0},
    },
    "elements": {"common": 6, "uncommon": 6, "rare": 6},
    "planets_per_area": 4, "areas_per_journey": 5, "journeys": 4,
    "journey_np": [4, 3, 3, 2],
    "knowledge_np": [[5, 1], [7, 2], [9, 3], [12, 4], [16, 5]],
    "validation_fuel_cost": 1,
    "crafting": {
        "common": [{"gain": {"fuel": 2}}, {"distance": "reroll"}],
        "uncommon": [{"gain": {"fuel": 3}}, {"gain": {"suit": 1}}, {"gain": {"ship": 1}}, {"gain": {"firepower": 1}},
                     {"distance": "set1"}],
        "rare": [{"gain": {"fuel": 6}}, {"gain": {"health": 1}}],
    },
    "trader": [
        {"id": "a", "give": {"unstudied": 1}, "get": {"common": 2}},
        {"id": "b", "give": {"studied": 1}, "get": {"common": 3}},
        {"id": "c", "give": {"studied": 2}, "get": {"rare": 1}},
    ],
    "black_hole_script": "A.53.11",
    "special_double_scripts": {"29": "A.29.01"},
    "questionnaire_max": 50,
    "status_thresholds": [[90, "Great Explorer"], [80, "Explorer"], [70, "Great Traveller"], [60, "Traveller"],
                          [0, "Lost"]],
}


@dataclass(frozen=True)
class Problem:
    """One finding of the validator: ``level`` is ``error`` or ``warning``."""

    level: str
    file: str
    record: str
    field: str
    message: str

    def __str__(self) -> str:
        where = ": ".join(p for p in (self.file, self.record, self.field) if p)
        return f"{self.level}: {where}: {self.message}"


@dataclass(frozen=True)
class Planet:
    number: int
    name: str
    danger: int
    back_alert: bool
    description: str
    white: tuple[dict[str, Any], ...]
    black: tuple[dict[str, Any], ...]
    double_script: str | None

    def main_codes(self) -> tuple[str, ...]:
        if self.double_script is not None:
            return (self.double_script,)
        return tuple(f"A.{self.number:02d}.{s:02d}" for s in MAIN_SUMS)


@dataclass(frozen=True)
class Discovery:
    id: str
    name: str
    type: str
    cost: dict[str, int]
    knowledge: int
    notoriety: int
    text: str = ""


@dataclass(frozen=True)
class Encounter:
    id: str
    name: str
    kind: str
    white: dict[str, Any] | None
    black: dict[str, Any] | None
    text: str = ""


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    cost: int
    kind: str
    max_owned: int
    uses_per_game: int
    fuel_source: bool
    on_game_start: tuple[dict[str, Any], ...]
    use: dict[str, Any] | None
    text: str


@dataclass
class Pack:
    """A loaded content pack. Records are read-only by convention (the engine never mutates them)."""

    path: str
    pack_id: str
    title: str
    version: str
    rules: dict[str, Any]
    planets: dict[int, Planet]
    discoveries: dict[str, Discovery]
    encounters: dict[str, Encounter]
    objectives: dict[str, dict[str, Any]]
    scripts: dict[str, dict[str, Any]]
    glossary: dict[str, dict[str, str]]
    items: dict[str, Item]
    schedule: dict[str, Any]
    questionnaire: dict[str, Any]
    #: Positional references used by actions: discovery ``d1..d15``, item ``t1..``.
    discovery_order: tuple[str, ...] = field(default=())
    item_order: tuple[str, ...] = field(default=())

    def main_codes(self) -> list[str]:
        """Every main-script code (the tracking list, KYR-CAMPAIGN-10)."""
        return [c for n in sorted(self.planets) for c in self.planets[n].main_codes()]

    def game_entry(self, game: int) -> dict[str, Any]:
        for entry in self.schedule["games"]:
            if entry["game"] == game:
                return dict(entry)
        raise DataError(f"schedule.json: game {game} is not scheduled")

    def gauge(self, name: str) -> dict[str, int]:
        return dict(self.rules["gauges"][name])


# ---------------------------------------------------------------------------------------------- collector
class _Check:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def err(self, file: str, record: str, fld: str, msg: str) -> None:
        self.problems.append(Problem("error", file, record, fld, msg))

    def warn(self, file: str, record: str, fld: str, msg: str) -> None:
        self.problems.append(Problem("warning", file, record, fld, msg))

    @property
    def ok(self) -> bool:
        return not any(p.level == "error" for p in self.problems)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _read_file(root: Path, name: str, ck: _Check) -> Any:
    path = root / name
    if not path.is_file():
        ck.err(name, "", "", "file is missing")
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        ck.err(name, "", "", f"not valid UTF-8 JSON: {exc}")
        return None


def _records(raw: Any, key: str, file: str, ck: _Check) -> list[dict[str, Any]]:
    if isinstance(raw, dict) and set(raw) == {key}:
        raw = raw[key]
    if not isinstance(raw, list):
        ck.err(file, "", "", f"expected a JSON list of records (or {{{key!r}: [...]}})")
        return []
    out = []
    for i, rec in enumerate(raw):
        if not isinstance(rec, dict):
            ck.err(file, f"record {i}", "", "a record must be a JSON object")
        else:
            out.append(rec)
    return out


def _keys(rec: Mapping[str, Any], required: set[str], optional: set[str], file: str, name: str, ck: _Check) -> bool:
    ok = True
    for k in sorted(required - set(rec)):
        ck.err(file, name, k, "required field is missing")
        ok = False
    for k in sorted(set(rec) - required - optional):
        ck.err(file, name, k, "unknown field (strict schema)")
        ok = False
    return ok


def _str(rec: Mapping[str, Any], k: str, file: str, name: str, ck: _Check, default: str = "") -> str:
    v = rec.get(k, default)
    if not isinstance(v, str):
        ck.err(file, name, k, f"must be a string, got {v!r}")
        return default
    return v


def _int(rec: Mapping[str, Any], k: str, file: str, name: str, ck: _Check, lo: int = 0, hi: int | None = None,
         default: int = 0) -> int:
    v = rec.get(k, default)
    if not _is_int(v) or v < lo or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        ck.err(file, name, k, f"must be an integer {rng}, got {v!r} (out of range)")
        return default
    return int(v)


# ---------------------------------------------------------------------------------------------- effects
class _Effects:
    """Schema check of effect programs and predicates (spec §6.6), collecting references."""

    def __init__(self, ck: _Check) -> None:
        self.ck = ck
        self.reads: list[tuple[str, str, str]] = []  # (file, record, target code)
        self.terms: list[tuple[str, str, str]] = []
        self.items: list[tuple[str, str, str]] = []
        self.flags_read: list[tuple[str, str, str]] = []
        self.flags_written: set[str] = set()
        self.nd_ids: list[str] = []
        self.narrative_targets: list[tuple[str, str, str]] = []

    def ops(self, ops: Any, file: str, rec: str, where: str, allowed: tuple[str, ...] | None = None) -> None:
        if not isinstance(ops, list):
            self.ck.err(file, rec, where, "an effect program must be a JSON list of ops")
            return
        for i, op in enumerate(ops):
            self.op(op, file, rec, f"{where}[{i}]", allowed)

    def op(self, op: Any, file: str, rec: str, where: str, allowed: tuple[str, ...] | None) -> None:
        ck = self.ck
        if not isinstance(op, dict) or not isinstance(op.get("op"), str):
            ck.err(file, rec, where, "an op must be an object with a string 'op'")
            return
        name = op["op"]
        spec = _OP_FIELDS.get(name)
        if spec is None:
            ck.err(file, rec, f"{where}.op", f"unknown op {name!r}")
            return
        if allowed is not None and name not in allowed:
            ck.err(file, rec, f"{where}.op", f"op {name!r} is not allowed here (allowed: {', '.join(allowed)})")
        required, optional = spec
        if not _keys(op, required | {"op"}, optional, file, rec + f" {where}", ck):
            return
        w = f"{where}"
        if name in ("gain", "lose"):
            self._res(op, file, rec, w)
            _int(op, "n", file, rec, ck, lo=1, hi=99) if "n" in op else None
        elif name == "set":
            self._res(op, file, rec, w)
            _int(op, "value", file, rec, ck, lo=0, hi=99)
        elif name == "say" or name == "journal":
            _str(op, "text", file, rec, ck)
            self._links(op.get("text", ""), file, rec)
        elif name == "draw_discovery":
            _int(op, "n", file, rec, ck, lo=1, hi=15, default=1)
        elif name == "discard_discovery":
            _int(op, "n", file, rec, ck, lo=1, hi=15, default=1)
            if op.get("which") not in ("choice", "random"):
                ck.err(file, rec, f"{w}.which", "must be 'choice' or 'random'")
            if op.get("studied", None) not in (True, False, None):
                ck.err(file, rec, f"{w}.studied", "must be true, false or null")
        elif name == "add_narrative":
            nd = _str(op, "nd_id", file, rec, ck)
            self.nd_ids.append(nd)
            _str(op, "name", file, rec, ck)
            _str(op, "text", file, rec, ck)
            self._cost(op.get("cost"), NARRATIVE_COST, file, rec, f"{w}.cost", need_positive=True)
            code = _str(op, "on_complete", file, rec, ck)
            self.reads.append((file, rec, code))
            self.narrative_targets.append((file, rec, code))
            for k in ("keep_after_study", "repeatable"):
                if not isinstance(op.get(k, False), bool):
                    ck.err(file, rec, f"{w}.{k}", "must be a boolean")
        elif name == "choice":
            _str(op, "prompt", file, rec, ck)
            opts = op.get("options")
            if not isinstance(opts, list) or not 1 <= len(opts) <= MAX_OPTIONS:
                ck.err(file, rec, f"{w}.options", f"must be a list of 1..{MAX_OPTIONS} options")
                return
            for j, o in enumerate(opts):
                ow = f"{w}.options[{j}]"
                if not isinstance(o, dict) or not _keys(o, {"label", "do"}, {"if", "cost"}, file, f"{rec} {ow}", ck):
                    continue
                _str(o, "label", file, rec, ck)
                if "if" in o:
                    self.pred(o["if"], file, rec, f"{ow}.if")
                if "cost" in o:
                    self._cost(o["cost"], RESOURCES, file, rec, f"{ow}.cost", need_positive=False, partial=True)
                self.ops(o["do"], file, rec, f"{ow}.do", allowed)
        elif name == "if":
            self.pred(op["cond"], file, rec, f"{w}.cond")
            self.ops(op["then"], file, rec, f"{w}.then", allowed)
            self.ops(op.get("else", []), file, rec, f"{w}.else", allowed)
        elif name == "read":
            self.reads.append((file, rec, _str(op, "code", file, rec, ck)))
        elif name == "flag":
            fname = _str(op, "name", file, rec, ck)
            self.flags_written.add(fname)
            modes = [k for k in ("set", "add", "clear") if k in op]
            if len(modes) != 1:
                ck.err(file, rec, w, "a flag op needs exactly one of set / add / clear")
            elif modes[0] == "clear" and op["clear"] is not True:
                ck.err(file, rec, f"{w}.clear", "must be true")
            elif modes[0] != "clear" and not _is_int(op[modes[0]]):
                ck.err(file, rec, f"{w}.{modes[0]}", "must be an integer")
        elif name == "glossary":
            self.terms.append((file, rec, _str(op, "term", file, rec, ck)))
        elif name == "travel_discount":
            _int(op, "amount", file, rec, ck, lo=1, hi=16)
            _int(op, "uses", file, rec, ck, lo=1, hi=20, default=1)
        elif name == "roll":
            if op.get("dice") not in ("d6", "2d6", "exploration"):
                ck.err(file, rec, f"{w}.dice", "must be 'd6', '2d6' or 'exploration'")
            branches = op.get("branches")
            if not isinstance(branches, list) or not branches:
                ck.err(file, rec, f"{w}.branches", "must be a non-empty list")
                return
            for j, b in enumerate(branches):
                bw = f"{w}.branches[{j}]"
                if isinstance(b, dict) and _keys(b, {"when", "do"}, set(), file, f"{rec} {bw}", ck):
                    self._roll_pred(b["when"], file, rec, f"{bw}.when")
                    self.ops(b["do"], file, rec, f"{bw}.do", allowed)
        elif name == "notoriety":
            _int(op, "n", file, rec, ck, lo=1, hi=99)
        elif name == "gain_item":
            self.items.append((file, rec, _str(op, "item", file, rec, ck)))
        elif name == "partner_exchange":
            _str(op, "prompt", file, rec, ck)
        elif name == "end_game":
            if op.get("outcome") not in ("defeat", "victory"):
                ck.err(file, rec, f"{w}.outcome", "must be 'defeat' or 'victory'")
            _str(op, "reason", file, rec, ck)

    def _res(self, op: Mapping[str, Any], file: str, rec: str, w: str) -> None:
        if op.get("res") not in RESOURCES:
            self.ck.err(file, rec, f"{w}.res", f"unknown resource {op.get('res')!r}")

    def _cost(self, cost: Any, keys: tuple[str, ...], file: str, rec: str, w: str, *, need_positive: bool,
              partial: bool = False) -> None:
        if not isinstance(cost, dict):
            self.ck.err(file, rec, w, "a cost must be an object")
            return
        for k in sorted(set(cost) - set(keys)):
            self.ck.err(file, rec, f"{w}.{k}", "unknown cost component")
        if not partial:
            for k in keys:
                if k not in cost:
                    cost_missing = f"{w}.{k}"
                    self.ck.err(file, rec, cost_missing, "cost component missing")
        for k, v in cost.items():
            if not _is_int(v) or v < 0 or v > 99:
                self.ck.err(file, rec, f"{w}.{k}", f"must be a non-negative integer, got {v!r}")
        if need_positive and sum(v for v in cost.values() if _is_int(v)) < 1:
            self.ck.err(file, rec, w, "total cost must be at least 1")

    def _cmp(self, p: Mapping[str, Any], file: str, rec: str, w: str) -> None:
        if p.get("cmp") not in CMPS:
            self.ck.err(file, rec, f"{w}.cmp", f"must be one of {' '.join(CMPS)}")
        if not _is_int(p.get("value")):
            self.ck.err(file, rec, f"{w}.value", "must be an integer")

    def pred(self, p: Any, file: str, rec: str, w: str) -> None:
        ck = self.ck
        if not isinstance(p, dict) or not p:
            ck.err(file, rec, w, "a predicate must be a non-empty object")
            return
        keys = set(p)
        if "res" in keys:
            if _keys(p, {"res", "cmp", "value"}, {"check"}, file, f"{rec} {w}", ck):
                if p["res"] not in RESOURCES:
                    ck.err(file, rec, f"{w}.res", f"unknown resource {p['res']!r}")
                if p.get("check", "current") not in ("current", "peak"):
                    ck.err(file, rec, f"{w}.check", "must be 'current' or 'peak'")
                self._cmp(p, file, rec, w)
        elif "flag" in keys:
            if _keys(p, {"flag", "cmp", "value"}, set(), file, f"{rec} {w}", ck):
                self.flags_read.append((file, rec, str(p["flag"])))
                self._cmp(p, file, rec, w)
        elif "discoveries" in keys:
            if _keys(p, {"discoveries", "cmp", "value"}, set(), file, f"{rec} {w}", ck):
                flt = p["discoveries"]
                if not isinstance(flt, dict) or set(flt) - {"studied", "type"}:
                    ck.err(file, rec, f"{w}.discoveries", "filter may only have 'studied' and 'type'")
                else:
                    if flt.get("studied", None) not in (True, False, None):
                        ck.err(file, rec, f"{w}.discoveries.studied", "must be true/false")
                    if "type" in flt and flt["type"] not in DISCOVERY_TYPES:
                        ck.err(file, rec, f"{w}.discoveries.type", f"unknown type {flt['type']!r}")
                self._cmp(p, file, rec, w)
        elif keys == {"distinct_studied_types"} or keys == {"game"} or keys == {"journey"}:
            (k,) = keys
            inner = p[k]
            if isinstance(inner, dict) and _keys(inner, {"cmp", "value"}, set(), file, f"{rec} {w}.{k}", ck):
                self._cmp(inner, file, rec, f"{w}.{k}")
            elif not isinstance(inner, dict):
                ck.err(file, rec, f"{w}.{k}", "must be {cmp, value}")
        elif keys == {"script_seen"}:
            self.reads_seen(p["script_seen"], file, rec, w)
        elif "narrative" in keys:
            if _keys(p, {"narrative", "state"}, set(), file, f"{rec} {w}", ck) and p["state"] not in (
                "active", "done"):
                ck.err(file, rec, f"{w}.state", "must be 'active' or 'done'")
        elif keys == {"item"}:
            self.items.append((file, rec, str(p["item"])))
        elif keys == {"partner"} or keys == {"true"}:
            if not isinstance(next(iter(p.values())), bool):
                ck.err(file, rec, w, "must be a boolean")
        elif keys in ({"all"}, {"any"}):
            parts = next(iter(p.values()))
            if not isinstance(parts, list) or not parts:
                ck.err(file, rec, w, "'all'/'any' take a non-empty list of predicates")
            else:
                for j, q in enumerate(parts):
                    self.pred(q, file, rec, f"{w}[{j}]")
        elif keys == {"not"}:
            self.pred(p["not"], file, rec, f"{w}.not")
        else:
            ck.err(file, rec, w, f"unknown predicate {sorted(keys)}")

    def reads_seen(self, code: Any, file: str, rec: str, w: str) -> None:
        if not isinstance(code, str) or not CODE_RE.match(code):
            self.ck.err(file, rec, w, f"bad script code {code!r}")

    def _roll_pred(self, p: Any, file: str, rec: str, w: str) -> None:
        ok = isinstance(p, dict) and (
            (set(p) == {"roll"} and isinstance(p["roll"], dict) and p["roll"].get("cmp") in CMPS
             and _is_int(p["roll"].get("value")))
            or (set(p) == {"roll_double"} and isinstance(p["roll_double"], bool))
            or (set(p) == {"roll_black_gt_white"} and isinstance(p["roll_black_gt_white"], bool))
            or (set(p) == {"true"} and p["true"] is True)
        )
        if not ok:
            self.ck.err(file, rec, w, "bad roll predicate")

    def _links(self, text: str, file: str, rec: str) -> None:
        for m in LINK_RE.finditer(text if isinstance(text, str) else ""):
            self.terms.append((file, rec, m.group(1)))


_OP_FIELDS: dict[str, tuple[set[str], set[str]]] = {
    "say": ({"text"}, set()),
    "gain": ({"res", "n"}, set()),
    "lose": ({"res", "n"}, set()),
    "set": ({"res", "value"}, set()),
    "draw_discovery": (set(), {"n"}),
    "discard_discovery": ({"which"}, {"n", "studied"}),
    "add_narrative": ({"nd_id", "name", "cost", "on_complete"}, {"keep_after_study", "repeatable", "text"}),
    "choice": ({"prompt", "options"}, set()),
    "if": ({"cond", "then"}, {"else"}),
    "read": ({"code"}, set()),
    "flag": ({"name"}, {"set", "add", "clear"}),
    "journal": ({"text"}, set()),
    "glossary": ({"term"}, set()),
    "travel_discount": ({"amount"}, {"uses"}),
    "roll": ({"dice", "branches"}, set()),
    "encounter": (set(), set()),
    "notoriety": ({"n"}, set()),
    "gain_item": ({"item"}, set()),
    "partner_exchange": ({"prompt"}, set()),
    "end_game": ({"outcome"}, {"reason"}),
}


def walk_ops(ops: Any) -> Iterator[dict[str, Any]]:
    """Every op of a program, nested ones included (depth first)."""
    if not isinstance(ops, list):
        return
    for op in ops:
        if not isinstance(op, dict):
            continue
        yield op
        if op.get("op") == "choice":
            for o in op.get("options") or []:
                if isinstance(o, dict):
                    yield from walk_ops(o.get("do"))
        elif op.get("op") == "if":
            yield from walk_ops(op.get("then"))
            yield from walk_ops(op.get("else"))
        elif op.get("op") == "roll":
            for b in op.get("branches") or []:
                if isinstance(b, dict):
                    yield from walk_ops(b.get("do"))


def _unchoiced_reads(ops: Any) -> Iterator[str]:
    """``read`` targets reachable without passing through a ``choice`` (cycle check, §6.9 item 8)."""
    if not isinstance(ops, list):
        return
    for op in ops:
        if not isinstance(op, dict):
            continue
        if op.get("op") == "read" and isinstance(op.get("code"), str):
            yield op["code"]
        elif op.get("op") == "if":
            yield from _unchoiced_reads(op.get("then"))
            yield from _unchoiced_reads(op.get("else"))
        elif op.get("op") == "roll":
            for b in op.get("branches") or []:
                if isinstance(b, dict):
                    yield from _unchoiced_reads(b.get("do"))


# ---------------------------------------------------------------------------------------------- loading
def resolve_pack_path(pack: str | Path) -> Path:
    """A pack id under the shipped ``packs/`` directory, or a directory path."""
    p = Path(pack)
    if p.is_dir():
        return p
    shipped = PACKS_DIR / str(pack)
    if shipped.is_dir():
        return shipped
    raise DataError(f"no Kyrum content pack {str(pack)!r} (neither a directory nor a pack under {PACKS_DIR})")


def check_pack(
    pack: str | Path, replace: Mapping[str, Any] | None = None
) -> tuple[Pack | None, list[Problem]]:
    """Read and validate a pack; return it (``None`` if any error) and every problem found.

    ``replace`` gives decoded contents for some of the pack's top-level files (``"rules.json"``:
    ...) used instead of reading them: how data overrides reach the validator (see CATALOG).
    """
    ck = _Check()
    try:
        root = resolve_pack_path(pack)
    except DataError as exc:
        return None, [Problem("error", str(pack), "", "", str(exc))]
    fx = _Effects(ck)

    def _read_json(root: Path, name: str, ck: _Check) -> Any:
        if replace is not None and name in replace:
            return replace[name]
        return _read_file(root, name, ck)

    meta = _read_json(root, "pack.json", ck)
    if isinstance(meta, dict):
        _keys(meta, {"pack_id", "title", "version"}, {"engine_min_version", "language"}, "pack.json", "", ck)
    else:
        meta = {}
    rules = _load_rules(_read_json(root, "rules.json", ck), ck)
    planets = _load_planets(_read_json(root, "planets.json", ck), rules, fx, ck)
    discoveries = _load_discoveries(_read_json(root, "discoveries.json", ck), ck)
    encounters = _load_encounters(_read_json(root, "encounters.json", ck), fx, ck)
    objectives = _load_objectives(_read_json(root, "objectives.json", ck), fx, ck)
    scripts = _load_scripts(root, fx, ck)
    glossary = _load_glossary(_read_json(root, "glossary.json", ck), fx, ck)
    items = _load_items(_read_json(root, "thoth.json", ck), fx, ck)
    schedule = _load_schedule(_read_json(root, "schedule.json", ck), objectives, fx, ck)
    questionnaire = _load_questionnaire(_read_json(root, "questionnaire.json", ck), rules, ck)
    _cross_checks(rules, planets, scripts, glossary, items, schedule, questionnaire, fx, ck)
    if not ck.ok:
        return None, ck.problems
    built = Pack(
        path=str(root), pack_id=str(meta.get("pack_id", root.name)), title=str(meta.get("title", "")),
        version=str(meta.get("version", "")), rules=rules, planets=planets, discoveries=discoveries,
        encounters=encounters, objectives=objectives, scripts=scripts, glossary=glossary, items=items,
        schedule=schedule, questionnaire=questionnaire, discovery_order=tuple(discoveries),
        item_order=tuple(items),
    )
    return built, ck.problems


_CACHE: dict[str, Pack] = {}


def load_pack(pack: str | Path) -> Pack:
    """The validated pack (cached per resolved path); :class:`DataError` on the first error."""
    key = str(resolve_pack_path(pack).resolve())
    if key in _CACHE:
        return _CACHE[key]
    built, problems = check_pack(key)
    errors = [p for p in problems if p.level == "error"]
    if built is None or errors:
        more = f" (and {len(errors) - 1} more; run 'holotable kyrum validate')" if len(errors) > 1 else ""
        raise DataError(f"Kyrum pack {key}: {errors[0] if errors else 'unusable'}{more}")
    _CACHE[key] = built
    return built


# --------------------------------------------------------------------------- data overrides (issue 9)
#: The shipped pack's files whose numbers a configuration may override, by catalog name.
DATA_FILES = {"rules": "rules.json", "planets": "planets.json", "discoveries": "discoveries.json",
              "encounters": "encounters.json", "thoth": "thoth.json"}


def _read_default_pack() -> dict[str, Any]:
    root = PACKS_DIR / DEFAULT_PACK
    out: dict[str, Any] = {}
    for name, file in {**DATA_FILES, "schedule": SCHEDULE_FILE}.items():
        try:
            out[name] = json.loads((root / file).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:  # pragma: no cover - broken install
            raise DataError(f"Kyrum pack {DEFAULT_PACK}: {file}: cannot read: {exc}") from exc
    out["schedule"] = schedule_settings(out["schedule"])
    return out


SCHEDULE_FILE = "schedule.json"


def schedule_settings(raw: Any) -> dict[str, dict[str, str]]:
    """schedule.json as the settings a designer changes: per game number its objectives as one text
    of letters (``"B F N"``) and its end-of-game script (``""``: none).

    >>> schedule_settings({"length": 30, "games": [{"game": 1, "objectives": ["B", "F"], "end_script": None}]})
    {'1': {'objectives': 'B F', 'end_script': ''}}
    """
    games = raw.get("games", []) if isinstance(raw, dict) else []
    return {str(g.get("game")): {"objectives": " ".join(str(x) for x in g.get("objectives") or []),
                                 "end_script": str(g.get("end_script") or "")}
            for g in games if isinstance(g, dict)}


def schedule_document(settings: Mapping[str, Mapping[str, str]], raw: Mapping[str, Any]) -> dict[str, Any]:
    """schedule.json ``raw`` with ``settings`` (see :func:`schedule_settings`) written back.

    Letters may be separated by spaces or commas (``"C L"``, ``"C,L"``); the validator then checks
    them as it checks the file (every letter an objective A-R, no letter twice, the script existing).

    >>> raw = {"length": 30, "games": [{"game": 1, "objectives": ["B"], "end_script": None}]}
    >>> schedule_document({"1": {"objectives": "C, L", "end_script": "A.70.01"}}, raw)["games"]
    [{'game': 1, 'objectives': ['C', 'L'], 'end_script': 'A.70.01'}]
    """
    games = []
    for g in raw.get("games", []):
        entry = dict(g)
        setting = settings.get(str(g.get("game")))
        if setting is not None:
            entry["objectives"] = re.split(r"[\s,]+", setting["objectives"].strip()) if setting["objectives"].strip() \
                else []
            entry["end_script"] = setting["end_script"] or None
        games.append(entry)
    return {**raw, "games": games}


def _pack_with(documents: Mapping[str, Any]) -> Pack:
    """The shipped pack validated with ``documents`` in place of its files."""
    replace = {DATA_FILES[name]: doc for name, doc in documents.items() if name in DATA_FILES}
    if "schedule" in documents:
        raw = json.loads((PACKS_DIR / DEFAULT_PACK / SCHEDULE_FILE).read_text(encoding="utf-8"))
        replace[SCHEDULE_FILE] = schedule_document(documents["schedule"], raw)
    built, problems = check_pack(PACKS_DIR / DEFAULT_PACK, replace)
    errors = [p for p in problems if p.level == "error"]
    if built is None or errors:
        raise DataError(f"Kyrum pack {DEFAULT_PACK}: {errors[0] if errors else 'unusable'}")
    return built


#: The numbers of the shipped pack (``kyrum-demo``) a configuration may override: the mechanics of
#: ``rules.json`` (``rules.gauges.fuel.start``, ``rules.journey_np.0``, ...), planets by number
#: (``planets.10.danger``, ``planets.10.white.0.n``), discoveries, encounters and Thoth's items
#: (``thoth.T01.cost``), and the schedule: each game's objectives and end-of-game script
#: (``schedule.12.objectives="C L"``, ``schedule.12.end_script=A.70.12``; ``""`` for none), so a
#: designer tries another campaign curve without editing files. Other text (names, scripts, ops)
#: is content, not a setting, and is left out; so are the other files (objectives, questionnaire,
#: glossary, scripts). Another pack is changed by editing its files (``--set pack=DIR``), see
#: docs/data-overrides.md.
CATALOG: DataCatalog[Pack] = DataCatalog(
    "Kyrum", _read_default_pack, _pack_with, skip=("id", "number"), id_fields=("id", "number"), numbers_only=True,
    text=("schedule.*.objectives", "schedule.*.end_script"),
    limits=lambda: read_packaged_json(__package__ or "", "limits.json"),
)


def pack_with_overrides(pack: str, items: tuple[tuple[str, Any], ...]) -> Pack:
    """The pack a configuration plays with: ``pack`` itself, or the shipped pack with ``items``.

    Overrides address the shipped pack's files; for another pack they raise :class:`ConfigError`.
    """
    if not items:
        return load_pack(pack)
    if resolve_pack_path(pack).resolve() != (PACKS_DIR / DEFAULT_PACK).resolve():
        raise ConfigError(f"data overrides apply to the shipped pack {DEFAULT_PACK!r}, not {pack!r}: "
                          "edit that pack's files instead")
    return CATALOG.resolve(items)


def _rulebook_copy() -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(RULEBOOK_RULES))
    return out


def _load_rules(raw: Any, ck: _Check) -> dict[str, Any]:
    f = "rules.json"
    if not isinstance(raw, dict):
        if raw is not None:
            ck.err(f, "", "", "must be a JSON object")
        return _rulebook_copy()
    _keys(raw, set(RULEBOOK_RULES), set(), f, "", ck)
    rules = _rulebook_copy()
    gauges = raw.get("gauges")
    if isinstance(gauges, dict) and set(gauges) == set(GAUGES):
        for g, b in gauges.items():
            if not isinstance(b, dict) or not _keys(b, {"min", "max", "start"}, set(), f, f"gauges.{g}", ck):
                continue
            lo = _int(b, "min", f, f"gauges.{g}", ck, lo=0, hi=0)
            hi = _int(b, "max", f, f"gauges.{g}", ck, lo=1, hi=99, default=1)
            _int(b, "start", f, f"gauges.{g}", ck, lo=lo, hi=hi)
        rules["gauges"] = gauges
    elif "gauges" in raw:
        ck.err(f, "", "gauges", f"must map exactly {', '.join(GAUGES)}")
    for key in set(RULEBOOK_RULES) - {"gauges"}:
        if key in raw:
            rules[key] = raw[key]
    els = rules["elements"]
    if not isinstance(els, dict) or set(els) != set(ELEMENTS) or not all(_is_int(v) and v >= 1 for v in els.values()):
        ck.err(f, "", "elements", "must map common/uncommon/rare to a cube count >= 1")
        rules["elements"] = RULEBOOK_RULES["elements"]
    for key in ("planets_per_area", "areas_per_journey", "journeys", "validation_fuel_cost", "questionnaire_max"):
        _int(rules, key, f, "", ck, lo=0 if key == "validation_fuel_cost" else 1, hi=100)
    if rules["planets_per_area"] != 4:
        ck.err(f, "", "planets_per_area", "the engine supports exactly 4 planets per area (4 distance dice)")
    jn = rules["journey_np"]
    if not isinstance(jn, list) or len(jn) != rules["journeys"] or not all(_is_int(v) and v >= 0 for v in jn):
        ck.err(f, "", "journey_np", "must list one non-negative NP value per journey")
    kn = rules["knowledge_np"]
    if not isinstance(kn, list) or not all(isinstance(p, list) and len(p) == 2 and all(map(_is_int, p)) for p in kn):
        ck.err(f, "", "knowledge_np", "must be a list of [threshold, NP] pairs")
    crafting = rules["crafting"]
    if not isinstance(crafting, dict) or set(crafting) - set(ELEMENTS):
        ck.err(f, "", "crafting", "must map element types to recipe lists")
    else:
        for el, recipes in crafting.items():
            if not isinstance(recipes, list):
                ck.err(f, f"crafting.{el}", "", "must be a list of recipes")
                continue
            names = []
            for i, r in enumerate(recipes):
                name = recipe_name(r)
                if name is None:
                    ck.err(f, f"crafting.{el}[{i}]", "", "a recipe is {'gain': {gauge: n}} or {'distance': "
                           "'reroll'|'set1'}")
                names.append(name)
            if len(set(names)) != len(names):
                ck.err(f, f"crafting.{el}", "", "two recipes of one element have the same effect name")
    trader = rules["trader"]
    if not isinstance(trader, list) or [t.get("id") for t in trader if isinstance(t, dict)] != ["a", "b", "c"]:
        ck.err(f, "", "trader", "must list the trades a, b, c")
    else:
        for t in trader:
            give, get = t.get("give"), t.get("get")
            if not (isinstance(give, dict) and len(give) == 1 and set(give) <= {"studied", "unstudied"}
                    and all(_is_int(v) and 1 <= v <= 2 for v in give.values())):
                ck.err(f, f"trader.{t.get('id')}", "give", "must be {studied|unstudied: 1..2}")
            if not (isinstance(get, dict) and set(get) <= set(ELEMENTS) and all(_is_int(v) and v >= 1
                                                                                 for v in get.values())):
                ck.err(f, f"trader.{t.get('id')}", "get", "must map element types to positive counts")
    sds = rules["special_double_scripts"]
    if not isinstance(sds, dict) or not all(isinstance(v, str) and CODE_RE.match(v) for v in sds.values()):
        ck.err(f, "", "special_double_scripts", "must map planet numbers to script codes")
        rules["special_double_scripts"] = {}
    st = rules["status_thresholds"]
    if not isinstance(st, list) or not st or not all(isinstance(p, list) and len(p) == 2 and _is_int(p[0])
                                                      and isinstance(p[1], str) for p in st):
        ck.err(f, "", "status_thresholds", "must be a list of [minimum score, status] pairs")
    for key, value in RULEBOOK_RULES.items():
        if key in raw and raw[key] != value:
            ck.warn(f, "", key, "differs from the rulebook's value")
    return rules


def recipe_name(r: Any) -> str | None:
    """``fuel``/``suit``/... for a gain recipe, ``reroll``/``set1`` for a distance recipe, else ``None``."""
    if isinstance(r, dict) and set(r) == {"gain"} and isinstance(r["gain"], dict) and len(r["gain"]) == 1:
        ((g, n),) = r["gain"].items()
        if g in GAUGES and _is_int(n) and n >= 1:
            return str(g)
    if isinstance(r, dict) and set(r) == {"distance"} and r["distance"] in ("reroll", "set1"):
        return str(r["distance"])
    return None


def _load_planets(raw: Any, rules: dict[str, Any], fx: _Effects, ck: _Check) -> dict[int, Planet]:
    f = "planets.json"
    out: dict[int, Planet] = {}
    if raw is None:
        return out
    recs = _records(raw, "planets", f, ck)
    for i, r in enumerate(recs):
        name = f"planet {r.get('number', f'#{i}')}"
        if not _keys(r, {"number", "name", "danger", "back_alert", "white", "black"}, {"description",
                                                                                     "double_script"}, f, name, ck):
            continue
        num = _int(r, "number", f, name, ck, lo=10, hi=99, default=-1)
        danger = _int(r, "danger", f, name, ck, lo=0, hi=6)
        if not isinstance(r["back_alert"], bool):
            ck.err(f, name, "back_alert", "must be a boolean")
        for side in ("white", "black"):
            fx.ops(r[side], f, name, side, ARROW_OPS)
            if isinstance(r[side], list) and not r[side]:
                ck.err(f, name, side, "an arrow lists at least one outcome")
        ds = r.get("double_script")
        if ds is not None and (not isinstance(ds, str) or not CODE_RE.match(ds)):
            ck.err(f, name, "double_script", f"must be null or a script code, got {ds!r}")
            ds = None
        expected = rules["special_double_scripts"].get(str(num))
        if ds != expected:
            ck.err(f, name, "double_script", f"must be {expected!r} to match rules.json special_double_scripts")
        if num in out:
            ck.err(f, name, "number", "duplicate planet number")
        if num >= 0:
            out[num] = Planet(num, _str(r, "name", f, name, ck), danger, bool(r["back_alert"]),
                              _str(r, "description", f, name, ck), tuple(r["white"]), tuple(r["black"]), ds)
    if len(recs) != 20:
        ck.err(f, "", "", f"a pack has exactly 20 planets, found {len(recs)}")
    return out


def _load_discoveries(raw: Any, ck: _Check) -> dict[str, Discovery]:
    f = "discoveries.json"
    out: dict[str, Discovery] = {}
    if raw is None:
        return out
    recs = _records(raw, "discoveries", f, ck)
    for i, r in enumerate(recs):
        name = f"discovery {r.get('id', f'#{i}')}"
        if not _keys(r, {"id", "name", "type", "cost", "knowledge", "notoriety"}, {"text"}, f, name, ck):
            continue
        did = _str(r, "id", f, name, ck)
        if r["type"] not in DISCOVERY_TYPES:
            ck.err(f, name, "type", f"must be one of {', '.join(DISCOVERY_TYPES)}")
        cost = r["cost"]
        good = isinstance(cost, dict) and set(cost) == set(ELEMENTS) and all(
            _is_int(v) and 0 <= v <= 6 for v in cost.values())
        if not good:
            ck.err(f, name, "cost", "must give common/uncommon/rare as integers 0..6")
            cost = dict.fromkeys(ELEMENTS, 0)
        elif sum(cost.values()) < 1:
            ck.err(f, name, "cost", "total study cost must be at least 1")
        if did in out:
            ck.err(f, name, "id", "duplicate discovery id")
        out[did] = Discovery(did, _str(r, "name", f, name, ck), str(r["type"]), dict(cost),
                             _int(r, "knowledge", f, name, ck, hi=16), _int(r, "notoriety", f, name, ck, hi=20),
                             _str(r, "text", f, name, ck))
    if len(recs) != 15:
        ck.err(f, "", "", f"a pack has exactly 15 discoveries, found {len(recs)}")
    return out


def _load_encounters(raw: Any, fx: _Effects, ck: _Check) -> dict[str, Encounter]:
    f = "encounters.json"
    out: dict[str, Encounter] = {}
    if raw is None:
        return out
    recs = _records(raw, "encounters", f, ck)
    for i, r in enumerate(recs):
        name = f"encounter {r.get('id', f'#{i}')}"
        kind = r.get("kind")
        sides = {"white", "black"} if kind == "danger" else set()
        if not _keys(r, {"id", "name", "kind"} | sides, {"text"}, f, name, ck):
            continue
        if kind not in ("danger", "trader", "black_hole"):
            ck.err(f, name, "kind", "must be danger, trader or black_hole")
        for side in sorted(sides):
            arrow = r[side]
            if not isinstance(arrow, dict) or not _keys(arrow, {"effects"}, {"check"}, f, f"{name} {side}", ck):
                continue
            if "check" in arrow:
                c = arrow["check"]
                if not (isinstance(c, dict) and set(c) == {"res", "lt"} and c["res"] in RESOURCES
                        and _is_int(c["lt"])):
                    ck.err(f, name, f"{side}.check", "must be {res, lt}")
            fx.ops(arrow["effects"], f, name, f"{side}.effects", ENCOUNTER_OPS)
        eid = _str(r, "id", f, name, ck)
        if eid in out:
            ck.err(f, name, "id", "duplicate encounter id")
        out[eid] = Encounter(eid, _str(r, "name", f, name, ck), str(kind), r.get("white"), r.get("black"),
                             _str(r, "text", f, name, ck))
    if len(recs) != 10:
        ck.err(f, "", "", f"a pack has exactly 10 encounters, found {len(recs)}")
    kinds = [e.kind for e in out.values()]
    if kinds.count("trader") != 1 or kinds.count("black_hole") != 1 or kinds.count("danger") != 8:
        ck.err(f, "", "kind", "the deck is 8 danger cards, 1 trader and 1 black hole (KYR-COMP-05)")
    names = [e.name for e in out.values() if e.kind == "danger"]
    if sorted(set(names)) != sorted(DANGER_KINDS) or any(names.count(n) != 2 for n in DANGER_KINDS):
        ck.warn(f, "", "name", "danger cards differ from 2 Asteroids, 2 Dark Threat, 2 Rick Cloud, 2 Pirates")
    return out


def _load_objectives(raw: Any, fx: _Effects, ck: _Check) -> dict[str, dict[str, Any]]:
    f = "objectives.json"
    out: dict[str, dict[str, Any]] = {}
    if raw is None:
        return out
    for i, r in enumerate(_records(raw, "objectives", f, ck)):
        name = f"objective {r.get('letter', f'#{i}')}"
        if not _keys(r, {"letter", "predicate"}, {"title", "text"}, f, name, ck):
            continue
        letter = r["letter"]
        if not isinstance(letter, str) or len(letter) != 1 or not "A" <= letter <= "R":
            ck.err(f, name, "letter", "must be one letter A..R")
            continue
        if letter in out:
            ck.err(f, name, "letter", "duplicate letter")
        fx.pred(r["predicate"], f, name, "predicate")
        out[letter] = dict(r)
    missing = [chr(c) for c in range(ord("A"), ord("R") + 1) if chr(c) not in out]
    if missing:
        ck.err(f, "", "letter", f"objectives A..R must each appear once; missing {', '.join(missing)}")
    return out


def _load_scripts(root: Path, fx: _Effects, ck: _Check) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    where: dict[str, str] = {}
    folder = root / "scripts"
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        ck.err("scripts/", "", "", "no script files (scripts/*.json)")
    for path in files:
        f = f"scripts/{path.name}"
        raw = _read_file(root, f, ck)
        if raw is None:
            continue
        for i, r in enumerate(_records(raw, "scripts", f, ck)):
            name = f"script {r.get('code', f'#{i}')}"
            if not _keys(r, {"code", "kind", "title", "text", "effects"}, {"planet"}, f, name, ck):
                continue
            code = r["code"]
            if not isinstance(code, str) or not CODE_RE.match(code):
                ck.err(f, name, "code", f"must look like A.10.08, got {code!r}")
                continue
            if r["kind"] not in SCRIPT_KINDS:
                ck.err(f, name, "kind", f"must be one of {', '.join(SCRIPT_KINDS)}")
            if "planet" in r and r["planet"] != int(code[2:4]):
                ck.err(f, name, "planet", "must equal the code's planet number")
            _str(r, "title", f, name, ck)
            fx._links(_str(r, "text", f, name, ck), f, name)
            fx.ops(r["effects"], f, name, "effects")
            if code in out:
                ck.err(f, name, "code", f"defined more than once (also in {where[code]})")
                continue
            out[code] = dict(r)
            where[code] = f
    return out


def _load_glossary(raw: Any, fx: _Effects, ck: _Check) -> dict[str, dict[str, str]]:
    f = "glossary.json"
    out: dict[str, dict[str, str]] = {}
    if not isinstance(raw, dict):
        if raw is not None:
            ck.err(f, "", "", "must be an object {term_id: {title, text}}")
        return out
    for term, entry in raw.items():
        if isinstance(entry, dict) and _keys(entry, {"title", "text"}, set(), f, term, ck):
            out[term] = {"title": _str(entry, "title", f, term, ck), "text": _str(entry, "text", f, term, ck)}
            fx._links(entry["text"], f, term)
        elif not isinstance(entry, dict):
            ck.err(f, term, "", "must be {title, text}")
    return out


def _load_items(raw: Any, fx: _Effects, ck: _Check) -> dict[str, Item]:
    f = "thoth.json"
    out: dict[str, Item] = {}
    if raw is None:
        return out
    recs = _records(raw, "items", f, ck)
    if len(recs) > MAX_ITEMS:
        ck.err(f, "", "", f"at most {MAX_ITEMS} items (the action space is fixed)")
    for i, r in enumerate(recs):
        name = f"item {r.get('id', f'#{i}')}"
        if not _keys(r, {"id", "name", "cost", "kind", "max_owned"},
                     {"text", "uses_per_game", "fuel_source", "on_game_start", "use"}, f, name, ck):
            continue
        if r["kind"] not in ITEM_KINDS:
            ck.err(f, name, "kind", f"must be one of {', '.join(ITEM_KINDS)}")
        uses = _int(r, "uses_per_game", f, name, ck, lo=1, hi=20, default=1)
        if r["kind"] == "per_game" and "uses_per_game" not in r:
            ck.err(f, name, "uses_per_game", "a per_game item says how many uses per game")
        if not isinstance(r.get("fuel_source", False), bool):
            ck.err(f, name, "fuel_source", "must be a boolean")
        start = r.get("on_game_start", [])
        fx.ops(start, f, name, "on_game_start")
        use = r.get("use")
        if use is not None:
            if not isinstance(use, dict) or not _keys(use, {"when"}, {"requires", "dice", "do", "waive"}, f,
                                                      f"{name} use", ck):
                use = None
            else:
                if use["when"] not in ITEM_WHEN:
                    ck.err(f, name, "use.when", f"must be one of {', '.join(ITEM_WHEN)}")
                if "dice" in use and use["dice"] not in DICE_MODS:
                    ck.err(f, name, "use.dice", f"must be one of {', '.join(DICE_MODS)}")
                if "dice" in use and use["when"] != "after_exploration_roll":
                    ck.err(f, name, "use.dice", "dice modifiers are used after an exploration roll")
                req = use.get("requires", {})
                if req not in ({}, {"double": True}, {"not_double": True}):
                    ck.err(f, name, "use.requires", "must be {'double': true} or {'not_double': true}")
                if "do" in use:
                    fx.ops(use["do"], f, name, "use.do")
                if "waive" in use:
                    _int(use, "waive", f, name, ck, lo=1, hi=6)
                if not ({"do", "dice", "waive"} & set(use)):
                    ck.err(f, name, "use", "an item use needs 'do', 'dice' or 'waive'")
        iid = _str(r, "id", f, name, ck)
        if iid in out:
            ck.err(f, name, "id", "duplicate item id")
        out[iid] = Item(iid, _str(r, "name", f, name, ck), _int(r, "cost", f, name, ck, hi=999), str(r["kind"]),
                        _int(r, "max_owned", f, name, ck, lo=1, hi=99, default=1), uses,
                        bool(r.get("fuel_source", False)), tuple(start) if isinstance(start, list) else (),
                        use, _str(r, "text", f, name, ck))
    return out


def _load_schedule(raw: Any, objectives: Mapping[str, Any], fx: _Effects, ck: _Check) -> dict[str, Any]:
    f = "schedule.json"
    if not isinstance(raw, dict) or not _keys(raw, {"length", "games"}, set(), f, "", ck):
        if raw is not None and not isinstance(raw, dict):
            ck.err(f, "", "", "must be {length, games}")
        return {"length": 0, "games": []}
    length = _int(raw, "length", f, "", ck, lo=30, hi=999, default=0)
    games = raw["games"] if isinstance(raw["games"], list) else []
    for i, g in enumerate(games):
        name = f"game {g.get('game', f'#{i}') if isinstance(g, dict) else i}"
        if not isinstance(g, dict) or not _keys(g, {"game", "objectives"}, {"end_script"}, f, name, ck):
            continue
        if g["game"] != i + 1:
            ck.err(f, name, "game", f"games must be numbered 1..length without gaps; expected {i + 1}")
        letters = g["objectives"]
        if not isinstance(letters, list) or not letters or any(x not in objectives for x in letters):
            ck.err(f, name, "objectives", f"must list valid objective letters, got {letters!r}")
        elif len(set(letters)) != len(letters):
            ck.err(f, name, "objectives", f"lists an objective twice: {letters!r}")
        es = g.get("end_script")
        if es is not None:
            fx.reads.append((f, name, str(es)))
    if len(games) != length:
        ck.err(f, "", "games", f"schedules {len(games)} games but length is {length}")
    return {"length": length, "games": [dict(g) for g in games if isinstance(g, dict)]}


def _load_questionnaire(raw: Any, rules: Mapping[str, Any], ck: _Check) -> dict[str, Any]:
    f = "questionnaire.json"
    if not isinstance(raw, dict) or not _keys(raw, {"max", "questions"}, set(), f, "", ck):
        return {"max": 50, "questions": []}
    total = 0
    qs = raw["questions"] if isinstance(raw["questions"], list) else []
    ids = set()
    for i, q in enumerate(qs):
        name = f"question {q.get('id', f'#{i}') if isinstance(q, dict) else i}"
        if not isinstance(q, dict) or not _keys(q, {"id", "text", "choices", "answer", "points"}, {"source"}, f,
                                                name, ck):
            continue
        if q["id"] in ids:
            ck.err(f, name, "id", "duplicate question id")
        ids.add(q["id"])
        ch = q["choices"]
        if not isinstance(ch, list) or len(ch) < 2 or not all(isinstance(c, str) for c in ch):
            ck.err(f, name, "choices", "must list at least two strings")
            ch = []
        _int(q, "answer", f, name, ck, lo=0, hi=max(0, len(ch) - 1))
        total += _int(q, "points", f, name, ck, lo=0, hi=50)
    if raw["max"] != rules["questionnaire_max"] or total != raw["max"]:
        ck.err(f, "", "points", f"points sum to {total}; they must sum to max = {rules['questionnaire_max']}")
    return {"max": raw["max"], "questions": [dict(q) for q in qs if isinstance(q, dict)]}


def _cross_checks(rules: dict[str, Any], planets: Mapping[int, Planet], scripts: Mapping[str, dict[str, Any]],
                  glossary: Mapping[str, Any], items: Mapping[str, Item], schedule: Mapping[str, Any],
                  questionnaire: Mapping[str, Any], fx: _Effects, ck: _Check) -> None:
    for p in planets.values():
        for code in p.main_codes():
            if code not in scripts:
                ck.err("scripts/", code, "", f"main script of planet {p.number} ({p.name}) is missing")
    bh = rules["black_hole_script"]
    if bh not in scripts or scripts[bh]["kind"] != "black_hole":
        ck.err("scripts/", str(bh), "kind", "the black hole script must exist with kind 'black_hole'")
    for file, rec, code in fx.reads:
        if code not in scripts:
            ck.err(file, rec, "read", f"references script {code!r}, which does not exist")
    for file, rec, term in fx.terms:
        if term not in glossary:
            ck.err(file, rec, "glossary", f"references glossary term {term!r}, which does not exist")
    for file, rec, iid in fx.items:
        if iid not in items:
            ck.err(file, rec, "item", f"references Thoth item {iid!r}, which does not exist")
    special = {int(s["code"][2:4]) for s in scripts.values() if s["kind"] in ("black_hole", "end_of_game")}
    for num in sorted(special & set(planets)):
        ck.err("planets.json", f"planet {num}", "number", "collides with a black hole / end-of-game script number")
    # Cycles of reads that never pass through a choice (§6.9 item 8).
    graph = {c: set(_unchoiced_reads(s["effects"])) for c, s in scripts.items()}
    state: dict[str, int] = {}

    def visit(c: str, trail: list[str]) -> None:
        state[c] = 1
        for nxt in sorted(graph.get(c, ())):
            if state.get(nxt) == 1:
                ck.err("scripts/", c, "read", f"read cycle without a choice: {' -> '.join([*trail, c, nxt])}")
            elif nxt in graph and not state.get(nxt):
                visit(nxt, [*trail, c])
        state[c] = 2

    for c in sorted(graph):
        if not state.get(c):
            visit(c, [])
    # End-of-game scripts and what they read use only the allowed ops (§6.9 item 14).
    end_codes = [g.get("end_script") for g in schedule["games"] if g.get("end_script")]
    end_codes += [c for c, s in scripts.items() if s["kind"] == "end_of_game"]
    seen: set[str] = set()
    todo = [c for c in end_codes if isinstance(c, str)]
    while todo:
        c = todo.pop()
        if c in seen or c not in scripts:
            continue
        seen.add(c)
        for op in walk_ops(scripts[c]["effects"]):
            name = op.get("op")
            if name not in END_SCRIPT_OPS:
                ck.err("scripts/", c, "effects", f"op {name!r} is not allowed in an end-of-game script")
            if name == "choice" and any(isinstance(o, dict) and "cost" in o for o in op.get("options", [])):
                ck.err("scripts/", c, "effects", "a choice in an end-of-game script may not have a cost")
            if name == "flag" and str(op.get("name", "")).startswith("game."):
                ck.err("scripts/", c, "effects", "an end-of-game script may not write a game. flag")
            if name == "read":
                todo.append(str(op.get("code")))
    for file, rec, flag in fx.flags_read:
        if flag not in fx.flags_written:
            ck.warn(file, rec, "flag", f"flag {flag!r} is read but never written")
    # Reachability of every script from the entry points (main, narrative completions, black hole, end).
    roots = {c for p in planets.values() for c in p.main_codes()} | {bh} | set(end_codes)
    roots |= {code for _, _, code in fx.narrative_targets}
    roots |= {code for _, rec, code in fx.reads if rec.startswith(("encounter", "item"))}
    all_reads = {c: {op.get("code") for op in walk_ops(s["effects"]) if op.get("op") == "read"} |
                 {op.get("on_complete") for op in walk_ops(s["effects"]) if op.get("op") == "add_narrative"}
                 for c, s in scripts.items()}
    reach: set[str] = set()
    stack = [c for c in roots if isinstance(c, str)]
    while stack:
        c = stack.pop()
        if c in reach:
            continue
        reach.add(c)
        stack.extend(x for x in all_reads.get(c, ()) if isinstance(x, str))
    for code in sorted(set(scripts) - reach):
        ck.err("scripts/", code, "", "script is unreachable (no main script, narrative, encounter, item, black "
               "hole or end script leads to it)")
    for q in questionnaire["questions"]:
        src = q.get("source")
        if src is None:
            continue
        if src not in scripts:
            ck.warn("questionnaire.json", f"question {q.get('id')}", "source", f"script {src!r} does not exist")
        elif src not in reach:
            ck.warn("questionnaire.json", f"question {q.get('id')}", "source", f"script {src!r} is unreachable")
    if len(fx.nd_ids) and len(set(fx.nd_ids)) > 64:
        ck.warn("scripts/", "", "add_narrative", "more than 64 distinct narrative discoveries")


ProblemFilter = Callable[[Problem], bool]
