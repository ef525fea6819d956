// A Blef round told in full: why it ended (a check, a timeout, a resignation), its bets, and
// every hand with the cards that made or broke the standing bet marked. The shared reveal
// frame (reveal.js) shows it once per round, until dismissed; the replay shows the same
// without the dialog.
import { actionName, checkOf, deckOf, explainSet, lostOf } from "./bets.js";
import { loserIsOut, roundCause, standingBet } from "./bleftable.js";
import { COMMON, judgeBet, marksFor, poolOf } from "./variants.js";
import { Cards, html } from "./ui.js";
import { shownName } from "./playernames.js";

/** The words of a round's end: {title, cause, then}. Pure. */
export function tellRound(snap, cause) {
  const deck = deckOf(snap);
  const pool = poolOf(snap); // every hand and the common cards
  const loser = shownName(cause.loser);
  const checker = shownName(cause.checker);
  const out = loserIsOut(snap, cause);
  const held = (snap.players || []).find((p) => p.nickname === cause.loser);
  let text;
  if (cause.kind === "check") {
    const bet = cause.bet;
    const name = bet ? `“${actionName(bet.action_id, deck)}”` : "the bet";
    const judged = bet ? judgeBet(snap, bet) : null;
    const there = judged ? judged.there : cause.existed;
    text = `${checker} checked ${bet ? `${shownName(bet.player)}'s bet ` : ""}${name}. `
      + (there ? "It was there" : "It was not there") + (bet ? `: ${explainSet(bet.action_id, pool, deck).replace(/^It/, "it")} ` : ". ")
      + (judged ? jokerWords(judged, shownName(bet.player)) : "")
      + (cause.existed ? `So ${checker}, who doubted it, loses the round.` : `So ${loser}, who bet it, loses the round.`);
  } else if (cause.kind === "timeout") text = `${loser} ran out of time to move, and so loses the round.`;
  else if (cause.kind === "resign") text = `${loser} resigned, and so is out of the game.`;
  else text = `${loser} ran out of time or resigned, and so loses the round.`;
  let then;
  if (cause.kind === "resign") then = "";
  else if (out) then = `${loser} already held the most cards allowed (${snap.max_cards}), so ${loser} is out of the game.`;
  else if (held) then = `${loser} takes one more card: ${held.n_cards + 1} next round.`;
  else then = "";
  const title = out ? `Round ${snap.round_number}: ${loser} is out` : `Round ${snap.round_number}: ${loser} takes a card`;
  return { title, text, then };
}

/** What the jokers did at a check, in words ("" when no joker counted or was needed). */
function jokerWords(judged, bettor) {
  if (!judged.missing || !judged.wild) return "";
  const n = (k) => `${k} joker${k === 1 ? "" : "s"}`;
  if (judged.there) return `${n(judged.jokersUsed)} (${bettor}'s own or common) stood in for the missing card${judged.missing === 1 ? "" : "s"}. `;
  return `Only ${n(judged.wild)} counted for ${bettor} (their own and the common ones), too few for the ${judged.missing} missing. `;
}

export function RoundSummary({ snap, before = null, after = null, headingId }) {
  const cause = roundCause(snap, before, after);
  const told = tellRound(snap, cause);
  const deck = deckOf(snap);
  const check = checkOf(snap);
  const bet = standingBet(snap.history, check);
  const moves = (snap.history || []).filter((e) => e.action_id !== lostOf(snap));
  const marks = bet ? marksFor(snap, bet) : null;
  const common = snap.common_hand || [];
  return html`
    <h2 id=${headingId}>${told.title}</h2>
    <p class="cause">${told.text}</p>
    ${told.then ? html`<p class="then"><b>${told.then}</b></p>` : null}
    <h3>The round's bets</h3>
    ${moves.length ? html`<ol class="round-bets">${moves.map((e, i) => html`<li key=${i}>
      <b>${shownName(e.player)}</b> ${e.action_id === check ? "checked" : `bet ${actionName(e.action_id, deck)}`}</li>`)}</ol>`
      : html`<p class="muted">No bet was made.</p>`}
    <h3>Everyone's cards</h3>
    ${bet ? html`<p class="muted small">Ringed cards are the ones that count for “${actionName(bet.action_id, deck)}”${(snap.rules && snap.rules.jokers) ? " (jokers count only in the bettor's hand and among the common cards)" : ""}.</p>` : null}
    <ul class="hands">${(snap.hands || []).map((x) => html`<li key=${x.nickname}>
      <span class="nick">${shownName(x.nickname)}</span>
      <${Cards} cards=${x.hand} small=${true} deck=${deck} label=${`${shownName(x.nickname)}'s cards`} marks=${marks ? (c, i) => marks(x.nickname, c, i) : null} /></li>`)}
      ${common.length ? html`<li key="~common" class="common-row"><span class="nick">Common cards</span>
        <${Cards} cards=${common} small=${true} deck=${deck} label="The common cards" marks=${marks ? (c, i) => marks(COMMON, c, i) : null} /></li>` : null}</ul>`;
}
