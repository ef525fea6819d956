// A Blef bot in JavaScript (Node.js): bets the lowest legal set while that is a high card
// (action ids 0..5), and checks (88) after that. Protocol: api_docs/bots.md.
// Run: blef referee random "exec:node examples/bots/lowest_bettor.js"
const lines = require("readline").createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const state = JSON.parse(line);
  if (state.event === "game_over") return lines.close();
  const lowest = state.legal_actions[0];
  const action = lowest <= 5 || !state.legal_actions.includes(88) ? lowest : 88;
  process.stdout.write(JSON.stringify({ action_id: action }) + "\n");
});
