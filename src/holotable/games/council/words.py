"""Council's table talk in the words a player reads: one line per suggestion, pledge, request, claim or
chat message, built from the talk record (``rules.talk_record``), never from the action's typed text.

The log line of a talk event and the terminal's live line are the same sentence; the terminal only names
the viewer "you" and the log a planet by its colour and points.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from holotable.engine.words import seat_name

from .data import OUTCOMES

OUTCOME_TITLES = {"settle": "Settle", "tax": "Tax", "mine": "Mine", "conquer": "Conquer", "black_hole": "Black Hole"}


def _swapped(record: Mapping[str, Any]) -> tuple[str, str] | None:
    """The two outcomes a swap suggestion or pledge names: where ``wants`` differs from ``table``."""
    table, wants = record.get("table") or [], record.get("wants") or []
    moved = [OUTCOME_TITLES[o] for o, a, b in zip(OUTCOMES, table, wants, strict=False) if a != b]
    return (moved[0], moved[1]) if len(moved) == 2 else None


def _laid(record: Mapping[str, Any], planet: Callable[[str], str]) -> str:
    wants = record.get("wants") or []
    return ", ".join(f"{OUTCOME_TITLES[o]}: {planet(p)}" for o, p in zip(OUTCOMES, wants, strict=False))


def talk_line(record: Mapping[str, Any], name: Callable[[int], str] = seat_name,
              planet: Callable[[str], str] = str) -> str:
    """``Seat 2 pledges to vote pass if the Leader swaps Tax and Mine``; ``Seat 1 says: “hello”``."""
    who = name(int(record["seat"]))
    kind = record.get("kind")
    text = str(record.get("text", ""))
    if kind == "say":
        return f"{who} says: “{text[3:].strip()}”"
    swap = _swapped(record)
    if kind == "suggest":
        return f"{who} suggests swapping {swap[0]} and {swap[1]}" if swap else f"{who} suggests keeping the table"
    if kind == "suggest table":
        return f"{who} suggests the table {_laid(record, planet)}"
    if kind in ("support", "oppose"):
        return f"{who} says they will vote {'pass' if kind == 'support' else 'fail'} on this table"
    if kind == "pledge":
        vote = record.get("vote", "pass")
        if " swap " in f" {text} ":
            return f"{who} pledges to vote {vote} if the Leader swaps {swap[0]} and {swap[1]}" if swap \
                else f"{who} pledges to vote {vote} on this table"
        return f"{who} pledges to vote {vote} if the Leader lays out the table {_laid(record, planet)}"
    if kind == "ask":
        return f"{who} asks the Leader for a {record.get('coins')}-coin bribe"
    if kind == "claim":
        about = record.get("about")
        outcome = OUTCOME_TITLES.get(str(record.get("outcome")), str(record.get("outcome")))
        whose = "?'s" if about is None else f"{name(int(about))}'s"
        if about is not None and int(about) == int(record["seat"]):
            whose = "their own"
        return f"{who} claims {whose} Agenda wants {record.get('colour')} on {outcome}"
    return f"{who}: {text}"
