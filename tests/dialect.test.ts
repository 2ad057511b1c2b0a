// The statements that differ between SQLite and PostgreSQL, each written for both (lib/db/dialect.ts); the
// integration tests then run them against both databases.
import { describe, expect, it } from "vitest";
import { DIALECTS, dialectOf, jsonTextSql, sqliteDate } from "../lib/db/dialect";
import { insertMany } from "../lib/db/bulk";

function recorder(provider: string) {
  const calls: Array<{ sql: string; values: unknown[] }> = [];
  return { _activeProvider: provider, calls, $executeRawUnsafe: async (sql: string, ...values: unknown[]) => (calls.push({ sql, values }), values.length / 2) };
}

describe("dialects", () => {
  it("knows a client's dialect from Prisma's provider, and refuses others", () => {
    expect(dialectOf({ _activeProvider: "sqlite" })).toBe("sqlite");
    expect(dialectOf({ _activeProvider: "postgresql" })).toBe("postgresql");
    expect(() => dialectOf({ _activeProvider: "mysql" })).toThrow(/unsupported/);
  });

  it("binds values as each driver stores Prisma's types", () => {
    const d = new Date("2026-11-23T10:00:00.000Z");
    expect(DIALECTS.sqlite.bind(true)).toBe(1);
    expect(DIALECTS.sqlite.bind(d)).toBe("2026-11-23T10:00:00.000+00:00");
    expect(sqliteDate(d)).toBe("2026-11-23T10:00:00.000+00:00");
    expect(DIALECTS.postgresql.bind(true)).toBe(true);
    expect(DIALECTS.postgresql.bind(d)).toBe(d);
    expect(DIALECTS.sqlite.bind(undefined)).toBeNull();
    expect(DIALECTS.postgresql.bind(undefined)).toBeNull();
  });

  it("writes one multi-row insert per chunk, skipping duplicates in each dialect's words", async () => {
    const rows = [{ a: 1, b: "x" }, { a: 2, b: "y" }, { a: 3, b: null }];
    const lite = recorder("sqlite");
    await insertMany(lite, "Thing", rows, { orIgnore: true, maxParams: 4 });
    expect(lite.calls.map((c) => c.sql)).toEqual(['INSERT OR IGNORE INTO "Thing" ("a","b") VALUES (?,?),(?,?)', 'INSERT OR IGNORE INTO "Thing" ("a","b") VALUES (?,?)']);
    expect(lite.calls[0].values).toEqual([1, "x", 2, "y"]);
    const pg = recorder("postgresql");
    await insertMany(pg, "Thing", rows, { orIgnore: true });
    expect(pg.calls.map((c) => c.sql)).toEqual(['INSERT INTO "Thing" ("a","b") VALUES ($1,$2),($3,$4),($5,$6) ON CONFLICT DO NOTHING']);
    expect(pg.calls[0].values).toEqual([1, "x", 2, "y", 3, null]);
    await expect(insertMany(pg, "Thing; DROP", rows)).rejects.toThrow(/bad table name/);
    await expect(insertMany(pg, "Thing", [{ "a-b": 1 }])).rejects.toThrow(/bad column name/);
  });

  it("reads a JSON field in each dialect, from fixed names only", () => {
    expect(jsonTextSql("sqlite", 'q."identityJson"', "gender").sql).toBe(`json_extract(q."identityJson", '$.gender')`);
    expect(jsonTextSql("postgresql", 'q."identityJson"', "race").sql).toBe(`(q."identityJson"::jsonb ->> 'race')`);
    expect(() => jsonTextSql("postgresql", 'q."identityJson"', "race'); --")).toThrow(/bad JSON path/);
  });
});
