// An explanation review assignment: per run and model, a random sample within strata (statistic × context) sized for
// the stated precision, dealt to reviewers with overlap (two per item by default), with the run's gold explanations
// dealt blind among them at the asked rate. The sample is re-derivable: the seed, the precision and the run's
// explanations decide it (lib/metrics/stratified-sample.ts). Nobody picks the seed: it is derived from the run's own
// seed and the sample's ordinal, so whoever draws a sample — who may read the explanations first — cannot look for a
// seed whose sample says what they want (hostile re-test, 2026-12-07: seeds 0–2999 moved one prevalence 3–37 %).
import { createHash } from "node:crypto";
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { dealItems, goldLikeShare } from "../../review/assignment";
import { sampleSizeFor, stratifiedSample } from "../../metrics/stratified-sample";
import { DomainError } from "../../core/errors";
import { spendsNoMore } from "../../core/run-status";
import { cotRunOrThrow, explanationStrata } from "./items";

export const explanationSampleSchema = z.object({
  name: z.string().trim().min(1, "name required").max(80),
  runId: z.string().min(1).max(40),
  /** the reviewers' account ids */
  annotators: z.array(z.string().trim().min(1).max(200)).min(1, "at least one reviewer").max(200),
  /** the 95 % half-width wanted per model (0.1 = ±10 points) */
  halfWidth: z.coerce.number().min(0.02).max(0.5).default(0.1),
  overlap: z.coerce.number().int().min(1).max(10).default(2),
  goldRate: z.coerce.number().min(0).max(0.5).default(0),
});

/** The explanations a sample of these strata draws (per model, in model order): what a verifier draws again. */
export function planSample(byModel: ReadonlyMap<string, ReadonlyMap<string, readonly number[]>>, halfWidth: number, seed: number): number[] {
  const sampled: number[] = [];
  for (const model of [...byModel.keys()].sort()) {
    const s = stratifiedSample(byModel.get(model)!, { halfWidth }, seed);
    for (const ids of s.sample.values()) sampled.push(...ids);
  }
  return sampled;
}

/** The seed of a run's k-th sample (0-based): from the run's seed and id, fixed before anyone reads an answer. */
export function sampleSeed(run: { id: string; seed: number }, ordinal: number): number {
  // the first 31 bits of the hex digest (the browser verifier's hash gives bytes, not a Buffer: hex reads alike everywhere)
  return parseInt(createHash("sha256").update(`explanation-sample|${run.id}|${run.seed}|${ordinal}`).digest("hex").slice(0, 8), 16) & 0x7fffffff;
}

/** What a precision costs in reviews, per model: the page shows it before anyone is dealt work. */
export async function sampleSuggestion(prisma: PrismaClient, runId: string, halfWidth: number) {
  await cotRunOrThrow(prisma, runId);
  const byModel = await explanationStrata(prisma, runId);
  return [...byModel].map(([model, strata]) => {
    const s = stratifiedSample(strata, { halfWidth }, 1);
    const population = s.population;
    return {
      model,
      explanations: population,
      strata: strata.size,
      sized: sampleSizeFor(population, { halfWidth }),
      sample: [...s.counts.values()].reduce((a, b) => a + b, 0),
    };
  });
}

export async function createExplanationSample(prisma: PrismaClient, input: z.input<typeof explanationSampleSchema>) {
  const a = explanationSampleSchema.parse(input);
  const annotators = [...new Set(a.annotators)];
  if (a.overlap > annotators.length)
    throw new DomainError("invalid", `reviewers per explanation (${a.overlap}) cannot exceed the number of reviewers (${annotators.length})`);
  const run = await cotRunOrThrow(prisma, a.runId);
  // the sample stands for the run's explanations: drawn once there will be no more (a verifier draws it again)
  if (!spendsNoMore(run))
    throw new DomainError("conflict", "draw a sample once the run is over (completed or cancelled): it stands for all the run's explanations");
  const byModel = await explanationStrata(prisma, a.runId);
  if (!byModel.size) throw new DomainError("invalid", "the run has no answered subjective explanations yet");
  const scopeJson = JSON.stringify({ runIds: [a.runId] });
  const seed = sampleSeed(run, await prisma.assignment.count({ where: { kind: "explanations", scopeJson } }));
  const sampled = planSample(byModel, a.halfWidth, seed);
  const deal = dealItems(sampled, annotators, a.overlap).map((d) => ({ ...d, gold: false }));
  // gold: this run's gold explanations outside the sample, each reviewer given goldRate of their share, spread over
  // strata like their share (lib/review/assignment.ts goldLikeShare), blind (the queue orders and counts every item alike)
  let goldShort = 0;
  if (a.goldRate > 0) {
    const inSample = new Set(sampled);
    const stratumOf = new Map<number, string>();
    for (const strata of byModel.values()) for (const [key, ids] of strata) for (const id of ids) stratumOf.set(id, key);
    const goldByStratum = new Map<string, number[]>();
    for (const g of await prisma.explanationGold.findMany({ where: { outcome: { query: { runId: a.runId } } }, select: { outcomeId: true } })) {
      const key = stratumOf.get(g.outcomeId);
      if (key === undefined || inSample.has(g.outcomeId)) continue;
      goldByStratum.set(key, [...(goldByStratum.get(key) ?? []), g.outcomeId]);
    }
    if (!goldByStratum.size)
      throw new DomainError("invalid", "the run has no gold explanations outside the sample: mark some (reviewed ones) before asking for gold");
    for (const annotator of annotators) {
      const share = new Map<string, number>();
      for (const d of deal) if (d.annotator === annotator && !d.gold) share.set(stratumOf.get(d.item)!, (share.get(stratumOf.get(d.item)!) ?? 0) + 1);
      const wanted = Math.round(([...share.values()].reduce((x, y) => x + y, 0) * a.goldRate) / (1 - a.goldRate));
      const ids = goldLikeShare(share, goldByStratum, wanted, seed, annotator);
      goldShort += wanted - ids.length;
      for (const id of ids) deal.push({ annotator, item: id, gold: true });
    }
  }
  return prisma.$transaction(async (tx) => {
    const created = await tx.assignment.create({
      data: {
        kind: "explanations",
        name: a.name,
        scopeJson,
        seed,
        perModel: 0,
        halfWidth: a.halfWidth,
        overlap: a.overlap,
        goldRate: a.goldRate,
        annotatorsJson: JSON.stringify(annotators),
      },
    });
    await tx.assignmentItem.createMany({ data: deal.map((d) => ({ assignmentId: created.id, annotator: d.annotator, outcomeId: d.item, gold: d.gold })) });
    /** goldShort: gold asked for but not dealt, for want of gold in the strata a reviewer's share holds */
    return { id: created.id, explanations: sampled.length, items: deal.length, gold: deal.filter((d) => d.gold).length, goldShort };
  });
}

/** The explanation assignments of a run (or all), each reviewer's progress. */
export async function listExplanationSamples(prisma: PrismaClient, runId?: string) {
  const found = await prisma.assignment.findMany({
    where: { kind: "explanations", ...(runId ? { scopeJson: JSON.stringify({ runIds: [runId] }) } : {}) },
    orderBy: { id: "desc" },
    take: 50,
    include: { items: { select: { annotator: true, outcomeId: true, gold: true } } },
  });
  const out = [];
  for (const a of found) {
    const ids = [...new Set(a.items.filter((i) => !i.gold).map((i) => i.outcomeId!))];
    const read = await prisma.explanationReading.findMany({
      where: { outcomeId: { in: ids } },
      select: { outcomeId: true, annotator: true },
      distinct: ["outcomeId", "annotator"],
    });
    const done = new Set(read.map((r) => `${r.outcomeId}|${r.annotator}`));
    const annotators = JSON.parse(a.annotatorsJson) as string[];
    out.push({
      id: a.id,
      name: a.name,
      runId: (JSON.parse(a.scopeJson) as { runIds: string[] }).runIds[0],
      halfWidth: a.halfWidth,
      overlap: a.overlap,
      goldRate: a.goldRate,
      seed: a.seed,
      createdAt: a.createdAt.toISOString(),
      explanations: ids.length,
      reviewers: annotators.map((name) => {
        const mine = a.items.filter((i) => i.annotator === name);
        return { name, assigned: mine.length, read: mine.filter((i) => done.has(`${i.outcomeId}|${name}`)).length };
      }),
    });
  }
  return out;
}
