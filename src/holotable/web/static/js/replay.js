// The replay controls of the table page (`/t/<id>?replay=<ply>`): step through a game's stored moves as a
// seat saw them, and a move list to jump with. The server decides what may be seen (your own seat while
// the game runs; any seat once it is over), so this only asks for a ply and a seat.

import { h } from "./dom.js";

/** The replay bar: first / back / next / last, a slider, the seat whose view it is, and the way back. */
export function replayBar({ ply, last, full, seat, players, name, go, tableLink }) {
  const button = (label, to, id, aria) => h("button", {
    type: "button", id, class: "small", disabled: to < 0 || to > last || to === ply, "aria-label": aria,
    onclick: () => go(to, seat),
  }, label);
  const slider = h("input", {
    type: "range", id: "replay-slider", min: "0", max: String(last), value: String(ply), "aria-label": "Move",
    onchange: (e) => go(Number(e.target.value), seat),
  });
  const seats = full && players > 1 ? h("label", { class: "inline" }, "Seen by ",
    h("select", { id: "replay-seat", onchange: (e) => go(ply, e.target.value === "" ? null : Number(e.target.value)) },
      h("option", { value: "", selected: seat === null || seat === undefined }, "your own seat (or the open table)"),
      [...Array(players).keys()].map((s) => h("option", { value: String(s), selected: s === seat }, name(s))))) : null;
  return [
    h("p", { class: "replay-where", id: "replay-where", "aria-live": "polite" },
      `Replay: after move ${ply} of ${last}`, full ? "" : " (the game goes on: you see what your seat saw)"),
    h("div", { class: "actions replay-buttons" },
      button("« Start", 0, "replay-first", "To the start"),
      button("◀ Back", ply - 1, "replay-back", "One move back"),
      button("Next ▶", ply + 1, "replay-next", "One move on"),
      button("End »", last, "replay-last", "To the last move"),
      slider),
    h("p", { class: "actions" }, seats, h("a", { class: "button small", href: tableLink, id: "replay-exit" },
      full ? "Back to the table" : "Back to the game")),
  ];
}

/** The move list: every ply of the whole game (as far as it went) that the seat saw something of, a
 *  button each; the shown ply is marked. */
export function moveList({ events, ply, go, seat, text }) {
  const byPly = new Map();
  for (const e of events) {
    if (!byPly.has(e.ply)) byPly.set(e.ply, []);
    byPly.get(e.ply).push(e);
  }
  const items = [...byPly.keys()].sort((a, b) => a - b).map((p) => h("li", { class: p === ply ? "now" : "", dataset: { ply: String(p) } },
    h("button", { type: "button", class: "link", "aria-current": p === ply ? "step" : null, onclick: () => go(p, seat) },
      h("span", { class: "ply" }, `#${p}`), byPly.get(p).map(text).join(" · "))));
  return h("ol", { class: "log move-list", id: "move-list", "aria-label": "Moves: press one to see the table after it" }, items);
}
