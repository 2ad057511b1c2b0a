// Prisma CLI configuration for PostgreSQL (the second supported database): the generated schema in
// prisma/postgresql/ and its migrations, through the pg driver adapter (Prisma 6.19's wasm schema engine: no binaries).
// Used by scripts/db-schemas.ts to write migrations, and by lib/db/migrate.ts to apply them.
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// Prisma 6.19's schema engine reads catalog columns of PostgreSQL's internal types ("char", name, int2vector,
// regproc, oidvector, pg_node_tree, regclass …), which adapter-pg does not map (prisma/orm#27403): present them as
// text (OID 25) and their arrays as text[] (1009). Only catalog queries return these; the app's tables never do.
const CATALOG_TEXT = new Set([18, 19, 22, 24, 30, 194, 2205, 3361, 3402, 5017]);
const CATALOG_TEXT_ARRAYS = new Set([1002, 1003, 1006, 1008, 1013, 2210]);
function migrateSafe(factory: PrismaPg) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const patch = (q: any) => {
    const io = q.performIO.bind(q);
    q.performIO = async (query: unknown) => {
      const res = await io(query);
      for (const f of res?.fields ?? []) f.dataTypeID = CATALOG_TEXT.has(f.dataTypeID) ? 25 : CATALOG_TEXT_ARRAYS.has(f.dataTypeID) ? 1009 : f.dataTypeID;
      return res;
    };
    // Migrate replays whole migration scripts through executeRaw, which pg runs as one prepared statement (one
    // statement only): argument-less multi-statement scripts go through executeScript (the simple protocol).
    if (q.executeScript) {
      const raw = q.executeRaw.bind(q);
      q.executeRaw = async (query: { sql: string; args: unknown[] }) => {
        if (query.args.length === 0 && query.sql.trim().replace(/;\s*$/, "").includes(";")) {
          await q.executeScript(query.sql);
          return 0;
        }
        return raw(query);
      };
    }
    const start = q.startTransaction?.bind(q);
    if (start) q.startTransaction = async (...a: unknown[]) => patch(await start(...a));
    return q;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => patch(await factory.connect()),
    // adapter-pg's own shadow database keeps the connection string's database name (it connects to the main
    // database): make one beside it, connect to it by URL, drop it when Migrate is done.
    connectToShadowDb: async () => {
      const main = await factory.connect();
      const name = `prisma_shadow_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
      await main.executeScript(`CREATE DATABASE "${name}"`);
      const url = new URL(process.env.DATABASE_URL ?? "");
      url.pathname = `/${name}`;
      const shadow = patch(await new PrismaPg({ connectionString: url.toString() }).connect());
      const dispose = shadow.dispose.bind(shadow);
      shadow.dispose = async () => {
        await dispose();
        await main.executeScript(`DROP DATABASE IF EXISTS "${name}"`);
        await main.dispose();
      };
      return shadow;
    },
  } as unknown as PrismaPg;
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/postgresql/schema.prisma",
  migrations: { path: "prisma/postgresql/migrations" },
  async adapter() {
    return migrateSafe(new PrismaPg({ connectionString: process.env.DATABASE_URL }));
  },
});
