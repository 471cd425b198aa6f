"""Black Hole Council's plain game data (``st.data``). Decks keep their top card FIRST.

Records appended to the public logs (``history``, ``votes``, ``advances``, ``deductions``,
``talk``, ``discards``) are plain dicts that are never changed after they are appended,
so the hand-written copy shares them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

NEGOTIATE, VOTE, ADVANCE, DEDUCE, OVER = "negotiate", "vote", "advance", "deduce", "over"


@dataclass(slots=True)
class BHCData:
    players: int
    order: str  # the Round Track, e.g. "NNDNNDNNDP" (BHC-FLOW-02)
    costs: tuple[int, ...]  # TRACK_COSTS[space - 1]; the track has len(costs) + 1 spaces
    first_leader: int
    leader: int
    round: int = 0  # index into ``order``: the Round Marker's space minus one
    phase: str = NEGOTIATE
    proposal: int = 1  # the Leader Token's Proposal Track (1..3)
    proposals_made: int = 0  # Proposals started in the whole game (BHC-LEADER-04)
    negotiation_round: int = 0  # Negotiation Rounds started (1..6)
    deduction_round: int = 0  # Deduction Rounds started (1..3)
    positions: list[int] = field(default_factory=list)  # Influence Track spaces, 1-based
    banks: list[int] = field(default_factory=list)
    stock: int = 0  # a ledger that starts at 0 and may go negative (BHC-AMB-03)
    bribe_space: int = 0
    pending: list[int] = field(default_factory=list)  # Bribe-Space coins lying next to each Bank
    accepted_from: int = -1  # the seat whose 1-coin offer the Leader accepted (-1: none)
    offers: list[int] = field(default_factory=list)  # seats with an open offer, sorted
    bribed: list[int] = field(default_factory=list)  # seats the Leader bribed this Proposal, sorted
    table: list[str] = field(default_factory=list)  # planet ids by outcome; empty outside a Negotiation Round
    deck: list[str] = field(default_factory=list)  # top first
    deck_known: int = 0  # cards at the bottom of the deck whose identity is public (discards)
    discards: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)  # Planet History sets
    failed: int = 0  # failed Proposals in this round
    agendas: list[int] = field(default_factory=list)
    intrigue: list[int] = field(default_factory=list)  # each seat's Intrigue kind (an outcome)
    intrigue_played: list[int] = field(default_factory=list)  # the Negotiation Round it was played, or -1
    talk_used: list[int] = field(default_factory=list)  # negotiation moves made this Proposal
    talk: list[dict[str, Any]] = field(default_factory=list)  # this Proposal's public talk
    votes: list[dict[str, Any]] = field(default_factory=list)  # every revealed vote
    turn_order: list[int] = field(default_factory=list)
    turn_index: int = 0
    advances: list[dict[str, Any]] = field(default_factory=list)  # every announced Advance turn
    deductions: list[list[dict[str, Any]]] = field(default_factory=list)  # per Deduction Round
    payout: list[int] = field(default_factory=list)  # Pay-Out coins per seat (after the game)
    final_moves: list[int] = field(default_factory=list)  # spaces climbed in the final Advance
    over: bool = False
    swaps: list[list[int]] = field(default_factory=list)  # this Proposal's Leader swaps, as outcome pairs

    def copy(self) -> BHCData:
        # Hand-written because cloning is on the hot path of search and simulation.
        return BHCData(
            self.players, self.order, self.costs, self.first_leader, self.leader, self.round, self.phase,
            self.proposal, self.proposals_made, self.negotiation_round, self.deduction_round,
            self.positions[:], self.banks[:], self.stock, self.bribe_space, self.pending[:],
            self.accepted_from, self.offers[:], self.bribed[:], self.table[:], self.deck[:], self.deck_known,
            self.discards[:], self.history[:], self.failed, self.agendas[:], self.intrigue[:],
            self.intrigue_played[:], self.talk_used[:], self.talk[:], self.votes[:], self.turn_order[:],
            self.turn_index, self.advances[:], [r[:] for r in self.deductions], self.payout[:],
            self.final_moves[:], self.over, self.swaps[:],
        )

    @property
    def round_kind(self) -> str:
        return self.order[self.round] if self.round < len(self.order) else "P"

    @property
    def track_end(self) -> int:
        return len(self.costs) + 1

    def cost(self, seat: int) -> int:
        """Points needed to move ``seat`` one space on (BHC-ADV-02); 0 on the last space."""
        pos = self.positions[seat]
        return self.costs[pos - 1] if pos < self.track_end else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "order": self.order,
            "costs": list(self.costs),
            "first_leader": self.first_leader,
            "leader": self.leader,
            "round": self.round + 1,
            "round_kind": self.round_kind,
            "phase": self.phase,
            "proposal": self.proposal,
            "proposals_made": self.proposals_made,
            "negotiation_round": self.negotiation_round,
            "deduction_round": self.deduction_round,
            "positions": list(self.positions),
            "banks": list(self.banks),
            "stock": self.stock,
            "bribe_space": self.bribe_space,
            "pending": list(self.pending),
            "accepted_from": None if self.accepted_from < 0 else self.accepted_from,
            "offers": list(self.offers),
            "bribed": list(self.bribed),
            "table": list(self.table),
            "deck_top_first": list(self.deck),
            "deck_known": self.deck_known,
            "discards": list(self.discards),
            "history": list(self.history),
            "failed": self.failed,
            "agendas": list(self.agendas),
            "intrigue": list(self.intrigue),
            "intrigue_played": list(self.intrigue_played),
            "talk_used": list(self.talk_used),
            "talk": list(self.talk),
            "swaps": [list(p) for p in self.swaps],
            "votes": list(self.votes),
            "turn_order": list(self.turn_order),
            "turn_index": self.turn_index,
            "advances": list(self.advances),
            "deductions": [list(r) for r in self.deductions],
            "payout": list(self.payout),
            "final_moves": list(self.final_moves),
            "over": self.over,
        }
