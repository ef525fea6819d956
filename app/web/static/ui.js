// What every screen shares: htm bound to Preact, cards, the spoken announcer and the toast.
import { h } from "./preact.js";
import htm from "./htm.js";
import { cardName, isBlank, isJoker, SUIT_SYMBOLS, valueSymbol } from "./bets.js";
import { words } from "./errors.js";

export const html = htm.bind(h);

/** One card of a `deck` of 24 or 32 (its values differ), a joker or a blank; `marked` rings
 * it (a card that mattered to the checked bet). */
export function Card({ card, marked = false, small = false, deck = 24 }) {
  const label = cardName(card, deck) + (marked ? " (counts for the bet)" : "");
  const ring = `${marked ? " marked" : ""}${small ? " small" : ""}`;
  if (isJoker(card) || isBlank(card)) {
    const joker = isJoker(card);
    return html`<span class=${`card ${joker ? "joker" : "blank"}${ring}`} role="img" aria-label=${label}>
      <span class="v" aria-hidden="true">${joker ? "★" : "∅"}</span><span class="w" aria-hidden="true">${joker ? "joker" : "blank"}</span></span>`;
  }
  const red = card.colour === 1 || card.colour === 2;
  return html`<span class=${`card ${red ? "red" : "black"}${ring}`}
    role="img" aria-label=${label}><span class="v" aria-hidden="true">${valueSymbol(card, deck)}</span><span class="s" aria-hidden="true">${SUIT_SYMBOLS[card.colour]}</span></span>`;
}

/** Cards in a labelled group; `marks(card, index)` says which to ring. */
export function Cards({ cards, label, small = false, marks = null, deck = 24 }) {
  return html`<span class="cards" role="group" aria-label=${label}>
    ${cards.map((c, i) => html`<${Card} key=${i} card=${c} small=${small} deck=${deck} marked=${marks ? marks(c, i) : false} />`)}</span>`;
}

/** Said to screen readers (a polite live region outside the app's tree). */
export function announce(text) {
  const el = document.getElementById("announcer");
  if (!el) return;
  el.textContent = "";
  setTimeout(() => { el.textContent = text; }, 30);
}

let toastTimer = null;
let followsScroll = false;

/** Keeps the message below the header while the header is in view, so it never lies over
 * the header's buttons (it was shown at the top of the screen while scrolled down). */
function placeToast() {
  const el = document.getElementById("toast");
  if (!el || !el.textContent) return;
  const header = document.querySelector("header.top");
  el.style.top = `${Math.max(8, header ? header.getBoundingClientRect().bottom + 4 : 8)}px`;
}

/** A short message at the top of the screen that clears itself. */
export function toast(text, isError = false) {
  const el = document.getElementById("toast");
  if (!el) return;
  clearTimeout(toastTimer);
  el.textContent = text;
  el.className = isError ? "error" : "";
  placeToast();
  if (!followsScroll) { followsScroll = true; addEventListener("scroll", placeToast, { passive: true }); }
  toastTimer = setTimeout(() => { el.textContent = ""; el.className = ""; }, isError ? 9000 : 4000);
}

/** Show a refusal in words (the service's own text goes to the console). */
export function fail(error) {
  const text = words(error);
  toast(text, true);
  announce(text);
}

/** A word with its indefinite article, for a level's name in a sentence: "An Attacker",
 * "A Beginner" (by the first letter: every level's name is an English word). */
export const withArticle = (word) => `${/^[aeiou]/i.test(word) ? "An" : "A"} ${word}`;
