// The sets (bets) by action id, for either deck: the 88 of the classic 24 cards (9 to A) and
// the 140 of the 32-card deck (7 to A), built in engine/sets.py's order. Their names (exactly
// the engine's; tests/web/test_js_units.py compares them), what each needs, the kinds a picker
// groups them by, example cards, and whether a set is among some cards, with the jokers a bet
// may count (compared with the engine by the same test). Every function takes the deck size
// last, 24 unless told; deckOf(state) reads it from a state's rules.
const SYMBOLS = {
  24: ["9", "10", "J", "Q", "K", "A"],
  32: ["7", "8", "9", "10", "J", "Q", "K", "A"],
};
const WORDS = {
  24: ["nine", "ten", "jack", "queen", "king", "ace"],
  32: ["seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"],
};
const PLURAL = {
  24: ["nines", "tens", "jacks", "queens", "kings", "aces"],
  32: ["sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces"],
};
export const VALUES = SYMBOLS[24];
export const VALUE_WORDS = WORDS[24];
export const PLURALS = PLURAL[24];
export const COLOURS = ["clubs", "diamonds", "hearts", "spades"];
export const SUIT_SYMBOLS = ["♣", "♦", "♥", "♠"];
export const JOKER = -1;
export const BLANK = -2;

/** The deck size (24 or 32) of a state, a snapshot or a rules object; 24 without rules. */
export function deckOf(x) {
  const rules = x && (x.rules || x);
  return rules && rules.deck_size === 32 ? 32 : 24;
}

/** The straights of a deck: the 24-card deck's small, big and great; the 32-card deck's four
 * of five values in a row. Each {name, words, values}. */
function straightsOf(deck) {
  const sym = SYMBOLS[deck];
  if (deck === 24)
    return [["small", [0, 1, 2, 3, 4]], ["big", [1, 2, 3, 4, 5]], ["great", [0, 1, 2, 3, 4, 5]]].map(([size, values]) => (
      { name: `${size} straight`, flushName: `${size} straight flush`, label: size, words: `${sym[values[0]]} to ${sym[values[values.length - 1]]}`, values }));
  return [0, 1, 2, 3].map((i) => {
    const values = [i, i + 1, i + 2, i + 3, i + 4];
    const span = `${sym[i]}-${sym[i + 4]}`;
    return { name: `straight ${span}`, flushName: `straight flush ${span}`, label: span, words: `${sym[i]} to ${sym[i + 4]}`, values };
  });
}

function build(deck) {
  const n = deck / 4;
  const sym = SYMBOLS[deck];
  const plural = PLURAL[deck];
  const need = (pairs) => {
    const needs = new Array(n).fill(0);
    for (const [v, k] of pairs) needs[v] = k;
    return needs;
  };
  const sets = [];
  const add = (kind, name, rank, needs, extra = {}) =>
    sets.push({ id: sets.length, kind, name, rank, needs, colour: null, required: [], straight: null, ...extra });
  for (let v = 0; v < n; v++) add("high", `high card ${sym[v]}`, sym[v], need([[v, 1]]));
  for (let v = 0; v < n; v++) add("pair", `pair of ${plural[v]}`, plural[v], need([[v, 2]]));
  for (let x = 1; x < n; x++)
    for (let y = 0; y < x; y++)
      add("two-pair", `two pair, ${plural[x]} and ${plural[y]}`, `${plural[x]} and ${plural[y]}`, need([[x, 2], [y, 2]]));
  const straights = straightsOf(deck);
  for (const st of straights)
    add("straight", st.name, `${st.label} (${st.words})`, need(st.values.map((v) => [v, 1])), { straight: st });
  for (let v = 0; v < n; v++) add("three", `three ${plural[v]}`, plural[v], need([[v, 3]]));
  for (let x = 0; x < n; x++)
    for (let y = 0; y < n; y++)
      if (x !== y) add("full-house", `full house, ${plural[x]} over ${plural[y]}`, `${plural[x]} over ${plural[y]}`, need([[x, 3], [y, 2]]));
  for (let c = 0; c < 4; c++)
    add("flush", `flush of ${COLOURS[c]}`, `${COLOURS[c]} ${SUIT_SYMBOLS[c]}`, need([]), { colour: c });
  for (let v = 0; v < n; v++)
    add("four", `four ${plural[v]}`, plural[v], need([[v, 4]]), { required: [0, 1, 2, 3].map((c) => v * 4 + c) });
  for (const st of straights)
    for (let c = 0; c < 4; c++)
      add("straight-flush", `${st.flushName} of ${COLOURS[c]}`, `${st.label} (${st.words}), ${COLOURS[c]} ${SUIT_SYMBOLS[c]}`,
        need(st.values.map((v) => [v, 1])), { colour: c, required: st.values.map((v) => v * 4 + c), straight: st });
  const straightWords = straights.map((st) => st.words).join(", ");
  const kinds = [
    { key: "high", label: "High card", meaning: "at least one card of that value" },
    { key: "pair", label: "Pair", meaning: "two cards of the same value" },
    { key: "two-pair", label: "Two pair", meaning: "two cards of one value and two of another" },
    { key: "straight", label: "Straight", meaning: deck === 24
      ? "one card of each value in a row: 9 to K, 10 to A, or all six 9 to A"
      : `one card of each of five values in a row: ${straightWords}` },
    { key: "three", label: "Three of a kind", meaning: "three cards of the same value" },
    { key: "full-house", label: "Full house", meaning: "three cards of one value and two of another" },
    { key: "flush", label: "Flush", meaning: "five cards of the same colour (suit)" },
    { key: "four", label: "Four of a kind", meaning: "all four cards of one value" },
    { key: "straight-flush", label: "Straight flush", meaning: "a straight all in one colour" },
  ].map((k) => ({ ...k, ids: sets.filter((s) => s.kind === k.key).map((s) => s.id) }));
  return { deck, sets, kinds, check: sets.length, lost: sets.length + 1, values: sym, words: WORDS[deck], plurals: plural };
}

const TABLES = { 24: build(24), 32: build(32) };

/** The table of a deck: {deck, sets, kinds, check, lost, values, words, plurals}. */
export function tableFor(deck = 24) {
  return TABLES[deck === 32 ? 32 : 24];
}

export const SETS = TABLES[24].sets;
/** The kinds of set in rising order, as a picker offers them, each with a line saying what it is. */
export const KINDS = TABLES[24].kinds;
export const CHECK = TABLES[24].check;
export const LOST = TABLES[24].lost;

/** The check's action id of a state (or its rules): 88 for 24 cards, 140 for 32. */
export function checkOf(x) {
  return tableFor(deckOf(x)).check;
}

/** The lost-round event's id of a state (or its rules): 89 or 141. */
export function lostOf(x) {
  return tableFor(deckOf(x)).lost;
}

export function kindOf(id, deck = 24) {
  const t = tableFor(deck);
  return t.kinds.find((k) => k.key === t.sets[id].kind);
}

/** The words for an action id: a bet's set, "check", or the end-of-round event. */
export function actionName(id, deck = 24) {
  const t = tableFor(deck);
  if (id === t.check) return "check";
  if (id === t.lost) return "lost the round";
  return t.sets[id] ? t.sets[id].name : `action ${id}`;
}

export const isJoker = (c) => c.value === JOKER;
export const isBlank = (c) => c.value === BLANK;
const isDeckCard = (c) => c.value >= 0;

/** A card in words, e.g. "queen of hearts", "joker", "blank". */
export function cardName(card, deck = 24) {
  if (isJoker(card)) return "joker";
  if (isBlank(card)) return "blank";
  return `${tableFor(deck).words[card.value]} of ${COLOURS[card.colour]}`;
}

/** The symbol of a card's value ("7", "Q"), or "" for a joker or a blank. */
export function valueSymbol(card, deck = 24) {
  return isDeckCard(card) ? tableFor(deck).values[card.value] : "";
}

const card = (value, colour) => ({ value, colour });

/** Cards that make set `id`: what the picker and the rules show beside each bet. */
export function exampleCards(id, deck = 24) {
  const s = tableFor(deck).sets[id];
  if (s.required.length) return s.required.map((i) => card(Math.floor(i / 4), i % 4));
  if (s.kind === "flush") return [0, 1, 2, 3, 5].map((v) => card(v, s.colour));
  const out = [];
  s.needs.forEach((n, v) => {
    for (let i = 0; i < n; i++) out.push(card(v, s.kind === "straight" ? (v + 1) % 4 : [3, 2, 1, 0][i]));
  });
  return out;
}

/** How many cards set `id` lacks among `cards` (jokers and blanks are not counted here). */
export function missingFor(id, cards, deck = 24) {
  const s = tableFor(deck).sets[id];
  const real = cards.filter(isDeckCard);
  const have = new Set(real.map((c) => c.value * 4 + c.colour));
  if (s.required.length) return s.required.filter((i) => !have.has(i)).length;
  if (s.kind === "flush") return Math.max(0, 5 - [...have].filter((i) => i % 4 === s.colour).length);
  return s.needs.reduce((sum, n, v) => sum + Math.max(0, n - [...have].filter((i) => Math.floor(i / 4) === v).length), 0);
}

/** Whether set `id` is among `cards` (the pooled hands and common cards of a round), when
 * `wild` jokers may each stand for one card it lacks (the engine's exists_with). */
export function setExists(id, cards, deck = 24, wild = 0) {
  return missingFor(id, cards, deck) <= wild;
}

/** Whether `c` is one of the cards that matter to set `id`: the cards a reveal marks. */
export function cardMatters(id, c, deck = 24) {
  if (!isDeckCard(c)) return false;
  const s = tableFor(deck).sets[id];
  if (s.required.length) return s.required.includes(c.value * 4 + c.colour);
  if (s.kind === "flush") return c.colour === s.colour;
  return s.needs[c.value] > 0;
}

/** One sentence: what set `id` needs and what `cards` held of it (jokers told apart). */
export function explainSet(id, cards, deck = 24) {
  const t = tableFor(deck);
  const s = t.sets[id];
  const countWord = (n, v) => `${n === 0 ? "no" : n} ${n === 1 ? t.words[v] : t.plurals[v]}`;
  const short = (i) => t.values[Math.floor(i / 4)] + SUIT_SYMBOLS[i % 4];
  cards = cards.filter(isDeckCard);
  const have = new Set(cards.map((c) => c.value * 4 + c.colour));
  if (s.required.length) {
    const missing = s.required.filter((i) => !have.has(i)).map(short);
    return missing.length ? `It needs ${s.required.map(short).join(" ")}; missing: ${missing.join(" ")}.`
      : "Every card it needs was on the table.";
  }
  if (s.kind === "flush") {
    const n = cards.filter((c) => c.colour === s.colour).length;
    return `It needs 5 ${COLOURS[s.colour]}; there ${n === 1 ? "was" : "were"} ${n}.`;
  }
  if (s.kind === "straight") {
    const missing = s.needs.map((n, v) => (n && !cards.some((c) => c.value === v) ? t.values[v] : null)).filter(Boolean);
    return missing.length ? `It needs one card of each value ${s.straight.words}; missing: ${missing.join(", ")}.`
      : `One card of each value ${s.straight.words} was on the table.`;
  }
  const parts = s.needs.map((n, v) => (n ? { n, v, got: cards.filter((c) => c.value === v).length } : null)).filter(Boolean);
  return `It needs ${parts.map((p) => countWord(p.n, p.v)).join(" and ")}; there ${parts[0].got === 1 ? "was" : "were"} `
    + `${parts.map((p) => countWord(p.got, p.v)).join(" and ")}.`;
}
