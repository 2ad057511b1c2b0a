// A suite's content pinned by its sha256 (BenchmarkVersion): what runs are planned and scored from.
import { benchmark } from "../benchmark";
import type { PrismaClient } from "../../generated/prisma/client";

/**
 * Records a suite's content (FACT-OR-FAIR's data/ by default) as a BenchmarkVersion (idempotent: keyed by its sha256), so runs can pin
 * the exact content they were planned from.
 */
export async function ensureBenchmarkVersion(prisma: PrismaClient, bm: { version: string; sha256: string } = benchmark, suiteId = "fact-or-fair") {
  const benchmark = bm;
  const existing = await prisma.benchmarkVersion.findUnique({ where: { sha256: benchmark.sha256 } });
  if (existing) return existing;
  let version = benchmark.version;
  // data/ edited without a version bump: keep both, suffixed by the content hash.
  if (await prisma.benchmarkVersion.findUnique({ where: { version } })) version = `${version}#${benchmark.sha256.slice(0, 8)}`;
  return prisma.benchmarkVersion.create({
    data: { suiteId, version, sha256: benchmark.sha256, contentJson: JSON.stringify(benchmark) },
  });
}
