// The ladder's screens for every game kind (app/web/static/pools.js, ladder.js and the words
// each game's entry in games.js brings), run by `node --test` from
// tests/web/test_ladder_kinds_units.py, which gives the service's own pools (GET /ladder/pools)
// in BLEF_POOLS.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { GAMES, tableAt } from "../../app/web/static/games.js";
import { lookingTitle, readyTitle, tableHref } from "../../app/web/static/ladder.js";
import {
  boardPool, byPlaces, gameLinks, gameOfPool, kindOfPool, mostPlayedPool, playersWords, poolColour, poolFullTitle, poolsByGame, poolTitle, seatWords,
} from "../../app/web/static/pools.js";

const POOLS = JSON.parse(process.env.BLEF_POOLS || "[]");
const UUID = "0b6b1a7e-2f55-4a4b-9d1c-3c1f0e0d2a11";
const byName = (name) => POOLS.find((p) => p.name === name);
const given = { skip: !POOLS.length && "BLEF_POOLS is not set" };

test("every pool the service lists plays a game this page knows, with its own words for a rated table", given, () => {
  for (const pool of POOLS) {
    assert.ok(Object.hasOwn(GAMES, pool.kind), `${pool.name}: ${pool.kind}`);
    const terms = GAMES[pool.kind].ratedTerms(pool);
    assert.match(terms, /^[A-Z].*\.$/, `${pool.name}: a sentence`);
    for (const other of Object.values(GAMES).filter((g) => g.kind !== pool.kind))
      assert.doesNotMatch(terms, new RegExp(other.name, "i"), `${pool.name} speaks of ${other.name}`);
  }
  assert.equal(GAMES.blef.ratedTerms(byName("standard-2")), "Classic rules, 60 s per move.", "Blef's words as before");
  assert.doesNotMatch(GAMES.figgie.ratedTerms(byName("figgie-4-5")), /per move|Classic/, "Figgie trades for everyone at once");
});

test("the pools are grouped by their game in the service's order, each pool once", given, () => {
  const groups = poolsByGame(POOLS);
  assert.deepEqual(groups.map((g) => g.kind), ["blef", "economancy", "figgie"]);
  assert.deepEqual(groups.flatMap((g) => g.pools), POOLS);
  for (const g of groups) {
    assert.equal(g.game, GAMES[g.kind]);
    assert.ok(g.pools.every((p) => p.kind === g.kind));
  }
});

test("the queue says each pool's seat range in words", given, () => {
  assert.equal(seatWords(byName("standard-2")), "You against one other person.");
  assert.equal(seatWords(byName("standard-3-8")), "You and 2 to 7 others.");
  assert.equal(seatWords(byName("economancy-2")), "You against one other person.");
  assert.equal(seatWords(byName("economancy-3-4")), "You and 2 to 3 others.");
  assert.equal(seatWords(byName("figgie-4-5")), "You and 3 to 4 others.");
  assert.equal(seatWords({ min_players: 4, max_players: 4 }), "You and 3 others.");
  assert.equal(playersWords(byName("figgie-4-5")), "4 to 5 players");
  assert.equal(playersWords(byName("economancy-2")), "2 players");
});

test("the page's titles name the game of the pool or the seat, not always Blef", given, () => {
  assert.equal(lookingTitle("standard-3-8", POOLS), "Looking for a rated game · Blef");
  assert.equal(lookingTitle("economancy-2", POOLS), "Looking for a rated game · Economancy");
  assert.equal(lookingTitle("figgie-4-5", POOLS), "Looking for a rated game · Figgie");
  assert.equal(readyTitle({ state: "seated", pool: "standard-2", game_uuid: UUID }, POOLS), "● Your table is ready · Blef");
  assert.equal(readyTitle({ state: "seated", pool: "figgie-4-5", kind: "figgie", game_uuid: UUID }, POOLS), "● Your table is ready · Figgie");
  // The queue's answer names the kind even before the page has the list.
  assert.equal(readyTitle({ state: "seated", kind: "economancy", game_uuid: UUID }, []), "● Your table is ready · Economancy");
});

test("a pool's title says its game where the service's title does not", given, () => {
  assert.equal(poolFullTitle("standard-2", POOLS), "Blef: standard, 2 players");
  assert.equal(poolFullTitle("figgie-4-5", POOLS), "Figgie, 4–5 players");
  assert.equal(poolFullTitle("economancy-3-4", POOLS), "Economancy, 3–4 players");
  assert.equal(poolTitle("economancy-2", POOLS), "Economancy, 2 players");
  assert.equal(poolTitle("no-such-pool", POOLS), "no-such-pool");
});

test("a profile's game links to its own kind's table and replay", given, () => {
  const of = (pool) => gameLinks({ pool, game_uuid: UUID }, POOLS);
  assert.deepEqual(of("standard-2"), { table: `#/game/${UUID}`, replay: `#/replay/${UUID}` });
  assert.deepEqual(of("economancy-3-4"), { table: `#/economancy/${UUID}`, replay: `#/economancy/${UUID}/replay` });
  assert.deepEqual(of("figgie-4-5"), { table: `#/figgie/${UUID}`, replay: `#/figgie/${UUID}/replay` });
  assert.equal(tableHref({ kind: "figgie", game_uuid: UUID }), tableAt("figgie", UUID));
});

test("a leaderboard without a pool opens the one chosen last, if listed, else the first", given, () => {
  assert.equal(boardPool(POOLS, "figgie-4-5"), "figgie-4-5");
  assert.equal(boardPool(POOLS, "gone-pool"), POOLS[0].name);
  assert.equal(boardPool(POOLS, null), POOLS[0].name);
  assert.equal(boardPool([], "figgie-4-5"), null);
});

test("a profile is named by the game played most; each pool's chart has a colour of its own", given, () => {
  assert.equal(mostPlayedPool([{ pool: "standard-2", games: 2 }, { pool: "figgie-4-5", games: 5 }]), "figgie-4-5");
  assert.equal(mostPlayedPool([]), null);
  assert.equal(gameOfPool("figgie-4-5", POOLS).name, "Figgie");
  const colours = POOLS.map((p) => poolColour(p.name, POOLS));
  assert.equal(new Set(colours).size, POOLS.length);
});

test("players are said by place, a tie as one", () => {
  const won = { place: 1, players: ["ania", "bolek"], opponents: [{ handle: "bolek", place: 2 }] };
  assert.equal(byPlaces(won, "ania"), "ania beat bolek");
  const tied = { place: 1, opponents: [{ handle: "bolek", place: 1 }, { handle: "random_(AI)", place: 3 }] };
  assert.equal(byPlaces(tied, "ania"), "bolek and ania (tied) beat Beginner (computer)");
  assert.equal(byPlaces({ place: null, players: ["a", "b"], opponents: [] }, "a"), "a beat b");
});

test("whatever the list, every pool is in one group, of its own game, in the list's order", () => {
  let seed = 29;
  const next = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const kinds = Object.keys(GAMES);
  for (let round = 0; round < 300; round++) {
    const list = Array.from({ length: next(12) }, (_, i) => ({ name: `p${i}`, title: `P ${i}`, min_players: 2, max_players: 2 + next(6), kind: kinds[next(kinds.length)] }));
    const groups = poolsByGame(list);
    assert.equal(new Set(groups.map((g) => g.kind)).size, groups.length);
    assert.deepEqual(groups.flatMap((g) => g.pools).map((p) => p.name).sort(), list.map((p) => p.name).sort());
    for (const g of groups) {
      assert.deepEqual(g.pools, list.filter((p) => p.kind === g.kind), "the list's order within a game");
      assert.equal(kindOfPool(g.pools[0].name, list), g.kind);
    }
    assert.deepEqual(groups.map((g) => g.kind), [...new Set(list.map((p) => p.kind))], "games in the order they first appear");
  }
});

test("the ladder's screens name no game kind in their code: each game's words are its entry's", () => {
  const screens = ["ladder.js", "ladderview.js", "profileview.js", "ratinghelp.js", "ratedtable.js", "accountbar.js", "pools.js"];
  const names = Object.values(GAMES).flatMap((g) => [g.kind, g.name]);
  for (const file of screens) {
    const code = readFileSync(new URL(`../../app/web/static/${file}`, import.meta.url), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "") // comments may say what a screen is for
      .replace(/^\s*\/\/.*$/gm, "")
      .replace(/"blef:[a-z-]+"/g, ""); // this browser's storage keys, named for the house
    for (const name of names) assert.doesNotMatch(code, new RegExp(`\\b${name}\\b`, "i"), `${file} names ${name}`);
  }
});
