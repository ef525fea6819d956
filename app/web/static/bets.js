// The 88 sets (bets) by action id: their names (exactly engine/sets.py's; tests/web/test_js_units.py
// compares them), what each needs, the kinds a picker groups them by, example cards, and
// whether a set is among some cards (compared with the engine by the same test).
export const VALUES = ["9", "10", "J", "Q", "K", "A"];
export const VALUE_WORDS = ["nine", "ten", "jack", "queen", "king", "ace"];
export const PLURALS = ["nines", "tens", "jacks", "queens", "kings", "aces"];
export const COLOURS = ["clubs", "diamonds", "hearts", "spades"];
export const SUIT_SYMBOLS = ["♣", "♦", "♥", "♠"];
export const CHECK = 88;
export const LOST = 89;
const STRAIGHTS = { small: [0, 1, 2, 3, 4], big: [1, 2, 3, 4, 5], great: [0, 1, 2, 3, 4, 5] };
const STRAIGHT_WORDS = { small: "9 to K", big: "10 to A", great: "9 to A" };

function need(pairs) {
  const needs = [0, 0, 0, 0, 0, 0];
  for (const [v, n] of pairs) needs[v] = n;
  return needs;
}

function table() {
  const sets = [];
  const add = (kind, name, rank, needs, extra = {}) =>
    sets.push({ id: sets.length, kind, name, rank, needs, colour: null, required: [], ...extra });
  for (let v = 0; v < 6; v++) add("high", `high card ${VALUES[v]}`, VALUES[v], need([[v, 1]]));
  for (let v = 0; v < 6; v++) add("pair", `pair of ${PLURALS[v]}`, PLURALS[v], need([[v, 2]]));
  for (let x = 1; x < 6; x++)
    for (let y = 0; y < x; y++)
      add("two-pair", `two pair, ${PLURALS[x]} and ${PLURALS[y]}`, `${PLURALS[x]} and ${PLURALS[y]}`, need([[x, 2], [y, 2]]));
  for (const size of ["small", "big", "great"])
    add("straight", `${size} straight`, `${size} (${STRAIGHT_WORDS[size]})`, need(STRAIGHTS[size].map((v) => [v, 1])));
  for (let v = 0; v < 6; v++) add("three", `three ${PLURALS[v]}`, PLURALS[v], need([[v, 3]]));
  for (let x = 0; x < 6; x++)
    for (let y = 0; y < 6; y++)
      if (x !== y) add("full-house", `full house, ${PLURALS[x]} over ${PLURALS[y]}`, `${PLURALS[x]} over ${PLURALS[y]}`, need([[x, 3], [y, 2]]));
  for (let c = 0; c < 4; c++)
    add("flush", `flush of ${COLOURS[c]}`, `${COLOURS[c]} ${SUIT_SYMBOLS[c]}`, need([]), { colour: c });
  for (let v = 0; v < 6; v++)
    add("four", `four ${PLURALS[v]}`, PLURALS[v], need([[v, 4]]), { required: [0, 1, 2, 3].map((c) => v * 4 + c) });
  for (const size of ["small", "big", "great"])
    for (let c = 0; c < 4; c++)
      add("straight-flush", `${size} straight flush of ${COLOURS[c]}`, `${size} (${STRAIGHT_WORDS[size]}), ${COLOURS[c]} ${SUIT_SYMBOLS[c]}`,
        need(STRAIGHTS[size].map((v) => [v, 1])), { colour: c, required: STRAIGHTS[size].map((v) => v * 4 + c) });
  return sets;
}

export const SETS = table();

/** The kinds of set in rising order, as a picker offers them, each with a line saying what it is. */
export const KINDS = [
  { key: "high", label: "High card", meaning: "at least one card of that value" },
  { key: "pair", label: "Pair", meaning: "two cards of the same value" },
  { key: "two-pair", label: "Two pair", meaning: "two cards of one value and two of another" },
  { key: "straight", label: "Straight", meaning: "one card of each value in a row: 9 to K, 10 to A, or all six 9 to A" },
  { key: "three", label: "Three of a kind", meaning: "three cards of the same value" },
  { key: "full-house", label: "Full house", meaning: "three cards of one value and two of another" },
  { key: "flush", label: "Flush", meaning: "five cards of the same colour (suit)" },
  { key: "four", label: "Four of a kind", meaning: "all four cards of one value" },
  { key: "straight-flush", label: "Straight flush", meaning: "a straight all in one colour" },
].map((k) => ({ ...k, ids: SETS.filter((s) => s.kind === k.key).map((s) => s.id) }));

export function kindOf(id) {
  return KINDS.find((k) => k.key === SETS[id].kind);
}

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

const card = (value, colour) => ({ value, colour });

/** Cards that make set `id`: what the picker and the rules show beside each bet. */
export function exampleCards(id) {
  const s = SETS[id];
  if (s.required.length) return s.required.map((i) => card(Math.floor(i / 4), i % 4));
  if (s.kind === "flush") return [0, 1, 2, 3, 5].map((v) => card(v, s.colour));
  const out = [];
  s.needs.forEach((n, v) => {
    for (let i = 0; i < n; i++) out.push(card(v, s.kind === "straight" ? (v + 1) % 4 : [3, 2, 1, 0][i]));
  });
  return out;
}

/** Whether set `id` is among `cards` (the pooled hands of a round). */
export function setExists(id, cards) {
  const s = SETS[id];
  const have = new Set(cards.map((c) => c.value * 4 + c.colour));
  if (s.required.length) return s.required.every((i) => have.has(i));
  if (s.kind === "flush") return cards.filter((c) => c.colour === s.colour).length >= 5;
  return s.needs.every((n, v) => cards.filter((c) => c.value === v).length >= n);
}

/** Whether `c` is one of the cards that matter to set `id`: the cards a reveal marks. */
export function cardMatters(id, c) {
  const s = SETS[id];
  if (s.required.length) return s.required.includes(c.value * 4 + c.colour);
  if (s.kind === "flush") return c.colour === s.colour;
  return s.needs[c.value] > 0;
}

const countWord = (n, v) => `${n === 0 ? "no" : n} ${n === 1 ? VALUE_WORDS[v] : PLURALS[v]}`;

/** One sentence: what set `id` needs and what `cards` held of it. */
export function explainSet(id, cards) {
  const s = SETS[id];
  const have = new Set(cards.map((c) => c.value * 4 + c.colour));
  if (s.required.length) {
    const missing = s.required.filter((i) => !have.has(i)).map((i) => VALUES[Math.floor(i / 4)] + SUIT_SYMBOLS[i % 4]);
    return missing.length ? `It needs ${s.required.map((i) => VALUES[Math.floor(i / 4)] + SUIT_SYMBOLS[i % 4]).join(" ")}; missing: ${missing.join(" ")}.`
      : "Every card it needs was on the table.";
  }
  if (s.kind === "flush") {
    const n = cards.filter((c) => c.colour === s.colour).length;
    return `It needs 5 ${COLOURS[s.colour]}; there ${n === 1 ? "was" : "were"} ${n}.`;
  }
  if (s.kind === "straight") {
    const missing = s.needs.map((n, v) => (n && !cards.some((c) => c.value === v) ? VALUES[v] : null)).filter(Boolean);
    return missing.length ? `It needs one card of each value ${STRAIGHT_WORDS[s.name.split(" ")[0]]}; missing: ${missing.join(", ")}.`
      : `One card of each value ${STRAIGHT_WORDS[s.name.split(" ")[0]]} was on the table.`;
  }
  const parts = s.needs.map((n, v) => (n ? { n, v, got: cards.filter((c) => c.value === v).length } : null)).filter(Boolean);
  return `It needs ${parts.map((p) => countWord(p.n, p.v)).join(" and ")}; there ${parts[0].got === 1 ? "was" : "were"} `
    + `${parts.map((p) => countWord(p.got, p.v)).join(" and ")}.`;
}
