import { simulateCoverage, SUBJECTIVE_DESIGNS } from "../lib/metrics/simulate";
const runs = Number(process.argv[2] ?? 100);
for (const k of [4, 2]) for (const target of ["population", "exact"] as const) {
  const design = { ...SUBJECTIVE_DESIGNS.quick, k };
  const model = { kind: "favour" as const, effects: Number(process.argv[3] ?? 6), strength: [0.3, 0.9] as const, seed: 7 };
  const t = Date.now();
  const rows = simulateCoverage({ design, model, target, runs, resamples: 400, seed: 11 });
  console.log(k, target, ((Date.now() - t) / 1000).toFixed(1) + "s", rows.map((r) => `${r.metric} ${(100 * r.covered / r.runs).toFixed(0)}% fl${r.flagged} hw${r.meanHalfWidth.toFixed(3)} err${r.meanError.toFixed(3)}`).join(" | "));
}
