// The seconds left to move, as every game's table shows them: the service's deadline read
// against its own clock (the device's, right or wrong, does not matter).
import { useEffect, useReducer } from "./hooks.js";
import { secondsLeft, urgency } from "./table.js";
import { html } from "./ui.js";

/** The seconds left to move, ticking by itself (only this patch of the page redraws). */
export function Countdown({ st, s, prefix = "" }) {
  const [, tick] = useReducer((n) => n + 1, 0);
  useEffect(() => {
    const t = setInterval(tick, 250);
    return () => clearInterval(t);
  }, []);
  const left = secondsLeft(st.move_deadline, st.last_modified, (performance.now() - s.receivedAt) / 1000);
  if (left === null) return null;
  const level = urgency(left, st.time_limit || 0);
  return html`<span class=${`countdown ${level}`}>${prefix}${left} s left${level === "critical" ? "!" : ""}</span>`;
}
