// The browser verifier's re-scorer (bundled by scripts/build-verifier.mjs into public/verifier/rescore.js, loaded by
// components/evidence/verify.worker.ts once a bundle's signature, files and completeness hold): an empty SQLite
// database in WebAssembly (sql.js) given the committed migrations, the bundle's rows inserted as `fof verify` inserts
// them, and the server's own scoring function run on it through Prisma (its edge client, over ./sqljs-adapter).
import initSqlJs from "sql.js";
import migrations from "fof:migrations";
import { PrismaClient } from "../../../generated/prisma/client";
import { sqlJsAdapter } from "../../evidence/browser/sqljs-adapter";
import { rescoreEntries } from "./rescore-entries";

export async function rescore(
  entries: Record<string, Uint8Array>,
  /** sql.js's WebAssembly: its URL (the browser), or its bytes (a test running this bundle under Node) */
  opts: { wasmUrl?: string; wasmBinary?: Uint8Array; progress?: (step: string) => void },
): ReturnType<typeof rescoreEntries> {
  const SQL = await initSqlJs(opts.wasmBinary ? { wasmBinary: opts.wasmBinary as unknown as ArrayBuffer } : { locateFile: () => opts.wasmUrl ?? "" });
  const db = new SQL.Database();
  for (const m of migrations) db.exec(m);
  const prisma = new PrismaClient({ adapter: sqlJsAdapter(db) });
  try {
    return await rescoreEntries(prisma, entries, opts.progress);
  } finally {
    await prisma.$disconnect();
  }
}
