// Unit tests of Figgie's pure client modules, run by `node --test` (tests/web/
// test_figgie_units.py runs this file, and hands it the engine's own views, refusals and
// deals to agree with through FIGGIE_JS_CASES, a file of JSON).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  bestOther, canDo, cardsText, confirmText, chipsText, clockText, deckText, orderText, ownQuote, parsePrice, replaySteps,
  settlementRows, signed, stepPrice, suggestedPrice, SUITS, tapeLines, tradeNews, tradeText, tradingLeft,
} from "../../app/web/static/figgiemarket.js";
import { DECKS, dealFiggie, GOAL, goalChances, verifyFiggie } from "../../app/web/static/figgiedeal.js";
import { GAMES } from "../../app/web/static/games.js";

const SEATS = ["ann", "bob", "cy", "dee"];
const emptyBook = () => Object.fromEntries(SUITS.map((s) => [s, { bids: [], asks: [], best_bid: null, best_ask: null }]));

function viewWith(quotes = {}, extra = {}) {
  const book = emptyBook();
  for (const [suit, { bids = [], asks = [] }] of Object.entries(quotes)) {
    book[suit] = { bids, asks, best_bid: bids[0] || null, best_ask: asks[0] || null };
  }
  return {
    game: "figgie", seat: 0, n_seats: 4, chips: [300, 300, 300, 300], card_counts: [10, 10, 10, 10], pot: 200,
    book, tape: [], deadline: 1240, time_left: 100, max_price: 99, settled: false,
    hand: { spades: 3, clubs: 0, hearts: 4, diamonds: 3 }, ...extra,
  };
}

test("chips, profits, cards and the clock read as words", () => {
  assert.equal(chipsText(1), "1 chip");
  assert.equal(chipsText(350), "350 chips");
  assert.equal(signed(20), "+20");
  assert.equal(signed(-5), "\u22125");
  assert.equal(signed(0), "0");
  assert.equal(cardsText(0, "clubs"), "no clubs");
  assert.equal(cardsText(1, "hearts"), "1 heart");
  assert.equal(cardsText(4, "spades"), "4 spades");
  assert.equal(clockText(185), "3:05");
  assert.equal(clockText(0.2), "0:01");
  assert.equal(clockText(-3), "0:00");
});

test("the time left counts down from the view's own time_left, never below zero, and is zero once settled", () => {
  const v = viewWith({}, { time_left: 10.4 });
  assert.equal(tradingLeft(v, 0), 11);
  assert.equal(tradingLeft(v, 5), 6);
  assert.equal(tradingLeft(v, 60), 0);
  assert.equal(tradingLeft({ ...v, settled: true }, 0), 0);
});

test("a lift takes another seat's best ask and a hit another seat's best bid, skipping your own", () => {
  const v = viewWith({ spades: { bids: [{ seat: 0, price: 6 }, { seat: 2, price: 5 }], asks: [{ seat: 0, price: 8 }, { seat: 1, price: 9 }] } });
  assert.deepEqual(bestOther(v, "spades", "asks", 0), { seat: 1, price: 9 });
  assert.deepEqual(bestOther(v, "spades", "bids", 0), { seat: 2, price: 5 });
  assert.deepEqual(bestOther(v, "spades", "asks", 1), { seat: 0, price: 8 });
  assert.equal(ownQuote(v, "spades", "bids", 0), 6);
  assert.equal(ownQuote(v, "spades", "bids", 1), null);
  const can = canDo(v, "spades", 0);
  assert.deepEqual(can.lift, { seat: 1, price: 9 });
  assert.deepEqual(can.hit, { seat: 2, price: 5 });
  assert.equal(can.cancelBid, 6);
  assert.equal(can.cancelAsk, 8);
  assert.equal(can.bidMax, 7, "a bid stays below the best ask, your own included");
  assert.equal(can.askMin, 7, "an ask stays above the best bid, your own included");
});

test("with no card of a suit you may bid but neither ask nor hit", () => {
  const v = viewWith({ clubs: { bids: [{ seat: 3, price: 4 }] } });
  const can = canDo(v, "clubs", 0);
  assert.equal(can.canAsk, false);
  assert.equal(can.hit, null);
  assert.equal(can.bidMax, 99);
  assert.equal(can.askMin, 100);
});

test("a watcher, a settled game and a game past its time may do nothing", () => {
  const v = viewWith({ spades: { asks: [{ seat: 1, price: 9 }] } });
  for (const [view, me] of [[v, null], [v, 7], [{ ...v, settled: true }, 0], [{ ...v, time_left: 0 }, 0]]) {
    const can = canDo(view, "spades", me);
    assert.equal(can.open, false);
    assert.equal(can.lift, null);
  }
});

test("a typed price is a whole number from 1 to the maximum, or a sentence saying so", () => {
  assert.deepEqual(parsePrice(" 7 "), { price: 7 });
  assert.deepEqual(parsePrice("99"), { price: 99 });
  for (const bad of ["", "0", "100", "7.5", "-3", "1e2", "seven", null]) assert.ok(parsePrice(bad).problem, String(bad));
  assert.match(parsePrice("31", 30).problem, /1 to 30/);
});

test("+ and - move the typed price by one and keep it in range; an empty box starts from the price offered", () => {
  assert.equal(stepPrice("7", 1), "8");
  assert.equal(stepPrice("7", -1), "6");
  assert.equal(stepPrice("1", -1), "1");
  assert.equal(stepPrice("99", 1), "99");
  assert.equal(stepPrice("", 1, 99, 6), "6");
  assert.equal(stepPrice("", -1, 99, 6), "6");
  assert.equal(stepPrice("abc", 1, 30, 40), "30");
});

test("the price offered improves on the best quote of its side without crossing the other", () => {
  const v = viewWith({ hearts: { bids: [{ seat: 1, price: 5 }], asks: [{ seat: 2, price: 6 }] } });
  assert.equal(suggestedPrice(v, "hearts", "bids", 0), 5, "one above 5 would cross the ask of 6");
  assert.equal(suggestedPrice(v, "hearts", "asks", 0), 6);
  const wide = viewWith({ hearts: { bids: [{ seat: 1, price: 3 }], asks: [{ seat: 2, price: 9 }] } });
  assert.equal(suggestedPrice(wide, "hearts", "bids", 0), 4);
  assert.equal(suggestedPrice(wide, "hearts", "asks", 0), 8);
  assert.equal(suggestedPrice(viewWith(), "spades", "bids", 0), 5);
  assert.equal(suggestedPrice(viewWith(), "spades", "asks", 0), 7);
});

test("the tape reads newest first with who bought from whom, you as you", () => {
  const v = viewWith({}, { tape: [{ buyer: 1, seller: 0, suit: "spades", price: 7 }, { buyer: 0, seller: 2, suit: "hearts", price: 4 }] });
  const lines = tapeLines(v, SEATS, 0);
  assert.deepEqual(lines.map((l) => l.n), [2, 1]);
  assert.equal(lines[0].text, "You bought a heart from cy for 4");
  assert.equal(lines[1].text, "Bob bought a spade from you for 7");
  assert.equal(tradeText({ buyer: 3, seller: 1, suit: "diamonds", price: 12 }, SEATS, null), "Dee bought a diamond from bob for 12");
});

test("new trades are said in one sentence: yours by name, the others counted", () => {
  const t = (buyer, seller, suit, price) => ({ buyer, seller, suit, price });
  const v = viewWith({}, { tape: [t(1, 2, "clubs", 3), t(0, 1, "spades", 7), t(2, 3, "hearts", 5), t(3, 1, "hearts", 6)] });
  assert.equal(tradeNews(4, v, SEATS, 0), "");
  assert.equal(tradeNews(3, v, SEATS, 0), "Dee bought a heart from bob for 6.");
  assert.equal(tradeNews(1, v, SEATS, 0), "You bought a spade from bob for 7. 2 other trades, the last: dee bought a heart from bob for 6.");
  assert.equal(tradeNews(0, v, SEATS, null).split(".").length - 1 <= 2, true, "never a sentence a trade");
});

test("an order is confirmed in words, a lift and a hit at the price they take", () => {
  const v = viewWith({ spades: { bids: [{ seat: 2, price: 5 }], asks: [{ seat: 1, price: 9 }] } });
  assert.equal(orderText({ type: "bid", suit: "spades", price: 6 }, v, 0), "Your bid of 6 for a spade is up.");
  assert.equal(orderText({ type: "ask", suit: "clubs", price: 8 }, v, 0), "Your ask of 8 for a club is up.");
  assert.equal(orderText({ type: "lift", suit: "spades" }, v, 0), "You bought a spade for 9.");
  assert.equal(orderText({ type: "hit", suit: "spades" }, v, 0), "You sold a spade for 5.");
  assert.equal(orderText({ type: "cancel_bid", suit: "hearts" }, v, 0), "Your hearts bid is cancelled.");
});

test("a lift or a hit is confirmed at the price it traded at, even when the book moved before it arrived", () => {
  const shown = viewWith({ spades: { asks: [{ seat: 1, price: 9 }] } });
  const after = viewWith({}, { tape: [{ buyer: 0, seller: 2, suit: "spades", price: 12 }] });
  assert.equal(confirmText({ type: "lift", suit: "spades" }, shown, after, 0), "You bought a spade for 12.");
  const sold = viewWith({}, { tape: [{ buyer: 3, seller: 0, suit: "hearts", price: 4 }] });
  assert.equal(confirmText({ type: "hit", suit: "hearts" }, shown, sold, 0), "You sold a heart for 4.");
  assert.equal(confirmText({ type: "bid", suit: "clubs", price: 3 }, shown, after, 0), "Your bid of 3 for a club is up.");
  assert.equal(confirmText({ type: "lift", suit: "spades" }, shown, shown, 0), "You bought a spade for 9.", "no new trade: the price shown");
});

test("the twelve decks and their goal suits are the engine's", () => {
  assert.equal(DECKS.length, 12);
  assert.deepEqual(DECKS[0], [12, 8, 10, 10]);
  assert.equal(GOAL[0], 1);
  for (const [i, d] of DECKS.entries()) {
    assert.equal(d.reduce((a, b) => a + b, 0), 40);
    assert.equal(d.indexOf(12), Math.floor(i / 3));
    assert.notEqual(d[GOAL[i]], 12);
  }
});

test("with no cards known every suit is the goal a quarter of the time, and counts no deck holds have no chances", () => {
  assert.deepEqual(goalChances([0, 0, 0, 0]).map((p) => Math.round(p * 1000)), [250, 250, 250, 250]);
  assert.equal(goalChances([13, 0, 0, 0]), null);
  const p = goalChances([5, 2, 2, 1]);
  assert.ok(Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-12);
});

test("Figgie's entry in the registry is the game of kind figgie, with no keys on a turn", () => {
  assert.equal(GAMES.figgie.kind, "figgie");
  assert.equal(GAMES.figgie.name, "Figgie");
  assert.deepEqual(GAMES.figgie.keys, {});
  assert.equal(GAMES.figgie.endsRound({ view: { settled: true } }), true);
  assert.equal(GAMES.figgie.endsRound({ view: { settled: false } }), false);
  assert.deepEqual(GAMES.figgie.replay.steps({ view: { tape: [] }, seats: [] }), [], "an unsettled view has no steps");
  assert.ok(GAMES.figgie.levels.some((l) => l.agent === "ours"));
});

test("Figgie's order action posts the order to the figgie route with the seat's secret, and a refusal lands under its suit in the service's words", async () => {
  const calls = [];
  const realFetch = globalThis.fetch;
  globalThis.performance ??= { now: () => 0 };
  globalThis.document ??= { getElementById: () => null };
  let answer = { ok: true, status: 200, body: { version: 5, view: viewWith() } };
  globalThis.fetch = async (path, init) => {
    calls.push({ path, init });
    return { ok: answer.ok, status: answer.status, headers: { get: () => null }, json: async () => answer.body };
  };
  try {
    let redraws = 0;
    const s = { state: { version: 4, you: 0, view: viewWith() }, figgieProblems: {} };
    const acts = GAMES.figgie.moves({ s, game: "g-1", token: () => "secret", changed: () => { redraws++; } });
    assert.equal(await acts.figgieOrder({ type: "bid", suit: "spades", price: 6 }), true);
    assert.equal(calls[0].path, "/figgie/games/g-1/move");
    assert.equal(calls[0].init.method, "POST");
    assert.equal(calls[0].init.headers.Authorization, "Bearer secret");
    assert.ok(calls[0].init.headers["Idempotency-Key"]);
    assert.deepEqual(JSON.parse(calls[0].init.body), { type: "bid", suit: "spades", price: 6 });
    assert.equal(s.state.version, 5, "the move's answer is the table's newest state");
    answer = { ok: false, status: 409, body: { code: "crosses_the_book", error: "A bid of 9 on spades would cross bob's ask of 8: lift it instead" } };
    assert.equal(await acts.figgieOrder({ type: "bid", suit: "spades", price: 9 }), false);
    assert.equal(s.figgieProblems.spades, "A bid of 9 on spades would cross bob's ask of 8: lift it instead");
    assert.equal(s.state.version, 5, "nothing is taken from a refusal");
    assert.ok(redraws >= 2);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test("an order whose answer is lost is sent once more with the same idempotency key, and taken once", async () => {
  const realFetch = globalThis.fetch;
  globalThis.document ??= { getElementById: () => null };
  const keys = [];
  globalThis.fetch = async (path, init) => {
    keys.push(init.headers["Idempotency-Key"]);
    if (keys.length === 1) throw new TypeError("network");
    return { ok: true, status: 200, headers: { get: () => null }, json: async () => ({ version: 2, view: viewWith() }) };
  };
  try {
    const s = { state: { version: 1, you: 0, view: viewWith() }, figgieProblems: {} };
    const acts = GAMES.figgie.moves({ s, game: "g", token: () => "t", changed: () => {} });
    assert.equal(await acts.figgieOrder({ type: "lift", suit: "hearts" }), true);
    assert.equal(keys.length, 2);
    assert.equal(keys[0], keys[1]);
    assert.equal(s.state.version, 2);
  } finally {
    globalThis.fetch = realFetch;
  }
});

// ------------------------------------------------------------------ against the engine
const CASES = process.env.FIGGIE_JS_CASES ? JSON.parse(readFileSync(process.env.FIGGIE_JS_CASES, "utf8")) : null;

if (CASES) {
  test("the page's reading of each seat's choices, the settlement, the replay and the deal agree with the engine's", async () => {
    const found = { can: [], rows: [], lastChips: [], verified: [], dealt: [], deckText: [], chances: [], framed: [] };
    const { figgieReplay } = await import("../../app/web/static/figgiereplay.js");
    for (const counts of CASES.counts) found.chances.push(goalChances(counts));
    for (const c of CASES.positions) {
      found.can.push(SUITS.map((s) => {
        const can = canDo(c.view, s, c.seat);
        return [can.bidMax, can.askMin, !!can.lift, !!can.hit, can.cancelBid !== null, can.cancelAsk !== null];
      }));
    }
    for (const g of CASES.settled) {
      const rows = settlementRows(g.view, null, g.starting_chips);
      found.rows.push(rows.map((r) => [r.goal, r.payout, r.chips, r.profit, r.top]));
      const steps = replaySteps(g.view, null, g.starting_chips);
      found.lastChips.push(steps[steps.length - 1].chips.map((x, i) => x + g.view.settlement.payouts[i]));
      found.verified.push((await verifyFiggie(g.view.settlement, g.view.commitment)).ok);
      found.dealt.push(await dealFiggie(g.view.settlement.seed, g.view.settlement.initial_hands.length));
      found.deckText.push(deckText(g.view.settlement));
      const framed = figgieReplay.steps({ view: g.view, seats: [], rules: { starting_chips: g.starting_chips } }, null);
      const [traded, settled] = framed.slice(-2);
      found.framed.push({ n: framed.length, traded: traded.hands, hands: settled.hands, chips: settled.chips,
        deal: (await figgieReplay.verify({ view: g.view })).map((c) => c.ok) });
    }
    for (const g of CASES.tampered) found.verified.push((await verifyFiggie(g.settlement, g.commitment)).ok);
    console.log(`FIGGIE_DUMP ${JSON.stringify(found)}`);
  });
}
