// `fof explanations RUN` on the local database: how often the run's explanations show each cognitive error (the
// people's sample and the judge corrected), `--judge MODEL` first judging every explanation in this process.
import { db, migrateAndSeed } from "../../lib/db";
import { explanationResults } from "../../lib/features/explanations/results";
import { startJudgePass, workJudgePassesUntilDone } from "../../lib/features/explanations/judge-pass";
import { printExplanations, type ExplanationsCliOptions } from "./explanations-print";

export async function explanationsCommand(runId: string, opts: ExplanationsCliOptions) {
  await migrateAndSeed({ quiet: true });
  try {
    if (opts.judge) {
      const budget = opts.budget === undefined ? undefined : Number(opts.budget);
      if (budget !== undefined && !(budget >= 0)) throw new Error("--budget: a number of USD");
      // the operator's own database: no account's spending limit applies
      const pass = await startJudgePass(db(), { id: "cli", role: "admin", spendingLimitUsd: null }, { runId, judge: opts.judge, budgetUsd: budget });
      process.stderr.write(`judging ${pass.total} explanations with ${opts.judge} (budget $${pass.budgetUsd.toFixed(4)}) …\n`);
      await workJudgePassesUntilDone(db());
      const done = await db().judgePass.findUniqueOrThrow({ where: { id: pass.id } });
      process.stderr.write(`judge pass ${done.status}${done.error ? `: ${done.error}` : ""} ($${done.costUsd.toFixed(4)})\n`);
    }
    printExplanations(await explanationResults(db(), runId), opts);
  } finally {
    await db().$disconnect();
  }
}
