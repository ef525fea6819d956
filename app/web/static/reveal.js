// The reveal frame every game shares: a round (Blef) or a game (every other kind) that just
// ended, shown over the table once, until dismissed. What an end says is the game's own
// (games.js: `Round`). The dialog holds the focus until Continue or Escape (Tab and Shift+Tab
// stay inside it); it is drawn over the table and replaces nothing on it.
import { useEffect, useRef } from "./hooks.js";
import { html } from "./ui.js";

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), select, textarea, summary, [tabindex]:not([tabindex='-1'])";

/** The reveal frame: `item.snap` (the game's own telling of it is `Round`, games.js) in a
 * dialog that holds the focus until Continue or Escape; `item.n` names it (Blef: the round's
 * number), `onDismiss(n)` is called once either is pressed. */
export function RevealDialog({ item, after, count, onDismiss, Round }) {
  const button = useRef(null);
  const box = useRef(null);
  const n = item.n ?? item.snap.round_number;
  useEffect(() => { button.current && button.current.focus(); }, [n]);
  useEffect(() => { // held: a focus moved outside while it is open (by code) comes back
    const hold = (ev) => {
      if (box.current && button.current && ev.target instanceof Node && !box.current.contains(ev.target)) button.current.focus();
    };
    document.addEventListener("focusin", hold);
    return () => document.removeEventListener("focusin", hold);
  }, []);
  const keys = (ev) => {
    if (ev.key === "Escape") { onDismiss(n); return; }
    if (ev.key !== "Tab" || !box.current) return;
    const inside = [...box.current.querySelectorAll(FOCUSABLE)];
    if (!inside.length) return;
    const first = inside[0];
    const last = inside[inside.length - 1];
    const at = document.activeElement;
    if (ev.shiftKey && (at === first || !box.current.contains(at))) { ev.preventDefault(); last.focus(); }
    else if (!ev.shiftKey && (at === last || !box.current.contains(at))) { ev.preventDefault(); first.focus(); }
  };
  return html`<div class="overlay" id="reveal" onKeyDown=${keys}>
    <div class="panel reveal" role="dialog" aria-modal="true" aria-labelledby=${`reveal-title-${n}`} ref=${box}>
      <${Round} snap=${item.snap} before=${item.before} after=${after} headingId=${`reveal-title-${n}`} />
      <div class="row end">
        ${count > 1 ? html`<span class="muted">${count - 1} more round${count > 2 ? "s" : ""} to see</span>` : null}
        <button ref=${button} class="primary" id="reveal-continue" onClick=${() => onDismiss(n)}>Continue</button>
      </div>
    </div></div>`;
}
