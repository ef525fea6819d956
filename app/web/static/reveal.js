// The reveal frame every game shares: the round that just ended, shown over the table once,
// until dismissed. What a round's end says is the game's own (games.js: `Round`).
import { useEffect, useRef } from "./hooks.js";
import { html } from "./ui.js";

/** The reveal frame every game shares: a finished round (`Round`, the game's own telling of
 * it: games.js) in a dialog that holds the focus until Continue or Escape. */
export function RevealDialog({ item, after, count, onDismiss, Round }) {
  const button = useRef(null);
  const n = item.snap.round_number;
  useEffect(() => { button.current && button.current.focus(); }, [n]);
  const keys = (ev) => { if (ev.key === "Escape") onDismiss(n); };
  return html`<div class="overlay" id="reveal" onKeyDown=${keys}>
    <div class="panel reveal" role="dialog" aria-modal="true" aria-labelledby=${`reveal-title-${n}`}>
      <${Round} snap=${item.snap} before=${item.before} after=${after} headingId=${`reveal-title-${n}`} />
      <div class="row end">
        ${count > 1 ? html`<span class="muted">${count - 1} more round${count > 2 ? "s" : ""} to see</span>` : null}
        <button ref=${button} class="primary" onClick=${() => onDismiss(n)}>Continue</button>
      </div>
    </div></div>`;
}
