// The table screen of a game other than Blef (its routes are the tables' contract,
// `/{kind}/games/...`): the heading, the room (seats, readiness, computer players, start), the
// game over panel with places and the link to the replay, your seat's settings, the game's
// own part (its entry in games.js: Board, Moves, ...) inside it, and the shared reveal frame
// (reveal.js) showing the game's `Round` once when the game ends while the page watches it.
// Components are declared once, at the top level, so a new state patches the page and never
// replaces a control in use.
import { useEffect, useMemo, useReducer, useRef, useState } from "./hooks.js";
import { api } from "./api.js";
import { adminOf, createKindTable, nicknameOf } from "./kindstore.js";
import { RevealDialog } from "./reveal.js";
import { html, toast, withArticle } from "./ui.js";
import { Reactions } from "./reactions.js";
import { useHeld } from "./held.js";
import { SetupProblems } from "./setup.js";

/** The computer players a table of game `g` offers (the service's `agents`), in the order of
 * the game's own levels (the gentlest first, the one chosen when nobody has chosen), then
 * the others in the service's order; each keeps the name the service gave it. */
export function levelsOffered(g, agents) {
  const rank = (agent) => {
    const i = g.levels.findIndex((l) => l.agent === agent);
    return i < 0 ? g.levels.length : i;
  };
  return (agents || [])
    .map((agent, i) => ({ level: { ...(g.levelOf(agent) || { label: agent, words: "" }), agent }, i }))
    .sort((x, y) => rank(x.level.agent) - rank(y.level.agent) || x.i - y.i)
    .map((x) => x.level);
}

/** The places of a finished game, best first: [{place, seat, nickname, score}]. */
export function placesOf(body) {
  const r = body && body.result;
  if (!r || !r.places) return [];
  return r.places.map((place, seat) => ({ place, seat, nickname: nicknameOf(body, seat) || `Seat ${seat + 1}`, score: r.scores ? r.scores[seat] : null }))
    .sort((a, b) => a.place - b.place || a.seat - b.seat);
}

/** Where the page replays a finished game of a kind, step by step (replay.js). */
export const replayHref = (kind, game) => `#/${kind}/${game}/replay`;

/** The key under which this tab remembers that a game's end was shown (and dismissed). */
export const endShownKey = (game) => `blef:revealed-end:${game}`;

/** Whether the reveal of a game's end opens as the page takes a state of `status`, the
 * state before being `before` (null: the page's first): only when this page saw the game
 * running or in its lobby and now sees it finished, and this tab has not shown it before.
 * A game that ended while the page was away opens on its game-over panel instead. */
export function endRevealOpens(before, status, shownBefore) {
  return status === "Finished" && before !== null && before !== "Finished" && !shownBefore;
}

/** The reveal of a game's end: opened once (endRevealOpens), closed by Continue or Escape,
 * and then never again in this tab, nor after the next read of the same finished game. The
 * focus goes back where it was, or to the game-over heading if that control is gone. */
function useEndReveal(game, status) {
  const seen = useRef(null);
  const back = useRef(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (status === null) return;
    const before = seen.current;
    seen.current = status;
    let shown = false;
    try { shown = !!sessionStorage.getItem(endShownKey(game)); } catch { shown = false; }
    if (!endRevealOpens(before, status, shown)) return;
    back.current = document.activeElement;
    setOpen(true);
  }, [status]);
  const dismiss = () => {
    try { sessionStorage.setItem(endShownKey(game), "shown"); } catch { /* shown once in this page still */ }
    setOpen(false);
    setTimeout(() => {
      const b = back.current;
      const to = b && b.isConnected && b !== document.body && !b.closest("#reveal") ? b : document.getElementById("over-title");
      to?.focus();
    }, 0);
  };
  return { open, dismiss };
}

/** A place in words: 1st, 2nd, 3rd, 4th. */
export function ordinal(n) {
  return `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;
}

export function KindTableScreen({ kind, game, g, ladder = null }) {
  const [, bump] = useReducer((n) => n + 1, 0);
  const store = useMemo(() => createKindTable(kind, game, bump, g), [kind, game]);
  useEffect(() => { store.start(); return () => store.stop(); }, [store]);
  const { s, actions } = store;
  const myTurn = store.isMyTurn();
  const end = useEndReveal(game, s.state ? s.state.status : null);
  const rated = ladder ? ladder.useRated(game, !!s.state && s.state.status === "Finished") : null;
  const ratings = useMemo(() => (rated ? {
    of: (seat) => (seat ? ladder.seatOf(rated, { nickname: seat.nickname, ai_agent: seat.ai || null }) : null),
    Rating: ladder.Rating,
  } : null), [rated]);

  useEffect(() => {
    const onKey = (ev) => {
      if (!store.isMyTurn() || store.s.busy) return;
      if (document.querySelector("dialog[open]")) return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const t = ev.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
      const button = Object.hasOwn(g.keys, ev.key.toLowerCase()) ? g.keys[ev.key.toLowerCase()] : null;
      if (button && document.getElementById(button)) { ev.preventDefault(); document.getElementById(button).click(); }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [store]);

  // Your turn: the move controls take the focus, unless the person is busy elsewhere.
  useEffect(() => {
    if (!myTurn) return;
    const at = document.activeElement;
    if (!at || at === document.body || ["turn-line", "table-heading", "view"].includes(at.id))
      document.getElementById("dock-title")?.focus();
  }, [myTurn, s.state && s.state.version]);

  const started = !!s.state && s.state.status !== "Not started";
  useEffect(() => { if (started) window.scrollTo(0, 0); }, [started]);

  if (s.missing) return html`<section class="panel"><h1 id="table-heading" tabindex="-1">This game cannot be opened</h1>
    <p>${s.missing.code === "game_not_found" ? "It does not exist, or it ended long ago and was cleared away." : "The server did not answer as expected."}</p>
    <p><a class="button" href="#/">Back to the lobby</a></p></section>`;
  const st = s.state;
  if (!st) return html`<section class="panel"><p>Opening the table…</p></section>`;
  const seated = st.you !== null && st.you !== undefined;
  const me = seated ? nicknameOf(st, st.you) : null;
  const admin = seated && adminOf(st) === me;
  const lobby = st.status === "Not started";
  return html`<div class=${`table-screen kind-${kind}${myTurn ? " has-dock" : ""}`} data-live=${s.live ? "open" : "closed"}>
    <section class="panel table-top">
      <h1 id="table-heading" tabindex="-1">${g.name}${st.room ? ` · room ${st.room}` : ""}
        <span class="badge">${lobby ? "waiting to start" : st.status === "Running" ? "playing" : "game over"}</span></h1>
      <p class="you small">${seated ? html`You are <b>${me}</b>${admin ? " (the host)" : ""}.` : "You are watching."}
        <${g.Summary} st=${st} lobby=${lobby} /></p>
      <${g.RulesLine} st=${st} />
      ${s.notice ? html`<p class="notice" id="notice">${s.notice}</p>` : null}
      ${!seated && st.status === "Running" ? html`<p class="notice" id="latecomer">This game started before you came, so you can watch it but not play. <a href="#/">Start your own game</a>.</p>` : null}
    </section>
    ${lobby ? html`<${Room} g=${g} kind=${kind} s=${s} st=${st} me=${me} seated=${seated} admin=${admin} actions=${actions} />` : null}
    ${st.status === "Finished" ? html`<${GameOver} g=${g} st=${st} me=${me} seated=${seated} busy=${s.busy} rematch=${actions.rematch} rated=${!!(s.seat && s.seat.rated)} />` : null}
    ${!lobby ? html`<${g.Board} st=${st} s=${s} me=${me} seated=${seated} myTurn=${myTurn} actions=${actions} ratings=${ratings} />` : null}
    ${myTurn ? html`<${g.Moves} st=${st} s=${s} actions=${actions} />` : null}
    <${Reactions} st=${st} seated=${seated} actions=${actions} />
    <section class="panel tools" aria-label="Your seat and settings">
      <details class="settings"><summary>Settings</summary>
        <label class="check"><input type="checkbox" id="sound" checked=${s.sound} onChange=${(e) => actions.setPref("sound", e.currentTarget.checked)} /> A sound when it is your turn</label>
      </details>
    </section>
    ${end.open && st.status === "Finished" ? html`<${RevealDialog} Round=${g.Round} item=${{ n: "end", snap: st, before: null }} count=${1} after=${null} onDismiss=${end.dismiss} />` : null}
  </div>`;
}

/** What the service says of a kind (GET /{kind}): the computer players a host may invite,
 * each with the game's words for it when it has some, and the most seats. */
function useKind(kind, g) {
  const [info, setInfo] = useState(null);
  useEffect(() => {
    let alive = true;
    api(`/${kind}`).then(({ data }) => alive && setInfo(data)).catch(() => alive && setInfo({}));
    return () => { alive = false; };
  }, [kind]);
  const levels = levelsOffered(g, info && info.agents);
  return { levels, max: (info && info.max_seats) || null };
}

function Room({ g, kind, s, st, me, seated, admin, actions }) {
  const [name, setName] = useState(localStorage.getItem("blef:name") || "");
  const { levels, max: maxSeats } = useKind(kind, g);
  const [agent, setAgent] = useState(null);
  const chosen = levels.find((l) => l.agent === agent) || levels[0];
  // This person's readiness as last pressed, until the service says the same (a second quick
  // press sends the opposite of the first, never the same again).
  const [isReady, changeReady] = useHeld(!!st.seats.find((p) => p.nickname === me && p.ready));
  const share = `${location.origin}/#/${kind}/${s.game}`;
  return html`<section class="panel room">
    <h2>Players (${st.seats.length}${maxSeats ? ` of ${maxSeats}` : ""})</h2>
    <ul class="players" aria-label="Players">${st.seats.map((p) => {
      const level = p.ai ? g.levelOf(p.ai) || { label: p.ai } : null;
      const mine = p.nickname === me;
      return html`<li key=${p.nickname}>
        <span class="nick">${p.nickname}${p.nickname === adminOf(st) ? " (host)" : ""}${mine ? " (you)" : ""}</span>
        ${level ? html`<span class="level">${level.label} computer player</span>` : null}
        ${p.ready ? html`<span class="ready" role="img" aria-label=${`${p.nickname} is ready`}>✓ ready</span>` : null}
        ${mine ? html`<button id="ready-toggle" class="small" onClick=${() => { const v = !isReady; changeReady(v, () => actions.act("ready", { ready: v }, v ? "You are ready." : "You are not ready.")); }}>${isReady ? "Not ready" : "Ready"}</button>` : null}
        ${admin && !mine ? html`<button class="small" aria-label=${`Remove ${p.nickname}`} onClick=${() => actions.act("remove", { nickname: p.nickname }, `${p.nickname} was removed.`)}>Remove</button>` : null}
      </li>`;
    })}</ul>
    ${seated ? html`<${g.RoomHelp} admin=${admin} />` : null}
    ${!seated ? html`<form class="row" onSubmit=${(e) => { e.preventDefault(); actions.join(name.trim()); }}>
      <label class="field-inline" for="nickname">Your name</label>
      <input id="nickname" value=${name} maxlength="64" autocomplete="nickname" required onInput=${(e) => setName(e.currentTarget.value)} />
      <button type="submit" class="primary">Join</button></form>
      <p class="muted small">A name starts with a letter; letters, digits and _ only.</p>` : null}
    ${admin ? html`<div class="admin">
      <h2>Set up the game (you are the host)</h2>
      <p class="muted small">${g.roomFacts(st)}</p>
      ${levels.length ? html`<div class="row">
        <label class="field-inline" for="agent">Computer player</label>
        <select id="agent" value=${chosen.agent} onChange=${(e) => setAgent(e.currentTarget.value)}>
          ${levels.map((l) => html`<option key=${l.agent} value=${l.agent}>${l.label}</option>`)}</select>
        <button id="invite" disabled=${!!maxSeats && st.seats.length >= maxSeats} onClick=${() => actions.act("ai", { agent: chosen.agent }, `${withArticle(chosen.label)} computer player joined.`)}>Invite computer player</button>
      </div>
      <p class="muted small">${chosen.words}</p>` : null}
      <button id="start" class="primary big" disabled=${s.busy} onClick=${() => actions.act("start", undefined, "The game started.")}>Start the game</button>
    </div>` : seated ? html`<p class="muted">Waiting for ${adminOf(st)} to start the game.</p>
      <p class="muted" id="chosen-rules">${g.roomFacts(st)}</p>` : null}
    <${SetupProblems} s=${s} />
    <div class="share"><label for="share-link">Invite people with this link</label>
      <div class="row"><input id="share-link" readonly value=${share} />
        <button class="small" onClick=${() => copy(share)}>Copy</button></div></div>
    ${seated ? html`<div class="row"><button id="leave" onClick=${actions.leave}>Leave the game</button></div>` : null}
  </section>`;
}

function copy(text) {
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => toast("The link is copied."), () => toast("Select the text and copy it."));
  else toast("Select the text and copy it.");
}

function GameOver({ st, me, g, seated, busy, rematch, rated }) {
  const places = placesOf(st);
  const asked = (st.rematch && st.rematch.asked) || []; // who of this table asked already
  const unit = (g && g.scoreUnit) || ["point", "points"]; // what a game's scores count
  const first = places.filter((p) => p.place === 1);
  const headline = !places.length ? "The game is over."
    : first.length > 1 ? `A draw between ${first.map((p) => p.nickname).join(" and ")}.`
    : first[0].nickname === me ? "You win!" : `${first[0].nickname} wins!`;
  return html`<section class="panel over" aria-labelledby="over-title">
    <h2 id="over-title" tabindex="-1">Game over</h2>
    <p id="winner">${headline}</p>
    <ol class="places" aria-label="Places">${places.map((p) => html`<li key=${p.seat}>
      <b>${ordinal(p.place)}</b> ${p.nickname}${p.nickname === me ? " (you)" : ""}${p.score !== null && p.score !== undefined ? ` · ${p.score} ${p.score === 1 ? unit[0] : unit[1]}` : ""}</li>`)}</ol>
    ${asked.length ? html`<p id="rematch-asked">${asked.join(" and ")} ${asked.length === 1 ? "wants" : "want"} a rematch.</p>` : null}
    <p class="row">${seated ? html`<button class="primary" id="rematch" disabled=${busy} onClick=${rematch}>${asked.length ? "Join the rematch" : "Rematch"}${rated ? " (not rated)" : ""}</button> ` : null}${st.kind && st.game_uuid ? html`<a class="button" href=${replayHref(st.kind, st.game_uuid)} id="to-replay">Replay the game step by step</a> ` : null}
      <a class="button" href="#/" id="to-lobby">Back to the lobby</a></p>
  </section>`;
}
