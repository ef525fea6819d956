// The lobby: play now against the computer, create a game, open a link, join a public game
// (with its seats, its state and its rules), or, with an account, find a rated game.
import { useEffect, useState } from "./hooks.js";
import { api, keepSeat, savedName, saveName } from "./api.js";
import { live } from "./live.js";
import { html, fail, toast } from "./ui.js";
import { LEVELS } from "./bleftable.js";
import { rulesInWords } from "./variants.js";
import { RatedPanel } from "./ladderview.js";
import { TablesLobby } from "./kindlobby.js";
import { points, shown } from "./ladder.js";
import { shownName } from "./playernames.js";
import { loadHandleRules, nicknameProblem } from "./namerules.js";

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const QUICK_MAX_CARDS = 4;

/** A computer level's ratings in words, from GET /ladder/levels (its rated games). */
function levelRating(level) {
  if (!level) return "";
  const parts = Object.entries(level.ratings).map(([pool, r]) =>
    r.rated === false ? null : `${points(shown(r))} in ${pool === "standard-2" ? "2-player" : pool === "standard-3-8" ? "3–8-player" : pool} games (${r.games} rated)`);
  const rated = parts.filter(Boolean);
  return rated.length ? `Rating ${rated.join(", ")}.` : "Not rated yet: its rating comes from the rated games it plays.";
}

/** What is wrong with a game's nickname, in the published rules' words once they are read
 * (namerules.js: the rule the service keeps), else in short. */
function nameProblem(name, rules) {
  if (!name) return "Type a name first: it is how the others see you.";
  if (rules) { const p = nicknameProblem(name, rules); return p && p.text; }
  if (!NAME.test(name)) return "A name starts with a letter and has only letters, digits and _ (no spaces).";
  return null;
}

/** Create a game and sit at it as its host; the game's UUID. */
async function createAndSit(name) {
  const { data } = await api("/games/create", { method: "POST" });
  const game = data.game_uuid;
  const joined = await api(`/games/${game}/join`, { method: "POST", body: { nickname: name } });
  keepSeat(game, { player_uuid: joined.data.player_uuid, nickname: name });
  saveName(name);
  return { game, token: joined.data.player_uuid };
}

export function Lobby({ rated = false }) {
  const [name, setName] = useState(savedName());
  const [level, setLevel] = useState("bold");
  const [quick, setQuick] = useState(true);
  const [link, setLink] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState(null);
  const [rules, setRules] = useState(null);
  useEffect(() => { loadHandleRules().then(setRules).catch(() => { /* the short check stands */ }); }, []);
  const typed = name.trim() ? nameProblem(name.trim(), rules) : null; // said as the person types
  const [games, setGames] = useState(null);
  const [details, setDetails] = useState({});
  const [levels, setLevels] = useState({});

  // `#/rated` (the header's "Rated play", the lead's link): the rated games in view.
  useEffect(() => {
    if (!rated) return;
    const heading = document.getElementById("rated-title");
    if (heading) { heading.scrollIntoView({ block: "start" }); heading.focus({ preventScroll: true }); }
  }, [rated]);

  // The computer levels' ratings (each level is a bot account rated by its real games).
  useEffect(() => {
    let alive = true;
    const load = () => api("/ladder/levels")
      .then(({ data }) => alive && setLevels(Object.fromEntries(data.map((l) => [l.agent, l]))))
      .catch(() => { /* no ladder here (AWS for now): the levels show without ratings */ });
    load();
    const timer = setInterval(load, 60000);
    return () => { alive = false; clearInterval(timer); };
  }, []);

  // The public games: the websocket brings each change; the list is asked for while it is
  // closed (every 10 s) and once as it opens, to catch up on what changed while it was away.
  useEffect(() => {
    let alive = true;
    let known = new Map();
    let since = null; // the changes pushed while a poll is out, laid over its answer
    const show = () => alive && setGames([...known.values()].sort((a, b) => b.last_modified - a.last_modified));
    const take = (g) => {
      const had = known.get(g.game_uuid);
      if (had && had.last_modified >= g.last_modified) return;
      if (g.public === "true") known.set(g.game_uuid, g); else known.delete(g.game_uuid);
    };
    const poll = async () => {
      const mine = since = [];
      try {
        const listed = (await api("/games?limit=20")).data;
        if (since !== mine) return; // a later poll answers for both
        known = new Map(listed.map((g) => [g.game_uuid, g]));
        for (const g of mine) take(g);
        show();
      } catch { /* the next poll */ } finally { if (since === mine) since = null; }
    };
    let timer = null;
    const polling = (on) => {
      if (on && !timer && alive) timer = setInterval(poll, 10000);
      if (!on && timer) { clearInterval(timer); timer = null; }
    };
    const socket = live("/ws", {
      onMessage({ statusCode, body }) {
        if (statusCode !== 200 || !body || !body.game_uuid) return;
        if (since) since.push(body);
        take(body);
        show();
      },
      onOpen() { polling(false); poll(); },
      onClose() { polling(true); poll(); },
    });
    poll();
    polling(true);
    return () => { alive = false; polling(false); socket.close(); };
  }, []);

  // Each listed game's rules and seats, read from its public state.
  useEffect(() => {
    for (const g of games || []) {
      const had = details[g.game_uuid];
      if (had && had.last_modified >= g.last_modified) continue;
      api(`/games/${g.game_uuid}`).then(({ data }) => setDetails((d) => ({ ...d, [g.game_uuid]: data }))).catch(() => {});
    }
  }, [games]);

  const checked = () => {
    const trimmed = name.trim();
    const p = nameProblem(trimmed, rules);
    setProblem(p);
    if (p) document.getElementById("your-name")?.focus();
    return p ? null : trimmed;
  };

  const playNow = async () => {
    const who = checked();
    if (!who || busy) return;
    setBusy(true);
    try {
      const { game, token } = await createAndSit(who);
      const agent = LEVELS.find((l) => l.agent === level).agent;
      for (let i = 0; i < 2; i++)
        await api(`/games/${game}/invite-aiagent`, { method: "POST", body: { agent_name: agent }, token });
      if (quick) await api(`/games/${game}/set-max-cards`, { method: "POST", body: { max_cards: QUICK_MAX_CARDS }, token });
      await api(`/games/${game}/start`, { method: "POST", token });
      location.hash = `#/game/${game}`;
    } catch (e) { fail(e); } finally { setBusy(false); }
  };

  const create = async () => {
    const who = checked();
    if (!who || busy) return;
    setBusy(true);
    try {
      const { game } = await createAndSit(who);
      toast("Your game is ready: invite players with its link, or add computer players.");
      location.hash = `#/game/${game}`;
    } catch (e) { fail(e); } finally { setBusy(false); }
  };

  const open = (ev) => {
    ev.preventDefault();
    const m = link.match(/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/);
    if (m) location.hash = `#/game/${m[0].toLowerCase()}`;
    else toast("That is not a game link: paste the whole link someone shared with you.", true);
  };

  const chosen = LEVELS.find((l) => l.agent === level);
  return html`
    <section class="panel lobby">
      <h1 id="page-heading" tabindex="-1">Play Blef</h1>
      <p class="lead">A bluffing card game: everyone holds a few cards, and you bet on what is among <em>all</em> the cards on the table.
        New here? <a href="#/learn">Learn to play in two minutes</a>.</p>
      <p class="to-rated"><a href="#/rated" id="to-rated">Rated games against people</a>: an account, a rating, a leaderboard.</p>
      <div class="field">
        <label for="your-name">Your name</label>
        <input id="your-name" value=${name} maxlength="64" autocomplete="nickname" aria-describedby="name-help"
          aria-invalid=${problem || typed ? "true" : "false"} onInput=${(e) => { setName(e.currentTarget.value); setProblem(null); }} />
        <small id="name-help" class=${problem || typed ? "problem" : "muted"}>${problem || typed || "Letters, digits and single _ between them; no spaces. Others see it at the table."}</small>
      </div>
      <h2>Against the computer</h2>
      <fieldset class="levels">
        <legend>How strong should the computer players be?</legend>
        ${LEVELS.map((l) => html`<label key=${l.agent} class="level">
          <input type="radio" name="level" value=${l.agent} checked=${level === l.agent} onChange=${() => setLevel(l.agent)} />
          <span><b>${l.label}</b> <small>${l.words}</small>
            ${levels[l.agent] ? html`<small class="level-rating">${levelRating(levels[l.agent])}</small>` : null}</span></label>`)}
      </fieldset>
      <label class="check"><input type="checkbox" id="quick" checked=${quick} onChange=${(e) => setQuick(e.currentTarget.checked)} />
        Quick game: a player holding ${QUICK_MAX_CARDS} cards who loses again is out</label>
      <button id="play-now" class="primary big" disabled=${busy} onClick=${playNow}>Play now against the computer</button>
      <p class="muted small">You and two ${chosen.label} computer players; the game starts at once.</p>
      <h2>With friends</h2>
      <div class="row">
        <button id="create" onClick=${create} disabled=${busy}>Create a game</button>
        <span class="muted">then share its link; you may add computer players too.</span>
      </div>
      <form class="row" onSubmit=${open}>
        <input id="join-link" aria-label="Game link" placeholder="Paste a game link" value=${link} onInput=${(e) => setLink(e.currentTarget.value)} />
        <button type="submit">Open</button>
      </form>
    </section>
    <${TablesLobby} checkName=${checked} />
    <${RatedPanel} name=${name} checkName=${checked} />
    <section class="panel">
      <h2 id="public-games">Public games waiting for players</h2>
      <${PublicGames} games=${games} details=${details} />
    </section>`;
}

function PublicGames({ games, details }) {
  if (games === null) return html`<p class="muted">Looking for games…</p>`;
  if (!games.length) return html`<p class="muted">No public game is waiting right now. Create one, or play against the computer.</p>`;
  return html`<ul class="games" aria-labelledby="public-games">${games.map((g) => {
    const d = details[g.game_uuid];
    const taken = g.players.length;
    const host = d ? d.admin_nickname : g.players[0];
    const rules = d ? [
      rulesInWords(d.rules),
      d.time_limit ? `${d.time_limit} s to move` : "no time limit",
      d.chosen_max_cards ? `out past ${d.chosen_max_cards} cards` : "the usual maximum of cards",
    ].join(", ") : "";
    const ais = d ? d.players.filter((p) => p.ai_agent).length : 0;
    return html`<li key=${g.game_uuid}>
      <div>
        <b>Room ${g.room}</b>${host ? html` · hosted by ${host}` : ""}
        <div class="muted">${taken} of 8 seats taken, ${8 - taken} free${ais ? ` (${ais} computer)` : ""} · ${d && d.status !== "Not started" ? "playing" : "waiting to start"}${rules ? ` · ${rules}` : ""}</div>
        <div class="small">${g.players.map(shownName).join(", ") || "nobody yet"}</div>
      </div>
      <a class="button" href=${`#/game/${g.game_uuid}`} aria-label=${`Join room ${g.room}`}>Join</a>
    </li>`;
  })}</ul>`;
}
