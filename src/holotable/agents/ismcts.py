"""Information-set Monte Carlo tree search for any registered game.

Single-observer ISMCTS with availability counts (Cowling, Powley & Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012). Each iteration:

1. samples a determinisation: a full state consistent with what the deciding seat
   knows (``obs.sample_state``), so the search never sees the true hidden state;
2. walks one tree shared by all determinisations, choosing at each node by UCB
   among the actions legal *in this determinisation* (an action's exploration
   term uses how often it was available, not how often its parent was visited);
3. adds one node (the first untried action met) and plays a rollout to the end of
   the game (or for ``rollout_depth`` moves, then asks ``evaluator``): the game's own
   fast rollout policy when its manifest names one (see :mod:`holotable.agents.rollout`),
   else uniformly random moves;
4. credits every edge on the path with the utility of the seat that chose it.

With a rollout policy the tree also widens progressively: a node's actions are the
ones the policy proposes there, one more each time its visits pass 1, 4, 9, ...
(``widening`` scales the count). Without it every legal action of every node is
tried once before any is tried twice, so the tree's own simulated moves are random
until a node has been visited as often as it has actions: the other seats' replies
in the tree would be about as weak as random play, and in a game with fifty draw
sizes that is most of the tree. A game's policy may also end rollouts early at a
horizon (the end of a round) and value the position instead.

Sealed simultaneous decisions use decoupled selection: every asked seat picks
from its own statistics at that node, so no choice depends on another seat's
sealed choice. The tree branches on actions only, not on chance outcomes: a
node after "draw 3" pools the draws that found gold and those that did not,
which is the usual open-loop simplification of single-observer ISMCTS.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from holotable.engine import Game, HolotableError, IllegalActionError, State

from .base import Agent, Observation, register_agent
from .rollout import Evaluator, Rollout, game_rollout


class NoLegalActionError(HolotableError, ValueError):
    """The seat asked to decide has no legal action (a game or caller bug)."""


class _Edge:
    """Statistics of one seat's action at a node, from that seat's point of view."""

    __slots__ = ("avail", "child", "reward", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.avail = 0  # iterations in which the action was legal here
        self.child: _Node | None = None


class _Node:
    """A point in the shared tree, reached by a sequence of actions."""

    __slots__ = ("edges", "joint")

    def __init__(self) -> None:
        # seat -> action -> edge. Keyed by seat because who moves here may differ
        # between determinisations, and a sealed step has several deciding seats.
        self.edges: dict[int, dict[Any, _Edge]] = {}
        # After a sealed joint step the next node depends on every seat's choice.
        self.joint: dict[tuple[Any, ...], _Node] = {}


def neutral_evaluator(st: State[Any, Any]) -> tuple[float, ...]:
    """Utility 1/2 for every seat: what a cut-off rollout knows without a game-specific guess."""
    return (0.5,) * st.players


_OPTIONS = ("iterations", "time_limit", "exploration", "rollout", "rollout_depth", "evaluator", "widening")
_ROLLOUTS = ("auto", "game", "random")


class ISMCTSAgent(Agent):
    """SO-ISMCTS. Options: ``iterations`` (1000), ``time_limit`` (seconds, optional;
    the search stops at whichever limit comes first), ``exploration`` (UCB constant,
    0.7 for utilities in [0, 1]), ``rollout`` (``"auto"``: the game's registered
    rollout (see :mod:`holotable.agents.rollout`) if it has one, else random;
    ``"game"``: the game's, an error if it has none; ``"random"``; a policy
    ``(state, seat, rng) -> action``; or a :class:`~holotable.agents.rollout.Rollout`),
    ``widening`` (1.0: a node holds about ``1 + widening * sqrt(visits)`` of the
    policy's proposals; 0: every legal action, as without a policy),
    ``rollout_depth`` (``None``: play to the end or the game's horizon) and
    ``evaluator`` (``state -> utilities`` for rollouts cut by ``rollout_depth``).

    Deterministic for a given seed unless ``time_limit`` stops the search first.
    After each decision ``last_root`` maps the deciding seat's root actions to
    ``(visits, mean utility)``.
    """

    name = "ismcts"

    def __init__(self, game: Game[Any, Any], seed: int = 0, **options: Any) -> None:
        unknown = sorted(set(options) - set(_OPTIONS))
        if unknown:
            raise ValueError(f"unknown ismcts option(s) {unknown}; known: {list(_OPTIONS)}")
        super().__init__(game, seed, **options)
        self.iterations = _positive_int(options.get("iterations", 1000), "iterations")
        time_limit = options.get("time_limit")
        if time_limit is not None and (isinstance(time_limit, bool) or not time_limit > 0):
            raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
        self.time_limit: float | None = None if time_limit is None else float(time_limit)
        exploration = options.get("exploration", 0.7)
        if isinstance(exploration, bool) or not exploration >= 0:
            raise ValueError(f"exploration must be >= 0, got {exploration!r}")
        self.exploration = float(exploration)
        depth = options.get("rollout_depth")
        self.rollout_depth: int | None = None if depth is None else _positive_int(depth, "rollout_depth", 0)
        self.evaluator: Evaluator = options.get("evaluator") or neutral_evaluator
        self.rollout: Rollout | None = _rollout(game, options.get("rollout", "auto"))
        self.policy = None if self.rollout is None else self.rollout.policy
        widening = options.get("widening", 1.0)
        if isinstance(widening, bool) or not isinstance(widening, (int, float)) or not widening >= 0:
            raise ValueError(f"widening must be a number >= 0, got {widening!r}")
        self.widening = float(widening)
        self.last_root: dict[Any, tuple[int, float]] = {}

    # ------------------------------------------------------------------ the decision
    def act(self, obs: Observation) -> Any:
        legal = obs.legal
        if not legal:
            raise NoLegalActionError(
                f"seat {obs.seat} has no legal action in {obs.game.spec.name}; is it asked to move?"
            )
        if len(legal) == 1:
            self.last_root = {legal[0]: (0, 0.0)}
            return legal[0]
        root = _Node()
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        for _ in range(self.iterations):
            self._iterate(root, obs)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return self._best(root, obs.seat, legal)

    def _best(self, root: _Node, seat: int, legal: Sequence[Any]) -> Any:
        edges = root.edges.get(seat, {})
        self.last_root = {
            a: (e.visits, e.reward / e.visits if e.visits else 0.0) for a, e in edges.items() if a in legal
        }
        best = None
        best_key = (-1, -math.inf)
        for action in legal:  # legal order breaks exact ties, so the choice is reproducible
            key = self.last_root.get(action, (0, 0.0))
            if key > best_key:
                best, best_key = action, key
        return best

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, root: _Node, obs: Observation) -> None:
        st = obs.sample_state(self.rng)
        game = st.game
        node = root
        path: list[tuple[_Edge, int]] = []
        grown = False
        while not grown and not game.is_terminal(st):
            seats = st.to_move()
            if len(seats) > 1 and game.sealed(st):
                grown, key = self._sealed_step(st, node, seats, path)
                child = node.joint.get(key)
                if child is None:
                    child = node.joint[key] = _Node()
                    grown = True
                node = child
                continue
            # The observer acts first at the root even when others share an open decision.
            seat = obs.seat if node is root and obs.seat in seats else seats[0]
            edge, action, grown = self._select(node, seat, st)
            path.append((edge, seat))
            st.apply(action, seat)
            if edge.child is None:
                edge.child = _Node()
            node = edge.child
        utilities = self._rollout(st)
        for edge, seat in path:
            edge.visits += 1
            edge.reward += utilities[seat]

    def _sealed_step(self, st: State[Any, Any], node: _Node, seats: tuple[int, ...],
                     path: list[tuple[_Edge, int]]) -> tuple[bool, tuple[Any, ...]]:
        """Decoupled selection: each seat chooses on its own statistics, then all are applied.

        Returns whether a new edge was made and the joint choice (the child's key).
        """
        grown = False
        chosen = []
        for seat in seats:
            edge, action, new = self._select(node, seat, st)
            path.append((edge, seat))
            chosen.append(action)
            grown = grown or new
        for seat, action in zip(seats, chosen, strict=True):
            st.apply(action, seat)
        return grown, tuple(chosen)

    def _select(self, node: _Node, seat: int, st: State[Any, Any]) -> tuple[_Edge, Any, bool]:
        """The edge ``seat`` follows from ``node`` in this determinisation: (edge, action, new)."""
        legal = st.legal_actions(seat)
        if self.policy is None or self.widening == 0:
            return self._choose(node, seat, legal)
        return self._choose_widened(node, seat, st, legal)

    def _choose_widened(self, node: _Node, seat: int, st: State[Any, Any],
                        legal: Sequence[Any]) -> tuple[_Edge, Any, bool]:
        """Progressive widening: the node's actions are the rollout policy's proposals, one
        more whenever the visits allow; UCB chooses among those legal now."""
        if not legal:
            raise NoLegalActionError(f"seat {seat} is asked to move but has no legal action")
        table = node.edges.get(seat)
        if table is None:
            table = node.edges[seat] = {}
        tried = 0
        for edge in table.values():
            tried += edge.visits
        legal_set = set(legal)
        fresh: _Edge | None = None
        proposal = None
        if len(table) < 1 + self.widening * math.sqrt(tried) or not any(a in legal_set for a in table):
            assert self.policy is not None
            proposal = st.game.coerce_action(self.policy(st, seat, self.rng))  # text or index too
            if proposal not in legal_set:
                raise IllegalActionError(f"the rollout policy proposed {proposal!r}, not a legal action of seat {seat}")
            if proposal not in table:
                fresh = table[proposal] = _Edge()
        best_edge: _Edge | None = None
        best_action = None
        best_score = -math.inf
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        for action, edge in table.items():
            if action not in legal_set:
                continue
            edge.avail += 1
            if fresh is not None:
                continue
            visits = edge.visits
            score = edge.reward / visits + c * sqrt(log(edge.avail) / visits) if visits else math.inf
            if score > best_score:  # insertion order breaks ties: the policy's first proposals first
                best_edge, best_action, best_score = edge, action, score
        if fresh is not None:
            return fresh, proposal, True
        assert best_edge is not None
        return best_edge, best_action, best_edge.visits == 0

    def _choose(self, node: _Node, seat: int, legal: Sequence[Any]) -> tuple[_Edge, Any, bool]:
        """UCB over the actions legal now, untried ones first. Returns (edge, action, untried).

        Every legal action gets its edge on first sight, so availability counts start
        together and sibling statistics stay comparable.
        """
        if not legal:
            raise NoLegalActionError(f"seat {seat} is asked to move but has no legal action")
        table = node.edges.get(seat)
        if table is None:
            table = node.edges[seat] = {}
        best_edge: _Edge | None = None
        best_action = None
        best_score = -math.inf
        ties = 1
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        for action in legal:
            edge = table.get(action)
            if edge is None:
                edge = table[action] = _Edge()
            edge.avail += 1
            visits = edge.visits
            score = edge.reward / visits + c * sqrt(log(edge.avail) / visits) if visits else math.inf
            if score > best_score:
                best_edge, best_action, best_score, ties = edge, action, score, 1
            elif score == best_score:
                # Ties (untried actions above all) are broken at random: seats of a sealed
                # decision that broke them the same way would fall into lockstep.
                ties += 1
                if self.rng.randrange(ties) == 0:
                    best_edge, best_action = edge, action
        assert best_edge is not None
        return best_edge, best_action, best_edge.visits == 0

    def _rollout(self, st: State[Any, Any]) -> Sequence[float]:
        """Play to the end (or ``rollout_depth`` moves) by the rollout policy; the seats' utilities."""
        game = st.game
        limit = self.rollout_depth
        # A game that loops in its rollouts must not hang the search.
        cap = game.spec.max_game_length if limit is None else min(limit, game.spec.max_game_length)
        policy, rng = self.policy, self.rng
        horizon = None if self.rollout is None else self.rollout.horizon
        start = None if horizon is None else horizon(st)
        steps = 0
        while not game.is_terminal(st):
            if steps >= cap:
                return self.evaluator(st)
            seat = st.to_move()[0]
            if policy is not None:
                st.apply(policy(st, seat, rng), seat)  # apply refuses an illegal choice
            else:
                legal = st.legal_actions(seat)
                if not legal:
                    raise NoLegalActionError(f"seat {seat} is asked to move but has no legal action")
                st.apply(legal[rng.randrange(len(legal))], seat)
            steps += 1
            if horizon is not None and horizon(st) != start and not game.is_terminal(st):
                assert self.rollout is not None and self.rollout.evaluator is not None
                return self.rollout.evaluator(st)
        return game.outcome(st).utilities()


def _rollout(game: Game[Any, Any], choice: Any) -> Rollout | None:
    """The rollout the ``rollout`` option names; ``None`` means uniformly random moves."""
    if isinstance(choice, Rollout):
        return choice
    if callable(choice):
        return Rollout(choice)
    if choice not in _ROLLOUTS:
        raise ValueError(f"rollout must be one of {list(_ROLLOUTS)} or a policy function, got {choice!r}")
    if choice == "random":
        return None
    found = game_rollout(game.spec.name)
    if found is None and choice == "game":
        raise ValueError(f"{game.spec.name} registers no rollout policy; use rollout='random'")
    return found


def _positive_int(value: Any, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return value


register_agent("ismcts", ISMCTSAgent)
