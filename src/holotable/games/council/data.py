"""Loading and validating Black Hole Council's data file (components and ASSUMED values).

Colours and outcomes are small integers in a fixed order everywhere (spec §0):
``RED=0 GREEN=1 YELLOW=2 BLUE=3 BLACK=4`` and ``SETTLE=0 TAX=1 MINE=2 CONQUER=3 BLACK_HOLE=4``.
A Rainbow planet has colour :data:`RAINBOW`.

>>> DATA = load_default()
>>> len(DATA.planets), len(DATA.agendas), sum(DATA.intrigue_counts)
(32, 20, 10)
>>> DATA.agendas[0]  # AG-01: red Settle, green Tax, yellow Mine, blue Conquer, black Black Hole
(0, 1, 2, 3, 4)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from holotable.engine.data import DataCatalog, read_packaged_json
from holotable.engine.errors import DataError

if TYPE_CHECKING:
    from holotable.engine.spec import Config

DATA_FILE = "council.json"
COLOURS = ("red", "green", "yellow", "blue", "black")
OUTCOMES = ("settle", "tax", "mine", "conquer", "black_hole")
RAINBOW = -1
SETTLE, TAX, MINE, CONQUER, BLACK_HOLE = range(5)
ROUND_KINDS = "NDP"  # Negotiation, Deduction, Pay-Out
#: The Goals (outcomes) checked in Deduction Rounds 1, 2, 3 (BHC-DED-1-02, 2-02, 3-02).
DEDUCTION_GOALS = ((SETTLE, TAX), (MINE, CONQUER), (BLACK_HOLE,))


@dataclass(frozen=True)
class Planet:
    id: str
    colour: int  # 0..4, or RAINBOW
    points: int
    coin: int  # coins paid at Pay-Out when matched; 0 = no coin symbol

    @property
    def rainbow(self) -> bool:
        return self.colour == RAINBOW

    def to_dict(self) -> dict[str, Any]:
        colour = "rainbow" if self.rainbow else COLOURS[self.colour]
        return {"id": self.id, "colour": colour, "points": self.points, "coin": self.coin}


@dataclass(frozen=True)
class CouncilData:
    player_colours: tuple[str, ...]
    planets: tuple[Planet, ...]
    #: agenda index -> (goal outcome of colour 0, ..., of colour 4)
    agendas: tuple[tuple[int, ...], ...]
    agenda_ids: tuple[str, ...]
    #: copies of each Intrigue kind, indexed by outcome
    intrigue_counts: tuple[int, ...]
    #: name -> (value, ambiguity record, allowed choices or None)
    assumed: dict[str, tuple[Any, str, tuple[Any, ...] | None]]
    by_id: dict[str, Planet] = field(init=False, repr=False, compare=False)

    def default(self, name: str) -> Any:
        return self.assumed[name][0]

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {p.id: p for p in self.planets})

    def planet(self, planet_id: str) -> Planet:
        return self.by_id[planet_id]

_ASSUMED_KEYS = (
    "min_players", "max_players", "track_costs", "round_order", "first_leader", "bribe_increment",
    "negotiation_seconds", "negotiation_ticks", "leader_actions_per_tick", "chat_max_chars", "house_timeouts",
)


def _int(value: Any, where: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or (minimum is not None and value < minimum):
        bound = "" if minimum is None else f" >= {minimum}"
        raise DataError(f"{where} must be an integer{bound}, got {value!r}")
    return value


def _planets(raw: Any, where: str) -> tuple[Planet, ...]:
    if not isinstance(raw, list):
        raise DataError(f"{where}: 'planets' must be a list")
    out: list[Planet] = []
    for i, card in enumerate(raw):
        at = f"{where}: planets[{i}]"
        if not isinstance(card, dict) or set(card) != {"id", "colour", "points", "coin"}:
            raise DataError(f"{at} needs exactly the fields id, colour, points, coin")
        if not isinstance(card["id"], str) or not card["id"]:
            raise DataError(f"{at}.id must be a non-empty string")
        colour = card["colour"]
        if colour == "rainbow":
            code = RAINBOW
        elif colour in COLOURS:
            code = COLOURS.index(colour)
        else:
            raise DataError(f"{at} ({card['id']}).colour must be one of {[*COLOURS, 'rainbow']}, got {colour!r}")
        points = _int(card["points"], f"{at} ({card['id']}).points")
        if code != RAINBOW and not 0 <= points <= 3:  # BHC-COMP-06
            raise DataError(f"{at} ({card['id']}).points must be 0..3 for a coloured planet, got {points}")
        out.append(Planet(card["id"], code, points, _int(card["coin"], f"{at} ({card['id']}).coin", 0)))
    ids = [p.id for p in out]
    if len(set(ids)) != len(ids):
        raise DataError(f"{where}: planet ids must be unique")
    per_colour = [sum(1 for p in out if p.colour == c) for c in range(5)]
    if len(set(per_colour)) != 1:  # BHC-COMP-05: five equal sets
        raise DataError(f"{where}: planets must come in five equal colour sets, got {per_colour}")
    rainbow = sorted(p.points for p in out if p.rainbow)
    if rainbow != [-1, 1]:  # BHC-COMP-07
        raise DataError(f"{where}: there must be two rainbow planets worth -1 and +1, got {rainbow}")
    return tuple(out)


def _agendas(raw: Any, where: str) -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...]]:
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{where}: 'agendas' must be a non-empty list")
    cards: list[tuple[int, ...]] = []
    ids: list[str] = []
    for i, card in enumerate(raw):
        at = f"{where}: agendas[{i}]"
        if not isinstance(card, dict) or not isinstance(card.get("id"), str) or not isinstance(card.get("goals"), dict):
            raise DataError(f"{at} needs an 'id' and a 'goals' object")
        goals = card["goals"]
        if set(goals) != set(OUTCOMES):
            raise DataError(f"{at} ({card['id']}).goals must name every outcome {list(OUTCOMES)}")
        colour_goal = [-1] * 5
        for outcome, colour in goals.items():
            if colour not in COLOURS:
                raise DataError(f"{at} ({card['id']}).goals.{outcome} must be a colour, got {colour!r}")
            if colour_goal[COLOURS.index(colour)] != -1:  # BHC-COMP-10: a bijection
                raise DataError(f"{at} ({card['id']}): colour {colour} has two goals")
            colour_goal[COLOURS.index(colour)] = OUTCOMES.index(outcome)
        cards.append(tuple(colour_goal))
        ids.append(card["id"])
    if len(set(cards)) != len(cards) or len(set(ids)) != len(ids):
        raise DataError(f"{where}: no two agendas may be the same")
    return tuple(cards), tuple(ids)


def parse(raw: Any, where: str = DATA_FILE) -> CouncilData:
    """Validate a decoded data file; every problem raises :class:`DataError` naming the key."""
    if not isinstance(raw, dict):
        raise DataError(f"{where}: the top level must be an object")
    if raw.get("planet_colours") != list(COLOURS) or raw.get("outcomes") != list(OUTCOMES):
        raise DataError(f"{where}: planet_colours and outcomes must be {list(COLOURS)} and {list(OUTCOMES)}")
    colours = raw.get("player_colours")
    if not isinstance(colours, list) or not all(isinstance(c, str) for c in colours) or len(set(colours)) != len(
        colours
    ):
        raise DataError(f"{where}: player_colours must be a list of distinct names")
    planets = _planets(raw.get("planets"), where)
    agendas, agenda_ids = _agendas(raw.get("agendas"), where)
    intrigue = raw.get("intrigue")
    if not isinstance(intrigue, dict) or set(intrigue) != set(OUTCOMES):
        raise DataError(f"{where}: 'intrigue' must give a count for each kind {list(OUTCOMES)}")
    counts = tuple(_int(intrigue[o], f"{where}: intrigue.{o}", 0) for o in OUTCOMES)
    section = raw.get("assumed")
    if not isinstance(section, dict):
        raise DataError(f"{where}: missing 'assumed' object")
    assumed: dict[str, tuple[Any, str, tuple[Any, ...] | None]] = {}
    for key in _ASSUMED_KEYS:
        entry = section.get(key)
        if not isinstance(entry, dict) or "value" not in entry or not isinstance(entry.get("record"), str):
            raise DataError(f"{where}: assumed.{key} needs a 'value' and a 'record'")
        choices = entry.get("choices")
        if choices is not None:
            if not isinstance(choices, list) or entry["value"] not in choices:
                raise DataError(f"{where}: assumed.{key} value must be one of its choices")
            choices = tuple(choices)
        assumed[key] = (entry["value"], entry["record"], choices)
    lo = _int(assumed["min_players"][0], f"{where}: assumed.min_players", 2)
    hi = _int(assumed["max_players"][0], f"{where}: assumed.max_players", lo)
    if hi > len(colours) or hi > len(agendas) or hi > sum(counts):
        raise DataError(f"{where}: assumed.max_players {hi} exceeds the player colours, agendas or intrigue cards")
    costs = assumed["track_costs"][0]
    if not isinstance(costs, list) or not costs:
        raise DataError(f"{where}: assumed.track_costs must be a non-empty list")
    for i, cost in enumerate(costs):
        _int(cost, f"{where}: assumed.track_costs[{i}]", 1)
    for order in assumed["round_order"][2] or (assumed["round_order"][0],):
        check_round_order(order, where)
    for key, minimum in (("bribe_increment", 1), ("negotiation_seconds", 0), ("negotiation_ticks", 1),
                         ("leader_actions_per_tick", 1), ("chat_max_chars", 1)):
        _int(assumed[key][0], f"{where}: assumed.{key}", minimum)
    if not isinstance(assumed["house_timeouts"][0], bool):
        raise DataError(f"{where}: assumed.house_timeouts must be true or false")
    first = assumed["first_leader"][0]
    if first is not None:
        _int(first, f"{where}: assumed.first_leader", 0)
    return CouncilData(tuple(colours), planets, agendas, agenda_ids, counts, assumed)


def check_round_order(order: Any, where: str = "round_order") -> str:
    """A round order has 6 'N', 3 'D' and ends with the one 'P' (BHC-FLOW-01)."""
    if (
        not isinstance(order, str)
        or set(order) - set(ROUND_KINDS)
        or order.count("N") != 6
        or order.count("D") != 3
        or order.count("P") != 1
        or not order.endswith("P")
    ):
        raise DataError(f"{where}: a round order has six N, three D and ends with P, got {order!r}")
    return order


def _read() -> dict[str, Any]:
    return {"": read_packaged_json(__package__, DATA_FILE)}


#: The addressable data values (``planets.RED-A.points``, ``agendas.AG-01.goals.tax``,
#: ``intrigue.tax``, ...). The ``assumed`` section is left out: each of its values is a game
#: parameter (or fixes the player range) and is set as such; colour and outcome names are labels.
CATALOG: DataCatalog[CouncilData] = DataCatalog(
    "Black Hole Council", _read, lambda docs: parse(docs[""]),
    exclude=("assumed", "planet_colours", "outcomes", "player_colours"),
    limits=lambda: read_packaged_json(__package__ or "", "limits.json"),
)


def load_default() -> CouncilData:
    """The data file shipped in the package (parsed once)."""
    return CATALOG.default


def data_for(config: Config) -> CouncilData:
    """The data a game with ``config`` plays with: the shipped file with its data overrides."""
    return CATALOG.resolve(config.data)
