// npm run bench:adaptive — adaptive runs' stopping rule verified by simulation (lib/metrics/simulate-adaptive.ts) and
// their cost measured through the engine. Sections (BENCH_ADAPTIVE_ONLY=sim,images,engine; all by default):
// - sim: ≥ 400 simulated runs per row (BENCH_ADAPTIVE_RUNS) of a FACT-OR-FAIR subjective context (gender and race
//   groups) at the paper preset's design: where runs stop, items used, and how often the intervals a stopped run
//   reports cover the truth — the engine's rule (alpha spending) beside the naive rule (95 % intervals at every look);
//   A vs A (false positives) and uniform vs calibrated (power) for the A-vs-B rule;
// - images: text-to-image runs (FACT-OR-FAIR portraits, DoFaiR) by simulation (./bench-adaptive-images.ts);
// - engine: `fof run`'s path in-process (createRun + Worker) at the paper preset with a target, on the built-in
//   baselines and on the same answer distributions served by the provider emulator at 200 ms a call: items used of
//   the paper preset's 45,828, calls that reached the provider, time.
// Splits the simulations over two processes (one per core) and writes docs/BENCHMARKS.md.
import os from "node:os";
import { BOOTSTRAP_METRICS } from "../lib/metrics/design";
import { simulateAdaptive, simulateAdaptiveCompare, type AdaptiveCompareRow, type AdaptiveSimRow } from "../lib/metrics/simulate-adaptive";
import type { SimModel } from "../lib/metrics/simulate";
import { DEFAULT_SCHEDULE, lookLevels } from "../lib/metrics/sequential";
import { writeBenchSection } from "./bench-section";
import { partOf, runInParts } from "./bench-parts";
import { imagesSection } from "./bench-adaptive-images";

const RUNS = Number(process.env.BENCH_ADAPTIVE_RUNS ?? 400);
const RESAMPLES = Number(process.env.BENCH_ADAPTIVE_RESAMPLES ?? 400);
const ONLY = new Set((process.env.BENCH_ADAPTIVE_ONLY ?? "sim,images,engine").split(","));

const MODELS: Record<string, SimModel> = {
  "calibrated 0.8": { kind: "calibrated", accuracy: 0.8 },
  "calibrated 0.6": { kind: "calibrated", accuracy: 0.6 },
  "calibrated 0.7": { kind: "calibrated", accuracy: 0.7 },
  "calibrated 0.9": { kind: "calibrated", accuracy: 0.9 },
  uniform: { kind: "uniform" },
  "scenario-sensitive": { kind: "scenario", accuracy: 0.6, concentration: 8 },
};

type Config =
  | { kind: "halfwidth"; model: string; h: number; rule: "spending" | "naive" | "fixed-25" }
  | { kind: "compare"; a: string; b: string; rule: "spending" | "naive"; margin: number; metric: "sFact" | "sE"; attribute: "race" };

function configs(): Config[] {
  const out: Config[] = [];
  for (const rule of ["spending", "naive"] as const)
    for (const model of ["calibrated 0.8", "scenario-sensitive"]) out.push({ kind: "halfwidth", model, h: 0.05, rule });
  for (const model of ["calibrated 0.6", "calibrated 0.7", "calibrated 0.9"]) out.push({ kind: "halfwidth", model, h: 0.05, rule: "spending" });
  // What no stopping rule can beat: one 95 % interval at a quarter of the plan, no look before it (else the cap).
  for (const model of ["calibrated 0.6", "calibrated 0.7"]) out.push({ kind: "halfwidth", model, h: 0.05, rule: "fixed-25" });
  out.push({ kind: "halfwidth", model: "uniform", h: 0.05, rule: "spending" });
  out.push({ kind: "halfwidth", model: "calibrated 0.8", h: 0.02, rule: "spending" });
  for (const rule of ["spending", "naive"] as const) {
    out.push({ kind: "compare", a: "scenario-sensitive", b: "scenario-sensitive", rule, margin: 0, metric: "sFact", attribute: "race" });
    out.push({ kind: "compare", a: "uniform", b: "calibrated 0.8", rule, margin: 0.05, metric: "sFact", attribute: "race" });
  }
  return out;
}

/** A quarter of the plan at 95 %, then the cap: the fixed-size design a sequential one is measured against. */
const FIXED_QUARTER = { fractions: [0.25, 1], alphaShares: [1, 0] };
const simBase = (c: { model: string; h: number }) => ({ model: MODELS[c.model], halfwidth: c.h, runs: RUNS, resamples: RESAMPLES, seed: 2026 });

function runConfig(c: Config): AdaptiveSimRow | AdaptiveCompareRow {
  if (c.kind === "halfwidth" && c.rule === "fixed-25")
    return { ...simulateAdaptive({ ...simBase(c), rule: "naive", schedule: FIXED_QUARTER }), rule: "fixed-25" as never };
  if (c.kind === "halfwidth") return simulateAdaptive({ ...simBase(c), rule: c.rule as "spending" | "naive" });
  const a = MODELS[c.a];
  return simulateAdaptiveCompare({
    a,
    b: c.a === c.b ? a : MODELS[c.b],
    names: [c.a, c.b],
    rule: c.rule,
    runs: RUNS,
    resamples: RESAMPLES,
    seed: 2026,
    margin: c.margin,
    metric: c.metric,
  });
}

const pct = (x: number, n: number) => (n ? `${((100 * x) / n).toFixed(1)} %` : "–");
const machine = () => `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB.`;
const schedule = () =>
  `Looks at ${DEFAULT_SCHEDULE.fractions.map((f) => `${f * 100} %`).join(", ")} of the plan, intervals at ${lookLevels()
    .map((l) => `${(100 * l).toFixed(3).replace(/\.?0+$/, "")} %`)
    .join(", ")} (lib/metrics/sequential.ts DEFAULT_SCHEDULE)`;

async function simSection() {
  const started = Date.now();
  const all = (await runInParts<{ i: number; c: Config; row: AdaptiveSimRow & AdaptiveCompareRow }>(2)).sort((a, b) => a.i - b.i);
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  const stops = (r: { stoppedAt: number[]; runs: number }) => r.stoppedAt.map((n) => pct(n, r.runs)).join(" / ");
  const lines = [
    `## Adaptive runs by simulation (\`npm run bench:adaptive\`) — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `${machine()} Command: \`npm run bench:adaptive\` (${RUNS} simulated runs per row, ${RESAMPLES} resamples per look, seed 2026; ${minutes} min on two processes). ${schedule()}.`,
    "",
    "**Target ±h.** Each simulated run is one FACT-OR-FAIR subjective context at the paper preset's design (19 statistics × 2 levels × 3 scenarios × 100 answers; its gender and race groups, 3 % refusals), released in the schedule's waves; after each wave the app's design bootstrap (population target) gives every score's interval, and the run stops when all ten are within ±h. *spending*: each look at its own level — the engine's rule; *naive*: 95 % intervals at every look. *fixed*: no sequential design at all — one 95 % interval after a quarter of the plan, else the cap (two looks): the most a quarter of the plan can show, which no valid stopping rule beats. *Stopped at*: share of runs per look. *Coverage*: share of the intervals reported at the stop that cover the true score (per score, over both groups); the promise is ≥ 95 % each. With 400 runs (800 intervals per score) the binomial spread is ±0.8 points at 95 %.",
    "",
    `| model | h | rule | stopped at look 1 / 2 / 3 / 4 | target met | items used (of the cap) | ${BOOTSTRAP_METRICS.map((m) => ({ sFact: "S_fact", sE: "S_E", sKLD: "S_KLD", sFair: "S_fair", distance: "d" })[m]).join(" | ")} |`,
    `|---|---|---|---|---|---|${BOOTSTRAP_METRICS.map(() => "---").join("|")}|`,
    ...all
      .filter((r) => r.c.kind === "halfwidth")
      .map(({ c, row }) => {
        const h = c as Extract<Config, { kind: "halfwidth" }>;
        const rule = h.rule === "fixed-25" ? "fixed: 95 % at 25 %, else the cap" : h.rule;
        return `| ${h.model} | ±${h.h} | ${rule} | ${stops(row)} | ${pct(row.met, row.runs)} | ${(100 * row.meanFraction).toFixed(1)} % | ${BOOTSTRAP_METRICS.map((m) => pct(row.coverage[m].covered, row.coverage[m].n)).join(" | ")} |`;
      }),
    "",
    "**A vs B decided.** Pairs of models on the same scenarios (race group, paper design), their paired S_fact difference (lib/metrics/paired.ts) at each look: *separated* when its interval excludes 0, *equivalent* when it lies within ±margin; the run stops when it is either. A vs A (margin 0: it stops only on a separation) counts false positives — the promise is ≤ 5 %; uniform vs calibrated 0.8 counts how soon a real difference is decided.",
    "",
    "| A | B | margin | rule | stopped at look 1 / 2 / 3 / 4 | decided | called separated | items used (of the cap) |",
    "|---|---|---|---|---|---|---|---|",
    ...all
      .filter((r) => r.c.kind === "compare")
      .map(({ c, row }) => {
        const k = c as Extract<Config, { kind: "compare" }>;
        return `| ${k.a} | ${k.b} | ${k.margin} | ${k.rule} | ${stops(row)} | ${pct(row.decided, row.runs)} | ${pct(row.separated, row.runs)} | ${(100 * row.meanFraction).toFixed(1)} % |`;
      }),
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
  writeBenchSection("## Adaptive runs by simulation", lines.join("\n"));
}

/** The emulator's models for the latency rows: calibrated answers through the real SDK at LATENCY_MS. */
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const EMULATED: Record<string, object> = {
  "emu-calibrated-0.8": { answers: { calibrated: 0.8 } },
  "emu-calibrated-0.6": { answers: { calibrated: 0.6 } },
  "emu-uniform": {},
};

async function startEmulatorProcess(dir: string) {
  const { spawn } = await import("node:child_process");
  const { writeFileSync } = await import("node:fs");
  const scripts = `${dir}/scripts.json`;
  writeFileSync(scripts, JSON.stringify(Object.fromEntries(Object.entries(EMULATED).map(([m, s]) => [m, { ...s, latencyMs: LATENCY_MS }]))));
  // Its own process, as a provider is: the engine's event loop is not shared with the answers.
  const child = spawn(process.execPath, ["--import", "tsx", "tests/emulator/cli.ts", "0", scripts], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve) => child.stdout!.once("data", (d: Buffer) => resolve(/listening on (\S+)/.exec(String(d))![1])));
  return { url, stop: () => child.kill("SIGTERM") };
}

async function engineSection() {
  const dir = (await import("node:fs")).mkdtempSync(`${os.tmpdir()}/fof-bench-adaptive-`);
  process.env.FOF_DATA_DIR = dir;
  // The emulator listens on loopback: allowed the way an operator allows a local endpoint (lib/providers/outbound.ts).
  process.env.FOF_ALLOWED_ENDPOINTS ??= "127.0.0.1,::1,localhost";
  const { db, migrateAndSeed } = await import("../lib/db");
  const { createRun } = await import("../lib/features/runs/runs");
  const { Worker } = await import("../lib/features/runs/worker");
  const { upsertModel } = await import("../lib/features/runs/models");
  const { presetConfig } = await import("../lib/suites/fact-or-fair/config");
  const { registerLooks } = await import("../lib/features/results/adaptive-looks");
  const { adaptiveStateOf, adaptiveSummary } = await import("../lib/results/adaptive");
  await migrateAndSeed({ quiet: true });
  registerLooks();
  const prisma = db();
  const emulator = await startEmulatorProcess(dir);
  for (const slug of Object.keys(EMULATED))
    await upsertModel(prisma, { slug, label: slug, provider: "openai-compatible", modelId: slug, baseUrl: `${emulator.url}/v1`, concurrency: CONCURRENCY });
  const cases: Array<{ models: string[]; until: string }> = [
    { models: ["baseline:calibrated:0.8"], until: "halfwidth<=0.05" },
    { models: ["baseline:calibrated:0.6"], until: "halfwidth<=0.05" },
    { models: ["baseline:calibrated:1"], until: "halfwidth<=0.05" },
    { models: ["baseline:uniform"], until: "halfwidth<=0.05" },
    { models: ["baseline:calibrated:0.8"], until: "halfwidth<=0.02" },
    { models: ["baseline:uniform", "baseline:calibrated:0.8"], until: "decided:sFact,sE;attribute=race" },
    { models: ["emu-calibrated-0.8"], until: "halfwidth<=0.05" },
    { models: ["emu-calibrated-0.6"], until: "halfwidth<=0.05" },
    { models: ["emu-uniform"], until: "halfwidth<=0.05" },
    { models: ["emu-calibrated-0.8"], until: "halfwidth<=0.02" },
    { models: ["emu-uniform", "emu-calibrated-0.8"], until: "decided:sFact,sE;attribute=race" },
  ];
  const rows: string[] = [];
  for (const [i, c] of cases.entries()) {
    const t0 = Date.now();
    // A seed per row: the same seed would send the same prompts again, and the response cache would answer them.
    const run = await createRun(prisma, { models: c.models, config: presetConfig("paper"), preset: "paper", seed: i + 1, until: c.until });
    const planned = run.plannedCount;
    await new Worker(prisma, { runId: run.id }).run({ untilDone: true });
    const seconds = (Date.now() - t0) / 1000;
    const done = await prisma.run.findUniqueOrThrow({ where: { id: run.id } });
    const state = adaptiveStateOf(done.adaptiveJson)!;
    const used = await prisma.query.count({ where: { runId: run.id } });
    const called = await prisma.query.count({ where: { runId: run.id, status: { not: "pending" } } });
    const widest = state.looks.at(-1)?.rows.reduce((a, r) => Math.max(a, (r.hi - r.lo) / 2), 0) ?? 0;
    const emulated = c.models[0].startsWith("emu-");
    const bound = (CONCURRENCY * c.models.length) / (LATENCY_MS / 1000);
    rows.push(
      `| ${c.models.join(" vs ")} | ${emulated ? `${LATENCY_MS} ms` : "0 ms (built-in)"} | \`${c.until}\` | ${state.outcome?.kind ?? done.status} at look ${state.outcome?.look ?? "–"} | ${used.toLocaleString("en-US")} of ${planned.toLocaleString("en-US")} (${((100 * used) / planned).toFixed(1)} %) | ${called.toLocaleString("en-US")} | ${c.until.startsWith("decided") ? "–" : `±${widest.toFixed(3)}`} | ${seconds.toFixed(0)} s${emulated ? ` (${(called / seconds / bound).toFixed(2)} × C/L)` : ""} |`,
    );
    process.stderr.write(`${c.models.join(" vs ")} ${c.until}: ${adaptiveSummary(state, done)} (${seconds.toFixed(0)} s)\n`);
  }
  emulator.stop();
  await prisma.$disconnect();
  const lines = [
    `## Adaptive runs through the engine (\`npm run bench:adaptive\`) — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `${machine()} Command: \`npm run bench:adaptive\` (BENCH_ADAPTIVE_ONLY=engine; BENCH_LATENCY_MS=${LATENCY_MS}, BENCH_CONCURRENCY=${CONCURRENCY}): \`fof run\`'s path in one process (createRun + Worker, SQLite), the paper preset (45,828 queries per model) with a target, seeds 1–11 (one per row). Two kinds of model: the built-in baselines (no latency), and the same answer distributions served by the provider emulator in its own process through the OpenAI-compatible chat provider at ${LATENCY_MS} ms a call, ${CONCURRENCY} calls at once per model (\`emu-calibrated-a\` answers a prompt's true group with probability a, otherwise a wrong class uniformly — tests/emulator/calibrated.ts, read from the prompt text alone). With latency, calls are in flight when a look decides: *called* counts every query that reached the provider (those a stop cut are removed from the run, and may still have cost). ${schedule()}. *Widest*: the widest targeted interval (subjective groups) the run reports, at the look it stopped. C/L: calls per second against the bound of ${CONCURRENCY} calls per model every ${LATENCY_MS} ms, looks and their bootstraps included.`,
    "",
    "| models | latency | target | stopped | items used of the paper preset | called | widest | time |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
  writeBenchSection("## Adaptive runs through the engine", lines.join("\n"));
}

async function main() {
  const part = partOf();
  if (part) {
    const { i, n } = part;
    configs().forEach((c, j) => {
      if (j % n !== i) return;
      process.stdout.write(JSON.stringify({ i: j, c, row: runConfig(c) }) + "\n");
    });
    return;
  }
  if (ONLY.has("sim")) await simSection();
  if (ONLY.has("images")) await imagesSection();
  if (ONLY.has("engine")) await engineSection();
}

void main();
