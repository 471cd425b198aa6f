"""A self-contained HTML page: inline CSS, figures as base64 PNG ``<img>`` tags, no external assets."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

from .tables import Row

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1000px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .8em 0; font-size: .85em; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
img { width: 49%; min-width: 420px; display: inline-block; vertical-align: top; margin: .4em 0; }
.meta { color: #555; font-size: .9em; } code { background: #f3f3f3; padding: 0 .2em; }
nav a { margin-right: 1em; }
"""


def cell(value: Any) -> str:
    """A number with a sensible number of digits; text escaped."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:.3f}" if abs(value) < 100 else f"{value:.1f}"
    return html.escape(str(value))


def table(rows: Sequence[Row], columns: Sequence[str] | None = None, *, limit: int = 200) -> str:
    if not rows:
        return "<p class='meta'>(nothing to show)</p>"
    cols = list(columns) if columns is not None else list(rows[0])
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{cell(r.get(c, ''))}</td>" for c in cols) + "</tr>" for r in rows[:limit])
    more = f"<p class='meta'>{len(rows) - limit} more rows in the CSV file.</p>" if len(rows) > limit else ""
    return f"<table><tr>{head}</tr>{body}</table>{more}"


def figure(png: str, alt: str) -> str:
    return f"<img alt='{html.escape(alt)}' src='data:image/png;base64,{png}'>"


def paragraph(text: str) -> str:
    return f"<p>{html.escape(text)}</p>"


def page(title: str, meta: Sequence[str], sections: Sequence[tuple[str, str, str]]) -> str:
    """``sections`` are (anchor, heading, inner HTML)."""
    nav = " ".join(f"<a href='#{a}'>{html.escape(h)}</a>" for a, h, _ in sections)
    body = "".join(f"<h2 id='{a}'>{html.escape(h)}</h2>{inner}" for a, h, inner in sections)
    info = "".join(f"<div class='meta'>{html.escape(m)}</div>" for m in meta)
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>{info}<nav>{nav}</nav>{body}"
            "</body></html>\n")
