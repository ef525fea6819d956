// Figgie's parts of the shared reveal and replay frames. The replay (#/figgie/<uuid>/replay)
// reads the service's record of a finished game (GET /figgie/games/<uuid>/record: the
// settled view everyone is shown, with the tape, every starting and final hand, the deck and
// the deal's seed) and steps from the deal through every trade to the settlement, with
// everyone's cards and chips after each step; the deal is verified in the page against the
// commitment shown while trading (figgiedeal.js). The reveal shows the settlement once, in
// short, to whoever watched trading end (the board keeps the full settlement).
import { verifyFiggie } from "./figgiedeal.js";
import { replaySteps, settlementRows, signed, SUIT_SYMBOL, SUITS, whoText } from "./figgiemarket.js";
import { Settlement } from "./figgieview.js";
import { html } from "./ui.js";

const Sym = ({ suit }) => html`<span class=${`fig-sym fig-${suit}`} aria-hidden="true">${SUIT_SYMBOL[suit]}</span>`;

const startingChips = (record) => (record.rules && record.rules.starting_chips) || 350;

/** The seat of `me` (a nickname) in a record's seats, or null. */
export function seatIn(record, me) {
  const i = me ? (record.seats || []).findIndex((p) => p.nickname === me) : -1;
  return i < 0 ? null : i;
}

/** The steps of a record: the deal, every trade, then the settlement. Each step: {n, trade,
 * text, hands, chips} (figgiemarket.js replaySteps), the last {settlement: true} with the
 * final hands and chips. */
export function steps(record, me) {
  const view = record.view;
  const all = replaySteps(view, record.seats, startingChips(record), seatIn(record, me));
  if (!all.length) return [];
  const st = view.settlement;
  return [...all, { n: all.length, trade: null, text: "The settlement", hands: st.hands, chips: st.chips, settlement: true }];
}

function Step({ record, steps: all, at, me }) {
  const step = all[at];
  const you = seatIn(record, me);
  const seats = record.seats;
  if (step.settlement) {
    return html`<${Settlement} view=${record.view} seats=${seats} me=${you} startingChips=${startingChips(record)} headingId="replay-settle-title" />`;
  }
  return html`<section class="panel fig-replay" aria-labelledby="replay-cards-title">
    <h2 id="replay-cards-title">${step.trade ? "Cards and chips after this trade" : "Cards and chips as dealt"}</h2>
    <p id="replay-trade">${step.trade ? html`<${Sym} suit=${step.trade.suit} /> ${step.text}` : "Each player was dealt these cards and paid 200 chips into the pot, shared equally."}</p>
    <div class="table-scroll" tabindex="0" role="region" aria-label="Cards and chips, scrollable"><table class="fig-table">
      <caption class="sr-only">Each player's cards of each suit and chips after this step</caption>
      <thead><tr><th scope="col">Player</th>${SUITS.map((s) => html`<th scope="col" key=${s}><${Sym} suit=${s} /><span class="sr-only">${s}</span></th>`)}<th scope="col">Chips</th></tr></thead>
      <tbody>${step.hands.map((h, p) => html`<tr key=${p} class=${step.trade && (step.trade.buyer === p || step.trade.seller === p) ? "fig-moved" : ""}>
        <th scope="row">${whoText(seats, p, you)}</th>${SUITS.map((s) => html`<td key=${s}>${h[s]}</td>`)}<td>${step.chips[p]}</td></tr>`)}</tbody></table></div>
  </section>`;
}

async function verify(record) {
  const view = record.view;
  if (!view || !view.settlement) return [];
  const check = await verifyFiggie(view.settlement, view.commitment);
  return [{ label: "The deal", to: 0, ok: check.ok, reason: check.reason, commitment: view.commitment, seed: view.settlement.seed }];
}

function result(record) {
  const rows = settlementRows(record.view, record.seats, startingChips(record)) || [];
  if (!rows.length) return "The game is over.";
  const best = Math.max(...rows.map((r) => r.chips));
  const top = rows.filter((r) => r.chips === best);
  const goal = record.view.settlement.goal_suit;
  const who = top.map((r) => r.name).join(" and ");
  return `The goal suit was ${goal}. ${who} ${top.length > 1 ? "shared the most chips" : "ended with the most chips"}: ${best} (${signed(best - startingChips(record))}).`;
}

/** Figgie's parts of the replay frame (games.js REPLAY_PARTS). */
export const figgieReplay = Object.freeze({
  units: { step: "trade", steps: "Trades", group: null, groups: "", within: false, ids: {} },
  className: "fig-replay-page",
  deals: true,
  title: (record) => `Replay of Figgie, room ${record.room}`,
  result,
  steps,
  where: (record, all, i) => (all[i].settlement ? "The settlement" : i === 0 ? "The deal" : `Trade ${i} of ${all.length - 2}`),
  now: () => "",
  said: (record, all, i) => (all[i].trade ? all[i].text : all[i].settlement ? `The goal suit was ${record.view.settlement.goal_suit}.` : ""),
  groupWords: () => "",
  Step,
  verify,
  dealWords: "its seed matches the commitment shown while trading, and deals this deck and these starting hands.",
});

/** The end of a Figgie game inside the shared reveal frame: the goal suit and what each
 * player ends with, in short (the board below shows the full settlement). `snap` is the
 * settled table's body. */
export function Round({ snap, headingId }) {
  const view = snap && snap.view;
  if (!view || !view.settlement) return html`<h2 id=${headingId} tabindex="-1">Trading is over</h2><p>The game is being settled.</p>`;
  const you = Number.isInteger(snap.you) ? snap.you : null;
  const chips0 = (snap.rules && snap.rules.starting_chips) || 350;
  const rows = settlementRows(view, snap.seats, chips0).slice().sort((a, b) => b.chips - a.chips || a.seat - b.seat);
  const goal = view.settlement.goal_suit;
  return html`<h2 id=${headingId} tabindex="-1">Trading is over: the goal suit was <${Sym} suit=${goal} /> ${goal}</h2>
    <p>Each ${goal.slice(0, -1)} paid its holder 10 chips; the rest of the pot went to whoever held the most ${goal}.</p>
    <table class="fig-table"><caption>Chips at the end, most first</caption>
      <thead><tr><th scope="col">Player</th><th scope="col">${goal[0].toUpperCase() + goal.slice(1)} held</th><th scope="col">Chips</th><th scope="col">Profit</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr key=${r.seat} class=${r.seat === you ? "fig-me" : ""}>
        <th scope="row">${whoText(snap.seats, r.seat, you)}</th><td>${r.goal}${r.top ? " (most)" : ""}</td><td>${r.chips}</td><td>${signed(r.profit)}</td></tr>`)}</tbody></table>`;
}
