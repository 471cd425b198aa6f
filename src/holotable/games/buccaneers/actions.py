"""Black Hole Buccaneers' player actions (BHB-DEC-*), their text forms and the integer action space.

| action | text | asked |
|---|---|---|
| ``Play(card)`` | ``play SHIP-12`` | step 1, every seat not under the GPS constraint (sealed) |
| ``Group(g)`` | ``group 2`` / ``group new`` | a time-machine part is laid out and an own group could take it |
| ``Laser(amount)`` | ``laser -4`` / ``laser +2`` | Swiss Pocket Laser revealed from hand |
| ``Take(card)`` | ``take SHIP-12`` | Titan Tentacle: the drawn card to lay out |
| ``Relic(name, use)`` | ``use egg`` / ``keep egg``, same for ``pool`` and ``ring`` | steps A, B, D |

The integer space is fixed: ``play`` 0-66 and ``take`` 67-133 (cards in data-file order), ``group``
134-146 (134 = new group, 135 + k - 1 = group k, k <= 12), ``laser`` 147-150 (-4, -2, +2, +4),
``relic`` 151-156 (use/keep egg, pool, ring).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from holotable.engine.errors import MalformedActionError

from .data import load_default

CARD_IDS: tuple[str, ...] = tuple(card.id for card in load_default().junk)
_BY_LOWER = {cid.lower(): cid for cid in CARD_IDS}
_CARD_INDEX = {cid: i for i, cid in enumerate(CARD_IDS)}
MAX_GROUPS = 12
LASER_CHOICES = (-4, -2, 2, 4)
RELICS = ("egg", "pool", "ring")


@dataclass(frozen=True, slots=True)
class Play:
    """Step 1: lay this hand card face down (DEC-CHOOSE)."""

    card: str

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Take:
    """Titan Tentacle: lay out this one of the drawn cards (DEC-TENTACLE)."""

    card: str

    def __str__(self) -> str:
        return f"take {self.card}"


@dataclass(frozen=True, slots=True)
class Group:
    """Time-machine part: add it to own group ``group`` (1, 2, ...) or open a new one (0) (DEC-TM-GROUP)."""

    group: int

    def __str__(self) -> str:
        return "group new" if self.group == 0 else f"group {self.group}"


@dataclass(frozen=True, slots=True)
class Laser:
    """Swiss Pocket Laser: the threshold card to place (DEC-LASER)."""

    amount: int

    def __str__(self) -> str:
        return f"laser {self.amount:+d}"


@dataclass(frozen=True, slots=True)
class Relic:
    """Surprise Egg / Alien Wading Pool / One Ring: use (discard) it or keep it (DEC-EGG/POOL/RING)."""

    relic: str
    use: bool

    def __str__(self) -> str:
        return f"{'use' if self.use else 'keep'} {self.relic}"


Action = Play | Take | Group | Laser | Relic
# Frozen dataclasses, not NamedTuples: tuples of equal fields compare equal across types, so
# ``Play("X") == Take("X")`` and ``Group(2) == Laser(2)`` would be true, and a search tree keyed by
# actions would mix them up.

PLAY_BASE = 0
TAKE_BASE = len(CARD_IDS)
GROUP_BASE = 2 * len(CARD_IDS)
LASER_BASE = GROUP_BASE + MAX_GROUPS + 1
RELIC_BASE = LASER_BASE + len(LASER_CHOICES)
NUM_ACTIONS = RELIC_BASE + 2 * len(RELICS)

_CARD_ACTION = re.compile(r"\s*(play|take)\s+([A-Za-z0-9-]{1,20})\s*", re.IGNORECASE | re.ASCII)
_GROUP = re.compile(r"\s*group\s+(new|[0-9]{1,2})\s*", re.IGNORECASE | re.ASCII)
_LASER = re.compile(r"\s*laser\s+([+-]?[0-9]{1,2})\s*", re.IGNORECASE | re.ASCII)
_RELIC = re.compile(r"\s*(use|keep)\s+(egg|pool|ring)\s*", re.IGNORECASE | re.ASCII)


def parse(text: str) -> Action:
    """Read an action's text form.

    >>> parse("play SHIP-12")
    Play(card='SHIP-12')
    >>> str(parse("LASER -4")), str(parse("group new")), str(parse("keep egg"))
    ('laser -4', 'group new', 'keep egg')
    """
    if not isinstance(text, str):
        raise MalformedActionError(f"an action text must be a string, got {text!r}")
    m = _CARD_ACTION.fullmatch(text)
    if m:
        card = _BY_LOWER.get(m.group(2).lower())
        if card is None:
            raise MalformedActionError(f"there is no space-junk card {m.group(2)!r}")
        return Play(card) if m.group(1).lower() == "play" else Take(card)
    m = _GROUP.fullmatch(text)
    if m:
        word = m.group(1).lower()
        g = 0 if word == "new" else int(word)
        if word != "new" and not 1 <= g <= MAX_GROUPS:
            raise MalformedActionError(f"a group number is 1..{MAX_GROUPS}, got {g}")
        return Group(g)
    m = _LASER.fullmatch(text)
    if m:
        amount = int(m.group(1))
        if amount not in LASER_CHOICES and amount != 3:
            raise MalformedActionError(f"there is no threshold card {amount:+d}")
        return Laser(amount)
    m = _RELIC.fullmatch(text)
    if m:
        return Relic(m.group(2).lower(), m.group(1).lower() == "use")
    raise MalformedActionError(
        f"cannot read {text!r}; try 'play SHIP-12', 'take TOY-4-6', 'group 1', 'group new', 'laser -4', "
        "'use egg' or 'keep ring'"
    )


def is_action(action: object) -> bool:
    if isinstance(action, Play | Take):
        return isinstance(action.card, str) and action.card in _CARD_INDEX
    if isinstance(action, Group):
        return type(action.group) is int and 0 <= action.group <= MAX_GROUPS
    if isinstance(action, Laser):
        return type(action.amount) is int and action.amount in (*LASER_CHOICES, 3)
    if isinstance(action, Relic):
        return action.relic in RELICS and type(action.use) is bool
    return False


def index(action: Action) -> int:
    if isinstance(action, Play):
        return PLAY_BASE + _CARD_INDEX[action.card]
    if isinstance(action, Take):
        return TAKE_BASE + _CARD_INDEX[action.card]
    if isinstance(action, Group):
        return GROUP_BASE + action.group
    if isinstance(action, Laser):
        if action.amount not in LASER_CHOICES:
            raise MalformedActionError(f"{action} has no index: it is never legal")
        return LASER_BASE + LASER_CHOICES.index(action.amount)
    return RELIC_BASE + 2 * RELICS.index(action.relic) + (0 if action.use else 1)


def from_index(i: int) -> Action:
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < NUM_ACTIONS:
        raise MalformedActionError(f"action index must be 0..{NUM_ACTIONS - 1}, got {i!r}")
    if i < TAKE_BASE:
        return Play(CARD_IDS[i - PLAY_BASE])
    if i < GROUP_BASE:
        return Take(CARD_IDS[i - TAKE_BASE])
    if i < LASER_BASE:
        return Group(i - GROUP_BASE)
    if i < RELIC_BASE:
        return Laser(LASER_CHOICES[i - LASER_BASE])
    k = i - RELIC_BASE
    return Relic(RELICS[k // 2], k % 2 == 0)
