// Blef's parts of the shared replay frame (replay.js): a finished game's record (the
// established `/games/<uuid>/record`: every round's hands, bets, seed and commitment) stepped
// round by round, move by move within a round, each round ending on its reveal (the same
// telling as the table's reveal frame, blefround.js); every round's deal verified in the
// page (deal.js).
import { actionName, checkOf, deckOf, lostOf } from "./bets.js";
import { verifyRound } from "./deal.js";
import { RoundSummary } from "./blefround.js";
import { shownName } from "./playernames.js";
import { html } from "./ui.js";

/** A round's moves as the replay steps through them (the loser's closing event left out). */
export const movesOf = (r) => (r.history || []).filter((e) => e.action_id !== lostOf(r));

/** One move of a finished round, in words. */
export function moveWords(move, round) {
  return `${shownName(move.player)} ${move.action_id === checkOf(round) ? "checked" : `bet ${actionName(move.action_id, deckOf(round))}`}`;
}

/** The steps of a record: each round's moves, then its reveal. Each step:
 * {group (the round's index), round, move (null at the reveal), j (the move's index), n}. */
export function steps(record) {
  const out = [];
  (record.rounds || []).forEach((round, k) => {
    const moves = movesOf(round);
    moves.forEach((move, j) => out.push({ group: k, round, move, j, n: moves.length }));
    out.push({ group: k, round, move: null, j: moves.length, n: moves.length });
  });
  return out;
}

function Step({ record, steps: all, at }) {
  const step = all[at];
  const r = step.round;
  if (!step.move) {
    const after = record.rounds[step.group + 1] || null;
    return html`<section class="panel round-steps" aria-label="This step"><${RoundSummary} snap=${r} after=${after} headingId="replay-round-title" /></section>`;
  }
  const moves = movesOf(r).slice(0, step.j + 1);
  return html`<section class="panel round-steps" aria-label="This step"><ol class="round-bets">${moves.map((e, i) => html`<li key=${i} class=${i === step.j ? "newest" : ""}>
    <b>${shownName(e.player)}</b> ${e.action_id === checkOf(r) ? "checked" : `bet ${actionName(e.action_id, deckOf(r))}`}</li>`)}</ol></section>`;
}

async function verify(record, all) {
  const out = [];
  for (const [k, r] of (record.rounds || []).entries()) {
    const check = await verifyRound(r);
    out.push({ label: `Round ${r.round_number}`, to: all.findIndex((s) => s.group === k), ok: check.ok, reason: check.reason,
      commitment: r.commitment, seed: r.seed });
  }
  return out;
}

export const blefReplay = Object.freeze({
  units: { step: "move", steps: "Moves", group: "round", groups: "Rounds", within: true,
    ids: { prev: "prev-move", next: "next-move", prevGroup: "prev-round", nextGroup: "next-round" } },
  className: "",
  deals: true,
  title: (record) => `Replay of room ${record.room}`,
  result: (record) => {
    const n = (record.rounds || []).length;
    return `${shownName(record.winner)} won, in ${n} round${n === 1 ? "" : "s"}.`;
  },
  steps,
  where: (record, all, i) => (all[i].move ? `Move ${all[i].j + 1} of ${all[i].n}` : "The reveal"),
  now: () => "",
  said: (record, all, i) => {
    const step = all[i];
    return `Round ${step.round.round_number}. ${step.move ? `${moveWords(step.move, step.round)}.` : "How the round ended."}`;
  },
  groupWords: (record, all, i) => html`<b>Round ${all[i].group + 1}</b> of ${(record.rounds || []).length}`,
  Step,
  verify,
  dealWords: "each round's seed matches the commitment shown while it was played, and deals exactly the hands and common cards shown.",
});
