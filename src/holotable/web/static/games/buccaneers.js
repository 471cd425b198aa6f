// Black Hole Buccaneers: the black hole and its threshold, the passing direction, your hand and the
// simultaneous pick (who has chosen, never what), every tableau with turned cards, time-machine groups
// and the shapeshifter stack, the decisions of artifacts and relics, and scoring steps A-H explained.
// Every card is drawn as a card (static/art/buccaneers/, CC0): a picture per type, part and effect, its
// value / weight in large figures; a hidden card is only a card back. What changed since the last drawing
// moves: picks turn face up together, a passed hand slides in, a turned card rotates, points count up.

import { facts, h, plural } from "../js/dom.js";
import { legalButtons } from "./common.js";

// The table's catalog (GET /api/tables/{id}/catalog): cards, black holes, tokens and threshold cards
// as this table plays them. The shell hands it over once, before the first drawing.
let DATA = { cards: {}, black_holes: {}, tokens: {}, threshold_cards: {}, scoring: {} };
let CARDS = DATA.cards;

const TYPES = {
  spaceship: "Spaceship: the best one breaks ties in scoring.",
  toy: "Toy: laid face down; in step C the single heaviest toy pile takes a -6 weight card.",
  time_machine: "Time-machine part: parts of one group turn together (group of n parts: n-1 turns).",
  shapeshifter: "Shapeshifter: they stack; all of yours weigh what the top one shows.",
  robot: "Robot: turns once when another player reveals a robot in the same step.",
  artifact: "Artifact",
  relic: "Relic",
};

const EFFECTS = {
  gps: "On reveal: next turn you must play a random card.",
  tiit: "On reveal: everyone draws a card, and a +3 threshold card goes to the black hole.",
  laser: "On reveal: place a -4, -2, +2 or +4 threshold card at the black hole.",
  tentacle: "On reveal: draw 3 cards, lay out one, discard the others.",
  gyro: "On reveal: flip the passing direction.",
  morphosucker: "Ongoing: turns each time another player lays out a shapeshifter.",
  cubus_librae: "Ongoing: turns each time another player lays out a card of printed weight 7 or more.",
  lootbox: "Ongoing: turns each time you lay out a card of weight 6 or more.",
  surprise_egg: "Step A: you may discard it to lay out the top card of the draw pile.",
  wading_pool: "Step B: you may discard it to lay out a random card from the black hole.",
  one_ring: "Step D: you may discard it.",
  anti_grav_carpet: "Step E: +10 value if you are strictly the lightest.",
  exoskeleton: "Step E: -10 weight if you are strictly the heaviest.",
  xxl_paperweight: "Step F: the revealed black-hole card's weight counts twice for your threshold.",
  space_blanket: "Step G: 5 points if you are pulled into the black hole.",
};

const STEPS = {
  A: "Surprise Egg",
  B: "Alien Wading Pool",
  C: "Toys turn up",
  D: "One Ring",
  E: "Weights recorded",
  F: "Threshold",
  G: "Pulled in",
  H: "Points",
};

const ASK_TEXT = {
  choose: "pick one card from your hand to play this turn (in secret; everyone reveals together).",
  tentacle: "the Titan Tentacle drew cards for you: choose the one to lay out.",
  group: "choose the time-machine group for your new part.",
  laser: "choose the threshold card your Swiss Pocket Laser places at the black hole.",
  egg: "use the Surprise Egg (discard it, lay out the top draw card) or keep it?",
  pool: "use the Alien Wading Pool (discard it, take a random black-hole card) or keep it?",
  ring: "discard the One Ring or keep it?",
};

// The pictures (hand-drawn SVG in static/art/buccaneers/, see art/LICENSE.md): by card type, by
// time-machine part and by artifact / relic effect, and the table's own pieces.
const PICTURES = {
  spaceship: { src: "/static/art/buccaneers/spaceship.svg" },
  toy: { src: "/static/art/buccaneers/toy.svg" },
  shapeshifter: { src: "/static/art/buccaneers/shapeshifter.svg" },
  robot: { src: "/static/art/buccaneers/robot.svg" },
  time_machine: { src: "/static/art/buccaneers/tm-warp-engine.svg" },
  command_chair: { src: "/static/art/buccaneers/tm-command-chair.svg" },
  reflector_shield: { src: "/static/art/buccaneers/tm-reflector-shield.svg" },
  quantum_control: { src: "/static/art/buccaneers/tm-quantum-control.svg" },
  warp_engine: { src: "/static/art/buccaneers/tm-warp-engine.svg" },
  artifact: { src: "/static/art/buccaneers/art-lootbox.svg" },
  gps: { src: "/static/art/buccaneers/art-gps.svg" },
  tiit: { src: "/static/art/buccaneers/art-tiit.svg" },
  laser: { src: "/static/art/buccaneers/art-laser.svg" },
  tentacle: { src: "/static/art/buccaneers/art-tentacle.svg" },
  gyro: { src: "/static/art/buccaneers/art-gyro.svg" },
  morphosucker: { src: "/static/art/buccaneers/art-morphosucker.svg" },
  cubus_librae: { src: "/static/art/buccaneers/art-cubus-librae.svg" },
  lootbox: { src: "/static/art/buccaneers/art-lootbox.svg" },
  relic: { src: "/static/art/buccaneers/rel-egg.svg" },
  surprise_egg: { src: "/static/art/buccaneers/rel-egg.svg" },
  wading_pool: { src: "/static/art/buccaneers/rel-pool.svg" },
  one_ring: { src: "/static/art/buccaneers/rel-ring.svg" },
  anti_grav_carpet: { src: "/static/art/buccaneers/rel-carpet.svg" },
  exoskeleton: { src: "/static/art/buccaneers/rel-exo.svg" },
  xxl_paperweight: { src: "/static/art/buccaneers/rel-xxl.svg" },
  space_blanket: { src: "/static/art/buccaneers/rel-blanket.svg" },
  back: { src: "/static/art/buccaneers/card-back.svg" },
  hole: { src: "/static/art/buccaneers/black-hole.svg" },
  threshold: { src: "/static/art/buccaneers/threshold.svg" },
  weight: { src: "/static/art/buccaneers/token-weight.svg" },
  value: { src: "/static/art/buccaneers/token-value.svg" },
  points: { src: "/static/art/buccaneers/points.svg" },
  hand: { src: "/static/art/buccaneers/hand.svg" },
};

/** A picture that only decorates (the text beside it says the same): alt="" keeps it out of the way. */
function pic(name, cls = "") {
  return h("img", { class: `bhb-pic ${cls}`.trim(), src: PICTURES[name].src, alt: "", draggable: "false" });
}

function pictureOf(c) {
  const name = [c.effect, c.part, c.type].find((k) => k && PICTURES[k]);
  return name ? pic(name, "card-pic") : pic("back", "card-pic");
}

// ------------------------------------------------------------------ motion
// The renderer draws the whole table afresh from each state, so what moves is found by comparing the view
// with the one drawn before: a card laid out (a pick revealed, a toy laid face down), a face-down toy turned
// up, a card turned, a hand passed or dealt, points scored, a scoring step done. Each such change is kept a
// few seconds with the time it was seen, and every drawing in that time gives its element the motion class
// with a negative animation delay, so a redraw in the middle (a button pressed, a bot's move) carries the
// movement on instead of starting it again. The CSS turns all of it off under prefers-reduced-motion.
const MOTION_KEEP_MS = 4000;
let seen = null; // the last view drawn: {table, seat, ply, round, turn, direction, laid, scores, steps}
const motion = new Map(); // key -> {cls, at, from, to}

function snapshot(ctx) {
  const view = ctx.view;
  const laid = new Map();
  (view.tableaux || []).forEach((row, s) => row.forEach((item, i) => {
    laid.set(`${s}:${i}`, { card: item.card, turns: item.turns || 0, down: item.card === null || Boolean(item.face_down) });
  }));
  const steps = new Set(ctx.log.filter((e) => e.kind === "score_step" && e.data).map((e) => `${e.ply}:${e.data.step}`));
  return { table: ctx.tableId, seat: ctx.seat, ply: ctx.payload.ply, round: view.round, turn: view.turn,
    direction: view.direction, laid, scores: [...(view.scores || [])], steps };
}

function watch(ctx) {
  const now = performance.now();
  for (const [key, m] of motion) if (now - m.at > MOTION_KEEP_MS) motion.delete(key);
  const last = seen;
  const snap = snapshot(ctx);
  seen = snap;
  if (!last || last.table !== snap.table || last.seat !== snap.seat) {
    motion.clear();
    return;
  }
  if (snap.ply === last.ply) return;
  if (snap.ply < last.ply) { // an undo, or a replay stepping back: the table jumps, nothing moves
    motion.clear();
    return;
  }
  const at = (key, m) => motion.set(key, { at: now, ...m });
  for (const [key, item] of snap.laid) {
    const was = last.laid.get(key);
    if (!was || (was.card !== item.card && was.card !== null && item.card !== null)) {
      at(`card:${key}`, { cls: item.down ? "bhb-laid" : "bhb-reveal" });
      // A card turned as it was laid out (robots revealed together): it turns once it is face up.
      if (item.turns > 0) motion.set(`turn:${key}`, { cls: "bhb-turn", at: now + 700, from: 0, to: item.turns });
    } else if (was.down && !item.down) {
      at(`card:${key}`, { cls: "bhb-reveal" }); // a toy turned up in scoring step C
    } else if (was.card === item.card && item.turns > was.turns) {
      at(`turn:${key}`, { cls: "bhb-turn", from: was.turns, to: item.turns });
    }
  }
  if (snap.round === last.round && snap.turn > last.turn) {
    at("hand", { cls: `bhb-pass-${String(snap.direction).toLowerCase()}` });
    at("direction", { cls: `bhb-spin-${String(snap.direction).toLowerCase()}` });
  } else if (snap.round !== last.round) {
    at("hand", { cls: "bhb-deal" });
  } else if (snap.direction !== last.direction) {
    at("direction", { cls: `bhb-spin-${String(snap.direction).toLowerCase()}` });
  }
  snap.scores.forEach((points, s) => {
    if (points > (last.scores[s] ?? points)) at(`score:${s}`, { cls: "bhb-count", from: last.scores[s], to: points });
  });
  for (const step of snap.steps) if (!last.steps.has(step)) at(`step:${step}`, { cls: "bhb-fresh" });
}

/** The motion of `key` now: its class (with a leading space) and the style that carries it on, or nothing. */
function motionOf(key, vars = {}) {
  const m = motion.get(key);
  if (!m) return { cls: "", style: null };
  const style = [`--bhb-delay: ${-Math.round(performance.now() - m.at)}ms`,
    ...Object.entries(vars).map(([k, v]) => `--bhb-${k}: ${typeof v === "function" ? v(m) : v}`)].join("; ");
  return { cls: ` ${m.cls}`, style, m };
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function describeCard(id) {
  const c = CARDS[id];
  if (!c) return id;
  return `${c.name} (value ${c.stats[0][0]}, weight ${c.stats[0][1]})`;
}

function cardHelp(id) {
  const c = CARDS[id];
  if (!c) return "";
  if (c.effect && EFFECTS[c.effect]) return EFFECTS[c.effect];
  if (c.type === "time_machine") return `Time-machine part: ${String(c.part).replaceAll("_", " ")}.`;
  return TYPES[c.type] || "";
}

/**
 * One card face: value / weight in large figures (value with a gem, weight with a kettlebell), the card's
 * picture, its name, type and effect; `now` overrides the printed numbers, `art` (a turned card's drawing)
 * stands beside the picture.
 */
function cardFace(id, now = null, art = null) {
  const c = CARDS[id] || { name: id, type: "", stats: [["?", "?"]] };
  const [value, weight] = now ? [now.value, now.weight] : c.stats[0];
  return [
    h("span", { class: "vw" }, h("span", { class: "v", title: "value" }, String(value)), " / ", h("span", { class: "w", title: "weight" }, String(weight))),
    h("span", { class: "pic" }, pictureOf(c), art),
    h("span", { class: "cname" }, c.name),
    h("span", { class: "ctype" }, String(c.type).replaceAll("_", " ")),
    h("span", { class: "ceffect" }, cardHelp(id)),
  ];
}

function handCard(id, ctx, action) {
  const c = CARDS[id] || { type: "" };
  if (!action) return h("li", { class: `card bhb-card ${c.type}`, dataset: { card: id } }, cardFace(id));
  const chosen = ctx.view.my_choice === action;
  return h("li", {}, h("button", {
    type: "button", class: `card bhb-card ${c.type}${chosen ? " chosen" : ""}`, disabled: ctx.busy,
    dataset: { action, key: `act:${action}`, card: id }, "aria-label": `${action.split(" ")[0]} ${describeCard(id)}. ${cardHelp(id)}`,
    onclick: () => ctx.act(action),
  }, cardFace(id)));
}

// A turned card drawn as it lies on the table: a small card whose printed edges each carry a value / weight
// pair (top, left, bottom, right: the orientations 0-3 of the card's data), turned `turns` quarter turns
// clockwise, so the pair that counts now is the one upright on top, as on the physical card.
const SVG_NS = "http://www.w3.org/2000/svg";
const EDGE_AT = [[0, -21, 0], [-14, 0, -90], [0, 21, 180], [14, 0, 90]]; // x, y, text rotation per edge

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children) el.append(child);
  return el;
}

function turnedArt(stats, turns, key = null) {
  const top = stats[turns % 4];
  const edges = stats.slice(0, 4).map(([v, w], i) => {
    const [x, y, r] = EDGE_AT[i];
    return svg("text", { x, y, transform: `rotate(${r} ${x} ${y})`, "text-anchor": "middle", "dominant-baseline": "middle",
      class: i === turns % 4 ? "edge now" : "edge" }, `${v}/${w}`);
  });
  const card = svg("g", { transform: `rotate(${(turns % 4) * 90})` },
    svg("rect", { x: -17, y: -25, width: 34, height: 50, rx: 4, class: "body" }),
    svg("path", { d: "M0 -14 l4 6 h-8z", class: "arrow" }), ...edges);
  const art = svg("svg", { viewBox: "-30 -30 60 60", width: 66, height: 66, class: "turned-art", role: "img",
    "aria-label": `turned ${turns % 4 ? `${turns % 4 === 2 ? "upside down" : `a quarter turn ${turns % 4 === 1 ? "clockwise" : "anticlockwise"}`}` : "all the way round"}: ${top[0]} / ${top[1]} on top` },
    card);
  art.dataset.top = `${top[0]}/${top[1]}`;
  // Just turned: the drawing rotates from where the card lay before (a quarter turn a turn).
  const moving = key ? motionOf(`turn:${key}`, { from: (m) => `${-(m.to - m.from) * 90}deg` }) : null;
  if (moving && moving.cls) {
    art.classList.add(moving.cls.trim());
    art.setAttribute("style", moving.style);
  }
  return art;
}

function laidCard(item) {
  const key = item.at === undefined ? null : item.at;
  const moving = key === null ? { cls: "", style: null } : motionOf(`card:${key}`);
  if (item.card === null) {
    // Another seat's face-down toy: a card back and nothing else (no id, no name, no numbers).
    return h("li", { class: `card bhb-card facedown${moving.cls}`, style: moving.style, dataset: { card: "facedown" } },
      h("span", { class: "pic back" }, pic("back", "back-pic")),
      h("span", { class: "cname" }, "Toy, face down"), h("span", { class: "ceffect" }, "Turned up in scoring step C."));
  }
  const c = CARDS[item.card] || { type: "" };
  const marks = [];
  const turns = item.turns || 0;
  const art = turns && c.stats && c.stats.length > 1 ? turnedArt(c.stats, turns, key) : null;
  if (turns) {
    const times = turns === 1 ? "once" : turns === 2 ? "twice" : `${turns} times`;
    marks.push(h("span", { class: "mark", title: `turned ${times} clockwise, a quarter turn each` }, `turned ${times}`));
  }
  if (item.face_down) marks.push(h("span", { class: "mark" }, "face down (only you see it)"));
  if (item.group) marks.push(h("span", { class: "mark" }, `group ${item.group}`));
  else if (c.type === "time_machine") marks.push(h("span", { class: "mark" }, "group to be chosen"));
  if (item.suppressed) marks.push(h("span", { class: "mark" }, "effect ignored"));
  if (item.active) marks.push(h("span", { class: "mark" }, "active"));
  if (item.source && item.source !== "hand") marks.push(h("span", { class: "mark" }, `from ${item.source}`));
  const printed = c.stats ? c.stats[0] : null;
  const changed = printed && (printed[0] !== item.value || printed[1] !== item.weight);
  return h("li", { class: `card bhb-card ${c.type}${art ? " turned" : ""}${item.face_down ? " own-facedown" : ""}${moving.cls}`,
    style: moving.style, dataset: { card: item.card, turns: String(turns) } },
    cardFace(item.card, { value: item.value, weight: item.weight }, art),
    changed ? h("span", { class: "ceffect" }, `printed ${printed[0]} / ${printed[1]}`) : null,
    marks.length ? h("span", { class: "marks" }, marks) : null);
}

function tableauCards(cards, seat) {
  // Time-machine groups and the shapeshifter stack are boxed; other cards in laying order. Each card keeps
  // its place in the tableau (`at`), which is how its motion is found.
  const groups = new Map();
  const shapeshifters = [];
  const others = [];
  for (const item of cards.map((it, i) => ({ ...it, at: `${seat}:${i}` }))) {
    const type = item.type || (item.card && CARDS[item.card] ? CARDS[item.card].type : "");
    if (type === "time_machine" && item.group) {
      if (!groups.has(item.group)) groups.set(item.group, []);
      groups.get(item.group).push(item);
    } else if (type === "shapeshifter") shapeshifters.push(item);
    else others.push(item);
  }
  const out = others.map(laidCard);
  for (const [group, items] of [...groups].sort((a, b) => a[0] - b[0])) {
    out.push(h("li", { class: "group-box", dataset: { group: String(group) } },
      h("span", { class: "label" }, `Time machine ${group}: ${plural(items.length, "part")}, ${plural(items.length - 1, "turn")}`),
      h("ul", { class: "cards" }, items.map(laidCard))));
  }
  if (shapeshifters.length) {
    const top = shapeshifters[shapeshifters.length - 1];
    out.push(h("li", { class: "stack-box" },
      h("span", { class: "label" }, `Shapeshifter stack: all weigh ${top.weight} (the top card)`),
      h("ul", { class: "cards" }, [...shapeshifters].reverse().map(laidCard))));
  }
  return out;
}

function tokenChip(id) {
  const t = DATA.tokens[id];
  return h("span", { class: `badge bhb-token ${t ? t.kind : ""}` }, t ? pic(t.kind, "chip-pic") : null, tokenLabel(id));
}

function scoreChip(ctx, seat) {
  const points = ctx.view.scores[seat];
  const moving = motionOf(`score:${seat}`, { from: (m) => m.from, to: (m) => m.to });
  const gain = moving.m ? moving.m.to - moving.m.from : 0;
  return h("span", { class: "bhb-chip points", title: "points" }, pic("points", "chip-pic"),
    h("span", { class: `num${moving.cls}`, style: moving.style }, String(points)), ` ${points === 1 ? "point" : "points"}`,
    gain ? h("span", { class: "bhb-gain", style: moving.style, "aria-hidden": "true" }, `+${gain}`) : null);
}

function tokenLabel(id) {
  const t = DATA.tokens[id];
  if (!t) return id;
  return t.kind === "weight" ? `${signed(t.amount)} weight card` : `${signed(t.amount)} value card`;
}

function tableauPanel(ctx) {
  const view = ctx.view;
  const n = view.tableaux.length;
  const seats = ctx.seat !== null && ctx.seat !== undefined
    ? [ctx.seat, ...[...Array(n).keys()].filter((s) => s !== ctx.seat)] : [...Array(n).keys()];
  return h("section", { class: "panel bhb-tableaux", "aria-labelledby": "bhb-tableaux" },
    h("h2", { id: "bhb-tableaux" }, "Tableaux (cards laid out)"),
    seats.map((seat) => {
      const total = view.totals[seat];
      const tokens = Object.entries(view.tokens || {}).filter(([, s]) => s === seat).map(([id]) => tokenChip(id));
      const notes = [];
      if (view.gps_next && view.gps_next[seat]) notes.push("must play a random card next turn (GPS)");
      if (view.gps && view.gps[seat]) notes.push("plays a random card this turn (GPS)");
      if (view.pulled_in && view.pulled_in[seat]) notes.push("pulled into the black hole this round");
      if (view.threshold && view.threshold.length) notes.push(`threshold ${view.threshold[seat]}`);
      return h("div", { class: `tableau${seat === ctx.seat ? " me" : ""}`, dataset: { seat: String(seat) } },
        h("div", { class: "tableau-head" },
          h("strong", {}, ctx.label(seat)),
          h("span", {}, total ? `value ${total.value} · weight ${total.weight}` : "totals hidden (face-down toys)"),
          h("span", { class: "bhb-chip muted" }, pic("hand", "chip-pic"), `${plural(view.hand_sizes[seat], "card")} in hand`),
          scoreChip(ctx, seat),
          tokens,
          notes.map((t) => h("span", { class: "badge turn" }, t))),
        view.tableaux[seat].length ? h("ul", { class: "cards" }, tableauCards(view.tableaux[seat], seat)) : h("p", { class: "muted" }, "No cards yet."));
    }));
}

function directionText(view, ctx) {
  const n = view.hand_sizes.length;
  const step = view.direction === "CW" ? 1 : -1;
  const arrow = view.direction === "CW" ? "↻" : "↺";
  const words = view.direction === "CW" ? "clockwise: each hand goes to the next seat (Seat 1 → Seat 2)" : "counter-clockwise: each hand goes to the previous seat (Seat 2 → Seat 1)";
  let you = null;
  if (ctx.seat !== null && ctx.seat !== undefined) {
    const to = (ctx.seat + step + n) % n;
    const from = (ctx.seat - step + n) % n;
    you = `You pass to ${ctx.name(to)} and receive from ${ctx.name(from)}.`;
  }
  const moving = motionOf("direction");
  return [h("span", { class: `direction${moving.cls}`, style: moving.style, "aria-hidden": "true" }, arrow), ` ${words.replace(/^./, (c) => c.toUpperCase())}. `, you];
}

function blackHolePanel(ctx) {
  const view = ctx.view;
  const hole = view.black_hole;
  const cards = view.thresholds || [];
  const extra = cards.reduce((sum, id) => sum + (DATA.threshold_cards[id] ?? 0), 0);
  // The same facts as pictures (the list below says them in words): the hole in its colour, the
  // threshold cards at it, the face-down pile and, in step F, the card revealed from it.
  const art = h("div", { class: `bhb-hole-art ${hole.category}`, "aria-hidden": "true" },
    h("span", { class: "hole" }, pic("hole", "hole-pic"), h("span", { class: "hole-number" }, String(hole.threshold))),
    cards.map((id) => h("span", { class: "th-card" }, pic("threshold", "th-pic"), h("span", {}, signed(DATA.threshold_cards[id] ?? 0)))),
    h("span", { class: "bh-pile" }, pic("back", "pile-pic"), h("span", {}, `× ${view.bh_pile_size}`)),
    view.bh_revealed ? h("span", { class: "bh-revealed" }, pictureOf(CARDS[view.bh_revealed] || {}),
      h("span", {}, `weight ${CARDS[view.bh_revealed]?.stats?.[0]?.[1] ?? "?"}`)) : null);
  return h("section", { class: "panel", "aria-labelledby": "bhb-hole" },
    h("h2", { id: "bhb-hole" }, `The ${hole.category} black hole`),
    art,
    facts([
      ["Kind", `${hole.category}, deals ${plural(hole.cards, "card")} each`],
      ["Base threshold", String(hole.threshold)],
      ["Threshold cards", cards.length ? `${cards.map((id) => signed(DATA.threshold_cards[id] ?? 0)).join(", ")} (total ${signed(extra)})` : "none"],
      ["Cards in the black hole", `${view.bh_pile_size}${view.my_bh_cards.length ? ` (yours: ${view.my_bh_cards.map((id) => CARDS[id]?.name || id).join(", ")})` : ""}`],
      view.bh_revealed ? ["Revealed in step F", describeCard(view.bh_revealed)] : null,
      view.threshold && view.threshold.length ? ["Thresholds now", view.threshold.map((t, s) => `${ctx.name(s)} ${t}`).join(", ")] : null,
    ]),
    h("p", { class: "help" }, `Threshold in scoring = ${hole.threshold} + the weight of one black-hole card revealed in step F${cards.length ? ` ${signed(extra)}` : ""}. Heavier than that and you score nothing this round.`),
  );
}

function roundPanel(ctx) {
  const view = ctx.view;
  // each round's black hole by its kind and threshold ("round 1: menacing, 22"), never its card code
  const holeWords = (id) => { const bh = DATA.black_holes[id]; return bh ? `${bh.category}, threshold ${bh.threshold}` : "revealed"; };
  const holes = (view.black_holes || []).map((id, i) => `Round ${i + 1}: ${id ? holeWords(id) : "still face down"}`).join(" · ");
  let where;
  if (view.phase === "selection") where = `Selection, turn ${view.turn}`;
  else if (view.phase === "scoring") where = `Scoring, step ${view.step} (${STEPS[view.step] || ""})`;
  else where = "Game over";
  return h("section", { class: "panel", "aria-labelledby": "bhb-round" },
    h("h2", { id: "bhb-round" }, `Round ${view.round} of ${view.rounds}`),
    facts([
      ["Now", where],
      ["Passing", directionText(view, ctx)],
      ["Draw pile", plural(view.draw_size, "card")],
      ["Discards", plural(view.discard.length, "card")],
      ["Black holes", holes],
      ["Points", view.scores.map((p, s) => `${ctx.name(s)} ${p}`).join(", ")],
    ]));
}

function chosenList(ctx) {
  const view = ctx.view;
  const n = view.hand_sizes.length;
  const asked = new Set([...ctx.toMove, ...ctx.committed]);
  return h("ul", { class: "chosen-list", id: "who-chose", "aria-label": "Who has chosen" },
    [...Array(n).keys()].map((s) => {
      let state;
      if (ctx.committed.includes(s)) state = "✓ has chosen";
      else if (ctx.toMove.includes(s)) state = "… choosing";
      else if (view.gps && view.gps[s]) state = "random card (GPS)";
      else state = asked.has(s) ? "" : "not choosing";
      return h("li", { class: "badge", dataset: { seat: String(s), chosen: String(ctx.committed.includes(s)) } },
        ctx.committed.includes(s) ? pic("back", "mini-back") : null, `${ctx.name(s)}: ${state}`);
    }));
}

function movePanel(ctx) {
  const view = ctx.view;
  const kind = view.ask ? view.ask.kind : null;
  const legal = new Set(ctx.legal);
  const mine = ctx.legal.length > 0;
  const body = [];
  let title = "Your move";
  if (kind === "choose" && view.phase === "selection") {
    title = mine ? "Your move: pick a card" : "Everyone is picking a card";
    const gps = ctx.seat !== null && view.gps && view.gps[ctx.seat];
    let say = "Picks are revealed together when everyone has chosen.";
    if (mine) say = "Everyone picks at the same time. Your pick stays secret until all have chosen; then all picks are revealed together.";
    else if (view.my_choice) say = `You picked ${describeCard(view.my_choice.replace(/^play\s+/, ""))}. It is revealed when everyone has chosen.`;
    else if (gps) say = "The Analog GPS Tracker plays a random card of your hand for you this turn.";
    body.push(h("p", {}, say));
    body.push(chosenList(ctx));
  } else if (mine) {
    title = `Your move: ${{ tentacle: "Titan Tentacle", group: "time machine", laser: "Swiss Pocket Laser", egg: "Surprise Egg", pool: "Alien Wading Pool", ring: "One Ring" }[kind] || "decide"}`;
    body.push(h("p", {}, ASK_TEXT[kind] ? ASK_TEXT[kind].replace(/^./, (c) => c.toUpperCase()) : "Choose one of these moves."));
  } else if (!ctx.payload.outcome && ctx.toMove.length) {
    return null;
  }
  if (kind === "tentacle" && view.tentacle && mine) {
    body.push(h("ul", { class: "cards", "aria-label": "Titan Tentacle cards" }, view.tentacle.map((id) => handCard(id, ctx, legal.has(`take ${id}`) ? `take ${id}` : null))));
  }
  if (kind === "group" && mine) {
    body.push(h("p", {}, `New part: ${describeCard(view.ask.card)}. A group of n parts turns n-1 times; a group already holding this part cannot take it.`));
    const own = view.tableaux[ctx.seat] || [];
    const groups = [...new Set(own.filter((c) => c.group).map((c) => c.group))].sort((a, b) => a - b);
    if (groups.length) {
      body.push(h("ul", {}, groups.map((g) => h("li", {}, `Time machine ${g}: ${own.filter((c) => c.group === g).map((c) => c.name).join(", ")}`))));
    }
  }
  const handled = new Set([...ctx.legal].filter((t) => t.startsWith("play ") || t.startsWith("take ")));
  const rest = ctx.legal.filter((t) => !handled.has(t));
  if (rest.length) {
    body.push(legalButtons({ ...ctx, legal: rest }, { describe: describeAction, bare: true }));
  }
  if (!body.length) return null;
  return h("section", { class: `panel${mine ? " ask" : ""}`, id: "your-move", tabindex: "-1", "aria-labelledby": "your-move-title" },
    h("h2", { id: "your-move-title" }, title), body);
}

function describeAction(text) {
  let m = /^group (new|\d+)$/.exec(text);
  if (m) return m[1] === "new" ? "Start a new time machine" : `Add to time machine ${m[1]}`;
  m = /^laser ([+-]\d+)$/.exec(text);
  if (m) return `Place ${m[1]} at the black hole (${Number(m[1]) < 0 ? "lowers" : "raises"} every threshold)`;
  m = /^(use|keep) (egg|pool|ring)$/.exec(text);
  if (m) {
    const names = { egg: "Surprise Egg", pool: "Alien Wading Pool", ring: "One Ring" };
    if (m[1] === "keep") return `Keep the ${names[m[2]]}`;
    return { egg: "Use the Egg: lay out the top draw card", pool: "Use the Pool: take a random black-hole card", ring: "Discard the One Ring" }[m[2]];
  }
  return text;
}

// The hand, sliding in from the passing side when hands were just passed (or dealt at a round's start).
function handList(items) {
  const moving = motionOf("hand");
  items.forEach((li, i) => li.style.setProperty("--bhb-i", String(i)));
  return h("ul", { class: `cards${moving.cls}`, id: "hand", style: moving.style }, items);
}

function handPanel(ctx) {
  const view = ctx.view;
  if (!view.hand || view.phase === "over") return null;
  const choosing = view.ask && view.ask.kind === "choose" && ctx.legal.some((t) => t.startsWith("play "));
  return h("section", { class: `panel bhb-hand-panel${choosing ? " ask" : ""}`, "aria-labelledby": "bhb-hand" },
    h("h2", { id: "bhb-hand" }, choosing ? "Your hand: choose the card to play" : "Your hand"),
    view.hand.length
      ? handList(view.hand.map((id) => handCard(id, ctx, choosing && ctx.legal.includes(`play ${id}`) ? `play ${id}` : null)))
      : h("p", { class: "muted" }, "No cards in hand."),
    choosing ? null : h("p", { class: "help" }, "Each card shows value / weight."));
}

// ------------------------------------------------------------------ what happened

function currentRoundEvents(log) {
  let start = 0;
  for (let i = 0; i < log.length; i++) if (log[i].kind === "round_start") start = i;
  return log.slice(start);
}

function lastRevealPanel(ctx) {
  if (ctx.view.phase === "over") return null;
  const events = currentRoundEvents(ctx.log);
  let ply = null;
  for (const e of events) if (e.kind === "reveal" || e.kind === "lay_toy") ply = e.ply;
  if (ply === null) return null;
  const shown = events.filter((e) => e.ply === ply && !["score_step", "deal_private"].includes(e.kind));
  return h("section", { class: "panel", "aria-labelledby": "bhb-reveal" },
    h("h2", { id: "bhb-reveal" }, "Last reveal"),
    h("ul", { id: "last-reveal" }, shown.map((e) => h("li", {}, e.text))));
}

function explainStep(e, ctx) {
  // A sentence, and for the steps that give a number to every seat, one line per seat.
  const d = e.data || {};
  const n = ctx.view.hand_sizes.length;
  const seats = [...Array(n).keys()];
  const per = (list, fmt) => (list || []).map((x, s) => `${ctx.name(s)} ${fmt(x, s)}`).join(", ");
  const lines = (items) => h("ul", {}, items.map((t) => h("li", {}, t)));
  switch (d.step) {
    case "A":
    case "B":
    case "D":
      return d.skipped ? "nobody has it in play." : `${ctx.name(d.seat)} has it and decides whether to use it.`;
    case "C": {
      const holder = d.w6 === null || d.w6 === undefined
        ? "nobody takes the -6 weight card (a tie for the heaviest, or no toys)"
        : `${ctx.name(d.w6)} has the single heaviest toy pile and takes the -6 weight card`;
      return `all toys are turned face up. Toy weights: ${per(d.toy_weights, (w) => w)}; ${holder}.`;
    }
    case "E": {
      const parts = [`${per(d.weights, (w) => w)}.`];
      if (d.v10 !== null && d.v10 !== undefined) parts.push(`${ctx.name(d.v10)} is strictly the lightest and takes +10 value (Anti-Grav Carpet).`);
      if (d.w10 !== null && d.w10 !== undefined) parts.push(`${ctx.name(d.w10)} is strictly the heaviest and takes -10 weight (Exoskeleton).`);
      // A Carpet or Exoskeleton that gives nothing is named only in the log's text.
      for (const part of e.text.split("; ").slice(1)) {
        if (/is not the (lightest|heaviest)/.test(part)) parts.push(`${part}, so it gives nothing.`);
      }
      return parts.join(" ");
    }
    case "F": {
      const extra = (d.threshold_cards || []).reduce((sum, id) => sum + (DATA.threshold_cards[id] ?? 0), 0);
      const card = d.card ? `${describeCard(d.card)} is revealed from the black hole: weight ${d.weight}` : "the black hole is empty: weight 0";
      const xxl = d.xxl !== null && d.xxl !== undefined
        ? ` ${ctx.name(d.xxl)} has the XXL Paperweight: ${d.base} + 2 × ${d.weight}${extra ? ` ${signed(extra)}` : ""} = ${d.thresholds[d.xxl]}.` : "";
      return `${card}. Threshold = ${d.base} (black hole) ${signed(d.weight)} (revealed card)${extra ? ` ${signed(extra)} (threshold cards)` : ""} = ${d.base + d.weight + extra}.${xxl}`;
    }
    case "G": {
      const blanket = d.blanket !== null && d.blanket !== undefined ? `${ctx.name(d.blanket)} still gets 5 points from the Space Blanket.` : null;
      return ["whoever weighs more than their threshold is pulled in and discards everything.",
        lines([...seats.map((s) => `${ctx.name(s)}: weight ${d.weights[s]}, threshold ${d.thresholds[s]}: ${d.pulled_in.includes(s) ? "pulled in" : "safe"}`), blanket].filter(Boolean))];
    }
    case "H":
      return ["the others rank by value (a tie goes to the best spaceship) and score their place.",
        lines(seats.map((s) => (!d.places || !d.places[s]
          ? `${ctx.name(s)}: pulled in, +${d.points[s]} (total ${d.totals[s]})`
          : `${ctx.name(s)}: value ${d.values[s]}, place ${d.places[s]}, +${d.points[s]} (total ${d.totals[s]})`)))];
    default:
      return e.text;
  }
}

function scoringPanel(ctx) {
  const view = ctx.view;
  // The scoring of this round, or of the round just finished while the next one is being picked.
  const log = ctx.log;
  let lastA = -1;
  for (let i = 0; i < log.length; i++) if (log[i].kind === "score_step" && log[i].data && log[i].data.step === "A") lastA = i;
  if (lastA < 0) return null;
  const events = log.slice(lastA).filter((e) => ["score_step", "egg", "pool", "ring", "lay_scoring", "toy_up"].includes(e.kind));
  const steps = events.filter((e) => e.kind === "score_step");
  const inScoring = view.phase === "scoring";
  const done = new Set(steps.map((e) => e.data.step));
  const letters = Object.keys(STEPS);
  const progress = h("ol", { class: "steps", "aria-label": "Scoring steps" }, letters.map((l) => {
    const now = inScoring && view.step === l;
    return h("li", { class: now ? "now" : done.has(l) ? "done" : "", title: STEPS[l] }, `${l} ${STEPS[l]}`);
  }));
  const items = [];
  for (const e of events) {
    if (e.kind === "score_step") {
      const moving = motionOf(`step:${e.ply}:${e.data.step}`);
      items.push(h("li", { class: moving.cls.trim() || null, style: moving.style, dataset: { step: e.data.step } },
        h("span", { class: "letter" }, e.data.step), h("strong", {}, `${STEPS[e.data.step]}: `), explainStep(e, ctx)));
    } else {
      items.push(h("li", { class: "muted" }, e.text));
    }
  }
  const roundOf = inScoring || view.phase === "over" ? view.round : view.round - 1;
  const panel = h("section", { class: "panel", id: "scoring", "aria-labelledby": "bhb-scoring" },
    h("h2", { id: "bhb-scoring" }, `Scoring of round ${roundOf}`),
    progress,
    h("ol", { class: "score-steps" }, items));
  // Open while it happens and through the first pick of the next round (the scoring runs on by itself
  // after the last pick, so this is when the player sees its steps light up); folded from then on.
  if (inScoring || view.phase === "over" || (view.phase === "selection" && view.turn === 1)) return panel;
  return h("details", { class: "panel" }, h("summary", {}, `How round ${roundOf} was scored`), panel);
}

function padTable(ctx) {
  const pad = ctx.view.pad || [];
  if (!pad.length) return null;
  const n = ctx.view.hand_sizes.length;
  const header = h("tr", {}, h("th", {}, "Round"), [...Array(n).keys()].map((s) => h("th", {}, ctx.name(s))));
  const rows = pad.map((r) => h("tr", {},
    h("th", {}, `${r.round} (${DATA.black_holes[r.black_hole]?.category || "black hole"})`),
    [...Array(n).keys()].map((s) => h("td", {},
      `weight ${r.e_weight[s]} / threshold ${r.threshold[s]}, `,
      r.pulled_in[s] ? "pulled in" : `value ${r.value[s]}, place ${r.place[s]}`,
      h("br"), h("strong", {}, `+${r.points[s]} → ${r.total[s]}`)))));
  return h("section", { class: "panel", "aria-labelledby": "bhb-pad" },
    h("h2", { id: "bhb-pad" }, "Scoring pad"),
    h("div", { class: "scroll-x" }, h("table", { class: "grid", id: "scoring-pad" }, h("thead", {}, header), h("tbody", {}, rows))));
}

export default {
  scoreLabel: "Points",
  catalog: true,
  setCatalog(catalog) {
    DATA = { ...DATA, ...catalog };
    CARDS = DATA.cards;
  },
  prompt(ctx) {
    const kind = ctx.view.ask ? ctx.view.ask.kind : null;
    return ASK_TEXT[kind] || "choose one of the moves below.";
  },
  render(ctx) {
    watch(ctx);
    return [
      movePanel(ctx),
      handPanel(ctx),
      h("div", { class: "bhb-top" }, roundPanel(ctx), blackHolePanel(ctx)),
      scoringPanel(ctx),
      lastRevealPanel(ctx),
      tableauPanel(ctx),
      padTable(ctx),
    ];
  },
};
