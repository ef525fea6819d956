// Figgie, as the registry (games.js) knows it: the market on the board, its rules in the
// room, its computer players and its moves (orders). The trading controls are on the board
// for every seat at once (trading is open to all until the deadline), so `Moves` draws
// nothing and `keys` is empty: the board's own keys (S, C, H, D) are listed on it.
import { Board, moves, state } from "./figgieview.js";
import { figgieReplay, Round } from "./figgiereplay.js";
import { html } from "./ui.js";

/** The built-in computer players (engine/figgie/agents.py), weakest first, in words. */
export const FIGGIE_LEVELS = Object.freeze([
  { agent: "random", label: "Random", words: "Trades at random among the orders it may make." },
  { agent: "conservative", label: "Conservative", words: "Trades only when its hand makes one suit likely the goal, and then with a wide margin." },
  { agent: "marketmaker", label: "Market maker", words: "Keeps a bid and an ask up in every suit around what its hand says a card is worth; never takes." },
  { agent: "fairvalue", label: "Fair value", words: "Values each suit from its hand; takes a quote 2 chips better than that, else quotes." },
  { agent: "bayesian", label: "Bayesian", words: "Updates its beliefs from the trades and values the bonus for holding the most goal cards." },
  { agent: "ours", label: "Strongest", words: "Reads the trades and the quotes and takes whatever is worth a chip more than it costs." },
  { agent: "ours_quoting", label: "Strongest, quoting", words: "The strongest player that also keeps quotes up, 4 chips either side of what a card is worth to it." },
]);

function levelOf(agent) {
  if (!agent) return null;
  return FIGGIE_LEVELS.find((l) => l.agent === agent) || { agent, label: "Computer", words: "" };
}

function rulesWords(rules) {
  const r = rules || {};
  return `${r.trading_seconds || 240} seconds of trading, ${r.starting_chips || 350} chips each, prices 1 to ${r.max_price || 99}`;
}

function Summary({ lobby }) {
  return lobby ? null : html` Trade cards of the suit you think is the goal; the clock ends the game.`;
}

function RulesLine({ st }) {
  return html`<p class="rules-line" id="rules-words">Figgie: <span class="rules-words">${rulesWords(st && st.rules)}</span>.
    Four or five players; the rules are at the foot of the table.</p>`;
}

const Nothing = () => null;

function RoomHelp() {
  return html`<p class="muted small" id="figgie-room-help">Figgie needs 4 or 5 players: invite computer players to fill the table.
    Trading starts for everyone at once when the game starts.</p>`;
}

/** The host's rules, in words: a Figgie table's rules are chosen when it is made. */
function HostRules({ st }) {
  return html`<p id="figgie-host-rules">This table's rules: ${rulesWords(st && st.rules)}.</p>`;
}

export const figgie = Object.freeze({
  // the ladder's queue: what a rated table of a pool plays (app/ladder/queue.py makes it)
  ratedTerms: () => "Standard rules: 350 chips each, 240 seconds of trading for everyone at once.",
  kind: "figgie",
  name: "Figgie",
  scoreUnit: ["chip", "chips"], // final chips are the scores places come from
  Board, // the market, the players, the tape, the settlement and the replay
  Moves: Nothing, // the trading controls are on the board, for every seat at once
  Summary,
  RulesLine,
  PlayerChoice: Nothing, // no teams in Figgie
  RoomHelp,
  HostRules,
  HostLimits: Nothing,
  roomFacts: (st) => `Rules: ${rulesWords(st && st.rules)}.`,
  Round, // the settlement in short, in the reveal frame (figgiereplay.js)
  replay: figgieReplay, // its parts of the replay frame: the deal, every trade, the settlement
  levels: FIGGIE_LEVELS,
  levelOf,
  keys: {}, // the board's own keys: S, C, H, D go to a suit's bid price
  endsRound: (body) => !!(body && body.view && body.view.settled),
  turnWords: () => "Trading is open: buy, sell, bid or ask in any suit until the clock runs out.",
  state,
  taking: () => {},
  onMyTurn: async () => {},
  prefChanged: () => {},
  moves,
});
