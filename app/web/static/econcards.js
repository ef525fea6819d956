// Economancy's facts the page needs and the service's state does not carry: every card's
// numbers (engine/economancy/cards.py; tests/web/test_js_units.py holds this table to it),
// who is asked what now, who has chosen, what a fight did and why, and the service's events
// in words. Pure, so node tests it.

// name, cost (null: not sold), attack, defence, points, copies per player, income on days
// 1/2/3, attacks and defences a day, and what is special about it.
const ROWS = [
  ["Sorcerer's Stipend", null, 0, 0, 0, 1, [2, 1, 1], 0, 0, "Everyone starts with it. It cannot attack or defend."],
  ["Board of Monopoly", 2, 1, 1, 1, 2, [0, 0, 0], 1, 1, "Worth 1 point."],
  ["Incantation", 4, 1, 1, 3, 3, [0, 0, 0], 1, 1, "Worth 3 points."],
  ["Worker", 1, 1, 2, 0, 2, [0, 1, 1], 1, 1, ""],
  ["Magic Bean Stock", 1, 1, 1, 0, 1, [0, 0, 0], 1, 1, "Pays a third (rounded down) of the coins you hold when its income comes."],
  ["Bubble", 2, 9, 2, 0, 1, [0, 0, 0], 0, 1, "Cannot attack; its attack counts when it defends."],
  ["Ghost", 2, 3, 2, 0, 2, [0, 0, 1], 1, 1, ""],
  ["Senior Worker", 2, 2, 2, 0, 2, [1, 1, 1], 1, 1, ""],
  ["Gold Fish", 3, 1, 2, 0, 1, [0, 0, 4], 1, 1, ""],
  ["Wall of Wealth", 1, 1, 2, 0, 2, [1, 0, 0], 1, 2, "Defends twice a day."],
  ["Apprentice", 3, 2, 1, 0, 1, [1, 1, 0], 1, 1, "One more buy on day 3."],
  ["Thug", 3, 4, 4, 0, 1, [0, 1, 0], 1, 1, ""],
  ["Shield of Greed", 4, 2, 7, 0, 1, [0, 0, 0], 1, 1, "Its owner gains 1 coin each time it defends, even if it faints."],
  ["Golem", 5, 7, 7, 0, 1, [0, 0, 0], 1, 1, ""],
];
const SIMPLE = new Set(["Board of Monopoly", "Incantation", "Worker", "Magic Bean Stock", "Bubble", "Ghost", "Senior Worker", "Gold Fish"]);

export const CARDS = Object.freeze(ROWS.map(([name, cost, attack, defence, points, perPlayer, income, attacks, defends, text]) =>
  Object.freeze({ name, cost, attack, defence, points, perPlayer, income, attacks, defends, text, simple: name !== ROWS[0][0] && SIMPLE.has(name) })));
export const BY_NAME = Object.freeze(Object.fromEntries(CARDS.map((c) => [c.name, c])));
export const STIPEND = CARDS[0].name;
export const PASS = "Pass";
export const POINTS_TO_WIN = 7;

/** A card's numbers by name (an unknown name has none: 0 everywhere, never usable). */
export function cardOf(name) {
  return Object.hasOwn(BY_NAME, name) ? BY_NAME[name]
    : { name, cost: null, attack: 0, defence: 0, points: 0, perPlayer: 0, income: [0, 0, 0], attacks: 0, defends: 0, text: "", simple: false };
}

/** A card's attack under a table's rules (Bubble's is the rules' `bubble_attack`). */
export function attackOf(name, rules = null) {
  if (name === "Bubble" && rules && (rules.bubble_attack === 5 || rules.bubble_attack === 9)) return rules.bubble_attack;
  return cardOf(name).attack;
}

/** The victory points of an army (a list of {name}). */
export function pointsOf(cards) {
  return (cards || []).reduce((sum, c) => sum + cardOf(c.name).points, 0);
}

/** The indexes of an army's cards able to attack now (not used up today). */
export function attackers(cards) {
  return (cards || []).flatMap((c, i) => (c.uses < cardOf(c.name).attacks ? [i] : []));
}

/** The indexes of an army's cards able to defend now (the Wall of Wealth twice a day). */
export function defenders(cards) {
  return (cards || []).flatMap((c, i) => (c.uses < cardOf(c.name).defends ? [i] : []));
}

/** Whether a card is used up for today: it can neither attack nor defend any more. */
export function usedUp(card) {
  const k = cardOf(card.name);
  return card.uses > 0 && card.uses >= Math.max(k.attacks, k.defends);
}

/** The shop's cards a seat may buy now: [{name, cost, left, affordable}] in shop order. */
export function shopOffers(shop, coins) {
  return Object.entries(shop || {}).map(([name, left]) => {
    const cost = cardOf(name).cost ?? 0;
    return { name, cost, left, affordable: left > 0 && cost <= coins };
  });
}

/** The phase of a protocol state: "investing" | "attacking" | "defending" | "buy" | "end". */
export function stepOf(view) {
  const p = view && view.phase;
  if (!p) return null;
  if (p.name === "attacking") return p.attacker_card === false ? "attacking" : "defending";
  return p.name;
}

/** The seats asked in the step under way (those still to choose and those who chose), from
 * the state alone: investing, every seat in the game; buying, every seat with a buy left;
 * defending, every other seat with a card able to defend; attacking, the attacker. */
export function askedSeats(view) {
  const step = stepOf(view);
  const players = (view && view.players) || [];
  const alive = (p) => p.cards.length > 0;
  const seats = players.map((p, i) => [p, i]);
  if (step === "investing") return seats.filter(([p]) => alive(p)).map(([, i]) => i);
  if (step === "buy") return seats.filter(([p]) => alive(p) && p.buys > 0).map(([, i]) => i);
  if (step === "attacking") return [view.phase.attacker];
  if (step === "defending")
    return seats.filter(([p, i]) => i !== view.phase.attacker && alive(p) && defenders(p.cards).length > 0).map(([, i]) => i);
  return [];
}

/** The seats that have chosen in this step and wait for the others (their choice hidden):
 * asked, and no longer among those still to choose (`toChoose`, the contract's turn.seats). */
export function chosenSeats(view, toChoose) {
  const step = stepOf(view);
  if (step === "attacking" || step === "end" || !toChoose) return [];
  const waiting = new Set(toChoose);
  return askedSeats(view).filter((s) => !waiting.has(s));
}

/** What `seat` must choose now, or null: "invest" | "attack" | "defend" | "buy". */
export function questionFor(view, seat, toChoose) {
  if (seat === null || seat === undefined || !toChoose || !toChoose.includes(seat)) return null;
  return { investing: "invest", attacking: "attack", defending: "defend", buy: "buy" }[stepOf(view)] || null;
}

/** A fight, told: the attacking card against each defending card, who fainted and why.
 * `ev` is the service's "fight" event ({seat, card, name, defenders: {seat: [index, name]},
 * fainted: [[seat, index, name]], eliminated: [seat]}). */
export function explainFight(ev, rules = null) {
  const atk = { seat: ev.seat, index: ev.card, name: ev.name, attack: attackOf(ev.name, rules), defence: cardOf(ev.name).defence };
  const fainted = new Set((ev.fainted || []).map(([s, i]) => `${s}:${i}`));
  const rows = Object.entries(ev.defenders || {}).map(([seat, [index, name]]) => {
    const d = { seat: Number(seat), index, name, attack: attackOf(name, rules), defence: cardOf(name).defence };
    return { ...d, faints: atk.attack > d.defence, hurtsAttacker: d.attack > atk.defence, fainted: fainted.has(`${seat}:${index}`) };
  }).sort((a, b) => a.seat - b.seat);
  return {
    attacker: { ...atk, fainted: fainted.has(`${ev.seat}:${ev.card}`) },
    defenders: rows,
    eliminated: ev.eliminated || [],
  };
}

/** One side of a fight in words: "Ghost's attack 3 is more than Worker's defence 2: Worker faints." */
export function clash(hitter, hit) {
  if (hitter.attack > hit.defence) return `${hitter.name}'s attack ${hitter.attack} is more than ${hit.name}'s defence ${hit.defence}: ${hit.name} faints.`;
  const same = hitter.attack === hit.defence ? "equals" : "is less than";
  return `${hitter.name}'s attack ${hitter.attack} ${same} ${hit.name}'s defence ${hit.defence}: ${hit.name} holds.`;
}

/** The service's event in words, with the players' names: a line, or null for an event that
 * says nothing a person needs ("chose" is said as "has chosen" beside the player). */
export function eventWords(ev, names, rules = null) {
  const who = (s) => (s === null || s === undefined ? "nobody" : names[s] || `Seat ${s + 1}`);
  switch (ev.kind) {
    case "invested": {
      const paid = (ev.amounts || []).flatMap((a, s) => (a === null ? [] : [`${who(s)} ${a}`]));
      return `Investments revealed: ${paid.join(", ")}. ${ev.attacker === null ? "A tie for the most: nobody attacks today." : `${who(ev.attacker)} invested the most and may attack.`}`;
    }
    case "attacks": return `${who(ev.seat)} attacks with ${ev.name}.`;
    case "stopped": return `${who(ev.seat)} stops attacking.`;
    case "fight": {
      const f = explainFight(ev, rules);
      const lost = (ev.fainted || []).map(([s, , n]) => `${who(s)}'s ${n}`);
      const out = (ev.eliminated || []).map(who);
      return `Fight: ${who(ev.seat)}'s ${ev.name} against ${f.defenders.map((d) => `${who(d.seat)}'s ${d.name}`).join(", ") || "no defender"}. `
        + `${lost.length ? `Fainted: ${lost.join(", ")}.` : "Nothing fainted."}${out.length ? ` Out of the game: ${out.join(", ")}.` : ""}`;
    }
    case "bought": {
      const got = ev.got || {};
      const parts = Object.entries(ev.choices || {}).map(([s, c]) => (c === PASS ? `${who(Number(s))} passed`
        : got[s] === c ? `${who(Number(s))} bought ${c}` : `${who(Number(s))} named ${c} but too many wanted it: nobody got one`));
      return `Buys revealed: ${parts.join("; ")}.`;
    }
    case "unseen_fight": {
      const lost = (ev.lost || []).map(([s, n]) => `${who(s)}'s ${n}`);
      const out = (ev.out || []).map(who);
      return `A fight came and went between two looks of this page: ${lost.length ? `fainted: ${lost.join(", ")}` : "no card fainted"}${out.length ? `; out of the game: ${out.join(", ")}` : ""}.`;
    }
    case "forfeited": return `${who(ev.seat)} is out of the game (did not choose in time, or left).`;
    case "game_over": return ev.seat === null || ev.seat === undefined ? "The game is over: a draw at the day limit." : `${who(ev.seat)} wins (${reasonWords(ev.reason)}).`;
    default: return null;
  }
}

/** The cards gone from each army between two views of the same game (a card leaves an army
 * only by fainting; bought cards join at its right end), and the seats put out of the game:
 * {lost: [[seat, name]], out: [seat]}. What the page tells when a fight came and went between
 * two of its reads (each read carries the events of the last write only). Two copies of a
 * card, one fainted and one bought since, read as none lost. */
export function lostBetween(before, after) {
  const lost = [];
  const out = [];
  (before && before.players || []).forEach((p, seat) => {
    const next = after && after.players[seat];
    if (!next || !p.cards.length) return;
    if (!next.cards.length) { out.push(seat); return; }
    let j = 0;
    for (const c of p.cards) {
      if (j < next.cards.length && next.cards[j].name === c.name) j++;
      else lost.push([seat, c.name]);
    }
  });
  return { lost, out };
}

/** How a game ended, in words. */
export function reasonWords(reason) {
  return { points: "7 points or more, and more than anyone else", last_standing: "the last one left", day_limit: "the day limit was reached" }[reason] || reason || "";
}

/** The rules of a table in words. */
export function rulesWords(rules) {
  if (!rules) return "";
  const set = rules.cards === "simple" ? "the course's first 8 shop cards" : "all 13 shop cards";
  return `Shop: ${set}. Bubble's attack: ${rules.bubble_attack ?? 9}. A draw after day ${rules.day_limit ?? 100}.`;
}
