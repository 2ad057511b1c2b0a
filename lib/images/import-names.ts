// Mapping imported files to (test, statistic, level): a documented file-naming scheme, or a manifest.
// Archive entry names are checked for path traversal ("zip slip") before anything else.
import { z } from "zod";
import { findStatistic, LEVELS, TESTS, type Level, type Test } from "../benchmark";

export class ImportNameError extends Error {}

/** Rejects absolute paths, "..", backslashes, drive letters and control characters; returns a normalised path. */
export function safeEntryName(name: string): string {
  if (!name || name.length > 500) throw new ImportNameError("empty or overlong path");
  if (/[\u0000-\u001f]/.test(name)) throw new ImportNameError("control character in path");
  if (name.includes("\\")) throw new ImportNameError("backslash in path");
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) throw new ImportNameError("absolute path");
  const parts = name.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === "..")) throw new ImportNameError("path traversal (..)");
  if (!parts.length) throw new ImportNameError("empty path");
  return parts.join("/");
}

export interface ImportTarget {
  test: Test;
  statisticId: string;
  level: Level;
}

/**
 * Naming scheme: `<test>/<statistic>/<level>/<any name>.<ext>` (folders), or a flat
 * `<test>__<statistic>__<level>__<anything>.<ext>`, where statistic is the id (crime-rate) and test/level are
 * objective|subjective and highest|lowest. Anything else is refused by name.
 */
export function targetFromName(name: string): ImportTarget {
  const clean = safeEntryName(name);
  const parts = clean.split("/");
  let fields: string[];
  if (parts.length >= 4) fields = parts.slice(-4, -1);
  else {
    const base = parts[parts.length - 1];
    fields = base.split("__").slice(0, 3);
    if (base.split("__").length < 4) throw new ImportNameError(`"${name}" does not follow <test>/<statistic>/<level>/<file> or <test>__<statistic>__<level>__<n>.<ext>`);
  }
  const [test, statistic, level] = fields;
  if (!TESTS.includes(test as Test)) throw new ImportNameError(`"${name}": unknown test "${test}" (objective or subjective)`);
  const s = findStatistic(statistic);
  if (!s || s.id !== statistic) throw new ImportNameError(`"${name}": unknown statistic id "${statistic}"`);
  if (!LEVELS.includes(level as Level)) throw new ImportNameError(`"${name}": unknown level "${level}" (highest or lowest)`);
  return { test: test as Test, statisticId: s.id, level: level as Level };
}

export const manifestSchema = z.array(
  z.object({
    file: z.string().min(1),
    test: z.enum(TESTS),
    statistic: z.string().min(1),
    level: z.enum(LEVELS),
  }),
);

/** A manifest (JSON array of {file, test, statistic, level}) → targets by normalised file name. */
export function targetsFromManifest(json: unknown): Map<string, ImportTarget> {
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw new ImportNameError(`manifest: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
  const out = new Map<string, ImportTarget>();
  for (const [i, row] of parsed.data.entries()) {
    const s = findStatistic(row.statistic);
    if (!s) throw new ImportNameError(`manifest entry ${i + 1}: unknown statistic "${row.statistic}"`);
    const file = safeEntryName(row.file);
    if (out.has(file)) throw new ImportNameError(`manifest entry ${i + 1}: "${file}" listed twice`);
    out.set(file, { test: row.test, statisticId: s.id, level: row.level });
  }
  return out;
}
