// A table's set-up changes (readiness, computer players, rules, the time limit, start, ...) as
// the table stores send them: one after another, in the order they were pressed. A press
// made while an earlier change is still on its way waits its turn instead of being lost, and
// a refusal is kept in words in the room (a later change's message never hides it), so that
// two quick presses each take effect in order, or are told.
import { html } from "./ui.js";

/** What each set-up change is, in the words of a refusal's line ("…: not done."). */
export const SETUP_WORDS = Object.freeze({
  ready: "Your readiness",
  "invite-aiagent": "Inviting a computer player",
  ai: "Inviting a computer player",
  "set-time-limit": "The time limit",
  "make-private": "Making the game private",
  "make-public": "Listing the game in the lobby",
  "set-auto-start": "Starting by itself",
  "set-max-cards": "The maximum of cards",
  "change-rules": "The rules",
  "change-team": "The team",
  remove: "Removing a player",
  start: "Starting the game",
});

/** Whether `path` (under the table) is a set-up change, sent through the queue. */
export const isSetup = (path) => Object.prototype.hasOwnProperty.call(SETUP_WORDS, path);

/** The queue of a table store's state `s` (it keeps `s.setup`: how many changes wait or are
 * on their way, and the refusals of the changes pressed since the queue was last empty).
 * The queue is a function: `queue(path, send)` runs `send` once every change queued before it
 * is answered; `send` answers null when the service took the change, or the refusal in words
 * (it reads the table again before answering, so the next change is pressed on what is
 * true). It resolves to whether the change was taken. `changed()` is called on each step. */
export function setupQueue(s, changed) {
  s.setup = { pending: 0, problems: [] };
  let last = Promise.resolve();
  return (path, send) => {
    if (!s.setup.pending) s.setup.problems = []; // a new round of changes: the old refusals are done with
    s.setup.pending += 1;
    changed();
    const answered = last.then(async () => {
      let problem;
      try {
        problem = await send();
      } catch {
        problem = "Something went wrong. Please try again.";
      }
      s.setup.pending -= 1;
      if (problem) s.setup.problems = [...s.setup.problems, `${SETUP_WORDS[path] || "That change"}: not done. ${problem}`];
      changed();
      return !problem;
    });
    last = answered;
    return answered;
  };
}

/** The refusals of the set-up changes just pressed, kept in the room (under its controls, so
 * a line that appears never moves a control under the person's finger). The region is always
 * there, so that a screen reader hears each line as it comes. */
export function SetupProblems({ s }) {
  const problems = (s.setup && s.setup.problems) || [];
  return html`<div id="setup-problems" role="alert">${problems.map((p, i) => html`<p key=${i} class="problem">${p}</p>`)}</div>`;
}
