// The state of one table screen, apart from its view: what the service says (the game as this
// seat sees it), what this person chose (the bet, the settings), and the reveals to show.
// The view reads it and calls its actions; every change calls `changed()` once.
import { api, ApiError, forgetSeat, keepSeat, pref, rematchOf, seatOf, setPref } from "./api.js";
import { words } from "./errors.js";
import { gameOf } from "./games.js";
import { beep, followTable } from "./tablelive.js";
import { announce, fail, toast } from "./ui.js";
import { tableTitle } from "./playernames.js";
import { isSetup, setupQueue } from "./setup.js";

/** How often the table asks for the game while its websocket is closed. */
export const POLL_MS = 1500;

function storedSet(key) {
  try { return new Set(JSON.parse(sessionStorage.getItem(key)) || []); } catch { return new Set(); }
}

/** The store of table `game`, of the game kind whose registry entry is `g` (games.js): the
 * shared table's state and actions, with the game's own moves added. */
export function createTable(game, changed, g = gameOf()) {
  const revealKey = `blef:revealed:${game}`;
  const s = {
    game,
    seat: seatOf(game),
    state: null,
    receivedAt: 0, // performance.now() when the shown version first arrived
    missing: null, // the error when the game cannot be opened
    notice: null,
    busy: false,
    ...g.state(), // the game's own part (Blef: the bet chosen, the odds)
    sound: pref("sound", false),
    autoClose: pref("autoclose", false),
    tips: pref("tips", true),
    seenTips: new Set(JSON.parse(localStorage.getItem("blef:tips-seen") || "[]")),
    reveals: [], // [{snap, before}]: rounds waiting to be shown, oldest first
    revealed: storedSet(revealKey),
    lastInRound: new Map(),
    reported: new Set(JSON.parse(localStorage.getItem(`blef:reported:${game}`) || "[]")),
    myTurnShown: false,
    live: false, // whether the websocket is open (then nothing is polled)
  };
  let alive = true;
  let unfollow = null;
  let timers = [];
  const token = () => s.seat && s.seat.player_uuid;
  const me = () => s.seat && s.seat.nickname;

  const isMyTurn = () => !!(s.state && s.seat && s.state.status === "Running"
    && s.state.cp_nickname === s.seat.nickname && s.state.legal_actions);

  // What the game's own part (games.js) is given: the state, the game, this seat's secret, and
  // the store's ways to redraw and to send a change (a move, or a set-up change queued after
  // the others).
  const ctx = { s, game, token, changed, isMyTurn, act, sendSetup };

  async function refresh() {
    const used = token() || null;
    try {
      const r = await api(`/games/${game}`, { token: used, etag: s.state ? s.etag : null });
      if (r.status === 304 || !alive) return;
      s.etag = r.etag;
      await accept(r.data);
    } catch (e) {
      if (!alive) return;
      // Two reads may be out at once (the start's and the live link's): once one has found
      // the seat gone and read on without it, the other's refusal is old news.
      if (used !== (token() || null)) return;
      const moved = e instanceof ApiError && e.status === 403 && e.code === "seat_moved";
      if (e instanceof ApiError && (e.status === 400 || moved) && token() && e.code !== "game_not_found") {
        // Removed by the host, left from another tab, or the seat was taken to another
        // device by its link: the kept seat opens nothing now.
        s.notice = moved
          ? "Your seat moved to another device (someone opened its link), so this browser no longer plays it: you are watching the game."
          : "You are no longer in this game, so you are watching it.";
        forgetSeat(game);
        s.seat = null;
        s.etag = null;
        await refresh();
        changed(); // shown even when the game itself has not changed since our last look
        return;
      }
      if (e instanceof ApiError && e.status === 0) return; // offline for now: the poll retries
      s.missing = e;
      changed();
    }
  }

  function reveal(snap) {
    const n = snap.round_number;
    if (s.revealed.has(n)) return;
    s.revealed.add(n);
    sessionStorage.setItem(revealKey, JSON.stringify([...s.revealed]));
    s.reveals.push({ snap, before: s.lastInRound.get(n) || null });
    if (s.autoClose) timers.push(setTimeout(() => dismissReveal(n), 10000));
  }

  async function accept(state) {
    const prev = s.state;
    if (prev && state.version < prev.version) return;
    if (prev && state.version === prev.version && (state.hands || []).length === (prev.hands || []).length
      && state.cp_nickname === prev.cp_nickname && state.you === prev.you) return; // seen (a push, then its fetch)
    if (prev && prev.status === "Running") {
      const to = state.status === "Finished" ? state.round_number : state.round_number - 1;
      for (let n = prev.round_number; n <= to; n++) {
        if (s.revealed.has(n)) continue;
        try { reveal((await api(`/games/${game}?round=${n}`, { token: token() })).data); } catch { /* shown without */ }
      }
    }
    // A newer state may have come (over the websocket) while the rounds above were fetched.
    if (!alive || (s.state && s.state.version > state.version)) return;
    // At the end, only the final round is still to see: older ones queued while the person
    // looked away are in the replay, not a pile of Continue clicks on top of the game over.
    if (state.status === "Finished") s.reveals = s.reveals.filter((r) => r.snap.round_number === state.round_number);
    g.taking({ s, prev, state });
    const wasMine = isMyTurn();
    s.state = state;
    s.receivedAt = performance.now();
    if (state.status === "Running") s.lastInRound.set(state.round_number, state);
    if (s.seat && state.you && state.you !== s.seat.nickname) {
      s.seat = { ...s.seat, nickname: state.you }; // a reported name is shown as Player_<seat>
      keepSeat(game, s.seat);
    }
    const mine = isMyTurn();
    if (mine && !wasMine) turnBegins();
    document.title = mine ? `● Your turn · ${g.name}` : state.status === "Finished" ? `Game over · ${g.name}` : `${tableTitle(state, s.seat)} · ${g.name}`;
    if (mine) await g.onMyTurn(ctx);
    changed();
  }

  function turnBegins() {
    announce(g.turnWords(s.state) + (s.state.time_limit ? ` You have ${s.state.time_limit} seconds.` : ""));
    if (s.sound) beep();
  }

  /** POST one change; whether the service took it. Refusals are told in words. A set-up
   * change (setup.js) waits its turn behind the others; a move while another is on its way
   * is not sent (its controls are disabled meanwhile). */
  async function act(path, body, done) {
    if (isSetup(path)) return sendSetup(path, body, done);
    if (s.busy) return false;
    s.busy = true;
    changed();
    let ok = false;
    try {
      const r = await api(`/games/${game}/${path}`, { method: "POST", body, token: token() });
      const text = done || (r.data && r.data.message) || "Done.";
      if (path !== "play") toast(text); // a move is told at the table itself (the turn line)
      announce(text);
      if (path === "play" && g.endsRound(r.data)) reveal(r.data);
      ok = true;
    } catch (e) {
      fail(e);
    } finally {
      s.busy = false;
    }
    s.etag = null;
    await refresh();
    changed();
    return ok;
  }

  const actions = {
    refresh,
    act,
    async join(nickname) {
      try {
        const { data } = await api(`/games/${game}/join`, { method: "POST", body: { nickname } });
        s.seat = { player_uuid: data.player_uuid, nickname };
        keepSeat(game, s.seat);
        localStorage.setItem("blef:name", nickname);
        toast(`You joined as ${nickname}.`);
        s.etag = null;
        await refresh();
        changed(); // the seat is shown even when the game was already seen at this version
        document.getElementById("table-heading")?.focus();
      } catch (e) { fail(e); }
    },
    async leave() {
      if (s.busy) return;
      s.busy = true;
      try {
        await api(`/games/${game}/leave`, { method: "POST", token: token() });
        forgetSeat(game);
        s.seat = null;
        toast("You left the game.");
        location.hash = "#/";
      } catch (e) { fail(e); } finally { s.busy = false; }
    },
    resign() {
      if (!confirm("Resign? You are out of this game for good and watch the rest.")) return;
      act("resign", undefined, "You resigned: you are out of this game.");
    },
    async react(reaction) {
      try {
        await api(`/games/${game}/react`, { method: "POST", body: { reaction }, token: token() });
      } catch (e) { fail(e); return; }
      s.etag = null;
      await refresh();
    },
    async report(nickname, seatNo) {
      if (!confirm(`Report the name "${nickname}" as offensive?`)) return;
      // Marked before the request goes: the renamed state may come over the websocket first.
      const marked = [nickname, `Player_${seatNo}`].filter((n) => !s.reported.has(n));
      for (const n of marked) s.reported.add(n);
      if (await act("report", { nickname }, `You reported the name ${nickname}.`))
        localStorage.setItem(`blef:reported:${game}`, JSON.stringify([...s.reported]));
      else { for (const n of marked) s.reported.delete(n); changed(); }
    },
    dismissReveal,
    setPref(name, value) {
      const field = { sound: "sound", autoclose: "autoClose", tips: "tips" }[name];
      if (field) s[field] = value;
      setPref(name, value);
      g.prefChanged(ctx, name, value);
      if (name === "sound" && value) beep();
      changed();
    },
    seenTip(key) {
      s.seenTips.add(key);
      localStorage.setItem("blef:tips-seen", JSON.stringify([...s.seenTips]));
      changed();
    },
    async playAgain() {
      if (s.busy) return;
      s.busy = true;
      changed();
      try {
        await rematch();
      } catch (e) { fail(e); } finally { s.busy = false; changed(); }
    },
  };

  Object.assign(actions, g.moves(ctx));

  // Set-up changes (readiness, computer players, the rules, teams, start, ...) go one after
  // another in the order pressed (a person may press several quickly): each says whether
  // the service took it, and a refusal stays shown in words in the room (setup.js).
  const queue = setupQueue(s, changed);
  function sendSetup(path, body, done) {
    return queue(path, async () => {
      try {
        const r = await api(`/games/${game}/${path}`, { method: "POST", body, token: token() });
        const text = done || (r.data && r.data.message) || "Done.";
        toast(text);
        announce(text);
        return null;
      } catch (e) {
        fail(e);
        return words(e);
      } finally {
        s.etag = null;
        await refresh();
      }
    });
  }

  function dismissReveal(round) {
    const before = s.reveals.length;
    s.reveals = s.reveals.filter((r) => r.snap.round_number !== round);
    if (s.reveals.length === before) return;
    changed();
    if (!s.reveals.length) setTimeout(() => {
      const finished = s.state && s.state.status === "Finished";
      const target = document.getElementById(finished ? "over-title" : isMyTurn() ? "dock-title" : "turn-line")
        || document.getElementById("table-heading");
      target?.focus();
    }, 0);
  }

  /** Take (or find again) this player's seat at the next game of the table. */
  async function rematch() {
    const seat = await rematchOf(game, s.seat.player_uuid);
    keepSeat(seat.game_uuid, { player_uuid: seat.player_uuid, nickname: me() });
    const { data } = await api(`/games/${seat.game_uuid}`, { token: seat.player_uuid });
    keepSeat(seat.game_uuid, { player_uuid: seat.player_uuid, nickname: data.you || me() });
    location.hash = `#/game/${seat.game_uuid}`;
  }

  // Live: the websocket (as an observer) brings every change. A watcher without a seat is
  // shown the pushed state itself; a player's own view (their cards, their moves) is fetched
  // with the Bearer header on each push. Each round's snapshot is revealed from the push.
  // Polling (with ETag) runs only while the socket is closed, and once as it opens, to catch
  // up on whatever changed while it was away.
  function pushed(frame) {
    const body = frame.body;
    if (frame.statusCode !== 200 || !body) { refresh(); return; } // the fetch is what counts
    if (body.loser !== undefined) {
      if (s.state && s.state.status === "Running") reveal(body);
      return; // the state that follows comes as its own message
    }
    if (token()) refresh();
    else if (body.version !== undefined) { s.etag = null; accept(body); }
    else refresh();
  }

  let poller = null;
  function poll(on) {
    if (on && !poller && alive) poller = setInterval(refresh, POLL_MS);
    if (!on && poller) { clearInterval(poller); poller = null; }
  }

  return {
    s,
    actions,
    isMyTurn,
    start() {
      // The interval reads only after its first wait: a read goes at once as it starts (at the
      // start, and as the socket closes).
      const pollNow = (on) => { poll(on); if (on) refresh(); };
      unfollow = followTable(game, s, { pushed, poll: pollNow, refresh, changed });
    },
    stop() {
      alive = false;
      for (const t of timers) clearTimeout(t);
      poll(false);
      if (unfollow) unfollow();
      unfollow = null;
      document.title = g.name;
    },
  };
}
