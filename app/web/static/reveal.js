// A round told in full: why it ended (a check, a timeout, a resignation), its bets, and every
// hand with the cards that made or broke the standing bet marked. The dialog shows it once
// per round, until dismissed; the replay shows the same without the dialog.
import { useEffect, useRef } from "./hooks.js";
import { actionName, cardMatters, CHECK, explainSet, LOST, setExists } from "./bets.js";
import { loserIsOut, roundCause, standingBet } from "./table.js";
import { Cards, html } from "./ui.js";

/** The words of a round's end: {title, cause, then}. Pure. */
export function tellRound(snap, cause) {
  const pool = (snap.hands || []).flatMap((x) => x.hand);
  const loser = cause.loser;
  const out = loserIsOut(snap, cause);
  const held = (snap.players || []).find((p) => p.nickname === loser);
  let text;
  if (cause.kind === "check") {
    const bet = cause.bet;
    const name = bet ? `“${actionName(bet.action_id)}”` : "the bet";
    const there = bet ? setExists(bet.action_id, pool) : cause.existed;
    text = `${cause.checker} checked ${bet ? `${bet.player}'s bet ` : ""}${name}. `
      + (there ? "It was there" : "It was not there") + (bet ? `: ${explainSet(bet.action_id, pool).replace(/^It/, "it")} ` : ". ")
      + (cause.existed ? `So ${cause.checker}, who doubted it, loses the round.` : `So ${loser}, who bet it, loses the round.`);
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

export function RoundSummary({ snap, before = null, after = null, headingId }) {
  const cause = roundCause(snap, before, after);
  const told = tellRound(snap, cause);
  const bet = standingBet(snap.history);
  const moves = (snap.history || []).filter((e) => e.action_id !== LOST);
  return html`
    <h2 id=${headingId}>${told.title}</h2>
    <p class="cause">${told.text}</p>
    ${told.then ? html`<p class="then"><b>${told.then}</b></p>` : null}
    <h3>The round's bets</h3>
    ${moves.length ? html`<ol class="round-bets">${moves.map((e, i) => html`<li key=${i}>
      <b>${e.player}</b> ${e.action_id === CHECK ? "checked" : `bet ${actionName(e.action_id)}`}</li>`)}</ol>`
      : html`<p class="muted">No bet was made.</p>`}
    <h3>Everyone's cards</h3>
    ${bet ? html`<p class="muted small">Ringed cards are the ones that count for “${actionName(bet.action_id)}”.</p>` : null}
    <ul class="hands">${(snap.hands || []).map((x) => html`<li key=${x.nickname}>
      <span class="nick">${x.nickname}</span>
      <${Cards} cards=${x.hand} small=${true} label=${`${x.nickname}'s cards`} marks=${bet ? (c) => cardMatters(bet.action_id, c) : null} /></li>`)}</ul>`;
}

export function RevealDialog({ item, after, count, onDismiss }) {
  const button = useRef(null);
  const n = item.snap.round_number;
  useEffect(() => { button.current && button.current.focus(); }, [n]);
  const keys = (ev) => { if (ev.key === "Escape") onDismiss(n); };
  return html`<div class="overlay" id="reveal" onKeyDown=${keys}>
    <div class="panel reveal" role="dialog" aria-modal="true" aria-labelledby=${`reveal-title-${n}`}>
      <${RoundSummary} snap=${item.snap} before=${item.before} after=${after} headingId=${`reveal-title-${n}`} />
      <div class="row end">
        ${count > 1 ? html`<span class="muted">${count - 1} more round${count > 2 ? "s" : ""} to see</span>` : null}
        <button ref=${button} class="primary" onClick=${() => onDismiss(n)}>Continue</button>
      </div>
    </div></div>`;
}
