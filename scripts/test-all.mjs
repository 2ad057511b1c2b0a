// `npm test`: the whole suite — typecheck, unit + integration (vitest), production build, e2e (Playwright,
// Debian Chromium) — then one closing line "N passed, N failed, N skipped" summed over both runners.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

process.env.NEXT_TELEMETRY_DISABLED = "1";
process.env.CHECKPOINT_DISABLE = "1";
const bin = (name) => `node_modules/.bin/${name}`;
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedStep = null;
// Names of failing tests, repeated at the very end: a CI log is often read from its tail only.
const failures = [];
/** [step, its last lines] for steps that failed without naming a failed test. */
const lastWords = [];

function vitestFailures(results, label) {
  for (const file of results?.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status !== "failed") continue;
      // vitest reports a test over its time limit by the stack of the error it made when the test began, whose first
      // line is "Error: STACK_TRACE_ERROR": say what happened instead.
      const first = (t.failureMessages?.[0] ?? "").split("\n")[0];
      const why = (first === "Error: STACK_TRACE_ERROR" ? "timed out (over the test's time limit)" : first).slice(0, 300);
      failures.push(`${label} ${file.name.replace(process.cwd() + "/", "")} › ${t.fullName}: ${why}`);
    }
  }
}

function playwrightFailures(suite, label) {
  for (const spec of suite?.specs ?? []) {
    for (const t of spec.tests ?? []) {
      if (t.status !== "unexpected") continue;
      const err = t.results?.at(-1)?.error?.message ?? "";
      failures.push(`${label} ${spec.file}:${spec.line} › ${spec.title}: ${err.split("\n")[0].slice(0, 300)}`);
    }
  }
  for (const child of suite?.suites ?? []) playwrightFailures(child, label);
}

/** How long each step took, printed at the end (what dominates a CI run is read here, not guessed). */
const timings = [];
const since = (t0) => Math.round((performance.now() - t0) / 100) / 10;

function step(title, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${title} ===\n`);
  const t0 = performance.now();
  const res = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  timings.push([title, since(t0)]);
  if (res.status !== 0 && !failedStep) failedStep = `${title} (exit ${res.status ?? res.signal})`;
  return res.status === 0;
}

/** The last lines a step printed: repeated at the end when it failed without naming a failed test. */
const tails = new Map();

/** A step whose output streams as it runs, while other work goes on in this process. */
function asyncStep(title, cmd, args) {
  process.stdout.write(`\n=== ${title} ===\n`);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["inherit", "pipe", "pipe"], env: process.env });
    let tail = "";
    const keep = (stream, out) =>
      stream.on("data", (d) => {
        out.write(d);
        tail = (tail + d.toString()).slice(-6_000);
      });
    keep(child.stdout, process.stdout);
    keep(child.stderr, process.stderr);
    child.on("close", (code, signal) => {
      tails.set(title, tail);
      timings.push([title, since(t0)]);
      if (code !== 0 && !failedStep) failedStep = `${title} (exit ${code ?? signal})`;
      resolve(code === 0);
    });
  });
}

/** Steps that are independent and mostly single-threaded, two at a time; each one's output is printed whole, in order. */
async function parallelSteps(steps, at = 2) {
  const results = new Array(steps.length);
  let next = 0;
  const runOne = (i) =>
    new Promise((resolve) => {
      const [title, cmd, args] = steps[i];
      const t0 = performance.now();
      const child = spawn(cmd, args, { env: { ...process.env, FORCE_COLOR: "0" }, stdio: ["ignore", "pipe", "pipe"] });
      const out = [];
      child.stdout.on("data", (d) => out.push(d));
      child.stderr.on("data", (d) => out.push(d));
      child.on("close", (code, signal) => resolve((results[i] = { title, code: code ?? signal, out: Buffer.concat(out), s: since(t0) })));
    });
  const lanes = Array.from({ length: Math.min(at, steps.length) }, async () => {
    while (next < steps.length) await runOne(next++);
  });
  await Promise.all(lanes);
  for (const r of results) {
    process.stdout.write(`\n=== ${r.title} ===\n`);
    process.stdout.write(r.out);
    timings.push([r.title, r.s]);
    if (r.code !== 0 && !failedStep) failedStep = `${r.title} (exit ${r.code})`;
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

// Vitest's reports go to test-reports/: Playwright empties test-results/ when it starts, and it runs beside the
// PostgreSQL pass.
mkdirSync("test-results", { recursive: true });
mkdirSync("test-reports", { recursive: true });
for (const f of ["test-reports/unit-results.json", "test-reports/pg-results.json", "test-results/e2e-results.json"]) rmSync(f, { force: true });

// The layout keeps its shape: types, lint (no warnings), formatting, unused code, and the dependency rules of
// docs/architecture.md — independent checks, run two at a time.
await parallelSteps([
  ["typecheck", bin("tsc"), ["--noEmit"]],
  ["lint (ESLint)", bin("eslint"), [".", "--max-warnings", "0"]],
  ["format (Prettier)", bin("prettier"), ["--check", "."]],
  ["unused files, exports and dependencies (knip)", bin("knip"), ["--no-progress"]],
  [
    "architecture (dependency-cruiser)",
    bin("depcruise"),
    ["app", "components", "lib", "bin", "scripts", "--config", ".dependency-cruiser.cjs", "--output-type", "err"],
  ],
]);

step("unit and integration tests (vitest)", bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=test-reports/unit-results.json",
]);
const unit = readJson("test-reports/unit-results.json");
if (unit) {
  totals.passed += unit.numPassedTests;
  totals.failed += unit.numFailedTests;
  totals.skipped += unit.numPendingTests + (unit.numTodoTests ?? 0);
  vitestFailures(unit, "[vitest, SQLite]");
} else if (!failedStep) failedStep = "vitest wrote no results";

// Then the production build, and two things at once: the end-to-end journeys (bound by the one server process's
// thread and the browser: about one core) and the integration tests again on PostgreSQL, when its binaries are here
// (a throwaway cluster on loopback, one migrated template database, a fresh copy per test file:
// tests/helpers/pg-database.ts). The PostgreSQL pass's output is kept and printed after the journeys'.
// Types were checked above, over the same tsconfig: the build skips its own pass (next.config.mjs).
// The browser verifier's re-scorer first (public/verifier: the scoring code as it is now, not as it was at install).
const built =
  step("browser verifier's re-scorer", process.execPath, ["scripts/build-verifier.mjs"]) &&
  step("production build", bin("next"), ["build"], { FOF_BUILD_TYPES_CHECKED: "1" });
const pgStart = performance.now();
const pgOutput = [];
const pgPhase = new Promise((resolve) => {
  const child = spawn(bin("tsx"), ["scripts/test-postgres.ts"], { env: { ...process.env, FORCE_COLOR: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (d) => pgOutput.push(d));
  child.stderr.on("data", (d) => pgOutput.push(d));
  child.on("close", (code) => {
    timings.push(["integration tests on PostgreSQL (beside the journeys)", since(pgStart)]);
    resolve(code);
  });
});
if (built) {
  // The journeys take CHROMIUM_PATH, else chromium-headless-shell, else chromium (tests/helpers/chromium.ts).
  const browsers = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];
  if (!browsers.some((b) => existsSync(b))) {
    process.stdout.write(`Chromium not found at ${browsers.join(" or ")}: install it (apt-get install -y chromium-headless-shell) or set CHROMIUM_PATH.\n`);
    failedStep ??= "e2e: no Chromium";
  } else {
    const title = "end-to-end tests (Playwright + Chromium)";
    const ok = await asyncStep(title, bin("playwright"), ["test"]);
    const e2e = readJson("test-results/e2e-results.json");
    if (e2e?.stats) {
      totals.passed += e2e.stats.expected + (e2e.stats.flaky ?? 0);
      totals.failed += e2e.stats.unexpected;
      totals.skipped += e2e.stats.skipped;
      for (const suite of e2e.suites ?? []) playwrightFailures(suite, "[e2e]");
      // Errors outside any test (a web server that did not start, a global set-up) are in the report's `errors`.
      for (const err of e2e.errors ?? []) failures.push(`[e2e] ${(err.message ?? "").split("\n").slice(0, 3).join(" ").slice(0, 400)}`);
    } else if (!failedStep) failedStep = "playwright wrote no results";
    // Failed with no failed test named: its own last lines say why (a CI log is read from its tail).
    if (!ok && !failures.some((f) => f.startsWith("[e2e]"))) lastWords.push([title, tails.get(title) ?? ""]);
  }
}
const pgStatus = await pgPhase;
process.stdout.write(Buffer.concat(pgOutput));
if (pgStatus === 3) process.stdout.write("PostgreSQL part skipped: no PostgreSQL binaries here (Debian: apt install postgresql).\n");
else {
  const pgResults = readJson("test-reports/pg-results.json");
  if (pgResults) {
    totals.passed += pgResults.numPassedTests;
    totals.failed += pgResults.numFailedTests;
    totals.skipped += pgResults.numPendingTests + (pgResults.numTodoTests ?? 0);
    vitestFailures(pgResults, "[vitest, PostgreSQL]");
  }
  if (pgStatus !== 0 && !failedStep) failedStep = `integration tests on PostgreSQL (exit ${pgStatus})`;
}

process.stdout.write(`\nStep times (s): ${timings.map(([t, sec]) => `${t} ${sec}`).join(" · ")}\n`);
process.stdout.write("\n");
for (const [title, tail] of lastWords) process.stdout.write(`The last lines of ${title}:\n${tail.split("\n").slice(-40).join("\n")}\n\n`);
if (failures.length > 0) process.stdout.write(`Failed tests:\n${failures.map((f) => `  ${f}`).join("\n")}\n`);
if (failedStep) process.stdout.write(`FAILED: ${failedStep}\n`);
process.stdout.write(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(failedStep || totals.failed > 0 ? 1 : 0);
