// The rows a fresh database starts with: today's benchmark version and the built-in baseline models (no API key
// needed to run them). Called on every start (lib/db/migrate.ts); each step is an upsert, so a restart changes nothing.
import type { PrismaClient } from "../../generated/prisma/client";
import { BASELINE_DESCRIPTIONS, JUDGE_BASELINE_SLUG, parseBaselineId, REASONER_SLUG, SYNTHETIC_DESCRIPTION, SYNTHETIC_IMAGE_SLUG } from "../providers";
import { ensureBenchmarkVersion } from "./benchmark-version";

/** Baseline model configs are made on first use, so any accuracy (baseline:calibrated:0.73) can be run. */
export async function ensureBaselineModel(prisma: PrismaClient, slug: string) {
  if (slug === SYNTHETIC_IMAGE_SLUG)
    return prisma.modelConfig.upsert({
      where: { slug },
      update: {},
      create: {
        slug,
        label: "Baseline: synthetic faces (offline images)",
        modality: "t2i",
        provider: "baseline",
        modelId: slug,
        paramsJson: JSON.stringify({ width: 512, height: 512, description: SYNTHETIC_DESCRIPTION }),
        concurrency: 4,
      },
    });
  const b = parseBaselineId(slug);
  if (!b) return null;
  const label =
    b.kind === "calibrated"
      ? `Baseline: calibrated oracle (a = ${b.accuracy})`
      : b.kind === "oracle"
        ? "Baseline: factual oracle"
        : b.kind === "uniform"
          ? "Baseline: uniform random"
          : b.kind === "reasoner"
            ? "Baseline: offline reasoner (helper text only)"
            : b.kind === "judge"
              ? "Baseline: offline judge (explanations, known error rate)"
              : b.kind === "explainer"
                ? `Baseline: explainer (test model, planted errors${b.scale === 1 ? "" : ` ×${b.scale}`})`
                : b.kind === "scenario-biased"
                  ? "Baseline: scenario-biased (test model)"
                  : "Baseline: context follower";
  return prisma.modelConfig.upsert({
    where: { slug },
    update: {},
    create: {
      slug,
      label,
      modality: "llm",
      provider: "baseline",
      modelId: slug,
      paramsJson: JSON.stringify({
        temperature: 0,
        maxTokens: b.kind === "reasoner" ? 400 : b.kind === "judge" ? 800 : b.kind === "explainer" ? 600 : 16,
        description: BASELINE_DESCRIPTIONS[b.kind],
      }),
      concurrency: 64,
    },
  });
}

const DEFAULT_BASELINES = [
  "baseline:uniform",
  "baseline:oracle",
  "baseline:calibrated:0.8",
  "baseline:context-follower",
  "baseline:scenario-biased",
  REASONER_SLUG,
  "baseline:explainer",
  "baseline:explainer:0.5",
  JUDGE_BASELINE_SLUG,
  SYNTHETIC_IMAGE_SLUG,
];

export async function seed(prisma: PrismaClient) {
  const version = await ensureBenchmarkVersion(prisma);
  // Every start runs this: one read when all are there (each upsert is a write, and a write waits for the lock).
  const have = new Set((await prisma.modelConfig.findMany({ where: { slug: { in: DEFAULT_BASELINES } }, select: { slug: true } })).map((m) => m.slug));
  for (const slug of DEFAULT_BASELINES) if (!have.has(slug)) await ensureBaselineModel(prisma, slug);
  return { benchmarkVersion: version.version };
}
