"""Each game's manifest: every role a built-in game names resolves to what the role needs, a game is
loaded alone, and the copyable template game is found through the same loader once it is added."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import holotable
from holotable.agents import make_agent
from holotable.agents.rollout import Rollout, game_rollout
from holotable.engine import Game, UnknownGameError, registry
from holotable.engine.manifest import ROLES, Manifest, ManifestError
from holotable.games import _template
from holotable.testing.conformance import check_game, temporarily_registered
from holotable.web import STATIC_DIR

BUILT_IN = ["buccaneers", "captain-black", "council", "kyrum", "space-pirates"]


def _check_role(role: str, obj: Any, name: str) -> None:
    """``obj`` is the kind of thing ``role`` needs (see holotable.engine.manifest.ROLES)."""
    from holotable.rl.encoding import EncoderSpec
    from holotable.server.extensions import TableExtension

    if role == "game":
        assert isinstance(obj, Game) and obj.spec.name == name
    elif role == "bots":
        assert obj and all(callable(factory) for factory in obj.values())
    elif role == "rollout":
        assert isinstance(obj, Rollout)
    elif role == "encoder":
        assert isinstance(obj, EncoderSpec)
    elif role == "server":
        ext = obj() if isinstance(obj, type) else obj
        assert isinstance(ext, TableExtension) and ext.game == name
    elif role == "tutorial":
        from holotable.engine.tutorial import Tutorial

        assert isinstance(obj, Tutorial) and obj.game == name and obj.lessons
    elif role == "web":
        assert (STATIC_DIR / "games" / f"{obj}.js").is_file()
    else:  # measures, seat_measures, schedule, terminal, picture, cards: functions
        assert callable(obj) and not isinstance(obj, type), (role, obj)


def test_the_built_in_games_are_the_entry_points() -> None:
    assert registry.names() == BUILT_IN
    for name in BUILT_IN:
        assert registry.manifest(name).name == name


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_role_a_built_in_manifest_names_resolves(name: str) -> None:
    m = registry.manifest(name)
    assert m.path("game") is not None and {"game", "bots", "encoder", "terminal", "web"} <= set(m.offers())
    for role in m.offers():
        _check_role(role, m.resolve(role), name)
    for role in set(ROLES) - set(m.offers()):
        assert m.resolve(role) in (None, {}), role


@pytest.mark.parametrize("name", BUILT_IN)
def test_loading_one_game_imports_no_other_game(name: str) -> None:
    # A fresh interpreter: this one has imported every game already.
    code = (
        "import sys, holotable\n"
        f"game = holotable.load({name!r})\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('holotable.games.'))))\n"
    )
    src = str(Path(holotable.__file__).parents[1])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"}).stdout.split()
    package = registry.manifest(name).path("game").split(":")[0].rsplit(".", 1)[0]
    assert package + ".rules" in out
    assert [m for m in out if m != package and not m.startswith(package + ".")] == []


def test_an_alias_finds_its_game_and_an_unknown_name_lists_every_game() -> None:
    assert registry.manifest("bhc") is registry.manifest("council")
    assert registry.find("no-such-game") is None and registry.offered("no-such-game", "terminal") is None
    with pytest.raises(UnknownGameError, match="registered games: buccaneers, captain-black, council"):
        registry.manifest("no-such-game")


def test_a_manifest_refuses_unknown_roles_and_paths() -> None:
    m = Manifest(name="test-broken", game="holotable.testing.toys:Nim", terminal="holotable.cli.render:no_such")
    with pytest.raises(ManifestError, match="no role called 'clock'"):
        m.path("clock")
    with pytest.raises(ManifestError, match="has no 'no_such'"):
        m.resolve("terminal")
    with pytest.raises(ManifestError, match="not a 'module:attribute' path"):
        Manifest(name="test-broken", game="holotable.testing.toys").resolve("game")
    with pytest.raises(ManifestError, match="a file name"):
        Manifest(name="test-broken", game="x:y", web="../js/table")
    wrong_game = m.replace(game="holotable.testing.toys:Solitaire")
    with pytest.raises(ManifestError, match="not a Game whose spec is called 'test-broken'"), \
            temporarily_registered(wrong_game):
        pass
    assert registry.find("test-broken") is None


def test_a_game_registered_at_run_time_gets_a_manifest() -> None:
    from holotable.testing.toys import Nim

    nim = Nim()
    with temporarily_registered(nim, terminal=lambda view: "a pile") as game:
        assert game is nim and registry.manifest("test-nim").resolve("game") is nim
        assert registry.offered("test-nim", "terminal")({}) == "a pile"
    assert registry.find("test-nim") is None


# ---------------------------------------------------------------------------- the template


def test_the_template_is_not_a_registered_game_until_added() -> None:
    assert "template" not in registry.names() and registry.find("template") is None
    assert registry.find("last-pebble") is None  # its alias is not known either


def test_the_template_fills_every_role() -> None:
    assert _template.MANIFEST.offers() == list(ROLES)


def test_the_template_is_found_through_the_same_loader_and_plays(tmp_path: Path) -> None:
    from holotable.cli.render import renderer_for
    from holotable.cli.render_png import drawer_for
    from holotable.rl.encoding import encoder_for
    from holotable.sim.hooks import measures_for, schedule_for, seat_measures_for
    from holotable.web.cards import catalog

    with temporarily_registered(_template.MANIFEST) as game:
        assert holotable.load("last-pebble") is game is _template.GAME
        for role in ROLES:
            _check_role(role, registry.manifest("template").resolve(role), "template")
        check_game(game, seeds=2)
        st = game.new_state(players=2, seed=1)
        bots = [make_agent("heuristic", game, seed=s) for s in range(2)]
        from holotable.agents import observe

        while not st.is_terminal():
            seat = st.to_move()[0]
            st.apply(bots[seat].act(observe(st, seat)), seat)
        assert st.outcome().scores == (1.0, 0.0)  # ten is no multiple of three: perfect play wins for seat 0
        assert game_rollout("template") is _template.bots.ROLLOUT
        assert encoder_for(game, st.config, "explicit").encode(st.view(0)).tolist() == [0.0, 1.0, 0.0]
        assert measures_for(game)(st) == {"turns": float(st.ply)}
        assert seat_measures_for(game)(st) == [{"took_last": 1.0}, {"took_last": 0.0}]
        assert [g.params for g in schedule_for(game)(st.config, [2], agent="random", seed=0, carry=None)] == [
            {"pile": 10}]
        assert renderer_for("template")(st.view(0)).plain == "Pebbles:  (0)"
        assert drawer_for("template")(st, None, tmp_path / "p.png").is_file()
        assert catalog("template", st.config) == {"pebbles": 10, "takes": ["take 1", "take 2"]}
    assert registry.find("template") is None and registry.find("last-pebble") is None


def test_the_template_needs_nothing_outside_its_folder() -> None:
    folder = Path(_template.__file__).parent
    for path in folder.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "holotable.games." not in text.replace("holotable.games._template", ""), path.name
    assert all(not inspect.ismodule(getattr(_template, n, None)) for n in ("GAME", "SPEC"))


def test_the_templates_own_examples_run() -> None:
    """The template is private to the doctest walk (its folder starts with ``_``) but meant to be
    copied, so its examples must hold: each module's doctests run here."""
    import doctest
    import importlib

    folder = Path(_template.__file__).parent
    tried = 0
    for path in sorted(folder.glob("*.py")):
        name = "holotable.games._template" + ("" if path.stem == "__init__" else f".{path.stem}")
        result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, name
        tried += result.attempted
    assert tried >= 5


def test_a_games_commands_are_mounted_under_its_name() -> None:
    from typer.testing import CliRunner

    from holotable.cli import app

    result = CliRunner().invoke(app, ["kyrum", "--help"])
    assert result.exit_code == 0 and "validate" in result.output and "continue" in result.output
