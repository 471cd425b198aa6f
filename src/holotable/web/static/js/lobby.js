// The lobby: create a table (game, players, seats, options, clock), list tables, join, watch, rematch.

import { ApiError, getJSON, inviteUrl, loadInvite, loadName, loadToken, postJSON, saveInvite, saveName, saveToken, startTutorial, tableUrl } from "./api.js";
import { fill, h, plural, redraw } from "./dom.js";

const $ = (id) => document.getElementById(id);
let games = [];
const titles = {};

function showError(message) {
  const box = $("lobby-error");
  box.textContent = message;
  box.hidden = !message;
}

function currentGame() {
  return games.find((g) => g.name === $("game").value);
}

function defaultPlayers(game) {
  if (game.default_players) return game.default_players;
  return Math.max(game.min_players, Math.min(4, game.max_players));
}

function levelOptions(game, chosen = "normal") {
  const levels = game.levels && game.levels.length ? game.levels : [{ name: "normal" }];
  return levels.map((lv) => h("option", { value: lv.name, selected: lv.name === chosen }, lv.label || lv.name));
}

function seatRow(game, seat, previous) {
  const kind = previous ? previous.kind : seat === 0 ? "human" : "bot";
  const level = previous ? previous.level : "normal";
  const levelSelect = h("select", { class: "seat-level", "aria-label": `Seat ${seat + 1} bot level` }, levelOptions(game, level));
  const kindSelect = h(
    "select",
    { class: "seat-kind", "aria-label": `Seat ${seat + 1} player` },
    h("option", { value: "human", selected: kind === "human" }, seat === 0 ? "Human (you)" : "Human"),
    h("option", { value: "bot", selected: kind === "bot" }, "Bot"),
  );
  const levelLabel = h("label", { class: "level-label" }, "Bot level", levelSelect);
  const sync = () => {
    levelLabel.hidden = kindSelect.value !== "bot";
    relabelHumans();
  };
  kindSelect.addEventListener("change", sync);
  const row = h(
    "div",
    { class: "seat-row", dataset: { seat: String(seat) } },
    h("span", { class: "seat-label" }, `Seat ${seat + 1}`),
    h("label", {}, "Player", kindSelect),
    levelLabel,
  );
  levelLabel.hidden = kind !== "bot";
  return row;
}

// "Human (you)" goes on the first human seat: that is the one the creator takes.
function relabelHumans() {
  let first = true;
  for (const row of $("seats").querySelectorAll(".seat-row")) {
    const option = row.querySelector(".seat-kind option[value=human]");
    const human = row.querySelector(".seat-kind").value === "human";
    option.textContent = human && first ? "Human (you)" : "Human";
    if (human) first = false;
  }
}

function readSeats() {
  return [...$("seats").querySelectorAll(".seat-row")].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    return kind === "bot" ? { kind, level: row.querySelector(".seat-level").value } : { kind };
  });
}

function drawSeats() {
  const game = currentGame();
  const n = Number($("players").value);
  const before = readSeats();
  const rows = [];
  for (let seat = 0; seat < n; seat++) rows.push(seatRow(game, seat, before[seat]));
  fill($("seats"), rows);
  relabelHumans();
}

// The value a table with people gets when the option is left alone (it may differ from the
// simulation default, e.g. no turn cap), shown in the form and compared against.
function shownDefault(param) {
  return param.table_default !== undefined ? param.table_default : param.default;
}

function paramInput(param) {
  const id = `param-${param.name}`;
  const value = shownDefault(param);
  const label = param.label || param.name.replaceAll("_", " ");
  let input;
  if (param.choices && param.choices.length) {
    // An empty choice of its own only when none of the choices is already "empty" (with its own words).
    const hasEmpty = param.choices.includes(null);
    const empty = !hasEmpty && (param.optional || value === null) ? [h("option", { value: "null", selected: value === null }, "(empty: the default)")] : [];
    input = h("select", { id }, empty, param.choices.map((c, i) => h("option", { value: JSON.stringify(c), selected: c === value }, (param.choice_labels || [])[i] ?? String(c))));
  } else if (param.kind === "bool") {
    input = h("input", { id, type: "checkbox", checked: Boolean(value) });
    return h("label", { class: "inline", title: param.help || "" }, input, label);
  } else if (param.kind === "int" || param.kind === "float") {
    input = h("input", {
      id, type: "number", step: param.kind === "int" ? "1" : "any", value: value ?? "", placeholder: value === null ? "empty" : "",
      min: param.minimum ?? null, max: param.maximum ?? null,
    });
  } else {
    input = h("input", { id, type: "text", value: Array.isArray(value) ? value.join(",") : value ?? "", placeholder: "empty" });
  }
  return h("label", { title: param.help || "" }, label, input, param.help ? h("span", { class: "help" }, param.help) : null);
}

function drawOptions() {
  const game = currentGame();
  fill($("options"), (game.params || []).map(paramInput));
}

// Only options the player changed are sent, so the server keeps its own defaults (and table defaults).
function readParams() {
  const out = {};
  for (const param of currentGame().params || []) {
    const input = document.getElementById(`param-${param.name}`);
    if (!input) continue;
    let value;
    if (param.choices && param.choices.length) value = JSON.parse(input.value);
    else if (param.kind === "bool") value = input.checked;
    else if (param.kind === "int" || param.kind === "float") value = input.value === "" ? null : Number(input.value);
    else if (param.kind === "list") {
      value = input.value.trim() === "" ? null : input.value.split(",").map((s) => (s.trim() !== "" && !Number.isNaN(Number(s)) ? Number(s) : s.trim()));
    } else value = input.value === "" && shownDefault(param) !== "" ? null : input.value;
    const same = JSON.stringify(value) === JSON.stringify(shownDefault(param) ?? null);
    if (!same) out[param.name] = value;
  }
  return out;
}

function onGameChange() {
  const game = currentGame();
  if (!game) return;
  const options = [];
  for (let n = game.min_players; n <= game.max_players; n++) {
    options.push(h("option", { value: String(n), selected: n === defaultPlayers(game) }, String(n)));
  }
  fill($("players"), options);
  $("players").disabled = game.min_players === game.max_players;
  $("game-about").textContent = `${game.title}: ${game.min_players === game.max_players ? plural(game.min_players, "player") : `${game.min_players}-${game.max_players} players`}.${game.description ? ` ${game.description}` : ""}`;
  // A game usually started elsewhere (Kyrum's campaigns) says so, with the way there.
  const note = game.lobby_note;
  $("game-note").hidden = !note;
  fill($("game-note"), note ? [note.text, " ", h("a", { href: note.href, id: "game-note-link" }, note.link)] : []);
  $("create").textContent = note ? "Create a single game" : "Create table";
  $("tutorial-offer").hidden = !game.tutorial;
  fill($("seats"));
  drawSeats();
  drawOptions();
}

async function createTable(event) {
  event.preventDefault();
  showError("");
  const game = currentGame();
  const body = { game: game.name, players: Number($("players").value), params: readParams(), seats: readSeats() };
  if ($("public").checked) body.public = true;
  const mode = $("clock-mode").value;
  if (mode !== "none") body.clock = { mode, seconds: Number($("clock-seconds").value) || 60 };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const name = $("your-name").value.trim();
  saveName(name);
  if (name && body.seats.some((s) => s.kind === "human")) body.name = name;
  $("create").disabled = true;
  $("create-status").textContent = "Creating…";
  try {
    const made = await postJSON("/api/tables", body);
    if (made.you && made.you.token) saveToken(made.table_id, made.you.token);
    if (made.invite) saveInvite(made.table_id, made.invite);
    $("create-status").textContent = "";
    showCreated(made, body.seats);
    refreshTables();
  } catch (err) {
    $("create-status").textContent = "";
    showError(err instanceof ApiError ? `Could not create the table: ${err.detail}` : String(err));
  } finally {
    $("create").disabled = false;
  }
}

function showCreated(made, seats) {
  const humans = seats.filter((s) => s.kind === "human").length;
  const link = made.invite ? inviteUrl(made.table_id, made.invite) : `${location.origin}${tableUrl(made.table_id)}`;
  const linkInput = h("input", { id: "invite-link", type: "text", readonly: true, value: link, "aria-label": "Invitation link" });
  const copy = h("button", {
    type: "button", class: "small", onclick: async () => {
      linkInput.select();
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = "Copied";
      } catch {
        copy.textContent = "Select and copy";
      }
    },
  }, "Copy link");
  const you = made.you ? `You sit at seat ${made.you.seat + 1}.` : "You are watching.";
  const invite = humans > 1
    ? `Send this invitation to the ${plural(humans - 1, "other player")}; each opens it to take a free human seat:`
    : "Every other seat is a bot. Send this link to anyone who wants to join or watch:";
  fill($("created-body"),
    h("p", {}, you),
    h("p", {}, invite),
    h("div", { class: "invite-box" }, linkInput, copy),
    h("p", {}, h("a", { id: "open-table", class: "button primary", href: tableUrl(made.table_id) }, made.you ? "Go to your table" : "Watch the table")),
  );
  $("created").hidden = false;
  $("created").focus();
}

function seatSummary(t) {
  return t.seats.map((s) => {
    if (s.kind === "bot") return `${s.seat + 1}: bot${s.level ? ` (${s.level})` : ""}`;
    return `${s.seat + 1}: ${s.name || "human"}${s.claimed ? "" : " (free)"}`;
  }).join(" · ");
}

async function rematch(tableId, button) {
  button.disabled = true;
  try {
    const made = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/rematch`, {}, loadToken(tableId));
    if (made.you && made.you.token) saveToken(made.table_id, made.you.token);
    if (made.invite) saveInvite(made.table_id, made.invite);
    location.href = tableUrl(made.table_id);
  } catch (err) {
    showError(err instanceof ApiError ? `Could not start a rematch: ${err.detail}` : String(err));
    button.disabled = false;
  }
}

function tableItem(t) {
  const mine = Boolean(loadToken(t.table_id));
  const invite = t.invite || loadInvite(t.table_id);
  const free = t.seats.some((s) => s.kind === "human" && !s.claimed);
  const title = titles[t.game] || t.game;
  const links = [];
  const key = (what) => ({ key: `${t.table_id}:${what}` });
  if (mine && t.status !== "finished") {
    links.push(h("a", { class: "button primary small", href: tableUrl(t.table_id), dataset: key("continue") }, "Continue"));
  }
  if (!mine && invite && free && t.status !== "finished") {
    links.push(h("a", { class: "button small", href: `${tableUrl(t.table_id)}?invite=${encodeURIComponent(invite)}`, dataset: key("join") }, "Join"));
  }
  if (!mine || t.status === "finished") {
    links.push(h("a", { class: "button small", href: tableUrl(t.table_id), dataset: key("watch") }, t.status === "finished" ? "See result" : "Watch"));
  }
  if (mine && t.status === "finished") {
    const again = h("button", { type: "button", class: "small", dataset: key("again") }, "Play again");
    again.addEventListener("click", () => rematch(t.table_id, again));
    links.push(again);
  }
  return h("li", { class: "table-item", dataset: { table: t.table_id } },
    h("div", { class: "what" },
      h("strong", {}, `${title} · ${plural(t.players, "player")}`, " ", h("span", { class: `badge ${t.status}` }, t.status), mine ? h("span", { class: "badge you" }, "your seat") : null),
      h("small", {}, seatSummary(t)),
      h("small", {}, `table ${t.table_id}${t.ply ? ` · move ${t.ply}` : ""}`),
      t.seeded ? h("small", { class: "seeded" }, t.seeded.text) : null,
    ),
    h("div", { class: "links" }, links),
  );
}

async function refreshTables() {
  for (const status of ["open", "running", "finished"]) {
    try {
      const tables = await getJSON(`/api/tables?status=${status}`);
      const list = $(`tables-${status}`);
      const items = tables.slice(0, 30).map(tableItem);
      // Redrawn every few seconds: keep the keyboard focus on the same link.
      redraw(list, () => fill(list, items.length ? items : h("li", { class: "muted" }, "None.")));
    } catch (err) {
      showError(`Could not list the tables: ${err.detail || err}`);
    }
  }
}

async function start() {
  try {
    games = await getJSON("/api/games");
  } catch (err) {
    showError(`Could not load the games: ${err.detail || err}`);
    return;
  }
  for (const g of games) titles[g.name] = g.title;
  $("your-name").value = loadName();
  fill($("game"), games.map((g) => h("option", { value: g.name, selected: g.name === "captain-black" }, g.title)));
  $("game").addEventListener("change", onGameChange);
  $("players").addEventListener("change", drawSeats);
  $("new-table").addEventListener("submit", createTable);
  $("refresh").addEventListener("click", refreshTables);
  $("start-tutorial").addEventListener("click", async () => {
    const button = $("start-tutorial");
    button.disabled = true;
    saveName($("your-name").value.trim());
    try {
      await startTutorial(currentGame().name);
    } catch (err) {
      showError(err instanceof ApiError ? `Could not start the tutorial: ${err.detail}` : String(err));
      button.disabled = false;
    }
  });
  onGameChange();
  await refreshTables();
  setInterval(refreshTables, 5000);
}

start();
