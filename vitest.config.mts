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
    // Every core: most files spend their time waiting on child processes, sockets and timers, not on the CPU.
    maxWorkers: Math.max(2, availableParallelism()),
    // On SQLite, one database migrated for the whole run and copied into each file's data directory.
    globalSetup: ["tests/helpers/global-setup.ts"],
    // On PostgreSQL runs (scripts/test-all.mjs), a fresh database per test file.
    setupFiles: ["tests/helpers/pg-database.ts", "tests/helpers/outbound.ts"],
  },
});
