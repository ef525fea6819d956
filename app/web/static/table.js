// What every game's table shares and the page needs before the service says it: the
// reactions a player may send, and the clock's seconds left and urgency. Pure, so node tests
// them (tests/web/test_js_units.py compares the reactions with the service's).

/** The reactions the service accepts, in the order the bar shows them. */
export const REACTIONS = ["👍", "👎", "👏", "😂", "😮", "😢", "🤔", "🎉"];

/** The last reactions as lines to show, oldest first: "bob 👍". */
export function reactionLines(reactions) {
  return (reactions || []).map((r) => `${r.nickname} ${r.reaction}`);
}

/** The seconds left to move: the service's deadline read against its own clock, which is
 * `lastModified` when the state arrived `elapsed` seconds ago (so the device's clock, right
 * or wrong, does not matter). null without a deadline. */
export function secondsLeft(moveDeadline, lastModified, elapsed) {
  if (!moveDeadline) return null;
  return Math.max(0, Math.ceil(moveDeadline - lastModified - elapsed));
}

/** How urgent a countdown is: "calm", "low" (a third of the limit or 10 s), "critical" (5 s). */
export function urgency(left, limit) {
  if (left === null) return "calm";
  if (left <= 5) return "critical";
  if (left <= Math.max(10, limit / 3)) return "low";
  return "calm";
}
