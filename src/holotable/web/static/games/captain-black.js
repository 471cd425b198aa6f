// Captain Black: the bag, the island's black coins, each box, the chest and parrot cards, the
// draw (how many coins to grab, with the odds of an all-gold grab), and each round's awards.

import { facts, h, plural } from "../js/dom.js";
import { motionStyle, motions } from "./common.js";

// The number last chosen: offered again next turn (within the bag's range).
let lastCount = 3;

// The pieces, drawn as art (static/art/captain-black/, CC0, see art/LICENSE.md). Decorative: the
// words beside each picture say what it shows.
const ART = {
  gold: { src: "/static/art/captain-black/coin-gold.svg" },
  black: { src: "/static/art/captain-black/coin-black.svg" },
  empty: { src: "/static/art/captain-black/island-field.svg" },
  filled: { src: "/static/art/captain-black/chest-filled.svg" },
  emptyChest: { src: "/static/art/captain-black/chest-empty.svg" },
  chestBack: { src: "/static/art/captain-black/chest-back.svg" },
  parrot: { src: "/static/art/captain-black/parrot.svg" },
  bag: { src: "/static/art/captain-black/bag.svg" },
};

function art(which, cls, attrs = {}) {
  return h("img", { class: cls, src: which.src, alt: "", "aria-hidden": "true", draggable: "false", ...attrs });
}

// Motion: coins drop from the bag and onto the island, the chests fill at a round's end, parrot cards
// turn over (all of it off under prefers-reduced-motion, in holotable.css). The page is drawn anew on
// every state; a motion keeps its start, and a redraw meanwhile resumes it (a negative delay, --t).
const GRAB_MS = 1600;
const DROP_MS = 1300;
const ROUND_MS = 3600;
const motion = motions();
const startMotion = motion.start;
const motionOf = motion.of;
let seen = null; // {table, ply, island, rounds, chestCounts, boxes}

/** What changed since the last picture (a draw, a black coin on the island, a round's end) starts its motion. */
function noteChanges(ctx) {
  const view = ctx.view;
  const now = {
    table: ctx.tableId, ply: ctx.payload.ply, island: view.island, rounds: (view.rounds || []).length,
    chestCounts: [...(view.chest_counts || [])], boxes: [...(view.boxes || [])], round: view.round,
  };
  const before = seen;
  seen = now;
  if (!before || before.table !== now.table || !(now.ply > before.ply)) return;
  if (view.last_draw) startMotion("grab", GRAB_MS, { ply: now.ply });
  if (now.round === before.round && now.island > before.island) {
    for (let i = before.island; i < now.island; i++) startMotion(`field:${now.round}:${i}`, DROP_MS, { i: i - before.island });
  }
  now.boxes.forEach((b, s) => {
    if (b !== null && before.boxes[s] !== null && b > before.boxes[s]) startMotion(`box:${s}`, DROP_MS);
  });
  if (now.rounds > before.rounds) {
    startMotion(`round:${now.rounds}`, ROUND_MS);
    now.chestCounts.forEach((c, s) => {
      if (c > (before.chestCounts[s] ?? c)) startMotion(`chests:${s}`, ROUND_MS, { from: before.chestCounts[s] });
    });
    // The "round over" moment goes when it has played (a later state would take it away anyway).
    setTimeout(() => { if (!motionOf(`round:${now.rounds}`)) ctx.redraw(); }, ROUND_MS + 50);
  }
}

function draws(ctx) {
  return ctx.legal.map((t) => Number(/^draw\s+(\d+)$/.exec(t)?.[1])).filter((k) => Number.isInteger(k));
}

/** Chance that a blind grab of k coins is all gold: C(gold, k) / C(gold + black, k). */
export function allGoldChance(gold, black, k) {
  let p = 1;
  for (let i = 0; i < k; i++) p *= (gold - i) / (gold + black - i);
  return Math.max(0, p);
}

function coins(n, cls, max = 60, motion = () => null) {
  const shown = Math.min(n, max);
  return h("span", { class: "coins", "aria-hidden": "true" }, Array.from({ length: shown }, (_, i) => {
    const m = motion(i);
    return art(ART[cls], `coin ${cls}${m ? " drop" : ""}`, { width: 24, height: 24, style: m ? motionStyle(m, m.data ? m.data.i : i) : null });
  }));
}

/** The coins of the last grab, out of the bag (gold, then the black ones that spoil it). */
function grabbed(view) {
  const d = view.last_draw;
  const m = motionOf("grab");
  if (!d) return null;
  // A big handful shows its first coins and every black one (the one that spoils it), then how many more.
  const black = Math.min(d.black, 8);
  const gold = Math.min(d.gold, 20 - black);
  const pieces = [...Array(gold).fill("gold"), ...Array(black).fill("black")];
  const more = d.gold + d.black - pieces.length;
  return h("div", { class: `cb-grab${m ? " fresh" : ""}`, id: "last-grab", "aria-hidden": "true" },
    h("span", { class: "muted" }, "Last grab"),
    pieces.map((c, i) => art(ART[c], `coin ${c}${m ? " drop" : ""}`, { width: 24, height: 24, style: m ? motionStyle(m, i) : null })),
    more > 0 ? h("span", { class: "muted" }, `+${more}`) : null);
}

function bagPanel(view) {
  const bag = view.bag || {};
  const total = "coins" in bag ? bag.coins : (bag.gold ?? 0) + (bag.black ?? 0);
  const detail = "gold" in bag ? `${bag.gold} gold and ${bag.black} black` : "its colours are secret in this variant";
  return h("section", { class: "panel", "aria-labelledby": "cb-bag" },
    h("h2", { id: "cb-bag" }, "The bag"),
    h("img", { class: `bag-art${motionOf("grab") ? " shake" : ""}`, src: "/static/art/captain-black/bag.svg", alt: "", width: 56, height: 56 }),
    h("p", { class: "big-number", id: "bag-count" }, String(total)),
    h("p", {}, `${plural(total, "coin")} in the bag: ${detail}.`),
    grabbed(view),
  );
}

function islandPanel(view) {
  const fields = view.island_fields;
  const rounds = (view.rounds || []).length;
  const over = rounds ? motionOf(`round:${rounds}`) : null;
  return h("section", { class: "panel cb-island-panel", "aria-labelledby": "cb-island" },
    h("h2", { id: "cb-island" }, "The island"),
    h("p", { class: "big-number", id: "island-count" }, `${view.island} / ${fields}`),
    h("div", { class: "cb-island", id: "island-fields" },
      coins(view.island, "black", 60, (i) => motionOf(`field:${view.round}:${i}`)), coins(Math.max(0, fields - view.island), "empty")),
    over ? h("p", { class: "cb-round-over", id: "round-over", style: motionStyle(over) },
      `Round ${view.rounds[rounds - 1].round} over: the chests are handed out.`) : null,
    h("p", {}, `Black coins on the island. The round ends when all ${fields} fields are full.`),
  );
}

function lastDrawText(view, ctx) {
  const d = view.last_draw;
  if (!d) return null;
  const who = ctx.name(d.seat);
  return d.black === 0
    ? `${who} grabbed ${plural(d.k, "coin")}: all gold, +${d.k} into the box.`
    : `${who} grabbed ${plural(d.k, "coin")}: ${d.gold} gold and ${d.black} black. The black coin went to the island; nothing gained.`;
}

function chestChips(cards, fresh) {
  if (!cards) return null;
  if (!cards.length) return h("span", { class: "muted" }, "no chest cards yet");
  return cards.map((c, i) => {
    const m = fresh && i >= fresh.data.from ? fresh : null;
    return h("span", { class: `chest ${c}${m ? " fresh" : ""}`, style: m ? motionStyle(m, i - fresh.data.from) : null }, c === "filled" ? "filled chest" : "empty chest");
  });
}

/** Another seat's chest cards, face down: how many, never what they are. */
function chestBacks(n, fresh) {
  return h("span", { class: "chest-backs", "aria-hidden": "true" }, Array.from({ length: Math.min(n, 12) }, (_, i) => {
    const m = fresh && i >= fresh.data.from ? fresh : null;
    return art(ART.chestBack, `chest-back${m ? " fresh" : ""}`, { width: 18, height: 24, style: m ? motionStyle(m, i - fresh.data.from) : null });
  }));
}

function boxesPanel(view, ctx) {
  const n = view.boxes.length;
  const items = [];
  for (let seat = 0; seat < n; seat++) {
    const box = view.boxes[seat];
    const marks = [];
    if (seat === view.start_player) marks.push(h("span", { class: "badge" }, "ship: starts the round"));
    if (seat === view.bag_holder) marks.push(h("span", { class: "badge turn" }, "holds the bag"));
    const parrots = view.parrots[seat] || [];
    const gain = motionOf(`box:${seat}`);
    const fresh = motionOf(`chests:${seat}`);
    items.push(h("li", { class: seat === view.bag_holder ? "holder" : "", dataset: { seat: String(seat) } },
      h("span", { class: "who" }, ctx.label(seat)),
      h("span", { class: `box${gain ? " gain" : ""}`, style: gain ? motionStyle(gain) : null },
        art(box === null || box === undefined ? ART.chestBack : ART.gold, "box-art", { width: 20, height: 20 }),
        box === null || box === undefined ? "box: not shown" : `box: ${plural(box, "gold coin")}`),
      h("span", {}, view.chests[seat] ? chestChips(view.chests[seat], fresh)
        : [chestBacks(view.chest_counts[seat], fresh), `${plural(view.chest_counts[seat], "chest card")} (secret)`]),
      parrots.length ? h("span", {}, parrots.map((v) => h("span", { class: "parrot" }, `parrot ${v}`))) : null,
      marks,
    ));
  }
  // The hidden-tally variant shows only your own box, as the physical coin slots do; but it hides
  // nothing a careful player cannot work out, and the page says so (see docs/games/captain-black.md).
  const tallyHidden = view.boxes.some((b) => b === null || b === undefined);
  return h("section", { class: "panel", "aria-labelledby": "cb-boxes" },
    h("h2", { id: "cb-boxes" }, "Boxes and chests"),
    h("ul", { class: "boxes" }, items),
    lastDrawText(view, ctx) ? h("p", { id: "last-draw" }, lastDrawText(view, ctx)) : null,
    tallyHidden ? h("p", { class: "muted", id: "tally-note" },
      "The others' boxes are not shown in this variant, as the coins drop out of sight into each box. " +
      "A careful player can still work every box out: the log says who grabbed only gold, and each such " +
      "grab makes the bag that many coins lighter.") : null,
  );
}

function drawPanel(ctx) {
  const ks = draws(ctx);
  if (!ks.length) return null;
  const view = ctx.view;
  const low = Math.min(...ks);
  const high = Math.max(...ks);
  const legal = new Set(ks);
  const start = Math.min(high, Math.max(low, lastCount));
  const input = h("input", {
    id: "draw-count", type: "number", min: low, max: high, step: 1, value: start, inputmode: "numeric",
    "aria-describedby": "draw-odds", dataset: { key: "draw-count", keep: "" },
  });
  const go = h("button", { type: "button", class: "primary", id: "draw-button", dataset: { key: "draw-button" } });
  const odds = h("p", { class: "odds", id: "draw-odds", "aria-live": "polite" });
  const minus = h("button", { type: "button", class: "small", "aria-label": "One coin fewer", dataset: { key: "draw-minus" } }, "−");
  const plus = h("button", { type: "button", class: "small", "aria-label": "One coin more", dataset: { key: "draw-plus" } }, "+");
  const bag = view.bag || {};
  const update = () => {
    const k = Number(input.value);
    if (legal.has(k)) lastCount = k;
    const ok = legal.has(k);
    go.disabled = ctx.busy || !ok;
    go.textContent = ok ? `Grab ${plural(k, "coin")}` : "Grab";
    go.dataset.action = ok ? `draw ${k}` : "";
    if (!ok) odds.textContent = `Choose a number from ${low} to ${high}.`;
    else if ("gold" in bag) {
      const p = allGoldChance(bag.gold, bag.black, k);
      odds.textContent = `Chance that all ${k} are gold: ${(100 * p).toFixed(p < 0.01 && p > 0 ? 2 : 0)}%. If so, +${k} into your box.`;
    } else odds.textContent = `If all ${k} are gold, they go into your box.`;
    minus.disabled = ctx.busy || k <= low;
    plus.disabled = ctx.busy || k >= high;
  };
  input.addEventListener("input", update);
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !go.disabled) go.click();
  });
  minus.addEventListener("click", () => { input.value = String(Math.max(low, Number(input.value) - 1)); update(); });
  plus.addEventListener("click", () => { input.value = String(Math.min(high, Number(input.value) + 1)); update(); });
  go.addEventListener("click", () => {
    const k = Number(input.value);
    if (legal.has(k)) ctx.act(`draw ${k}`);
  });
  update();
  const quick = [1, 2, 3, 4, 5, 6].filter((k) => legal.has(k)).map((k) => h("button", {
    type: "button", class: "small quick", dataset: { action: `draw ${k}`, key: `quick:${k}` }, disabled: ctx.busy,
    "aria-label": `Grab ${plural(k, "coin")}`,
    onclick: () => ctx.act(`draw ${k}`),
  }, String(k)));
  return h("section", { class: "panel ask", id: "your-move", tabindex: "-1", "aria-labelledby": "your-move-title" },
    h("h2", { id: "your-move-title" }, "Your move: grab coins"),
    h("p", {}, `You hold the bag. Grab ${low === high ? low : `${low} to ${high}`} coins at once, blind.`),
    h("div", { class: "draw-controls" },
      h("label", { class: "inline" }, "Coins", input), minus, plus, go),
    odds,
    quick.length ? h("div", { class: "actions" }, h("span", { class: "muted" }, "Quick grab:"), quick) : null,
  );
}

function explainRound(r, ctx) {
  const lines = [];
  const gold = r.gold;
  const fewest = Math.min(...gold);
  const parrotSeats = Object.keys(r.parrots || {}).map(Number);
  lines.push(`Gold in the boxes: ${gold.map((g, s) => `${ctx.name(s)} ${g}`).join(", ")}.`);
  if (parrotSeats.length) {
    for (const s of parrotSeats) {
      const cards = r.parrots[String(s)];
      lines.push(`${ctx.name(s)} had the fewest gold (${fewest}), so took ${cards.length ? `parrots ${cards.join(" and ")}` : "no parrot (the deck was empty)"}: total ${r.totals[s]}.`);
    }
  }
  const distinct = [...new Set(r.totals)].sort((a, b) => a - b);
  lines.push(`Chest cards by rank from the lowest total: ${distinct.map((t) => {
    const who = r.totals.map((x, s) => (x === t ? ctx.name(s) : null)).filter(Boolean).join(" and ");
    const s = r.totals.indexOf(t);
    return `${who} with ${t}: ${plural(r.chests[s], "card")}`;
  }).join("; ")}.`);
  return lines;
}

function roundsPanel(view, ctx) {
  const rounds = view.rounds || [];
  if (!rounds.length) return null;
  const last = rounds[rounds.length - 1];
  const n = view.boxes.length;
  const header = h("tr", {}, h("th", {}, "Round"), Array.from({ length: n }, (_, s) => h("th", { class: "num" }, ctx.name(s))));
  const rows = rounds.map((r) => h("tr", {},
    h("th", {}, String(r.round)),
    r.gold.map((g, s) => {
      const parrots = r.parrots && r.parrots[String(s)];
      const text = parrots ? `${g} + parrots ${parrots.join("+")} = ${r.totals[s]}` : String(r.totals[s]);
      return h("td", { class: "num" }, `${text} → ${plural(r.chests[s], "chest")}`);
    })));
  const fresh = motionOf(`round:${rounds.length}`);
  const turned = Object.entries(last.parrots || {}).flatMap(([s, cards]) => cards.map((v) => [Number(s), v]));
  return h("section", { class: `panel cb-rounds${fresh ? " fresh" : ""}`, "aria-labelledby": "cb-rounds", style: fresh ? motionStyle(fresh) : null },
    h("h2", { id: "cb-rounds" }, `Round ${last.round} awards`),
    turned.length ? h("div", { class: "parrot-cards", id: "round-parrots" }, turned.map(([s, v], i) => h("span", {
      class: `parrot-card${fresh ? " flip" : ""}`, style: fresh ? motionStyle(fresh, i) : null,
    }, h("span", { class: "parrot-turn", "aria-hidden": "true" }, art(ART.parrot, "parrot-face", { width: 36, height: 48 }),
      h("span", { class: "parrot-value" }, String(v))), h("span", { class: "parrot-who" }, `${ctx.name(s)}: parrot ${v}`)))) : null,
    h("ul", { id: "round-awards" }, explainRound(last, ctx).map((line) => h("li", {}, line))),
    h("h3", {}, "Every round: gold (+ parrots) → chest cards"),
    h("div", { class: "scroll-x" }, h("table", { class: "grid" }, h("thead", {}, header), h("tbody", {}, rows))),
  );
}

export default {
  scoreLabel: "Filled chests",
  prompt(ctx) {
    const ks = draws(ctx);
    return `you hold the bag. Choose how many coins to grab (${Math.min(...ks)} to ${Math.max(...ks)}).`;
  },
  render(ctx) {
    noteChanges(ctx);
    const view = ctx.view;
    const over = Boolean(ctx.payload.outcome);
    const round = h("section", { class: "panel", "aria-labelledby": "cb-round" },
      h("h2", { id: "cb-round" }, over ? "The voyage is over" : `Round ${view.round} of ${view.rounds_total}`),
      facts([
        ["Ship (starts)", ctx.name(view.start_player)],
        view.bag_holder !== null && view.bag_holder !== undefined ? ["Bag held by", ctx.name(view.bag_holder)] : null,
        ["Chest deck", plural(view.chest_deck_size, "card")],
        ["Parrot deck", plural(view.parrot_deck_size, "card")],
      ]));
    return [
      drawPanel(ctx),
      h("div", { class: "cb-board" }, round, over ? null : bagPanel(view), over ? null : islandPanel(view)),
      boxesPanel(view, ctx),
      roundsPanel(view, ctx),
    ];
  },
  result(ctx) {
    const view = ctx.view;
    const rows = view.chests.map((cards, s) => {
      const list = cards || [];
      const filled = list.filter((c) => c === "filled").length;
      return h("tr", {}, h("td", {}, ctx.label(s)),
        h("td", { class: "num" }, art(ART.filled, "result-chest", { width: 24, height: 18 }), String(filled)),
        h("td", { class: "num" }, String(list.length)));
    });
    return h("div", { class: "scroll-x" },
      h("h3", {}, "Final count of the chests"),
      h("table", { class: "grid", id: "final-chests" },
        h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", { class: "num" }, "Filled chests"), h("th", { class: "num" }, "Chest cards"))),
        h("tbody", {}, rows)),
      h("p", { class: "help" }, "Most filled chests wins; a tie goes to the most chest cards."));
  },
};
