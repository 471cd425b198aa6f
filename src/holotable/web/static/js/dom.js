// Small DOM helpers shared by the lobby, the table shell and the game renderers.

/**
 * Create an element: h("button", {class: "x", onclick: fn}, "text", child).
 * Attributes named on* become listeners; `dataset` takes an object; false/null attributes are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else if (name === "class") {
      el.className = value;
    } else if (name === "text") {
      el.textContent = value;
    } else if (value === true) {
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace everything inside `el` by `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// The control a redraw could not give the focus back to (it was disabled while a move was on its way).
let waitingFor = null;
let stopGap = null;

/**
 * Re-render `container` with `draw` while keeping the keyboard focus (and typed values) on the
 * element with the same data-key, so a state pushed by the server does not throw a keyboard
 * user back to the top of the page. When that control is gone (the move was made), the focus
 * goes to the next move's first control.
 */
export function redraw(container, draw) {
  const active = document.activeElement;
  let key = null;
  if (active && active === stopGap && waitingFor) key = waitingFor;
  else if (active && container.contains(active)) key = active.dataset.key || "*";
  else if (!active || active === document.body) key = waitingFor;
  const values = {};
  for (const input of container.querySelectorAll("input[data-key], select[data-key]")) {
    values[input.dataset.key] = input.value;
  }
  draw();
  for (const input of container.querySelectorAll("input[data-key], select[data-key]")) {
    if (input.dataset.keep !== undefined && values[input.dataset.key] !== undefined) {
      input.value = values[input.dataset.key];
      input.dispatchEvent(new Event("input"));
    }
  }
  waitingFor = null;
  stopGap = null;
  if (!key) return;
  const same = key === "*" ? null : container.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (same && same.disabled) {
    waitingFor = key;
    return;
  }
  const target = same
    || container.querySelector("#your-move button:not([disabled]), #your-move input")
    || container.querySelector("#your-move, h2");
  if (!target) return;
  if (!same && key !== "*") {
    // The control is gone for now (not this seat's turn): hold the focus nearby, and give it back
    // to that control when it returns, unless the player has moved on.
    waitingFor = key;
    stopGap = target;
  }
  if (!["BUTTON", "INPUT", "SELECT", "A", "TEXTAREA"].includes(target.tagName) && !target.hasAttribute("tabindex")) {
    target.setAttribute("tabindex", "-1");
  }
  target.focus({ preventScroll: true });
}

/** "Seat 2" or "Seat 2 (you)". */
export function seatName(seat, you) {
  return seat === you ? `Seat ${seat + 1} (you)` : `Seat ${seat + 1}`;
}

/** "1 coin" / "3 coins". */
export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

/** A definition list from [term, description] pairs. */
export function facts(pairs, cls = "facts") {
  return h("dl", { class: cls }, pairs.filter(Boolean).map(([dt, dd]) => [h("dt", {}, dt), h("dd", {}, dd)]));
}
