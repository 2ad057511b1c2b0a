// bench:stats' explanation section (issue #67): the prevalence of a cognitive error among a run's explanations, from a
// stratified sample read by two reviewers (the review page's sizing) and from a judge corrected for its measured
// misreadings. Known truth: errors planted at a rate varying by stratum (×0.5 … ×1.5 about the mean), a model's 19
// statistics × 4 contexts with 60 explanations each (the quick preset), reviewers and a judge with known confusion
// (the judge: the built-in one's sensitivity 0.8, specificity 0.95). lib/metrics/simulate-explanations.ts.
import { simulateExplanations, type ExplanationSimResult } from "../lib/metrics/simulate-explanations";
import { writeBenchSection } from "./bench-section";

export interface ExplanationConfig {
  kind: "explanations";
  rate: number;
  halfWidth: number;
  reviewers: "exact" | "erring";
}

const REVIEWERS = { exact: { miss: 0, false: 0 }, erring: { miss: 0.05, false: 0.01 } } as const;

export function explanationConfigs(): ExplanationConfig[] {
  const out: ExplanationConfig[] = [];
  for (const reviewers of ["exact", "erring"] as const)
    for (const halfWidth of [0.1, 0.05]) for (const rate of [0.3, 0.15, 0.1, 0.05]) out.push({ kind: "explanations", rate, halfWidth, reviewers });
  return out;
}

export function runExplanations(c: ExplanationConfig, runs: number, replicates: number): ExplanationSimResult {
  return simulateExplanations({
    rate: c.rate,
    strata: 76,
    perStratum: 60,
    halfWidth: c.halfWidth,
    reviewerMiss: REVIEWERS[c.reviewers].miss,
    reviewerFalse: REVIEWERS[c.reviewers].false,
    judgeSensitivity: 0.8,
    judgeSpecificity: 0.95,
    reps: runs,
    seed: 2026,
    replicates,
  });
}

/** what the 2026-12-07 run of this section showed (kept with the script so a re-run keeps the reading beside its table) */
const READING =
  "Reading: with reviewers who read as the rubric says, the people's interval covers the run's true prevalence in 93.3–97.8 % of runs at the sizes the page suggests (±10 and ±5 points per model; 152 and 355 explanations), and the judge's corrected interval in 93.0–96.3 %, while the judge's raw share is off by −2.5 to +3.7 points (a judge that misses a fifth and tags 5 % of the rest under-reads common errors and over-reads rare ones); the correction leaves at most 0.17 points of bias. At a 5 % rate and ±10 points, 4–5 runs in 400 had too few checked explanations with the error for a correction, and said so. With reviewers who err (each misses 5 % of errors and tags 1 % of clean explanations), what is estimated is what the reviewers read: the people's estimate carries their bias (+0.7 points at a 5 % rate, −0.6 to −0.8 at 30 %), and its coverage of the planted truth falls to 88–90 % at 5 %, where that bias is large against the interval's width — the judge's corrected interval, checked on the explanations two reviewers read alike, still covers (93.5–96.3 %). So: read reviewers' alpha and their accuracy on gold before a rare error's prevalence.";

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const pts = (x: number) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(2)}`;

export function writeExplanations(
  results: Array<{ c: ExplanationConfig; r: ExplanationSimResult }>,
  machine: string,
  minutes: string,
  runs: number,
  replicates: number,
) {
  if (!results.length) return;
  const heading = "## Explanation prevalences by simulation (`npm run bench:stats`)";
  const lines = [
    `${heading} — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `${machine} Command: \`BENCH_STATS_ONLY=explanations npm run bench:stats\` (${runs} simulated runs per row, ${replicates} replicates for the judge's interval, seed 2026; ${minutes} min for the whole command).`,
    "",
    "One model's explanations: 19 statistics × 4 contexts, 60 explanations per stratum (the quick preset), an error planted in each with the stratum's rate (the mean rate × 0.5 … 1.5). The review sample is sized as the review page does for the half-width (n₀ = 1.96²/4h², finite-population corrected, at least 2 per stratum) and read by two reviewers; *exact* reviewers read the planted truth, *erring* ones miss 5 % of errors and tag 1 % of clean explanations. The judge tags every explanation, missing 20 % and tagging 5 % of clean ones (baseline:judge's rates), and is checked on the explanations the two reviewers read alike. Truth: the run's own share of explanations with the error. Columns: the people's 95 % interval — coverage, mean width, bias of the estimate (points); the judge — the raw share's bias, the corrected estimate's bias, the corrected interval's coverage and width. With 400 runs the binomial spread of a coverage is ±1.1 points.",
    "",
    "| reviewers | ± asked | rate | sample | people: coverage | width | bias | judge raw bias | corrected bias | corrected coverage | width |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...results.map(
      ({ c, r }) =>
        `| ${c.reviewers} | ${c.halfWidth} | ${c.rate} | ${Math.round(r.sampled.n)} | ${pct(r.sampled.coverage)} | ${r.sampled.meanWidth.toFixed(3)} | ${pts(r.sampled.bias)} | ${pts(r.judge.rawBias)} | ${pts(r.judge.correctedBias)} | ${pct(r.judge.coverage)}${r.judge.refused ? ` (${r.judge.refused} refused)` : ""} | ${r.judge.meanWidth.toFixed(3)} |`,
    ),
    "",
    READING,
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
  writeBenchSection(heading, lines.join("\n"));
}
