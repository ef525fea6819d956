// Blef's own part of the table: the felt (seats round the table, the standing bet, your
// cards), the turn line, the first-game guide, the round's bets and the move controls (the
// dock: a bet by kind and name, or a check), its rules in the room and its moves in the
// store. The shared table shell (tableview.js) renders it through the registry (games.js).
import { api, pref } from "./api.js";
import { actionName, checkOf, deckOf, exampleCards, lostOf, tableFor } from "./bets.js";
import { Countdown } from "./countdown.js";
import { blefReplay } from "./blefreplay.js";
import { useHeld } from "./held.js";
import { RoundSummary } from "./blefround.js";
import { CommonCards, MateHands, RulesLine, RulesSetup, TeamChoice, TeamMark, TeamsHelp } from "./rulesview.js";
import { levelOf, LEVELS, maxCardsChoices, standingBet, tipFor } from "./bleftable.js";
import { Card, Cards, html } from "./ui.js";
import { shownName } from "./playernames.js";

/** The felt: the seats around the table. `ratings` (given by the shared table at a rated
 * table, else absent): `of(p)` a player's rated seat or null, and `Rating`, its rating's part. */
function Felt({ st, me, s, ratings }) {
  const ratedOf = (p) => (ratings ? ratings.of(p) : null);
  const seats = st.players;
  const mine = seats.findIndex((p) => p.nickname === me);
  const order = mine > 0 ? [...seats.slice(mine), ...seats.slice(0, mine)] : seats;
  const deck = deckOf(st);
  const bet = standingBet(st.history, checkOf(st));
  const hand = (st.hands || []).find((x) => x.nickname === me);
  return html`<section class="felt" aria-label="The table">
    <ul class="seats" aria-label="Players">
      ${order.map((p, i) => {
        const angle = Math.PI / 2 + (2 * Math.PI * i) / order.length;
        const out = st.status !== "Not started" && p.n_cards === 0;
        const turn = st.cp_nickname === p.nickname;
        return html`<li key=${p.nickname} class=${`seat${turn ? " turn" : ""}${out ? " out" : ""}${p.nickname === me ? " me" : ""}`}
          style=${{ left: `${50 + 41 * Math.cos(angle)}%`, top: `${50 + 40 * Math.sin(angle)}%` }}>
          <span class="nick">${ratedOf(p) ? html`<a class="name" title=${shownName(p.nickname)} href=${`#/player/${encodeURIComponent(ratedOf(p).handle)}`}>${shownName(p.nickname)}</a>`
            : html`<span class="name" title=${shownName(p.nickname)}>${shownName(p.nickname)}</span>`}${p.nickname === me ? html`<span class="you-mark">(you)</span>` : null}</span>
          ${ratings ? html`<${ratings.Rating} seat=${ratedOf(p)} />` : null}
          <${TeamMark} team=${p.team} />
          <span class="count">${out ? "out of the game" : `${p.n_cards} card${p.n_cards === 1 ? "" : "s"}`}</span>
          ${turn ? html`<span class="to-move">to move${st.move_deadline ? html`, <${Countdown} st=${st} s=${s} />` : ""}</span>` : null}
        </li>`;
      })}
    </ul>
    <div class="centre" aria-live="off">
      ${bet ? html`<p class="label">Standing bet, by ${shownName(bet.player)}</p>
        <p class="standing" id="standing-bet">${actionName(bet.action_id, deck)}</p>
        <${Cards} cards=${exampleCards(bet.action_id, deck)} small=${true} deck=${deck} label=${`for example ${actionName(bet.action_id, deck)}`} />`
        : st.status === "Running" ? html`<p class="label">No bet yet this round</p><p class="standing" id="standing-bet">${shownName(st.cp_nickname)} opens</p>` : null}
      <${CommonCards} st=${st} />
    </div>
    ${hand && st.status === "Running" ? html`<section class="hand" aria-label="Your cards">
      <h2 class="sr-only">Your cards</h2>
      ${hand.hand.map((c, i) => html`<${Card} key=${i} card=${c} deck=${deck} />`)}</section>` : null}
    <${MateHands} st=${st} me=${me} />
  </section>`;
}

function TurnLine({ st, me, myTurn, s }) {
  let text;
  if (st.status === "Finished") text = `Game over: ${shownName(st.winner)} wins.`;
  else if (myTurn) text = "Your turn: choose a bet below, or check.";
  else if (st.cp_nickname) {
    // Your own bet, said here while it stands (not in a message over the page that outlives it).
    const bet = standingBet(st.history, checkOf(st));
    const yours = bet && bet.player === me ? `You bet ${actionName(bet.action_id, deckOf(st))}. ` : "";
    text = `${yours}Waiting for ${shownName(st.cp_nickname)} to move.`;
  }
  else text = "";
  const out = me && st.players.some((p) => p.nickname === me && p.n_cards === 0) && st.status === "Running";
  return html`<p id="turn-line" class=${`turn-line${myTurn ? " mine" : ""}`} tabindex="-1">${text}
    ${out ? html` <span id="out">You are out of the game; you watch the rest.</span>` : null}
    ${!myTurn && st.status === "Running" && st.move_deadline ? html` <${Countdown} st=${st} s=${s} />` : null}</p>`;
}

export function MoveDock({ st, s, actions }) {
  const { deck, sets: SETS, kinds: KINDS, check: CHECK } = tableFor(deckOf(st));
  const name = (id) => actionName(id, deck);
  const legal = st.legal_actions.filter((a) => a < CHECK);
  const canCheck = st.legal_actions.includes(CHECK);
  const current = legal.includes(s.chosen) ? s.chosen : legal[0];
  const kind = current === undefined ? null : SETS[current].kind;
  const kinds = KINDS.filter((k) => k.ids.some((id) => legal.includes(id)));
  const inKind = kind ? legal.filter((id) => SETS[id].kind === kind) : [];
  const odds = s.oddsOn && s.odds && s.odds.round === st.round_number ? s.odds.probabilities : null;
  const pct = (id) => `${Math.round(100 * odds[id])}%`;
  const bet = standingBet(st.history, CHECK);
  const hand = (st.hands || []).find((x) => x.nickname === s.seat.nickname);
  const submit = (ev) => { ev.preventDefault(); if (current !== undefined && !s.busy) actions.placeBet(current); };
  return html`<section class="dock" aria-labelledby="dock-title">
    <form onSubmit=${submit}>
      <div class="dock-head"><h2 id="dock-title" tabindex="-1">Your turn ${st.move_deadline ? html`<${Countdown} st=${st} s=${s} prefix="· " />` : null}</h2>
        ${hand ? html`<span class="mine-small">Your cards <${Cards} cards=${hand.hand} small=${true} deck=${deck} label="Your cards" /></span>` : null}</div>
      ${legal.length ? html`<div class="pick">
        <label class="field-inline">Kind
          <select id="bet-kind" value=${kind} onChange=${(e) => actions.choose(legal.find((id) => SETS[id].kind === e.currentTarget.value))}>
            ${kinds.map((k) => html`<option key=${k.key} value=${k.key}>${k.label}</option>`)}</select></label>
        <label class="field-inline">Bet
          <select id="bet" value=${String(current)} onChange=${(e) => actions.choose(Number(e.currentTarget.value))}>
            ${inKind.map((id) => html`<option key=${id} value=${String(id)}>${SETS[id].name}${odds ? ` (${pct(id)})` : ""}</option>`)}</select></label>
      </div>
      <p class="example"><${Cards} cards=${exampleCards(current, deck)} small=${true} deck=${deck} label=${`${name(current)}: for example these cards`} />
        <span class="muted small">${KINDS.find((k) => k.key === kind).meaning}${odds ? ` · there with a chance of ${pct(current)}` : ""}</span></p>`
        : html`<p>No bet is higher than “${name(bet.action_id)}”: you can only check.</p>`}
      <div class="moves">
        ${legal.length ? html`<button id="bet-button" type="submit" class="primary" disabled=${s.busy}>Bet ${name(current)}</button>` : null}
        ${canCheck ? html`<button id="check-button" type="button" disabled=${s.busy} onClick=${() => !s.busy && actions.check()}>
          Check “${name(bet.action_id)}”${odds ? ` (there: ${pct(bet.action_id)})` : ""}</button>` : null}
      </div>
      <p class="keys muted small"><label class="check"><input type="checkbox" id="odds-toggle" checked=${s.oddsOn}
        onChange=${(e) => actions.setPref("odds", e.currentTarget.checked)} /> Show the chance of each bet, from your cards</label>
        <span class="shortcut">Keys: <kbd>B</kbd> bet, <kbd>C</kbd> check</span></p>
    </form>
  </section>`;
}

function RoundBets({ history, st }) {
  const deck = deckOf(st);
  const items = history.filter((e) => e.action_id !== lostOf(st)).slice().reverse();
  return html`<section class="panel" aria-labelledby="bets-title">
    <h2 id="bets-title">This round's bets, newest first</h2>
    ${items.length ? html`<ol class="history" reversed>${items.map((e, i) => html`<li key=${items.length - i} class=${i === 0 ? "newest" : ""}>
      <b>${shownName(e.player)}</b> ${e.action_id === checkOf(st) ? "checks" : `bets ${actionName(e.action_id, deck)}`}</li>`)}</ol>`
      : html`<p class="muted">No bets yet this round.</p>`}
  </section>`;
}

function Tip({ st, me, myTurn, s, actions }) {
  const tip = tipFor({ state: st, me, myTurn, seenKeys: s.seenTips });
  if (!tip) return null;
  return html`<aside class="panel tip" aria-label="First-game guide">
    <p><b>Guide:</b> ${tip.text}</p>
    <div class="row"><button class="small" onClick=${() => actions.seenTip(tip.key)}>Got it</button>
      <button class="small link" onClick=${() => actions.setPref("tips", false)}>Hide the guide</button>
      <a class="small" href="#/learn">The rules</a></div>
  </aside>`;
}

/** The game in play, as Blef shows it between the game-over panel and the reactions. */
function Board({ st, s, me, seated, myTurn, actions, ratings }) {
  return html`<${Felt} st=${st} me=${me} s=${s} ratings=${ratings} />
    <${TurnLine} st=${st} me=${me} myTurn=${myTurn} s=${s} />
    ${st.status === "Running" && s.tips && seated ? html`<${Tip} st=${st} me=${me} myTurn=${myTurn} s=${s} actions=${actions} />` : null}
    <${RoundBets} history=${st.history || []} st=${st} />`;
}

/** Under the heading once the game runs: when a player is out, and the rules. */
function Summary({ st, lobby }) {
  return html`${!lobby && st.max_cards ? ` Out past ${st.max_cards} card${st.max_cards === 1 ? "" : "s"}: a player holding ${st.max_cards} who loses a round is out.` : ""}`;
}

/** The host's choice of the maximum of cards (kept while the change is on its way). */
function MaxCards({ st, actions }) {
  const [maxCards, changeMaxCards] = useHeld(st.chosen_max_cards ? String(st.chosen_max_cards) : "");
  const chosen = st.chosen_max_cards;
  const choices = maxCardsChoices(st.players.length, st.rules);
  return html`<div class="row">
        <label class="field-inline" for="max-cards-choice">Maximum of cards</label>
        <select id="max-cards-choice" value=${maxCards} onChange=${(e) => { const v = e.currentTarget.value; changeMaxCards(v, () => actions.act("set-max-cards", { max_cards: Number(v) }, `Maximum of cards: ${v}.`)); }}>
          ${chosen ? null : html`<option value="">Rule's maximum</option>`}
          ${choices.map((n) => html`<option key=${n} value=${String(n)}>${n}</option>`)}
          ${chosen && chosen > choices.length ? html`<option value=${String(chosen)}>${chosen} (capped at the start)</option>` : null}
        </select>
      </div>`;
}

/** The bet a round ended on: a check answered, or the loser's event at the end. */
function endsRound(body) {
  return !!body && (body.loser !== undefined
    || ((body.history || []).length > 0 && body.history[body.history.length - 1].action_id === lostOf(body)));
}

/** The words said as this person's turn begins. */
function turnWords(st) {
  const bet = (st.history || []).filter((e) => e.action_id < checkOf(st)).pop();
  return `Your turn. ${bet ? `${shownName(bet.player)} bets ${actionName(bet.action_id, deckOf(st))}.` : "You open the round: name any set."}`;
}

/** Blef's part of the table store's state. */
const state = () => ({
  chosen: null, // the bet this person picked (an action id), kept until they change it
  odds: null, // {round, probabilities}
  oddsOn: pref("odds", false),
});

/** Before the store takes a new state: a new round offers its lowest bet again, not the one
 * chosen in the round before. */
function taking({ s, prev, state: next }) {
  if (prev && next.round_number !== prev.round_number) s.chosen = null;
}

/** The chance of each bet from this player's cards, for the move controls (when asked for). */
async function loadOdds({ s, game, token }) {
  try {
    const { data } = await api(`/games/${game}/odds`, { token: token() });
    s.odds = { round: data.round_number, probabilities: data.probabilities };
  } catch { s.odds = null; }
}

/** On this person's turn, once the state is taken (before the redraw). */
async function onMyTurn(ctx) {
  const { s } = ctx;
  if (s.oddsOn && (!s.odds || s.odds.round !== s.state.round_number)) await loadOdds(ctx);
}

/** A preference changed in the table's settings (the store keeps it in the browser). */
function prefChanged(ctx, name, value) {
  if (name !== "odds") return;
  ctx.s.oddsOn = value;
  if (value && ctx.isMyTurn()) loadOdds(ctx).then(ctx.changed);
}

/** Blef's actions, added to the table store's: bet, check, the bet chosen so far, and the
 * host's rule and team changes (sent one after another). */
function moves({ s, act, changed, sendSetup }) {
  return {
    changeRules: (changes, done) => sendSetup("change-rules", changes, done),
    changeTeam: (team, nickname, done) => sendSetup("change-team", nickname ? { team, nickname } : { team }, done),
    async placeBet(id) {
      const ok = await act("play", { action_id: id }, `You bet ${actionName(id, deckOf(s.state))}.`);
      if (ok) document.getElementById("turn-line")?.focus();
    },
    async check() {
      const ok = await act("play", { action_id: checkOf(s.state) }, "You checked.");
      if (ok && !s.reveals.length) document.getElementById("turn-line")?.focus();
    },
    choose(id) { s.chosen = id; changed(); },
  };
}

/** Blef, as the registry (games.js) knows it. */
export const blef = Object.freeze({
  // the ladder's queue: what a rated table of a pool plays (app/ladder/queue.py makes it)
  ratedTerms: (pool) => `Classic rules, ${pool.time_limit || 60} s per move.`,
  kind: "blef",
  name: "Blef",
  scoreUnit: ["point", "points"], // Blef has no scores: places come from who went out when
  Board, // the game in play
  Moves: MoveDock, // the move controls, shown on this person's turn
  Summary, // a line under the heading
  RulesLine, // the rules in words (the room, and under the heading once it runs)
  PlayerChoice: TeamChoice, // beside each player in the room
  RoomHelp: TeamsHelp, // under the room's players
  HostRules: RulesSetup, // the host's rule controls, first in the set-up
  HostLimits: MaxCards, // after the time limit
  Round: RoundSummary, // a finished round, inside the reveal frame (and the replay's reveal step)
  replay: blefReplay, // its parts of the replay frame (blefreplay.js)
  levels: LEVELS, // the computer players a host may invite
  levelOf,
  keys: { b: "bet-button", c: "check-button" }, // keyboard shortcuts on your turn
  /** "Maximum of cards: …" for the seated players who are not the host. */
  roomFacts: (st) => `Maximum of cards: ${st.chosen_max_cards ? String(st.chosen_max_cards) : "the rule's maximum"}.`,
  endsRound,
  turnWords,
  state,
  taking,
  onMyTurn,
  prefChanged,
  moves,
});
