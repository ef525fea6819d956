// Economancy's parts of the shared replay frame (replay.js, #/economancy/<uuid>/replay): the
// service's record of a finished game (GET /economancy/games/<uuid>/record: the start, then
// one step per revealed choice, each with its events and the spectator's view after it),
// its steps grouped by day. Each step is drawn by the table's own parts (econarmy.js: the
// wizards with their armies, coins and points, the shop, the fight card against card with
// why each fainted or held); what was chosen is said in the table's words (econcards.js).
// Economancy deals nothing, so there is no deal to verify.
import { eventWords, reasonWords, stepOf } from "./econcards.js";
import { FightView, Shop, Wizard } from "./econarmy.js";
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

/** The end of a game in words: who won or drew, and why. */
export function outcome(record) {
  const places = placesOf(record);
  const r = record.result || {};
  const first = places.filter((p) => p.place === 1);
  const why = reasonWords(r.reason);
  if (!first.length) return "The game is over.";
  if (first.length > 1) return `${first.map((p) => p.nickname).join(" and ")} drew (${why}).`;
  return `${first[0].nickname} won (${why}).`;
}

/** One step: what it revealed, the fight if there was one, the wizards and the shop after. */
function Step({ record, steps, at, me }) {
  const step = steps[at];
  const names = record.seats.map((p) => p.nickname);
  const you = me ? names.indexOf(me) : -1;
  const st = { view: step.view, seats: record.seats, rules: record.rules, you: you < 0 ? null : you };
  const lines = stepLines(steps, at, names, record.rules);
  const fight = step.events.find((e) => e.kind === "fight");
  return html`<section class="panel" aria-labelledby="replay-events-title" id="replay-events">
      <h2 id="replay-events-title">What this step revealed</h2>
      <ul class="history">${lines.map((l, k) => html`<li key=${`${at}-${k}`}>${l}</li>`)}</ul>
    </section>
    ${fight ? html`<${FightView} ev=${fight} st=${st} title="The fight at this step" />` : null}
    <section class="panel" aria-labelledby="wizards-title">
      <h2 id="wizards-title">The wizards after this step</h2>
      <ul class="wizards">${step.view.players.map((p, seat) => html`<${Wizard} key=${seat} st=${st} seat=${seat} p=${p}
        me=${st.you} chosen=${false} asked=${false} />`)}</ul>
    </section>
    <${Shop} st=${st} />`;
}

const names = (record) => record.seats.map((p) => p.nickname);

/** Economancy's parts of the replay frame (games.js REPLAY_PARTS). */
export const economancyReplay = Object.freeze({
  units: { step: "step", steps: "Steps of the game", group: "day", groups: "Days", within: false, ids: {} },
  className: "econ-replay",
  deals: false,
  title: (record) => `Replay of Economancy, room ${record.room}`,
  result: outcome,
  steps: (record) => (record.steps || []).map((s) => ({ ...s, group: s.day_count })),
  where: (record, steps, i) => `Step ${i + 1} of ${steps.length}, day ${steps[i].day_count}`,
  now: (record, steps, i) => nowWords(steps[i].view, names(record)),
  said: (record, steps, i) => stepLines(steps, i, names(record), record.rules).join(" "),
  groupWords: (record, steps, i) => html`<b>Day ${steps[i].day_count}</b> of ${steps[steps.length - 1].day_count}`,
  Step,
  verify: async () => [],
  dealWords: "",
});
