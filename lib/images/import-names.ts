// Mapping imported files to (test, statistic, level): a documented file-naming scheme, or a manifest.
// Archive entry names are checked for path traversal ("zip slip") before anything else.
// Pure and client-safe (the Import page previews the mapping in the browser with the same code): the statistic ids
// are passed in, this module never loads the benchmark.
import { z } from "zod";
import { LEVELS, TESTS, type Level, type Test } from "../benchmark/labels";

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
export function targetFromName(name: string, statisticIds: ReadonlySet<string>): ImportTarget {
  const clean = safeEntryName(name);
  const parts = clean.split("/");
  let fields: string[];
  if (parts.length >= 4) fields = parts.slice(-4, -1);
  else {
    const base = parts[parts.length - 1];
    fields = base.split("__").slice(0, 3);
    if (base.split("__").length < 4)
      throw new ImportNameError(`"${name}" does not follow <test>/<statistic>/<level>/<file> or <test>__<statistic>__<level>__<n>.<ext>`);
  }
  const [test, statistic, level] = fields;
  if (!TESTS.includes(test as Test)) throw new ImportNameError(`"${name}": unknown test "${test}" (objective or subjective)`);
  if (!statisticIds.has(statistic)) throw new ImportNameError(`"${name}": unknown statistic id "${statistic}"`);
  if (!LEVELS.includes(level as Level)) throw new ImportNameError(`"${name}": unknown level "${level}" (highest or lowest)`);
  return { test: test as Test, statisticId: statistic, level: level as Level };
}

const manifestSchema = z.array(
  z.object({
    file: z.string().min(1),
    test: z.enum(TESTS),
    statistic: z.string().min(1),
    level: z.enum(LEVELS),
  }),
);

/**
 * A manifest (JSON array of {file, test, statistic, level}) → targets by normalised file name. `resolveStatistic`
 * turns an id or exact name into the id (undefined when unknown).
 */
export function targetsFromManifest(json: unknown, resolveStatistic: (idOrName: string) => string | undefined): Map<string, ImportTarget> {
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw new ImportNameError(`manifest: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
  const out = new Map<string, ImportTarget>();
  for (const [i, row] of parsed.data.entries()) {
    const id = resolveStatistic(row.statistic);
    if (!id) throw new ImportNameError(`manifest entry ${i + 1}: unknown statistic "${row.statistic}"`);
    const file = safeEntryName(row.file);
    if (out.has(file)) throw new ImportNameError(`manifest entry ${i + 1}: "${file}" listed twice`);
    out.set(file, { test: row.test, statisticId: id, level: row.level });
  }
  return out;
}

export interface ImportProblem {
  name: string;
  message: string;
}

export interface StatisticResolver {
  ids: ReadonlySet<string>;
  resolve(idOrName: string): string | undefined;
}

export const MANIFEST_NAME = "manifest.json";

/** Why an entry is not an image to import (archive clutter), or null. */
export function clutterReason(name: string): string | null {
  if (name.endsWith("/")) return "folder";
  if (name.startsWith("__MACOSX/") || name.includes("/__MACOSX/")) return "macOS archive metadata";
  const base = name.split("/").pop() ?? name;
  if (base.startsWith(".")) return "hidden file";
  if (base === "Thumbs.db" || base === "desktop.ini") return "system file";
  return null;
}

/** Where an imported file goes in a suite other than FACT-OR-FAIR: the suite's coordinates of a planned row. */
interface SuiteImportTarget {
  test: string;
  statisticId: string;
  level: string;
}

/** A suite's naming rule: a file's path → its target (throws ImportNameError with the reason). */
export interface SuiteNameMapper {
  naming: string;
  target(name: string): SuiteImportTarget;
}

/** Maps every uploaded name by a suite's rule: clutter is skipped, names the rule refuses are problems. */
export function mapSuiteNames(names: readonly string[], mapper: SuiteNameMapper): NameMapping {
  const problems: ImportProblem[] = [];
  const skipped: ImportProblem[] = [];
  const targets = new Map<string, ImportTarget>();
  for (const n of names) {
    const why = clutterReason(n);
    if (why) {
      skipped.push({ name: n, message: why });
      continue;
    }
    try {
      // A suite's targets share the columns of FACT-OR-FAIR's, with the suite's own values in them.
      targets.set(n, mapper.target(safeEntryName(n)) as unknown as ImportTarget);
    } catch (e) {
      if (!(e instanceof ImportNameError)) throw e;
      problems.push({ name: n, message: e.message });
    }
  }
  return { targets, problems, skipped, mappedBy: "file names" };
}

export interface NameMapping {
  /** image name → target, in upload order */
  targets: Map<string, ImportTarget>;
  problems: ImportProblem[];
  skipped: ImportProblem[];
  mappedBy: "manifest" | "file names";
}

/**
 * Maps every uploaded name: clutter is skipped (and reported), manifest.json wins when present (every image listed,
 * every listed file present), else the naming scheme. Shared by the server's import and the browser's preview.
 */
export function mapImportNames(names: readonly string[], readManifest: (name: string) => string, statistics: StatisticResolver): NameMapping {
  const problems: ImportProblem[] = [];
  const skipped: ImportProblem[] = [];
  const targets = new Map<string, ImportTarget>();
  const files: string[] = [];
  for (const n of names) {
    const why = clutterReason(n);
    if (why) skipped.push({ name: n, message: why });
    else files.push(n);
  }
  const manifests = files.filter((f) => f === MANIFEST_NAME || f.endsWith(`/${MANIFEST_NAME}`));
  let byManifest: Map<string, ImportTarget> | null = null;
  let manifestDir = "";
  if (manifests.length > 1) problems.push({ name: manifests.join(", "), message: "more than one manifest.json" });
  else if (manifests.length === 1) {
    manifestDir = manifests[0].slice(0, -MANIFEST_NAME.length);
    try {
      byManifest = targetsFromManifest(JSON.parse(readManifest(manifests[0])), (s) => statistics.resolve(s));
    } catch (e) {
      problems.push({ name: manifests[0], message: e instanceof SyntaxError ? `not valid JSON: ${e.message}` : (e as Error).message });
    }
  }
  const listed = new Set<string>();
  for (const name of files) {
    if (manifests.includes(name)) continue;
    try {
      if (manifests.length) {
        if (!byManifest) continue; // the manifest's own problem is reported once
        const rel = name.startsWith(manifestDir) ? name.slice(manifestDir.length) : name;
        const t = byManifest.get(rel);
        if (!t) throw new ImportNameError(`not listed in ${manifests[0]}`);
        listed.add(rel);
        targets.set(name, t);
      } else targets.set(name, targetFromName(name, statistics.ids));
    } catch (e) {
      if (!(e instanceof ImportNameError)) throw e;
      problems.push({ name, message: e.message.replace(`"${name}": `, "") });
    }
  }
  if (byManifest) for (const name of byManifest.keys()) if (!listed.has(name)) problems.push({ name, message: "listed in the manifest but not uploaded" });
  return { targets, problems, skipped, mappedBy: byManifest ? "manifest" : "file names" };
}
