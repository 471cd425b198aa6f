"""Loading and validating Captain Black's data file (components and ASSUMED values)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from holotable.engine.data import DataCatalog, read_packaged_json
from holotable.engine.errors import DataError

from .actions import MAX_COINS

if TYPE_CHECKING:
    from holotable.engine.spec import Config

DATA_FILE = "captain-black.json"


@dataclass(frozen=True)
class Components:
    gold_coins: int
    black_coins: int
    chest_filled: int
    chest_empty: int
    parrot_cards: int

    @property
    def coins(self) -> int:
        return self.gold_coins + self.black_coins

    @property
    def chest_cards(self) -> int:
        return self.chest_filled + self.chest_empty


@dataclass(frozen=True)
class GameData:
    components: Components
    #: name -> (value, ambiguity record, allowed choices or None)
    assumed: dict[str, tuple[Any, str, tuple[Any, ...] | None]]

    def default(self, name: str) -> Any:
        return self.assumed[name][0]


def _int(section: dict[str, Any], key: str, where: str, minimum: int = 0) -> int:
    value = section.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise DataError(f"{where}: {key!r} must be an integer >= {minimum}, got {value!r}")
    return value


#: Assumed counts: (key, smallest allowed value, whether null is allowed).
_COUNTS = (
    ("min_draw", 1, False),
    ("max_handful", 1, True),
    ("max_chests_per_round", 1, False),
    ("timeout_draw", 1, False),
    ("start_seat", 0, True),
)


def parse(raw: Any, where: str = DATA_FILE) -> GameData:
    """Validate a decoded data file; every problem raises :class:`DataError` naming the key."""
    if not isinstance(raw, dict):
        raise DataError(f"{where}: the top level must be an object")
    comp = raw.get("components")
    if not isinstance(comp, dict):
        raise DataError(f"{where}: missing 'components' object")
    components = Components(
        gold_coins=_int(comp, "gold_coins", where, 1),
        black_coins=_int(comp, "black_coins", where, 1),
        chest_filled=_int(comp, "chest_filled", where),
        chest_empty=_int(comp, "chest_empty", where),
        parrot_cards=_int(comp, "parrot_cards", where),
    )
    if components.coins > MAX_COINS:
        raise DataError(f"{where}: gold_coins + black_coins must be at most {MAX_COINS}, got {components.coins}")
    section = raw.get("assumed")
    if not isinstance(section, dict):
        raise DataError(f"{where}: missing 'assumed' object")
    assumed: dict[str, tuple[Any, str, tuple[Any, ...] | None]] = {}
    required = (
        "min_players", "max_players", "parrot_values", "island_fields", "min_draw", "max_handful",
        "max_chests_per_round", "final_tie", "start_seat", "parrot_exhaustion", "public_tally",
        "timeout_draw",
    )
    for key in required:
        entry = section.get(key)
        if not isinstance(entry, dict) or "value" not in entry or not isinstance(entry.get("record"), str):
            raise DataError(f"{where}: assumed.{key} needs a 'value' and a 'record'")
        choices = entry.get("choices")
        if choices is not None:
            if not isinstance(choices, list) or entry["value"] not in choices:
                raise DataError(f"{where}: assumed.{key} value must be one of its choices")
            choices = tuple(choices)
        assumed[key] = (entry["value"], entry["record"], choices)
    parrots = assumed["parrot_values"][0]
    if (
        not isinstance(parrots, list)
        or len(parrots) != components.parrot_cards
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in parrots)
    ):
        raise DataError(
            f"{where}: assumed.parrot_values must list {components.parrot_cards} non-negative integers"
        )
    if assumed["island_fields"][0] != components.black_coins:
        # A round ends when the last black coin lands; fewer fields is a variant we
        # accept only if it still leaves a black coin in the bag.
        fields = assumed["island_fields"][0]
        if not isinstance(fields, int) or not 1 <= fields <= components.black_coins:
            raise DataError(f"{where}: assumed.island_fields must be 1..{components.black_coins}")
    # The remaining values become parameter defaults; a bad one must fail here, naming the
    # file, rather than as a ConfigError in every later game.
    for key, minimum, optional in _COUNTS:
        value = assumed[key][0]
        if value is None and optional:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            empty = " or null" if optional else ""
            raise DataError(f"{where}: assumed.{key} must be an integer >= {minimum}{empty}, got {value!r}")
    if not isinstance(assumed["public_tally"][0], bool):
        raise DataError(f"{where}: assumed.public_tally must be true or false")
    lo, hi = assumed["min_players"][0], assumed["max_players"][0]
    if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi):
        raise DataError(f"{where}: min_players/max_players must be integers with 1 <= min <= max")
    return GameData(components, assumed)


def _read() -> dict[str, Any]:
    return {"": read_packaged_json(__package__, DATA_FILE)}


#: The addressable data values: the component counts (``components.gold_coins``, ...). Every value
#: of the ``assumed`` section is a game parameter (or fixes the player range) and is set as such;
#: the number of parrot cards follows the ``parrot_values`` parameter, so it is not offered alone.
CATALOG: DataCatalog[GameData] = DataCatalog(
    "Captain Black", _read, lambda docs: parse(docs[""]), exclude=("assumed", "components.parrot_cards"),
    limits=lambda: read_packaged_json(__package__ or "", "limits.json"),
)


def load_default() -> GameData:
    """The data file shipped in the package (parsed once)."""
    return CATALOG.default


def data_for(config: Config) -> GameData:
    """The data a game with ``config`` plays with: the shipped file with its data overrides."""
    return CATALOG.resolve(config.data)
