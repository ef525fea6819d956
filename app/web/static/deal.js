// Checking a round's deal in the page, by the algorithms documented in engine/dealing.py.
// commitment = SHA-256(seed). The classic deck of 24 cards (version 1): n = SHA-256("blef/deal/v1"
// + seed) read as a big-endian number; any other deck (32 cards, jokers or blanks: version 2):
// n = SHA-512("blef/deal/v2" + seed). Cards are picked from the indices [0..total-1] (the deck's
// cards value * 4 + colour, then the jokers, then the blanks) by n's digits in the mixed radix
// total, total - 1, ...: the hands in seating order, then the common cards.
const TAG_V1 = new TextEncoder().encode("blef/deal/v1");
const TAG_V2 = new TextEncoder().encode("blef/deal/v2");
const CLASSIC_TOTAL = 24;

export function hexToBytes(hex) {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) throw new Error("not hex");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(bytes) {
  return toHex(await crypto.subtle.digest("SHA-256", bytes));
}

async function dealNumber(seed, total) {
  const tag = total === CLASSIC_TOTAL ? TAG_V1 : TAG_V2;
  const joined = new Uint8Array(tag.length + seed.length);
  joined.set(tag);
  joined.set(seed, tag.length);
  const digest = await crypto.subtle.digest(total === CLASSIC_TOTAL ? "SHA-256" : "SHA-512", joined);
  return BigInt("0x" + toHex(digest));
}

/** The first `count` card indices of the ordering `seed` picks from `total` cards (24: the
 * classic deck, version 1; anything else version 2). */
export async function dealIndices(seed, count, total = CLASSIC_TOTAL) {
  let n = await dealNumber(seed, total);
  const remaining = Array.from({ length: total }, (_, i) => i);
  const picked = [];
  for (let left = total; left > total - count; left--) {
    const i = Number(n % BigInt(left));
    n /= BigInt(left);
    picked.push(remaining.splice(i, 1)[0]);
  }
  return picked;
}

/** One round's deal, as engine/dealing.py's deal_round: hands of card indices for hand sizes
 * in seating order, then `common` cards, each sorted, from `total` cards. {hands, common}. */
export async function dealRound(seed, sizes, common = 0, total = CLASSIC_TOTAL) {
  const dealt = sizes.reduce((a, b) => a + b, 0) + common;
  if (dealt > total) throw new Error(`cannot deal ${dealt} cards from ${total}`);
  const order = await dealIndices(seed, dealt, total);
  const piles = [];
  let at = 0;
  for (const size of [...sizes, common]) {
    piles.push(order.slice(at, at + size).sort((a, b) => a - b));
    at += size;
  }
  return { hands: piles.slice(0, -1), common: piles[piles.length - 1] };
}

/** Hands of card indices, each sorted, for hand sizes in seating order (the classic deck). */
export async function dealHands(seed, sizes) {
  return (await dealRound(seed, sizes)).hands;
}

/** How many common cards a round gets with these hand sizes (engine/rules.py common_count). */
export function commonCount(rules, sizes) {
  const c = (rules && rules.common_cards) || 0;
  if (c >= 0) return c;
  const divisor = c === -1 ? 3 : 5;
  return 1 + Math.floor(sizes.filter((n) => n > 0).reduce((a, n) => a + n - 1, 0) / divisor);
}

/** The deck's shape from a rules object: {deck, jokers, blanks, total}. */
export function deckShape(rules) {
  const deck = rules && rules.deck_size === 32 ? 32 : 24;
  const jokers = (rules && rules.jokers) || 0;
  const blanks = (rules && rules.blanks) || 0;
  return { deck, jokers, blanks, total: deck + jokers + blanks };
}

/** A card index as the API shows it: a deck card, a joker (-1) or a blank (-2). */
export function cardOfIndex(i, rules) {
  const { deck, jokers } = deckShape(rules);
  if (i < deck) return { value: Math.floor(i / 4), colour: i % 4 };
  return i < deck + jokers ? { value: -1, colour: -1 } : { value: -2, colour: -2 };
}

// A card as a comparable key: every joker is alike, and so is every blank.
const keyOf = (c) => (c.value === -1 ? "joker" : c.value === -2 ? "blank" : String(c.value * 4 + c.colour));
const keys = (cards) => cards.map(keyOf).sort().join(",");

/**
 * Verify one round snapshot ({players, hands, common_hand, rules, commitment, seed}): the seed
 * matches the commitment and re-deals exactly the hands and the common cards shown, by the
 * round's rules. Returns {ok, reason}.
 */
export async function verifyRound(round) {
  let seed;
  try {
    seed = hexToBytes(round.seed || "");
  } catch {
    return { ok: false, reason: "the seed is not hexadecimal" };
  }
  if (seed.length !== 32) return { ok: false, reason: "the seed is not 32 bytes" };
  if ((await sha256Hex(seed)) !== round.commitment)
    return { ok: false, reason: "SHA-256 of the seed differs from the commitment" };
  const rules = round.rules || null;
  const seated = round.players.filter((p) => p.n_cards > 0);
  const sizes = seated.map((p) => p.n_cards);
  let dealt;
  try {
    dealt = await dealRound(seed, sizes, commonCount(rules, sizes), deckShape(rules).total);
  } catch {
    return { ok: false, reason: "these rules cannot deal the hands shown" };
  }
  const shown = new Map(round.hands.map((h) => [h.nickname, h.hand]));
  const asCards = (pile) => pile.map((i) => cardOfIndex(i, rules));
  for (let i = 0; i < seated.length; i++) {
    if (keys(shown.get(seated[i].nickname) || []) !== keys(asCards(dealt.hands[i])))
      return { ok: false, reason: `${seated[i].nickname}'s hand is not the one the seed deals` };
  }
  if (keys(round.common_hand || []) !== keys(asCards(dealt.common)))
    return { ok: false, reason: "the common cards are not the ones the seed deals" };
  return { ok: true, reason: "the seed matches the commitment and deals every hand shown" };
}
