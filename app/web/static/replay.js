// The replay frame every game shares: a finished game's record, every deal verified in the
// page, then the game stepped through round by round and move by move. The moves, how one
// reads, how a deal is verified and how a round ended are the game's own (games.js).
import { useEffect, useState } from "./hooks.js";
import { api } from "./api.js";
import { words } from "./errors.js";
import { gameOf } from "./games.js";
import { html } from "./ui.js";
import { shownName } from "./playernames.js";

export function Replay({ game, kind }) {
  const g = gameOf(kind);
  const [record, setRecord] = useState(null);
  const [checks, setChecks] = useState([]);
  const [error, setError] = useState(null);
  const [round, setRound] = useState(0);
  const [step, setStep] = useState(0);
  useEffect(() => {
    let alive = true;
    (async () => {
      try {
        const { data } = await api(`/games/${game}/record`);
        const verified = [];
        for (const r of data.rounds) verified.push(await g.verifyRound(r));
        if (alive) { setRecord(data); setChecks(verified); }
      } catch (e) { if (alive) setError(words(e)); }
    })();
    return () => { alive = false; };
  }, [game]);
  if (error) return html`<section class="panel"><h1>Replay</h1><p class="error">${error}</p><a class="button" href="#/">Back to the lobby</a></section>`;
  if (!record) return html`<section class="panel"><p>Loading the game's record and checking every deal…</p></section>`;
  const rounds = record.rounds;
  const r = rounds[round];
  const moves = g.movesOf(r);
  const total = moves.length + 1; // the moves, then the reveal
  const at = Math.min(step, total - 1);
  const go = (n) => { setRound(n); setStep(0); };
  const allOk = checks.every((c) => c.ok);
  return html`<section class="panel replay">
    <h1 id="page-heading" tabindex="-1">Replay of room ${record.room}</h1>
    <p id="winner">${shownName(record.winner)} won, in ${rounds.length} round${rounds.length === 1 ? "" : "s"}.</p>
    <p class="row"><a class="button" href=${`#/game/${game}`}>Back to the table</a> <a class="button" href="#/">Back to the lobby</a></p>
    <nav class="stepper" aria-label="Rounds">
      <button id="prev-round" disabled=${round === 0} onClick=${() => go(round - 1)}>‹ Previous round</button>
      <span aria-live="polite"><b>Round ${round + 1}</b> of ${rounds.length}</span>
      <button id="next-round" disabled=${round === rounds.length - 1} onClick=${() => go(round + 1)}>Next round ›</button>
    </nav>
    <div class="round-steps">
      <nav class="stepper" aria-label="Moves">
        <button id="prev-move" disabled=${at === 0} onClick=${() => setStep(at - 1)}>‹ Back</button>
        <span aria-live="polite">${at < moves.length ? `Move ${at + 1} of ${moves.length}` : "The reveal"}</span>
        <button id="next-move" disabled=${at === total - 1} onClick=${() => setStep(at + 1)}>Next ›</button>
      </nav>
      ${at < moves.length ? html`<ol class="round-bets">${moves.slice(0, at + 1).map((e, i) => html`<li key=${i} class=${i === at ? "newest" : ""}>
        <${g.Move} move=${e} round=${r} /></li>`)}</ol>`
        : html`<${g.Round} snap=${r} after=${rounds[round + 1] || null} headingId="replay-round-title" />`}
    </div>
    <h2>Every deal, checked in this page</h2>
    <p class=${allOk ? "verified-all" : "error"}>${allOk ? `All ${rounds.length} deals verified: each round's seed matches the commitment shown while it was played, and deals exactly the hands and common cards shown.` : "Some deals did NOT verify: see below."}</p>
    <ol class="rounds">${rounds.map((x, i) => html`<li key=${i} class="replay-round">
      <button class="link" onClick=${() => go(i)}>Round ${x.round_number}</button>
      <span class=${checks[i].ok ? "verified" : "error"}>${checks[i].ok ? "✓ Deal verified" : `✗ Deal NOT verified: ${checks[i].reason}`}</span>
      <details><summary>Seed and commitment</summary><small class="mono">commitment ${x.commitment}<br />seed ${x.seed}</small></details>
    </li>`)}</ol>
  </section>`;
}
