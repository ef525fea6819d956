// Names of the 88 sets (bets) in words, by action id: exactly engine/sets.py's names
// (tests/web/test_js_units.py compares them).
export const VALUES = ["9", "10", "J", "Q", "K", "A"];
export const VALUE_WORDS = ["nine", "ten", "jack", "queen", "king", "ace"];
export const PLURALS = ["nines", "tens", "jacks", "queens", "kings", "aces"];
export const COLOURS = ["clubs", "diamonds", "hearts", "spades"];
export const SUIT_SYMBOLS = ["♣", "♦", "♥", "♠"];
export const CHECK = 88;
export const LOST = 89;

function table() {
  const sets = [];
  for (let v = 0; v < 6; v++) sets.push({ kind: "High card", name: `high card ${VALUES[v]}` });
  for (let v = 0; v < 6; v++) sets.push({ kind: "Pair", name: `pair of ${PLURALS[v]}` });
  for (let x = 1; x < 6; x++)
    for (let y = 0; y < x; y++)
      sets.push({ kind: "Two pair", name: `two pair, ${PLURALS[x]} and ${PLURALS[y]}` });
  sets.push({ kind: "Straight", name: "small straight" });
  sets.push({ kind: "Straight", name: "big straight" });
  sets.push({ kind: "Straight", name: "great straight" });
  for (let v = 0; v < 6; v++) sets.push({ kind: "Three of a kind", name: `three ${PLURALS[v]}` });
  for (let x = 0; x < 6; x++)
    for (let y = 0; y < 6; y++)
      if (x !== y) sets.push({ kind: "Full house", name: `full house, ${PLURALS[x]} over ${PLURALS[y]}` });
  for (let c = 0; c < 4; c++) sets.push({ kind: "Flush", name: `flush of ${COLOURS[c]}` });
  for (let v = 0; v < 6; v++) sets.push({ kind: "Four of a kind", name: `four ${PLURALS[v]}` });
  for (const size of ["small", "big", "great"])
    for (let c = 0; c < 4; c++)
      sets.push({ kind: "Straight flush", name: `${size} straight flush of ${COLOURS[c]}` });
  return sets;
}

export const SETS = table();

/** The words for an action id: a bet's set, "check", or the end-of-round event. */
export function actionName(id) {
  if (id === CHECK) return "check";
  if (id === LOST) return "lost the round";
  return SETS[id] ? SETS[id].name : `action ${id}`;
}

/** A card in words, e.g. "queen of hearts". */
export function cardName(card) {
  return `${VALUE_WORDS[card.value]} of ${COLOURS[card.colour]}`;
}
