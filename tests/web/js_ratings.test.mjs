// Unit tests of the client's rating helpers (ladder.js, ratedtable.js, accountbar.js), run by
// `node --test` from tests/web/test_js_units.py: the displayed scale, lines that add up as
// they read (a property over many random results), the stakes in words, one chart per pool.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.localStorage ??= { getItem: () => null, setItem: () => {}, removeItem: () => {} };

const { ERROR_CODES } = await import("../../app/web/static/errors.js");
const {
  changeWords, displayOf, historySeries, points, poolHistory, rating, recordWords, resultLine, shown, shownChange, signed,
  signedPoints, stakeWords,
} = await import("../../app/web/static/ladder.js");
const { ratedSeatOf } = await import("../../app/web/static/ratedtable.js");
const { headerRating } = await import("../../app/web/static/accountbar.js");

test("a rated game's result reads as a sentence on the displayed scale, with true minus signs", () => {
  assert.equal(resultLine({ place: 1, of: 2, rating_before: 0, rating_after: 3.43, change: 3.43, display_before: 1500, display_after: 1603, display_change: 103 }),
    "Your rating: 1500 → 1603 (+103), place 1 of 2");
  assert.equal(resultLine({ place: 2, of: 2, rating_before: 0, rating_after: -1.84, change: -1.84, display_before: 1500, display_after: 1445, display_change: -55 }),
    "Your rating: 1500 → 1445 (−55), place 2 of 2");
  // an answer without the displayed fields (an older server): the same scale from the ordinal
  assert.equal(resultLine({ place: 2, of: 2, rating_before: 0, rating_after: -1.84, change: -1.84 }),
    "Your rating: 1500 → 1445 (−55), place 2 of 2");
  assert.equal(resultLine({ game_uuid: "g", void: true }), "This game did not count for ratings.");
  assert.deepEqual([rating(-0.04), signed(0.01), signed(-0.06)], ["0.0", "±0.0", "−0.1"]);
  assert.deepEqual([points(1500), points(-3), signedPoints(0), signedPoints(-7), signedPoints(12)], ["1500", "−3", "±0", "−7", "+12"]);
  assert.equal(displayOf(0), 1500);
  assert.equal(shown({ rating: 3.43 }), 1603);
  assert.equal(shown({ rating: 3.43, display_rating: 1603 }), 1603);
});

test("every result line adds up as it reads, whatever the figures (many random results)", () => {
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const number = (text) => Number(text.replace("−", "-").replace("±", ""));
  for (let i = 0; i < 2000; i++) {
    const before = Math.round((random() * 60 - 20) * 100) / 100;
    const after = Math.round((before + random() * 12 - 6) * 100) / 100;
    const body = i % 2 ? { rating_before: before, rating_after: after } : {
      rating_before: before, rating_after: after, display_before: displayOf(before), display_after: displayOf(after),
    };
    const m = changeWords(body).match(/^(−?\d+) → (−?\d+) \(([+−±]\d+)\)$/);
    assert.ok(m, changeWords(body));
    assert.equal(number(m[2]) - number(m[1]), number(m[3]), changeWords(body));
    assert.equal(shownChange(body).change, number(m[3]));
  }
});

test("the stakes and a record are said in words", () => {
  assert.equal(stakeWords({ rated: true, if_first: 103, if_last: -55 }), "a win +103, a loss −55");
  assert.equal(stakeWords({ rated: true, if_first: 98, if_last: -83 }, 3), "first place +98, last place −83");
  assert.equal(stakeWords({ rated: false }), "");
  assert.equal(recordWords({ wins: 1, losses: 2 }), "1 win, 2 losses");
  assert.equal(recordWords({ wins: 0, losses: 1 }), "0 wins, 1 loss");
  assert.ok(ERROR_CODES.includes("not_a_rated_game"));
});

test("a game's player finds its rated seat: a person by handle, a computer level by its agent", () => {
  const rated = { seats: [{ handle: "ania" }, { handle: "AI_Easy", agent: "bold", level: "easy" }] };
  assert.equal(ratedSeatOf(rated, { nickname: "ania" }).handle, "ania");
  assert.equal(ratedSeatOf(rated, { nickname: "bold_(AI) Easy computer", ai_agent: "bold" }).handle, "AI_Easy");
  assert.equal(ratedSeatOf(rated, { nickname: "AI_Easy" }), null, "a person named like a level is not the level");
  assert.equal(ratedSeatOf(null, { nickname: "ania" }), null);
});

test("the header shows the rating of the pool played most, and a newcomer's 1500 provisional", () => {
  assert.deepEqual(headerRating([]), { display: 1500, provisional: true });
  assert.deepEqual(headerRating([
    { pool: "standard-2", rating: 1, display_rating: 1530, games: 3, provisional: true },
    { pool: "standard-3-8", rating: 5, display_rating: 1650, games: 12, provisional: false },
  ]), { display: 1650, provisional: false });
});

test("each pool's history is a chart of its own games: no line runs flat across another pool's", () => {
  const games = [ // newest first, as the service lists them
    { game_uuid: "c", pool: "standard-3-8", rating_before: 0, rating_after: 2, display_before: 1500, display_after: 1560, place: 1, of: 3 },
    { game_uuid: "v", pool: "standard-2", void: true },
    { game_uuid: "b", pool: "standard-2", rating_before: 3, rating_after: 1, display_before: 1590, display_after: 1530, place: 2, of: 2 },
    { game_uuid: "a", pool: "standard-2", rating_before: 0, rating_after: 3, display_before: 1500, display_after: 1590, place: 1, of: 2 },
  ];
  const two = poolHistory(games, "standard-2");
  assert.deepEqual(two.x, [0, 1, 2]);
  assert.deepEqual(two.values, [1500, 1590, 1530]);
  assert.deepEqual(two.games.map((g) => g.game_uuid), ["a", "b"]);
  const many = poolHistory(games, "standard-3-8");
  assert.deepEqual([many.x, many.values], [[0, 1], [1500, 1560]]);
  assert.deepEqual(historySeries(games, ["standard-2", "standard-3-8", "other"]).map((p) => [p.name, p.values.length]),
    [["standard-2", 3], ["standard-3-8", 2]]);
  for (const p of historySeries(games, ["standard-2", "standard-3-8"]))
    assert.ok(p.values.every((v) => typeof v === "number"), "no gaps: every point is that pool's own game");
});
