// Figgie's part of the table: the market (a row a suit: the best bid and ask, one press to
// buy at the ask or sell at the bid, a price box for a bid and one for an ask, your own
// quotes and their cancels), your hand and chips, everyone's chips and cards, the clock to
// the deadline, the tape, the settlement (the deck, the goal suit, what each earned, the deal
// verified in the page) and a replay of the tape. It reads the table's state as
// CONTRACT-TABLES.md gives it (`st.view` is `FiggieState.view` for this seat, `st.you` the
// seat, `st.seats` the players). Components are declared once at the top level and keyed by
// suit, so a new state never replaces a control in use: a price box keeps its focus and its
// typed value while the book changes.
import { useEffect, useReducer, useRef, useState } from "./hooks.js";
import { api, pref, setPref } from "./api.js";
import { words } from "./errors.js";
import { urgency } from "./table.js";
import { goalChances, verifyFiggie } from "./figgiedeal.js";
import {
  canDo, cardsText, chipsText, clockText, commonSuit, confirmText, deckText, parsePrice, replaySteps, seatName,
  settlementRows, signed, stepPrice, SUIT_SYMBOL, SUITS, suggestedPrice, tapeLines, tradeNews, tradingLeft, whoText,
} from "./figgiemarket.js";
import { FiggieRules } from "./figgierules.js";
import { announce, html } from "./ui.js";

const TAPE_SHOWN = 40;
const KEY_SUITS = { s: "spades", c: "clubs", h: "hearts", d: "diamonds" };

/** The pieces of the table's state this part reads. */
export function tableOf(st) {
  const view = (st && st.view) || null;
  const you = st && Number.isInteger(st.you) ? st.you : null;
  const seats = (st && st.seats) || [];
  const startingChips = (st && st.rules && st.rules.starting_chips) || 350;
  return { view, you, seats, startingChips };
}

const Sym = ({ suit }) => html`<span class=${`fig-sym fig-${suit}`} aria-hidden="true">${SUIT_SYMBOL[suit]}</span>`;

/** The time left to trade, ticking by itself; said aloud at 30 and 10 seconds. */
export function FiggieClock({ view, limit }) {
  const [, tick] = useReducer((n) => n + 1, 0);
  const said = useRef(new Set());
  const seen = useRef({ view: null, at: 0 }); // when this view arrived: its time_left counts from then
  if (seen.current.view !== view) seen.current = { view, at: performance.now() };
  useEffect(() => {
    const t = setInterval(tick, 250);
    return () => clearInterval(t);
  }, []);
  if (!view) return null;
  const left = tradingLeft(view, (performance.now() - seen.current.at) / 1000);
  for (const mark of [30, 10]) {
    if (left <= mark && left > 0 && !said.current.has(mark) && (limit || 0) > mark) {
      said.current.add(mark);
      announce(`${mark} seconds of trading left.`);
    }
  }
  if (view.settled) return html`<span class="countdown calm" id="fig-clock">Trading is over</span>`;
  if (left <= 0) return html`<span class="countdown critical" id="fig-clock">Time is up: settling…</span>`;
  return html`<span class=${`countdown ${urgency(left, limit || 0)}`} id="fig-clock">${clockText(left)} left to trade</span>`;
}

/** A price box with − and + for one side of one suit: Enter (or its button) posts the quote
 * at the typed price, or at the price offered in grey when nothing is typed. */
function PriceBox({ suit, which, view, me, actions, can }) {
  const [text, setText] = useState("");
  const bid = which === "bids";
  const noun = bid ? "bid" : "ask";
  const id = `fig-${noun}-price-${suit}`;
  const max = (view && view.max_price) || 99;
  const offered = suggestedPrice(view, suit, which, me);
  const one = suit.slice(0, -1);
  const send = () => {
    const read = text.trim() === "" ? { price: offered } : parsePrice(text, max);
    if (read.problem) { actions.figgieProblem(suit, read.problem); return; }
    actions.figgieOrder({ type: noun, suit, price: read.price });
  };
  const step = (delta) => setText(stepPrice(text, delta, max, offered));
  const onKey = (e) => {
    if (e.key === "Enter") { e.preventDefault(); send(); }
    else if (e.key === "ArrowUp") { e.preventDefault(); step(1); }
    else if (e.key === "ArrowDown") { e.preventDefault(); step(-1); }
    else if (e.key === "Escape" && text) { e.preventDefault(); setText(""); }
  };
  const shown = text.trim() === "" ? offered : text.trim();
  const off = !bid && !can.canAsk;
  return html`<div class=${`fig-box fig-box-${noun}`}>
    <label for=${id} class="fig-box-label">${bid ? "Bid" : "Ask"}<span class="sr-only"> price for a ${one}</span></label>
    <button type="button" class="fig-step" aria-label=${`Lower the ${one} ${noun} price`} onClick=${() => step(-1)}>−</button>
    <input id=${id} class="fig-price" type="text" inputmode="numeric" autocomplete="off" maxlength="5" size="3"
      value=${text} placeholder=${String(offered)} aria-describedby=${`fig-problem-${suit}`}
      onInput=${(e) => setText(e.currentTarget.value)} onKeyDown=${onKey} />
    <button type="button" class="fig-step" aria-label=${`Raise the ${one} ${noun} price`} onClick=${() => step(1)}>+</button>
    <button type="button" id=${`fig-${noun}-${suit}`} class=${`fig-post${off ? " fig-off" : ""}`} aria-disabled=${off ? "true" : "false"}
      aria-label=${off ? `Ask: you hold no ${suit}` : `${bid ? "Bid" : "Ask"} ${shown} for a ${one}`}
      onClick=${() => (off ? actions.figgieProblem(suit, `You hold no ${suit}: you can only offer a suit you hold.`) : send())}>${bid ? "Bid" : "Ask"}</button>
  </div>`;
}

function Quote({ q, me, seats, none }) {
  if (!q) return html`<span class="fig-none">${none}</span>`;
  return html`<b class="fig-price-shown">${q.price}</b> <span class="fig-who">${whoText(seats, q.seat, me)}</span>`;
}

/** One suit of the market: a row on a desktop, a card on a phone. */
function SuitRow({ suit, view, me, seats, problem, actions }) {
  const can = canDo(view, suit, me);
  const seated = me !== null;
  const book = (view.book && view.book[suit]) || { bids: [], asks: [] };
  const one = suit.slice(0, -1);
  const take = (type, q, noun) => (q ? actions.figgieOrder({ type, suit })
    : actions.figgieProblem(suit, noun));
  const depth = (list) => list.map((q) => `${q.price} ${whoText(seats, q.seat, me)}`).join(", ") || "none";
  return html`<li class=${`fig-suit fig-${suit}`} aria-labelledby=${`fig-name-${suit}`}>
    <h3 class="fig-name" id=${`fig-name-${suit}`}><${Sym} suit=${suit} /> ${suit[0].toUpperCase() + suit.slice(1)}
      ${seated ? html`<span class="fig-held">you hold ${view.hand ? view.hand[suit] : 0}</span>` : null}</h3>
    <p class="fig-best fig-best-bid"><span class="fig-label">Best bid</span> <${Quote} q=${book.best_bid} me=${me} seats=${seats} none="none" /></p>
    <p class="fig-best fig-best-ask"><span class="fig-label">Best ask</span> <${Quote} q=${book.best_ask} me=${me} seats=${seats} none="none" /></p>
    ${seated && can.open ? html`<div class="fig-take">
      <button type="button" id=${`fig-hit-${suit}`} class=${`fig-sell${can.hit ? "" : " fig-off"}`} aria-disabled=${can.hit ? "false" : "true"}
        aria-label=${can.hit ? `Sell at ${can.hit.price}: a ${one}, to ${whoText(seats, can.hit.seat, me)}` : (can.canAsk ? `Sell a ${one}: no bid to sell to` : `Sell: you hold no ${suit}`)}
        onClick=${() => take("hit", can.hit, can.canAsk ? `Nobody else bids for ${suit}: there is nobody to sell to.` : `You hold no ${suit} to sell.`)}>
        Sell${can.hit ? ` at ${can.hit.price}` : ""}</button>
      <button type="button" id=${`fig-lift-${suit}`} class=${`fig-buy${can.lift ? "" : " fig-off"}`} aria-disabled=${can.lift ? "false" : "true"}
        aria-label=${can.lift ? `Buy at ${can.lift.price}: a ${one}, from ${whoText(seats, can.lift.seat, me)}` : `Buy a ${one}: no ask to buy from`}
        onClick=${() => take("lift", can.lift, `Nobody else asks in ${suit}: there is nothing to buy.`)}>
        Buy${can.lift ? ` at ${can.lift.price}` : ""}</button>
    </div>
    <div class="fig-entry">
      <${PriceBox} suit=${suit} which="bids" view=${view} me=${me} actions=${actions} can=${can} />
      <${PriceBox} suit=${suit} which="asks" view=${view} me=${me} actions=${actions} can=${can} />
    </div>
    <p class="fig-mine">${can.cancelBid !== null ? html`<span>Your bid <b>${can.cancelBid}</b>
        <button type="button" class="small" id=${`fig-cancel-bid-${suit}`} aria-label=${`Cancel your ${one} bid of ${can.cancelBid}`}
          onClick=${() => actions.figgieOrder({ type: "cancel_bid", suit })}>Cancel</button></span>` : null}
      ${can.cancelAsk !== null ? html`<span>Your ask <b>${can.cancelAsk}</b>
        <button type="button" class="small" id=${`fig-cancel-ask-${suit}`} aria-label=${`Cancel your ${one} ask of ${can.cancelAsk}`}
          onClick=${() => actions.figgieOrder({ type: "cancel_ask", suit })}>Cancel</button></span>` : null}</p>` : null}
    <p class="fig-depth muted small">Bids: ${depth(book.bids)}. Asks: ${depth(book.asks)}.</p>
    <p class="problem fig-problem" id=${`fig-problem-${suit}`} role="alert">${problem || ""}</p>
  </li>`;
}

/** Everyone's chips and cards; yours first in bold. */
function Players({ view, seats, me, ratings = null }) {
  const n = (view.chips || []).length;
  return html`<section class="panel fig-players" aria-labelledby="fig-players-title">
    <h2 id="fig-players-title">Players</h2>
    <table class="fig-table"><thead><tr><th scope="col">Player</th><th scope="col">Chips</th><th scope="col">Cards</th></tr></thead>
      <tbody>${Array.from({ length: n }, (_, i) => {
        const s = seats[i];
        const ai = s && typeof s === "object" && s.ai;
        return html`<tr key=${i} class=${i === me ? "fig-me" : ""}>
          <th scope="row">${seatName(seats, i)}${i === me ? " (you)" : ""}${ai ? html` <span class="muted small">computer</span>` : null}${ratings ? html` <${ratings.Rating} seat=${ratings.of(s)} />` : null}</th>
          <td>${view.chips[i]}</td><td>${view.card_counts[i]}</td></tr>`;
      })}</tbody></table>
    <p class="muted small">The pot holds ${chipsText(view.pot)}.</p>
  </section>`;
}

/** The trades, newest first; a polite live region says new ones, one sentence at a time. */
function Tape({ view, seats, me }) {
  const lines = tapeLines(view, seats, me);
  const [news, setNews] = useState("");
  const seen = useRef((view.tape || []).length);
  const latest = useRef(view);
  latest.current = view;
  const timer = useRef(null);
  const count = (view.tape || []).length;
  useEffect(() => {
    if (count <= seen.current || timer.current) return;
    timer.current = setTimeout(() => { // a burst of trades is said once, 1.5 s after it began
      timer.current = null;
      const v = latest.current;
      setNews(tradeNews(seen.current, v, seats, me));
      seen.current = (v.tape || []).length;
    }, 1500);
  }, [count]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return html`<section class="panel fig-tape" aria-labelledby="fig-tape-title">
    <h2 id="fig-tape-title">Trades, newest first <span class="badge">${count}</span></h2>
    <p class="sr-only" aria-live="polite" id="fig-news">${news}</p>
    ${lines.length ? html`<div class="fig-tape-scroll" tabindex="0" role="region" aria-label="Every trade, scrollable">
      <ol class="fig-tape-list" reversed>${lines.slice(0, TAPE_SHOWN).map((l) => html`<li key=${l.n}
        class=${l.trade.buyer === me || l.trade.seller === me ? "fig-mine-trade" : ""}><${Sym} suit=${l.trade.suit} /> ${l.text}</li>`)}</ol></div>
      ${lines.length > TAPE_SHOWN ? html`<p class="muted small">and ${lines.length - TAPE_SHOWN} earlier trades.</p>` : null}`
      : html`<p class="muted">No trades yet.</p>`}
  </section>`;
}

/** The deck, the goal suit and what each player earned, with the deal checked in the page. */
export function Settlement({ view, seats, me, startingChips, headingId = "fig-settle-title" }) {
  const st = view.settlement;
  const rows = settlementRows(view, seats, startingChips);
  const [check, setCheck] = useState(null);
  useEffect(() => { let on = true; verifyFiggie(st, view.commitment).then((c) => on && setCheck(c)); return () => { on = false; }; }, [st.seed]);
  const goal = st.goal_suit;
  const goalCards = st.deck[goal];
  const bonus = 200 - 10 * goalCards;
  const top = rows.filter((r) => r.top);
  const common = commonSuit(st);
  return html`<section class="panel fig-settlement" aria-labelledby=${headingId}>
    <h2 id=${headingId} tabindex="-1">The settlement</h2>
    <p class="fig-goal" id="fig-goal">The goal suit was <b><${Sym} suit=${goal} /> ${goal}</b> (${goalCards} cards): each one paid its holder 10 chips,
      and the other ${bonus} chips of the pot went to ${top.length ? top.map((r) => whoText(seats, r.seat, me)).join(" and ") : "nobody"}${top.length > 1 ? ", who shared them" : ""} for holding the most.</p>
    <p id="fig-deck">The deck: ${deckText(st)}${common ? ` (${common} the 12-card suit, the goal the other suit of its colour)` : ""}.</p>
    <table class="fig-table fig-earned"><caption>What each player earned</caption>
      <thead><tr><th scope="col">Player</th><th scope="col">${goal[0].toUpperCase() + goal.slice(1)} held</th><th scope="col">From the pot</th>
        <th scope="col">Chips</th><th scope="col">Profit</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr key=${r.seat} class=${r.seat === me ? "fig-me" : ""}>
        <th scope="row">${r.name}${r.seat === me ? " (you)" : ""}</th><td>${r.goal}${r.top ? " (most)" : ""}</td><td>${r.payout}</td>
        <td>${r.chips}</td><td>${signed(r.profit)}</td></tr>`)}</tbody></table>
    <h3>Hands at the end</h3>
    <ul class="fig-hands">${rows.map((r) => html`<li key=${r.seat}><b>${whoText(seats, r.seat, me)}</b>: ${SUITS.map((s) => cardsText(r.hand[s], s)).join(", ")}</li>`)}</ul>
    <p class=${check ? (check.ok ? "verified" : "error") : "muted"} id="fig-verified">${!check ? "Checking the deal…"
      : check.ok ? "✓ Deal verified in this page: the seed matches the commitment shown while trading, and deals this deck and these starting hands."
      : `✗ The deal did NOT verify: ${check.reason}.`}</p>
    <details><summary>Seed and commitment</summary><p class="mono small">commitment ${view.commitment}<br />seed ${st.seed}</p></details>
  </section>`;
}

/** The game's trades again, one at a time, with everyone's cards and chips after each. */
export function TapeReplay({ view, seats, me, startingChips }) {
  const steps = replaySteps(view, seats, startingChips, me);
  const [at, setAt] = useState(0);
  if (!steps.length) return null;
  const i = Math.min(at, steps.length - 1);
  const step = steps[i];
  return html`<section class="panel fig-replay" aria-labelledby="fig-replay-title">
    <h2 id="fig-replay-title">Replay the trades</h2>
    <nav class="stepper" aria-label="Trades">
      <button type="button" id="fig-replay-back" disabled=${i === 0} onClick=${() => setAt(i - 1)}>‹ Back</button>
      <span aria-live="polite" id="fig-replay-step">${i === 0 ? "The deal" : `Trade ${i} of ${steps.length - 1}: ${step.text}`}</span>
      <button type="button" id="fig-replay-next" disabled=${i === steps.length - 1} onClick=${() => setAt(i + 1)}>Next ›</button>
    </nav>
    <table class="fig-table"><caption class="sr-only">Cards and chips after this step</caption>
      <thead><tr><th scope="col">Player</th>${SUITS.map((s) => html`<th scope="col" key=${s}><${Sym} suit=${s} /><span class="sr-only">${s}</span></th>`)}<th scope="col">Chips</th></tr></thead>
      <tbody>${step.hands.map((h, p) => html`<tr key=${p} class=${step.trade && (step.trade.buyer === p || step.trade.seller === p) ? "fig-moved" : ""}>
        <th scope="row">${whoText(seats, p, me)}</th>${SUITS.map((s) => html`<td key=${s}>${h[s]}</td>`)}<td>${step.chips[p]}</td></tr>`)}</tbody></table>
  </section>`;
}

/** On asking: the chance each suit is the goal, from the cards in this person's hand (the
 * twelve decks weighed as the engine's agents weigh them; the others' trades not counted). */
function Chances({ hand }) {
  const [on, setOn] = useState(pref("figgie-odds", false));
  const chances = on && hand ? goalChances(SUITS.map((s) => hand[s] || 0)) : null;
  return html`<div class="fig-chances">
    <label class="check"><input type="checkbox" id="fig-odds" checked=${on}
      onChange=${(e) => { const v = e.currentTarget.checked; setPref("figgie-odds", v); setOn(v); }} /> Show the chance each suit is the goal, from your cards</label>
    ${chances ? html`<p class="small" id="fig-chances">${SUITS.map((s, i) => html`<span key=${s} class="fig-chance"><${Sym} suit=${s} /> ${s} ${Math.round(100 * chances[i])}%</span>`)}
      <span class="muted"> (your cards only; the others' trades say more)</span></p>` : null}
  </div>`;
}

/** The game in play (and over): the shared table draws it under its heading. */
export function Board({ st, s, actions, ratings }) {
  const { view, you, seats, startingChips } = tableOf(st);
  useEffect(() => {
    const onKey = (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
      const t = e.target;
      if (t && (["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName) || t.isContentEditable)) return;
      if (document.querySelector("dialog[open]")) return;
      const suit = KEY_SUITS[e.key.toLowerCase()];
      const box = suit && document.getElementById(`fig-bid-price-${suit}`);
      if (box) { e.preventDefault(); box.focus(); }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  const settled = !!(view && view.settlement);
  const wasSettled = useRef(settled);
  useEffect(() => { // the end, said once as it comes; the focus follows if the market it was in is gone
    if (!settled || wasSettled.current) return;
    wasSettled.current = true;
    const goal = view.settlement.goal_suit;
    const mine = you !== null ? ` You end with ${chipsText(view.chips[you])} (${signed(view.chips[you] - startingChips)}).` : "";
    announce(`Trading is over. The goal suit was ${goal}.${mine}`);
    const at = document.activeElement;
    if (!at || at === document.body) document.getElementById("fig-settle-title")?.focus();
  }, [settled]);
  // A Cancel button goes when its quote goes (cancelled, or cleared by any trade): if it had
  // the focus, the focus goes to the price box of the same suit and side, not to the page.
  const lastFocus = useRef(null);
  useEffect(() => {
    const onFocus = (e) => { lastFocus.current = e.target && e.target.id ? e.target.id : null; };
    document.addEventListener("focusin", onFocus);
    return () => document.removeEventListener("focusin", onFocus);
  }, []);
  useEffect(() => {
    const id = lastFocus.current;
    const gone = id && /^fig-cancel-(bid|ask)-(\w+)$/.exec(id);
    if (!gone || document.getElementById(id)) return;
    const at = document.activeElement;
    if (!at || at === document.body) document.getElementById(`fig-${gone[1]}-price-${gone[2]}`)?.focus();
  });
  if (!view) return null;
  const problems = s.figgieProblems || {};
  const limit = (st.rules && st.rules.trading_seconds) || 240;
  return html`<div class="fig-board">
    <section class="panel fig-status" aria-label="You and the clock">
      <p class="fig-clock-line"><${FiggieClock} view=${view} limit=${limit} /></p>
      ${you !== null ? html`<p class="fig-you"><span>Your chips: <b id="fig-chips">${view.chips[you]}</b></span>
        <span class="fig-hand" id="fig-hand" role="group" aria-label="Your hand">${SUITS.map((suit) => html`<span key=${suit} class="fig-card">
          <${Sym} suit=${suit} /> ${cardsText(view.hand ? view.hand[suit] : 0, suit)}</span>`)}</span></p>
        ${settled ? null : html`<${Chances} hand=${view.hand} />`}`
        : html`<p class="muted" id="fig-watching">You see no hand until the settlement: every hand is shown then.</p>`}
    </section>
    ${settled ? html`<${Settlement} view=${view} seats=${seats} me=${you} startingChips=${startingChips} />` : null}
    ${settled ? null : html`<section class="panel fig-market" aria-labelledby="fig-market-title">
      <h2 id="fig-market-title">The market</h2>
      ${you !== null ? html`<p class="fig-keys muted small" id="fig-keys">Buy takes the best ask, Sell the best bid. A bid or ask goes up at the price typed (or the one in grey).
        Any trade cancels every quote. <span class="fig-shortcuts">Keys: <kbd>S</kbd> <kbd>C</kbd> <kbd>H</kbd> <kbd>D</kbd> go to that suit's bid price; in a price box <kbd>↑</kbd> <kbd>↓</kbd> change it,${" "}
        <kbd>Enter</kbd> posts it, <kbd>Esc</kbd> empties it.</span></p>` : null}
      <ul class="fig-suits">${SUITS.map((suit) => html`<${SuitRow} key=${suit} suit=${suit} view=${view} me=${you} seats=${seats}
        problem=${problems[suit]} actions=${actions} />`)}</ul>
    </section>`}
    <${Players} view=${view} seats=${seats} me=${you} ratings=${ratings} />
    <${Tape} view=${view} seats=${seats} me=${you} />
    ${settled ? html`<${TapeReplay} view=${view} seats=${seats} me=${you} startingChips=${startingChips} />` : null}
    <details class="panel fig-rules-box"><summary>The rules of Figgie</summary><${FiggieRules} /></details>
  </div>`;
}

/** Figgie's part of the table store's state. */
export const state = () => ({
  figgieProblems: {}, // suit -> the last refusal of an order in that suit, in words
});

/** Figgie's actions, added to the table store's: an order, and a refusal told locally. */
export function moves(ctx) {
  const { s, game, token, changed } = ctx;
  const problem = (suit, text) => {
    s.figgieProblems = { ...(s.figgieProblems || {}), [suit]: text }; // said by its alert region
    changed();
  };
  return {
    figgieProblem: problem,
    async figgieOrder(order) {
      const before = s.state && s.state.view;
      const me = s.state && Number.isInteger(s.state.you) ? s.state.you : null;
      const key = crypto.randomUUID(); // a retry of a lost answer is the same order, done once
      const send = () => api(`/figgie/games/${game}/move`, { method: "POST", body: order, token: token(), key });
      try {
        let data;
        try { ({ data } = await send()); } catch (e) {
          if (!(e && e.status === 0)) throw e;
          ({ data } = await send());
        }
        s.figgieProblems = { ...(s.figgieProblems || {}), [order.suit]: null };
        announce(confirmText(order, before, data && data.view, me));
        if (typeof ctx.take === "function") await ctx.take(data);
        else if (data && (!s.state || data.version >= s.state.version)) { s.state = data; s.receivedAt = performance.now(); }
        changed();
        return true;
      } catch (e) {
        problem(order.suit, (e && e.code && e.message && e.status >= 400 && e.status < 500) ? e.message : words(e));
        return false;
      }
    },
  };
}
