// The games this client seats people at, by kind: each brings its own part of the table (the
// game in play, its move controls, its rules in the room, a finished round or game inside the
// reveal frame), its moves, and its parts of the replay frame; the lobby, the seats,
// readiness, reactions, the reveal frame (reveal.js) and the replay frame (replay.js), the
// clock and the live connection are shared (tableview.js and tablestore.js for Blef,
// kindview.js and kindstore.js for the other kinds). Another game adds its entry here.
//
// Blef's tables keep their established routes (`/games/...`, the page's `#/game/<uuid>`) and
// store (tablestore.js, tableview.js). Every other kind is played through the tables' contract
// (`/{kind}/games/...`, the page's `#/<kind>/<uuid>`), by the shell of kindview.js with its
// store kindstore.js: there `st` is the contract's body ({status, seats, you, turn,
// your_turn, view, events, result, rules, ...}), `s.journal` the events seen so far, and a
// move is `actions` of the entry's `moves(ctx)`, which sends the game's move JSON with
// `ctx.act(json, doneWords)`; `taking` may set `s.news`, said to screen readers (before the
// turn's words when the turn begins). Every kind's `Round` is shown by the reveal frame: Blef's
// at the end of each round, another kind's once at the end of the game (kindview.js), to a
// player and a spectator alike; every kind's `replay` parts are asked by the replay frame
// (#/<kind>/<uuid>/replay). HostRules/HostLimits, PlayerChoice, endsRound and onMyTurn are
// asked of Blef only; the lobby's form to make a table of a kind is kindlobby.js.
import { blef } from "./blefview.js";
import { economancy } from "./economancy.js";
import { figgie } from "./figgie.js";
import { replayHref } from "./kindview.js";

export const GAMES = Object.freeze({ blef, economancy, figgie });

/** The kind a table is of when nothing says otherwise: the established routes are Blef's. */
export const DEFAULT_KIND = "blef";

/** The kinds played through the tables' contract (`/{kind}/games/...`): all but Blef. */
export const tableKinds = () => Object.keys(GAMES).filter((k) => k !== DEFAULT_KIND);

/** Whether a kind is known to this client and played through the contract's routes. */
export const isTableKind = (kind) => kind !== DEFAULT_KIND && Object.hasOwn(GAMES, kind);

/** The entry of a game kind; Blef's for a kind this client does not know. */
export function gameOf(kind = DEFAULT_KIND) {
  return Object.hasOwn(GAMES, kind) ? GAMES[kind] : GAMES[DEFAULT_KIND];
}

/** Where a table of a kind is played in this page: Blef's at `#/game/<uuid>`, another kind's
 * at `#/<kind>/<uuid>`. */
export const tableAt = (kind, game) => (isTableKind(kind) ? `#/${kind}/${game}` : `#/game/${game}`);

/** Where a finished game of a kind is replayed step by step (replay.js): Blef's at its
 * established `#/replay/<uuid>`, another kind's at `#/<kind>/<uuid>/replay`. */
export const replayAt = (kind, game) => (isTableKind(kind) ? replayHref(kind, game) : `#/replay/${game}`);

/** What each game's entry brings, by type: the checklist of a new game's part of the table
 * (tests/web/js_units.test.mjs holds every entry to it). */
export const PARTS = Object.freeze({
  kind: "string", // as the service names it
  name: "string", // in the page's title
  scoreUnit: "object", // what its scores count, one and many: ["chip", "chips"]
  Board: "function", // the game in play: ({st, s, me, seated, myTurn, actions, ratings}); ratings at a rated table: {of(p), Rating}
  Moves: "function", // the move controls on this person's turn: ({st, s, actions})
  Summary: "function", // words under the heading: ({st, lobby})
  RulesLine: "function", // the rules in words: ({st})
  PlayerChoice: "function", // beside each player in the room: ({p, st, me, admin, actions})
  RoomHelp: "function", // under the room's players: ({admin})
  HostRules: "function", // the host's rule controls: ({st, s, actions})
  HostLimits: "function", // the host's limits, after the time limit: ({st, s, actions})
  roomFacts: "function", // the chosen limits in words, for the other players: (st) => text
  Round: "function", // a finished round (Blef) or game (the others) in the reveal frame: ({snap, before, after, headingId})
  replay: "object", // its parts of the replay frame: REPLAY_PARTS
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
  ratedTerms: "function", // the ladder's queue: a rated table's rules and pace, in words: (pool) => text
});

/** What each game's `replay` brings to the replay frame (replay.js), which loads the record
 * (`/games/<uuid>/record` for Blef, `/<kind>/games/<uuid>/record` for the others) and owns
 * the stepping, the slider, the keys, the position said aloud, the links back and the list
 * of verified deals (tests/web/js_units.test.mjs holds every entry to it). */
export const REPLAY_PARTS = Object.freeze({
  units: "object", // {step, steps, group, groups, within, ids}: a step's name ("move"), the steps' nav
  //                  label, a group's name ("round", "day"; null: none), the groups' nav label,
  //                  whether the step buttons stay inside a group, ids the buttons keep
  className: "string", // a class for the page's look
  deals: "boolean", // whether the game deals from a seed the page verifies
  title: "function", // the page's heading: (record) => text
  result: "function", // how the game ended: (record) => text
  steps: "function", // the steps of a record, each with its `group`: (record, myNickname) => [step]
  where: "function", // a step's position in words: (record, steps, i) => text
  now: "function", // what comes next after a step, or "": (record, steps, i) => text
  said: "function", // what a step did, said to screen readers: (record, steps, i) => text
  groupWords: "function", // the group of a step, in the groups' nav: (record, steps, i) => html
  Step: "function", // a step, drawn: ({record, steps, at, me})
  verify: "function", // its deals checked: async (record, steps) => [{label, to, ok, reason, commitment, seed}]
  dealWords: "string", // what a verified deal proves, after "All 3 deals verified: "
});
