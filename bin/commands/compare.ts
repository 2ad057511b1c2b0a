// `fof compare A B` on the local database, and the gate after a local `fof run … --compare-to RUN --fail-if-worse
// "sFair,d"` (lib/features/results/comparisons.ts does the statistics; compare-cli.ts the rest).
import { db, migrateAndSeed } from "../../lib/db";
import { compareSides } from "../../lib/features/results/comparisons";
import type { BootstrapMetric } from "../../lib/metrics/design";
import type { PrismaClient } from "../../generated/prisma/client";
import { compareArgs, gateSummary, printComparison, reportGate, type CompareCliOptions } from "./compare-cli";

export async function compareCommand(a: string, b: string, opts: CompareCliOptions) {
  const args = compareArgs(a, b, opts);
  await migrateAndSeed({ quiet: true });
  const result = await compareSides(db(), args.a, args.b, { target: args.target, resamples: args.resamples });
  printComparison(result, opts);
  await db().$disconnect();
}

/**
 * Each model of the new run against the reference run's model of the same slug (or its only model). Reports every
 * gated comparison on stderr; true when the release must fail.
 */
export async function gateAgainst(prisma: PrismaClient, reference: string, runId: string, models: readonly string[], metrics: BootstrapMetric[]) {
  const refModels = (await prisma.runModel.findMany({ where: { runId: reference }, select: { modelConfig: { select: { slug: true } } } })).map(
    (m) => m.modelConfig.slug,
  );
  if (!refModels.length) throw new Error(`--compare-to: no run ${reference}`);
  let failed = false;
  for (const model of models) {
    const refModel = refModels.includes(model) ? model : refModels.length === 1 ? refModels[0] : null;
    if (!refModel) throw new Error(`--compare-to: run ${reference} has no model ${model} and more than one model (${refModels.join(", ")})`);
    if (reportGate(model, await compareSides(prisma, { runId: reference, model: refModel }, { runId, model }), metrics)) failed = true;
  }
  process.stderr.write(gateSummary(metrics, failed));
  return failed;
}
