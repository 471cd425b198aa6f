"""The decisions a player is asked in step 2 and the scoring phase (spec §1.7), as typed tasks.

Each decision is a :class:`holotable.engine.Decision` on the game's task stack (``BHBData.tasks``)
and carries what its answer needs: the seat asked and, for a time-machine part, the card. It lists
its legal actions, checks an answer beyond the action's type, and carries the answer out; the rules
(:mod:`.rules`) only find the decision on top and hand it the action. The simultaneous pick of step 1
is no task: it is asked whenever nothing is pending (see ``BHBData.ask``). Rule IDs refer to the BHB spec.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from holotable.engine import Decision, IllegalActionError, Task, TaskStack

from . import actions as act
from . import cards as tb
from . import moves
from .actions import Action, Group, Laser, Relic, Take
from .data import Artifact, JunkType
from .moves import BHB, card_name, name, place_group, pull, scripted, threshold_name
from .state import EGG, GROUP, LASER, POOL, RING, TENTACLE, Laid


@dataclass(frozen=True, slots=True)
class PlacePart(Task[BHB]):
    """A time-machine part was laid out: ask for its group, unless only a new group is possible
    (BHB-CARD-TM-03)."""

    seat: int
    card: str

    def run(self, st: BHB, stack: TaskStack[BHB]) -> None:
        if tb.open_groups(st.data.tableaux[self.seat], self.card):
            stack.push(ChooseGroup(self.seat, self.card))
        else:
            place_group(st, self.seat, self.card, 0)


@dataclass(frozen=True, slots=True)
class Asked(Decision[BHB]):
    """A decision of one seat; ``kind`` is its name in views (``ask.kind``) and in ``BHBData.ask``."""

    seat: int
    kind: ClassVar[str] = ""

    def legal(self, st: BHB) -> Sequence[Action]:
        """The legal answers, in the order the game lists them."""
        raise NotImplementedError

    def answers(self, action: Action) -> bool:
        """Whether ``action`` is the kind of answer this decision waits for."""
        raise NotImplementedError

    def check(self, st: BHB, action: Action) -> None:
        """Refuse an answer of the right kind that the rules do not allow (nothing to refuse by default)."""

    def answer(self, st: BHB, action: Action) -> None:
        """Carry the answer out (the decision has been popped already)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class ChooseGroup(Asked):
    """DEC-TM-GROUP: which own group takes the part ``card``, or a new one (BHB-DEC-02)."""

    card: str
    kind: ClassVar[str] = GROUP

    def legal(self, st: BHB) -> Sequence[Action]:
        return [Group(0)] + [Group(g) for g in tb.open_groups(st.data.tableaux[self.seat], self.card)]

    def answers(self, action: Action) -> bool:
        return isinstance(action, Group)

    def check(self, st: BHB, action: Action) -> None:
        assert isinstance(action, Group)
        if action.group and action.group not in tb.open_groups(st.data.tableaux[self.seat], self.card):
            raise IllegalActionError(
                f"group {action.group} cannot take {self.card}: it already holds that part or does not exist",
                rule="BHB-CARD-TM-03")

    def answer(self, st: BHB, action: Action) -> None:
        assert isinstance(action, Group)
        place_group(st, self.seat, self.card, action.group)


@dataclass(frozen=True, slots=True)
class ChooseLaser(Asked):
    """DEC-LASER: the threshold card the Swiss Pocket Laser places (BHB-DEC-03)."""

    kind: ClassVar[str] = LASER

    def legal(self, st: BHB) -> Sequence[Action]:
        return [Laser(a) for a in act.LASER_CHOICES]

    def answers(self, action: Action) -> bool:
        return isinstance(action, Laser)

    def check(self, st: BHB, action: Action) -> None:
        assert isinstance(action, Laser)
        if action.amount not in act.LASER_CHOICES:
            raise IllegalActionError("the Laser places -4, -2, +2 or +4, never +3", rule="BHB-ART-LASER-01")

    def answer(self, st: BHB, action: Action) -> None:
        """Place the chosen threshold card; a plus card sends the Laser to the discards (BHB-ART-LASER-01..03)."""
        assert isinstance(action, Laser)
        d, seat, amount = st.data, self.seat, action.amount
        th = tb.THRESHOLD_IDS[amount]
        d.thresholds.append(th)
        if amount > 0:
            item = tb.laid(d, seat, tb.EFFECT_CARD["laser"])
            d.tableaux[seat].remove(item)
            d.discard.append(item.card)
        st.emit("laser", f"Swiss Pocket Laser: {name(seat)} places {threshold_name(th)} at the black hole"
                + (" and discards the Laser" if amount > 0 else ""), seat=seat, threshold=th, amount=amount)


@dataclass(frozen=True, slots=True)
class ChooseTentacle(Asked):
    """DEC-TENTACLE: which of the Titan Tentacle's cards (``BHBData.tentacle``) to lay out (BHB-DEC-04)."""

    kind: ClassVar[str] = TENTACLE

    def legal(self, st: BHB) -> Sequence[Action]:
        return [Take(c) for c in tb.sort_cards(st.data.tentacle)]

    def answers(self, action: Action) -> bool:
        return isinstance(action, Take)

    def check(self, st: BHB, action: Action) -> None:
        assert isinstance(action, Take)
        if action.card not in st.data.tentacle:
            raise IllegalActionError(f"{action.card} is not among the Tentacle's cards", rule="BHB-DEC-04")

    def answer(self, st: BHB, action: Action) -> None:
        """The pick is laid out face up; the rest is discarded face up (BHB-ART-TENTACLE-02/03)."""
        assert isinstance(action, Take)
        d, seat, card = st.data, self.seat, action.card
        st.reveal()  # the Tentacle's cards are laid out and discarded face up
        rest = [c for c in d.tentacle if c != card]
        d.tentacle = []
        d.discard.extend(rest)
        eff = tb.effect_of(card)
        suppressed = eff in tb.ON_REVEAL and not (eff == "gps" and st.config["gps_via_tentacle"])
        d.tableaux[seat].append(Laid(card, source="tentacle", laid_at=f"{d.round}.{d.turn}", suppressed=suppressed))
        d.revealed.append([seat, card, "tentacle"])
        st.emit("tentacle_take", f"{name(seat)} lays out {card_name(card)} with the Titan Tentacle and discards "
                f"{', '.join(card_name(c) for c in rest) or 'nothing'}", seat=seat, card=card, discarded=rest)
        if eff == "gps" and not suppressed:
            d.gps_next[seat] = True  # the AMB-14 alternative
        if tb.kind(card) is JunkType.TIME_MACHINE:
            d.tasks.push(PlacePart(seat, card))


@dataclass(frozen=True, slots=True)
class UseRelic(Asked):
    """DEC-EGG/POOL/RING: use (discard) the relic or keep it (BHB-DEC-05)."""

    #: The relic's name in :class:`~.actions.Relic` actions.
    relic: ClassVar[str] = ""

    def legal(self, st: BHB) -> Sequence[Action]:
        return [Relic(self.relic, True), Relic(self.relic, False)]

    def answers(self, action: Action) -> bool:
        return isinstance(action, Relic) and action.relic == self.relic

    def answer(self, st: BHB, action: Action) -> None:
        assert isinstance(action, Relic)
        self.resolve(st, action.use)

    def resolve(self, st: BHB, use: bool) -> None:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class UseEgg(UseRelic):
    """Step A: the Surprise Egg lays out the top card of the draw pile (BHB-REL-EGG)."""

    kind: ClassVar[str] = EGG
    relic: ClassVar[str] = "egg"

    def resolve(self, st: BHB, use: bool) -> None:
        seat = self.seat
        if not use:
            st.emit("egg", f"{name(seat)} keeps the Surprise Egg", seat=seat, used=False)
            return
        _discard(st, seat, "surprise_egg")
        card = pull(st)
        st.emit("egg", f"{name(seat)} discards the Surprise Egg and reveals {card_name(card)} from the draw pile",
                seat=seat,
                used=True, card=card)
        if card is not None:
            lay_scoring(st, seat, card, "egg")


@dataclass(frozen=True, slots=True)
class UsePool(UseRelic):
    """Step B: the Alien Wading Pool lays out a random black-hole card (BHB-REL-POOL)."""

    kind: ClassVar[str] = POOL
    relic: ClassVar[str] = "pool"

    def resolve(self, st: BHB, use: bool) -> None:
        d, seat = st.data, self.seat
        if not use:
            st.emit("pool", f"{name(seat)} keeps the Alien Wading Pool", seat=seat, used=False)
            return
        _discard(st, seat, "wading_pool")
        card = scripted(st, "pool", tb.sort_cards(d.bh_pile))  # BHB-REL-POOL-02: uniform
        st.reveal()
        i = d.bh_pile.index(card)
        d.bh_pile.pop(i)
        d.bh_from.pop(i)
        st.emit("pool", f"{name(seat)} discards the Alien Wading Pool and takes {card_name(card)} from the black hole",
                seat=seat, used=True, card=card)
        lay_scoring(st, seat, card, "pool")


@dataclass(frozen=True, slots=True)
class UseRing(UseRelic):
    """Step D: discarding the One Ring (BHB-REL-RING)."""

    kind: ClassVar[str] = RING
    relic: ClassVar[str] = "ring"

    def resolve(self, st: BHB, use: bool) -> None:
        seat = self.seat
        if use:
            _discard(st, seat, "one_ring")  # face up (AMB-41)
            moves.on_one_ring_discarded(st, seat)
        st.emit("ring", f"{name(seat)} {'discards' if use else 'keeps'} the One Ring", seat=seat, used=use)


def _discard(st: BHB, seat: int, effect: str) -> None:
    """The relic with ``effect`` leaves ``seat``'s tableau for the discards."""
    d = st.data
    item = tb.laid(d, seat, tb.EFFECT_CARD[effect])
    d.tableaux[seat].remove(item)
    d.discard.append(item.card)


def lay_scoring(st: BHB, seat: int, card: str, source: str) -> None:
    """A card from the Egg or the Pool: face up, robots upright, artifacts ignored (BHB-REL-EGG-03..05)."""
    d = st.data
    artifact = isinstance(tb.CARDS[card], Artifact)
    item = Laid(card, source=source, laid_at=f"{d.round}.{d.step}", suppressed=artifact)
    if artifact and st.config["egg_pool_ignore"] == "on_reveal" and tb.effect_of(card) in tb.ONGOING:
        item.suppressed, item.active = False, True  # the AMB-18 alternative
    d.tableaux[seat].append(item)
    st.emit("lay_scoring", f"{name(seat)} lays out {card_name(card)}", seat=seat, card=card,
            source=source)
    if tb.kind(card) is JunkType.TIME_MACHINE:
        d.tasks.push(PlacePart(seat, card))
    if not artifact and st.config["scoring_triggers"]:
        moves.apply_triggers(st, [[seat, card, source]])  # AMB-19
