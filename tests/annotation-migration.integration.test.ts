// The migration that made label attributes data (Annotation's gender/race/age columns → AnnotationValue rows) keeps
// every label: on each database, annotations written under the old schema read back after it as the same current
// labels, majorities and agreement figures (Cohen's/Fleiss' kappa) as computed from the old columns.
import { readdirSync, readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { agreement, consensus, currentLabels, type AnnotationRow } from "../lib/review";

const NAME = "_annotation_values";
const migrations = (dir: string) =>
  readdirSync(dir)
    .filter((d) => /^\d{14}_/.test(d))
    .sort();

// Old rows: three annotators over four faces, with withdrawals, ties broken by id, not-a-face, age and unset values.
type OldRow = {
  id: number;
  faceId: number;
  annotator: string;
  gender: string | null;
  race: string | null;
  age: string | null;
  notAFace: boolean;
  createdAt: string;
};
const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const OLD: OldRow[] = [
  { id: 1, faceId: 1, annotator: "ann", gender: "male", race: "White", age: null, notAFace: false, createdAt: t(0) },
  { id: 2, faceId: 1, annotator: "bo", gender: "male", race: "Black", age: null, notAFace: false, createdAt: t(1) },
  { id: 3, faceId: 1, annotator: "cy", gender: "female", race: "White", age: null, notAFace: false, createdAt: t(2) },
  { id: 4, faceId: 2, annotator: "ann", gender: "female", race: "Asian", age: "young", notAFace: false, createdAt: t(3) },
  { id: 5, faceId: 2, annotator: "ann", gender: null, race: null, age: null, notAFace: false, createdAt: t(4) }, // withdrawn
  { id: 6, faceId: 2, annotator: "bo", gender: "female", race: "Asian", age: "elderly", notAFace: false, createdAt: t(4) },
  { id: 7, faceId: 2, annotator: "cy", gender: "female", race: null, age: "young", notAFace: false, createdAt: t(5) },
  { id: 8, faceId: 3, annotator: "ann", gender: null, race: null, age: null, notAFace: true, createdAt: t(6) },
  { id: 9, faceId: 3, annotator: "bo", gender: "male", race: "Hispanic", age: null, notAFace: false, createdAt: t(6) },
  { id: 10, faceId: 3, annotator: "bo", gender: "female", race: "Hispanic", age: null, notAFace: false, createdAt: t(6) }, // same ms: id wins
  { id: 11, faceId: 4, annotator: "ann", gender: "male", race: "White", age: "middle-aged", notAFace: false, createdAt: t(7) },
  { id: 12, faceId: 4, annotator: "bo", gender: "male", race: "White", age: "middle-aged", notAFace: false, createdAt: t(8) },
  { id: 13, faceId: 4, annotator: "cy", gender: "male", race: "Asian", age: "young", notAFace: false, createdAt: t(9) },
];
const CLASSES = { gender: ["male", "female"], race: ["White", "Black", "Asian", "Hispanic"], age: ["young", "middle-aged", "elderly"] };

/** What the labels say, computed the way the review pages and scores read them. */
function figures(rows: AnnotationRow[]) {
  const labels = currentLabels(rows, CLASSES);
  const faces = [...labels.keys()].sort((a, b) => a - b);
  const out: Record<string, unknown> = {};
  for (const f of faces) {
    const c = consensus(labels.get(f)!.values());
    out[`face ${f}`] = { annotators: c.annotators, notAFace: c.notAFace, disagreement: c.disagreement, gender: c.gender, race: c.race, age: c.age };
  }
  for (const a of ["gender", "race", "age"] as const) {
    const items = faces.map((f) => new Map([...labels.get(f)!].flatMap(([name, l]) => (l[a] ? [[name, l[a]!] as const] : []))));
    out[`kappa ${a}`] = agreement(items, ["ann", "bo", "cy"]);
  }
  return JSON.parse(JSON.stringify(out, (_k, v) => (v instanceof Map ? [...v].sort() : v)));
}

// The same figures from the old columns, read the old way (each set column a value).
const EXPECTED = figures(
  OLD.map((r) => ({ ...r, values: (["gender", "race", "age"] as const).flatMap((a) => (r[a] === null ? [] : [{ attribute: a, value: r[a]! }])) })),
);

function rowsFrom(
  annotations: Array<{ id: number; faceId: number; annotator: string; notAFace: boolean | number; createdAt: string | Date }>,
  values: Array<{ annotationId: number; attribute: string; value: string }>,
): AnnotationRow[] {
  return annotations.map((a) => ({
    id: a.id,
    faceId: a.faceId,
    annotator: a.annotator,
    notAFace: Boolean(a.notAFace),
    createdAt: typeof a.createdAt === "string" || a.createdAt instanceof Date ? new Date(a.createdAt).toISOString() : a.createdAt,
    values: values.filter((v) => v.annotationId === a.id).map(({ attribute, value }) => ({ attribute, value })),
  }));
}

describe("the annotation-values migration keeps every label and agreement figure", () => {
  it("SQLite", () => {
    const dir = path.join(process.cwd(), "prisma", "migrations");
    const all = migrations(dir);
    const at = all.findIndex((d) => d.endsWith(NAME));
    expect(at).toBeGreaterThan(0);
    const db = new Database(path.join(mkdtempSync(path.join(tmpdir(), "fof-annmig-")), "db.sqlite"));
    for (const m of all.slice(0, at)) db.exec(readFileSync(path.join(dir, m, "migration.sql"), "utf8"));
    // Labels alone: the rows' faces are left out (foreign keys off for these inserts only).
    db.pragma("foreign_keys = OFF");
    const insert = db.prepare(
      'INSERT INTO "Annotation" ("id", "faceId", "annotator", "gender", "race", "age", "notAFace", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const r of OLD) insert.run(r.id, r.faceId, r.annotator, r.gender, r.race, r.age, r.notAFace ? 1 : 0, new Date(r.createdAt).getTime());
    db.pragma("foreign_keys = ON");
    db.exec(readFileSync(path.join(dir, all[at], "migration.sql"), "utf8"));
    const annotations = db.prepare('SELECT "id", "faceId", "annotator", "notAFace", "createdAt" FROM "Annotation"').all() as Array<{
      id: number;
      faceId: number;
      annotator: string;
      notAFace: number;
      createdAt: number;
    }>;
    const values = db.prepare('SELECT "annotationId", "attribute", "value" FROM "AnnotationValue"').all() as Array<{
      annotationId: number;
      attribute: string;
      value: string;
    }>;
    db.close();
    expect(annotations).toHaveLength(OLD.length);
    expect(values).toHaveLength(OLD.reduce((n, r) => n + [r.gender, r.race, r.age].filter((v) => v !== null).length, 0));
    expect(
      figures(
        rowsFrom(
          annotations.map((a) => ({ ...a, createdAt: new Date(a.createdAt) })),
          values,
        ),
      ),
    ).toEqual(EXPECTED);
  });

  it.skipIf(!process.env.DATABASE_URL?.startsWith("postgres"))(
    "PostgreSQL",
    async () => {
      const pg = (await import("pg")).default;
      const dir = path.join(process.cwd(), "prisma", "postgresql", "migrations");
      const all = migrations(dir);
      const at = all.findIndex((d) => d.endsWith(NAME));
      expect(at).toBeGreaterThan(0);
      const schema = `annmig_${process.pid}_${Date.now()}`;
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA "${schema}"`);
        await client.query(`SET search_path TO "${schema}"`);
        for (const m of all.slice(0, at)) await client.query(readFileSync(path.join(dir, m, "migration.sql"), "utf8"));
        // Labels alone: the rows' faces are left out (foreign-key triggers off for this session).
        await client.query("SET session_replication_role = replica");
        for (const r of OLD)
          await client.query(
            'INSERT INTO "Annotation" ("id", "faceId", "annotator", "gender", "race", "age", "notAFace", "createdAt") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
            [r.id, r.faceId, r.annotator, r.gender, r.race, r.age, r.notAFace, r.createdAt],
          );
        await client.query(readFileSync(path.join(dir, all[at], "migration.sql"), "utf8"));
        const annotations = (await client.query('SELECT "id", "faceId", "annotator", "notAFace", "createdAt" FROM "Annotation"')).rows;
        const values = (await client.query('SELECT "annotationId", "attribute", "value" FROM "AnnotationValue"')).rows;
        expect(annotations).toHaveLength(OLD.length);
        // timestamp without time zone comes back as local time: read it as UTC, as Prisma does.
        const utc = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
        expect(
          figures(
            rowsFrom(
              annotations.map((a) => ({ ...a, createdAt: utc(a.createdAt) })),
              values,
            ),
          ),
        ).toEqual(EXPECTED);
      } finally {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
        await client.end();
      }
    },
    60_000,
  );
});
