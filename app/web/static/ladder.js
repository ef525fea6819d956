// Accounts and rated games, apart from their views (ladderview.js): the account kept in this
// browser, the rated-play store (the queue, polled), and the pure helpers that put numbers
// into words (tested under node). The account's key goes only in the Authorization header.
import { api, ApiError, keepSeat } from "./api.js";
import { words } from "./errors.js";
import { tableAt } from "./games.js";
import { boardPool, gameNameOfSeat, gameOfPool, knownPools, loadPools, poolTitle } from "./pools.js";
import { announce, fail, toast } from "./ui.js";

export { poolTitle };

const ACCOUNT = "blef:account";
/** The event this page sends itself when this browser signs in or out, or a rated result
 * comes in (the header listens). */
export const ACCOUNT_CHANGED = "blef:account-changed";

/** The account this browser holds: {handle, secret, device}, or null (`device`: the secret is
 * this browser's own, given at a passkey sign-in, so signing out may forget it at the server). */
export function accountOf() {
  try {
    const a = JSON.parse(localStorage.getItem(ACCOUNT));
    return a && typeof a.secret === "string" && typeof a.handle === "string" ? a : null;
  } catch {
    return null;
  }
}

export function keepAccount(account) {
  const kept = { handle: account.handle, secret: account.secret };
  if (account.device) kept.device = true;
  localStorage.setItem(ACCOUNT, JSON.stringify(kept));
  dispatchEvent(new Event(ACCOUNT_CHANGED));
}

export function forgetAccount() {
  localStorage.removeItem(ACCOUNT);
  dispatchEvent(new Event(ACCOUNT_CHANGED));
}

/** A rating to one decimal, a true minus before a negative one: "3.4", "−1.8", "0.0" (the
 * ordinal, as the API's `rating`; people are shown `display_rating`, see `shown`). */
export function rating(x) {
  const r = Math.round(x * 10) / 10;
  return r < 0 ? `−${(-r).toFixed(1)}` : r.toFixed(1).replace("-", "");
}

/** A change with its sign: "+3.4", "−1.8" (a true minus), "±0.0". */
export function signed(x) {
  const r = Math.round(x * 10) / 10;
  if (r > 0) return `+${r.toFixed(1)}`;
  if (r < 0) return `−${(-r).toFixed(1)}`;
  return "±0.0";
}

/** The scale people see (docs/ratings.md): round(1500 + 30 × ordinal), 1500 for a newcomer. */
export function displayOf(ordinal) {
  return Math.round(1500 + 30 * ordinal);
}

/** A whole-number rating with a true minus: "1603", "−12" (never for a newcomer). */
export function points(n) {
  return n < 0 ? `−${-n}` : String(n);
}

/** A whole-number change with its sign: "+103", "−55", "±0". */
export function signedPoints(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return "±0";
}

/** The displayed rating of a rating line (`display_rating`, or from the ordinal). */
export function shown(line) {
  return typeof line.display_rating === "number" ? line.display_rating : displayOf(line.rating);
}

/** A result's displayed figures {before, after, change}: the change is always after minus
 * before as shown, so the line adds up as it reads. */
export function shownChange(result) {
  const before = typeof result.display_before === "number" ? result.display_before : displayOf(result.rating_before);
  const after = typeof result.display_after === "number" ? result.display_after : displayOf(result.rating_after);
  return { before, after, change: after - before };
}

/** "1500 → 1603 (+103)". */
export function changeWords(result) {
  const c = shownChange(result);
  return `${points(c.before)} → ${points(c.after)} (${signedPoints(c.change)})`;
}

/** A rated game's result in a sentence: "Your rating: 1500 → 1603 (+103), place 1 of 2". */
export function resultLine(result) {
  if (!result || result.void || result.rating_after === undefined || result.rating_after === null)
    return "This game did not count for ratings.";
  return `Your rating: ${changeWords(result)}, place ${result.place} of ${result.of}`;
}

/** What a seat of a rated table stands to win and lose: "a win +103, a loss −55" at a
 * table of two, "first place +98, last place −83" at a bigger one. */
export function stakeWords(seat, seats = 2) {
  if (!seat || seat.rated === false || typeof seat.if_first !== "number") return "";
  if (seats > 2) return `first place ${signedPoints(seat.if_first)}, last place ${signedPoints(seat.if_last)}`;
  return `a win ${signedPoints(seat.if_first)}, a loss ${signedPoints(seat.if_last)}`;
}

/** A pool's record in words: "3 wins, 1 loss". */
export function recordWords(line) {
  const w = line.wins;
  const l = line.losses;
  return `${w} win${w === 1 ? "" : "s"}, ${l} loss${l === 1 ? "" : "es"}`;
}

/** How far apart two ratings (mu) may be for a match after `waited` seconds (the service's
 * window: 3 at once, widening by 0.1 a second). */
export function matchWindow(waited) {
  return 3 + 0.1 * Math.max(0, waited || 0);
}

/** The waiting line: "Waited 12 s so far for players near your level." */
export function waitingLine(waited) {
  const s = Math.floor(Math.max(0, waited || 0));
  return `Waited ${s} second${s === 1 ? "" : "s"} so far for players near your level.`;
}

/** A wait in words: "30 seconds", "1 minute", "2 minutes". */
export function waitWords(seconds) {
  const n = Math.round(Math.max(0, seconds || 0));
  if (n >= 60 && n % 60 === 0) return n === 60 ? "1 minute" : `${n / 60} minutes`;
  return `${n} second${n === 1 ? "" : "s"}`;
}

export const WIDENING = "You are matched with players near your level; the longer you wait, the wider that range grows, so a match comes sooner.";

/** One pool's rating history from a profile's games (newest first, as the service lists
 * them), as chart data of its own: {x: [0..n], values: [rating before the first, then
 * after each], games}, oldest first, on the displayed scale. Each pool is counted by its
 * own games only, so one line never runs flat across another pool's games. */
export function poolHistory(games, pool) {
  const rated = (games || []).filter((g) => g.pool === pool && !g.void && g.rating_after !== undefined && g.rating_after !== null).slice().reverse();
  if (!rated.length) return { x: [], values: [], games: [] };
  const values = [shownChange(rated[0]).before, ...rated.map((g) => shownChange(g).after)];
  return { x: values.map((_, i) => i), values, games: rated };
}

/** Every pool's history (those with a rated game), in the order of `poolNames`. */
export function historySeries(games, poolNames) {
  return poolNames.map((name) => ({ name, ...poolHistory(games, name) })).filter((p) => p.games.length);
}

/** Where a seated rated table is: Blef's at #/game/<uuid>, another game's (the answer's
 * `kind`) at #/<kind>/<uuid>. */
export function tableHref(seat) {
  return tableAt(seat.kind, seat.game_uuid);
}

/** The page's title once a rated table is ready: "● Your table is ready · Figgie". */
export function readyTitle(seat, pools = knownPools()) {
  return `● Your table is ready · ${gameNameOfSeat(seat, pools)}`;
}

/** The page's title while looking: "Looking for a rated game · Economancy". */
export function lookingTitle(pool, pools = knownPools()) {
  return `Looking for a rated game · ${gameOfPool(pool, pools).name}`;
}

/** How long a person waits for people before computer players of their strength may fill
 * the table (the service's `fill_after`, in seconds); "" never. */
export const FILL_CHOICES = [
  { value: "", label: "Never: only people" },
  { value: "30", label: "After 30 seconds" },
  { value: "60", label: "After 1 minute" },
  { value: "120", label: "After 2 minutes" },
  { value: "300", label: "After 5 minutes" },
];

/** The fill wait offered first: a minute of looking for people, then computer players of
 * your strength, so that nobody waits for ever when few people are about (docs/ladder.md). */
export const FILL_DEFAULT = "60";

/** The wait this browser chose last (kept between visits), else the default. */
export function fillAfterChosen() {
  const kept = localStorage.getItem("blef:fill-after");
  if (kept === null) return FILL_DEFAULT;
  return FILL_CHOICES.some((c) => c.value === kept) ? kept : FILL_DEFAULT;
}

/** The countdown to the computer fill while waiting: "Computer players fill your table in
 * 42 s if no one is found.", or null without a fill wait. */
export function fillCountdown(q) {
  if (!q || q.fill_after === undefined || q.fill_after === null) return null;
  const left = Math.ceil(q.fill_after - (q.waited_seconds || 0));
  if (left <= 0) return "Filling your table with computer players of your strength…";
  return `Computer players of your strength fill your table in ${left} s if no one is found.`;
}

/** How many are looking in the pool, in words: "You are the only one looking in this pool
 * now.", "3 people are looking in this pool now, you included." */
export function lookingLine(q) {
  const n = q && Number.isInteger(q.looking) ? q.looking : 0;
  if (n <= 1) return "You are the only one looking in this pool now.";
  return `${n} people are looking in this pool now, you included.`;
}

/** Why a page that was looking is looking no more, in words, from the service's idle
 * answer: a table called off (someone never came to it), or the place dropped. */
export function noLongerLooking(q, me) {
  const last = q && q.last_result;
  if (last && last.called_off) {
    const absent = last.absent || [];
    const who = absent.includes(me) ? "you did not open it in time" : `${absent.join(", ")} never came to it`;
    return `Your rated table was called off because ${who}. It does not count: nobody's rating changed.`;
  }
  const after = q && q.absent_after ? Math.round(q.absent_after) : 20;
  return `You are no longer in the queue: this page stopped answering for over ${after} seconds (closed, asleep or offline), so you were taken out and nobody was seated with you. Press Find when you are here to play.`;
}

/** The body of `POST /ladder/queue`: the pool, and the fill wait when one is chosen. */
export function queueBody(pool, fillAfter) {
  return fillAfter ? { pool, fill_after: Number(fillAfter) } : { pool };
}

/**
 * The rated-play store: the pools, the queue state ({state, pool, waited_seconds, ...}),
 * and the actions (find, cancel). `changed()` is called after each change. Once seated, the
 * seat is kept as any game's and the page goes to the table.
 */
export function createRated(changed) {
  const s = {
    account: accountOf(),
    pools: knownPools(), // the service's list (pools.js), none until it answers
    pool: localStorage.getItem("blef:pool"), // the pool chosen, once the list is known one it lists
    fillAfter: fillAfterChosen(), // seconds before computer players may fill the table; "" never
    queue: null, // the last answer of GET /ladder/queue
    busy: false,
    problem: null, // the last refusal, in words
    notice: null, // why this page is looking no more, in words (dropped, called off)
    tooLate: null, // a Cancel that came after the table formed: the service's words
  };
  let alive = true;
  let timer = null;
  let acted = 0; // each Find and Cancel: a poll asked before one is out of date

  async function poll() {
    if (!alive || !s.account) return;
    const asked = acted;
    try {
      const { data } = await api("/ladder/queue", { token: s.account.secret });
      if (!alive || asked !== acted) return;
      const was = s.queue && (s.queue.state === "waiting" || s.queue.state === "forming");
      if (was && data.state === "idle") {
        s.notice = noLongerLooking({ ...data, absent_after: s.queue.absent_after }, s.account.handle);
        stopPolling();
        announce(s.notice);
      } else if (!was && data.state === "idle" && data.last_result && data.last_result.called_off && !s.notice) {
        s.notice = noLongerLooking(data, s.account.handle);
      }
      if (data.state === "idle") stopPolling(); // nothing to wait for
      s.queue = data;
      if (data.state === "seated") return seated(data);
      changed();
    } catch (e) {
      if (!alive) return;
      if (e instanceof ApiError && e.code === "unknown_account") {
        s.problem = words(e);
        s.queue = null;
        changed();
      }
      /* offline for now: the next poll retries */
    }
  }

  // Seated: the seat is kept as any game's; the page goes to the table only when this person
  // was looking for a game here (a lobby opened later shows a link instead).
  function seated(data) {
    keepSeat(data.game_uuid, { player_uuid: data.player_uuid, nickname: s.account.handle, rated: data.pool || s.pool });
    const go = !!timer || s.busy;
    stopPolling();
    changed();
    if (!go) return;
    document.title = readyTitle({ ...data, pool: data.pool || s.pool }, s.pools);
    announce("A rated game is ready: going to your table.");
    location.hash = tableHref(data);
  }

  function startPolling() {
    if (timer) return;
    timer = setInterval(poll, 1000);
  }

  function stopPolling() {
    clearInterval(timer);
    timer = null;
  }

  const actions = {
    choosePool(name) {
      s.pool = name;
      localStorage.setItem("blef:pool", name);
      changed();
    },
    async chooseFillAfter(value) {
      s.fillAfter = FILL_CHOICES.some((c) => c.value === value) ? value : "";
      localStorage.setItem("blef:fill-after", s.fillAfter);
      changed();
      const q = s.queue;
      if (!s.account || !q || q.state !== "waiting") return;
      try { // while waiting: the new wait, counted from when you joined (your place is kept)
        const { data } = await api("/ladder/queue", { method: "POST", body: queueBody(q.pool || s.pool, s.fillAfter), token: s.account.secret });
        s.queue = data;
        if (data.state === "seated") return seated(data);
        announce(s.fillAfter ? "Computer players may fill your table." : "Only people: no computer players will fill your table.");
      } catch (e) { fail(e); } finally { changed(); }
    },
    goToTable() {
      if (!s.account) return;
      s.tooLate = null;
      startPolling(); // told the seat by the next poll (coming to it): then to the table
      poll();
    },
    async find() {
      if (s.busy || !s.account || !s.pool) return;
      acted += 1;
      s.busy = true;
      s.problem = null;
      s.notice = null;
      s.tooLate = null;
      changed();
      try {
        const { data } = await api("/ladder/queue", { method: "POST", body: queueBody(s.pool, s.fillAfter), token: s.account.secret });
        s.queue = data;
        if (data.state === "seated") return seated(data);
        startPolling();
        announce(`Looking for a rated game: ${poolTitle(s.pool, s.pools)}.`);
      } catch (e) {
        if (e instanceof ApiError && e.code === "already_at_table") {
          await poll();
          if (s.queue && s.queue.state === "seated") return;
        }
        s.problem = words(e);
        fail(e);
      } finally {
        s.busy = false;
        changed();
      }
    },
    async cancel() {
      if (s.busy || !s.account) return;
      acted += 1;
      s.busy = true;
      changed();
      try {
        const { data } = await api("/ladder/queue", { method: "DELETE", token: s.account.secret });
        stopPolling();
        if (data.too_late) { // the table formed first: say so, and let the person choose
          s.queue = data;
          s.tooLate = data.message || "Too late to cancel: your table was formed before your Cancel arrived.";
          if (data.state === "seated") keepSeat(data.game_uuid, { player_uuid: data.player_uuid, nickname: s.account.handle, rated: data.pool || s.pool });
          document.title = readyTitle({ ...data, pool: data.pool || s.pool }, s.pools);
          announce(s.tooLate);
          return;
        }
        s.queue = data;
        toast("You left the queue.");
        announce("You left the queue.");
      } catch (e) { fail(e); } finally {
        s.busy = false;
        changed();
      }
    },
    signedIn(account) {
      s.account = account;
      s.queue = null;
      s.problem = null;
      poll();
      changed();
    },
    signedOut() {
      stopPolling();
      s.account = null;
      s.queue = null;
      s.problem = null;
      changed();
    },
  };

  return {
    s,
    actions,
    start() {
      loadPools().then((list) => {
        if (!alive || !list.length) return;
        s.pools = list;
        s.pool = boardPool(list, s.pool);
        changed();
      });
      if (s.account) poll().then(() => {
        const q = s.queue;
        if (q && (q.state === "waiting" || q.state === "forming")) startPolling();
      });
    },
    startPolling,
    stop() {
      alive = false;
      stopPolling();
    },
  };
}

/** Make an account with `handle`; the account kept ({handle, secret}). */
export async function makeAccount(handle) {
  const { data } = await api("/ladder/accounts", { method: "POST", body: { handle } });
  const account = { handle: data.handle, secret: data.secret };
  keepAccount(account);
  return account;
}

/** Sign in with a key pasted from another browser: the account, kept only if the service
 * knows it (a refusal throws, and nothing is stored). */
export async function signIn(key) {
  const secret = key.trim();
  const { data } = await api("/ladder/me", { token: secret });
  const account = { handle: data.handle, secret };
  keepAccount(account);
  return account;
}

/** Whether a host name is an IP address (a passkey's RP ID must be a domain name). */
export function ipHost(host) {
  return /^\[.*\]$/.test(host) || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

/** Whether this browser can make and use passkeys here (WebAuthn, its JSON helpers, a secure
 * context: https, or plain HTTP on localhost, and a page opened by a domain name, not an address). */
export function passkeysHere() {
  return typeof window !== "undefined" && !!window.isSecureContext && !ipHost(location.hostname)
    && typeof window.PublicKeyCredential === "function"
    && typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function"
    && typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function";
}

/** The account's passkeys ({credential_id, created_at, last_used_at}[]). */
export async function passkeysOf(account) {
  const { data } = await api("/ladder/passkeys", { token: account.secret });
  return data.passkeys;
}

/** Add a passkey to the signed-in account: the service's options, the browser's own prompt,
 * the new credential sent back. Returns how many passkeys the account has now. */
export async function addPasskey(account) {
  const { data: options } = await api("/ladder/passkeys/register/options", { method: "POST", token: account.secret });
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  const { data } = await api("/ladder/passkeys/register", { method: "POST", body: credential.toJSON(), token: account.secret });
  return data.passkeys;
}

/** Sign in with a passkey this browser (or its password manager) holds: the account, with
 * a new key of this browser's own, kept. */
export async function signInWithPasskey() {
  const { data: options } = await api("/ladder/passkeys/login/options", { method: "POST" });
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  const { data } = await api("/ladder/passkeys/login", { method: "POST", body: credential.toJSON() });
  const account = { handle: data.handle, secret: data.secret, device: true };
  keepAccount(account);
  return account;
}

/** Sign this browser out: a key of its own (from a passkey sign-in) is forgotten by the
 * service too; a pasted key, which other browsers may share, only here. */
export async function signOutHere(account) {
  if (account.device) {
    try {
      await api("/ladder/me/secret", { method: "DELETE", token: account.secret });
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== "unknown_account") throw e;
    }
  }
  forgetAccount();
}

/** Delete the account for good (refused while queued or seated); forgotten here once done. */
export async function deleteAccount(account) {
  await api("/ladder/me", { method: "DELETE", token: account.secret });
  forgetAccount();
}

/** Whether an error is the person closing or refusing the browser's passkey prompt. */
export function passkeyCancelled(e) {
  return !!e && (e.name === "NotAllowedError" || e.name === "AbortError");
}
