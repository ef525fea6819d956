// The Blef browser client: hash routes #/ (lobby), #/game/<uuid> (table), #/replay/<uuid>.
import { api, ApiError, forgetSeat, keepSeat, seatOf } from "./api.js";
import { actionName, cardName, CHECK, LOST, SETS, SUIT_SYMBOLS, VALUES } from "./bets.js";
import { verifyRound } from "./deal.js";
import { maxCardsChoices, reactionLines, REACTIONS } from "./table.js";

const AGENTS = ["Dazhbog", "Porevit", "probabilist", "bold", "bayesian", "random"];
const REVEAL_SECONDS = 8;
const view = () => document.getElementById("view");
let stop = () => {};

/** Build an element: h("button", {onclick, "aria-label": ...}, "text", child, ...). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false)
    el.append(c instanceof Node ? c : String(c));
  return el;
}

function say(text, isError = false) {
  const s = document.getElementById("status");
  s.textContent = text;
  s.className = isError ? "error" : "";
}

function cardEl(card) {
  const red = card.colour === 1 || card.colour === 2;
  return h("span", { class: `card ${red ? "red" : "black"}`, role: "img", "aria-label": cardName(card) },
    h("span", { class: "v" }, VALUES[card.value]), h("span", { class: "s" }, SUIT_SYMBOLS[card.colour]));
}

function route() {
  stop();
  stop = () => {};
  const hash = location.hash || "#/";
  const game = hash.match(/^#\/game\/([0-9a-fA-F-]{36})$/);
  const replay = hash.match(/^#\/replay\/([0-9a-fA-F-]{36})$/);
  if (game) stop = table(game[1].toLowerCase());
  else if (replay) replayView(replay[1].toLowerCase());
  else stop = lobby();
}

// ---------------------------------------------------------------- lobby
function lobby() {
  const list = h("ul", { class: "games", "aria-label": "Public games" });
  const create = h("button", { class: "primary", onclick: async () => {
    try {
      const { data } = await api("/games/create", { method: "POST" });
      location.hash = `#/game/${data.game_uuid}`;
    } catch (e) { say(e.message, true); }
  } }, "Create a game");
  const link = h("input", { id: "join-link", "aria-label": "Game link or UUID", placeholder: "Paste a game link" });
  const go = h("form", { class: "row", onsubmit: (ev) => {
    ev.preventDefault();
    const m = link.value.match(/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/);
    if (m) location.hash = `#/game/${m[0].toLowerCase()}`; else say("That is not a game link.", true);
  } }, link, h("button", { type: "submit" }, "Open"));
  view().replaceChildren(h("section", { class: "panel" },
    h("h1", {}, "Play Blef"),
    h("p", {}, "Create a game and share its link, or join a public game below."),
    create, go,
    h("h2", {}, "Public games"), list));
  const show = (games) => {
    if (!games.length) { list.replaceChildren(h("li", { class: "muted" }, "No public games right now.")); return; }
    list.replaceChildren(...games.map((g) => h("li", {},
      h("span", {}, `Room ${g.room}: `, g.players.join(", ") || "nobody yet"),
      h("a", { href: `#/game/${g.game_uuid}`, class: "button", "aria-label": `Open room ${g.room}` }, "Open"))));
  };
  let alive = true;
  let games = new Map(); // game_uuid -> {game_uuid, room, players}, newest first on display
  const draw = () => show([...games.values()].sort((a, b) => b.last_modified - a.last_modified));
  const poll = async () => {
    try {
      games = new Map((await api("/games")).data.map((g) => [g.game_uuid, g]));
      draw();
    } catch (e) { say(e.message, true); }
  };
  // Live: a websocket with no game is a public-games watcher; each message is one game that
  // is public ("true") or has just stopped being public ("false"). Polling stays the fallback.
  let socket = null;
  const connect = () => {
    if (!alive) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    try { socket = new WebSocket(`${proto}://${location.host}/ws`); } catch { return; }
    socket.onmessage = (ev) => {
      try {
        const frame = JSON.parse(ev.data);
        const g = JSON.parse(frame.body);
        if (frame.statusCode !== 200 || !g.game_uuid) return;
        const known = games.get(g.game_uuid);
        if (known && known.last_modified >= g.last_modified) return;
        if (g.public === "true") games.set(g.game_uuid, g); else games.delete(g.game_uuid);
        draw();
      } catch { /* ignore a malformed frame */ }
    };
    socket.onclose = () => { if (alive) setTimeout(connect, 2000); };
  };
  poll();
  connect();
  const timer = setInterval(poll, 10000);
  return () => { alive = false; clearInterval(timer); if (socket) socket.close(); };
}

// ---------------------------------------------------------------- table
function table(game) {
  const s = { state: null, etag: null, seat: seatOf(game), shownRound: null, revealed: new Set(),
    odds: null, oddsOn: localStorage.getItem("blef:odds") === "on", busy: false,
    notice: null, reported: reportedIn(game) };
  let alive = true;
  let socket = null;

  const token = () => s.seat && s.seat.player_uuid;

  async function refresh() {
    try {
      const r = await api(`/games/${game}`, { token: token(), etag: s.etag });
      if (r.status === 304 || !alive) return;
      s.etag = r.etag;
      await accept(r.data);
    } catch (e) {
      if (!alive) return; // the page moved on (e.g. we left) while the request was out
      if (e instanceof ApiError && e.status === 400 && token() && e.code !== "unknown_game") {
        // Removed by the admin, or left from another tab: the kept UUID opens nothing now.
        s.notice = "You are no longer in this game; watching instead.";
        say(`${s.notice} (${e.message})`, true);
        forgetSeat(game);
        s.seat = null;
        return refresh();
      }
      view().replaceChildren(h("section", { class: "panel" }, h("h1", {}, "Game not found"),
        h("p", { class: "error" }, e.message), h("a", { href: "#/" }, "Back to the lobby")));
    }
  }

  async function accept(state) {
    const prev = s.state;
    if (prev && prev.version && state.version && state.version < prev.version) return;
    // The same version seen twice (the poll and a websocket nudge race): nothing to redraw,
    // and redrawing would replace the field the person is typing in.
    if (prev && state.version && state.version === prev.version && state.round_number === prev.round_number
      && (state.hands || []).length === (prev.hands || []).length) return;
    // Rounds that ended since the last state we showed: reveal each from its snapshot.
    const from = s.shownRound;
    s.state = state;
    // `you` is our nickname as shown now: a reported nickname becomes Player_<seat>.
    if (s.seat && state.you && state.you !== s.seat.nickname) {
      s.seat = { ...s.seat, nickname: state.you };
      keepSeat(game, s.seat);
    }
    if (from !== null && state.round_number > from) {
      for (let n = Math.max(from, 1); n < state.round_number; n++) await revealRound(n);
    }
    if (state.status === "Finished" && !s.revealed.has(state.round_number)) revealState(state);
    s.shownRound = state.round_number;
    if (s.oddsOn && isMyTurn()) await loadOdds(); else s.odds = null;
    render();
  }

  async function revealRound(n) {
    if (s.revealed.has(n)) return;
    try {
      const { data } = await api(`/games/${game}?round=${n}`, { token: token() });
      revealState(data);
    } catch (e) { say(e.message, true); }
  }

  function revealState(snap) {
    const hist = snap.history || [];
    if (!hist.length || hist[hist.length - 1].action_id !== LOST) return;
    s.revealed.add(snap.round_number);
    showReveal(snap);
  }

  function isMyTurn() {
    return s.state && s.seat && s.state.cp_nickname === s.seat.nickname && s.state.legal_actions;
  }

  async function loadOdds() {
    try { s.odds = (await api(`/games/${game}/odds`, { token: token() })).data.probabilities; }
    catch { s.odds = null; }
  }

  /** POST one change; whether the service took it (its refusal is shown in its words). */
  async function act(path, body, done) {
    if (s.busy) return false;
    s.busy = true;
    let ok = false;
    try {
      const r = await api(`/games/${game}/${path}`, { method: "POST", body, token: token() });
      say(done || (r.data && r.data.message) || "Done.");
      if (path === "play" && r.data && r.data.history) revealState(r.data);
      ok = true;
    } catch (e) {
      say(e.message, true);
    } finally {
      s.busy = false;
    }
    s.etag = null;
    await refresh();
    return ok;
  }

  /** A reaction skips the busy lock: it never changes the game, and a second one while the
   * first is on its way must reach the service (which, not the page, limits the rate). */
  async function react(reaction) {
    try {
      await api(`/games/${game}/react`, { method: "POST", body: { reaction }, token: token() });
    } catch (e) {
      say(e.message, true);
      return;
    }
    s.etag = null;
    await refresh();
  }

  async function leave() {
    if (s.busy) return;
    s.busy = true;
    try {
      const r = await api(`/games/${game}/leave`, { method: "POST", token: token() });
      forgetSeat(game);
      s.seat = null;
      say((r.data && r.data.message) || "You left the game.");
      location.hash = "#/";
    } catch (e) {
      say(e.message, true);
    } finally {
      s.busy = false;
    }
  }

  function resign() {
    if (!confirm("Resign? You leave this game for good and watch the rest as an eliminated player.")) return;
    act("resign");
  }

  async function report(nickname, seat) {
    if (!confirm(`Report the nickname "${nickname}" as offensive?`)) return;
    // Once every other human has reported it, the name shown becomes Player_<seat>: that
    // name is the one we reported too. Marked before the request goes, since the renamed
    // state may arrive over the websocket before the request's own answer.
    const marked = [nickname, `Player_${seat}`].filter((n) => !s.reported.has(n));
    for (const n of marked) s.reported.add(n);
    if (await act("report", { nickname })) keepReported(game, s.reported);
    else {
      for (const n of marked) s.reported.delete(n);
      render();
    }
  }

  async function join(nickname) {
    try {
      const { data } = await api(`/games/${game}/join`, { method: "POST", body: { nickname } });
      s.seat = { player_uuid: data.player_uuid, nickname };
      keepSeat(game, s.seat);
      say(`You joined as ${nickname}.`);
      s.etag = null;
      // The view depends on the seat too: the websocket may already have brought this very
      // version (seen as a watcher), which refresh() then rightly does not redraw.
      render();
      await refresh();
    } catch (e) { say(e.message, true); }
  }

  function render() {
    const st = s.state;
    if (!st) return;
    const focused = document.activeElement && document.activeElement.id;
    const typed = {};
    for (const id of ["nickname", "time-limit"]) {
      const el = document.getElementById(id);
      if (el && el.value) typed[id] = el.value;
    }
    const me = s.seat && s.seat.nickname;
    const admin = me && st.admin_nickname === me;
    const seated = me && st.players.some((p) => p.nickname === me);
    const parts = [];
    parts.push(h("h1", {}, `Room ${st.room}`, h("span", { class: "badge" }, st.status),
      me ? h("span", { class: "you" }, `you are ${me}`) : h("span", { class: "you" }, "watching")));
    if (s.notice && !me) parts.push(h("p", { class: "error", id: "notice" }, s.notice));
    const share = `${location.origin}/#/game/${game}`;
    parts.push(h("p", { class: "share" }, "Share this link: ",
      h("input", { id: "share-link", readonly: true, value: share, "aria-label": "Link to this game" })));

    if (st.status === "Not started") {
      if (!me) {
        const nick = h("input", { id: "nickname", required: true, "aria-label": "Nickname",
          placeholder: "Nickname", maxlength: 40, autocomplete: "nickname" });
        parts.push(h("form", { class: "row", onsubmit: (ev) => { ev.preventDefault(); join(nick.value.trim()); } },
          nick, h("button", { type: "submit", class: "primary" }, "Join")));
        parts.push(h("p", { class: "muted" }, "A nickname starts with a letter; letters, digits and _ only."));
      }
      if (admin) {
        const agent = h("select", { id: "agent", "aria-label": "AI agent" }, AGENTS.map((a) => h("option", { value: a }, a)));
        const limit = h("input", { id: "time-limit", type: "number", min: 0, max: 300,
          value: st.time_limit ?? 0, "aria-label": "Move time limit in seconds (0 for none)" });
        parts.push(h("div", { class: "admin" },
          h("div", { class: "row" }, agent, h("button", { onclick: () => act("invite-aiagent", { agent_name: agent.value }) }, "Invite AI player")),
          h("div", { class: "row" },
            st.public === "true"
              ? h("button", { onclick: () => act("make-private") }, "Make private")
              : h("button", { onclick: () => act("make-public") }, "Make public")),
          h("div", { class: "row" }, limit,
            h("button", { onclick: () => act("set-time-limit", { time_limit: Number(limit.value) }) }, "Set time limit")),
          h("div", { class: "row" }, maxCardsEl(st)),
          h("label", { class: "check" }, h("input", { type: "checkbox", id: "auto-start", checked: !!st.auto_start,
            onchange: (ev) => act("set-auto-start", { auto_start: ev.target.checked }) }),
          " Start by itself when everyone is ready"),
          h("button", { id: "start", class: "primary", onclick: () => act("start", undefined, "Game started.") }, "Start the game")));
      } else if (me) {
        parts.push(h("p", { class: "muted" }, st.auto_start
          ? `The game starts by itself when everyone is ready, or when ${st.admin_nickname} starts it.`
          : `Waiting for ${st.admin_nickname} to start.`));
      }
      if (!admin) {
        parts.push(h("p", { class: "muted", id: "chosen-max-cards" }, "Maximum of cards: ",
          st.chosen_max_cards ? String(st.chosen_max_cards) : "the rule's maximum"));
      }
      if (seated) parts.push(h("div", { class: "row" }, h("button", { id: "leave", onclick: leave }, "Leave")));
    } else {
      parts.push(h("p", { id: "max-cards" }, `Maximum ${st.max_cards} card${st.max_cards === 1 ? "" : "s"} each:`
        + " one more and a player is out."));
    }

    parts.push(playersEl(st, me, admin));
    parts.push(reactionsEl(st, seated));
    const mine = (st.hands || []).find((x) => x.nickname === me);
    if (mine && st.status === "Running") {
      parts.push(h("section", { "aria-label": "Your cards", class: "hand" }, h("h2", {}, "Your cards"), mine.hand.map(cardEl)));
    }
    const myRow = st.players.find((p) => p.nickname === me);
    if (st.status === "Running" && myRow && myRow.n_cards > 0) {
      parts.push(h("div", { class: "row" }, h("button", { id: "resign", onclick: resign }, "Resign")));
    } else if (st.status === "Running" && myRow) {
      parts.push(h("p", { id: "out", class: "muted" }, "You are out of the game; watching the rest."));
    }
    if (st.status === "Running" && isMyTurn()) parts.push(pickerEl(st));
    else if (st.status === "Running" && st.cp_nickname) parts.push(h("p", { class: "turn" }, `${st.cp_nickname} to move.`));
    if (st.status === "Finished") {
      parts.push(h("section", { class: "panel over", "aria-label": "Game over" },
        h("h2", {}, "Game over"), h("p", { id: "winner" }, `${st.winner} wins!`),
        h("a", { href: `/games/${game}/record` }, "The game's record (JSON)"), " · ",
        h("a", { href: `#/replay/${game}`, id: "replay-link" }, "Replay and verify the deals")));
    }
    parts.push(historyEl(st.history || []));
    view().replaceChildren(h("section", { class: "panel table" }, parts));
    for (const [id, value] of Object.entries(typed)) {
      const el = document.getElementById(id);
      if (el) el.value = value;
    }
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  }

  function playersEl(st, me, admin) {
    const deadline = st.move_deadline ? Math.max(0, Math.round(st.move_deadline - Date.now() / 1000)) : null;
    const lobby = st.status === "Not started";
    const ready = new Set(st.ready || []);
    const seated = me && st.players.some((p) => p.nickname === me);
    return h("ul", { class: "players", "aria-label": "Players" }, st.players.map((p, i) => {
      const out = !lobby && p.n_cards === 0;
      const turn = st.cp_nickname === p.nickname;
      const mine = p.nickname === me;
      const human = !p.ai_agent;
      const isReady = ready.has(p.nickname);
      return h("li", { class: `${out ? "out" : ""} ${turn ? "turn" : ""}` },
        h("span", { class: "nick" }, p.nickname, p.nickname === st.admin_nickname ? " (admin)" : "",
          lobby && isReady ? h("span", { class: "ready", role: "img", "aria-label": `${p.nickname} is ready` }, " ✓") : null),
        h("span", { class: "count" }, out ? "out" : `${p.n_cards} card${p.n_cards === 1 ? "" : "s"}`),
        turn ? h("span", { class: "badge" }, deadline !== null ? `to move, ${deadline}s left` : "to move") : null,
        lobby && mine ? h("button", { id: "ready-toggle", class: "small",
          onclick: () => act("ready", { ready: !isReady }) }, isReady ? "Not ready" : "Ready") : null,
        lobby && admin && !mine ? h("button", { id: `remove-${p.nickname}`, class: "small", "aria-label": `Remove ${p.nickname}`,
          onclick: () => act("remove", { nickname: p.nickname }) }, "Remove") : null,
        seated && human && !mine ? (s.reported.has(p.nickname)
          ? h("span", { class: "muted reported" }, "Reported")
          : h("button", { id: `report-${p.nickname}`, class: "small link", "aria-label": `Report nickname ${p.nickname}`,
            onclick: () => report(p.nickname, i + 1) }, "Report nickname")) : null);
    }));
  }

  function maxCardsEl(st) {
    const chosen = st.chosen_max_cards;
    const choices = maxCardsChoices(st.players.length);
    // Chosen with fewer players seated than now: still the choice, capped at the start.
    const over = chosen && chosen > choices.length
      ? h("option", { value: chosen, selected: true }, `${chosen} (${choices.length} at most now: capped at the start)`) : null;
    const select = h("select", { id: "max-cards-choice", "aria-label": "Maximum of cards",
      onchange: () => act("set-max-cards", { max_cards: Number(select.value) }) },
    chosen ? null : h("option", { value: "", selected: true }, "Rule's maximum"),
    choices.map((n) => h("option", { value: n, selected: n === chosen }, String(n))), over);
    return h("label", { class: "check" }, "Maximum of cards ", select);
  }

  function reactionsEl(st, seated) {
    const lines = reactionLines(st.reactions);
    return h("section", { class: "reactions", "aria-label": "Reactions" },
      seated ? h("div", { class: "row bar" }, REACTIONS.map((r, i) => h("button", { id: `react-${i}`, class: "small",
        "aria-label": `React ${r}`, onclick: () => react(r) }, r))) : null,
      h("ul", { class: "recent", "aria-label": "Recent reactions" },
        lines.length ? lines.map((line) => h("li", {}, line)) : h("li", { class: "muted" }, "No reactions yet.")));
  }

  function pickerEl(st) {
    const legal = st.legal_actions.filter((a) => a !== CHECK);
    const groups = new Map();
    for (const id of legal) {
      const kind = SETS[id].kind;
      if (!groups.has(kind)) groups.set(kind, []);
      groups.get(kind).push(id);
    }
    const pct = (id) => (s.odds ? ` (${(100 * s.odds[id]).toFixed(1)}%)` : "");
    const select = h("select", { id: "bet", "aria-label": "Your bet" },
      [...groups].map(([kind, ids]) => h("optgroup", { label: kind },
        ids.map((id) => h("option", { value: id }, SETS[id].name + pct(id))))));
    const odds = h("input", { type: "checkbox", id: "odds-toggle", checked: s.oddsOn, onchange: async () => {
      s.oddsOn = odds.checked;
      localStorage.setItem("blef:odds", s.oddsOn ? "on" : "off");
      if (s.oddsOn) await loadOdds(); else s.odds = null;
      render();
    } });
    return h("section", { class: "picker", "aria-label": "Your move" }, h("h2", {}, "Your move"),
      legal.length ? h("form", { class: "row", onsubmit: (ev) => { ev.preventDefault(); act("play", { action_id: Number(select.value) }, "Bet placed."); } },
        select, h("button", { type: "submit", class: "primary", id: "bet-button" }, "Bet")) : null,
      st.legal_actions.includes(CHECK)
        ? h("button", { id: "check-button", onclick: () => act("play", { action_id: CHECK }, "Checked.") }, "Check") : null,
      h("label", { class: "odds" }, odds, " Show the chance each bet exists, given your cards"));
  }

  function historyEl(history) {
    const items = history.filter((e) => e.action_id !== LOST).slice().reverse();
    return h("section", { "aria-label": "Bets so far" }, h("h2", {}, "Bets so far, newest first"),
      items.length ? h("ol", { class: "history", reversed: true }, items.map((e) =>
        h("li", {}, h("b", {}, e.player), e.action_id === CHECK ? " checks" : ` bets ${actionName(e.action_id)}`)))
        : h("p", { class: "muted" }, "No bets yet this round."));
  }

  // Live updates: the websocket as an observer says "something changed"; we then fetch our
  // own view with the Bearer header. Polling with ETag stays on as the fallback.
  function connect() {
    if (!alive) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    try { socket = new WebSocket(`${proto}://${location.host}/ws?game_uuid=${game}`); } catch { return; }
    socket.onmessage = async (ev) => {
      try {
        const frame = JSON.parse(ev.data);
        const body = JSON.parse(frame.body);
        if (frame.statusCode !== 200) return;
        const hist = body.history || [];
        if (body.loser || (hist.length && hist[hist.length - 1].action_id === LOST)) revealState(body);
      } catch { /* ignore a malformed frame */ }
      refresh();
    };
    socket.onclose = () => { if (alive) setTimeout(connect, 2000); };
  }
  connect();
  refresh();
  const poll = setInterval(refresh, 1000);
  const tick = setInterval(() => { if (s.state && s.state.move_deadline) render(); }, 1000);
  return () => { alive = false; clearInterval(poll); clearInterval(tick); if (socket) socket.close(); };
}

/** The nicknames this browser reported in a game, kept so a reload still says "Reported". */
function reportedIn(game) {
  try {
    return new Set(JSON.parse(localStorage.getItem(`blef:reported:${game}`)) || []);
  } catch {
    return new Set();
  }
}

function keepReported(game, names) {
  localStorage.setItem(`blef:reported:${game}`, JSON.stringify([...names]));
}

// ---------------------------------------------------------------- the reveal of a round
const queue = [];
let revealTimer = null;

function showReveal(snap) {
  queue.push(snap);
  if (queue.length === 1) nextReveal();
}

function nextReveal() {
  const box = document.getElementById("reveal");
  clearTimeout(revealTimer);
  if (!queue.length) { box.hidden = true; box.replaceChildren(); return; }
  box.replaceChildren(roundEl(queue[0], () => { queue.shift(); nextReveal(); }));
  box.hidden = false;
  box.querySelector("button").focus();
  revealTimer = setTimeout(() => { queue.shift(); nextReveal(); }, REVEAL_SECONDS * 1000);
}

/** What a round's snapshot says: the checked bet, whether it existed, who lost. */
function outcome(snap) {
  const hist = snap.history;
  const lost = hist[hist.length - 1];
  const check = hist.length >= 2 && hist[hist.length - 2].action_id === CHECK ? hist[hist.length - 2] : null;
  const bet = hist.slice().reverse().find((e) => e.action_id < CHECK);
  const loser = snap.loser || lost.player;
  let existed = null;
  if (check) existed = loser === check.player;
  return { bet, check, loser, existed };
}

function roundEl(snap, dismiss, verified) {
  const o = outcome(snap);
  return h("div", { class: "panel reveal", role: "dialog", "aria-label": `Round ${snap.round_number} revealed` },
    h("h2", {}, `Round ${snap.round_number} revealed`),
    o.bet ? h("p", {}, `${o.check ? o.check.player : "Someone"} checked ${o.bet.player}'s bet: `, h("b", {}, actionName(o.bet.action_id)),
      o.existed === null ? "" : o.existed ? " — it was there." : " — it was not there.") : null,
    h("p", { class: "loser" }, h("b", {}, o.loser), " lost the round."),
    h("ul", { class: "hands" }, (snap.hands || []).map((x) =>
      h("li", {}, h("span", { class: "nick" }, x.nickname), x.hand.map(cardEl)))),
    verified || null,
    dismiss ? h("button", { onclick: dismiss, class: "primary" }, "Continue") : null);
}

// ---------------------------------------------------------------- replay
async function replayView(game) {
  view().replaceChildren(h("p", {}, "Loading the record…"));
  let record;
  try { record = (await api(`/games/${game}/record`)).data; }
  catch (e) { view().replaceChildren(h("p", { class: "error" }, e.message)); return; }
  await renderReplay(record, game);
}

export async function renderReplay(record, game) {
  const rounds = [];
  for (const r of record.rounds) {
    const v = await verifyRound(r);
    rounds.push(h("li", { class: "replay-round" }, roundEl(r, null,
      h("p", { class: v.ok ? "verified" : "error" }, v.ok ? "✓ Deal verified: " : "✗ Deal NOT verified: ", v.reason,
        h("br"), h("small", {}, `commitment ${r.commitment}`), h("br"), h("small", {}, `seed ${r.seed}`))),
      h("ol", { class: "history" }, r.history.map((e) => h("li", {}, h("b", {}, e.player), " ", actionName(e.action_id))))));
  }
  view().replaceChildren(h("section", { class: "panel" },
    h("h1", {}, `Replay of room ${record.room}`), h("p", { id: "winner" }, `${record.winner} won.`),
    h("p", {}, h("a", { href: `#/game/${game}` }, "Back to the table")),
    h("ol", { class: "rounds" }, rounds)));
}

window.addEventListener("hashchange", route);
route();
