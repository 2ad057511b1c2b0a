// FAIntbench's intervals about *this exact benchmark* (docs/scoring.md, Intervals): the prompts fixed, only the
// model's sampling varies — what varies is which images each prompt got. Each replicate draws every prompt's images
// again, as their mean: a person's mean image vector (gender, race and age classes together, so an image's
// attributes move together) from the normal with the covariance its own images show (Σ x xᵀ, kept by the tally:
// implicit-bias.ts), an explicit prompt's hit rates the same way, and scores the drawn prompts with the suite's own
// code. That is the large-sample form of resampling each prompt's images with replacement, with an image's faces
// kept together; tallies stay O(prompts). A prompt with fewer than two images has no spread to draw from: it stays
// as it is and the interval says so (`small-cells`). Bias-corrected basic interval, as everywhere. η's ±α terms switch
// sign as a deviation crosses 0, which no bootstrap of a smooth statistic covers: its exact intervals are flagged.
import { biasCorrectedInterval } from "../../metrics/interval-math";
import { fastRng, type FastRng } from "../../metrics/fast-rng";
import type { ScoringProfile } from "../../metrics/profiles";
import { ACQUIRED, ATTRIBUTES, CLASSES, type Attribute } from "./classes";
import type { FaintContent, Side } from "./content";
import { D, OFFSET } from "./implicit-bias";
import { EXPLICIT_CLASSES, entries, modelScores, newTally, type Entry, type ModelScores, type PromptTally, type Scored } from "./score";
import { CATEGORIES, categoryKey, classKey, explicitEntries } from "./release-weights";
import type { IntervalTarget } from "../../metrics/design";
import { etaUnits, type EtaLevel } from "./eta-score";
import { cosineScore } from "./metrics";
import * as libm from "../../core/libm";

/** Lower-triangular L with L Lᵀ = V (n × n, row-major); a pivot ≤ 0 (a class never seen, a degenerate mix) is skipped. */
export function cholesky(v: ArrayLike<number>, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let sum = v[i * n + j];
      for (let k = 0; k < j; k++) sum -= l[i * n + k] * l[j * n + k];
      if (i === j) l[i * n + i] = sum > 1e-15 ? Math.sqrt(sum) : 0;
      else l[i * n + j] = l[j * n + j] > 0 ? sum / l[j * n + j] : 0;
    }
  return l;
}

/** Standard normal draws, two per Box–Muller step. */
function gaussians(rng: FastRng) {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const z = spare;
      spare = null;
      return z;
    }
    const r = Math.sqrt(-2 * libm.log(rng.float() || Number.MIN_VALUE));
    const t = 2 * Math.PI * rng.float();
    spare = r * libm.sin(t);
    return r * libm.cos(t);
  };
}

/** A mean vector and the Cholesky factor of its covariance (the spread of a mean of n draws), or null with n < 2. */
function meanDraw(sum: readonly number[], second: ArrayLike<number>, n: number) {
  const k = sum.length;
  const mean = sum.map((x) => x / n);
  if (n < 2) return { mean, chol: null };
  const v = new Float64Array(k * k);
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) v[i * k + j] = (second[i * k + j] / n - mean[i] * mean[j]) / (n - 1);
  return { mean, chol: cholesky(v, k) };
}

/** One draw into `out` (kept within [lo, hi]); without a spread, the mean itself. */
function drawInto(d: { mean: number[]; chol: Float64Array | null }, z: () => number, lo: number, hi: number, out: number[], zs: number[]) {
  const k = d.mean.length;
  if (!d.chol) {
    for (let i = 0; i < k; i++) out[i] = d.mean[i];
    return;
  }
  for (let i = 0; i < k; i++) zs[i] = z();
  for (let i = 0; i < k; i++) {
    let x = d.mean[i];
    for (let j = 0; j <= i; j++) x += d.chol[i * k + j] * zs[j];
    out[i] = x < lo ? lo : x > hi ? hi : x;
  }
}

/**
 * What a replicate recomputes, laid out once: every implicit and explicit entry (which prompt, which attribute or
 * side, its weights per level — the suite's own `entries`, so the weighting is the tables'), as index arrays.
 */
function template(content: FaintContent, tallies: ReadonlyMap<string, PromptTally>, profile: ScoringProfile) {
  const e = entries(content, tallies, profile, false);
  const keys = new Map<string, number>();
  const keyOf = (k: string) => keys.get(k) ?? (keys.set(k, keys.size), keys.size - 1);
  // Flat arrays (one per field, every entry's weights in a row): a replicate's sums run over them without allocating.
  const wStart = [0];
  const wKey: number[] = [];
  const w: number[] = [];
  const value: number[] = [];
  const tag: number[] = []; // implicit: the attribute's index; explicit: 0 the prompt, 1 left, 2 right
  const push = (metric: string, x: Entry, t: number) => {
    for (const [k, v] of Object.entries(x.w))
      if (v !== undefined && v > 0) {
        wKey.push(keyOf(`${metric}|${k}`));
        w.push(v);
      }
    wStart.push(wKey.length);
    value.push(x.value);
    tag.push(t);
  };
  const prompts = new Map(content.prompts.map((p) => [p.id, p]));
  const unitStart = [0];
  const implicit = e.implicitUnits.map((u, i) => {
    // an implicit entry is one attribute's score: the attribute is the one level key among its weights
    for (const x of u)
      push(
        "implicit",
        x,
        ATTRIBUTES.findIndex((a) => (x.w[a] ?? 0) > 0),
      );
    unitStart.push(value.length);
    return prompts.get(e.implicitIds[i])!;
  });
  const explicit = e.explicitUnits.map((u, i) => {
    const p = prompts.get(e.explicitIds[i])!;
    // release: an entry per side (explicitEntries, in entries' order); paper-text: the prompt as a whole
    const sides = profile === "release" ? explicitEntries(p.text).map((x) => x.side) : ["one" as const];
    u.forEach((x, j) => push("explicit", x, ["one", "left", "right"].indexOf(sides[j] ?? "one")));
    unitStart.push(value.length);
    return p;
  });
  return {
    keys,
    implicit,
    explicit,
    unitStart: Int32Array.from(unitStart),
    wStart: Int32Array.from(wStart),
    wKey: Int32Array.from(wKey),
    w: Float64Array.from(w),
    value: Float64Array.from(value),
    tag: Int32Array.from(tag),
  };
}

/** One replicate's implicit and explicit scores at every level, from tallies aligned with the template's units. */
function averages(
  t: Template,
  implicit: readonly PromptTally[],
  explicit: readonly PromptTally[],
  profile: ScoringProfile,
  num: Float64Array,
  den: Float64Array,
) {
  num.fill(0);
  den.fill(0);
  const add = (e: number, v: number) => {
    for (let k = t.wStart[e]; k < t.wStart[e + 1]; k++) {
      num[t.wKey[k]] += v * t.w[k];
      den[t.wKey[k]] += t.w[k];
    }
  };
  const raw = profile === "release";
  for (let i = 0; i < t.implicit.length; i++) {
    const p = t.implicit[i];
    for (let e = t.unitStart[i]; e < t.unitStart[i + 1]; e++) {
      const a = ATTRIBUTES[t.tag[e]];
      // the mean over the prompt's persons; a person without faces for it: the entry keeps its value
      let sum = 0;
      let ok = true;
      for (const person of p.persons) {
        const c = implicit[i].counts[person.side]?.[a];
        const q = (raw ? person.rawTruth?.[a] : undefined) ?? person.truth?.[a];
        const v = c && q ? cosineScore(c, q) : null;
        if (v === null) ok = false;
        else sum += v;
      }
      add(e, ok ? sum / p.persons.length : t.value[e]);
    }
  }
  const off = t.implicit.length;
  for (let i = 0; i < t.explicit.length; i++) {
    const d = explicit[i];
    for (let e = t.unitStart[off + i]; e < t.unitStart[off + i + 1]; e++)
      add(e, (t.tag[e] === 0 ? d.hits : t.tag[e] === 1 ? d.sideHits.left : d.sideHits.right) / d.scored);
  }
}

/** Every score the views show, keyed "implicit|<level>", "explicit|<level>", "eta|<level>". */
function scoresOf(t: Template, content: FaintContent, tallies: ReadonlyMap<string, PromptTally>, profile: ScoringProfile, aligned = align(t, tallies)) {
  const num = new Float64Array(t.keys.size);
  const den = new Float64Array(t.keys.size);
  averages(t, aligned.implicit, aligned.explicit, profile, num, den);
  const out = new Map<string, number>();
  for (const [key, i] of t.keys) if (den[i] > 0) out.set(key, num[i] / den[i]);
  const eta = etaUnits(content, tallies, profile);
  for (const level of ["all", ...ATTRIBUTES] as EtaLevel[]) {
    if (!eta.withData(level)) continue;
    const v = eta.stat(eta.units, level);
    if (v !== null) out.set(`eta|${level}`, v);
  }
  return out;
}

type Template = ReturnType<typeof template>;
/** The tallies in the template's unit order (looked up once, not per replicate). */
const align = (t: Template, tallies: ReadonlyMap<string, PromptTally>) => ({
  implicit: t.implicit.map((p) => tallies.get(p.id)!),
  explicit: t.explicit.map((p) => tallies.get(p.id)!),
});

interface ExactInterval {
  estimate: number;
  lo: number;
  hi: number;
  /**
   * why coverage is not promised: `small-cells` — some prompt has fewer than two images (nothing to draw for it);
   * `non-smooth` — η, whose ±α terms switch sign as a deviation crosses 0 (72 % in the simulation)
   */
  flags: Array<"small-cells" | "non-smooth">;
}

/** The exact target's interval of every score the views show (see the header). */
function exactIntervals(
  content: FaintContent,
  tallies: ReadonlyMap<string, PromptTally>,
  profile: ScoringProfile,
  resamples: number,
  seed: number,
  level = 0.95,
): Map<string, ExactInterval> {
  const t = template(content, tallies, profile);
  const point = scoresOf(t, content, tallies, profile);
  let small = false;
  // Each prompt's drawn tally, reused by every replicate (only what its scores read is drawn: an implicit prompt's
  // persons' class vectors — implicit scores and η read them — and an explicit prompt's hit rates).
  const plans = content.prompts.flatMap((p) => {
    const tally = tallies.get(p.id);
    if (!tally) return [];
    const drawn: PromptTally = { ...newTally(), images: tally.images, scored: tally.scored, hits: tally.hits, sideHits: { ...tally.sideHits } };
    const persons =
      p.visibility === "implicit"
        ? (Object.keys(tally.moments) as Side[]).map((side) => {
            const m = tally.moments[side]!;
            const sum = new Array<number>(D).fill(0);
            for (const a of ATTRIBUTES) tally.counts[side]![a].forEach((c, i) => (sum[OFFSET[a] + i] = c));
            if (m.n < 2) small = true;
            drawn.counts[side] = Object.fromEntries(ATTRIBUTES.map((a) => [a, new Array<number>(CLASSES[a].length).fill(0)])) as Record<Attribute, number[]>;
            return { side, draw: meanDraw(sum, m.second, m.n) };
          })
        : [];
    if (p.visibility !== "implicit" && tally.scored === 1) small = true;
    const hits =
      p.visibility !== "implicit" && tally.scored > 0 ? meanDraw([tally.hits, tally.sideHits.left, tally.sideHits.right], tally.hitSecond, tally.scored) : null;
    return [{ id: p.id, tally, drawn, persons, hits }];
  });
  const drawn = new Map(plans.map((x) => [x.id, x.drawn]));
  const aligned = align(t, drawn);
  const z = gaussians(fastRng(seed, `faintbench|exact|${profile}`));
  const x = new Array<number>(D);
  const zs = new Array<number>(D);
  const reps = new Map<string, number[]>([...point.keys()].map((k) => [k, []]));
  for (let r = 0; r < resamples; r++) {
    for (const { tally, drawn: d, persons, hits } of plans) {
      for (const { side, draw } of persons) {
        drawInto(draw, z, 0, Infinity, x, zs);
        const c = d.counts[side]!;
        for (const a of ATTRIBUTES) for (let i = 0; i < c[a].length; i++) c[a][i] = x[OFFSET[a] + i];
      }
      if (hits) {
        drawInto(hits, z, 0, 1, x, zs);
        d.hits = x[0] * tally.scored;
        d.sideHits.left = x[1] * tally.scored;
        d.sideHits.right = x[2] * tally.scored;
      }
    }
    for (const [key, v] of scoresOf(t, content, drawn, profile, aligned)) reps.get(key)?.push(v);
  }
  const out = new Map<string, ExactInterval>();
  for (const [key, p] of point) {
    const list = reps.get(key)!;
    if (list.length < 2) continue;
    const i = biasCorrectedInterval(p, list, level, [0, 1], []);
    const flags = [...(small ? (["small-cells"] as const) : []), ...(key.startsWith("eta|") ? (["non-smooth"] as const) : [])];
    out.set(key, { estimate: i.estimate, lo: i.lo, hi: i.hi, flags });
  }
  return out;
}

/**
 * One model's scores with the intervals of the chosen target: the population's (prompts resampled: modelScores) or
 * this exact benchmark's (each prompt's images drawn again: exactIntervals), every one labelled by the caller.
 */
export function targetScores(
  content: FaintContent,
  tallies: ReadonlyMap<string, PromptTally>,
  o: { resamples: number; seed: number; profile: ScoringProfile; level?: number; target?: IntervalTarget },
): ModelScores {
  if ((o.target ?? "population") === "population" || o.resamples <= 0) return modelScores(content, tallies, o.resamples, o.seed, o.profile, o.level);
  const s = modelScores(content, tallies, 0, o.seed, o.profile, o.level);
  const iv = exactIntervals(content, tallies, o.profile, o.resamples, o.seed, o.level);
  const at = (x: Scored, key: string): Scored => {
    const i = iv.get(key);
    if (!i || x.value === null) return { value: x.value, n: x.n };
    return { value: x.value, n: x.n, estimate: i.estimate, lo: i.lo, hi: i.hi, ...(i.flags.length ? { flags: i.flags } : {}) };
  };
  const levels = (m: "implicit" | "explicit", l: ModelScores["implicit"]) => ({
    all: at(l.all, `${m}|all`),
    byAttribute: Object.fromEntries(ATTRIBUTES.map((a) => [a, at(l.byAttribute[a], `${m}|${a}`)])) as Record<Attribute, Scored>,
    byAcquired: Object.fromEntries(ACQUIRED.map((q) => [q, at(l.byAcquired[q], `${m}|${q}`)])) as ModelScores["implicit"]["byAcquired"],
  });
  return {
    ...s,
    implicit: levels("implicit", s.implicit),
    explicit: {
      ...levels("explicit", s.explicit),
      byClass: Object.fromEntries(EXPLICIT_CLASSES.map((c) => [c.key, at(s.explicit.byClass[c.key], `explicit|${classKey(c.attribute, c.value)}`)])),
      byCategory: Object.fromEntries(CATEGORIES.map((c) => [c, at(s.explicit.byCategory[c], `explicit|${categoryKey(c)}`)])),
    },
    eta: {
      all: at(s.eta.all, "eta|all"),
      byAttribute: Object.fromEntries(ATTRIBUTES.map((a) => [a, at(s.eta.byAttribute[a], `eta|${a}`)])) as Record<Attribute, Scored>,
    },
  };
}
