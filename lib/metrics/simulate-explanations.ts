// Known-truth simulation of explanation review (issue #67, DESIGN.md §12): explanations with planted error rates
// (varying by stratum), a stratified sample sized as the review page suggests read by two reviewers with known
// misreadings, and a judge with a known confusion tagging every explanation. Measures how often the people's
// prevalence interval and the judge-corrected one cover the true prevalence, and the judge's bias before and after
// correction. Pure and seeded: tests run a small version, bench:stats the full one.
import { createRng } from "../benchmark/rng";
import { stratifiedSample } from "./stratified-sample";
import { correctedPrevalence, sampledPrevalence, type JudgeCheck } from "./prevalence";

export interface ExplanationSimSpec {
  /** the tag's mean planted rate; strata vary about it (×0.5 … ×1.5) */
  rate: number;
  strata: number;
  perStratum: number;
  /** the review's precision (half-width) the sample is sized for */
  halfWidth: number;
  /** each reviewer's chance of missing a present error and of tagging an absent one */
  reviewerMiss: number;
  reviewerFalse: number;
  judgeSensitivity: number;
  judgeSpecificity: number;
  reps: number;
  seed: number;
  /** the judge interval's replicates (fewer in tests) */
  replicates?: number;
}

export interface ExplanationSimResult {
  sampled: { coverage: number; meanWidth: number; bias: number; n: number };
  judge: { rawBias: number; correctedBias: number; coverage: number; meanWidth: number; refused: number };
}

export function simulateExplanations(spec: ExplanationSimSpec): ExplanationSimResult {
  let sCover = 0;
  let sWidth = 0;
  let sBias = 0;
  let sN = 0;
  let jCover = 0;
  let jWidth = 0;
  let jRaw = 0;
  let jCorr = 0;
  let jDone = 0;
  let refused = 0;
  for (let r = 0; r < spec.reps; r++) {
    const rng = createRng(spec.seed, `sim-explanations|${r}`);
    const truth = new Map<string, number[]>();
    const ids = new Map<string, number[]>();
    let id = 0;
    for (let h = 0; h < spec.strata; h++) {
      const rate = Math.min(1, spec.rate * (0.5 + rng.float()));
      const key = `s${String(h).padStart(3, "0")}`;
      truth.set(
        key,
        Array.from({ length: spec.perStratum }, () => (rng.float() < rate ? 1 : 0)),
      );
      ids.set(
        key,
        Array.from({ length: spec.perStratum }, () => id++),
      );
    }
    const all = [...truth.values()].flat();
    const p = all.reduce((a, b) => a + b, 0) / all.length;
    const read = (t: number, miss: number, fals: number) => (t ? (rng.float() < miss ? 0 : 1) : rng.float() < fals ? 1 : 0);
    const { sample } = stratifiedSample(ids, { halfWidth: spec.halfWidth }, spec.seed + r);
    const check: JudgeCheck = {
      counts: [
        [0, 0],
        [0, 0],
      ],
    };
    const judgeOf = all.map((t) => read(t, 1 - spec.judgeSensitivity, 1 - spec.judgeSpecificity));
    const strata = [...sample].map(([key, picked]) => {
      const base = ids.get(key)![0];
      const values = picked.map((i) => {
        const t = truth.get(key)![i - base];
        const a = read(t, spec.reviewerMiss, spec.reviewerFalse);
        const b = read(t, spec.reviewerMiss, spec.reviewerFalse);
        if (a === b) check.counts[a][judgeOf[i]]++;
        return (a + b) / 2;
      });
      return { population: spec.perStratum, values };
    });
    const s = sampledPrevalence(strata);
    sN += s.n;
    if (s.lo! <= p && p <= s.hi!) sCover++;
    sWidth += s.hi! - s.lo!;
    sBias += s.estimate! - p;
    const c = correctedPrevalence(judgeOf, check, { seed: spec.seed + r, replicates: spec.replicates ?? 1000 });
    jRaw += c.judged! - p;
    if (c.refused) {
      refused++;
      continue;
    }
    jDone++;
    jCorr += c.estimate! - p;
    if (c.lo! <= p && p <= c.hi!) jCover++;
    jWidth += c.hi! - c.lo!;
  }
  const R = spec.reps;
  return {
    sampled: { coverage: sCover / R, meanWidth: sWidth / R, bias: sBias / R, n: sN / R },
    judge: {
      rawBias: jRaw / R,
      correctedBias: jDone ? jCorr / jDone : NaN,
      coverage: jDone ? jCover / jDone : NaN,
      meanWidth: jDone ? jWidth / jDone : NaN,
      refused,
    },
  };
}
