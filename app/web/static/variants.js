// The variants in words and numbers, pure (node tests them against the engine): the rules a
// table plays by said for people, the choices the host is offered, the jokers a bet may count
// and which cards a reveal rings.
import { cardMatters, deckOf, isJoker, missingFor } from "./bets.js";
import { commonCount, deckShape } from "./deal.js";

export const GROWING = -1;
export const SLOWLY_GROWING = -2;
export const MAX_EXTRA = 12; // jokers, blanks and common cards: 0..12 each
/** The owner of the common cards in marksFor (no nickname has a "~"). */
export const COMMON = "~common";
export const TEAMS = [1, 2, 3, 4, 5, 6, 7, 8];

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The common cards rule in words: "no common card", "2 common cards", "1 common card growing". */
export function commonInWords(common) {
  if (common === GROWING) return "1 common card growing";
  if (common === SLOWLY_GROWING) return "1 common card growing slowly";
  return common ? plural(common, "common card") : "no common card";
}

/** The rules in words, for everyone at the table: "32 cards, 2 jokers, 1 common card growing". */
export function rulesInWords(rules) {
  const { deck, jokers, blanks } = deckShape(rules);
  const common = (rules && rules.common_cards) || 0;
  if (deck === 24 && !jokers && !blanks && !common) return "24 cards (9 to A), the classic game";
  const parts = [`${deck} cards`];
  if (jokers) parts.push(plural(jokers, "joker"));
  if (blanks) parts.push(plural(blanks, "blank"));
  if (common) parts.push(commonInWords(common));
  return parts.join(", ");
}

/** The host's choices of common cards: {value, label}, in the order offered. */
export const COMMON_CHOICES = [
  { value: 0, label: "None" },
  ...Array.from({ length: MAX_EXTRA }, (_, i) => ({ value: i + 1, label: plural(i + 1, "common card") })),
  { value: GROWING, label: "Growing: 1, then 1 more for every 3 cards players gain" },
  { value: SLOWLY_GROWING, label: "Growing slowly: 1, then 1 more for every 5 cards players gain" },
];

/** A team in words: "team 2", or "on their own" (`own` for the person themselves). */
export function teamWords(team, own = "on their own") {
  return team ? `team ${team}` : own;
}

/** The rule's maximum of cards for `nPlayers` (2..8) under `rules`, as engine/rules.py's
 * max_cards_for counts it before any preference lowers it: the largest hand every player can
 * hold with the common cards beside them, at most 11; with jokers and no preference, counted
 * on a smaller deck. */
export function maxCardsFor(nPlayers, rules = null) {
  const n = Math.min(8, Math.max(2, nPlayers));
  const { deck, jokers, blanks, total: all } = deckShape(rules);
  let total = all;
  if (jokers && !(rules && rules.max_cards))
    total = Math.min(Math.floor(((deck + blanks + jokers) * 5) / (5 + jokers + 1)), deck);
  const fits = (top) => top * n + commonCount(rules, new Array(n).fill(top)) <= total;
  let top = 0;
  while (top < 11 && fits(top + 1)) top++;
  return top;
}

/** The jokers a bet by `bettor` may count at a check: theirs and the common cards'. */
export function usableJokers(snap, bettor) {
  const own = ((snap.hands || []).find((h) => h.nickname === bettor) || { hand: [] }).hand;
  return [...own, ...(snap.common_hand || [])].filter(isJoker).length;
}

/** Every card of a finished round, pooled: the hands and the common cards. */
export function poolOf(snap) {
  return [...(snap.hands || []).flatMap((h) => h.hand), ...(snap.common_hand || [])];
}

/**
 * How a check of `bet` ({player, action_id}) reads among a round's cards:
 * {there, missing, wild, jokersUsed}: whether the set was there, how many of its cards the
 * pool lacked, the jokers the bettor could count and how many of those stood in.
 */
export function judgeBet(snap, bet) {
  const deck = deckOf(snap);
  const missing = missingFor(bet.action_id, poolOf(snap), deck);
  const wild = usableJokers(snap, bet.player);
  return { there: missing <= wild, missing, wild, jokersUsed: Math.min(missing, wild) };
}

/**
 * The cards a reveal rings for `bet`: a function (owner, card, index) -> bool, where owner is
 * a nickname or COMMON. Deck cards that matter to the set, and, of the jokers that count
 * (the bettor's own first, then the common ones), as many as stood in for missing cards.
 */
export function marksFor(snap, bet) {
  const deck = deckOf(snap);
  const { jokersUsed } = judgeBet(snap, bet);
  const ringed = new Set();
  let left = jokersUsed;
  const own = ((snap.hands || []).find((h) => h.nickname === bet.player) || { hand: [] }).hand;
  const take = (owner, cards) => cards.forEach((c, i) => { if (left > 0 && isJoker(c)) { ringed.add(`${owner}:${i}`); left--; } });
  take(bet.player, own);
  take(COMMON, snap.common_hand || []);
  return (owner, c, i) => (isJoker(c) ? ringed.has(`${owner}:${i}`) : cardMatters(bet.action_id, c, deck));
}
