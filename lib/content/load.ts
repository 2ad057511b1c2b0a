// Reads a content-set folder: content.json (the declaration; its statistics may live there), and optionally
// statistics.csv and scenarios.csv for the tables a team keeps in a spreadsheet. Every file's size is checked before
// it is read, content.json's nesting before it is parsed, and a CSV cell that a spreadsheet would run as a formula
// (=, +, @, a tab or a carriage return first) is refused — the file is hostile until it validates.
import { open, readdir } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { CONTENT_LIMITS } from "./limits";
import { ContentError, type ContentIssue } from "./issues";
import { JSON_ORIGINS, validateContent, type Origins } from "./validate";
import type { ContentSetInput } from "./schema";
import { statisticsFromCsv, scenariosFromCsv } from "./csv";

const CONTENT_FILES = ["content.json", "statistics.csv", "scenarios.csv"] as const;

async function readBounded(file: string, name: string): Promise<string> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    if (size > CONTENT_LIMITS.fileBytes)
      throw new ContentError([{ file: name, row: null, field: "(file)", message: `${size} bytes: at most ${CONTENT_LIMITS.fileBytes}` }]);
    const text = (await handle.readFile()).toString("utf8");
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } finally {
    await handle.close();
  }
}

/** The deepest nesting of a JSON text, counted outside strings without parsing it. */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") max = Math.max(max, ++depth);
    else if (c === "}" || c === "]") depth--;
  }
  return max;
}

function parseContentJson(text: string, name = "content.json"): unknown {
  if (jsonDepth(text) > CONTENT_LIMITS.jsonDepth)
    throw new ContentError([{ file: name, row: null, field: "(file)", message: `nested deeper than ${CONTENT_LIMITS.jsonDepth} levels` }]);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ContentError([{ file: name, row: null, field: "(file)", message: `not JSON: ${(e as Error).message}` }]);
  }
}

function parseCsv(text: string, name: string): Array<Record<string, string>> {
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, trim: true, to: CONTENT_LIMITS.csvRows + 1 });
  } catch (e) {
    throw new ContentError([{ file: name, row: null, field: "(file)", message: `not CSV: ${(e as Error).message}` }]);
  }
  if (rows.length > CONTENT_LIMITS.csvRows)
    throw new ContentError([{ file: name, row: null, field: "(file)", message: `more than ${CONTENT_LIMITS.csvRows} rows` }]);
  const issues: ContentIssue[] = [];
  rows.forEach((r, i) => {
    for (const [field, v] of Object.entries(r))
      if (/^[=+@\t\r]/.test(v)) issues.push({ file: name, row: i + 2, field, message: "starts like a spreadsheet formula (=, +, @): refused" });
  });
  if (issues.length) throw new ContentError(issues);
  return rows;
}

export interface LoadedContent {
  set: ContentSetInput;
  files: Record<string, string>;
}

/** Reads and validates a folder; throws ContentError with every issue found (nothing is stored here). */
export async function loadContentFolder(dir: string, opts: { preset?: string } = {}): Promise<LoadedContent> {
  const present = new Set(await readdir(dir));
  if (!present.has("content.json")) throw new ContentError([{ file: "content.json", row: null, field: "(file)", message: `missing from ${dir}` }]);
  const files: Record<string, string> = {};
  for (const name of CONTENT_FILES) if (present.has(name)) files[name] = await readBounded(path.join(dir, name), name);
  return contentFromFiles(files, opts);
}

/** The same check on files already in memory (an upload in the browser). */
export function contentFromFiles(files: Record<string, string>, opts: { preset?: string } = {}): LoadedContent {
  const raw = parseContentJson(files["content.json"]) as Record<string, unknown>;
  let origins: Origins = JSON_ORIGINS("content.json");
  if (files["statistics.csv"] !== undefined) {
    if (raw && typeof raw === "object" && "statistics" in raw)
      throw new ContentError([
        { file: "content.json", row: null, field: "statistics", message: "statistics are given both here and in statistics.csv: keep one" },
      ]);
    const attributes = Array.isArray(raw?.attributes) ? (raw.attributes as Array<{ id?: unknown }>).map((a) => String(a?.id)) : [];
    const fromCsv = statisticsFromCsv(parseCsv(files["statistics.csv"], "statistics.csv"), attributes);
    raw.statistics = fromCsv.statistics;
    origins = fromCsv.origins;
  }
  if (files["scenarios.csv"] !== undefined) {
    const statistics = Array.isArray(raw?.statistics) ? (raw.statistics as Array<Record<string, unknown>>) : [];
    origins = scenariosFromCsv(parseCsv(files["scenarios.csv"], "scenarios.csv"), statistics, origins);
  }
  const result = validateContent(raw, "content.json", origins, opts);
  if (!result.ok) throw new ContentError(result.issues);
  return { set: result.set, files };
}
