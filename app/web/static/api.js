// The public API as the browser uses it: JSON bodies, credentials only in the
// Authorization header, errors shown with the service's own words.
export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
  }
}

export async function api(path, { method = "GET", body, token, etag } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (etag) headers["If-None-Match"] = etag;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  if (response.status === 304) return { status: 304, data: null, etag };
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
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

export function keepSeat(game, seat) {
  localStorage.setItem(`blef:seat:${game}`, JSON.stringify(seat));
}

export function forgetSeat(game) {
  localStorage.removeItem(`blef:seat:${game}`);
}
