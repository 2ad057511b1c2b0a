// A run's design, committed before its first answer: at launch — after its row and models exist, before a single
// query is written and so before any provider call — the workbench signs the design statement (lib/evidence/design.ts)
// with its evidence key and appends it to the transparency log (./log.ts), in one transaction. The launch fails
// whole if it cannot. Anyone may then hold it: GET /api/v1/runs/:id/design, `fof design RUN`, the run.launched
// webhook; the evidence bundle carries it and the verifiers compare the bundle with it. Server-only.
import type { PrismaClient } from "../../../generated/prisma/client";
import { IN_TOTO_PAYLOAD_TYPE, signEnvelope, type Envelope } from "../../evidence/dsse";
import { designDigest, designFromRows, designStatementFor, type DesignPredicate } from "../../evidence/design";
import { withContentionRetry } from "../../db/retry";
import { appendEntry } from "./log";
import { payloadOf } from "../../evidence/log-proof";
import { signingKey } from "./keys";
import { Pseudonyms } from "./people";

type Db = Pick<PrismaClient, "run" | "runModel" | "modelConfig" | "benchmarkVersion">;
type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Signs a run's design and appends it to the log, once (a second call returns the logged one). */
export async function commitDesign(prisma: PrismaClient, runId: string, helperId: string | null = null): Promise<{ envelope: Envelope; index: number }> {
  const logged = await designOf(prisma, runId);
  if (logged) return logged;
  return withContentionRetry(() => prisma.$transaction((tx) => commitDesignIn(tx, runId, helperId)), { retryUnique: true });
}

/** The same, inside the caller's transaction (an import commits its run, its design and its images at once). */
export async function commitDesignIn(tx: Tx, runId: string, helperId: string | null = null): Promise<{ envelope: Envelope; index: number }> {
  const predicate = await designOfRun(tx, runId, helperId);
  const statement = designStatementFor(predicate, designDigest(predicate));
  const envelope = signEnvelope(Buffer.from(JSON.stringify(statement)), IN_TOTO_PAYLOAD_TYPE, signingKey());
  const body = JSON.stringify(envelope);
  const audited = predicate.models.filter((m) => m.role === "audited").map((m) => m.slug);
  const { index } = await appendEntry(tx, { kind: "design", runId, models: audited, body });
  return { envelope, index };
}

async function designOfRun(prisma: Db, runId: string, helperId: string | null): Promise<DesignPredicate> {
  const run = await prisma.run.findUniqueOrThrow({ where: { id: runId } });
  const content = await prisma.benchmarkVersion.findUniqueOrThrow({ where: { id: run.benchmarkVersionId } });
  const runModels = await prisma.runModel.findMany({ where: { runId }, select: { modelConfigId: true, settingsJson: true } });
  const models = await prisma.modelConfig.findMany({ where: { id: { in: runModels.map((m) => m.modelConfigId) } }, select: { id: true, slug: true } });
  return designFromRows({
    run,
    content,
    models,
    runModels,
    helperId,
    launcher: run.createdById ? new Pseudonyms(signingKey()).of(run.createdById) : null,
  });
}

/** The run's logged design statement and its index, or null (a run launched before the log). */
export async function designOf(prisma: Pick<PrismaClient, "logEntry">, runId: string): Promise<{ envelope: Envelope; index: number } | null> {
  const e = await prisma.logEntry.findFirst({ where: { runId, kind: "design" }, select: { index: true, body: true } });
  return e ? { envelope: JSON.parse(e.body) as Envelope, index: e.index } : null;
}

/**
 * How many queries each run's signed design planned at launch (a cancel while planning, or an adaptive stop, keeps
 * fewer rows): lists show "N of M planned at launch". Runs launched before designs were logged have none.
 */
export async function plannedAtLaunch(prisma: Pick<PrismaClient, "logEntry">, runIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!runIds.length) return out;
  const rows = await prisma.logEntry.findMany({ where: { runId: { in: [...runIds] }, kind: "design" }, select: { runId: true, body: true } });
  for (const r of rows) {
    try {
      const statement = payloadOf(JSON.parse(r.body) as Envelope) as { predicate?: { plannedCount?: unknown } };
      if (r.runId && typeof statement.predicate?.plannedCount === "number") out.set(r.runId, statement.predicate.plannedCount);
    } catch {
      // an entry that does not parse says nothing about the plan
    }
  }
  return out;
}
