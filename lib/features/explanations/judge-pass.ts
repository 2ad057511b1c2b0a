// A judge pass: a registered chat model tags every explanation of a chain-of-thought run with the rubric. It spends
// money, so it has a budget (within the starter's spending limit), each call's worst case is reserved on the pass
// before the call is made (inflightUsd) and replaced by its charge in the transaction that writes its judgment; a
// worker that dies mid-call leaves its reservation, charged at worst case when the pass is next taken up. Exactly one
// judgment per explanation and pass (unique), whatever crashes.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { DomainError } from "../../core/errors";
import { createProvider, modelParams, ProviderError } from "../../providers";
import { chargeFor, worstCaseUsd } from "../../providers/charges";
import { judgePrompt, parseJudgeReply, JUDGE_MAX_TOKENS, JUDGE_TYPICAL_OUT_TOKENS } from "../../explanations/judge";
import { RUBRIC_VERSION } from "../../explanations/tags";
import { cost } from "../../providers/cost";
import { budgetWithinLimit, maySteer } from "../../auth/spending";
import { cotRunOrThrow, EXPLANATION_SELECT, explanationView, explanationWhere } from "./items";

export const startJudgeSchema = z.object({
  runId: z.string().min(1).max(40),
  judge: z.string().trim().min(1).max(120),
  // a JSON number (null, "" or true are not $0)
  budgetUsd: z.number().min(0).max(100_000).optional(),
});

const LEASE_MS = 120_000;
const CALL_TIMEOUT_MS = 90_000;

interface JudgeSettings {
  slug: string;
  provider: string;
  modelId: string;
  baseUrl: string | null;
  apiKeyEnv: string | null;
  paramsJson: string;
  priceIn: number;
  priceOut: number;
}

const costModel = (s: JudgeSettings) => ({ modality: "llm", priceIn: s.priceIn, priceOut: s.priceOut, pricePerImage: 0, maxTokens: modelParams(s).maxTokens });

/** What a pass over the run is estimated to cost, and its worst case (every call at its limits). */
export async function judgeEstimate(prisma: PrismaClient, runId: string, judgeSlug: string) {
  const { settings } = await judgeSettings(prisma, judgeSlug);
  const n = await prisma.outcome.count({ where: explanationWhere(runId) });
  const promptChars = 3000;
  return {
    explanations: n,
    estimateUsd: n * cost(promptChars / 4, JUDGE_TYPICAL_OUT_TOKENS, settings.priceIn, settings.priceOut),
    worstUsd: n * worstCaseUsd(costModel(settings), promptChars + 12_000, 0),
  };
}

async function judgeSettings(prisma: PrismaClient, slug: string): Promise<{ id: string; settings: JudgeSettings }> {
  const m = await prisma.modelConfig.findUnique({ where: { slug } });
  if (!m || m.archived) throw new DomainError("invalid", `no registered model "${slug}"`);
  if (m.modality !== "llm") throw new DomainError("invalid", `${slug} is not a chat model: a judge reads text`);
  if (slug.startsWith("baseline:") && slug !== "baseline:judge")
    throw new DomainError("invalid", `${slug} is a baseline answerer, not a judge: use a chat model or baseline:judge`);
  const params = { ...(JSON.parse(m.paramsJson || "{}") as object), maxTokens: JUDGE_MAX_TOKENS, temperature: 0 };
  return {
    id: m.id,
    settings: {
      slug,
      provider: m.provider,
      modelId: m.modelId,
      baseUrl: m.baseUrl,
      apiKeyEnv: m.apiKeyEnv,
      paramsJson: JSON.stringify(params),
      priceIn: m.priceInputPer1k,
      priceOut: m.priceOutputPer1k,
    },
  };
}

/** Starts a pass (queued: a worker takes it up). The budget defaults to the worst case and stays within the starter's limit. */
/**
 * Starts a pass (queued: a worker takes it up). Only who may steer the run (its owner, or who steers any run) judges
 * it — another runner's pass would spend on it and replace its judge. The budget defaults to the worst case and stays
 * within the starter's limit; one pass under way per run (checked again after writing: of two racing starts, the
 * later one is taken back).
 */
export async function startJudgePass(
  prisma: PrismaClient,
  user: { id: string; role: string; spendingLimitUsd: number | null },
  input: z.input<typeof startJudgeSchema>,
) {
  const s = startJudgeSchema.parse(input);
  await cotRunOrThrow(prisma, s.runId);
  const owner = await prisma.run.findUniqueOrThrow({ where: { id: s.runId }, select: { createdById: true } });
  if (!maySteer(user, owner)) throw new DomainError("forbidden", "only the run's owner, or who may steer any run, may judge its explanations");
  const { id, settings } = await judgeSettings(prisma, s.judge);
  const live = await prisma.judgePass.findFirst({ where: { runId: s.runId, status: { in: ["queued", "running"] } }, select: { id: true } });
  if (live) throw new DomainError("conflict", "a judge pass of this run is under way: wait for it or cancel it");
  const est = await judgeEstimate(prisma, s.runId, s.judge);
  if (!est.explanations) throw new DomainError("invalid", "the run has no answered subjective explanations to judge");
  const budget = await budgetWithinLimit(prisma, user, s.budgetUsd ?? est.worstUsd);
  const pass = await prisma.judgePass.create({
    data: {
      runId: s.runId,
      modelConfigId: id,
      settingsJson: JSON.stringify(settings),
      rubricVersion: RUBRIC_VERSION,
      total: est.explanations,
      budgetUsd: budget ?? est.worstUsd,
      createdBy: user.id,
    },
    select: { id: true, total: true, budgetUsd: true },
  });
  const racing = await prisma.judgePass.findMany({
    where: { runId: s.runId, status: { in: ["queued", "running"] } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  if (racing[0]?.id !== pass.id) {
    // cancelled, not deleted: whatever a worker may already have spent on it stays recorded
    await prisma.judgePass.update({
      where: { id: pass.id },
      data: { status: "cancelled", error: "another pass of this run started first", finishedAt: new Date() },
    });
    throw new DomainError("conflict", "a judge pass of this run is under way: wait for it or cancel it");
  }
  return pass;
}

/** Cancels a pass under way: its starter, or who may steer the run (its owner, or who steers any run). */
export async function cancelJudgePass(prisma: PrismaClient, runId: string, passId: string, by: { id: string; role: string }) {
  const pass = await prisma.judgePass.findFirst({ where: { id: passId, runId }, select: { createdBy: true, run: { select: { createdById: true } } } });
  if (!pass) throw new DomainError("not_found", "no such judge pass");
  if (pass.createdBy !== by.id && !maySteer(by, pass.run))
    throw new DomainError("forbidden", "only who started a pass, or who may steer the run, may cancel it");
  const r = await prisma.judgePass.updateMany({
    where: { id: passId, status: { in: ["queued", "running"] } },
    data: { status: "cancelled", finishedAt: new Date() },
  });
  if (!r.count) throw new DomainError("conflict", "the pass is not under way");
}

/**
 * Takes up one due pass (queued, or running with an expired lease: its dead worker's reservations charged first) and
 * judges up to `maxCalls` explanations. Returns whether there was work.
 */
export async function workJudgePass(prisma: PrismaClient, opts: { owner?: string; maxCalls?: number; signal?: AbortSignal } = {}): Promise<boolean> {
  const owner = opts.owner ?? randomUUID();
  const now = new Date();
  const due = await prisma.judgePass.findFirst({
    where: { OR: [{ status: "queued" }, { status: "running", OR: [{ leaseOwner: owner }, { leaseUntil: null }, { leaseUntil: { lt: now } }] }] },
    orderBy: { createdAt: "asc" },
  });
  if (!due) return false;
  const took = await prisma.judgePass.updateMany({
    where: { id: due.id, status: due.status, leaseUntil: due.leaseUntil },
    // a dead worker's reservations are calls that may have been made: charged at their worst case
    data: { status: "running", leaseOwner: owner, leaseUntil: new Date(Date.now() + LEASE_MS), costUsd: { increment: due.inflightUsd }, inflightUsd: 0 },
  });
  if (!took.count) return true;
  const settings = JSON.parse(due.settingsJson) as JudgeSettings;
  const cm = costModel(settings);
  let provider: ReturnType<typeof createProvider>;
  try {
    provider = createProvider(settings, CALL_TIMEOUT_MS);
  } catch (e) {
    await finish(prisma, due.id, owner, "failed", e instanceof Error ? e.message : String(e));
    return true;
  }
  const judged = new Set((await prisma.explanationJudgment.findMany({ where: { passId: due.id }, select: { outcomeId: true } })).map((j) => j.outcomeId));
  let calls = 0;
  let cursor = 0;
  for (;;) {
    const rows = await prisma.outcome.findMany({
      where: { ...explanationWhere(due.runId), id: { gt: cursor } },
      select: EXPLANATION_SELECT,
      orderBy: { id: "asc" },
      take: 200,
    });
    if (!rows.length) return finish(prisma, due.id, owner, "done", null).then(() => true);
    cursor = rows[rows.length - 1].id;
    for (const row of rows) {
      if (judged.has(row.id)) continue;
      if (calls >= (opts.maxCalls ?? 50) || opts.signal?.aborted) return true;
      const pass = await prisma.judgePass.findUniqueOrThrow({
        where: { id: due.id },
        select: { status: true, costUsd: true, inflightUsd: true, budgetUsd: true, leaseOwner: true },
      });
      if (pass.status !== "running" || pass.leaseOwner !== owner) return true;
      const view = explanationView(row);
      const prompt = judgePrompt(view.prompt, view.explanation);
      const worst = worstCaseUsd(cm, prompt.length, 0);
      if (pass.costUsd + pass.inflightUsd + worst > pass.budgetUsd + 1e-12) {
        await finish(
          prisma,
          due.id,
          owner,
          "stopped",
          `the budget of $${pass.budgetUsd.toFixed(4)} is reached: raise it and start a new pass to judge the rest`,
        );
        return true;
      }
      const reserved = await prisma.judgePass.updateMany({
        where: { id: due.id, status: "running", leaseOwner: owner },
        data: { inflightUsd: { increment: worst }, leaseUntil: new Date(Date.now() + LEASE_MS) },
      });
      if (!reserved.count) return true;
      calls++;
      let data: {
        status: string;
        tagsJson?: string;
        unsupported?: number;
        rawText?: string | null;
        reason?: string | null;
        inputTokens?: number | null;
        outputTokens?: number | null;
        costUsd: number;
      };
      try {
        const res = await provider.chat({
          prompt,
          signal: opts.signal ?? AbortSignal.timeout(CALL_TIMEOUT_MS),
          query: {
            test: "subjective",
            context: null,
            statisticId: view.statisticId,
            level: view.level as "highest" | "lowest",
            attribute: null,
            options: [],
            identity: null,
            streamKey: `judge|${due.id}|${row.id}`,
            seed: 1,
          },
        });
        const charge = chargeFor(cm, prompt.length, res.inputTokens, res.outputTokens).usd;
        const parsed = parseJudgeReply(res.text, view.explanation);
        data = parsed.ok
          ? {
              status: "tagged",
              tagsJson: JSON.stringify(parsed.tags),
              unsupported: parsed.unsupported,
              rawText: res.text,
              inputTokens: res.inputTokens,
              outputTokens: res.outputTokens,
              costUsd: charge,
            }
          : { status: "invalid", reason: parsed.reason, rawText: res.text, inputTokens: res.inputTokens, outputTokens: res.outputTokens, costUsd: charge };
        if (res.truncated && data.status === "tagged") data = { ...data, status: "invalid", reason: "cut short at max_tokens" };
      } catch (e) {
        // a failed call is charged its worst case unless the provider said nothing was done (a refused key, no such model)
        const fatal = e instanceof ProviderError && e.kind === "fatal";
        data = { status: "failed", reason: e instanceof Error ? e.message.slice(0, 500) : String(e).slice(0, 500), costUsd: fatal ? 0 : worst };
      }
      await prisma.$transaction([
        prisma.explanationJudgment.create({ data: { passId: due.id, outcomeId: row.id, textSha256: view.textSha256, ...data } }),
        prisma.judgePass.update({ where: { id: due.id }, data: { costUsd: { increment: data.costUsd }, inflightUsd: { decrement: worst } } }),
      ]);
      judged.add(row.id);
    }
  }
}

async function finish(prisma: PrismaClient, id: string, owner: string, status: string, error: string | null) {
  await prisma.judgePass.updateMany({
    where: { id, leaseOwner: owner, status: "running" },
    data: { status, error, finishedAt: new Date(), leaseOwner: null, leaseUntil: null },
  });
}

/** Judges until no pass is due (the CLI; tests). */
export async function workJudgePassesUntilDone(prisma: PrismaClient, signal?: AbortSignal) {
  const owner = randomUUID();
  while (!signal?.aborted && (await workJudgePass(prisma, { owner, signal, maxCalls: 200 }))) {
    // each step takes up the next due pass or continues this one
  }
}
