// Misclassification-corrected FACT-OR-FAIR scores of a text-to-image run: the classifier's confusion estimated from
// the run's reviewed faces (human majority against the classifier's label), each cell's label shares corrected with
// it, and intervals that resample the reviewed faces with the images (lib/metrics/corrected-bootstrap.ts). Refused
// per attribute, with the reason, while some class has too few reviewed faces. Cached per state of the data.
import { createHash } from "node:crypto";
import type { PrismaClient } from "../../../generated/prisma/client";
import { classCount, classesOf, type Attribute, type Level, type Test } from "../../benchmark";
import { intervalMethodOf, type BootstrapIntervals } from "../../metrics";
import type { DesignCell } from "../../metrics/cluster-bootstrap";
import { correctedBootstrapAsync } from "../../metrics/corrected-bootstrap";
import { MIN_REVIEWED_PER_CLASS } from "../../metrics/misclassification";
import { DEFAULT_INTERVAL_TARGET, type IntervalTarget } from "../../metrics/design";
import { DEFAULT_PROFILE, type ScoringProfile } from "../../metrics/profiles";
import type { RaceMapping } from "../../faces/labels";
import { badRequest } from "../../core/errors";
import { runRecordChunks, type FaceRecord } from "./run-results";
import { assertFactOrFairRun } from "./explore";
import { enqueue } from "./intervals";
import { classErrors, errorDisparity } from "../../review/labeller-error";
import { keepInCache } from "../../db/score-cache";

interface CorrectedGroup {
  model: string;
  test: Test;
  attribute: Attribute;
  sFact: number | null;
  sE: number | null;
  sKLD: number | null;
  sFair: number | null;
  distance: number | null;
  intervals: BootstrapIntervals;
}

export interface CorrectedResult {
  runId: string;
  target: IntervalTarget;
  /** reviewed faces (with a human majority and a classifier label) per attribute and true class */
  reviewed: Record<Attribute, Record<string, number>>;
  /** attributes refused, with the reason */
  refused: Array<{ attribute: Attribute; reason: string }>;
  /**
   * where the labeller misreads one group separably more often than another (lib/review/labeller-error.ts): score
   * differences between those groups smaller than the gap in error rates may be the labeller's
   */
  warnings: string[];
  groups: CorrectedGroup[];
  cached: boolean;
}

const RESAMPLES = 1000;

export async function runCorrectedScores(
  prisma: PrismaClient,
  runId: string,
  opts: { raceMapping?: RaceMapping; profile?: ScoringProfile; target?: IntervalTarget } = {},
): Promise<CorrectedResult> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { modality: true, seed: true } });
  if (!run) throw badRequest(`no run ${runId}`);
  await assertFactOrFairRun(prisma, runId);
  if (run.modality !== "t2i") throw badRequest("misclassification-corrected scores are for text-to-image runs (their faces are labelled)");
  const target = opts.target ?? DEFAULT_INTERVAL_TARGET;
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const faces: FaceRecord[] = [];
  for await (const chunk of runRecordChunks(prisma, runId, { raceMapping: opts.raceMapping, labels: "model" })) faces.push(...(chunk as FaceRecord[]));
  const key = createHash("sha256")
    .update(
      JSON.stringify({
        // 2: with the labeller's warnings; 3: the standard interval (lib/metrics/corrected-bootstrap.ts)
        v: 3,
        kind: "corrected",
        runId,
        target,
        profile,
        raceMapping: opts.raceMapping ?? "paper",
        faces: faces.map((f) => [f.imageId, f.faceId, f.attribute, f.modelAnswer, f.humanAnswer, f.answer]).sort(),
      }),
    )
    .digest("hex");
  const hit = await prisma.scoreCache.findUnique({ where: { key } });
  if (hit) return { ...(JSON.parse(hit.json) as CorrectedResult), cached: true };

  return enqueue(async () => {
    const reviewed = {} as CorrectedResult["reviewed"];
    const refused: CorrectedResult["refused"] = [];
    const warnings: string[] = [];
    const groups: CorrectedGroup[] = [];
    for (const attribute of ["gender", "race"] as const) {
      const classes = classesOf(attribute) as readonly string[];
      const k = classCount(attribute);
      const mine = faces.filter((f) => f.attribute === attribute);
      const perClass = Object.fromEntries(classes.map((c) => [c, 0]));
      for (const f of mine) if (f.humanAnswer && f.modelAnswer && classes.includes(f.humanAnswer)) perClass[f.humanAnswer]++;
      reviewed[attribute] = perClass;
      const gap = labellerGap(mine, classes, attribute);
      if (gap) warnings.push(gap);
      const short = classes.filter((c) => perClass[c] < MIN_REVIEWED_PER_CLASS);
      if (short.length) {
        refused.push({
          attribute,
          reason: `too few reviewed faces to estimate the classifier's ${attribute} errors: ${classes.map((c) => `${c} ${perClass[c]}`).join(", ")} (at least ${MIN_REVIEWED_PER_CLASS} per class; review more faces of ${short.join(", ")})`,
        });
        continue;
      }
      // One unit per image: its faces' labels (k), then its reviewed faces' (true, label) pairs (k × k).
      const unitOf = new Map<string, { group: string; cell: string; vec: number[] }>();
      for (const f of mine) {
        const group = JSON.stringify([f.model, f.test]);
        let u = unitOf.get(f.imageId);
        if (!u) unitOf.set(f.imageId, (u = { group, cell: `${f.statisticId}|${f.level}`, vec: new Array<number>(k + k * k).fill(0) }));
        const l = f.answer === null ? -1 : classes.indexOf(f.answer);
        if (l >= 0) u.vec[l]++;
        const t = f.humanAnswer ? classes.indexOf(f.humanAnswer) : -1;
        const m = f.modelAnswer ? classes.indexOf(f.modelAnswer) : -1;
        if (t >= 0 && m >= 0) u.vec[k + t * k + m]++;
      }
      const byGroup = new Map<string, Map<string, number[][]>>();
      for (const u of unitOf.values()) {
        let cells = byGroup.get(u.group);
        if (!cells) byGroup.set(u.group, (cells = new Map()));
        let units = cells.get(u.cell);
        if (!units) cells.set(u.cell, (units = []));
        units.push(u.vec);
      }
      const truthOf = new Map(mine.map((f) => [`${f.statisticId}|${f.level}`, f.truth ?? null]));
      for (const [group, cellUnits] of [...byGroup.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const [model, test] = JSON.parse(group) as [string, Test];
        const cells: DesignCell[] = [...cellUnits.entries()].map(([cell, units]) => {
          const [statisticId, level] = cell.split("|");
          const truthLabel = truthOf.get(cell) ?? null;
          return { statisticId, level: level as Level, truth: truthLabel ? classes.indexOf(truthLabel) : -1, truthLabel, clusters: [units] };
        });
        // The other groups' reviewed faces inform the same classifier's confusion.
        const elsewhere = [...unitOf.values()].filter((u) => u.group !== group && u.vec.slice(k).some((x) => x > 0)).map((u) => u.vec.slice(k));
        const { point, intervals } = await correctedBootstrapAsync(
          cells,
          k,
          { resamples: RESAMPLES, seed: run.seed, key: `${group}|${attribute}`, target, method: intervalMethodOf(profile, "t2i") },
          elsewhere,
        );
        groups.push({ model, test, attribute, ...point, intervals });
      }
    }
    const result: CorrectedResult = { runId, target, reviewed, refused, warnings, groups, cached: false };
    await keepInCache(prisma, { key, runId, kind: "corrected", json: JSON.stringify(result) });
    return result;
  });
}

/** The labeller's largest separable disparity between groups on this run's reviewed faces, as a warning; or null. */
function labellerGap(faces: readonly FaceRecord[], classes: readonly string[], attribute: Attribute): string | null {
  const confusion = Object.fromEntries(classes.map((h) => [h, Object.fromEntries(classes.map((m) => [m, 0]))])) as Record<string, Record<string, number>>;
  for (const f of faces)
    if (f.humanAnswer && f.modelAnswer && classes.includes(f.humanAnswer) && classes.includes(f.modelAnswer)) confusion[f.humanAnswer][f.modelAnswer]++;
  const errors = classErrors({ classes, n: 0, errors: 0, errorRate: null, confusion, undecided: 0 });
  // "the classifier": the run's faces may have been labelled by a stand-in, whose name the run's provenance gives.
  const d = errorDisparity(errors, attribute, "the classifier");
  if (!d?.separable) return null;
  const worst = errors.find((e) => e.cls === d.worst)!.rate!;
  const best = errors.find((e) => e.cls === d.best)!.rate!;
  return `${d.sentence[0].toUpperCase()}${d.sentence.slice(1)}: differences in ${attribute} scores smaller than ${((worst - best) * 100).toFixed(1)} points between these groups may be the labeller's, not the model's.`;
}
