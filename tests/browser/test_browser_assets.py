"""The browser client's files (complete, local only) and the card catalog the Buccaneers page asks for (no browser)."""

from __future__ import annotations

import re

import holotable
from holotable.engine import registry
from holotable.engine.registry import specs
from holotable.games.buccaneers.data import load_default
from holotable.web import STATIC_DIR
from holotable.web.cards import catalog

FILES = sorted(p for p in STATIC_DIR.rglob("*") if p.is_file())
TEXT = {p: p.read_text(encoding="utf-8") for p in FILES}
# A page's <link href>/<script src>, a module's static `from "./x.js"`, and a fixed dynamic import(`/static/...`).
REFERENCE = (r"""(?:href|src)="(/static/[^"]+)"|from\s+"(\.{1,2}/[^"]+)"|import\(`(/static/[^`$]+)`\)"""
             # a stylesheet's url("/static/...") and a script's src: "/static/..." (the game art)
             r'|url\("(/static/[^"]+)"\)|src:\s*"(/static/[^"]+)"')


def test_the_buccaneers_catalog_is_the_tables_own_data() -> None:
    spec = holotable.load("buccaneers").spec
    shipped = catalog("buccaneers", spec.make_config(4))
    data = load_default()
    assert set(shipped["cards"]) == {card.id for card in data.junk}
    for card in data.junk:
        assert shipped["cards"][card.id]["stats"] == [[s.value, s.weight] for s in card.stats]
        assert shipped["cards"][card.id]["name"] == card.shown_name
    holes = {h.id: h.threshold for h in data.black_holes}
    assert {k: v["threshold"] for k, v in shipped["black_holes"].items()} == holes
    # A table with a data override gets its own numbers, and the shipped catalog is left alone.
    changed = catalog("buccaneers", spec.make_config(4, data={"junk.SHIP-07.stats.0.value": 13}))
    assert changed["cards"]["SHIP-07"]["stats"] == [[13, 5]]
    assert catalog("buccaneers", spec.make_config(4))["cards"]["SHIP-07"]["stats"] == [[7, 5]]
    assert catalog("council", holotable.load("council").spec.make_config(5)) == {}


def test_nothing_is_loaded_from_the_internet() -> None:
    # Absolute URLs would reach outside the server the page came from (a CDN, a font service...).
    for path, text in TEXT.items():
        # SVG must name its XML namespace (an SVG file's xmlns, a script's createElementNS): an identifier
        # that is never fetched. Anything else that looks like a URL is one.
        text = text.replace('"http://www.w3.org/2000/svg"', '""')
        assert not re.search(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.IGNORECASE), path
        assert "@import" not in text, path


def test_every_local_reference_exists() -> None:
    checked = set()
    for path, text in TEXT.items():
        for ref in re.findall(REFERENCE, text):
            target = next(r for r in ref if r)
            if target.startswith("/static/"):
                resolved = STATIC_DIR / target.removeprefix("/static/")
            else:
                resolved = (path.parent / target).resolve()
            assert resolved.is_file(), f"{path.name} refers to missing {target}"
            checked.add(resolved)
    # Both pages' stylesheet and script, and the modules they import, were found and checked.
    names = {p.name for p in checked}
    assert {"holotable.css", "lobby.js", "table.js", "dom.js", "api.js", "rules.js", "common.js"} <= names
    assert {"coin-gold.svg", "coin-black.svg", "bag.svg"} <= names, "the art the pages draw with exists"


def test_every_game_has_a_rules_summary_and_a_page() -> None:
    rules = TEXT[STATIC_DIR / "js" / "rules.js"]
    table = TEXT[STATIC_DIR / "js" / "table.js"]
    assert "generic" in table
    for spec in specs():
        name, title = spec.name, spec.title
        assert re.search(rf'^  "?{re.escape(name)}"?: {{\n    title: "{re.escape(title)}"', rules, re.MULTILINE), name
    assert (STATIC_DIR / "games" / "generic.js").is_file()
    assert "const RENDERERS" not in table  # the page asks the server, which reads each game's manifest
    for spec in specs():
        # every game has a page of its own (the generic one stays reachable as ?page=plain)
        web = registry.manifest(spec.name).web
        assert web is not None, spec.name
        assert (STATIC_DIR / "games" / f"{web}.js").is_file(), spec.name
