// Pieces shared by the game renderers: the legal-move panel and readable key/value views.

import { h } from "../js/dom.js";

const SKIP = new Set(["game", "players", "seat", "ply", "to_move", "terminal", "outcome", "committed"]);
// What is the viewer's own (secret agenda, hand, ...) is shown unfolded.
const OPEN = new Set(["you", "hand", "my_choice", "objectives"]);

/** "draw_size" -> "draw size". */
export function label(key) {
  return String(key).replaceAll("_", " ");
}

function scalar(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

/** A readable rendering of any JSON value: nested lists become lists, objects become definition lists. */
export function readable(value, depth = 0) {
  if (value === null || typeof value !== "object") return scalar(value);
  if (Array.isArray(value)) {
    if (!value.length) return "none";
    if (value.every((v) => v === null || typeof v !== "object")) return value.map(scalar).join(", ");
    if (depth >= 3) return h("pre", {}, JSON.stringify(value));
    return h("ol", { start: "0" }, value.map((v) => h("li", {}, readable(v, depth + 1))));
  }
  const entries = Object.entries(value);
  if (!entries.length) return "none";
  if (depth >= 3) return h("pre", {}, JSON.stringify(value));
  return h("dl", { class: "facts" }, entries.map(([k, v]) => [h("dt", {}, label(k)), h("dd", {}, readable(v, depth + 1))]));
}

/** The whole view as key/values, one collapsible entry for each long part. */
export function viewFacts(view) {
  const rows = [];
  // The viewer's own part first, then the rest in the game's order.
  const entries = Object.entries(view || {});
  entries.sort(([a], [b]) => Number(OPEN.has(b)) - Number(OPEN.has(a)));
  for (const [key, value] of entries) {
    if (SKIP.has(key)) continue;
    const long = value !== null && typeof value === "object" && JSON.stringify(value).length > 160;
    const content = readable(value);
    rows.push(long
      ? h("details", { class: "kv", open: OPEN.has(key) }, h("summary", {}, label(key)), content)
      : h("div", { class: "kv" }, h("strong", {}, `${label(key)}: `), content));
  }
  return rows;
}

/**
 * Buttons for the legal moves (and only those), grouped by their first word, with a filter box
 * when there are many. `describe(text)` may give a longer button label; `bare` leaves out the panel.
 */
export function legalButtons(ctx, { describe, title = "Your moves", bare = false } = {}) {
  if (!ctx.legal.length) return null;
  const groups = new Map();
  for (const text of ctx.legal) {
    const verb = text.split(/\s+/)[0];
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb).push(text);
  }
  const buttons = [];
  const body = [...groups].map(([verb, texts]) => h("div", { class: "actions-group" },
    groups.size > 1 ? h("h3", {}, label(verb)) : null,
    h("div", { class: "actions" }, texts.map((text) => {
      const button = h("button", {
        type: "button", class: "action", disabled: ctx.busy, dataset: { action: text, key: `act:${text}` },
        onclick: () => ctx.act(text),
      }, describe ? describe(text) : text);
      buttons.push(button);
      return button;
    }))));
  let filter = null;
  if (ctx.legal.length > 24) {
    filter = h("input", {
      type: "search", class: "filter", placeholder: "Filter the moves", "aria-label": "Filter the moves",
      dataset: { key: "filter", keep: "" },
    });
    filter.addEventListener("input", () => {
      const words = filter.value.toLowerCase().trim();
      for (const b of buttons) b.hidden = words !== "" && !b.dataset.action.toLowerCase().includes(words);
    });
  }
  if (bare) return [filter, body]; // inside a renderer's own move panel
  return h("section", { class: "panel ask", id: "your-move", tabindex: "-1", "aria-labelledby": "your-move-title" },
    h("h2", { id: "your-move-title" }, title), filter, body);
}

// ------------------------------------------------------------------ motion that outlives redraws
// A page is redrawn on every state, chat line and timer tick. A motion started once (a coin dropping, a
// planet sliding) must go on where it was: each redraw makes the element again with the same class and a
// negative delay (`--t`), taken from when the motion started. `motions()` keeps one renderer's motions.
export function motions() {
  const running = new Map(); // key -> {since, ms, data}
  return {
    /** Start (or restart) the motion `key`, lasting `ms`; `data` rides along for whoever draws it. */
    start(key, ms, data = null) {
      running.set(key, { since: Date.now(), ms, data });
    },
    /** `{elapsed, data}` while `key` plays, `null` once it is over (or never started). */
    of(key) {
      const m = running.get(key);
      if (!m) return null;
      const elapsed = Date.now() - m.since;
      if (elapsed >= m.ms) {
        running.delete(key);
        return null;
      }
      return { elapsed, data: m.data };
    },
  };
}

/** The style that resumes a motion `elapsed` ms in (`i`: its place in a staggered row). */
export function motionStyle(m, i = 0, extra = "") {
  return `--t:-${Math.round(m.elapsed)}ms;--i:${i};${extra}`;
}
