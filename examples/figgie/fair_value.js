// A Figgie bot in JavaScript (Node.js 18 or later, no packages): it sits at a table of the
// service over HTTP and trades by a fair value read from its own hand, as the FairValue
// baseline does. The protocol is the one every game shares (api_docs/tables.md): join with a
// nickname, keep the secret, read the table with it, post orders as JSON.
//
// Run:  node examples/figgie/fair_value.js URL GAME_UUID [NICKNAME]
//   e.g. node examples/figgie/fair_value.js http://127.0.0.1:8000 5f0c... fv_js
// It prints one line per order it sends and, at the end, the result as JSON.
//
// Fair value. With its hand's counts h, each of the twelve possible decks d is weighed by
// prod over suits of C(d[s], h[s]) (how many ways that deck deals this hand); the goal suit
// is the other suit of the common (12-card) suit's colour. A card of suit s is worth 10 chips
// times the chance s is the goal. It bids a chip under that value, asks a chip over it on
// suits it holds, and takes any other player's quote that beats its value by two chips.

const SUITS = ["spades", "clubs", "hearts", "diamonds"];
const PARTNER = [1, 0, 3, 2]; // the other suit of the same colour
const PAUSE_MS = 150; // between orders: well under the service's per-seat order limit

function decks() {
  const out = [];
  for (let common = 0; common < 4; common++) {
    for (let eight = 0; eight < 4; eight++) {
      if (eight === common) continue;
      out.push({
        counts: [0, 1, 2, 3].map((s) => (s === common ? 12 : s === eight ? 8 : 10)),
        goal: PARTNER[common],
      });
    }
  }
  return out;
}

function choose(n, k) {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** P(goal suit = s) for each suit, from the counts of one hand. */
function goalChances(hand) {
  const chances = [0, 0, 0, 0];
  let total = 0;
  for (const deck of decks()) {
    const w = SUITS.reduce((acc, name, s) => acc * choose(deck.counts[s], hand[name] || 0), 1);
    chances[deck.goal] += w;
    total += w;
  }
  return chances.map((c) => (total ? c / total : 0.25));
}

/** The one order this bot wants now, or null. */
function nextOrder(view) {
  const me = view.seat;
  const values = goalChances(view.hand).map((p) => 10 * p);
  const maxPrice = view.max_price;
  for (let s = 0; s < 4; s++) {
    const suit = SUITS[s];
    const book = view.book[suit];
    const ask = book.best_ask;
    const bid = book.best_bid;
    if (ask && ask.seat !== me && ask.price <= values[s] - 2) return { type: "lift", suit };
    if (bid && bid.seat !== me && bid.price >= values[s] + 2 && view.hand[suit] > 0) {
      return { type: "hit", suit };
    }
  }
  for (let s = 0; s < 4; s++) {
    const suit = SUITS[s];
    const book = view.book[suit];
    const mine = (side) => book[side].some((q) => q.seat === me);
    const bidPrice = Math.floor(values[s]) - 1;
    const askPrice = Math.ceil(values[s]) + 1;
    const bestAsk = book.best_ask ? book.best_ask.price : maxPrice + 1;
    const bestBid = book.best_bid ? book.best_bid.price : 0;
    if (!mine("bids") && bidPrice >= 1 && bidPrice < bestAsk) {
      return { type: "bid", suit, price: bidPrice };
    }
    if (!mine("asks") && view.hand[suit] > 0 && askPrice <= maxPrice && askPrice > bestBid) {
      return { type: "ask", suit, price: askPrice };
    }
  }
  return null;
}

async function call(base, path, secret, body) {
  const headers = { "content-type": "application/json" };
  if (secret) headers.authorization = `Bearer ${secret}`;
  const reply = await fetch(base + path, {
    method: body === undefined ? "GET" : "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await reply.json();
  return { status: reply.status, data };
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function main() {
  const [base, game, nickname = "fair_value_js"] = process.argv.slice(2);
  if (!base || !game) {
    console.error("usage: node fair_value.js URL GAME_UUID [NICKNAME]");
    process.exit(2);
  }
  const table = `/figgie/games/${game}`;
  const joined = await call(base, `${table}/join`, null, { nickname });
  if (joined.status !== 200) throw new Error(`join: ${JSON.stringify(joined.data)}`);
  const secret = joined.data.player_uuid;
  await call(base, `${table}/ready`, secret, { ready: true });
  for (;;) {
    const { data: state } = await call(base, table, secret);
    if (state.status === "Finished") {
      console.log(JSON.stringify({ result: state.result, you: state.you }));
      return;
    }
    const order = state.status === "Running" && state.your_turn ? nextOrder(state.view) : null;
    if (order) {
      const sent = await call(base, `${table}/move`, secret, order);
      console.log(`${sent.status} ${JSON.stringify(order)}`);
    }
    await sleep(PAUSE_MS);
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}

module.exports = { goalChances, nextOrder };
