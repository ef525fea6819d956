// The lobby's part for the games played through the tables' contract (every kind of games.js
// but Blef): per kind, its rules chosen as the table is made, computer players from the
// service's own list (GET /{kind}), "play now against the computer", "create a table", and the
// public tables waiting for players (GET /{kind}/games).
import { useEffect, useState } from "./hooks.js";
import { api, keepSeat, saveName } from "./api.js";
import { gameOf, tableKinds } from "./games.js";
import { fail, html, toast } from "./ui.js";
import { levelsOffered } from "./kindview.js";

/** The rules a host chooses as a table of a kind is made: {rule: {legend, choices: [[value,
 * words]]}}; rules not listed keep the service's defaults. */
export const RULE_CHOICES = {
  economancy: {
    cards: { legend: "Cards in the shop", choices: [["base", "All 13 cards (the published game)"], ["simple", "The first 8 (the course's first step: no Wall of Wealth, Apprentice, Thug, Shield of Greed or Golem)"]] },
    bubble_attack: { legend: "Bubble's attack", choices: [[9, "9 (the card as first printed; the course's referee)"], [5, "5 (the card since its rebalance)"]] },
  },
};

const WORDS = {
  economancy: "Wizards buy cards, invest coins to attack and fight: reach 7 points or be the last one standing. 2 to 4 players.",
  figgie: "Trade cards suit by suit for four minutes; then the goal suit pays 10 chips a card and the rest of the pot goes to whoever holds most of it. 4 or 5 players.",
};

/** The seconds a person may have for each choice (0: no limit; the service takes 0 to 300). */
export const TIME_LIMITS = [0, 30, 60, 120];

/** The body of `POST /{kind}/games` for the choices made (only the rules chosen), with the
 * time limit and whether the table is listed when given. */
export function createBody(kind, chosen, { timeLimit = 0, listed = false } = {}) {
  const rules = {};
  for (const rule of Object.keys(RULE_CHOICES[kind] || {})) if (chosen[rule] !== undefined) rules[rule] = chosen[rule];
  const body = { rules };
  if (timeLimit) body.time_limit = timeLimit;
  if (listed) body.public = true;
  return body;
}

/** Make a table of `kind` and sit at it as its host: {game, token}. */
async function createAndSit(kind, name, chosen, table = {}) {
  const key = () => crypto.randomUUID();
  const { data } = await api(`/${kind}/games`, { method: "POST", body: createBody(kind, chosen, table), key: key() });
  const game = data.game_uuid;
  const joined = await api(`/${kind}/games/${game}/join`, { method: "POST", body: { nickname: name }, key: key() });
  keepSeat(game, { player_uuid: joined.data.player_uuid, nickname: name });
  saveName(name);
  return { game, token: joined.data.player_uuid };
}

function KindPanel({ kind, checkName }) {
  const g = gameOf(kind);
  const [info, setInfo] = useState(null); // GET /{kind}, or false when the service has no such tables
  const [chosen, setChosen] = useState({});
  const [agent, setAgent] = useState(null);
  const [count, setCount] = useState(1);
  const [busy, setBusy] = useState(false);
  const [tables, setTables] = useState(null);
  const [timeLimit, setTimeLimit] = useState(0);
  const [listed, setListed] = useState(false);
  useEffect(() => {
    let alive = true;
    api(`/${kind}`).then(({ data }) => alive && setInfo(data)).catch(() => alive && setInfo(false));
    const list = () => api(`/${kind}/games`).then(({ data }) => alive && setTables(data.games || [])).catch(() => alive && setTables([]));
    list();
    const timer = setInterval(list, 10000);
    return () => { alive = false; clearInterval(timer); };
  }, [kind]);
  const title = (info && info.title) || g.name;
  const id = (part) => `${kind}-${part}`;
  if (info === false) return html`<section class="panel" aria-labelledby=${id("title")}>
    <h2 id=${id("title")}>${title}</h2><p class="muted">${title} tables are not open on this server yet.</p></section>`;
  const agents = levelsOffered(g, info && info.agents);
  const level = agents.find((l) => l.agent === agent) || agents[0] || null;
  const maxAi = info ? info.max_seats - 1 : 1;
  const minAi = info ? Math.min(maxAi, Math.max(1, info.min_seats - 1)) : 1; // enough to start
  const aiCount = Math.min(Math.max(count, minAi), maxAi);
  const rules = RULE_CHOICES[kind] || {};
  const value = (rule) => (chosen[rule] !== undefined ? chosen[rule] : info && info.rules ? info.rules[rule] : rules[rule].choices[0][0]);

  const playNow = async () => {
    const who = checkName();
    if (!who || busy || !level) return;
    setBusy(true);
    try {
      const { game, token } = await createAndSit(kind, who, chosen, { timeLimit });
      for (let i = 0; i < aiCount; i++)
        await api(`/${kind}/games/${game}/ai`, { method: "POST", body: { agent: level.agent }, token, key: crypto.randomUUID() });
      await api(`/${kind}/games/${game}/start`, { method: "POST", token, key: crypto.randomUUID() });
      location.hash = `#/${kind}/${game}`;
    } catch (e) { fail(e); } finally { setBusy(false); }
  };
  const create = async () => {
    const who = checkName();
    if (!who || busy) return;
    setBusy(true);
    try {
      const { game } = await createAndSit(kind, who, chosen, { timeLimit, listed });
      toast("Your table is ready: invite players with its link, or add computer players.");
      location.hash = `#/${kind}/${game}`;
    } catch (e) { fail(e); } finally { setBusy(false); }
  };

  return html`<section class="panel kind-lobby" aria-labelledby=${id("title")}>
    <h2 id=${id("title")}>Play ${title}</h2>
    <p>${WORDS[kind] || ""} <a href=${`#/learn/${kind}`}>The rules of ${title}</a>.</p>
    ${Object.entries(rules).map(([rule, r]) => html`<fieldset key=${rule} class="levels">
      <legend>${r.legend}</legend>
      ${r.choices.map(([v, words]) => html`<label key=${String(v)} class="level">
        <input type="radio" name=${id(rule)} value=${String(v)} checked=${value(rule) === v} onChange=${() => setChosen({ ...chosen, [rule]: v })} />
        <span>${words}</span></label>`)}
    </fieldset>`)}
    <div class="row">
      <label class="field-inline" for=${id("time-limit")}>Seconds for each choice</label>
      <select id=${id("time-limit")} value=${String(timeLimit)} onChange=${(e) => setTimeLimit(Number(e.currentTarget.value))}>
        ${TIME_LIMITS.map((n) => html`<option key=${n} value=${String(n)}>${n ? `${n} seconds` : "No limit"}</option>`)}</select>
    </div>
    ${timeLimit ? html`<p class="muted small">A player who has not chosen in time gets the safest choice: invest nothing, do not attack, defend with the leftmost card that can, pass.</p>` : null}
    ${agents.length ? html`<div class="row">
      <label class="field-inline" for=${id("agent")}>Computer players</label>
      <select id=${id("agent")} value=${level.agent} onChange=${(e) => setAgent(e.currentTarget.value)}>
        ${agents.map((l) => html`<option key=${l.agent} value=${l.agent}>${l.label}</option>`)}</select>
      <label class="field-inline" for=${id("count")}>How many</label>
      <select id=${id("count")} value=${String(aiCount)} onChange=${(e) => setCount(Number(e.currentTarget.value))}>
        ${Array.from({ length: maxAi - minAi + 1 }, (_, i) => html`<option key=${i} value=${String(minAi + i)}>${minAi + i}</option>`)}</select>
    </div>
    <p class="muted small">${level.words}</p>
    <button id=${id("play-now")} class="primary big" disabled=${busy || !info} onClick=${playNow}>Play ${title} against the computer</button>` : null}
    <label class="check"><input type="checkbox" id=${id("public")} checked=${listed} onChange=${(e) => setListed(e.currentTarget.checked)} />
      List the table I create below, for anyone to join</label>
    <div class="row">
      <button id=${id("create")} disabled=${busy || !info} onClick=${create}>Create ${/^[AEIOU]/.test(title) ? "an" : "a"} ${title} table</button>
      <span class="muted">then share its link; you may add computer players too.</span>
    </div>
    <h3 id=${id("public-title")}>Public ${title} tables waiting for players</h3>
    ${tables === null ? html`<p class="muted">Looking for tables…</p>` : !tables.length ? html`<p class="muted">No public ${title} table is waiting right now.</p>`
      : html`<ul class="games" aria-labelledby=${id("public-title")}>${tables.map((t) => html`<li key=${t.game_uuid}>
        <div><b>Room ${t.room}</b><div class="muted">${t.seats.length} of ${t.max_seats} seats taken</div>
          <div class="small">${t.seats.join(", ") || "nobody yet"}</div></div>
        <a class="button" href=${`#/${kind}/${t.game_uuid}`} aria-label=${`Join ${title} room ${t.room}`}>Join</a></li>`)}</ul>`}
  </section>`;
}

/** Every contract kind's panel, in the registry's order. */
export function TablesLobby({ checkName }) {
  return tableKinds().map((kind) => html`<${KindPanel} key=${kind} kind=${kind} checkName=${checkName} />`);
}
