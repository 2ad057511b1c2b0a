// npm run bench:adaptive (BENCH_ADAPTIVE_ONLY=images, or `tsx scripts/bench-adaptive-images.ts`) — adaptive
// text-to-image runs by simulation, ≥ 400 runs per row (BENCH_ADAPTIVE_RUNS):
// - FACT-OR-FAIR portraits (lib/metrics/simulate-adaptive.ts on the T2I design: one prompt per (statistic, level),
//   images of 0–3 faces sharing a class with ρ = 0.5), growing by images per prompt as the engine does;
// - DoFaiR (lib/metrics/simulate-adaptive-means.ts with the suite's image model, lib/suites/dofair/simulate.ts),
//   growing by whole entries as the engine does under the population target, scored by the suite's own function;
// - FAIntbench (lib/suites/faintbench/simulate.ts): every shipped prompt at 800 images, growing by images per prompt.
// Where runs stop, items used of the cap, and the coverage of the intervals a stopped run reports — the engine's rule
// (alpha spending) beside the naive one (95 % at every look). Writes docs/BENCHMARKS.md.
import os from "node:os";
import path from "node:path";
import { BOOTSTRAP_METRICS } from "../lib/metrics/design";
import { SIM_IMAGES, T2I_DESIGNS } from "../lib/metrics/simulate";
import { simulateAdaptive } from "../lib/metrics/simulate-adaptive";
import { simulateAdaptiveMeans, truthOfMeans } from "../lib/metrics/simulate-adaptive-means";
import { DEFAULT_SCHEDULE, lookLevels } from "../lib/metrics/sequential";
import { METRICS } from "../lib/suites/dofair/metrics";
import { DOFAIR_SIM_ENTRIES, dofairSimGroups } from "../lib/suites/dofair/simulate";
import { faintSimTruth, simulateFaint } from "../lib/suites/faintbench/simulate";
import type { FaintContent } from "../lib/suites/faintbench/content";
import { suiteOf } from "../lib/suites";
import { writeBenchSection } from "./bench-section";
import { partOf, runInParts } from "./bench-parts";

const RUNS = Number(process.env.BENCH_ADAPTIVE_RUNS ?? 400);
/** DoFaiR's rows cost seconds per thousand runs: 2.5 times as many, so their coverage reads to ±0.5 points. */
const DOFAIR_RUNS = Math.max(RUNS, 1000);
const RESAMPLES = Number(process.env.BENCH_ADAPTIVE_RESAMPLES ?? 400);

type Config =
  | { kind: "portraits"; imagesPerPrompt: number; h: number; rule: "spending" | "naive" }
  | { kind: "dofair"; dimensions: "both" | "race"; h: number; rule: "spending" | "naive" }
  | { kind: "faintbench"; h: number; rule: "spending" | "naive" };

/** FAIntbench's synthetic model: faces pulled 30 % towards the stereotype, 80 % showing an explicit request. */
const FAINT_MODEL = { bias: 0.3, compliance: 0.8, concentration: 20 };

function configs(): Config[] {
  const out: Config[] = [];
  for (const rule of ["spending", "naive"] as const) {
    out.push({ kind: "portraits", imagesPerPrompt: 20, h: 0.05, rule });
    out.push({ kind: "portraits", imagesPerPrompt: 200, h: 0.05, rule });
    out.push({ kind: "dofair", dimensions: "both", h: 0.05, rule });
    out.push({ kind: "dofair", dimensions: "race", h: 0.05, rule });
  }
  out.push({ kind: "portraits", imagesPerPrompt: 200, h: 0.02, rule: "spending" });
  out.push({ kind: "dofair", dimensions: "race", h: 0.02, rule: "spending" });
  for (const rule of ["spending", "naive"] as const) out.push({ kind: "faintbench", h: 0.05, rule });
  out.push({ kind: "faintbench", h: 0.02, rule: "spending" });
  return out;
}

interface Row {
  stoppedAt: number[];
  met: number;
  runs: number;
  meanFraction: number;
  coverage: Record<string, { n: number; covered: number }>;
}

function runConfig(c: Config): Row {
  if (c.kind === "faintbench") {
    const content = suiteOf("faintbench").content() as FaintContent;
    const truth = faintSimTruth(content, FAINT_MODEL);
    return simulateFaint({
      content,
      model: FAINT_MODEL,
      imagesPerPrompt: 800,
      halfwidth: c.h,
      rule: c.rule,
      runs: RUNS,
      resamples: RESAMPLES,
      seed: 2026,
      truth,
    });
  }
  if (c.kind === "portraits")
    return simulateAdaptive({
      model: { kind: "calibrated", accuracy: 0.8 },
      halfwidth: c.h,
      rule: c.rule,
      runs: RUNS,
      resamples: RESAMPLES,
      seed: 2026,
      design: { ...T2I_DESIGNS.paper, unitsPerScenario: c.imagesPerPrompt, images: SIM_IMAGES },
    });
  const groups = dofairSimGroups(c.dimensions === "race" ? { race: DOFAIR_SIM_ENTRIES.race, gender: 0 } : DOFAIR_SIM_ENTRIES).filter((g) => g.entries > 0);
  const truth = truthOfMeans(groups, METRICS, 1);
  return simulateAdaptiveMeans({
    groups,
    metrics: METRICS,
    range: [-1, 1],
    imagesPerEntry: 1,
    halfwidth: c.h,
    rule: c.rule,
    runs: DOFAIR_RUNS,
    resamples: RESAMPLES,
    seed: 2026,
    truth,
  });
}

const pct = (x: number, n: number) => (n ? `${((100 * x) / n).toFixed(1)} %` : "–");

export async function imagesSection() {
  const started = Date.now();
  const all = (await runInParts<{ i: number; c: Config; row: Row }>(2, __filename)).sort((a, b) => a.i - b.i);
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  const stops = (r: Row) => r.stoppedAt.map((n) => pct(n, r.runs)).join(" / ");
  const cov = (r: Row, ids: readonly string[]) => ids.map((m) => pct(r.coverage[m].covered, r.coverage[m].n)).join(" | ");
  const levels = lookLevels()
    .map((l) => `${(100 * l).toFixed(3).replace(/\.?0+$/, "")} %`)
    .join(", ");
  const lines = [
    `## Adaptive text-to-image runs by simulation (\`npm run bench:adaptive\`) — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB. Command: \`npm run bench:adaptive\` (BENCH_ADAPTIVE_ONLY=images; ${RUNS} simulated runs per row, ${RESAMPLES} resamples per look, seed 2026; ${minutes} min on two processes). Looks at ${DEFAULT_SCHEDULE.fractions.map((f) => `${f * 100} %`).join(", ")} of the cap, intervals at ${levels}. *spending*: the engine's rule; *naive*: 95 % at every look. *Coverage*: share of the intervals a stopped run reports that cover the true score; the promise is ≥ 95 % (±1 point of simulation spread).`,
    "",
    "**FACT-OR-FAIR portraits** (calibrated 0.8; one subjective prompt per statistic and level, its gender and race groups; images of 0–3 faces, the faces of an image sharing a class with ρ = 0.5, resampled with their image). The run grows by images per prompt. The paper preset (20 images per prompt) cannot pin every score to ±0.05: it runs to its cap and says how wide it got; with a cap of 200 images per prompt the target decides where it stops.",
    "",
    `| images per prompt (cap) | h | rule | stopped at look 1 / 2 / 3 / 4 | target met | items used (of the cap) | ${BOOTSTRAP_METRICS.map((m) => ({ sFact: "S_fact", sE: "S_E", sKLD: "S_KLD", sFair: "S_fair", distance: "d" })[m]).join(" | ")} |`,
    `|---|---|---|---|---|---|${BOOTSTRAP_METRICS.map(() => "---").join("|")}|`,
    ...all
      .filter((r) => r.c.kind === "portraits")
      .map(({ c, row }) => {
        const p = c as Extract<Config, { kind: "portraits" }>;
        return `| ${p.imagesPerPrompt} | ±${p.h} | ${p.rule} | ${stops(row)} | ${pct(row.met, row.runs)} | ${(100 * row.meanFraction).toFixed(1)} % | ${cov(row, BOOTSTRAP_METRICS)} |`;
      }),
    "",
    `**DoFaiR** (the paper's set: ${DOFAIR_SIM_ENTRIES.race} race and ${DOFAIR_SIM_ENTRIES.gender} gender entries, one image per prompt as the paper preset; a baseline that follows the facts — 85 % of faces from the event's involved groups — and a diversity intervention at 45 %; each image scored by the suite's release-profile function). The run grows by whole entries, the same for every variant. Every group at ±0.05: the 156 gender entries, one image each, cannot pin DDC to ±0.05 (an image's gender DDC is 0, ½ or 1), so such a run goes to its cap and names the gender cells; a race-only run (dimensions: race) stops early. ${DOFAIR_RUNS} simulated runs per row (a race-only run reports two groups, a race-and-gender one four: ${2 * DOFAIR_RUNS} or ${4 * DOFAIR_RUNS} intervals per score), simulation spread ±${(100 * 1.96 * Math.sqrt((0.95 * 0.05) / (2 * DOFAIR_RUNS))).toFixed(1)} points at 95 % or less. Averages get the standard interval with the jackknife's floor (docs/scoring.md); until 2026-11-28 the basic interval, whose race-only stopped runs covered FDD in 93.9 % (400 runs).`,
    "",
    "| dimensions | h | rule | stopped at look 1 / 2 / 3 / 4 | target met | items used (of the cap) | DDC | IDC | IDF | FDD |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...all
      .filter((r) => r.c.kind === "dofair")
      .map(({ c, row }) => {
        const d = c as Extract<Config, { kind: "dofair" }>;
        return `| ${d.dimensions === "both" ? "race, gender" : "race"} | ±${d.h} | ${d.rule} | ${stops(row)} | ${pct(row.met, row.runs)} | ${(100 * row.meanFraction).toFixed(1)} % | ${cov(row, METRICS)} |`;
      }),
    "",
    "**FAIntbench** (every shipped prompt — 2,654, with their truths, weights and 36 η pairs — at the paper preset's 800 images per prompt, 2,123,200 per model, about $85,000 at $0.04 an image; a synthetic model whose faces lean 30 % towards the stereotype on implicit prompts and show an explicit request 80 % of the time, each prompt's distribution drawn around that with Dirichlet concentration 20; lib/suites/faintbench/simulate.ts, scored by the suite's own modelScores, release profile). The run grows by images per prompt, every prompt in every wave. Its truth is each score with infinitely many images per prompt; the prompts are fixed here, so the population intervals (which resample prompts) are conservative by construction.",
    "",
    "| h | rule | stopped at look 1 / 2 / 3 / 4 | target met | items used (of the cap) | implicit | explicit | η |",
    "|---|---|---|---|---|---|---|---|",
    ...all
      .filter((r) => r.c.kind === "faintbench")
      .map(({ c, row }) => {
        const f = c as Extract<Config, { kind: "faintbench" }>;
        return `| ±${f.h} | ${f.rule} | ${stops(row)} | ${pct(row.met, row.runs)} | ${(100 * row.meanFraction).toFixed(1)} % | ${cov(row, ["implicit", "explicit", "eta"])} |`;
      }),
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
  writeBenchSection("## Adaptive text-to-image runs by simulation", lines.join("\n"));
}

function main() {
  const part = partOf();
  if (!part) return void imagesSection();
  configs().forEach((c, j) => {
    if (j % part.n !== part.i) return;
    process.stdout.write(JSON.stringify({ i: j, c, row: runConfig(c) }) + "\n");
  });
}

// Run directly (or as a part of itself); bench-adaptive.ts imports imagesSection.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) main();
