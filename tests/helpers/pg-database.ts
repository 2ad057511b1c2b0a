// Vitest setup (every test file): with FOF_TEST_PG_ADMIN_URL (set by scripts/test-all.mjs when it started a
// throwaway PostgreSQL cluster), each test file gets its own fresh database and DATABASE_URL points at it, so the
// same integration tests run on PostgreSQL. Without it, nothing changes: the files use their SQLite files.
// FOF_TEST_PG_TEMPLATE names a database already migrated and seeded (migrating through Prisma's wasm engine takes
// ~10 s): each file's database is a copy of it.
import pg from "pg";

const admin = process.env.FOF_TEST_PG_ADMIN_URL;
if (admin && !process.env.DATABASE_URL) {
  const name = `fof_t_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  const template = process.env.FOF_TEST_PG_TEMPLATE;
  await client.query(`CREATE DATABASE ${name}${template && /^[a-z0-9_]+$/.test(template) ? ` TEMPLATE ${template}` : ""}`);
  await client.end();
  process.env.DATABASE_URL = admin.replace(/\/[^/]*$/, `/${name}`);
}
