"""Typed errors. Every error a user can cause is a :class:`HolotableError`.

Action errors subclass :class:`ValueError` (as python-chess does) so callers that
only care about "bad input" can catch that.
"""

from __future__ import annotations


class HolotableError(Exception):
    """Base class of every error holotable raises on purpose."""


class UnknownGameError(HolotableError, KeyError):
    """No game is registered under that name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"


class ConfigError(HolotableError, ValueError):
    """A game configuration is invalid (unknown parameter, bad value, bad player count)."""


class ActionError(HolotableError, ValueError):
    """An action was refused. The state it was offered to is unchanged."""

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(f"{message} [{rule}]" if rule else message)
        self.reason = message
        #: The rule ID (from the game's spec) the action breaks, when there is one.
        self.rule = rule


class MalformedActionError(ActionError):
    """The action could not be understood at all (bad text, bad index, wrong type)."""


class IllegalActionError(ActionError):
    """The action is well formed but the rules do not allow it now."""


class NotYourTurnError(IllegalActionError):
    """The seat is not asked for a decision now."""


class GameOverError(IllegalActionError):
    """The game has ended; no further action is accepted."""


class SaveError(HolotableError, ValueError):
    """A saved match could not be read: corrupt file, unknown format, or a log that does not replay."""


class DataError(HolotableError, ValueError):
    """A game's data file is missing or invalid."""


class ScenarioError(HolotableError, ValueError):
    """A scenario could not be used: bad file or field, an arrangement the game refuses
    (unknown key, wrong type, impossible values), or a scripted action that was refused."""
