"""Toy games that leak a secret on purpose, one channel each, to show that every side-channel check
of :mod:`holotable.testing.side_channels` can fail.

Each is :class:`~holotable.testing.toys.Shells` (six shells hiding two gems) with one flaw:

* :class:`NumberedShells`: every shell carries a number printed on its back, and the numbers are
  the faces' (shells 0 and 1 always hide the gems; only where they lie is shuffled), as Space
  Pirates' token ids once were. Its determinisation re-deals the faces under the numbers as if
  they meant nothing: caught by ``check_hidden_faces_vary``.
* :class:`ShellsThatFollowTheirNumbers`: numbered shells again, but a determinisation moves the
  shells themselves (number and face together), so the number shown at a place changes:
  caught by ``check_relabelled_channels``.
* :class:`ShellsWithTheSeed`: the view names the table by its seed: caught by
  ``check_no_seed_in_outputs`` (and by ``check_relabelled_channels``, the seed changed).
* :class:`ShellsThatTell`: a ``knock`` starts the game, and the log tells everyone what lies under
  every shell: caught by ``check_logs_follow_views``.
* :class:`ShellsThatRemember`: a determinisation shuffles the hidden faces from their true order:
  caught by ``check_samples_know_only_the_seat``.
* :class:`QuietShells`: lifting a shell never calls ``state.reveal()``, so the undo policy would
  let a lift be taken back: caught by ``check_reveals_are_declared``.
* :class:`ShellsWithHints`: the legal actions list only the shells that hide rocks: caught by
  ``check_relabelled_channels`` (the ``legal`` channel).
* :class:`ShellsWithAnRlHint`: the RL observation's fast path reads where the hidden gems lie once
  the game is under way: caught by ``check_relabelled_channels`` (the ``rl`` channel).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from holotable.engine import Config, GameSpec, IllegalActionError, Rng, State

from .toys import ShellData, Shells

__all__ = [
    "LEAKY_GAMES",
    "NumberedShellData",
    "NumberedShells",
    "QuietShells",
    "ShellsThatFollowTheirNumbers",
    "ShellsThatRemember",
    "ShellsThatTell",
    "ShellsWithAnRlHint",
    "ShellsWithHints",
    "ShellsWithTheSeed",
]


def _spec(name: str, title: str) -> GameSpec:
    return dataclasses.replace(Shells.spec, name=f"test-shells-{name}", title=f"Shells ({title}, test)")


# ---------------------------------------------------------------------------- numbered shells


@dataclass
class NumberedShellData:
    #: By shell number: its face (fixed by the number) and where it lies, or ``None`` once lifted.
    faces: list[str]
    where: list[int | None]
    scores: list[int]
    turn: int = 0


class NumberedShells(Shells):
    """Shells numbered on their backs: number ``k`` always hides the same face; positions are shuffled."""

    spec: ClassVar[GameSpec] = _spec("numbered", "numbered backs")

    def setup(self, config: Config, rng: Rng) -> Any:
        n, gems = config["shells"], min(config["gems"], config["shells"] - 1)
        faces = ["gem"] * gems + ["rock"] * (n - gems)
        return NumberedShellData(faces, list(rng.shuffled(range(n))), [0] * config.players)

    def copy_data(self, data: Any) -> Any:
        return NumberedShellData(data.faces[:], data.where[:], data.scores[:], data.turn)

    def _at(self, d: NumberedShellData, position: int) -> int:
        return d.where.index(position)

    def to_move(self, st: State[Any, int]) -> tuple[int, ...]:
        return () if all(w is None for w in st.data.where) else (st.data.turn,)

    def legal_actions(self, st: State[Any, int], seat: int) -> Sequence[int]:
        return sorted(w for w in st.data.where if w is not None)

    def apply(self, st: State[Any, int], seat: int, action: int) -> None:
        d = st.data
        k = self._at(d, action)
        d.where[k] = None
        st.reveal()
        if d.faces[k] == "gem":
            d.scores[seat] += 1
        st.emit("lift", f"seat {seat} lifts shell number {k}: {d.faces[k]}", seat=seat, number=k)
        d.turn = (seat + 1) % st.players

    def is_terminal(self, st: State[Any, int]) -> bool:
        return all(w is None for w in st.data.where)

    def view(self, st: State[Any, int], seat: int | None) -> dict[str, Any]:
        d = st.data
        down = sorted((w, k) for k, w in enumerate(d.where) if w is not None)
        return {"shells": [{"position": w, "number": k} for w, k in down], "scores": list(d.scores), "turn": d.turn}

    def full(self, st: State[Any, int]) -> dict[str, Any]:
        d = st.data
        return {"tokens": [{"face": f, "where": w} for f, w in zip(d.faces, d.where, strict=True)],
                "scores": list(d.scores), "turn": d.turn}

    def determinize(self, st: State[Any, int], seat: int, rng: Rng) -> None:
        # The flaw: the faces under the numbers are re-dealt as if the numbers meant nothing.
        d = st.data
        down = [k for k, w in enumerate(d.where) if w is not None]
        faces = rng.shuffled(sorted(d.faces[k] for k in down))
        for k, face in zip(down, faces, strict=True):
            d.faces[k] = face


class ShellsThatFollowTheirNumbers(NumberedShells):
    """Numbered shells whose determinisation moves the shells themselves, numbers and all."""

    spec: ClassVar[GameSpec] = _spec("follow", "numbers that follow their shells")

    def determinize(self, st: State[Any, int], seat: int, rng: Rng) -> None:
        d = st.data
        down = [k for k, w in enumerate(d.where) if w is not None]
        places = rng.shuffled(sorted(d.where[k] for k in down))
        for k, place in zip(down, places, strict=True):
            d.where[k] = place


# ---------------------------------------------------------------------------- one flaw each


class ShellsWithTheSeed(Shells):
    spec: ClassVar[GameSpec] = _spec("seed", "the seed in the view")

    def view(self, st: State[ShellData, int], seat: int | None) -> dict[str, Any]:
        return {**super().view(st, seat), "table": f"shells table #{st.seed}"}


KNOCK = -1
#: The knock's integer index: after every shell a table can hold.
KNOCK_INDEX: int = Shells.spec.param("shells").maximum  # type: ignore[assignment]


class ShellsThatTell(Shells):
    """A knock opens the game, and the log tells everyone what every shell hides."""

    spec: ClassVar[GameSpec] = _spec("tell", "a log that tells")

    def legal_actions(self, st: State[ShellData, int], seat: int) -> Sequence[int]:
        return [KNOCK] if st.ply == 0 else super().legal_actions(st, seat)

    def check(self, st: State[ShellData, int], seat: int, action: int) -> None:
        if action not in self.legal_actions(st, seat):
            raise IllegalActionError(f"{self.action_to_str(action)} is not possible now", rule="TEST-SHELL-01")

    def apply(self, st: State[ShellData, int], seat: int, action: int) -> None:
        if action == KNOCK:
            st.emit("knock", "knock knock: the shells hide " + " ".join(st.data.faces))  # the flaw
            return
        super().apply(st, seat, action)

    def action_to_str(self, action: int) -> str:
        return "knock" if action == KNOCK else super().action_to_str(action)

    def parse_action(self, text: str) -> int:
        return KNOCK if text.strip() == "knock" else super().parse_action(text)

    def num_actions(self, config: Config) -> int:
        return KNOCK_INDEX + 1

    def action_index(self, action: int) -> int:
        return KNOCK_INDEX if action == KNOCK else action

    def index_action(self, index: int) -> int:
        return KNOCK if index == KNOCK_INDEX else index


class ShellsThatRemember(Shells):
    spec: ClassVar[GameSpec] = _spec("remember", "samples that remember")

    def determinize(self, st: State[ShellData, int], seat: int, rng: Rng) -> None:
        d = st.data
        down = [p for p, up in enumerate(d.lifted) if not up]
        faces = [d.faces[p] for p in down]  # the flaw: shuffled from the true order, not a sorted one
        rng.shuffle(faces)
        for p, face in zip(down, faces, strict=True):
            d.faces[p] = face


class QuietShells(Shells):
    spec: ClassVar[GameSpec] = _spec("quiet", "lifts that reveal quietly")

    def lift(self, st: State[ShellData, int], seat: int, position: int) -> str:
        d = st.data
        d.lifted[position] = True  # the flaw: no st.reveal()
        if d.faces[position] == "gem":
            d.scores[seat] += 1
        return d.faces[position]


class ShellsWithHints(Shells):
    spec: ClassVar[GameSpec] = _spec("hints", "legal actions that hint")

    def legal_actions(self, st: State[ShellData, int], seat: int) -> Sequence[int]:
        down = super().legal_actions(st, seat)
        rocks = [p for p in down if st.data.faces[p] == "rock"]  # the flaw
        return rocks or list(down)


class ShellsWithAnRlHint(Shells):
    """Its RL fast path (:func:`rl_hint_encoder`, its manifest's encoder) reads where the hidden gems lie."""

    spec: ClassVar[GameSpec] = _spec("rl-hint", "an RL observation that hints")


def rl_hint_encoder() -> Any:
    """:class:`ShellsWithAnRlHint`'s encoder, an ``EncoderSpec`` to register it with (needs
    :mod:`holotable.rl`): the view path is sound; the fast path, held to it only at the opening, tells
    where the hidden gems lie from the second move on."""
    from holotable.rl.encoding import EncoderSpec

    size = 1 + KNOCK_INDEX

    def view_fn(config: Config) -> Callable[[Any], list[float]]:
        def encode(view: Any) -> list[float]:
            out = [0.0] * size
            for shell in view["shells"]:
                out[shell["position"]] = 0.0 if shell["face"] is None else 1.0
            return out

        return encode

    def state_fn(config: Config) -> Callable[[State[ShellData, int], int], Any]:
        encode = view_fn(config)

        def fast(state: State[ShellData, int], seat: int) -> Any:
            import numpy as np

            out = encode(state.view(seat))
            if state.ply > 0:
                d = state.data  # the flaw: where the hidden gems lie, summed into one number
                out[-1] = sum(p for p, face in enumerate(d.faces) if face == "gem" and not d.lifted[p]) / 100.0
            return np.asarray(out, dtype=np.float32)

        return fast

    return EncoderSpec(view_fn, size, state_factory=state_fn)


#: Each leaky toy with the check that must catch it.
LEAKY_GAMES: tuple[tuple[Shells, str], ...] = (
    (NumberedShells(), "check_hidden_faces_vary"),
    (ShellsThatFollowTheirNumbers(), "check_relabelled_channels"),
    (ShellsWithTheSeed(), "check_no_seed_in_outputs"),
    (ShellsThatTell(), "check_logs_follow_views"),
    (ShellsThatRemember(), "check_samples_know_only_the_seat"),
    (QuietShells(), "check_reveals_are_declared"),
    (ShellsWithHints(), "check_relabelled_channels"),
    (ShellsWithAnRlHint(), "check_relabelled_channels"),
)
