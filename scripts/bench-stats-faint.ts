// bench:stats' FAIntbench section: its paired comparisons (lib/suites/faintbench/compare.ts) on the synthetic image
// model of lib/suites/faintbench/simulate.ts — every shipped prompt at the paper's first look (64 images per prompt) —
// the same model against itself (false positives) and two models with a known difference (coverage, power).
import { suiteOf } from "../lib/suites";
import type { FaintContent } from "../lib/suites/faintbench/content";
import { faintSimTruth, simulateFaintPairs, type FaintPairRow, type FaintSimModel } from "../lib/suites/faintbench/simulate";
import { writeBenchSection } from "./bench-section";

export interface FaintPairsConfig {
  kind: "faint";
  b: "same" | "other";
}

const A: FaintSimModel = { bias: 0.3, compliance: 0.8, concentration: 20 };
const B: FaintSimModel = { bias: 0.4, compliance: 0.75, concentration: 20 };
const IMAGES = 64;
const METRICS = ["implicit", "explicit", "eta"] as const;

export function runFaintPairs(c: FaintPairsConfig, pairs: number, resamples: number): FaintPairRow & { truthDelta: Record<string, number> } {
  const content = suiteOf("faintbench").content() as FaintContent;
  let truthDelta = { implicit: 0, explicit: 0, eta: 0 };
  if (c.b === "other") {
    const ta = faintSimTruth(content, A);
    const tb = faintSimTruth(content, B);
    truthDelta = { implicit: tb.implicit - ta.implicit, explicit: tb.explicit - ta.explicit, eta: tb.eta - ta.eta };
  }
  const row = simulateFaintPairs({ content, a: A, b: c.b === "same" ? "same" : B, imagesPerPrompt: IMAGES, pairs, resamples, seed: 2026, truthDelta });
  return { ...row, truthDelta };
}

export function writeFaintPairs(
  rows: Array<{ c: FaintPairsConfig; row: ReturnType<typeof runFaintPairs> }>,
  machine: string,
  minutes: string,
  pairs: number,
  resamples: number,
) {
  if (!rows.length) return;
  const pct = (x: number, n: number) => (n ? `${((100 * x) / n).toFixed(1)} %` : "–");
  const f3 = (x: number) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(3);
  const lines = [
    `## FAIntbench comparisons by simulation (\`npm run bench:stats\`) — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `${machine} Command: \`npm run bench:stats\` (BENCH_STATS_ONLY=faint; ${pairs} simulated pairs per row, ${resamples} resamples, seed 2026; ${minutes} min for the whole command).`,
    "",
    `Every shipped prompt (2,654; 36 η pairs) at ${IMAGES} images per prompt, the paper preset's first look; the synthetic image model of lib/suites/faintbench/simulate.ts (A: faces 30 % towards the stereotype, explicit requests shown 80 % of the time, Dirichlet concentration 20 per prompt; B: 40 % and 75 %). Δ = B − A of Table 2's totals by the app's comparison (lib/suites/faintbench/compare.ts: the same prompts drawn for both sides, the implicit score bias-corrected per prompt), release profile. *Same model*: one model's per-prompt distributions, its images drawn twice — the true Δ is 0. *Two models*: the true Δ is the difference of their infinite-image scores. *p < 0.05*: one metric, before any adjustment (false positives for the same model, power for two); *any separable*: some total separable after Holm's adjustment over the three; *coverage*: the 95 % interval holds the true Δ.`,
    "",
    `| sides | true Δ (implicit, explicit, η) | p < 0.05: ${METRICS.join(" | ")} | any separable | coverage: ${METRICS.join(" | ")} |`,
    "|---|---|---|---|---|---|---|---|---|",
    ...rows.map(({ c, row }) => {
      const rej = METRICS.map((m) => pct(row.rejected[m], row.covered[m].n)).join(" | ");
      const cov = METRICS.map((m) => pct(row.covered[m].covered, row.covered[m].n)).join(" | ");
      return `| ${c.b === "same" ? "same model twice" : "A vs B"} | ${METRICS.map((m) => f3(row.truthDelta[m])).join(", ")} | ${rej} | ${pct(row.anySeparable, row.pairs)} | ${cov} |`;
    }),
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
  writeBenchSection("## FAIntbench comparisons by simulation (`npm run bench:stats`)", lines.join("\n"));
}
