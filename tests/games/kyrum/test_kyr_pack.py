"""The content pack: components, strict schemas, the validator and `holotable kyrum validate` (spec §6.9).

KYR-COMP-01..07, KYR-SCRIPT-01, KYR-EXPLORE-10, P-K-18.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from kyr_helpers import MINI
from typer.testing import CliRunner

from holotable.cli import app
from holotable.engine import DataError
from holotable.games.kyrum.pack import CODE_RE, DISCOVERY_TYPES, check_pack, load_pack

DEMO = Path(__file__).parents[3] / "src" / "holotable" / "games" / "kyrum" / "packs" / "kyrum-demo"


def test_KYR_COMP_01_to_05_pack_components() -> None:
    """KYR-COMP-01: 20 planets, 15 discoveries, 10 encounters, objectives A..R; KYR-COMP-03: 6 cubes per type;
    KYR-COMP-04: five discovery types; KYR-COMP-05: 2+2+2+2 dangers, 1 trader, 1 black hole (assumed:KYR-AMB-35)."""
    pack = load_pack(MINI)
    assert len(pack.planets) == 20 and len(pack.discoveries) == 15 and len(pack.encounters) == 10
    assert "".join(sorted(pack.objectives)) == "ABCDEFGHIJKLMNOPQR"
    assert pack.rules["elements"] == {"common": 6, "uncommon": 6, "rare": 6}
    assert {d.type for d in pack.discoveries.values()} == set(DISCOVERY_TYPES)
    names = Counter(e.name for e in pack.encounters.values())
    assert names == {"Asteroids": 2, "Dark Threat": 2, "Rick Cloud": 2, "Pirates": 2, "Itinerant Trader": 1,
                     "Black Hole": 1}


def test_KYR_COMP_02_dice_and_KYR_COMP_07_journey_card() -> None:
    """KYR-COMP-02: two distinguishable exploration dice (white first) and four distance dice;
    KYR-COMP-07: the journey card's four NP values 4, 3, 3, 2."""
    pack = load_pack(MINI)
    assert pack.rules["journey_np"] == [4, 3, 3, 2] and pack.rules["planets_per_area"] == 4


def test_KYR_SCRIPT_01_codes_and_KYR_EXPLORE_10_main_codes() -> None:
    """KYR-SCRIPT-01: every code is Letter.NN.NN; KYR-EXPLORE-10: six sums per planet, RAHEL one (115)."""
    pack = load_pack(MINI)
    assert all(CODE_RE.match(c) for c in pack.scripts)
    assert pack.planets[10].main_codes() == ("A.10.02", "A.10.04", "A.10.06", "A.10.08", "A.10.10", "A.10.12")
    assert pack.planets[29].main_codes() == ("A.29.01",) and len(pack.main_codes()) == 115


def test_KYR_COMP_06_narratives_only_from_scripts() -> None:
    """KYR-COMP-06: narratives come only from `add_narrative` ops (none in planets or encounters)."""
    pack = load_pack(MINI)
    for planet in pack.planets.values():
        assert all(op["op"] in ("gain", "lose", "draw_discovery") for op in planet.white + planet.black)


def mutated(tmp_path: Path, change: Callable[[Path], None]) -> list[str]:
    root = tmp_path / "pack"
    shutil.copytree(MINI, root)
    change(root)
    built, problems = check_pack(root)
    errors = [str(p) for p in problems if p.level == "error"]
    assert built is None and errors
    return errors


def edit(root: Path, name: str, fn: Callable[[Any], Any]) -> None:
    path = root / name
    path.write_text(json.dumps(fn(json.loads(path.read_text()))))


def _drop_main(root: Path) -> None:
    edit(root, "scripts/main.json", lambda xs: [x for x in xs if x["code"] != "A.10.08"])


def _bad_read(root: Path) -> None:
    bad = [{"op": "read", "code": "A.99.99"}]
    edit(root, "scripts/special.json", lambda xs: [x if x["code"] != "A.53.11" else {**x, "effects": bad} for x in xs])


def _nineteen(root: Path) -> None:
    edit(root, "planets.json", lambda xs: xs[:19])


def _dup_letter(root: Path) -> None:
    edit(root, "objectives.json", lambda xs: [*xs[:-1], {**xs[-1], "letter": "A"}])


def _points(root: Path) -> None:
    edit(root, "questionnaire.json", lambda q: {**q, "questions": [{**q["questions"][0], "points": 4},
                                                                   *q["questions"][1:]]})


def _danger(root: Path) -> None:
    edit(root, "planets.json", lambda xs: [{**xs[0], "danger": 9}, *xs[1:]])


def _unknown_key(root: Path) -> None:
    edit(root, "discoveries.json", lambda xs: [{**xs[0], "colour": "red"}, *xs[1:]])


def _bad_op(root: Path) -> None:
    edit(root, "planets.json", lambda xs: [{**xs[0], "white": [{"op": "notoriety", "n": 1}]}, *xs[1:]])


def _dup_code(root: Path) -> None:
    edit(root, "scripts/special.json", lambda xs: [*xs, xs[0]])


def _cycle(root: Path) -> None:
    edit(root, "scripts/special.json",
         lambda xs: [x if x["code"] != "A.11.81" else {**x, "effects": [{"op": "read", "code": "A.11.81"}]}
                     for x in xs])


def _glossary(root: Path) -> None:
    edit(root, "glossary.json", lambda g: {k: v for k, v in g.items() if k != "kyrum"})


def _end_op(root: Path) -> None:
    edit(root, "scripts/special.json",
         lambda xs: [x if x["code"] != "A.70.05" else {**x, "effects": [{"op": "gain", "res": "fuel", "n": 1}]}
                     for x in xs])


@pytest.mark.parametrize(("change", "needle"), [
    (_drop_main, "A.10.08"), (_bad_read, "A.99.99"), (_nineteen, "exactly 20 planets"), (_dup_letter, "duplicate"),
    (_points, "sum to 49"), (_danger, "danger"), (_unknown_key, "colour"), (_bad_op, "notoriety"),
    (_dup_code, "more than once"), (_cycle, "cycle"), (_glossary, "kyrum"), (_end_op, "end-of-game"),
])
def test_P_K_18_validator_rejects_mutations(tmp_path: Path, change: Callable[[Path], None], needle: str) -> None:
    """P-K-18, spec §6.9 items 1-14: each mutated pack is rejected with a message naming file/record/field."""
    errors = mutated(tmp_path, change)
    assert any(needle in e for e in errors), errors


def test_load_pack_raises_data_error_naming_the_field(tmp_path: Path) -> None:
    """A bad pack raises DataError at load naming file, record and field."""
    root = tmp_path / "pack"
    shutil.copytree(MINI, root)
    _danger(root)
    with pytest.raises(DataError, match=r"planets\.json: planet 10: danger"):
        load_pack(root)


def test_validate_command_exit_codes(tmp_path: Path) -> None:
    """`holotable kyrum validate PACK`: 0 and OK for a good pack; 1 and every problem for a broken one."""
    runner = CliRunner()
    ok = runner.invoke(app, ["kyrum", "validate", MINI])
    assert ok.exit_code == 0 and "OK: pack 'mini'" in ok.output
    root = tmp_path / "pack"
    shutil.copytree(MINI, root)
    _drop_main(root)
    _danger(root)
    bad = runner.invoke(app, ["kyrum", "validate", str(root)])
    assert bad.exit_code == 1
    assert "main script of planet 10 (Rymios) is missing" in bad.output and "danger" in bad.output


@pytest.mark.skipif(not DEMO.is_dir(), reason="the demo pack is written by another helper")
def test_demo_pack_validates() -> None:
    """P-K-18: the shipped demo pack passes the validator without errors (KYR-AMB-51)."""
    built, problems = check_pack(DEMO)
    assert built is not None, [str(p) for p in problems]
    assert len(built.main_codes()) == 115


def test_unreachable_script_is_an_error(tmp_path: Path) -> None:
    """A script no entry point leads to is reported (and fails the validation)."""
    orphan = {"code": "A.12.77", "planet": 12, "kind": "secondary", "title": "Lost", "text": "Nobody reads me.",
              "effects": []}
    errors = mutated(tmp_path, lambda root: edit(root, "scripts/special.json", lambda xs: [*xs, orphan]))
    assert any("A.12.77" in e and "unreachable" in e for e in errors)


def _words(text: str) -> set[str]:
    return {w.strip(".,;:!?\"'*()").lower() for w in text.split() if len(w) > 3}


@pytest.mark.skipif(not DEMO.is_dir(), reason="the demo pack is written by another helper")
def test_demo_pack_counts_and_an_end_of_game_text_for_every_game() -> None:
    """KYR-AMB-27, KYR-END-04: the demo's 158 scripts (115 main, 6 narrative completions, 3 secondary, 33
    end-of-game, 1 black hole) and its 30 games, each ending with its own end-of-game script A.70.NN: its own
    title and text of a paragraph or more, no two alike, plus the three finale epilogues A.70.31-33."""
    pack = load_pack(DEMO)
    kinds = Counter(s["kind"] for s in pack.scripts.values())
    assert kinds == {"main": 115, "narrative": 6, "secondary": 3, "end_of_game": 33, "black_hole": 1}
    ends = [pack.game_entry(n)["end_script"] for n in range(1, 31)]
    assert ends == [f"A.70.{n:02d}" for n in range(1, 31)]
    end_scripts = [pack.scripts[c] for c in ends] + [pack.scripts[f"A.70.{n}"] for n in (31, 32, 33)]
    assert all(s["kind"] == "end_of_game" and s["planet"] == 70 for s in end_scripts)
    assert len({s["title"] for s in end_scripts}) == 33
    assert all(len(s["text"]) >= 250 and "\n\n" in s["text"] for s in end_scripts[:30])
    # Hand-written, not a template: any two texts share only a small part of their vocabulary.
    words = [_words(s["text"]) for s in end_scripts]
    for i, a in enumerate(words):
        for b in words[i + 1:]:
            assert len(a & b) / min(len(a), len(b)) < 0.5
