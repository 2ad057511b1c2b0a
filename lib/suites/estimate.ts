// What a suite launch will plan and roughly cost, before anything is planned: images (or queries) per audited model
// from the suite's own count, helper calls (reasoning, guidance) on the helper model, priced from the registered models'
// prices (chat: typical tokens per query), against the per-run cap.
import type { PrismaClient } from "../../generated/prisma/client";
import { cost, TYPICAL_TOKENS } from "../providers/cost";
import { badRequest } from "../core/errors";
import { env } from "../env";
import { contentOfVersion } from "./content-versions";
import { suiteOf, type LaunchPrecision } from "./index";

/**
 * A helper call's typical size: the request (an image prompt and a question, or a retrieved passage) in, a step-by-step
 * answer out, priced for the longer kind: chain-of-thought answers under the release's settings (no max_tokens) run
 * to a median of ~450 words, ~600 tokens (a call may run to its max_tokens, which the budget reserves).
 */
const HELPER_TOKENS = { in: 250, out: 600 } as const;

export interface SuiteEstimate {
  perModel: number;
  helper: number;
  total: number;
  usd: number;
  /** priced per model (unknown models: not registered, left out of the cost) */
  models: Array<{ slug: string; planned: number; usd: number | null }>;
  cap: number;
  overCap: boolean;
  unit: "images" | "queries";
  /** the expected half-widths of the scores, where the suite estimates them (Suite.precision) */
  precision: LaunchPrecision | null;
}

export async function estimateSuiteRun(
  prisma: PrismaClient,
  input: { suite: string; models: string[]; config: unknown; contentVersion?: string },
): Promise<SuiteEstimate> {
  const suite = suiteOf(input.suite);
  const checked = suite.configSchema.safeParse(input.config);
  if (!checked.success) throw badRequest(checked.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`).join("; "));
  const config = checked.data;
  const content = input.contentVersion ? await contentOfVersion(prisma, suite.id, input.contentVersion) : suite.content();
  const perModel = suite.plannedPerModel(config, content);
  const helperSlug = suite.helperModel?.(config) ?? null;
  const helper = helperSlug ? (suite.helperPlanned?.(config, content) ?? 0) : 0;
  const slugs = [...new Set(input.models)].slice(0, 20);
  const rows = await prisma.modelConfig.findMany({
    where: { slug: { in: [...slugs, ...(helperSlug ? [helperSlug] : [])] } },
    select: { slug: true, pricePerImage: true, priceInputPer1k: true, priceOutputPer1k: true },
  });
  const price = new Map(rows.map((r) => [r.slug, r]));
  const t2i = suite.modalityOf(config) === "t2i";
  // Chat: the suite's own typical tokens where it knows them (FACT-OR-FAIR: shorter objective prompts), else per query.
  const tokens = suite.chatTokens?.(config, content) ?? { input: perModel * TYPICAL_TOKENS.subjectiveIn, output: perModel * TYPICAL_TOKENS.out };
  const chatUsd = (_n: number, m: { priceInputPer1k: number; priceOutputPer1k: number }) =>
    cost(tokens.input, tokens.output, m.priceInputPer1k, m.priceOutputPer1k);
  const models = slugs.map((slug) => {
    const m = price.get(slug);
    return { slug, planned: perModel, usd: m ? (t2i ? perModel * m.pricePerImage : chatUsd(perModel, m)) : null };
  });
  const helperModel = helperSlug ? price.get(helperSlug) : undefined;
  // A helper answer is free text, not a letter: priced at HELPER_TOKENS per call.
  const helperUsd = helperModel ? cost(helper * HELPER_TOKENS.in, helper * HELPER_TOKENS.out, helperModel.priceInputPer1k, helperModel.priceOutputPer1k) : 0;
  const total = perModel * slugs.length + helper;
  const cap = env().FOF_MAX_QUERIES_PER_RUN;
  return {
    perModel,
    helper,
    total,
    usd: models.reduce((a, m) => a + (m.usd ?? 0), 0) + helperUsd,
    models,
    cap,
    overCap: total > cap,
    unit: t2i ? "images" : "queries",
    precision: suite.precision?.(config, content) ?? null,
  };
}
