"""The Buccaneers heuristic bot and its rollout policy: legal, blind to secrets, and clearly better than random.

Decisions exercised: BHB-DEC-01 (choose), BHB-DEC-02 (time-machine group), BHB-DEC-03 (Laser),
BHB-DEC-04 (Tentacle), BHB-DEC-05 (Egg/Pool/Ring); hidden information per BHB-INFO-04.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

import pytest

import holotable
from holotable.agents import agent_names, make_agent, observe
from holotable.agents.rollout import game_rollout
from holotable.engine import Rng, State
from holotable.games.buccaneers import bots
from holotable.games.buccaneers.actions import Group, Laser, Play, Relic, Take
from holotable.sim.runner import play_game

GAME = holotable.load("buccaneers")


def arranged(players: int, arrangement: Mapping[str, Any], **params: Any) -> State[Any, Any]:
    st = GAME.new_state(players=players, seed=0, **params)
    st.arrange(dict(arrangement))
    return st


def decide(st: State[Any, Any], seat: int, seed: int = 0) -> Any:
    return make_agent("heuristic", GAME, seed=seed).act(observe(st, seat))


def play_all(st: State[Any, Any], *cards: str) -> None:
    for seat, card in enumerate(cards):
        st.apply(f"play {card}", seat)


# ---------------------------------------------------------------------------- registration and legality


def test_the_heuristic_and_the_rollout_are_registered() -> None:
    assert "heuristic" in agent_names("buccaneers")
    assert isinstance(make_agent("heuristic", GAME), bots.BuccaneersHeuristic)
    rollout = game_rollout("buccaneers")
    assert rollout is not None and rollout.policy is bots.rollout_move


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_BHB_DEC_01_to_05_heuristic_only_plays_legal_actions(players: int) -> None:
    """Whole games of heuristic bots at every player count: every action is one of the legal ones."""
    kinds = set()
    for seed in range(2):
        st = GAME.new_state(players=players, seed=seed)
        agents = [make_agent("heuristic", GAME, seed=s) for s in range(players)]
        while not st.is_terminal():
            seat = st.to_move()[0]
            action = agents[seat].act(observe(st, seat))
            assert action in st.legal_actions(seat)
            kinds.add(type(action).__name__)
            st.apply(action, seat)
        assert len(st.data.pad) == 3
    assert "Play" in kinds


def test_rollout_moves_are_legal_and_standing_values_are_utilities() -> None:
    rng = Rng(5)
    for seed in range(4):
        st = GAME.new_state(players=3 + seed % 4, seed=seed)
        while not st.is_terminal():
            seat = st.to_move()[0]
            action = bots.rollout_move(st, seat, rng)
            assert action in st.legal_actions(seat)
            st.apply(action, seat)
            values = bots.standing_value(st)
            assert all(0.0 <= v <= 1.0 for v in values)
            # Each pair's chances of being ahead add to one, so the utilities add to n / 2.
            assert math.isclose(sum(values), st.players / 2)
        final = bots.standing_value(st)
        order = sorted(range(st.players), key=lambda s: -st.data.scores[s])
        assert final[order[0]] >= final[order[-1]]


def test_ismcts_with_the_rollout_picks_a_legal_card() -> None:
    st = GAME.new_state(players=4, seed=2)
    agent = make_agent("ismcts", GAME, seed=1, iterations=40)
    assert agent.act(observe(st, 0)) in st.legal_actions(0)


# ---------------------------------------------------------------------------- strength


def test_heuristic_beats_three_random_players_clearly() -> None:
    """24 seeded 4-player games, the heuristic in each seat in turn (random wins about 1 in 4)."""
    wins = 0.0
    mine = others = 0.0
    games = 24
    for seed in range(games):
        hero = seed % 4
        agents = [make_agent("heuristic" if s == hero else "random", GAME, seed=seed * 10 + s) for s in range(4)]
        st, _ = play_game(GAME, GAME.spec.make_config(4), seed, agents)
        outcome = st.outcome()
        if hero in outcome.winners:
            wins += 1 / len(outcome.winners)
        mine += outcome.scores[hero]
        others += (sum(outcome.scores) - outcome.scores[hero]) / 3
    assert wins / games >= 0.5
    assert mine / games >= others / games + 10


# ---------------------------------------------------------------------------- hidden information


def _decision_points(seed: int, players: int) -> list[tuple[State[Any, Any], int]]:
    """Positions from a random game where some seat is asked (every kind of decision occurs)."""
    st = GAME.new_state(players=players, seed=seed)
    rng = random.Random(seed)
    out = []
    while not st.is_terminal():
        asked = st.to_move()
        seat = asked[0]
        if rng.random() < 0.3 or st.data.ask[0] != "choose":
            out.append((st.clone(), seat))
        legal = st.legal_actions(seat)
        st.apply(legal[rng.randrange(len(legal))], seat)
    return out


def test_BHB_INFO_04_decisions_do_not_depend_on_what_the_seat_cannot_see() -> None:
    """Re-dealing everything the seat cannot see (others' hands and face-down toys, the draw pile,
    the black-hole pile, later black holes) never changes the bot's choice."""
    kinds = set()
    redealt = 0
    for seed in range(3):
        for st, seat in _decision_points(seed, 4):
            kinds.add(st.data.ask[0])
            real = decide(st, seat)
            for k in range(3):
                other = st.determinize(seat, Rng(seed * 100 + k))
                if other.data.hands != st.data.hands or other.data.draw != st.data.draw:
                    redealt += 1
                assert decide(other, seat) == real
    assert redealt > 0
    assert {"choose", "group"} <= kinds


def test_the_bot_never_samples_or_reads_the_true_state() -> None:
    class Blind:
        """An observation with the view and legal actions only: any other access fails."""

        def __init__(self, st: State[Any, Any], seat: int) -> None:
            self.view = st.view(seat)
            self.legal = st.legal_actions(seat)
            self.config = st.config
            self.seat = seat
            self.game = GAME

        def sample_state(self, rng: Rng) -> Any:
            raise AssertionError("the heuristic must not sample states")

    for st, seat in _decision_points(7, 5)[:40]:
        assert make_agent("heuristic", GAME).act(Blind(st, seat)) == decide(st, seat)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- sensible choices


def test_BHB_DEC_01_takes_a_light_card_when_the_next_heavy_one_would_pull_it_in() -> None:
    # Last turn (two cards each): 22 weight laid out against threshold 18 (BH-M2) + one black-hole card.
    heavy = [{"card": "SHIP-11"}, {"card": "SHIP-12"}, {"card": "TOY-5-5"}]
    hands = [["SHIP-14", "ROBOT-4-2-a"], ["SHIP-07", "TOY-1-2"], ["SHIP-08", "TOY-2-2"]]
    st = arranged(3, {"phase": "selection", "hands": hands, "tableaux": [heavy, [], []], "turn": 5},
                  setup="first_game")
    assert decide(st, 0) == Play("ROBOT-4-2-a")
    # With an empty tableau the valuable spaceship fits easily.
    roomy = arranged(3, {"phase": "selection", "hands": hands, "turn": 5}, setup="first_game")
    assert decide(roomy, 0) == Play("SHIP-14")


def test_BHB_DEC_01_completes_a_time_machine() -> None:
    group = [{"card": c, "group": 1, "turns": 2} for c in ("TM-CC-1", "TM-RS-1", "TM-QC-1")]
    hands = [["TM-WE-1", "TOY-3-3", "SHAPE-4-a"], ["SHIP-07", "TOY-1-2", "ROBOT-4-2-b"],
             ["SHIP-08", "TOY-2-2", "ROBOT-4-2-c"]]
    st = arranged(3, {"phase": "selection", "hands": hands, "tableaux": [group, [], []], "turn": 4},
                  setup="first_game")
    assert decide(st, 0) == Play("TM-WE-1")


def test_BHB_DEC_02_adds_a_part_to_the_group_that_gains_most() -> None:
    tableau = [{"card": "TM-CC-1", "group": 1, "turns": 1}, {"card": "TM-RS-1", "group": 1, "turns": 1},
               {"card": "TM-QC-1", "group": 2}]
    hands = [["TM-WE-1", "TOY-3-3", "SHAPE-4-a"], ["SHIP-07", "TOY-1-2", "ROBOT-4-2-b"],
             ["SHIP-08", "TOY-2-2", "ROBOT-4-2-c"]]
    st = arranged(3, {"phase": "selection", "hands": hands, "tableaux": [tableau, [], []], "turn": 4},
                  setup="first_game")
    play_all(st, "TM-WE-1", "TOY-1-2", "TOY-2-2")
    assert st.data.ask == ("group", 0)
    assert set(st.legal_actions(0)) == {Group(0), Group(1), Group(2)}
    assert decide(st, 0) == Group(1)  # 2 -> 3 parts: +7 value, +1 weight


def _laser_position(tableau: list[Any], rivals: list[list[Any]]) -> State[Any, Any]:
    hands = [["ART-LASER", "TOY-3-3", "SHAPE-4-a"], ["SHIP-07", "TOY-1-2", "ROBOT-4-2-b"],
             ["SHIP-08", "TOY-2-2", "ROBOT-4-2-c"]]
    st = arranged(3, {"phase": "selection", "hands": hands, "tableaux": [tableau, *rivals], "turn": 4},
                  setup="first_game")
    play_all(st, "ART-LASER", "TOY-1-2", "TOY-2-2")
    assert st.data.ask == ("laser", 0)
    return st


def test_BHB_DEC_03_raises_the_threshold_when_heavy_and_lowers_it_on_heavy_rivals() -> None:
    heavy = [{"card": "SHIP-11"}, {"card": "SHIP-12"}]  # 17 weight against 18 + a black-hole card
    assert decide(_laser_position(heavy, [[], []]), 0) == Laser(4)
    light = [{"card": "ROBOT-5-2"}]
    rivals = [["SHAPE-8-a", "SHIP-09"], ["SHAPE-8-b", "SHIP-10"]]  # 15 weight each: -4 may pull them in
    assert decide(_laser_position(light, rivals), 0) == Laser(-4)


def _tentacle_position(tableau: list[Any]) -> State[Any, Any]:
    hands = [["ART-TENTACLE", "TOY-3-3", "SHAPE-4-a"], ["SHIP-07", "TOY-1-2", "ROBOT-4-2-b"],
             ["SHIP-08", "TOY-2-2", "ROBOT-4-2-c"]]
    rivals = [["ROBOT-6-3-a", "ROBOT-7-3"], ["ROBOT-6-3-b", "ROBOT-5-2"]]  # 13/6 and 11/5: value decides
    st = arranged(3, {"phase": "selection", "hands": hands, "tableaux": [tableau, *rivals], "turn": 4,
                      "draw_top": ["SHIP-14", "TOY-4-4", "SHIP-N5"]}, setup="first_game")
    play_all(st, "ART-TENTACLE", "ROBOT-4-2-b", "ROBOT-4-2-c")
    assert st.data.ask == ("tentacle", 0)
    return st


def test_BHB_DEC_04_the_tentacle_takes_value_when_there_is_room_and_lightness_when_not() -> None:
    assert decide(_tentacle_position([]), 0) == Take("SHIP-14")
    heavy = [{"card": "SHIP-11"}, {"card": "SHIP-12"}, {"card": "SHAPE-7-a"}]  # 24 weight already
    assert decide(_tentacle_position(heavy), 0) == Take("SHIP-N5")  # -5/-4 lightens the tableau


def _ring_position(tableau: list[Any]) -> State[Any, Any]:
    st = arranged(3, {"round": 3, "black_holes": ["BH-M1", "BH-R2", "BH-M2"], "phase": "scoring",
                      "tableaux": [tableau, ["ROBOT-4-2-a"], ["ROBOT-4-2-b"]],
                      "bh_pile": [["ROBOT-6-3-a", 0], ["ROBOT-6-3-b", 1], ["ROBOT-6-3-c", 2]]},
                  setup="first_game")
    assert st.data.ask == ("ring", 0)
    return st


def test_BHB_DEC_05_the_one_ring_goes_when_it_would_pull_the_seat_in() -> None:
    # 12 + 9 weight with the ring's 5 = 26 against 18 + a black-hole card; without it 21.
    heavy = [{"card": "SHIP-14"}, {"card": "SHIP-12"}, {"card": "REL-RING"}]
    assert decide(_ring_position(heavy), 0) == Relic("ring", True)
    light = [{"card": "ROBOT-4-2-c"}, {"card": "REL-RING"}]
    assert decide(_ring_position(light), 0) == Relic("ring", False)
