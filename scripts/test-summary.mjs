// Adds up the results of every suite of `npm test` and prints the closing `N passed, N failed` line.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const [folder, ...expected] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const name of expected) {
  const file = path.join(folder, name);
  if (!existsSync(file)) {
    // A suite that crashed before reporting counts as one failure.
    console.log(`  ${name}: no result (counted as 1 failed)`);
    failed += 1;
    continue;
  }
  if (name.endsWith(".ok") || name.endsWith(".skipped")) {
    const outcome = readFileSync(file, "utf8").trim();
    if (outcome === "passed") passed += 1;
    else if (outcome === "skipped") skipped += 1;
    else failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  if ("numPassedTests" in report) {
    // vitest
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numFailedTestSuites ?? 0);
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  } else if (report.stats) {
    // Playwright
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected + (report.errors?.length ?? 0);
    skipped += report.stats.skipped;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
