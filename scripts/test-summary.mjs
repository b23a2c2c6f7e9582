// Adds up the results of every suite of `npm test` and prints the closing `N passed, N failed` line.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const [folder, ...expected] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
/** What failed, named, so the end of a long log says where to look. */
const failures = [];

/** Playwright's specs, however deeply their suites nest. */
function* specsOf(suites = []) {
  for (const suite of suites) {
    yield* suite.specs ?? [];
    yield* specsOf(suite.suites);
  }
}
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
    // vitest's failed "suites" are its describe blocks too: a failed test is counted once, and a
    // file that failed without a failing test (it did not load, a hook threw) once more.
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    for (const file of report.testResults ?? []) {
      const where = path.relative(process.cwd(), file.name);
      const tests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
      for (const test of tests) failures.push(`${name}: ${where} › ${test.fullName}`);
      if (file.status === "failed" && tests.length === 0) {
        failed += 1;
        failures.push(`${name}: ${where}: ${(file.message ?? "").split("\n")[0]}`);
      }
    }
  } else if (report.stats) {
    // Playwright
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected + (report.errors?.length ?? 0);
    skipped += report.stats.skipped;
    for (const spec of specsOf(report.suites)) {
      if (!spec.ok) failures.push(`${name}: ${spec.file}:${spec.line} › ${spec.title}`);
    }
    for (const error of report.errors ?? [])
      failures.push(`${name}: ${(error.message ?? String(error)).split("\n")[0]}`);
  }
}
for (const failure of failures.slice(0, 30)) console.log(`  failed: ${failure}`);
if (failures.length > 30) console.log(`  … and ${failures.length - 30} more`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
