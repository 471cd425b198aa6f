// Black Hole Council: the five planets above the five outcomes (the Leader rearranges them by drag and
// drop, by click-to-swap or with the arrow keys; everyone sees each swap live), the sand timer and the
// call for the Vote, suggestions and pledges as buttons, bribes, the secret vote revealed together,
// Advance with your own points (shown to you alone), Intrigue cards, the three Deduction Rounds, the
// Planet History, the Pay-Out and the table chat (a channel of the server, open in every phase).

import { facts, h, plural } from "../js/dom.js";

const OUTCOMES = ["settle", "tax", "mine", "conquer", "black_hole"];
const OUTCOME_NAMES = { settle: "Settle", tax: "Tax", mine: "Mine", conquer: "Conquer", black_hole: "Black Hole" };
const COLOURS = ["red", "green", "yellow", "blue", "black"];
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

const outcomeName = (o) => OUTCOME_NAMES[o] || o;
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const swapText = (a, b) => {
  const [lo, hi] = [a, b].sort((x, y) => OUTCOMES.indexOf(x) - OUTCOMES.indexOf(y));
  return `swap ${lo} ${hi}`;
};

// ------------------------------------------------------------------ long-lived module state
const chat = new Map(); // id -> {id, seat, text, ts, ply}
let picked = null; // the outcome whose planet the Leader picked up (click-to-swap, keyboard)
let pickedProposal = null;
let myVote = null; // {proposal, text}: what this page voted (shown to this seat only; never sent elsewhere)
let lastState = null; // {proposalsMade, phase, votes} to announce changes
let timerFor = null; // the payload the timer counts down for
let clockOffset = 0;
let chatHistoryAsked = false;
let claimOpen = false; // the claim form stays open across redraws once opened
// The live region stays in the page across redraws, so screen readers hear its changes (the timer running
// out, the Vote called, the votes revealed, a new Proposal).
const announcer = h("p", { id: "council-announce", class: "council-announce", role: "status", "aria-live": "polite" });

function serverNow() {
  return Date.now() / 1000 + clockOffset;
}

setInterval(tickTimer, 250);

function tickTimer() {
  const bar = document.getElementById("council-timer");
  if (!bar || !timerFor) return;
  const deadline = timerFor.deadline;
  const total = Math.max(1, timerFor.seconds);
  const left = Math.max(0, deadline - serverNow());
  const share = Math.min(1, left / total);
  const sand = bar.querySelector(".sand-top");
  const bottom = bar.querySelector(".sand-bottom");
  if (sand) sand.style.height = `${Math.round(share * 100)}%`;
  if (bottom) bottom.style.height = `${Math.round((1 - share) * 100)}%`;
  const text = bar.querySelector(".timer-text");
  const shown = `${Math.ceil(left)} s`;
  if (text && text.textContent !== shown) text.textContent = shown;
  bar.setAttribute("aria-valuenow", String(Math.ceil(left)));
  bar.setAttribute("aria-valuetext", `${Math.ceil(left)} seconds left`);
  bar.classList.toggle("low", left < Math.min(10, total / 3));
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
  return h("span", { class: `planet-face colour-${colour}`, "aria-hidden": "true" },
    h("span", { class: "planet-dot" }),
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
function planetsPanel(ctx) {
  const view = ctx.view;
  const table = view.table || {};
  if (!Object.keys(table).length) return null;
  if (pickedProposal !== view.proposals_made || !canSwap(ctx)) picked = null;
  pickedProposal = view.proposals_made;
  const arranging = canSwap(ctx);
  const slots = OUTCOMES.map((outcome, i) => {
    const planet = table[outcome];
    const mine = matchesMine(ctx, outcome, planet);
    const label = `${outcomeName(outcome)}: ${planetLabel(planet)}${mine ? ", matches your Agenda" : ""}`;
    let card;
    if (arranging) {
      card = h("button", {
        type: "button", class: `planet${picked === outcome ? " picked" : ""}`, draggable: "true",
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
      }, planetCard(planet, { mark: mine }), h("span", { class: "planet-id" }, planet.id));
    } else {
      card = h("div", { class: "planet", role: "img", "aria-label": label, dataset: { planet: planet.id, outcome } },
        planetCard(planet, { mark: mine }), h("span", { class: "planet-id" }, planet.id));
    }
    const moves = arranging ? h("div", { class: "planet-moves" },
      i > 0 ? h("button", { type: "button", class: "small", disabled: ctx.busy, "aria-label": `Move ${planet.id} left (swap ${outcomeName(outcome)} and ${outcomeName(OUTCOMES[i - 1])})`, dataset: { key: `left:${outcome}`, move: `left:${outcome}` }, onclick: () => swapTo(ctx, outcome, OUTCOMES[i - 1]) }, "◀") : null,
      i < 4 ? h("button", { type: "button", class: "small", disabled: ctx.busy, "aria-label": `Move ${planet.id} right (swap ${outcomeName(outcome)} and ${outcomeName(OUTCOMES[i + 1])})`, dataset: { key: `right:${outcome}`, move: `right:${outcome}` }, onclick: () => swapTo(ctx, outcome, OUTCOMES[i + 1]) }, "▶") : null,
    ) : null;
    return h("li", {
      class: `slot${mine ? " match" : ""}`, dataset: { slot: outcome },
      ondragover: arranging ? (event) => { event.preventDefault(); event.currentTarget.classList.add("over"); } : null,
      ondragleave: arranging ? (event) => event.currentTarget.classList.remove("over") : null,
      ondrop: arranging ? (event) => {
        event.preventDefault();
        event.currentTarget.classList.remove("over");
        swapTo(ctx, event.dataTransfer.getData("text/plain"), outcome);
      } : null,
    }, card, h("span", { class: "outcome-name" }, outcomeName(outcome)), moves);
  });
  const title = view.phase === "negotiate" ? `Proposal ${view.proposal}: the Leader's arrangement` : `Proposal ${view.proposal}: the arrangement`;
  return h("section", { class: "panel council-table", "aria-labelledby": "council-planets-title" },
    h("h2", { id: "council-planets-title" }, title),
    h("ol", { class: "planets", id: "council-planets", "aria-label": "Planets above the outcomes" }, slots),
    arranging
      ? h("p", { class: "help", id: "council-arrange-help" }, "You are the Leader: drag a planet onto another to swap them, or press one planet then another, or focus a planet and use the arrow keys (◀ ▶ buttons do the same). Everyone sees each swap at once.")
      : h("p", { class: "help" }, view.phase === "negotiate" ? `${ctx.name(view.leader)} (the Leader) arranges the planets; everyone sees each change live.` : ""),
    ctx.view.you ? h("p", { class: "help" }, "✓ marks a planet that scores for your secret Agenda (only you see this).") : null,
    facts([
      ["Deck", plural(view.deck_size, "card")],
      view.discards.length ? ["Left Black Hole", view.discards.map((d) => `${d.planet} (round ${d.round}, Proposal ${d.proposal})`).join(", ")] : null,
    ]));
}

// ------------------------------------------------------------------ timer and negotiation
function timerPanel(ctx) {
  const view = ctx.view;
  if (view.phase !== "negotiate") {
    timerFor = null;
    return null;
  }
  const clock = ctx.payload.clock;
  const deadline = clock && clock.period_deadline_ts;
  const parts = [];
  if (deadline) {
    if (!timerFor || timerFor.deadline !== deadline) timerFor = { deadline, seconds: view.negotiation_seconds };
    const left = Math.max(0, Math.ceil(deadline - serverNow()));
    parts.push(h("div", {
      class: "sand-timer", id: "council-timer", role: "timer", "aria-label": "Sand timer",
      "aria-valuemin": "0", "aria-valuemax": String(view.negotiation_seconds), "aria-valuenow": String(left),
    }, h("span", { class: "glass", "aria-hidden": "true" }, h("span", { class: "sand-top" }), h("span", { class: "sand-bottom" })),
    h("span", { class: "timer-text" }, `${left} s`)));
  } else {
    timerFor = null;
    parts.push(h("p", { class: "help" }, "No sand timer at this table: the Leader calls the Vote (or runs out of moves)."));
  }
  const call = actionButton(ctx, "call vote", "Call the Vote", { class: "primary" });
  return h("section", { class: "panel council-timer-panel", "aria-labelledby": "council-timer-title" },
    h("h2", { id: "council-timer-title" }, "Negotiation"),
    h("div", { class: "timer-row" }, parts, call),
    h("p", { class: "help" }, `The Vote starts when the Leader calls it${deadline ? ` or when the ${view.negotiation_seconds}-second timer runs out` : ""}.`));
}

function negotiationPanel(ctx) {
  const view = ctx.view;
  if (view.phase !== "negotiate" || ctx.seat === null || ctx.seat === undefined) return null;
  const legal = new Set(ctx.legal);
  const body = [];
  if (!ctx.legal.length) {
    return h("section", { class: "panel", id: "your-move", tabindex: "-1", "aria-labelledby": "your-move-title" },
      h("h2", { id: "your-move-title" }, "Negotiation"),
      h("p", {}, "You have no negotiation moves left this Proposal. The chat stays open; wait for the Vote."));
  }
  if (isLeader(ctx)) {
    const bribes = [];
    for (let s = 0; s < view.positions.length; s++) {
      if (s === ctx.seat) continue;
      const buttons = [];
      for (let k = 1; k <= 5; k++) {
        buttons.push(actionButton(ctx, `bribe ${s} ${k}`, `Give ${plural(k, "coin")}`));
      }
      const accept = actionButton(ctx, `accept ${s}`, `Accept ${ctx.name(s)}'s 1-coin bribe`);
      if (buttons.some(Boolean) || accept) {
        bribes.push(h("li", { dataset: { seat: String(s) } }, h("strong", {}, ctx.label(s)), " ", buttons, accept,
          view.offers.includes(s) ? h("span", { class: "badge turn" }, "offers you 1 coin") : null,
          view.pending[s] ? h("span", { class: "badge" }, `${view.pending[s]} pending`) : null));
      }
    }
    body.push(h("h3", {}, `Bribes (Bribe Space: ${plural(view.bribe_space, "coin")})`),
      bribes.length ? h("ul", { class: "bribe-list", id: "council-bribes" }, bribes) : h("p", { class: "muted" }, "No bribe to give or take now."),
      h("p", { class: "help" }, "Coins given from the Bribe Space lie next to the player's Bank until the vote: kept if it passes, returned if it fails. You may accept one 1-coin bribe per Proposal, never from a player you bribed."));
  } else {
    const money = [
      actionButton(ctx, "offer", "Offer the Leader 1 coin"),
      actionButton(ctx, "withdraw", "Withdraw my offer"),
    ];
    const asks = [1, 2, 3, 4, 5].map((k) => (k <= Math.max(1, view.bribe_space) ? actionButton(ctx, `ask bribe ${k}`, `Ask for ${plural(k, "coin")}`) : null));
    const pledges = [actionButton(ctx, "support", "I will vote Pass (support)"), actionButton(ctx, "oppose", "I will vote Fail (oppose)")];
    body.push(h("h3", {}, "Bribes and pledges"),
      h("div", { class: "actions" }, money, asks),
      h("div", { class: "actions" }, pledges, actionButton(ctx, "done", "Nothing more to say")),
      h("p", { class: "help" }, `Moves left this Proposal: ${view.moves_left[ctx.seat]} (suggestions, pledges, offers and claims each use one; chat below is free).`));
  }
  const suggestions = [];
  for (let i = 0; i < 5; i++) {
    for (let j = i + 1; j < 5; j++) {
      const text = `suggest swap ${OUTCOMES[i]} ${OUTCOMES[j]}`;
      if (legal.has(text)) suggestions.push(actionButton(ctx, text, `Swap ${outcomeName(OUTCOMES[i])} and ${outcomeName(OUTCOMES[j])}`, { class: "action suggestion" }));
    }
  }
  if (suggestions.length) {
    body.push(h("h3", {}, isLeader(ctx) ? "Suggest (announce a swap without making it)" : "Suggest a swap to the Leader"),
      h("div", { class: "actions suggestions", id: "council-suggestions" }, suggestions));
  }
  if (ctx.legal.some((t) => t.startsWith("claim "))) body.push(claimForm(ctx));
  if (!body.length) return null;
  return h("section", { class: `panel${ctx.legal.length ? " ask" : ""}`, id: "your-move", tabindex: "-1", "aria-labelledby": "your-move-title" },
    h("h2", { id: "your-move-title" }, isLeader(ctx) ? "Your move: you are the Leader" : "Your move: negotiate"), body);
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
  return h("section", { class: "panel", "aria-labelledby": "council-talk-title" },
    h("h2", { id: "council-talk-title" }, "This Proposal's talk"),
    talk.length
      ? h("ul", { class: "talk", id: "council-talk" }, talk.map((t) => h("li", { dataset: { seat: String(t.seat) } }, h("strong", {}, `${ctx.name(t.seat)}: `), describeTalk(t.text, ctx))))
      : h("p", { class: "muted" }, "No suggestions, pledges or claims yet."),
    ctx.view.offers.length ? h("p", {}, `Open offers to the Leader: ${ctx.view.offers.map(ctx.name).join(", ")}.`) : null);
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
    h("ul", { class: "chosen-list", id: "council-voters", "aria-label": "Who has voted" }, voters.map((s) => h("li", {
      class: "badge", dataset: { seat: String(s), voted: String(ctx.committed.includes(s)) },
    }, `${ctx.name(s)}: ${ctx.committed.includes(s) ? "✓ has voted" : "… deciding"}`))));
}

function lastVotePanel(ctx) {
  const votes = ctx.view.votes || [];
  if (!votes.length) return null;
  const last = votes[votes.length - 1];
  const passes = last.votes.filter((v) => v === "pass").length;
  const fails = last.votes.filter((v) => v === "fail").length;
  return h("section", { class: "panel", "aria-labelledby": "council-vote-title" },
    h("h2", { id: "council-vote-title" }, `Last vote: round ${last.round}, Proposal ${last.proposal}: ${last.approved ? "Approved" : "Failed"}`),
    h("ul", { class: "vote-result", id: "council-votes" }, last.votes.map((v, s) => h("li", {
      class: `badge ${v || "leader"}`, dataset: { seat: String(s), vote: v || "leader" },
    }, `${ctx.name(s)}: ${v === null ? "Leader" : cap(v)}`))),
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
          [h("span", { class: `swatch colour-${c}`, "aria-hidden": "true" }), cap(c)])))));
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
        if (s === view.leader && view.phase !== "over") notes.push(h("span", { class: "badge turn" }, "Leader"));
        if (view.pending[s]) notes.push(h("span", { class: "badge" }, `${view.pending[s]} pending`));
        if (view.offers.includes(s)) notes.push(h("span", { class: "badge" }, "offers 1 coin"));
        if (view.accepted_from === s) notes.push(h("span", { class: "badge" }, "bribe accepted"));
        if (played.has(s)) notes.push(h("span", { class: "badge" }, `played ${outcomeName(played.get(s).kind)} Intrigue`));
        return h("tr", { class: s === ctx.seat ? "me" : "", dataset: { seat: String(s) } },
          h("td", {}, ctx.label(s)),
          h("td", { class: "num" }, h("span", { class: "track" }, h("span", { class: "track-fill", style: `width:${Math.round((view.positions[s] / end) * 100)}%` })), ` ${view.positions[s]}/${end}`),
          h("td", { class: "num" }, view.positions[s] < end ? String(view.track_costs[view.positions[s] - 1]) : "—"),
          h("td", { class: "num" }, String(view.banks[s])),
          h("td", {}, notes));
      })))));
}

function privatePanel(ctx) {
  const you = ctx.view.you;
  if (!you) return null;
  const goals = you.agenda.goals;
  return h("section", { class: "panel secret-panel", id: "council-private", "aria-labelledby": "council-private-title" },
    h("h2", { id: "council-private-title" }, "Your secret cards (only you see these)"),
    h("div", { class: "agenda", dataset: { agenda: you.agenda.id } },
      h("h3", {}, `Agenda ${you.agenda.id}`),
      h("ul", { class: "agenda-goals" }, OUTCOMES.map((o) => h("li", {}, h("span", { class: `swatch colour-${goals[o]}`, "aria-hidden": "true" }), `${cap(goals[o])} → ${outcomeName(o)}`)))),
    h("div", { class: "intrigue" },
      h("h3", {}, `Intrigue card: ${outcomeName(you.intrigue)}${you.intrigue_played ? " (played)" : ""}`),
      h("p", { class: "help" }, INTRIGUE_TEXT[you.intrigue] || "")),
    you.points !== null && you.points !== undefined
      ? h("p", {}, h("strong", {}, "Your points for the table now: "), String(you.points),
        you.points_with_intrigue !== null && you.points_with_intrigue !== undefined ? ` (${you.points_with_intrigue} with your Intrigue card)` : "")
      : null);
}

function historyPanel(ctx) {
  const history = ctx.view.history || [];
  return h("section", { class: "panel", "aria-labelledby": "council-history-title" },
    h("h2", { id: "council-history-title" }, "Planet History"),
    history.length ? h("ol", { class: "history", id: "council-history" }, history.map((set) => h("li", { dataset: { round: String(set.round), writtenOff: String(set.written_off) } },
      h("strong", {}, `Round ${set.round}: `),
      set.written_off
        ? h("span", { class: "muted" }, "written off: five face-down cards (no Advance, no Pay-Out)")
        : h("span", { class: "history-set" }, OUTCOMES.map((o) => h("span", { class: "hist-planet", title: `${outcomeName(o)}: ${planetLabel(set.planets[o])}` },
          planetCard(set.planets[o], { mark: matchesMine(ctx, o, set.planets[o]) }), h("span", { class: "outcome-name" }, outcomeName(o)))))))) : h("p", { class: "muted" }, "No round finished yet."),
    history.length ? h("p", { class: "help" }, "At the Pay-Out each history planet with a coin symbol that matches your Agenda pays its coins.") : null);
}

// ------------------------------------------------------------------ chat
function mergeChat(lines) {
  for (const line of lines || []) if (line && line.id !== undefined) chat.set(line.id, line);
}

// The chat log is one long-lived list: new lines are appended (its scroll position and its live region
// survive the redraw of everything else on every state).
const chatLog = h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite", "aria-relevant": "additions", tabindex: "0", "aria-label": "Chat messages" });
const chatShown = new Set();
let chatShownUpTo = -1;

function chatLine(l, ctx) {
  return h("li", { dataset: { seat: String(l.seat), id: String(l.id) }, class: l.seat === ctx.seat ? "mine" : "" },
    h("span", { class: "chat-time" }, new Date(l.ts * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })), " ",
    h("strong", {}, `${ctx.name(l.seat)}: `), h("span", { class: "chat-text" }, l.text));
}

function updateChatLog(ctx) {
  const all = [...chat.values()].sort((a, b) => a.id - b.id).slice(-200);
  const fresh = all.filter((l) => !chatShown.has(l.id));
  if (!all.length) {
    if (!chatLog.children.length) chatLog.append(h("li", { class: "muted empty" }, "Nobody has said anything yet."));
    return;
  }
  if (!fresh.length) return;
  const atBottom = chatLog.scrollHeight - chatLog.scrollTop - chatLog.clientHeight < 30;
  if (fresh.some((l) => l.id < chatShownUpTo)) {
    // Older lines arrived (the history asked for after the first picture): lay the whole list out again.
    chatLog.replaceChildren(...all.map((l) => chatLine(l, ctx)));
    chatShown.clear();
    for (const l of all) chatShown.add(l.id);
  } else {
    for (const empty of chatLog.querySelectorAll("li.empty")) empty.remove();
    for (const l of fresh) {
      chatLog.append(chatLine(l, ctx));
      chatShown.add(l.id);
    }
    while (chatLog.children.length > 200) chatLog.firstElementChild.remove();
  }
  chatShownUpTo = all[all.length - 1].id;
  if (atBottom || fresh.length === all.length) requestAnimationFrame(() => { chatLog.scrollTop = chatLog.scrollHeight; });
}

function chatPanel(ctx) {
  mergeChat(ctx.extra && ctx.extra.chat);
  updateChatLog(ctx);
  const seated = ctx.seat !== null && ctx.seat !== undefined;
  const limit = (ctx.extra && ctx.extra.chat_max_chars) || 200;
  const input = h("input", {
    type: "text", id: "chat-input", maxlength: String(limit), autocomplete: "off", disabled: !seated,
    placeholder: seated ? "Say something to the table" : "Take a seat to chat", dataset: { key: "chat-input", keep: "" },
  });
  const form = h("form", {
    class: "chat-form", id: "chat-form", onsubmit: (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      if (ctx.send({ type: "chat", text })) {
        input.value = "";
        ctx.showError("");
      } else ctx.showError("You are offline: the message was not sent.");
    },
  }, h("label", { for: "chat-input", class: "visually-hidden" }, "Chat message"), input,
  h("button", { type: "submit", id: "chat-send", disabled: !seated, dataset: { key: "chat-send" } }, "Send"));
  return h("section", { class: "panel council-chat", "aria-labelledby": "council-chat-title" },
    h("h2", { id: "council-chat-title" }, "Table chat"),
    chatLog,
    form,
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
  if (text) announcer.textContent = text;
}

// ------------------------------------------------------------------ the renderer
function render(ctx) {
  const clock = ctx.payload.clock;
  clockOffset = clock && clock.now ? clock.now - Date.now() / 1000 : clockOffset;
  if (!chatHistoryAsked && ctx.send({ type: "chat_history" })) chatHistoryAsked = true;
  announce(ctx);
  const view = ctx.view;
  const out = [announcer];
  if (view.phase === "over") {
    out.push(historyPanel(ctx), deductionResults(ctx), seatsPanel(ctx), chatPanel(ctx));
    return out;
  }
  out.push(timerPanel(ctx), planetsPanel(ctx), negotiationPanel(ctx), votePanel(ctx), advancePanel(ctx), deductionPanel(ctx),
    h("div", { class: "council-row" }, privatePanel(ctx), chatPanel(ctx)),
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

export default { render, prompt, result, onMessage, stylesheet: "council", scoreLabel: "Space" };
