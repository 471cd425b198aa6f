"""What Kyrum's bots know about effects they may choose: the worth of a list of ops, and where a pending
choice's options come from.

Everything here reads the player's view and the public pack only. A script's option ops are public once
the script is being read (the booklet page is open on the table), and a seen main script's effects are
public too (the player read it before); an unread script's text and ops are not, so nothing here looks
them up for a script the view does not list as seen.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .bots import WORTH
from .pack import ELEMENTS, Pack

#: Worth of effects the heuristic's arrow values leave out (same unit: about one common element).
NP_WORTH = 1.0  # one notoriety point: campaign money for Thoth items
NARRATIVE_WORTH = 2.5  # a narrative discovery: story to read and usually NP when studied
READ_WORTH = 1.0  # a further script read: story
ENCOUNTER_WORTH = -1.5
ITEM_WORTH = 3.0
DISCARD_WORTH = -2.0  # a discovery card lost (studied ones cost their study)
END_WORTH = 100.0  # an end_game op: a won or lost game outweighs everything else


def ops_value(ops: Sequence[Mapping[str, Any]], view: Mapping[str, Any], pack: Pack) -> float:
    """Rough worth of carrying out ``ops`` now, in the heuristic's unit (spec §8 item 4).

    Gains above a gauge's maximum or beyond the element supply are worth nothing; losses that come
    close to a defeat weigh more. A branch (``if``, ``roll``) is worth the mean of its branches."""
    total = 0.0
    for op in ops:
        total += _op_value(op, view, pack)
    return total


def _op_value(op: Mapping[str, Any], view: Mapping[str, Any], pack: Pack) -> float:
    name = op["op"]
    if name in ("gain", "lose"):
        return _change_value(str(op["res"]), int(op["n"]) * (1 if name == "gain" else -1), view, pack)
    if name == "set":
        res = str(op["res"])
        now = _held(res, view)
        return _change_value(res, int(op["value"]) - now, view, pack) if now is not None else 0.0
    if name == "draw_discovery":
        return WORTH["draw_discovery"] * int(op.get("n", 1)) if view["discovery_deck_size"] else 0.0
    if name == "notoriety":
        return NP_WORTH * int(op["n"])
    if name == "add_narrative":
        return NARRATIVE_WORTH
    if name == "read":
        return READ_WORTH
    if name == "encounter":
        return ENCOUNTER_WORTH
    if name == "gain_item":
        return ITEM_WORTH
    if name == "discard_discovery":
        return DISCARD_WORTH * int(op.get("n", 1)) if view["inventory"] else 0.0
    if name == "travel_discount":
        return 0.5 * int(op["amount"]) * int(op.get("uses", 1))
    if name == "end_game":
        return END_WORTH if op["outcome"] == "victory" else -END_WORTH
    if name == "if":
        return (ops_value(op["then"], view, pack) + ops_value(op.get("else", []), view, pack)) / 2
    if name == "roll":
        branches = op["branches"]
        return sum(ops_value(b["do"], view, pack) for b in branches) / max(1, len(branches))
    if name == "choice":
        return max((option_value(o, view, pack) for o in op["options"]), default=0.0)
    return 0.0  # say, flag, journal, glossary, partner: story only


def _held(res: str, view: Mapping[str, Any]) -> int | None:
    if res in ELEMENTS:
        return int(view["elements"][res])
    if res in view["gauges"]:
        return int(view["gauges"][res])
    return None


def _change_value(res: str, delta: int, view: Mapping[str, Any], pack: Pack) -> float:
    """Worth of changing ``res`` by ``delta``, clipped to what the gauge or the supply allows."""
    now = _held(res, view)
    if now is None or delta == 0:
        return 0.0
    top = int(pack.rules["elements"][res]) if res in ELEMENTS else int(pack.rules["gauges"][res]["max"])
    actual = max(-now, min(delta, top - now))
    w = abs(WORTH.get(res, 0.5))
    if actual >= 0:
        return w * actual
    loss = w * -actual
    if res == "suit" and now <= -actual:
        loss += 2.5  # a breach costs health
    if res in ("health", "ship") and now <= -actual + 1:
        loss += 6.0  # close to a defeat
    return -loss


def option_value(option: Mapping[str, Any], view: Mapping[str, Any], pack: Pack) -> float:
    """An option's ops less what its cost takes away."""
    cost = sum(_change_value(str(res), -int(n), view, pack) for res, n in option.get("cost", {}).items() if n)
    return cost + ops_value(option.get("do", []), view, pack)


def _choices_in(ops: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    for op in ops:
        if op["op"] == "choice":
            yield op
            for o in op["options"]:
                yield from _choices_in(o.get("do", []))
        elif op["op"] == "if":
            yield from _choices_in(op["then"])
            yield from _choices_in(op.get("else", []))
        elif op["op"] == "roll":
            for b in op["branches"]:
                yield from _choices_in(b["do"])


ChoiceIndex = dict[tuple[str, tuple[str, ...]], tuple[Mapping[str, Any], ...]]
#: Built once per loaded pack (packs are cached and never change; the pack is kept so its id stays its own).
_INDEXES: dict[int, tuple[Pack, ChoiceIndex]] = {}


def _choice_index(pack: Pack) -> ChoiceIndex:
    """Every choice op of the pack's scripts and items, by its prompt and labels."""
    known = _INDEXES.get(id(pack))
    if known is not None and known[0] is pack:
        return known[1]
    out: ChoiceIndex = {}
    sources = [s["effects"] for s in pack.scripts.values()]
    sources += [i.use.get("do", []) for i in pack.items.values() if i.use]
    for ops in sources:
        for op in _choices_in(ops):
            key = (str(op["prompt"]), tuple(str(o["label"]) for o in op["options"]))
            out.setdefault(key, tuple(op["options"]))
    _INDEXES[id(pack)] = (pack, out)
    return out


def choice_options(decision: Mapping[str, Any], pack: Pack) -> tuple[Mapping[str, Any], ...] | None:
    """The option records of the pending choice (public: its script is being read), or ``None``."""
    return _choice_index(pack).get((str(decision["prompt"]), tuple(str(x) for x in decision["labels"])))


def script_value(code: str, view: Mapping[str, Any], pack: Pack, unseen: float) -> float:
    """Worth of reading main script ``code``: its known effects once seen, else ``unseen``."""
    if code not in view["main_scripts_seen"] or code not in pack.scripts:
        return unseen
    return ops_value(pack.scripts[code]["effects"], view, pack)


def double_code(planet_number: int, value: int, pack: Pack) -> str:
    """The main script a double ``value`` reads on this planet (KYR-EXPLORE-05/06)."""
    planet = pack.planets[planet_number]
    return planet.double_script or f"A.{planet.number:02d}.{2 * value:02d}"
