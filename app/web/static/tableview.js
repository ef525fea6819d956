// The table screen: the view of a table store (tablestore.js). Components are declared once,
// at the top level, so a new state patches the page and never replaces a control in use.
import { useEffect, useMemo, useReducer, useState } from "./hooks.js";
import { useHeld } from "./held.js";
import { SetupProblems } from "./setup.js";
import { gameOf } from "./games.js";
import { createTable } from "./tablestore.js";
import { Reactions } from "./reactions.js";
import { RevealDialog } from "./reveal.js";
import { RatedResult } from "./ladderview.js";
import { RatedLine, ratedSeatOf, SeatRatedLine, SeatRating, useRatedTable } from "./ratedtable.js";
import { api } from "./api.js";
import { fail, html, toast, withArticle } from "./ui.js";
import { shownName, tableTitle } from "./playernames.js";
import { loadHandleRules, nicknameProblem } from "./namerules.js";

/** The shared table: its heading, the room (seats, readiness, the host's set-up), the game
 * over panel, reactions, your seat's tools and the reveal frame, with the game's own part
 * (`kind`'s entry in games.js) inside it. */
export function TableScreen({ game, kind }) {
  const [, bump] = useReducer((n) => n + 1, 0);
  const g = gameOf(kind);
  const store = useMemo(() => createTable(game, bump, g), [game]);
  useEffect(() => { store.start(); return () => store.stop(); }, [store]);
  const { s, actions } = store;
  const myTurn = store.isMyTurn();
  const rated = useRatedTable(game, !!s.state && s.state.status === "Finished");

  useEffect(() => {
    const onKey = (ev) => {
      if (!store.isMyTurn() || store.s.reveals.length || store.s.busy) return;
      if (document.querySelector("dialog[open]")) return; // "How to play" is open over the table
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const t = ev.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
      const button = Object.hasOwn(g.keys, ev.key.toLowerCase()) ? g.keys[ev.key.toLowerCase()] : null;
      if (button) { ev.preventDefault(); document.getElementById(button)?.click(); }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [store]);

  // Your turn: the move controls take the focus, unless the person is busy elsewhere.
  useEffect(() => {
    if (!myTurn || s.reveals.length) return;
    const at = document.activeElement;
    if (!at || at === document.body || ["turn-line", "table-heading", "view"].includes(at.id))
      document.getElementById("dock-title")?.focus();
  }, [myTurn, s.reveals.length, s.state && s.state.version]);

  // The game starts: the page shows the table from its top (the Start button was far down).
  const started = !!s.state && s.state.status !== "Not started";
  useEffect(() => { if (started) window.scrollTo(0, 0); }, [started]);

  // Your turn: the whole table if it fits, and always your cards, in view above the move
  // controls (on a phone they fill the bottom of the screen); scrolled once as the turn
  // begins, never while you choose.
  const revealing = s.reveals.length > 0;
  useEffect(() => {
    if (!myTurn || revealing) return;
    const felt = document.querySelector(".felt");
    const hand = document.querySelector(".felt .hand");
    const dock = document.querySelector(".dock");
    if (!felt || !hand || !dock) return;
    const table = felt.getBoundingClientRect();
    const room = dock.getBoundingClientRect().top - 8;
    const bottom = table.height + 16 <= room ? table.bottom : hand.getBoundingClientRect().bottom;
    if (bottom > room) window.scrollBy(0, bottom - room);
    else if (table.top < 8) window.scrollBy(0, Math.max(table.top - 8, bottom - room));
  }, [myTurn, revealing]);

  if (s.missing) return html`<section class="panel"><h1 id="table-heading" tabindex="-1">This game cannot be opened</h1>
    <p>${s.missing.code === "game_not_found" ? "It does not exist, or it ended long ago and was cleared away." : "The server did not answer as expected."}</p>
    <p><a class="button" href="#/">Back to the lobby</a></p></section>`;
  const st = s.state;
  if (!st) return html`<section class="panel"><p>Opening the table…</p></section>`;
  const me = s.seat && s.seat.nickname;
  const seated = !!me && st.players.some((p) => p.nickname === me);
  const admin = seated && st.admin_nickname === me;
  const lobby = st.status === "Not started";
  const reveal = s.reveals[0];
  return html`<div class=${`table-screen${myTurn ? " has-dock" : ""}`} data-live=${s.live ? "open" : "closed"}>
    <section class="panel table-top">
      <h1 id="table-heading" tabindex="-1">${tableTitle(st, s.seat)}
        <span class="badge">${lobby ? "waiting to start" : st.status === "Running" ? `round ${st.round_number}` : "game over"}</span></h1>
      <p class="you small">${seated ? html`You are <b>${me}</b>${admin && !(s.seat && s.seat.rated) ? " (the host)" : ""}.` : "You are watching."}
        <${g.Summary} st=${st} lobby=${lobby} /></p>
      ${rated ? html`<${RatedLine} rated=${rated} st=${st} me=${seated ? me : null} />`
        : s.seat && s.seat.rated ? html`<${SeatRatedLine} pool=${s.seat.rated} />` : null}
      ${!lobby ? html`<${g.RulesLine} st=${st} />` : null}
      ${s.notice ? html`<p class="notice" id="notice">${s.notice}</p>` : null}
      ${!seated && st.status === "Running" ? html`<p class="notice" id="latecomer">This game started before you came, so you can watch it but not play. <a href="#/">Start your own game</a>.</p>` : null}
    </section>
    ${lobby ? html`<${Room} g=${g} s=${s} st=${st} me=${me} seated=${seated} admin=${admin} actions=${actions} />` : null}
    ${st.status === "Finished" ? html`<${GameOver} g=${g} st=${st} s=${s} me=${me} seated=${seated} actions=${actions} game=${game} />` : null}
    ${!lobby ? html`<${g.Board} st=${st} s=${s} me=${me} seated=${seated} myTurn=${myTurn} actions=${actions} ratings=${rated ? { of: (p) => ratedSeatOf(rated, p), Rating: SeatRating } : null} />` : null}
    <${Reactions} st=${st} seated=${seated} actions=${actions} />
    <${SeatTools} st=${st} s=${s} seated=${seated} actions=${actions} game=${game} />
    ${myTurn ? html`<${g.Moves} st=${st} s=${s} actions=${actions} />` : null}
    ${reveal ? html`<${RevealDialog} Round=${g.Round} item=${reveal} count=${s.reveals.length} after=${st.round_number > reveal.snap.round_number || st.status === "Finished" ? st : null} onDismiss=${actions.dismissReveal} />` : null}
  </div>`;
}

function Room({ g, s, st, me, seated, admin, actions }) {
  const [autoStart, changeAutoStart] = useHeld(!!st.auto_start);
  const [name, setName] = useState(localStorage.getItem("blef:name") || "");
  const [agent, setAgent] = useState("bold");
  const [rules, setRules] = useState(null); // the published rules of a name's form (namerules.js)
  useEffect(() => { loadHandleRules().then(setRules).catch(() => { /* the service decides */ }); }, []);
  const typed = rules && name.trim() ? nicknameProblem(name.trim(), rules) : null;
  const [limit, setLimit] = useState(String(st.time_limit || 0));
  const ready = new Set(st.ready || []);
  // This person's readiness and the table's listing as last pressed, until the service says
  // the same: a second quick press sends the opposite of the first, never the same again.
  const [isReady, changeReady] = useHeld(!!me && ready.has(me));
  const [listed, changeListed] = useHeld(st.public === "true");
  const { levels: LEVELS } = g;
  const share = `${location.origin}/#/game/${s.game}`;
  return html`<section class="panel room">
    <h2>Players (${st.players.length} of 8)</h2>
    <ul class="players" aria-label="Players">${st.players.map((p, i) => {
      const mine = p.nickname === me;
      return html`<li key=${p.nickname}>
        <span class="nick">${shownName(p.nickname)}${p.nickname === st.admin_nickname && !(s.seat && s.seat.rated) ? " (host)" : ""}${mine ? " (you)" : ""}</span>
        <${g.PlayerChoice} p=${p} st=${st} me=${me} admin=${admin} actions=${actions} />
        ${ready.has(p.nickname) ? html`<span class="ready" role="img" aria-label=${`${p.nickname} is ready`}>✓ ready</span>` : null}
        ${mine ? html`<button id="ready-toggle" class="small" onClick=${() => { const v = !isReady; changeReady(v, () => actions.act("ready", { ready: v }, v ? "You are ready." : "You are not ready.")); }}>${isReady ? "Not ready" : "Ready"}</button>` : null}
        ${admin && !mine ? html`<button class="small" aria-label=${`Remove ${shownName(p.nickname)}`} onClick=${() => actions.act("remove", { nickname: p.nickname }, `${shownName(p.nickname)} was removed.`)}>Remove</button>` : null}
        ${seated && !p.ai_agent && !mine ? (s.reported.has(p.nickname) ? html`<span class="muted reported">Reported</span>`
          : html`<button class="small link" aria-label=${`Report name of ${p.nickname}`} onClick=${() => actions.report(p.nickname, i + 1)}>Report name</button>`) : null}
      </li>`;
    })}</ul>
    ${seated ? html`<${g.RoomHelp} admin=${admin} />` : null}
    <${g.RulesLine} st=${st} />
    ${!me ? html`<form class="row" onSubmit=${(e) => { e.preventDefault(); if (!typed) actions.join(name.trim()); }}>
      <label class="field-inline" for="nickname">Your name</label>
      <input id="nickname" value=${name} maxlength="64" autocomplete="nickname" required aria-describedby="nickname-help"
        aria-invalid=${typed ? "true" : "false"} onInput=${(e) => setName(e.currentTarget.value)} />
      <button type="submit" class="primary">Join</button></form>
      <p id="nickname-help" class=${typed ? "problem small" : "muted small"}>${typed ? typed.text : "A name starts with a letter; letters, digits and single _ between them."}</p>` : null}
    ${admin ? html`<div class="admin">
      <h2>Set up the game (you are the host)</h2>
      <${g.HostRules} st=${st} s=${s} actions=${actions} />
      <div class="row">
        <label class="field-inline" for="agent">Computer player</label>
        <select id="agent" value=${agent} onChange=${(e) => setAgent(e.currentTarget.value)}>
          ${LEVELS.map((l) => html`<option key=${l.agent} value=${l.agent}>${l.label}</option>`)}</select>
        <button onClick=${() => actions.act("invite-aiagent", { agent_name: agent }, `${withArticle(LEVELS.find((l) => l.agent === agent).label)} computer player joined.`)}>Invite computer player</button>
      </div>
      <p class="muted small">${LEVELS.find((l) => l.agent === agent).words}</p>
      <div class="row">
        <label class="field-inline" for="time-limit">Seconds to move (0 = no limit)</label>
        <input id="time-limit" type="number" min="0" max="300" inputmode="numeric" value=${limit} onInput=${(e) => setLimit(e.currentTarget.value)} />
        <button onClick=${() => actions.act("set-time-limit", { time_limit: Number(limit) }, Number(limit) ? `Each player now has ${Number(limit)} seconds to move.` : "No time limit.")}>Set time limit</button>
      </div>
      <${g.HostLimits} st=${st} s=${s} actions=${actions} />
      <div class="row">${listed
        ? html`<button onClick=${() => changeListed(false, () => actions.act("make-private", undefined, "The game is private: only people with the link can join."))}>Make private</button>`
        : html`<button onClick=${() => changeListed(true, () => actions.act("make-public", undefined, "The game is listed in the lobby."))}>List in the lobby (make public)</button>`}</div>
      <label class="check"><input type="checkbox" id="auto-start" checked=${autoStart}
        onChange=${(e) => { const v = e.currentTarget.checked; changeAutoStart(v, () => actions.act("set-auto-start", { auto_start: v })); }} /> Start by itself when everyone is ready</label>
      <button id="start" class="primary big" disabled=${s.busy} onClick=${() => actions.act("start", undefined, "The game started.")}>Start the game</button>
    </div>` : seated ? html`<p class="muted">${st.auto_start ? `The game starts by itself when everyone is ready, or when ${st.admin_nickname} starts it.` : `Waiting for ${st.admin_nickname} to start the game.`}</p>
      <p class="muted" id="chosen-max-cards">${g.roomFacts(st)} ${st.time_limit ? `${st.time_limit} seconds to move.` : "No time limit."}</p>` : null}
    <${SetupProblems} s=${s} />
    <div class="share"><label for="share-link">Invite people with this link</label>
      <div class="row"><input id="share-link" readonly value=${share} />
        <button class="small" onClick=${() => copy(share, "The link is copied.")}>Copy</button></div></div>
    ${seated ? html`<div class="row"><button id="leave" onClick=${actions.leave}>Leave the game</button></div>` : null}
  </section>`;
}

function copy(text, done) {
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => toast(done), () => toast("Select the text and copy it."));
  else toast("Select the text and copy it.");
}

function SeatTools({ st, s, seated, actions, game }) {
  const mine = seated && st.players.find((p) => p.nickname === s.seat.nickname);
  const takeLink = s.seat ? `${location.origin}/#/take/${game}/${s.seat.player_uuid}` : "";
  return html`<section class="panel tools" aria-label="Your seat and settings">
    ${st.status === "Running" && mine && mine.n_cards > 0 ? html`<button id="resign" onClick=${actions.resign}>Resign</button>` : null}
    ${seated && st.status !== "Finished" ? html`<details class="device"><summary>Play on another device</summary>
      <p class="warning"><b>Keep this link to yourself.</b> Whoever opens it first takes your seat, as you, and this browser stops playing it
        (it then watches). Open it on your other device; it works once. The secret after # never leaves your browser for the server.</p>
      <div class="row"><input id="take-link" readonly aria-label="Link to your seat" value=${takeLink} />
        <button class="small" onClick=${() => copy(takeLink, "Your seat's link is copied. Keep it to yourself.")}>Copy</button></div></details>` : null}
    <details class="settings"><summary>Settings</summary>
      <label class="check"><input type="checkbox" id="sound" checked=${s.sound} onChange=${(e) => actions.setPref("sound", e.currentTarget.checked)} /> A sound when it is your turn</label>
      <label class="check"><input type="checkbox" id="autoclose" checked=${s.autoClose} onChange=${(e) => actions.setPref("autoclose", e.currentTarget.checked)} /> Close each round's reveal by itself after 10 seconds</label>
      <label class="check"><input type="checkbox" id="tips" checked=${s.tips} onChange=${(e) => actions.setPref("tips", e.currentTarget.checked)} /> Show the first-game guide</label>
    </details>
  </section>`;
}

function GameOver({ g, st, s, me, seated, actions, game }) {
  const won = st.winner === me;
  const rated = s.seat && s.seat.rated;
  const waiting = (st.rematch && st.rematch.asked) || [];
  return html`<section class="panel over" aria-labelledby="over-title">
    <h2 id="over-title" tabindex="-1">Game over</h2>
    <p id="winner">${won ? "You win!" : `${shownName(st.winner)} wins!`}</p>
    ${seated && rated ? html`<${RatedResult} game=${game} pool=${rated} />` : seated ? html`<p><button id="play-again" class="primary big" disabled=${s.busy} onClick=${actions.playAgain}>Play again with the same players</button></p>
      <p class="muted" id="rematch-status">${waiting.length ? `Already in the next game: ${waiting.join(", ")}.` : "Nobody has gone on to the next game yet."}${" "}
        Everyone who clicks Play again sits at the same new table, with the same rules and the same computer players.</p>` : null}
    <p class="row"><a class="button" href="#/" id="to-lobby">Back to the lobby</a>
      <${LastRound} g=${g} st=${st} s=${s} game=${game} />
      <a class="button" href=${`#/replay/${game}`} id="replay-link">Replay the game, round by round</a></p>
  </section>`;
}

/** The final round's reveal, on asking: the page may have opened on a game already over. */
function LastRound({ g, st, s, game }) {
  const [snap, setSnap] = useState(null);
  const open = () => api(`/games/${game}?round=${st.round_number}`, { token: s.seat && s.seat.player_uuid })
    .then(({ data }) => setSnap(data), fail);
  const close = () => { setSnap(null); setTimeout(() => document.getElementById("last-round")?.focus(), 0); };
  return html`<button id="last-round" onClick=${open}>How the last round ended</button>
    ${snap ? html`<${RevealDialog} Round=${g.Round} item=${{ snap, before: null }} count=${1} after=${st} onDismiss=${close} />` : null}`;
}
