// A test page for Figgie's part of the table while the shared table's routes for every game
// are being built: the smallest store that does what tablestore.js does for a table (read
// the table's state with the seat's secret, poll it, hand the game's part its state, its
// store and its actions), and Figgie's Board from the registry drawn as the shared table
// draws a game. Served to the browser by tests/web/test_browser_figgie.py; never by the app.
import { render } from "/app/preact.js";
import { useEffect, useReducer } from "/app/hooks.js";
import { api } from "/app/api.js";
import { gameOf } from "/app/games.js";
import { html } from "/app/ui.js";

const params = new URLSearchParams(location.search);
const game = params.get("game");
const secret = params.get("seat") || null;
const g = gameOf("figgie");

const s = { game, seat: secret ? { player_uuid: secret } : null, state: null, receivedAt: 0, ...g.state() };
let redraw = () => {};
const token = () => secret;
const changed = () => redraw();
async function take(body) {
  if (s.state && body.version < s.state.version) return;
  if (!s.state || body.version !== s.state.version) s.receivedAt = performance.now();
  s.state = body;
}
const ctx = { s, game, token, changed, take, isMyTurn: () => false };
const actions = g.moves(ctx);

async function refresh() {
  try {
    const { data } = await api(`/figgie/games/${game}`, { token: token() });
    await take(data);
    changed();
  } catch { /* the next poll tries again */ }
}

function Table() {
  const [, bump] = useReducer((n) => n + 1, 0);
  useEffect(() => {
    redraw = bump;
    refresh();
    const t = setInterval(refresh, 200);
    return () => clearInterval(t);
  }, []);
  const st = s.state;
  if (!st) return html`<p>Opening the table…</p>`;
  return html`<section class="panel table-top"><h1 id="table-heading" tabindex="-1">Figgie table <span class="badge">${st.status}</span></h1>
      <${g.RulesLine} st=${st} /></section>
    <${g.Board} st=${st} s=${s} me=${null} seated=${st.you !== null} myTurn=${false} actions=${actions} />`;
}

render(html`<${Table} />`, document.getElementById("view"));
