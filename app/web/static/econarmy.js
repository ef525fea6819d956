// Economancy's wizards and cards as every screen of the game draws them (the table,
// economancy.js; the replay, econreplay.js; the reveal at the end): the computer players'
// levels, a wizard with its coins, points and army in order, the shop, and a fight drawn card
// against card with the reason each card fainted or held.
import { attackOf, cardOf, clash, explainFight, POINTS_TO_WIN, pointsOf, shopOffers, usedUp } from "./econcards.js";
import { nicknameOf } from "./kindstore.js";
import { html } from "./ui.js";

/** The computer players (engine/economancy/agents; docs/economancy_strength.md). */
export const LEVELS = [
  { agent: "random", label: "Beginner", words: "Chooses at random among its legal moves." },
  { agent: "greedy_points", label: "Point buyer", words: "Buys the most points it can afford and never invests." },
  { agent: "greedy_attack", label: "Attacker", words: "Buys fighters and invests to attack." },
  { agent: "planner", label: "Hard", words: "Our strongest: plans over the hidden choices (it wins nearly every game against the others, docs/economancy_strength.md)." },
];

export function levelOf(agent) {
  if (!agent) return null;
  const name = agent === "ours" ? "planner" : agent;
  return LEVELS.find((l) => l.agent === name) || { agent, label: agent, words: "" };
}
function CardNumbers({ name, rules }) {
  const k = cardOf(name);
  const parts = [];
  if (k.attacks || k.defends || name === "Bubble") parts.push(`attack ${attackOf(name, rules)}`, `defence ${k.defence}`);
  if (k.points) parts.push(`${k.points} point${k.points === 1 ? "" : "s"}`);
  return html`<span class="numbers">${parts.join(" · ") || "no fighting"}</span>`;
}

/** One card of an army: its numbers, and whether it attacked or defended today. */
function ArmyCard({ card, index, rules, attacking }) {
  const k = cardOf(card.name);
  const used = card.uses > 0;
  const usage = !used ? "" : usedUp(card) ? "used today" : k.defends > 1 ? `defended ${card.uses} of ${k.defends} times` : "used today";
  return html`<li class=${`econ-card${used ? " used" : ""}${attacking ? " attacking" : ""}`}>
    <span class="pos" aria-hidden="true">${index}</span>
    <span class="name">${card.name}</span>
    <${CardNumbers} name=${card.name} rules=${rules} />
    ${usage ? html`<span class="usage">${usage}</span>` : null}
    ${attacking ? html`<span class="usage attacking-mark">attacking now</span>` : null}
  </li>`;
}

export function Wizard({ st, seat, p, me, chosen, asked, ratings = null }) {
  const view = st.view;
  const info = st.seats[seat] || { nickname: `Seat ${seat + 1}` };
  const level = levelOf(info.ai);
  const out = p.cards.length === 0;
  const phase = view.phase;
  const attackingIndex = phase.name === "attacking" && phase.attacker === seat && phase.attacker_card !== false ? phase.attacker_card : -1;
  const status = out ? "out of the game" : chosen ? "has chosen" : asked ? "choosing…" : "";
  const points = pointsOf(p.cards);
  return html`<li class=${`wizard${seat === me ? " me" : ""}${out ? " out" : ""}${asked ? " turn" : ""}`} aria-labelledby=${`wizard-${seat}`}>
    <h3 id=${`wizard-${seat}`}>${info.nickname}${seat === me ? " (you)" : ""}
      ${phase.name === "attacking" && phase.attacker === seat ? html` <span class="badge">attacker</span>` : null}</h3>
    ${ratings ? html`<${ratings.Rating} seat=${ratings.of(info)} />` : null}
    ${level ? html`<span class="level">${level.label} computer</span>` : null}
    <p class="facts"><span>${p.coins} coin${p.coins === 1 ? "" : "s"}</span> · <span>${points} of ${POINTS_TO_WIN} points</span> · <span>${p.buys} buy${p.buys === 1 ? "" : "s"}</span></p>
    ${status ? html`<p class=${`status${chosen ? " chosen" : ""}`}>${status}</p>` : null}
    ${out ? null : html`<ol class="army" start="0" aria-label=${`${info.nickname}'s army, in order`}>
      ${p.cards.map((c, i) => html`<${ArmyCard} key=${`${i}-${c.name}`} card=${c} index=${i} rules=${st.rules} attacking=${i === attackingIndex} />`)}</ol>`}
  </li>`;
}

export function Shop({ st }) {
  const offers = shopOffers(st.view.shop, 0);
  return html`<section class="panel shop" aria-labelledby="shop-title">
    <h2 id="shop-title">The shop</h2>
    <div class="table-scroll" tabindex="0" role="region" aria-label="Cards for sale: prices, copies left, numbers"><table class="shop-table">
      <thead><tr><th scope="col">Card</th><th scope="col">Price</th><th scope="col">Left</th><th scope="col">Attack / defence</th><th scope="col">Points</th><th scope="col">Income day 1 / 2 / 3</th></tr></thead>
      <tbody>${offers.map((o) => {
        const k = cardOf(o.name);
        return html`<tr key=${o.name} class=${o.left ? "" : "sold-out"}>
          <th scope="row">${o.name}${k.text ? html`<small class="muted">${k.text}</small>` : null}</th>
          <td data-label="Price">${o.cost}</td><td data-label="Left">${o.left || "none"}</td>
          <td data-label="Attack / defence">${k.attacks ? attackOf(o.name, st.rules) : `(${attackOf(o.name, st.rules)})`} / ${k.defence}</td>
          <td data-label="Points">${k.points || ""}</td><td data-label="Income day 1 / 2 / 3">${o.name === "Magic Bean Stock" ? "a third of your coins" : k.income.join(" / ")}</td></tr>`;
      })}</tbody></table></div>
  </section>`;
}

/** A fight, drawn: the attacking card faces each defending card, with each side's numbers
 * and the reason each card fainted or held, in words (the same words for screen readers). */
export function FightView({ ev, st, title = "The last fight", titleId = "fight-title" }) {
  const f = explainFight(ev, st.rules);
  const who = (seat) => nicknameOf(st, seat) || `Seat ${seat + 1}`;
  const side = (c, seat) => html`<div class=${`fighter${c.fainted ? " fainted" : ""}`}>
    <span class="owner">${who(seat)}</span><span class="name">${c.name}</span>
    <span class="numbers">attack ${c.attack} · defence ${c.defence}</span>
    <span class="verdict">${c.fainted ? "fainted" : "held"}</span></div>`;
  return html`<section class="panel fight" aria-labelledby=${titleId}>
    <h2 id=${titleId}>${title}</h2>
    ${f.defenders.length ? html`<ul class="clashes">${f.defenders.map((d) => html`<li key=${d.seat} class="clash">
      <div class="pair">${side(f.attacker, f.attacker.seat)}<span class="vs" aria-hidden="true">vs</span>${side(d, d.seat)}</div>
      <p class="why">${clash(f.attacker, d)} ${clash(d, f.attacker)}</p></li>`)}</ul>`
      : html`<p>Nobody could defend against ${who(f.attacker.seat)}'s ${f.attacker.name}.</p>`}
    ${f.eliminated.length ? html`<p class="why"><b>Out of the game:</b> ${f.eliminated.map(who).join(", ")} (no card able to defend).</p>` : null}
  </section>`;
}
