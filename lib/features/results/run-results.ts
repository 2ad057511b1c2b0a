// Reading a run back: progress counts (aggregated in SQL) and scores (from outcomes).
import type { PrismaClient } from "../../../generated/prisma/client";
import { ATTRIBUTES, groundTruth, statisticIn, type Attribute, type Benchmark, type Context, type Label, type Level, type Test } from "../../benchmark";
import type { AnswerRecord } from "../../metrics";
import { toInterchangeLine } from "../../interchange";
import { faceLabels, type RaceMapping } from "../../faces/labels";
import { FACE_PROVENANCE_SELECT, faceProvenance, type FaceProvenance } from "../../faces/provenance";
import { excludedAnnotators } from "../../review/exclusions";
import { ANNOTATION_ROW_SELECT, consensus, currentLabels, reviewedLabel, type AnnotationRow } from "../../review/votes";
import { runBenchmark } from "../runs/pinned";
import type { LabelSource } from "../../results/label-sources";

export interface ProgressRow {
  modelConfigId: string;
  test: string;
  context: string | null;
  status: string;
  count: number;
}

export async function runProgress(prisma: PrismaClient, runId: string): Promise<ProgressRow[]> {
  const rows = await prisma.query.groupBy({ by: ["modelConfigId", "test", "context", "status"], where: { runId }, _count: { _all: true } });
  return rows.map((r) => ({ modelConfigId: r.modelConfigId, test: r.test, context: r.context, status: r.status, count: r._count._all }));
}

const QUERY_RECORD_SELECT = {
  id: true,
  test: true,
  context: true,
  statisticId: true,
  level: true,
  attribute: true,
  modelConfig: { select: { slug: true } },
  outcome: { select: { gender: true, race: true, reusedFromRunId: true, reusedAt: true } },
} as const;

/** Where an answer came from when it is not the run's own (lib/features/runs/answer-cache.ts): exports say so. */
type Reuse = { reusedFromRunId: string | null; reusedAt: Date | null } | null | undefined;
const reusedOf = (o: Reuse) => (o?.reusedFromRunId != null ? { reused: { fromRunId: o.reusedFromRunId, at: o.reusedAt?.toISOString() ?? null } } : {});

/** The columns of an annotation row that lib/review reads (see AnnotationRow). */
export { ANNOTATION_ROW_SELECT };

/** The columns of a face that scoring and the review report read (its labels included). */
export const FACE_RECORD_SELECT = {
  id: true,
  deleted: true,
  raceProbsJson: true,
  genderProbsJson: true,
  ...FACE_PROVENANCE_SELECT,
  annotations: { select: ANNOTATION_ROW_SELECT },
} as const;

const IMAGE_RECORD_SELECT = {
  id: true,
  test: true,
  statisticId: true,
  level: true,
  labelStatus: true,
  modelConfig: { select: { slug: true } },
  faces: { select: FACE_RECORD_SELECT, orderBy: { id: "asc" } },
  query: { select: { outcome: { select: { reusedFromRunId: true, reusedAt: true } } } },
} as const;

export { LABEL_SOURCES, type LabelSource } from "../../results/label-sources";

/** A T2I record also says which face it is and carries both labels (JSONL exports add them to each line). */
export interface FaceRecord extends AnswerRecord {
  imageId: string;
  faceId: number | null;
  modelAnswer: Label | null;
  humanAnswer: Label | null;
  /** what produced the face's model label (null: no face, or a hand-drawn face not classified) */
  labelledBy: FaceProvenance | null;
}

/** A record whose answer (or image) another run obtained: which run ("" if not recorded) and when. */
export interface ReusedRecord {
  reused?: { fromRunId: string; at: string | null };
}

/**
 * The attributes an LLM answer is scored on (DESIGN §4): an objective query its own attribute, and only where the
 * statistic has a true group for it (S_fact needs one); a subjective answer names a person, so it counts for both
 * gender and race whatever the statistic's truths — fairness (S_E, S_KLD) needs no truth.
 */
export function scoredAttributes(bm: Benchmark, statisticId: string, attribute: string | null): Attribute[] {
  if (attribute === null) return [...ATTRIBUTES];
  return statisticIn(bm, statisticId).attributes.includes(attribute as Attribute) ? [attribute as Attribute] : [];
}

/** The true group of a statistic × level × attribute in the run's pinned content. */
export function pinnedTruth(bm: Benchmark, statisticId: string, attribute: Attribute, level: Level): Label | null {
  return groundTruth(statisticIn(bm, statisticId), attribute, level);
}

/**
 * LLM scoring records: one per answered/refused query and scored attribute (see scoredAttributes), each carrying the
 * truth of the run's pinned content. Failed queries (provider errors) are not model answers: they are counted on
 * the run page, not scored.
 */
function queryRecords(
  bm: Benchmark,
  r: {
    test: string;
    context: string | null;
    statisticId: string;
    level: string;
    attribute: string | null;
    modelConfig: { slug: string };
    outcome: { gender: string | null; race: string | null; reusedFromRunId?: string | null; reusedAt?: Date | null } | null;
  },
): Array<AnswerRecord & ReusedRecord> {
  return scoredAttributes(bm, r.statisticId, r.attribute).map((attribute) => ({
    model: r.modelConfig.slug,
    modality: "llm",
    test: r.test as Test,
    context: (r.context as Context | null) ?? null,
    statisticId: r.statisticId,
    level: r.level as Level,
    attribute,
    answer: ((attribute === "gender" ? r.outcome?.gender : r.outcome?.race) ?? null) as Label | null,
    truth: pinnedTruth(bm, r.statisticId, attribute, r.level as Level),
    ...reusedOf(r.outcome as Reuse),
  }));
}

type ImageRow = {
  id: string;
  test: string;
  statisticId: string;
  level: string;
  labelStatus: string;
  modelConfig: { slug: string };
  query?: { outcome: Reuse } | null;
  faces: Array<{
    id: number;
    source: string;
    deleted: boolean;
    raceProbsJson: string | null;
    genderProbsJson: string | null;
    classifierModel: string | null;
    classifierVersion: string | null;
    detectorModel: string | null;
    detectorVersion: string | null;
    labelRuntime: string | null;
    chipMethod: string | null;
    landmarkerModel: string | null;
    landmarkerVersion: string | null;
    annotations: AnnotationRow[];
  }>;
};

/**
 * T2I scoring records: one per face and applicable attribute, with the race mapped from the stored FairFace
 * probabilities under `raceMapping` (so the mapping can change without re-labelling).
 * - `model` labels: the pipeline's output as it ran — every detector face of a labelled image.
 * - `reviewed` labels: detections fixed by reviewers (deleted ones out, hand-drawn ones in), faces a majority of
 *   annotators marked "not a face" out, and per attribute the human majority where there is one, the model's label
 *   otherwise.
 * An image with no face (left) yields a null answer per attribute: excluded from every score, counted as refused.
 * Images not yet labelled (and, for `reviewed`, without a hand-drawn face) and failed generations yield nothing.
 */
function imageRecords(
  bm: Benchmark,
  img: ImageRow,
  raceMapping: RaceMapping | undefined,
  labels: LabelSource,
  excluded: ReadonlySet<string>,
): Array<FaceRecord & ReusedRecord> {
  const processed = img.labelStatus === "labelled" || img.labelStatus === "no_face";
  const current = currentLabels(
    img.faces.flatMap((f) => f.annotations),
    undefined,
    excluded,
  );
  const faces = img.faces
    .filter((f) => (labels === "model" ? processed && f.source === "detector" : !f.deleted))
    .map((f) => {
      const model = faceLabels(f, raceMapping);
      const byAnnotator = current.get(f.id);
      const c = byAnnotator ? consensus(byAnnotator.values()) : null;
      const human = { gender: c?.gender.status === "decided" ? c.gender.value : null, race: c?.race.status === "decided" ? c.race.value : null };
      const reviewed = reviewedLabel(model, c);
      return { id: f.id, model, human, reviewed, labelledBy: faceProvenance(f) };
    })
    .filter((f) => labels === "model" || !f.reviewed.excluded);
  if (labels === "reviewed" && !processed && !faces.length) return [];
  const rows = faces.length ? faces : [null];
  // Every face counts for both attributes (S_E / S_KLD need no truth); S_fact only where the truth exists.
  return rows.flatMap((f) =>
    ATTRIBUTES.map((attribute) => {
      const modelAnswer = f ? f.model[attribute] : null;
      return {
        model: img.modelConfig.slug,
        modality: "t2i" as const,
        test: img.test as Test,
        context: null,
        statisticId: img.statisticId,
        level: img.level as Level,
        attribute,
        answer: (f ? (labels === "model" ? modelAnswer : f.reviewed[attribute]) : null) as Label | null,
        truth: pinnedTruth(bm, img.statisticId, attribute, img.level as Level),
        imageId: img.id,
        faceId: f?.id ?? null,
        modelAnswer,
        humanAnswer: f ? f.human[attribute] : null,
        labelledBy: f?.labelledBy ?? null,
        ...reusedOf(img.query?.outcome),
      };
    }),
  );
}

export interface RecordOptions {
  raceMapping?: RaceMapping;
  /** T2I: the pipeline's labels (default) or the human-corrected ones */
  labels?: LabelSource;
  modelSlug?: string;
  /** rows read per database round trip */
  chunk?: number;
  /** T2I: only the images of one cell (test, statistic, level), by the image's own columns (indexed) */
  cell?: { test: string; statisticId: string; level: string };
  /** T2I: images after this id, or before it (then in descending id order) — a page by key */
  afterImage?: string;
  beforeImage?: string;
}

/** A run's scoring records in chunks (id order), so exports of 50k+ answers stream in bounded memory. */
export async function* runRecordChunks(prisma: PrismaClient, runId: string, opts: RecordOptions = {}): AsyncGenerator<AnswerRecord[]> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { modality: true } });
  const bm = await runBenchmark(prisma, runId);
  if (!run || !bm) return;
  const take = opts.chunk ?? 5000;
  const model = opts.modelSlug ? { modelConfig: { slug: opts.modelSlug } } : {};
  if (run.modality === "t2i") {
    // annotators an admin left out of the consensus: their votes make no human label
    const excluded = await excludedAnnotators(prisma);
    const descending = opts.beforeImage !== undefined;
    let cursor: string | undefined = opts.beforeImage ?? opts.afterImage;
    for (;;) {
      const labels = opts.labels ?? "model";
      const status = { labelStatus: { in: ["labelled", "no_face"] } };
      const rows = await prisma.image.findMany({
        where: {
          runId,
          ...(labels === "model" ? status : { OR: [status, { faces: { some: { source: "manual", deleted: false } } }] }),
          ...model,
          ...(opts.cell ?? {}),
          ...(cursor ? { id: descending ? { lt: cursor } : { gt: cursor } } : {}),
        },
        select: IMAGE_RECORD_SELECT,
        orderBy: { id: descending ? "desc" : "asc" },
        take,
      });
      if (!rows.length) return;
      yield rows.flatMap((r) => imageRecords(bm, r, opts.raceMapping, labels, excluded));
      cursor = rows[rows.length - 1].id;
    }
  }
  let cursor = 0;
  for (;;) {
    const rows = await prisma.query.findMany({
      where: { runId, status: { in: ["answered", "refused"] }, id: { gt: cursor }, ...model },
      select: QUERY_RECORD_SELECT,
      orderBy: { id: "asc" },
      take,
    });
    if (!rows.length) return;
    yield rows.flatMap((r) => queryRecords(bm, r));
    cursor = rows[rows.length - 1].id;
  }
}

export async function runRecords(prisma: PrismaClient, runId: string, opts: RecordOptions = {}): Promise<AnswerRecord[]> {
  const out: AnswerRecord[] = [];
  for await (const chunk of runRecordChunks(prisma, runId, opts)) out.push(...chunk);
  return out;
}

/** Labelling progress of a T2I run, per model: images by label status and faces found. */
export async function labelProgress(prisma: PrismaClient, runId: string) {
  const [byStatus, faces] = await Promise.all([
    prisma.image.groupBy({ by: ["modelConfigId", "labelStatus"], where: { runId }, _count: { _all: true } }),
    prisma.face.count({ where: { deleted: false, image: { runId } } }),
  ]);
  const count = (s: string) => byStatus.filter((r) => r.labelStatus === s).reduce((a, r) => a + r._count._all, 0);
  return {
    images: byStatus.reduce((a, r) => a + r._count._all, 0),
    unlabelled: count("unlabelled") + count("leased"),
    labelled: count("labelled"),
    noFace: count("no_face"),
    faces,
    byModel: byStatus.map((r) => ({ modelConfigId: r.modelConfigId, labelStatus: r.labelStatus, count: r._count._all })),
  };
}

/** A record as a JSONL v1 line; T2I lines carry the face and both labels (`labels` names the one in `answer`). */
export function recordLine(r: AnswerRecord & ReusedRecord, labels: LabelSource = "model"): string {
  // an answer another run obtained says so (readers ignore fields they do not know: DESIGN §5)
  const reused = r.reused ? { reusedFromRun: r.reused.fromRunId, obtainedAt: r.reused.at } : {};
  if (!("imageId" in r)) return toInterchangeLine(r, r.reused ? reused : undefined);
  const f = r as FaceRecord;
  return toInterchangeLine(f, {
    labels,
    imageId: f.imageId,
    faceId: f.faceId,
    modelAnswer: f.modelAnswer,
    humanAnswer: f.humanAnswer,
    ...(f.labelledBy ?? { classifier: null, chip: null, detector: null, runtime: null }),
    ...reused,
  });
}
