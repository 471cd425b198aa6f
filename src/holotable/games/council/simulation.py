"""Black Hole Council in ``holotable simulate``: measures of a finished game, per game and per seat.

Per game: how many Proposals the six Negotiation Rounds took, the share of votes that passed,
and how many rounds were written off. Per seat (averaged per agent and per seat position by the
report): the share of its three Deduction cards that were right, the coins it took from
Deduction (as guesser, or as a target nobody found), the coins Pay-Out gave it, its final
space and whether it played its Intrigue card. With ``-a heuristic,random,...`` the
``deduction_right`` row of each agent compares the heuristic's Bayesian guesses with blind
guessing in the same games (blind guessing expects 2/5, 2/5 and 1/5: 1/3 on average).

For balance reports (``holotable balance council``): per game, ``pass_rate:<n>`` is the share of the
votes on the ``n``-th Proposal of a Negotiation Round that passed (left out when no round reached an
``n``-th Proposal, so the report's mean is the pass rate *given* that Proposal was voted on); per seat,
``agenda:<id>`` is 1 for the secret agenda the seat held and 0 for every other agenda of the game's
data: an indicator family, so the report gives the win rate by agenda.

>>> import holotable
>>> from holotable.sim import simulate
>>> report = simulate("council", players=4, games=2, agents=["random"], seed=3)
>>> sorted(n for n in report.agents_summary[0].measures if not n.startswith("agenda:"))
['deduction_coins', 'deduction_right', 'final_space', 'intrigue_played', 'payout_coins']
>>> sum(report.records[0].seat_measures[0][i][1] for i in range(len(report.records[0].seat_measures[0]))
...     if report.records[0].seat_measures[0][i][0].startswith("agenda:"))
1.0
"""

from __future__ import annotations

from typing import Any

from holotable.engine import State

from .data import data_for
from .state import BHCData


def measures(state: State[Any, Any]) -> dict[str, float]:
    """Named numbers of a finished game."""
    d: BHCData = state.data
    votes = d.votes
    out = {
        "proposals": float(d.proposals_made),
        "pass_rate": sum(1 for v in votes if v["approved"]) / len(votes) if votes else 0.0,
        "written_off_rounds": float(sum(1 for s in d.history if s["written_off"])),
    }
    by_number: dict[int, list[bool]] = {}
    for vote in votes:
        by_number.setdefault(int(vote["proposal"]), []).append(bool(vote["approved"]))
    for number, passed in sorted(by_number.items()):
        out[f"pass_rate:{number}"] = sum(passed) / len(passed)
    return out


def seat_measures(state: State[Any, Any]) -> list[dict[str, float]]:
    """Named numbers of each seat in a finished game."""
    d: BHCData = state.data
    out: list[dict[str, float]] = []
    records = [rec for rnd in d.deductions for rec in rnd]
    agenda_ids = data_for(state.config).agenda_ids
    for seat in range(d.players):
        mine = [rec for rec in records if rec["guesser"] == seat]
        numbers = {
            "deduction_coins": float(sum(rec["coins"] for rec in records if rec["paid"] == seat)),
            "payout_coins": float(d.payout[seat]) if d.payout else 0.0,
            "final_space": float(d.positions[seat]),
            "intrigue_played": 1.0 if d.intrigue_played[seat] >= 0 else 0.0,
        }
        if mine:
            numbers["deduction_right"] = sum(1 for rec in mine if rec["correct"]) / len(mine)
        numbers.update({f"agenda:{ident}": 1.0 if i == d.agendas[seat] else 0.0 for i, ident in enumerate(agenda_ids)})
        out.append(dict(sorted(numbers.items())))
    return out
