// The variants on screen: the host's rule controls in the lobby, the rules in words for
// everyone, each player's team, and on the table the common cards, team marks and the
// team-mates' hands. Views only: the table store (tablestore.js) sends the changes.
import { deckOf } from "./bets.js";
import { useHeld } from "./held.js";
import { Cards, html } from "./ui.js";
import { COMMON_CHOICES, MAX_EXTRA, rulesInWords, TEAMS, teamWords } from "./variants.js";

const counted = (one, many) => Array.from({ length: MAX_EXTRA + 1 }, (_, n) => (
  { value: n, label: n === 0 ? "None" : `${n} ${n === 1 ? one : many}` }));

/** The host's rules, each a control with a one-line explanation for a newcomer. */
const RULES = [
  { key: "deck_size", id: "rule-deck", label: "Deck",
    help: "24 cards are 9 to A, the classic game with 88 bets. 32 cards add the 7s and 8s: more cards, and 140 bets.",
    choices: [{ value: 24, label: "24 cards: 9 to A (classic)" }, { value: 32, label: "32 cards: 7 to A" }] },
  { key: "jokers", id: "rule-jokers", label: "Jokers (wild cards)",
    help: "A joker stands for any card missing from a bet, but only the bettor's own jokers and the common ones count.",
    choices: counted("joker", "jokers") },
  { key: "blanks", id: "rule-blanks", label: "Blanks (dead cards)",
    help: "A blank takes a place in a hand and counts for nothing: a player holding one knows less.",
    choices: counted("blank", "blanks") },
  { key: "common_cards", id: "rule-common", label: "Common cards (face up)",
    help: "Dealt face up in the middle every round: everyone sees them, and they count for every bet.",
    choices: COMMON_CHOICES },
];

function RuleControl({ rule, st, actions }) {
  const server = (st.rules || {})[rule.key] ?? (rule.key === "deck_size" ? 24 : 0);
  const [value, change] = useHeld(server);
  const onChange = (e) => {
    const v = Number(e.currentTarget.value);
    const next = { ...st.rules, [rule.key]: v };
    change(v, () => actions.changeRules({ [rule.key]: v }, `The rules now: ${rulesInWords(next)}.`));
  };
  return html`<div class="rule">
    <label class="field-inline" for=${rule.id}>${rule.label}</label>
    <select id=${rule.id} value=${String(value)} aria-describedby=${`${rule.id}-help`} onChange=${onChange}>
      ${rule.choices.map((c) => html`<option key=${c.value} value=${String(c.value)}>${c.label}</option>`)}</select>
    <p class="muted small" id=${`${rule.id}-help`}>${rule.help}</p>
  </div>`;
}

/** The host's controls of the cards, before the start. */
export function RulesSetup({ st, s, actions }) {
  return html`<fieldset class="rules-setup">
    <legend>The cards</legend>
    ${RULES.map((r) => html`<${RuleControl} key=${r.key} rule=${r} st=${st} actions=${actions} />`)}
  </fieldset>`;
}

/** The rules in words, for everyone at the table, with what each variant in play means. */
export function RulesLine({ st }) {
  const r = st.rules || {};
  const notes = [];
  if (r.deck_size === 32) notes.push("32 cards: 7 to A, so there are 140 bets instead of 88.");
  if (r.jokers) notes.push("Jokers are wild: at a check, the bettor's own jokers and the common ones stand in for missing cards.");
  if (r.blanks) notes.push("Blanks count for nothing.");
  if (r.common_cards) notes.push("Common cards lie face up in the middle; they count for every bet.");
  if (st.players.some((p) => p.team)) notes.push("Team-mates see each other's cards and win together.");
  return html`<div class="rules-line">
    <p id="rules-words">Cards: <span class="rules-words">${rulesInWords(r)}</span>.</p>
    ${notes.length ? html`<ul class="muted small rule-notes">${notes.map((n, i) => html`<li key=${i}>${n}</li>`)}</ul>` : null}
  </div>`;
}

/** A player's team in the lobby: a choice for the person themselves and for the host (who may
 * move anyone), words for everyone else. */
export function TeamChoice({ p, st, me, admin, actions }) {
  const [value, change] = useHeld(p.team ? String(p.team) : "");
  const mine = p.nickname === me;
  if (!mine && !admin) return p.team ? html`<${TeamMark} team=${p.team} />` : null;
  const onChange = (e) => {
    const v = e.currentTarget.value;
    const team = v ? Number(v) : null;
    const said = team ? `${mine ? "You are" : `${p.nickname} is`} in team ${team} now.`
      : `${mine ? "You play" : `${p.nickname} plays`} ${teamWords(null, mine ? "on your own" : "on their own")} now.`;
    change(v, () => actions.changeTeam(team, mine ? null : p.nickname, said));
  };
  return html`<select class="team-choice small" aria-label=${mine ? "Your team" : `Team of ${p.nickname}`} value=${value} onChange=${onChange}>
    <option value="">${mine ? "On my own" : "On their own"}</option>
    ${TEAMS.map((t) => html`<option key=${t} value=${String(t)}>Team ${t}</option>`)}</select>`;
}

export function TeamsHelp({ admin }) {
  return html`<p class="muted small" id="teams-help">Teams: pick a team beside your name to play with friends. Team-mates see
    each other's cards and win together; the game ends when one team is left.${admin ? " As the host you can move anyone." : ""}</p>`;
}

/** A seat's team, in words. */
export function TeamMark({ team }) {
  return team ? html`<span class="team-mark">team ${team}</span>` : null;
}

/** The common cards, face up in the middle for everyone. */
export function CommonCards({ st }) {
  const common = st.common_hand || [];
  if (!common.length || st.status !== "Running") return null;
  return html`<div class="common" id="common-cards">
    <p class="label">Common cards, face up for everyone</p>
    <${Cards} cards=${common} deck=${deckOf(st)} label="Common cards" />
  </div>`;
}

/** The hands of the person's team-mates (the service shows them to team-mates only). */
export function MateHands({ st, me }) {
  const mates = (st.hands || []).filter((h) => h.nickname !== me);
  if (!me || !mates.length || st.status !== "Running") return null;
  return html`<section class="hand mates-hands" aria-label="Your team-mates' cards">
    <h2 class="sr-only">Your team-mates' cards</h2>
    ${mates.map((h) => html`<span key=${h.nickname} class="mate"><span class="nick">${h.nickname}</span>
      <${Cards} cards=${h.hand} small=${true} deck=${deckOf(st)} label=${`${h.nickname}'s cards (your team-mate)`} /></span>`)}
  </section>`;
}
