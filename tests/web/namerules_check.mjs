// Answers, for each JSON string read on stdin (one a line), the rule the browser's checks
// (app/web/static/namerules.js) find it breaks as an account's name and as a game's
// nickname, each {rule, text} or null: tests/ladder/test_handle_rules.py
// holds it to the service's verdict. The rules are the published file, given as argv[2].
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

import { handleProblem, nicknameProblem } from "../../app/web/static/namerules.js";

const rules = JSON.parse(readFileSync(process.argv[2], "utf8"));
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const name = JSON.parse(line);
  const found = { handle: handleProblem(name, rules), nickname: nicknameProblem(name, rules) };
  process.stdout.write(`${JSON.stringify(found)}\n`);
});
