// Black Hole: Kyrum — the table page of one campaign game: the boards as gauges, the area's four planets
// with their distance dice, crafting with its costs, exploration dice (animated when new), the script
// being read as a booklet page with its choices, the inventory and its study progress, narratives, the
// journey card, the objectives and the validation, and the end of the game with its notoriety and a
// link back to the campaign page (Thoth market, scoreboard, journal). The booklet shows every page
// being read in reading order (scripts, chained ones, encounter cards with their checks) with what each
// did; the whole game's story and the partner log fold out below it.
//
// Every legal move is one button (data-action = its text); the moves that belong to a part of the
// table are shown there (explore on a planet, study on a card, craft in the crafting panel...), the
// others in the "Your move" panel, so nothing legal is ever missing.
//
// Every card on the table can be read: a planet's, a discovery's, a narrative's, an item's or an
// encounter's name is a button that opens the card (its arrows, danger, checks, costs, effects) in a
// dialog, from the descriptions the server sends with the view (extra.cards, written from the pack).

import { facts, fill, h, plural } from "../js/dom.js";

const LABELS = { fuel: "Fuel", knowledge: "Knowledge", health: "Health", suit: "Suit", ship: "Ship", firepower: "Firepower" };
const SHORT = { common: "C", uncommon: "U", rare: "R", any: "any" };
const PHASES = {
  DISTANCE_WINDOW: "Distance window: explore a planet (the die says how far) or leave the area",
  AREA: "In the area: explore, craft, study, or leave",
  EXPLORATION: "Exploring a planet",
  SCRIPT: "Reading the booklet",
  TRADER: "The trader",
  ENCOUNTER: "An encounter",
  GAME_OVER: "The game is over",
};

// Dice shown last time: a new result gets the rolling animation once.
let lastDiceKey = "";
let diceChangedAt = 0;

function gauge(name, value, range) {
  const max = range ? range.max : 16;
  const pct = Math.max(0, Math.min(100, (100 * value) / max));
  const low = value <= Math.max(1, Math.floor(max / 6));
  return h("div", { class: `ky-gauge${low ? " low" : ""}`, dataset: { gauge: name } },
    h("span", { class: "ky-gauge-name" }, pic(name, 20), LABELS[name] || name),
    h("span", {
      class: "ky-track", role: "meter", "aria-label": LABELS[name] || name,
      "aria-valuemin": "0", "aria-valuemax": String(max), "aria-valuenow": String(value),
    }, h("span", { class: "ky-fill", style: `width:${pct}%` })),
    h("span", { class: "ky-gauge-value" }, `${value}/${max}`));
}

// ------------------------------------------------------------------ the art
const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

// Decorative pictures (the words beside them say the same): alt="", hidden from screen readers.
const ART = {
  fuel: { src: "/static/art/kyrum/fuel.svg" },
  knowledge: { src: "/static/art/kyrum/knowledge.svg" },
  health: { src: "/static/art/kyrum/health.svg" },
  suit: { src: "/static/art/kyrum/suit.svg" },
  ship: { src: "/static/art/kyrum/ship.svg" },
  firepower: { src: "/static/art/kyrum/firepower.svg" },
  common: { src: "/static/art/kyrum/element-common.svg" },
  uncommon: { src: "/static/art/kyrum/element-uncommon.svg" },
  rare: { src: "/static/art/kyrum/element-rare.svg" },
  discovery: { src: "/static/art/kyrum/discovery.svg" },
  narrative: { src: "/static/art/kyrum/narrative.svg" },
  item: { src: "/static/art/kyrum/item.svg" },
  encounter: { src: "/static/art/kyrum/encounter.svg" },
};

function pic(name, size = 24, cls = "ky-pic") {
  const art = ART[name];
  return art ? h("img", { src: art.src, alt: "", width: size, height: size, class: cls, "aria-hidden": "true" }) : null;
}

// Where the pips of a die's face lie (on a 0..24 square).
const PIPS = { 1: [[12, 12]], 2: [[6, 6], [18, 18]], 3: [[6, 6], [12, 12], [18, 18]], 4: [[6, 6], [18, 6], [6, 18], [18, 18]],
  5: [[6, 6], [18, 6], [12, 12], [6, 18], [18, 18]], 6: [[6, 6], [18, 6], [6, 12], [18, 12], [6, 18], [18, 18]] };

/** A die as a die: its face with pips (a number beyond six); `tone` white, black or distance. */
function die(value, fresh, label, tone = "distance") {
  const pips = PIPS[value];
  const face = svg("svg", { viewBox: "0 0 24 24", class: "ky-die-face", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 0.8, y: 0.8, width: 22.4, height: 22.4, rx: 4.5, class: "ky-die-body" }),
    pips ? pips.map(([x, y]) => svg("circle", { cx: x, cy: y, r: 2.3, class: "ky-pip" }))
      : svg("text", { x: 12, y: 16.5, "text-anchor": "middle", class: "ky-die-number" }, document.createTextNode(String(value))));
  return h("span", { class: `ky-die ky-die-${tone}${fresh ? " rolled" : ""}`, role: "img", "aria-label": `${label || "die"} ${value}`, dataset: { value: String(value) } },
    face);
}

/** A planet's picture, drawn from its number: its own colours, bands, rings or craters (the same every time). */
let artCount = 0;

function planetArt(seed) {
  let a = 2166136261;
  for (const ch of String(seed)) a = Math.imul(a ^ ch.charCodeAt(0), 16777619);
  const rand = () => { a = Math.imul(a ^ (a >>> 13), 1274126177); return ((a ^ (a >>> 16)) >>> 0) / 4294967296; };
  const hue = Math.floor(rand() * 360);
  artCount += 1;
  const id = `kyp-${artCount}`;
  const ringed = rand() > 0.6;
  const parts = [
    svg("defs", {},
      svg("radialGradient", { id, cx: "35%", cy: "30%", r: "75%" },
        svg("stop", { offset: "0", "stop-color": `hsl(${hue} 80% 78%)` }),
        svg("stop", { offset: ".55", "stop-color": `hsl(${(hue + 20) % 360} 60% 45%)` }),
        svg("stop", { offset: "1", "stop-color": `hsl(${(hue + 40) % 360} 55% 14%)` }))),
    svg("rect", { width: 120, height: 64, class: "ky-space" }),
  ];
  for (let i = 0; i < 14; i++) parts.push(svg("circle", { cx: (rand() * 120).toFixed(1), cy: (rand() * 64).toFixed(1), r: (rand() * 0.9 + 0.3).toFixed(2), class: "ky-star" }));
  if (ringed) parts.push(svg("ellipse", { cx: 60, cy: 34, rx: 40, ry: 8, class: "ky-ring back", transform: "rotate(-12 60 34)" }));
  parts.push(svg("circle", { cx: 60, cy: 34, r: 22, fill: `url(#${id})` }));
  for (let i = 0; i < 3; i++) {
    const y = 22 + rand() * 24;
    parts.push(svg("path", { d: `M${40 + rand() * 4} ${y.toFixed(1)}q20 ${(rand() * 6 - 3).toFixed(1)} ${36 + rand() * 4} 0`, class: "ky-band" }));
  }
  for (let i = 0; i < 3; i++) parts.push(svg("circle", { cx: (48 + rand() * 24).toFixed(1), cy: (24 + rand() * 20).toFixed(1), r: (1.5 + rand() * 3).toFixed(1), class: "ky-crater" }));
  if (ringed) parts.push(svg("path", { d: "M20 34a40 8 0 0 0 80 0", class: "ky-ring", transform: "rotate(-12 60 34)" }));
  return svg("svg", { viewBox: "0 0 120 64", class: "ky-planet-art", "aria-hidden": "true", focusable: "false" }, parts);
}

// What the page has shown: a new planet card is dealt in, a new discovery drawn (turned) in, once.
const shown = { planets: null, cards: null };

function recipeText(recipe) {
  if (recipe.gain) return Object.entries(recipe.gain).map(([g, n]) => `+${n} ${LABELS[g] || g}`).join(", ");
  if (recipe.distance === "reroll") return "re-roll a distance die";
  if (recipe.distance === "set1") return "set a distance die to 1";
  return JSON.stringify(recipe);
}

function cost(costs) {
  const parts = Object.entries(costs || {}).filter(([, n]) => n).map(([el, n]) => `${n} ${SHORT[el] || el}`);
  return parts.length ? parts.join(" + ") : "nothing";
}

function richText(text) {
  // Glossary links ([[term|label]]) are shown in bold italics, as in the booklet.
  const out = [];
  let last = 0;
  const re = /\[\[([^\]]+)\]\]/g;
  let m;
  while ((m = re.exec(text || ""))) {
    out.push(text.slice(last, m.index));
    const raw = m[1];
    out.push(h("strong", { class: "ky-term" }, h("em", {}, raw.includes("|") ? raw.split("|")[1] : raw)));
    last = m.index + m[0].length;
  }
  out.push((text || "").slice(last));
  return out;
}

function paragraphs(text) {
  return String(text || "").split(/\n\s*\n/).map((p) => h("p", {}, richText(p)));
}

const CARD_KINDS = { planet: "Planet", encounter: "Encounter", discovery: "Discovery", narrative: "Narrative discovery", item: "Thoth item" };

// The card dialog: one for the page, outside the game area (a redraw for a new state would close it).
let cardDialog = null;
let cardOpener = null;

function theCardDialog() {
  if (cardDialog && cardDialog.isConnected) return cardDialog;
  cardDialog = h("dialog", { id: "ky-card-dialog", class: "ky-card-dialog", "aria-labelledby": "ky-card-title" });
  cardDialog.addEventListener("close", () => {
    // The button that opened it may have been redrawn meanwhile: its successor has the same data-key.
    const back = cardOpener && document.querySelector(`[data-key="${CSS.escape(cardOpener)}"]`);
    if (back) back.focus();
  });
  cardDialog.addEventListener("click", (e) => { if (e.target === cardDialog) cardDialog.close(); });
  document.body.append(cardDialog);
  return cardDialog;
}

function showCard(card, openerKey) {
  const dialog = theCardDialog();
  cardOpener = openerKey;
  fill(dialog, h("article", { class: "ky-card-sheet", dataset: { card: card.key } },
    card.kind === "planet" ? planetArt(card.key) : null,
    h("header", { class: "ky-card-sheet-head" },
      pic(card.kind, 36, "ky-kind-pic"),
      h("span", { class: "badge" }, CARD_KINDS[card.kind] || card.kind),
      h("h2", { id: "ky-card-title" }, card.title)),
    card.text ? h("p", { class: "ky-card-prose" }, richText(card.text)) : null,
    h("dl", { class: "ky-card-lines" }, (card.lines || []).map(([label, value]) => [h("dt", {}, label), h("dd", {}, value)])),
    h("form", { method: "dialog", class: "actions" },
      h("button", { type: "submit", class: "primary", id: "ky-card-close" }, "Close"))));
  if (!dialog.open) dialog.showModal();
  dialog.querySelector("#ky-card-close").focus();
}

/** The name of a card on the table as a button that opens the card (plain text when no description came). */
function cardButton(ctx, key, label, cls = "") {
  const card = ((ctx.extra && ctx.extra.cards) || {})[key];
  if (!card) return h("span", { class: cls }, label);
  const id = `card:${key}`;
  return h("button", {
    type: "button", class: `ky-card-open ${cls}`.trim(), "aria-haspopup": "dialog", dataset: { card: key, key: id },
    title: `Read the card ${card.title}`, onclick: () => showCard(card, id),
  }, label);
}

/** A planet's two arrows, as its card says them (without the "white die higher:" part). */
function arrowsOf(ctx, key) {
  const card = ((ctx.extra && ctx.extra.cards) || {})[key];
  if (!card) return null;
  const lines = Object.fromEntries(card.lines || []);
  const after = (text) => String(text || "").split(": ").slice(1).join(": ");
  return h("ul", { class: "ky-arrows", "aria-label": "arrows" },
    h("li", { class: "white" }, h("span", { class: "ky-arrow", "aria-hidden": "true" }, "▷"), h("span", {}, `white: ${after(lines["White arrow"])}`)),
    h("li", { class: "black" }, h("span", { class: "ky-arrow", "aria-hidden": "true" }, "▶"), h("span", {}, `black: ${after(lines["Black arrow"])}`)));
}

class Moves {
  constructor(ctx) {
    this.ctx = ctx;
    this.left = new Set(ctx.legal);
  }

  has(text) {
    return this.left.has(text);
  }

  /** The button for a legal move (taken off the "other moves" list); null when it is not legal. */
  button(text, label, cls = "") {
    if (!this.left.has(text)) return null;
    this.left.delete(text);
    const ctx = this.ctx;
    return h("button", {
      type: "button", class: `action ${cls}`.trim(), disabled: ctx.busy, dataset: { action: text, key: `act:${text}` },
      onclick: () => ctx.act(text), title: text,
    }, label || text);
  }

  /** Every still unplaced legal move whose text starts with `prefix`. */
  take(prefix, describe) {
    return [...this.left].filter((t) => t === prefix || t.startsWith(`${prefix} `)).map((t) => this.button(t, describe ? describe(t) : t));
  }
}

function slotsPanel(view, moves, fresh) {
  const keys = (view.slots || []).map((s) => `${view.journey}:${view.area}:${s.slot}:${s.planet}`);
  const before = shown.planets;
  shown.planets = new Set(keys);
  return h("section", { class: "panel ky-area", "aria-labelledby": "ky-area-title" },
    h("h2", { id: "ky-area-title" }, `Area ${view.area} of journey ${view.journey}`),
    h("ol", { class: "ky-slots" }, (view.slots || []).map((s, i) => h("li", {
      class: `ky-planet${s.explored ? " explored" : ""}${view.exploring === s.slot ? " exploring" : ""}${before && !before.has(keys[i]) ? " dealt" : ""}`,
      dataset: { slot: String(s.slot) }, style: `--ky-deal-delay:${i * 90}ms`,
    },
    planetArt(`planet:${s.planet}`),
    h("div", { class: "ky-planet-head" },
      cardButton(moves.ctx, `planet:${s.planet}`, `${s.name}`, "ky-planet-name"),
      h("span", { class: "badge", title: "danger" }, `danger ${s.danger}`)),
    arrowsOf(moves.ctx, `planet:${s.planet}`),
    h("div", { class: "ky-distance" }, h("span", { class: "muted" }, "distance "),
      die(s.die, fresh && view.phase === "DISTANCE_WINDOW", `distance die of ${s.name}`)),
    h("p", { class: "ky-desc" }, s.description),
    s.explored ? h("p", { class: "muted" }, "explored") : null,
    h("div", { class: "actions" },
      moves.button(`explore ${s.slot}`, `Explore ${s.name} (distance ${s.die})`, "primary"))))),
    view.dice && view.dice.length
      ? h("div", { class: "ky-dice", "aria-live": "polite" }, h("span", {}, "Exploration dice: "),
        view.dice.map((d, i) => die(d, fresh, `exploration die ${i + 1}${view.dice.length === 2 ? (i ? " (black)" : " (white)") : ""}`,
          view.dice.length === 2 ? (i ? "black" : "white") : "white")),
        h("strong", {}, ` total ${view.dice.reduce((a, b) => a + b, 0)}`))
      : null);
}

function boardsPanel(view, ref) {
  const g = view.gauges || {};
  const ranges = ref.gauges || {};
  const el = view.elements || {};
  return h("section", { class: "panel ky-boards", "aria-labelledby": "ky-boards-title" },
    h("h2", { id: "ky-boards-title" }, "Boards"),
    h("div", { class: "ky-board-grid" },
      h("div", {}, h("h3", {}, "Fuel & knowledge"), ["fuel", "knowledge"].map((k) => gauge(k, g[k] ?? 0, ranges[k]))),
      h("div", {}, h("h3", {}, "Dashboard"), ["health", "suit", "ship", "firepower"].map((k) => gauge(k, g[k] ?? 0, ranges[k]))),
      h("div", {}, h("h3", {}, "Elements"), ["common", "uncommon", "rare"].map((k) => h("div", { class: "ky-gauge", dataset: { element: k } },
        h("span", { class: "ky-gauge-name" }, pic(k, 20), k),
        h("span", { class: "ky-track el", role: "meter", "aria-label": `${k} elements`, "aria-valuemin": "0", "aria-valuemax": "6", "aria-valuenow": String(el[k] ?? 0) },
          h("span", { class: "ky-fill", style: `width:${(100 * (el[k] ?? 0)) / 6}%` })),
        h("span", { class: "ky-gauge-value" }, `${el[k] ?? 0}/6 (supply ${(view.supply || {})[k] ?? "?"})`))))));
}

// A planet slot as the player names it: the planet on it and its distance die (slots count from 1).
function slotWords(view, index) {
  const s = (view.slots || []).find((x) => x.slot === index);
  return s ? `${s.name} (die ${s.die})` : `slot ${index + 1}`;
}

function craftingPanel(view, ref, moves) {
  const crafting = ref.crafting || {};
  const rows = [];
  for (const [element, recipes] of Object.entries(crafting)) {
    for (const r of recipes) {
      const name = r.name;
      const buttons = name === "reroll" || name === "set1"
        ? moves.take(`craft ${element} ${name}`, (t) => slotWords(view, Number(t.split(" ")[3])))
        : [moves.button(`craft ${element} ${name}`, "Craft")];
      rows.push(h("tr", {},
        h("td", {}, `1 ${element}`), h("td", {}, recipeText(r.recipe)),
        h("td", {}, h("div", { class: "actions" }, buttons.filter(Boolean).length ? buttons : h("span", { class: "muted" }, "—")))));
    }
  }
  return h("section", { class: "panel ky-craft", "aria-labelledby": "ky-craft-title" },
    h("h2", { id: "ky-craft-title" }, "Crafting"),
    h("div", { class: "scroll-x" }, h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, "Cost"), h("th", {}, "Gives"), h("th", {}, "Craft"))),
      h("tbody", {}, rows))));
}

function inventoryPanel(view, moves) {
  const cards = view.inventory || [];
  const narr = (view.narratives || []).filter((n) => n.state === "active");
  const shownBefore = shown.cards;
  shown.cards = new Set(cards.map((c) => c.ref));
  return h("section", { class: "panel ky-inventory", "aria-labelledby": "ky-inv-title" },
    h("h2", { id: "ky-inv-title" }, `Inventory (${plural(cards.length, "discovery", "discoveries")})`),
    cards.length ? h("ul", { class: "ky-cards" }, cards.map((c) => {
      const drawn = shownBefore && !shownBefore.has(c.ref);
      const need = Object.values(c.cost || {}).reduce((a, b) => a + b, 0);
      const have = Object.values(c.paid || {}).reduce((a, b) => a + b, 0) + Object.values(c.waived || {}).reduce((a, b) => a + b, 0);
      return h("li", { class: `ky-card ky-card-discovery${c.studied ? " studied" : ""}${drawn ? " drawn" : ""}`, dataset: { card: c.ref } },
        h("div", { class: "ky-planet-head" }, pic("discovery", 28, "ky-kind-pic"), cardButton(moves.ctx, `discovery:${c.id}`, `${c.ref.toUpperCase()} ${c.name}`), h("span", { class: "badge" }, c.type)),
        h("p", { class: "muted" }, `study cost ${cost(c.cost)}; paid ${cost(c.paid)}; knowledge ${c.knowledge}, notoriety ${c.notoriety}`),
        h("div", { class: "ky-track", role: "progressbar", "aria-label": `study of ${c.name}`, "aria-valuemin": "0", "aria-valuemax": String(need || 1), "aria-valuenow": String(c.studied ? need : have) },
          h("span", { class: "ky-fill", style: `width:${c.studied ? 100 : need ? (100 * have) / need : 0}%` })),
        c.studied ? h("p", { class: "good" }, "studied") : null,
        h("div", { class: "actions" }, moves.take(`study ${c.ref}`, (t) => `Study: ${t.split(" ").slice(2).join(" ")}`),
          moves.take(`discard ${c.ref}`, () => `Discard ${c.name}`)));
    })) : h("p", { class: "muted" }, "No discovery yet."),
    h("h3", {}, "Narrative discoveries"),
    narr.length ? h("ul", { class: "ky-cards" }, narr.map((n) => h("li", { class: "ky-card narrative" },
      pic("narrative", 28, "ky-kind-pic"), cardButton(moves.ctx, `narrative:${n.nd_id}`, `${(n.ref || "").toUpperCase()} ${n.name || n.nd_id || "narrative"}`),
      n.text ? h("p", {}, richText(n.text)) : null,
      h("p", { class: "muted" }, `study cost ${cost(n.cost)}; paid ${cost(n.paid)}; once studied, read script ${n.on_complete}`),
      h("div", { class: "actions" }, n.ref ? moves.take(`study ${n.ref}`, (t) => `Study: ${t.split(" ").slice(2).join(" ")}`) : null))))
      : h("p", { class: "muted" }, "None active."));
}

function encounterFacts(view, ctx) {
  const name = (eid) => cardButton(ctx, `encounter:${eid}`, (((ctx.extra && ctx.extra.cards) || {})[`encounter:${eid}`] || {}).title || eid);
  const removed = view.encounter_removed || [];
  return [
    view.encounter_in_play ? ["Encounter in play", name(view.encounter_in_play)] : null,
    removed.length ? ["Removed encounters", h("span", { class: "ky-card-list" }, removed.map(name))] : null,
  ];
}

function journeyPanel(view, ctx) {
  return h("section", { class: "panel ky-journey", "aria-labelledby": "ky-journey-title" },
    h("h2", { id: "ky-journey-title" }, "Journey card"),
    h("ol", { class: "ky-journey-track", "aria-label": "journeys" }, Array.from({ length: view.journeys || 4 }, (_, i) => i + 1).map((j) => h("li", { class: j === view.journey ? "current" : j < view.journey ? "done" : "" }, `Journey ${j}`))),
    facts([
      ["Journey", `${view.journey} (worth ${view.journey_np} notoriety)`],
      ["Area", `${view.area}; ${plural(view.areas_revealed || 0, "area")} revealed`],
      ["Planet deck", `${view.planet_deck_size} cards${view.top_planet_back_alert ? " — top card shows an alert" : ""}`],
      ["Encounters", `${view.encounter_deck_size} in the deck`],
      ...encounterFacts(view, ctx),
      ["Discovery deck", String(view.discovery_deck_size)],
      ["Story notoriety", String(view.script_np)],
      ["Notoriety banked", String(view.np_bank)],
      ["Main scripts read", `${view.main_scripts_read} of ${view.main_scripts_total}`],
      view.travel_discounts && view.travel_discounts.length ? ["Travel discounts", view.travel_discounts.map(([a, u]) => `-${a} (${u} use)`).join(", ")] : null,
    ]));
}

function objectivesPanel(view, moves) {
  return h("section", { class: "panel ky-objectives", "aria-labelledby": "ky-obj-title" },
    h("h2", { id: "ky-obj-title" }, "Objectives"),
    h("ul", { class: "ky-objective-list" }, (view.objectives || []).map((o) => h("li", { class: o.satisfied ? "done" : "", dataset: { objective: o.letter } },
      h("span", { class: "ky-check", "aria-hidden": "true" }, o.satisfied ? "✓" : "✗"),
      h("strong", {}, `${o.letter} ${o.title}`), " ", h("span", {}, o.text),
      h("span", { class: "sr-only" }, o.satisfied ? " (satisfied)" : " (not yet)")))),
    h("div", { class: "actions" }, moves.button("validate", "Validate the objectives (end the game)", "primary")));
}

function itemsPanel(view, ref, moves) {
  const items = Object.entries(view.items || {});
  const refs = Object.fromEntries((ref.items || []).map((i) => [i.id, i]));
  if (!items.length) return null;
  return h("section", { class: "panel ky-items", "aria-labelledby": "ky-items-title" },
    h("h2", { id: "ky-items-title" }, "Thoth items"),
    h("ul", { class: "ky-cards" }, items.map(([iid, it]) => {
      const r = refs[iid] || {};
      return h("li", { class: "ky-card ky-card-item" }, pic("item", 28, "ky-kind-pic"), cardButton(moves.ctx, `item:${iid}`, `${it.name} ×${it.owned}`),
        r.text ? h("p", { class: "muted" }, r.text) : null,
        h("p", { class: "muted" }, `used this game: ${it.used_this_game}`),
        h("div", { class: "actions" }, r.ref ? moves.take(`use ${r.ref}`, (t) => `Use ${it.name}${t.split(" ").length > 2 ? `: ${t.split(" ").slice(2).join(" ")}` : ""}`) : null));
    })));
}

const KIND_NAMES = { secondary: "secondary script", narrative: "narrative discovery", end_of_game: "end of the game", black_hole: "the Black Hole" };

// One page read (a script, or an encounter card): its text, what it said, a danger card's check and
// what it did, as the terminal shows it. ``fresh``: written since your last move.
function storyPage(page, fresh) {
  const encounter = page.kind === "encounter";
  const kind = KIND_NAMES[page.kind];
  return h("article", { class: `ky-page${fresh ? " new" : ""}${encounter ? " ky-encounter" : ""}`, dataset: { page: page.code } },
    h("header", { class: "ky-page-head" },
      encounter ? pic("encounter", 28, "ky-kind-pic") : null,
      h("span", { class: "ky-code" }, encounter ? "Encounter" : page.code),
      h("h3", {}, page.title || ""),
      kind ? h("span", { class: "ky-kind" }, kind) : null,
      fresh ? h("span", { class: "badge ky-new" }, "new") : null),
    ...paragraphs(page.text),
    ...(page.says || []).map((say) => h("p", { class: "ky-say" }, richText(String(say)))),
    page.check_text ? h("p", { class: "ky-check-line" }, h("strong", {}, "Check: "), page.check_text) : null,
    page.effects && page.effects.length ? h("ul", { class: "ky-effects", "aria-label": "What it did" },
      page.effects.map((e) => h("li", {}, e))) : null);
}

function partnerMessages(view, onlyHeard) {
  return (view.partner_log || []).filter((m) => !onlyHeard || m.direction === "received").map((m) => m.direction === "received"
    ? h("li", { class: `ky-received${m.new ? " new" : ""}` }, m.new ? h("span", { class: "badge ky-new" }, "new") : null,
      h("strong", {}, `${m.from || "Your partner"} (their game ${m.game}): `), m.text)
    : h("li", { class: "ky-sent" }, h("span", { class: "muted" }, `You sent (game ${m.game}): `), m.text || "(nothing)"));
}

function bookletPage(view, moves, ctx) {
  const pages = view.pages || [];
  const dec = view.decision;
  if (!pages.length && !(dec && (dec.kind === "choice" || dec.kind === "partner" || dec.kind === "offer"))) return null;
  // Every page being read, in reading order: those written since your last move are marked new.
  const body = pages.map((p) => storyPage(p, p.new));
  const asks = [];
  if (dec && dec.kind === "offer") {
    asks.push(h("p", { class: "ky-prompt" }, `A script is offered (${dec.code}): read it or refuse it.`));
    asks.push(h("div", { class: "actions" }, moves.button("read", "Read the script", "primary"), moves.button("refuse", "Refuse")));
  }
  if (dec && dec.kind === "choice") {
    asks.push(h("p", { class: "ky-prompt" }, richText(dec.prompt)));
    asks.push(h("ol", { class: "ky-choices" }, (dec.labels || []).map((label, i) => {
      const button = moves.button(`option ${i + 1}`, `${i + 1}. ${label}`, "ky-choice");
      return h("li", {}, button || h("span", { class: "ky-choice disabled", "aria-disabled": "true" }, `${i + 1}. ${label} (not possible now)`));
    })));
  }
  if (dec && dec.kind === "partner") {
    asks.push(h("p", { class: "ky-prompt" }, richText(dec.prompt)));
    const heard = partnerMessages(view, true);
    asks.push(heard.length ? h("ol", { class: "ky-partner-heard", "aria-label": "Your partner's transmissions, oldest first" }, heard)
      : h("p", { class: "muted" }, "No transmission from your partner has reached you yet."));
    if (moves.has("send")) {
      moves.left.delete("send");
      const input = h("input", { type: "text", id: "ky-message", maxlength: "500", "aria-label": "Message for your partner", dataset: { key: "ky-message", keep: "" }, placeholder: "One line for the other Jaakub" });
      asks.push(h("form", {
        class: "actions ky-send", onsubmit: (e) => {
          e.preventDefault();
          const text = input.value.trim().replace(/[\r\n]+/g, " ");
          ctx.act(text ? `send ${text}` : "send");
        },
      }, input, h("button", { type: "submit", class: "primary", disabled: ctx.busy, dataset: { action: "send", key: "act:send" } }, "Send")));
    }
  }
  if (asks.length) body.push(h("div", { class: "ky-page ky-asks" }, asks));
  return h("section", { class: "panel ky-booklet", "aria-labelledby": "ky-booklet-title" },
    h("h2", { id: "ky-booklet-title" }, "Booklet"), body);
}

// Which fold-outs the player opened: the page is redrawn for every message, and they stay open.
const opened = { story: false, partner: false };

function fold(name, summary, ...body) {
  return h("details", { class: `ky-fold ky-fold-${name}`, open: opened[name], ontoggle: (e) => { opened[name] = e.target.open; } },
    h("summary", {}, summary), ...body);
}

// The whole game's story so far and the campaign's partner log, folded away until opened.
function storyPanel(view) {
  const story = view.story || [];
  const log = view.partner ? partnerMessages(view, false) : [];
  if (!story.length && !view.partner) return null;
  return h("section", { class: "panel ky-story", "aria-labelledby": "ky-story-title" },
    h("h2", { id: "ky-story-title" }, "Story"),
    fold("story", `Story so far (${plural(story.length, "page")} this game)`,
      story.length ? story.map((p) => storyPage(p, false)) : h("p", { class: "muted" }, "Nothing has been read in this game yet.")),
    view.partner ? fold("partner", `Partner log (${plural(log.length, "transmission")})`,
      log.length ? h("ol", { class: "ky-partner-list" }, log) : h("p", { class: "muted" }, "Nothing sent or heard yet.")) : null);
}

function marketPanel(view, ref, moves) {
  const dec = view.decision;
  if (!dec || dec.kind !== "market") return null;
  const items = ref.items || [];
  return h("section", { class: "panel ky-market", "aria-labelledby": "ky-market-title" },
    h("h2", { id: "ky-market-title" }, "Thoth market (end of game)"),
    h("p", {}, `Your bank holds ${view.np_bank} notoriety points. You may also buy later, on the campaign page, until the next game starts.`),
    h("ul", { class: "ky-cards" }, items.map((it) => h("li", { class: "ky-card ky-card-item" },
      pic("item", 28, "ky-kind-pic"), cardButton(moves.ctx, `item:${it.id}`, `${it.name} — ${it.cost} notoriety points`), h("p", { class: "muted" }, it.text),
      moves.button(`buy ${it.ref}`, `Buy ${it.name}`)))),
    h("div", { class: "actions" }, moves.button("close", "Close the market", "primary")));
}

function resultPanel(view, ctx) {
  const r = view.result;
  if (!r) return null;
  const np = r.np || {};
  const url = ctx.extra && ctx.extra.campaign_url;
  return h("section", { class: "panel ky-result", "aria-labelledby": "ky-result-title" },
    h("h2", { id: "ky-result-title" }, r.outcome === "victory" ? "Victory" : r.outcome === "defeat" ? "Defeat" : `Game over: ${r.outcome}`),
    r.reason ? h("p", {}, `Why: ${String(r.reason).replaceAll("_", " ")}.`) : null,
    h("table", { class: "grid ky-np" }, h("caption", {}, "Notoriety"),
      h("tbody", {}, Object.entries(np).map(([k, v]) => h("tr", { class: k === "total" ? "total" : "" }, h("th", { scope: "row" }, k), h("td", { class: "num" }, String(v)))))),
    url ? h("p", {}, h("a", { class: "button primary", id: "ky-back-to-campaign", href: url }, "Back to the campaign (market, scoreboard, next game)")) : null);
}

export default {
  stylesheet: "kyrum",
  scoreLabel: "Notoriety",

  prompt(ctx) {
    if (ctx.view && ctx.view.private) return "this campaign game is private";
    const dec = ctx.view && ctx.view.decision;
    if (dec && dec.kind === "choice") return "choose an option in the booklet";
    if (dec && dec.kind === "partner") return "write a message for your partner's Jaakub";
    if (dec && dec.kind === "offer") return "read or refuse the script";
    if (dec && dec.kind === "market") return "buy at the Thoth market or close it";
    return PHASES[ctx.view && ctx.view.phase] ? PHASES[ctx.view.phase].toLowerCase() : "choose a move";
  },

  render(ctx) {
    const view = ctx.view || {};
    if (view.private) {
      return h("section", { class: "panel", "aria-labelledby": "ky-private-title" },
        h("h2", { id: "ky-private-title" }, `A private campaign game (game ${view.game_number})`),
        h("p", {}, "This table plays a game of someone's Kyrum campaign: only its player sees the board, the scripts and the log."));
    }
    const ref = (ctx.extra && ctx.extra.reference) || {};
    const moves = new Moves(ctx);
    // The page is redrawn for every message (and while a move is on its way): the dice count as new for
    // a moment after their faces changed, so the drawing that shows them first rolls them in.
    const diceKey = `${JSON.stringify(view.dice)}|${JSON.stringify((view.slots || []).map((s) => s.die))}`;
    if (diceKey !== lastDiceKey) {
      diceChangedAt = lastDiceKey === "" ? 0 : Date.now();
      lastDiceKey = diceKey;
    }
    const fresh = Date.now() - diceChangedAt < 1500;

    const head = h("section", { class: "panel ky-head", "aria-labelledby": "ky-head-title" },
      h("h2", { id: "ky-head-title" }, `Game ${view.game_number} — ${PHASES[view.phase] || view.phase}`),
      h("div", { class: "status-bar" },
        h("span", { class: "badge" }, `journey ${view.journey}/${view.journeys || 4}`),
        h("span", { class: "badge" }, `area ${view.area}`),
        h("span", { class: "badge" }, `${view.np_bank} notoriety points in the bank`),
        view.partner ? h("span", { class: "badge" }, "Black Hole partner") : null,
        ctx.extra && ctx.extra.campaign_url ? h("a", { href: ctx.extra.campaign_url, id: "ky-campaign-link" }, "Campaign page") : null));

    // The parts of the table take their own moves first; what is left goes to "Your move".
    const booklet = bookletPage(view, moves, ctx);
    const market = marketPanel(view, ref, moves);
    const area = slotsPanel(view, moves, fresh);
    const objectives = objectivesPanel(view, moves);
    const inventory = inventoryPanel(view, moves);
    const items = itemsPanel(view, ref, moves);
    const crafting = craftingPanel(view, ref, moves);
    const trader = view.decision && view.decision.kind === "trader"
      ? moves.take("trade", (t) => `Trade (${t.split(" ")[1]}): ${t.split(" ").slice(2).join(", ")}`) : [];
    const named = {
      leave: "Leave the area", pass: "Pass", skip: "Skip", roll: "Roll for the encounter", close: "Close", concede: "Concede the game",
    };
    const rest = [...moves.left].filter((t) => t !== "concede").map((t) => moves.button(t, named[t] || t));
    const concede = moves.button("concede", named.concede, "ky-concede");
    const mine = ctx.legal.length > 0;
    const ask = mine ? h("section", { class: "panel ask", id: "your-move", tabindex: "-1", "aria-labelledby": "your-move-title" },
      h("h2", { id: "your-move-title" }, "Your move"),
      h("p", {}, this.prompt(ctx)),
      trader.length ? h("div", { class: "actions-group" }, h("h3", {}, "Trader"), h("div", { class: "actions" }, trader)) : null,
      rest.length ? h("div", { class: "actions" }, rest)
        : h("p", { class: "muted" }, "Your moves are on the table below: the booklet, the planets, crafting, the inventory and the objectives."),
      concede ? h("details", { class: "ky-danger" }, h("summary", {}, "Give up this game"), h("div", { class: "actions" }, concede)) : null) : null;

    return h("div", { class: "ky-table" },
      head,
      resultPanel(view, ctx),
      ask,
      booklet,
      market,
      storyPanel(view),
      h("div", { class: "ky-columns" },
        h("div", {}, area, crafting, inventory, items),
        h("div", {}, boardsPanel(view, ref), objectives, journeyPanel(view, ctx))));
  },

  result(ctx) {
    const r = ctx.view && ctx.view.result;
    const url = ctx.extra && ctx.extra.campaign_url;
    return h("div", {}, r ? h("p", {}, `${r.outcome === "victory" ? "Victory" : "Defeat"}: ${(r.np || {}).total ?? 0} notoriety points this game.`) : null,
      url ? h("p", {}, h("a", { href: url, class: "button primary", id: "ky-result-campaign" }, "Open the campaign page")) : null);
  },
};
