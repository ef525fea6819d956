// Blef's facts of the table the page needs before the service says them: the maximum of
// cards the host may choose, why a round ended, the standing bet, the first-game guide and the
// computer players' levels. Pure, so node tests them against the Python engine
// (tests/web/test_js_units.py).
import { actionName, CHECK, checkOf, deckOf, lostOf } from "./bets.js";
import { maxCardsFor } from "./variants.js";

const N_CARDS = 24;
const MIN_PLAYERS = 2;
const MAX_PLAYERS = 8;

/** The rule's maximum of cards for a game of `nPlayers`: floor(24 / n), but 11 for two. */
export function ruleMaxCards(nPlayers) {
  const n = Math.min(MAX_PLAYERS, Math.max(MIN_PLAYERS, nPlayers));
  return n === 2 ? 11 : Math.floor(N_CARDS / n);
}

/** The choices of the admin's "maximum of cards": 1..the rule's maximum for the players
 * seated now, counted as at least two (the service refuses more; it caps again at start),
 * under the table's `rules` when given (another deck, jokers, common cards). */
export function maxCardsChoices(nPlayers, rules = null) {
  const top = rules ? maxCardsFor(nPlayers, rules) : ruleMaxCards(nPlayers);
  return Array.from({ length: top }, (_, i) => i + 1);
}

/**
 * Why a round ended, told from its snapshot (history ending with the loser's 89 event), the
 * last state seen during the round (`before`, optional) and the state after it (`after`,
 * optional). One of:
 *  {kind: "check", loser, checker, bet: {player, action_id} | null, existed}
 *  {kind: "timeout", loser}   the player to move ran out of time
 *  {kind: "resign", loser}    the loser resigned (out of the game at once)
 *  {kind: "timeout-or-resign", loser}  when nothing seen can tell the two apart
 * A removal never ends a round: the service removes players only before the start.
 */
export function roundCause(snap, before = null, after = null) {
  const hist = snap.history || [];
  const last = hist[hist.length - 1];
  const loser = snap.loser || (last && last.player);
  const check = checkOf(snap);
  if (hist.length >= 2 && hist[hist.length - 2].action_id === check) {
    const checker = hist[hist.length - 2].player;
    const bet = hist.slice(0, -2).reverse().find((e) => e.action_id < check) || null;
    return { kind: "check", loser, checker, bet, existed: loser === checker };
  }
  if (!snap.time_limit) return { kind: "resign", loser }; // no clock: nobody can time out
  const fresh = before && before.round_number === snap.round_number
    && (before.history || []).length === hist.length - 1;
  if (fresh) {
    if (before.cp_nickname !== loser) return { kind: "resign", loser };
    if (before.move_deadline && snap.last_modified >= before.move_deadline - 0.25) return { kind: "timeout", loser };
    return { kind: "resign", loser };
  }
  const held = (snap.players || []).find((p) => p.nickname === loser);
  const next = after && (after.players || []).find((p) => p.nickname === loser);
  if (held && next) {
    if (next.n_cards === held.n_cards + 1) return { kind: "timeout", loser };
    if (next.n_cards === 0 && held.n_cards < snap.max_cards) return { kind: "resign", loser };
  }
  return { kind: "timeout-or-resign", loser };
}

/** Whether the loser of a round is out of the game after it. */
export function loserIsOut(snap, cause) {
  if (cause.kind === "resign") return true;
  const held = (snap.players || []).find((p) => p.nickname === cause.loser);
  return !!held && snap.max_cards > 0 && held.n_cards + 1 > snap.max_cards;
}

/** The standing bet of a round's history: the last bet, or null before the first (`check`:
 * the check's id, 88 or 140; every id below it is a bet). */
export function standingBet(history, check = CHECK) {
  const bets = (history || []).filter((e) => e.action_id < check);
  return bets.length ? bets[bets.length - 1] : null;
}

/** The first-game guide's tip for what is on the table now: a {key, text}, or null. */
export function tipFor({ state, me, myTurn, seenKeys }) {
  if (!state || state.status !== "Running") return null;
  const hist = (state.history || []).filter((e) => e.action_id !== lostOf(state));
  const tips = [];
  if (myTurn && !hist.length)
    tips.push(["first-bet", "You start this round: name any set you think is among ALL the cards on the table, yours and everyone else's. A low bet such as a high card is a safe start."]);
  if (myTurn && hist.length)
    tips.push(["check", `Your turn: bet something higher than "${standingBetName(hist, state)}", or Check if you think it is not among all the cards. Whoever is wrong takes one more card next round.`]);
  if (!myTurn && me)
    tips.push(["waiting", `Others are betting. Each bet must be higher than the last; the order of sets is in "How to play". Watch the standing bet in the middle of the table.`]);
  for (const [key, text] of tips) if (!seenKeys.has(key)) return { key, text };
  return null;
}

function standingBetName(hist, state) {
  const bet = standingBet(hist, checkOf(state));
  return bet ? actionName(bet.action_id, deckOf(state)) : "";
}

/** The computer players by difficulty, with their measured strength in words
 * (docs/strength.md: 4,000 two-player games for each pair). */
export const LEVELS = [
  { agent: "random", label: "Beginner", words: "Plays at random: it never won a two-player game against any other level." },
  { agent: "bold", label: "Easy", words: "Bets boldly from its own cards: wins about 1 two-player game in 3 against Medium." },
  { agent: "probabilist", label: "Medium", words: "Weighs the odds from its own cards: wins about 2 two-player games in 3 against Easy." },
  { agent: "bayesian", label: "Hard", words: "Also reads what the others bet: wins 93 to 95 two-player games in 100 against Easy and Medium." },
];
const ALIASES = { Dazhbog: "probabilist", Porevit: "bold" };

/** The level of a computer player from its `ai_agent`, or null for a human. */
export function levelOf(aiAgent) {
  if (!aiAgent) return null;
  const agent = ALIASES[aiAgent] || aiAgent;
  return LEVELS.find((l) => l.agent === agent) || { agent, label: "Computer", words: "" };
}
