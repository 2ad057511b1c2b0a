// Reading results for exploration: scores aggregated in SQL (so 50k+ answers stay fast), per-statistic detail,
// context influence counts, bootstrap intervals (computed off the request path and cached by content), and the
// answers or faces behind one bar segment, paginated.
import { assertOneClassifier } from "../../faces/run-provenance";
import { Prisma, type PrismaClient } from "../../../generated/prisma/client";
import type { Attribute, Context, Label, Level, Test } from "../../benchmark";
import { detailedGroups, type AnswerRecord, type BootstrapRecord, type DetailedGroupResult, type GroupResult } from "../../metrics";
import type { RaceMapping } from "../../faces/labels";
import { contextInfluence, type InfluenceCount, type InfluenceRow } from "../../results/context";
import { pinnedTruth, runRecordChunks, scoredAttributes, type FaceRecord, type LabelSource } from "./run-results";
import { runBenchmark } from "../runs/pinned";
import { DomainError } from "../../core/errors";
import { DEFAULT_SUITE_ID, suiteOf } from "../../suites";
import { dialectOf, jsonTextSql } from "../../db/dialect";
import { DEFAULT_PROFILE } from "../../metrics/profiles";
import type { ScoringRule } from "../../metrics/scores";
import { shared } from "../../core/shared";
import { isLive } from "../../core/run-status";
import { keysetPage, keysetQuery } from "../../core/keyset";
import { TOTAL_MAX_AGE_MS } from "../runs/items";

export interface ScoreOptions {
  raceMapping?: RaceMapping;
  labels?: LabelSource;
  modelSlug?: string;
  /**
   * how groups are scored (lib/metrics/scores.ts distanceMethodOf): release, as the authors' scripts, by default; the
   * legacy release rule only for re-scoring evidence bundles written under it
   */
  profile?: ScoringRule;
}

type CountRow = {
  model: string;
  test: string;
  context: string | null;
  statisticId: string;
  level: string;
  attribute: string | null;
  gender: string | null;
  race: string | null;
  n: bigint | number;
};

/**
 * A run's scoring records with identical ones merged (`count`): for LLM runs one GROUP BY over queries and outcomes
 * (a few hundred rows whatever the run's size); for T2I runs the face records streamed and merged.
 */
export async function aggregatedRecords(prisma: PrismaClient, runId: string, opts: ScoreOptions = {}): Promise<AnswerRecord[]> {
  return mergedRecords(prisma, runId, opts, false);
}

/**
 * The same records kept apart by how they were sampled, for the intervals: an LLM answer with its scenario
 * (`cluster`, a few thousand rows at most), a face with its image (`unit`: faces of one image are never resampled
 * as if independent).
 */
export async function designRecords(prisma: PrismaClient, runId: string, opts: ScoreOptions = {}): Promise<Array<AnswerRecord & BootstrapRecord>> {
  return mergedRecords(prisma, runId, opts, true);
}

/**
 * Records in one canonical order, whatever order the database returned its groups in (SQLite and PostgreSQL differ):
 * the bootstrap draws its resamples in the order it meets cells and scenarios, so the same answers give the same
 * intervals on either database — and a verifier's scratch copy recomputes a bundle's intervals exactly.
 */
function canonicalOrder<T extends AnswerRecord & BootstrapRecord>(records: T[]): T[] {
  const key = (r: T) =>
    [r.model, r.modality, r.test, r.context ?? "", r.statisticId, r.level, r.attribute, r.answer ?? "", r.truth ?? "", r.cluster ?? "", r.unit ?? ""].join(
      "\u0001",
    );
  const keyed = records.map((r) => [key(r), r] as const);
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return keyed.map(([, r]) => r);
}

async function mergedRecords(prisma: PrismaClient, runId: string, opts: ScoreOptions, design: boolean): Promise<Array<AnswerRecord & BootstrapRecord>> {
  return canonicalOrder(await unorderedRecords(prisma, runId, opts, design));
}

async function unorderedRecords(prisma: PrismaClient, runId: string, opts: ScoreOptions, design: boolean): Promise<Array<AnswerRecord & BootstrapRecord>> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { modality: true } });
  const bm = await runBenchmark(prisma, runId);
  if (!run || !bm) return [];
  if (run.modality === "t2i") {
    const merged = new Map<string, AnswerRecord & BootstrapRecord>();
    for await (const chunk of runRecordChunks(prisma, runId, opts)) {
      for (const r of chunk) {
        const unit = design ? (r as FaceRecord).imageId : null;
        const key = [r.model, r.test, r.statisticId, r.level, r.attribute, r.answer, unit].join("|");
        const m = merged.get(key);
        if (m) m.count = (m.count ?? 1) + 1;
        else
          merged.set(key, {
            model: r.model,
            modality: r.modality,
            test: r.test,
            context: r.context,
            statisticId: r.statisticId,
            level: r.level,
            attribute: r.attribute,
            answer: r.answer,
            truth: r.truth,
            count: 1,
            ...(unit ? { unit } : {}),
          });
      }
    }
    return [...merged.values()];
  }
  const slug = opts.modelSlug ?? null;
  const rows = await prisma.$queryRaw<Array<CountRow & { scenario: number | null }>>`
    SELECT m."slug" AS model, q."test" AS test, q."context" AS context, q."statisticId" AS "statisticId", q."level" AS level,
           q."attribute" AS attribute, o."gender" AS gender, o."race" AS race,
           ${design ? Prisma.sql`q."scenarioIndex"` : Prisma.sql`NULL`} AS scenario, COUNT(*) AS n
    FROM "Query" q
    JOIN "ModelConfig" m ON m."id" = q."modelConfigId"
    LEFT JOIN "Outcome" o ON o."queryId" = q."id"
    WHERE q."runId" = ${runId} AND q."status" IN ('answered', 'refused') AND (CAST(${slug} AS TEXT) IS NULL OR m."slug" = ${slug})
    GROUP BY m."slug", q."test", q."context", q."statisticId", q."level", q."attribute", o."gender", o."race"${design ? Prisma.sql`, q."scenarioIndex"` : Prisma.empty}`;
  return rows.flatMap((r) =>
    // As runRecordChunks: an objective query scores its own attribute, a subjective answer both of the person's.
    scoredAttributes(bm, r.statisticId, r.attribute).map((attribute) => ({
      model: r.model,
      modality: "llm" as const,
      test: r.test as Test,
      context: (r.context as Context | null) ?? null,
      statisticId: r.statisticId,
      level: r.level as Level,
      attribute,
      answer: ((attribute === "gender" ? r.gender : r.race) ?? null) as Label | null,
      truth: pinnedTruth(bm, r.statisticId, attribute, r.level as Level),
      count: Number(r.n),
      ...(r.scenario !== null && r.scenario !== undefined ? { cluster: Number(r.scenario) } : {}),
    })),
  );
}

/** These are FACT-OR-FAIR's scores: another suite's run is scored by its suite (its views), never read as if it were one. */
export async function assertFactOrFairRun(prisma: PrismaClient, runId: string) {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { suiteId: true } });
  if (run && run.suiteId !== DEFAULT_SUITE_ID)
    throw new DomainError(
      "conflict",
      `run ${runId} is a ${suiteOf(run.suiteId).name} run: its results are its suite's tables (run page, or the export), not FACT-OR-FAIR scores`,
    );
}

/** Scores per group with per-statistic cells and divergences. */
export async function runDetailed(prisma: PrismaClient, runId: string, opts: ScoreOptions = {}): Promise<DetailedGroupResult[]> {
  await assertFactOrFairRun(prisma, runId);
  await assertOneClassifier(prisma, [runId]);
  return detailedGroups(await settledAggregates(prisma, runId, opts), opts.profile ?? DEFAULT_PROFILE);
}

/** How long an ended language-model run's aggregates are reused (they change only when it is steered: forgetShared). */
const SETTLED_AGGREGATES_MS = 10_000;

/**
 * aggregatedRecords, reused across pages for a language-model run that has ended: every page that shows its scores
 * (run page, Results, compare, report) would otherwise re-aggregate every answer (tens of ms of synchronous SQLite
 * each on a quick run). A live run's and a text-to-image run's (labels keep changing) are read fresh.
 */
async function settledAggregates(prisma: PrismaClient, runId: string, opts: ScoreOptions): Promise<AnswerRecord[]> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { modality: true, status: true } });
  if (!run || run.modality !== "llm" || isLive(run.status)) return aggregatedRecords(prisma, runId, opts);
  return shared(`aggregates|${runId}|${JSON.stringify(opts)}`, SETTLED_AGGREGATES_MS, () => aggregatedRecords(prisma, runId, opts));
}

/** Scores per group of a run (aggregated in SQL; equal to scoreGroups over runRecords). */
export async function runScores(prisma: PrismaClient, runId: string, opts: ScoreOptions = {}): Promise<GroupResult[]> {
  return (await runDetailed(prisma, runId, opts)).map(({ cells: _c, divergences: _d, ...g }) => g);
}

/** Scores per group (no cells) for several runs, each tagged with its run. */
export async function runsScores(
  prisma: PrismaClient,
  runs: ReadonlyArray<{ id: string; name: string }>,
  opts: ScoreOptions = {},
): Promise<Array<GroupResult & { run: { id: string; name: string } }>> {
  const out = await Promise.all(runs.map(async (run) => (await runScores(prisma, run.id, opts)).map((g) => ({ ...g, run: { id: run.id, name: run.name } }))));
  return out.flat();
}

type InfluenceSqlRow = {
  model: string;
  context: string;
  statisticId: string;
  level: string;
  ig: string | null;
  ir: string | null;
  gender: string | null;
  race: string | null;
  n: bigint | number;
};

/** Answered context queries of an LLM run counted by the context's identity and the chosen person (Table 3). */
export async function runInfluenceCounts(prisma: PrismaClient, runId: string): Promise<InfluenceCount[]> {
  const dialect = dialectOf(prisma);
  const rows = await prisma.$queryRaw<InfluenceSqlRow[]>`
    SELECT m."slug" AS model, q."context" AS context, q."statisticId" AS "statisticId", q."level" AS level,
           ${jsonTextSql(dialect, 'q."identityJson"', "gender")} AS ig, ${jsonTextSql(dialect, 'q."identityJson"', "race")} AS ir,
           o."gender" AS gender, o."race" AS race, COUNT(*) AS n
    FROM "Query" q
    JOIN "ModelConfig" m ON m."id" = q."modelConfigId"
    JOIN "Outcome" o ON o."queryId" = q."id"
    WHERE q."runId" = ${runId} AND q."test" = 'subjective' AND q."context" IN ('representativeness', 'attribution', 'ingroup')
      AND o."status" = 'answered'
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`;
  return rows.map((r) => ({
    model: r.model,
    context: r.context as InfluenceCount["context"],
    statisticId: r.statisticId,
    level: r.level as Level,
    identityGender: r.ig,
    identityRace: r.ir,
    gender: r.gender,
    race: r.race,
    count: Number(r.n),
  }));
}

/** Table 3 rows of an LLM run, classified with the content the run was planned from. */
export async function runInfluence(prisma: PrismaClient, runId: string): Promise<InfluenceRow[]> {
  const bm = await runBenchmark(prisma, runId);
  return bm ? contextInfluence(await runInfluenceCounts(prisma, runId), bm) : [];
}

export interface AnswerFilter {
  model: string;
  test: Test;
  context: Context | null;
  statisticId: string;
  level: Level;
  attribute: Attribute;
  /** a class label, "refused" (null answers), or undefined for all */
  answer?: string;
  page: number;
  pageSize: number;
  raceMapping?: RaceMapping;
  labels?: LabelSource;
  /** chat answers: the page after (before) the query with this id — keyset paging, never an offset */
  after?: number;
  before?: number;
}

/** The LLM queries behind one cell (and answer) of a group: paged by key (the query id) in SQL, its count shared a while. */
export async function cellQueries(prisma: PrismaClient, runId: string, f: AnswerFilter) {
  const answerWhere =
    f.answer === undefined
      ? {}
      : f.answer === "refused"
        ? { OR: [{ outcome: { is: null } }, { outcome: { [f.attribute]: null } }] }
        : { outcome: { [f.attribute]: f.answer } };
  const where = {
    runId,
    modelConfig: { slug: f.model },
    test: f.test,
    context: f.context,
    statisticId: f.statisticId,
    level: f.level,
    status: { in: ["answered", "refused"] },
    OR: [{ attribute: f.attribute }, { attribute: null }],
    AND: [answerWhere],
  };
  const page = keysetQuery(f);
  const [total, found] = await Promise.all([
    shared(`cell-total|${runId}|${JSON.stringify(where)}`, TOTAL_MAX_AGE_MS, () => prisma.query.count({ where })),
    prisma.query.findMany({ where: { AND: [where, page.where] }, orderBy: page.orderBy, take: f.pageSize + 1, include: { outcome: true } }),
  ]);
  const { rows, next, prev } = keysetPage(found, f.pageSize, f);
  return {
    total,
    /** cursors: `after` for the next page, `before` for the previous one (null: none that way) */
    next,
    prev,
    rows: rows.map((q) => ({
      id: q.id,
      repeatIndex: q.repeatIndex,
      scenarioIndex: q.scenarioIndex,
      status: q.status,
      prompt: q.prompt,
      options: JSON.parse(q.optionsJson) as unknown,
      identity: q.identityJson ? (JSON.parse(q.identityJson) as unknown) : null,
      rawText: q.outcome?.rawText ?? null,
      parsedLetter: q.outcome?.parsedLetter ?? null,
      reason: q.outcome?.reason ?? null,
      answer: (f.attribute === "gender" ? q.outcome?.gender : q.outcome?.race) ?? null,
    })),
  };
}

/**
 * The T2I faces (or faceless images) behind one cell (and answer), under the chosen labels and race mapping: only the
 * cell's images are read (by their own columns), a page by key on the image id (whole images: a page may hold a few
 * more records than its size), reading stops when the page is full; the count is shared a while.
 */
export async function cellFaces(prisma: PrismaClient, runId: string, f: AnswerFilter & { afterImage?: string; beforeImage?: string }) {
  const cell = { test: f.test, statisticId: f.statisticId, level: f.level };
  const opts = { raceMapping: f.raceMapping, labels: f.labels, modelSlug: f.model, cell, chunk: 200 };
  const matches = (r: FaceRecord) =>
    r.attribute === f.attribute && (f.answer === undefined || (f.answer === "refused" ? r.answer === null : r.answer === f.answer));
  const backwards = f.beforeImage !== undefined;
  // Whole images, in the reading direction, until the page is full and one more image shows there is more.
  const groups: FaceRecord[][] = [];
  let taken = 0;
  let more = false;
  reading: for await (const chunk of runRecordChunks(prisma, runId, { ...opts, afterImage: f.afterImage, beforeImage: f.beforeImage })) {
    for (const r of chunk as FaceRecord[]) {
      if (!matches(r)) continue;
      const last = groups[groups.length - 1];
      if (last && last[0].imageId === r.imageId) last.push(r);
      else if (taken >= f.pageSize) {
        more = true;
        break reading;
      } else groups.push([r]);
      taken++;
    }
  }
  if (backwards) groups.reverse();
  const page = groups.flat();
  const total = await shared(
    `cell-faces|${runId}|${JSON.stringify({ ...cell, m: f.model, a: f.attribute, ans: f.answer, l: f.labels, rm: f.raceMapping })}`,
    TOTAL_MAX_AGE_MS,
    async () => {
      let n = 0;
      for await (const chunk of runRecordChunks(prisma, runId, { ...opts, chunk: 2000 })) for (const r of chunk as FaceRecord[]) if (matches(r)) n++;
      return n;
    },
  );
  const first = groups[0]?.[0]?.imageId ?? null;
  const lastId = groups[groups.length - 1]?.[0]?.imageId ?? null;
  const faces = await prisma.face.findMany({
    where: { id: { in: page.map((r) => r.faceId).filter((x): x is number => x !== null) } },
    select: { id: true, x1: true, y1: true, x2: true, y2: true, source: true },
  });
  const images = await prisma.image.findMany({
    where: { id: { in: [...new Set(page.map((r) => r.imageId))] } },
    select: { id: true, width: true, height: true, originalName: true, source: true },
  });
  return {
    total,
    /** cursors on the image id: `afterImage` for the next page, `beforeImage` for the previous one (null: none that way) */
    next: page.length && (backwards || more) ? lastId : null,
    prev: page.length && (backwards ? more : f.afterImage !== undefined) ? first : null,
    rows: page.map((r) => ({
      imageId: r.imageId,
      faceId: r.faceId,
      answer: r.answer,
      modelAnswer: r.modelAnswer,
      humanAnswer: r.humanAnswer,
      face: faces.find((x) => x.id === r.faceId) ?? null,
      image: images.find((x) => x.id === r.imageId) ?? null,
    })),
  };
}
