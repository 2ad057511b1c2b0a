// deploy/backup.sh and deploy/restore.sh: a backup of a working database (SQLite here, PostgreSQL in npm test's
// second pass) and its images restores into an empty place with the same rows and files; a tampered backup and a
// non-empty target are refused.
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dataDir = testDataDir("fof-backup-");
process.env.FOF_DATA_DIR = dataDir;
const { db, migrateAndSeed, createPrismaClient } = await import("../lib/db");
const { createRun, presetConfig, Worker } = await import("./helpers/services");
const { env } = await import("../lib/env");

const onPostgres = env().databaseProvider === "postgresql";
const hasTools = onPostgres ? spawnSync("sh", ["-c", "command -v pg_dump && command -v pg_restore"]).status === 0 : true;

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const run = await createRun(db(), { models: ["baseline:uniform"], config: presetConfig("smoke", { tests: ["objective"] }), seed: 5 });
  await new Worker(db(), { runId: run.id, pollMs: 10, flushMs: 10 }).run({ untilDone: true });
  mkdirSync(path.join(dataDir, "images", "ab"), { recursive: true });
  writeFileSync(path.join(dataDir, "images", "ab", "abcdef.png"), "not really a png, but bytes to keep");
});
afterAll(async () => {
  await db().$disconnect();
});

describe.skipIf(!hasTools)("backup and restore", () => {
  it("restores the same rows and files into an empty database and data directory", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "fof-backups-"));
    const sourceUrl = env().databaseUrl;
    const backup = execFileSync("deploy/backup.sh", [out], {
      env: { ...process.env, DATABASE_URL: sourceUrl, FOF_DATA_DIR: dataDir },
      encoding: "utf8",
    }).trim();
    expect(readdirSync(backup).sort()).toEqual(["SHA256SUMS", "data.tar.gz", onPostgres ? "database.pgdump" : "database.sqlite"]);

    const target = mkdtempSync(path.join(tmpdir(), "fof-restored-"));
    let targetUrl = `file:${path.join(target, "fof.db")}`;
    if (onPostgres) {
      const name = `fof_restore_${process.pid}`;
      const admin = new pg.Client({ connectionString: sourceUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      targetUrl = sourceUrl.replace(/\/[^/]*$/, `/${name}`);
    }
    const restoreEnv = { ...process.env, DATABASE_URL: targetUrl, FOF_DATA_DIR: target };
    // A tampered backup is refused before anything is written.
    appendFileSync(path.join(backup, "data.tar.gz"), "x");
    expect(spawnSync("deploy/restore.sh", [backup], { env: restoreEnv }).status).not.toBe(0);
    expect(readdirSync(target)).toEqual([]);
    // A fresh one (the script prints its folder; never the tampered one's, even within the same second).
    const fresh = execFileSync("deploy/backup.sh", [out], { env: { ...process.env, DATABASE_URL: sourceUrl, FOF_DATA_DIR: dataDir }, encoding: "utf8" }).trim();
    expect(fresh).not.toBe(backup);
    execFileSync("deploy/restore.sh", [fresh], { env: restoreEnv });
    expect(existsSync(path.join(target, "images", "ab", "abcdef.png"))).toBe(true);

    const restored = createPrismaClient(targetUrl);
    try {
      for (const table of ["run", "query", "outcome", "benchmarkVersion", "user"] as const) {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const count = (c: any) => c[table].count() as Promise<number>;
        expect(await count(restored), table).toBe(await count(db()));
      }
    } finally {
      await restored.$disconnect();
    }
    // Restoring over existing data is refused.
    expect(spawnSync("deploy/restore.sh", [fresh], { env: restoreEnv }).status).toBe(3);
  });
});
