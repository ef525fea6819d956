// Figgie's facts of the table the page works out for itself from the service's view
// (engine/figgie/game.py `FiggieState.view`): the suits, prices and chips in words, the best
// quotes, what this seat may do in each suit (the same rules as the engine's refusals, so a
// button is offered only when the order would be taken), the tape and the settlement as
// lines. Pure, so node tests them (tests/web/figgie_units.test.mjs, against the engine's
// own views and refusals in tests/web/test_figgie_units.py).

/** The suits in the engine's order (spades 0, clubs 1, hearts 2, diamonds 3). */
export const SUITS = Object.freeze(["spades", "clubs", "hearts", "diamonds"]);
export const SUIT_SYMBOL = Object.freeze({ spades: "♠", clubs: "♣", hearts: "♥", diamonds: "♦" });
/** Hearts and diamonds are red; spades and clubs black (the goal suit is the other suit of
 * the 12-card suit's colour). */
export const RED = Object.freeze(new Set(["hearts", "diamonds"]));

/** A number of chips in words: "1 chip", "350 chips", "-4 chips". */
export function chipsText(n) {
  return `${n} chip${n === 1 || n === -1 ? "" : "s"}`;
}

/** A profit with its sign: "+20", "-5", "0" (the minus sign a screen reader reads as minus). */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0";
}

/** A number of cards of a suit: "1 spade", "3 hearts", "no clubs". */
export function cardsText(n, suit) {
  if (!n) return `no ${suit}`;
  return `${n} ${n === 1 ? suit.slice(0, -1) : suit}`;
}

/** The name of seat `i`: its nickname from the table's seats (strings or {nickname}), else
 * "Seat i+1". */
export function seatName(seats, i) {
  const s = (seats || [])[i];
  const name = s && (typeof s === "string" ? s : s.nickname);
  return name || `Seat ${i + 1}`;
}

/** A seat's name as this person reads it: "you" for their own seat. */
export function whoText(seats, i, me) {
  return i === me ? "you" : seatName(seats, i);
}

/** One suit's side of the book ("bids" or "asks") of the view, best first; [] when absent. */
function side(view, suit, which) {
  const book = view && view.book && view.book[suit];
  return (book && book[which]) || [];
}

/** The best quote on one side of a suit from any seat but `me` ({seat, price}) or null: what a
 * lift (asks) or a hit (bids) by `me` takes, since the engine skips a player's own quotes. */
export function bestOther(view, suit, which, me) {
  return side(view, suit, which).find((q) => q.seat !== me) || null;
}

/** The price of `me`'s own quote on one side of a suit, or null. */
export function ownQuote(view, suit, which, me) {
  const q = side(view, suit, which).find((x) => x.seat === me);
  return q ? q.price : null;
}

/** The best quote of a side of a suit, anyone's ({seat, price}) or null. */
export function best(view, suit, which) {
  const book = view && view.book && view.book[suit];
  const key = which === "bids" ? "best_bid" : "best_ask";
  return (book && book[key]) || null;
}

/** How many cards of `suit` seat `me` holds (0 for a watcher). */
export function held(view, suit) {
  return (view && view.hand && view.hand[suit]) || 0;
}

/**
 * What seat `me` may do in `suit` now, by the rules the engine refuses orders by:
 *   open:      trading is on and `me` is a seat (else nothing is allowed)
 *   bidMax:    the highest price a bid may have (below the best ask, anyone's), 0 when none
 *   askMin:    the lowest price an ask may have (above the best bid), > maxPrice when none
 *   canAsk:    `me` holds a card of the suit (an ask and a hit need one)
 *   lift:      the ask a lift buys at ({seat, price}: another seat's best), or null
 *   hit:       the bid a hit sells to (another seat's best, and a card to sell), or null
 *   cancelBid / cancelAsk: `me`'s own quote's price, or null
 */
export function canDo(view, suit, me, maxPrice = (view && view.max_price) || 99) {
  const seated = Number.isInteger(me) && me >= 0 && view && me < (view.n_seats || (view.chips || []).length);
  const open = !!seated && !view.settled && (view.time_left === undefined || view.time_left > 0);
  const none = { open: false, bidMax: 0, askMin: maxPrice + 1, canAsk: false, lift: null, hit: null, cancelBid: null, cancelAsk: null };
  if (!open) return none;
  const bestAsk = best(view, suit, "asks");
  const bestBid = best(view, suit, "bids");
  const canAsk = held(view, suit) > 0;
  return {
    open: true,
    bidMax: bestAsk ? Math.min(maxPrice, bestAsk.price - 1) : maxPrice,
    askMin: canAsk ? (bestBid ? Math.max(1, bestBid.price + 1) : 1) : maxPrice + 1,
    canAsk,
    lift: bestOther(view, suit, "asks", me),
    hit: canAsk ? bestOther(view, suit, "bids", me) : null,
    cancelBid: ownQuote(view, suit, "bids", me),
    cancelAsk: ownQuote(view, suit, "asks", me),
  };
}

/** The price a box offers first for a quote: one better than the best on its side (not
 * crossing the other side), or `fallback`; always 1..maxPrice. */
export function suggestedPrice(view, suit, which, me, fallback = 5) {
  const maxPrice = (view && view.max_price) || 99;
  const can = canDo(view, suit, me, maxPrice);
  const clamp = (p) => Math.min(maxPrice, Math.max(1, p));
  if (which === "bids") {
    const b = best(view, suit, "bids");
    const want = b ? b.price + 1 : fallback;
    return clamp(Math.min(want, can.bidMax || 1));
  }
  const a = best(view, suit, "asks");
  const want = a ? a.price - 1 : fallback + 2;
  return clamp(Math.max(want, can.askMin <= maxPrice ? can.askMin : want));
}

/** A typed price read: {price} when it is a whole number, else {problem} in words. */
export function parsePrice(text, maxPrice = 99) {
  const t = String(text ?? "").trim();
  if (!/^\d+$/.test(t)) return { problem: `Type a whole number of chips, 1 to ${maxPrice}.` };
  const price = Number(t);
  if (price < 1 || price > maxPrice) return { problem: `A price is from 1 to ${maxPrice} chips.` };
  return { price };
}

/** The price box after + (delta 1) or - (delta -1): the typed price moved and kept in
 * 1..maxPrice (an unreadable box starts from `fallback`). */
export function stepPrice(text, delta, maxPrice = 99, fallback = 5) {
  const t = String(text ?? "").trim();
  const base = /^\d+$/.test(t) ? Number(t) : fallback - delta;
  return String(Math.min(maxPrice, Math.max(1, base + delta)));
}

/** One trade in words: "alice bought a spade from bob for 7". */
export function tradeText(trade, seats, me) {
  const buyer = whoText(seats, trade.buyer, me);
  const seller = whoText(seats, trade.seller, me);
  const one = trade.suit.slice(0, -1);
  return `${cap(buyer)} bought a ${one} from ${seller} for ${trade.price}`;
}

function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The tape newest first, numbered from the first trade (1): [{n, trade, text}]. */
export function tapeLines(view, seats, me) {
  const tape = (view && view.tape) || [];
  return tape.map((trade, i) => ({ n: i + 1, trade, text: tradeText(trade, seats, me) })).reverse();
}

/**
 * What a screen reader is told when the tape grows from `before` trades to the view's: one
 * sentence, never one per trade (a busy market would drown the person). The trades the
 * person took part in are named; the others counted. "" when nothing new.
 */
export function tradeNews(before, view, seats, me) {
  const tape = (view && view.tape) || [];
  if (!(before >= 0) || tape.length <= before) return "";
  const fresh = tape.slice(before);
  const mine = fresh.filter((t) => t.buyer === me || t.seller === me);
  const others = fresh.length - mine.length;
  const parts = mine.map((t) => tradeText(t, seats, me) + ".");
  if (others === 1 && !mine.length) parts.push(tradeText(fresh[0], seats, me) + ".");
  else if (others) {
    const last = [...fresh].reverse().find((t) => t.buyer !== me && t.seller !== me);
    parts.push(`${others} other trade${others === 1 ? "" : "s"}, the last: ${tradeText(last, seats, me).replace(/^./, (c) => c.toLowerCase())}.`);
  }
  return parts.join(" ");
}

/** An order in words, as it is confirmed: "Your bid of 7 for a spade is up." */
export function orderText(order, view, me) {
  const one = order.suit.slice(0, -1);
  switch (order.type) {
    case "bid": return `Your bid of ${order.price} for a ${one} is up.`;
    case "ask": return `Your ask of ${order.price} for a ${one} is up.`;
    case "cancel_bid": return `Your ${order.suit} bid is cancelled.`;
    case "cancel_ask": return `Your ${order.suit} ask is cancelled.`;
    case "lift": {
      const q = bestOther(view, order.suit, "asks", me);
      return q ? `You bought a ${one} for ${q.price}.` : `You bought a ${one}.`;
    }
    case "hit": {
      const q = bestOther(view, order.suit, "bids", me);
      return q ? `You sold a ${one} for ${q.price}.` : `You sold a ${one}.`;
    }
    default: return "Done.";
  }
}

/** What is said once an order is taken, read from the service's answer (`after`, the view
 * it answered with): a lift or a hit at the price it actually traded at, which is the best
 * quote when it arrived and may differ from the one the page showed (`before`). */
export function confirmText(order, before, after, me) {
  if ((order.type === "lift" || order.type === "hit") && after && after.tape && after.tape.length > ((before && before.tape) || []).length) {
    const buy = order.type === "lift";
    const t = after.tape[after.tape.length - 1];
    if (t.suit === order.suit && (buy ? t.buyer === me : t.seller === me))
      return `You ${buy ? "bought" : "sold"} a ${order.suit.slice(0, -1)} for ${t.price}.`;
  }
  return orderText(order, before, me);
}

/**
 * The settlement as rows, one per seat, in seat order: {seat, name, goal (goal cards held at
 * the end), hand (the suits at the end), payout, chips, profit (chips less the starting
 * stack), top (held the most goal cards)}; null before the settlement.
 */
export function settlementRows(view, seats, startingChips = 350) {
  const st = view && view.settlement;
  if (!st) return null;
  const goal = st.goal_suit;
  const counts = st.hands.map((h) => h[goal] || 0);
  const most = Math.max(...counts);
  return st.hands.map((hand, i) => ({
    seat: i,
    name: seatName(seats, i),
    goal: counts[i],
    hand,
    payout: st.payouts[i],
    chips: st.chips[i],
    profit: st.chips[i] - startingChips,
    top: most > 0 && counts[i] === most,
  }));
}

/** The deck of a settlement in words: "spades 12, clubs 10, hearts 8, diamonds 10". */
export function deckText(settlement) {
  return SUITS.map((s) => `${s} ${settlement.deck[s]}`).join(", ");
}

/** The common suit (12 cards) of a settled deck. */
export function commonSuit(settlement) {
  return SUITS.find((s) => settlement.deck[s] === 12) || null;
}

/** The whole seconds left to trade from the view's `time_left` read `elapsed` seconds ago. */
export function tradingLeft(view, elapsed) {
  if (!view || view.settled) return 0;
  return Math.max(0, Math.ceil((view.time_left || 0) - elapsed));
}

/** "3:05" for 185 seconds. */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The replay: the market step by step from the deal (the settlement's starting hands) to
 * the end, one step a trade: [{n, trade, text, hands, chips}], each step's hands and chips
 * after its trade (chips before the pot is paid out: the starting stacks less the buy-in). */
export function replaySteps(view, seats, startingChips = 350, me = null) {
  const st = view && view.settlement;
  if (!st) return [];
  const n = st.initial_hands.length;
  const buyIn = 200 / n;
  let hands = st.initial_hands.map((h) => ({ ...h }));
  let chips = Array(n).fill(startingChips - buyIn);
  const steps = [{ n: 0, trade: null, text: "The deal", hands, chips }];
  (view.tape || []).forEach((t, i) => {
    hands = hands.map((h) => ({ ...h }));
    chips = [...chips];
    hands[t.buyer][t.suit] += 1;
    hands[t.seller][t.suit] -= 1;
    chips[t.buyer] -= t.price;
    chips[t.seller] += t.price;
    steps.push({ n: i + 1, trade: t, text: tradeText(t, seats, me), hands, chips });
  });
  return steps;
}
