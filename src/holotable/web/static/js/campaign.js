// Black Hole: Kyrum campaigns kept on the server: this browser's campaigns (their owner tokens are kept
// in localStorage), a new campaign, and one campaign's page between games: start or continue the next
// game, the scoreboard with its comment, the Thoth market, the journal, the tracking list, the Black
// Hole partner (link code, messages, manual codes) and, after the last game, the questionnaire.

import { ApiError, getJSON, postJSON, saveToken } from "./api.js";
import { facts, fill, h, plural } from "./dom.js";

const KEY = "holotable:kyrum:campaigns";
const $ = (id) => document.getElementById(id);
const root = () => $("campaign-root");

function loadAll() {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) || "{}");
    return raw && typeof raw === "object" ? raw : {};
  } catch {
    return {};
  }
}

function saveOne(id, token, name) {
  const all = loadAll();
  all[id] = { token, name: name || (all[id] && all[id].name) || id };
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    /* private mode: the campaign lasts as long as the page */
  }
}

function forget(id) {
  const all = loadAll();
  delete all[id];
  localStorage.setItem(KEY, JSON.stringify(all));
}

function showError(message) {
  $("campaign-error").textContent = message || "";
  $("campaign-error").hidden = !message;
}

function say(message) {
  $("campaign-status").textContent = message || "";
  $("campaign-status").hidden = !message;
}

function reason(err) {
  return err instanceof ApiError ? err.detail : String(err);
}

function campaignIdFromUrl() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts[0] === "campaigns" && parts[1] ? decodeURIComponent(parts[1]) : null;
}

/** A button that runs `task` once at a time; errors go to the error box. */
function busyButton(label, task, attrs = {}) {
  const button = h("button", { type: "button", ...attrs }, label);
  button.addEventListener("click", async () => {
    button.disabled = true;
    showError("");
    try {
      await task();
    } catch (err) {
      showError(reason(err));
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

function form(attrs, fields, label, task) {
  const el = h("form", { class: "form-row ky-form", ...attrs }, fields, h("button", { type: "submit" }, label));
  el.addEventListener("submit", async (e) => {
    e.preventDefault();
    const submit = el.querySelector("button[type=submit]");
    submit.disabled = true;
    showError("");
    try {
      await task(el);
    } catch (err) {
      showError(reason(err));
    } finally {
      submit.disabled = false;
    }
  });
  return el;
}

// ------------------------------------------------------------------ the list
async function showList() {
  document.title = "holotable: Kyrum campaigns";
  const all = loadAll();
  const rows = [];
  for (const [id, rec] of Object.entries(all)) {
    try {
      const c = await getJSON(`/api/campaigns/${encodeURIComponent(id)}`, rec.token);
      rows.push(h("li", { class: "ky-campaign", dataset: { campaign: id } },
        h("a", { href: `/campaigns/${encodeURIComponent(id)}` }, c.name),
        ` — ${c.pack_title}, ${plural(c.next_game - 1, "game")} of ${c.length} played, ${c.np_bank} NP`,
        c.playing ? h("span", { class: "badge turn" }, `game ${c.playing.game} in progress`) : null,
        c.partner.enabled ? h("span", { class: "badge" }, c.partner.linked ? `partner: ${c.partner.partner_name}` : "partner mode") : null));
    } catch (err) {
      rows.push(h("li", {}, `${rec.name || id}: ${reason(err)} `, busyButton("Forget it", async () => {
        forget(id);
        await showList();
      })));
    }
  }
  const name = h("input", { type: "text", name: "name", required: true, maxlength: "80", id: "new-name" });
  const seed = h("input", { type: "number", name: "seed", min: "0", id: "new-seed", placeholder: "random" });
  const partner = h("input", { type: "checkbox", name: "partner", id: "new-partner" });
  fill(root(),
    h("section", { class: "panel", "aria-labelledby": "mine-title" },
      h("h1", { id: "mine-title" }, "Your Kyrum campaigns"),
      rows.length ? h("ul", { id: "campaign-list" }, rows) : h("p", { id: "campaign-list" }, "No campaign in this browser yet.")),
    h("section", { class: "panel", "aria-labelledby": "new-title" },
      h("h2", { id: "new-title" }, "New campaign"),
      h("p", { class: "muted" }, "A campaign is thirty scheduled games; it is saved on this server. This browser keeps its key: "
        + "use the campaign page's link for your other devices."),
      form({ id: "new-campaign" }, [
        h("label", {}, "Name ", name),
        h("label", {}, "Seed (optional) ", seed),
        h("label", { class: "check" }, partner, " Black Hole partner (chosen once, for good)"),
      ], "Create the campaign", async () => {
        const body = { name: name.value.trim(), partner: partner.checked };
        if (seed.value !== "") body.seed = Number(seed.value);
        const made = await postJSON("/api/campaigns", body);
        saveOne(made.campaign_id, made.token, body.name);
        location.href = made.url;
      })));
}

// ------------------------------------------------------------------ one campaign
const state = { id: null, token: null, data: null };

async function call(path, body) {
  const url = `/api/campaigns/${encodeURIComponent(state.id)}${path}`;
  const data = body === undefined ? await getJSON(url, state.token) : await postJSON(url, body, state.token);
  return data;
}

async function refresh(message) {
  state.data = await call("");
  saveOne(state.id, state.token, state.data.name);
  drawCampaign();
  say(message || "");
}

function playSection(c) {
  let body;
  if (c.playing) {
    saveToken(c.playing.table_id, c.playing.token);
    body = [h("p", {}, `Game ${c.playing.game} is being played.`),
      h("a", { class: "button primary", id: "continue-game", href: c.playing.url }, `Continue game ${c.playing.game}`)];
  } else if (c.complete) {
    body = [h("p", {}, "Every scheduled game has been played: answer the questionnaire below.")];
  } else {
    body = [h("p", {}, `Next: game ${c.next_game} of ${c.length}.`),
      busyButton(`Start game ${c.next_game}`, async () => {
        const made = await call("/games", {});
        saveToken(made.table_id, made.token);
        location.href = made.url;
      }, { class: "primary", id: "start-game" })];
  }
  return h("section", { class: "panel", "aria-labelledby": "play-title" }, h("h2", { id: "play-title" }, "Play"), body);
}

function scoreboard(c) {
  const last = c.next_game - 1;
  const tables = {};
  for (const g of c.games) {
    saveToken(g.table_id, g.token); // the game's table opens as its player, also on another device
    tables[g.game] = g;
  }
  const played = c.scoreboard.filter((r) => r.result !== null);
  const comment = h("input", { type: "text", maxlength: "500", id: "comment-text", "aria-label": `Comment on game ${last}`, value: (c.scoreboard[last - 1] || {}).comment || "" });
  return h("section", { class: "panel", "aria-labelledby": "score-title" },
    h("h2", { id: "score-title" }, "Scoreboard"),
    h("div", { class: "scroll-x" }, h("table", { class: "grid", id: "scoreboard" },
      h("thead", {}, h("tr", {}, h("th", { class: "num" }, "Game"), h("th", {}, "Objectives"), h("th", {}, "Result"), h("th", { class: "num" }, "NP"), h("th", {}, "Comment"))),
      h("tbody", {}, c.scoreboard.filter((r) => r.result !== null || r.game === c.next_game).map((r) => h("tr", { class: r.game === c.next_game ? "next" : "", dataset: { game: String(r.game) } },
        h("td", { class: "num" }, tables[r.game] ? h("a", { href: tables[r.game].url, "aria-label": `Table of game ${r.game}` }, String(r.game)) : String(r.game)),
        h("td", {}, r.objectives.join(", ")),
        h("td", {}, r.result || (c.playing ? "playing" : "next")), h("td", { class: "num" }, r.np === null ? "" : String(r.np)),
        h("td", {}, r.comment || "")))))),
    h("p", { class: "muted" }, `${played.length} of ${c.length} games played; ${c.length - played.length} to go.`),
    last >= 1 && !c.playing ? form({ id: "comment-form" }, [h("label", {}, `Comment on game ${last} `, comment)], "Save the comment", async () => {
      state.data = await call("/comment", { text: comment.value });
      drawCampaign();
      say("Comment saved.");
    }) : null);
}

function market(c) {
  return h("section", { class: "panel", "aria-labelledby": "market-title" },
    h("h2", { id: "market-title" }, "Thoth market"),
    h("p", {}, `Bank: `, h("strong", { id: "np-bank" }, `${c.np_bank} NP`), c.market.open ? "" : " — the market opens between games, after game 1."),
    h("ul", { class: "ky-cards", id: "market-items" }, c.market.items.map((it) => h("li", { class: "ky-card", dataset: { item: it.id } },
      h("strong", {}, `${it.name} — ${it.cost} NP`), h("p", { class: "muted" }, it.text),
      h("p", {}, `owned ${it.owned} of at most ${it.max_owned} (${it.kind})`),
      c.market.open ? busyButton(`Buy ${it.name}`, async () => {
        state.data = await call("/market", { item: it.id });
        drawCampaign();
        say(`Bought ${it.name}.`);
      }, { disabled: !it.can_buy, dataset: { buy: it.id } }) : null))));
}

function journal(c) {
  const text = h("textarea", { id: "note-text", rows: "2", maxlength: "2000", "aria-label": "Journal note" });
  return h("section", { class: "panel", "aria-labelledby": "journal-title" },
    h("h2", { id: "journal-title" }, "Journal"),
    c.journal.length ? h("ol", { id: "journal" }, c.journal.map((j) => h("li", {}, h("span", { class: "badge" }, `game ${j.game}`), " ", j.text))) : h("p", { class: "muted" }, "Empty so far."),
    c.notes_pending.length ? h("p", { class: "muted" }, `${plural(c.notes_pending.length, "note")} written during the game join the journal when it ends.`) : null,
    form({ id: "note-form" }, [h("label", {}, "New note ", text)], "Add the note", async () => {
      if (!text.value.trim()) throw new Error("write something first");
      state.data = await call("/notes", { text: text.value });
      drawCampaign();
      say("Note added.");
    }));
}

function tracking(c) {
  return h("section", { class: "panel", "aria-labelledby": "tracking-title" },
    h("details", {}, h("summary", {}, h("h2", { id: "tracking-title", style: "display:inline" }, "Tracking list and glossary")),
      h("div", { class: "scroll-x" }, h("table", { class: "grid", id: "tracking" },
        h("thead", {}, h("tr", {}, h("th", {}, "Planet"), h("th", {}, "Main scripts read"))),
        h("tbody", {}, c.tracking.map((p) => h("tr", {}, h("td", {}, `${p.planet} ${p.name}`),
          h("td", {}, Object.entries(p.scripts).map(([code, read]) => h("span", { class: `badge${read ? " you" : ""}`, title: read ? "read" : "not read" }, `${code}${read ? " ✓" : ""}`)))))))),
      c.glossary.length ? facts(c.glossary.map((g) => [g.term, g.text || g.definition || ""])) : h("p", { class: "muted" }, "No glossary entry unlocked yet."),
      c.narratives.length ? h("p", {}, `Narrative discoveries: ${c.narratives.map((n) => n.name || n.id).join(", ")}`) : null));
}

function partnerSection(c) {
  const p = c.partner;
  if (!p.enabled) return null;
  const codeIn = h("input", { type: "text", id: "link-code", "aria-label": "Link code from your partner" });
  const manual = h("textarea", { id: "import-code", rows: "2", "aria-label": "Partner code (KYR1-...)" });
  return h("section", { class: "panel", "aria-labelledby": "partner-title" },
    h("h2", { id: "partner-title" }, "Black Hole partner"),
    p.linked
      ? h("p", { id: "partner-status" }, `Linked with `, h("strong", {}, p.partner_name), ": your Black Hole messages reach each other automatically.")
      : [h("p", { id: "partner-status" }, "Not linked. Link with a partner's campaign on this server, or exchange codes by hand."),
        h("div", { class: "actions" }, busyButton("Create a link code", async () => {
          const made = await call("/link-invites", {});
          fill($("link-invite"), "Give this code to your partner: ", h("code", { id: "link-invite-code" }, made.code));
        }, { id: "create-link" })),
        h("p", { id: "link-invite", "aria-live": "polite" }),
        form({ id: "link-form" }, [h("label", {}, "Partner's link code ", codeIn)], "Link", async () => {
          state.data = await call("/link", { code: codeIn.value.trim() });
          drawCampaign();
          say(`Linked with ${state.data.partner.partner_name}.`);
        })],
    h("h3", {}, "Received"),
    p.inbox.length ? h("ul", { id: "partner-inbox" }, p.inbox.map((m) => h("li", {}, m.kind === "score" ? `${m.from}: questionnaire score ${m.score}` : `${m.from} (game ${m.game}): “${m.text}”`,
      m.heard_in_game ? h("span", { class: "muted" }, ` — heard in game ${m.heard_in_game}`) : h("span", { class: "muted" }, " — heard at your next game")))) : h("p", { class: "muted", id: "partner-inbox" }, "Nothing yet."),
    h("h3", {}, "Sent"),
    p.outbox.length ? h("ul", { id: "partner-outbox" }, p.outbox.map((m) => h("li", {}, `game ${m.game}: “${m.text}” `,
      h("details", {}, h("summary", {}, "code for a partner elsewhere"), h("code", { class: "ky-code-text" }, m.code))))) : h("p", { class: "muted" }, "Nothing yet."),
    p.score_code ? h("p", {}, "Your questionnaire score for your partner: ", h("code", { class: "ky-code-text", id: "score-code" }, p.score_code)) : null,
    form({ id: "import-form" }, [h("label", {}, "Paste a partner code ", manual)], "Receive the code", async () => {
      state.data = await call("/codes", { code: manual.value.trim() });
      drawCampaign();
      say("Code received.");
    }));
}

function questionnaire(c) {
  const q = c.questionnaire;
  if (q.result) {
    return h("section", { class: "panel", "aria-labelledby": "quest-title" }, h("h2", { id: "quest-title" }, "Questionnaire"),
      h("div", { id: "quest-result" }, facts([["Your score", String(q.result.own_score)],
        ["Partner's score", q.result.partner_score === null ? "— (doubled)" : String(q.result.partner_score)],
        ["Shared score", `${q.result.shared_score} / 100`], ["Status", q.result.status]])));
  }
  if (!q.open) return null;
  const partnerScore = h("input", { type: "number", min: "0", max: String(q.max), id: "partner-score", "aria-label": "Your partner's score" });
  const fields = q.answered ? [h("p", {}, `Your answers are recorded (score ${q.own_score}); the result waits for your partner's score.`)]
    : q.questions.map((question) => h("fieldset", { class: "ky-question" }, h("legend", {}, `${question.id}. ${question.text} (${question.points} points)`),
      question.choices.map((choice, i) => h("label", { class: "check" }, h("input", { type: "radio", name: question.id, value: String(i), required: true }), ` ${choice}`))));
  if (c.partner.enabled && !c.partner.linked) fields.push(h("label", {}, "Your partner's score (0-50) ", partnerScore));
  return h("section", { class: "panel", "aria-labelledby": "quest-title" },
    h("h2", { id: "quest-title" }, "Questionnaire"),
    form({ id: "quest-form" }, fields, "Score the questionnaire", async (el) => {
      const answers = {};
      for (const question of q.questions) {
        const picked = el.querySelector(`input[name="${CSS.escape(question.id)}"]:checked`);
        if (picked) answers[question.id] = Number(picked.value);
      }
      const body = { answers: q.answered ? {} : answers };
      if (partnerScore.value !== "") body.partner_score = Number(partnerScore.value);
      state.data = await call("/questionnaire", body);
      drawCampaign();
    }));
}

function drawCampaign() {
  const c = state.data;
  document.title = `holotable: ${c.name} (Kyrum campaign)`;
  $("where").textContent = `Kyrum campaign: ${c.name}`;
  const share = `${location.origin}/campaigns/${encodeURIComponent(c.campaign_id)}#token=${encodeURIComponent(state.token)}`;
  fill(root(),
    h("section", { class: "panel", "aria-labelledby": "camp-title" },
      h("h1", { id: "camp-title" }, c.name),
      h("div", { class: "status-bar" },
        h("span", { class: "badge" }, c.pack_title),
        h("span", { class: "badge", id: "next-game" }, c.complete ? "campaign complete" : `next game ${c.next_game} of ${c.length}`),
        h("span", { class: "badge" }, `${c.np_bank} NP`),
        c.partner.enabled ? h("span", { class: "badge" }, "Black Hole partner") : null),
      h("details", {}, h("summary", {}, "Open this campaign on another device"),
        h("p", { class: "muted" }, "This link holds the campaign's key: whoever has it can play the campaign. Keep it private."),
        h("code", { class: "ky-code-text" }, share))),
    playSection(c),
    h("div", { class: "ky-columns" },
      h("div", {}, scoreboard(c), questionnaire(c), partnerSection(c)),
      h("div", {}, market(c), journal(c), tracking(c))));
}

async function showCampaign(id) {
  state.id = id;
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("token")) {
    saveOne(id, hash.get("token"), null);
    history.replaceState(null, "", location.pathname);
  }
  const rec = loadAll()[id];
  if (!rec) {
    fill(root(), h("section", { class: "panel" }, h("h1", {}, "Campaign not in this browser"),
      h("p", {}, "This browser does not hold this campaign's key. Open the campaign's private link from the device that created it."),
      h("a", { href: "/campaigns" }, "Your campaigns")));
    return;
  }
  state.token = rec.token;
  try {
    await refresh();
  } catch (err) {
    fill(root(), h("p", {}, `Could not open the campaign: ${reason(err)}`), h("a", { href: "/campaigns" }, "Your campaigns"));
  }
}

const id = campaignIdFromUrl();
if (id) showCampaign(id);
else showList();
