// The reactions at a table, shared by every game's table screen (Blef's tableview.js and the
// other games' kindview.js): a seated player's bar of reactions and the last ones sent, which
// the service keeps in the table's state (`reactions`, oldest first, hidden names as aliases).
import { html } from "./ui.js";
import { REACTIONS, reactionLines } from "./table.js";

/** The reactions bar (for a seat; `actions.react(r)` sends one) and the recent reactions. */
export function Reactions({ st, seated, actions }) {
  const lines = reactionLines(st.reactions);
  return html`<section class="panel reactions" aria-label="Reactions">
    <h2 class="sr-only">Reactions</h2>
    ${seated ? html`<div class="row bar">${REACTIONS.map((r, i) => html`<button key=${i} id=${`react-${i}`} class="small" aria-label=${`React ${r}`} onClick=${() => actions.react(r)}>${r}</button>`)}</div>` : null}
    <ul class="recent" aria-label="Recent reactions">${lines.length ? lines.map((l, i) => html`<li key=${i}>${l}</li>`) : html`<li class="muted">No reactions yet.</li>`}</ul>
  </section>`;
}
