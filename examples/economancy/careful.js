#!/usr/bin/env node
// An Economancy player in JavaScript (Node 20): the protocol is its only contract.
//
// It reads states from stdin (one per line, as the referee writes them) and writes each
// move as a one-element JSON array and a newline. A careful heuristic:
// keep at least as many defences as any rival has attacks (a defender that runs out of
// defences is eliminated), attack only when its attacks outnumber a rival's defences or
// its card beats the defender's, invest to win such an attack or to stop a rival's,
// buy points once safe, income before that.
"use strict";

const CARDS = {
  "Sorcerer's Stipend": { cost: 0, atk: 0, def: 0, pts: 0, attacks: 0, defends: 0, income: 4 },
  "Board of Monopoly": { cost: 2, atk: 1, def: 1, pts: 1, attacks: 1, defends: 1, income: 0 },
  Incantation: { cost: 4, atk: 1, def: 1, pts: 3, attacks: 1, defends: 1, income: 0 },
  Worker: { cost: 1, atk: 1, def: 2, pts: 0, attacks: 1, defends: 1, income: 2 },
  "Magic Bean Stock": { cost: 1, atk: 1, def: 1, pts: 0, attacks: 1, defends: 1, income: 2 },
  Bubble: { cost: 2, atk: 9, def: 2, pts: 0, attacks: 0, defends: 1, income: 0 },
  Ghost: { cost: 2, atk: 3, def: 2, pts: 0, attacks: 1, defends: 1, income: 1 },
  "Senior Worker": { cost: 2, atk: 2, def: 2, pts: 0, attacks: 1, defends: 1, income: 3 },
  "Gold Fish": { cost: 3, atk: 1, def: 2, pts: 0, attacks: 1, defends: 1, income: 4 },
  "Wall of Wealth": { cost: 1, atk: 1, def: 2, pts: 0, attacks: 1, defends: 2, income: 1 },
  Apprentice: { cost: 3, atk: 2, def: 1, pts: 0, attacks: 1, defends: 1, income: 2 },
  Thug: { cost: 3, atk: 4, def: 4, pts: 0, attacks: 1, defends: 1, income: 1 },
  "Shield of Greed": { cost: 4, atk: 2, def: 7, pts: 0, attacks: 1, defends: 1, income: 0 },
  Golem: { cost: 5, atk: 7, def: 7, pts: 0, attacks: 1, defends: 1, income: 0 },
};

const alive = (p) => p.cards.length > 0;
const attacks = (p) => p.cards.filter((c) => CARDS[c.name].attacks > c.uses).length;
const defences = (p) =>
  p.cards.reduce((n, c) => n + Math.max(0, CARDS[c.name].defends - c.uses), 0);
const points = (p) => p.cards.reduce((n, c) => n + CARDS[c.name].pts, 0);

function rivals(state) {
  return state.players.filter((p, i) => i !== state.player && alive(p));
}

function invest(state) {
  const me = state.players[state.player];
  const others = rivals(state);
  const richest = Math.max(...others.map((p) => p.coins));
  const canKill = others.some((p) => attacks(me) > defences(p));
  const threatened = others.some((p) => attacks(p) > defences(me));
  if ((canKill || threatened) && me.coins > richest) return richest + 1;
  if (canKill && me.coins === richest) return me.coins;
  return 0;
}

function attack(state) {
  const me = state.players[state.player];
  const others = rivals(state);
  const usable = [];
  me.cards.forEach((c, i) => {
    if (CARDS[c.name].attacks > c.uses) usable.push(i);
  });
  if (usable.length === 0) return 0;
  if (others.some((p) => usable.length > defences(p))) return usable[0];
  // otherwise attack with a card no rival's defender can beat and that beats some of theirs
  for (const i of usable) {
    const card = CARDS[me.cards[i].name];
    const safe = others.every((p) =>
      p.cards.every((c) => CARDS[c.name].defends <= c.uses || CARDS[c.name].atk <= card.def)
    );
    if (safe && card.atk >= 3) return i;
  }
  return 0;
}

function defend(state) {
  const me = state.players[state.player];
  const attacker = state.players[state.phase.attacker];
  const index = state.phase.attacker_card ?? state.phase["attacker-card"];
  const hit = CARDS[attacker.cards[index].name];
  let best = -1;
  let bestScore = -Infinity;
  me.cards.forEach((c, i) => {
    const card = CARDS[c.name];
    if (card.defends <= c.uses) return;
    let score = 0;
    if (hit.atk > card.def) score -= card.cost + 3 * card.pts + 1;
    if (card.atk > hit.def) score += hit.cost;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

function buy(state) {
  const me = state.players[state.player];
  const others = rivals(state);
  const threat = Math.max(...others.map((p) => attacks(p))) + 1;
  const options = Object.entries(state.shop)
    .filter(([name, n]) => n > 0 && CARDS[name].cost <= me.coins)
    .map(([name]) => name);
  if (options.length === 0) return "Pass";
  const by = (f) => options.slice().sort((a, b) => f(b) - f(a))[0];
  if (defences(me) < threat) {
    return by((n) => 10 * CARDS[n].defends + CARDS[n].def - CARDS[n].cost);
  }
  if (points(me) + 3 >= 7 && options.includes("Incantation")) return "Incantation";
  if (me.cards.length >= 6 && options.includes("Incantation")) return "Incantation";
  if (me.cards.length >= 6 && points(me) >= 6 && options.includes("Board of Monopoly")) {
    return "Board of Monopoly";
  }
  return by((n) => CARDS[n].income * 2 + CARDS[n].atk + CARDS[n].def - CARDS[n].cost);
}

function move(state) {
  switch (state.phase.name) {
    case "investing":
      return invest(state);
    case "attacking":
      return state.phase.attacker === state.player ? attack(state) : defend(state);
    default:
      return buy(state);
  }
}

let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (;;) {
    const text = buffer.trimStart();
    const end = text.indexOf("\n");
    if (end < 0) {
      buffer = text;
      return;
    }
    buffer = text.slice(end + 1);
    const state = JSON.parse(text.slice(0, end));
    if (state.phase.name === "end" || state.phase.name === "fault") {
      process.exit(0);
    }
    process.stdout.write(JSON.stringify([move(state)]) + "\n");
  }
});
