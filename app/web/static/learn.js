// Learn to play (a page of its own, or a dialog over the table): the rules (docs/rules.md, served as /app/rules.md) and the sets as cards, in
// their order, each kind with a line saying what it is: the 88 of 24 cards, or the 140 of 32.
import { useEffect, useState } from "./hooks.js";
import { api } from "./api.js";
import { exampleCards, tableFor } from "./bets.js";
import { KindLearnDialog } from "./learnkind.js";
import { parseMarkdown } from "./markdown.js";
import { Cards, html } from "./ui.js";

function Inline({ parts }) {
  return parts.map((p, i) => p.t === "b" ? html`<b key=${i}>${p.v}</b>` : p.t === "i" ? html`<em key=${i}>${p.v}</em>`
    : p.t === "code" ? html`<code key=${i}>${p.v}</code>` : p.v);
}

/** A rules page of Markdown (`src`, one of the client's files), its first heading left out. */
export function Rules({ src = "/app/rules.md" }) {
  const [blocks, setBlocks] = useState(null);
  useEffect(() => {
    fetch(src, { cache: "no-store" }).then((r) => (r.ok ? r.text() : Promise.reject()))
      .then((text) => setBlocks(parseMarkdown(text).filter((b) => !(b.type === "h" && b.level === 1))))
      .catch(() => setBlocks([]));
  }, [src]);
  if (blocks === null) return html`<p>Loading the rules…</p>`;
  return blocks.map((b, i) => {
    if (b.type === "h") return b.level <= 2 ? html`<h2 key=${i} id=${b.id}>${b.text}</h2>` : html`<h3 key=${i} id=${b.id}>${b.text}</h3>`;
    if (b.type === "p") return html`<p key=${i}><${Inline} parts=${b.parts} /></p>`;
    const items = b.items.map((it, j) => html`<li key=${j}><${Inline} parts=${it} /></li>`);
    return b.type === "ul" ? html`<ul key=${i}>${items}</ul>` : html`<ol key=${i}>${items}</ol>`;
  });
}

export function SetsTable({ deck = 24 }) {
  const { sets: SETS, kinds: KINDS } = tableFor(deck);
  return html`<div class="sets">${KINDS.map((k) => html`<section key=${k.key} class="kind" aria-labelledby=${`kind-${k.key}`}>
    <h3 id=${`kind-${k.key}`}>${k.label} <small class="muted">bets ${k.ids[0] + 1} to ${k.ids[k.ids.length - 1] + 1}</small></h3>
    <p class="muted">${k.meaning}.</p>
    <ol class="set-list" start=${k.ids[0] + 1}>${k.ids.map((id) => html`<li key=${id}>
      <span class="set-name">${SETS[id].name}</span>
      <${Cards} cards=${exampleCards(id, deck)} small=${true} deck=${deck} label=${`${SETS[id].name}, for example`} /></li>`)}</ol>
  </section>`)}</div>`;
}

export function Learn({ onClose = null }) {
  const [deck, setDeck] = useState(24);
  const count = tableFor(deck).sets.length;
  return html`<section class="panel learn">
    <div class="row spread"><h1 id="learn-title" tabindex="-1">How to play Blef</h1>
      ${onClose ? html`<button class="primary" id="close-help" onClick=${onClose}>Back to the game</button>` : html`<a class="button" href="#/">To the lobby</a>`}</div>
    <${Rules} />
    <h2 id="all-sets">All ${count} bets, lowest first</h2>
    <p>Each bet must be higher in this list than the one before it. The cards show one way to make each set.</p>
    <fieldset class="deck-choice"><legend>Show the bets of</legend>
      <label class="check"><input type="radio" name="learn-deck" checked=${deck === 24} onChange=${() => setDeck(24)} /> 24 cards, 9 to A (the classic game, 88 bets)</label>
      <label class="check"><input type="radio" name="learn-deck" checked=${deck === 32} onChange=${() => setDeck(32)} /> 32 cards, 7 to A (140 bets)</label>
    </fieldset>
    <${SetsTable} deck=${deck} />
    ${onClose ? html`<p><button class="primary" onClick=${onClose}>Back to the game</button></p>` : null}
  </section>`;
}

/** How to play over the screen in use (the table stays as it is beneath): a modal dialog,
 * closed by Escape or its buttons; `onClose` puts the focus back where it was. */
export function LearnDialog({ onClose }) {
  return html`<${KindLearnDialog} Page=${Learn} onClose=${onClose} />`;
}
