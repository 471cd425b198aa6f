"""Arranged starts for Black Hole Council scenarios (the ``arrange`` hook; format in docs/scenarios.md).

Every key is optional; given keys replace the freshly set-up values:

``round`` (Round Track space 1..10; a Negotiation Round starts on Proposal ``proposal``, a
Deduction Round waits for guesses, the Pay-Out round is played at once), ``leader``,
``proposal`` (1..3; the earlier ones count as failed), ``bribe_space``, ``positions``,
``banks``, ``agendas`` (ids such as ``"AG-01"``), ``intrigue`` (kinds such as ``"settle"``),
``intrigue_played`` (booleans), ``table`` (five planet ids, Settle to Black Hole),
``deck_top_first``, ``deck_known`` and ``history`` (one entry per finished Negotiation Round:
``{"planets": [5 ids], "written_off": false}``). With ``round`` 10, ``payout`` (coins per seat) and
``final_moves`` (spaces climbed per seat) arrange the end right after Pay-Out: ``positions`` and ``banks``
are then the final ones and the game is over.

The position must still add up: each of the 32 planets exactly once on the table, in the deck
or in the history (BHC-INV-02), distinct Agendas, at most the printed Intrigue cards of each
kind. The Stock ledger is recomputed so that every coin is accounted for (BHC-INV-01).

>>> import holotable
>>> st = holotable.load("council").new_state(players=4, seed=1, first_leader=0)
>>> st.arrange({"agendas": ["AG-01", "AG-02", "AG-03", "AG-04"], "banks": [5, 1, 1, 1]})
>>> st.view(0)["you"]["agenda"]["id"], st.view(0)["banks"]
('AG-01', [5, 1, 1, 1])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from holotable.engine import ScenarioError

from .data import OUTCOMES, CouncilData, data_for, load_default
from .state import DEDUCE, NEGOTIATE, OVER, BHCData

if TYPE_CHECKING:
    from holotable.engine import State

    from .actions import Act
    from .rules import BlackHoleCouncil

DATA: CouncilData = load_default()


def arrange(st: State[BHCData, Act], arrangement: Mapping[str, Any]) -> None:
    game: BlackHoleCouncil = st.game  # type: ignore[assignment]
    unknown = sorted(set(arrangement) - set(_SETTERS) - set(_AFTER_PAYOUT))
    if unknown:
        known = sorted([*_SETTERS, *_AFTER_PAYOUT])
        raise ScenarioError(f"unknown arrangement key(s) {unknown} for council; known: {known}")
    d = st.data
    original = d.table + d.deck  # all 32 planets in their set-up order (nothing is in the history yet)
    table_given = "table" in arrangement
    d.table = []
    if "round" in arrangement:
        _round(d, arrangement["round"])
    for key, value in arrangement.items():
        if key in _SETTERS and key != "round":
            _SETTERS[key](d, value)
    _fit(d, arrangement, original, table_given)
    _check(d)
    if "intrigue" in arrangement:  # against this configuration's counts (data overrides)
        counts = data_for(st.config).intrigue_counts
        for kind, count in Counter(d.intrigue).items():
            if count > counts[kind]:
                raise ScenarioError(f"'intrigue': there are only {counts[kind]} {OUTCOMES[kind]} cards")
    if "payout" in arrangement:
        _after_payout(d, arrangement)
    elif "final_moves" in arrangement:
        raise ScenarioError("'final_moves' belongs to a position right after Pay-Out: give 'payout' too")
    d.stock = -(sum(d.banks) + d.bribe_space + sum(d.pending) + (1 if d.accepted_from >= 0 else 0))
    if d.round_kind == "P" and not d.over:
        game._start_round(d, st)


#: The keys of a position right after Pay-Out (the game is over; nothing is played again).
_AFTER_PAYOUT = ("payout", "final_moves")


def _after_payout(d: BHCData, arrangement: Mapping[str, Any]) -> None:
    """The game as Pay-Out and the final Advance left it: ``positions`` and ``banks`` are the final
    ones, ``payout`` the coins each seat received, ``final_moves`` the spaces each climbed after.

    The final Advance is compulsory and greedy (BHC-FINAL-01..04), so a seat that could still pay
    for its next space is an impossible position."""
    if d.round_kind != "P":
        raise ScenarioError(f"'payout' needs the Pay-Out round: 'round' {len(d.order)}")
    n = d.players
    d.payout = [_int(f"payout[{i}]", v, 0) for i, v in enumerate(_per_seat("payout", arrangement["payout"], n))]
    moves = arrangement.get("final_moves", [0] * n)
    d.final_moves = [_int(f"final_moves[{i}]", v, 0, d.positions[i] - 1)
                     for i, v in enumerate(_per_seat("final_moves", moves, n))]
    for seat in range(n):
        if d.positions[seat] < d.track_end and d.banks[seat] >= d.cost(seat):
            raise ScenarioError(f"'banks': seat {seat} could still pay {d.cost(seat)} for the next space, and the "
                                f"final Advance is compulsory (BHC-FINAL-02)")
    d.bribe_space = 0  # BHC-AMB-15: Pay-Out returned it to the Stock
    d.phase = OVER
    d.over = True


# ---------------------------------------------------------------------- setters
def _int(key: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{key!r} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise ScenarioError(f"{key!r} must be {bound}, got {value}")
    return value


def _per_seat(key: str, value: Any, n: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != n:
        raise ScenarioError(f"{key!r} must be a list with one entry per seat ({n}), got {value!r}")
    return value


def _planets(key: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(p, str) and p in DATA.by_id for p in value):
        raise ScenarioError(f"{key!r} must be a list of planet ids such as 'RED-A', got {value!r}")
    return list(value)


def _round(d: BHCData, value: Any) -> None:
    r = _int("round", value, 1, len(d.order))
    d.round = r - 1
    done = d.order[: r - 1]
    d.negotiation_round = done.count("N")
    d.deduction_round = done.count("D")
    kind = d.order[r - 1]
    if kind == "N":
        d.negotiation_round += 1
        d.phase = NEGOTIATE
    elif kind == "D":
        d.deduction_round += 1
        d.phase = DEDUCE
    d.proposals_made = d.negotiation_round


def _leader(d: BHCData, value: Any) -> None:
    d.leader = _int("leader", value, 0, d.players - 1)


def _proposal(d: BHCData, value: Any) -> None:
    d.proposal = _int("proposal", value, 1, 3)


def _bribe_space(d: BHCData, value: Any) -> None:
    d.bribe_space = _int("bribe_space", value, 0, 5)


def _positions(d: BHCData, value: Any) -> None:
    d.positions = [_int(f"positions[{i}]", v, 1, d.track_end) for i, v in enumerate(_per_seat("positions", value,
                                                                                              d.players))]


def _banks(d: BHCData, value: Any) -> None:
    d.banks = [_int(f"banks[{i}]", v, 0) for i, v in enumerate(_per_seat("banks", value, d.players))]


def _agendas(d: BHCData, value: Any) -> None:
    ids = _per_seat("agendas", value, d.players)
    if not all(isinstance(a, str) and a in DATA.agenda_ids for a in ids):
        raise ScenarioError(f"'agendas' must be agenda ids such as 'AG-01', got {ids!r}")
    if len(set(ids)) != len(ids):
        raise ScenarioError("'agendas' must all be different (BHC-INV-06)")
    d.agendas = [DATA.agenda_ids.index(a) for a in ids]


def _intrigue(d: BHCData, value: Any) -> None:
    kinds = _per_seat("intrigue", value, d.players)
    if not all(isinstance(k, str) and k in OUTCOMES for k in kinds):
        raise ScenarioError(f"'intrigue' must be kinds from {list(OUTCOMES)}, got {kinds!r}")
    d.intrigue = [OUTCOMES.index(k) for k in kinds]  # counts are checked in arrange, with the config's data


def _intrigue_played(d: BHCData, value: Any) -> None:
    flags = _per_seat("intrigue_played", value, d.players)
    if not all(isinstance(f, bool) for f in flags):
        raise ScenarioError("'intrigue_played' must be a list of true/false")
    d.intrigue_played = [0 if f else -1 for f in flags]


def _table(d: BHCData, value: Any) -> None:
    table = _planets("table", value)
    if len(table) != 5 or d.round_kind != "N":
        raise ScenarioError("'table' needs five planets, in a Negotiation Round (set 'round' first)")
    d.table = table


def _deck(d: BHCData, value: Any) -> None:
    d.deck = _planets("deck_top_first", value)


def _deck_known(d: BHCData, value: Any) -> None:
    d.deck_known = _int("deck_known", value, 0, 32)


def _history(d: BHCData, value: Any) -> None:
    if not isinstance(value, list):
        raise ScenarioError("'history' must be a list of sets")
    sets = []
    for i, entry in enumerate(value):
        if not isinstance(entry, dict) or set(entry) - {"planets", "written_off"} or "planets" not in entry:
            raise ScenarioError(f"'history[{i}]' must be {{'planets': [5 ids], 'written_off': bool}}")
        planets = _planets(f"history[{i}].planets", entry["planets"])
        off = entry.get("written_off", False)
        if len(planets) != 5 or not isinstance(off, bool):
            raise ScenarioError(f"'history[{i}]' needs five planets and a boolean 'written_off'")
        sets.append({"round": i + 1, "written_off": off, "planets": planets, "proposal": 3 if off else 1,
                     "failed": 2 if off else 0})
    d.history = sets


_SETTERS: dict[str, Callable[[BHCData, Any], None]] = {
    "round": _round,
    "leader": _leader,
    "proposal": _proposal,
    "bribe_space": _bribe_space,
    "positions": _positions,
    "banks": _banks,
    "agendas": _agendas,
    "intrigue": _intrigue,
    "intrigue_played": _intrigue_played,
    "table": _table,
    "deck_top_first": _deck,
    "deck_known": _deck_known,
    "history": _history,
}


# ---------------------------------------------------------------------- whole-position checks
def _fit(d: BHCData, arrangement: Mapping[str, Any], original: list[str], table_given: bool) -> None:
    if "deck_top_first" not in arrangement:
        used = set(d.table) | {p for s in d.history for p in s["planets"]}
        d.deck = [p for p in original if p not in used]
    if d.round_kind == "N" and not table_given:
        d.table, d.deck = d.deck[:5], d.deck[5:]
    d.failed = d.proposal - 1 if d.round_kind == "N" else 0
    if "bribe_space" not in arrangement and d.round_kind == "N":
        d.bribe_space = d.proposal  # BHC-INV-09
    if d.round_kind == "N":
        d.proposals_made = d.negotiation_round - 1 + d.proposal
    finished = d.negotiation_round - (1 if d.round_kind == "N" else 0)
    if len(d.history) != finished:
        raise ScenarioError(f"'history' must hold one set per finished Negotiation Round ({finished}), "
                            f"got {len(d.history)}")
    d.deck_known = min(d.deck_known, len(d.deck))


def _check(d: BHCData) -> None:
    placed = list(d.table) + list(d.deck) + [p for s in d.history for p in s["planets"]]
    if Counter(placed) != Counter(p.id for p in DATA.planets):
        missing = sorted(set(DATA.by_id) - set(placed))
        doubled = sorted(p for p, k in Counter(placed).items() if k > 1)
        raise ScenarioError(f"'table'/'deck_top_first'/'history' must hold each of the 32 planets once "
                            f"(missing {missing}, twice {doubled})")
