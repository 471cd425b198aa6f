// Talking to the holotable server: JSON over HTTP, seat tokens in localStorage.

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

async function request(method, url, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, `cannot reach the server (${err.message})`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!response.ok) {
    let detail = data && data.detail !== undefined ? data.detail : response.statusText;
    if (typeof detail !== "string") detail = JSON.stringify(detail);
    throw new ApiError(response.status, detail);
  }
  return data;
}

export const getJSON = (url, token) => request("GET", url, undefined, token);
export const postJSON = (url, body, token) => request("POST", url, body ?? {}, token);

const SEAT_KEY = (tableId) => `holotable:seat:${tableId}`;
const INVITE_KEY = (tableId) => `holotable:invite:${tableId}`;

/** The seat token this browser holds for a table (a plain string), or null. */
export function loadToken(tableId) {
  try {
    return localStorage.getItem(SEAT_KEY(tableId));
  } catch {
    return null;
  }
}

export function saveToken(tableId, token) {
  try {
    localStorage.setItem(SEAT_KEY(tableId), token);
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}

/** Invitations this browser created, so its lobby can offer them again. */
export function loadInvite(tableId) {
  try {
    return localStorage.getItem(INVITE_KEY(tableId));
  } catch {
    return null;
  }
}

export function saveInvite(tableId, invite) {
  try {
    localStorage.setItem(INVITE_KEY(tableId), invite);
  } catch {
    /* ignore */
  }
}

export function inviteUrl(tableId, invite) {
  return `${location.origin}/t/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(invite)}`;
}

export function tableUrl(tableId) {
  return `/t/${encodeURIComponent(tableId)}`;
}

/** The name this browser's player goes by at tables (optional). */
export function loadName() {
  try {
    return localStorage.getItem("holotable:name") || "";
  } catch {
    return "";
  }
}

export function saveName(name) {
  try {
    if (name) localStorage.setItem("holotable:name", name);
    else localStorage.removeItem("holotable:name");
  } catch {
    /* ignore */
  }
}

/** Start a guided first game of `game` (its tutorial) and go to its table. Throws an ApiError on refusal. */
export async function startTutorial(game) {
  const name = loadName();
  const made = await postJSON(`/api/tutorials/${encodeURIComponent(game)}`, name ? { name } : {});
  if (made.you && made.you.token) saveToken(made.table_id, made.you.token);
  location.href = tableUrl(made.table_id);
}
