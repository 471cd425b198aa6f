"""``holotable data GAME``: every value a designer can change without editing files, and ``--set``.

A game's parameters (``--param``/``--set name=value``) and the values of its data files
(``--set path=value``, e.g. ``--set planets.RED-A.points=3``) are listed with their shipped value
and the spec's ambiguity record (ASSUMED) behind them; see docs/data-overrides.md.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from holotable.engine import ConfigError, Game, split_settings

from .common import load_game, out_console, parse_params, user_errors

SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        help="A game parameter or a data value as key=value (repeatable), e.g. planets.RED-A.points=3; "
        "`holotable data GAME` lists the keys.",
    ),
]


def merge_settings(game: Game[Any, Any], param: Sequence[str] | None, settings: Sequence[str] | None) -> dict[str, Any]:
    """The ``--param`` and ``--set`` options as ``make_config`` keywords: parameters by name, data
    overrides under ``data``. A key given twice, or one that is neither, raises :class:`ConfigError`."""
    params = parse_params(param)
    try:
        given = parse_params(settings)
    except ConfigError as exc:
        raise ConfigError(str(exc).replace("--param", "--set")) from None
    twice = sorted(set(params) & set(given))
    if twice:
        raise ConfigError(f"set both with --param and --set: {', '.join(twice)}")
    more, data = split_settings(game, given)
    params.update(more)
    if data:
        params["data"] = data
    return params


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value)
    return json.dumps(value) if isinstance(value, bool | str) else str(value)


def _range(bounds: list[Any] | None) -> str:
    """``0.0005 to 0.02``; an open end as ``…``; empty for no range."""
    if bounds is None:
        return ""
    low, high = ("…" if b is None else f"{b:g}" for b in bounds)
    return f"{low} to {high}"


def data_rows(game: Game[Any, Any], assumed_only: bool = False, match: str | None = None) -> list[dict[str, Any]]:
    """One row per settable key: parameters first, then the data values in file order."""
    rows: list[dict[str, Any]] = []
    for p in game.spec.params:
        rows.append({"key": p.name, "source": "param", "kind": p.kind, "value": p.default,
                     "assumed": [p.assumed] if p.assumed else [], "help": p.doc,
                     "range": None if p.minimum is None and p.maximum is None else [p.minimum, p.maximum]})
    for key in game.spec.data_keys().values():
        rows.append({"key": key.path, "source": "data", "kind": key.kind, "value": key.value,
                     "assumed": list(key.assumed), "help": key.help,
                     "range": None if key.limits is None else list(key.limits)})
    if assumed_only:
        rows = [r for r in rows if r["assumed"]]
    if match:
        needle = match.lower()
        rows = [r for r in rows if needle in r["key"].lower() or needle in r["help"].lower()
                or any(needle in a.lower() for a in r["assumed"])]
    return rows


def data_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    assumed: Annotated[bool, typer.Option("--assumed", help="Only values marked ASSUMED (a spec record).")] = False,
    match: Annotated[str | None, typer.Option("--match", "-m", help="Only keys, records or help with this.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List what `--set key=value` can change: game parameters and every value of the game's data files."""
    with user_errors():
        game = load_game(game_name)
        rows = data_rows(game, assumed, match)
    if as_json:
        payload = [{**r, "value": list(r["value"]) if isinstance(r["value"], tuple) else r["value"]} for r in rows]
        typer.echo(json.dumps(payload, indent=1))
        return
    n_data = sum(r["source"] == "data" for r in rows)
    table = Table(title=f"{game.spec.title}: {len(rows) - n_data} parameter(s), {n_data} data value(s)",
                  box=box.SIMPLE_HEAVY)
    for name in ("Key", "Kind", "Value", "Range", "ASSUMED", "About"):
        table.add_column(name, no_wrap=name in ("Key", "Kind"), overflow="fold")
    for r in rows:
        table.add_row(escape(r["key"]), r["kind"], escape(_text(r["value"])), _range(r["range"]),
                      ", ".join(r["assumed"]), escape(r["help"]))
    out_console().print(table)
    if game.spec.data is None:
        out_console().print(f"{game.spec.title} offers no data values to override; its parameters are above.")
