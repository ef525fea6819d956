// The games this client seats people at, by kind: each brings its own part of the table (the
// game in play, its move controls, its rules in the room, a finished round inside the reveal
// frame) and its moves; the lobby, the seats, readiness, reactions, the reveal and replay
// frames, the clock and the live connection are the shared table's (tableview.js,
// tablestore.js). Blef is the one game so far; another game adds its entry here.
import { blef } from "./blefview.js";
import { figgie } from "./figgie.js";

export const GAMES = Object.freeze({ blef, figgie });

/** The kind a table is of when nothing says otherwise: the established routes are Blef's. */
export const DEFAULT_KIND = "blef";

/** The entry of a game kind; Blef's for a kind this client does not know. */
export function gameOf(kind = DEFAULT_KIND) {
  return Object.hasOwn(GAMES, kind) ? GAMES[kind] : GAMES[DEFAULT_KIND];
}

/** What each game's entry brings, by type: the checklist of a new game's part of the table
 * (tests/web/js_units.test.mjs holds every entry to it). */
export const PARTS = Object.freeze({
  kind: "string", // as the service names it
  name: "string", // in the page's title
  Board: "function", // the game in play: ({st, s, me, seated, myTurn, actions})
  Moves: "function", // the move controls on this person's turn: ({st, s, actions})
  Summary: "function", // words under the heading: ({st, lobby})
  RulesLine: "function", // the rules in words: ({st})
  PlayerChoice: "function", // beside each player in the room: ({p, st, me, admin, actions})
  RoomHelp: "function", // under the room's players: ({admin})
  HostRules: "function", // the host's rule controls: ({st, s, actions})
  HostLimits: "function", // the host's limits, after the time limit: ({st, s, actions})
  roomFacts: "function", // the chosen limits in words, for the other players: (st) => text
  Round: "function", // a finished round in the reveal and replay frames: ({snap, before, after, headingId})
  Move: "function", // one move in the replay: ({move, round})
  movesOf: "function", // a finished round's moves: (round) => [move]
  verifyRound: "function", // a round's deal against its commitment: async (round) => {ok, reason}
  levels: "object", // the computer players a host may invite: [{agent, label, words}]
  levelOf: "function", // a seat's computer level, or null: (aiAgent) => level
  keys: "object", // keyboard shortcuts on your turn: {key: button id}
  endsRound: "function", // whether a move's answer ended a round: (body) => bool
  turnWords: "function", // said as this person's turn begins: (st) => text
  state: "function", // the game's own part of the store's state: () => object
  taking: "function", // before the store takes a state: ({s, prev, state})
  onMyTurn: "function", // once a state on this person's turn is taken: async (ctx)
  prefChanged: "function", // a setting changed: (ctx, name, value)
  moves: "function", // the game's actions: (ctx) => {name: function}
});
