// The Blef browser client. Hash routes: #/ (lobby), #/game/<uuid> (table), #/replay/<uuid>,
// #/learn (how to play), #/take/<uuid>/<player_uuid> (a seat brought from another device:
// the secret is in the fragment, which the browser never sends to the server),
// #/<kind>/<uuid>/replay (a finished game of any kind, Blef included, step by step),
// #/ladder/<pool> (a leaderboard; #/ladder the pool chosen last), #/player/<handle> (a
// profile), #/about-ratings (the rating
// explained), #/rated (the lobby, at its rated games); a game of another kind: #/<kind>/<uuid>
// (its table, on the contract's routes) and #/learn/<kind> (its rules).
import { render } from "./preact.js";
import { useEffect, useRef, useState } from "./hooks.js";
import { keepSeat, moveSeat, seatOf } from "./api.js";
import { AccountLink, RatedInPlay } from "./accountbar.js";
import { Leaderboard, LeaderboardIndex } from "./ladderview.js";
import { Profile } from "./profileview.js";
import { AboutRatings } from "./ratinghelp.js";
import { Learn, LearnDialog } from "./learn.js";
import { EconomancyLearn } from "./econrules.js";
import { FiggieRulesPage } from "./figgierules.js";
import { KindLearnDialog } from "./learnkind.js";
import { GAMES, gameOf, isTableKind } from "./games.js";
import { KindTableScreen } from "./kindview.js";
import { ratedSeatOf, SeatRating, useRatedTable } from "./ratedtable.js";
import { Lobby } from "./lobby.js";
import { Replay } from "./replay.js";
import { TableScreen } from "./tableview.js";
import { fail, html, toast } from "./ui.js";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/** The rules page of each kind but Blef (given `onClose`, it sits in the help dialog). */
const LEARN = { economancy: EconomancyLearn, figgie: FiggieRulesPage };

/** The ladder's part of another kind's table (kindview.js, which the game entries import, so
 * it cannot import the ladder's modules itself): the rated table's look, and each seat's
 * rating, handed on to the game's board. */
const RATINGS = Object.freeze({ useRated: useRatedTable, seatOf: ratedSeatOf, Rating: SeatRating });

export function parseRoute(hash) {
  const m = (re) => hash.match(new RegExp(`^#/${re}$`));
  let r;
  if ((r = m(`game/(${UUID})`))) return { name: "game", game: r[1].toLowerCase() };
  if ((r = m(`replay/(${UUID})`))) return { name: "replay", game: r[1].toLowerCase() };
  if ((r = m(`([a-z]{1,20})/(${UUID})/replay`)) && Object.hasOwn(GAMES, r[1])) {
    return r[1] === "blef" ? { name: "replay", game: r[2].toLowerCase() } : { name: "replay", kind: r[1], game: r[2].toLowerCase() };
  }
  if ((r = m(`take/(${UUID})/(${UUID})`))) return { name: "take", game: r[1].toLowerCase(), player: r[2].toLowerCase() };
  if (m("learn")) return { name: "learn" };
  if ((r = m("learn/([a-z]{1,20})")) && isTableKind(r[1])) return { name: "learn", kind: r[1] };
  if ((r = m(`([a-z]{1,20})/(${UUID})`)) && isTableKind(r[1])) return { name: "table", kind: r[1], game: r[2].toLowerCase() };
  if (m("about-ratings")) return { name: "about-ratings" };
  if (m("rated")) return { name: "lobby", rated: true };
  if ((r = m("ladder/([a-z0-9-]{1,40})"))) return { name: "ladder", pool: r[1] };
  if (m("ladder")) return { name: "ladder", pool: null };
  if ((r = m("player/([^/]{1,200})"))) {
    try { return { name: "player", handle: decodeURIComponent(r[1]) }; } catch { return { name: "lobby" }; }
  }
  return { name: "lobby" };
}

/**
 * Takes a seat brought from another device by its link: the seat is moved here (a fresh
 * secret for this browser; the link's, which the other device holds, is retired), then the
 * link is forgotten (it holds a secret). A browser that already holds another seat in that
 * game is asked first: a link never replaces a seat without asking.
 */
function TakeSeat({ game, player }) {
  const held = seatOf(game);
  const [asking, setAsking] = useState(!!held && held.player_uuid !== player);
  const [busy, setBusy] = useState(false);
  const toGame = () => {
    location.hash = `#/game/${game}`;
    dispatchEvent(new HashChangeEvent("hashchange"));
  };
  const take = () => {
    setBusy(true);
    moveSeat(game, player).then((data) => {
      keepSeat(game, { player_uuid: data.player_uuid, nickname: data.nickname });
      toast(`You are in your seat as ${data.nickname}. The device the link came from no longer plays it.`);
    }).catch((e) => {
      if (e.code === "seat_moved") toast("This link was already used: its seat moved to the device that opened it first.", true);
      else fail(e.code ? e : { code: "unknown_player" });
    }).finally(toGame);
  };
  useEffect(() => {
    history.replaceState(null, "", `${location.pathname}#/game/${game}`);
    if (held && held.player_uuid === player) toGame(); // this browser's own seat: nothing to move
    else if (!held) take();
  }, []);
  if (asking) {
    return html`<section class="panel" aria-labelledby="take-title" id="take-ask">
      <h2 id="take-title" tabindex="-1">You already have a seat in this game</h2>
      <p>This browser plays in this game as <b>${held.nickname}</b>. The link you opened is for a seat in the same game.
        Taking it gives up your seat as ${held.nickname} in this browser.</p>
      <p class="row"><button id="keep-seat" class="primary" disabled=${busy} onClick=${() => { setAsking(false); toGame(); }}>Keep my seat as ${held.nickname}</button>
        <button id="take-linked-seat" disabled=${busy} onClick=${() => { setAsking(false); take(); }}>Take the seat from the link</button></p>
    </section>`;
  }
  return html`<section class="panel"><p>Taking your seat…</p></section>`;
}

function App() {
  const [route, setRoute] = useState(parseRoute(location.hash || "#/"));
  const [help, setHelp] = useState(false);
  const main = useRef(null);
  useEffect(() => {
    const on = () => { setRoute(parseRoute(location.hash || "#/")); setHelp(false); };
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) { first.current = false; return; }
    if (route.name === "game" || route.name === "table" || route.name === "ladder" || route.name === "player" || route.name === "about-ratings") {
      if (route.name !== "game" && route.name !== "table" && document.activeElement === document.body) setTimeout(() => document.getElementById("page-heading")?.focus(), 50);
      return;
    }
    if (route.rated) return; // the lobby scrolls to its rated games and focuses their heading
    document.title = route.name === "learn" ? `How to play · ${gameOf(route.kind).name}` : route.name === "replay" ? `Replay · ${gameOf(route.kind).name}` : "Blef";
    const heading = document.getElementById("page-heading") || document.getElementById("learn-title");
    if (heading && document.activeElement === document.body) heading.focus();
  }, [route]);
  useEffect(() => {
    if (help) document.getElementById("learn-title")?.focus();
  }, [help]);
  let screen;
  if (route.name === "game") screen = html`<${TableScreen} key=${route.game} game=${route.game} />`;
  else if (route.name === "replay") screen = html`<${Replay} key=${`${route.kind || "blef"}-${route.game}`} game=${route.game} kind=${route.kind || "blef"} />`;
  else if (route.name === "take") screen = html`<${TakeSeat} game=${route.game} player=${route.player} />`;
  else if (route.name === "table") screen = html`<${KindTableScreen} key=${route.game} kind=${route.kind} game=${route.game} g=${gameOf(route.kind)} ladder=${RATINGS} />`;
  else if (route.name === "learn") screen = LEARN[route.kind] ? html`<${LEARN[route.kind]} />` : html`<${Learn} />`;
  else if (route.name === "ladder") screen = route.pool ? html`<${Leaderboard} key=${route.pool} pool=${route.pool} />` : html`<${LeaderboardIndex} />`;
  else if (route.name === "player") screen = html`<${Profile} key=${route.handle} handle=${route.handle} />`;
  else if (route.name === "about-ratings") screen = html`<${AboutRatings} />`;
  else screen = html`<${Lobby} rated=${!!route.rated} />`;
  const closeHelp = () => { setHelp(false); setTimeout(() => document.getElementById("help-button")?.focus(), 0); };
  return html`
    <header class="top">
      <a href="#/" class="brand">Blef</a><span class="tag">the Polish bluffing card game</span>
      <nav aria-label="Site">
        ${route.name === "game" || route.name === "table" ? html`<button id="help-button" class="small" aria-expanded=${help ? "true" : "false"} onClick=${() => setHelp(!help)}>How to play</button>`
          : html`<a class="button small" href=${route.kind ? `#/learn/${route.kind}` : "#/learn"}>How to play</a>`}
        <a class="button small" href="#/ladder">Ratings</a>
        <a class="button small" href="#/">Lobby</a>
        <${AccountLink} route=${route} />
      </nav>
    </header>
    <main id="view" tabindex="-1" ref=${main}>
      <${RatedInPlay} route=${route} />
      <div>${screen}</div>
      ${help ? (LEARN[route.kind] ? html`<${KindLearnDialog} Page=${LEARN[route.kind]} onClose=${closeHelp} />` : html`<${LearnDialog} onClose=${closeHelp} />`) : null}
    </main>`;
}

render(html`<${App} />`, document.getElementById("app"));
