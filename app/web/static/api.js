// The public API as the browser uses it: JSON bodies, credentials only in the Authorization
// header (never in a URL the server sees). Refusals carry the service's code; errors.js has
// the words a player reads.
export class ApiError extends Error {
  constructor(status, body, retryAfter = null) {
    super((body && body.error) || (status ? `HTTP ${status}` : "network error"));
    this.status = status;
    this.code = body && body.code;
    this.retryAfter = Number(retryAfter) > 0 ? Number(retryAfter) : null; // seconds, after a 429
  }
}

/** One request. `cache` is the browser cache's use ("no-store" unless a caller asks: a
 * finished game's record, which never changes, is read with "default"). */
export async function api(path, { method = "GET", body, token, etag, key, cache = "no-store" } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (etag) headers["If-None-Match"] = etag;
  if (key) headers["Idempotency-Key"] = key;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache,
    });
  } catch {
    throw new ApiError(0, null);
  }
  if (response.status === 304) return { status: 304, data: null, etag };
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data, response.headers.get("Retry-After"));
  return { status: response.status, data, etag: response.headers.get("ETag") };
}

/** The seat kept for a game: {player_uuid, nickname}, or null. */
export function seatOf(game) {
  try {
    return JSON.parse(localStorage.getItem(`blef:seat:${game}`));
  } catch {
    return null;
  }
}

/** Keep `seat` ({player_uuid, nickname, rated?}) for `game`. A seat told without its secret
 * (the queue's answer once the seat moved to another device) is not kept: the seat kept
 * before stays, and its table then says that the seat moved. */
export function keepSeat(game, seat) {
  if (!seat || !seat.player_uuid) return;
  localStorage.setItem(`blef:seat:${game}`, JSON.stringify(seat));
}

export function forgetSeat(game) {
  localStorage.removeItem(`blef:seat:${game}`);
}

/** A preference kept in this browser (sound, tips, ...). */
export function pref(name, fallback) {
  const v = localStorage.getItem(`blef:pref:${name}`);
  return v === null ? fallback : v === "true";
}

export function setPref(name, value) {
  localStorage.setItem(`blef:pref:${name}`, String(value));
}

/** The name this browser last played under, or "". */
export function savedName() {
  return localStorage.getItem("blef:name") || "";
}

export function saveName(name) {
  localStorage.setItem("blef:name", name);
}

/**
 * Moves a seat to this browser: the service answers a fresh secret for it and retires
 * `player` (the one the link carried), so the device the seat came from sees nothing more of
 * it. Retried once with the same key if the answer is lost. Answers
 * `{game_uuid, player_uuid, nickname}`.
 */
export async function moveSeat(game, player) {
  const key = crypto.randomUUID();
  const ask = () => api(`/games/${game}/move-seat`, { method: "POST", token: player, key });
  try {
    return (await ask()).data;
  } catch (e) {
    if (e instanceof ApiError && e.status === 0) return (await ask()).data;
    throw e;
  }
}

/**
 * The next game of a finished game's table, asked for by one of its players: the service
 * makes it once (same rules, same computer players) and seats everyone who asks in it.
 * Answers `{game_uuid, player_uuid}`: the new seat.
 */
export async function rematchOf(previousGame, previousPlayer) {
  const { data } = await api("/games/create", {
    method: "POST",
    body: { previous_game_uuid: previousGame, previous_player_uuid: previousPlayer },
  });
  return data;
}
