"""The heuristic bot: it plays legal games from its view only, its inference never rules out the truth, it beats
random players clearly and deduces better than guessing (BHC-DIG-05)."""

from __future__ import annotations

from bhc_helpers import GAME, agendas, arranged, new_state

from holotable.agents import agent_names, make_agent, observe
from holotable.engine import Rng, derive_seed
from holotable.games.council.bots import approval_chance, beliefs, projected_space, step_value
from holotable.sim.runner import make_agents, play_game
from holotable.testing.conformance import random_step

CHANCE = {1: 2 / 5, 2: 2 / 5, 3: 1 / 5}  # a blind guess is right for 2 of 5 colours (1 of 5 in D3)


def test_the_heuristic_is_registered() -> None:
    assert "heuristic" in agent_names("council")
    assert make_agent("heuristic", GAME, seed=1).name == "heuristic"


def test_step_value_and_approval_chance() -> None:
    """A free step is worth its cost (+0.5), points towards a bought step their number (+0.5), else the salary."""
    assert step_value(3, 2, 0) == 2.5 and step_value(1, 3, 5) == 1.5 and step_value(1, 3, 1) == 1.0
    assert step_value(0, 1, 9) == 1.0 and step_value(5, 3, 0, at_end=True) == 1.0
    assert approval_chance([1.0, 1.0, 0.0], 2) == 1.0 and approval_chance([0.5, 0.5], 2) == 0.25


def test_beliefs_never_rule_out_the_true_agenda() -> None:
    """Announced Advances and the bot's own Deduction results are hard constraints; since the engine enforces
    honesty (BHC-ADV-08), the true Agenda always keeps a positive weight, whatever the players did."""
    for seed in range(3):
        st = new_state(5, seed, first_leader=None)
        rng = Rng(derive_seed(seed, "bot-beliefs"))
        while not st.is_terminal():
            if st.ply % 40 == 0 or st.data.phase == "deduce":
                for seat in range(5):
                    post = beliefs(st.view(seat))
                    for other, weights in post.items():
                        assert abs(sum(weights) - 1) < 1e-9
                        assert weights[st.data.agendas[other]] > 0, (seed, st.ply, seat, other)
                        assert weights[st.data.agendas[seat]] == 0  # the bot knows its own card
            random_step(st, rng)


def test_the_bot_decides_from_its_view_only() -> None:
    """BHC-DIG-05: the bot's choice depends only on its view and legal actions: in a determinisation (other
    Agendas, Intrigue cards and the deck re-dealt) a fresh bot chooses the same action."""
    st = new_state(5, 4)
    rng = Rng(7)
    compared = 0
    while not st.is_terminal() and compared < 40:
        seat = st.to_move()[0]
        if not st.pending:
            det = st.determinize(seat, Rng(derive_seed(st.ply, seat)))
            mine = make_agent("heuristic", GAME, seed=1).act(observe(st, seat))
            theirs = make_agent("heuristic", GAME, seed=1).act(observe(det, seat))
            assert mine == theirs
            compared += 1
        random_step(st, rng)


def test_the_bot_votes_and_advances_by_its_agenda() -> None:
    """On the EX-01 table AG-01 makes 4 points: the bot passes the Proposal and, on space 5 (cost 3), advances
    naturally; with 0 points (AG-02 makes 1 here, bank 0, cost 2) it gets paid."""
    table = ["RBW-MINUS", "GRN-E", "YEL-F", "RED-C", "BLU-D"]
    st = arranged(4, agendas=agendas(2, 1, 3, 4), leader=0, table=table, positions=[3, 5, 1, 1], banks=[0, 1, 1, 1])
    st.apply("call vote", 0)
    bot = make_agent("heuristic", GAME, seed=1)
    assert str(bot.act(observe(st, 1))) == "vote pass"
    for seat in (1, 2, 3):
        st.apply("vote pass", seat)
    assert GAME.points(st.data, 0) == 1
    assert str(bot.act(observe(st, 0))) == "get paid"
    st.apply("get paid", 0)
    assert str(bot.act(observe(st, 1))) == "natural"


def test_the_bot_as_leader_rearranges_and_calls_the_vote() -> None:
    """As Leader the bot moves the planets to an arrangement that pays it, then calls the Vote."""
    st = arranged(4, agendas=agendas(1, 2, 3, 4), leader=0, table=["YEL-F", "RED-F", "GRN-F", "BLK-F", "BLU-F"])
    bot = make_agent("heuristic", GAME, seed=1)
    for _ in range(20):
        if st.data.phase != "negotiate":
            break
        st.apply(bot.act(observe(st, 0)), 0)
    assert st.data.phase == "vote"
    assert GAME.points(st.data, 0) >= 3  # from 0: at least one 3-point planet moved onto its Goal
    for seat in (1, 2, 3):
        st.apply("vote pass", seat)
    assert st.data.phase == "advance"


def test_the_bot_beats_random_players_clearly() -> None:
    """One heuristic against three random players wins far more than its fair share (25%) of 16 games."""
    config = GAME.spec.make_config(4)
    wins = 0.0
    for i in range(16):
        names = ["random"] * 4
        names[i % 4] = "heuristic"
        agents = make_agents(GAME, names, derive_seed("bhc-bot", i))
        _, result = play_game(GAME, config, derive_seed("bhc-game", i), agents)
        winners = result.outcome.winners
        if i % 4 in winners:
            wins += 1 / len(winners)
    print(f"heuristic wins {wins} of 16")
    assert wins >= 9, f"the heuristic won {wins} of 16 games"


def test_the_bots_deduction_beats_guessing() -> None:
    """In heuristic self-play the bots' Deduction cards are right far more often than blind guesses would be
    (expected 40%, 40% and 20% in D1, D2, D3)."""
    config = GAME.spec.make_config(4)
    right = 0
    expected = 0.0
    guesses = 0
    for i in range(5):
        agents = make_agents(GAME, ["heuristic"] * 4, derive_seed("bhc-ded", i))
        st, _ = play_game(GAME, config, derive_seed("bhc-ded-game", i), agents)
        for rnd in st.data.deductions:
            for r in rnd:
                right += r["correct"]
                expected += CHANCE[r["deduction"]]
                guesses += 1
    assert guesses == 60
    print(f"deduction: {right} of {guesses} right, blind guessing expects {expected:.1f}")
    assert right >= expected + 12, f"{right} right guesses of {guesses}, blind guessing expects {expected:.1f}"


def test_bot_games_end() -> None:
    """Heuristic bots always end Negotiate (they call the Vote or say they are done), at every table size."""
    for n in (4, 8):
        config = GAME.spec.make_config(n)
        agents = make_agents(GAME, ["heuristic"] * n, derive_seed("bhc-end", n))
        st, result = play_game(GAME, config, derive_seed("bhc-end-game", n), agents)
        assert st.is_terminal() and result.steps < GAME.spec.max_game_length


def test_rollout_policy_for_search_agents() -> None:
    """The registered rollout plays legal moves, keeps Proposals short, stops at the round's end, and the
    evaluator ranks by the space each seat would reach if its coins bought the final climb (BHC-FINAL-01),
    tied seats sharing their rank."""
    from holotable.agents.rollout import game_rollout

    rollout = game_rollout("council")
    assert rollout is not None and rollout.horizon is not None and rollout.evaluator is not None
    st = new_state(5, 3)
    rng = Rng(5)
    start = rollout.horizon(st)
    moves = 0
    while rollout.horizon(st) == start:
        seat = st.to_move()[0]
        action = rollout.policy(st, seat, rng)
        assert action in st.legal_actions(seat)
        st.apply(action, seat)
        moves += 1
    assert moves < 60 and st.data.round == 1
    values = rollout.evaluator(st)
    assert all(0.0 <= v <= 1.0 for v in values)
    d = st.data
    # Track costs 1,2,2,3,3,4,...: 10 coins on space 4 buy 4->5 (3), 5->6 (3), 6->7 (4): space 7.0,
    # ahead of space 6 with 2 of its 4-coin step paid (6.5) and of space 5 with nothing (5.0).
    d.positions[:] = [4, 6, 5, 5, 1]
    d.banks[:] = [10, 2, 0, 0, 0]
    assert [projected_space(d, s) for s in range(5)] == [7.0, 6.5, 5.0, 5.0, 1.0]
    assert rollout.evaluator(st) == (1.0, 0.75, 0.375, 0.375, 0.0)
