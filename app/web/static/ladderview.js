// The screens of accounts and rated games: the lobby's panel (account, pool, queue), the
// rating change at a rated game's end, the leaderboard and a player's profile. Views of the
// store in ladder.js; components are declared once, at the top level, so a new answer
// patches the page and never replaces a control in use.
import { useEffect, useMemo, useReducer, useRef, useState } from "./hooks.js";
import { api, ApiError } from "./api.js";
import { words } from "./errors.js";
import {
  ACCOUNT_CHANGED, accountOf, addPasskey, createRated, deleteAccount, FILL_CHOICES, fillAfterChosen, fillCountdown, lookingLine, lookingTitle, makeAccount,
  noLongerLooking, passkeyCancelled, passkeysHere, passkeysOf, points, queueBody, resultLine, shown, shownChange, signIn, signInWithPasskey, signOutHere,
  stakeWords, waitingLine, waitWords, WIDENING, tableHref,
} from "./ladder.js";
import { useRatedTable } from "./ratedtable.js";
import { boardPool, gameOfPool, houseName, playersWords, poolsByGame, poolTitle, seatWords, usePools } from "./pools.js";
import { announce, fail, html, toast } from "./ui.js";
import { AccountName, NAME_REFUSALS } from "./accountname.js";
import { isComputer, shownName } from "./playernames.js";

function copyKey(secret) {
  const done = () => { toast("Your key is copied. Keep it to yourself."); announce("Your key is copied."); };
  if (navigator.clipboard) navigator.clipboard.writeText(secret).then(done, () => toast("Open “Show my key” and copy it from there.", true));
  else toast("Open “Show my key” and copy it from there.", true);
}

/** The lobby's panel: make an account (with the lobby's name) or sign in with a key, then
 * choose a pool and find a rated game; the waiting state with its Cancel. */
export function RatedPanel({ name }) {
  const [, bump] = useReducer((n) => n + 1, 0);
  const store = useMemo(() => createRated(bump), []);
  useEffect(() => { store.start(); return () => store.stop(); }, [store]);
  const { s, actions } = store;
  const [fresh, setFresh] = useState(false); // the account was made just now: say to copy its key
  const q = s.queue;
  const waiting = !!q && (q.state === "waiting" || q.state === "forming");
  const wasWaiting = useRef(false);
  useEffect(() => {
    if (waiting && !wasWaiting.current) document.getElementById("waiting-title")?.focus();
    if (!waiting && wasWaiting.current) document.getElementById("find-rated")?.focus();
    wasWaiting.current = waiting;
  }, [waiting]);

  const make = async (handle) => { // a refusal of the name is thrown, for AccountName to say
    if (!handle || s.busy) return;
    s.busy = true;
    bump();
    try {
      const account = await makeAccount(handle);
      setFresh(true);
      actions.signedIn(account);
      announce(`Your account ${account.handle} is made. Copy your key and keep it safe.`);
      setTimeout(() => document.getElementById("account-title")?.focus(), 0);
    } catch (e) {
      if (e instanceof ApiError && NAME_REFUSALS.includes(e.code)) throw e;
      fail(e);
    } finally { s.busy = false; bump(); }
  };
  const signedOut = (said) => {
    setFresh(false);
    actions.signedOut();
    toast(said);
    announce(said);
    setTimeout(() => document.getElementById("make-account")?.focus(), 0);
  };
  const signOut = async () => {
    const ask = s.account.device
      ? "Sign out on this browser? You can sign in again with your passkey."
      : "Sign out on this browser? Without your key (or a passkey) you cannot come back to this account: copy it first.";
    if (!confirm(ask)) return;
    try {
      await signOutHere(s.account);
      signedOut("You are signed out on this browser.");
    } catch (e) { fail(e); }
  };
  const remove = async () => {
    if (s.busy) return;
    if (!confirm(`Delete the account ${s.account.handle} for good? Its rating and profile go, every passkey and key stops working, and the name is free for anyone. Games you played stay in other players' histories, without your name.`)) return;
    s.busy = true;
    bump();
    try {
      await deleteAccount(s.account);
      s.busy = false;
      signedOut("Your account is deleted.");
    } catch (e) {
      s.problem = words(e);
      fail(e);
    } finally { s.busy = false; bump(); }
  };

  return html`<section class="panel rated" aria-labelledby="rated-title">
    <h2 id="rated-title" tabindex="-1">Rated games against people</h2>
    ${s.account ? html`<${Account} s=${s} fresh=${fresh} onSignOut=${signOut} onDelete=${remove} />`
      : html`<${NoAccount} s=${s} name=${name} onMake=${make} onSignedIn=${(a) => { actions.signedIn(a); setTimeout(() => document.getElementById("account-title")?.focus(), 0); }} />`}
    ${s.account ? html`<${FindRated} s=${s} actions=${actions} waiting=${waiting} />` : null}
  </section>`;
}

function NoAccount({ s, name, onMake, onSignedIn }) {
  const [key, setKey] = useState("");
  const [problem, setProblem] = useState(null);
  const [passkeyProblem, setPasskeyProblem] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (ev) => {
    ev.preventDefault();
    if (busy) return;
    if (!key.trim()) { setProblem("Paste your key first."); return; }
    setBusy(true);
    try {
      const account = await signIn(key);
      setKey("");
      setProblem(null);
      toast(`Signed in as ${account.handle}.`);
      onSignedIn(account);
    } catch (e) {
      const text = e instanceof ApiError && (e.code === "unknown_account" || e.code === "invalid_parameter")
        ? "That key opens no account. Check that you pasted all of it (43 characters)." : words(e);
      setProblem(text);
      announce(text);
    } finally { setBusy(false); }
  };
  const withPasskey = async () => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const account = await signInWithPasskey();
      toast(`Signed in as ${account.handle} with your passkey.`);
      onSignedIn(account);
    } catch (e) {
      const text = passkeyCancelled(e) ? "No passkey was chosen, so you are not signed in."
        : e instanceof ApiError ? words(e) : "This browser could not use a passkey here. Sign in with your key instead.";
      setPasskeyProblem(text);
      announce(text);
    } finally { setBusy(false); }
  };
  return html`<p>Play people near your level and earn a rating. It takes an account: just a name, no e-mail, no password.</p>
    <${AccountName} name=${name} busy=${s.busy} onMake=${onMake} />
    ${passkeysHere() ? html`<div class="passkey-sign-in">
      <p class="row"><button id="passkey-sign-in" disabled=${busy} aria-describedby="passkey-sign-in-help" onClick=${withPasskey}>Sign in with a passkey</button>
        <small id="passkey-sign-in-help" class=${passkeyProblem ? "problem" : "muted"} role="status">${passkeyProblem || "Added a passkey to your account on another device? Use it here."}</small></p>
    </div>` : null}
    <details class="sign-in" open=${!!problem}>
      <summary>Already have an account on another browser? Sign in with your key</summary>
      <form onSubmit=${submit}>
        <div class="field"><label for="account-key">Your key</label>
          <input id="account-key" type="password" autocomplete="off" spellcheck="false" value=${key} aria-describedby="key-help"
            aria-invalid=${problem ? "true" : "false"} onInput=${(e) => setKey(e.currentTarget.value)} />
          <small id="key-help" class=${problem ? "problem" : "muted"}>${problem || "Paste the key you copied on your other browser. It is sent only to this server, never in a link."}</small></div>
        <button type="submit" id="sign-in" disabled=${busy}>Sign in</button>
      </form>
    </details>`;
}

/** Add a passkey to the signed-in account, and how many it has: a passkey lets another
 * device sign in without the key being copied. */
function Passkeys({ account }) {
  const [count, setCount] = useState(null);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState(null);
  const [problem, setProblem] = useState(false);
  useEffect(() => {
    let alive = true;
    passkeysOf(account).then((list) => alive && setCount(list.length)).catch(() => {});
    return () => { alive = false; };
  }, [account.secret]);
  if (!passkeysHere()) return html`<p class="muted small" id="passkey-help">Passkeys need a secure page (https): on this one, copy your key to play elsewhere.</p>`;
  const add = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const n = await addPasskey(account);
      setCount(n);
      setProblem(false);
      setSaid("Passkey added. On another device, choose “Sign in with a passkey”.");
      announce("Passkey added.");
    } catch (e) {
      setProblem(true);
      setSaid(passkeyCancelled(e) ? "No passkey was made." : e && e.name === "InvalidStateError"
        ? "This device already holds a passkey for this account." : e instanceof ApiError ? words(e) : "This browser could not make a passkey here.");
    } finally { setBusy(false); }
  };
  return html`<div class="passkeys">
    <p id="passkey-help">${count ? `This account has ${count} passkey${count === 1 ? "" : "s"}: sign in with one on any device that holds it.`
      : "Add a passkey to sign in on another device without copying your key: your phone, computer or password manager keeps it."}</p>
    <p class="row"><button id="add-passkey" disabled=${busy} aria-describedby="passkey-help" onClick=${add}>Add a passkey to this account</button>
      <small id="passkey-status" role="status" class=${problem ? "problem" : "muted"}>${said || ""}</small></p>
  </div>`;
}

function Account({ s, fresh, onSignOut, onDelete }) {
  const [shown, setShown] = useState(false);
  const a = s.account;
  return html`<div class="account">
    <h3 id="account-title" tabindex="-1">Signed in as <b>${a.handle}</b></h3>
    ${s.problem ? html`<p class="notice">${s.problem}</p>` : null}
    <div class=${`key-box${fresh ? " fresh" : ""}`}>
      <p>${fresh ? html`<b>Your account is made.</b> ` : null}This browser keeps your <b>key</b>: it is the only way into this account.
        To play on another browser, copy the key and paste it there. <b>Never share it</b>: whoever has it plays as you.</p>
      <div class="row">
        <button id="copy-key" class=${fresh ? "primary" : ""} onClick=${() => copyKey(a.secret)}>Copy your key</button>
        <button class="small link" aria-expanded=${shown ? "true" : "false"} onClick=${() => setShown(!shown)}>${shown ? "Hide my key" : "Show my key"}</button>
      </div>
      ${shown ? html`<input id="shown-key" class="mono" readonly aria-label="Your key" value=${a.secret} />` : null}
    </div>
    <${Passkeys} account=${a} />
    <p class="row"><a href=${`#/player/${encodeURIComponent(a.handle)}`} id="my-profile">Your profile</a>
      <a href=${s.pool ? `#/ladder/${s.pool}` : "#/ladder"}>Leaderboard</a>
      <button class="small" id="sign-out" onClick=${onSignOut}>Sign out</button>
      <button class="small danger" id="delete-account" disabled=${s.busy} onClick=${onDelete}>Delete account</button></p>
  </div>`;
}

function FindRated({ s, actions, waiting }) {
  const q = s.queue;
  const seatedElsewhere = q && q.state === "seated" && !s.tooLate;
  const lookingIn = waiting ? q.pool || s.pool : null;
  useEffect(() => {
    if (!lookingIn) return undefined;
    document.title = lookingTitle(lookingIn, s.pools);
    return () => { if (document.title.startsWith("Looking")) document.title = houseName(); };
  }, [lookingIn]);
  const countdown = waiting ? fillCountdown(q) : null;
  return html`<div class="find">
    <fieldset class="levels pools" disabled=${waiting}>
      <legend>Which rated game?</legend>
      ${s.pools.length ? poolsByGame(s.pools).map((group) => html`<fieldset key=${group.kind} class="pool-game">
        <legend>${group.game.name}</legend>
        ${group.pools.map((p) => html`<label key=${p.name} class="level">
          <input type="radio" name="pool" value=${p.name} checked=${s.pool === p.name} onChange=${() => actions.choosePool(p.name)} />
          <span><b>${p.title}</b> <small>${seatWords(p)} ${group.game.ratedTerms(p)}</small></span></label>`)}
      </fieldset>`) : html`<p class="muted" id="pools-loading">Loading the rated games…</p>`}
    </fieldset>
    ${s.notice && !waiting ? html`<p class="notice" id="rated-notice">${s.notice}</p>` : null}
    ${s.tooLate ? html`<div class="notice" id="too-late" role="alert"><p>${s.tooLate}</p>
      <button class="primary" id="go-to-table" onClick=${actions.goToTable}>Go to your table</button></div>` : null}
    <div class=${waiting ? "waiting" : ""} aria-labelledby=${waiting ? "waiting-title" : null}>
      ${waiting ? html`<div class="waiting-head">
        <h3 id="waiting-title" tabindex="-1">Looking for a rated game: ${poolTitle(q.pool || s.pool, s.pools)}</h3>
        <button id="cancel-rated" disabled=${s.busy} onClick=${actions.cancel}>Cancel</button></div>
        <p id="waited" aria-live="off">${q.state === "forming" ? "Found! Setting up the table…" : waitingLine(q.waited_seconds)}</p>
        ${q.state === "waiting" ? html`<p class="small" id="looking">${lookingLine(q)}</p>` : null}
        ${countdown ? html`<p class="small" id="fill-countdown" aria-live="off">${countdown}</p>` : null}` : null}
      ${seatedElsewhere || s.tooLate ? null : html`<p class="row fill-choice"><label for="fill-after">If no one is found, play computer players of your strength:</label>
        <select id="fill-after" value=${s.fillAfter} disabled=${s.busy && !waiting} onChange=${(e) => actions.chooseFillAfter(e.currentTarget.value)}>
          ${FILL_CHOICES.map((c) => html`<option key=${c.value} value=${c.value}>${c.label}</option>`)}
        </select></p>`}
      ${waiting ? html`<p class="muted small widening">${WIDENING}</p>
        ${q.fill_after !== undefined ? html`<p class="muted small" id="fill-line">Computer players of your strength fill the table after ${waitWords(q.fill_after)} if not enough people are found.</p>` : null}` : null}
    </div>
    ${waiting || s.tooLate ? null
      : seatedElsewhere ? html`<p class="notice" id="rated-in-play">You have a rated game in play. <a href=${tableHref(q)}>Go to your table</a>.</p>`
      : html`<button id="find-rated" class="primary big" disabled=${s.busy || !s.pool} onClick=${actions.find}>Find a rated game</button>
        <p class="muted small">You play as ${s.account.handle}; the page takes you to the table as soon as the others are found. Keep this page open while you wait: a page closed or asleep for ${ABSENT_WORDS} leaves the queue.</p>`}
    ${s.problem && !waiting ? html`<p class="problem" id="rated-problem">${s.problem}</p>` : null}
  </div>`;
}

/** How long a page may stop answering before its place is dropped (the service's 20 s). */
const ABSENT_WORDS = "20 seconds";

/** At a rated game's end: this player's rating change, once the service has settled it. */
export function RatedResult({ game, pool }) {
  const [result, setResult] = useState(null);
  const [late, setLate] = useState(false);
  const [busy, setBusy] = useState(false);
  const account = accountOf();
  useEffect(() => {
    if (!account) return undefined;
    let alive = true;
    let tries = 0;
    const ask = async () => {
      tries += 1;
      try {
        const { data } = await api("/ladder/queue", { token: account.secret });
        if (!alive) return;
        const last = data.last_result;
        if (last && last.game_uuid === game) {
          setResult(last);
          dispatchEvent(new Event(ACCOUNT_CHANGED)); // the header shows the new rating
          announce(last.called_off ? noLongerLooking({ last_result: last }, account.handle) : resultLine(last));
          return;
        }
      } catch { /* asked again below */ }
      if (!alive) return;
      if (tries >= 30) setLate(true);
      else setTimeout(ask, 1000);
    };
    ask();
    return () => { alive = false; };
  }, [game]);
  if (!account) return html`<p class="muted">This was a rated game; sign in on this browser to see your rating.</p>`;
  const again = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await api("/ladder/queue", { method: "POST", body: queueBody(pool, fillAfterChosen()), token: account.secret });
      location.hash = "#/";
    } catch (e) { fail(e); setBusy(false); }
  };
  const moved = result && !result.void && result.rating_after !== undefined ? shownChange(result).change : 0;
  const up = moved > 0;
  const down = moved < 0;
  return html`<div class="rated-result">
    <p id="rating-change" class=${`rating-change${up ? " up" : down ? " down" : ""}`}>${result ? (result.called_off ? noLongerLooking({ last_result: result }, account.handle) : resultLine(result))
      : late ? "Your rating is not updated yet: see your profile in a minute." : "Working out your new rating…"}</p>
    <p class="row"><button id="find-another" class="primary" disabled=${busy || !(result || late)} onClick=${again}>Find another rated game</button>
      <a class="button" href=${`#/ladder/${pool}`} id="to-leaderboard">Leaderboard</a>
      <a class="button" href=${`#/player/${encodeURIComponent(account.handle)}`} id="to-profile">Your profile</a></p>
  </div>`;
}

/** Above a rated table of a game whose own view shows no ratings (kindview.js): this seat's
 * rating and what first and last place would change while the game is played, then its
 * change and the ways on once the game is settled. */
export function RatedTableStrip({ game, handle, pool, over }) {
  const rated = useRatedTable(game, over);
  const pools = usePools();
  const mine = rated ? rated.seats.find((x) => !x.agent && x.handle === handle) || null : null;
  const playing = !!mine && rated.state !== "settled" && !over;
  const stake = playing ? stakeWords(mine, rated.seats.filter((x) => x.rated !== false).length) : "";
  return html`<section class="panel rated-strip" aria-label="Your rated game">
    <p class="small" id="rated-line"><b>Rated game</b> (${poolTitle(pool || (rated && rated.pool), pools)}).
      ${playing ? html` Your rating <b>${points(shown(mine))}</b>${mine.provisional ? " (provisional)" : ""}${stake ? html`: <span id="stakes">${stake}</span>`
        : ": this game does not change it (you have played these players often today)"}.` : null}
      ${" "}<a href="#/about-ratings">What the numbers mean</a></p>
    ${over ? html`<${RatedResult} game=${game} pool=${pool} />` : null}
  </section>`;
}

/** The boards of every pool, by game: each game's name, then its pools' links. */
function PoolTabs({ pools, current }) {
  return html`<nav class="pool-tabs" aria-label="Pools">${poolsByGame(pools).map((group) => html`<div key=${group.kind} class="row pool-group"
      role="group" aria-labelledby=${`pools-of-${group.kind}`}>
    <span class="pool-group-name" id=${`pools-of-${group.kind}`}>${group.game.name}</span>
    ${group.pools.map((p) => html`<a key=${p.name} class="button small" href=${`#/ladder/${p.name}`}
      aria-current=${p.name === current ? "page" : null}>${p.title}</a>`)}</div>`)}</nav>`;
}

/** `#/ladder`: the board of the pool chosen last in this browser (or the first listed). */
export function LeaderboardIndex() {
  const pools = usePools();
  useEffect(() => {
    const pool = boardPool(pools, localStorage.getItem("blef:pool"));
    if (pool) location.replace(`#/ladder/${pool}`);
  }, [pools]);
  return html`<section class="panel board"><h1 id="page-heading" tabindex="-1">Leaderboard</h1><p>Loading…</p></section>`;
}

/** How many players a leaderboard page shows (the service's most). */
const BOARD_PAGE = 100;

/** `#/ladder/<pool>`: the top players of a pool, a page at a time, and, when signed in, your rank. */
export function Leaderboard({ pool }) {
  const [board, setBoard] = useState(null);
  const [error, setError] = useState(null);
  const pools = usePools();
  const [offset, setOffset] = useState(0);
  const account = accountOf();
  const load = (from = offset) => {
    setError(null);
    api(`/ladder/leaderboard/${encodeURIComponent(pool)}?limit=${BOARD_PAGE}&offset=${from}`, { token: account ? account.secret : undefined })
      .then(({ data }) => setBoard(data))
      .catch((e) => setError(e));
  };
  const turnTo = (from) => {
    setOffset(from);
    load(from);
    const heading = document.getElementById("page-heading");
    if (heading) heading.focus();
  };
  useEffect(() => { setOffset(0); }, [pool]);
  useEffect(() => { load(0); }, [pool]);
  const title = board ? board.title : poolTitle(pool, pools);
  const listed = pools.find((p) => p.name === pool);
  const game = gameOfPool(pool, pools);
  useEffect(() => { document.title = `Leaderboard: ${title} · ${listed ? game.name : houseName()}`; }, [title, listed, game]);
  return html`<section class="panel board">
    <h1 id="page-heading" tabindex="-1">Leaderboard: ${title}</h1>
    ${listed ? html`<p id="board-game">Rated ${game.name} games of ${playersWords(listed)}.</p>` : null}
    <${PoolTabs} pools=${pools} current=${pool} />
    ${error ? html`<p class="problem">${words(error)}</p>` : !board ? html`<p>Loading…</p>` : html`
      <${YourRank} you=${board.you} account=${account} />
      ${board.players.length ? html`<table class="ratings" id="leaderboard">
        <caption>${board.offset ? `Players ${board.offset + 1} to ${board.offset + board.players.length}` : `The top ${board.players.length} player${board.players.length === 1 ? "" : "s"}`}, by rating</caption>
        <thead><tr><th scope="col">Rank</th><th scope="col">Player</th><th scope="col">Rating</th><th scope="col">Games</th></tr></thead>
        <tbody>${board.players.map((p) => html`<tr key=${p.handle} class=${account && p.handle === account.handle ? "me" : ""}>
          <td>${p.rank}</td>
          <td><a href=${`#/player/${encodeURIComponent(p.handle)}`}>${shownName(p.handle)}</a>${p.bot && !isComputer(p.handle) ? html` <span class="badge bot" title="a program, not a person">bot</span>` : ""}${account && p.handle === account.handle ? " (you)" : ""}</td>
          <td>${points(shown(p))}${p.provisional ? html`<abbr class="prov" title="provisional: fewer than 10 games">?</abbr><span class="sr-only"> (provisional)</span>` : ""}</td>
          <td>${p.games}</td></tr>`)}</tbody>
      </table>
      ${board.offset || board.next_offset ? html`<nav class="row" aria-label="Leaderboard pages">
        ${board.offset ? html`<button class="small" id="board-previous" onClick=${() => turnTo(Math.max(0, board.offset - BOARD_PAGE))}>Previous ${BOARD_PAGE}</button>` : null}
        ${board.next_offset ? html`<button class="small" id="board-next" onClick=${() => turnTo(board.next_offset)}>Next ${BOARD_PAGE}</button>` : null}
      </nav>` : null}
      <p class="muted small">? provisional: fewer than 10 rated games in this pool, so the rating may still move a lot.
        Everyone starts at 1500. <a href="#/about-ratings">What the numbers mean</a>.</p>`
      : html`<p>Nobody has played a rated game in this pool yet. <a href="#/rated" id="board-first"
        onClick=${() => listed && localStorage.setItem("blef:pool", pool)}>Be the first</a>: everyone starts at 1500
        (<a href="#/about-ratings">what the numbers mean</a>).</p>`}`}
    <p><button class="small" onClick=${() => load()}>Refresh</button> <a class="button small" href="#/">Back to the lobby</a></p>
  </section>`;
}

function YourRank({ you, account }) {
  if (!account) return html`<p class="muted">Sign in (in the lobby) to see your own rank.</p>`;
  if (!you) return null;
  if (you.rated === false || you.rank === null || you.rank === undefined)
    return html`<p id="your-rank">You (${you.handle}) have no rating in this pool yet: play a rated game in it.</p>`;
  return html`<p id="your-rank" class="your-rank">Your rank: <b>${you.rank}</b> · rating ${points(shown(you))} after ${you.games} game${you.games === 1 ? "" : "s"}.</p>`;
}
