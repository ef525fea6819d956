// One reconnecting websocket, for every screen that watches something (a table, the public
// games list). It says when it opens and when it closes, hands each message over parsed, and
// after a close tries again later: at least 2 s (the service's opens-per-address bucket
// counts on it), twice as long after each try that failed, at most 30 s, each wait stretched
// by a random half at most so that pages dropped together do not come back together.
// Pure of the browser: the socket, the clock and the dice may be given (the node tests do).

export const BACKOFF = Object.freeze({
  firstMs: 2000, // the wait after a close, before any try failed
  factor: 2, // each failed try doubles it
  maxMs: 30000, // up to this (before the jitter)
  jitter: 0.5, // the wait is stretched by up to this share, at random
  steadyMs: 10000, // a socket open this long counts as a success: the next wait is the first again
});

/** The wait before try `failed + 1` after `failed` tries that came to nothing, given a random
 * number in [0, 1). Never below `firstMs`, never above `maxMs * (1 + jitter)`. */
export function reconnectDelay(failed, random = Math.random(), b = BACKOFF) {
  const base = Math.min(b.maxMs, b.firstMs * b.factor ** Math.max(0, failed));
  return Math.round(base * (1 + b.jitter * Math.min(1, Math.max(0, random))));
}

/** The websocket URL of a service path ("/ws?game_uuid=...") on the page's own host. */
export function socketUrl(path, where = globalThis.location) {
  return `${where.protocol === "https:" ? "wss" : "ws"}://${where.host}${path}`;
}

/**
 * Watch `path` over a websocket until `close()`.
 *  onMessage(frame): each message, parsed: {statusCode, body} with `body` parsed too (null
 *    when a message is not the JSON the service sends).
 *  onOpen(): the socket opened (the first time, and after each reconnect).
 *  onClose(): an open socket closed (a reconnect is then planned); not called by `close()`.
 * `env` replaces the browser's pieces: {WebSocket, setTimeout, clearTimeout, now, random, url}.
 * Answers {close(), isOpen()}.
 */
export function live(path, { onMessage = () => {}, onOpen = () => {}, onClose = () => {} } = {}, env = {}) {
  const Socket = env.WebSocket || globalThis.WebSocket;
  const later = env.setTimeout || ((f, ms) => setTimeout(f, ms));
  const cancel = env.clearTimeout || ((t) => clearTimeout(t));
  const now = env.now || (() => Date.now());
  const dice = env.random || Math.random;
  const url = env.url || socketUrl(path);
  let socket = null;
  let open = false;
  let openedAt = 0;
  let failed = 0; // tries since the last socket that stayed open long enough
  let retry = null;
  let stopped = false;

  function plan() {
    if (stopped || retry !== null) return;
    const wait = reconnectDelay(failed, dice());
    failed += 1;
    retry = later(() => { retry = null; connect(); }, wait);
  }

  function connect() {
    if (stopped) return;
    let ws;
    try { ws = new Socket(url); } catch { plan(); return; }
    socket = ws;
    ws.onopen = () => {
      if (stopped || socket !== ws) return;
      open = true;
      openedAt = now();
      onOpen();
    };
    ws.onmessage = (ev) => {
      if (stopped || socket !== ws) return;
      let frame;
      try {
        const outer = JSON.parse(ev.data);
        let body = null;
        try { body = typeof outer.body === "string" ? JSON.parse(outer.body) : null; } catch { body = null; }
        frame = { statusCode: outer.statusCode, body };
      } catch {
        frame = { statusCode: null, body: null };
      }
      onMessage(frame);
    };
    ws.onclose = () => {
      if (stopped || socket !== ws) return;
      socket = null;
      const was = open;
      open = false;
      if (was && now() - openedAt >= BACKOFF.steadyMs) failed = 0;
      if (was) onClose();
      plan();
    };
  }

  connect();
  return {
    isOpen: () => open,
    close() {
      stopped = true;
      open = false;
      if (retry !== null) cancel(retry);
      retry = null;
      if (socket) {
        const ws = socket;
        socket = null;
        try { ws.close(); } catch { /* already closed */ }
      }
    },
  };
}
