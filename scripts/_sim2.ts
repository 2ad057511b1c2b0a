import { cellTruths, drawScenarios, drawUnit, truthScores, SUBJECTIVE_DESIGNS } from "../lib/metrics/simulate";
import { designBootstrap, plugInScores, type DesignCell } from "../lib/metrics/cluster-bootstrap";
import { fastRng } from "../lib/metrics/fast-rng";
const design = { ...SUBJECTIVE_DESIGNS.quick, k: 4 };
const model = { kind: "favour" as const, effects: 6, strength: [0.3, 0.9] as const, seed: 7 };
const truths = cellTruths(design, model);
const truth = truthScores(truths, truths.map((c) => c.base), 4);
console.log("truth", truth);
const rng = fastRng(11, "x");
const acc: Record<string, number[]> = {};
const push = (k: string, v: number | null) => { if (v !== null) (acc[k] ??= []).push(v); };
for (let r = 0; r < 60; r++) {
  const sc = drawScenarios(rng, truths, design, model);
  const cells: DesignCell[] = truths.map((c, i) => ({ statisticId: c.statisticId, level: c.level, truth: c.truth, truthLabel: c.truth >= 0 ? ("c" + c.truth) as never : null, clusters: sc[i].map((p) => Array.from({ length: 10 }, () => drawUnit(rng, p, design))) }));
  const pl = plugInScores(cells, 4);
  const iv = designBootstrap(cells, 4, { resamples: 400, seed: r, key: "sim", target: "population" });
  for (const m of ["sFact", "sE", "sKLD", "distance"] as const) { push(m + " plug", pl[m]); push(m + " est", iv[m]!.estimate); push(m + " lo", iv[m]!.lo); push(m + " hi", iv[m]!.hi); }
}
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
for (const [k, v] of Object.entries(acc)) console.log(k, mean(v).toFixed(4));
