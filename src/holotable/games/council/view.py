"""What each seat may see of Black Hole Council (spec §6.3, BHC-INFO), and determinisation.

Public: seats, Leader, Proposal, Round Marker, track positions, Banks, pending bribes, the Bribe
Space, offers, the table, the Planet History (written-off sets as card backs), deck size,
discarded Black-Hole planets, revealed votes, Advance announcements, played Intrigue cards,
table talk, Deduction targets and results. Private to the seat: its Agenda, its Intrigue card,
its points, and the colour of every Deduction card it played or was shown. Never shown: deck
order, undealt cards, written-off planet identities, other seats' Agendas (until Pay-Out),
unplayed Intrigue cards (ever), points or Deduction colours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from holotable.engine import Rng

from .data import COLOURS, DEDUCTION_GOALS, OUTCOMES, CouncilData, data_for, load_default
from .scoring import round_points
from .state import ADVANCE, BHCData

if TYPE_CHECKING:
    from holotable.engine import State

    from .actions import Act
    from .rules import BlackHoleCouncil

DATA: CouncilData = load_default()
WANTED = DEDUCTION_GOALS


def agenda_dict(index: int, data: CouncilData = DATA) -> dict[str, Any]:
    goals = data.agendas[index]
    by_outcome = {OUTCOMES[goals[c]]: COLOURS[c] for c in range(5)}
    return {"id": data.agenda_ids[index], "goals": {o: by_outcome[o] for o in OUTCOMES}}


def _planet(pid: str, data: CouncilData = DATA) -> dict[str, Any]:
    return data.planet(pid).to_dict()


def view(st: State[BHCData, Act], seat: int | None) -> dict[str, Any]:
    game: BlackHoleCouncil = st.game  # type: ignore[assignment]
    d = st.data
    cfg = st.config
    data = data_for(cfg)
    n = d.players
    leader_cap = game.leader_cap(cfg)
    out: dict[str, Any] = {
        "round": d.round + 1,
        "round_kind": d.round_kind,
        "round_order": d.order,
        "phase": d.phase,
        "negotiation_round": d.negotiation_round,
        "deduction_round": d.deduction_round,
        "leader": d.leader,
        "proposal": d.proposal,
        "proposals_made": d.proposals_made,
        "track_costs": list(d.costs),
        "positions": list(d.positions),
        "banks": list(d.banks),  # BHC-INFO-05 / BHC-AMB-31
        "pending": list(d.pending),
        "leader_pending": 0 if d.accepted_from < 0 else 1,
        "accepted_from": None if d.accepted_from < 0 else d.accepted_from,
        "bribe_space": d.bribe_space,
        "offers": list(d.offers),
        "bribed": list(d.bribed),
        "table": {OUTCOMES[o]: _planet(pid, data) for o, pid in enumerate(d.table)},
        "deck_size": len(d.deck),
        "discards": list(d.discards),  # BHC-AMB-35: public
        "history": [_history_set(s, data) for s in d.history],
        "failed": d.failed,
        "votes": _votes(d),
        "advances": list(d.advances),
        "intrigue_discards": [
            {"seat": s, "kind": OUTCOMES[d.intrigue[s]], "round": r} for s, r in enumerate(d.intrigue_played) if r >= 0
        ],
        "talk": list(d.talk),
        "swaps": [list(p) for p in d.swaps],  # this Proposal's Leader swaps, as outcome pairs
        "live": bool(cfg["live_negotiation"]),
        # No budget at a live table (None); in bot-only play each seat's moves left this Proposal.
        "moves_left": [None] * n if cfg["live_negotiation"] else [
            (leader_cap if s == d.leader else cfg["negotiation_ticks"]) - d.talk_used[s] for s in range(n)
        ],
        "negotiation_seconds": cfg["negotiation_seconds"],
        "turn": d.turn_order[d.turn_index] if d.phase == ADVANCE else None,
        "deductions": [[_deduction(r, seat) for r in rnd] for rnd in d.deductions],
        "agendas": [agenda_dict(a, data) for a in d.agendas] if d.over else None,  # BHC-PAYOUT-01
        "payout": list(d.payout) if d.over else None,
        "final_moves": list(d.final_moves) if d.over else None,
    }
    if seat is not None:
        out["you"] = _private(game, d, seat, data)
    return out


def _votes(d: BHCData) -> list[dict[str, Any]]:
    """Revealed votes with the arrangement voted on, except in written-off rounds (BHC-AMB-32)."""
    off = {s["round"] for s in d.history if s["written_off"]}
    return [{**v, "table": None} if v["round"] in off else v for v in d.votes]


def _history_set(s: dict[str, Any], data: CouncilData) -> dict[str, Any]:
    if s["written_off"]:  # BHC-FAIL3-05 / BHC-CHRON-02: five card backs
        return {"round": s["round"], "written_off": True, "planets": None}
    planets = {OUTCOMES[o]: _planet(pid, data) for o, pid in enumerate(s["planets"])}
    return {"round": s["round"], "written_off": False, "planets": planets, "proposal": s["proposal"]}


def _deduction(record: dict[str, Any], seat: int | None) -> dict[str, Any]:
    out = {k: v for k, v in record.items() if k != "colour"}
    if seat is not None and seat in (record["guesser"], record["target"]):  # §6.3: guesser + target only
        out["colour"] = record["colour"]
    return out


def _private(game: BlackHoleCouncil, d: BHCData, seat: int, data: CouncilData) -> dict[str, Any]:
    """The seat's own cards and points (BHC-SETUP-06, BHC-SCORE-04)."""
    unplayed = d.intrigue_played[seat] < 0
    mine: dict[str, Any] = {
        "agenda": agenda_dict(d.agendas[seat], data),
        "intrigue": OUTCOMES[d.intrigue[seat]],
        "intrigue_played": not unplayed,
        "points": None,
        "points_with_intrigue": None,
    }
    if len(d.table) == 5:
        mine["points"] = game.points(d, seat, False, data)
        if unplayed:
            mine["points_with_intrigue"] = game.points(d, seat, True, data)
    return mine


# ---------------------------------------------------------------------- determinisation
def determinize(st: State[BHCData, Act], seat: int, rng: Rng) -> None:
    """Re-deal, consistently with everything ``seat`` knows, what it cannot see.

    * the unseen part of the Planet Deck (discarded Black-Hole planets at the bottom are public);
    * other seats' unplayed Intrigue cards, from the cards not yet seen;
    * other seats' Agendas (before Pay-Out), from the Agendas ``seat`` does not hold, keeping every
      public fact true: each announced Advance (natural: points >= cost; pay c: points + c >= cost)
      and each Deduction card ``seat`` played (right or wrong);
    * the colours of Deduction cards ``seat`` neither played nor received, re-picked to fit the
      new Agendas and the public right/wrong result.
    """
    d = st.data
    data = data_for(st.config)
    n = d.players
    unknown = len(d.deck) - d.deck_known
    top = sorted(d.deck[:unknown])  # canonical order first: the true order must not leak
    rng.shuffle(top)
    d.deck = top + d.deck[unknown:]
    # Intrigue: the cards not seen by ``seat`` are the full set minus its own and the played ones.
    pool = [kind for kind, count in enumerate(data.intrigue_counts) for _ in range(count)]
    pool.remove(d.intrigue[seat])
    hidden = [s for s in range(n) if s != seat and d.intrigue_played[s] < 0]
    for s in range(n):
        if s != seat and d.intrigue_played[s] >= 0:
            pool.remove(d.intrigue[s])
    rng.shuffle(pool)
    d.intrigue = d.intrigue[:]
    for i, s in enumerate(hidden):
        d.intrigue[s] = pool[i]
    if d.over:
        return  # every Agenda has been revealed at Pay-Out
    others = [s for s in range(n) if s != seat]
    candidates = {s: [a for a in range(len(data.agendas)) if a != d.agendas[seat] and _fits(d, seat, s, a, data)]
                  for s in others}
    assignment = _assign(others, candidates, rng)
    d.agendas = [assignment.get(s, d.agendas[s]) for s in range(n)]
    d.deductions = [[_recolour(d, r, seat, rng, data) for r in rnd] for rnd in d.deductions]


def _round_table(d: BHCData, round_no: int) -> tuple[list[str], int] | None:
    for s in d.history:
        if s["round"] == round_no and not s["written_off"]:
            return s["planets"], s["failed"]
    if d.phase == ADVANCE and d.negotiation_round == round_no:
        return d.table, d.failed
    return None


def _fits(d: BHCData, seat: int, other: int, agenda: int, data: CouncilData) -> bool:
    """Whether ``other`` holding ``agenda`` agrees with every public fact and ``seat``'s own cards."""
    goals = data.agendas[agenda]
    for rec in d.advances:
        if rec["seat"] != other or rec["choice"] == "get paid":
            continue
        found = _round_table(d, rec["round"])
        if found is None:  # pragma: no cover - an approved round's set is always known
            continue
        table, failed = found
        kind = None if rec["intrigue"] is None else OUTCOMES.index(rec["intrigue"])
        if round_points(data, goals, table, kind, failed) + rec["coins"] < rec["cost"]:
            return False
    for rnd in d.deductions:
        for r in rnd:
            right = goals[COLOURS.index(r["colour"])] in WANTED[r["deduction"] - 1]
            if r["guesser"] == seat and r["target"] == other and right != r["correct"]:
                return False
    return True


def _assign(seats: list[int], candidates: dict[int, list[int]], rng: Rng) -> dict[int, int]:
    """Distinct Agendas for ``seats``, each from its candidates, chosen at random (backtracking)."""
    order = sorted(seats, key=lambda s: (len(candidates[s]), s))
    lists = {s: rng.sample(candidates[s], len(candidates[s])) for s in order}
    chosen: dict[int, int] = {}
    used: set[int] = set()

    def place(i: int) -> bool:
        if i == len(order):
            return True
        s = order[i]
        for a in lists[s]:
            if a not in used:
                used.add(a)
                chosen[s] = a
                if place(i + 1):
                    return True
                used.discard(a)
        return False

    if not place(0):  # pragma: no cover - the true deal is always a solution
        raise AssertionError("no Agenda deal fits the public information")
    return chosen


def _recolour(d: BHCData, record: dict[str, Any], seat: int, rng: Rng, data: CouncilData) -> dict[str, Any]:
    if seat in (record["guesser"], record["target"]):
        return record
    goals = data.agendas[d.agendas[record["target"]]]
    fits = [c for c in range(5) if (goals[c] in WANTED[record["deduction"] - 1]) == record["correct"]]
    return {**record, "colour": COLOURS[rng.choice(fits)]}
