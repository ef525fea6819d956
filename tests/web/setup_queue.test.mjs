// Unit tests of the set-up queue the table stores share (app/web/static/setup.js), run by
// `node --test` (tests/web/test_setup_queue_units.py runs this file). Each change's answer
// is a promise the test settles, as a slow server would answer, in any order it likes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { isSetup, SETUP_WORDS, setupQueue } from "../../app/web/static/setup.js";

/** A change whose answer the test gives: `send` for the queue, `answer(problem)` to settle
 * it (null: taken), `started` whether the queue has sent it yet. */
function change(log, name) {
  let settle;
  const c = { started: false };
  const answered = new Promise((resolve) => { settle = resolve; });
  c.send = () => { c.started = true; log.push(name); return answered; };
  c.answer = (problem = null) => settle(problem);
  return c;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test("a change pressed while another is on its way is sent once that one is answered, in order", async () => {
  const s = {};
  let redraws = 0;
  const queue = setupQueue(s, () => { redraws += 1; });
  const log = [];
  const [a, b, c] = ["invite", "ready", "start"].map((n) => change(log, n));
  const results = [queue("invite-aiagent", a.send), queue("ready", b.send), queue("start", c.send)];
  await tick();
  assert.deepEqual(log, ["invite"]);
  assert.equal(s.setup.pending, 3);
  a.answer();
  await tick();
  assert.deepEqual(log, ["invite", "ready"]);
  c.answer(); // answered early: still sent only after "ready" is
  await tick();
  assert.deepEqual(log, ["invite", "ready"]);
  b.answer();
  assert.deepEqual(await Promise.all(results), [true, true, true]);
  assert.deepEqual(log, ["invite", "ready", "start"]);
  assert.equal(s.setup.pending, 0);
  assert.deepEqual(s.setup.problems, []);
  assert.ok(redraws >= 6); // each press and each answer is drawn
});

test("a refused change is kept in words and the change after it still goes", async () => {
  const s = {};
  const queue = setupQueue(s, () => {});
  const log = [];
  const [a, b] = ["start", "invite"].map((n) => change(log, n));
  const first = queue("start", a.send);
  const second = queue("invite-aiagent", b.send);
  a.answer("You need at least 2 players to start.");
  await tick();
  assert.deepEqual(log, ["start", "invite"]);
  b.answer();
  assert.equal(await first, false);
  assert.equal(await second, true);
  assert.deepEqual(s.setup.problems, ["Starting the game: not done. You need at least 2 players to start."]);
});

test("a send that fails outright is told as a refusal, and the queue goes on", async () => {
  const s = {};
  const queue = setupQueue(s, () => {});
  const broken = queue("ready", () => Promise.reject(new Error("a bug")));
  const log = [];
  const after = change(log, "remove");
  const next = queue("remove", after.send);
  after.answer();
  assert.equal(await broken, false);
  assert.equal(await next, true);
  assert.deepEqual(s.setup.problems, ["Your readiness: not done. Something went wrong. Please try again."]);
});

test("the refusals are kept until a press made once every change was answered", async () => {
  const s = {};
  const queue = setupQueue(s, () => {});
  await queue("set-time-limit", async () => "A time limit is 0 to 300 seconds.");
  await queue("ready", async () => "Not now."); // pressed after: the old refusal is done with
  assert.deepEqual(s.setup.problems, ["Your readiness: not done. Not now."]);
  const log = [];
  const slow = change(log, "invite");
  const pending = queue("ai", slow.send);
  const refused = queue("start", async () => "Too few players.");
  slow.answer("The table is full.");
  await Promise.all([pending, refused]);
  assert.deepEqual(s.setup.problems, [
    "Inviting a computer player: not done. The table is full.",
    "Starting the game: not done. Too few players.",
  ]);
});

test("set-up changes are queued and moves are not", () => {
  for (const path of Object.keys(SETUP_WORDS)) assert.ok(isSetup(path), path);
  for (const path of ["play", "move", "resign", "report", "react", "leave", "rematch", "toString", "constructor"]) {
    assert.ok(!isSetup(path), path);
  }
});
