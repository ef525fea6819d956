// The name of a new account, in the lobby's rated panel: its own field (starting as the
// lobby's name and following it until the person edits it), the rule said before typing,
// each problem said next to the field as the person types (the published rules:
// namerules.js), the service's refusals there too, and the button naming the account only
// when the name can be one.
import { useEffect, useState } from "./hooks.js";
import { ApiError } from "./api.js";
import { words } from "./errors.js";
import { waitWords } from "./ladder.js";
import { handleProblem, loadHandleRules } from "./namerules.js";
import { announce, html } from "./ui.js";

/** The refusals that are about the name typed (said next to the field, not in a toast). */
export const NAME_REFUSALS = ["invalid_handle", "reserved_handle", "profane_nickname", "handle_taken", "rate_limited", "too_many_accounts"];

/** A refusal of the name in words: the service's own sentence for a rule, else the page's;
 * a limit says when the person can try again (`now`: milliseconds, for the clock time). */
export function refusalWords(e, now = Date.now()) {
  if (e.code === "invalid_handle" || e.code === "reserved_handle") return e.message;
  if ((e.code === "rate_limited" || e.code === "too_many_accounts") && e.retryAfter) {
    const at = new Date(now + e.retryAfter * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    const first = e.code === "rate_limited" ? "You have tried many names in a short time" : "Enough accounts were made from your connection for now";
    return `${first}: you can try again in ${waitWords(e.retryAfter)}, at ${at}.`;
  }
  return words(e);
}

export function AccountName({ name, busy, onMake }) {
  const [own, setOwn] = useState(null); // what the person typed here; null: the lobby's name
  const [rules, setRules] = useState(null);
  const [refused, setRefused] = useState(null); // {name, text}: the service's last refusal
  const [until, setUntil] = useState(0); // no try before this time (ms), after a limit
  const [tried, setTried] = useState(false); // pressed with a problem: the field is marked
  useEffect(() => { loadHandleRules().then(setRules).catch(() => { /* the service decides */ }); }, []);
  useEffect(() => {
    if (until <= Date.now()) return undefined;
    const timer = setTimeout(() => setUntil(0), until - Date.now());
    return () => clearTimeout(timer);
  }, [until]);
  const value = own ?? name.trim();
  const local = rules && value ? handleProblem(value, rules) : null;
  const theirs = refused && refused.name === value ? refused.text : null;
  const problem = (local && local.text) || theirs || (tried && !value ? "Type a name for your account first." : null);
  const waiting = until > Date.now();
  const make = async (ev) => {
    ev.preventDefault();
    if (busy || waiting) return;
    if (problem || !value) {
      setTried(true);
      announce(problem || "Type a name for your account first.");
      document.getElementById("account-name")?.focus();
      return;
    }
    try {
      await onMake(value);
    } catch (e) {
      if (!(e instanceof ApiError) || !NAME_REFUSALS.includes(e.code)) throw e;
      const text = refusalWords(e);
      setRefused({ name: value, text });
      if (e.retryAfter) setUntil(Date.now() + e.retryAfter * 1000);
      announce(text);
      document.getElementById("account-name")?.focus();
    }
  };
  const summary = rules ? rules.summary : "Letters, digits and _; no spaces.";
  return html`<form class="account-name" onSubmit=${make} noValidate>
    <div class="field">
      <label for="account-name">Name for your account</label>
      <input id="account-name" value=${value} maxlength=${rules ? rules.max_length : 64} autocomplete="username" spellcheck="false"
        aria-describedby="account-name-help" aria-invalid=${problem ? "true" : "false"}
        onInput=${(e) => { setOwn(e.currentTarget.value); setTried(false); }} />
      <small id="account-name-help" class=${problem ? "problem" : "muted"}>${problem || `${summary} Others see it on the leaderboard.`}</small>
    </div>
    <div class="row"><button type="submit" id="make-account" class="primary" disabled=${busy || waiting}
      aria-describedby="account-name-help">Make an account${value && !problem ? ` as ${value}` : ""}</button></div>
  </form>`;
}
