import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    // Time limits catch hangs, not slowness: generous enough for a busy 2-core CI machine (speed is measured by the
    // benchmarks, docs/BENCHMARKS.md). A hook that migrates a database or starts an emulator gets the same.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One more than the cores: files spend much of their time waiting on child processes, sockets and timers (their
    // workers were idle 947 of 1,491 s on a 2-core machine), so with one file per core a core sat idle ~18 % of the
    // time. With 3 files on 2 cores the SQLite pass took 344 s against 399 s (the same tests, back to back).
    maxWorkers: availableParallelism() + 1,
    // On SQLite, one database migrated for the whole run and copied into each file's data directory.
    globalSetup: ["tests/helpers/global-setup.ts"],
    // On PostgreSQL runs (scripts/test-all.mjs), a fresh database per test file.
    setupFiles: ["tests/helpers/pg-database.ts", "tests/helpers/outbound.ts"],
  },
});
