// The rules of an account's name, checked as a person types: the service publishes them
// (GET /ladder/handle-rules, from app/ladder/handle_rules.json) and checks the same rules in
// app/ladder/handle_rules.py; tests/ladder/test_handle_rules.py runs this file under node
// against the Python on random names. Pure (no page), apart from loadHandleRules().
import { api } from "./api.js";

let loading = null;

/** The published rules (fetched once per page; a failed fetch is tried again next time). */
export function loadHandleRules() {
  if (!loading) loading = api("/ladder/handle-rules").then(({ data }) => data).catch((e) => { loading = null; throw e; });
  return loading;
}

const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;
const SPACE = /^\p{Zs}$/u;
const SHOWS = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

function said(rules, rule, words = {}) {
  const values = { min_length: rules.min_length, max_length: rules.max_length, ...words };
  return { rule, text: rules.messages[rule].replace(/\{(\w+)\}/g, (_, k) => String(values[k])) };
}

/** A refused character as a reader can tell it: itself if it shows, else its code. */
export function shownChar(char) {
  if (SHOWS.test(char)) return char;
  return `U+${char.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The parts of a name as reserved words are looked for (see handle_rules.py's parts()). */
export function nameParts(name, rules) {
  const key = name.normalize("NFKC").toLowerCase();
  return key.split("_").map((part) => [...part.replace(/[0-9]+$/, "")].map((c) => rules.digit_looks[c] ?? c).join(""));
}

function computerNames(rules) {
  const names = new Set(rules.levels);
  for (const level of rules.levels) for (const word of rules.computer_words) { names.add(level + word); names.add(word + level); }
  return names;
}

/** The first rule of the form `value` breaks, as {rule, text}, or null: a game's nickname
 * keeps these (engine/names.py: any length from 1 to the most, no reserved words). */
export function nicknameProblem(value, rules) {
  const name = value.normalize("NFC");
  const chars = [...name];
  if (!chars.length) return said(rules, "empty");
  if (chars.length > rules.max_length) return said(rules, "too_long");
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (SPACE.test(c)) return said(rules, "space");
    if (i === 0 && !LETTER.test(c)) return said(rules, "first_letter");
    if (!(c === "_" || LETTER.test(c) || DIGIT.test(c))) return said(rules, "character", { char: shownChar(c) });
  }
  if (name.includes("__")) return said(rules, "double_underscore");
  if (name.endsWith("_")) return said(rules, "underscore_end");
  return null;
}

/** The first published rule `value` breaks, as {rule, text}, or null (the service may still
 * refuse a look-alike of a reserved word, a rude name or a taken one). */
export function handleProblem(value, rules) {
  const form = nicknameProblem(value, rules);
  if (form) return form;
  const name = value.normalize("NFC");
  if ([...name].length < rules.min_length) return said(rules, "too_short");
  if (name.normalize("NFKC").toLowerCase().startsWith(rules.computer_prefix)) return said(rules, "computer");
  const parts = nameParts(name, rules);
  const word = parts.find((p) => rules.reserved_words.includes(p));
  if (word !== undefined) return said(rules, "reserved", { word });
  if (computerNames(rules).has(parts.join(""))) return said(rules, "computer_name", { word: name });
  return null;
}
