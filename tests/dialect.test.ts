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

  it("writes one insert per chunk of rows, the rows as one JSON parameter, skipping duplicates in each dialect's words", async () => {
    const d = new Date("2026-11-23T10:00:00.000Z");
    const rows = [
      { a: 1, b: "x", c: true, t: d },
      { a: 2, b: "y", c: false, t: d },
      { a: 3, b: null, c: null, t: null },
    ];
    const lite = recorder("sqlite");
    await insertMany(lite, "Thing", rows, { orIgnore: true, maxRows: 2 });
    expect(lite.calls.map((c) => c.sql)).toEqual(
      Array(2).fill(
        `INSERT OR IGNORE INTO "Thing" ("a","b","c","t") SELECT json_extract("value", '$[0]'),json_extract("value", '$[1]'),json_extract("value", '$[2]'),json_extract("value", '$[3]') FROM json_each(?) ORDER BY "key"`,
      ),
    );
    expect(lite.calls.map((c) => c.values)).toEqual([
      [
        JSON.stringify([
          [1, "x", 1, "2026-11-23T10:00:00.000+00:00"],
          [2, "y", 0, "2026-11-23T10:00:00.000+00:00"],
        ]),
      ],
      [JSON.stringify([[3, null, null, null]])],
    ]);
    const pg = recorder("postgresql");
    await insertMany(pg, "Thing", rows, { orIgnore: true });
    expect(pg.calls.map((c) => c.sql)).toEqual([
      `INSERT INTO "Thing" ("a","b","c","t") SELECT r."a",r."b",r."c",r."t" FROM json_populate_recordset(NULL::"Thing", $1::json) WITH ORDINALITY AS r ORDER BY r."ordinality" ON CONFLICT DO NOTHING`,
    ]);
    expect(JSON.parse(pg.calls[0].values[0] as string)).toEqual([
      { a: 1, b: "x", c: true, t: "2026-11-23T10:00:00.000Z" },
      { a: 2, b: "y", c: false, t: "2026-11-23T10:00:00.000Z" },
      { a: 3, b: null, c: null, t: null },
    ]);
    await expect(insertMany(pg, "Thing; DROP", rows)).rejects.toThrow(/bad table name/);
    await expect(insertMany(pg, "Thing", [{ "a-b": 1 }])).rejects.toThrow(/bad column name/);
  });

  it("reads a JSON field in each dialect, from fixed names only", () => {
    expect(jsonTextSql("sqlite", 'q."identityJson"', "gender").sql).toBe(`json_extract(q."identityJson", '$.gender')`);
    expect(jsonTextSql("postgresql", 'q."identityJson"', "race").sql).toBe(`(q."identityJson"::jsonb ->> 'race')`);
    expect(() => jsonTextSql("postgresql", 'q."identityJson"', "race'); --")).toThrow(/bad JSON path/);
  });
});
