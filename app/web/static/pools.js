// The rating pools as the service lists them (GET /ladder/pools: name, title, seat range,
// time limit and the game kind its tables play), asked once a page, and what the ladder's
// screens say of a pool through its game's entry in games.js: the screens themselves name no
// game. Pure helpers first (tested under node), then the hook the screens read the list by.
import { useEffect, useState } from "./hooks.js";
import { api } from "./api.js";
import { DEFAULT_KIND, gameOf, replayAt, tableAt } from "./games.js";
import { shownName } from "./playernames.js";

let known = []; // the service's list, once it has answered
let asking = null; // the one request of this page, while it is out (asked again after a failure)

/** The pools this page knows (none until the service answered). */
export function knownPools() {
  return known;
}

/** Ask the service for its pools once a page (a failure is asked again next time). */
export function loadPools() {
  if (known.length) return Promise.resolve(known);
  if (!asking) {
    asking = api("/ladder/pools").then(({ data }) => {
      if (Array.isArray(data) && data.length) known = data;
      return known;
    }).catch(() => known).finally(() => { asking = null; });
  }
  return asking;
}

/** The pools, re-rendering the component once the service answered. */
export function usePools() {
  const [pools, setPools] = useState(known);
  useEffect(() => {
    let alive = true;
    if (!known.length) loadPools().then((list) => alive && setPools(list));
    return () => { alive = false; };
  }, []);
  return pools;
}

/** The pool named `name` in `pools`, or null. */
export function poolNamed(name, pools = known) {
  return pools.find((p) => p.name === name) || null;
}

/** The game kind a pool's tables play (a pool the list lacks: the established routes'). */
export function kindOfPool(name, pools = known) {
  const pool = poolNamed(name, pools);
  return (pool && pool.kind) || DEFAULT_KIND;
}

/** The entry (games.js) of the game a pool's tables play. */
export function gameOfPool(name, pools = known) {
  return gameOf(kindOfPool(name, pools));
}

/** A pool's title from its name (the name itself while the list is unknown). */
export function poolTitle(name, pools = known) {
  const pool = poolNamed(name, pools);
  return pool ? pool.title : name;
}

/** A pool's title with its game's name where the title lacks it, for where no heading says
 * the game: "Blef: standard, 2 players", "Figgie, 4–5 players". */
export function poolFullTitle(name, pools = known) {
  const title = poolTitle(name, pools);
  const game = gameOfPool(name, pools).name;
  return title.toLowerCase().startsWith(game.toLowerCase()) ? title : `${game}: ${title}`;
}

/** The pools grouped by the game they play, in the service's order: [{kind, game, pools}]. */
export function poolsByGame(pools = known) {
  const groups = [];
  for (const pool of pools) {
    const kind = pool.kind || DEFAULT_KIND;
    let group = groups.find((g) => g.kind === kind);
    if (!group) groups.push((group = { kind, game: gameOf(kind), pools: [] }));
    group.pools.push(pool);
  }
  return groups;
}

/** Who sits at a pool's table, from the seat you take: "You against one other person.",
 * "You and 3 others.", "You and 2 to 3 others." */
export function seatWords(pool) {
  const lo = pool.min_players - 1;
  const hi = pool.max_players - 1;
  if (hi === 1) return "You against one other person.";
  return lo === hi ? `You and ${hi} others.` : `You and ${lo} to ${hi} others.`;
}

/** How many play at a pool's tables: "2 players", "4 to 5 players". */
export function playersWords(pool) {
  return pool.min_players === pool.max_players ? `${pool.max_players} players` : `${pool.min_players} to ${pool.max_players} players`;
}

/** The house's name, in a page's title where no game is at hand (the first game's). */
export function houseName() {
  return gameOf(DEFAULT_KIND).name;
}

/** The name of the game a rated seat plays (the queue's answer: its `kind`, else its pool's). */
export function gameNameOfSeat(seat, pools = known) {
  if (seat && seat.kind) return gameOf(seat.kind).name;
  return gameOfPool(seat && seat.pool, pools).name;
}

/** The pool a leaderboard opens at when none is named: the one chosen last in this browser,
 * if the service lists it, else the first listed (null while the list is unknown). */
export function boardPool(pools = known, chosen = null) {
  if (!pools.length) return null;
  return poolNamed(chosen, pools) ? chosen : pools[0].name;
}

// ---- a profile's pools and games (profileview.js)

/** The charts' line colours, taken by the pool's place in the service's list. */
const POOL_COLOURS = ["#0a58ca", "#b02a37", "#146c43", "#6f42c1", "#9a4b00", "#0b6f7c", "#333"];

/** A pool's chart colour: its place in the list's. */
export function poolColour(name, pools) {
  const i = pools.findIndex((p) => p.name === name);
  return i < 0 ? POOL_COLOURS[POOL_COLOURS.length - 1] : POOL_COLOURS[i % POOL_COLOURS.length];
}

/** The pool whose game names a profile's page: the one played most (none: null). */
export function mostPlayedPool(ratings) {
  const most = (ratings || []).reduce((best, r) => (!best || r.games > best.games ? r : best), null);
  return most ? most.pool : null;
}

/** Where a profile's game is, by its pool's game: {table, replay}. */
export function gameLinks(game, pools) {
  const kind = kindOfPool(game.pool, pools);
  return { table: tableAt(kind, game.game_uuid), replay: replayAt(kind, game.game_uuid) };
}

/** A profile's game, its players by place in words: "alice beat bob", and a tie said as one
 * ("ania and bolek (tied) beat carol"); `handle` the profile's own. */
export function byPlaces(game, handle) {
  const seats = [...(game.opponents || [])];
  if (typeof game.place !== "number") return (game.players || []).map(shownName).join(" beat ");
  seats.push({ handle, place: game.place });
  const places = [...new Set(seats.map((s) => s.place))].sort((a, b) => a - b);
  return places.map((place) => {
    const here = seats.filter((s) => s.place === place).map((s) => shownName(s.handle));
    return here.length > 1 ? `${here.join(" and ")} (tied)` : here[0];
  }).join(" beat ");
}
