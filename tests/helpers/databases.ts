// Which database a test file runs on. `npm test` runs every file on SQLite, then the integration tests again on
// PostgreSQL (scripts/test-postgres.ts). The second pass is for what depends on the database — claims, leases,
// locks, SQL aggregates, transactions — so a test whose cost is elsewhere (model inference in a child process, a CLI
// that brings its own embedded database, a deployment unit, an upload's worker thread) and whose SQL another test
// already covers on PostgreSQL is marked `it.skipIf(sqliteOnly)`, with the covering test named beside it.

/** True on the PostgreSQL pass: a test skipped with it runs once, on SQLite. */
export const sqliteOnly = !!process.env.DATABASE_URL?.startsWith("postgres");
