"""Every game's tutorial: its file parses, its scenario sets up what it promises, and every lesson is
reached in order whatever the learner does (a careful player, a random one, one who follows each
suggestion) against its bots, so no lesson waits for a situation that never comes."""

from __future__ import annotations

from typing import Any

import pytest

from holotable.agents import make_agent, observe
from holotable.engine import ScenarioError, registry, run_scenario
from holotable.engine.tutorial import Progress, Tutorial
from holotable.server.bots import level_info

WITH_TUTORIAL = [name for name in registry.names() if registry.manifest(name).path("tutorial")]
#: How the learner plays: the game's heuristic, uniformly random, or the lesson's suggestion when it has one.
LEARNERS = ("heuristic", "random", "suggested")


def test_every_built_in_game_has_a_tutorial() -> None:
    assert registry.names() == WITH_TUTORIAL


@pytest.mark.parametrize("game", WITH_TUTORIAL)
def test_a_tutorials_scenario_sets_up_what_it_says(game: str) -> None:
    tutorial: Tutorial = registry.offered(game, "tutorial")
    assert tutorial.game == game and tutorial.title and tutorial.intro
    _, mismatches = run_scenario(tutorial.scenario)
    assert mismatches == []
    for lesson in tutorial.lessons:
        # Plain words for the player: no rule IDs in the text (they belong in the details line).
        assert not any(rule in lesson.say for rule in lesson.rules), lesson.say
        assert "(s)" not in lesson.say


def _play(tutorial: Tutorial, learner: str, bot_seed: int) -> tuple[int, list[int]]:
    """Play the tutorial's game to its end as a table would; return the lessons reached and the
    plies at which each one was."""
    st = tutorial.scenario.start(record=True)
    for seat, action in tutorial.scenario.actions:
        st.apply(action, seat)
    game = st.game
    bot_spec = level_info(game.spec.name, tutorial.bots).agent  # type: ignore[arg-type]
    agents: dict[int, Any] = {
        s: make_agent(bot_spec, game, seed=bot_seed * 31 + s) for s in range(st.players) if s != tutorial.human}
    me = make_agent("heuristic" if learner != "random" else "random", game, seed=bot_seed)
    progress, at = Progress(), []
    progress.note(tutorial, st)
    at.extend([st.ply] * progress.reached)
    for _ in range(game.spec.max_game_length or 5000):
        if st.is_terminal():
            break
        seat = st.to_move()[0]
        action: Any = None
        if seat == tutorial.human and learner == "suggested" and progress.reached:
            hint = tutorial.lessons[progress.reached - 1].suggest
            legal = {game.action_to_str(a): a for a in st.legal_actions(seat)}
            action = legal.get(hint) if hint else None
        if action is None:
            action = (me if seat == tutorial.human else agents[seat]).act(observe(st, seat))
        st.apply(action, seat)
        before = progress.reached
        progress.note(tutorial, st)
        at.extend([st.ply] * (progress.reached - before))
    assert st.is_terminal(), "the tutorial game did not end"
    return progress.reached, at


@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("game", WITH_TUTORIAL)
def test_every_lesson_is_reached_whatever_the_learner_does(game: str, learner: str) -> None:
    tutorial: Tutorial = registry.offered(game, "tutorial")
    for bot_seed in (0, 1):
        reached, at = _play(tutorial, learner, bot_seed)
        missing = [lesson.say[:60] for lesson in tutorial.lessons[reached:]]
        assert reached == len(tutorial.lessons), f"{learner} vs bot seed {bot_seed} never reached: {missing}"
        assert at == sorted(at)


def test_a_tutorial_file_says_what_is_wrong() -> None:
    base: dict[str, Any] = {
        "format": "holotable-tutorial", "version": 1, "title": "T", "human": 0,
        "scenario": {"format": "holotable-scenario", "version": 1, "game": "captain-black", "players": 2},
        "lessons": [{"say": "Hello"}],
    }
    Tutorial.from_json(base)
    for change, message in [
        ({"lessons": []}, "non-empty list of 'lessons'"),
        ({"human": 2}, "the game has 2 players"),
        ({"bots": "evil"}, "'bots' must be one of"),
        ({"colour": 1}, "unknown tutorial key"),
        ({"lessons": [{"say": ""}]}, "needs its words"),
        ({"lessons": [{"say": "x", "when": {"soon": True}}]}, "'when' takes only"),
        ({"lessons": [{"say": "x", "when": {"at_least": {"view.round": "two"}}}]}, "maps dotted paths to numbers"),
        ({"scenario": {**base["scenario"], "arrangement": {"island": 3}}}, "no arrangement or chance"),
        ({"format": "holotable-scenario"}, "needs 'format'"),
    ]:
        with pytest.raises(ScenarioError, match=message):
            Tutorial.from_json({**base, **change})


def test_lessons_follow_the_learners_own_view_only() -> None:
    # A lesson's condition is read from the learner's view: a path into another seat's hidden
    # chest cards is simply absent there (the lesson waits), never read from the full state.
    tutorial = Tutorial.from_json({
        "format": "holotable-tutorial", "version": 1, "title": "T", "human": 0,
        "scenario": {"format": "holotable-scenario", "version": 1, "game": "captain-black", "players": 2,
                     "seed": 3},
        "lessons": [{"when": {"at_least": {"view.chests.1.0": 0}}, "say": "never"}],
    })
    st = tutorial.scenario.start()
    while not st.is_terminal():
        st.apply(st.legal_actions()[0])
        assert tutorial.advance(0, st, st.ply - 1) == 0
