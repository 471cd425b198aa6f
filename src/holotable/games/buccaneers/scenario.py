"""Scenario starts for Black Hole Buccaneers: the ``arrange`` hook (see docs/scenarios.md).

Keys (all optional unless said): ``round`` (1-3), ``black_holes`` (the three ids, round 1 first),
``direction``, ``phase`` (``selection``: the start of step 1 of ``turn``; ``scoring``: the start of
step A), ``turn``, ``hands`` (required for ``selection``), ``tableaux`` (per seat, in the order laid out:
``"ID"`` or ``{"card", "turns", "face_down", "group", "active", "source"}``), ``draw_top`` (cards on top of
the draw pile, top first; every card not placed anywhere goes below them), ``discard``, ``bh_pile``
(``"ID"`` or ``["ID", seat]``), ``thresholds``, ``tokens`` (``{"W-6": seat}``), ``scores``, ``gps`` (seats
playing a random card this turn), ``tiit_done`` and ``script`` (the older spelling of the scenario's
``chance`` entry: chance results in order, ``{"reveal": [...], "pool": [...], "gps": [...], "shuffle": [[...]]}``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from holotable.engine import ScenarioError, State
from holotable.engine import chance as chances

from . import cards as tb
from . import flow
from .data import JunkType
from .scoring import SCORING_TASKS
from .state import SCORING, SELECTION, BHBData, Laid

KEYS = ("round", "black_holes", "direction", "phase", "turn", "hands", "tableaux", "draw_top", "discard",
        "bh_pile", "thresholds", "tokens", "scores", "gps", "tiit_done", "script")
LAID_KEYS = ("card", "turns", "face_down", "group", "active", "source")


def _card_id(value: Any, key: str) -> str:
    if not isinstance(value, str) or value not in tb.CARDS:
        raise ScenarioError(f"{key}: {value!r} is not a space-junk card id")
    return value


def _cards(value: Any, key: str) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError(f"{key}: expected a list of card ids")
    return [_card_id(v, key) for v in value]


def _int(value: Any, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ScenarioError(f"{key}: expected an integer {low}..{high}, got {value!r}")
    return value


def _per_seat(value: Any, key: str, n: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != n:
        raise ScenarioError(f"{key}: expected one entry per seat ({n})")
    return value


def _laid(raw: Any, key: str) -> Laid:
    if isinstance(raw, str):
        raw = {"card": raw}
    if not isinstance(raw, dict):
        raise ScenarioError(f"{key}: expected a card id or an object")
    extra = sorted(set(raw) - set(LAID_KEYS))
    if extra:
        raise ScenarioError(f"{key}: unknown field(s) {extra}")
    cid = _card_id(raw.get("card"), key)
    card = tb.CARDS[cid]
    item = Laid(cid, source=raw.get("source", "hand"), laid_at="arranged")
    if item.source not in ("hand", "tentacle", "egg", "pool"):
        raise ScenarioError(f"{key}: source must be hand, tentacle, egg or pool")
    face_down = raw.get("face_down", False)
    if not isinstance(face_down, bool) or (face_down and card.kind is not JunkType.TOY):
        raise ScenarioError(f"{key}: only a toy can lie face down")
    item.face_down = face_down
    if "group" in raw:
        if card.kind is not JunkType.TIME_MACHINE:
            raise ScenarioError(f"{key}: only time-machine parts have a group")
        item.group = _int(raw["group"], f"{key}.group", 1, 12)
    elif card.kind is JunkType.TIME_MACHINE:
        raise ScenarioError(f"{key}: a time-machine part needs its group number")
    if "turns" in raw:
        item.turns = _int(raw["turns"], f"{key}.turns", 0, 1000)
        try:
            card.orientation(item.turns)
        except ValueError as exc:
            raise ScenarioError(f"{key}: {exc}") from None
        if card.kind not in (JunkType.ROBOT, JunkType.TIME_MACHINE, JunkType.ARTIFACT) and item.turns:
            raise ScenarioError(f"{key}: a {card.kind.value} never rotates (BHB-ROT-05)")
    eff = tb.effect_of(cid)
    if eff in tb.ON_REVEAL and item.turns:
        raise ScenarioError(f"{key}: {cid} never rotates (BHB-ROT-05)")
    active = raw.get("active", eff in tb.ONGOING)
    if not isinstance(active, bool) or (active and eff not in tb.ONGOING):
        raise ScenarioError(f"{key}: only Morphosucker, Cubus Librae and Lootbox can be active")
    item.active = active
    item.suppressed = eff is not None and tb.kind(cid) is JunkType.ARTIFACT and (
        item.source in ("egg", "pool") or (item.source == "tentacle" and eff in tb.ON_REVEAL))
    return item


def _check_groups(tableau: list[Laid], key: str) -> None:
    for g, members in tb.groups(tableau).items():
        parts = [tb.part_of(m.card) for m in members]
        if len(set(parts)) != len(parts):
            raise ScenarioError(f"{key}: time-machine group {g} holds a part twice (BHB-CARD-TM-02)")
        for m in members:
            if m.turns == 0:
                m.turns = len(members) - 1  # BHB-CARD-TM-05
            elif m.turns != len(members) - 1:
                raise ScenarioError(f"{key}: group {g} of {len(members)} parts lies at orientation "
                                    f"{len(members) - 1}, not {m.turns}")


def chance_events(st: State[BHBData, Any]) -> dict[str, chances.Check]:
    """The chance a scenario can script, card ids in order: ``reveal`` (the black hole's revealed
    card), ``pool`` (the Pool's card), ``gps`` (the Analog GPS Tracker's random card) and
    ``shuffle`` (the order of the next shuffled pile: a new round's deal, the discards refilled)."""
    return {"reveal": _card_check, "pool": _card_check, "gps": _card_check, "shuffle": chances.order(_card_check)}


def _card_check(value: Any, where: str) -> str:
    return _card_id(value, where)


def arrange(st: State[BHBData, Any], arrangement: Mapping[str, Any]) -> None:
    d = st.data
    n = d.players
    extra = sorted(set(arrangement) - set(KEYS))
    if extra:
        raise ScenarioError(f"unknown arrangement key(s): {', '.join(extra)}; known: {', '.join(KEYS)}")
    original = list(d.draw) + [c for hand in d.hands for c in hand]
    if "black_holes" in arrangement:
        holes = arrangement["black_holes"]
        if (not isinstance(holes, list) or len(holes) != 3 or len(set(map(str, holes))) != 3
                or not all(isinstance(h, str) and h in tb.HOLES for h in holes)):
            raise ScenarioError("black_holes: expected 3 distinct black-hole ids")
        d.stack = list(holes)
        d.box = [h.id for h in tb.DATA.black_holes if h.id not in holes]
    if "round" in arrangement:
        d.round = _int(arrangement["round"], "round", 1, 3)
        d.box = [h for h in d.box if h not in d.stack] + d.stack[:d.round - 1]
    if "direction" in arrangement:
        if arrangement["direction"] not in ("CW", "CCW"):
            raise ScenarioError("direction: expected 'CW' or 'CCW'")
        d.direction = arrangement["direction"]
    phase = arrangement.get("phase", SELECTION)
    if phase not in (SELECTION, SCORING):
        raise ScenarioError("phase: expected 'selection' or 'scoring'")
    d.turn = _int(arrangement.get("turn", 1), "turn", 1, 20)
    if phase == SELECTION:
        if "hands" not in arrangement:
            raise ScenarioError("hands: required for a selection-phase start")
        d.hands = [_cards(h, f"hands.{s}") for s, h in enumerate(_per_seat(arrangement["hands"], "hands", n))]
        sizes = {len(h) for h in d.hands}
        if len(sizes) != 1 or min(sizes) < 2:
            raise ScenarioError("hands: every hand must hold the same number (2 or more) of cards (BHB-SEL-09)")
    else:
        if arrangement.get("hands", [[] for _ in range(n)]) != [[] for _ in range(n)]:
            raise ScenarioError("hands: must be empty in the scoring phase")
        d.hands = [[] for _ in range(n)]
    d.tableaux = [[_laid(raw, f"tableaux.{s}.{i}") for i, raw in enumerate(t if isinstance(t, list) else [None])]
                  for s, t in enumerate(_per_seat(arrangement.get("tableaux", [[] for _ in range(n)]), "tableaux", n))]
    for s, tableau in enumerate(d.tableaux):
        _check_groups(tableau, f"tableaux.{s}")
    d.discard = _cards(arrangement.get("discard", []), "discard")
    d.bh_pile, d.bh_from = [], []
    for i, raw in enumerate(arrangement.get("bh_pile", [])):
        if isinstance(raw, list) and len(raw) == 2:
            d.bh_pile.append(_card_id(raw[0], f"bh_pile.{i}"))
            d.bh_from.append(_int(raw[1], f"bh_pile.{i}", 0, n - 1))
        else:
            d.bh_pile.append(_card_id(raw, f"bh_pile.{i}"))
            d.bh_from.append(-1)
    if phase == SELECTION and d.bh_pile:
        raise ScenarioError("bh_pile: the black hole gets its cards only at the end of the selection phase")
    if phase == SCORING and not 1 <= len(d.bh_pile) <= n:
        raise ScenarioError(f"bh_pile: the scoring phase starts with 1..{n} cards at the black hole")
    top = _cards(arrangement.get("draw_top", []), "draw_top")
    placed = [c for h in d.hands for c in h] + [it.card for t in d.tableaux for it in t] + d.discard + d.bh_pile + top
    twice = sorted(c for c, k in Counter(placed).items() if k > 1)
    if twice:
        raise ScenarioError(f"card(s) placed twice: {', '.join(twice)} (INV-01)")
    used = set(placed)
    d.draw = top + [c for c in original if c not in used]
    thresholds = arrangement.get("thresholds", [])
    if (not isinstance(thresholds, list) or len(set(map(str, thresholds))) != len(thresholds)
            or not all(t in tb.THRESHOLD_AMOUNTS for t in thresholds)
            or sum(1 for t in thresholds if t != tb.THRESHOLD_IDS[3]) > 1):
        raise ScenarioError("thresholds: distinct threshold-card ids, at most one from the Laser (INV-02)")
    d.thresholds = list(thresholds)
    tokens = arrangement.get("tokens", {})
    if not isinstance(tokens, dict) or not all(k in tb.TOKEN_AMOUNTS for k in tokens):
        raise ScenarioError(f"tokens: expected {{token id: seat}} with ids among {sorted(tb.TOKEN_AMOUNTS)}")
    d.tokens = {k: _int(v, f"tokens.{k}", 0, n - 1) for k, v in tokens.items()}
    d.scores = [_int(v, f"scores.{s}", 0, 1000) for s, v in
                enumerate(_per_seat(arrangement.get("scores", [0] * n), "scores", n))]
    gps = arrangement.get("gps", [])
    if not isinstance(gps, list) or (gps and phase != SELECTION):
        raise ScenarioError("gps: a list of seats, in the selection phase only")
    d.gps_now = [False] * n
    for s in gps:
        d.gps_now[_int(s, "gps", 0, n - 1)] = True
    if sum(d.gps_now) > 1:
        raise ScenarioError("gps: there is only one Analog GPS Tracker")
    d.gps_next = [False] * n
    d.tiit_done = bool(arrangement.get("tiit_done", tb.THRESHOLD_IDS[3] in d.thresholds))
    if "script" in arrangement:  # the older spelling of a scenario's "chance" entry, same mechanism
        try:
            st.script_chance(arrangement["script"])
        except ScenarioError as exc:
            raise ScenarioError(f"script: {exc}") from None
    d.phase, d.step, d.revealed, d.tentacle = phase, "", [], []
    d.bh_revealed = None
    d.tasks.clear()  # nothing pending: the simultaneous pick, or the scoring steps below
    d.asked = None
    if phase == SCORING:
        d.tasks.defer(*SCORING_TASKS)
        d.e_weight, d.threshold, d.pulled_in, d.round_points = [0] * n, [0] * n, [False] * n, [0] * n
        flow.run(st)
    else:
        d.e_weight, d.threshold, d.pulled_in, d.round_points = [], [], [], []
