// Unit tests of the client's pure modules, run by `node --test` (tests/web/test_js_units.py
// runs this file and compares its findings with the Python engine).
import assert from "node:assert/strict";
import { test } from "node:test";

import { actionName, SETS } from "../../app/web/static/bets.js";
import { dealHands, hexToBytes, sha256Hex, verifyRound } from "../../app/web/static/deal.js";
import { maxCardsChoices, reactionLines, REACTIONS, ruleMaxCards } from "../../app/web/static/table.js";

test("there are 88 sets, each named, and 88 is a check", () => {
  assert.equal(SETS.length, 88);
  assert.equal(actionName(88), "check");
  assert.equal(actionName(11), "pair of aces");
});

test("the commitment of the zero seed is the documented one", async () => {
  assert.ok((await sha256Hex(new Uint8Array(32))).startsWith("66687aadf862bd77"));
});

test("the zero seed deals the documented first three cards", async () => {
  assert.deepEqual(await dealHands(new Uint8Array(32), [3]), [[5, 6, 11]]);
});

test("hex that is not hex is refused", () => {
  assert.throws(() => hexToBytes("zz"));
});

test("a round whose hand was swapped fails verification", async () => {
  const seed = new Uint8Array(32);
  const [[a, b, c]] = await dealHands(seed, [3]);
  const card = (i) => ({ value: Math.floor(i / 4), colour: i % 4 });
  const round = {
    seed: "00".repeat(32),
    commitment: await sha256Hex(seed),
    players: [{ nickname: "x", n_cards: 2 }, { nickname: "y", n_cards: 1 }],
    hands: [{ nickname: "x", hand: [card(a), card(b)] }, { nickname: "y", hand: [card(c)] }],
  };
  assert.equal((await verifyRound(round)).ok, true);
  round.hands[1].hand = [card((c + 1) % 24 === a ? (c + 2) % 24 : (c + 1) % 24)];
  assert.equal((await verifyRound(round)).ok, false);
  round.hands[1].hand = [card(c)];
  round.commitment = "0".repeat(64);
  assert.equal((await verifyRound(round)).ok, false);
});

test("the admin may choose 1..11 cards with one or two players seated, 1..3 with eight", () => {
  assert.deepEqual(maxCardsChoices(1), maxCardsChoices(2));
  assert.equal(maxCardsChoices(2).length, 11);
  assert.deepEqual(maxCardsChoices(8), [1, 2, 3]);
});

test("the last reactions read as 'nickname reaction', oldest first", () => {
  const shown = reactionLines([{ nickname: "bob", reaction: "👍", at: 1 }, { nickname: "al", reaction: "🎉", at: 2 }]);
  assert.deepEqual(shown, ["bob 👍", "al 🎉"]);
  assert.deepEqual(reactionLines(undefined), []);
});

// Printed for the Python side: names and deals for seeds it chooses.
if (process.env.BLEF_JS_DUMP) {
  const seeds = JSON.parse(process.env.BLEF_JS_DUMP);
  const deals = [];
  for (const [hex, sizes] of seeds) deals.push(await dealHands(hexToBytes(hex), sizes));
  const maxCards = [2, 3, 4, 5, 6, 7, 8].map(ruleMaxCards);
  console.log("BLEF_DUMP " + JSON.stringify({ names: SETS.map((s) => s.name), deals, maxCards, reactions: REACTIONS }));
}
