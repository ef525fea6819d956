// A Figgie deal re-derived in the page from the seed the settlement reveals, as
// engine/figgie/deal.py (version 1) deals it, and checked against the commitment shown while
// the game was played and the deck and starting hands the settlement shows. Pure (Web
// Crypto only), so node tests it against the engine (tests/web/test_figgie_units.py).
import { SUITS } from "./figgiemarket.js";

/** The twelve decks in the engine's numbering: deck i has its 12-card suit i // 3 and its
 * 8-card suit the (i % 3)-th of the other three (engine/figgie/decks.py). */
export const DECKS = Object.freeze((() => {
  const decks = [];
  for (let common = 0; common < 4; common++)
    for (let eight = 0; eight < 4; eight++)
      if (eight !== common) decks.push([0, 1, 2, 3].map((s) => (s === common ? 12 : s === eight ? 8 : 10)));
  return decks;
})());
const PARTNER = [1, 0, 3, 2];
/** The goal suit of each deck: the other suit of the 12-card suit's colour. */
export const GOAL = Object.freeze(DECKS.map((_, i) => PARTNER[Math.floor(i / 3)]));

const TAG = new TextEncoder().encode("figgie/deal/v1");

function hexBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-f]/i.test(hex)) throw new Error("not hex");
  return Uint8Array.from(hex.match(/../g) || [], (b) => parseInt(b, 16));
}

function toHex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The deck number and each seat's cards per suit ([[spades, clubs, hearts, diamonds]]). */
export async function dealFiggie(seedHex, nPlayers) {
  const seed = hexBytes(seedHex);
  const digest = await crypto.subtle.digest("SHA-512", new Uint8Array([...TAG, ...seed]));
  let x = BigInt(`0x${toHex(digest)}`);
  const deck = Number(x % 12n);
  x /= 12n;
  const suitOf = DECKS[deck].flatMap((count, s) => Array(count).fill(s));
  const remaining = suitOf.map((_, i) => i);
  const each = 40 / nPlayers;
  const hands = [];
  for (let p = 0; p < nPlayers; p++) {
    const hand = [0, 0, 0, 0];
    for (let k = 0; k < each; k++) {
      const n = BigInt(remaining.length);
      const i = Number(x % n);
      x /= n;
      hand[suitOf[remaining.splice(i, 1)[0]]] += 1;
    }
    hands.push(hand);
  }
  return { deck, hands };
}

/** A settlement checked in the page: {ok, reason}. The seed must hash to the commitment, and
 * deal exactly the deck, goal suit and starting hands the settlement shows. */
export async function verifyFiggie(settlement, commitment) {
  try {
    const seed = hexBytes(settlement.seed);
    if (toHex(await crypto.subtle.digest("SHA-256", seed)) !== String(commitment).toLowerCase())
      return { ok: false, reason: "the seed does not match the commitment shown during the game" };
    const n = settlement.initial_hands.length;
    const { deck, hands } = await dealFiggie(settlement.seed, n);
    if (SUITS.some((s, i) => settlement.deck[s] !== DECKS[deck][i]))
      return { ok: false, reason: "the seed deals another deck" };
    if (settlement.goal_suit !== SUITS[GOAL[deck]])
      return { ok: false, reason: "the seed's deck has another goal suit" };
    if (hands.some((h, p) => SUITS.some((s, i) => settlement.initial_hands[p][s] !== h[i])))
      return { ok: false, reason: "the seed deals other hands" };
    return { ok: true, reason: "" };
  } catch {
    return { ok: false, reason: "the settlement cannot be read" };
  }
}

function choose(n, k) {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** The chance each suit is the goal (spades, clubs, hearts, diamonds), given cards known to
 * exist (`counts` per suit: a hand), the twelve decks equally likely beforehand: deck i's
 * weight is the product over suits of C(its cards of the suit, the known ones), as
 * engine/figgie/decks.py `goal_probabilities`. null for counts no deck holds. */
export function goalChances(counts) {
  const weights = DECKS.map((d) => d.reduce((w, n, s) => w * choose(n, counts[s] || 0), 1));
  const total = weights.reduce((a, b) => a + b, 0);
  if (!total) return null;
  const out = [0, 0, 0, 0];
  weights.forEach((w, i) => { out[GOAL[i]] += w / total; });
  return out;
}
