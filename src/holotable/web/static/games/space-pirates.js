// Space Pirates: the galaxy drawn to scale on a canvas (map elements, bases with gates and slots,
// transports, ships, the storm), flicks by dragging from a token with the dexterity noise shown as a
// cone, rulers laid one by one by pointing inside the fan (90 degrees either side of the previous ruler, the
// whole turn for a drift or a first ruler under first_ruler=nose; the server previews each ruler and
// refuses an illegal one with the rules' reason), the last flick animated on every screen, captures
// revealed in order to the capturing player, the hand, the card in play, base actions in their order,
// money and the bank. Every canvas choice also has a keyboard form (angle, strength, point inputs).

import { ApiError, getJSON, postJSON } from "../js/api.js";
import { facts, h, plural } from "../js/dom.js";
import { legalButtons } from "./common.js";

const COLORS = ["#e4572e", "#29a3d6", "#9bc53d", "#c77dff"];
const CONTINUOUS = new Set(["flick", "ruler", "drift", "place", "storm", "wind"]);
const ADVENTURES = {
  FLICK: "Flick a face-down transport.",
  NEW_RIGHT: "Draw and place a new transport; your right neighbour flicks it.",
  NEW_LEFT: "Draw and place a new transport; your left neighbour flicks it.",
  ASTEROID: "Flick an open asteroid.",
  STORM: "Place or move the cosmic storm.",
  WIND: "Every ship in space and the storm move two rulers in one direction.",
};
// An adventure symbol's short name, as the log and the terminal say it (the catalog's, from words.py).
const FACE_NAMES = { ORE: "ore", SPICE: "spice", TECH: "tech", MEDS: "medicine", RELICS: "relics", ASTEROID: "asteroid",
  POLICE: "galactic police" };
const adventureName = (s) => (CATALOG.adventure_names || {})[s] || String(s).toLowerCase().replace(/_/g, " ");
const faceName = (s) => FACE_NAMES[s] || String(s).toLowerCase().replace(/_/g, " ");
const capital = (t) => t.charAt(0).toUpperCase() + t.slice(1);
// A card as a player names it: its value and its adventures ("3 energy: flick, storm"), never its id.
const cardWords = (c) => `${c.value} energy${c.symbols.length ? `: ${c.symbols.map(adventureName).join(", ")}` : ""}`;

const BASE_STEPS = [["base_buy", "Buy the base"], ["base_look", "Look at the market card"], ["base_sell", "Sell cargo"],
  ["base_recharge", "Recharge energy"], ["base_take", "Take energy cards"]];
const ASK = {
  start_base: "choose your start base: tap a green base on the table (or use a button).",
  place: "place the new transport: tap in the green area (a tap snaps to the nearest legal spot), or type its point.",
  flick: "flick the transport: drag from it in the direction you want, farther for a stronger flick.",
  flick_target: "choose the token to flick (tap it or near it, or use a button).",
  turn_mode: "stay docked (base actions) or depart?",
  choose_card: "play an energy card from your hand.",
  choose_adv: "choose the next adventure of your card.",
  place_storm: "place the cosmic storm: click where it goes.",
  wind_dir: "choose the wind's direction: click on the table in that direction from your ship.",
  ruler: "lay the next ruler: point inside the fan (click or tap its end), or stop.",
  dock_offer: "dock at this base, or continue?",
  capture_offer: "capture the transport under your ruler, or skip it?",
  drift: "drift one ruler: point the direction on the table.",
  base_buy: "buy this base?",
  base_look: "look at the market card?",
  base_sell: "sell cargo from your hold, or done.",
  base_recharge: "recharge energy (5 points per MC), or done.",
  base_take: "take energy cards for your recharged points.",
  damage_pay: "pay a damage point: return a cargo, or let someone pick a card.",
  blind_pick: "pick one of the damaged player's cards blind.",
};

// The pictures of the DOM's cards and tokens (the canvas draws its own): decorative, alt="", the words beside them.
const ADV_ART = {
  FLICK: { src: "/static/art/space-pirates/adv-flick.svg" },
  NEW_RIGHT: { src: "/static/art/space-pirates/adv-new-right.svg" },
  NEW_LEFT: { src: "/static/art/space-pirates/adv-new-left.svg" },
  ASTEROID: { src: "/static/art/space-pirates/adv-asteroid.svg" },
  STORM: { src: "/static/art/space-pirates/adv-storm.svg" },
  WIND: { src: "/static/art/space-pirates/adv-wind.svg" },
};
const TOKEN_ART = {
  back: { src: "/static/art/space-pirates/token-back.svg" },
  ORE: { src: "/static/art/space-pirates/token-ore.svg" },
  SPICE: { src: "/static/art/space-pirates/token-spice.svg" },
  TECH: { src: "/static/art/space-pirates/token-tech.svg" },
  MEDS: { src: "/static/art/space-pirates/token-meds.svg" },
  RELICS: { src: "/static/art/space-pirates/token-relics.svg" },
  ASTEROID: { src: "/static/art/space-pirates/token-asteroid.svg" },
  POLICE: { src: "/static/art/space-pirates/token-police.svg" },
};

function advIcons(symbols) {
  return h("span", { class: "sp-card-icons", "aria-hidden": "true" },
    symbols.map((s) => (ADV_ART[s] ? h("img", { src: ADV_ART[s].src, alt: "", width: 28, height: 28, class: "sp-adv-icon" }) : null)));
}

function tokenPicture(identity, size = 28) {
  const art = TOKEN_ART[identity] || TOKEN_ART.back;
  return h("img", { src: art.src, alt: "", width: size, height: size, class: "sp-token-pic", "aria-hidden": "true" });
}

// Cards seen in the hand and in play: a new one is dealt in (or turned up) once; the first picture only shows.
const SEEN = { hand: null, inPlay: undefined };

let CATALOG = { cards: {}, sizes: { ruler_length: 5, ruler_width: 1, token_radius: 1.25, ship_radius: 1.5, storm_radius: 6 }, d_max: 100 };
let SETUP = null;

// Long-lived canvas state (the canvas node is kept across renders so an animation survives them).
const S = {
  canvas: null,
  wrap: null,
  ctx: null,
  scale: 8,
  view: null,
  cctx: null,
  aim: null, // {kind, from:[x,y], to:[x,y]}
  drag: null,
  anim: null, // {flick, t0}
  animatedPly: -1,
  animations: 0,
  refusal: "",
  reveals: [], // queued private captures to show in order
  revealShown: new Set(),
  revealTimer: null,
  revealNow: null,
  revealCount: 0,
  route: [],
  firstLog: true,
  zoom: 1, // 1: the whole map fits; more: the map is larger than its frame and pans
  fit: 8,
  hover: null, // {kind, pointer, ...}: the ghost of the piece being placed or chosen
  pointers: new Map(), // pointer id -> [clientX, clientY] while pressed (two: a pinch)
  press: null,
  pinch: null,
  pinched: false,
};

function fmt(v, d = 1) {
  const text = Number(v).toFixed(d);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text; // no "-0.0": a tiny negative rounds to plain zero
}

function myDecision(ctx) {
  const dec = ctx.view.decision;
  if (!dec || ctx.seat === null || ctx.seat === undefined) return null;
  return dec.seat === ctx.seat && ctx.legal.length ? dec : null;
}

function mode(ctx) {
  const dec = myDecision(ctx);
  if (!dec) return null;
  switch (dec.kind) {
    case "flick": return "flick";
    case "flick_target": return "target";
    case "place": return "place";
    case "start_base": return "base";
    case "place_storm": return "storm";
    case "wind_dir": return "wind";
    case "ruler": return "ruler";
    case "drift": return "drift";
    default: return null;
  }
}

// ------------------------------------------------------------------ geometry helpers
function toCanvas(p) {
  const H = S.view.field[1];
  return [p[0] * S.scale, (H - p[1]) * S.scale];
}

function fromEvent(ev) {
  const rect = S.canvas.getBoundingClientRect();
  const H = S.view.field[1];
  const x = (ev.clientX - rect.left) / rect.width * S.view.field[0];
  const y = H - (ev.clientY - rect.top) / rect.height * H;
  return [x, y];
}

function angleOf(from, to) {
  return Math.atan2(to[1] - from[1], to[0] - from[0]) * 180 / Math.PI;
}

function unit(deg) {
  const r = deg * Math.PI / 180;
  return [Math.cos(r), Math.sin(r)];
}

function shipPos(view, seat) {
  const pl = view.players[seat];
  const sh = pl.ship;
  if (sh.center) return { c: sh.center, heading: sh.heading };
  if (sh.base !== null && sh.base !== undefined) {
    const b = view.bases.find((x) => x.index === sh.base);
    if (b && sh.slot !== null && sh.slot !== undefined) return { c: b.slots[sh.slot], heading: b.normal };
  }
  return null;
}

/** A base's name as the rules and the log write it (its id, e.g. "B3"), from its index in the view. */
function baseName(view, index) {
  const b = view.bases.find((x) => String(x.index) === String(index));
  return b && b.id ? b.id : `B${index}`;
}

// ------------------------------------------------------------------ drawing
function poly(g, pts) {
  g.beginPath();
  pts.forEach((p, i) => {
    const [x, y] = toCanvas(p);
    if (i) g.lineTo(x, y); else g.moveTo(x, y);
  });
  g.closePath();
}

function disc(g, p, r) {
  const [x, y] = toCanvas(p);
  g.beginPath();
  g.arc(x, y, r * S.scale, 0, Math.PI * 2);
}

function tokenLabel(t) {
  if (t.open) return "asteroid (open)";
  if (t.identity) return `${faceName(t.identity)} (face down, you know it)`;
  return "face down";
}

// ------------------------------------------------------------------ the art: sprites drawn once, reused
// Every piece is drawn from the view only (a face-down transport is one identical back, whoever knows
// its face; the face is drawn only when the view gives this seat its identity).
const ART = {
  layer: null, // the still table (space, the map's elements, the bases), cached per size and owners
  layerKey: "",
  sprites: new Map(), // key -> offscreen canvas (tokens, ships), per scale
};

const REDUCED = typeof window !== "undefined" && window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

function reducedMotion() {
  return Boolean(REDUCED && REDUCED.matches);
}

/** A small seeded generator: the same stars and craters on every redraw and every screen. */
function rng(seed) {
  let a = 2166136261;
  for (const ch of String(seed)) a = Math.imul(a ^ ch.charCodeAt(0), 16777619);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function offscreen(w, hgt) {
  const c = document.createElement("canvas");
  c.width = Math.max(1, Math.ceil(w));
  c.height = Math.max(1, Math.ceil(hgt));
  return c;
}

function shapeOf(pts) {
  const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
  const cy = pts.reduce((a, p) => a + p[1], 0) / pts.length;
  const r = Math.max(...pts.map((p) => Math.hypot(p[0] - cx, p[1] - cy)));
  const rin = Math.min(...pts.map((p) => Math.hypot(p[0] - cx, p[1] - cy)));
  let far = [pts[0], pts[0]], best = -1; // the longest axis (a comet's head to its tail)
  for (const a of pts) for (const b of pts) {
    const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
    if (d > best) { best = d; far = [a, b]; }
  }
  return { c: [cx, cy], r, rin, axis: far, length: best };
}

function insidePolygon(p, pts) {
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i], [xj, yj] = pts[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < (xj - xi) * (p[1] - yi) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** A sphere lit from the upper left: `stops` from the light to the shadow. */
function sphere(g, x, y, r, stops) {
  const gr = g.createRadialGradient(x - r * 0.35, y - r * 0.4, r * 0.05, x, y, r);
  stops.forEach((c, i) => gr.addColorStop(i / (stops.length - 1), c));
  g.beginPath();
  g.arc(x, y, r, 0, Math.PI * 2);
  g.fillStyle = gr;
  g.fill();
}

function craters(g, x, y, r, rand, n, tone = "rgba(0,0,0,0.22)") {
  for (let i = 0; i < n; i++) {
    const a = rand() * Math.PI * 2, d = Math.sqrt(rand()) * r * 0.75, cr = r * (0.07 + rand() * 0.14);
    const px = x + Math.cos(a) * d, py = y + Math.sin(a) * d;
    g.beginPath(); g.arc(px, py, cr, 0, Math.PI * 2); g.fillStyle = tone; g.fill();
    g.beginPath(); g.arc(px - cr * 0.25, py - cr * 0.25, cr * 0.7, 0, Math.PI * 2); g.fillStyle = "rgba(255,255,255,0.08)"; g.fill();
  }
}

function rock(g, x, y, r, rand, light = "#a08a72", dark = "#4b3d30") {
  g.beginPath();
  const n = 7 + Math.floor(rand() * 4);
  for (let i = 0; i < n; i++) {
    const a = i / n * Math.PI * 2, k = r * (0.7 + rand() * 0.45);
    const px = x + Math.cos(a) * k, py = y + Math.sin(a) * k;
    if (i) g.lineTo(px, py); else g.moveTo(px, py);
  }
  g.closePath();
  const gr = g.createRadialGradient(x - r * 0.4, y - r * 0.4, r * 0.1, x, y, r * 1.2);
  gr.addColorStop(0, light);
  gr.addColorStop(1, dark);
  g.fillStyle = gr;
  g.fill();
  g.strokeStyle = "rgba(0,0,0,0.35)";
  g.lineWidth = Math.max(0.5, r * 0.08);
  g.stroke();
}

function tracePolygon(g, pts) {
  g.beginPath();
  pts.forEach((p, i) => { const [x, y] = toCanvas(p); if (i) g.lineTo(x, y); else g.moveTo(x, y); });
  g.closePath();
}

/** Deep space: a gradient, faint clouds and seeded stars (twinkle-free: the table holds still). */
function drawSpace(g, W, H) {
  const w = W * S.scale, hh = H * S.scale;
  const bg = g.createRadialGradient(w * 0.45, hh * 0.4, 0, w * 0.5, hh * 0.5, Math.max(w, hh) * 0.75);
  bg.addColorStop(0, "#17224a");
  bg.addColorStop(0.6, "#0b1230");
  bg.addColorStop(1, "#05070f");
  g.fillStyle = bg;
  g.fillRect(0, 0, w, hh);
  const rand = rng(`space:${W}x${H}`);
  for (const [fx, fy, tint] of [[0.2, 0.75, "120,70,180"], [0.8, 0.25, "40,120,170"], [0.6, 0.8, "170,60,110"]]) {
    const cr = Math.max(w, hh) * (0.25 + rand() * 0.1);
    const cl = g.createRadialGradient(fx * w, fy * hh, 0, fx * w, fy * hh, cr);
    cl.addColorStop(0, `rgba(${tint},0.16)`);
    cl.addColorStop(1, `rgba(${tint},0)`);
    g.fillStyle = cl;
    g.fillRect(0, 0, w, hh);
  }
  const stars = Math.round(W * H / 9);
  for (let i = 0; i < stars; i++) {
    const x = rand() * w, y = rand() * hh, big = rand();
    const r = big > 0.97 ? 1.4 : big > 0.85 ? 0.9 : 0.5;
    const hue = rand();
    g.fillStyle = hue > 0.9 ? "rgba(255,210,160,0.9)" : hue > 0.8 ? "rgba(170,200,255,0.9)" : `rgba(255,255,255,${0.35 + rand() * 0.6})`;
    g.beginPath(); g.arc(x, y, r, 0, Math.PI * 2); g.fill();
    if (r > 1.2) { // a bright star's glint
      g.strokeStyle = "rgba(255,255,255,0.35)";
      g.lineWidth = 0.6;
      g.beginPath(); g.moveTo(x - 4, y); g.lineTo(x + 4, y); g.moveTo(x, y - 4); g.lineTo(x, y + 4); g.stroke();
    }
  }
  // the table is to scale: a faint 10 cm grid, and a ruler's scale along the edges
  g.strokeStyle = "rgba(150,180,255,0.07)";
  g.lineWidth = 1;
  for (let x = 10; x < W; x += 10) { g.beginPath(); g.moveTo(x * S.scale, 0); g.lineTo(x * S.scale, hh); g.stroke(); }
  for (let y = 10; y < H; y += 10) { g.beginPath(); g.moveTo(0, (H - y) * S.scale); g.lineTo(w, (H - y) * S.scale); g.stroke(); }
  g.strokeStyle = "rgba(150,180,255,0.35)";
  for (let x = 0; x <= W; x += 5) {
    const k = x % 10 === 0 ? 6 : 3;
    g.beginPath(); g.moveTo(x * S.scale, hh); g.lineTo(x * S.scale, hh - k); g.moveTo(x * S.scale, 0); g.lineTo(x * S.scale, k); g.stroke();
  }
  for (let y = 0; y <= H; y += 5) {
    const k = y % 10 === 0 ? 6 : 3;
    g.beginPath(); g.moveTo(0, (H - y) * S.scale); g.lineTo(k, (H - y) * S.scale); g.moveTo(w, (H - y) * S.scale); g.lineTo(w - k, (H - y) * S.scale); g.stroke();
  }
}

/** One element of the map, as art inside its own outline (what the physics sees is what is drawn). */
function drawElement(g, e) {
  const pts = e.polygon;
  const sh = shapeOf(pts);
  const [x, y] = toCanvas(sh.c);
  const r = sh.r * S.scale, rin = sh.rin * S.scale;
  const name = String(e.name || "").toLowerCase();
  const rand = rng(`el:${e.id}:${e.name}`);
  g.save();
  if (name.includes("giant") || (name.includes("star") && !name.includes("dark"))) {
    const glow = g.createRadialGradient(x, y, r * 0.8, x, y, r * 1.7);
    glow.addColorStop(0, "rgba(255,140,60,0.45)");
    glow.addColorStop(1, "rgba(255,100,40,0)");
    g.fillStyle = glow;
    g.beginPath(); g.arc(x, y, r * 1.7, 0, Math.PI * 2); g.fill();
    sphere(g, x, y, r, ["#fff6c8", "#ffc061", "#f0662c", "#a3221a"]);
    for (let i = 0; i < 6; i++) { // the surface's boiling cells
      const a = rand() * Math.PI * 2, d = rand() * r * 0.7;
      const cell = g.createRadialGradient(x + Math.cos(a) * d, y + Math.sin(a) * d, 0, x + Math.cos(a) * d, y + Math.sin(a) * d, r * 0.3);
      cell.addColorStop(0, "rgba(255,240,180,0.35)");
      cell.addColorStop(1, "rgba(255,240,180,0)");
      g.fillStyle = cell;
      g.beginPath(); g.arc(x + Math.cos(a) * d, y + Math.sin(a) * d, r * 0.3, 0, Math.PI * 2); g.fill();
    }
  } else if (name.includes("dark") || name.includes("black hole")) {
    const corona = g.createRadialGradient(x, y, r * 0.55, x, y, r * 1.45);
    corona.addColorStop(0, "rgba(190,90,255,0.9)");
    corona.addColorStop(0.35, "rgba(120,40,200,0.45)");
    corona.addColorStop(1, "rgba(60,0,120,0)");
    g.fillStyle = corona;
    g.beginPath(); g.arc(x, y, r * 1.45, 0, Math.PI * 2); g.fill();
    const core = g.createRadialGradient(x, y, 0, x, y, r);
    core.addColorStop(0, "#000");
    core.addColorStop(0.8, "#07020f");
    core.addColorStop(1, "#3b1a66");
    g.fillStyle = core;
    g.beginPath(); g.arc(x, y, r, 0, Math.PI * 2); g.fill();
    g.strokeStyle = "rgba(230,190,255,0.8)";
    g.lineWidth = Math.max(1, r * 0.06);
    g.beginPath(); g.arc(x, y, r * 0.96, 0, Math.PI * 2); g.stroke();
  } else if (name.includes("wormhole")) {
    const well = g.createRadialGradient(x, y, 0, x, y, r);
    well.addColorStop(0, "#000");
    well.addColorStop(0.5, "#1b2a6b");
    well.addColorStop(1, "#62e0ff");
    g.fillStyle = well;
    g.beginPath(); g.arc(x, y, r, 0, Math.PI * 2); g.fill();
    g.strokeStyle = "rgba(200,245,255,0.7)";
    g.lineWidth = Math.max(1, r * 0.05);
    for (let k = 0; k < 3; k++) { // the spiral arms
      g.beginPath();
      for (let t = 0; t <= 1; t += 0.04) {
        const a = k * 2.094 + t * 5, d = r * (1 - t) * 0.95;
        const px = x + Math.cos(a) * d, py = y + Math.sin(a) * d;
        if (t) g.lineTo(px, py); else g.moveTo(px, py);
      }
      g.stroke();
    }
  } else if (name.includes("ringed")) {
    const ball = rin * 1.05;
    const ring = (front) => {
      g.save();
      g.beginPath();
      g.rect(x - r * 1.2, front ? y : y - r, r * 2.4, r);
      g.clip();
      g.strokeStyle = "rgba(240,214,160,0.9)";
      g.lineWidth = Math.max(1.5, rin * 0.22);
      g.beginPath(); g.ellipse(x, y, r * 0.93, rin * 0.42, -0.12, 0, Math.PI * 2); g.stroke();
      g.strokeStyle = "rgba(150,110,70,0.8)";
      g.lineWidth = Math.max(0.8, rin * 0.07);
      g.beginPath(); g.ellipse(x, y, r * 0.78, rin * 0.34, -0.12, 0, Math.PI * 2); g.stroke();
      g.restore();
    };
    ring(false);
    sphere(g, x, y, ball, ["#ffe9b8", "#e3a95c", "#9c5f2e", "#3d220f"]);
    g.save();
    g.beginPath(); g.arc(x, y, ball, 0, Math.PI * 2); g.clip();
    for (let i = -2; i <= 2; i++) { // the bands
      g.fillStyle = i % 2 ? "rgba(120,60,20,0.25)" : "rgba(255,240,200,0.15)";
      g.fillRect(x - ball, y + i * ball * 0.32 - ball * 0.08, ball * 2, ball * 0.16);
    }
    g.restore();
    ring(true);
  } else if (name.includes("moons")) {
    const [a, b] = sh.axis;
    const [ax, ay] = toCanvas(a), [bx, by] = toCanvas(b);
    const mr = sh.length * S.scale / 5.2;
    for (const t of [0.27, 0.73]) {
      const mx = ax + (bx - ax) * t, my = ay + (by - ay) * t;
      sphere(g, mx, my, mr, ["#f1f1f4", "#b9bcc8", "#6f7282", "#2c2e38"]);
      craters(g, mx, my, mr, rand, 5);
    }
  } else if (name.includes("azure") || name.includes("ice") || name.includes("world") || e.kind === "planet") {
    const ice = name.includes("ice");
    sphere(g, x, y, r * 0.98, ice ? ["#ffffff", "#c9f1ff", "#6fb8d8", "#1f4a66"] : ["#c6f0ff", "#3fa2e8", "#1d4fa8", "#0b1d4a"]);
    g.save();
    g.beginPath(); g.arc(x, y, r * 0.98, 0, Math.PI * 2); g.clip();
    if (ice) {
      g.fillStyle = "rgba(255,255,255,0.85)";
      g.beginPath(); g.ellipse(x, y - r * 0.92, r * 0.6, r * 0.25, 0, 0, Math.PI * 2); g.fill();
      g.beginPath(); g.ellipse(x, y + r * 0.95, r * 0.5, r * 0.2, 0, 0, Math.PI * 2); g.fill();
      g.strokeStyle = "rgba(40,110,150,0.55)";
      g.lineWidth = Math.max(0.7, r * 0.04);
      for (let i = 0; i < 5; i++) {
        g.beginPath();
        let px = x + (rand() - 0.5) * r, py = y + (rand() - 0.5) * r;
        g.moveTo(px, py);
        for (let k = 0; k < 4; k++) { px += (rand() - 0.5) * r * 0.6; py += (rand() - 0.5) * r * 0.6; g.lineTo(px, py); }
        g.stroke();
      }
    } else {
      for (let i = 0; i < 5; i++) { // continents and clouds
        const a = rand() * Math.PI * 2, d = rand() * r * 0.6;
        g.fillStyle = "rgba(80,170,90,0.7)";
        g.beginPath(); g.ellipse(x + Math.cos(a) * d, y + Math.sin(a) * d, r * (0.15 + rand() * 0.25), r * (0.1 + rand() * 0.15), rand() * 3, 0, Math.PI * 2); g.fill();
      }
      g.strokeStyle = "rgba(255,255,255,0.55)";
      g.lineWidth = Math.max(1, r * 0.07);
      for (let i = 0; i < 3; i++) {
        g.beginPath(); g.ellipse(x, y + (rand() - 0.5) * r * 1.2, r * (0.4 + rand() * 0.4), r * 0.08, 0.2, 0, Math.PI * 1.3); g.stroke();
      }
    }
    g.restore();
    g.strokeStyle = ice ? "rgba(220,250,255,0.6)" : "rgba(140,210,255,0.6)"; // the atmosphere
    g.lineWidth = Math.max(1.5, r * 0.08);
    g.beginPath(); g.arc(x, y, r * 0.98, 0, Math.PI * 2); g.stroke();
  } else {
    // the shapes with corners: drawn inside their outline
    tracePolygon(g, pts);
    g.clip();
    const [bx0, by0] = toCanvas([Math.min(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[1]))]);
    const [bx1, by1] = toCanvas([Math.max(...pts.map((p) => p[0])), Math.min(...pts.map((p) => p[1]))]);
    const bw = bx1 - bx0, bh = by1 - by0;
    const sample = (n, fn) => {
      for (let i = 0, tries = 0; i < n && tries < n * 20; tries++) {
        const p = [bx0 + rand() * bw, by0 + rand() * bh];
        const q = [p[0] / S.scale, S.view.field[1] - p[1] / S.scale];
        if (!insidePolygon(q, pts)) continue;
        fn(p[0], p[1]);
        i++;
      }
    };
    if (name.includes("asteroid")) {
      g.fillStyle = "rgba(120,100,80,0.22)";
      g.fillRect(bx0, by0, bw, bh);
      sample(Math.round(bw * bh / (S.scale * S.scale) * 0.5) + 8, (px, py) => rock(g, px, py, S.scale * (0.25 + rand() * 0.55), rand));
    } else if (name.includes("nebula")) {
      for (let i = 0; i < 7; i++) {
        const px = bx0 + rand() * bw, py = by0 + rand() * bh, pr = Math.max(bw, bh) * (0.25 + rand() * 0.3);
        const cl = g.createRadialGradient(px, py, 0, px, py, pr);
        const tint = i % 2 ? "200,90,220" : "110,80,230";
        cl.addColorStop(0, `rgba(${tint},0.55)`);
        cl.addColorStop(1, `rgba(${tint},0)`);
        g.fillStyle = cl;
        g.fillRect(bx0, by0, bw, bh);
      }
      sample(14, (px, py) => { g.fillStyle = "rgba(255,230,255,0.9)"; g.beginPath(); g.arc(px, py, 0.8, 0, Math.PI * 2); g.fill(); });
    } else if (name.includes("comet")) {
      const [a, b] = sh.axis.map(toCanvas);
      const tail = g.createLinearGradient(b[0], b[1], a[0], a[1]);
      tail.addColorStop(0, "rgba(220,250,255,0.95)");
      tail.addColorStop(0.25, "rgba(120,200,255,0.55)");
      tail.addColorStop(1, "rgba(80,140,255,0)");
      g.fillStyle = tail;
      g.fillRect(bx0, by0, bw, bh);
      const hx = b[0] + (a[0] - b[0]) * 0.14, hy = b[1] + (a[1] - b[1]) * 0.14;
      sphere(g, hx, hy, Math.min(bw, bh) * 0.33, ["#ffffff", "#d8f4ff", "#7fb8d8", "#36627a"]);
    } else if (name.includes("station") || e.kind === "abandoned_base") {
      const metal = g.createLinearGradient(bx0, by0, bx1, by1);
      metal.addColorStop(0, "#9aa3b5");
      metal.addColorStop(0.5, "#5b6376");
      metal.addColorStop(1, "#2d323f");
      g.fillStyle = metal;
      g.fillRect(bx0, by0, bw, bh);
      g.strokeStyle = "rgba(20,24,32,0.7)";
      g.lineWidth = Math.max(1, S.scale * 0.12);
      const step = S.scale * 1.2;
      for (let px = bx0 + step; px < bx1; px += step) { g.beginPath(); g.moveTo(px, by0); g.lineTo(px, by1); g.stroke(); }
      for (let py = by0 + step; py < by1; py += step) { g.beginPath(); g.moveTo(bx0, py); g.lineTo(bx1, py); g.stroke(); }
      g.strokeStyle = "rgba(240,190,60,0.5)"; // its abandoned hazard stripes
      g.lineWidth = Math.max(1, S.scale * 0.25);
      for (let k = -bh; k < bw; k += S.scale * 1.6) { g.beginPath(); g.moveTo(bx0 + k, by1); g.lineTo(bx0 + k + bh, by0); g.stroke(); }
      sample(5, (px, py) => { g.fillStyle = "rgba(10,10,14,0.8)"; g.beginPath(); g.arc(px, py, S.scale * (0.2 + rand() * 0.35), 0, Math.PI * 2); g.fill(); });
    } else if (name.includes("wreck")) {
      g.fillStyle = "rgba(90,90,110,0.2)";
      g.fillRect(bx0, by0, bw, bh);
      sample(Math.round(bw * bh / (S.scale * S.scale) * 0.6) + 6, (px, py) => {
        g.save();
        g.translate(px, py);
        g.rotate(rand() * Math.PI);
        const sw = S.scale * (0.3 + rand() * 0.9), shh = S.scale * (0.15 + rand() * 0.3);
        g.fillStyle = rand() > 0.5 ? "#8c93a3" : "#5d6170";
        g.fillRect(-sw / 2, -shh / 2, sw, shh);
        g.fillStyle = "rgba(255,120,40,0.6)";
        g.fillRect(-sw / 2, -shh / 2, sw * 0.2, shh);
        g.restore();
      });
    } else { // any other rock of the map
      const gr = g.createRadialGradient(x - r * 0.3, y - r * 0.3, 0, x, y, r);
      gr.addColorStop(0, "#9b8f83");
      gr.addColorStop(1, "#3a332d");
      g.fillStyle = gr;
      g.fillRect(bx0, by0, bw, bh);
      craters(g, x, y, r, rand, 8);
    }
  }
  g.restore();
  tracePolygon(g, pts); // the element's true outline, faint: where a token bounces
  g.strokeStyle = "rgba(200,215,255,0.28)";
  g.lineWidth = 1;
  g.stroke();
}

/** A pirate base: a metal dock with its deck, docking pads and black-and-yellow gate; an owner's colours. */
function drawBase(g, b) {
  const pts = b.polygon;
  const [backL, backR, frontR, frontL] = pts.map(toCanvas);
  const k = [(backL[0] + backR[0]) / 2, (backL[1] + backR[1]) / 2];
  const f = [(frontL[0] + frontR[0]) / 2, (frontL[1] + frontR[1]) / 2];
  g.save();
  tracePolygon(g, pts);
  const hull = g.createLinearGradient(k[0], k[1], f[0], f[1]);
  if (b.inhabited) {
    hull.addColorStop(0, "#6d7892");
    hull.addColorStop(0.55, "#39425a");
    hull.addColorStop(1, "#232a3b");
  } else {
    hull.addColorStop(0, "#4a4d55");
    hull.addColorStop(1, "#26282e");
  }
  g.fillStyle = hull;
  g.fill();
  g.clip();
  g.strokeStyle = "rgba(255,255,255,0.08)"; // deck plates
  g.lineWidth = 1;
  for (let t = 0.2; t < 1; t += 0.2) {
    g.beginPath();
    g.moveTo(backL[0] + (frontL[0] - backL[0]) * t, backL[1] + (frontL[1] - backL[1]) * t);
    g.lineTo(backR[0] + (frontR[0] - backR[0]) * t, backR[1] + (frontR[1] - backR[1]) * t);
    g.stroke();
  }
  if (b.owner !== null && b.owner !== undefined) {
    g.fillStyle = `${COLORS[b.owner]}59`;
    g.fill();
    g.strokeStyle = COLORS[b.owner]; // the owner's band along the back
    g.lineWidth = Math.max(3, S.scale * 0.6);
    g.beginPath(); g.moveTo(backL[0], backL[1]); g.lineTo(backR[0], backR[1]); g.stroke();
  }
  if (!b.inhabited) {
    g.strokeStyle = "rgba(0,0,0,0.35)";
    g.lineWidth = 2;
    const w = S.canvas.width;
    for (let d = -w; d < w; d += 8) { g.beginPath(); g.moveTo(d, 0); g.lineTo(d + w, w); g.stroke(); }
  }
  g.restore();
  tracePolygon(g, pts);
  g.strokeStyle = b.inhabited ? "#f2c14e" : "#777";
  g.lineWidth = 1.5;
  g.stroke();
  if (!b.inhabited) return;
  for (const s of b.slots) { // docking pads
    const [x, y] = toCanvas(s);
    const pr = CATALOG.sizes.ship_radius * S.scale * 0.85;
    g.beginPath(); g.arc(x, y, pr, 0, Math.PI * 2);
    g.fillStyle = "rgba(10,14,24,0.55)";
    g.fill();
    g.strokeStyle = "rgba(124,252,0,0.7)";
    g.lineWidth = 1.5;
    g.setLineDash([3, 3]);
    g.stroke();
    g.setLineDash([]);
    g.beginPath(); g.arc(x, y, 0.4 * S.scale, 0, Math.PI * 2);
    g.fillStyle = "#7CFC0088";
    g.fill();
  }
  const [a, c] = [toCanvas(b.gate[0]), toCanvas(b.gate[1])]; // the gate: black and yellow
  g.lineCap = "butt";
  g.lineWidth = Math.max(4, S.scale * 0.45);
  g.strokeStyle = "#111";
  g.beginPath(); g.moveTo(a[0], a[1]); g.lineTo(c[0], c[1]); g.stroke();
  g.strokeStyle = "#ffd21f";
  g.setLineDash([Math.max(4, S.scale * 0.5), Math.max(4, S.scale * 0.5)]);
  g.beginPath(); g.moveTo(a[0], a[1]); g.lineTo(c[0], c[1]); g.stroke();
  g.setLineDash([]);
}

/** The still table (space, elements, bases), drawn once per size and owners, then copied. */
function staticLayer() {
  const view = S.view;
  const [W, H] = view.field;
  const key = JSON.stringify([S.canvas.width, S.canvas.height, S.scale, view.field, view.elements.map((e) => e.id),
    view.bases.map((b) => [b.index, b.owner, b.inhabited, b.polygon[0]])]);
  if (ART.layer && ART.layerKey === key) return ART.layer;
  const c = offscreen(S.canvas.width, S.canvas.height);
  const g = c.getContext("2d");
  g.setTransform(S.dpr, 0, 0, S.dpr, 0, 0);
  drawSpace(g, W, H);
  for (const e of view.elements) drawElement(g, e);
  for (const b of view.bases) drawBase(g, b);
  ART.layer = c;
  ART.layerKey = key;
  ART.sprites.clear(); // a new size: the pieces are drawn again at it
  return c;
}

const CARGO_ART = {
  ORE: { fill: ["#e9d6c0", "#9b6b43"], mark: "O" },
  SPICE: { fill: ["#ffe1a8", "#d2751d"], mark: "S" },
  TECH: { fill: ["#c7f7ff", "#2d8fb8"], mark: "T" },
  MEDS: { fill: ["#ffffff", "#d64545"], mark: "M" },
  RELICS: { fill: ["#f4e2ff", "#8b4fc4"], mark: "R" },
  ASTEROID: { fill: ["#b5a08a", "#4b3d30"], mark: "A" },
  POLICE: { fill: ["#dbe7ff", "#1f4fb5"], mark: "P" },
};

/** A transport token's sprite, in CSS px: "back" (face down, the same for every token) or a face. */
function tokenSprite(face) {
  const key = `token:${face}:${S.scale}:${S.dpr}`;
  if (ART.sprites.has(key)) return ART.sprites.get(key);
  const r = CATALOG.sizes.token_radius * S.scale;
  const size = (r * 2 + 6) * S.dpr;
  const c = offscreen(size, size);
  const g = c.getContext("2d");
  g.setTransform(S.dpr, 0, 0, S.dpr, 0, 0);
  const x = r + 3, y = r + 3;
  g.beginPath(); g.arc(x + 0.8, y + 1.2, r, 0, Math.PI * 2); // its shadow on the table
  g.fillStyle = "rgba(0,0,0,0.45)";
  g.fill();
  sphere(g, x, y, r, ["#8a8f9c", "#4a4f5c", "#23262e"]); // the dark-grey cardboard rim
  const inner = r * 0.78;
  if (face === "back") { // the transport symbol on white
    sphere(g, x, y, inner, ["#ffffff", "#e9edf3", "#b7bfcc"]);
    g.fillStyle = "#2b3445";
    g.beginPath(); // a freighter seen from above
    g.moveTo(x + inner * 0.62, y);
    g.lineTo(x + inner * 0.2, y - inner * 0.32);
    g.lineTo(x - inner * 0.55, y - inner * 0.32);
    g.lineTo(x - inner * 0.55, y + inner * 0.32);
    g.lineTo(x + inner * 0.2, y + inner * 0.32);
    g.closePath();
    g.fill();
    g.fillStyle = "#ffb23e";
    g.fillRect(x - inner * 0.7, y - inner * 0.18, inner * 0.15, inner * 0.36);
  } else if (face === "ASTEROID") {
    rock(g, x, y, inner * 1.05, rng("asteroid-token"), "#c7ae94", "#4b3d30");
    craters(g, x, y, inner * 0.8, rng("asteroid-craters"), 4);
  } else {
    const art = CARGO_ART[face] || { fill: ["#eee", "#888"], mark: String(face)[0] };
    sphere(g, x, y, inner, [art.fill[0], art.fill[1]]);
    g.font = `800 ${Math.max(8, Math.round(inner * 1.1))}px sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.lineWidth = 2.5;
    g.strokeStyle = "rgba(255,255,255,0.85)";
    g.strokeText(art.mark, x, y + 0.5);
    g.fillStyle = "#111";
    g.fillText(art.mark, x, y + 0.5);
  }
  g.strokeStyle = "rgba(255,255,255,0.35)";
  g.lineWidth = 1;
  g.beginPath(); g.arc(x, y, r - 0.5, 0, Math.PI * 2); g.stroke();
  const out = { c, half: r + 3 };
  ART.sprites.set(key, out);
  return out;
}

function drawTokenArt(g, p, face) {
  const s = tokenSprite(face);
  const [x, y] = toCanvas(p);
  g.drawImage(s.c, x - s.half, y - s.half, s.half * 2, s.half * 2);
}

/** A pirate ship in the seat's colour on its round stand, its nose along `heading` (degrees, y up). */
function shipSprite(seat, arrested) {
  const key = `ship:${seat}:${arrested}:${S.scale}:${S.dpr}`;
  if (ART.sprites.has(key)) return ART.sprites.get(key);
  const r = CATALOG.sizes.ship_radius * S.scale;
  const half = r * 1.9 + 4;
  const c = offscreen(half * 2 * S.dpr, half * 2 * S.dpr);
  const g = c.getContext("2d");
  g.setTransform(S.dpr, 0, 0, S.dpr, half * S.dpr, half * S.dpr);
  const col = COLORS[seat % COLORS.length];
  // the stand: what touches the table (and what the rules measure)
  g.beginPath(); g.arc(0, 0, r, 0, Math.PI * 2);
  g.fillStyle = `${col}40`;
  g.fill();
  g.strokeStyle = arrested ? "#ffffff" : col;
  g.lineWidth = arrested ? 3 : 1.5;
  if (arrested) g.setLineDash([4, 3]);
  g.stroke();
  g.setLineDash([]);
  // the hull, nose to the right (+x): rotated when drawn
  const L = r * 1.55;
  const flame = g.createLinearGradient(-L * 0.6, 0, -L * 1.05, 0);
  flame.addColorStop(0, "rgba(255,230,120,0.95)");
  flame.addColorStop(1, "rgba(255,90,30,0)");
  g.fillStyle = flame;
  g.beginPath(); g.moveTo(-L * 0.5, -r * 0.22); g.lineTo(-L * 1.1, 0); g.lineTo(-L * 0.5, r * 0.22); g.closePath(); g.fill();
  const hull = g.createLinearGradient(0, -r, 0, r);
  hull.addColorStop(0, "#ffffff");
  hull.addColorStop(0.35, col);
  hull.addColorStop(1, "#111");
  g.beginPath();
  g.moveTo(L, 0);
  g.quadraticCurveTo(L * 0.35, -r * 0.42, -L * 0.2, -r * 0.38);
  g.lineTo(-L * 0.55, -r * 0.95); // a wing
  g.lineTo(-L * 0.62, -r * 0.3);
  g.lineTo(-L * 0.62, r * 0.3);
  g.lineTo(-L * 0.55, r * 0.95);
  g.lineTo(-L * 0.2, r * 0.38);
  g.quadraticCurveTo(L * 0.35, r * 0.42, L, 0);
  g.closePath();
  g.fillStyle = hull;
  g.fill();
  g.strokeStyle = "#0b0f1a";
  g.lineWidth = 1.4;
  g.stroke();
  const glass = g.createRadialGradient(L * 0.3, -r * 0.08, 0, L * 0.25, 0, r * 0.3);
  glass.addColorStop(0, "#e6fbff");
  glass.addColorStop(1, "#2a6c9a");
  g.fillStyle = glass;
  g.beginPath(); g.ellipse(L * 0.28, 0, r * 0.32, r * 0.18, 0, 0, Math.PI * 2); g.fill();
  const out = { c, half };
  ART.sprites.set(key, out);
  return out;
}

function drawShipArt(g, pl, sp) {
  const s = shipSprite(pl.seat, Boolean(pl.ship.arrested));
  const [x, y] = toCanvas(sp.c);
  g.save();
  g.translate(x, y);
  g.rotate(-sp.heading * Math.PI / 180); // canvas angles run clockwise (y down)
  g.drawImage(s.c, -s.half, -s.half, s.half * 2, s.half * 2);
  g.restore();
}

/** The cosmic storm: a swirl of cloud (its rim the rules' circle). */
function drawStorm(g, p) {
  const R = CATALOG.sizes.storm_radius * S.scale;
  const [x, y] = toCanvas(p);
  const body = g.createRadialGradient(x, y, 0, x, y, R);
  body.addColorStop(0, "rgba(230,240,255,0.55)");
  body.addColorStop(0.35, "rgba(120,160,255,0.28)");
  body.addColorStop(1, "rgba(90,120,255,0.08)");
  g.fillStyle = body;
  g.beginPath(); g.arc(x, y, R, 0, Math.PI * 2); g.fill();
  g.strokeStyle = "rgba(200,220,255,0.55)";
  g.lineWidth = Math.max(1.5, R * 0.05);
  for (let k = 0; k < 4; k++) {
    g.beginPath();
    for (let t = 0.1; t <= 1; t += 0.05) {
      const a = k * Math.PI / 2 + t * 4.2, d = R * t * 0.92;
      const px = x + Math.cos(a) * d, py = y + Math.sin(a) * d;
      if (t > 0.1) g.lineTo(px, py); else g.moveTo(px, py);
    }
    g.stroke();
  }
  g.fillStyle = "#fff8c4"; // the lightning at its eye
  g.beginPath(); g.moveTo(x - R * 0.05, y - R * 0.22); g.lineTo(x + R * 0.08, y - R * 0.02); g.lineTo(x, y - R * 0.02);
  g.lineTo(x + R * 0.06, y + R * 0.22); g.lineTo(x - R * 0.08, y + R * 0.02); g.lineTo(x, y + R * 0.02); g.closePath(); g.fill();
  g.beginPath(); g.arc(x, y, R, 0, Math.PI * 2);
  g.strokeStyle = "rgba(160,190,255,0.85)";
  g.setLineDash([6, 4]);
  g.lineWidth = 2;
  g.stroke();
  g.setLineDash([]);
}

/** A ruler as a ruler: a light bar with centimetre ticks, from `a` to `b` (cm). */
function drawRulerArt(g, a, b, fill) {
  const w = CATALOG.sizes.ruler_width / 2;
  const d = [b[0] - a[0], b[1] - a[1]];
  const len = Math.hypot(d[0], d[1]) || 1;
  const u = [d[0] / len, d[1] / len];
  const n = [-u[1] * w, u[0] * w];
  poly(g, [[a[0] + n[0], a[1] + n[1]], [b[0] + n[0], b[1] + n[1]], [b[0] - n[0], b[1] - n[1]], [a[0] - n[0], a[1] - n[1]]]);
  g.fillStyle = fill;
  g.fill();
  g.strokeStyle = "rgba(40,40,60,0.7)";
  g.lineWidth = 1;
  g.stroke();
  g.beginPath();
  for (let t = 1; t < len; t += 1) {
    const [x0, y0] = toCanvas([a[0] + u[0] * t + n[0], a[1] + u[1] * t + n[1]]);
    const k = t % 5 === 0 ? 0.9 : 0.45;
    const [x1, y1] = toCanvas([a[0] + u[0] * t + n[0] * (1 - k), a[1] + u[1] * t + n[1] * (1 - k)]);
    g.moveTo(x0, y0);
    g.lineTo(x1, y1);
  }
  g.stroke();
}

/** Behind a moving piece: the path it has run so far, fading (the flick's animation). */
function drawTrails(g) {
  const a = S.anim;
  if (!a || !a.trail) return;
  for (const pts of Object.values(a.trail)) {
    for (let i = 1; i < pts.length; i++) {
      const [x0, y0] = toCanvas(pts[i - 1]);
      const [x1, y1] = toCanvas(pts[i]);
      g.strokeStyle = `rgba(255,220,140,${0.15 + 0.6 * i / pts.length})`;
      g.lineWidth = Math.max(1.5, CATALOG.sizes.token_radius * S.scale * 0.6 * i / pts.length);
      g.lineCap = "round";
      g.beginPath(); g.moveTo(x0, y0); g.lineTo(x1, y1); g.stroke();
    }
  }
}

function tokenFace(t) {
  if (t.open) return t.identity || "ASTEROID";
  return t.identity || "back";
}

function drawTable(overrides) {
  const view = S.view;
  const g = S.ctx;
  if (!view || !g) return;
  const sz = CATALOG.sizes;
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.clearRect(0, 0, S.canvas.width, S.canvas.height);
  g.drawImage(staticLayer(), 0, 0); // space, the map's elements and the bases: drawn once per size
  g.setTransform(S.dpr, 0, 0, S.dpr, 0, 0);
  drawChoices(g);
  if (view.storm) drawStorm(g, view.storm);
  drawTrails(g);
  const moving = overrides || {};
  const badge = Math.max(10, labelFont() - 2);
  for (const t of view.tokens) {
    const p = t.tid in moving ? moving[t.tid] : t.pos;
    if (!p) continue;
    drawTokenArt(g, p, tokenFace(t));
    if (t.identity && !t.open && S.scale >= 8) { // face down, and you know its face: a dashed rim says it lies face down
      disc(g, p, sz.token_radius + 0.15);
      g.strokeStyle = "rgba(255,255,255,0.9)";
      g.lineWidth = 1.2;
      g.setLineDash([3, 2]);
      g.stroke();
      g.setLineDash([]);
    }
    const [x, y] = toCanvas(p);
    const off = sz.token_radius * S.scale * 0.8;
    haloText(g, String(t.tid), x + off, y - off, badge);
  }
  // tokens still moving but not in the view any more (left the field during the animation): a back
  for (const [tid, p] of Object.entries(moving)) {
    if (!p || view.tokens.some((t) => String(t.tid) === tid)) continue;
    drawTokenArt(g, p, "back");
  }
  for (const pl of view.players) {
    const sp = shipPos(view, pl.seat);
    if (!sp) continue;
    drawShipArt(g, pl, sp);
  }
  drawRoute(g);
  drawGuides(g);
  drawHover(g);
  drawLabels(g);
}

// ------------------------------------------------------------------ labels over the pieces
/** The labels' font size in CSS px: never under 11 px (a phone), never shouting on a laptop. */
function labelFont() {
  return Math.round(Math.min(15, Math.max(11, S.scale * 1.1)));
}

/** A base's label: its id (and owner), then the market's prices when the viewer knows them. */
function baseLabelLines(b, cx) {
  const owner = b.owner !== null && b.owner !== undefined ? ` · ${cx && cx.name ? String(cx.name(b.owner)).slice(0, 12) : `Seat ${b.owner + 1}`}` : "";
  const lines = [`${b.id || `B${b.index}`}${owner}`];
  if (b.prices) lines.push(Object.entries(b.prices).map(([k, v]) => `${k[0]}${v}`).join(" "));
  return lines;
}

/** Candidate centres (cm) for a base's label box w x h cm, best first: the strip at the back of the base
 * that docked ships leave free, then behind it, beside it, in front of its gate (as the pictures do). */
function baseLabelSpots(b, w, hh) {
  const [backL, backR, frontR, frontL] = b.polygon;
  const g = [(frontL[0] + frontR[0]) / 2, (frontL[1] + frontR[1]) / 2];
  const k = [(backL[0] + backR[0]) / 2, (backL[1] + backR[1]) / 2];
  const depth = Math.hypot(g[0] - k[0], g[1] - k[1]) || 1;
  const n = [(g[0] - k[0]) / depth, (g[1] - k[1]) / depth];
  const l = [-n[1], n[0]];
  const halfWidth = Math.hypot(frontR[0] - frontL[0], frontR[1] - frontL[1]) / 2;
  const s0 = b.slots[0] || g;
  const slotDepth = Math.abs((s0[0] - g[0]) * n[0] + (s0[1] - g[1]) * n[1]);
  const free = depth - slotDepth - CATALOG.sizes.ship_radius;
  const reach = (u) => Math.abs(u[0]) * w / 2 + Math.abs(u[1]) * hh / 2;
  const gap = 0.3;
  const m = [(g[0] + k[0]) / 2, (g[1] + k[1]) / 2];
  const spots = [[k[0] + n[0] * free / 2, k[1] + n[1] * free / 2],
    [k[0] - n[0] * (gap + reach(n)), k[1] - n[1] * (gap + reach(n))]];
  for (const side of [1, -1]) {
    const d = halfWidth + gap + reach(l);
    spots.push([m[0] + side * l[0] * d, m[1] + side * l[1] * d]);
  }
  const ahead = gap + reach(n) + 2 * CATALOG.sizes.ship_radius;
  spots.push([g[0] + n[0] * ahead, g[1] + n[1] * ahead]);
  return spots;
}

function boxMeetsDisc(box, d) {
  const dx = Math.max(box[0] - d[0], 0, d[0] - box[2]);
  const dy = Math.max(box[1] - d[1], 0, d[1] - box[3]);
  return dx * dx + dy * dy < d[2] * d[2];
}

function boxesMeet(a, b) {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

/** The label box among `spots` that hides the least: never a ship if avoidable, then inside the field,
 * clear of other labels, tokens and other pieces; the first spot (in the base) must fit inside it. */
function placeLabel(spots, w, hh, { field, ships, taken, tokens, home, clutter = [] }) {
  let best = null;
  spots.forEach(([x, y], i) => {
    const box = [x - w / 2, y - hh / 2, x + w / 2, y + hh / 2];
    let cost = 100 * ships.filter((d) => boxMeetsDisc(box, d)).length;
    if (box[0] < 0 || box[1] < 0 || box[2] > field[0] || box[3] > field[1]) cost += 50;
    cost += 30 * taken.filter((t) => boxesMeet(box, t)).length;
    cost += 20 * tokens.filter((d) => boxMeetsDisc(box, d)).length;
    cost += 5 * clutter.filter((c) => boxesMeet(box, c)).length;
    if (i === 0 && home && distToPolygon([box[0], box[1]], home) + distToPolygon([box[2], box[3]], home)
      + distToPolygon([box[0], box[3]], home) + distToPolygon([box[2], box[1]], home) > 0) cost += 10;
    if (!best || cost < best.cost) best = { cost, box };
  });
  return best.box;
}

/** The bases' labels, last, over everything, each on a dark box placed where no ship hides it; their
 * boxes (cm) and font size on the canvas's data-labels for tests and tools. */
function drawLabels(g) {
  const view = S.view;
  const cx = S.cctx;
  const sz = CATALOG.sizes;
  const px = labelFont();
  const lineH = Math.round(px * 1.25);
  const pad = 3;
  g.font = `600 ${px}px sans-serif`;
  g.textAlign = "center";
  g.textBaseline = "middle";
  const ships = view.players.map((pl) => shipPos(view, pl.seat)).filter(Boolean).map((sp) => [sp.c[0], sp.c[1], sz.ship_radius]);
  const tokens = view.tokens.map((t) => [t.pos[0], t.pos[1], sz.token_radius]);
  const bounds = (pts) => [Math.min(...pts.map((q) => q[0])), Math.min(...pts.map((q) => q[1])), Math.max(...pts.map((q) => q[0])), Math.max(...pts.map((q) => q[1]))];
  const elements = view.elements.map((e) => bounds(e.polygon));
  const taken = [];
  const out = [];
  for (const b of view.bases) {
    const lines = baseLabelLines(b, cx);
    const wPx = Math.max(...lines.map((t) => g.measureText(t).width)) + 2 * pad;
    const hPx = lines.length * lineH + pad;
    const w = wPx / S.scale, hh = hPx / S.scale;
    const box = placeLabel(baseLabelSpots(b, w, hh), w, hh, { field: view.field, ships, taken, tokens, home: b.polygon,
      clutter: [...elements, ...view.bases.filter((o) => o !== b).map((o) => bounds(o.polygon))] });
    taken.push(box);
    const [x0, y0] = toCanvas([box[0], box[3]]);
    g.beginPath();
    if (g.roundRect) g.roundRect(x0, y0, wPx, hPx, 4); else g.rect(x0, y0, wPx, hPx);
    g.fillStyle = "rgba(11,16,32,0.85)";
    g.fill();
    g.strokeStyle = b.inhabited ? "#f2c14e" : "#777";
    g.lineWidth = 1;
    g.stroke();
    g.fillStyle = "#fff";
    lines.forEach((t, i) => g.fillText(t, x0 + wPx / 2, y0 + pad / 2 + lineH * (i + 0.5)));
    out.push({ base: b.id || `B${b.index}`, text: lines.join("\n"), box: box.map((v) => Math.round(v * 100) / 100) });
  }
  S.canvas.dataset.labels = JSON.stringify(out);
  S.canvas.dataset.labelFont = String(px);
}

/** A short text with a light halo, legible over any piece. */
function haloText(g, text, x, y, px) {
  g.font = `700 ${px}px sans-serif`;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.lineJoin = "round";
  g.lineWidth = 3;
  g.strokeStyle = "rgba(255,255,255,0.85)";
  g.strokeText(text, x, y);
  g.fillStyle = "#111";
  g.fillText(text, x, y);
}

/** The rulers laid so far this turn (the log's ruler events since the turn began), in order. */
function drawRoute(g) {
  S.route.forEach((r, i) => {
    drawRulerArt(g, r.start, r.end, "rgba(240,240,255,0.62)");
    const [x, y] = toCanvas([(r.start[0] + r.end[0]) / 2, (r.start[1] + r.end[1]) / 2]);
    haloText(g, String(i + 1), x, y, labelFont());
  });
}

function routeOf(log) {
  let start = 0;
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].kind === "turn") { start = i; break; }
  }
  return log.slice(start).filter((e) => e.kind === "ruler" && e.data && e.data.start).map((e) => ({ start: e.data.start, end: e.data.end }));
}

function drawGuides(g) {
  const cx = S.cctx;
  if (!cx || S.anim) return;
  const m = mode(cx);
  const fan = cx.extra && cx.extra.fan;
  const sz = CATALOG.sizes;
  if ((m === "ruler" || m === "drift") && fan) {
    const o = fan.origin;
    const [ox, oy] = toCanvas(o);
    const R = (fan.length + fan.offset) * S.scale;
    g.beginPath();
    if (fan.max - fan.min >= 360 - 1e-6) {
      g.arc(ox, oy, R, 0, 2 * Math.PI);  // any direction: the whole disc
    } else {
      g.moveTo(ox, oy);
      // canvas angles run clockwise (y down): negate
      g.arc(ox, oy, R, -fan.max * Math.PI / 180, -fan.min * Math.PI / 180);
    }
    g.closePath();
    g.fillStyle = "rgba(255,204,77,0.18)";
    g.fill();
    g.strokeStyle = "rgba(255,204,77,0.8)";
    g.lineWidth = 1;
    g.stroke();
  }
  if (S.aim && (m === "ruler" || m === "drift" || m === "wind") && fan !== undefined) {
    const from = aimOrigin(cx, m, S.aim.angle);
    if (from) {
      const u = unit(S.aim.angle);
      const len = m === "wind" ? 2 * sz.ruler_length : sz.ruler_length;
      const end = [from[0] + u[0] * len, from[1] + u[1] * len];
      drawRulerArt(g, from, end, S.aim.legal === false ? "rgba(255,80,80,0.7)" : "rgba(255,230,150,0.78)");
    }
  }
  if (m === "flick") {
    const dec = myDecision(cx);
    const t = cx.view.tokens.find((x) => x.tid === dec.tid);
    if (t) {
      disc(g, t.pos, sz.token_radius + 0.6);
      g.strokeStyle = "#ffcc4d";
      g.lineWidth = 2;
      g.stroke();
      if (S.aim && S.aim.strength !== undefined) drawCone(g, t.pos, S.aim.angle, S.aim.strength, cx);
    }
  }
}

/** The dexterity cone of a flick: about 95% of flicks land inside (two standard deviations of the table's
 * noise): its half-angle in degrees, the nearest and farthest stops in cm, and the nominal stop (no wobble). */
function coneOf(from, angle, strength, cx) {
  const noise = (cx.extra && cx.extra.noise) || { angle_sd: 0, strength_sd: 0 };
  const dmax = (cx.extra && cx.extra.d_max) || CATALOG.d_max;
  const u = unit(angle);
  return {
    halfAngle: 2 * noise.angle_sd,
    near: Math.max(0, strength * (1 - 2 * noise.strength_sd)) * dmax,
    far: Math.min(1, strength * (1 + 2 * noise.strength_sd)) * dmax,
    stop: [from[0] + u[0] * strength * dmax, from[1] + u[1] * strength * dmax],
  };
}

/** The flick being aimed, on the canvas's data attributes (and in words in #sp-aim): what a release sends
 * (`aimAngle`, `aimStrength`, as the action's text rounds them) and the cone drawn for it. None: no aim. */
function exposeAim() {
  const data = S.canvas ? S.canvas.dataset : null;
  if (!data) return;
  const cx = S.cctx;
  const dec = cx ? myDecision(cx) : null;
  const t = dec && mode(cx) === "flick" && S.aim && S.aim.strength !== undefined ? cx.view.tokens.find((x) => x.tid === dec.tid) : null;
  if (!t) {
    for (const key of ["aim", "aimAngle", "aimStrength", "coneHalfAngle", "coneNear", "coneFar", "aimStop"]) delete data[key];
    return;
  }
  const cone = coneOf(t.pos, S.aim.angle, S.aim.strength, cx);
  data.aim = "flick";
  data.aimAngle = fmt(S.aim.angle, 1);
  data.aimStrength = fmt(S.aim.strength, 3);
  data.coneHalfAngle = String(cone.halfAngle);
  data.coneNear = String(cone.near);
  data.coneFar = String(cone.far);
  data.aimStop = `${cone.stop[0]},${cone.stop[1]}`;
}

/** The flick's nominal line and its dexterity cone. */
function drawCone(g, from, angle, strength, cx) {
  const { halfAngle: da, near, far } = coneOf(from, angle, strength, cx);
  const dmax = (cx.extra && cx.extra.d_max) || CATALOG.d_max;
  const [ox, oy] = toCanvas(from);
  g.beginPath(); // the whole wedge, faintly: every direction the wobble may send it
  g.moveTo(ox, oy);
  g.arc(ox, oy, far * S.scale, -(angle + da) * Math.PI / 180, -(angle - da) * Math.PI / 180);
  g.closePath();
  g.fillStyle = "rgba(255,204,77,0.10)";
  g.fill();
  g.beginPath(); // where it comes to rest without hitting anything
  g.arc(ox, oy, far * S.scale, -(angle + da) * Math.PI / 180, -(angle - da) * Math.PI / 180);
  g.arc(ox, oy, near * S.scale, -(angle - da) * Math.PI / 180, -(angle + da) * Math.PI / 180, true);
  g.closePath();
  g.fillStyle = "rgba(255,204,77,0.25)";
  g.fill();
  const u = unit(angle);
  const [tx, ty] = toCanvas([from[0] + u[0] * strength * dmax, from[1] + u[1] * strength * dmax]);
  g.strokeStyle = "#ffcc4d";
  g.lineWidth = 2;
  g.beginPath(); g.moveTo(ox, oy); g.lineTo(tx, ty); g.stroke();
}

function aimOrigin(cx, m, angle) {
  const fan = cx.extra && cx.extra.fan;
  if (m === "ruler" && fan) return fan.origin;
  if (m === "drift" && fan) {
    const u = unit(angle);
    return [fan.origin[0] + u[0] * fan.offset, fan.origin[1] + u[1] * fan.offset];
  }
  if (m === "wind") {
    const sp = shipPos(cx.view, cx.seat);
    return sp ? sp.c : null;
  }
  return null;
}

// ------------------------------------------------------------------ the flick animation
function maybeAnimate(ctx) {
  const f = ctx.extra && ctx.extra.flick;
  if (!f || f.ply <= S.animatedPly || S.anim) return;
  S.animatedPly = f.ply;
  S.anim = { f, t0: performance.now(), trail: {} };
  S.canvas.dataset.animating = "true";
  if (reducedMotion()) { // reduced motion: the table as the flick left it, at once
    S.canvas.dataset.motion = "reduced";
    finishAnimation();
    return;
  }
  S.canvas.dataset.motion = "full";
  requestAnimationFrame(stepAnimation);
}

function framePositions(f, i) {
  const row = i < 0 ? f.start.flat() : i >= f.frames.length ? f.final : f.frames[i];
  const out = {};
  f.tids.forEach((tid, k) => {
    const x = row[2 * k];
    const y = row[2 * k + 1];
    out[tid] = x === null || x === undefined ? null : [x, y];
  });
  return out;
}

/** The end of the flick's animation (or a player's touch cuts it short): the table as it is now. */
function finishAnimation() {
  const a = S.anim;
  if (!a) return;
  S.anim = null;
  S.animations += 1;
  S.canvas.dataset.animating = "false";
  S.canvas.dataset.animatedPly = String(a.f.ply);
  S.canvas.dataset.animations = String(S.animations);
  drawTable();
  if (S.cctx) maybeAnimate(S.cctx); // a newer flick arrived meanwhile
}

function stepAnimation(now) {
  const a = S.anim;
  if (!a) return;
  const f = a.f;
  // Played at half speed (at least 0.8 s) so a short flick is visible.
  const perFrame = 2000 / f.fps;
  const total = Math.max(800, (f.frames.length + 1) * perFrame);
  const elapsed = now - a.t0;
  if (elapsed >= total) {
    finishAnimation();
    return;
  }
  const pos = elapsed / total * (f.frames.length + 1) - 1;
  const i = Math.floor(pos);
  const k = pos - i;
  const p0 = framePositions(f, i);
  const p1 = framePositions(f, i + 1);
  const mix = {};
  for (const tid of f.tids) {
    const a0 = p0[tid];
    const a1 = p1[tid];
    mix[tid] = a0 && a1 ? [a0[0] + (a1[0] - a0[0]) * k, a0[1] + (a1[1] - a0[1]) * k] : a0 || a1;
    const trail = a.trail[tid] || (a.trail[tid] = []);
    const last = trail[trail.length - 1];
    if (mix[tid] && (!last || Math.hypot(mix[tid][0] - last[0], mix[tid][1] - last[1]) > 0.2)) {
      trail.push(mix[tid]);
      if (trail.length > 40) trail.shift();
    }
  }
  drawTable(mix);
  requestAnimationFrame(stepAnimation);
}

// ------------------------------------------------------------------ pointing and dragging
async function previewThenAct(ctx, text) {
  S.refusal = "";
  showRefusal();
  try {
    const body = await postJSON(`/api/tables/${encodeURIComponent(ctx.tableId)}/preview`, { action: text }, ctx.token);
    if (body.legal) {
      ctx.act(text);
      return;
    }
    S.refusal = `${text} is not allowed: ${body.reason}${body.rule ? ` (${body.rule})` : ""}`;
    if (S.aim) S.aim.legal = false;
  } catch (err) {
    // the server refused the request itself (its reason), or could not be reached
    S.refusal = err instanceof ApiError && err.status ? err.detail || "refused" : `Could not check ${text}: ${err.detail || err}`;
  }
  showRefusal();
  drawTable();
}

function showRefusal() {
  const el = document.getElementById("sp-refusal");
  if (el) el.textContent = S.refusal;
}

// ------------------------------------------------------------------ finger-size targets, zoom and pan
/** How far (CSS px) from a target a tap still picks it: about a fingertip (issue 19). */
const HIT_PX = 22;
/** A press that moves farther than this (CSS px) on a zoomed map pans it instead of choosing. */
const PAN_PX = 10;
const ZOOMS = [1, 1.5, 2, 3, 4];

/** HIT_PX in cm at the canvas's scale now. */
function hitCm() {
  return HIT_PX / S.scale;
}

function fromClient(pt) {
  return fromEvent({ clientX: pt[0], clientY: pt[1] });
}

/** The legal choices of a discrete decision picked on the map: "base 2" -> 2, "target 7" -> 7. */
function legalArgs(cx, verb) {
  return cx.legal.filter((t) => t.split(" ")[0] === verb).map((t) => Number(t.split(" ")[1]));
}

function distToPolygon(p, pts) {
  let inside = true;
  let best = Infinity;
  let sign = 0;
  pts.forEach((a, i) => {
    const b = pts[(i + 1) % pts.length];
    const cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    if (cross !== 0) {
      if (sign && Math.sign(cross) !== sign) inside = false;
      sign = sign || Math.sign(cross);
    }
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
    best = Math.min(best, Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy));
  });
  return inside ? 0 : best;
}

/** The start base a tap at p picks: the nearest legal one within a fingertip of its outline. */
function baseNear(cx, p) {
  const ok = new Set(legalArgs(cx, "base"));
  let best = null;
  for (const b of cx.view.bases) {
    if (!ok.has(b.index)) continue;
    const d = distToPolygon(p, b.polygon);
    if (d <= hitCm() && (!best || d < best.d)) best = { b, d };
  }
  return best ? best.b : null;
}

/** The token a tap at p picks for a flick: the nearest one that may be chosen, within a fingertip of its edge. */
function targetNear(cx, p) {
  const ok = new Set(legalArgs(cx, "target"));
  const reach = CATALOG.sizes.token_radius + hitCm();
  let best = null;
  for (const t of cx.view.tokens) {
    if (!ok.has(t.tid)) continue;
    const d = Math.hypot(t.pos[0] - p[0], t.pos[1] - p[1]);
    if (d <= reach && (!best || d < best.d)) best = { t, d };
  }
  return best ? best.t : null;
}

/* The legal area (sampled by the server through the rules' own check: where the storm or the drawn
 * transport may go) and, while placing, the piece at the pointer: green where it may go, red where not,
 * with the nearest legal spot a tap snaps to (a finger is wider than the gap between two ships). */
function legalArea() {
  const cx = S.cctx;
  const a = cx && cx.extra && cx.extra.area;
  const m = cx ? mode(cx) : null;
  return a && a.points && ((a.kind === "storm" && m === "storm") || (a.kind === "place" && m === "place")) ? a : null;
}

function snapArea(p) {
  const a = legalArea();
  if (!a || !a.points.length) return null;
  let best = null, bd = Infinity;
  for (const q of a.points) {
    const d = (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2;
    if (d < bd) { bd = d; best = q; }
  }
  return { at: best, exact: bd <= (a.step / 2) ** 2 * 2 };
}

/** Under the pieces: the legal area shaded, the bases or tokens that may be chosen outlined. */
function drawChoices(g) {
  const cx = S.cctx;
  const m = cx ? mode(cx) : null;
  const a = legalArea();
  if (a) {
    const half = a.step / 2 * S.scale;
    g.fillStyle = "rgba(80,220,130,0.30)";
    for (const q of a.points) {
      const [x, y] = toCanvas(q);
      g.fillRect(x - half, y - half, half * 2, half * 2);
    }
  }
  if (m === "base") {
    const ok = new Set(legalArgs(cx, "base"));
    for (const b of cx.view.bases) {
      if (!ok.has(b.index)) continue;
      poly(g, b.polygon);
      g.fillStyle = "rgba(80,200,120,0.22)";
      g.fill();
      g.strokeStyle = "#50c878";
      g.lineWidth = 2;
      g.setLineDash([5, 3]);
      g.stroke();
      g.setLineDash([]);
    }
  }
}

/** Over the pieces: what may be chosen and what the pointer would choose (the ghost). */
function drawHover(g) {
  const cx = S.cctx;
  const m = cx ? mode(cx) : null;
  const sz = CATALOG.sizes;
  const OK = "#50c878", BAD = "#e65050";
  if (m === "target") {
    for (const tid of legalArgs(cx, "target")) {
      const t = cx.view.tokens.find((x) => x.tid === tid);
      if (!t) continue;
      disc(g, t.pos, sz.token_radius + 0.5);
      g.strokeStyle = "#ffcc4d";
      g.lineWidth = 2;
      g.setLineDash([4, 3]);
      g.stroke();
      g.setLineDash([]);
    }
  }
  const hv = S.hover;
  if (!hv || hv.kind !== m) return;
  if (m === "storm") {
    const at = hv.at || hv.pointer;
    disc(g, at, sz.storm_radius);
    g.fillStyle = hv.at ? "rgba(80,200,120,0.25)" : "rgba(230,80,80,0.25)";
    g.fill();
    g.strokeStyle = hv.at ? OK : BAD;
    g.lineWidth = 2;
    g.stroke();
  } else if (m === "place") {
    if (hv.at && !hv.exact) { // where a tap puts it: the nearest legal spot, joined to the pointer
      const [x0, y0] = toCanvas(hv.pointer);
      const [x1, y1] = toCanvas(hv.at);
      g.strokeStyle = OK;
      g.lineWidth = 1.5;
      g.setLineDash([4, 3]);
      g.beginPath(); g.moveTo(x0, y0); g.lineTo(x1, y1); g.stroke();
      disc(g, hv.at, sz.token_radius);
      g.fillStyle = "rgba(80,200,120,0.45)";
      g.fill();
      g.stroke();
      g.setLineDash([]);
    }
    disc(g, hv.pointer, sz.token_radius); // the ghost at the pointer: green where it may lie, red where not
    g.fillStyle = hv.exact ? "rgba(80,200,120,0.6)" : "rgba(230,80,80,0.5)";
    g.fill();
    g.strokeStyle = hv.exact ? OK : BAD;
    g.lineWidth = 2;
    g.stroke();
  } else if (m === "base" && hv.base) {
    const b = hv.base;
    poly(g, b.polygon);
    g.strokeStyle = OK;
    g.lineWidth = 3;
    g.stroke();
    const slot = b.slots[b.docked.findIndex((s) => s === null)];
    if (slot) { // the ship's ghost in the free slot
      disc(g, slot, sz.ship_radius);
      g.fillStyle = `${COLORS[cx.seat] || OK}99`;
      g.fill();
      g.strokeStyle = OK;
      g.lineWidth = 2;
      g.stroke();
    }
  } else if (m === "target" && hv.tid !== null) {
    const t = cx.view.tokens.find((x) => x.tid === hv.tid);
    if (t) {
      disc(g, t.pos, sz.token_radius + 0.6);
      g.strokeStyle = OK;
      g.lineWidth = 3;
      g.stroke();
    }
  }
}

const HOVER_MODES = new Set(["storm", "place", "base", "target"]);

/** The pointer (or a finger) at p while choosing on the map: the ghost and its words (#sp-MODE-preview). */
function hoverAt(p) {
  const cx = S.cctx;
  const m = mode(cx);
  const el = document.getElementById(`sp-${m}-preview`);
  let text = "";
  if (m === "storm" || m === "place") {
    const snap = snapArea(p);
    S.hover = { kind: m, pointer: p, at: snap ? snap.at : null, exact: Boolean(snap && snap.exact) };
    const what = m === "storm" ? "storm" : "transport";
    text = snap ? `${m === "storm" ? "Storm" : "Transport"} goes at ${fmt(snap.at[0])}, ${fmt(snap.at[1])}${snap.exact ? "" : " (nearest legal spot)"}`
      : `No legal spot for the ${what}.`;
  } else if (m === "base") {
    const b = baseNear(cx, p);
    S.hover = { kind: m, pointer: p, base: b };
    text = b ? `Start at base ${baseName(cx.view, b.index)}` : "Tap one of the green bases to start there.";
  } else if (m === "target") {
    const t = targetNear(cx, p);
    S.hover = { kind: m, pointer: p, tid: t ? t.tid : null };
    text = t ? `Token ${t.tid} (${tokenLabel(t)})` : "Tap one of the ringed tokens.";
  } else {
    return;
  }
  if (el) el.textContent = text;
  drawTable();
}

/** The piece a zoom from the whole map centres on: the token to flick, the ruler's start, your ship. */
function focusPoint() {
  const cx = S.cctx;
  if (!cx) return null;
  const dec = myDecision(cx);
  const m = mode(cx);
  if (m === "flick" && dec) {
    const t = cx.view.tokens.find((x) => x.tid === dec.tid);
    if (t) return t.pos;
  }
  const fan = cx.extra && cx.extra.fan;
  if ((m === "ruler" || m === "drift") && fan) return fan.origin;
  const sp = cx.seat !== null && cx.seat !== undefined ? shipPos(cx.view, cx.seat) : null;
  return sp ? sp.c : null;
}

/** Zoom the map to z (1: the whole map), keeping the field point under the client point `anchor`
 * (default: the middle of what shows; from the whole map, the piece in play) where it was. */
function zoomTo(z, anchor) {
  if (!S.view) return;
  const zoom = Math.min(ZOOMS[ZOOMS.length - 1], Math.max(1, Math.round(z * 100) / 100));
  const wr = S.wrap.getBoundingClientRect();
  const at = anchor || [wr.left + wr.width / 2, wr.top + Math.min(wr.height, window.innerHeight - wr.top) / 2];
  const p = (!anchor && S.zoom === 1 && focusPoint()) || fromClient(at);
  S.zoom = zoom;
  sizeCanvas();
  drawTable();
  const [x, y] = toCanvas(p);
  const nr = S.wrap.getBoundingClientRect();
  S.wrap.scrollLeft = x - (at[0] - nr.left);
  S.wrap.scrollTop = y - (at[1] - nr.top);
  showZoom();
}

function zoomStep(dir) {
  const next = dir > 0 ? ZOOMS.find((z) => z > S.zoom + 0.01) : [...ZOOMS].reverse().find((z) => z < S.zoom - 0.01);
  zoomTo(next === undefined ? S.zoom : next);
}

function showZoom() {
  const out = document.getElementById("sp-zoom-level");
  if (out) out.textContent = `${Math.round(S.zoom * 100)}%`;
  const minus = document.getElementById("sp-zoom-out");
  const plus = document.getElementById("sp-zoom-in");
  if (minus) minus.disabled = S.zoom <= 1;
  if (plus) plus.disabled = S.zoom >= ZOOMS[ZOOMS.length - 1];
}

function zoomBar() {
  return h("div", { class: "sp-zoom", role: "group", "aria-label": "Zoom the map" },
    h("button", { type: "button", id: "sp-zoom-out", "aria-label": "Zoom out", disabled: S.zoom <= 1, onclick: () => zoomStep(-1) }, "−"),
    h("output", { id: "sp-zoom-level", "aria-live": "polite" }, `${Math.round(S.zoom * 100)}%`),
    h("button", { type: "button", id: "sp-zoom-in", "aria-label": "Zoom in", disabled: S.zoom >= ZOOMS[ZOOMS.length - 1], onclick: () => zoomStep(1) }, "+"),
    h("button", { type: "button", id: "sp-zoom-fit", onclick: () => zoomTo(1) }, "Whole map"),
    h("span", { class: "help" }, "Pinch or use + and − to zoom; drag a zoomed map to move it."));
}

function startPinch() {
  const [a, b] = [...S.pointers.values()];
  S.pinch = { d0: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, z0: S.zoom };
  S.pinched = true;
  S.drag = null;
  S.press = null;
}

function movePinch() {
  const [a, b] = [...S.pointers.values()];
  const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
  zoomTo(S.pinch.z0 * d / S.pinch.d0, [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
}

function onPointerDown(ev) {
  const cx = S.cctx;
  finishAnimation();
  S.pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
  try { S.canvas.setPointerCapture(ev.pointerId); } catch (err) { /* a synthetic pointer */ }
  if (S.pointers.size === 2) {
    startPinch();
    ev.preventDefault();
    return;
  }
  S.press = { x: ev.clientX, y: ev.clientY, sl: S.wrap.scrollLeft, st: S.wrap.scrollTop, panning: false, aim: false };
  if (!cx || cx.busy) return;
  const m = mode(cx);
  if (!m) return;
  const p = fromEvent(ev);
  if (m === "flick") {
    const dec = myDecision(cx);
    const t = cx.view.tokens.find((x) => x.tid === dec.tid);
    const reach = Math.max(CATALOG.sizes.token_radius * 2.5, CATALOG.sizes.token_radius + hitCm());
    if (t && Math.hypot(t.pos[0] - p[0], t.pos[1] - p[1]) <= reach) {
      S.drag = { from: t.pos };
      S.press.aim = true;
      ev.preventDefault();
    }
    return; // elsewhere: a drag pans a zoomed map, a tap says where to start
  }
  if (m === "ruler" || m === "drift" || m === "wind") {
    S.drag = { point: true };
    S.press.aim = true;
    aimAt(p);
    ev.preventDefault();
    return;
  }
  if (HOVER_MODES.has(m)) hoverAt(p); // the ghost shows under the finger before it lifts
}

function aimAt(p) {
  const cx = S.cctx;
  const m = mode(cx);
  if (m === "flick" && S.drag && S.drag.from) {
    const d = Math.hypot(p[0] - S.drag.from[0], p[1] - S.drag.from[1]);
    const dmax = (cx.extra && cx.extra.d_max) || CATALOG.d_max;
    S.aim = { angle: angleOf(S.drag.from, p), strength: Math.min(1, d / dmax) };
    // the keyboard fields follow the drag, so the two ways of flicking always agree
    const a = document.getElementById("sp-angle");
    const st = document.getElementById("sp-strength");
    if (a && st) {
      a.value = fmt(S.aim.angle, 1);
      st.value = fmt(S.aim.strength, 3);
    }
  } else if (m === "ruler" || m === "drift") {
    const fan = cx.extra && cx.extra.fan;
    if (!fan) return;
    S.aim = { angle: angleOf(fan.origin, p) };
  } else if (m === "wind") {
    const sp = shipPos(cx.view, cx.seat);
    if (sp) S.aim = { angle: angleOf(sp.c, p) };
  }
  const field = document.getElementById("sp-angle");
  if (field && S.aim && m !== "flick") field.value = fmt(S.aim.angle, 1);
  showAim();
  drawTable();
}

/** The aim in words (#sp-aim, read out politely) and on the canvas's data attributes. */
function showAim() {
  exposeAim();
  const out = document.getElementById("sp-aim");
  const data = S.canvas ? S.canvas.dataset : {};
  if (!out) return;
  const weakest = (S.cctx && S.cctx.view.flick_min_strength) || 0;
  out.textContent = !S.aim ? "" : data.aim === "flick" && S.aim.strength < weakest
    ? `Aim: ${fmt(S.aim.angle)}°, strength ${fmt(S.aim.strength, 2)}: too soft to be a flick; drag farther (at least ${fmt(weakest, 2)}).`
    : data.aim === "flick"
    ? `Aim: ${fmt(S.aim.angle)}°, strength ${fmt(S.aim.strength, 2)}: it stops about ${fmt(S.aim.strength * ((S.cctx.extra && S.cctx.extra.d_max) || CATALOG.d_max), 0)} cm away without the wobble;`
      + ` about 95% of flicks land within ±${fmt(data.coneHalfAngle)}° and ${fmt(data.coneNear, 0)} to ${fmt(data.coneFar, 0)} cm.`
    : `Aim: ${fmt(S.aim.angle)}°`;
}

function onPointerMove(ev) {
  if (S.pointers.has(ev.pointerId)) S.pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
  if (S.pinch) {
    if (S.pointers.size >= 2) movePinch();
    return;
  }
  const pr = S.press;
  if (pr && !pr.aim && S.pointers.has(ev.pointerId)) {
    const dx = ev.clientX - pr.x, dy = ev.clientY - pr.y;
    if (!pr.panning && S.zoom > 1 && Math.hypot(dx, dy) > PAN_PX) pr.panning = true;
    if (pr.panning) {
      S.wrap.scrollLeft = pr.sl - dx;
      S.wrap.scrollTop = pr.st - dy;
      return;
    }
  }
  if (!S.cctx || S.anim) return;
  const m = mode(S.cctx);
  if (!m) return;
  if (HOVER_MODES.has(m)) { hoverAt(fromEvent(ev)); return; }
  if (m === "flick" && !S.drag) return;
  if ((m === "ruler" || m === "drift" || m === "wind") || S.drag) aimAt(fromEvent(ev));
}

function onPointerCancel(ev) {
  S.pointers.delete(ev.pointerId);
  if (S.pointers.size < 2) S.pinch = null;
  if (!S.pointers.size) S.pinched = false;
  S.drag = null;
  S.press = null;
}

function onPointerUp(ev) {
  S.pointers.delete(ev.pointerId);
  if (S.pointers.size < 2) S.pinch = null;
  if (S.pinched) { // the fingers of a pinch lift: nothing is chosen
    if (!S.pointers.size) S.pinched = false;
    return;
  }
  const pr = S.press;
  S.press = null;
  const cx = S.cctx;
  if (!cx || cx.busy) return;
  const m = mode(cx);
  const p = fromEvent(ev);
  const drag = S.drag;
  S.drag = null;
  if (!m || (pr && pr.panning)) return;
  if (m === "flick") {
    if (!drag) {
      S.refusal = "Start the drag on the highlighted transport.";
      showRefusal();
      return;
    }
    aimAt(p);
    const weakest = cx.view.flick_min_strength || 0;
    if (!S.aim || S.aim.strength < Math.max(weakest, 0.005)) {
      // The rules refuse a flick softer than the weakest (a touch that only nudges a token is no flick).
      S.refusal = weakest
        ? `Drag farther from the transport: a flick needs a strength of at least ${fmt(weakest, 2)}.`
        : "Drag farther from the transport to flick it.";
      showRefusal();
      return;
    }
    cx.act(`flick ${fmt(S.aim.angle, 1)} ${fmt(S.aim.strength, 3)}`);
    S.aim = null;
    exposeAim();
    return;
  }
  if (m === "ruler" || m === "drift" || m === "wind") {
    aimAt(p);
    if (!S.aim) return;
    const verb = m === "wind" ? "wind" : m;
    const text = `${verb} ${fmt(S.aim.angle, 1)}`;
    if (verb === "wind") cx.act(text); else previewThenAct(cx, text);
    return;
  }
  if (m === "storm" || m === "place") {
    // Snap a tap to the nearest legal sample: a finger is wider than the gap between two ships.
    const snap = snapArea(p);
    const at = snap ? snap.at : p;
    S.hover = null;
    previewThenAct(cx, `${m} ${fmt(at[0], 1)} ${fmt(at[1], 1)}`);
    return;
  }
  if (m === "base") {
    const b = baseNear(cx, p);
    S.hover = null;
    if (b) cx.act(`base ${b.index}`);
    else {
      S.refusal = "Tap one of the green bases (a base with a free slot).";
      showRefusal();
      drawTable();
    }
    return;
  }
  if (m === "target") {
    const t = targetNear(cx, p);
    if (t) cx.act(`target ${t.tid}`);
    else {
      S.refusal = "Tap one of the ringed tokens you may flick.";
      showRefusal();
    }
  }
}

function ensureCanvas() {
  if (S.canvas) return;
  S.canvas = h("canvas", {
    id: "sp-canvas", class: "sp-canvas", role: "img",
    "aria-label": "The galaxy, drawn to scale; the lists below describe it in words",
    "aria-describedby": "sp-tokens-title sp-aim",
  });
  S.canvas.dataset.animations = "0";
  S.canvas.dataset.animatedPly = "-1";
  S.canvas.addEventListener("pointerdown", onPointerDown);
  S.canvas.addEventListener("pointermove", onPointerMove);
  S.canvas.addEventListener("pointerup", onPointerUp);
  S.canvas.addEventListener("pointercancel", onPointerCancel);
  S.ctx = S.canvas.getContext("2d");
  S.wrap = h("div", { class: "sp-canvas-wrap" }, S.canvas);
  window.addEventListener("resize", () => { if (S.view) { sizeCanvas(); drawTable(); } });
}

function sizeCanvas() {
  const [W, H] = S.view.field;
  const avail = Math.max(240, Math.min(760, S.wrap.clientWidth || window.innerWidth - 48));
  S.fit = avail / W;
  S.scale = S.fit * S.zoom;
  S.dpr = window.devicePixelRatio || 1;
  const cw = Math.round(W * S.scale);
  const ch = Math.round(H * S.scale);
  S.canvas.style.width = `${cw}px`;
  S.canvas.style.height = `${ch}px`;
  if (S.canvas.width !== Math.round(cw * S.dpr)) S.canvas.width = Math.round(cw * S.dpr);
  if (S.canvas.height !== Math.round(ch * S.dpr)) S.canvas.height = Math.round(ch * S.dpr);
  // zoomed in, the frame keeps the whole map's size and the larger map pans inside it
  S.wrap.classList.toggle("zoomed", S.zoom > 1);
  S.wrap.style.height = S.zoom > 1 ? `${Math.round(H * S.fit) + 2}px` : "";
  S.canvas.dataset.zoom = String(S.zoom);
  S.canvas.dataset.fieldW = String(W); // the field in cm, to read a point's pixels (tests and tools)
  S.canvas.dataset.fieldH = String(H);
  S.canvas.dataset.scale = S.scale.toFixed(3); // CSS px per cm
}

// ------------------------------------------------------------------ panels
function aimPanel(ctx) {
  const m = mode(ctx);
  const dec = myDecision(ctx);
  if (!dec) return null;
  const verb = { flick: "flick", ruler: "ruler", drift: "drift", wind: "wind", place: "place", storm: "storm" }[m];
  const rows = [];
  if (m === "flick") {
    const angle = h("input", { id: "sp-angle", type: "number", step: "any", min: -180, max: 180, value: "0", "aria-label": "Flick angle in degrees (0 = right, 90 = up)", dataset: { key: "sp-angle", keep: "" } });
    const weakest = ctx.view.flick_min_strength || 0;
    const strength = h("input", { id: "sp-strength", type: "number", step: "0.01", min: weakest, max: 1, value: "0.2", "aria-label": `Flick strength from ${fmt(weakest, 2)} to 1`, dataset: { key: "sp-strength", keep: "" } });
    const go = h("button", { type: "button", class: "primary", id: "sp-go", disabled: ctx.busy, dataset: { key: "sp-go" },
      onclick: () => ctx.act(`flick ${fmt(angle.value, 1)} ${fmt(Math.min(1, Math.max(0, Number(strength.value))), 3)}`) }, "Flick");
    const upd = () => { S.aim = { angle: Number(angle.value), strength: Math.min(1, Math.max(0, Number(strength.value))) }; showAim(); drawTable(); };
    angle.addEventListener("input", upd);
    strength.addEventListener("input", upd);
    rows.push(h("label", {}, "Angle (°) ", angle), h("label", {}, "Strength ", strength), go);
  } else if (m === "ruler" || m === "drift" || m === "wind") {
    const fan = ctx.extra && ctx.extra.fan;
    const start = fan && fan.heading !== null && fan.heading !== undefined ? fmt(fan.heading) : "0";
    const angle = h("input", { id: "sp-angle", type: "number", step: "any", min: -360, max: 360, value: start, "aria-label": "Direction in degrees (0 = right, 90 = up)", dataset: { key: `sp-angle-${m}`, keep: "" } });
    const label = m === "ruler" ? "Lay ruler" : m === "drift" ? "Drift" : "Blow the wind";
    const go = h("button", { type: "button", class: "primary", id: "sp-go", disabled: ctx.busy, dataset: { key: "sp-go" },
      onclick: () => {
        const text = `${verb} ${fmt(angle.value, 1)}`;
        if (m === "wind") ctx.act(text); else previewThenAct(ctx, text);
      } }, label);
    angle.addEventListener("input", () => { S.aim = { angle: Number(angle.value) }; drawTable(); });
    rows.push(h("label", {}, "Direction (°) ", angle), go);
    if (fan && m === "ruler") {
      const allowed = fan.max - fan.min >= 360 - 1e-6 ? "any direction" : `${fmt(fan.min)}° to ${fmt(fan.max)}°`;
      rows.push(h("span", { class: "help" }, `Allowed: ${allowed}, ${plural(fan.left, "ruler")} left.`));
    }
  } else if (m === "place" || m === "storm") {
    const [W, H] = ctx.view.field;
    const x = h("input", { id: "sp-x", type: "number", step: "0.1", min: 0, max: W, value: fmt(W / 2), "aria-label": "x in cm from the left", dataset: { key: "sp-x", keep: "" } });
    const y = h("input", { id: "sp-y", type: "number", step: "0.1", min: 0, max: H, value: fmt(H / 2), "aria-label": "y in cm from the bottom", dataset: { key: "sp-y", keep: "" } });
    const go = h("button", { type: "button", class: "primary", id: "sp-go", disabled: ctx.busy, dataset: { key: "sp-go" },
      onclick: () => previewThenAct(ctx, `${verb} ${fmt(x.value, 1)} ${fmt(y.value, 1)}`) }, m === "place" ? "Place" : "Place the storm");
    rows.push(h("label", {}, "x (cm) ", x), h("label", {}, "y (cm) ", y), go);
  }
  const HELP = {
    storm: "Point at the table: the green area is where the storm may go; a tap snaps to the nearest legal spot.",
    place: "Point at the table: the green area is where the transport may lie; a tap snaps to the nearest legal spot.",
    base: "Tap one of the green bases on the table (or use a button).",
    target: "Tap one of the ringed tokens on the table, or near it (or use a button).",
  };
  if (HELP[m]) {
    // The preview's own line keeps its height (two lines) so the canvas never moves under the finger.
    rows.push(h("p", { class: "help sp-help" }, HELP[m]), h("p", { id: `sp-${m}-preview`, class: "hint sp-preview", "aria-live": "polite" }, ""));
  }
  const discrete = ctx.legal.filter((t) => !CONTINUOUS.has(t.split(" ")[0]));
  const suggested = ctx.legal.filter((t) => CONTINUOUS.has(t.split(" ")[0]));
  const panel = h("section", { class: "panel ask", id: "your-move", tabindex: "-1", "aria-labelledby": "sp-move-title" },
    h("h2", { id: "sp-move-title" }, "Your move"),
    h("p", {}, ASK[dec.kind] || "choose a move."),
    rows.length ? h("div", { class: "sp-aim-row form-row" }, rows) : null,
    discrete.length ? legalButtons({ ...ctx, legal: discrete }, { bare: true, describe: describeAction(ctx) }) : null,
    suggested.length && m !== "flick" ? h("details", { class: "sp-suggested" }, h("summary", {}, `Suggested ${suggested[0].split(" ")[0]} choices (${suggested.length})`),
      legalButtons({ ...ctx, legal: suggested.slice(0, 80) }, { bare: true })) : null,
    h("p", { id: "sp-refusal", class: "error", role: "alert" }, S.refusal));
  return panel;
}

function describeAction(ctx) {
  return (text) => {
    const [verb, a, b] = text.split(" ");
    if (verb === "card") {
      const c = CATALOG.cards[a];
      return c ? `Play ${plural(Number(c.value) || 0, "ruler")}: ${c.symbols.map(adventureName).join(", ") || "no adventure"}` : text;
    }
    if (verb === "adv") return `${capital(adventureName(a))}: ${ADVENTURES[a] || ""}`;
    if (verb === "base") return `Start at base ${baseName(ctx.view, a)}`;
    if (verb === "target") {
      const t = ctx.view.tokens.find((x) => String(x.tid) === a);
      return t ? `Token ${a} (${tokenLabel(t)}) at ${fmt(t.pos[0])}, ${fmt(t.pos[1])}` : text;
    }
    if (verb === "sell") {
      const me = ctx.view.players[ctx.seat];
      const item = me && me.hold ? me.hold.find((x) => String(x.tid) === a) : null;
      return item ? `Sell ${faceName(item.identity)} (token ${a})` : text;
    }
    if (verb === "pay") return a === "cargo" ? `Return cargo token ${b} to the bag` : `Let Seat ${Number(b) + 1} pick one of your cards`;
    if (verb === "pick") return `Pick card ${Number(a) + 1} (blind)`;
    if (verb === "recharge") return `Recharge ${a} MC (${Number(a) * 5} points)`;
    if (verb === "take") return `Take a ${a}-point card`;
    return text;
  };
}

function handPanel(ctx) {
  if (ctx.seat === null || ctx.seat === undefined) return null;
  const me = ctx.view.players[ctx.seat];
  if (!me || !me.hand) return null;
  const cards = me.hand.map((cid) => {
    const c = CATALOG.cards[cid] || { value: "?", symbols: [] };
    const text = `card ${cid}`;
    const playable = ctx.legal.includes(text);
    const face = [h("strong", { class: "sp-value" }, String(c.value)), advIcons(c.symbols), h("span", { class: "sp-symbols" }, c.symbols.map(adventureName).join(" · "))];
    const dealt = SEEN.hand !== null && !SEEN.hand.has(cid);
    return h("li", { class: `sp-card${dealt ? " dealt" : ""}`, dataset: { card: cid } },
      playable ? h("button", { type: "button", class: "sp-card-button", disabled: ctx.busy, dataset: { action: text, key: `act:${text}` },
        "aria-label": `Play the ${cardWords(c)} card`, onclick: () => ctx.act(text) }, face) : face);
  });
  SEEN.hand = new Set(me.hand);
  return h("section", { class: "panel", id: "sp-hand", "aria-labelledby": "sp-hand-title" },
    h("h2", { id: "sp-hand-title" }, `Your energy cards (${me.hand.length})`),
    cards.length ? h("ul", { class: "sp-cards" }, cards) : h("p", {}, "No cards: your ship drifts."),
    me.hold ? h("p", { id: "sp-hold" }, "Your hold: ", me.hold.length ? me.hold.map((x) => `${faceName(x.identity)} (token ${x.tid})`).join(", ") : "empty") : null,
    me.hold && me.hold.length ? h("p", { class: "sp-hold-pics", "aria-hidden": "true" }, me.hold.map((x) => tokenPicture(x.identity, 36))) : null);
}

function inPlayPanel(ctx) {
  const v = ctx.view;
  if (!v.in_play) {
    SEEN.inPlay = null;
    return null;
  }
  const c = CATALOG.cards[v.in_play] || { value: "?", symbols: [] };
  const turned = SEEN.inPlay !== undefined && SEEN.inPlay !== v.in_play;
  SEEN.inPlay = v.in_play;
  return h("section", { class: "panel", id: "sp-in-play", "aria-labelledby": "sp-play-title" },
    h("h2", { id: "sp-play-title" }, `Card in play: ${v.active === ctx.seat ? "your" : `${ctx.name(v.active)}'s`} ${cardWords(c)}`),
    h("div", { class: `sp-card sp-in-play-card${turned ? " turned" : ""}`, "aria-hidden": "true" },
      h("strong", { class: "sp-value" }, String(c.value)), advIcons(c.symbols)),
    h("p", {}, `${plural(Number(c.value) || 0, "ruler")}; adventures first:`),
    h("ul", {}, c.symbols.map((s) => h("li", {}, h("strong", {}, capital(adventureName(s))), `: ${ADVENTURES[s] || ""}`))));
}

function basePanel(ctx) {
  const v = ctx.view;
  const dec = v.decision;
  const rows = v.bases.filter((b) => b.inhabited).map((b) => {
    const prices = b.prices ? Object.entries(b.prices).map(([k, p]) => `${faceName(k)} ${p}`).join(", ") : "hidden";
    const docked = b.docked.map((s, i) => (s === null ? null : `${ctx.name(s)} (slot ${i})`)).filter(Boolean);
    return h("li", { dataset: { base: String(b.index) } },
      h("strong", {}, baseName(v, b.index)), b.owner !== null && b.owner !== undefined ? ` owned by ${ctx.name(b.owner)}` : " unowned",
      `; market card: ${prices}`,
      b.seen_by.length ? `; seen by ${b.seen_by.map(ctx.name).join(", ")}` : "",
      docked.length ? `; docked: ${docked.join(", ")}` : "");
  });
  let steps = null;
  if (dec && dec.kind.startsWith("base_")) {
    steps = h("ol", { class: "sp-steps", "aria-label": "Base actions, in order" }, BASE_STEPS.map(([k, label]) => {
      const i = BASE_STEPS.findIndex(([x]) => x === dec.kind);
      const j = BASE_STEPS.findIndex(([x]) => x === k);
      return h("li", { class: k === dec.kind ? "now" : j < i ? "done" : "" }, label);
    }));
  }
  return h("section", { class: "panel", id: "sp-bases", "aria-labelledby": "sp-bases-title" },
    h("h2", { id: "sp-bases-title" }, "Pirate bases"), steps, h("ul", {}, rows));
}

function playersPanel(ctx) {
  const v = ctx.view;
  const rows = v.players.map((p) => {
    const sh = p.ship;
    const where = sh.base !== null && sh.base !== undefined ? `docked at ${baseName(v, sh.base)}` : sh.center ? `in space at ${fmt(sh.center[0])}, ${fmt(sh.center[1])}, heading ${fmt(sh.heading)}°` : "not placed";
    return h("tr", { dataset: { seat: String(p.seat) }, class: p.seat === v.active ? "active" : "" },
      h("th", {}, h("span", { class: "sp-swatch", style: `background:${COLORS[p.seat]}` }), ctx.name(p.seat)),
      h("td", { class: "num sp-mc" }, `${p.mc} MC`),
      h("td", { class: "num" }, String(p.hand_count)),
      h("td", { class: "num" }, String(p.hold_count)),
      h("td", {}, p.owned_base !== null && p.owned_base !== undefined ? baseName(v, p.owned_base) : "—"),
      h("td", {}, where, sh.arrested ? " — arrested" : "", sh.fine_due ? " (fine due)" : "", p.police !== null && p.police !== undefined ? ` (police token ${p.police})` : ""));
  });
  return h("section", { class: "panel", id: "sp-players", "aria-labelledby": "sp-players-title" },
    h("h2", { id: "sp-players-title" }, "Pirates"),
    h("div", { class: "scroll-x" }, h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", { class: "num" }, "Money"), h("th", { class: "num" }, "Cards"), h("th", { class: "num" }, "Hold"), h("th", {}, "Base"), h("th", {}, "Ship"))),
      h("tbody", {}, rows))),
    facts([["Bank", h("span", { id: "sp-bank" }, `${v.bank} MC`)], ["Transports in the bag", String(v.bag_count)], ["Turn", String(v.turn)],
      ["Storm", v.storm ? `at ${fmt(v.storm[0])}, ${fmt(v.storm[1])}` : "not on the table"],
      ["Energy cards left", Object.entries(v.energy.draw_sizes).map(([k, n]) => `${n} of value ${k}`).join(", ")]]));
}

function tokensPanel(ctx) {
  const v = ctx.view;
  const items = v.tokens.map((t) => h("li", { dataset: { tid: String(t.tid) } },
    `Token ${t.tid} at ${fmt(t.pos[0])}, ${fmt(t.pos[1])}: ${tokenLabel(t)}`));
  return h("details", { class: "panel", id: "sp-tokens" },
    h("summary", { id: "sp-tokens-title" }, `The table in words: ${plural(v.tokens.length, "transport")} on the map, field ${v.field[0]} × ${v.field[1]} cm`),
    h("ul", {}, items),
    h("ul", {}, v.players.map((p) => {
      const sp = shipPos(v, p.seat);
      return h("li", {}, `${ctx.name(p.seat)}'s ship: ${sp ? `${fmt(sp.c[0])}, ${fmt(sp.c[1])}, heading ${fmt(sp.heading)}°` : "not placed"}`);
    })),
    h("ul", {}, v.elements.map((e) => h("li", {}, `${e.name} (${e.kind})`))));
}

function lastFlickPanel(ctx) {
  const f = ctx.extra && ctx.extra.flick;
  const lf = ctx.view.last_flick;
  if (!lf) return null;
  return h("p", { id: "sp-last-flick", class: "help" },
    `Last flick: ${ctx.name(lf.flicker)} flicked token ${lf.tid} at ${fmt(lf.input[0])}°, strength ${fmt(lf.input[1], 2)}; with the hand's wobble ${fmt(lf.noisy[0])}°, ${fmt(lf.noisy[1], 2)}`,
    lf.turned_over.length ? `; turned over: ${lf.turned_over.join(", ")}` : "",
    lf.exits.length ? `; left the table: ${lf.exits.join(", ")}` : "",
    f ? " " : "",
    f ? h("button", { type: "button", class: "small", id: "sp-replay", onclick: () => { S.animatedPly = -1; maybeAnimate(ctx); } }, "Replay") : null);
}

// ------------------------------------------------------------------ private captures, in route order
function queueReveals(ctx) {
  const mine = ctx.log.filter((e) => e.kind === "captured_private");
  const fresh = mine.filter((e) => !S.revealShown.has(`${e.ply}:${e.data.tid}`));
  for (const e of fresh) S.revealShown.add(`${e.ply}:${e.data.tid}`);
  if (S.firstLog) { // on (re)load the past is in the log; only new captures are revealed
    S.firstLog = false;
    return;
  }
  S.reveals.push(...fresh.map((e) => ({ tid: e.data.tid, identity: e.data.identity })));
  if (!S.revealTimer) nextReveal();
}

function nextReveal() {
  const el = document.getElementById("sp-reveal");
  const item = S.reveals.shift();
  if (!item) {
    S.revealTimer = null;
    S.revealNow = null;
    return;
  }
  S.revealNow = item;
  if (el) {
    el.replaceChildren(tokenPicture(item.identity, 32), `Captured: ${faceName(item.identity)} (token ${item.tid})`);
    S.revealCount += 1;
    el.dataset.count = String(S.revealCount);
    el.classList.remove("flash");
    void el.offsetWidth;
    el.classList.add("flash");
  }
  S.revealTimer = setTimeout(nextReveal, 1200);
}

export default {
  scoreLabel: "MC",
  stylesheet: "space-pirates",
  async setup({ tableId }) {
    SETUP = { tableId };
    try {
      CATALOG = await getJSON(`/api/tables/${encodeURIComponent(tableId)}/catalog`);
    } catch (err) {
      // the page still works with the standard sizes
    }
  },
  prompt(ctx) {
    const dec = myDecision(ctx);
    return dec ? ASK[dec.kind] || "choose a move." : "choose a move.";
  },
  render(ctx) {
    ensureCanvas();
    S.view = ctx.view;
    S.cctx = ctx;
    S.route = routeOf(ctx.log);
    if (!mode(ctx)) S.aim = null;
    if (S.hover && S.hover.kind !== mode(ctx)) S.hover = null;
    exposeAim();
    queueReveals(ctx);
    const area = h("section", { class: "panel sp-table", "aria-labelledby": "sp-table-title" },
      h("h2", { id: "sp-table-title" }, "The galaxy"),
      zoomBar(),
      S.wrap,
      // Under the canvas, not above it: the words growing while you aim must not move the canvas under the pointer.
      h("p", { id: "sp-aim", class: "help", "aria-live": "polite" }),
      h("p", { id: "sp-reveal", class: "sp-reveal", "aria-live": "assertive", dataset: { count: String(S.revealCount) } },
        S.revealNow ? [tokenPicture(S.revealNow.identity, 32), `Captured: ${faceName(S.revealNow.identity)} (token ${S.revealNow.tid})`] : ""),
      lastFlickPanel(ctx));
    queueMicrotask(() => {
      sizeCanvas();
      showAim();
      showZoom();
      if (!S.anim) drawTable();
      maybeAnimate(ctx);
    });
    return [aimPanel(ctx), area, inPlayPanel(ctx), handPanel(ctx), basePanel(ctx), playersPanel(ctx), tokensPanel(ctx)];
  },
  logText(e, ctx) {
    if (e.kind === "captured_private") return `You capture ${faceName(e.data.identity)} (token ${e.data.tid}).`;
    return e.text;
  },
  result(ctx) {
    const v = ctx.view;
    const o = ctx.payload.outcome;
    const why = v.winner !== null && v.winner !== undefined
      ? `${ctx.name(v.winner)} owns base ${baseName(v, v.players[v.winner].owned_base)} and has ${v.players[v.winner].mc} MC: victory.`
      : `No winner: ${o ? o.reason : "the game ended"}.`;
    return h("div", { id: "sp-result" },
      h("p", { class: v.winner !== null && v.winner !== undefined ? "winner" : "" }, why),
      h("p", {}, `The bank holds ${v.bank} MC.`),
      h("ul", {}, v.players.map((p) => h("li", {}, `${ctx.name(p.seat)}: ${p.mc} MC, ${p.owned_base !== null && p.owned_base !== undefined ? `owns ${baseName(v, p.owned_base)}` : "no base"}, ${plural(p.hold_count, "cargo")} in the hold`))));
  },
};
