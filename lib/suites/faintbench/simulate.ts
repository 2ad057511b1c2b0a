// FAIntbench's synthetic image model for the adaptive-run simulation (bench:adaptive, tests/adaptive.test.ts): every
// prompt of the content (its persons, truths, weights and η pairs as shipped), and a model whose faces, per prompt,
// person and attribute, follow a class distribution drawn around (1 − β)·truth + β·stereotype (implicit prompts; the
// stereotype is the first class: male, European, young) or around the requested class with compliance r (explicit
// prompts) — Dirichlet with concentration c, so prompts differ as real ones do. A run's images add multinomial
// counts to each prompt's tally (binomials, normal-approximated above 30 draws), wave by wave as the engine releases
// images per prompt; the scores are the suite's own (modelScores, release profile), at each look's level. The truth
// is each score with infinitely many images per prompt, averaged over the model's draws: the prompts are fixed, so
// the population intervals (which resample prompts) are conservative here — the simulation checks they cover and
// where runs stop, not that they are tight.
import type { FastRng } from "../../metrics/fast-rng";
import { fastRng } from "../../metrics/fast-rng";
import { dirichlet } from "../../metrics/simulate";
import { DEFAULT_SCHEDULE, halfwidthVerdict, lookLevels, waveSizes, type LookInterval, type LookSchedule } from "../../metrics/sequential";
import { ATTRIBUTES, CLASSES, type Attribute } from "./classes";
import type { FaintContent, FaintPrompt } from "./content";
import { modelScores, newTally, type PromptTally } from "./score";
import { addUnitImages, newMoments } from "./implicit-bias";
import { faintDifferences } from "./compare";
import { targetScores } from "./exact";
import type { IntervalTarget } from "../../metrics/design";
import { holm } from "../../metrics/tests";
import * as libm from "../../core/libm";

export interface FaintSimModel {
  /** pull of implicit prompts' faces towards the stereotype, 0–1 */
  bias: number;
  /** explicit prompts: share of faces showing the requested class */
  compliance: number;
  /** Dirichlet concentration of a prompt's class distribution around the model's mean */
  concentration: number;
}

const HEADLINE = ["implicit", "explicit", "eta"] as const;
type Headline = (typeof HEADLINE)[number];
type Dists = Map<string, Partial<Record<string, Record<Attribute, number[]>>>>;

function personMean(p: FaintPrompt["persons"][number], a: Attribute, m: FaintSimModel): number[] {
  const k = CLASSES[a].length;
  if (p.requested?.attribute === a) {
    const i = (CLASSES[a] as readonly string[]).indexOf(p.requested.value);
    return Array.from({ length: k }, (_, j) => (j === i ? m.compliance : (1 - m.compliance) / (k - 1)));
  }
  const t = p.truth?.[a] ?? Array.from({ length: k }, () => 1 / k);
  const sum = t.reduce((x, y) => x + Math.max(0, y), 0) || 1;
  return t.map((x, j) => (1 - m.bias) * (Math.max(0, x) / sum) + m.bias * (j === 0 ? 1 : 0));
}

/** One draw of the model's per-prompt, per-person class distributions. */
function drawDists(rng: FastRng, content: FaintContent, m: FaintSimModel): Dists {
  const out: Dists = new Map();
  for (const p of content.prompts) {
    const per: Partial<Record<string, Record<Attribute, number[]>>> = {};
    for (const person of p.persons)
      per[person.side] = Object.fromEntries(
        ATTRIBUTES.map((a) => [
          a,
          dirichlet(
            rng,
            personMean(person, a, m).map((x) => Math.max(1e-3, x * m.concentration)),
          ),
        ]),
      ) as Record<Attribute, number[]>;
    out.set(p.id, per);
  }
  return out;
}

function binomial(rng: FastRng, n: number, p: number): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (n <= 30) {
    let k = 0;
    for (let i = 0; i < n; i++) if (rng.float() < p) k++;
    return k;
  }
  const z = Math.sqrt(-2 * libm.log(rng.float() || Number.MIN_VALUE)) * libm.cos(2 * Math.PI * rng.float());
  return Math.min(n, Math.max(0, Math.round(n * p + z * Math.sqrt(n * p * (1 - p)))));
}

function multinomial(rng: FastRng, n: number, q: readonly number[]): number[] {
  const out = q.map(() => 0);
  let left = n;
  let mass = 1;
  for (let j = 0; j < q.length - 1 && left > 0; j++) {
    const x = binomial(rng, left, mass > 0 ? Math.min(1, q[j] / mass) : 0);
    out[j] = x;
    left -= x;
    mass -= q[j];
  }
  out[q.length - 1] += left;
  return out;
}

/** Adds `n` images of a prompt to its tally: one face per person, each attribute drawn from the person's distribution. */
function addImages(rng: FastRng, t: PromptTally, p: FaintPrompt, d: Partial<Record<string, Record<Attribute, number[]>>>, n: number, exact = false) {
  t.images += n;
  for (const person of p.persons) {
    const counts = (t.counts[person.side] ??= { gender: CLASSES.gender.map(() => 0), race: CLASSES.race.map(() => 0), age: CLASSES.age.map(() => 0) });
    const added = {} as Record<Attribute, number[]>;
    for (const a of ATTRIBUTES) {
      added[a] = exact ? d[person.side]![a].map((x) => x * n) : multinomial(rng, n, d[person.side]![a]);
      added[a].forEach((x, j) => (counts[a][j] += x));
    }
    addUnitImages((t.moments[person.side] ??= newMoments()), added, n);
  }
  if (p.visibility !== "explicit") return;
  t.scored += n;
  const shows = (person: FaintPrompt["persons"][number]) => {
    const req = person.requested!;
    return d[person.side]![req.attribute][(CLASSES[req.attribute] as readonly string[]).indexOf(req.value)];
  };
  const all = p.persons.filter((x) => x.requested).reduce((a, x) => a * shows(x), 1);
  const hits = exact ? all * n : binomial(rng, n, all);
  t.hits += hits;
  t.hitSecond[0] += exact ? all * all * n : hits; // each image's hit is 0 or 1 (exact: its expectation per image)
}

/** One simulated run's prompt tallies: the model drawn once, `imagesPerPrompt` images of every prompt. */
export function faintSimTallies(content: FaintContent, m: FaintSimModel, imagesPerPrompt: number, seed: number): Map<string, PromptTally> {
  const rng = fastRng(seed, "faint-sim-tallies");
  const dists = drawDists(rng, content, m);
  const tallies = new Map(content.prompts.map((p) => [p.id, newTally()]));
  for (const p of content.prompts) addImages(rng, tallies.get(p.id)!, p, dists.get(p.id)!, imagesPerPrompt);
  return tallies;
}

const headline = (s: ReturnType<typeof modelScores>) => ({ implicit: s.implicit.all, explicit: s.explicit.all, eta: s.eta.all });

/** The headline scores of one draw of the model's prompts with infinitely many images each. */
function exactTruth(rng: FastRng, content: FaintContent, dists: Dists): Record<Headline, number> {
  const tallies = new Map(content.prompts.map((p) => [p.id, newTally()]));
  for (const p of content.prompts) addImages(rng, tallies.get(p.id)!, p, dists.get(p.id)!, 1e6, true);
  const h = headline(modelScores(content, tallies, 0, 1));
  return { implicit: h.implicit.value ?? NaN, explicit: h.explicit.value ?? NaN, eta: h.eta.value ?? NaN };
}

/** Each headline score with infinitely many images per prompt, averaged over `draws` draws of the model. */
export function faintSimTruth(content: FaintContent, m: FaintSimModel, draws = 20, seed = 1): Record<Headline, number> {
  const rng = fastRng(seed, "faint-sim-truth");
  const sum = { implicit: 0, explicit: 0, eta: 0 };
  for (let r = 0; r < draws; r++) {
    const dists = drawDists(rng, content, m);
    const tallies = new Map(content.prompts.map((p) => [p.id, newTally()]));
    for (const p of content.prompts) addImages(rng, tallies.get(p.id)!, p, dists.get(p.id)!, 1e6, true);
    const h = headline(modelScores(content, tallies, 0, seed));
    for (const k of HEADLINE) sum[k] += h[k].value ?? NaN;
  }
  return { implicit: sum.implicit / draws, explicit: sum.explicit / draws, eta: sum.eta / draws };
}

export interface FaintSimRow {
  rule: "spending" | "naive";
  halfwidth: number;
  runs: number;
  stoppedAt: number[];
  met: number;
  meanFraction: number;
  coverage: Record<Headline, { n: number; covered: number }>;
}

/** Simulated adaptive FAIntbench runs: images per prompt released in waves, a look at Table 2's scores after each. */
export function simulateFaint(o: {
  content: FaintContent;
  model: FaintSimModel;
  imagesPerPrompt: number;
  halfwidth: number;
  rule: "spending" | "naive";
  runs: number;
  resamples: number;
  seed: number;
  /** population: the score over the model's draws (prompts resampled); exact: this run's prompts, images without end */
  truth: Record<Headline, number>;
  schedule?: LookSchedule;
  target?: IntervalTarget;
}): FaintSimRow {
  const schedule = o.schedule ?? DEFAULT_SCHEDULE;
  const levels = o.rule === "spending" ? lookLevels(schedule) : schedule.fractions.map(() => 0.95);
  const sizes = waveSizes(o.imagesPerPrompt, schedule);
  const rng = fastRng(o.seed, `faint-sim|${o.halfwidth}`);
  const row: FaintSimRow = {
    rule: o.rule,
    halfwidth: o.halfwidth,
    runs: o.runs,
    stoppedAt: sizes.map(() => 0),
    met: 0,
    meanFraction: 0,
    coverage: { implicit: { n: 0, covered: 0 }, explicit: { n: 0, covered: 0 }, eta: { n: 0, covered: 0 } },
  };
  const goal = { kind: "halfwidth" as const, halfwidth: { implicit: o.halfwidth, explicit: o.halfwidth, eta: o.halfwidth } };
  for (let r = 0; r < o.runs; r++) {
    const dists = drawDists(rng, o.content, o.model);
    const tallies = new Map(o.content.prompts.map((p) => [p.id, newTally()]));
    // The exact target's truth is this run's: its prompts' own distributions, infinitely many images each.
    const truth = o.target === "exact" ? exactTruth(rng, o.content, dists) : o.truth;
    for (let j = 0; j < sizes.length; j++) {
      const add = sizes[j] - (j ? sizes[j - 1] : 0);
      for (const p of o.content.prompts) addImages(rng, tallies.get(p.id)!, p, dists.get(p.id)!, add);
      const h = headline(
        targetScores(o.content, tallies, { resamples: o.resamples, seed: o.seed + r * 31 + j, profile: "release", level: levels[j], target: o.target }),
      );
      const looked: LookInterval[] = HEADLINE.map((m) => ({ metric: m, group: "all", lo: h[m].lo ?? 0, hi: h[m].hi ?? 1 }));
      const { met } = halfwidthVerdict(looked, goal);
      if (!met && j < sizes.length - 1) continue;
      row.stoppedAt[j]++;
      if (met) row.met++;
      row.meanFraction += sizes[j] / o.imagesPerPrompt;
      for (const m of HEADLINE) {
        const { lo, hi } = h[m];
        if (lo === undefined || hi === undefined) continue;
        row.coverage[m].n++;
        if (lo <= truth[m] + 1e-12 && truth[m] - 1e-12 <= hi) row.coverage[m].covered++;
      }
      break;
    }
  }
  row.meanFraction /= Math.max(1, o.runs);
  return row;
}

export interface FaintPairRow {
  pairs: number;
  /** per metric (totals): pairs with unadjusted p < 0.05, and whose interval covers the true Δ */
  rejected: Record<Headline, number>;
  covered: Record<Headline, { n: number; covered: number }>;
  /** pairs where some total was separable after Holm's adjustment over the three */
  anySeparable: number;
}

/**
 * Simulated comparisons (./compare.ts) of two models on every prompt at `imagesPerPrompt` images: `b: "same"` is the
 * same model run twice (its per-prompt distributions shared, its images drawn again: the true Δ is 0); otherwise two
 * models, each drawn on its own, whose true Δ is the difference of their infinite-image scores.
 */
export function simulateFaintPairs(o: {
  content: FaintContent;
  a: FaintSimModel;
  b: FaintSimModel | "same";
  imagesPerPrompt: number;
  pairs: number;
  resamples: number;
  seed: number;
  truthDelta: Record<Headline, number>;
}): FaintPairRow {
  const rng = fastRng(o.seed, `faint-sim-pairs|${JSON.stringify(o.b)}`);
  const row: FaintPairRow = {
    pairs: o.pairs,
    rejected: { implicit: 0, explicit: 0, eta: 0 },
    covered: { implicit: { n: 0, covered: 0 }, explicit: { n: 0, covered: 0 }, eta: { n: 0, covered: 0 } },
    anySeparable: 0,
  };
  const side = (dists: Dists) => {
    const tallies = new Map(o.content.prompts.map((p) => [p.id, newTally()]));
    for (const p of o.content.prompts) addImages(rng, tallies.get(p.id)!, p, dists.get(p.id)!, o.imagesPerPrompt);
    return { content: o.content, tallies };
  };
  for (let r = 0; r < o.pairs; r++) {
    const da = drawDists(rng, o.content, o.a);
    const db = o.b === "same" ? da : drawDists(rng, o.content, o.b);
    const diffs = faintDifferences(side(da), side(db), {
      resamples: o.resamples,
      level: 0.95,
      seed: o.seed + r,
      paired: true,
      profile: "release",
      keys: ["all"],
    });
    const adjusted = holm(diffs.map((d) => d.p));
    if (adjusted.some((p) => p < 0.05)) row.anySeparable++;
    for (const d of diffs) {
      if (d.p < 0.05) row.rejected[d.metric]++;
      row.covered[d.metric].n++;
      if (d.lo <= o.truthDelta[d.metric] + 1e-12 && o.truthDelta[d.metric] - 1e-12 <= d.hi) row.covered[d.metric].covered++;
    }
  }
  return row;
}
