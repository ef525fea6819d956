// A Blef bot in JavaScript (Node.js): bets the lowest legal set while that is a high card
// (action ids 0..5, or 0..7 with 32 cards), and checks (88, or 140 with 32 cards) after
// that. Protocol: api_docs/bots.md.
// Run: blef referee random "exec:node examples/bots/lowest_bettor.js"
const lines = require("readline").createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const state = JSON.parse(line);
  if (state.event === "game_over") return lines.close();
  const highCards = state.rules.deck_size / 4;
  const check = state.rules.deck_size === 32 ? 140 : 88;
  const lowest = state.legal_actions[0];
  const action = lowest < highCards || !state.legal_actions.includes(check) ? lowest : check;
  process.stdout.write(JSON.stringify({ action_id: action }) + "\n");
});
