// The labeller-correction simulation (DESIGN.md §12): faces of known true classes, labelled by a simulated classifier
// with a known confusion matrix; a random sample of them reviewed (the truth revealed); the corrected shares'
// intervals (faces and reviewed faces both resampled, misclassification.ts) against the true shares, and the
// uncorrected label shares' Wilson intervals beside them. Fast version in tests/misclassification.test.ts; full in
// npm run bench:stats.
import { fastRng, type FastRng } from "./fast-rng";
import { biasCorrectedInterval } from "./cluster-bootstrap";
import { confusionMatrix, correctShares, reviewCoverage } from "./misclassification";
import { wilson } from "./interval-math";
import { standardInterval } from "./jackknife";

export interface CorrectionSimOptions {
  trueShares: readonly number[];
  /** confusion[i][j] = P(label j | true i) */
  confusion: readonly number[][];
  faces: number;
  reviewed: number;
  runs: number;
  resamples: number;
  seed: number;
}

export interface CorrectionRow {
  cls: number;
  /** runs the app would correct: every class has MIN_REVIEWED_PER_CLASS reviewed faces (the others it refuses) */
  runs: number;
  /** runs refused for too few reviewed faces of some class, as the app refuses them (misclassification.ts) */
  refused: number;
  coveredCorrected: number;
  coveredUncorrected: number;
  meanHalfWidth: number;
}

/** A FairFace-like race confusion (classes Asian, Black, Hispanic, White): Hispanic faces misread most. */
export const SIM_CONFUSION = [
  [0.9, 0.02, 0.03, 0.05],
  [0.02, 0.88, 0.06, 0.04],
  [0.05, 0.08, 0.7, 0.17],
  [0.02, 0.02, 0.06, 0.9],
] as const;

function draw(rng: FastRng, p: readonly number[]): number {
  let u = rng.float();
  for (let j = 0; j < p.length - 1; j++) if ((u -= p[j]) < 0) return j;
  return p.length - 1;
}

export function simulateCorrection(o: CorrectionSimOptions): CorrectionRow[] {
  const k = o.trueShares.length;
  const rng = fastRng(o.seed, "sim|correction");
  const rows: CorrectionRow[] = o.trueShares.map((_, cls) => ({ cls, runs: 0, refused: 0, coveredCorrected: 0, coveredUncorrected: 0, meanHalfWidth: 0 }));
  for (let r = 0; r < o.runs; r++) {
    const faces = Array.from({ length: o.faces }, () => {
      const t = draw(rng, o.trueShares);
      return [t, draw(rng, o.confusion[t])] as const;
    });
    // Reviewers see a random sample of the faces: their truth is revealed.
    const pairs = faces.slice(0, o.reviewed);
    // The app refuses the correction where a class has too few reviewed faces: such a run reports no interval.
    if (!reviewCoverage(pairs, k).enough) {
      for (const row of rows) row.refused++;
      continue;
    }
    const labels = faces.map(([, l]) => l);
    const shares = (ls: readonly number[]) => {
      const c = new Array<number>(k).fill(0);
      for (const l of ls) c[l]++;
      return c.map((x) => x / ls.length);
    };
    const point = correctShares(shares(labels), confusionMatrix(pairs, k));
    const reps: number[][] = Array.from({ length: k }, () => []);
    // Faces are resampled once, each with its label and, if reviewed, its truth: the label shares and the confusion
    // of a resample come from the same faces, as they do in the data (a reviewed face misread moves both). Reviewed
    // and unreviewed faces are drawn each from their own (Rao–Wu, n − 1), as the app draws reviewed and unreviewed
    // images (corrected-bootstrap.ts byReview): how many were reviewed is fixed by the review, not by chance.
    for (let b = 0; b < o.resamples; b++) {
      const ls: number[] = [];
      const ps: Array<readonly [number, number]> = [];
      for (let d = 0; d < o.reviewed - 1; d++) {
        const i = rng.below(o.reviewed);
        ls.push(labels[i]);
        ps.push(faces[i]);
      }
      for (let d = 0; d < faces.length - o.reviewed - 1; d++) ls.push(labels[o.reviewed + rng.below(faces.length - o.reviewed)]);
      correctShares(shares(ls), confusionMatrix(ps, k)).forEach((x, j) => reps[j].push(x));
    }
    const observed = shares(labels);
    for (const row of rows) {
      // As the app's corrected scores (corrected-bootstrap.ts): the standard interval about the bias-corrected share.
      const i = standardInterval(biasCorrectedInterval(point[row.cls], reps[row.cls], 0.95, [0, 1], []), 0, 0.95, [0, 1]);
      const truth = o.trueShares[row.cls];
      row.runs++;
      if (i.lo <= truth && truth <= i.hi) row.coveredCorrected++;
      row.meanHalfWidth += (i.hi - i.lo) / 2;
      const w = wilson(Math.round(observed[row.cls] * labels.length), labels.length);
      if (w.lo <= truth && truth <= w.hi) row.coveredUncorrected++;
    }
  }
  for (const row of rows) row.meanHalfWidth /= Math.max(1, row.runs);
  return rows;
}
