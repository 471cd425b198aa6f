"""Shared helpers for the Kyrum campaign-store, partner, terminal and CLI tests."""

from __future__ import annotations

import random
from typing import Any

from holotable.games.kyrum.store import Campaign


def choose(state: Any, rng: random.Random, *, message: str = "") -> str:
    """A simple scripted player: any legal action but conceding, leaving areas now and then.

    A partner message names the game it was written in, so tests can tell messages apart.
    """
    legal = [a for a in state.legal_actions() if a.verb != "concede"]
    if state.data.decision is None and rng.random() < 0.3 and any(a.verb == "leave" for a in legal):
        return "leave"
    action = rng.choice(legal)
    if action.verb == "send":
        return f"send {message or 'word from game'} {state.data.game}"
    return str(action)


def play_game(camp: Campaign, rng: random.Random, *, stop: Any = None, message: str = "") -> list[str]:
    """Play the running game (starting the next one if none runs) to its end, or until ``stop(state)``."""
    if camp.match is None:
        camp.start_game()
    played = []
    while camp.match is not None:
        if stop is not None and stop(camp.match.state):
            break
        action = choose(camp.match.state, rng, message=message)
        camp.play(action)
        played.append(action)
    return played


def waiting_for(kind: str) -> Any:
    def stop(state: Any) -> bool:
        return state.data.decision is not None and state.data.decision.kind == kind

    return stop
