"""How steady a seat's flicking finger is: the dexterity noise (spec §6.9, SP-PHYS-05) a flick by
``seat`` gets at a table of ``config``.

One function answers it for the rules (``flow.resolve_flick``), the bots that aim through the physics,
the previews and the pages, so a seat's skill is read in one place. The levels (standard deviations of
the angle in degrees and of the relative strength) are data: ``constants.dexterity`` (SP-AMB-55).
"""

from __future__ import annotations

from holotable.engine.spec import Config

from .data import content_for

Noise = tuple[float, float]


def skill_name(config: Config, seat: int) -> str:
    """The dexterity level's name for ``seat`` (the table's ``dexterity`` parameter)."""
    del seat  # one level for the whole table for now
    return str(config["dexterity"])


def flick_noise(config: Config, seat: int) -> Noise:
    """(angle sd in degrees, strength sd as a fraction) of a flick by ``seat``."""
    return content_for(config).constants.dexterity[skill_name(config, seat)]
