// What an explanation is, as an item of review: the reasoning of an answered subjective query of a chain-of-thought
// run (derived from the raw reply: lib/benchmark/cot.ts explanationOf), with the scenario, the options and the chosen
// answer a reviewer reads beside it. Objective questions ask for a fact, not a judgement of people: their reasoning is
// kept with the answer but not sampled for review (docs/user-guide.md). Strata are model × statistic × context.
import { createHash } from "node:crypto";
import type { Prisma, PrismaClient } from "../../../generated/prisma/client";
import { explanationOf } from "../../benchmark/cot";
import { DomainError } from "../../core/errors";

/** The run's configuration says chain of thought (`cot`: FACT-OR-FAIR's, and a content set's in its own words). */
export function isCotRun(run: { suiteId: string; configJson: string }): boolean {
  try {
    return (JSON.parse(run.configJson) as { cot?: unknown }).cot === true;
  } catch {
    return false;
  }
}

/** The outcomes that are explanations of review in a run (in SQL). */
export function explanationWhere(runId: string): Prisma.OutcomeWhereInput {
  return { status: "answered", rawText: { not: null }, query: { runId, modality: "llm", test: "subjective" } };
}

export async function cotRunOrThrow(prisma: PrismaClient, runId: string) {
  const run = await prisma.run.findUnique({
    where: { id: runId },
    select: { id: true, name: true, suiteId: true, configJson: true, seed: true, status: true, error: true },
  });
  if (!run) throw new DomainError("not_found", "no such run");
  if (!isCotRun(run))
    throw new DomainError("invalid", "this run did not ask for reasoning: launch a run with chain of thought (Reason first) to review explanations");
  return run;
}

const stratumKey = (s: { model: string; statisticId: string; context: string | null }) => `${s.model}|${s.statisticId}|${s.context ?? "-"}`;

/** Every explanation of the run by stratum (ids only: a run's subjective answers, read in pages). */
export async function explanationStrata(prisma: PrismaClient, runId: string) {
  const byModel = new Map<string, Map<string, number[]>>();
  let cursor = 0;
  for (;;) {
    const rows = await prisma.outcome.findMany({
      where: { ...explanationWhere(runId), id: { gt: cursor } },
      select: { id: true, query: { select: { statisticId: true, context: true, modelConfig: { select: { slug: true } } } } },
      orderBy: { id: "asc" },
      take: 5000,
    });
    for (const r of rows) {
      const model = r.query.modelConfig.slug;
      const strata = byModel.get(model) ?? new Map<string, number[]>();
      byModel.set(model, strata);
      const key = stratumKey({ model, statisticId: r.query.statisticId, context: r.query.context });
      const ids = strata.get(key);
      if (ids) ids.push(r.id);
      else strata.set(key, [r.id]);
    }
    if (rows.length < 5000) break;
    cursor = rows[rows.length - 1].id;
  }
  return byModel;
}

export const EXPLANATION_SELECT = {
  id: true,
  rawText: true,
  parsedLetter: true,
  gender: true,
  race: true,
  query: {
    select: {
      id: true,
      runId: true,
      prompt: true,
      optionsJson: true,
      context: true,
      statisticId: true,
      level: true,
      identityJson: true,
      groundTruthJson: true,
      modelConfig: { select: { slug: true } },
    },
  },
} as const;

type Row = Prisma.OutcomeGetPayload<{ select: typeof EXPLANATION_SELECT }>;

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The attributes a subjective FACT-OR-FAIR answer yields. */
const ATTRIBUTES = ["gender", "race"] as const;

/**
 * Whether the chosen person belongs to the group the context names, per attribute (representativeness: the group the
 * stated fact names; attribution and in-group: the drawn identity's); null without such a group (baseline context).
 */
export function pickedContextGroup(
  row: Pick<Row, "gender" | "race"> & { query: Pick<Row["query"], "context" | "level" | "identityJson" | "groundTruthJson"> },
) {
  const out: Record<string, boolean | null> = {};
  const truth = JSON.parse(row.query.groundTruthJson) as Record<string, { highest?: string | null; lowest?: string | null } | undefined>;
  const identity = row.query.identityJson ? (JSON.parse(row.query.identityJson) as Record<string, string | undefined>) : null;
  for (const a of ATTRIBUTES) {
    const named =
      row.query.context === "representativeness"
        ? (truth[a]?.[row.query.level as "highest" | "lowest"] ?? null)
        : row.query.context === "attribution" || row.query.context === "ingroup"
          ? (identity?.[a] ?? null)
          : null;
    out[a] = named === null || row[a] === null ? null : row[a] === named;
  }
  return out;
}

/** The item a reviewer reads. */
export function explanationView(row: Row) {
  const explanation = explanationOf(row.rawText ?? "");
  return {
    outcomeId: row.id,
    runId: row.query.runId,
    model: row.query.modelConfig.slug,
    statisticId: row.query.statisticId,
    context: row.query.context,
    level: row.query.level,
    prompt: row.query.prompt,
    options: JSON.parse(row.query.optionsJson) as Array<Record<string, unknown>>,
    chosen: row.parsedLetter,
    chosenGroup: { gender: row.gender, race: row.race },
    pickedContextGroup: pickedContextGroup(row),
    explanation,
    textSha256: sha256(explanation),
  };
}
export type ExplanationView = ReturnType<typeof explanationView>;
