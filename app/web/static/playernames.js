// How a player is named on every screen: a person by their own name, a built-in computer
// player by its level and that it is a computer ("Beginner (computer)", "Beginner 2
// (computer)"), whether the service calls it by its seat's nickname at a table
// (`random_(AI)`, the established format) or by its level's account on the ladder
// (`AI_Beginner`). The one mapping from what the service says to what people read; the
// levels themselves are bleftable.js's LEVELS (held to the ladder's by tests/web/test_js_units.py).
import { LEVELS, levelOf } from "./bleftable.js";

const AI_SEAT = /^([A-Za-z][A-Za-z0-9]*?)(?:_([2-8]))?_\(AI\)$/;
const LEVEL_ACCOUNT = /^AI_([A-Za-z]+)$/;

/** The name people read for a seat's nickname or an account's handle. */
export function shownName(name) {
  if (typeof name !== "string") return name;
  const seat = AI_SEAT.exec(name);
  if (seat) {
    const level = levelOf(seat[1]);
    const label = level && level.label !== "Computer" ? level.label : seat[1];
    return `${label}${seat[2] ? ` ${seat[2]}` : ""} (computer)`;
  }
  const account = LEVEL_ACCOUNT.exec(name);
  const level = account && LEVELS.find((l) => l.label === account[1]);
  return level ? `${level.label} (computer)` : name;
}

/** Whether a name is a built-in computer player's (at a table or on the ladder). */
export function isComputer(name) {
  return typeof name === "string" && shownName(name) !== name;
}

/** A table's heading: a rated game says so and how many play ("Rated game · 3 players"); a
 * room made by a person keeps its number. */
export function tableTitle(st, seat) {
  if (seat && seat.rated) return `Rated game · ${st.players.length} player${st.players.length === 1 ? "" : "s"}`;
  return `Room ${st.room}`;
}
