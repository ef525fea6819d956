// The state of a table of a game other than Blef, apart from its view: the service's body for
// this seat (docs: the tables' contract, `GET /{kind}/games/{uuid}`), this person's seat, and
// the events seen so far (each body carries the events of the last write only, so the store
// keeps a short journal of them). The view (kindview.js) reads it and calls its actions; every
// change calls `changed()` once. Blef's tables keep their own store (tablestore.js).
// Every change is pushed over the websocket (live.js), opened as a spectator's (a seat's
// secret never goes into a URL): a spectator takes the pushed body as it is, a seat holder
// reads its own body once per push. While the socket is open nothing is polled; while it is
// closed the table is read every KIND_POLL_MS, as Blef's table does.
import { api, ApiError, forgetSeat, keepSeat, pref, setPref } from "./api.js";
import { ERROR_CODES, words } from "./errors.js";
import { isSetup, setupQueue } from "./setup.js";
import { beep, followTable } from "./tablelive.js";
import { announce, fail, toast } from "./ui.js";

const KNOWN = new Set(ERROR_CODES);

/** The wait between two reads of the game while its websocket is closed. */
export const KIND_POLL_MS = 1500;
/** How many events the journal keeps. */
export const JOURNAL_SIZE = 60;

/** The path of a table of `kind` (every kind but Blef: `/{kind}/games/{uuid}`). */
export const tablePath = (kind, game) => `/${kind}/games/${game}`;

/** The seat's nickname in a body, or null. */
export function nicknameOf(body, seat) {
  const s = body && body.seats && body.seats[seat];
  return s ? s.nickname : null;
}

/** The host's nickname (the contract's `admin`, a nickname or a seat index). */
export function adminOf(body) {
  if (!body) return null;
  return typeof body.admin === "number" ? nicknameOf(body, body.admin) : body.admin ?? null;
}

/** The journal after a body: its events added once (a body seen twice, or an older one,
 * adds nothing), the newest last, at most `size`. Each entry: {version, event}. */
export function journalAfter(journal, body, lastVersion, size = JOURNAL_SIZE) {
  if (!body || typeof body.version !== "number" || body.version <= lastVersion) return journal;
  const added = (body.events || []).map((event) => ({ version: body.version, event }));
  return added.length ? [...journal, ...added].slice(-size) : journal;
}

export function createKindTable(kind, game, changed, g) {
  const s = {
    kind,
    game,
    seat: null, // {player_uuid, nickname}
    state: null,
    journal: [],
    journalVersion: -1,
    missing: null,
    notice: null,
    busy: false,
    live: false,
    news: "", // what the game's part wants said as a newer state is taken (screen readers)
    sound: pref("sound", false),
    ...g.state(),
  };
  try { s.seat = JSON.parse(localStorage.getItem(`blef:seat:${game}`)); } catch { s.seat = null; }
  let alive = true;
  let poller = null;
  let polls = 0; // which polling loop may go on (each start or stop makes a new one)
  let unfollow = null;
  const token = () => s.seat && s.seat.player_uuid;
  const isMyTurn = () => !!(s.state && s.state.status === "Running" && s.state.your_turn && s.state.you !== null);

  const ctx = { s, game, kind, token, changed, isMyTurn, act: move, take: accept, sendSetup: (path, body, done) => act(path, body, done) };

  function accept(body) {
    const prev = s.state;
    if (prev && body.version < prev.version) return;
    s.news = "";
    if (body.version > s.journalVersion) {
      g.taking({ s, prev, state: body }); // the game's part may note what happened, and set s.news
      s.journal = journalAfter(s.journal, body, s.journalVersion);
      s.journalVersion = body.version;
    }
    if (prev && body.version === prev.version && body.you === prev.you && body.your_turn === prev.your_turn) return;
    const wasMine = isMyTurn();
    s.state = body;
    if (s.seat && body.you !== null && body.you !== undefined) {
      const nick = nicknameOf(body, body.you);
      if (nick && nick !== s.seat.nickname) { s.seat = { ...s.seat, nickname: nick }; keepSeat(game, s.seat); }
    }
    const mine = isMyTurn();
    // What happened is said (s.news, set by the game's part), then whose turn it is.
    if (mine && !wasMine) {
      announce(`${s.news ? `${s.news} ` : ""}${g.turnWords(body)}`);
      if (s.sound) beep();
    } else if (s.news) announce(s.news);
    document.title = mine ? `● Your turn · ${g.name}` : body.status === "Finished" ? `Game over · ${g.name}` : `Room ${body.room ?? ""} · ${g.name}`;
    changed();
  }

  async function refresh() {
    const used = token() || null;
    try {
      const r = await api(tablePath(kind, game), { token: used });
      if (!alive) return;
      accept(r.data);
    } catch (e) {
      if (!alive) return;
      if (used !== (token() || null)) return; // the seat went meanwhile: another read told it
      if (e instanceof ApiError && e.status === 403 && token()) {
        // Removed by the host, or left from another tab: the kept seat opens nothing now.
        s.notice = "You are no longer in this game, so you are watching it.";
        forgetSeat(game);
        s.seat = null;
        await refresh();
        changed();
        return;
      }
      if (e instanceof ApiError && e.status === 0) return; // offline for now: the poll retries
      s.missing = e;
      changed();
    }
  }

  /** POST one change (`path` under the table); whether the service took it. The answer of a
   * move is the table's new body, taken at once. A set-up change (setup.js) waits its turn
   * behind the others; a move while another is on its way is not sent (its controls are
   * disabled meanwhile). */
  async function act(path, body, done) {
    if (isSetup(path)) return queue(path, () => post(path, body, done));
    if (s.busy) return false;
    s.busy = true;
    changed();
    let problem;
    try {
      problem = await post(path, body, done, () => { s.busy = false; });
    } finally {
      s.busy = false;
    }
    changed();
    return !problem;
  }

  /** Send one change and read the table again; null when the service took it, else the
   * refusal in words (told at once too). `taken` is called as the answer comes, before it
   * is shown. */
  async function post(path, body, done, taken = () => {}) {
    let problem = null;
    try {
      const r = await api(`${tablePath(kind, game)}/${path}`, { method: "POST", body, token: token(), key: crypto.randomUUID() });
      if (path !== "move") toast(done || "Done.");
      if (done) announce(done);
      taken();
      if (r.data && typeof r.data.version === "number" && r.data.seats) accept(r.data);
    } catch (e) {
      taken();
      if (e instanceof ApiError && (e.status === 409 || e.status === 422) && e.code && !KNOWN.has(e.code) && e.message) {
        // The game's own refusal: its sentence names the rule with the figures of the case.
        problem = `Not allowed: ${e.message}.`.replace(/\.\.$/, ".");
        toast(problem, true);
        announce(problem);
      } else {
        fail(e);
        problem = words(e);
      }
    }
    await refresh();
    return problem;
  }

  // Set-up changes (readiness, computer players, start, removing) go one after another in
  // the order pressed; a refusal stays shown in words in the room (setup.js).
  const queue = setupQueue(s, changed);

  /** A move: the game's move JSON, as the contract's `/move` takes it. */
  function move(json, done) {
    return act("move", json, done);
  }

  const actions = {
    refresh,
    act,
    async join(nickname) {
      try {
        const { data } = await api(`${tablePath(kind, game)}/join`, { method: "POST", body: { nickname }, key: crypto.randomUUID() });
        s.seat = { player_uuid: data.player_uuid, nickname };
        keepSeat(game, s.seat);
        localStorage.setItem("blef:name", nickname);
        toast(`You joined as ${nickname}.`);
        await refresh();
        changed();
        document.getElementById("table-heading")?.focus();
      } catch (e) { fail(e); }
    },
    async leave() {
      if (s.busy) return;
      s.busy = true;
      try {
        await api(`${tablePath(kind, game)}/leave`, { method: "POST", token: token(), key: crypto.randomUUID() });
        forgetSeat(game);
        s.seat = null;
        toast("You left the game.");
        location.hash = "#/";
      } catch (e) { fail(e); } finally { s.busy = false; }
    },
    /** A reaction to the table (the contract's `/react`); a refusal (too many at once) is
     * told. Not a change of the game: it never makes the moves wait. */
    async react(reaction) {
      try {
        const r = await api(`${tablePath(kind, game)}/react`, { method: "POST", body: { reaction }, token: token(), key: crypto.randomUUID() });
        if (r.data && typeof r.data.version === "number" && r.data.seats) accept(r.data);
      } catch (e) { fail(e); return; }
      changed();
    },
    /** A seat at the next table of this finished one (the contract's `/rematch`): kept as
     * the seat of that table, which is then opened. */
    async rematch() {
      if (s.busy || !token()) return;
      s.busy = true;
      changed();
      try {
        const { data } = await api(`${tablePath(kind, game)}/rematch`, { method: "POST", token: token(), key: crypto.randomUUID() });
        keepSeat(data.game_uuid, { player_uuid: data.player_uuid, nickname: s.seat.nickname });
        toast("You have a seat at the next table.");
        location.hash = `#/${kind}/${data.game_uuid}`;
      } catch (e) { fail(e); } finally { s.busy = false; changed(); }
    },
    setPref(name, value) {
      if (name === "sound") s.sound = value;
      setPref(name, value);
      g.prefChanged(ctx, name, value);
      changed();
    },
  };
  Object.assign(actions, g.moves(ctx));

  /** A pushed message: the table's body for a spectator (the socket is a spectator's). A
   * seat holder reads its own body once (a push it has seen already asks for nothing). */
  function pushed(frame) {
    const body = frame && frame.body;
    if (!alive || frame.statusCode !== 200 || !body || typeof body.version !== "number" || !body.seats) return;
    if (body.game_uuid !== undefined && body.game_uuid !== game) return;
    if (token()) {
      if (!s.state || body.version > s.state.version) catchUp();
      return;
    }
    accept(body);
  }

  /** One read of the seat's body at a time: pushes that come while one is under way are
   * answered by one more read after it, not one read each. */
  let reading = false;
  let again = false;
  async function catchUp() {
    if (reading) { again = true; return; }
    reading = true;
    try {
      do { again = false; await refresh(); } while (again && alive);
    } finally { reading = false; }
  }

  /** Read the table every KIND_POLL_MS (on) or stop (off). One read at a time, each a while
   * after the last one answered (a slow answer never piles reads up behind it); none while
   * the page is hidden (it reads as it comes back). */
  function poll(on) {
    polls += 1;
    if (poller) clearTimeout(poller);
    poller = null;
    if (!on || !alive) return;
    const mine = polls;
    const loop = async () => {
      while (alive && mine === polls) {
        if (document.visibilityState !== "hidden") await refresh();
        if (!alive || mine !== polls) return;
        await new Promise((done) => { poller = setTimeout(done, KIND_POLL_MS); });
      }
    };
    loop();
  }

  return {
    s,
    actions,
    isMyTurn,
    start() {
      unfollow = followTable(game, s, { pushed, poll, refresh, changed });
    },
    stop() {
      alive = false;
      poll(false);
      if (unfollow) unfollow();
      unfollow = null;
      document.title = g.name;
    },
  };
}
