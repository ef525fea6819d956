// The one way people read a player's name (app/web/static/playernames.js), run by `node
// --test` from tests/web/test_player_names.py, which also compares the levels with the
// ladder's (app/ladder/bots.py) through BLEF_LEVELS.
import assert from "node:assert/strict";
import { test } from "node:test";

import { LEVELS } from "../../app/web/static/bleftable.js";
import { isComputer, shownName, tableTitle } from "../../app/web/static/playernames.js";

test("a computer player is named by its level at the table and on the ladder alike", () => {
  for (const level of LEVELS) {
    const shown = `${level.label} (computer)`;
    assert.equal(shownName(`${level.agent}_(AI)`), shown);
    assert.equal(shownName(`AI_${level.label}`), shown);
    assert.equal(shownName(`${level.agent}_3_(AI)`), `${level.label} 3 (computer)`);
  }
  assert.equal(shownName("Dazhbog_(AI)"), "Medium (computer)"); // an established alias
  assert.equal(shownName("Mystery_(AI)"), "Mystery (computer)"); // an agent the page does not know
});

test("a person keeps their own name, even one close to a computer's", () => {
  for (const name of ["Kasia", "AI_Nobody", "random", "Beginner", "AI", "ai_Beginner", "random_AI"]) {
    assert.equal(shownName(name), name);
    assert.equal(isComputer(name), false);
  }
  assert.equal(isComputer("random_(AI)"), true);
});

test("a rated table is headed as one, a room by its number", () => {
  const st = { room: 4, players: [{}, {}, {}] };
  assert.equal(tableTitle(st, { rated: "standard-3-8" }), "Rated game · 3 players");
  assert.equal(tableTitle(st, { player_uuid: "x" }), "Room 4");
  assert.equal(tableTitle(st, null), "Room 4");
});

test("the page's levels are the ladder's", { skip: !process.env.BLEF_LEVELS }, () => {
  const ladder = JSON.parse(process.env.BLEF_LEVELS || "[]");
  assert.deepEqual(LEVELS.map((l) => [l.agent, l.label, `AI_${l.label}`]), ladder);
});
