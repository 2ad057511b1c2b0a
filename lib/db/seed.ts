import { DEFAULT_BASELINES, ensureBaselineModel } from "../engine/runs";
import type { PrismaClient } from "../../generated/prisma/client";
import { ensureBenchmarkVersion } from "./benchmark-version";

export async function seed(prisma: PrismaClient) {
  const version = await ensureBenchmarkVersion(prisma);
  for (const slug of DEFAULT_BASELINES) await ensureBaselineModel(prisma, slug);
  return { benchmarkVersion: version.version };
}
