// `npm test`'s PostgreSQL phase: starts a throwaway cluster (scripts/pg-temp.ts), migrates and seeds one template
// database, and runs the integration tests with every test file on its own copy. Exit 3 = no PostgreSQL here.
import { spawnSync } from "node:child_process";
import { postgresBin, startTempPostgres } from "./pg-temp";

if (!postgresBin()) process.exit(3);
process.stdout.write("\n=== integration tests on PostgreSQL (throwaway cluster) ===\n");
const pg = startTempPostgres();
let status = 1;
try {
  pg.createDatabase("fof_template");
  const env = { ...process.env, DATABASE_URL: pg.url("fof_template"), FOF_DATA_DIR: `${process.env.TMPDIR ?? "/tmp"}/fof-pg-template` };
  const migrate = spawnSync("node_modules/.bin/tsx", ["scripts/migrate.ts"], { stdio: "inherit", env });
  if (migrate.status !== 0) throw new Error("could not migrate the template database");
  // Named files only (a developer checking one change on PostgreSQL: `tsx scripts/test-postgres.ts tests/x.test.ts`), else all.
  const named = process.argv.slice(2).filter((a) => /^tests\/[\w.*-]+\.test\.ts$/.test(a));
  const files = named.length ? named : ["tests/*.integration.test.ts", "tests/migrations.test.ts"];
  const run = spawnSync(
    "node_modules/.bin/vitest",
    // Two files at a time whatever vitest.config.mts says: this pass runs beside the e2e journeys, which are the longer
    // of the two and must not wait for it.
    ["run", ...files, "--maxWorkers=2", "--reporter=default", "--reporter=json", "--outputFile.json=test-reports/pg-results.json"],
    {
      stdio: "inherit",
      shell: true,
      env: { ...process.env, FOF_TEST_PG_ADMIN_URL: pg.url("postgres"), FOF_TEST_PG_TEMPLATE: "fof_template" },
    },
  );
  status = run.status ?? 1;
} finally {
  pg.stop();
}
process.exit(status);
