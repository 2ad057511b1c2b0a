// `fof pause|resume|cancel <run>`: steer a run from the command line, in any state where it makes sense — a run still
// being planned included (a paused planning run plans on and calls nothing; a cancelled one stops planning). On the
// database's own host the operator steers any run (audited as the CLI's); with --server, the token's account does,
// under the same rules as the run page.
import { db, migrateAndSeed } from "../../lib/db";
import { steerRun } from "../../lib/features/runs/steer";

export type SteerAction = "pause" | "resume" | "cancel";

/** What every side prints: the run's id and the status it is in now. */
export function printSteered(run: { id: string; status: string; budgetUsd: number | null }, opts: { pretty?: boolean }) {
  process.stdout.write(JSON.stringify({ run: { id: run.id, status: run.status, budgetUsd: run.budgetUsd } }, null, opts.pretty ? 2 : undefined) + "\n");
  process.stderr.write(`run ${run.id}: ${run.status.replace("_", " ")}\n`);
}

export const steerCommand = (action: SteerAction) => async (runId: string, opts: { pretty?: boolean }) => {
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  try {
    printSteered(await steerRun(prisma, null, runId, action), opts);
  } finally {
    await prisma.$disconnect();
  }
};
