// Economancy's own part of the table (games.js): the day and phase, what is asked of whom and
// who has chosen (never what), every wizard's coins, points and army in order, the shop with
// its prices and counts, the last fight drawn card against card with the reason each card
// fainted or held, what happened lately, and the move controls of your turn (invest, attack,
// defend, buy). The shared shell of the contract's tables (kindview.js) renders it.
import { useEffect, useReducer, useState } from "./hooks.js";
import {
  attackers, attackOf, cardOf, chosenSeats, defenders, eventWords, lostBetween, PASS, pointsOf, questionFor, reasonWords,
  rulesWords, shopOffers, stepOf,
} from "./econcards.js";
import { nicknameOf } from "./kindstore.js";
import { html } from "./ui.js";
import { FightView, LEVELS, levelOf, Shop, Wizard } from "./econarmy.js";
import { economancyReplay, outcome } from "./econreplay.js";
import { ordinal, placesOf } from "./kindview.js";

const STEP_WORDS = {
  investing: "Investing: everyone secretly chooses how many coins to invest. The single highest investor attacks.",
  attacking: "Attacking: the attacker picks a card to attack with, or stops.",
  defending: "Defending: everyone else secretly picks a card to defend with.",
  buy: "Buying: everyone with a buy left secretly names a card to buy, or passes.",
  end: "The game is over.",
};

const names = (st) => (st.seats || []).map((p) => p.nickname);

/** The newest fight the page has seen in this game's events, or null. */
export function lastFight(journal) {
  for (let i = journal.length - 1; i >= 0; i--) if (journal[i].event.kind === "fight") return journal[i].event;
  return null;
}

function Journal({ s, st }) {
  const lines = s.journal.map((j) => eventWords(j.event, names(st), st.rules)).filter(Boolean).reverse();
  return html`<section class="panel" aria-labelledby="journal-title">
    <h2 id="journal-title">What happened, newest first</h2>
    ${lines.length ? html`<ol class="history" reversed>${lines.slice(0, 12).map((l, i) => html`<li key=${lines.length - i} class=${i === 0 ? "newest" : ""}>${l}</li>`)}</ol>`
      : html`<p class="muted">Nothing yet since you opened the table.</p>`}
  </section>`;
}

/** The seconds left until the turn's deadline (the contract's `turn.deadline`, Unix seconds,
 * read against this device's clock), ticking by itself: only this patch redraws. */
function TimeLeft({ deadline, prefix = "" }) {
  const [, tick] = useReducer((n) => n + 1, 0);
  useEffect(() => {
    const t = setInterval(tick, 500);
    return () => clearInterval(t);
  }, []);
  const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
  return html`<span class=${`countdown ${left <= 5 ? "critical" : left <= 10 ? "low" : "calm"}`}>${prefix}${left} s left</span>`;
}

/** The newest thing that happened, in words (the journal's newest line), or null. */
function newestWords(s, st) {
  for (let i = s.journal.length - 1; i >= 0; i--) {
    const words = eventWords(s.journal[i].event, names(st), st.rules);
    if (words) return words;
  }
  return null;
}

function TurnLine({ st, s, myTurn }) {
  const view = st.view;
  const step = stepOf(view);
  const toChoose = (st.turn && st.turn.seats) || [];
  let text;
  if (st.status === "Finished" || step === "end") {
    const r = st.result;
    text = r ? `Game over (${reasonWords(r.reason)}).` : "Game over.";
  } else if (myTurn) {
    text = { invest: "Your turn: choose how many coins to invest.", attack: "Your turn: attack with a card, or stop.",
      defend: "Your turn: choose a card to defend with.", buy: "Your turn: buy a card, or pass." }[questionFor(view, st.you, toChoose)] || "Your turn.";
  } else if (toChoose.length) {
    text = `Waiting for ${toChoose.map((seat) => nicknameOf(st, seat)).join(", ")}.`;
  } else text = "";
  const newest = newestWords(s, st);
  return html`<div class="panel econ-phase">
    <p class="day"><b>Day ${view.day}</b> <span class="muted">(days go 1, 2, 3, 1, 2, 3…)</span></p>
    ${newest ? html`<p class="econ-newest" id="econ-newest"><b>Latest:</b> ${newest}</p>` : null}
    <p class="phase">${STEP_WORDS[step] || ""}</p>
    <p id="turn-line" class=${`turn-line${myTurn ? " mine" : ""}`} tabindex="-1">${text}
      ${st.turn && st.turn.deadline && toChoose.length ? html` <${TimeLeft} deadline=${st.turn.deadline} />` : null}</p>
  </div>`;
}

/** The game in play, as Economancy shows it. */
function Board({ st, s, myTurn, ratings }) {
  const view = st.view;
  if (!view) return null;
  const toChoose = (st.turn && st.turn.seats) || [];
  const chosen = new Set(chosenSeats(view, toChoose));
  const asked = new Set(toChoose);
  const fight = lastFight(s.journal);
  return html`<${TurnLine} st=${st} s=${s} myTurn=${myTurn} />
    <section class="panel" aria-labelledby="wizards-title">
      <h2 id="wizards-title">The wizards</h2>
      <ul class="wizards">${view.players.map((p, seat) => html`<${Wizard} key=${seat} st=${st} seat=${seat} p=${p} me=${st.you}
        chosen=${chosen.has(seat)} asked=${asked.has(seat)} ratings=${ratings} />`)}</ul>
    </section>
    ${fight ? html`<${FightView} ev=${fight} st=${st} />` : null}
    <${Shop} st=${st} />
    <${Journal} s=${s} st=${st} />`;
}

function InvestForm({ coins, canAttack, busy, onInvest }) {
  const [amount, setAmount] = useState("0");
  const n = Number(amount);
  const ok = Number.isInteger(n) && n >= 0 && n <= coins;
  return html`<form class="econ-form" onSubmit=${(e) => { e.preventDefault(); if (ok && !busy) onInvest(n); }}>
    <div class="row">
      <label class="field-inline" for="invest-amount">Coins to invest (0 to ${coins})</label>
      <input id="invest-amount" type="number" min="0" max=${coins} step="1" inputmode="numeric" value=${amount}
        aria-invalid=${ok ? "false" : "true"} aria-describedby="invest-help" onInput=${(e) => setAmount(e.currentTarget.value)} />
      <button id="invest-button" type="submit" class="primary" disabled=${busy || !ok}>Invest ${ok ? n : ""}</button>
    </div>
    <p id="invest-help" class="muted small">${ok ? "The single highest investor attacks; a tie for the most means nobody attacks. Everyone pays what they invest." : `Choose a whole number from 0 to ${coins}.`}</p>
    ${canAttack ? null : html`<p id="invest-no-attacker" class="tip">No card of yours can attack today. Investing still counts: if nobody invests more than you, nobody attacks today.</p>`}
  </form>`;
}

/** The move controls of your turn. */
function Moves({ st, s, actions }) {
  const view = st.view;
  const me = view.players[st.you];
  const q = questionFor(view, st.you, (st.turn && st.turn.seats) || []);
  const busy = s.busy;
  let body = null;
  if (q === "invest") body = html`<${InvestForm} key=${`invest-${view.day}`} coins=${me.coins} canAttack=${attackers(me.cards).length > 0} busy=${busy} onInvest=${actions.invest} />`;
  else if (q === "attack") {
    const can = attackers(me.cards); // never 0, the Stipend: [0] stops
    body = html`<div class="moves">
      ${can.map((i) => html`<button key=${i} id=${`attack-${i}`} class="primary" disabled=${busy} onClick=${() => actions.attack(i)}>
        Attack with ${me.cards[i].name} (card ${i}: attack ${attackOf(me.cards[i].name, st.rules)}, defence ${cardOf(me.cards[i].name).defence})</button>`)}
      <button id="stop-button" disabled=${busy} onClick=${() => actions.attack(0)}>Stop attacking</button></div>`;
  } else if (q === "defend") {
    const a = view.phase;
    const att = view.players[a.attacker].cards[a.attacker_card];
    const hitter = { name: att.name, attack: attackOf(att.name, st.rules), defence: cardOf(att.name).defence };
    body = html`<p>${nicknameOf(st, a.attacker)} attacks with <b>${att.name}</b>: attack ${hitter.attack}, defence ${hitter.defence}.</p>
      <div class="moves">${defenders(me.cards).map((i) => {
        const c = { name: me.cards[i].name, attack: attackOf(me.cards[i].name, st.rules), defence: cardOf(me.cards[i].name).defence };
        const fate = `${hitter.attack > c.defence ? "it faints" : "it holds"}; ${c.attack > hitter.defence ? `${att.name} faints` : `${att.name} holds`}`;
        return html`<button key=${i} id=${`defend-${i}`} class="primary" disabled=${busy} onClick=${() => actions.defend(i)}>
          Defend with ${c.name} (card ${i}: attack ${c.attack}, defence ${c.defence}) · ${fate}</button>`;
      })}</div>`;
  } else if (q === "buy") {
    const offers = shopOffers(view.shop, me.coins).filter((o) => o.affordable);
    const unguarded = !me.cards.some((c) => cardOf(c.name).defends > 0);
    body = html`${unguarded ? html`<p class="warning" id="no-defender"><b>Your army has no card able to defend:</b> if another wizard attacks, you are out of the game. Every card in the shop can defend.</p>` : null}
      <p class="muted small">You have ${me.coins} coin${me.coins === 1 ? "" : "s"} and ${me.buys} buy${me.buys === 1 ? "" : "s"}. If more players name a card than there are copies left, nobody gets it and they still pay.</p>
      <div class="moves">${offers.map((o) => html`<button key=${o.name} id=${`buy-${o.name.toLowerCase().replace(/[^a-z]+/g, "-")}`} disabled=${busy}
        onClick=${() => actions.buy(o.name)}>Buy ${o.name} for ${o.cost}</button>`)}
        <button id="pass-button" disabled=${busy} onClick=${() => actions.buy(PASS)}>Pass</button></div>`;
  }
  return html`<section class="dock econ-dock" aria-labelledby="dock-title">
    <div class="dock-inner">
      <div class="dock-head"><h2 id="dock-title" tabindex="-1">Your turn: ${{ invest: "invest", attack: "attack", defend: "defend", buy: "buy" }[q] || "wait"}</h2>
        ${st.turn && st.turn.deadline ? html`<${TimeLeft} deadline=${st.turn.deadline} />` : null}
        <span class="mine-small">${me.coins} coin${me.coins === 1 ? "" : "s"} · ${pointsOf(me.cards)} points</span></div>
      ${body}
      <p class="keys muted small"><span class="shortcut">Keys: ${q === "buy" ? html`<kbd>P</kbd> pass` : q === "attack" ? html`<kbd>S</kbd> stop attacking` : "Tab to a choice, Enter to make it"}</span></p>
    </div>
  </section>`;
}

function Summary({ st, lobby }) {
  if (lobby || !st.view) return null;
  const alive = st.view.players.filter((p) => p.cards.length).length;
  return html` ${alive} of ${st.view.players.length} wizards still in the game. <a href="#/learn/economancy">The rules</a>.`;
}

function RulesLine({ st }) {
  return html`<p class="small rules-words" id="rules-line">${rulesWords(st.rules)}</p>`;
}

function RoomHelp() {
  return html`<p class="muted small">Economancy is played by 2 to 4 wizards. Invite computer players or share the link, then start. <a href="#/learn/economancy">The rules</a>.</p>`;
}

const none = () => null;

function turnWords(st) {
  const q = questionFor(st.view, st.you, (st.turn && st.turn.seats) || []);
  return { invest: "Your turn: invest coins.", attack: "Your turn: attack or stop.", defend: "Your turn: choose a defender.", buy: "Your turn: buy a card or pass." }[q] || "Your turn.";
}

/** Before the store takes a newer body: cards that fainted in a fight this page never saw
 * (it came and went between two reads) are noted in the journal, so no card vanishes
 * unexplained. */
export function taking({ s, prev, state: next }) {
  const told = [];
  if (prev && prev.view && next.view && !(next.events || []).some((e) => e.kind === "fight")) {
    const { lost, out } = lostBetween(prev.view, next.view);
    if (lost.length || out.length) {
      const event = { kind: "unseen_fight", lost, out };
      s.journal = [...s.journal, { version: next.version, event }];
      told.push(event);
    }
  }
  // Said to screen readers: what was revealed (a "chose" is shown beside the player instead),
  // from the second state on (the first is the page opening, not news).
  if (!prev) return;
  told.push(...(next.events || []).filter((e) => e.kind !== "chose"));
  s.news = told.map((e) => eventWords(e, names(next), next.rules)).filter(Boolean).join(" ");
}

function moves({ act }) {
  const after = () => { if (!document.getElementById("reveal")) document.getElementById("turn-line")?.focus(); };
  return {
    async invest(n) { if (await act([n], `You invested ${n}.`)) after(); },
    async attack(i) { if (await act([i], i === 0 ? "You stopped attacking." : `You attack with card ${i}.`)) after(); },
    async defend(i) { if (await act([i], `You defend with card ${i}.`)) after(); },
    async buy(name) { if (await act([name], name === PASS ? "You passed." : `You named ${name}.`)) after(); },
  };
}

/** The end of the game inside the shared reveal frame (reveal.js), shown once to whoever
 * watched it end: who won and why, the places with each army's points, and the fight that
 * ended it if one did. `snap` is the finished table's body. */
function Round({ snap, headingId }) {
  const places = placesOf(snap);
  const first = places.filter((p) => p.place === 1);
  const me = Number.isInteger(snap.you) ? snap.you : null;
  const headline = !first.length ? ""
    : first.length > 1 ? `a draw between ${first.map((p) => p.nickname).join(" and ")}`
    : first[0].seat === me ? "you win" : `${first[0].nickname} wins`;
  const fight = (snap.events || []).find((e) => e.kind === "fight");
  return html`<h2 id=${headingId} tabindex="-1">Game over${headline ? `: ${headline}` : ""}</h2>
    <p>${outcome(snap)}</p>
    <ol class="places" aria-labelledby=${headingId}>${places.map((p) => html`<li key=${p.seat}>
      <b>${ordinal(p.place)}</b> ${p.nickname}${p.seat === me ? " (you)" : ""}${p.score !== null && p.score !== undefined ? ` · ${p.score} point${p.score === 1 ? "" : "s"}` : ""}</li>`)}</ol>
    ${fight && snap.view ? html`<${FightView} ev=${fight} st=${snap} title="The fight that ended it" titleId=${`${headingId}-fight`} />` : null}`;
}

/** Economancy, as the registry (games.js) knows it: its board and move controls, the end of
 * a game in the shared reveal frame (`Round`), and its parts of the shared replay frame
 * (econreplay.js, which draws each step with Wizard, Shop and FightView). */
export { LEVELS };

export const economancy = Object.freeze({
  // the ladder's queue: what a rated table of a pool plays (app/ladder/queue.py makes it)
  ratedTerms: (pool) => `All 13 shop cards; ${pool.time_limit || 60} s for each choice, or your safest choice is made for you.`,
  kind: "economancy",
  name: "Economancy",
  scoreUnit: ["point", "points"], // the points of each army
  Board,
  Moves,
  Summary,
  RulesLine,
  PlayerChoice: none,
  RoomHelp,
  HostRules: none, // the rules are chosen as the table is made (the lobby), not changed after
  HostLimits: none,
  roomFacts: (st) => rulesWords(st.rules),
  Round, // the end of the game, in the reveal frame
  replay: economancyReplay, // its parts of the replay frame (econreplay.js)
  levels: LEVELS,
  levelOf,
  keys: { p: "pass-button", s: "stop-button" },
  endsRound: () => false,
  turnWords,
  state: () => ({}),
  taking,
  onMyTurn: async () => {},
  prefChanged: () => {},
  moves,
});
