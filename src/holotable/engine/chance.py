"""Scripted chance: outcomes a scenario fixes in advance, taken in order by event name.

A scenario file's ``"chance"`` entry lists, per chance event the game names (a draw, a
shuffle, a die, a flick, the token drawn from a bag), the outcomes the next such events
must have. The script travels on the :class:`~holotable.engine.state.State` (``st.script``),
is cloned with it and dropped by determinisation (a search must not know the future). The
game asks at each chance point; an event the script does not cover uses the RNG exactly as
it would without a script, so the draws of everything unscripted stay the same.

>>> from holotable.engine import State, load
>>> st = load("captain-black").new_state(players=2, seed=1, start_seat=0)
>>> st.script_chance({"draw": [1]})
>>> st.apply("draw 2")
>>> st.data.last_draw.black
1

A script is never changed in place (taking an outcome builds a new mapping), so a clone
shares it for free and the unscripted hot path pays one truth test.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableSequence
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import ScenarioError

if TYPE_CHECKING:
    from .state import State

T = TypeVar("T")

#: Outcomes by event name, first outcome first.
Script = Mapping[str, tuple[Any, ...]]
#: Checks one scripted outcome (``where`` names it, e.g. ``chance.die[2]``) and returns it
#: normalised; raises :class:`ScenarioError` naming ``where``.
Check = Callable[[Any, str], Any]

class _NoScript(dict[str, tuple[Any, ...]]):
    """The empty script every unscripted state shares: it refuses changes (so sharing it is safe)
    and, unlike a ``MappingProxyType``, it pickles (states travel to the server's bot processes)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("the shared empty script is never changed (build a new mapping)")

    __setitem__ = __delitem__ = update = setdefault = pop = popitem = clear = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_no_script, ())


def _no_script() -> Script:
    return NO_SCRIPT


#: The script of every state that has none.
NO_SCRIPT: Script = _NoScript()


def parse(chance: object, checks: Mapping[str, Check]) -> Script:
    """Validate a scenario's ``"chance"`` object against the game's events (``checks``).

    >>> parse({"die": [3, 5]}, {"die": lambda v, where: v})
    {'die': (3, 5)}
    >>> parse({"dice": [3]}, {"die": lambda v, where: v})
    Traceback (most recent call last):
    ...
    holotable.engine.errors.ScenarioError: chance: unknown event(s) ['dice']; this game scripts ['die']
    """
    if not isinstance(chance, Mapping):
        raise ScenarioError(f"chance must be an object {{event: [outcomes]}}, got {type(chance).__name__}")
    unknown = sorted(set(chance) - set(checks))
    if unknown:
        if not checks:
            raise ScenarioError(f"chance: this game has no chance events to script (got {unknown})")
        raise ScenarioError(f"chance: unknown event(s) {unknown}; this game scripts {sorted(checks)}")
    script: dict[str, tuple[Any, ...]] = {}
    for event, outcomes in chance.items():
        if not isinstance(outcomes, list):
            raise ScenarioError(f"chance.{event} must be a list of outcomes, first first")
        if outcomes:
            script[event] = tuple(checks[event](v, f"chance.{event}[{i}]") for i, v in enumerate(outcomes))
    return script


def take(st: State[Any, Any], event: str) -> Any:
    """The next scripted outcome of ``event`` (removed from the script), or ``None``."""
    script = st.script
    queue = script.get(event)
    if not queue:
        return None
    rest = dict(script)
    if len(queue) > 1:
        rest[event] = queue[1:]
    else:
        del rest[event]
    st.script = rest
    return queue[0]


def pick(st: State[Any, Any], event: str, options: list[T]) -> T:
    """A uniformly random member of ``options`` (one ``randrange``), or the scripted one.

    A scripted outcome that is not among ``options`` raises :class:`ScenarioError`: a
    scenario that meant something impossible must fail, not quietly roll the dice.
    """
    if st.script:
        wanted = take(st, event)
        if wanted is not None:
            if wanted not in options:
                raise ScenarioError(f"chance.{event}: the scripted {wanted!r} is not possible now "
                                    f"(possible: {options})")
            return wanted  # type: ignore[no-any-return]
    return options[st.rng.randrange(len(options))]


def shuffle(st: State[Any, Any], event: str, items: MutableSequence[Any], *, top_last: bool = False) -> None:
    """Shuffle ``items`` in place with the state's RNG, or put them in the scripted order.

    A script lists a pile as the game's own arrangement keys do; ``top_last`` marks a pile kept
    with its top card last (taken with ``pop()``) that the script lists top first.
    """
    if st.script:
        order = take(st, event)
        if order is not None:
            if sorted(order) != sorted(items):
                raise ScenarioError(f"chance.{event}: the scripted order {list(order)} is not an order of "
                                    f"{sorted(items)}")
            items[:] = list(reversed(order)) if top_last else list(order)
            return
    st.rng.shuffle(items)


def integer(low: int, high: int | None = None) -> Check:
    """A check for integer outcomes in ``low .. high`` (no upper bound when ``high`` is ``None``)."""

    def check(value: Any, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
            span = f"{low} .. {high}" if high is not None else f">= {low}"
            raise ScenarioError(f"{where}: expected an integer {span}, got {value!r}")
        return value

    return check


def text(value: Any, where: str) -> str:
    """A check for outcomes named by text (a card id, a token face)."""
    if not isinstance(value, str) or not value:
        raise ScenarioError(f"{where}: expected a name (text), got {value!r}")
    return value


def order(item: Check) -> Check:
    """A check for a shuffle's result: a list of items (each checked by ``item``), first first."""

    def check(value: Any, where: str) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise ScenarioError(f"{where}: expected the shuffled order as a list, got {value!r}")
        return tuple(item(v, f"{where}[{i}]") for i, v in enumerate(value))

    return check
