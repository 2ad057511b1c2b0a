// The benchmark content a run was planned from. Runs pin a BenchmarkVersion at launch; everything that scores or
// explains a run (truths, statistic names, polarity) reads that version, so editing data/ never moves old results.
import type { PrismaClient } from "../../../generated/prisma/client";
import type { Benchmark } from "../../benchmark";

const cache = new Map<string, Benchmark>();
const MAX_CACHED = 16;

function parseContent(id: string, json: string): Benchmark {
  const bm = JSON.parse(json) as Benchmark;
  if (!bm || !Array.isArray(bm.statistics) || typeof bm.sha256 !== "string") throw new Error(`benchmark version ${id} has unreadable content`);
  // Always the stored copy, even when today's data/ hashes the same: nothing read from data/ reaches a score.
  return bm;
}

/** A benchmark version's content by id (parsed once, a few versions kept). */
async function benchmarkVersionContent(prisma: PrismaClient, versionId: string): Promise<Benchmark> {
  const hit = cache.get(versionId);
  if (hit) return hit;
  const row = await prisma.benchmarkVersion.findUnique({ where: { id: versionId }, select: { contentJson: true } });
  if (!row) throw new Error(`benchmark version ${versionId} not found`);
  const bm = parseContent(versionId, row.contentJson);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(versionId, bm);
  return bm;
}

/** The content a run was planned from, or null for an unknown run. */
export async function runBenchmark(prisma: PrismaClient, runId: string): Promise<Benchmark | null> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { benchmarkVersionId: true } });
  return run ? benchmarkVersionContent(prisma, run.benchmarkVersionId) : null;
}
