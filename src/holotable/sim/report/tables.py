"""The figures of a balance report as plain rows (one dict per CSV line), computed from game records.

Every number here comes straight from :class:`~holotable.sim.batch.GameRecord` lists or a
:class:`~holotable.sim.batch.SimulationReport`; the HTML page and the CSV files show the same rows.

Measure names: ``name`` is a number; ``family:category`` is one category of a group (``pulled_in:BH-M2``,
``agenda:gravity``), drawn together as one chart. A family whose values are all 0 or 1 is an
*indicator family*: for seat measures the report also gives the win rate of the seat-games where the
indicator is 1 (win rate by agenda held, by card collected...). A measure a game or seat leaves out does
not apply there (a black hole that was not played): means are over the games that report it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from holotable.sim.batch import CONFIDENCE, GameRecord, SimulationReport, Tally
from holotable.sim.stats import MeanCI, mean_ci, wilson_interval

Row = dict[str, Any]


def family_of(name: str) -> tuple[str, str]:
    """``"pulled_in:BH-M2"`` -> ``("pulled_in", "BH-M2")``; a plain name is its own family with no category."""
    family, sep, category = name.partition(":")
    return (family, category) if sep else (name, "")


def _names(groups: Iterable[Iterable[tuple[str, float]]]) -> list[str]:
    seen: dict[str, None] = {}
    for pairs in groups:
        for name, _ in pairs:
            seen.setdefault(name, None)
    return list(seen)


def game_rows(records: Sequence[GameRecord], extra: Row | None = None) -> list[Row]:
    """One row per game: seed, length, how it ended, winners and every game measure (blank = not reported)."""
    names = _names(rec.measures for rec in records)
    rows = []
    for rec in records:
        measured = dict(rec.measures)
        row: Row = {**(extra or {}), "game": rec.index, "seed": rec.seed, "steps": rec.steps, "reason": rec.reason,
                    "winners": " ".join(str(s) for s in rec.winners)}
        row.update({name: measured.get(name, "") for name in names})
        rows.append(row)
    return rows


def seat_rows(records: Sequence[GameRecord], extra: Row | None = None) -> list[Row]:
    """One row per seat of every game: agent, score, rank, win and every seat measure."""
    names = _names(pairs for rec in records for pairs in rec.seat_measures)
    rows = []
    for rec in records:
        for seat, agent in enumerate(rec.agents):
            measured = dict(rec.seat_measures[seat]) if rec.seat_measures else {}
            row: Row = {**(extra or {}), "game": rec.index, "seat": seat, "agent": agent,
                        "score": rec.scores[seat], "rank": rec.ranks[seat], "won": int(seat in rec.winners)}
            row.update({name: measured.get(name, "") for name in names})
            rows.append(row)
    return rows


def _tally_row(t: Tally) -> Row:
    lo, hi = t.win_rate_ci
    return {"games": t.games, "wins": t.wins, "win_share": t.win_share, "win_rate": t.win_rate,
            "win_rate_lo": lo, "win_rate_hi": hi, "mean_score": t.score.mean, "score_lo": t.score.lo,
            "score_hi": t.score.hi, "mean_rank": t.mean_rank}


def seat_advantage_rows(report: SimulationReport) -> list[Row]:
    """Win rate (95% Wilson interval), score and rank per seat position: is the first seat favoured?"""
    return [{"seat": s.seat, **_tally_row(s)} for s in report.seats]


def agent_rows(report: SimulationReport) -> list[Row]:
    return [{"agent": a.agent, **_tally_row(a)} for a in report.agents_summary]


def ending_rows(report: SimulationReport) -> list[Row]:
    return [{"reason": reason, "games": count, "share": count / report.games}
            for reason, count in report.endings.items()]


def _mean_row(scope: str, name: str, m: MeanCI) -> Row:
    family, category = family_of(name)
    return {"scope": scope, "measure": name, "family": family, "category": category, "mean": m.mean,
            "lo": m.lo, "hi": m.hi, "n": m.n}


def measure_rows(report: SimulationReport) -> list[Row]:
    """Mean and 95% interval of each measure: per game (scope ``game``), per seat (``seat 0``...)
    and per agent (``agent heuristic``)."""
    rows = [_mean_row("game", name, m) for name, m in report.measures.items()]
    for s in report.seats:
        rows.extend(_mean_row(f"seat {s.seat}", name, m) for name, m in s.measures.items())
    for a in report.agents_summary:
        rows.extend(_mean_row(f"agent {a.agent}", name, m) for name, m in a.measures.items())
    return rows


def indicator_families(records: Sequence[GameRecord]) -> list[str]:
    """Seat-measure families (with categories) whose every value is 0 or 1."""
    values: dict[str, set[float]] = {}
    for rec in records:
        for pairs in rec.seat_measures:
            for name, value in pairs:
                family, category = family_of(name)
                if category:
                    values.setdefault(family, set()).add(value)
    return [f for f, vals in values.items() if vals <= {0.0, 1.0}]


def category_win_rows(records: Sequence[GameRecord]) -> list[Row]:
    """For each indicator family's category: how many seat-games had it (value 1), share of the
    seat-games that report it, and the win rate of those seat-games with its 95% interval."""
    families = set(indicator_families(records))
    have: dict[str, int] = {}
    reported: dict[str, int] = {}
    wins: dict[str, int] = {}
    for rec in records:
        for seat, pairs in enumerate(rec.seat_measures):
            for name, value in pairs:
                if family_of(name)[0] not in families:
                    continue
                reported[name] = reported.get(name, 0) + 1
                if value == 1.0:
                    have[name] = have.get(name, 0) + 1
                    wins[name] = wins.get(name, 0) + (seat in rec.winners)
    rows = []
    for name in reported:
        family, category = family_of(name)
        n, w = have.get(name, 0), wins.get(name, 0)
        lo, hi = wilson_interval(w, n, CONFIDENCE)
        rows.append({"family": family, "category": category, "seat_games": n, "reported": reported[name],
                     "rate": n / reported[name], "wins": w, "win_rate": w / n if n else math.nan,
                     "win_rate_lo": lo, "win_rate_hi": hi})
    return rows


def distribution_rows(report: SimulationReport) -> list[Row]:
    """How often each final score occurred, per seat and per agent (the score histograms)."""
    counts: dict[tuple[str, str, float], int] = {}
    for rec in report.records:
        for seat, agent in enumerate(rec.agents):
            for key in (("seat", str(seat)), ("agent", agent)):
                k = (*key, rec.scores[seat])
                counts[k] = counts.get(k, 0) + 1
    return [{"by": by, "group": group, "score": score, "count": count}
            for (by, group, score), count in sorted(counts.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2]))]


def sweep_rows(key: str, entries: Sequence[tuple[str, SimulationReport]]) -> list[Row]:
    """One row per swept value: seat win rates, length and every measure's mean with its interval."""
    rows = []
    for value, rep in entries:
        row: Row = {key: value, "games": rep.games, "mean_length": rep.length.mean, "length_lo": rep.length.lo,
                    "length_hi": rep.length.hi}
        for s in rep.seats:
            lo, hi = s.win_rate_ci
            row.update({f"seat{s.seat}_win_rate": s.win_rate, f"seat{s.seat}_win_lo": lo,
                        f"seat{s.seat}_win_hi": hi})
        for a in rep.agents_summary:
            lo, hi = a.win_rate_ci
            row.update({f"{a.agent}_win_rate": a.win_rate, f"{a.agent}_win_lo": lo, f"{a.agent}_win_hi": hi})
        for name, m in rep.measures.items():
            row.update({name: m.mean, f"{name}_lo": m.lo, f"{name}_hi": m.hi})
        for name, m in seat_measure_means(rep.records).items():
            row.update({f"seat:{name}": m.mean, f"seat:{name}_lo": m.lo, f"seat:{name}_hi": m.hi})
        rows.append(row)
    return rows


def seat_measure_means(records: Sequence[GameRecord]) -> dict[str, MeanCI]:
    """Each seat measure over all seat-games that report it."""
    values: dict[str, list[float]] = {}
    for rec in records:
        for pairs in rec.seat_measures:
            for name, value in pairs:
                values.setdefault(name, []).append(value)
    return {name: mean_ci(vals, CONFIDENCE) for name, vals in values.items()}


def schedule_rows(entries: Sequence[tuple[int, str, SimulationReport]]) -> list[Row]:
    """One row per scheduled game of a campaign (a solo game: seat 0's results): win rate with its interval,
    length and every game measure."""
    rows = []
    for number, label, rep in entries:
        tally = rep.seats[0]
        lo, hi = tally.win_rate_ci
        row: Row = {"number": number, "label": label, "games": tally.games, "wins": tally.wins,
                    "win_rate": tally.win_rate, "win_rate_lo": lo, "win_rate_hi": hi,
                    "mean_length": rep.length.mean}
        for name, m in rep.measures.items():
            row.update({name: m.mean, f"{name}_lo": m.lo, f"{name}_hi": m.hi})
        rows.append(row)
    return rows


def defeat_rows(entries: Sequence[tuple[int, str, SimulationReport]]) -> list[Row]:
    """Why the games nobody won were lost, per scheduled game (the outcome's reason)."""
    rows: list[Row] = []
    for number, label, rep in entries:
        counts: dict[str, int] = {}
        for rec in rep.records:
            if not rec.winners:
                counts[rec.reason] = counts.get(rec.reason, 0) + 1
        rows.extend({"number": number, "label": label, "reason": reason, "games": count, "share": count / rep.games}
                    for reason, count in sorted(counts.items(), key=lambda kv: -kv[1]))
    return rows
