"""What a Kyrum game waits for (KYR-TLDP-01): one :class:`~holotable.engine.tasks.Decision` type per kind.

A pending decision sits on top of the game's task stack (``KyrumData.tasks``); the rules list its
actions (:func:`holotable.games.kyrum.rules.legal`) and answer it. ``kind`` is the name views, bots
and the encoder know it by; :meth:`.tasks.KyrumDecision.as_dict` is its plain form as it was saved and
shown before decisions were typed (``full()``, scenario files and views read it unchanged).

>>> Offer("A.10.08").as_dict()
{'kind': 'offer', 'code': 'A.10.08'}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .tasks import KyrumDecision


@dataclass(frozen=True, slots=True)
class Offer(KyrumDecision):
    """A double: read the planet's script or refuse it and re-roll (KYR-EXPLORE-05..07)."""

    kind: ClassVar[str] = "offer"
    code: str


@dataclass(frozen=True, slots=True)
class ItemTiming(KyrumDecision):
    """Items that may change the exploration dice just rolled (``after_exploration_roll``)."""

    kind: ClassVar[str] = "item_timing"
    items: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Choice(KyrumDecision):
    """A script's ``choice`` op; ``ops`` are the pack's option records (shared, read-only)."""

    kind: ClassVar[str] = "choice"
    prompt: str
    labels: tuple[str, ...]
    src: str
    eog: bool
    ops: Sequence[Any]


@dataclass(frozen=True, slots=True)
class Discard(KyrumDecision):
    """Pick ``left`` more discovery cards to discard (``studied``: which ones qualify, None = any)."""

    kind: ClassVar[str] = "discard"
    left: int
    studied: bool | None
    src: str


@dataclass(frozen=True, slots=True)
class Trader(KyrumDecision):
    kind: ClassVar[str] = "trader"


@dataclass(frozen=True, slots=True)
class Partner(KyrumDecision):
    """Write a message for the Black Hole partner (KYR-ENC-09); ``received``: the last one come back."""

    kind: ClassVar[str] = "partner"
    prompt: str
    received: str | None


@dataclass(frozen=True, slots=True)
class EncounterRoll(KyrumDecision):
    """A danger card is drawn; its dice wait for the player (KYR-AMB-07 option)."""

    kind: ClassVar[str] = "encounter_roll"
    id: str


@dataclass(frozen=True, slots=True)
class Market(KyrumDecision):
    """The Thoth market after the game (KYR-END-04 step 4)."""

    kind: ClassVar[str] = "market"
