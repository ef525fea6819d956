// Unit tests of the waiting page's words (app/web/static/ladder.js), run by `node --test`
// (tests/web/test_browser_queue.py runs this file).
import assert from "node:assert/strict";
import { test } from "node:test";

import { FILL_CHOICES, FILL_DEFAULT, fillCountdown, lookingLine, noLongerLooking, tableHref } from "../../app/web/static/ladder.js";

test("the fill offered first is one of the choices, a minute", () => {
  assert.equal(FILL_DEFAULT, "60");
  assert.ok(FILL_CHOICES.some((c) => c.value === FILL_DEFAULT));
});

test("the countdown counts down to the fill, then says it is filling, and is absent without a fill", () => {
  assert.equal(fillCountdown({ fill_after: 60, waited_seconds: 17.2 }), "Computer players of your strength fill your table in 43 s if no one is found.");
  assert.equal(fillCountdown({ fill_after: 60, waited_seconds: 59.1 }), "Computer players of your strength fill your table in 1 s if no one is found.");
  assert.equal(fillCountdown({ fill_after: 0, waited_seconds: 0 }), "Filling your table with computer players of your strength…");
  assert.equal(fillCountdown({ fill_after: 30, waited_seconds: 45 }), "Filling your table with computer players of your strength…");
  assert.equal(fillCountdown({ waited_seconds: 5 }), null);
  assert.equal(fillCountdown(null), null);
});

test("the people looking are counted in words, you included", () => {
  assert.equal(lookingLine({ looking: 1 }), "You are the only one looking in this pool now.");
  assert.equal(lookingLine({ looking: 3 }), "3 people are looking in this pool now, you included.");
  assert.equal(lookingLine({}), "You are the only one looking in this pool now.");
  assert.equal(lookingLine({ looking: "7" }), "You are the only one looking in this pool now.");
});

test("a page looking no more says why: dropped, or a table called off by someone else or by you", () => {
  assert.match(noLongerLooking({ state: "idle", absent_after: 20 }, "ania"), /^You are no longer in the queue: this page stopped answering for over 20 seconds/);
  const off = (absent) => ({ state: "idle", last_result: { void: true, called_off: true, absent } });
  assert.equal(noLongerLooking(off(["bolek"]), "ania"), "Your rated table was called off because bolek never came to it. It does not count: nobody's rating changed.");
  assert.equal(noLongerLooking(off(["ania"]), "ania"), "Your rated table was called off because you did not open it in time. It does not count: nobody's rating changed.");
  assert.equal(noLongerLooking(off(["b", "c"]), "ania"), "Your rated table was called off because b, c never came to it. It does not count: nobody's rating changed.");
});

test("a seat at a rated table goes to Blef's table, or to the table of the game the answer names", () => {
  const uuid = "0b6b1a7e-2f55-4a4b-9d1c-3c1f0e0d2a11";
  assert.equal(tableHref({ state: "seated", game_uuid: uuid, pool: "standard-2" }), `#/game/${uuid}`);
  assert.equal(tableHref({ state: "seated", game_uuid: uuid, kind: "figgie", path: `/figgie/games/${uuid}` }), `#/figgie/${uuid}`);
  assert.equal(tableHref({ state: "seated", game_uuid: uuid, kind: "economancy" }), `#/economancy/${uuid}`);
});
