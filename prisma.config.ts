import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

// Prisma 6.19.3's wasm schema engine replays migrations into the shadow DB with executeRaw(wholeScript);
// better-sqlite3's prepare() takes one statement only (P3006), so argument-less multi-statement executeRaw
// calls go through executeScript (db.exec).
function multiStatementSafe(factory: PrismaBetterSQLite3) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const patch = async (p: Promise<any>) => {
    const a = await p;
    const raw = a.executeRaw.bind(a);
    a.executeRaw = async (q: { sql: string; args: unknown[] }) => {
      if (q.args.length === 0 && q.sql.trim().replace(/;\s*$/, "").includes(";")) {
        await a.executeScript(q.sql);
        return 0;
      }
      return raw(q);
    };
    return a;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => patch(factory.connect()),
    connectToShadowDb: () => patch(factory.connectToShadowDb()),
  } as unknown as PrismaBetterSQLite3;
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js", // wasm schema engine shipped inside the prisma npm package: no binaries CDN
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  async adapter() {
    // DATABASE_URL is set by scripts/migrate.mjs from FOF_DATA_DIR; the fallback serves `prisma migrate dev`.
    return multiStatementSafe(new PrismaBetterSQLite3({ url: process.env.DATABASE_URL ?? "file:./storage/fof.db" }, { shadowDatabaseUrl: ":memory:" }));
  },
});
