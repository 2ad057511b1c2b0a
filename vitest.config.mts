import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    pool: "forks",
    // On PostgreSQL runs (scripts/test-all.mjs), a fresh database per test file.
    setupFiles: ["tests/helpers/pg-database.ts", "tests/helpers/outbound.ts"],
  },
});
