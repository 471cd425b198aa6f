"""Space Pirates content: constants, cargo, energy deck, market cards, map elements, board presets.

Every ASSUMED number of the spec (SP-AMB-01, -51, -52, -53 and the physics/flick error model of
§6.8-6.9) lives in the JSON files under ``data/``; this module loads and validates them and raises
:class:`DataError` naming the file, the item and the field on a bad file. A configuration may
override their numbers (:data:`CATALOG`); the rules play with ``content_for(config)``.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from holotable.engine import errors
from holotable.engine.data import DataCatalog, read_packaged_json

if TYPE_CHECKING:
    from holotable.engine.spec import Config

DATA_DIR = Path(__file__).parent / "data"
CARGO_TYPES = ("ORE", "SPICE", "TECH", "MEDS", "RELICS")
SYMBOLS = ("FLICK", "NEW_RIGHT", "NEW_LEFT", "ASTEROID", "STORM", "WIND")
Point = tuple[float, float]


class DataError(errors.DataError):
    """A content file is missing, malformed or breaks a component count (a :class:`holotable.engine.DataError`,
    so callers catch it with every other game's data errors; it also names the file, item and field)."""

    def __init__(self, file: str, item: str, field: str, reason: str) -> None:
        super().__init__(f"{file}: {item}: {field}: {reason}")
        self.file, self.item, self.field = file, item, field


@dataclass(frozen=True)
class Constants:
    """Physical and economic constants (spec §7.6); all ASSUMED, all overridable in the file."""

    ruler_length: float
    ruler_width: float
    token_radius: float
    ship_radius: float
    storm_radius: float
    base_width: float
    base_depth: float
    gate: float
    slots: tuple[Point, Point]
    eps_touch: float
    eps_area: float
    physics: dict[str, Any]
    flip: dict[str, float]
    dexterity: dict[str, tuple[float, float]]
    #: The weakest flick accepted (SP-AMB-55): a touch that barely moves a token is no flick.
    min_flick_strength: float
    start_mc: int
    base_price: int
    mc_per_5_energy: int
    max_buy_mc: int
    hand_cap: int
    own_base_cap: int
    fine: int
    victory_standard: int
    victory_long: dict[int, int]
    bank_total: int
    sim_turn_cap: int
    position_decimals: int


@dataclass(frozen=True)
class EnergyCard:
    id: str
    value: int
    symbols: tuple[str, ...]


@dataclass(frozen=True)
class MarketCard:
    id: str
    prices: dict[str, int]


@dataclass(frozen=True)
class ElementShape:
    id: str
    name: str
    polygon: tuple[Point, ...]


@dataclass(frozen=True)
class BaseSpot:
    id: str
    x: float
    y: float
    normal: float


@dataclass(frozen=True)
class Preset:
    id: str
    players: tuple[int, ...]
    field: Point
    bases: tuple[BaseSpot, ...]
    elements: tuple[tuple[str, float, float, float], ...]  # (element id, x, y, rotation)


#: A configuration's data overrides: sorted ``(path, value)`` pairs (``Config.data``).
Overrides = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Content:
    constants: Constants
    tokens: tuple[str, ...]  # identity per token id (SP-COMP-04)
    energy: tuple[EnergyCard, ...]
    markets: tuple[MarketCard, ...]
    elements: dict[str, ElementShape]
    presets: dict[str, Preset]
    #: The data overrides this content was built with (empty for the shipped content): a
    #: hashable name for it, so layouts and generated boards built from it can be cached.
    overrides: Overrides = ()

    def card(self, cid: str) -> EnergyCard:
        return self._cards()[cid]

    def _cards(self) -> dict[str, EnergyCard]:
        return _card_index(self.energy)


@lru_cache(maxsize=8)
def _card_index(cards: tuple[EnergyCard, ...]) -> dict[str, EnergyCard]:
    return {c.id: c for c in cards}


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise DataError(path.name, "-", "-", f"cannot read: {exc}") from None


def _num(file: str, item: str, field: str, value: Any, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise DataError(file, item, field, f"expected a number, got {value!r}")
    if positive and value <= 0:
        raise DataError(file, item, field, f"must be > 0, got {value}")
    return float(value)


def _int(file: str, item: str, field: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DataError(file, item, field, f"expected a whole number >= 0, got {value!r}")
    return value


def _points(file: str, item: str, field: str, value: Any) -> tuple[Point, ...]:
    if not isinstance(value, list) or len(value) < 3:
        raise DataError(file, item, field, "expected a list of at least 3 [x, y] points")
    out = []
    for p in value:
        if not isinstance(p, list) or len(p) != 2:
            raise DataError(file, item, field, f"bad point {p!r}")
        out.append((_num(file, item, field, p[0]), _num(file, item, field, p[1])))
    return tuple(out)


#: Fields that tag a group of numbers with the spec's ambiguity record (read by the data catalog).
_TAGS = ("assumed", "record")


def load_constants(path: Path) -> Constants:
    f = path.name
    raw = _read(path)
    if not isinstance(raw, dict):
        raise DataError(f, "-", "-", "expected an object")
    try:
        base = raw["base"]
        slots = tuple((float(s[0]), float(s[1])) for s in base["slots"])
        if len(slots) != 2:
            raise DataError(f, "base", "slots", "a base has exactly 2 docking slots")
        vict = raw["victory"]
        const = Constants(
            ruler_length=_num(f, "-", "ruler_length", raw["ruler_length"], positive=True),
            ruler_width=_num(f, "-", "ruler_width", raw["ruler_width"], positive=True),
            token_radius=_num(f, "-", "token_radius", raw["token_radius"], positive=True),
            ship_radius=_num(f, "-", "ship_radius", raw["ship_radius"], positive=True),
            storm_radius=_num(f, "-", "storm_radius", raw["storm_radius"], positive=True),
            base_width=_num(f, "base", "width", base["width"], positive=True),
            base_depth=_num(f, "base", "depth", base["depth"], positive=True),
            gate=_num(f, "base", "gate", base["gate"], positive=True),
            slots=(slots[0], slots[1]),
            eps_touch=_num(f, "-", "eps_touch", raw["eps_touch"], positive=True),
            eps_area=_num(f, "-", "eps_area", raw["eps_area"], positive=True),
            physics=dict(raw["physics"]),
            flip={k: _num(f, "flip", k, v) for k, v in raw["flip"].items()},
            dexterity={k: (_num(f, "dexterity", k, v[0]), _num(f, "dexterity", k, v[1]))
                       for k, v in raw["dexterity"].items() if k not in _TAGS},
            min_flick_strength=_num(f, "-", "min_flick_strength", raw["min_flick_strength"]),
            start_mc=_int(f, "-", "start_mc", raw["start_mc"]),
            base_price=_int(f, "-", "base_price", raw["base_price"]),
            mc_per_5_energy=_int(f, "-", "mc_per_5_energy", raw["mc_per_5_energy"]),
            max_buy_mc=_int(f, "-", "max_buy_mc", raw["max_buy_mc"]),
            hand_cap=_int(f, "-", "hand_cap", raw["hand_cap"]),
            own_base_cap=_int(f, "-", "own_base_cap", raw["own_base_cap"]),
            fine=_int(f, "-", "fine", raw["fine"]),
            victory_standard=_int(f, "victory", "standard", vict["standard"]),
            victory_long={int(k): _int(f, "victory.long", k, v) for k, v in vict["long"].items()},
            bank_total=_int(f, "-", "bank_total", raw["bank_total"]),
            sim_turn_cap=_int(f, "-", "sim_turn_cap", raw["sim_turn_cap"]),
            position_decimals=_int(f, "-", "position_decimals", raw["position_decimals"]),
        )
    except KeyError as exc:
        raise DataError(f, "-", str(exc.args[0]), "missing") from None
    except (TypeError, IndexError, AttributeError, ValueError) as exc:
        if isinstance(exc, DataError):
            raise
        raise DataError(f, "-", "-", f"malformed: {exc}") from None
    for key in ("dt", "max_time", "rest_speed", "mu_table", "g", "d_max", "token_mass"):
        if key not in const.physics:
            raise DataError(f, "physics", key, "missing")
        _num(f, "physics", key, const.physics[key], positive=True)
    if "standard" not in const.dexterity or "precise" not in const.dexterity:
        raise DataError(f, "dexterity", "-", "levels 'precise' and 'standard' are required")
    if not 0.0 <= const.min_flick_strength < 1.0:
        raise DataError(f, "-", "min_flick_strength", "must lie in [0, 1)")
    return const


def load_tokens(path: Path) -> tuple[str, ...]:
    f = path.name
    raw = _read(path)
    ids: list[str] = []
    try:
        entries = list(raw["cargo"]) + list(raw["special"])
        codes = [e["code"] for e in raw["cargo"]]
        if tuple(codes) != CARGO_TYPES:
            raise DataError(f, "cargo", "code", f"expected the cargo types {CARGO_TYPES}, got {codes}")
        for e in entries:
            ids += [str(e["code"])] * _int(f, str(e["code"]), "tokens", e["tokens"])
    except (KeyError, TypeError) as exc:
        raise DataError(f, "-", str(exc), "malformed") from None
    counts = Counter(ids)
    if counts["ASTEROID"] < 1 or counts["POLICE"] < 1:
        raise DataError(f, "special", "code", "asteroids and police are required")
    return tuple(ids)


def load_energy(path: Path) -> tuple[EnergyCard, ...]:
    f = path.name
    raw = _read(path)
    cards: list[EnergyCard] = []
    seen: set[str] = set()
    for i, c in enumerate(raw.get("cards", []) if isinstance(raw, dict) else []):
        item = str(c.get("id", f"#{i}")) if isinstance(c, dict) else f"#{i}"
        if not isinstance(c, dict):
            raise DataError(f, item, "-", "expected an object")
        cid = c.get("id")
        if not isinstance(cid, str) or not cid or " " in cid or cid in seen:
            raise DataError(f, item, "id", "missing, duplicate or containing spaces")
        seen.add(cid)
        value = c.get("value")
        if isinstance(value, bool) or value not in (1, 2, 3, 4, 5):
            raise DataError(f, item, "value", f"must be 1..5, got {value!r}")
        syms = c.get("symbols")
        if not isinstance(syms, list) or not 2 <= len(syms) <= 3 or any(s not in SYMBOLS for s in syms):
            raise DataError(f, item, "symbols", f"2 or 3 of {SYMBOLS}, got {syms!r}")
        if len(set(syms)) != len(syms):
            raise DataError(f, item, "symbols", "a card never repeats a symbol")
        cards.append(EnergyCard(cid, value, tuple(syms)))
    if not cards:
        raise DataError(f, "-", "cards", "no cards")
    return tuple(cards)


def load_markets(path: Path) -> tuple[MarketCard, ...]:
    f = path.name
    raw = _read(path)
    out: list[MarketCard] = []
    for i, c in enumerate(raw.get("cards", []) if isinstance(raw, dict) else []):
        item = str(c.get("id", f"#{i}")) if isinstance(c, dict) else f"#{i}"
        if not isinstance(c, dict) or not isinstance(c.get("prices"), dict):
            raise DataError(f, item, "prices", "expected an object of prices")
        prices = {t: _int(f, item, f"prices.{t}", c["prices"].get(t)) for t in CARGO_TYPES}
        out.append(MarketCard(str(c["id"]), prices))
    if not out:
        raise DataError(f, "-", "cards", "no market cards")
    return tuple(out)


def load_elements(path: Path) -> dict[str, ElementShape]:
    f = path.name
    raw = _read(path)
    out: dict[str, ElementShape] = {}
    for i, e in enumerate(raw.get("elements", []) if isinstance(raw, dict) else []):
        item = str(e.get("id", f"#{i}")) if isinstance(e, dict) else f"#{i}"
        if not isinstance(e, dict):
            raise DataError(f, item, "-", "expected an object")
        out[item] = ElementShape(item, str(e.get("name", item)), _points(f, item, "polygon", e.get("polygon")))
    return out


def load_preset(path: Path, elements: dict[str, ElementShape]) -> Preset:
    f = path.name
    raw = _read(path)
    try:
        pid = str(raw["id"])
        W, H = (_num(f, pid, "field", v, positive=True) for v in raw["field"])
        bases = tuple(
            BaseSpot(str(b["id"]), _num(f, str(b["id"]), "x", b["x"]), _num(f, str(b["id"]), "y", b["y"]),
                     _num(f, str(b["id"]), "normal", b["normal"]))
            for b in raw["bases"]
        )
        els = []
        for e in raw["elements"]:
            if e["id"] not in elements:
                raise DataError(f, str(e["id"]), "id", "unknown map element")
            els.append((str(e["id"]), _num(f, e["id"], "x", e["x"]), _num(f, e["id"], "y", e["y"]),
                        _num(f, e["id"], "rotation", e["rotation"])))
        players = tuple(int(p) for p in raw["players"])
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, DataError):
            raise
        raise DataError(f, "-", str(exc), "malformed") from None
    if len(bases) != 5:
        raise DataError(f, pid, "bases", f"a layout has 5 bases (SP-COMP-08), got {len(bases)}")
    return Preset(pid, players, (W, H), bases, tuple(els))


def validate_counts(content: Content) -> None:
    """The counts of spec §3.1 / §7 (T-SP-40)."""
    tokens = Counter(content.tokens)
    if len(content.tokens) != 34 or any(tokens[c] != 6 for c in CARGO_TYPES):
        raise DataError("cargo.json", "-", "tokens", f"34 tokens, 6 of each cargo (SP-COMP-04), got {dict(tokens)}")
    values = Counter(c.value for c in content.energy)
    if len(content.energy) != 36 or [values[v] for v in range(1, 6)] != [9, 8, 7, 6, 6]:
        raise DataError("energy_cards.json", "-", "value", f"36 cards 9/8/7/6/6 (SP-ENERGY-01), got {dict(values)}")
    if len(content.markets) != 10:
        raise DataError("market_cards.json", "-", "cards", "10 market cards (SP-COMP-09)")
    if len(content.elements) != 13:
        raise DataError("elements.json", "-", "elements", "13 map elements (SP-COMP-10)")


def load_content(directory: Path = DATA_DIR) -> Content:
    elements = load_elements(directory / "elements.json")
    presets = {}
    for p in sorted((directory / "presets").glob("*.json")):
        preset = load_preset(p, elements)
        presets[preset.id] = preset
    content = Content(
        constants=load_constants(directory / "constants.json"),
        tokens=load_tokens(directory / "cargo.json"),
        energy=load_energy(directory / "energy_cards.json"),
        markets=load_markets(directory / "market_cards.json"),
        elements=elements,
        presets=presets,
    )
    validate_counts(content)
    return content


@lru_cache(maxsize=1)
def load_default() -> Content:
    return load_content()


# --------------------------------------------------------------------------- data overrides (issue 9)
#: The content files whose numbers a configuration may override, by catalog name (presets are
#: layouts, chosen by the ``preset`` parameter, and stay as shipped; element outlines are geometry,
#: read but not offered).
OVERRIDE_FILES = {"constants": "constants.json", "cargo": "cargo.json", "energy_cards": "energy_cards.json",
                  "market_cards": "market_cards.json", "elements": "elements.json"}

#: Numbers of the files that are not offered as overrides, and why:
#: - ``elements``: map-element outlines are shapes, not settings;
#: - ``constants.sim_turn_cap``: it is only the default of the ``turn_cap`` parameter, which every
#:   configuration carries (set ``turn_cap`` instead);
#: - the five cargo counts: printed components the loader pins (SP-COMP-04: 6 of each cargo, 34
#:   tokens in all, which also fixes the RL encoding's 34 token slots). The asteroid and police
#:   counts stay offered; they must still add up to 4.
NOT_OFFERED = ("elements", "constants.sim_turn_cap", *(f"cargo.{code}" for code in CARGO_TYPES))


def _read_override_documents() -> dict[str, Any]:
    return {name: _read(DATA_DIR / file) for name, file in OVERRIDE_FILES.items()}


def _content_with(documents: Any) -> Content:
    """The shipped content validated with ``documents`` in place of its files (the loaders read
    files, so the documents are written to a scratch directory next to the shipped presets)."""
    with tempfile.TemporaryDirectory(prefix="holotable-sp-") as tmp:
        root = Path(tmp)
        for name, doc in documents.items():
            (root / OVERRIDE_FILES[name]).write_text(json.dumps(doc))
        shutil.copytree(DATA_DIR / "presets", root / "presets")
        return load_content(root)


#: Every offered number of the content files (``constants.start_mc``, ``constants.physics.mu_table``,
#: ``market_cards.M01.prices.ORE``, ``energy_cards.E1-1.value``, ``cargo.ASTEROID.tokens``, ...),
#: checked by the loaders above. ``content_for(config)`` gives the content a configuration plays with.
CATALOG: DataCatalog[Content] = DataCatalog(
    "Space Pirates", _read_override_documents, _content_with, numbers_only=True,
    collapse=("cards", "cargo", "special"), id_fields=("id", "code"), exclude=NOT_OFFERED,
    names={"dexterity": ("angle_sd", "strength_sd"), "slots": ("x", "y")}, errors=(DataError,),
    default=load_default, limits=lambda: read_packaged_json(__package__ or "", "limits.json"),
)


@lru_cache(maxsize=32)
def _content_with_overrides(items: Overrides) -> Content:
    return replace(CATALOG.resolve(items), overrides=items)


def content_of(items: Overrides) -> Content:
    """The shipped content with the checked overrides ``items`` (the shared default when empty)."""
    if not items:
        return load_default()
    return _content_with_overrides(items)


def content_for(config: Config) -> Content:
    """The content ``config`` plays with: the shipped one with its data overrides (the shared,
    once-loaded default without any, so default games cost nothing extra)."""
    items = config.data
    return load_default() if not items else _content_with_overrides(items)


def layout_overrides(items: Overrides) -> Overrides:
    """The part of ``items`` that shapes a board: its constants (sizes, physics, tolerances)."""
    return tuple(item for item in items if item[0].startswith("constants."))
