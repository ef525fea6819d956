// Reads standard input as a stream, taking each state once it parses as JSON (lines are
// not relied on); writes the move with no newline. Node's writes to a pipe are not buffered.
const DEFENDS = { "Sorcerer's Stipend": 0, "Wall of Wealth": 2 };
const COST = {
  "Board of Monopoly": 2, "Incantation": 4, "Worker": 1, "Magic Bean Stock": 1, "Bubble": 2,
  "Ghost": 2, "Senior Worker": 2, "Gold Fish": 3, "Wall of Wealth": 1, "Apprentice": 3,
  "Thug": 3, "Shield of Greed": 4, "Golem": 5,
};
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (;;) {
    const text = buffer.trimStart();
    let end = -1;
    for (let i = 1; i <= text.length; i++) {
      if (text[i - 1] !== "}") continue; // a state is an object: it can only end at a brace
      try { JSON.parse(text.slice(0, i)); end = i; break; } catch (e) { /* not yet */ }
    }
    if (end < 0) return;
    buffer = text.slice(end);
    const state = JSON.parse(text.slice(0, end));
    const phase = state.phase;
    if (phase.name === "end") { process.exit(0); }
    const me = state.players[state.player];
    let move = 0;
    if (phase.name === "buy") {
      // the first card it can afford that is not sold out, else Pass
      const name = Object.keys(state.shop).find((n) => state.shop[n] > 0 && COST[n] <= me.coins);
      move = name ?? "Pass";
    }
    else if (phase.name === "attacking" && phase.attacker !== state.player) {
      move = me.cards.findIndex((c) => c.uses < (DEFENDS[c.name] ?? 1));
    }
    process.stdout.write(JSON.stringify([move]));
  }
});
