"""Writing a balance report: ``report.html`` (figures embedded) and the figures' numbers as CSV files.

Files (a sweep adds the swept setting as the first column of each, and ``sweep.csv``; a campaign
game with a schedule writes ``schedule.csv`` and ``defeats.csv`` instead of the seat tables):

=======================  =====================================================================
``games.csv``            one row per game: seed, steps, reason, winners, the game's measures
``seats.csv``            one row per seat of each game: agent, score, rank, won, seat measures
``seat_advantage.csv``   win rate (95% Wilson interval), score and rank per seat position
``agents.csv``           the same per agent
``score_distribution``   ``.csv``: how often each final score occurred, per seat and per agent
``measures.csv``         mean and 95% interval of every measure, per game / seat / agent
``category_wins.csv``    indicator families (``family:category``): rate and win rate by category
``endings.csv``          games per outcome reason
``sweep.csv``            one row per swept value (seat and agent win rates, length, measures)
``schedule.csv``         one row per scheduled game (win rate, length, measures)
``defeats.csv``          why the games nobody won were lost, per scheduled game
=======================  =====================================================================
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from holotable.sim.batch import GameRecord, SimulationReport

from . import figures as fig
from . import html as h
from .balance import BalanceRun, sweep_value
from .tables import (
    Row,
    agent_rows,
    category_win_rows,
    defeat_rows,
    distribution_rows,
    ending_rows,
    family_of,
    game_rows,
    measure_rows,
    schedule_rows,
    seat_advantage_rows,
    seat_rows,
    sweep_rows,
)

#: A report draws at most this many measure figures per section (the CSV files have them all).
MAX_FIGURES = 24
#: Families with more categories than this stay out of the HTML tables / bar charts (they are in the CSV files).
MAX_CATEGORIES_SHOWN = 12
MAX_CATEGORIES_DRAWN = 20
#: Categories drawn per family in a sweep's line plots.
MAX_SWEEP_CATEGORIES = 8


def write_csv(path: Path, rows: Sequence[Row]) -> None:
    """Rows as CSV; the columns are the union of the rows' keys in first-seen order."""
    columns: dict[str, None] = {}
    for row in rows:
        for key in row:
            columns.setdefault(key, None)
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(columns), restval="")
        writer.writeheader()
        writer.writerows(rows)


def _short(value: Any, width: int = 60) -> str:
    text = str(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _with(key: str | None, value: str, rows: list[Row]) -> list[Row]:
    return rows if key is None else [{key: value, **row} for row in rows]


def write_report(run: BalanceRun, out: Path) -> list[Path]:
    """Write ``report.html`` and the CSV files into ``out`` (created); returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, list[Row]] = {}
    sections = _schedule_sections(run, files) if run.schedule else _run_sections(run, files)
    written = []
    for name, rows in files.items():
        path = out / name
        write_csv(path, rows)
        written.append(path)
    settings = " ".join(f"{k}={v}" for k, v in run.settings.items()) or "defaults"
    reps = run.reports
    params = reps[0].params if reps else {}
    meta = [
        f"{run.players} player(s) · {run.games} games per "
        + ("scheduled game" if run.schedule else "setting" if run.sweep_key else "run")
        + f" · agents {', '.join(run.agents)}{' (seats rotated each game)' if run.players > 1 else ''}"
        + f" · seed {run.seed}",
        f"settings: {settings}" + (f" · swept: {run.sweep_key}" if run.sweep_key else ""),
        "parameters: " + " ".join(f"{k}={_short(v)}" for k, v in sorted(params.items())
                                  if k not in run.scheduled_params),
        f"{sum(r.games for r in reps)} games in {run.wall_time:.1f} s · intervals are 95% "
        "(Wilson for rates, Student t for means) · CSV files beside this page hold every figure's numbers",
    ]
    page = h.page(f"{run.title}: balance report", meta, sections)
    html_path = out / "report.html"
    html_path.write_text(page, encoding="utf-8")
    return [html_path, *written]


# ---------------------------------------------------------------------- one run or a sweep


def _run_sections(run: BalanceRun, files: dict[str, list[Row]]) -> list[tuple[str, str, str]]:
    key = run.sweep_key
    for name, build in (("games.csv", lambda r: game_rows(r.records)), ("seats.csv", lambda r: seat_rows(r.records)),
                        ("seat_advantage.csv", seat_advantage_rows), ("agents.csv", agent_rows),
                        ("score_distribution.csv", distribution_rows), ("measures.csv", measure_rows),
                        ("category_wins.csv", lambda r: category_win_rows(r.records)),
                        ("endings.csv", ending_rows)):
        rows = [row for value, rep in run.entries for row in _with(key, value, build(rep))]
        if rows or name in ("games.csv", "seats.csv"):
            files[name] = rows
    sections = []
    if key is not None:
        files["sweep.csv"] = sweep_rows(key, run.entries)
        sections.append(("sweep", f"Against {key}", _sweep_html(run, key)))
    # The detailed sections show the first value of a sweep (every value's numbers are in the CSV files).
    value, rep = run.entries[0]
    label = f" ({key}={value})" if key is not None else ""
    sections.extend(_detail_sections(rep, label))
    return sections


def _detail_sections(rep: SimulationReport, label: str) -> list[tuple[str, str, str]]:
    seats = seat_advantage_rows(rep)
    fair = 1.0 / rep.players
    seat_fig = fig.bars([f"seat {r['seat']}" for r in seats], [r["win_rate"] for r in seats],
                        [r["win_rate_lo"] for r in seats], [r["win_rate_hi"] for r in seats],
                        title=f"Win rate by seat{label}", ylabel="win rate", reference=fair)
    shared = f" {rep.shared_wins} game(s) had several winners (each counts a win)." if rep.shared_wins else ""
    out = [("seats", "Seat advantage", h.paragraph(
        f"Seats are rotated each game, so every agent sits everywhere equally; a seat's win rate away from "
        f"{fair:.2f} (dashed) is the seat's own advantage.{shared}") + h.figure(seat_fig, "win rate by seat")
        + h.table(seats))]
    agents = agent_rows(rep)
    agent_html = h.table(agents)
    if len(agents) > 1:
        agent_html = h.figure(fig.bars([r["agent"] for r in agents], [r["win_rate"] for r in agents],
                                       [r["win_rate_lo"] for r in agents], [r["win_rate_hi"] for r in agents],
                                       title=f"Win rate by agent{label}", ylabel="win rate", reference=fair),
                              "win rate by agent") + agent_html
    out.append(("agents", "Agents", agent_html))
    by_seat = {f"seat {s}": [rec.scores[s] for rec in rep.records] for s in range(rep.players)}
    by_agent: dict[str, list[float]] = {}
    for rec in rep.records:
        for seat, agent in enumerate(rec.agents):
            by_agent.setdefault(agent, []).append(rec.scores[seat])
    score_html = h.figure(fig.histograms(by_seat, title=f"Final score by seat{label}", xlabel="score"), "scores")
    if len(by_agent) > 1:
        score_html += h.figure(fig.histograms(by_agent, title=f"Final score by agent{label}", xlabel="score"),
                               "scores by agent")
    out.append(("scores", "Score distribution", score_html))
    steps = [float(rec.steps) for rec in rep.records]
    endings = ending_rows(rep)
    out.append(("length", "Game length and endings", h.figure(
        fig.histograms({"games": steps}, title=f"Game length{label}", xlabel="decisions"), "length")
        + h.paragraph(f"Mean length {rep.length.mean:.1f} decisions [{rep.length.lo:.1f}, {rep.length.hi:.1f}].")
        + (h.table(endings, limit=15) if len(endings) <= 60 else h.paragraph(
            f"{len(endings)} distinct outcome reasons (endings.csv)."))))
    measures = measure_rows(rep)
    game_measures = [r for r in measures if r["scope"] == "game"]
    if game_measures:
        shares = family_bounds(rep.records, per_seat=False)
        html = h.table(game_measures, ["measure", "mean", "lo", "hi", "n"]) + _family_figures(
            {"all games": game_measures}, label, shares)
        out.append(("measures", "Game measures", html))
    agent_measures: dict[str, list[Row]] = {r["scope"].removeprefix("agent "): [] for r in measures
                                            if r["scope"].startswith("agent ")}
    for r in measures:
        if r["scope"].startswith("agent "):
            agent_measures[r["scope"].removeprefix("agent ")].append(r)
    if agent_measures:
        html = h.paragraph("Per seat-game, by agent (seat by seat in measures.csv).") + _pivot(measures)
        html += _family_figures(agent_measures, label, family_bounds(rep.records, per_seat=True))
        wins = category_win_rows(rep.records)
        if wins:
            html += _category_win_figures(wins, fair, label)
        out.append(("seat-measures", "Player measures", html))
    return out


def _pivot(rows: Sequence[Row]) -> str:
    """measure x scope (agents, then seats) table of ``mean [lo, hi]``; families with many categories are
    left to measures.csv (and to the win-rate-by-category figures)."""
    scopes = [s for s in dict.fromkeys(r["scope"] for r in rows) if s != "game"]
    scopes = [s for s in scopes if s.startswith("agent ")] + [s for s in scopes if s.startswith("seat ")]
    sizes: dict[str, set[str]] = {}
    for r in rows:
        sizes.setdefault(r["family"], set()).add(r["category"])
    table: dict[str, Row] = {}
    for r in rows:
        if r["scope"] == "game" or len(sizes[r["family"]]) > MAX_CATEGORIES_SHOWN:
            continue
        text = "-" if math.isnan(r["mean"]) else (f"{r['mean']:.3g} [{r['lo']:.3g}, {r['hi']:.3g}]"
                                                   if r["n"] > 1 else f"{r['mean']:.3g}")
        table.setdefault(r["measure"], {"measure": r["measure"]})[r["scope"]] = text
    big = sorted(f for f, cats in sizes.items() if len(cats) > MAX_CATEGORIES_SHOWN)
    note = h.paragraph(f"In measures.csv only (many categories): {', '.join(big)}.") if big else ""
    return h.table(list(table.values()), ["measure", *scopes], limit=80) + note


def family_bounds(records: Sequence[GameRecord], *, per_seat: bool) -> dict[str, tuple[float, float]]:
    """Where each family's mean must lie, from its values: [0, 1] for shares and indicators, [0, inf) for
    counts and amounts that are never negative. Interval whiskers are clipped there (a t interval of a
    small sample can reach below zero, which no such mean can)."""
    lows: dict[str, float] = {}
    highs: dict[str, float] = {}
    for rec in records:
        groups = rec.seat_measures if per_seat else (rec.measures,)
        for pairs in groups:
            for name, value in pairs:
                family = family_of(name)[0]
                lows[family] = min(lows.get(family, value), value)
                highs[family] = max(highs.get(family, value), value)
    bounds = {}
    for family, low in lows.items():
        lo = 0.0 if low >= 0.0 else -math.inf
        hi = 1.0 if lo == 0.0 and highs[family] <= 1.0 else math.inf
        bounds[family] = (lo, hi)
    return bounds


def _family_figures(groups: dict[str, list[Row]], label: str, bounds: dict[str, tuple[float, float]]) -> str:
    """One chart per family of ``family:category`` measures, a bar group per agent (families with many
    categories only in the CSV files and the win-rate-by-category figures)."""
    families: dict[str, list[str]] = {}
    for rows in groups.values():
        for r in rows:
            if r["category"]:
                cats = families.setdefault(r["family"], [])
                if r["category"] not in cats:
                    cats.append(r["category"])
    html = ""
    drawn = [(f, cats) for f, cats in families.items() if len(cats) <= MAX_CATEGORIES_DRAWN]
    for family, cats in drawn[:MAX_FIGURES]:
        lo_bound, hi_bound = bounds.get(family, (-math.inf, math.inf))
        series: dict[str, tuple[list[float], list[float], list[float]]] = {}
        for name, rows in groups.items():
            found = {r["category"]: r for r in rows if r["family"] == family}
            if not found:
                continue
            series[name] = ([found[c]["mean"] if c in found else math.nan for c in cats],
                            [max(lo_bound, found[c]["lo"]) if c in found else math.nan for c in cats],
                            [min(hi_bound, found[c]["hi"]) if c in found else math.nan for c in cats])
        html += h.figure(fig.grouped(cats, series, title=f"{family} by category{label}", ylabel="mean"), family)
    return html


def _category_win_figures(rows: Sequence[Row], fair: float, label: str) -> str:
    html = h.paragraph("Indicator families (values 0/1): the win rate of the seat-games where the indicator "
                       "is 1, e.g. the win rate by agenda held or by card collected.")
    by_family: dict[str, list[Row]] = {}
    for r in rows:
        by_family.setdefault(r["family"], []).append(r)
    for family, fam_rows in list(by_family.items())[:MAX_FIGURES]:
        fam_rows = [r for r in fam_rows if r["seat_games"] > 0]
        html += h.figure(fig.bars([r["category"] for r in fam_rows], [r["win_rate"] for r in fam_rows],
                                  [r["win_rate_lo"] for r in fam_rows], [r["win_rate_hi"] for r in fam_rows],
                                  title=f"Win rate by {family}{label}", ylabel="win rate", reference=fair),
                         f"win rate by {family}")
    return html + h.table(list(rows), ["family", "category", "seat_games", "rate", "wins", "win_rate",
                                       "win_rate_lo", "win_rate_hi"], limit=60)


def _sweep_html(run: BalanceRun, key: str) -> str:
    x = [sweep_value(v) for v, _ in run.entries]
    if any(isinstance(v, str) for v in x):
        x = [v for v, _ in run.entries]
    reps = [rep for _, rep in run.entries]
    html = h.paragraph(f"Each value of {key} plays the same {run.games} games (same seeds), so differences come "
                       "from the setting. Bars are 95% intervals.")
    seats = {f"seat {s}": ([r.seats[s].win_rate for r in reps], [r.seats[s].win_rate_ci[0] for r in reps],
                           [r.seats[s].win_rate_ci[1] for r in reps]) for s in range(run.players)}
    html += h.figure(fig.lines(x, seats, title=f"Win rate by seat against {key}", xlabel=key, ylabel="win rate"),
                     "seat win rates")
    agents = [a.agent for a in reps[0].agents_summary]
    if len(agents) > 1:
        series = {}
        for name in agents:
            tallies = [next(a for a in r.agents_summary if a.agent == name) for r in reps]
            series[name] = ([t.win_rate for t in tallies], [t.win_rate_ci[0] for t in tallies],
                            [t.win_rate_ci[1] for t in tallies])
        html += h.figure(fig.lines(x, series, title=f"Win rate by agent against {key}", xlabel=key,
                                   ylabel="win rate"), "agent win rates")
    html += h.figure(fig.lines(x, {"length": ([r.length.mean for r in reps], [r.length.lo for r in reps],
                                              [r.length.hi for r in reps])},
                               title=f"Game length against {key}", xlabel=key, ylabel="decisions"), "length")
    rows = sweep_rows(key, run.entries)
    records = [rec for r in reps for rec in r.records]
    drawn = 0
    for prefix, scope in (("", "game measure"), ("seat:", "player measure")):
        bounds = family_bounds(records, per_seat=prefix == "seat:")
        names = [c for c in rows[0] if c.startswith(prefix) and f"{c}_lo" in rows[0]
                 and not c.endswith(("_lo", "_hi")) and c not in ("mean_length",) and "_win_" not in c
                 and not c.endswith("_win_rate")]
        if prefix == "":
            names = [c for c in names if not c.startswith("seat:")]
        families: dict[str, list[str]] = {}
        for c in names:
            families.setdefault(family_of(c.removeprefix(prefix))[0], []).append(c)
        for family, cols in families.items():
            if drawn >= MAX_FIGURES:
                break
            cols = cols[:MAX_SWEEP_CATEGORIES]
            lo_bound, hi_bound = bounds.get(family, (-math.inf, math.inf))
            series = {c.removeprefix(prefix): ([_num(r.get(c)) for r in rows],
                                               [max(lo_bound, _num(r.get(f"{c}_lo"))) for r in rows],
                                               [min(hi_bound, _num(r.get(f"{c}_hi"))) for r in rows]) for c in cols}
            html += h.figure(fig.lines(x, series, title=f"{family} ({scope}) against {key}", xlabel=key,
                                       ylabel="mean"), family)
            drawn += 1
    columns = [key, "games", "mean_length", *[c for c in rows[0] if c.endswith("_win_rate")]]
    return html + h.table(rows, columns)


def _num(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) else math.nan


# ---------------------------------------------------------------------- a schedule of games


def _schedule_sections(run: BalanceRun, files: dict[str, list[Row]]) -> list[tuple[str, str, str]]:
    entries = run.schedule
    sched = schedule_rows(entries)
    defeats = defeat_rows(entries)
    files["schedule.csv"] = sched
    files["defeats.csv"] = defeats
    files["games.csv"] = [row for number, _, rep in entries
                          for row in _with("number", str(number), game_rows(rep.records))]
    files["endings.csv"] = [row for number, _, rep in entries for row in _with("number", str(number),
                                                                                 ending_rows(rep))]
    x = [float(r["number"]) for r in sched]
    win = fig.lines(x, {"win rate": ([r["win_rate"] for r in sched], [r["win_rate_lo"] for r in sched],
                                     [r["win_rate_hi"] for r in sched])},
                    title="Win rate per scheduled game", xlabel="scheduled game", ylabel="win rate")
    sections = [("schedule", "Win rate per scheduled game", h.paragraph(
        "Each scheduled game is played from the start it has in the campaign; does the difficulty rise "
        "sensibly along the schedule?") + h.figure(win, "win rate per scheduled game")
        + h.table(sched, ["number", "label", "games", "wins", "win_rate", "win_rate_lo", "win_rate_hi",
                          "mean_length"]))]
    reasons = list(dict.fromkeys(r["reason"] for r in defeats))
    labels = [str(r["number"]) for r in sched]
    series = {reason: [next((d["share"] for d in defeats if d["reason"] == reason and d["number"] == r["number"]),
                            0.0) for r in sched] for reason in reasons}
    sections.append(("defeats", "Causes of defeat", h.figure(
        fig.stacked(labels, series, title="Share of games lost, by cause", ylabel="share of games"), "defeats")
        + h.table(defeats)))
    measures = list(entries[0][2].measures) if entries else []
    html = ""
    for name in measures[:MAX_FIGURES]:
        html += h.figure(fig.lines(x, {name: ([_num(r.get(name)) for r in sched],
                                              [_num(r.get(f"{name}_lo")) for r in sched],
                                              [_num(r.get(f"{name}_hi")) for r in sched])},
                                   title=f"{name} per scheduled game", xlabel="scheduled game", ylabel="mean"), name)
    if html:
        sections.append(("measures", "Game measures per scheduled game", html))
    return sections
