// What of a run's rows a bundle carries, and how a verifier puts them back: the run, its pinned content, the models'
// declared identities (never a credential: no key-variable name, no account, a base URL without user, query or
// fragment), every query with its prompt, and every outcome with its raw output, attempts and timing. Chat runs
// only for now: a text-to-image run's images, faces and labels are not yet carried (bundling one is refused).
import type { PrismaClient } from "../../../generated/prisma/client";
import { insertMany } from "../../db/bulk";
import type { SqlValue } from "../../db/dialect";

export type Row = Record<string, unknown>;

/** Each table's file (a verifier inserts them in this order: a row's references come before it). */
type TableFile = "content.json" | "run.json" | "models.jsonl" | "run-models.jsonl" | "queries.jsonl" | "outcomes.jsonl";

const DATES: Record<TableFile, readonly string[]> = {
  "content.json": ["loadedAt"],
  "run.json": ["createdAt", "startedAt", "finishedAt"],
  "models.jsonl": ["createdAt", "updatedAt"],
  "run-models.jsonl": [],
  "queries.jsonl": ["nextAttemptAt"],
  "outcomes.jsonl": ["createdAt"],
};

const PAGE = 2000;

function cleanUrl(url: string | null): string | null {
  if (!url) return url;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return null;
  }
}

export async function runRows(prisma: PrismaClient, runId: string) {
  const run = await prisma.run.findUniqueOrThrow({ where: { id: runId } });
  if (run.modality !== "llm")
    throw new Error(`run ${runId} is a text-to-image run: bundles carry chat runs for now (images, faces and labels are not yet bundled)`);
  const content = await prisma.benchmarkVersion.findUniqueOrThrow({ where: { id: run.benchmarkVersionId } });
  const runModels = await prisma.runModel.findMany({ where: { runId }, orderBy: { modelConfigId: "asc" } });
  const models = await prisma.modelConfig.findMany({ where: { id: { in: runModels.map((m) => m.modelConfigId) } }, orderBy: { id: "asc" } });
  return {
    content,
    run: { ...run, createdById: null },
    models: models.map((m) => ({ ...m, apiKeyEnv: null, baseUrl: cleanUrl(m.baseUrl), createdById: null, updatedById: null })),
    runModels: runModels.map((m) => {
      // the snapshot of settings names the credential variable: left out with the rest of the model's secrets' trail
      const { apiKeyEnv: _k, credential: _c, ...settings } = JSON.parse(m.settingsJson) as Record<string, unknown>;
      if (typeof settings.baseUrl === "string") settings.baseUrl = cleanUrl(settings.baseUrl);
      return { ...m, settingsJson: JSON.stringify(settings) };
    }),
  };
}

/** The run's queries, in id order, a page at a time (a paper-size run has 45,828). */
export async function* queryPages(prisma: PrismaClient, runId: string): AsyncGenerator<Row[]> {
  let after = 0;
  for (;;) {
    const page = await prisma.query.findMany({
      where: { runId, id: { gt: after } },
      orderBy: { id: "asc" },
      take: PAGE,
      omit: { leaseOwner: true, leaseUntil: true, reservedUsd: true },
    });
    if (!page.length) return;
    yield page;
    after = page[page.length - 1].id;
  }
}

export async function* outcomePages(prisma: PrismaClient, runId: string): AsyncGenerator<Row[]> {
  let after = 0;
  for (;;) {
    const page = await prisma.outcome.findMany({ where: { query: { runId }, queryId: { gt: after } }, orderBy: { queryId: "asc" }, take: PAGE });
    if (!page.length) return;
    yield page;
    after = page[page.length - 1].queryId;
  }
}

/** A row as read back from the bundle: its dates as dates again. */
function revive(file: TableFile, row: Row): Row {
  const out = { ...row };
  for (const k of DATES[file]) if (typeof out[k] === "string") out[k] = new Date(out[k] as string);
  return out;
}

/** The bundle's single rows into an empty database (the verifier's scratch copy), in reference order. */
export async function insertHead(prisma: PrismaClient, head: { content: Row; run: Row; models: Row[]; runModels: Row[] }) {
  await prisma.benchmarkVersion.create({ data: revive("content.json", head.content) as never });
  for (const m of head.models) await prisma.modelConfig.create({ data: revive("models.jsonl", m) as never });
  await prisma.run.create({ data: revive("run.json", head.run) as never });
  for (const m of head.runModels) await prisma.runModel.create({ data: revive("run-models.jsonl", m) as never });
}

/**
 * A batch of queries or outcomes (queries first: an outcome names its query), as the engine writes its hot rows:
 * one multi-row statement per thousand (lib/db/bulk.ts) — createMany's per-row path held ~1 GiB on a paper-size run.
 */
export async function insertBatch(prisma: PrismaClient, file: "queries.jsonl" | "outcomes.jsonl", rows: Row[]) {
  const data = rows.map((r) => revive(file, r) as Record<string, SqlValue>);
  await insertMany(prisma, file === "queries.jsonl" ? "Query" : "Outcome", data);
}
