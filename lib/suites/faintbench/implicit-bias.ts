// The implicit score's small-sample bias, and its correction (docs/scoring.md, "FAIntbench's implicit score").
//
// A prompt's implicit score ½(cos(p̂, q) + 1) reads p̂ from finitely many images. The cosine is a curved function of
// p̂, so its expectation sits below its value at infinitely many images (at the paper's first look, 64 images per
// prompt, by about a standard error of the average over 2,654 prompts): a bias every prompt shares, which resampling
// whole prompts cannot see — intervals about the prompts' population covered the infinite-image value in 92.5 % of
// simulated runs instead of 95 %. The correction is second order (the delta method; the jackknife over a prompt's
// images estimates the same term): bias ≈ ½ tr(H V), H the cosine's Hessian at the prompt's mean image vector s̄ and
// V = Σ̂ / n the covariance of that mean, Σ̂ estimated from the images themselves. The units are images, not faces:
// an image's faces (its vector x, a count per class — or CLIP's soft shares) stay together, so faces that look alike
// because they share an image are not counted as independent evidence. It needs only n, Σ x and Σ x xᵀ per prompt,
// person and attribute (k ≤ 5 classes), so scoring stays O(prompts) in memory.
import { ATTRIBUTES, CLASSES, type Attribute } from "./classes";

/** Σ x xᵀ per attribute (k × k, row-major) over the images that added to one person's counts, and how many. */
export interface Moments {
  n: number;
  second: Record<Attribute, number[]>;
}

export const newMoments = (): Moments => ({
  n: 0,
  second: Object.fromEntries(ATTRIBUTES.map((a) => [a, new Array<number>(CLASSES[a].length ** 2).fill(0)])) as Record<Attribute, number[]>,
});

/** Adds one image's vector for one attribute (call addImage once per image, for the image count). */
export function addOuter(m: Moments, a: Attribute, x: readonly number[]) {
  const k = x.length;
  const s = m.second[a];
  for (let i = 0; i < k; i++) {
    if (x[i] === 0) continue;
    for (let j = 0; j < k; j++) s[i * k + j] += x[i] * x[j];
  }
}

/** Adds `n` images that each carry one face (x = a unit vector): Σ x xᵀ gains the counts on its diagonal. */
export function addUnitImages(m: Moments, a: Attribute, counts: readonly number[]) {
  const k = counts.length;
  counts.forEach((c, i) => (m.second[a][i * k + i] += c));
}

/**
 * The estimated bias of ½(cos(s̄, q) + 1) — the implicit score of one person and attribute — from n images whose
 * vectors sum to `sum` with Σ x xᵀ = `second`. Null where it cannot be estimated (fewer than two images, no faces).
 */
export function implicitBias(sum: readonly number[], second: readonly number[], n: number, q: readonly number[]): number | null {
  const k = sum.length;
  if (n < 2) return null;
  const s = sum.map((x) => x / n);
  const s2 = s.reduce((a, x) => a + x * x, 0);
  const qn = Math.sqrt(q.reduce((a, x) => a + x * x, 0));
  if (s2 === 0 || qn === 0) return null;
  const u = q.map((x) => x / qn);
  // V = covariance of the mean image vector: (Σ x xᵀ / n − s̄ s̄ᵀ) · n / (n − 1) / n.
  const v = (i: number, j: number) => (second[i * k + j] / n - s[i] * s[j]) / (n - 1);
  let sVu = 0;
  let sVs = 0;
  let trV = 0;
  for (let i = 0; i < k; i++) {
    trV += v(i, i);
    for (let j = 0; j < k; j++) {
      const vij = v(i, j);
      sVu += s[i] * vij * u[j];
      sVs += s[i] * vij * s[j];
    }
  }
  const norm = Math.sqrt(s2);
  const su = s.reduce((a, x, i) => a + x * u[i], 0);
  // tr(H V) for h(s) = (s·u)/|s|: H = −(u sᵀ + s uᵀ)/|s|³ − (s·u) I/|s|³ + 3 (s·u) s sᵀ/|s|⁵.
  const trHV = (-2 * sVu - su * trV) / norm ** 3 + (3 * su * sVs) / norm ** 5;
  // The cosine's bias is ½ tr(H V); the score is half the cosine.
  return trHV / 4;
}
