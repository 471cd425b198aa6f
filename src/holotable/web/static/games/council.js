// Black Hole Council: the five planets above the five outcomes (the Leader rearranges them by drag and
// drop, by click-to-swap or with the arrow keys; everyone sees each swap live, the two moved slots
// glowing for a few seconds with who moved them), the live timer, where each seat stands (its offer,
// request, pledges, latest suggestion and claims, in words), a draft arrangement any seat can build and
// send as a suggestion or a conditional pledge, bribes, the secret vote revealed together, Advance with
// your own points (shown to you alone), Intrigue cards, the three Deduction Rounds, the Planet History,
// the Pay-Out and the table chat (a channel of the server, open in every phase, plus the bots' one-line
// `say` talk from the engine).

import { h, plural } from "../js/dom.js";
import { motionStyle, motions } from "./common.js";

const OUTCOMES = ["settle", "tax", "mine", "conquer", "black_hole"];
const OUTCOME_NAMES = { settle: "Settle", tax: "Tax", mine: "Mine", conquer: "Conquer", black_hole: "Black Hole" };
const COLOURS = ["red", "green", "yellow", "blue", "black"];
// Every planet carries its colour in letters too: colour alone fails players who see red and green alike.
const COLOUR_TAG = { red: "Red", green: "Grn", yellow: "Yel", blue: "Blu", black: "Blk", rainbow: "Any" };
const INTRIGUE_TEXT = {
  settle: "Settle: a matching Settle planet counts double for you (a -1 becomes -2).",
  tax: "Tax: with Get Paid you also take the Tax planet's points in coins (never below 0), match or not.",
  mine: "Mine: for your count only, the Tax and Mine planets swap places.",
  conquer: "Conquer: the Conquer planet counts for you even if it does not match.",
  black_hole: "Black Hole: +1 point for each failed Proposal of this round.",
};
const DEDUCTION_TEXT = [
  null,
  "Deduction 1: point a colour at your LEFT neighbour. Right if their Agenda sends that colour to Settle or Tax; a right card pays you 1 coin, a wrong one pays them 1.",
  "Deduction 2: point a colour at your RIGHT neighbour. Right if their Agenda sends that colour to Mine or Conquer (1 coin to the guesser if right, to the target if wrong).",
  "Deduction 3: point a colour at either neighbour. Right if their Agenda sends that colour to Black Hole (2 coins to the guesser if right, to the target if wrong).",
];
// The table drawn as art (static/art/council/, CC0, see art/LICENSE.md): a planet per colour, each with
// its own texture and symbol (flame, leaf, sun, drop, crescent, star) besides its colour in letters, the
// board's outcome marks and black hole, the vote cards, the Agenda and Intrigue cards, coins, the Leader.
const PLANET_ART = {
  red: { src: "/static/art/council/planet-red.svg" },
  green: { src: "/static/art/council/planet-green.svg" },
  yellow: { src: "/static/art/council/planet-yellow.svg" },
  blue: { src: "/static/art/council/planet-blue.svg" },
  black: { src: "/static/art/council/planet-black.svg" },
  rainbow: { src: "/static/art/council/planet-rainbow.svg" },
  back: { src: "/static/art/council/planet-back.svg" },
};
const COLOUR_SYMBOL = { red: "flame", green: "leaf", yellow: "sun", blue: "drop", black: "crescent", rainbow: "star" };
const OUTCOME_ART = {
  settle: { src: "/static/art/council/outcome-settle.svg" },
  tax: { src: "/static/art/council/outcome-tax.svg" },
  mine: { src: "/static/art/council/outcome-mine.svg" },
  conquer: { src: "/static/art/council/outcome-conquer.svg" },
  black_hole: { src: "/static/art/council/outcome-black_hole.svg" },
};
const VOTE_ART = {
  pass: { src: "/static/art/council/vote-pass.svg" },
  fail: { src: "/static/art/council/vote-fail.svg" },
  back: { src: "/static/art/council/vote-back.svg" },
};
const CARD_ART = {
  agenda: { src: "/static/art/council/agenda.svg" },
  intrigue: { src: "/static/art/council/intrigue.svg" },
  coin: { src: "/static/art/council/coin.svg" },
  leader: { src: "/static/art/council/leader.svg" },
};
// Motion (all of it off under prefers-reduced-motion, in council.css): how long each plays.
const SLIDE_MS = 600; // a planet the Leader moved slides from its old slot to its new one
const DEAL_MS = 1100; // newly dealt planets turn face up, one after another
const REVEAL_MS = 1600; // the vote cards turn over together, one after another
const CAST_MS = 700; // a vote card laid face down
const SCORE_MS = 2400; // a history set, a climb on the track, a matching planet scoring

// How long the two slots a Leader swap changed keep glowing (or until the next swap).
const HIGHLIGHT_MS = 6000;
// Under this many seconds the timer turns urgent.
const URGENT_SECONDS = 15;

const outcomeName = (o) => OUTCOME_NAMES[o] || o;
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const swapText = (a, b) => {
  const [lo, hi] = [a, b].sort((x, y) => OUTCOMES.indexOf(x) - OUTCOMES.indexOf(y));
  return `swap ${lo} ${hi}`;
};
const sameIds = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);

// ------------------------------------------------------------------ long-lived module state
const chat = new Map(); // key -> {key, seat, text, ts, ply, order}: the server's chat lines and the engine's `say` talk
let picked = null; // the outcome whose planet the Leader picked up (click-to-swap, keyboard)
let pickedProposal = null;
let myVote = null; // {proposal, text}: what this page voted (shown to this seat only; never sent elsewhere)
let lastState = null; // {proposalsMade, phase, votes} to announce changes
let timerFor = null; // {deadline, seconds, told}: the negotiation period the timer counts down
let clockOffset = 0;
let offsetFrom = null; // the payload the offset was measured on (a chat redraw must not measure it again)
let chatHistoryAsked = false;
let claimOpen = false; // the claim form stays open across redraws once opened
let swapSeen = null; // {key, n}: the Leader swaps this page has already shown
let highlight = null; // {key, pair, leader, since, until}: the swap whose two slots glow now (Date.now ms)
let draft = null; // {proposal, ids, touched, picked}: this seat's idea of an arrangement, before it is sent
let offersSeen = null; // {proposal, offers}: to tell the Leader about a new offer
// The live region stays in the page across redraws, so screen readers hear its changes (a swap, the
// timer running low, the Vote called, the votes revealed, a new Proposal).
const announcer = h("p", { id: "council-announce", class: "council-announce", role: "status", "aria-live": "polite" });

function serverNow() {
  return Date.now() / 1000 + clockOffset;
}

function fmtClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

setInterval(tickTimer, 250);

// Every timer on the page (the big one above the table, the small one in the move panel) from one clock.
function tickTimer() {
  if (!timerFor) return;
  const total = Math.max(1, timerFor.seconds || 1);
  const left = Math.max(0, timerFor.deadline - serverNow());
  const share = Math.min(1, left / total);
  const urgent = left < URGENT_SECONDS;
  const shown = fmtClock(left);
  for (const el of document.querySelectorAll("[data-council-timer]")) {
    const text = el.querySelector(".timer-text");
    if (text && text.textContent !== shown) text.textContent = shown;
    const fill = el.querySelector(".timer-fill");
    if (fill) fill.style.width = `${(share * 100).toFixed(1)}%`;
    el.classList.toggle("urgent", urgent);
    el.dataset.left = String(Math.ceil(left));
    if (el.getAttribute("role") === "timer") el.setAttribute("aria-label", `Negotiation timer: ${Math.ceil(left)} seconds left`);
  }
  // Screen readers hear the time twice, not every second.
  for (const mark of [30, 10]) {
    if (left <= mark && left > mark - 5 && !timerFor.told.has(mark) && total > mark) {
      timerFor.told.add(mark);
      announcer.textContent = `${mark} seconds left to negotiate.`;
    }
  }
}

// ------------------------------------------------------------------ art and motion
/** A decorative picture (the words beside it say what it shows). */
function art(which, cls, size) {
  return h("img", { class: cls, src: which.src, alt: "", "aria-hidden": "true", draggable: "false", width: size, height: size });
}

// A motion outlives the redraws that come while it plays (a chat line, a timer, the next state): each
// redraw makes the element again with the same class and a negative delay, so it goes on where it was.
const motion = motions();
const startMotion = motion.start;
const motionOf = motion.of;

// Where each planet stood in the picture being replaced (read before the new one is made): a planet
// in another slot now slides over from there, a planet not there before is dealt face up.
let tableDrawn = false;
function notePlanetMoves(ctx) {
  const table = ctx.view.table || {};
  const here = Object.keys(table).length > 0;
  const old = document.querySelectorAll("#council-planets .slot");
  const deal = () => OUTCOMES.forEach((outcome, i) => {
    if (table[outcome]) startMotion(`deal:${table[outcome].id}`, DEAL_MS + 90 * 4, { i });
  });
  if (!here || ctx.view.phase === "over") return;
  if (!tableDrawn) {
    tableDrawn = true; // the first picture of a page: nothing moved, nothing was dealt just now
    return;
  }
  if (!old.length) {
    deal(); // the table comes back (a new round, after the Advance and the Deductions)
    return;
  }
  const slotAt = new Map();
  const was = new Map();
  for (const slot of old) {
    const r = slot.getBoundingClientRect();
    slotAt.set(slot.dataset.slot, { x: r.left, y: r.top });
    const p = slot.querySelector("[data-planet]");
    if (p) was.set(p.dataset.planet, slot.dataset.slot);
  }
  if (OUTCOMES.every((o) => !table[o] || !was.has(table[o].id))) {
    deal(); // five new planets: the next Proposal's round
    return;
  }
  for (const outcome of OUTCOMES) {
    const planet = table[outcome];
    const from = planet ? was.get(planet.id) : undefined;
    if (from && from !== outcome && slotAt.has(from) && slotAt.has(outcome)) {
      const a = slotAt.get(from);
      const b = slotAt.get(outcome);
      startMotion(`slide:${planet.id}`, SLIDE_MS, { dx: Math.round(a.x - b.x), dy: Math.round(a.y - b.y), at: outcome });
    }
  }
}

/** The class and style of a planet on the table: sliding over from its old slot, or being dealt. */
function planetMotion(planet, outcome) {
  const slide = motionOf(`slide:${planet.id}`);
  if (slide && slide.data.at === outcome) return { cls: " sliding", style: motionStyle(slide, 0, `--dx:${slide.data.dx}px;--dy:${slide.data.dy}px`) };
  const deal = motionOf(`deal:${planet.id}`);
  if (deal) return { cls: " dealt", style: motionStyle(deal, deal.data.i) };
  return { cls: "", style: null };
}

// Scores and reveals: what changed since the last picture starts its motion.
let seenScore = null; // {votes, history, positions, banks, committed, proposal}
function noteScores(ctx) {
  const view = ctx.view;
  const now = {
    votes: (view.votes || []).length, history: (view.history || []).length,
    positions: [...(view.positions || [])], banks: [...(view.banks || [])],
    committed: view.phase === "vote" ? [...ctx.committed] : [], proposal: view.proposals_made, phase: view.phase,
  };
  const before = seenScore;
  seenScore = now;
  if (!before) return;
  if (now.votes > before.votes) startMotion(`reveal:${now.votes}`, REVEAL_MS + 120 * view.positions.length);
  if (now.history > before.history) startMotion(`history:${now.history}`, SCORE_MS);
  now.positions.forEach((p, s) => {
    const was = before.positions[s] ?? p;
    if (p > was) startMotion(`climb:${s}`, SCORE_MS, { ratio: Math.max(0, Math.min(1, was / p)).toFixed(3) });
  });
  now.banks.forEach((b, s) => {
    if (b !== (before.banks[s] ?? b)) startMotion(`bank:${s}`, SCORE_MS, { up: b > before.banks[s] });
  });
  if (now.phase === "vote") {
    const had = before.phase === "vote" && before.proposal === now.proposal ? before.committed : [];
    for (const s of now.committed) if (!had.includes(s)) startMotion(`cast:${now.proposal}:${s}`, CAST_MS);
  }
  // The Vote passed and the Advance begins: the planets that score for this seat light up once.
  if (now.phase === "advance" && before.phase !== "advance") startMotion(`scoring:${now.proposal}`, SCORE_MS);
}

// ------------------------------------------------------------------ helpers
function planetLabel(p) {
  if (!p) return "no planet";
  const colour = p.colour === "rainbow" ? "Rainbow" : cap(p.colour);
  return `${colour} ${p.points >= 0 ? p.points : `−${-p.points}`} point${Math.abs(p.points) === 1 ? "" : "s"}${p.coin ? `, ${p.coin} coin symbol${p.coin > 1 ? "s" : ""}` : ""}`;
}

function matchesMine(ctx, outcome, planet) {
  const you = ctx.view.you;
  if (!you || !planet) return false;
  return planet.colour === "rainbow" || you.agenda.goals[outcome] === planet.colour;
}

function planetCard(planet, extra = {}) {
  const colour = planet ? planet.colour : "back";
  return h("span", { class: `planet-face colour-${colour}`, "aria-hidden": "true", dataset: { symbol: COLOUR_SYMBOL[colour] || "back" } },
    art(PLANET_ART[colour] || PLANET_ART.back, "planet-art", 64),
    planet ? h("span", { class: "planet-colour" }, COLOUR_TAG[colour] || colour) : null,
    h("span", { class: "planet-points" }, planet ? (planet.points > 0 ? `+${planet.points}` : String(planet.points)) : "?"),
    planet && planet.coin ? h("span", { class: "planet-coin", title: "coin symbol" }, "¤".repeat(planet.coin)) : null,
    extra.mark ? h("span", { class: "planet-mark" }, "✓") : null);
}

function isLeader(ctx) {
  return ctx.seat !== null && ctx.seat !== undefined && ctx.view.leader === ctx.seat;
}

function canSwap(ctx) {
  return ctx.view.phase === "negotiate" && ctx.legal.some((t) => t.startsWith("swap "));
}

function swapTo(ctx, from, to) {
  if (!from || !to || from === to) return;
  const text = swapText(from, to);
  if (ctx.legal.includes(text)) {
    picked = null;
    ctx.act(text);
  }
}

function actionButton(ctx, text, label, attrs = {}) {
  if (!ctx.legal.includes(text)) return null;
  return h("button", {
    type: "button", class: attrs.class || "action", disabled: ctx.busy,
    dataset: { action: text, key: `act:${text}` }, onclick: () => ctx.act(text), ...attrs.extra,
  }, label);
}

// ------------------------------------------------------------------ the table of planets
function currentIds(view) {
  const table = view.table || {};
  return OUTCOMES.map((o) => (table[o] ? table[o].id : null));
}

function planetsById(view) {
  const byId = new Map();
  for (const p of Object.values(view.table || {})) byId.set(p.id, p);
  return byId;
}

// The Leader's swaps of this Proposal (`view.swaps`, newest last); a server without it: the log's
// "arrangement" events, which carry the two outcomes too.
function swapRecord(ctx) {
  const view = ctx.view;
  if (Array.isArray(view.swaps)) {
    return { key: `p${view.proposals_made}`, n: view.swaps.length, pair: view.swaps.length ? view.swaps[view.swaps.length - 1] : null };
  }
  const moves = ctx.log.filter((e) => e.kind === "arrangement" && e.data && Array.isArray(e.data.outcomes));
  return { key: "log", n: moves.length, pair: moves.length ? moves[moves.length - 1].data.outcomes : null };
}

function swapSentence(ctx, pair, leader) {
  const [a, b] = pair.map((i) => outcomeName(OUTCOMES[i]));
  return `${leader === ctx.seat ? "You (Leader)" : `${ctx.name(leader)} (Leader)`} swapped ${a} and ${b}`;
}

// A new swap since the last picture lights its two slots for HIGHLIGHT_MS (a later swap takes over) and
// is announced; the first picture of a page only shows the last change as a line.
function noticeSwaps(ctx) {
  const now = swapRecord(ctx);
  const before = swapSeen;
  swapSeen = { key: now.key, n: now.n };
  if (highlight && (highlight.key !== now.key || now.n < (before ? before.n : 0))) highlight = null; // a new Proposal, an undo
  if (!before || before.key !== now.key || now.n <= before.n || !now.pair || ctx.view.phase !== "negotiate") return;
  const since = Date.now();
  highlight = { key: now.key, pair: now.pair, leader: ctx.view.leader, since, until: since + HIGHLIGHT_MS };
  announcer.textContent = `${swapSentence(ctx, now.pair, ctx.view.leader)}.`;
  setTimeout(() => {
    if (highlight && highlight.since === since) ctx.redraw();
  }, HIGHLIGHT_MS + 50);
}

function glowing(ctx) {
  return highlight && highlight.key === swapRecord(ctx).key && Date.now() < highlight.until ? highlight : null;
}

function planetsPanel(ctx) {
  const view = ctx.view;
  const table = view.table || {};
  if (!Object.keys(table).length) return null;
  if (pickedProposal !== view.proposals_made || !canSwap(ctx)) picked = null;
  pickedProposal = view.proposals_made;
  const arranging = canSwap(ctx);
  const glow = view.phase === "negotiate" ? glowing(ctx) : null;
  const moved = new Set(glow ? glow.pair.map((i) => OUTCOMES[i]) : []);
  // The glow fades over HIGHLIGHT_MS; a redraw in between picks the animation up where it was.
  const glowStyle = glow ? `animation-delay:-${Date.now() - glow.since}ms` : null;
  const scoring = view.phase === "advance" ? motionOf(`scoring:${view.proposals_made}`) : null;
  const slots = OUTCOMES.map((outcome, i) => {
    const planet = table[outcome];
    const mine = matchesMine(ctx, outcome, planet);
    const motion = planetMotion(planet, outcome);
    const label = `${outcomeName(outcome)}: ${planetLabel(planet)}${mine ? ", matches your Agenda" : ""}${moved.has(outcome) ? ", just moved by the Leader" : ""}`;
    let card;
    if (arranging) {
      card = h("button", {
        type: "button", class: `planet${picked === outcome ? " picked" : ""}${motion.cls}`, draggable: "true", style: motion.style,
        "aria-pressed": picked === outcome ? "true" : "false",
        "aria-label": `${label}. ${picked && picked !== outcome ? `Press to swap with ${outcomeName(picked)}.` : "Press to pick up, arrow keys to move."}`,
        "aria-describedby": "council-arrange-help",
        dataset: { key: `planet:${planet.id}`, planet: planet.id, outcome },
        onclick: () => {
          if (picked && picked !== outcome) swapTo(ctx, picked, outcome);
          else {
            picked = picked === outcome ? null : outcome;
            ctx.redraw();
          }
        },
        onkeydown: (event) => {
          const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
          if (step === undefined) {
            if (event.key === "Escape" && picked) {
              picked = null;
              ctx.redraw();
            }
            return;
          }
          event.preventDefault();
          const target = OUTCOMES[i + step];
          if (target) swapTo(ctx, outcome, target);
        },
        ondragstart: (event) => {
          event.dataTransfer.setData("text/plain", outcome);
          event.dataTransfer.effectAllowed = "move";
          event.currentTarget.classList.add("dragging");
        },
        ondragend: (event) => event.currentTarget.classList.remove("dragging"),
      }, planetCard(planet, { mark: mine }));
    } else {
      card = h("div", { class: `planet${motion.cls}`, style: motion.style, role: "img", "aria-label": label, dataset: { planet: planet.id, outcome } },
        planetCard(planet, { mark: mine }));
    }
    const moves = arranging ? h("div", { class: "planet-moves" },
      i > 0 ? h("button", { type: "button", class: "small", disabled: ctx.busy, "aria-label": `Move ${planet.id} left (swap ${outcomeName(outcome)} and ${outcomeName(OUTCOMES[i - 1])})`, dataset: { key: `left:${outcome}`, move: `left:${outcome}` }, onclick: () => swapTo(ctx, outcome, OUTCOMES[i - 1]) }, "◀") : null,
      i < 4 ? h("button", { type: "button", class: "small", disabled: ctx.busy, "aria-label": `Move ${planet.id} right (swap ${outcomeName(outcome)} and ${outcomeName(OUTCOMES[i + 1])})`, dataset: { key: `right:${outcome}`, move: `right:${outcome}` }, onclick: () => swapTo(ctx, outcome, OUTCOMES[i + 1]) }, "▶") : null,
    ) : null;
    const lit = scoring && mine;
    return h("li", {
      class: `slot${mine ? " match" : ""}${moved.has(outcome) ? " moved" : ""}${lit ? " scoring" : ""}`, dataset: { slot: outcome, moved: String(moved.has(outcome)) },
      style: moved.has(outcome) ? glowStyle : (lit ? motionStyle(scoring, i) : null),
      ondragover: arranging ? (event) => { event.preventDefault(); event.currentTarget.classList.add("over"); } : null,
      ondragleave: arranging ? (event) => event.currentTarget.classList.remove("over") : null,
      ondrop: arranging ? (event) => {
        event.preventDefault();
        event.currentTarget.classList.remove("over");
        swapTo(ctx, event.dataTransfer.getData("text/plain"), outcome);
      } : null,
    }, moved.has(outcome) ? h("span", { class: "moved-tag", "aria-hidden": "true" }, "moved") : null,
    card, h("span", { class: "outcome-name" }, art(OUTCOME_ART[outcome], "outcome-art", 18), outcomeName(outcome)), moves);
  });
  const title = view.phase === "negotiate" ? `Proposal ${view.proposal}: the Leader's arrangement` : `Proposal ${view.proposal}: the arrangement`;
  const last = view.phase === "negotiate" ? swapRecord(ctx) : null;
  return h("section", { class: "panel council-table", "aria-labelledby": "council-planets-title" },
    h("div", { class: "table-head" }, h("h2", { id: "council-planets-title" }, title), timerRow(ctx)),
    h("ol", { class: "planets board", id: "council-planets", "aria-label": "Planets above the outcomes" }, slots),
    last && last.pair
      ? h("p", { class: `last-swap${glow ? " fresh" : ""}`, id: "council-last-swap", dataset: { outcomes: last.pair.map((k) => OUTCOMES[k]).join(" ") } },
        glow ? "Just now: " : "Last change: ", `${swapSentence(ctx, last.pair, view.leader)}.`)
      : null,
    h("p", { class: "help", id: arranging ? "council-arrange-help" : null },
      arranging
        ? "You are the Leader: drag a planet onto another, press two planets, or use the arrow keys or ◀ ▶ to swap them; everyone sees each swap at once. "
        : (view.phase === "negotiate" ? `${ctx.name(view.leader)} (the Leader) arranges the planets and calls the Vote${timerFor ? ", or the time runs out" : ""}. ` : ""),
      ctx.view.you ? "✓ marks a planet that scores for your secret Agenda (only you see this). " : "",
      `Deck: ${plural(view.deck_size, "card")}.`,
      view.discards.length ? ` Left Black Hole: ${view.discards.map((d) => `${d.planet} (round ${d.round}, Proposal ${d.proposal})`).join(", ")}.` : ""));
}

// ------------------------------------------------------------------ the live timer
// The negotiation period's end, from the server's clock: `clock.period_deadline_ts` minus the server
// time `clock.now` the payload was made at, against this browser's time when it arrived.
function timerSeconds(ctx) {
  const clock = ctx.payload.clock || {};
  return clock.period_seconds || ctx.view.negotiation_seconds || 0;
}

function syncTimer(ctx) {
  const clock = ctx.payload.clock;
  const deadline = ctx.view.phase === "negotiate" && clock ? clock.period_deadline_ts : null;
  if (!deadline) {
    timerFor = null;
    return null;
  }
  if (!timerFor || timerFor.deadline !== deadline) timerFor = { deadline, seconds: timerSeconds(ctx), told: new Set() };
  return timerFor;
}

// One countdown element: the big one (`big`) above the table or the small one in the move panel.
function timerElement(big) {
  const left = timerFor ? Math.max(0, timerFor.deadline - serverNow()) : 0;
  const share = timerFor && timerFor.seconds ? Math.min(1, left / timerFor.seconds) : 0;
  const attrs = big
    ? { class: `council-clock big${left < URGENT_SECONDS ? " urgent" : ""}`, id: "council-timer", role: "timer", "aria-live": "off", "aria-label": `Negotiation timer: ${Math.ceil(left)} seconds left` }
    : { class: `council-clock small${left < URGENT_SECONDS ? " urgent" : ""}`, "aria-hidden": "true" };
  return h("div", { ...attrs, dataset: { councilTimer: big ? "big" : "small", left: String(Math.ceil(left)) } },
    h("span", { class: "timer-text" }, fmtClock(left)),
    timerFor && timerFor.seconds ? h("span", { class: "timer-bar", "aria-hidden": "true" }, h("span", { class: "timer-fill", style: `width:${(share * 100).toFixed(1)}%` })) : null);
}

// The big countdown and the Leader's "Call the Vote", in the head of the table panel (near the table).
function timerRow(ctx) {
  const view = ctx.view;
  if (view.phase !== "negotiate") return null;
  const timer = syncTimer(ctx);
  const call = actionButton(ctx, "call vote", "Call the Vote", { class: "primary" });
  return h("div", { class: "timer-row", id: "council-timer-row" },
    timer ? timerElement(true) : h("p", { class: "help" }, "No timer at this table: the Leader calls the Vote."), call);
}

// ------------------------------------------------------------------ what each seat stands for
// Plain words for what a record asks of the table: "as it stands", a swap ("Mine ↔ Conquer") or a whole
// arrangement (compact planet faces with their outcomes).
function wantedWords(ctx, rec) {
  const base = rec.table || currentIds(ctx.view);
  const wants = rec.wants || base;
  const diff = OUTCOMES.map((_, i) => i).filter((i) => base[i] !== wants[i]);
  if (!diff.length) return { kind: "same", words: null };
  if (diff.length === 2 && base[diff[0]] === wants[diff[1]] && base[diff[1]] === wants[diff[0]]) {
    return { kind: "swap", words: `${outcomeName(OUTCOMES[diff[0]])} ↔ ${outcomeName(OUTCOMES[diff[1]])}` };
  }
  return { kind: "table", words: miniTable(ctx, wants) };
}

function miniTable(ctx, ids) {
  const byId = planetsById(ctx.view);
  const said = OUTCOMES.map((o, i) => `${outcomeName(o)} ${ids[i]}`).join(", ");
  return h("span", { class: "mini-table", role: "img", "aria-label": said, title: said }, OUTCOMES.map((o, i) => {
    const p = byId.get(ids[i]);
    return h("span", { class: "mini-slot" }, h("span", { class: `mini-planet colour-${p ? p.colour : "back"}` },
      p ? [h("span", { class: "mini-colour" }, COLOUR_TAG[p.colour] || p.colour), p.points > 0 ? `+${p.points}` : String(p.points)] : "?"),
      h("span", { class: "mini-outcome" }, outcomeName(o).replace("Black Hole", "B.Hole")));
  }));
}

// One record (a pledge, a suggestion, a request, a claim) in words; said on an older arrangement than
// the one on the table now, it is greyed and says so.
function recordWords(ctx, rec) {
  const wanted = wantedWords(ctx, rec);
  const vote = rec.vote === "fail" ? "Fail" : "Pass";
  switch (rec.kind) {
    case "support":
    case "oppose":
    case "pledge":
      if (wanted.kind === "same") return [`will vote ${vote} `, h("strong", {}, "as it stands")];
      if (wanted.kind === "swap") return [`will vote ${vote} if `, h("strong", {}, wanted.words)];
      return [`will vote ${vote} if the table is `, wanted.words];
    case "suggest":
    case "suggest table":
      if (wanted.kind === "swap") return ["suggests ", h("strong", {}, wanted.words)];
      if (wanted.kind === "same") return ["suggests the table as it stands"];
      return ["suggests the table ", wanted.words];
    case "ask":
      return [`asks the Leader for ${plural(rec.coins, "coin")}`];
    case "claim":
      return [`claims ${ctx.name(rec.about)} wants ${rec.colour} at ${outcomeName(rec.outcome)}`];
    case "done":
      return ["has nothing more to say"];
    case "say":
      return [`“${rec.text.replace(/^say /, "")}”`];
    default:
      return [describeTalk(rec.text || "", ctx)];
  }
}

function recordLine(ctx, rec, cls) {
  const now = currentIds(ctx.view);
  const stale = Array.isArray(rec.table) && !sameIds(rec.table, now);
  const conditional = ["pledge", "suggest", "suggest table"].includes(rec.kind) && Array.isArray(rec.wants) && !sameIds(rec.wants, rec.table);
  const met = conditional && sameIds(rec.wants, now);
  return h("li", { class: `stand ${cls}${stale ? " stale" : ""}`, dataset: { kind: rec.kind, stale: String(stale), met: String(met) } },
    h("span", { class: "stand-words" }, recordWords(ctx, rec)),
    met ? h("span", { class: "badge met" }, rec.kind === "pledge" ? "the table matches now" : "done") : null,
    stale ? h("span", { class: "stale-note" }, "(before the last change)") : null);
}

// Per seat, the latest of each: its pledges (one per arrangement it is about), suggestion, request,
// claims; its open offer with Accept (the Leader's page) or Withdraw (its own page).
function standing(talk, n) {
  const seats = [...Array(n).keys()].map(() => ({ pledges: new Map(), suggest: null, ask: null, claims: [], done: false }));
  for (const rec of talk) {
    if (!rec || typeof rec !== "object" || !seats[rec.seat]) continue;
    const s = seats[rec.seat];
    s.done = rec.kind === "done";
    if (["support", "oppose", "pledge"].includes(rec.kind)) {
      const key = (rec.wants || rec.table || []).join(" ");
      s.pledges.delete(key);
      s.pledges.set(key, rec);
    } else if (rec.kind === "suggest" || rec.kind === "suggest table") s.suggest = rec;
    else if (rec.kind === "ask") s.ask = rec;
    else if (rec.kind === "claim") s.claims.push(rec);
  }
  return seats;
}

function standsPanel(ctx) {
  const view = ctx.view;
  if (view.phase !== "negotiate" && view.phase !== "vote") return null;
  const n = view.positions.length;
  const seats = standing(view.talk || [], n);
  const rows = [...Array(n).keys()].map((s) => {
    const st = seats[s];
    const lines = [];
    if (s === view.leader) {
      const moves = swapRecord(ctx);
      lines.push(h("li", { class: "stand stand-leader" }, `is the Leader${moves.key !== "log" && moves.n ? `: ${plural(moves.n, "swap")} this Proposal` : ""}`));
    }
    if (view.offers.includes(s)) {
      lines.push(h("li", { class: "stand stand-offer", dataset: { kind: "offer" } }, h("span", { class: "badge offer" }, "offers the Leader 1 coin"),
        actionButton(ctx, `accept ${s}`, "Accept", { class: "action small", extra: { "aria-label": `Accept ${ctx.name(s)}'s 1-coin bribe` } }),
        s === ctx.seat ? actionButton(ctx, "withdraw", "Withdraw", { class: "action small", extra: { "aria-label": "Withdraw my offer" } }) : null));
    }
    if (view.accepted_from === s) lines.push(h("li", { class: "stand stand-accepted", dataset: { kind: "accepted" } }, "the Leader accepted their 1-coin bribe"));
    if (view.pending[s]) lines.push(h("li", { class: "stand stand-pending", dataset: { kind: "pending" } }, `holds ${plural(view.pending[s], "coin")} from the Leader (kept if it passes, returned if it fails)`));
    if (st.ask) lines.push(recordLine(ctx, st.ask, "stand-ask"));
    for (const rec of [...st.pledges.values()].slice(-3)) lines.push(recordLine(ctx, rec, "stand-pledge"));
    if (st.suggest) lines.push(recordLine(ctx, st.suggest, "stand-suggest"));
    for (const rec of st.claims.slice(-2)) lines.push(recordLine(ctx, rec, "stand-claim"));
    if (st.done) lines.push(h("li", { class: "stand muted" }, "has nothing more to say"));
    if (!lines.length) lines.push(h("li", { class: "stand muted" }, "no offer, pledge or suggestion yet"));
    return h("li", { class: `seat-stand${s === ctx.seat ? " me" : ""}`, dataset: { seat: String(s) } },
      h("strong", { class: "seat-stand-name" }, ctx.name(s)), h("ul", { class: "stand-lines" }, lines));
  });
  return h("section", { class: "panel council-stands", "aria-labelledby": "council-stands-title" },
    h("h2", { id: "council-stands-title" }, "Where everyone stands"),
    h("ul", { class: "stands", id: "council-stands" }, rows),
    h("p", { class: "help" }, "Pledges and offers bind nobody until the secret vote. Grey lines were said before the Leader's last change."));
}

// ------------------------------------------------------------------ the draft arrangement
// A copy of the table this seat rearranges for itself (press two planets to swap them, or drag one onto
// another), then sends as a suggestion or a conditional pledge. Untouched, it follows the table.
function draftOf(ctx) {
  const now = currentIds(ctx.view);
  const same = draft && draft.proposal === ctx.view.proposals_made && [...draft.ids].sort().join() === [...now].sort().join();
  if (!same) draft = { proposal: ctx.view.proposals_made, ids: [...now], touched: false, picked: null };
  if (!draft.touched) draft.ids = [...now];
  return draft;
}

function draftSwap(ctx, i, j) {
  if (i === j || i === null || j === null) return;
  const ids = [...draft.ids];
  [ids[i], ids[j]] = [ids[j], ids[i]];
  draft.ids = ids;
  draft.touched = !sameIds(ids, currentIds(ctx.view));
  draft.picked = null;
  ctx.redraw();
}

// What to send for the draft: the one-swap forms when it is one swap away from the table, the
// whole-arrangement forms otherwise (the server parses any action text, not only the listed ones).
function draftActions(ctx) {
  const now = currentIds(ctx.view);
  const diff = OUTCOMES.map((_, i) => i).filter((i) => draft.ids[i] !== now[i]);
  if (!diff.length) return null;
  if (diff.length === 2) {
    const [a, b] = diff.map((i) => OUTCOMES[i]);
    const pair = `${a} ${b}`;
    return { words: `${outcomeName(a)} ↔ ${outcomeName(b)}`, suggest: `suggest swap ${pair}`, pass: `pledge pass if swap ${pair}`, fail: `pledge fail if swap ${pair}` };
  }
  const ids = draft.ids.join(" ");
  return { words: "my table", status: `${diff.length} planets differ from the table`, suggest: `suggest table ${ids}`, pass: `pledge pass if table ${ids}`, fail: `pledge fail if table ${ids}` };
}

function draftBox(ctx) {
  const d = draftOf(ctx);
  const byId = planetsById(ctx.view);
  const slots = OUTCOMES.map((outcome, i) => {
    const planet = byId.get(d.ids[i]);
    const changed = d.ids[i] !== currentIds(ctx.view)[i];
    const mine = matchesMine(ctx, outcome, planet);
    return h("li", {
      class: `draft-slot${changed ? " changed" : ""}`, dataset: { draftSlot: outcome },
      ondragover: (event) => event.preventDefault(),
      ondrop: (event) => {
        event.preventDefault();
        const from = Number(event.dataTransfer.getData("text/x-council-draft"));
        if (!Number.isNaN(from)) draftSwap(ctx, from, i);
      },
    }, h("button", {
      type: "button", class: `draft-planet${d.picked === i ? " picked" : ""}`, draggable: "true",
      "aria-pressed": d.picked === i ? "true" : "false",
      "aria-label": `Your idea, ${outcomeName(outcome)}: ${planetLabel(planet)}${mine ? ", matches your Agenda" : ""}. ${d.picked !== null && d.picked !== i ? `Press to swap with ${outcomeName(OUTCOMES[d.picked])}.` : "Press, then press another planet to swap them."}`,
      dataset: { key: `draft:${outcome}`, draftPlanet: planet ? planet.id : "" },
      onclick: () => {
        if (d.picked !== null && d.picked !== i) draftSwap(ctx, d.picked, i);
        else {
          d.picked = d.picked === i ? null : i;
          ctx.redraw();
        }
      },
      ondragstart: (event) => {
        event.dataTransfer.setData("text/x-council-draft", String(i));
        event.dataTransfer.effectAllowed = "move";
      },
    }, planetCard(planet, { mark: mine })), h("span", { class: "outcome-name" }, outcomeName(outcome)));
  });
  const send = draftActions(ctx);
  const button = (text, label, key) => h("button", {
    type: "button", class: "action", disabled: ctx.busy || !send, dataset: { key: `draft-${key}`, draftSend: key, action: send ? text : "" },
    onclick: () => { if (send) ctx.act(text); },
  }, label);
  return h("div", { class: "draft", id: "council-draft" },
    h("h3", {}, "Your idea for the table"),
    h("ol", { class: "draft-planets", "aria-label": "Your draft arrangement: press two planets to swap them" }, slots),
    h("p", { class: "draft-status", id: "council-draft-status" }, send ? `Your idea: ${send.status || send.words}.` : "Press two planets to swap them here; the real table stays as it is until you send your idea."),
    h("div", { class: "actions draft-actions" },
      button(send && send.suggest, send ? `Suggest ${send.words}` : "Suggest it", "suggest"),
      button(send && send.pass, send ? `Pass if ${send.words}` : "Pass if so", "pass"),
      button(send && send.fail, send ? `Fail if ${send.words}` : "Fail if so", "fail"),
      d.touched ? h("button", { type: "button", class: "action small", dataset: { key: "draft-reset" }, onclick: () => { draft.touched = false; draft.picked = null; ctx.redraw(); } }, "Back to the table") : null));
}

/** The coins on the Bribe Space, as coins (up to eight; the words say how many). */
function bribeCoins(n) {
  return h("span", { class: "coin-row", "aria-hidden": "true" }, Array.from({ length: Math.min(8, n) }, () => art(CARD_ART.coin, "coin-art", 16)));
}

// ------------------------------------------------------------------ the move panel (next to the chat)
function negotiationPanel(ctx) {
  const view = ctx.view;
  if (view.phase !== "negotiate" || ctx.seat === null || ctx.seat === undefined) return null;
  const body = [];
  const head = h("div", { class: "dock-head" },
    h("h2", { id: "your-move-title" }, isLeader(ctx) ? "Your move: you are the Leader" : "Your move: negotiate"),
    timerFor ? timerElement(false) : null);
  if (!ctx.legal.length) {
    return h("section", { class: "panel council-dock", id: "your-move", tabindex: "-1", "aria-labelledby": "your-move-title" },
      head, h("p", {}, "You have no negotiation moves left this Proposal. The chat stays open; wait for the Vote."));
  }
  if (isLeader(ctx)) {
    const bribes = [];
    for (let s = 0; s < view.positions.length; s++) {
      if (s === ctx.seat) continue;
      const buttons = [];
      for (let k = 1; k <= 5; k++) buttons.push(actionButton(ctx, `bribe ${s} ${k}`, plural(k, "coin"), { class: "action small", extra: { "aria-label": `Give ${ctx.name(s)} ${plural(k, "coin")}` } }));
      const accept = actionButton(ctx, `accept ${s}`, "Accept their 1 coin", { class: "action small" });
      if (buttons.some(Boolean) || accept) {
        bribes.push(h("li", { dataset: { seat: String(s) } }, h("strong", {}, ctx.name(s)), buttons.some(Boolean) ? " give: " : " ", buttons, accept,
          view.offers.includes(s) ? h("span", { class: "badge turn" }, "offers you 1 coin") : null,
          view.pending[s] ? h("span", { class: "badge" }, `${view.pending[s]} pending`) : null));
      }
    }
    body.push(h("h3", { class: "bribe-head" }, `Bribes (Bribe Space: ${plural(view.bribe_space, "coin")}) `, bribeCoins(view.bribe_space)),
      bribes.length ? h("ul", { class: "bribe-list", id: "council-bribes" }, bribes) : h("p", { class: "muted" }, "No bribe to give or take now."),
      h("p", { class: "help" }, "Coins you give wait beside the player's Bank: kept if the Proposal passes, returned if it fails. You may accept one 1-coin bribe per Proposal, not from a player you bribed."));
  } else {
    body.push(draftBox(ctx));
    const asks = [1, 2, 3, 4, 5].map((k) => (k <= Math.max(1, view.bribe_space) ? actionButton(ctx, `ask bribe ${k}`, plural(k, "coin"), { class: "action small", extra: { "aria-label": `Ask the Leader for ${plural(k, "coin")}` } }) : null));
    body.push(h("div", { class: "actions quick", id: "council-quick" },
      actionButton(ctx, "support", "I'll pass as it stands"),
      actionButton(ctx, "oppose", "I'll fail as it stands")),
    h("div", { class: "actions quick" },
      actionButton(ctx, "offer", "Offer the Leader 1 coin"),
      actionButton(ctx, "withdraw", "Withdraw my offer"),
      asks.some(Boolean) ? h("span", { class: "ask-row" }, "Ask for ", asks) : null,
      actionButton(ctx, "done", "I have nothing more to say", { class: "action small" })));
    const left = view.moves_left ? view.moves_left[ctx.seat] : null;
    if (left !== null && left !== undefined) body.push(h("p", { class: "help" }, `Moves left this Proposal: ${left} (suggestions, pledges, offers and claims each use one; chat is free).`));
  }
  return h("section", { class: `panel council-dock${ctx.legal.length ? " ask" : ""}`, id: "your-move", tabindex: "-1", "aria-labelledby": "your-move-title" },
    head, body);
}

// The one-click swap suggestions (and the claim form): the draft does the same with two presses.
function moreTalkPanel(ctx) {
  const view = ctx.view;
  if (view.phase !== "negotiate" || ctx.seat === null || ctx.seat === undefined) return null;
  const legal = new Set(ctx.legal);
  const suggestions = [];
  for (let i = 0; i < 5; i++) {
    for (let j = i + 1; j < 5; j++) {
      const text = `suggest swap ${OUTCOMES[i]} ${OUTCOMES[j]}`;
      if (legal.has(text)) suggestions.push(actionButton(ctx, text, `${outcomeName(OUTCOMES[i])} ↔ ${outcomeName(OUTCOMES[j])}`, { class: "action suggestion" }));
    }
  }
  const body = [];
  if (suggestions.length) {
    body.push(h("h3", {}, isLeader(ctx) ? "Suggest a swap (announce it without making it)" : "Suggest a swap in one press"),
      h("div", { class: "actions suggestions", id: "council-suggestions" }, suggestions));
  }
  if (ctx.legal.some((t) => t.startsWith("claim "))) body.push(claimForm(ctx));
  if (!body.length) return null;
  return h("section", { class: "panel", "aria-label": "More ways to talk" }, body);
}

function claimForm(ctx) {
  const n = ctx.view.positions.length;
  const seat = h("select", { id: "claim-seat", dataset: { key: "claim-seat", keep: "" } },
    [...Array(n).keys()].map((s) => h("option", { value: String(s) }, ctx.name(s))));
  const outcome = h("select", { id: "claim-outcome", dataset: { key: "claim-outcome", keep: "" } }, OUTCOMES.map((o) => h("option", { value: o }, outcomeName(o))));
  const colour = h("select", { id: "claim-colour", dataset: { key: "claim-colour", keep: "" } }, COLOURS.map((c) => h("option", { value: c }, cap(c))));
  return h("details", { class: "claim", id: "claim-box", open: claimOpen, ontoggle: (event) => { claimOpen = event.currentTarget.open; } },
    h("summary", {}, "Claim what someone wants (true or not)"),
    h("form", {
      class: "inline-form", onsubmit: (event) => {
        event.preventDefault();
        const text = `claim ${seat.value} ${outcome.value} ${colour.value}`;
        if (ctx.legal.includes(text)) ctx.act(text);
      },
    },
    h("label", { for: "claim-seat" }, "Player "), seat,
    h("label", { for: "claim-outcome" }, " wants at "), outcome,
    h("label", { for: "claim-colour" }, " the colour "), colour,
    h("button", { type: "submit", disabled: ctx.busy, dataset: { key: "claim-send" } }, "Claim")));
}

function talkPanel(ctx) {
  const talk = ctx.view.talk || [];
  if (ctx.view.phase !== "negotiate" && ctx.view.phase !== "vote") return null;
  return h("section", { class: "panel council-talk", "aria-labelledby": "council-talk-title" },
    h("h2", { id: "council-talk-title" }, "Everything said this Proposal"),
    talk.length
      ? h("ol", { class: "talk", id: "council-talk" }, talk.map((t) => {
        if (typeof t === "string") return h("li", {}, describeTalk(t, ctx));
        const line = recordLine(ctx, t, "");
        line.dataset.seat = String(t.seat);
        line.prepend(h("strong", {}, `${ctx.name(t.seat)}:`));
        return line;
      }))
      : h("p", { class: "muted" }, "No suggestions, pledges or claims yet."));
}

function describeTalk(text, ctx) {
  let m = /^suggest swap (\S+) (\S+)$/.exec(text);
  if (m) return `suggests swapping ${outcomeName(m[1])} and ${outcomeName(m[2])}`;
  m = /^ask bribe (\d+)$/.exec(text);
  if (m) return `asks the Leader for ${plural(Number(m[1]), "coin")}`;
  m = /^claim (\d+) (\S+) (\S+)$/.exec(text);
  if (m) return `claims ${ctx.name(Number(m[1]))} wants ${m[3]} at ${outcomeName(m[2])}`;
  if (text === "support") return "will vote Pass";
  if (text === "oppose") return "will vote Fail";
  if (text === "done") return "has nothing more to say";
  if (text.startsWith("say ")) return `“${text.slice(4)}”`;
  return text;
}

// ------------------------------------------------------------------ the vote
function votePanel(ctx) {
  const view = ctx.view;
  if (view.phase !== "vote") return null;
  const voters = view.positions.map((_, s) => s).filter((s) => s !== view.leader);
  const mine = ctx.legal.includes("vote pass");
  if (myVote && myVote.proposal !== view.proposals_made) myVote = null;
  const vote = (text) => () => {
    myVote = { proposal: view.proposals_made, text };
    ctx.act(text);
  };
  const you = ctx.seat !== null && ctx.seat !== undefined;
  return h("section", { class: `panel${mine ? " ask" : ""}`, id: "your-move", tabindex: "-1", "aria-labelledby": "your-move-title" },
    h("h2", { id: "your-move-title" }, mine ? "Your move: vote in secret" : "The Vote"),
    h("p", {}, `Proposal ${view.proposal} of 3. Everyone but the Leader votes Pass or Fail at once; the votes are revealed together. A majority of Pass approves, a tie fails.`),
    mine ? h("div", { class: "actions vote-buttons" },
      h("button", { type: "button", class: "primary", disabled: ctx.busy, dataset: { action: "vote pass", key: "act:vote pass" }, onclick: vote("vote pass") }, "Pass"),
      h("button", { type: "button", class: "action", disabled: ctx.busy, dataset: { action: "vote fail", key: "act:vote fail" }, onclick: vote("vote fail") }, "Fail")) : null,
    you && ctx.committed.includes(ctx.seat) ? h("p", { id: "council-my-vote" }, myVote ? `You voted ${myVote.text === "vote pass" ? "Pass" : "Fail"} (secret until every vote is in).` : "You have voted (secret until every vote is in).") : null,
    you && ctx.seat === view.leader ? h("p", {}, "You are the Leader: you do not vote.") : null,
    h("ul", { class: "chosen-list voters", id: "council-voters", "aria-label": "Who has voted" }, voters.map((s) => {
      const voted = ctx.committed.includes(s);
      const cast = voted ? motionOf(`cast:${view.proposals_made}:${s}`) : null;
      return h("li", {
        class: `badge voter${voted ? " voted" : ""}${cast ? " cast" : ""}`, dataset: { seat: String(s), voted: String(voted) },
        style: cast ? motionStyle(cast) : null,
      }, art(VOTE_ART.back, "voter-card", 22), `${ctx.name(s)}: ${voted ? "✓ has voted" : "… deciding"}`);
    })));
}

function lastVotePanel(ctx) {
  const votes = ctx.view.votes || [];
  if (!votes.length) return null;
  const last = votes[votes.length - 1];
  const passes = last.votes.filter((v) => v === "pass").length;
  const fails = last.votes.filter((v) => v === "fail").length;
  const reveal = motionOf(`reveal:${votes.length}`);
  let order = 0;
  return h("section", { class: `panel council-last-vote${reveal ? " revealing" : ""}`, "aria-labelledby": "council-vote-title" },
    h("h2", { id: "council-vote-title" }, `Last vote: round ${last.round}, Proposal ${last.proposal}: ${last.approved ? "Approved" : "Failed"}`),
    h("ul", { class: "vote-result", id: "council-votes" }, last.votes.map((v, s) => {
      const turning = v ? reveal : null;
      return h("li", {
        class: `ballot ${v || "leader"}${turning ? " flip" : ""}`, dataset: { seat: String(s), vote: v || "leader" },
        style: turning ? motionStyle(turning, order++) : null,
      }, v
        ? h("span", { class: "ballot-card", "aria-hidden": "true" },
          art(VOTE_ART[v], "ballot-face", 40), art(VOTE_ART.back, "ballot-back", 40))
        : h("span", { class: "ballot-card leader-card", "aria-hidden": "true" }, art(CARD_ART.leader, "ballot-face", 32)),
      h("span", { class: "ballot-text" }, `${ctx.name(s)}: ${v === null ? "Leader" : cap(v)}`));
    })),
    h("p", {}, `${passes} Pass, ${fails} Fail.`),
    last.table ? h("p", { class: "help" }, `Voted on: ${OUTCOMES.map((o, i) => `${outcomeName(o)} ${last.table[i]}`).join(", ")}`) : h("p", { class: "help" }, "The round was written off: the planets voted on stay hidden."));
}

// ------------------------------------------------------------------ advance
function advancePanel(ctx) {
  const view = ctx.view;
  if (view.phase !== "advance") return null;
  const mine = ctx.legal.length > 0;
  const you = view.you;
  const body = [];
  if (mine && you) {
    const seat = ctx.seat;
    const cost = view.track_costs[view.positions[seat] - 1];
    body.push(h("div", { class: "secret", id: "council-my-points" },
      h("p", {}, h("strong", {}, "Your secret points for this table: "), String(you.points),
        you.points_with_intrigue !== null && you.points_with_intrigue !== undefined ? ` (with your ${outcomeName(you.intrigue)} Intrigue card: ${you.points_with_intrigue})` : ""),
      h("p", {}, cost === undefined ? "You are on the last space: you can only get paid." : `The next space costs ${cost}; your Bank holds ${plural(view.banks[seat], "coin")}.`),
      h("p", { class: "help" }, "Only your choice and the coins you pay are announced, never your points.")));
    const plain = ctx.legal.filter((t) => !t.endsWith("+intrigue"));
    const withCard = ctx.legal.filter((t) => t.endsWith("+intrigue"));
    body.push(h("div", { class: "actions", id: "council-advance" }, plain.map((t) => actionButton(ctx, t, describeAdvance(t)))));
    if (withCard.length) {
      body.push(h("h3", {}, `Play your Intrigue card (${outcomeName(you.intrigue)}) with it`),
        h("p", { class: "help" }, INTRIGUE_TEXT[you.intrigue] || ""),
        h("div", { class: "actions", id: "council-advance-intrigue" }, withCard.map((t) => actionButton(ctx, t, describeAdvance(t)))));
    }
  } else {
    body.push(h("p", {}, `${ctx.name(view.turn)} is choosing how to advance.`));
  }
  const round = view.negotiation_round;
  const done = (view.advances || []).filter((a) => a.round === round);
  if (done.length) body.push(h("h3", {}, "Announced this round"), h("ul", { id: "council-advances" }, done.map((a) => h("li", {}, advanceLine(a, ctx)))));
  return h("section", { class: `panel${mine ? " ask" : ""}`, id: "your-move", tabindex: "-1", "aria-labelledby": "your-move-title" },
    h("h2", { id: "your-move-title" }, mine ? "Your move: advance" : "Advance"), body);
}

function describeAdvance(text) {
  const base = text.replace(/ \+intrigue$/, "");
  if (base === "natural") return "Advance naturally (my points pay)";
  if (base === "get paid") return "Get paid (take 1 coin)";
  const m = /^pay (\d+)$/.exec(base);
  if (m) return `Advance, paying ${plural(Number(m[1]), "coin")}`;
  return text;
}

function advanceLine(a, ctx) {
  const card = a.intrigue ? `, playing the ${outcomeName(a.intrigue)} Intrigue card` : "";
  if (a.choice === "natural") return `${ctx.name(a.seat)} advanced naturally to space ${a.from + 1}${card}.`;
  if (a.choice === "pay") return `${ctx.name(a.seat)} paid ${plural(a.coins, "coin")} to reach space ${a.from + 1}${card}.`;
  return `${ctx.name(a.seat)} got paid ${plural(a.collected, "coin")}${card}.`;
}

// ------------------------------------------------------------------ deduction
function deductionPanel(ctx) {
  const view = ctx.view;
  if (view.phase !== "deduce") return null;
  const number = view.deduction_round;
  const mine = ctx.legal.some((t) => t.startsWith("guess "));
  const n = view.positions.length;
  const body = [h("p", {}, DEDUCTION_TEXT[number] || "")];
  if (mine) {
    const seat = ctx.seat;
    const targets = { left: (seat + 1) % n, right: (seat - 1 + n) % n };
    for (const dir of ["left", "right"]) {
      const options = COLOURS.filter((c) => ctx.legal.includes(`guess ${c} ${dir}`));
      if (!options.length) continue;
      body.push(h("fieldset", { class: "guess", dataset: { direction: dir } },
        h("legend", {}, `Point a colour at ${ctx.label(targets[dir])} (your ${dir} neighbour)`),
        h("div", { class: "actions" }, options.map((c) => actionButton(ctx, `guess ${c} ${dir}`,
          [art(PLANET_ART[c], "goal-planet", 22), cap(c)])))));
    }
    body.push(h("p", { class: "help" }, "Your card stays secret until everyone has chosen; then only you and your target see its colour, everyone sees right or wrong."));
  } else if (ctx.seat !== null && ctx.committed.includes(ctx.seat)) {
    body.push(h("p", {}, "You have chosen your card. Waiting for the others."));
  }
  body.push(h("ul", { class: "chosen-list", id: "council-guessers", "aria-label": "Who has chosen" }, [...Array(n).keys()].map((s) => h("li", {
    class: "badge", dataset: { seat: String(s), chosen: String(ctx.committed.includes(s)) },
  }, `${ctx.name(s)}: ${ctx.committed.includes(s) ? "✓ has chosen" : "… choosing"}`))));
  return h("section", { class: `panel${mine ? " ask" : ""}`, id: "your-move", tabindex: "-1", "aria-labelledby": "your-move-title" },
    h("h2", { id: "your-move-title" }, mine ? `Your move: Deduction ${number}` : `Deduction Round ${number}`), body);
}

function deductionResults(ctx) {
  const rounds = ctx.view.deductions || [];
  if (!rounds.length) return null;
  return h("section", { class: "panel", "aria-labelledby": "council-ded-title" },
    h("h2", { id: "council-ded-title" }, "Deduction results"),
    h("div", { class: "scroll-x" }, h("table", { class: "grid", id: "council-deductions" },
      h("thead", {}, h("tr", {}, h("th", {}, "Round"), h("th", {}, "Guesser"), h("th", {}, "Target"), h("th", {}, "Colour"), h("th", {}, "Result"), h("th", {}, "Coins to"))),
      h("tbody", {}, rounds.flat().map((r) => h("tr", {},
        h("td", {}, String(r.deduction)), h("td", {}, ctx.name(r.guesser)), h("td", {}, ctx.name(r.target)),
        h("td", {}, r.colour ? cap(r.colour) : "hidden"), h("td", {}, r.correct ? "right" : "wrong"),
        h("td", {}, `${ctx.name(r.paid)} (${r.coins})`)))))));
}

// ------------------------------------------------------------------ seats, private cards, history
function seatsPanel(ctx) {
  const view = ctx.view;
  const n = view.positions.length;
  const end = view.track_costs.length + 1;
  const played = new Map((view.intrigue_discards || []).map((d) => [d.seat, d]));
  return h("section", { class: "panel", "aria-labelledby": "council-seats-title" },
    h("h2", { id: "council-seats-title" }, `Round ${Math.min(view.round, view.round_order.length)} of ${view.round_order.length} (${{ N: "Negotiation", D: "Deduction", P: "Pay-Out" }[view.round_kind] || ""})`),
    h("ol", { class: "round-track", "aria-label": "Round Track" }, [...view.round_order].map((k, i) => h("li", {
      class: `${i + 1 === view.round ? "now" : ""} ${i + 1 < view.round ? "past" : ""}`, title: { N: "Negotiation", D: "Deduction", P: "Pay-Out" }[k],
    }, k))),
    view.phase === "negotiate" || view.phase === "vote" ? h("p", {}, `Leader: ${ctx.label(view.leader)}, Proposal ${view.proposal} of 3. Bribe Space: ${plural(view.bribe_space, "coin")}.`) : null,
    h("div", { class: "scroll-x" }, h("table", { class: "grid", id: "council-seats" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", { class: "num" }, "Space"), h("th", { class: "num" }, "Next cost"), h("th", { class: "num" }, "Bank"), h("th", {}, "Notes"))),
      h("tbody", {}, [...Array(n).keys()].map((s) => {
        const notes = [];
        if (s === view.leader && view.phase !== "over") notes.push(h("span", { class: "badge turn leader-badge" }, art(CARD_ART.leader, "token-art", 16), "Leader"));
        if (view.pending[s]) notes.push(h("span", { class: "badge" }, `${view.pending[s]} pending`));
        if (view.offers.includes(s)) notes.push(h("span", { class: "badge" }, "offers 1 coin"));
        if (view.accepted_from === s) notes.push(h("span", { class: "badge" }, "bribe accepted"));
        if (played.has(s)) notes.push(h("span", { class: "badge" }, `played ${outcomeName(played.get(s).kind)} Intrigue`));
        const climb = motionOf(`climb:${s}`);
        const bank = motionOf(`bank:${s}`);
        return h("tr", { class: `${s === ctx.seat ? "me" : ""}${climb ? " climbed" : ""}`, dataset: { seat: String(s) }, style: climb ? motionStyle(climb) : null },
          h("td", {}, ctx.label(s)),
          h("td", { class: "num space" }, h("span", { class: "track" }, h("span", { class: "track-fill", style: `width:${Math.round((view.positions[s] / end) * 100)}%${climb ? `;--from:${climb.data.ratio}` : ""}` })), ` ${view.positions[s]}/${end}`),
          h("td", { class: "num" }, view.positions[s] < end ? String(view.track_costs[view.positions[s] - 1]) : "—"),
          h("td", { class: `num bank${bank ? (bank.data.up ? " bank-up" : " bank-down") : ""}`, style: bank ? motionStyle(bank) : null }, art(CARD_ART.coin, "coin-art", 16), String(view.banks[s])),
          h("td", {}, notes));
      })))));
}

function privatePanel(ctx) {
  const you = ctx.view.you;
  if (!you) return null;
  const goals = you.agenda.goals;
  return h("section", { class: "panel secret-panel", id: "council-private", "aria-labelledby": "council-private-title" },
    h("h2", { id: "council-private-title" }, "Your secret cards (only you see these)"),
    h("div", { class: "secret-cards" },
      h("div", { class: "agenda game-card", dataset: { agenda: you.agenda.id } },
        h("div", { class: "card-head" }, art(CARD_ART.agenda, "card-art", 36), h("h3", {}, "Your Agenda")),
        h("ul", { class: "agenda-goals" }, OUTCOMES.map((o) => h("li", {},
          art(PLANET_ART[goals[o]] || PLANET_ART.back, "goal-planet", 22),
          h("span", { class: "goal-words" }, `${cap(goals[o])} → ${outcomeName(o)}`),
          art(OUTCOME_ART[o], "goal-outcome", 18))))),
      h("div", { class: `intrigue game-card${you.intrigue_played ? " played" : ""}` },
        h("div", { class: "card-head" }, art(CARD_ART.intrigue, "card-art", 36),
          h("h3", {}, `Intrigue card: ${outcomeName(you.intrigue)}${you.intrigue_played ? " (played)" : ""}`)),
        h("p", { class: "help" }, art(OUTCOME_ART[you.intrigue] || OUTCOME_ART.black_hole, "goal-outcome", 18), INTRIGUE_TEXT[you.intrigue] || ""))),
    you.points !== null && you.points !== undefined
      ? h("p", {}, h("strong", {}, "Your points for the table now: "), String(you.points),
        you.points_with_intrigue !== null && you.points_with_intrigue !== undefined ? ` (${you.points_with_intrigue} with your Intrigue card)` : "")
      : null);
}

function historyPanel(ctx) {
  const history = ctx.view.history || [];
  const fresh = motionOf(`history:${history.length}`);
  return h("section", { class: "panel", "aria-labelledby": "council-history-title" },
    h("h2", { id: "council-history-title" }, "Planet History"),
    history.length ? h("ol", { class: "history", id: "council-history" }, history.map((set, k) => h("li", {
      dataset: { round: String(set.round), writtenOff: String(set.written_off) },
      class: k === history.length - 1 && fresh ? "hist-new" : null, style: k === history.length - 1 && fresh ? motionStyle(fresh) : null,
    },
      h("strong", {}, `Round ${set.round}: `),
      set.written_off
        ? h("span", { class: "muted" }, "written off: five face-down cards (no Advance, no Pay-Out)")
        : h("span", { class: "history-set" }, OUTCOMES.map((o) => h("span", { class: "hist-planet", title: `${outcomeName(o)}: ${planetLabel(set.planets[o])}` },
          planetCard(set.planets[o], { mark: matchesMine(ctx, o, set.planets[o]) }), h("span", { class: "outcome-name" }, outcomeName(o)))))))) : h("p", { class: "muted" }, "No round finished yet."),
    history.length ? h("p", { class: "help" }, "At the Pay-Out each history planet with a coin symbol that matches your Agenda pays its coins.") : null);
}

// ------------------------------------------------------------------ chat
// One thread: the server's chat lines (`{id, seat, text, ts, ply}`) and the engine's `say` talk (the
// bots' one-line answers, a terminal player's chat), in table order: a line said at ply p comes after
// the events of ply p.
function mergeChat(lines, exact = false) {
  if (exact) { // a replay: the chat as it stood at that move, lines said later go (a step back)
    const kept = new Set((lines || []).map((line) => `c${line.id}`));
    for (const key of [...chat.keys()]) if (key.startsWith("c") && !kept.has(key)) chat.delete(key);
  }
  for (const line of lines || []) {
    if (line && line.id !== undefined) chat.set(`c${line.id}`, { ...line, key: `c${line.id}`, order: [line.ply || 0, 1, line.id] });
  }
}

let talkMerged = false; // engine lines in the first picture have no time of their own; later ones get their arrival
let talkScanned = null; // the log (length and last ply) already looked through: a chat redraw skips the scan
function mergeTalk(ctx) {
  const log = ctx.log;
  const mark = `${log.length}:${log.length ? log[log.length - 1].ply : -1}`;
  if (mark === talkScanned) return;
  talkScanned = mark;
  const present = new Set();
  for (const e of log) {
    const rec = e.kind === "talk" && e.data ? e.data.talk : null;
    if (!rec || rec.kind !== "say") continue;
    const key = `t${e.ply}`; // one action per ply: one talk event per ply
    present.add(key);
    if (!chat.has(key)) {
      chat.set(key, { key, seat: rec.seat, text: String(rec.text || "").replace(/^say /, ""), ts: talkMerged ? serverNow() : null, ply: e.ply, order: [e.ply, 0, 0], engine: true });
    }
  }
  for (const [key, line] of chat) if (line.engine && !present.has(key)) chat.delete(key); // taken back by an undo
  talkMerged = true;
}

function chatOrder(a, b) {
  for (let i = 0; i < 3; i++) if (a.order[i] !== b.order[i]) return a.order[i] - b.order[i];
  return 0;
}

// The chat log is one long-lived list: new lines are appended (its scroll position and its live region
// survive the redraw of everything else on every state).
const chatLog = h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite", "aria-relevant": "additions", tabindex: "0", "aria-label": "Chat messages" });
const chatShown = new Set();
let chatLastShown = null;

function chatLine(l, ctx) {
  return h("li", { dataset: { seat: String(l.seat), id: l.key, source: l.engine ? "talk" : "chat" }, class: `${l.seat === ctx.seat ? "mine" : ""}${l.engine ? " engine" : ""}` },
    h("span", { class: "chat-time" }, l.ts ? new Date(l.ts * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : ""), " ",
    h("strong", {}, `${ctx.name(l.seat)}: `), h("span", { class: "chat-text" }, l.text));
}

function updateChatLog(ctx) {
  const all = [...chat.values()].sort(chatOrder).slice(-200);
  const fresh = all.filter((l) => !chatShown.has(l.key));
  const gone = [...chatShown].some((key) => !chat.has(key));
  if (!all.length) {
    if (!chatLog.children.length || gone) chatLog.replaceChildren(h("li", { class: "muted empty" }, "Nobody has said anything yet."));
    chatShown.clear();
    return;
  }
  if (!fresh.length && !gone) return;
  const atBottom = chatLog.scrollHeight - chatLog.scrollTop - chatLog.clientHeight < 30;
  if (gone || (chatLastShown && fresh.some((l) => chatOrder(l, chatLastShown) < 0))) {
    // Older lines arrived (the history asked for after the first picture) or a line was taken back:
    // lay the whole list out again.
    chatLog.replaceChildren(...all.map((l) => chatLine(l, ctx)));
    chatShown.clear();
    for (const l of all) chatShown.add(l.key);
  } else {
    for (const empty of chatLog.querySelectorAll("li.empty")) empty.remove();
    for (const l of fresh) {
      chatLog.append(chatLine(l, ctx));
      chatShown.add(l.key);
    }
    while (chatLog.children.length > 200) chatLog.firstElementChild.remove();
  }
  chatLastShown = all[all.length - 1];
  if (atBottom || fresh.length === all.length) requestAnimationFrame(() => { chatLog.scrollTop = chatLog.scrollHeight; });
}

// The chat form, like the log, lives across redraws: at a live table a state arrives with every
// player's action, and a box made anew each time would lose what is being typed (and a click on Send).
let chatCtx = null;
const chatInput = h("input", { type: "text", id: "chat-input", autocomplete: "off", dataset: { key: "chat-input" } });
const chatSend = h("button", { type: "submit", id: "chat-send", dataset: { key: "chat-send" } }, "Send");
const chatForm = h("form", {
  class: "chat-form", id: "chat-form", onsubmit: (event) => {
    event.preventDefault();
    const ctx = chatCtx;
    const text = chatInput.value.trim();
    if (!text || !ctx) return;
    if (ctx.send({ type: "chat", text })) {
      chatInput.value = "";
      ctx.showError("");
    } else ctx.showError("You are offline: the message was not sent.");
  },
}, h("label", { for: "chat-input", class: "visually-hidden" }, "Chat message"), chatInput, chatSend);

function chatPanel(ctx) {
  mergeChat(ctx.extra && ctx.extra.chat, Boolean(ctx.payload && ctx.payload.replay));
  mergeTalk(ctx);
  updateChatLog(ctx);
  chatCtx = ctx;
  const seated = ctx.seat !== null && ctx.seat !== undefined;
  const limit = String((ctx.extra && ctx.extra.chat_max_chars) || 200);
  if (chatInput.maxLength !== Number(limit)) chatInput.setAttribute("maxlength", limit);
  chatInput.disabled = !seated;
  chatSend.disabled = !seated;
  chatInput.placeholder = seated ? "Say something to the table" : "Take a seat to chat";
  return h("section", { class: "panel council-chat", "aria-labelledby": "council-chat-title" },
    h("h2", { id: "council-chat-title" }, "Table chat"),
    chatLog,
    chatForm,
    h("p", { class: "help" }, "Everyone at the table (and anyone watching) reads the chat; there are no private messages. Promises here bind nobody."));
}

// ------------------------------------------------------------------ announcements
function announce(ctx) {
  const view = ctx.view;
  const now = { proposalsMade: view.proposals_made, phase: view.phase, votes: (view.votes || []).length, deductions: (view.deductions || []).length };
  const before = lastState;
  lastState = now;
  if (!before) return;
  let text = null;
  if (now.votes > before.votes) {
    const last = view.votes[view.votes.length - 1];
    const passes = last.votes.filter((v) => v === "pass").length;
    text = `Votes revealed: ${passes} Pass, ${last.votes.filter((v) => v === "fail").length} Fail. Proposal ${last.proposal} ${last.approved ? "approved" : "failed"}.`;
  } else if (before.phase === "negotiate" && now.phase === "vote") {
    const ends = ctx.log.filter((e) => ["deadline", "call_vote", "negotiation_over"].includes(e.kind));
    const last = ends.length ? ends[ends.length - 1].kind : null;
    if (last === "deadline") text = "The sand timer has run out: the Vote has begun.";
    else if (last === "call_vote") text = "The Leader has called the Vote: the Vote has begun.";
    else text = "The Vote has begun.";
  } else if (now.deductions > before.deductions) {
    text = `Deduction ${now.deductions} revealed.`;
  } else if (now.proposalsMade !== before.proposalsMade && now.phase === "negotiate") {
    text = `Proposal ${view.proposal}: ${ctx.name(view.leader)} leads the negotiation.`;
  }
  if (!text && view.phase === "negotiate" && isLeader(ctx) && offersSeen && offersSeen.proposal === view.proposals_made) {
    const fresh = view.offers.filter((s) => !offersSeen.offers.includes(s));
    if (fresh.length) text = `${fresh.map(ctx.name).join(" and ")} offer${fresh.length > 1 ? "" : "s"} you 1 coin.`;
  }
  offersSeen = { proposal: view.proposals_made, offers: [...view.offers] };
  if (text) announcer.textContent = text;
}

// ------------------------------------------------------------------ the renderer
function render(ctx) {
  const clock = ctx.payload.clock;
  if (ctx.payload !== offsetFrom) {
    // Measured once per payload, when it arrives: a redraw for a chat line must not measure it again.
    offsetFrom = ctx.payload;
    if (clock && clock.now) clockOffset = clock.now - Date.now() / 1000;
  }
  if (!chatHistoryAsked && ctx.send({ type: "chat_history" })) chatHistoryAsked = true;
  announce(ctx);
  noticeSwaps(ctx);
  notePlanetMoves(ctx);
  noteScores(ctx);
  syncTimer(ctx);
  const view = ctx.view;
  const out = [announcer];
  if (view.phase === "over") {
    out.push(historyPanel(ctx), deductionResults(ctx), seatsPanel(ctx), chatPanel(ctx));
    return out;
  }
  // The stage: the table and where everyone stands beside the move panel and the chat (one column on
  // a phone, the move panel right above the chat box).
  out.push(h("div", { class: "council-stage", dataset: { phase: view.phase } },
    h("div", { class: "stage-main" }, planetsPanel(ctx), standsPanel(ctx), privatePanel(ctx)),
    h("div", { class: "stage-side" }, negotiationPanel(ctx), votePanel(ctx), advancePanel(ctx), deductionPanel(ctx), chatPanel(ctx), moreTalkPanel(ctx))),
  lastVotePanel(ctx), talkPanel(ctx), seatsPanel(ctx), historyPanel(ctx), deductionResults(ctx));
  setTimeout(tickTimer, 0);
  return out;
}

function prompt(ctx) {
  const view = ctx.view;
  if (view.phase === "negotiate") return isLeader(ctx) ? "you are the Leader: arrange the planets, bribe, and call the Vote." : "negotiate: suggest, pledge, offer a bribe or chat.";
  if (view.phase === "vote") return "vote Pass or Fail in secret.";
  if (view.phase === "advance") return "advance naturally, pay coins, or get paid.";
  if (view.phase === "deduce") return `Deduction ${view.deduction_round}: point a colour at a neighbour.`;
  return "choose a move";
}

function result(ctx) {
  const view = ctx.view;
  if (!view.agendas) return null;
  const n = view.positions.length;
  return h("div", { class: "council-result" },
    h("h3", {}, "Pay-Out"),
    h("div", { class: "scroll-x" }, h("table", { class: "grid", id: "council-payout" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Agenda"), h("th", { class: "num" }, "Pay-Out coins"), h("th", { class: "num" }, "Final climb"), h("th", { class: "num" }, "Space"), h("th", { class: "num" }, "Coins left"))),
      h("tbody", {}, [...Array(n).keys()].map((s) => h("tr", { dataset: { seat: String(s) } },
        h("td", {}, ctx.label(s)),
        h("td", {}, `${view.agendas[s].id}: ${OUTCOMES.map((o) => `${cap(view.agendas[s].goals[o])}→${outcomeName(o)}`).join(", ")}`),
        h("td", { class: "num" }, String(view.payout[s])),
        h("td", { class: "num" }, `+${view.final_moves[s]}`),
        h("td", { class: "num" }, String(view.positions[s])),
        h("td", { class: "num" }, String(view.banks[s]))))))),
    h("p", { class: "help" }, "Furthest on the Influence Track wins; a tie goes to more coins; still tied, the players share the win."));
}

function onMessage(message, ctx) {
  if (message.type === "chat") {
    mergeChat([message]);
    ctx.redraw();
  } else if (message.type === "chat_history") {
    mergeChat(message.messages);
    ctx.redraw();
  }
}

// The table's talk is in the chat (and the Leader's swaps light the planets): the shell's "Just now" box
// leaves them out and shows the rest (votes, advances, deductions, bribes).
const quietKinds = ["talk", "arrangement", "offer"];

export default { render, prompt, result, onMessage, stylesheet: "council", scoreLabel: "Space", quietKinds };
