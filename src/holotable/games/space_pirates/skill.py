"""How steady a seat's flicking finger is: the dexterity noise (spec §6.9, SP-PHYS-05) a flick by
``seat`` gets at a table of ``config``.

One function answers it for the rules (``flow.resolve_flick``), the bots that aim through the physics,
the previews and the pages, so a seat's skill is read in one place. The levels (standard deviations of
the angle in degrees and of the relative strength) are data: ``constants.dexterity`` (SP-AMB-55).

A table has one level (``dexterity``) unless ``seat_dexterity`` names one per seat, in seat order
(``"precise,standard,shaky"``): a handicap, for human and bot seats alike.
"""

from __future__ import annotations

from holotable.engine import ConfigError
from holotable.engine.spec import Config

from .data import content_for

Noise = tuple[float, float]


def seat_levels(config: Config) -> tuple[str, ...]:
    """Every seat's level name, in seat order; :class:`ConfigError` for a bad ``seat_dexterity``.

    The set-up calls it, so a table with a bad list is never created.
    """
    n = config.players
    raw = str(config["seat_dexterity"] or "").strip()
    if not raw:
        return (str(config["dexterity"]),) * n
    names = tuple(part.strip() for part in raw.split(","))
    known = content_for(config).constants.dexterity
    levels = ", ".join(known)
    if len(names) != n:
        raise ConfigError(f"seat_dexterity names {len(names)} level(s) for {n} seats; give one per seat "
                          f"in seat order, separated by commas (levels: {levels})")
    for i, name in enumerate(names):
        if name not in known:
            shown = repr(name) if name else "empty"
            raise ConfigError(f"seat_dexterity entry {i + 1} of {n} is {shown}, not a dexterity level "
                              f"(levels: {levels})")
    return names


def skill_name(config: Config, seat: int) -> str:
    """The dexterity level's name for ``seat``: its entry of ``seat_dexterity``, else the table's."""
    levels = seat_levels(config)
    if not 0 <= seat < len(levels):
        raise ValueError(f"seat {seat} is not a seat of a {len(levels)}-player table")
    return levels[seat]


def flick_noise(config: Config, seat: int) -> Noise:
    """(angle sd in degrees, strength sd as a fraction) of a flick by ``seat``."""
    return content_for(config).constants.dexterity[skill_name(config, seat)]
