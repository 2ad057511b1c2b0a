// A suite's content versions: the one shipped in data/ (today's), those earlier runs pinned, and those users imported
// from files (Suite.dataImport). Runs may be planned on any of them by version; each run is scored from the version it
// was planned with. Importing the same data again finds the same version (content-addressed by sha256).
import type { PrismaClient } from "../../generated/prisma/client";
import { ensureBenchmarkVersion } from "../db/benchmark-version";
import { withContentionRetry } from "../db/retry";
import { badRequest, notFound } from "../core/errors";
import { suiteOf } from "./index";
import type { AnySuite } from "./types";

export interface ContentVersionInfo {
  version: string;
  sha256: string;
  createdAt: string;
  /** the shipped content of today's data/ */
  current: boolean;
  /** imported from files by a user (the origin the suite recorded) */
  imported: boolean;
  note: string | null;
  /** items it holds (entries, prompts …), where the suite's content says */
  items: number | null;
}

/** Reads a suite's data from files into a content version and stores it (or finds it). */
export async function importSuiteData(prisma: PrismaClient, suiteId: string, files: ReadonlyArray<{ name: string; text: string }>) {
  const suite = suiteOf(suiteId);
  if (!suite.dataImport) throw badRequest(`${suite.name} has no data import`);
  const content = suite.dataImport.read(files);
  const before = await prisma.benchmarkVersion.findUnique({ where: { sha256: content.sha256 }, select: { id: true } });
  const row = await withContentionRetry(() => ensureBenchmarkVersion(prisma, content, suite.id));
  return { version: row.version, sha256: row.sha256, created: !before, content };
}

/** The versions of a suite, newest first (today's shipped content included, stored or not). */
export async function suiteContentVersions(prisma: PrismaClient, suiteId: string): Promise<ContentVersionInfo[]> {
  const suite = suiteOf(suiteId);
  const today = suite.content();
  const rows = await prisma.benchmarkVersion.findMany({
    where: { suiteId },
    orderBy: { loadedAt: "desc" },
    take: 50,
    select: { version: true, sha256: true, loadedAt: true, contentJson: true },
  });
  const out = rows.map((r): ContentVersionInfo =>
    describe(suite, r.contentJson, { version: r.version, sha256: r.sha256, createdAt: r.loadedAt.toISOString(), current: r.sha256 === today.sha256 }),
  );
  // Not stored yet (no run planned on it): listed under the name it will get (ensureBenchmarkVersion's rule).
  if (!out.some((v) => v.current))
    out.unshift(
      describe(suite, JSON.stringify(today), { version: unstoredName(today, rows), sha256: today.sha256, createdAt: new Date().toISOString(), current: true }),
    );
  return out;
}

function describe(suite: AnySuite, json: string, base: Pick<ContentVersionInfo, "version" | "sha256" | "createdAt" | "current">): ContentVersionInfo {
  let parsed: { note?: unknown; origin?: { kind?: unknown }; entries?: unknown[]; prompts?: unknown[]; statistics?: unknown[] } = {};
  try {
    parsed = suite.parseContent(json) as typeof parsed;
  } catch {
    // an unreadable old row: listed, not launchable (createRun parses again and refuses it)
  }
  const items = parsed.entries?.length ?? parsed.prompts?.length ?? parsed.statistics?.length ?? null;
  return { ...base, imported: parsed.origin?.kind === "official", note: typeof parsed.note === "string" ? parsed.note : null, items };
}

const unstoredName = (today: { version: string; sha256: string }, rows: ReadonlyArray<{ version: string }>) =>
  rows.some((r) => r.version === today.version) ? `${today.version}#${today.sha256.slice(0, 8)}` : today.version;

/** The pinned content of a suite's version, for planning a run on it (today's shipped content under its listed name). */
export async function contentOfVersion(prisma: PrismaClient, suiteId: string, version: string) {
  const suite = suiteOf(suiteId);
  if (suite.launchContent) return suite.launchContent(prisma, version);
  const row = await prisma.benchmarkVersion.findFirst({ where: { suiteId, version }, select: { contentJson: true } });
  if (row) return suite.parseContent(row.contentJson);
  const today = suite.content();
  const rows = await prisma.benchmarkVersion.findMany({ where: { suiteId, version: today.version }, select: { version: true } });
  if (unstoredName(today, rows) === version) return today;
  throw notFound(`${suite.name} content version "${version}"`);
}
