// The replay of a finished Economancy game (#/economancy/<uuid>/replay): the service's record
// of it (GET /economancy/games/<uuid>/record: the start, then one step per revealed choice,
// each with its events and the spectator's view after it) stepped through day by day and
// step by step: the first, previous, next and last step, the previous and next day, a slider,
// and the keys ← → Home End PageUp PageDown. Each step is drawn by the table's own parts
// (economancy.js: the wizards with their armies, coins and points, the shop, the fight card
// against card with why each fainted or held); what was chosen is said in the table's words
// (econcards.js). Nothing is drawn twice: this module only picks the step.
import { useEffect, useState } from "./hooks.js";
import { api, seatOf } from "./api.js";
import { words } from "./errors.js";
import { eventWords, reasonWords, stepOf } from "./econcards.js";
import { FightView, Shop, Wizard } from "./economancy.js";
import { placesOf } from "./kindview.js";
import { html } from "./ui.js";

/** The index of the first step of the day after step `i`'s, or the last step. */
export function nextDay(steps, i) {
  const day = steps[i].day_count;
  const j = steps.findIndex((s, k) => k > i && s.day_count > day);
  return j < 0 ? steps.length - 1 : j;
}

/** The index of the first step of the day before step `i`'s (of its own day when `i` is
 * not its first step), or 0. */
export function previousDay(steps, i) {
  const first = (day) => steps.findIndex((s) => s.day_count === day);
  const own = first(steps[i].day_count);
  if (own < i) return own;
  const before = steps.slice(0, i).reverse().find((s) => s.day_count < steps[i].day_count);
  return before ? first(before.day_count) : 0;
}

/** What a step did, in words: each revealed choice and fight, and the new day's income. */
export function stepLines(steps, i, names, rules) {
  const step = steps[i];
  const lines = step.events.map((e) => (e.kind === "started"
    ? `The game starts: ${names.join(", ")}, each with a Sorcerer's Stipend and the day's income.`
    : eventWords(e, names, rules))).filter(Boolean);
  const before = i > 0 ? steps[i - 1] : null;
  if (before && step.day_count > before.day_count && step.view.phase.name !== "end") {
    const coins = step.view.players.flatMap((p, seat) => (p.cards.length ? [`${names[seat]} ${p.coins}`] : []));
    lines.push(`Day ${step.day_count} begins: every card pays its income for day ${step.view.day} of the cycle (coins now: ${coins.join(", ")}).`);
  }
  return lines;
}

/** What is asked after a step, in words. */
export function nowWords(view, names) {
  const step = stepOf(view);
  if (step === "investing") return "Next: everyone secretly invests coins.";
  if (step === "attacking") return `Next: ${names[view.phase.attacker]} chooses a card to attack with, or stops.`;
  if (step === "defending") return "Next: the others secretly choose a card to defend with.";
  if (step === "buy") return "Next: everyone with a buy left secretly buys a card or passes.";
  return "The game is over.";
}

function outcome(record) {
  const places = placesOf(record);
  const r = record.result || {};
  const first = places.filter((p) => p.place === 1);
  const why = reasonWords(r.reason);
  if (!first.length) return "The game is over.";
  if (first.length > 1) return `${first.map((p) => p.nickname).join(" and ")} drew (${why}).`;
  return `${first[0].nickname} won (${why}).`;
}

const IGNORED = new Set(["INPUT", "TEXTAREA", "SELECT"]);

export function EconomancyReplay({ game }) {
  const [record, setRecord] = useState(null);
  const [error, setError] = useState(null);
  const [at, setAt] = useState(0);
  useEffect(() => {
    let alive = true;
    api(`/economancy/games/${game}/record`)
      .then(({ data }) => { if (alive) setRecord(data); })
      .catch((e) => { if (alive) setError(e); });
    return () => { alive = false; };
  }, [game]);
  const steps = record ? record.steps : [];
  const last = Math.max(0, steps.length - 1);
  const go = (i) => setAt(Math.max(0, Math.min(last, i)));
  useEffect(() => {
    if (!record) return undefined;
    document.title = `Replay · Economancy · room ${record.room}`;
    if (document.activeElement === document.body) document.getElementById("page-heading")?.focus();
    const onKey = (ev) => {
      if (ev.ctrlKey || ev.metaKey || ev.altKey || document.querySelector("dialog[open]")) return;
      if (ev.target && (IGNORED.has(ev.target.tagName) || ev.target.isContentEditable)) return;
      const to = { ArrowLeft: (i) => i - 1, ArrowRight: (i) => i + 1, Home: () => 0, End: () => last,
        PageUp: (i) => previousDay(steps, i), PageDown: (i) => nextDay(steps, i) }[ev.key];
      if (!to) return;
      ev.preventDefault();
      setAt((i) => Math.max(0, Math.min(last, to(i))));
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [record]);
  const back = html`<p class="row"><a class="button" href=${`#/economancy/${game}`} id="replay-to-table">Back to the table</a>
    <a class="button" href="#/">Back to the lobby</a></p>`;
  if (error) {
    return html`<section class="panel"><h1 id="page-heading" tabindex="-1">Replay of an Economancy game</h1>
      <p class="error" id="replay-error">${words(error)}</p>${back}</section>`;
  }
  if (!record) return html`<section class="panel"><p>Loading the game's record…</p></section>`;
  const i = Math.min(at, last);
  const step = steps[i];
  const names = record.seats.map((p) => p.nickname);
  const mine = seatOf(game);
  const me = mine ? names.indexOf(mine.nickname) : -1;
  const st = { view: step.view, seats: record.seats, rules: record.rules, you: me < 0 ? null : me };
  const lines = stepLines(steps, i, names, record.rules);
  const fight = step.events.find((e) => e.kind === "fight");
  const where = `Step ${i + 1} of ${steps.length}, day ${step.day_count}`;
  const button = (id, label, to, off) => html`<button type="button" id=${id} aria-disabled=${off ? "true" : "false"}
    class=${off ? "off" : ""} onClick=${() => { if (!off) go(to); }}>${label}</button>`;
  return html`<div class="econ-replay kind-economancy">
    <section class="panel replay" aria-labelledby="page-heading">
      <h1 id="page-heading" tabindex="-1">Replay of Economancy, room ${record.room}</h1>
      <p id="replay-result">${outcome(record)}</p>
      ${back}
      <nav class="stepper" aria-label="Steps of the game">
        ${button("replay-first", "« First", 0, i === 0)}
        ${button("replay-prev-day", "‹ Previous day", previousDay(steps, i), i === 0)}
        ${button("replay-prev", "‹ Back", i - 1, i === 0)}
        ${button("replay-next", "Next ›", i + 1, i === last)}
        ${button("replay-next-day", "Next day ›", nextDay(steps, i), i === last)}
        ${button("replay-last", "Last »", last, i === last)}
      </nav>
      <div class="replay-slider">
        <label for="replay-slider">Step</label>
        <input type="range" id="replay-slider" min="1" max=${steps.length} step="1" value=${i + 1}
          aria-valuetext=${where} onInput=${(e) => go(Number(e.currentTarget.value) - 1)} />
      </div>
      <p id="replay-step"><b>${where}</b> · ${nowWords(step.view, names)}</p>
      <p class="sr-only" aria-live="polite" id="replay-said">${`${where}. ${lines.join(" ")}`}</p>
      <p class="keys muted small">Keys: <kbd>←</kbd> <kbd>→</kbd> a step, <kbd>PageUp</kbd> <kbd>PageDown</kbd> a day, <kbd>Home</kbd> <kbd>End</kbd> the first and last step.</p>
    </section>
    <section class="panel" aria-labelledby="replay-events-title" id="replay-events">
      <h2 id="replay-events-title">What this step revealed</h2>
      <ul class="history">${lines.map((l, k) => html`<li key=${`${i}-${k}`}>${l}</li>`)}</ul>
    </section>
    ${fight ? html`<${FightView} ev=${fight} st=${st} title="The fight at this step" />` : null}
    <section class="panel" aria-labelledby="wizards-title">
      <h2 id="wizards-title">The wizards after this step</h2>
      <ul class="wizards">${step.view.players.map((p, seat) => html`<${Wizard} key=${seat} st=${st} seat=${seat} p=${p}
        me=${st.you} chosen=${false} asked=${false} />`)}</ul>
    </section>
    <${Shop} st=${st} />
  </div>`;
}
