// The committed migrations describe exactly the schema: a database migrated from them and one pushed from
// prisma/schema.prisma have the same tables, columns, indexes and foreign keys.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

function schemaOf(file: string): string[] {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name != '_prisma_migrations'").all() as Array<{ type: string; name: string; sql: string }>;
  db.close();
  // Whitespace and the order of a table's clauses do not matter (ALTER TABLE … ADD COLUMN appends at the end).
  return rows
    .map((r) => {
      const sql = r.sql.replace(/\s+/g, " ").trim();
      const m = /^CREATE TABLE "([^"]+)" \((.*)\)$/.exec(sql);
      if (!m) return `${r.type} ${sql}`;
      const parts = m[2].split(/, (?=["A-Z])/).map((p) => p.trim()).sort();
      return `table ${m[1]} (${parts.join(", ")})`;
    })
    .sort();
}

describe("migrations", () => {
  it("migrate deploy and db push produce the same schema", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fof-migrations-"));
    const prisma = path.join(process.cwd(), "node_modules", ".bin", "prisma");
    const env = { ...process.env, CHECKPOINT_DISABLE: "1" };
    execFileSync(prisma, ["migrate", "deploy"], { env: { ...env, DATABASE_URL: `file:${path.join(dir, "migrated.db")}` }, stdio: "pipe" });
    // `db push` through the driver adapter reports success but does not exit (its connection stays open): wait for
    // the report, then stop it.
    await new Promise<void>((resolve, reject) => {
      const child = spawn(prisma, ["db", "push", "--skip-generate"], { env: { ...env, DATABASE_URL: `file:${path.join(dir, "pushed.db")}` } });
      let out = "";
      const timer = setTimeout(() => (child.kill("SIGKILL"), reject(new Error(`db push did not finish: ${out}`))), 45_000);
      const onData = (d: Buffer) => {
        out += d.toString();
        if (/in sync with your Prisma schema/.test(out)) {
          clearTimeout(timer);
          child.kill("SIGKILL");
          resolve();
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      child.once("exit", (code) => (code && code !== 0 ? reject(new Error(out)) : undefined));
    });
    expect(schemaOf(path.join(dir, "migrated.db"))).toEqual(schemaOf(path.join(dir, "pushed.db")));
  }, 60_000);
});
