// The plan written again, beside the run, in a verifier's scratch database: the run's suite plans from the content,
// configuration and seed the bundle carries, and its rows go in as planning writes them (lib/features/runs/runs.ts
// planQueries) — helper rows first, then each audited model's, each row's dependency resolved to its helper row —
// under a second run. An adaptive run's rows are then cut into waves by the engine's own assignWaves, with the
// schedule signed at launch, so which rows an adaptive stop may drop is derived too, not read from the bundle.
import type { PrismaClient } from "../../../generated/prisma/client";
import { insertMany } from "../../db/bulk";
import { dialectOf, type SqlValue } from "../../db/dialect";
import type { IntervalTarget } from "../../metrics/design";
import type { LookSchedule } from "../../metrics/sequential";
import type { AnySuite, SuitePlannedQuery } from "../../suites/types";
import { assignWaves } from "../runs/adaptive";

/** The columns planning decides (the engine adds only the run, the model, the status, the wave and the cache key). */
export const PLANNED = [
  "modality",
  "test",
  "context",
  "statisticId",
  "level",
  "attribute",
  "scenarioIndex",
  "repeatIndex",
  "prompt",
  "optionsJson",
  "identityJson",
  "groundTruthJson",
] as const;

export interface PlanGroup {
  modelConfigId: string;
  slug: string;
  role: "helper" | "subject";
}

const CHUNK = 1000;

/** Writes the plan under a new run id beside `runId` (a copy of its row) and returns that id. */
export async function writePlanBeside(
  prisma: PrismaClient,
  p: {
    runId: string;
    suite: AnySuite;
    config: unknown;
    content: Parameters<AnySuite["plan"]>[1];
    seed: number;
    groups: readonly PlanGroup[];
    /** an adaptive run's waves, as signed at launch; null: a run of fixed size (every row wave 0) */
    waves: { schedule: LookSchedule; intervalTarget: IntervalTarget } | null;
  },
): Promise<string> {
  const beside = `${p.runId}~replanned`;
  const run = await prisma.run.findUniqueOrThrow({ where: { id: p.runId } });
  await prisma.run.create({ data: { ...run, id: beside } });
  let rows: Array<Record<string, SqlValue>> = [];
  const flush = async () => {
    if (rows.length) await insertMany(prisma, "Query", rows);
    rows = [];
  };
  const row = (g: PlanGroup, q: SuitePlannedQuery, dependsOnId: number | null) => {
    const r: Record<string, SqlValue> = { runId: beside, modelConfigId: g.modelConfigId };
    for (const c of PLANNED) r[c] = q[c] ?? null;
    return Object.assign(r, { dependsOnId, status: "pending", attempts: 0, wave: 0, cacheKey: "" });
  };
  // Helper rows once, for the helper model; their ids (insertion order = id order) resolve the dependents'.
  const helperIds = new Map<string, number>();
  const helper = p.groups.find((g) => g.role === "helper");
  if (helper) {
    const keys: string[] = [];
    for (const q of p.suite.plan(p.config, p.content, p.seed)) {
      if (q.role !== "helper") continue;
      keys.push(q.key ?? String(keys.length));
      rows.push(row(helper, q, null));
      if (rows.length >= CHUNK) await flush();
    }
    await flush();
    const ids = await prisma.query.findMany({ where: { runId: beside }, select: { id: true }, orderBy: { id: "asc" } });
    keys.forEach((k, i) => helperIds.set(k, ids[i]!.id));
  }
  for (const g of p.groups) {
    if (g.role !== "subject") continue;
    for (const q of p.suite.plan(p.config, p.content, p.seed)) {
      if (q.role !== "subject") continue;
      const dependsOnId = q.dependsOn ? helperIds.get(q.dependsOn) : null;
      if (dependsOnId === undefined) throw new Error(`the planner names a helper query "${q.dependsOn}" it does not plan`);
      rows.push(row(g, q, dependsOnId));
      if (rows.length >= CHUNK) await flush();
    }
    await flush();
  }
  if (p.waves) await assignWaves(prisma, beside, p.waves.schedule, p.seed, dialectOf(prisma), p.suite.waveUnit?.(p.config, p.waves.intervalTarget));
  return beside;
}
