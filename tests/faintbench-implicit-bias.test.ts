// FAIntbench's implicit score read from finitely many images is biased low; implicit-bias.ts estimates that bias
// from the images themselves. Checked against known truth: the Hessian by finite differences, the corrected score's
// mean by Monte Carlo (one face per image, and images whose faces are alike), and the whole suite's intervals by the
// adaptive-run simulation at the paper's first look (64 images per prompt), where the uncorrected interval covered
// the infinite-image value in 25 of these 40 runs.
import { describe, expect, it } from "vitest";
import { addImage, addUnitImages, block, implicitBias, newMoments } from "../lib/suites/faintbench/implicit-bias";
import { cosineScore } from "../lib/suites/faintbench/metrics";
import { fastRng, type FastRng } from "../lib/metrics/fast-rng";
import { implicitScores, newTally, tallyImage } from "../lib/suites/faintbench/score";
import type { FaintContent, FaintPrompt } from "../lib/suites/faintbench/content";
import { faintSimTruth, simulateFaint } from "../lib/suites/faintbench/simulate";
import { suiteOf } from "../lib/suites";

const score = (s: readonly number[], q: readonly number[]) => cosineScore(s, q)!;

function draw(rng: FastRng, p: readonly number[]): number {
  let u = rng.float();
  for (let i = 0; i < p.length; i++) if ((u -= p[i]) < 0) return i;
  return p.length - 1;
}

/** Mean plug-in and corrected scores over `reps` prompts of n images, each image `faces` faces of one drawn class (alike) or drawn apart. */
function monteCarlo(p: number[], q: number[], n: number, faces: number, alike: boolean, reps = 4000, unitsAreFaces = false) {
  const rng = fastRng(7, `mc|${n}|${faces}|${alike}`);
  let plain = 0;
  let corrected = 0;
  for (let r = 0; r < reps; r++) {
    const sum = p.map(() => 0);
    const m = newMoments();
    for (let i = 0; i < n; i++) {
      const x = p.map(() => 0);
      const c = draw(rng, p);
      for (let f = 0; f < faces; f++) x[alike ? c : draw(rng, p)]++;
      x.forEach((v, j) => (sum[j] += v));
      const v = { gender: [0, 0], race: x, age: [0, 0, 0] };
      if (unitsAreFaces) addUnitImages(m, v, faces);
      else addImage(m, v);
    }
    const s = score(sum, q);
    plain += s;
    corrected += s - implicitBias(sum, block(m, "race"), m.n, q)!;
  }
  return { plain: plain / reps, corrected: corrected / reps, truth: score(p, q) };
}

describe("FAIntbench implicit score: small-sample bias", () => {
  it("is ¼ tr(H V) with the cosine's Hessian (finite differences)", () => {
    const sum = [30, 10, 8, 7, 9];
    const n = 64;
    const second = new Array(25).fill(0);
    // a covariance with off-diagonal terms (soft vectors): Σ x xᵀ = n (V·n + s̄ s̄ᵀ) for a chosen V
    const s = sum.map((x) => x / n);
    const V = [0.02, -0.005, 0.001, 0, 0.002].map((d, i, a) => a.map((e, j) => (i === j ? 0.01 + Math.abs(d) : d * e * 10)));
    for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) second[i * 5 + j] = n * (((V[i][j] + V[j][i]) / 2) * (n - 1) + s[i] * s[j]);
    const q = [0.4, 0.15, 0.2, 0.1, 0.15];
    const h = 1e-4;
    const f = (x: number[]) => (cosineScore(x, q)! * 2 - 1) / 2; // ½ cos
    let tr = 0;
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 5; j++) {
        const e = (a: number, b: number) => s.map((x, k) => x + (k === i ? a : 0) + (k === j ? b : 0));
        const hij = (f(e(h, h)) - f(e(h, -h)) - f(e(-h, h)) + f(e(-h, -h))) / (4 * h * h);
        tr += hij * ((V[i][j] + V[j][i]) / 2);
      }
    // the score is ½(cos + 1): its bias is ½ · ½ tr(H_cos V) = ½ tr(H_{½cos} V)
    expect(implicitBias(sum, second, n, q)).toBeCloseTo(tr / 2, 6);
    expect(implicitBias(sum, second, 1, q)).toBeNull();
  });

  it("removes the bias of one-face images to within Monte Carlo error", () => {
    const p = [0.55, 0.15, 0.1, 0.1, 0.1];
    const q = [0.3, 0.2, 0.2, 0.15, 0.15];
    for (const n of [16, 64]) {
      const r = monteCarlo(p, q, n, 1, false);
      const before = r.plain - r.truth;
      expect(before).toBeLessThan(-0.002); // biased low, by several Monte Carlo errors (≈ 0.0003)
      expect(Math.abs(r.corrected - r.truth)).toBeLessThan(Math.abs(before) / 5);
    }
  });

  it("keeps an image's faces together: alike faces are one image's evidence, not three", () => {
    const p = [0.5, 0.2, 0.1, 0.1, 0.1];
    const q = [0.2, 0.2, 0.2, 0.2, 0.2];
    const images = monteCarlo(p, q, 32, 3, true);
    expect(Math.abs(images.corrected - images.truth)).toBeLessThan(Math.abs(images.plain - images.truth) / 4);
    // counting each face as its own draw under-corrects: three alike faces vary as one
    const faces = monteCarlo(p, q, 32, 3, true, 4000, true);
    expect(Math.abs(faces.corrected - faces.truth)).toBeGreaterThan(2 * Math.abs(images.corrected - images.truth));
  });

  it("tallies images as units: Σ x xᵀ of each image's face counts", () => {
    const truth = { gender: [0.5, 0.5], race: [0.2, 0.2, 0.2, 0.2, 0.2], age: [0.2, 0.6, 0.2] };
    const prompt = {
      id: "i",
      text: "a photo of a nurse",
      visibility: "implicit",
      acquired: "occupation",
      item: "nurse",
      persons: [{ side: "one", truth }],
    } as unknown as FaintPrompt;
    const face = (gender: string) => ({ labels: { gender, race: "African", age: "young" }, box: [0, 0, 1, 1] });
    const t = newTally();
    tallyImage(t, prompt, [face("male"), face("male")] as never);
    tallyImage(t, prompt, [face("female")] as never);
    expect(t.moments.one!.n).toBe(2);
    expect(block(t.moments.one!, "gender")).toEqual([4, 0, 0, 1]);
    expect(t.counts.one!.gender).toEqual([2, 1]);
    const plain = implicitScores(prompt, t).gender!;
    const corrected = implicitScores(prompt, t, false, true).gender!;
    expect(plain).toBeCloseTo(score([2, 1], [0.5, 0.5]), 12); // the paper's computation is unchanged
    expect(corrected).toBeGreaterThan(plain);
  });

  it("gives the suite's implicit intervals their coverage at the paper's first look (40 simulated runs)", () => {
    const content = suiteOf("faintbench").content() as FaintContent;
    const model = { bias: 0.3, compliance: 0.8, concentration: 20 };
    const truth = faintSimTruth(content, model, 4);
    // naive: a plain 95 % interval at every look; the run stops at its first (64 images per prompt)
    const row = simulateFaint({ content, model, imagesPerPrompt: 800, halfwidth: 0.05, rule: "naive", runs: 40, resamples: 200, seed: 2026, truth });
    expect(row.stoppedAt[0]).toBe(40);
    expect(row.coverage.implicit.covered).toBeGreaterThanOrEqual(36);
  }, 60_000);
});
