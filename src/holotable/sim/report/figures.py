"""Matplotlib figures of a balance report, each returned as a base64 PNG for embedding in the HTML page.

The Agg backend draws without a display; figures are closed at once so a long sweep holds no memory.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Mapping, Sequence

import matplotlib

matplotlib.use("Agg")  # no display: files only (must precede pyplot)

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

#: Small files: reports stay well under a couple of megabytes.
DPI = 80
WIDTH = 7.0
HEIGHT = 3.6


def _encode(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _err(means: Sequence[float], los: Sequence[float], his: Sequence[float]) -> list[list[float]]:
    """Error-bar lengths below and above; an undefined interval draws no bar."""
    below = [0.0 if math.isnan(lo) else max(0.0, m - lo) for m, lo in zip(means, los, strict=True)]
    above = [0.0 if math.isnan(hi) else max(0.0, hi - m) for m, hi in zip(means, his, strict=True)]
    return [below, above]


def bars(labels: Sequence[str], means: Sequence[float], los: Sequence[float], his: Sequence[float], *,
         title: str, ylabel: str, reference: float | None = None) -> str:
    """Bars with 95% interval whiskers; ``reference`` draws a dashed line (the fair share)."""
    height = HEIGHT if len(labels) <= 14 else max(HEIGHT, 0.22 * len(labels))
    fig, ax = plt.subplots(figsize=(WIDTH, height))
    if len(labels) <= 14:
        ax.bar(range(len(labels)), means, yerr=_err(means, los, his), capsize=4, color="#4c72b0")
        ax.set_xticks(range(len(labels)), labels, rotation=30 if max(map(len, labels), default=0) > 6 else 0,
                      ha="right" if max(map(len, labels), default=0) > 6 else "center")
        ax.set_ylabel(ylabel)
        if reference is not None:
            ax.axhline(reference, color="grey", linestyle="--", linewidth=1)
    else:  # many categories read better as horizontal bars
        ax.barh(range(len(labels)), means, xerr=_err(means, los, his), capsize=2, color="#4c72b0")
        ax.set_yticks(range(len(labels)), labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel(ylabel)
        if reference is not None:
            ax.axvline(reference, color="grey", linestyle="--", linewidth=1)
    ax.set_title(title)
    return _encode(fig)


def histograms(groups: Mapping[str, Sequence[float]], *, title: str, xlabel: str) -> str:
    """One distribution per group, as the share of its samples at each value (discrete values side by side)."""
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    values = sorted({v for vals in groups.values() for v in vals})
    integral = all(float(v).is_integer() for v in values)
    if values and integral and values[-1] - values[0] <= 40:  # whole numbers: one bar per value, gaps kept
        width = 0.8 / max(1, len(groups))
        for i, (name, vals) in enumerate(groups.items()):
            total = len(vals) or 1
            shares = [sum(1 for v in vals if v == x) / total for x in values]
            ax.bar([x - 0.4 + width / 2 + i * width for x in values], shares, width=width, label=name)
    else:
        for name, vals in groups.items():
            weights = [1.0 / len(vals)] * len(vals) if vals else []
            ax.hist(vals, bins=30, histtype="step", linewidth=1.5, label=name, weights=weights)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share")
    ax.set_title(title)
    if len(groups) > 1:
        ax.legend(fontsize=8)
    return _encode(fig)


def lines(x: Sequence[float | str], series: Mapping[str, tuple[Sequence[float], Sequence[float], Sequence[float]]],
          *, title: str, xlabel: str, ylabel: str) -> str:
    """One line per series (mean with 95% interval bars) against a setting; text settings are evenly spaced."""
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    numeric = all(isinstance(v, (int, float)) for v in x)
    xs = [float(v) for v in x] if numeric else [float(i) for i in range(len(x))]
    span = (max(xs) - min(xs)) if len(xs) > 1 else 1.0
    for i, (name, (means, los, his)) in enumerate(series.items()):
        dodge = (i - (len(series) - 1) / 2) * 0.012 * span  # keep overlapping interval bars apart
        ax.errorbar([v + dodge for v in xs], means, yerr=_err(means, los, his), capsize=4, marker="o", label=name)
    if not numeric:
        ax.set_xticks(xs, [str(v) for v in x], rotation=30 if len(x) > 6 else 0)
    elif len(xs) <= 12:  # the swept values themselves, not matplotlib's in-between ticks
        ax.set_xticks(xs, [f"{v:g}" for v in xs])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(fontsize=8)
    return _encode(fig)


def stacked(x: Sequence[str], series: Mapping[str, Sequence[float]], *, title: str, ylabel: str) -> str:
    """Stacked bars: each series' share at every x (the causes of defeat per scheduled game)."""
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    bottom = [0.0] * len(x)
    for name, vals in series.items():
        ax.bar(range(len(x)), vals, bottom=bottom, label=name)
        bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
    ax.set_xticks(range(len(x)), list(x), fontsize=7 if len(x) > 15 else 9)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if series:
        ax.legend(fontsize=7)
    return _encode(fig)


def grouped(labels: Sequence[str], series: Mapping[str, tuple[Sequence[float], Sequence[float], Sequence[float]]],
            *, title: str, ylabel: str) -> str:
    """Bars side by side per label, one colour per series (an agent), with 95% interval whiskers."""
    if len(series) == 1:
        (means, los, his), = series.values()
        return bars(labels, means, los, his, title=title, ylabel=ylabel)
    many = len(labels) > 14
    fig, ax = plt.subplots(figsize=(WIDTH, max(HEIGHT, 0.3 * len(labels) * len(series) / 2) if many else HEIGHT))
    width = 0.8 / len(series)
    for i, (name, (means, los, his)) in enumerate(series.items()):
        pos = [j + i * width for j in range(len(labels))]
        if many:
            ax.barh(pos, means, height=width, xerr=_err(means, los, his), capsize=2, label=name)
        else:
            ax.bar(pos, means, width=width, yerr=_err(means, los, his), capsize=3, label=name)
    ticks = [j + 0.4 - width / 2 for j in range(len(labels))]
    if many:
        ax.set_yticks(ticks, list(labels), fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel(ylabel)
    else:
        long = max(map(len, labels), default=0) > 6
        ax.set_xticks(ticks, list(labels), rotation=30 if long else 0, ha="right" if long else "center")
        ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    return _encode(fig)
