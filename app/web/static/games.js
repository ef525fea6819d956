// The games this client seats people at, by kind: each brings its own part of the table (the
// game in play, its move controls, its rules in the room, a finished round inside the reveal
// frame) and its moves; the lobby, the seats, readiness, reactions, the reveal and replay
// frames, the clock and the live connection are the shared table's (tableview.js,
// tablestore.js). Blef is the one game so far; another game adds its entry here.
import { blef } from "./blefview.js";

export const GAMES = Object.freeze({ blef });

/** The kind a table is of when nothing says otherwise: the established routes are Blef's. */
export const DEFAULT_KIND = "blef";

/** The entry of a game kind; Blef's for a kind this client does not know. */
export function gameOf(kind = DEFAULT_KIND) {
  return Object.hasOwn(GAMES, kind) ? GAMES[kind] : GAMES[DEFAULT_KIND];
}
