"""Black Hole Buccaneers' card data: typed cards, the orientation model and a validating loader.

The shipped files live in ``data/``: ``junk.json`` (the 67 space-junk cards), ``black-holes.json``
(the 13 black holes and the first-game stack) and ``components.json`` (tokens, the direction card
and the scoring cards). Numbers the rulebook leaves open carry the spec's ambiguity record
(``AMB-nn``) in an ``assumed`` list. :func:`parse` checks every BHB-DATA rule and the printed
component list (BHB-COMP-*); each problem raises :class:`~holotable.engine.DataError` naming the
file, the card and the field.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from holotable.engine.data import DataCatalog, read_packaged_json
from holotable.engine.errors import ConfigError, DataError, HolotableError

if TYPE_CHECKING:
    from holotable.engine.spec import Config

JUNK_FILE = "junk.json"
BLACK_HOLE_FILE = "black-holes.json"
COMPONENTS_FILE = "components.json"
DATA_FILES = (JUNK_FILE, BLACK_HOLE_FILE, COMPONENTS_FILE)


#: The copy letter of a card that exists more than once with the same name (" (a)", " (b)", ...).
_COPY_LETTER = re.compile(r" \([a-z]\)$")


class JunkType(StrEnum):
    SPACESHIP = "spaceship"
    TOY = "toy"
    TIME_MACHINE = "time_machine"
    SHAPESHIFTER = "shapeshifter"
    ROBOT = "robot"
    ARTIFACT = "artifact"
    RELIC = "relic"


# The printed component list (rulebook facts, BHB-COMP-*). The data must match the box; these are
# not tunable numbers, unlike the values in the files.
JUNK_COUNTS: Mapping[JunkType, int] = {
    JunkType.SPACESHIP: 10, JunkType.TOY: 10, JunkType.TIME_MACHINE: 12, JunkType.SHAPESHIFTER: 10,
    JunkType.ROBOT: 10, JunkType.ARTIFACT: 8, JunkType.RELIC: 7,
}
BLACK_HOLE_COUNTS: Mapping[str, int] = {"menacing": 4, "risky": 4, "dangerous": 5}
PLAYER_COUNTS = (3, 4, 5, 6)
OVERVIEW_CARDS = 6
TM_PARTS = ("command_chair", "reflector_shield", "quantum_control", "warp_engine")
TM_COPIES = 3
#: Per-card (value, weight) of a time-machine part at orientations 0-3 (BHB-CARD-TM-06).
TM_STATS = ((2, 5), (4, 4), (5, 3), (5, 2))
WEIGHT_AMOUNTS = (-10, -6)
VALUE_AMOUNTS = (10,)
THRESHOLD_AMOUNTS = (-4, -2, 2, 3, 4)
DIRECTIONS = ("CW", "CCW")
#: The first game's top black hole deals this many cards (rulebook setup, step 2).
FIRST_GAME_HAND = 6
#: Artifact effect -> its timing; ``None`` where the timing itself is an assumption (AMB-14).
ARTIFACT_TIMINGS: Mapping[str, str | None] = {
    "gps": None, "tiit": "on_reveal", "laser": "on_reveal", "tentacle": "on_reveal", "gyro": "on_reveal",
    "morphosucker": "ongoing", "cubus_librae": "ongoing", "lootbox": "ongoing",
}
#: The artifacts that rotate without limit and so need a pair for every edge (BHB-ROT-04).
ROTATING_ARTIFACTS = frozenset({"morphosucker", "cubus_librae", "lootbox"})
#: Relic effect -> the scoring step in which it acts.
RELIC_STEPS: Mapping[str, str] = {
    "surprise_egg": "A", "wading_pool": "B", "one_ring": "D", "anti_grav_carpet": "E", "exoskeleton": "E",
    "xxl_paperweight": "F", "space_blanket": "G",
}
#: BHB-DATA-06: no artifact or relic may be heavy enough to trigger Lootbox (6) or Cubus Librae (7).
MAX_ARTIFACT_RELIC_WEIGHT = 5
#: Cards drawn outside the deal in the worst round (BHB-DATA-03): Titan Tentacle 3, Surprise Egg 1;
#: TIIT CLO UHL adds one per player.
TENTACLE_DRAW = 3
EGG_DRAW = 1
#: Which printed edge is at the top after k clockwise quarter turns (BHB-ROT-03).
EDGES = ("top", "left", "bottom", "right")

_RECORD = re.compile(r"AMB-\d{2}")


class OrientationError(HolotableError, ValueError):
    """A card was asked for an orientation it can never reach: an engine bug (BHB-ROT-06)."""


@dataclass(frozen=True)
class Stats:
    """The value and weight that sit at a card's top edge."""

    value: int
    weight: int

    def swapped(self) -> Stats:
        return Stats(self.weight, self.value)


@dataclass(frozen=True, kw_only=True)
class JunkCard:
    """One physical space-junk card. ``stats[k]`` is the pair on top after ``k`` clockwise turns."""

    kind: ClassVar[JunkType]
    id: str
    name: str
    stats: tuple[Stats, ...]
    #: Ambiguity records behind this card's values or name; empty when the rulebook gives them all.
    assumed: tuple[str, ...] = ()

    @functools.cached_property  # read for every laid card of every view: worked out once per card
    def shown_name(self) -> str:
        """The name a player reads: without the copy letter that tells identical cards apart in the
        data ("Robot 6/3 (b)" -> "Robot 6/3"), as two identical physical cards are told apart by nobody."""
        return _COPY_LETTER.sub("", self.name)

    @property
    def printed(self) -> Stats:
        return self.stats[0]

    @property
    def printed_weight(self) -> int:
        return self.stats[0].weight

    @property
    def wraps(self) -> bool:
        """Whether the card may turn past its last listed orientation back to o0 (BHB-ROT-04)."""
        return False

    @property
    def reachable(self) -> tuple[int, ...]:
        return tuple(range(len(self.stats)))

    def orientation(self, turns: int) -> int:
        """The orientation after ``turns`` clockwise quarter turns; raises for an unreachable one."""
        if turns < 0 or (not self.wraps and turns >= len(self.stats)):
            raise OrientationError(f"{self.id} cannot be turned {turns} times (reachable: {self.reachable})")
        return turns % 4

    def at(self, turns: int) -> Stats:
        """The value and weight counting after ``turns`` clockwise quarter turns (BHB-ROT-02)."""
        return self.stats[self.orientation(turns)]

    def top_edge(self, turns: int) -> str:
        """The printed edge (of the upright card) that is at the top after ``turns`` (for UI art)."""
        return EDGES[self.orientation(turns)]


@dataclass(frozen=True, kw_only=True)
class Spaceship(JunkCard):
    kind: ClassVar[JunkType] = JunkType.SPACESHIP


@dataclass(frozen=True, kw_only=True)
class Toy(JunkCard):
    kind: ClassVar[JunkType] = JunkType.TOY


@dataclass(frozen=True, kw_only=True)
class TimeMachinePart(JunkCard):
    kind: ClassVar[JunkType] = JunkType.TIME_MACHINE
    part: str


@dataclass(frozen=True, kw_only=True)
class Shapeshifter(JunkCard):
    kind: ClassVar[JunkType] = JunkType.SHAPESHIFTER


@dataclass(frozen=True, kw_only=True)
class Robot(JunkCard):
    kind: ClassVar[JunkType] = JunkType.ROBOT


@dataclass(frozen=True, kw_only=True)
class Artifact(JunkCard):
    kind: ClassVar[JunkType] = JunkType.ARTIFACT
    effect: str
    #: ``on_reveal`` or ``ongoing`` (active from the next turn).
    timing: str

    @property
    def wraps(self) -> bool:
        return self.effect in ROTATING_ARTIFACTS


@dataclass(frozen=True, kw_only=True)
class Relic(JunkCard):
    kind: ClassVar[JunkType] = JunkType.RELIC
    effect: str
    #: The scoring step (A-H) in which the relic acts.
    step: str


JUNK_CLASSES: Mapping[JunkType, type[JunkCard]] = {
    cls.kind: cls for cls in (Spaceship, Toy, TimeMachinePart, Shapeshifter, Robot, Artifact, Relic)
}


@dataclass(frozen=True, kw_only=True)
class BlackHole:
    id: str
    category: str
    colour: str
    #: Cards dealt to each player (the lower number, AMB-02).
    cards: int
    #: The base threshold value (the upper number).
    threshold: int
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class WeightCard:
    id: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class ValueCard:
    id: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class ThresholdCard:
    id: str
    amount: int
    #: ``laser`` (Swiss Pocket Laser's choice) or ``tiit`` (TIIT CLO UHL).
    placed_by: str


@dataclass(frozen=True, kw_only=True)
class DirectionCard:
    id: str
    sides: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class ScoringCard:
    players: int
    #: Points for 1st, 2nd, ... place.
    points: tuple[int, ...]
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Assumption:
    """One ASSUMED data value, where it lives and the ambiguity records behind it."""

    what: str
    value: Any
    records: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class BuccaneersData:
    junk: tuple[JunkCard, ...]
    black_holes: tuple[BlackHole, ...]
    #: Black-hole ids for the first game, top to bottom.
    first_game_stack: tuple[str, ...]
    first_game_assumed: tuple[str, ...]
    weight_cards: tuple[WeightCard, ...]
    value_cards: tuple[ValueCard, ...]
    threshold_cards: tuple[ThresholdCard, ...]
    direction_card: DirectionCard
    scoring_cards: tuple[ScoringCard, ...]
    overview_cards: int

    @cached_property
    def cards_by_id(self) -> dict[str, JunkCard]:
        return {card.id: card for card in self.junk}

    @cached_property
    def holes_by_id(self) -> dict[str, BlackHole]:
        return {hole.id: hole for hole in self.black_holes}

    def card(self, card_id: str) -> JunkCard:
        for card in self.junk:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def of_kind(self, kind: JunkType) -> tuple[JunkCard, ...]:
        return tuple(card for card in self.junk if card.kind is kind)

    def black_hole(self, hole_id: str) -> BlackHole:
        for hole in self.black_holes:
            if hole.id == hole_id:
                return hole
        raise KeyError(hole_id)

    def scoring_card(self, players: int) -> ScoringCard:
        """The scoring card for ``players``; other counts have none and are refused (BHB-COMP-06)."""
        for card in self.scoring_cards:
            if card.players == players:
                return card
        raise ConfigError(f"Black Hole Buccaneers needs 3 to 6 players; there is no scoring card for {players}")

    def assumptions(self) -> tuple[Assumption, ...]:
        """Every ASSUMED value in the data, with its records (for docs and for flipping them later)."""
        found: list[Assumption] = []
        for card in self.junk:
            if card.assumed:
                pairs = [(s.value, s.weight) for s in card.stats]
                found.append(Assumption(f"{card.id} ({card.name})", pairs, card.assumed))
        for hole in self.black_holes:
            found.append(Assumption(hole.id, (hole.cards, hole.threshold, hole.colour), hole.assumed))
        found.append(Assumption("first_game_stack", self.first_game_stack, self.first_game_assumed))
        for sc in self.scoring_cards:
            found.append(Assumption(f"scoring card {sc.players}", sc.points, sc.assumed))
        return tuple(a for a in found if a.records)


# --------------------------------------------------------------------------- parsing helpers


class _At:
    """Where a value sits, so every error names the file, the card and the field."""

    def __init__(self, where: str, file: str, item: str | None = None) -> None:
        self.where, self.file, self.item = where, file, item

    def on(self, item: str) -> _At:
        return _At(self.where, self.file, item)

    def error(self, problem: str, field: str | None = None) -> DataError:
        parts = [self.where, self.file]
        if self.item:
            parts.append(self.item)
        if field:
            parts.append(f"field {field!r}")
        return DataError(": ".join(parts) + ": " + problem)


def _object(value: Any, at: _At, field: str | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise at.error("must be an object", field)
    return value


def _list(obj: Mapping[str, Any], key: str, at: _At) -> list[Any]:
    if key not in obj:
        raise at.error("missing", key)
    value = obj[key]
    if not isinstance(value, list):
        raise at.error(f"must be a list, got {value!r}", key)
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(obj: Mapping[str, Any], key: str, at: _At) -> int:
    if key not in obj:
        raise at.error("missing", key)
    value = obj[key]
    if not _is_int(value):
        raise at.error(f"must be an integer, got {value!r}", key)
    result: int = value
    return result


def _str(obj: Mapping[str, Any], key: str, at: _At, choices: Iterable[str] | None = None) -> str:
    if key not in obj:
        raise at.error("missing", key)
    value = obj[key]
    if not isinstance(value, str) or not value:
        raise at.error(f"must be a non-empty string, got {value!r}", key)
    allowed = tuple(choices) if choices is not None else None
    if allowed is not None and value not in allowed:
        raise at.error(f"unknown value {value!r}; expected one of {', '.join(allowed)}", key)
    return value


def _no_extra(obj: Mapping[str, Any], allowed: Iterable[str], at: _At) -> None:
    extra = sorted(set(obj) - set(allowed))
    if extra:
        raise at.error(f"unknown field(s) {', '.join(map(repr, extra))}")


def _records(obj: Mapping[str, Any], at: _At, required: bool = False) -> tuple[str, ...]:
    if "assumed" not in obj:
        if required:
            raise at.error("missing (an assumed value must name its AMB-nn record)", "assumed")
        return ()
    value = obj["assumed"]
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(r, str) and _RECORD.fullmatch(r) for r in value)
    ):
        raise at.error(f"must be a non-empty list of records like 'AMB-01', got {value!r}", "assumed")
    return tuple(value)


def _stats(obj: Mapping[str, Any], at: _At) -> tuple[Stats, ...]:
    pairs = _list(obj, "stats", at)
    if not pairs:
        raise at.error("needs at least the printed (orientation 0) pair", "stats")
    result = []
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2 or not all(_is_int(x) for x in pair):
            raise at.error(f"each entry must be a [value, weight] pair of integers, got {pair!r}", "stats")
        result.append(Stats(pair[0], pair[1]))
    return tuple(result)


def _pairs(stats: tuple[Stats, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((s.value, s.weight) for s in stats)


def _unique_ids(items: Iterable[Any], at: _At) -> None:
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise at.on(f"card {item.id!r}").error("duplicate id", "id")
        seen.add(item.id)


# --------------------------------------------------------------------------- junk.json

_JUNK_FIELDS = ("id", "type", "name", "stats", "assumed")
_EXTRA_FIELDS: Mapping[JunkType, tuple[str, ...]] = {
    JunkType.TIME_MACHINE: ("part",), JunkType.ARTIFACT: ("effect", "timing"), JunkType.RELIC: ("effect", "step"),
}


def _junk_card(raw: Any, index: int, at: _At) -> JunkCard:
    obj = _object(raw, at.on(f"card #{index}"))
    card_id = _str(obj, "id", at.on(f"card #{index}"))
    at = at.on(f"card {card_id!r}")
    kind = JunkType(_str(obj, "type", at, [k.value for k in JunkType]))
    _no_extra(obj, _JUNK_FIELDS + _EXTRA_FIELDS.get(kind, ()), at)
    common: dict[str, Any] = {
        "id": card_id, "name": _str(obj, "name", at), "stats": _stats(obj, at), "assumed": _records(obj, at),
    }
    stats: tuple[Stats, ...] = common["stats"]
    # BHB-DATA-05 / BHB-ROT-06: exactly the orientations the card can reach.
    if kind is JunkType.ROBOT:
        if len(stats) != 2 or stats[1] != stats[0].swapped():
            raise at.error("a robot needs exactly [o0, o1] with o1 = o0 swapped (BHB-CARD-ROBOT-03)", "stats")
        return Robot(**common)
    if kind is JunkType.TIME_MACHINE:
        if _pairs(stats) != TM_STATS:
            raise at.error(f"a time-machine part needs the four pairs {list(map(list, TM_STATS))}", "stats")
        return TimeMachinePart(**common, part=_str(obj, "part", at, TM_PARTS))
    if kind is JunkType.ARTIFACT:
        effect = _str(obj, "effect", at, ARTIFACT_TIMINGS)
        fixed = ARTIFACT_TIMINGS[effect]
        timing = _str(obj, "timing", at, [fixed] if fixed else ["on_reveal", "ongoing"])
        needed = 4 if effect in ROTATING_ARTIFACTS else 1
        if len(stats) != needed:
            raise at.error(f"{effect} needs {needed} orientation pair(s), got {len(stats)}", "stats")
        card: JunkCard = Artifact(**common, effect=effect, timing=timing)
    elif kind is JunkType.RELIC:
        effect = _str(obj, "effect", at, RELIC_STEPS)
        step = _str(obj, "step", at, [RELIC_STEPS[effect]])
        if len(stats) != 1:
            raise at.error(f"a relic never rotates: give only the printed pair, got {len(stats)}", "stats")
        card = Relic(**common, effect=effect, step=step)
    else:
        if len(stats) != 1:
            raise at.error(f"a {kind.value} never rotates: give only the printed pair, got {len(stats)}", "stats")
        return JUNK_CLASSES[kind](**common)
    if card.printed_weight > MAX_ARTIFACT_RELIC_WEIGHT:
        raise at.error(
            f"printed weight {card.printed_weight} is above {MAX_ARTIFACT_RELIC_WEIGHT}; it could trigger Lootbox or "
            "Cubus Librae on reveal (BHB-DATA-06)", "stats",
        )
    return card


def _parse_junk(raw: Any, at: _At) -> tuple[JunkCard, ...]:
    top = _object(raw, at)
    _no_extra(top, ("_about", "cards"), at)
    cards = tuple(_junk_card(item, i, at) for i, item in enumerate(_list(top, "cards", at)))
    _unique_ids(cards, at)
    counts = Counter(card.kind for card in cards)
    for kind, expected in JUNK_COUNTS.items():
        if counts[kind] != expected:
            raise at.error(f"wrong count: {counts[kind]} {kind.value} card(s), the box has {expected} (BHB-COMP-02)")
    parts = Counter(card.part for card in cards if isinstance(card, TimeMachinePart))
    for part in TM_PARTS:
        if parts[part] != TM_COPIES:
            raise at.error(f"wrong count: {parts[part]} {part} part(s), the box has {TM_COPIES} (BHB-CARD-TM-01)")
    effects = Counter(card.effect for card in cards if isinstance(card, (Artifact, Relic)))
    for names, rule in ((ARTIFACT_TIMINGS, "BHB-COMP-07"), (RELIC_STEPS, "BHB-COMP-08")):
        for name in names:
            if effects[name] != 1:
                raise at.error(f"wrong count: {effects[name]} card(s) with effect {name!r}, expected 1 ({rule})")
    ship_values = [card.printed.value for card in cards if isinstance(card, Spaceship)]
    if len(set(ship_values)) != len(ship_values):
        # The spaceship tie-break compares single spaceships and must never tie (BHB-CARD-SHIP-04).
        raise at.error(f"spaceship values must be distinct, got {sorted(ship_values)}")
    return cards


# --------------------------------------------------------------------------- black-holes.json


def _black_hole(raw: Any, index: int, at: _At) -> BlackHole:
    obj = _object(raw, at.on(f"card #{index}"))
    hole_id = _str(obj, "id", at.on(f"card #{index}"))
    at = at.on(f"card {hole_id!r}")
    _no_extra(obj, ("id", "category", "colour", "cards", "threshold", "assumed"), at)
    hole = BlackHole(
        id=hole_id, category=_str(obj, "category", at, BLACK_HOLE_COUNTS), colour=_str(obj, "colour", at),
        cards=_int(obj, "cards", at), threshold=_int(obj, "threshold", at), assumed=_records(obj, at),
    )
    if hole.cards < 2:
        raise at.error(f"must be at least 2, got {hole.cards} (BHB-DATA-02)", "cards")
    if hole.threshold <= hole.cards:
        raise at.error(f"must be above 'cards' ({hole.cards}), got {hole.threshold} (BHB-DATA-02)", "threshold")
    return hole


def _parse_black_holes(raw: Any, at: _At) -> tuple[tuple[BlackHole, ...], tuple[str, ...], tuple[str, ...]]:
    top = _object(raw, at)
    _no_extra(top, ("_about", "cards", "first_game_stack"), at)
    holes = tuple(_black_hole(item, i, at) for i, item in enumerate(_list(top, "cards", at)))
    _unique_ids(holes, at)
    counts = Counter(hole.category for hole in holes)
    for category, expected in BLACK_HOLE_COUNTS.items():
        if counts[category] != expected:
            raise at.error(f"wrong count: {counts[category]} {category} black hole(s), the box has {expected} "
                           "(BHB-COMP-01)")
    stack_at = at.on("first_game_stack")
    entry = _object(top.get("first_game_stack"), stack_at)
    records = _records(entry, stack_at, required=True)
    ids = _list(entry, "value", stack_at)
    by_id = {hole.id: hole for hole in holes}
    if len(ids) != 3 or len(set(map(str, ids))) != 3 or not all(isinstance(i, str) and i in by_id for i in ids):
        raise stack_at.error(f"must list 3 distinct black-hole ids, got {ids!r}", "value")
    top_hole, bottom_hole = by_id[ids[0]], by_id[ids[-1]]
    if top_hole.category != "menacing" or top_hole.cards != FIRST_GAME_HAND or bottom_hole.category != "dangerous":
        raise stack_at.error(
            f"the top must be a menacing black hole dealing {FIRST_GAME_HAND} cards and the bottom a dangerous one",
            "value",
        )
    return holes, tuple(ids), records


# --------------------------------------------------------------------------- components.json


def _tokens(
    top: Mapping[str, Any], key: str, amounts: tuple[int, ...], at: _At
) -> list[tuple[str, int, dict[str, Any]]]:
    found = []
    for i, raw in enumerate(_list(top, key, at)):
        obj = _object(raw, at.on(f"{key} #{i}"))
        token_id = _str(obj, "id", at.on(f"{key} #{i}"))
        item_at = at.on(f"{key} {token_id!r}")
        _no_extra(obj, ("id", "amount", "placed_by") if key == "threshold_cards" else ("id", "amount"), item_at)
        found.append((token_id, _int(obj, "amount", item_at), obj))
    if tuple(sorted(amount for _, amount, _ in found)) != amounts:
        raise at.error(f"the box has exactly the amounts {list(amounts)} (BHB-COMP-03/04)", key)
    if len({token_id for token_id, _, _ in found}) != len(found):
        raise at.error("duplicate id", key)
    return found


def _scoring_cards(top: Mapping[str, Any], at: _At) -> tuple[ScoringCard, ...]:
    card_at = at.on("scoring_cards")
    entry = _object(top.get("scoring_cards"), card_at)
    records = _records(entry, card_at, required=True)
    table = _object(entry.get("value"), card_at, "value")
    if sorted(table) != sorted(str(n) for n in PLAYER_COUNTS):
        raise card_at.error(f"needs exactly the player counts {list(PLAYER_COUNTS)}, got {sorted(table)} (BHB-COMP-06)",
                            "value")
    cards = []
    for players in PLAYER_COUNTS:
        points = table[str(players)]
        if (
            not isinstance(points, list)
            or len(points) != players
            or not all(_is_int(p) and p >= 0 for p in points)
            or any(a <= b for a, b in itertools.pairwise(points))
        ):
            raise card_at.error(f"{players} players need {players} strictly falling points >= 0, got {points!r} "
                                "(BHB-DATA-04)", "value")
        cards.append(ScoringCard(players=players, points=tuple(points), assumed=records))
    return tuple(cards)


def _parse_components(raw: Any, at: _At) -> dict[str, Any]:
    top = _object(raw, at)
    _no_extra(top, ("_about", "weight_cards", "value_cards", "threshold_cards", "direction_card", "scoring_cards",
                    "overview_cards"), at)
    weights = [WeightCard(id=i, amount=a) for i, a, _ in _tokens(top, "weight_cards", WEIGHT_AMOUNTS, at)]
    values = [ValueCard(id=i, amount=a) for i, a, _ in _tokens(top, "value_cards", VALUE_AMOUNTS, at)]
    thresholds = []
    for token_id, amount, obj in _tokens(top, "threshold_cards", THRESHOLD_AMOUNTS, at):
        # TIIT CLO UHL always places +3; Swiss Pocket Laser chooses among the other four.
        source = _str(obj, "placed_by", at.on(f"threshold_cards {token_id!r}"), ["tiit" if amount == 3 else "laser"])
        thresholds.append(ThresholdCard(id=token_id, amount=amount, placed_by=source))
    direction_at = at.on("direction_card")
    direction = _object(top.get("direction_card"), direction_at)
    _no_extra(direction, ("id", "sides"), direction_at)
    sides = _list(direction, "sides", direction_at)
    if sorted(map(str, sides)) != sorted(DIRECTIONS) or len(sides) != 2:
        raise direction_at.error(f"must be the two sides {list(DIRECTIONS)}, got {sides!r} (BHB-COMP-05)", "sides")
    overview = _int(top, "overview_cards", at)
    if overview != OVERVIEW_CARDS:
        raise at.error(f"the box has {OVERVIEW_CARDS}, got {overview} (BHB-COMP-06)", "overview_cards")
    return {
        "weight_cards": tuple(weights), "value_cards": tuple(values), "threshold_cards": tuple(thresholds),
        "direction_card": DirectionCard(id=_str(direction, "id", direction_at), sides=tuple(sides)),
        "scoring_cards": _scoring_cards(top, at), "overview_cards": overview,
    }


# --------------------------------------------------------------------------- entry points


def parse(raw: Mapping[str, Any], where: str = "buccaneers data") -> BuccaneersData:
    """Validate the decoded data files, given as ``{file name: decoded JSON}``.

    Every problem raises :class:`DataError` whose message starts with ``where`` and names the
    file, then the card or section, then the field.
    """
    if not isinstance(raw, Mapping):
        raise DataError(f"{where}: expected a mapping of file name to decoded JSON")
    for name in DATA_FILES:
        if name not in raw:
            raise DataError(f"{where}: {name}: missing file")
    junk = _parse_junk(raw[JUNK_FILE], _At(where, JUNK_FILE))
    holes, stack, stack_records = _parse_black_holes(raw[BLACK_HOLE_FILE], _At(where, BLACK_HOLE_FILE))
    components = _parse_components(raw[COMPONENTS_FILE], _At(where, COMPONENTS_FILE))
    # BHB-DATA-03: the largest deal plus every extra draw of a round must fit in the deck, so the
    # draw pile can never run dry (AMB-11).
    most = max(PLAYER_COUNTS)
    h_max = max(hole.cards for hole in holes)
    needed = most * h_max + most + TENTACLE_DRAW + EGG_DRAW
    if needed > len(junk):
        raise DataError(
            f"{where}: {BLACK_HOLE_FILE}: field 'cards': a {h_max}-card black hole with {most} players needs {needed} "
            f"cards but the deck has {len(junk)} (BHB-DATA-03)"
        )
    return BuccaneersData(junk=junk, black_holes=holes, first_game_stack=stack, first_game_assumed=stack_records,
                          **components)


def decode(text: str, where: str) -> Any:
    """Decode one file's text; bad JSON raises :class:`DataError` naming ``where``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{where}: not valid JSON: {exc}") from exc


def load(directory: Path | Traversable, where: str | None = None) -> BuccaneersData:
    """Read and validate the three data files in ``directory``."""
    label = where if where is not None else str(directory)
    raw: dict[str, Any] = {}
    for name in DATA_FILES:
        try:
            text = directory.joinpath(name).read_text(encoding="utf-8")
        except OSError as exc:
            raise DataError(f"{label}: {name}: cannot read: {exc}") from exc
        raw[name] = decode(text, f"{label}: {name}")
    return parse(raw, label)


def _read_shipped() -> dict[str, Any]:
    """The shipped files, decoded, by catalog name (``junk``, ``black_holes``, ``components``)."""
    directory = resources.files(__package__).joinpath("data")
    label = "buccaneers/data"
    raw: dict[str, Any] = {}
    for name in DATA_FILES:
        try:
            text = directory.joinpath(name).read_text(encoding="utf-8")
        except OSError as exc:  # pragma: no cover - a broken installation
            raise DataError(f"{label}: {name}: cannot read: {exc}") from exc
        raw[_DOCUMENT[name]] = decode(text, f"{label}: {name}")
    return raw


_DOCUMENT = {JUNK_FILE: "junk", BLACK_HOLE_FILE: "black_holes", COMPONENTS_FILE: "components"}

#: The addressable data values: every junk card's value and weight per orientation
#: (``junk.SHIP-07.stats.0.value``), each black hole's ``cards`` and ``threshold``, the first
#: game's stack (``black_holes.first_game_stack.0``) and the scoring cards' points
#: (``components.scoring_cards.4.0`` = 1st place with 4 players). Left out: names and kinds,
#: the time-machine parts and the token cards, whose numbers are printed rules facts that the
#: loader pins (BHB-CARD-TM-06, BHB-COMP-03/04).
CATALOG: DataCatalog[BuccaneersData] = DataCatalog(
    "Black Hole Buccaneers",
    _read_shipped,
    lambda docs: parse({name: docs[key] for name, key in _DOCUMENT.items()}, "buccaneers/data"),
    skip=("id", "type", "name", "part", "effect", "timing", "step", "category", "colour", "placed_by"),
    exclude=("junk.TM-*", "components.weight_cards", "components.value_cards", "components.threshold_cards",
             "components.direction_card", "components.overview_cards"),
    names={"stats": ("value", "weight")},
    collapse=("cards",),
    limits=lambda: read_packaged_json(__package__ or "", "limits.json"),
)


def load_default() -> BuccaneersData:
    """The data files shipped in the package (read and validated once)."""
    return CATALOG.default


def data_for(config: Config) -> BuccaneersData:
    """The data a game with ``config`` plays with: the shipped files with its data overrides."""
    return CATALOG.resolve(config.data)
