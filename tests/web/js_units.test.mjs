// Unit tests of the client's pure modules, run by `node --test` (tests/web/test_js_units.py
// runs this file and compares its findings with the Python engine).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  actionName, cardMatters, cardName, checkOf, exampleCards, explainSet, KINDS, SETS, setExists, tableFor,
} from "../../app/web/static/bets.js";
import { ERROR_CODES, words } from "../../app/web/static/errors.js";
import {
  FILL_CHOICES, ipHost, matchWindow, poolTitle, queueBody, waitingLine, waitWords,
} from "../../app/web/static/ladder.js";
import { BACKOFF, live, reconnectDelay, socketUrl } from "../../app/web/static/live.js";
import { DEFAULT_KIND, GAMES, gameOf, PARTS, REPLAY_PARTS } from "../../app/web/static/games.js";
import { parseMarkdown } from "../../app/web/static/markdown.js";
import { commonCount, dealHands, dealRound, hexToBytes, sha256Hex, verifyRound } from "../../app/web/static/deal.js";
import { judgeBet, marksFor, maxCardsFor, rulesInWords, usableJokers } from "../../app/web/static/variants.js";
import { reactionLines, REACTIONS, secondsLeft, urgency } from "../../app/web/static/table.js";
import {
  levelOf, loserIsOut, maxCardsChoices, roundCause, ruleMaxCards, tipFor,
} from "../../app/web/static/bleftable.js";

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

test("the kinds cover the 88 bets once each, in rising order", () => {
  assert.deepEqual(KINDS.flatMap((k) => k.ids), SETS.map((s) => s.id));
  assert.equal(KINDS.find((k) => k.key === "flush").ids[0] > KINDS.find((k) => k.key === "full-house").ids[0], true);
});

test("every set's example cards make that set, and the cards that matter include them", () => {
  for (const s of SETS) {
    const cards = exampleCards(s.id);
    assert.equal(setExists(s.id, cards), true, s.name);
    assert.ok(cards.every((c) => cardMatters(s.id, c)), s.name);
    assert.equal(new Set(cards.map((c) => c.value * 4 + c.colour)).size, cards.length, s.name);
  }
});

test("a set is explained by what it needs and what was there", () => {
  assert.equal(explainSet(11, [{ value: 5, colour: 0 }]), "It needs 2 aces; there was 1 ace.");
  assert.equal(explainSet(66, []), "It needs 5 clubs; there were 0.");
});

const snap = (history, extra = {}) => ({
  round_number: 2, max_cards: 3, time_limit: 30, last_modified: 100,
  players: [{ nickname: "al", n_cards: 1 }, { nickname: "bo", n_cards: 3 }], history, ...extra,
});

test("a round ended by a check names the checker, the bet and who was wrong", () => {
  const s = snap([{ player: "al", action_id: 11 }, { player: "bo", action_id: 88 }, { player: "bo", action_id: 89 }], { loser: "bo" });
  const cause = roundCause(s);
  assert.deepEqual(cause, { kind: "check", loser: "bo", checker: "bo", bet: { player: "al", action_id: 11 }, existed: true });
  assert.equal(loserIsOut(s, cause), true);
});

test("a round without a check is a timeout when the mover's deadline passed, else a resignation", () => {
  const s = snap([{ player: "al", action_id: 3 }, { player: "bo", action_id: 89 }], { loser: "bo", last_modified: 130 });
  const before = { round_number: 2, history: [{ player: "al", action_id: 3 }], cp_nickname: "bo", move_deadline: 130 };
  assert.equal(roundCause(s, before).kind, "timeout");
  assert.equal(roundCause({ ...s, last_modified: 110 }, before).kind, "resign");
  assert.equal(roundCause({ ...s, history: [{ player: "al", action_id: 3 }, { player: "al", action_id: 89 }], loser: "al" }, before).kind, "resign");
  assert.equal(roundCause({ ...s, time_limit: 0 }).kind, "resign");
  const after = { players: [{ nickname: "al", n_cards: 1 }, { nickname: "bo", n_cards: 0 }] };
  assert.equal(roundCause(s, null, after).kind, "timeout-or-resign");
  assert.equal(roundCause({ ...s, max_cards: 5 }, null, after).kind, "resign");
  assert.equal(roundCause({ ...s, max_cards: 5 }, null, { players: [{ nickname: "bo", n_cards: 4 }] }).kind, "timeout");
});

test("the countdown reads the service's own clock and grows urgent", () => {
  assert.equal(secondsLeft(130, 100, 0), 30);
  assert.equal(secondsLeft(130, 100, 29.5), 1);
  assert.equal(secondsLeft(130, 100, 40), 0);
  assert.equal(secondsLeft(null, 100, 0), null);
  assert.deepEqual([urgency(30, 30), urgency(9, 30), urgency(4, 30)], ["calm", "low", "critical"]);
});

test("every documented error code has words for people, never the service's own text", () => {
  for (const code of ERROR_CODES) assert.ok(words({ code, message: "Bad input value in 'x'" }).length > 10);
  assert.equal(words({ code: "no-such", status: 500 }), "Something went wrong. Please try again.");
});

test("the guide's first tip teaches the first bet, then checking", () => {
  const state = { status: "Running", history: [] };
  assert.equal(tipFor({ state, me: "al", myTurn: true, seenKeys: new Set() }).key, "first-bet");
  const later = { status: "Running", history: [{ player: "bo", action_id: 6 }] };
  assert.match(tipFor({ state: later, me: "al", myTurn: true, seenKeys: new Set() }).text, /pair of nines/);
});

test("computer players are named by level, the established names included", () => {
  assert.equal(levelOf("Dazhbog").label, "Medium");
  assert.equal(levelOf("bayesian").label, "Hard");
  assert.equal(levelOf(undefined), null);
});

test("the rules' Markdown reads as headings, paragraphs and lists", () => {
  const blocks = parseMarkdown("# T\n\nSome **bold** text\nwraps.\n\n- one\n  more\n- two\n\n1. first\n");
  assert.deepEqual(blocks.map((b) => b.type), ["h", "p", "ul", "ol"]);
  assert.deepEqual(blocks[1].parts[1], { t: "b", v: "bold" });
  assert.equal(blocks[2].items.length, 2);
});

test("the 32-card deck has 140 bets, 7s and 8s, and its check is 140", () => {
  const t = tableFor(32);
  assert.equal(t.sets.length, 140);
  assert.equal(t.check, 140);
  assert.equal(checkOf({ rules: { deck_size: 32 } }), 140);
  assert.equal(checkOf({ rules: { deck_size: 24 } }), 88);
  assert.equal(checkOf({}), 88);
  assert.equal(actionName(140, 32), "check");
  assert.equal(actionName(141, 32), "lost the round");
  assert.equal(actionName(88, 32), "full house, jacks over queens");
  assert.equal(actionName(44, 32), "straight 7-J");
  assert.equal(actionName(124, 32), "straight flush 7-J of clubs");
  assert.equal(cardName({ value: 0, colour: 2 }, 32), "seven of hearts");
  assert.equal(cardName({ value: 1, colour: 0 }, 32), "eight of clubs");
  assert.equal(cardName({ value: 0, colour: 2 }), "nine of hearts");
  assert.equal(cardName({ value: -1, colour: -1 }, 32), "joker");
  assert.equal(cardName({ value: -2, colour: -2 }), "blank");
  assert.deepEqual(t.kinds.flatMap((k) => k.ids), t.sets.map((s) => s.id));
  for (const s of t.sets) {
    const cards = exampleCards(s.id, 32);
    assert.equal(setExists(s.id, cards, 32), true, s.name);
    assert.ok(cards.every((c) => cardMatters(s.id, c, 32)), s.name);
  }
});

test("jokers stand in for missing cards, blanks for nothing", () => {
  const joker = { value: -1, colour: -1 };
  const blank = { value: -2, colour: -2 };
  const aces = [{ value: 7, colour: 0 }, joker, blank];
  const pairOfAces = tableFor(32).sets.findIndex((s) => s.name === "pair of aces");
  assert.equal(setExists(pairOfAces, aces, 32), false);
  assert.equal(setExists(pairOfAces, aces, 32, 1), true);
  assert.equal(explainSet(pairOfAces, aces, 32), "It needs 2 aces; there was 1 ace.");
});

test("a check counts only the bettor's jokers and the common ones, and rings those it used", () => {
  const joker = { value: -1, colour: -1 };
  const pairOfAces = tableFor(32).sets.findIndex((s) => s.name === "pair of aces");
  const snap = {
    rules: { deck_size: 32, jokers: 2 },
    hands: [{ nickname: "al", hand: [{ value: 7, colour: 1 }] }, { nickname: "bo", hand: [joker] }],
    common_hand: [],
  };
  const bet = { player: "al", action_id: pairOfAces };
  assert.equal(usableJokers(snap, "al"), 0);
  assert.equal(judgeBet(snap, bet).there, false); // bo's joker does not help al
  assert.equal(judgeBet(snap, { ...bet, player: "bo" }).there, true);
  const common = { ...snap, common_hand: [joker] };
  assert.deepEqual(judgeBet(common, bet), { there: true, missing: 1, wild: 1, jokersUsed: 1 });
  const marks = marksFor(common, bet);
  assert.equal(marks("al", { value: 7, colour: 1 }, 0), true);
  assert.equal(marks("bo", joker, 0), false);
  assert.equal(marks("~common", joker, 0), true);
});

test("the rules read in words", () => {
  assert.equal(rulesInWords({ deck_size: 32, jokers: 2, blanks: 0, common_cards: -1 }), "32 cards, 2 jokers, 1 common card growing");
  assert.equal(rulesInWords({ deck_size: 32, jokers: 1, common_cards: 1 }), "32 cards, 1 joker, 1 common card");
  assert.equal(rulesInWords({ deck_size: 24, blanks: 2, common_cards: -2 }), "24 cards, 2 blanks, 1 common card growing slowly");
  assert.equal(rulesInWords(undefined), "24 cards (9 to A), the classic game");
});

test("common cards grow with the cards players hold", () => {
  assert.equal(commonCount({ common_cards: 2 }, [1, 1]), 2);
  assert.equal(commonCount({ common_cards: -1 }, [3, 1, 0, 2]), 2);
  assert.equal(commonCount({ common_cards: -2 }, [3, 1, 0, 2]), 1);
  assert.equal(commonCount(null, [3]), 0);
});

test("the classic deal is unchanged by the version 2 code", async () => {
  assert.deepEqual((await dealRound(new Uint8Array(32), [3])).hands, [[5, 6, 11]]);
  const v2 = await dealRound(new Uint8Array(32), [3], 1, 32);
  assert.equal(v2.hands[0].length + v2.common.length, 4);
  assert.ok(v2.hands[0].concat(v2.common).every((i) => i >= 0 && i < 32));
});

// Printed for the Python side: names and deals for seeds it chooses.
if (process.env.BLEF_JS_DUMP) {
  const seeds = JSON.parse(process.env.BLEF_JS_DUMP);
  const deals = [];
  for (const [hex, sizes] of seeds) deals.push(await dealHands(hexToBytes(hex), sizes));
  const maxCards = [2, 3, 4, 5, 6, 7, 8].map(ruleMaxCards);
  // Which sets exist among each dealt pool: compared with engine/sets.py.
  const card = (i) => ({ value: Math.floor(i / 4), colour: i % 4 });
  const exists = deals.map((hands) => SETS.map((s) => setExists(s.id, hands.flat().map(card))));
  console.log("BLEF_DUMP " + JSON.stringify({ names: SETS.map((s) => s.name), deals, maxCards, reactions: REACTIONS, exists }));
}

// Printed for the Python side: the 32-card table, joker judgements, the maximum of cards under
// variant rules, and rounds of every variant dealt by the engine, verified here.
if (process.env.BLEF_JS_VARIANTS) {
  const given = JSON.parse(process.env.BLEF_JS_VARIANTS);
  const t32 = tableFor(32);
  const card = (i) => ({ value: Math.floor(i / 4), colour: i % 4 });
  const exists = given.pools.map(([pool, wild]) => t32.sets.map((s) => (setExists(s.id, pool.map(card), 32, wild) ? "1" : "0")).join(""));
  const maxCards = given.rules.map((r) => [2, 3, 4, 5, 6, 7, 8].map((n) => maxCardsFor(n, r)));
  const verified = [];
  const dealt = [];
  for (const round of given.rounds) {
    verified.push((await verifyRound(round)).ok);
    const sizes = round.players.filter((p) => p.n_cards > 0).map((p) => p.n_cards);
    const total = round.rules.deck_size + round.rules.jokers + round.rules.blanks;
    const d = await dealRound(hexToBytes(round.seed), sizes, commonCount(round.rules, sizes), total);
    dealt.push([d.hands, d.common]);
  }
  console.log("BLEF_VARIANTS " + JSON.stringify({ names: t32.sets.map((s) => s.name), exists, maxCards, verified, dealt }));
}

test("the ladder's codes have words, and the waiting line counts seconds", () => {
  for (const code of ["unknown_account", "handle_taken", "unknown_pool", "unknown_handle", "already_at_table", "ladder_unavailable", "rate_limited",
    "passkeys_unavailable", "passkey_refused", "passkey_malformed", "challenge_unknown", "challenge_expired", "wrong_origin", "unknown_passkey",
    "passkey_not_verified", "passkey_counter", "passkey_exists", "last_way_in", "account_busy", "reserved_handle", "cannot_become_bot",
    "bots_cannot_fill", "invalid_cursor", "too_many_accounts"])
    assert.ok(ERROR_CODES.includes(code), code);
  assert.equal(waitingLine(1.4), "Waited 1 second so far for players near your level.");
  assert.equal(waitingLine(12.9), "Waited 12 seconds so far for players near your level.");
  assert.equal(matchWindow(60), 9);
  const pools = [{ name: "standard-3-8", title: "standard, 3–8 players", min_players: 3, max_players: 8, time_limit: 60, kind: "blef" }];
  assert.equal(poolTitle("standard-3-8", pools), "standard, 3–8 players");
  assert.equal(poolTitle("standard-3-8", []), "standard-3-8", "the name itself until the service lists the pools");
});

test("the fill wait is sent only when chosen, as a number of seconds, and said in words", () => {
  assert.deepEqual(queueBody("standard-2", ""), { pool: "standard-2" });
  assert.deepEqual(queueBody("standard-3-8", "120"), { pool: "standard-3-8", fill_after: 120 });
  for (const choice of FILL_CHOICES.filter((c) => c.value)) {
    const n = Number(choice.value);
    assert.ok(Number.isInteger(n) && n >= 0 && n <= 300, choice.value); // the service's bounds
  }
  assert.deepEqual([waitWords(30), waitWords(60), waitWords(120), waitWords(1), waitWords(90)],
    ["30 seconds", "1 minute", "2 minutes", "1 second", "90 seconds"]);
});

test("a passkey needs a page opened by a domain name, not an address", () => {
  for (const host of ["127.0.0.1", "[::1]", "10.0.0.12"]) assert.ok(ipHost(host), host);
  for (const host of ["localhost", "blef.example", "1x.example"]) assert.ok(!ipHost(host), host);
});

// ---------------------------------------------------------------- live.js: the reconnecting socket
// A fake socket and a fake clock: each `new FakeSocket(url)` is kept, and the test opens,
// closes and feeds it; timers run when the test moves the clock on.
function fakeWorld({ random = () => 0, failToConstruct = 0 } = {}) {
  const world = { t: 0, timers: [], sockets: [], constructs: 0 };
  class FakeSocket {
    constructor(url) {
      world.constructs += 1;
      if (world.constructs <= failToConstruct) throw new Error("no network");
      this.url = url;
      this.closed = false;
      world.sockets.push(this);
    }
    close() { this.closed = true; }
    serverOpens() { this.onopen && this.onopen(); }
    serverSends(data) { this.onmessage && this.onmessage({ data }); }
    serverCloses() { this.closed = true; this.onclose && this.onclose(); }
  }
  world.env = {
    WebSocket: FakeSocket,
    url: "ws://test/ws",
    now: () => world.t,
    random,
    setTimeout: (f, ms) => { const timer = { at: world.t + ms, f }; world.timers.push(timer); return timer; },
    clearTimeout: (timer) => { world.timers = world.timers.filter((x) => x !== timer); },
  };
  world.advance = (ms) => {
    const until = world.t + ms;
    for (;;) {
      const due = world.timers.filter((x) => x.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      world.timers = world.timers.filter((x) => x !== due);
      world.t = due.at;
      due.f();
    }
    world.t = until;
  };
  world.last = () => world.sockets[world.sockets.length - 1];
  return world;
}

function watched(world) {
  const seen = { opens: 0, closes: 0, frames: [] };
  const handle = live("/ws", {
    onOpen: () => { seen.opens += 1; },
    onClose: () => { seen.closes += 1; },
    onMessage: (f) => seen.frames.push(f),
  }, world.env);
  return { seen, handle };
}

test("the wait before a reconnect starts at 2 s, doubles after each failed try and stops at 30 s", () => {
  const waits = [0, 1, 2, 3, 4, 5, 9].map((n) => reconnectDelay(n, 0));
  assert.deepEqual(waits, [2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});

test("the jitter only lengthens a wait, by half of it at most", () => {
  for (let n = 0; n < 8; n++) {
    const plain = reconnectDelay(n, 0);
    for (const r of [0, 0.25, 0.5, 0.999999]) {
      const d = reconnectDelay(n, r);
      assert.ok(d >= plain && d <= plain * (1 + BACKOFF.jitter), `${n} ${r}: ${d}`);
      assert.ok(d >= BACKOFF.firstMs);
    }
  }
  assert.equal(reconnectDelay(0, 0.5), 2500);
});

test("the socket says when it opens and closes, and hands each message over parsed", () => {
  const world = fakeWorld();
  const { seen, handle } = watched(world);
  assert.equal(world.sockets.length, 1);
  assert.equal(world.last().url, "ws://test/ws");
  assert.equal(handle.isOpen(), false);
  world.last().serverOpens();
  assert.equal(seen.opens, 1);
  assert.equal(handle.isOpen(), true);
  world.last().serverSends(JSON.stringify({ statusCode: 200, body: JSON.stringify({ version: 3 }) }));
  world.last().serverSends("not json");
  world.last().serverSends(JSON.stringify({ statusCode: 400, body: "{broken" }));
  assert.deepEqual(seen.frames, [
    { statusCode: 200, body: { version: 3 } },
    { statusCode: null, body: null },
    { statusCode: 400, body: null },
  ]);
  world.last().serverCloses();
  assert.equal(seen.closes, 1);
  assert.equal(handle.isOpen(), false);
});

test("after a close it reconnects with growing waits until a socket opens", () => {
  const world = fakeWorld();
  const { seen } = watched(world);
  world.last().serverOpens();
  world.last().serverCloses();
  // Tries that never open: 2 s, then 4 s, then 8 s.
  for (const wait of [2000, 4000, 8000]) {
    const before = world.sockets.length;
    world.advance(wait - 1);
    assert.equal(world.sockets.length, before, `not before ${wait} ms`);
    world.advance(1);
    assert.equal(world.sockets.length, before + 1, `a new try after ${wait} ms`);
    world.last().serverCloses(); // refused before opening
  }
  assert.equal(seen.closes, 1, "a try that never opened is no new close");
  world.advance(16000);
  world.last().serverOpens();
  assert.equal(seen.opens, 2);
});

test("a socket that stayed open a while starts the waits over; one closed at once does not", () => {
  const world = fakeWorld();
  watched(world);
  world.last().serverCloses(); // a failed try: the next wait is 2 s, the one after 4 s
  world.advance(2000);
  world.last().serverOpens();
  world.last().serverCloses(); // open for no time: still counts as failing
  world.advance(3999);
  assert.equal(world.sockets.length, 2);
  world.advance(1);
  assert.equal(world.sockets.length, 3);
  world.last().serverOpens();
  world.advance(BACKOFF.steadyMs);
  world.last().serverCloses(); // it held: the next wait is the first again
  world.advance(2000);
  assert.equal(world.sockets.length, 4);
});

test("a socket that cannot even be made is tried again later", () => {
  const world = fakeWorld({ failToConstruct: 2 });
  watched(world);
  assert.equal(world.sockets.length, 0);
  world.advance(2000);
  assert.equal(world.sockets.length, 0);
  world.advance(4000);
  assert.equal(world.sockets.length, 1);
});

test("closing it stops every reconnect and every later message", () => {
  const world = fakeWorld();
  const { seen, handle } = watched(world);
  const first = world.last();
  first.serverOpens();
  handle.close();
  assert.equal(first.closed, true);
  first.serverSends(JSON.stringify({ statusCode: 200, body: "{}" }));
  first.serverCloses();
  world.advance(120000);
  assert.equal(world.sockets.length, 1);
  assert.deepEqual(seen, { opens: 1, closes: 0, frames: [] });
  // A planned reconnect is called off too.
  const other = fakeWorld();
  const w = watched(other);
  other.last().serverCloses();
  w.handle.close();
  other.advance(120000);
  assert.equal(other.sockets.length, 1);
});

test("the socket's address follows the page's scheme and host", () => {
  assert.equal(socketUrl("/ws?game_uuid=x", { protocol: "https:", host: "blef.example" }), "wss://blef.example/ws?game_uuid=x");
  assert.equal(socketUrl("/ws", { protocol: "http:", host: "127.0.0.1:8000" }), "ws://127.0.0.1:8000/ws");
});

// ---------------------------------------------------------------- games.js: the games' registry
test("every game of the registry brings each part the shared table asks for, and nothing else", () => {
  assert.ok(Object.keys(GAMES).length >= 1);
  for (const [kind, entry] of Object.entries(GAMES)) {
    assert.equal(entry.kind, kind);
    for (const [part, type] of Object.entries(PARTS)) assert.equal(typeof entry[part], type, `${kind}.${part}`);
    assert.deepEqual(Object.keys(entry).filter((k) => !(k in PARTS)), [], `${kind} brings parts the table never asks for`);
    for (const [part, type] of Object.entries(REPLAY_PARTS)) assert.equal(typeof entry.replay[part], type, `${kind}.replay.${part}`);
    assert.deepEqual(Object.keys(entry.replay).filter((k) => !(k in REPLAY_PARTS)), [], `${kind} brings replay parts the frame never asks for`);
    const u = entry.replay.units;
    assert.equal(typeof u.step, "string", `${kind}.replay.units.step`);
    assert.equal(typeof u.steps, "string", `${kind}.replay.units.steps`);
    assert.ok(u.group === null || (typeof u.group === "string" && typeof u.groups === "string" && u.groups), `${kind}.replay.units.group`);
    assert.equal(typeof u.within, "boolean", `${kind}.replay.units.within`);
    assert.ok(!u.within || u.group, `${kind}: stepping within a group needs a group`);
  }
});

test("the replay frame reads every kind's record where the service serves it and links back to its table", async () => {
  const { recordPath } = await import("../../app/web/static/replay.js");
  const { tableAt: tableHref, replayAt } = await import("../../app/web/static/games.js");
  const id = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
  assert.equal(recordPath("blef", id), `/games/${id}/record`); // the established route
  assert.equal(recordPath("economancy", id), `/economancy/games/${id}/record`);
  assert.equal(recordPath("figgie", id), `/figgie/games/${id}/record`);
  assert.equal(tableHref("blef", id), `#/game/${id}`);
  assert.equal(tableHref("figgie", id), `#/figgie/${id}`);
  assert.equal(replayAt("blef", id), `#/replay/${id}`); // the established page
  assert.equal(replayAt("economancy", id), `#/economancy/${id}/replay`);
});

test("the replay frame steps through groups: a day's own first step then the day before's, or a round's moves only", async () => {
  const { nextGroup, previousGroup, stepRange } = await import("../../app/web/static/replay.js");
  const steps = [1, 1, 2, 2, 2, 3].map((group) => ({ group }));
  // Across groups (Economancy's days): the steps run on from one group to the next.
  assert.deepEqual(stepRange(steps, 3, false), [0, 5]);
  assert.equal(nextGroup(steps, 0, false), 2);
  assert.equal(nextGroup(steps, 4, false), 5);
  assert.equal(nextGroup(steps, 5, false), 5); // the last: nowhere further
  assert.equal(previousGroup(steps, 4, false), 2); // the group's own first step
  assert.equal(previousGroup(steps, 2, false), 0); // already there: the group before's first
  assert.equal(previousGroup(steps, 0, false), 0);
  // Within a group (Blef's rounds): the step buttons stay in it; the group buttons go to
  // the first step of the next or the previous group, or nowhere.
  assert.deepEqual(stepRange(steps, 3, true), [2, 4]);
  assert.deepEqual(stepRange(steps, 0, true), [0, 1]);
  assert.deepEqual(stepRange(steps, 5, true), [5, 5]);
  assert.equal(previousGroup(steps, 4, true), 0);
  assert.equal(previousGroup(steps, 1, true), 1); // the first round: the button is off
  assert.equal(nextGroup(steps, 1, true), 2);
  assert.equal(nextGroup(steps, 5, true), 5); // the last round: off
});

test("Blef's replay steps are each round's moves then its reveal, and each is told in words", async () => {
  const blef = gameOf("blef");
  const round = (n, history) => ({ round_number: n, rules: { deck_size: 24 }, history });
  const record = { room: 7, winner: "ann", rounds: [
    round(1, [{ player: "ann", action_id: 3 }, { player: "bob", action_id: 88 }, { player: "bob", action_id: 89 }]),
    round(2, [{ player: "bob", action_id: 89 }]), // bob resigned: no move, the reveal only
  ] };
  const steps = blef.replay.steps(record);
  assert.deepEqual(steps.map((s) => [s.group, s.move ? s.move.action_id : "reveal"]), [[0, 3], [0, 88], [0, "reveal"], [1, "reveal"]]);
  assert.equal(blef.replay.where(record, steps, 1), "Move 2 of 2");
  assert.equal(blef.replay.where(record, steps, 2), "The reveal");
  assert.equal(blef.replay.said(record, steps, 1), "Round 1. bob checked.");
  assert.equal(blef.replay.result(record), "ann won, in 2 rounds.");
});

test("Economancy's replay steps are the record's, grouped by day, and it has no deal to check", async () => {
  const econ = gameOf("economancy");
  const view = { day: 1, phase: { name: "investing" }, shop: {}, players: [], player: null };
  const record = { room: 3, seats: [{ nickname: "ann" }, { nickname: "bob" }], rules: {}, result: null,
    steps: [{ day_count: 1, events: [{ kind: "started" }], view }, { day_count: 2, events: [], view }] };
  const steps = econ.replay.steps(record);
  assert.deepEqual(steps.map((s) => s.group), [1, 2]);
  assert.equal(econ.replay.where(record, steps, 1), "Step 2 of 2, day 2");
  assert.deepEqual(await econ.replay.verify(record, steps), []);
});

test("the end of another kind's game is revealed once, and only to a page that saw it running", async () => {
  const { endRevealOpens } = await import("../../app/web/static/kindview.js");
  assert.equal(endRevealOpens("Running", "Finished", false), true);
  assert.equal(endRevealOpens("Not started", "Finished", false), true);
  assert.equal(endRevealOpens(null, "Finished", false), false); // opened on a finished game
  assert.equal(endRevealOpens("Finished", "Finished", false), false); // the next read of it
  assert.equal(endRevealOpens("Running", "Finished", true), false); // shown in this tab before
  assert.equal(endRevealOpens("Running", "Running", false), false);
});

test("a table of a kind the page does not know is Blef's, as the established routes are", () => {
  assert.equal(DEFAULT_KIND, "blef");
  assert.equal(gameOf(), GAMES.blef);
  assert.equal(gameOf("blef"), GAMES.blef);
  assert.equal(gameOf("toString"), GAMES.blef);
  assert.equal(gameOf("nonesuch"), GAMES.blef);
});

test("Blef's moves send the check of the table's own deck, and a new round forgets the bet chosen", async () => {
  globalThis.document ??= { getElementById: () => null };
  const blef = gameOf("blef");
  for (const [deck, check] of [[24, 88], [32, 140]]) {
    const sent = [];
    const s = { state: { rules: { deck_size: deck }, round_number: 1 }, reveals: [], chosen: null };
    const record = async (path, body) => { sent.push([path, body]); return true; };
    const actions = blef.moves({ s, changed: () => {}, act: record, sendSetup: record });
    await actions.check();
    await actions.placeBet(5);
    actions.choose(7);
    await actions.changeTeam(2);
    assert.deepEqual(sent, [["play", { action_id: check }], ["play", { action_id: 5 }], ["change-team", { team: 2 }]]);
    assert.equal(s.chosen, 7);
    blef.taking({ s, prev: s.state, state: { ...s.state } });
    assert.equal(s.chosen, 7, "the same round keeps the bet chosen");
    blef.taking({ s, prev: s.state, state: { ...s.state, round_number: 2 } });
    assert.equal(s.chosen, null);
  }
});

test("Blef's round ends with a snapshot's loser or the loser's closing event", () => {
  const blef = gameOf("blef");
  assert.equal(blef.endsRound({ loser: "bob", history: [] }), true);
  assert.equal(blef.endsRound({ history: [{ action_id: 3 }, { action_id: 88 }, { action_id: 89 }] }), true);
  assert.equal(blef.endsRound({ history: [{ action_id: 3 }, { action_id: 88 }] }), false);
  assert.equal(blef.endsRound({ rules: { deck_size: 32 }, history: [{ action_id: 140 }, { action_id: 141 }] }), true);
  assert.equal(blef.endsRound(null), false);
});

test("a table offers each game's computer players gentlest first, and others after in the service's order", async () => {
  const { levelsOffered } = await import("../../app/web/static/kindview.js");
  const econ = GAMES.economancy;
  const offered = levelsOffered(econ, ["planner", "greedy_attack", "mystery", "random"]);
  assert.deepEqual(offered.map((l) => l.agent), ["random", "greedy_attack", "planner", "mystery"]);
  assert.equal(offered[0].label, "Beginner", "the one chosen when nobody has chosen");
  assert.deepEqual(offered[3], { agent: "mystery", label: "mystery", words: "" });
  assert.deepEqual(levelsOffered(GAMES.figgie, ["zeta", "alpha"]).map((l) => l.agent), ["zeta", "alpha"]);
  assert.deepEqual(levelsOffered(econ, undefined), []);
  for (const [kind, g] of Object.entries(GAMES)) {
    const all = levelsOffered(g, [...g.levels.map((l) => l.agent)].reverse());
    assert.deepEqual(all.map((l) => l.agent), g.levels.map((l) => l.agent), `${kind}: the game's own order`);
  }
});

test("a level's name takes the article its first letter asks for", async () => {
  const { withArticle } = await import("../../app/web/static/ui.js");
  assert.equal(withArticle("Attacker"), "An Attacker");
  assert.equal(withArticle("Intermediate"), "An Intermediate");
  assert.equal(withArticle("Beginner"), "A Beginner");
  assert.equal(withArticle("Market maker"), "A Market maker");
});
