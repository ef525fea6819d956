// How to play Economancy: the rules (docs/economancy_rules.md, served as
// /app/economancy-rules.md) and every card's numbers (econcards.js, held to the engine's).
import { CARDS } from "./econcards.js";
import { KindLearn } from "./learnkind.js";
import { Rules } from "./learn.js";
import { html } from "./ui.js";

export function CardsTable() {
  return html`<div class="table-scroll" tabindex="0" role="region" aria-labelledby="all-cards"><table class="shop-table">
    <caption>Every card (Bubble's attack is 9, or 5 where the table says so)</caption>
    <thead><tr><th scope="col">Card</th><th scope="col">Price</th><th scope="col">Attack / defence</th><th scope="col">Points</th>
      <th scope="col">Income day 1 / 2 / 3</th><th scope="col">In the first 8</th></tr></thead>
    <tbody>${CARDS.map((c) => html`<tr key=${c.name}>
      <th scope="row">${c.name}${c.text ? html`<small class="muted">${c.text}</small>` : null}</th>
      <td data-label="Price">${c.cost ?? "not sold"}</td><td data-label="Attack / defence">${c.attacks || c.defends ? `${c.attack} / ${c.defence}` : "–"}</td><td data-label="Points">${c.points || ""}</td>
      <td data-label="Income day 1 / 2 / 3">${c.name === "Magic Bean Stock" ? "a third of your coins" : c.income.join(" / ")}</td><td data-label="In the first 8">${c.cost === null ? "" : c.simple ? "yes" : "no"}</td></tr>`)}</tbody>
  </table></div>`;
}

export function EconomancyLearn({ onClose = null }) {
  return html`<${KindLearn} title="Economancy" onClose=${onClose}>
    <${Rules} src="/app/economancy-rules.md" />
    <h2 id="all-cards">The cards</h2>
    <${CardsTable} />
  <//>`;
}
