// A reasoning run's explanation results in its bundle (format v3, explanations.json) re-computed by both verifiers
// from the bundle's rows with the same code (lib/features/explanations/results.ts) and compared value by value (the
// writer states them: ./explanations-stated.ts). null for a run that did not reason. Browser-safe: no signing key here.
// The samples are not taken on trust either: each is drawn again from the run's explanations with the seed the run
// gives its k-th sample, and dealt again to its reviewers — an insider cannot choose which explanations were read.
import type { PrismaClient } from "../../../generated/prisma/client";
import { compareTrees, type ScoreCheck } from "../../evidence/compare";
import { dealItems } from "../../review/assignment";
import { explanationResults } from "../explanations/results";
import { runReasoned } from "../explanations/pages";
import { explanationStrata } from "../explanations/items";
import { planSample, sampleSeed } from "../explanations/sample";

/** Each sample of the run against the one its seed draws and deals: a value per sample (seed, items dealt, gold). */
async function recheckSamples(prisma: PrismaClient, runId: string): Promise<ScoreCheck[]> {
  const samples = await prisma.assignment.findMany({
    where: { kind: "explanations", scopeJson: JSON.stringify({ runIds: [runId] }) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { items: { select: { annotator: true, outcomeId: true, gold: true } } },
  });
  if (!samples.length) return [];
  const run = await prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { id: true, seed: true } });
  const strata = await explanationStrata(prisma, runId);
  const gold = new Set(
    (await prisma.explanationGold.findMany({ where: { outcome: { query: { runId } } }, select: { outcomeId: true } })).map((g) => g.outcomeId),
  );
  const out: ScoreCheck[] = [];
  samples.forEach((a, k) => {
    const at = `sample ${k + 1} (${a.id})`;
    const seed = sampleSeed(run, k);
    out.push({ path: `${at}.seed`, stated: a.seed, recomputed: seed, equal: a.seed === seed });
    const drawn = planSample(strata, a.halfWidth ?? NaN, seed);
    const annotators = JSON.parse(a.annotatorsJson) as string[];
    const want = dealItems(drawn, annotators, a.overlap)
      .map((d) => `${d.annotator}|${d.item}`)
      .sort();
    const have = a.items
      .filter((i) => !i.gold)
      .map((i) => `${i.annotator}|${i.outcomeId}`)
      .sort();
    const same = want.length === have.length && want.every((x, i) => x === have[i]);
    out.push({
      path: `${at}.dealt`,
      stated: `${have.length} explanations dealt`,
      recomputed: same ? `${want.length} explanations dealt` : `${want.length} others`,
      equal: same,
    });
    const inSample = new Set(drawn);
    const strayGold = a.items.filter((i) => i.gold && (!gold.has(i.outcomeId!) || inSample.has(i.outcomeId!))).length;
    out.push({
      path: `${at}.gold`,
      stated: `${a.items.filter((i) => i.gold).length} gold`,
      recomputed: strayGold ? `${strayGold} not gold outside the sample` : "gold outside the sample",
      equal: !strayGold,
    });
  });
  return out;
}

/** The stated results against the recomputation on the verifier's database (whose people are already pseudonyms). */
export async function recheckExplanations(prisma: PrismaClient, runId: string, stated: unknown): Promise<ScoreCheck[]> {
  const recomputed = (await runReasoned(prisma, runId)) ? await explanationResults(prisma, runId) : null;
  return [...(await recheckSamples(prisma, runId)), ...compareTrees(stated, recomputed)];
}
