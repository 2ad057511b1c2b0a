// What of a run's rows a bundle carries, and how a verifier puts them back: the run, its pinned content, the models'
// declared identities (never a credential: no key-variable name, no account, a base URL without user, query or
// fragment), every query with its prompt, every outcome with its raw output, attempts and timing — and for a
// text-to-image run every image (its SHA-256, never its bytes), face (box, raw class probabilities and what produced
// them: detector, classifier and landmarker by name and file hash), human label, gold label, exclusion and CLIP
// reading. People appear only as pseudonyms (./people.ts); an exclusion's free-text reason is withheld.
import type { PrismaClient } from "../../../generated/prisma/client";
import { insertMany } from "../../db/bulk";
import type { SqlValue } from "../../db/dialect";
import { TABLE_FILES, type Row, type TableFileName } from "../../evidence/completeness";
import type { Pseudonyms } from "../ledger/people";
import { cleanUrl, declaredSettings } from "../../evidence/declared";
import { explanationTablePages } from "./explanation-tables";
import { DATE_COLUMNS, instantMs } from "../../evidence/instant";

export type { Row };

const HEAD_DATES = DATE_COLUMNS;
const DATES: Record<TableFileName, readonly string[]> = DATE_COLUMNS;

const PAGE = 2000;
const WITHHELD = "(withheld from evidence bundles)";

export async function runRows(prisma: PrismaClient, runId: string) {
  const run = await prisma.run.findUniqueOrThrow({ where: { id: runId } });
  const content = await prisma.benchmarkVersion.findUniqueOrThrow({ where: { id: run.benchmarkVersionId } });
  const runModels = await prisma.runModel.findMany({ where: { runId }, orderBy: { modelConfigId: "asc" } });
  const models = await prisma.modelConfig.findMany({ where: { id: { in: runModels.map((m) => m.modelConfigId) } }, orderBy: { id: "asc" } });
  return {
    content,
    run: { ...run, createdById: null },
    models: models.map((m) => ({ ...m, apiKeyEnv: null, baseUrl: cleanUrl(m.baseUrl), createdById: null, updatedById: null })),
    // the snapshot of settings names the credential variable: left out with the rest of the model's secrets' trail
    runModels: runModels.map((m) => ({ ...m, settingsJson: JSON.stringify(declaredSettings(m.settingsJson)) })),
  };
}

/** Pages of rows in key order: `read(after)` returns the page after that key, `key` the key of a row. */
async function* keyed<K, T extends Row>(read: (after: K | undefined) => Promise<T[]>, key: (r: T) => K): AsyncGenerator<Row[]> {
  let after: K | undefined;
  for (;;) {
    const page = await read(after);
    if (!page.length) return;
    yield page;
    after = key(page[page.length - 1]);
  }
}

/** Every table file's rows for one run, a page at a time (a paper-size run has 45,828 queries). */
export function tablePages(prisma: PrismaClient, runId: string, people: Pseudonyms): Record<TableFileName, () => AsyncGenerator<Row[]>> {
  const ofRun = { image: { runId } };
  const annotationsOfRun = { face: ofRun };
  return {
    "queries.jsonl": () =>
      keyed(
        (after: number | undefined) =>
          prisma.query.findMany({
            where: { runId, ...(after !== undefined ? { id: { gt: after } } : {}) },
            orderBy: { id: "asc" },
            take: PAGE,
            omit: { leaseOwner: true, leaseUntil: true, reservedUsd: true },
          }),
        (r) => r.id,
      ),
    "outcomes.jsonl": () =>
      keyed(
        (after: number | undefined) =>
          prisma.outcome.findMany({
            where: { query: { runId }, ...(after !== undefined ? { queryId: { gt: after } } : {}) },
            orderBy: { queryId: "asc" },
            take: PAGE,
          }),
        (r) => r.queryId,
      ),
    "images.jsonl": () =>
      keyed(
        (after: string | undefined) =>
          prisma.image.findMany({
            where: { runId, ...(after !== undefined ? { id: { gt: after } } : {}) },
            orderBy: { id: "asc" },
            take: PAGE,
            omit: { leaseOwner: true, leaseUntil: true },
          }),
        (r) => r.id,
      ),
    "faces.jsonl": async function* () {
      for await (const page of keyed(
        (after: number | undefined) =>
          prisma.face.findMany({ where: { ...ofRun, ...(after !== undefined ? { id: { gt: after } } : {}) }, orderBy: { id: "asc" }, take: PAGE }),
        (r) => r.id,
      ))
        yield page.map((f) => ({ ...f, createdBy: people.of(f.createdBy as string | null), deletedBy: people.of(f.deletedBy as string | null) }));
    },
    "annotations.jsonl": async function* () {
      for await (const page of keyed(
        (after: number | undefined) =>
          prisma.annotation.findMany({
            where: { ...annotationsOfRun, ...(after !== undefined ? { id: { gt: after } } : {}) },
            orderBy: { id: "asc" },
            take: PAGE,
          }),
        (r) => r.id,
      ))
        yield page.map((a) => ({ ...a, annotator: people.of(a.annotator as string) }));
    },
    "annotation-values.jsonl": () =>
      keyed(
        (after: [number, string] | undefined) =>
          prisma.annotationValue.findMany({
            where: {
              annotation: annotationsOfRun,
              ...(after ? { OR: [{ annotationId: { gt: after[0] } }, { annotationId: after[0], attribute: { gt: after[1] } }] } : {}),
            },
            orderBy: [{ annotationId: "asc" }, { attribute: "asc" }],
            take: PAGE,
          }),
        (r) => [r.annotationId, r.attribute] as [number, string],
      ),
    "gold-labels.jsonl": async function* () {
      for await (const page of keyed(
        (after: number | undefined) =>
          prisma.goldLabel.findMany({
            where: { face: ofRun, ...(after !== undefined ? { faceId: { gt: after } } : {}) },
            orderBy: { faceId: "asc" },
            take: PAGE,
          }),
        (r) => r.faceId,
      ))
        yield page.map((g) => ({ ...g, markedBy: people.of(g.markedBy as string) }));
    },
    // only the exclusions of people who labelled this run's faces: each one changes this run's consensus
    "annotator-exclusions.jsonl": async function* () {
      const who = await prisma.annotation.findMany({ where: annotationsOfRun, distinct: ["annotator"], select: { annotator: true } });
      // and of people who read this run's explanations
      const readers = await prisma.explanationReading.findMany({
        where: { outcome: { query: { runId } } },
        distinct: ["annotator"],
        select: { annotator: true },
      });
      const rows = await prisma.annotatorExclusion.findMany({
        where: { annotator: { in: [...who, ...readers].map((w) => w.annotator) } },
        orderBy: { annotator: "asc" },
      });
      if (rows.length)
        yield rows
          .map((x) => ({ ...x, annotator: people.of(x.annotator)!, excludedBy: people.of(x.excludedBy)!, reason: WITHHELD }))
          .sort((a, b) => (a.annotator < b.annotator ? -1 : 1));
    },
    "image-readings.jsonl": () =>
      keyed(
        (after: string | undefined) =>
          prisma.imageReading.findMany({
            where: { ...ofRun, ...(after !== undefined ? { imageId: { gt: after } } : {}) },
            orderBy: { imageId: "asc" },
            take: PAGE,
          }),
        (r) => r.imageId,
      ),
    ...explanationTablePages(
      prisma,
      runId,
      people,
      async () => new Set((await prisma.runModel.findMany({ where: { runId }, select: { modelConfigId: true } })).map((m) => m.modelConfigId)),
    ),
  };
}

/** A row as read back from the bundle: its dates as dates again (instants only: ../../evidence/instant.ts). */
function revive(dates: readonly string[], row: Row): Row {
  const out = { ...row };
  for (const k of dates)
    if (typeof out[k] === "string") {
      const ms = instantMs(out[k]);
      if (!Number.isFinite(ms)) throw new Error(`${k} ${JSON.stringify(String(out[k]).slice(0, 40))} is not an ISO 8601 instant`);
      out[k] = new Date(ms);
    }
  return out;
}

/** The bundle's single rows into an empty database (the verifier's scratch copy), in reference order. */
export async function insertHead(prisma: PrismaClient, head: { content: Row; run: Row; models: Row[]; runModels: Row[] }) {
  await prisma.benchmarkVersion.create({ data: revive(HEAD_DATES["content.json"], head.content) as never });
  for (const m of head.models) await prisma.modelConfig.create({ data: revive(HEAD_DATES["models.jsonl"], m) as never });
  await prisma.run.create({ data: revive(HEAD_DATES["run.json"], head.run) as never });
  for (const m of head.runModels) await prisma.runModel.create({ data: revive(HEAD_DATES["run-models.jsonl"], m) as never });
}

/**
 * A batch of one table file's rows, as the engine writes its hot rows: one multi-row statement per thousand
 * (lib/db/bulk.ts) — createMany's per-row path held ~1 GiB on a paper-size run.
 */
export async function insertBatch(prisma: PrismaClient, file: TableFileName, rows: Row[]) {
  const table = TABLE_FILES.find((t) => t.file === file)!.table;
  await insertMany(
    prisma,
    table,
    rows.map((r) => revive(DATES[file], r) as Record<string, SqlValue>),
  );
}
