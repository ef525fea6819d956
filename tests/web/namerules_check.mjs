// Answers, for each JSON string read on stdin (one a line), the rule the browser's check
// (app/web/static/namerules.js) finds it breaks, or null: tests/ladder/test_handle_rules.py
// holds it to the service's verdict. The rules are the published file, given as argv[2].
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

import { handleProblem } from "../../app/web/static/namerules.js";

const rules = JSON.parse(readFileSync(process.argv[2], "utf8"));
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const found = handleProblem(JSON.parse(line), rules);
  process.stdout.write(`${JSON.stringify(found)}\n`);
});
