// Unit tests of Economancy's pure client modules, run by `node --test` (tests/web/
// test_econ_units.py runs this file and holds its findings to the Python engine's games).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  askedSeats, attackers, attackOf, CARDS, chosenSeats, clash, defenders, eventWords, explainFight, lostBetween, pointsOf,
  questionFor, rulesWords, shopOffers, stepOf, usedUp,
} from "../../app/web/static/econcards.js";
import { adminOf, journalAfter, nicknameOf, tablePath } from "../../app/web/static/kindstore.js";
import { isTableKind, tableKinds } from "../../app/web/static/games.js";
import { createBody } from "../../app/web/static/kindlobby.js";
import { economancy } from "../../app/web/static/economancy.js";
import { ordinal, placesOf } from "../../app/web/static/kindview.js";

const army = (...cards) => cards.map(([name, uses = 0]) => ({ name, uses }));
const view = (phase, players, shop = {}) => ({ day: 1, phase, shop, players, player: 0 });
const wizard = (cards, coins = 1, buys = 1) => ({ coins, buys, cards });

test("Bubble's attack is the table's rule, every other card's its own", () => {
  assert.equal(attackOf("Bubble"), 9);
  assert.equal(attackOf("Bubble", { bubble_attack: 5 }), 5);
  assert.equal(attackOf("Golem", { bubble_attack: 5 }), 7);
  assert.equal(attackOf("Nonesuch"), 0);
});

test("an army's points come from its Boards of Monopoly and Incantations", () => {
  assert.equal(pointsOf(army(["Sorcerer's Stipend"], ["Incantation"], ["Board of Monopoly"], ["Ghost"])), 4);
  assert.equal(pointsOf([]), 0);
});

test("the Stipend and Bubble never attack, a used card waits for tomorrow, the Wall defends twice", () => {
  const cards = army(["Sorcerer's Stipend"], ["Bubble"], ["Ghost", 1], ["Worker"], ["Wall of Wealth", 1]);
  assert.deepEqual(attackers(cards), [3]);
  assert.deepEqual(defenders(cards), [1, 3, 4]);
  assert.equal(usedUp(cards[2]), true);
  assert.equal(usedUp(cards[4]), false);
  assert.equal(usedUp({ name: "Wall of Wealth", uses: 2 }), true);
});

test("the shop offers only cards left that the coins pay for", () => {
  assert.deepEqual(shopOffers({ Ghost: 2, Golem: 1, Worker: 0 }, 2).map((o) => [o.name, o.affordable]),
    [["Ghost", true], ["Golem", false], ["Worker", false]]);
});

test("while defenders choose, those who chose are the asked seats no longer waited for", () => {
  const v = view({ name: "attacking", attacker: 0, attacker_card: 1, "attacker-card": 1 }, [
    wizard(army(["Sorcerer's Stipend"], ["Ghost", 1])),
    wizard(army(["Sorcerer's Stipend"], ["Worker"])),
    wizard(army(["Sorcerer's Stipend"])), // nothing to defend with: never asked
    wizard(army(["Sorcerer's Stipend"], ["Thug"])),
  ]);
  assert.equal(stepOf(v), "defending");
  assert.deepEqual(askedSeats(v), [1, 3]);
  assert.deepEqual(chosenSeats(v, [3]), [1]);
  assert.equal(questionFor(v, 3, [3]), "defend");
  assert.equal(questionFor(v, 1, [3]), null);
});

test("the attacker's own choice is never shown as chosen by others", () => {
  const v = view({ name: "attacking", attacker: 1, attacker_card: false, "attacker-card": false }, [
    wizard(army(["Sorcerer's Stipend"], ["Worker"])), wizard(army(["Sorcerer's Stipend"], ["Ghost"]))]);
  assert.equal(stepOf(v), "attacking");
  assert.deepEqual(chosenSeats(v, [1]), []);
  assert.equal(questionFor(v, 1, [1]), "attack");
});

test("a fight says which card fainted and why, with the numbers that decided it", () => {
  const ev = { kind: "fight", seat: 0, card: 1, name: "Ghost", defenders: { 1: [1, "Worker"], 2: [2, "Bubble"] },
    fainted: [[0, 1, "Ghost"], [1, 1, "Worker"], [2, 2, "Bubble"]], eliminated: [3] };
  const f = explainFight(ev, { bubble_attack: 9 });
  assert.equal(f.attacker.fainted, true);
  assert.deepEqual(f.defenders.map((d) => [d.seat, d.faints, d.hurtsAttacker]), [[1, true, false], [2, true, true]]);
  assert.equal(clash(f.attacker, f.defenders[0]), "Ghost's attack 3 is more than Worker's defence 2: Worker faints.");
  assert.equal(clash(f.defenders[0], f.attacker), "Worker's attack 1 is less than Ghost's defence 2: Ghost holds.");
  assert.equal(clash({ name: "Thug", attack: 4 }, { name: "Thug", defence: 4 }), "Thug's attack 4 equals Thug's defence 4: Thug holds.");
  const line = eventWords(ev, ["ann", "bob", "cy", "di"]);
  assert.match(line, /ann's Ghost against bob's Worker, cy's Bubble/);
  assert.match(line, /Out of the game: di/);
});

test("revealed investments and buys are told with the players' names", () => {
  const names = ["ann", "bob"];
  assert.equal(eventWords({ kind: "invested", amounts: [2, 1], attacker: 0 }, names), "Investments revealed: ann 2, bob 1. ann invested the most and may attack.");
  assert.match(eventWords({ kind: "invested", amounts: [1, 1], attacker: null }, names), /nobody attacks/);
  assert.equal(eventWords({ kind: "bought", choices: { 0: "Ghost", 1: "Pass" }, got: { 0: "Ghost" } }, names), "Buys revealed: ann bought Ghost; bob passed.");
  assert.match(eventWords({ kind: "bought", choices: { 0: "Bubble", 1: "Bubble" }, got: {} }, names), /too many wanted it/);
  assert.equal(eventWords({ kind: "chose", seat: 1 }, names), null);
  assert.match(rulesWords({ cards: "simple", bubble_attack: 5, day_limit: 100 }), /first 8 .* Bubble's attack: 5/);
});

test("cards gone between two reads are told, bought ones are not, and a wiped army is out", () => {
  const before = view({ name: "buy" }, [
    wizard(army(["Sorcerer's Stipend"], ["Ghost"], ["Worker"])),
    wizard(army(["Sorcerer's Stipend"], ["Thug"])),
    wizard(army(["Sorcerer's Stipend"], ["Worker"]))]);
  const after = view({ name: "investing" }, [
    wizard(army(["Sorcerer's Stipend"], ["Worker"], ["Golem"])),
    wizard(army(["Sorcerer's Stipend"], ["Thug"], ["Bubble"])),
    wizard([])]);
  assert.deepEqual(lostBetween(before, after), { lost: [[0, "Ghost"]], out: [2] });
  const s = { journal: [] };
  economancy.taking({ s, prev: { version: 1, view: before }, state: { version: 4, view: after, events: [{ kind: "bought" }] } });
  assert.deepEqual(s.journal.map((j) => j.event.kind), ["unseen_fight"]);
  assert.match(eventWords(s.journal[0].event, ["ann", "bob", "cy"]), /fainted: ann's Ghost; out of the game: cy/);
  assert.match(s.news, /^A fight came and went/);
  const fight = { kind: "fight", seat: 1, card: 1, name: "Thug", defenders: { 0: [1, "Ghost"] }, fainted: [[0, 1, "Ghost"]], eliminated: [] };
  economancy.taking({ s, prev: { version: 4, view: before }, state: { version: 5, view: after, seats: [{ nickname: "ann" }, { nickname: "bob" }], events: [{ kind: "chose", seat: 1 }, fight] } });
  assert.equal(s.journal.length, 1, "a fight the page saw tells its own story");
  assert.equal(s.news, "Fight: bob's Thug against ann's Ghost. Fainted: ann's Ghost.", "said to screen readers; a choice is not");
});

test("the journal adds each body's events once, oldest first, never from an older body", () => {
  let j = journalAfter([], { version: 3, events: [{ kind: "a" }] }, -1);
  j = journalAfter(j, { version: 3, events: [{ kind: "a" }] }, 3);
  j = journalAfter(j, { version: 2, events: [{ kind: "old" }] }, 3);
  j = journalAfter(j, { version: 5, events: [{ kind: "b" }, { kind: "c" }] }, 3);
  assert.deepEqual(j.map((e) => e.event.kind), ["a", "b", "c"]);
  assert.equal(journalAfter(j, { version: 9, events: [{ kind: "d" }] }, 5, 2).length, 2);
});

test("the contract's tables are every kind but Blef, under /{kind}/games", () => {
  assert.ok(tableKinds().includes("economancy"));
  assert.ok(!tableKinds().includes("blef"));
  assert.equal(isTableKind("economancy"), true);
  assert.equal(isTableKind("blef"), false);
  assert.equal(isTableKind("toString"), false);
  assert.equal(tablePath("economancy", "u"), "/economancy/games/u");
  const body = { seats: [{ nickname: "ann" }, { nickname: "bob" }], admin: 1 };
  assert.equal(nicknameOf(body, 0), "ann");
  assert.equal(adminOf(body), "bob");
  assert.equal(adminOf({ ...body, admin: "ann" }), "ann");
});

test("the end lists the places best first, tied seats together, with their points", () => {
  const body = { seats: [{ nickname: "ann" }, { nickname: "bob" }, { nickname: "cy" }], result: { places: [2, 1, 2], reason: "points", scores: [1, 7, 0] } };
  assert.deepEqual(placesOf(body).map((p) => [ordinal(p.place), p.nickname, p.score]), [["1st", "bob", 7], ["2nd", "ann", 1], ["2nd", "cy", 0]]);
  assert.deepEqual(placesOf({ seats: [], result: null }), []);
  assert.equal(ordinal(3), "3rd");
  assert.equal(ordinal(4), "4th");
});

test("a table is made with the rules chosen, and only those", () => {
  assert.deepEqual(createBody("economancy", { cards: "simple", bubble_attack: 5, other: 1 }), { rules: { cards: "simple", bubble_attack: 5 } });
  assert.deepEqual(createBody("economancy", {}), { rules: {} });
  assert.deepEqual(createBody("economancy", {}, { timeLimit: 60, listed: true }), { rules: {}, time_limit: 60, public: true });
});

// The findings the Python test compares with the engine's own (BLEF_ECON_DUMP: a file of the
// states and fights of real games).
if (process.env.BLEF_ECON_DUMP) {
  const given = JSON.parse(readFileSync(process.env.BLEF_ECON_DUMP, "utf8"));
  const out = {
    cards: CARDS.map((c) => [c.name, c.cost, c.attack, c.defence, c.points, c.perPlayer, c.income, c.attacks, c.defends, c.simple]),
    chosen: given.steps.map(({ view: v, to_act }) => chosenSeats(v, to_act)),
    asked: given.steps.map(({ view: v, to_act }) => to_act.map((s) => questionFor(v, s, to_act))),
    fights: given.fights.map(({ ev, rules }) => {
      const f = explainFight(ev, rules);
      return [f.attacker.fainted === f.defenders.some((d) => d.hurtsAttacker), f.defenders.every((d) => d.faints === d.fainted)];
    }),
  };
  console.log(`BLEF_ECON ${JSON.stringify(out)}`);
}

test("the replay steps a day at a time: to the next day's first step, back to the day's own first or the day before's", async () => {
  const { nextDay, previousDay, stepLines, nowWords } = await import("../../app/web/static/econreplay.js");
  const at = (day_count, events = [], phase = { name: "investing" }, coins = [3, 3]) => ({
    day_count, events, view: { day: ((day_count - 1) % 3) + 1, phase, shop: {}, players: coins.map((c) => wizard(army(["Sorcerer's Stipend"]), c)), player: null },
  });
  const steps = [at(1, [{ kind: "started" }]), at(1, [{ kind: "invested", amounts: [0, 0], attacker: null }], { name: "buy" }),
    at(2, [{ kind: "bought", choices: { 0: "Pass", 1: "Pass" }, got: {} }], { name: "investing" }, [4, 5]), at(2), at(3), at(3)];
  assert.equal(nextDay(steps, 0), 2);
  assert.equal(nextDay(steps, 2), 4);
  assert.equal(nextDay(steps, 5), 5);
  assert.equal(previousDay(steps, 3), 2); // the day's own first step
  assert.equal(previousDay(steps, 2), 0); // already there: the day before's first
  assert.equal(previousDay(steps, 4), 2);
  assert.equal(previousDay(steps, 0), 0);
  const names = ["ann", "bob"];
  assert.deepEqual(stepLines(steps, 2, names, null), [
    "Buys revealed: ann passed; bob passed.",
    "Day 2 begins: every card pays its income for day 2 of the cycle (coins now: ann 4, bob 5).",
  ]);
  assert.match(stepLines(steps, 0, names, null)[0], /^The game starts: ann, bob/);
  assert.equal(nowWords({ phase: { name: "attacking", attacker: 1, attacker_card: false } }, names), "Next: bob chooses a card to attack with, or stops.");
  assert.equal(nowWords({ phase: { name: "end", winner: false } }, names), "The game is over.");
});
