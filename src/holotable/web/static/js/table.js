// The table page shell: seat token, WebSocket with reconnect, status, clock, log, rules, result,
// and a per-game renderer module (games/<name>.js, or the generic one) for the board and the moves.

import { ApiError, getJSON, inviteUrl, loadInvite, loadName, loadToken, postJSON, saveInvite, saveName, saveToken, startTutorial, tableUrl } from "./api.js";
import { fill, h, redraw, seatName } from "./dom.js";
import { moveList, replayBar } from "./replay.js";
import { rulesFor } from "./rules.js";

const IMPORTANT = new Set(["round_start", "round_end", "parrots", "chests", "game_end", "score_step", "selection_end", "reveal", "pass"]);
// The headlines among them: when the "Just now" box has too many lines, these are the last to go.
const HEADLINES = new Set(["round_end", "game_end", "selection_end"]);
const $ = (id) => document.getElementById(id);

const page = {
  tableId: null,
  token: null,
  invite: null,
  summary: null,
  title: null,
  renderer: null,
  payload: null,
  events: new Map(), // ply -> events of that ply (a ply's events are complete once it is sent)
  socket: null,
  retry: 0,
  busy: false,
  finishedShown: false,
  plain: false,
  logScrolled: false,
  clockOffset: 0,
  undoPressed: false, // the Undo button was pressed: the focus goes to the move panel once the table is back
  offline: false, // the socket was lost and the page is reconnecting: nothing can be sent meanwhile
  errorKind: null, // what the message on show is about: "connection" ones go once the page is back online
  gameInfo: null, // this game's entry of GET /api/games (its title, renderer, whether it has a tutorial)
  lesson: null, // the tutorial lesson on show (an index into the reached ones); null: the newest
  lessonsSeen: 0, // how many lessons this page has been sent: new ones are shown from the first new one
  replay: null, // replay mode (`?replay=<ply>`): {ply, last, full, seat, moves}; no socket, no moves to make
};

function tableIdFromUrl() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "t" && parts[1]) return decodeURIComponent(parts[1]);
  return new URLSearchParams(location.search).get("table");
}

// Refusals and connection trouble show in a box pinned to the bottom of the screen (holotable.css), so
// they are seen wherever the player has scrolled: by the hand, the map or the chat.
function showError(message, kind = "move") {
  const box = $("table-error");
  page.errorKind = message ? kind : null;
  if (!message) {
    fill(box);
    box.hidden = true;
    return;
  }
  fill(box, h("span", { class: "error-text" }, message),
    h("button", { type: "button", class: "dismiss", "aria-label": "Dismiss this message", onclick: () => showError("") }, "×"));
  box.hidden = false;
}

// Lost and found: while the socket is down the moves are greyed out and cannot be pressed (`inert`), the
// banner says so, and a message about the lost connection goes once it is back.
function setOffline(offline) {
  if (page.offline === offline) return;
  page.offline = offline;
  document.body.classList.toggle("offline", offline);
  for (const id of ["game-area", "undo-area"]) $(id).inert = offline;
  if (!offline && page.errorKind === "connection") showError("");
  if (page.payload && page.renderer) draw();
}

function setConnection(text, cls = "") {
  const badge = $("connection");
  badge.textContent = text;
  badge.className = `badge ${cls}`;
}

// ------------------------------------------------------------------ joining
async function claimSeat() {
  const params = new URLSearchParams(location.search);
  const invite = params.get("invite");
  if (invite) {
    page.invite = invite;
    saveInvite(page.tableId, invite);
  } else {
    page.invite = loadInvite(page.tableId);
  }
  page.token = loadToken(page.tableId);
  if (!page.token && invite) {
    try {
      const name = loadName();
      const seat = await postJSON(`/api/tables/${encodeURIComponent(page.tableId)}/join`, name ? { invite, name } : { invite });
      page.token = seat.token;
      saveToken(page.tableId, seat.token);
    } catch (err) {
      const why = err instanceof ApiError ? err.detail : String(err);
      showError(`Could not take a seat (${why}). You are watching the table.`);
    }
  }
  if (invite) history.replaceState(null, "", tableUrl(page.tableId) + (page.plain ? "?page=plain" : ""));
}

// ------------------------------------------------------------------ connection
function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const since = page.payload ? page.payload.ply : 0;
  const token = encodeURIComponent(page.token || "");
  return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(page.tableId)}?token=${token}&since=${since}`;
}

function connect() {
  setConnection(page.retry ? "reconnecting…" : "connecting…");
  const socket = new WebSocket(socketUrl());
  page.socket = socket;
  socket.addEventListener("open", () => {
    const again = page.retry > 0;
    page.retry = 0;
    setConnection("live", "running");
    setOffline(false);
    if (again) loadState(); // after a restart or a network gap: the whole picture, not just what is pushed
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "state") onState(message);
    else if (message.type === "error" && message.about === "undo") onUndoRefused(message.detail || "refused");
    else if (message.type === "error") onRefused(message.detail || "refused");
    // Anything else (Council's chat, ...) is for the game's renderer.
    else if (page.renderer && page.renderer.onMessage) page.renderer.onMessage(message, context());
  });
  socket.addEventListener("close", (event) => {
    if (page.socket !== socket) return;
    page.socket = null;
    page.busy = false;
    if (event.code === 4404) {
      setConnection("closed", "finished");
      showError("This table no longer exists on the server.");
      return;
    }
    if (event.code === 4403 && page.token) {
      // The server does not know this seat token (another database?): carry on watching.
      page.token = null;
      showError("This browser's seat at the table is not recognised; you are watching.");
    }
    setConnection("offline: reconnecting…", "finished");
    setOffline(true);
    page.retry += 1;
    const wait = Math.min(3000, 300 * 2 ** Math.min(page.retry, 4));
    setTimeout(connect, wait);
  });
}

function onRefused(detail) {
  page.busy = false;
  showError(`That move was refused: ${detail}`);
  draw();
}

function onUndoRefused(detail) {
  page.busy = false;
  page.undoPressed = false;
  showError(`Could not undo: ${detail}`);
  draw();
}

// Take back this seat's last move (the server decides by the undo policy; the state says whether it may).
function undoLast() {
  const p = page.payload;
  if (page.busy || !p || !p.undo || !p.undo.allowed) return;
  page.undoPressed = true;
  request("undo", {}, onUndoRefused);
}

function act(text) {
  if (page.busy || !page.payload) return;
  request("action", { action: text }, onRefused);
}

// Send this seat's request for the current ply: over the WebSocket when it is open (the new state comes
// back on it), else over HTTP (`/actions` for an action, `/undo` for an undo); a refusal goes to `refused`.
async function request(type, body, refused) {
  if (page.offline) {
    showError("Not sent: the connection to the server is lost. The page is reconnecting; try again once it is back.", "connection");
    return;
  }
  page.busy = true;
  showError("");
  draw();
  const ply = page.payload.ply;
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify({ type, ...body, ply }));
    return;
  }
  const route = type === "action" ? "actions" : type;
  try {
    onState(await postJSON(`/api/tables/${encodeURIComponent(page.tableId)}/${route}`, { ...body, ply }, page.token));
  } catch (err) {
    if (err instanceof ApiError && err.status === 0) {
      page.busy = false;
      showError(`Not sent: ${err.detail}. Check the connection and try again.`, "connection");
      draw();
      return;
    }
    refused(err instanceof ApiError ? err.detail : String(err));
  }
}

// ------------------------------------------------------------------ state
function mergeLog(events) {
  const byPly = new Map();
  for (const event of events || []) {
    if (!byPly.has(event.ply)) byPly.set(event.ply, []);
    byPly.get(event.ply).push(event);
  }
  for (const [ply, list] of byPly) page.events.set(ply, list);
}

function allEvents() {
  return [...page.events.keys()].sort((a, b) => a - b).flatMap((ply) => page.events.get(ply));
}

function onState(state) {
  const previous = page.payload;
  const wentBack = Boolean(previous) && (state.undos || 0) > (previous.undos || 0);
  if (previous && (state.undos || 0) < (previous.undos || 0)) return; // a picture from before an undo
  if (previous && !wentBack && state.ply < previous.ply && state.status !== "finished") {
    // An older picture (a late message): keep the newer one.
    return;
  }
  if (wentBack) {
    // An action was taken back: the log of the plies after it is gone. The server pushes the whole log
    // then; a fresh state completes one that holds only part of it (a reconnection after the undo).
    page.events = new Map();
    loadState();
  }
  if (previous && !wentBack && !page.replay) showHappened(state, previous.ply);
  page.payload = state;
  page.busy = false;
  // The server's clock, so a countdown does not depend on this computer's time being right.
  page.clockOffset = state.clock && state.clock.now ? state.clock.now - Date.now() / 1000 : 0;
  if (state.seats && page.summary) {
    page.summary = { ...page.summary, seats: state.seats, ...(state.presence ? { presence: state.presence } : {}) };
  }
  mergeLog(state.log);
  draw();
  if (wentBack && page.undoPressed) {
    page.undoPressed = false;
    focusAfterUndo();
  }
}

// After an undo the pressed button may be gone or off: the keyboard goes on from the move panel.
function focusAfterUndo() {
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected && !active.disabled) return;
  const target = document.querySelector("#your-move button:not([disabled]), #your-move input, #your-move select")
    || (!$("undo-button").disabled ? $("undo-button") : null);
  if (target) target.focus();
}

// ------------------------------------------------------------------ drawing
function names(seat) {
  // In a replay the view may be another seat's (a finished game): "you" is still this browser's seat.
  const you = !page.payload ? null : page.payload.replay ? page.payload.replay.viewer : page.payload.seat;
  return seatName(seat, you);
}

function seatInfo(seat) {
  return page.summary && page.summary.seats ? page.summary.seats.find((s) => s.seat === seat) : null;
}

function seatLabel(seat) {
  const info = seatInfo(seat);
  const base = names(seat);
  if (!info) return base;
  if (info.kind === "bot") return `${base}: bot${info.level ? ` (${info.level})` : ""}`;
  return `${base}${info.name ? `: ${info.name}` : ""}${info.claimed === false ? " (free seat)" : ""}`;
}

/** Send a message other than an action over the socket (the game's extension answers it); false when offline. */
function send(message) {
  if (!page.socket || page.socket.readyState !== WebSocket.OPEN) return false;
  page.socket.send(JSON.stringify(message));
  return true;
}

function context() {
  const p = page.payload;
  return {
    tableId: page.tableId,
    token: page.token,
    extra: p.extra || null,
    send,
    redraw: draw,
    showError,
    payload: p,
    view: p.view || {},
    seat: p.seat,
    legal: (p.legal || []).map((l) => (typeof l === "string" ? l : l.text)),
    busy: page.busy || Boolean(page.replay),
    committed: p.committed || [],
    toMove: p.to_move || [],
    log: allEvents(),
    act,
    name: names,
    label: seatLabel,
    players: p.view && typeof p.view.players === "number" ? p.view.players : (page.summary ? page.summary.players : 0),
  };
}

function banner(ctx) {
  const p = ctx.payload;
  if (page.replay) {
    const who = p.seat === null || p.seat === undefined ? "as the open table shows it" : `as ${names(p.seat)} saw it`;
    const end = p.outcome ? ` Game over. ${describeWinners(p.outcome)}` : "";
    return { text: `Replay: the table after move ${page.replay.ply} of ${page.replay.last}, ${who}.${end}`, cls: "replay" };
  }
  if (p.outcome) return { text: `Game over. ${describeWinners(p.outcome)}`, cls: "over" };
  if (page.offline) return { text: "Connection lost: reconnecting… Your moves cannot be sent until it is back.", cls: "offline" };
  if (p.status === "open" && page.summary && page.summary.seats.some((s) => s.kind === "human" && !s.claimed)) {
    return { text: "Waiting for players to take their seats.", cls: "" };
  }
  const mine = ctx.seat !== null && ctx.seat !== undefined && ctx.toMove.includes(ctx.seat) && ctx.legal.length > 0;
  if (mine) {
    const ask = page.renderer.prompt ? page.renderer.prompt(ctx) : "choose a move";
    return { text: `Your turn: ${ask}`, cls: "mine" };
  }
  if (ctx.seat !== null && ctx.committed.includes(ctx.seat)) {
    const rest = ctx.toMove.map(names).join(", ");
    return { text: `You have chosen. Waiting for ${rest || "the others"}.`, cls: "" };
  }
  if (!ctx.toMove.length) return { text: "Waiting…", cls: "" };
  const who = ctx.toMove.map(names).join(", ");
  const queued = ctx.toMove.filter((s) => (p.bots_queued || []).includes(s));
  if (queued.length) {
    // A slow bot is explained where the player looks: the server's bots are all busy elsewhere.
    return { text: `Waiting for ${who}. The server's bots are all busy, so ${queued.length === 1 ? "this bot waits" : "these bots wait"} in line to think.`, cls: "" };
  }
  return { text: `Waiting for ${who}.`, cls: "" };
}

function describeWinners(outcome) {
  const winners = outcome.winners || [];
  const you = page.payload.seat;
  const everyone = (outcome.scores || []).length;
  if (!winners.length) return you !== null && everyone === 1 ? "You did not win this time." : "Nobody wins.";
  if (winners.length > 1 && winners.length === everyone) return "A draw: every player shares the result.";
  if (you !== null && winners.includes(you)) return winners.length > 1 ? "You share the win!" : "You win!";
  if (winners.length === 1) return `${names(winners[0])} wins.`;
  return `${winners.map(names).join(" and ")} share the win.`;
}

function drawStatus(ctx) {
  const p = ctx.payload;
  $("game-title").textContent = page.title;
  document.title = `${!page.offline && ctx.seat !== null && ctx.toMove.includes(ctx.seat) && ctx.legal.length ? "Your turn · " : ""}${page.title} · holotable`;
  const you = page.replay ? ctx.payload.replay.viewer : ctx.seat;
  $("seat-badge").textContent = you === null || you === undefined ? "watching" : `you are seat ${you + 1}`;
  $("seat-badge").className = `badge ${ctx.seat === null || ctx.seat === undefined ? "" : "you"}`;
  $("status-badge").textContent = p.status;
  $("status-badge").className = `badge ${p.status}`;
  $("ply").textContent = `move ${p.ply}`;
  const b = banner(ctx);
  const el = $("turn-banner");
  if (el.textContent !== b.text) el.textContent = b.text; // unchanged text is not announced again
  el.className = `turn-banner ${b.cls}`;
  drawClock();
}

function drawSeeded(ctx) {
  const notice = $("seeded-notice");
  const seeded = ctx.payload.seeded;
  notice.hidden = !seeded;
  const text = seeded ? `${seeded.text} Whoever chose it can work out every hidden card and every draw to come.` : "";
  if (notice.textContent !== text) notice.textContent = text;
}

// The shared Undo button: on when the undo policy lets this seat take its last move back, otherwise off
// with the reason in words under it. Spectators (no `undo` in their state) and finished games have none.
function drawUndo(ctx) {
  const area = $("undo-area");
  const info = ctx.payload.undo;
  if (!info || ctx.payload.outcome || ctx.payload.status !== "running") {
    area.hidden = true;
    return;
  }
  area.hidden = false;
  const button = $("undo-button");
  const choosing = info.allowed && ctx.committed.includes(ctx.seat);
  button.disabled = !info.allowed || page.busy;
  const label = choosing ? "Change my choice" : "Undo my last move";
  if (button.textContent !== label) button.textContent = label;
  let why;
  if (!info.allowed) why = `Undo is not possible now: ${info.reason}.`;
  else if (choosing) why = `Takes back your choice, '${info.action}', so you can choose again: the others have not all chosen yet.`;
  else why = `Takes back your last move, '${info.action}'.`;
  if ($("undo-reason").textContent !== why) $("undo-reason").textContent = why;
  area.classList.toggle("allowed", Boolean(info.allowed));
}

function drawInvite(ctx) {
  const area = $("invite-area");
  const free = page.summary && page.summary.seats.some((s) => s.kind === "human" && !s.claimed);
  const invite = ctx.payload.invite || page.invite;
  if (!invite || !free || ctx.payload.outcome) {
    fill(area);
    return;
  }
  const link = inviteUrl(page.tableId, invite);
  fill(area, h("p", { class: "help" }, "Invite the other players with this link: ",
    h("input", { type: "text", readonly: true, value: link, "aria-label": "Invitation link", size: 40, id: "table-invite-link" })));
}

function fmtSeconds(s) {
  const total = Math.max(0, Math.round(s));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

function serverNow() {
  return Date.now() / 1000 + (page.clockOffset || 0);
}

// Seconds left on `seat`'s clock now: counting down for a seat to move, as last reported for the others.
function secondsLeft(clock, seat) {
  const moving = page.payload.to_move || [];
  if (clock.deadline_ts && moving.includes(seat)) return clock.deadline_ts - serverNow();
  const left = clock.remaining ? clock.remaining[String(seat)] : undefined;
  return left === undefined || left === null ? null : left;
}

function drawClock() {
  const el = $("clock");
  const p = page.payload;
  const clock = p && p.clock;
  if (!clock || p.outcome) {
    el.textContent = "";
    return;
  }
  const parts = [];
  let low = false;
  if (clock.mode !== "none" && clock.deadline_ts) {
    const left = clock.deadline_ts - serverNow();
    const who = (p.to_move || []).includes(p.seat) ? "you have" : "the player to move has";
    parts.push(clock.mode === "per_game"
      ? `Clock: ${who} ${fmtSeconds(left)} left for the game`
      : `Clock: ${fmtSeconds(left)} left for this move`);
    low = left < 10;
  }
  if (clock.period_deadline_ts) {
    // A timed phase of the game itself (Council's negotiation): it ends when the time is up.
    const left = clock.period_deadline_ts - serverNow();
    parts.push(`Time left in this phase: ${fmtSeconds(left)}`);
    low = low || left < 10;
  }
  el.textContent = parts.join(" · ");
  el.classList.toggle("low", low);
  for (const span of document.querySelectorAll("[data-seat-clock]")) {
    const left = secondsLeft(clock, Number(span.dataset.seatClock));
    span.textContent = left === null ? "" : `clock ${fmtSeconds(left)}`;
  }
}

function drawSeats(ctx) {
  const p = ctx.payload;
  const n = ctx.players || (page.summary ? page.summary.players : 0);
  const items = [];
  for (let seat = 0; seat < n; seat++) {
    const badges = [];
    if (seat === ctx.seat) badges.push(h("span", { class: "badge you" }, "you"));
    if (ctx.toMove.includes(seat) && !p.outcome) badges.push(h("span", { class: "badge turn" }, p.sealed ? "choosing" : "to move"));
    if (ctx.committed.includes(seat)) badges.push(h("span", { class: "badge running" }, "has chosen"));
    if ((p.bots_queued || []).includes(seat) && !p.outcome) {
      // The server's bot workers are all busy: this bot waits its turn to think (it plays its quick choice
      // if the wait runs too long), so a slow move is explained rather than silent.
      badges.push(h("span", { class: "badge queued", dataset: { queued: "" }, title: "The server's bots are all busy thinking at other tables; this one thinks as soon as one is free." },
        "bot waiting in line"));
    }
    if (p.outcome && (p.outcome.winners || []).includes(seat)) badges.push(h("span", { class: "badge running" }, "winner"));
    if (p.clock && p.clock.mode === "per_game" && !p.outcome) {
      const left = secondsLeft(p.clock, seat);
      badges.push(h("span", { class: "clock", dataset: { seatClock: String(seat) } }, left === null ? "" : `clock ${fmtSeconds(left)}`));
    }
    const presence = page.summary && page.summary.presence; // the newest of the summary's and the state's
    const info = seatInfo(seat);
    if (presence && info && info.kind === "human" && info.claimed && !page.replay && !p.outcome) {
      const here = presence.online.includes(seat);
      badges.push(h("span", { class: `badge presence ${here ? "online" : "away"}`, dataset: { presence: here ? "online" : "away" } },
        here ? "here" : "away"));
    }
    items.push(h("li", { dataset: { seat: String(seat) } }, h("span", {}, seatLabel(seat)), badges));
  }
  const present = page.summary && page.summary.presence;
  const watchers = present && !page.replay ? present.watchers : 0;
  if (watchers) items.push(h("li", { class: "watchers", id: "watchers" }, `${watchers} ${watchers === 1 ? "person is" : "people are"} watching (no seat: they see only what is public)`));
  fill($("seat-list"), items);
  drawNameForm(ctx);
}

// A person at the table names their seat here (someone who came by the invitation link has no name yet).
function drawNameForm(ctx) {
  const form = $("name-form");
  const info = ctx.seat === null || ctx.seat === undefined ? null : seatInfo(ctx.seat);
  form.hidden = !(info && info.kind === "human" && page.token && !ctx.payload.outcome);
  const input = $("name-input");
  if (!form.hidden && document.activeElement !== input && !input.dataset.edited) input.value = info.name || "";
}

async function saveSeatName(event) {
  event.preventDefault();
  const input = $("name-input");
  const name = input.value.trim();
  if (!name) {
    $("name-status").textContent = "Type a name first.";
    return;
  }
  try {
    const saved = await postJSON(`/api/tables/${encodeURIComponent(page.tableId)}/name`, { name }, page.token);
    saveName(saved.name);
    delete input.dataset.edited;
    $("name-status").textContent = `Saved: the table sees you as ${saved.name}.`;
    await refreshSummary();
  } catch (err) {
    $("name-status").textContent = `Not saved: ${err instanceof ApiError ? err.detail : String(err)}`;
  }
}

function drawLog(ctx) {
  const list = $("log");
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const events = ctx.log.slice(-300);
  fill(list, events.map((e) => {
    const cls = [];
    if (e.kind.endsWith("_private")) cls.push("private");
    if (IMPORTANT.has(e.kind)) cls.push("important");
    if (e.data && e.data.seat === ctx.seat && ctx.seat !== null) cls.push("mine");
    const text = page.renderer.logText ? page.renderer.logText(e, ctx) : e.text;
    return h("li", { class: cls.join(" "), dataset: { kind: e.kind } }, h("span", { class: "ply" }, `#${e.ply}`), text);
  }));
  if (nearBottom || !page.logScrolled) {
    list.scrollTop = list.scrollHeight;
    page.logScrolled = true;
  }
}

function drawRules() {
  const rules = rulesFor(page.summary.game, page.title);
  fill($("rules"),
    rules.goal ? h("p", {}, h("strong", {}, "Goal: "), rules.goal) : null,
    rules.sections.map(([title, text], i) => h("details", { class: "rules", open: i === 0 }, h("summary", {}, title), h("p", {}, text))),
    h("details", { class: "rules" }, h("summary", {}, "Keyboard"),
      h("p", {}, "Tab moves between buttons, Enter or Space presses one. Only moves the rules allow right now are shown as buttons. The line under the title says when it is your turn (screen readers announce it). The Undo button under it takes your last move back when the rules allow it, and says why when they do not.")),
    page.gameInfo && page.gameInfo.tutorial
      ? h("p", {}, h("button", { type: "button", class: "small", id: "rules-tutorial", onclick: openTutorial }, "Learn to play: a guided first game"))
      : null,
    h("p", { class: "help" }, page.plain
      ? h("a", { href: tableUrl(page.tableId), id: "page-switch" }, "Back to the game's own page")
      : h("a", { href: `${tableUrl(page.tableId)}?page=plain`, id: "page-switch" }, "Plain page: every value as text, every legal move a button")),
  );
}

function drawResult(ctx) {
  const section = $("result");
  const outcome = ctx.payload.outcome;
  if (!outcome) {
    section.hidden = true;
    return;
  }
  const n = outcome.scores.length;
  const order = [...Array(n).keys()].sort((a, b) => outcome.ranks[a] - outcome.ranks[b] || a - b);
  const solo = order.length === 1; // a solo game (Kyrum) has no places to rank
  const rows = order.map((seat) => h("tr", { class: (outcome.winners || []).includes(seat) ? "winner" : "" },
    solo ? null : h("td", { class: "num" }, String(outcome.ranks[seat])),
    h("td", {}, seatLabel(seat)),
    h("td", { class: "num" }, String(outcome.scores[seat]))));
  const extra = page.renderer.result ? page.renderer.result(ctx) : null;
  // Whoever asks first starts the rematch; the others' "Play again" takes their seat at that same table.
  const next = ctx.payload.rematch_id;
  let again = null;
  if (ctx.payload.rematch === false) again = null; // the game's own page says what comes next
  else if (next && loadToken(next)) again = h("a", { class: "button primary", id: "rematch", href: tableUrl(next) }, "Go to the rematch");
  else if (ctx.seat !== null && page.token) {
    again = h("button", { type: "button", class: "primary", id: "rematch", dataset: { key: "rematch" }, onclick: rematch },
      next ? "Join the rematch" : "Play again");
  } else if (next) again = h("a", { class: "button", href: tableUrl(next) }, "Watch the rematch");
  fill(section,
    h("h2", { id: "result-title" }, "Final result"),
    h("p", { class: "winner" }, describeWinners(outcome)),
    outcome.reason ? h("p", {}, `Why: ${outcome.reason.replace(/\.$/, "")}.`) : null,
    h("div", { class: "scroll-x" }, h("table", { class: "grid", id: "final-scores" },
      h("thead", {}, h("tr", {}, solo ? null : h("th", { class: "num" }, "Place"), h("th", {}, "Player"), h("th", { class: "num" }, page.renderer.scoreLabel || "Score"))),
      h("tbody", {}, rows))),
    extra,
    h("p", { class: "actions" }, again, h("a", { class: "button", href: `${tableUrl(page.tableId)}?replay=0`, id: "replay-watch" },
      "Watch the replay"), h("a", { class: "button", href: "/" }, "Back to the lobby")),
    h("p", { class: "help" }, "Share the replay: ",
      h("input", { type: "text", readonly: true, id: "replay-share", size: 36, "aria-label": "Link to this game's replay",
        value: new URL(`${tableUrl(page.tableId)}?replay=0`, location.href).href })),
  );
  section.hidden = false;
  if (!page.finishedShown) {
    page.finishedShown = true;
    if (!document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected) section.focus({ preventScroll: true });
  }
}

async function rematch(event) {
  const button = event.currentTarget;
  button.disabled = true;
  try {
    const made = await postJSON(`/api/tables/${encodeURIComponent(page.tableId)}/rematch`, {}, page.token);
    if (made.you && made.you.token) saveToken(made.table_id, made.you.token);
    if (made.invite) saveInvite(made.table_id, made.invite);
    location.href = tableUrl(made.table_id);
  } catch (err) {
    showError(`Could not start a rematch: ${err instanceof ApiError ? err.detail : err}`);
    button.disabled = false;
  }
}

function draw() {
  if (!page.payload || !page.renderer) return;
  const ctx = context();
  drawStatus(ctx);
  drawSeeded(ctx);
  drawSeats(ctx);
  redraw($("game-area"), () => fill($("game-area"), page.renderer.render(ctx)));
  if (page.replay) {
    drawReplay(ctx);
    return;
  }
  drawUndo(ctx);
  drawInvite(ctx);
  drawTutorial(ctx);
  drawResult(ctx);
  drawLog(ctx);
  drawReplayLink(ctx);
  drawActionBar();
}

// ------------------------------------------------------------------ tutorials
// A tutorial table sends its learner the lessons reached so far; the panel shows one at a time, starting
// at the first new one, with Back/Next through those already reached and the suggested move as a button.
async function openTutorial(event) {
  event.target.disabled = true;
  try {
    await startTutorial(page.summary.game);
  } catch (err) {
    showError(err instanceof ApiError ? `Could not start the tutorial: ${err.detail}` : String(err));
    event.target.disabled = false;
  }
}

function drawTutorial(ctx) {
  const t = ctx.payload.tutorial;
  const panel = $("tutorial");
  panel.hidden = !t;
  const offer = $("rules-tutorial");
  if (offer) offer.hidden = Boolean(t); // the learner is in one already
  if (!t) return;
  const lessons = t.lessons || [];
  if (lessons.length > page.lessonsSeen) {
    page.lesson = Math.min(t.new_from ?? page.lessonsSeen, lessons.length - 1);
    page.lessonsSeen = lessons.length;
  }
  const at = lessons.length ? Math.min(page.lesson ?? lessons.length - 1, lessons.length - 1) : -1;
  const lesson = at >= 0 ? lessons[at] : null;
  const go = (to) => () => { page.lesson = to; drawTutorial(context()); };
  const legal = new Set(ctx.legal);
  const suggested = lesson && lesson.try && legal.has(lesson.try) && !ctx.payload.outcome ? lesson.try : null;
  redraw(panel, () => fill(panel,
    h("h2", { id: "tutorial-title" }, t.title),
    at <= 0 && t.intro ? h("p", { class: "tutorial-intro" }, t.intro) : null,
    lesson
      ? h("div", { class: "lesson", id: "lesson", "aria-live": "polite" },
        h("p", { class: "lesson-count" }, `Step ${at + 1} of ${t.count}`),
        h("p", { class: "lesson-text" }, lesson.say),
        suggested ? h("p", {}, h("button", { type: "button", class: "small primary", id: "lesson-try", onclick: () => act(suggested) },
          `Try it: ${describeMove(suggested)}`)) : null,
        lesson.rules && lesson.rules.length ? h("details", { class: "rule-ids" }, h("summary", {}, "Details"), `Rules: ${lesson.rules.join(", ")}`) : null)
      : h("p", { class: "lesson-text" }, "The first step comes with your first move."),
    t.outro ? h("p", { class: "tutorial-outro" }, t.outro) : null,
    lessons.length > 1
      ? h("div", { class: "lesson-pager" },
        h("button", { type: "button", class: "small", id: "lesson-back", disabled: at <= 0, onclick: go(at - 1) }, "Previous step"),
        h("button", { type: "button", class: "small", id: "lesson-next", disabled: at >= lessons.length - 1, onclick: go(at + 1) }, "Next step"))
      : null,
  ));
}

// A move's words as a player reads them: those of the game page's own button for it (its accessible name,
// as "Grab 2 coins" or "Play Spaceship 11/8"), else the move's text with a capital.
function describeMove(text) {
  // Several buttons may make one move (Captain Black's big Grab button and its quick "2"): the fullest words.
  const named = [...document.querySelectorAll("#game-area [data-action]")].filter((b) => b.dataset.action === text)
    .map((b) => (b.getAttribute("aria-label") || b.textContent || "").replace(/\s+/g, " ").trim());
  let words = named.sort((a, b) => b.length - a.length)[0] || "";
  if (words.length > 60 && words.indexOf(". ") > 0) words = words.slice(0, words.indexOf(". ")); // its help text: not here
  return (words || text).replace(/^./, (c) => c.toUpperCase());
}

// ------------------------------------------------------------------ replays
// `?replay=<ply>` (and `&seat=<n>` once the game is over) shows the table after that move as the server
// lets this browser see it; the log becomes the whole game's move list, each move a button.
function replayUrl(ply, seat) {
  const seatPart = seat === null || seat === undefined ? "" : `&seat=${seat}`;
  return `${tableUrl(page.tableId)}?replay=${ply}${seatPart}`;
}

async function loadReplay(ply, seat) {
  const params = new URLSearchParams();
  if (ply !== null && ply !== undefined && !Number.isNaN(ply)) params.set("ply", String(ply));
  if (seat !== null && seat !== undefined) params.set("seat", String(seat));
  const base = `/api/tables/${encodeURIComponent(page.tableId)}/replay`;
  try {
    const state = await getJSON(`${base}?${params}`, page.token);
    const info = state.replay;
    let moves = page.replay && page.replay.seat === state.seat && page.replay.last === info.last ? page.replay.moves : null;
    if (!moves) {
      const whole = info.ply === info.last ? state
        : await getJSON(`${base}?${new URLSearchParams(seat === null || seat === undefined ? {} : { seat: String(seat) })}`, page.token);
      moves = whole.log;
    }
    page.replay = { ply: info.ply, last: info.last, full: info.full, seat: state.seat, chosen: seat, moves };
    page.payload = state;
    page.events = new Map();
    mergeLog(state.log);
    showError("");
    history.replaceState(null, "", replayUrl(info.ply, seat));
    draw();
  } catch (err) {
    showError(`Could not show that move: ${err instanceof ApiError ? err.detail : String(err)}`);
    if (!page.payload) {  // nothing to step from: offer the way back
      $("game-title").textContent = page.title || "Replay";
      fill($("invite-area"), h("p", {}, h("a", { class: "button", href: tableUrl(page.tableId), id: "replay-exit" }, "Back to the table")));
    }
  }
}

function drawReplay(ctx) {
  const r = page.replay;
  for (const id of ["undo-area", "result", "name-form", "action-bar"]) $(id).hidden = true;
  fill($("invite-area"));
  const bar = $("replay-bar");
  bar.hidden = false;
  const focused = document.activeElement && document.activeElement.id;
  fill(bar, replayBar({
    ply: r.ply, last: r.last, full: r.full, seat: r.chosen, players: ctx.players, name: names, go: loadReplay,
    tableLink: tableUrl(page.tableId),
  }));
  if (focused && $(focused) && !$(focused).disabled) $(focused).focus();
  const text = (e) => (page.renderer.logText ? page.renderer.logText(e, ctx) : e.text);
  const list = moveList({ events: r.moves, ply: r.ply, go: loadReplay, seat: r.chosen, text });
  fill($("log"), list.children.length ? [...list.children] : h("li", { class: "muted" }, "No moves yet."));
  $("log-title").textContent = "Moves (press one to see the table after it)";
  // Keep the shown move in sight inside the list (the page itself stays where the player put it).
  const log = $("log");
  const now = log.querySelector("li.now");
  if (now) log.scrollTop = Math.max(0, now.offsetTop - log.offsetTop - log.clientHeight / 2);
}

// The way into a replay from the title line (the result panel has the link to share).
function drawReplayLink(ctx) {
  const link = $("replay-link");
  const p = ctx.payload;
  link.hidden = !p.ply;
  link.href = replayUrl(Math.max(0, p.ply - 1));
  link.textContent = p.outcome ? "Replay the game" : "Step back through the moves";
}

// ------------------------------------------------------------------ what just happened
// Other seats' moves must not pass in silence: when a state brings new events that are not this seat's
// own doing (a reveal, hands passing, a round ending, a timeout), they show for a few seconds in a box
// pinned to the top of the screen, wherever the player has scrolled (and screen readers read them out).
const HAPPENED_SECONDS = 8;
const HAPPENED_LINES = 5;
const TABLE_KINDS = new Set(["timeout", "clock"]);
let happenedTimer = 0;
let happenedLines = []; // what the box shows now: [{text, rank}], oldest first

function hideHappened() {
  $("happened").hidden = true;
  happenedLines = [];
}

function showHappened(state, sincePly) {
  // A game page may keep some kinds out of the box: Council's table talk is in its chat, and a live
  // negotiation talks all the time.
  const quiet = new Set((page.renderer && page.renderer.quietKinds) || []);
  const me = state.seat;
  const fresh = (state.log || []).filter((e) => e.ply > sincePly && !quiet.has(e.kind)
    && (IMPORTANT.has(e.kind) || TABLE_KINDS.has(e.kind) || !e.data || e.data.seat === undefined || e.data.seat !== me));
  if (!fresh.length) return;
  const ctx = { ...context(), payload: state, view: state.view || {}, seat: state.seat };
  const text = (e) => (page.renderer && page.renderer.logText ? page.renderer.logText(e, ctx) : e.text);
  // Lines gather while the box is up (a move and the bot's answer in quick succession); when there are too
  // many, the oldest ordinary ones go first, then the oldest important ones (a round's chests and parrots),
  // and a headline (a round's or the game's end) last, so a round's end stays in sight.
  const rank = (e) => (HEADLINES.has(e.kind) ? 2 : IMPORTANT.has(e.kind) || TABLE_KINDS.has(e.kind) ? 1 : 0);
  happenedLines.push(...fresh.map((e) => ({ text: text(e), rank: rank(e) })));
  while (happenedLines.length > HAPPENED_LINES) {
    const lowest = Math.min(...happenedLines.map((l) => l.rank));
    happenedLines.splice(happenedLines.findIndex((l) => l.rank === lowest), 1);
  }
  const box = $("happened");
  fill(box, h("strong", {}, "Just now:"),
    h("ul", {}, happenedLines.map((l) => h("li", { class: l.rank ? "important" : "" }, l.text))),
    h("button", { type: "button", class: "dismiss", "aria-label": "Dismiss", onclick: hideHappened }, "×"));
  box.hidden = false;
  clearTimeout(happenedTimer);
  happenedTimer = setTimeout(hideHappened, HAPPENED_SECONDS * 1000);
}

// ------------------------------------------------------------------ the phone's action bar
// On a phone a table runs to several screens: while it is this seat's move and the move panel is off the
// screen (the player reads the chat, the log, the map), a bar pinned to the bottom says so and offers the
// move's buttons (when there are a few; each presses the panel's own button, so it does exactly what that
// does) or a jump to the panel. On wider screens, and when the panel is in view, there is no bar.
const PHONE = window.matchMedia("(max-width: 700px)");
const BAR_BUTTONS = 4;

// Where a seat's moves are drawn: the move panel, and Buccaneers' hand (its cards are the pick's buttons).
const MOVE_AREAS = ["your-move", "hand"];
const MOVE_BUTTONS = MOVE_AREAS.map((id) => `#${id} button[data-action]`).join(", ");

function onScreen(el, barHeight) {
  const r = el.getBoundingClientRect();
  return r.bottom > 0 && r.top < window.innerHeight - barHeight - 40;
}

// The buttons a player sees and may press now (one inside a closed "Give up this game" box is not one).
function offeredButtons() {
  const seen = (b) => (b.checkVisibility ? b.checkVisibility() : b.getClientRects().length > 0);
  return [...document.querySelectorAll(MOVE_BUTTONS)].filter((b) => !b.disabled && seen(b));
}

function drawActionBar() {
  const bar = $("action-bar");
  const p = page.payload;
  const areas = MOVE_AREAS.map((id) => document.getElementById(id)).filter(Boolean);
  const live = Boolean(p && page.renderer && !p.outcome && !page.offline && areas.length);
  const buttons = live ? offeredButtons() : [];
  const barHeight = bar.hidden ? 0 : bar.offsetHeight;
  const show = buttons.length > 0 && PHONE.matches && !areas.some((el) => onScreen(el, barHeight));
  if (!show) {
    if (!bar.hidden) {
      bar.hidden = true;
      fill(bar);
      document.documentElement.style.setProperty("--action-bar-height", "0px");
    }
    return;
  }
  const key = JSON.stringify([p.ply, buttons.map((b) => [b.dataset.action, b.textContent])]);
  if (bar.hidden || bar.dataset.key !== key) {
    bar.dataset.key = key;
    const heading = document.querySelector("#your-move h2");
    const title = heading ? heading.textContent : "Your move";
    // Copies only when each says on its own what it does: four "1 coin" buttons (Council's bribes) need the
    // panel around them, so the bar then only leads there.
    // A button's accessible name says on its own what it does ("Ask the Leader for 1 coin" for a "1 coin").
    const labelOf = (b) => (b.getAttribute("aria-label") || b.textContent).trim();
    const labels = buttons.map(labelOf);
    const clear = new Set(labels).size === labels.length && labels.every((l) => l.length > 0 && l.length <= 28);
    const proxies = buttons.length <= BAR_BUTTONS && clear
      ? buttons.map((b) => h("button", { type: "button", class: b.classList.contains("primary") ? "primary" : "",
        dataset: { barAction: b.dataset.action }, onclick: () => pressInPanel(b.dataset.action) }, labelOf(b)))
      : [];
    fill(bar, h("span", { class: "bar-title" }, title),
      h("span", { class: "bar-buttons" }, proxies,
        h("button", { type: "button", class: proxies.length ? "small" : "primary", id: "action-bar-jump",
          onclick: () => {
            const first = offeredButtons()[0];
            const area = first ? first.closest(MOVE_AREAS.map((id) => `#${id}`).join(", ")) : null;
            if (!area) return;
            area.scrollIntoView({ block: "center" });
            first.focus({ preventScroll: true });
          } },
        proxies.length ? "More ↓" : "Go to your move ↓")));
    bar.hidden = false;
  }
  document.documentElement.style.setProperty("--action-bar-height", `${bar.offsetHeight}px`);
}

// The panel is drawn afresh on every change: press the button it shows now for that move.
function pressInPanel(action) {
  const button = offeredButtons().find((b) => b.dataset.action === action);
  if (button) button.click();
}

let barFrame = 0;
function actionBarSoon() {
  if (barFrame) return;
  barFrame = requestAnimationFrame(() => {
    barFrame = 0;
    drawActionBar();
  });
}
window.addEventListener("scroll", actionBarSoon, { passive: true });
window.addEventListener("resize", actionBarSoon);

// ------------------------------------------------------------------ start
// A first picture over HTTP, so the page shows the table even before the socket is up.
async function loadState() {
  try {
    onState(await getJSON(`/api/tables/${encodeURIComponent(page.tableId)}/state`, page.token));
  } catch (err) {
    if (err instanceof ApiError && err.status === 403 && page.token) {
      // A token this table no longer knows (another database): watch instead.
      page.token = null;
      onState(await getJSON(`/api/tables/${encodeURIComponent(page.tableId)}/state`));
    }
  }
}

async function refreshSummary() {
  try {
    const fresh = await getJSON(`/api/tables/${encodeURIComponent(page.tableId)}`);
    // Redraw only when something changed: a redraw replaces the buttons, and a press that lands on one
    // just then is lost.
    if (JSON.stringify(fresh) === JSON.stringify(page.summary)) return;
    page.summary = fresh;
    draw();
  } catch {
    /* the next push will try again */
  }
}

async function start() {
  page.tableId = tableIdFromUrl();
  page.plain = new URLSearchParams(location.search).get("page") === "plain";
  if (!page.tableId) {
    $("game-title").textContent = "No table given";
    return;
  }
  $("where").textContent = `Table ${page.tableId}`;
  try {
    page.summary = await getJSON(`/api/tables/${encodeURIComponent(page.tableId)}`);
  } catch (err) {
    $("game-title").textContent = "Table not found";
    showError(err instanceof ApiError ? `Could not open table ${page.tableId}: ${err.detail}` : String(err));
    return;
  }
  const query = new URLSearchParams(location.search);
  const replayAt = query.has("replay") ? query.get("replay") : null;
  if (replayAt === null) await claimSeat();
  else page.token = loadToken(page.tableId); // a replay takes no seat: it shows what this browser's seat may see
  page.title = page.summary.game;
  // The server says which module under games/ draws this game (the `web` role of its manifest).
  let web = "generic";
  try {
    const games = await getJSON("/api/games");
    const game = games.find((g) => g.name === page.summary.game);
    if (game) {
      page.gameInfo = game;
      page.title = game.title;
      web = game.web || "generic";
    }
  } catch {
    /* the name and the generic page will do */
  }
  // `?page=plain` shows any game on the generic page: every value as text, every legal move a button.
  const module = page.plain ? "generic" : web;
  page.renderer = (await import(`/static/games/${module}.js`)).default;
  if (page.renderer.stylesheet) {
    // A game page with its own look: games/<name>.js asks for css/<name>.css.
    // Drawn only once it has loaded: a table drawn unstyled first jumps when the sheet lands (and a busy
    // machine shows the jump long enough to be clicked into).
    const sheet = h("link", { rel: "stylesheet", href: `/static/css/${page.renderer.stylesheet}.css` });
    const loaded = new Promise((resolve) => {
      sheet.addEventListener("load", resolve, { once: true });
      sheet.addEventListener("error", resolve, { once: true });  // unstyled beats not drawn at all
    });
    document.head.append(sheet);
    await loaded;
  }
  if (page.renderer.setup) await page.renderer.setup({ tableId: page.tableId, token: page.token, summary: page.summary, redraw: draw, showError });
  if (page.renderer.catalog) {
    try {
      page.renderer.setCatalog(await getJSON(`/api/tables/${encodeURIComponent(page.tableId)}/catalog`));
    } catch (err) {
      showError(`Could not load the card list (${err.detail || err}); cards show by their ids.`);
    }
  }
  if (replayAt !== null) {
    drawRules();
    const seat = query.get("seat");
    await loadReplay(replayAt === "" ? null : Number(replayAt), seat === null || seat === "" ? null : Number(seat));
    document.addEventListener("keydown", (e) => {
      if (!page.replay || e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
      const step = e.key === "ArrowLeft" ? -1 : e.key === "ArrowRight" ? 1 : 0;
      const to = page.replay.ply + step;
      if (step && to >= 0 && to <= page.replay.last) {
        e.preventDefault();
        loadReplay(to, page.replay.chosen);
      }
    });
    setConnection("replay", "");
    return;
  }
  $("undo-button").addEventListener("click", undoLast);
  $("name-form").addEventListener("submit", saveSeatName);
  $("name-input").addEventListener("input", () => { $("name-input").dataset.edited = "1"; });
  drawRules();
  await loadState();
  connect();
  setInterval(drawClock, 1000);
  // Seats are claimed by other people: refresh the names and claimed flags now and then.
  setInterval(() => {
    if (page.payload && !page.payload.outcome) refreshSummary();
  }, 5000);
}

start();
