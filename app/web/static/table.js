// The table's facts the page needs before the service says them: the reactions a player may
// send and the maximum of cards the admin may choose. Pure, so node tests them against the
// Python engine (tests/web/test_js_units.py).

/** The reactions the service accepts, in the order the bar shows them. */
export const REACTIONS = ["👍", "👎", "👏", "😂", "😮", "😢", "🤔", "🎉"];

const N_CARDS = 24;
const MIN_PLAYERS = 2;
const MAX_PLAYERS = 8;

/** The rule's maximum of cards for a game of `nPlayers`: floor(24 / n), but 11 for two. */
export function ruleMaxCards(nPlayers) {
  const n = Math.min(MAX_PLAYERS, Math.max(MIN_PLAYERS, nPlayers));
  return n === 2 ? 11 : Math.floor(N_CARDS / n);
}

/** The choices of the admin's "maximum of cards": 1..the rule's maximum for the players
 * seated now, counted as at least two (the service refuses more; it caps again at start). */
export function maxCardsChoices(nPlayers) {
  return Array.from({ length: ruleMaxCards(nPlayers) }, (_, i) => i + 1);
}

/** The last reactions as lines to show, oldest first: "bob 👍". */
export function reactionLines(reactions) {
  return (reactions || []).map((r) => `${r.nickname} ${r.reaction}`);
}
