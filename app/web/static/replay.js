// The replay frame every game shares (#/replay/<uuid> for Blef, #/<kind>/<uuid>/replay for
// every kind, Blef included): it loads the finished game's record the same way for any kind
// (Blef's established `/games/<uuid>/record`, every other kind's `/<kind>/games/<uuid>/record`,
// both cached by the browser: a finished game's record never changes), and owns the stepping:
// the first, previous, next and last step, the previous and next group of steps (a round, a
// day) where the game has them, a slider, the keys ← → Home End PageUp PageDown, the position
// said to screen readers, the links back, and the list of deals verified in the page where
// the game deals from a seed. What the steps are, how one is drawn and told, and how a deal
// is verified are the game's own: its entry's `replay` parts (games.js, REPLAY_PARTS).
import { useEffect, useState } from "./hooks.js";
import { api, seatOf } from "./api.js";
import { words } from "./errors.js";
import { DEFAULT_KIND, gameOf, tableAt } from "./games.js";
import { html } from "./ui.js";

/** Where a finished game's record is read (Blef's established route, or the contract's). */
export const recordPath = (kind, game) => (kind === DEFAULT_KIND ? `/games/${game}/record` : `/${kind}/games/${game}/record`);

/** The first and last step the step buttons reach from `i`: the whole game, or the group
 * of step `i` when the game steps within a group (Blef: the moves of one round). */
export function stepRange(steps, i, within) {
  if (!within) return [0, steps.length - 1];
  const group = steps[i].group;
  const first = steps.findIndex((s) => s.group === group);
  let last = first;
  while (last + 1 < steps.length && steps[last + 1].group === group) last += 1;
  return [first, last];
}

/** The step the "previous group" button goes to from `i`: the first step of the group of
 * `i` when `i` is not it (unless the game steps within groups), else the first step of the
 * group before; `i` itself when there is none (the button is then off). */
export function previousGroup(steps, i, within) {
  const group = steps[i].group;
  const own = steps.findIndex((s) => s.group === group);
  if (!within && own < i) return own;
  const before = steps.slice(0, own).reverse().find((s) => s.group !== group);
  if (!before) return within ? i : 0;
  return steps.findIndex((s) => s.group === before.group);
}

/** The step the "next group" button goes to from `i`: the first step of the next group;
 * when there is none, the last step (or `i` itself when the game steps within groups). */
export function nextGroup(steps, i, within) {
  const group = steps[i].group;
  const j = steps.findIndex((s, k) => k > i && s.group !== group);
  if (j >= 0) return j;
  return within ? i : steps.length - 1;
}

/** The person's own seat's nickname in this game, if this browser holds one. */
function mine(game) {
  const seat = seatOf(game);
  return seat ? seat.nickname : null;
}

const IGNORED = new Set(["INPUT", "TEXTAREA", "SELECT"]);

function useRecord(kind, game, g) {
  const [got, setGot] = useState({ record: null, steps: [], checks: null, error: null });
  useEffect(() => {
    let alive = true;
    (async () => {
      try {
        const { data } = await api(recordPath(kind, game), { cache: "default" });
        const steps = g.replay.steps(data, mine(game));
        if (alive) setGot({ record: data, steps, checks: null, error: null });
        const checks = await g.replay.verify(data, steps);
        if (alive) setGot({ record: data, steps, checks, error: null });
      } catch (e) { if (alive) setGot({ record: null, steps: [], checks: null, error: e }); }
    })();
    return () => { alive = false; };
  }, [kind, game]);
  return got;
}

export function Replay({ game, kind = DEFAULT_KIND }) {
  const g = gameOf(kind);
  const R = g.replay;
  const u = R.units;
  const { record, steps, checks, error } = useRecord(kind, game, g);
  const [at, setAt] = useState(0);
  const last = Math.max(0, steps.length - 1);
  const i = Math.min(at, last);
  const groups = !!u.group && steps.length > 0;
  useEffect(() => {
    if (!record) return undefined;
    document.title = `Replay · ${g.name} · room ${record.room}`;
    if (document.activeElement === document.body) document.getElementById("page-heading")?.focus();
    const onKey = (ev) => {
      if (ev.ctrlKey || ev.metaKey || ev.altKey || document.querySelector("dialog[open]")) return;
      if (ev.target && (IGNORED.has(ev.target.tagName) || ev.target.isContentEditable)) return;
      const to = {
        ArrowLeft: (k) => Math.max(stepRange(steps, k, u.within)[0], k - 1),
        ArrowRight: (k) => Math.min(stepRange(steps, k, u.within)[1], k + 1),
        Home: (k) => stepRange(steps, k, u.within)[0],
        End: (k) => stepRange(steps, k, u.within)[1],
        PageUp: (k) => (groups ? previousGroup(steps, k, u.within) : k),
        PageDown: (k) => (groups ? nextGroup(steps, k, u.within) : k),
      }[ev.key];
      if (!to || !steps.length) return;
      ev.preventDefault();
      setAt((k) => to(Math.min(k, last)));
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [record]);
  const back = html`<p class="row"><a class="button" href=${tableAt(kind, game)} id="replay-to-table">Back to the table</a>
    <a class="button" href="#/">Back to the lobby</a></p>`;
  if (error) {
    return html`<section class="panel"><h1 id="page-heading" tabindex="-1">Replay of this ${g.name} game</h1>
      <p class="error" id="replay-error">${words(error)}</p>${back}</section>`;
  }
  if (!record) return html`<section class="panel"><p>Loading the game's record…</p></section>`;
  if (!steps.length) {
    return html`<section class="panel"><h1 id="page-heading" tabindex="-1">${R.title(record)}</h1>
      <p id="replay-result">${R.result(record)}</p><p>This game has nothing to step through.</p>${back}</section>`;
  }
  const [first, end] = stepRange(steps, i, u.within);
  const go = (k) => setAt(Math.max(first, Math.min(end, k)));
  const where = R.where(record, steps, i);
  const now = R.now(record, steps, i);
  const said = R.said(record, steps, i);
  const ids = { first: "replay-first", prev: "replay-prev", next: "replay-next", last: "replay-last",
    prevGroup: `replay-prev-${u.group}`, nextGroup: `replay-next-${u.group}`, ...(u.ids || {}) };
  const button = (id, label, to) => {
    const off = to === i;
    return html`<button type="button" id=${id} aria-disabled=${off ? "true" : "false"} class=${off ? "off" : ""}
      onClick=${() => { if (!off) setAt(to); }}>${label}</button>`;
  };
  const me = mine(game);
  return html`<div class=${`replay-frame kind-${kind}${R.className ? ` ${R.className}` : ""}`}>
    <section class="panel replay" aria-labelledby="page-heading">
      <h1 id="page-heading" tabindex="-1">${R.title(record)}</h1>
      <p id="replay-result">${R.result(record)}</p>
      ${back}
      ${groups ? html`<nav class="stepper" aria-label=${u.groups}>
        ${button(ids.prevGroup, `‹ Previous ${u.group}`, previousGroup(steps, i, u.within))}
        <span class="group-at">${R.groupWords(record, steps, i)}</span>
        ${button(ids.nextGroup, `Next ${u.group} ›`, nextGroup(steps, i, u.within))}
      </nav>` : null}
      <nav class="stepper" aria-label=${u.steps}>
        ${button(ids.first, "« First", first)}
        ${button(ids.prev, "‹ Back", Math.max(first, i - 1))}
        ${button(ids.next, "Next ›", Math.min(end, i + 1))}
        ${button(ids.last, "Last »", end)}
        <p id="replay-step"><b>${where}</b>${now ? ` · ${now}` : ""}</p>
      </nav>
      ${end > first ? html`<div class="replay-slider">
        <label for="replay-slider">${u.step[0].toUpperCase()}${u.step.slice(1)}</label>
        <input type="range" id="replay-slider" min="1" max=${end - first + 1} step="1" value=${i - first + 1}
          aria-valuetext=${where} onInput=${(e) => go(first + Number(e.currentTarget.value) - 1)} />
      </div>` : null}
      <p class="sr-only" aria-live="polite" id="replay-said">${said ? `${where}. ${said}` : where}</p>
      <p class="keys muted small">Keys: <kbd>←</kbd> <kbd>→</kbd> a ${u.step}${groups ? html`, <kbd>PageUp</kbd> <kbd>PageDown</kbd> a ${u.group}` : ""}, <kbd>Home</kbd> <kbd>End</kbd> the first and last ${u.step}${u.within ? ` of the ${u.group}` : ""}.</p>
    </section>
    <${R.Step} record=${record} steps=${steps} at=${i} me=${me} />
    ${checks && checks.length ? html`<${Checked} checks=${checks} dealWords=${R.dealWords} go=${setAt} />` : null}
    ${!checks && R.deals ? html`<section class="panel"><p>Checking every deal in this page…</p></section>` : null}
  </div>`;
}

/** The deals of the game, each checked in this page against the commitment shown while it
 * was played (the game's `replay.verify`): one line each, a link to its first step. */
function Checked({ checks, dealWords, go }) {
  const allOk = checks.every((c) => c.ok);
  const n = checks.length;
  return html`<section class="panel" aria-labelledby="replay-checked-title">
    <h2 id="replay-checked-title">${n === 1 ? "The deal, checked in this page" : "Every deal, checked in this page"}</h2>
    <p class=${allOk ? "verified-all" : "error"}>${allOk ? `${n === 1 ? "The deal is verified" : `All ${n} deals verified`}: ${dealWords}`
      : `${n === 1 ? "The deal did NOT verify" : "Some deals did NOT verify"}: see below.`}</p>
    <ol class="rounds">${checks.map((c, k) => html`<li key=${k} class="replay-round">
      <button class="link" onClick=${() => go(c.to)}>${c.label}</button>
      <span class=${c.ok ? "verified" : "error"}>${c.ok ? "✓ Deal verified" : `✗ Deal NOT verified: ${c.reason}`}</span>
      <details><summary>Seed and commitment</summary><small class="mono">commitment ${c.commitment}<br />seed ${c.seed}</small></details>
    </li>`)}</ol>
  </section>`;
}
