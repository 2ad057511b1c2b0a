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
import { explanationStrata, sha256 } from "../explanations/items";
import { explanationOf } from "../../benchmark/cot";
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

/**
 * Every reading and judgment is of its explanation as the signed answer gives it: a stored text hash that is not the
 * explanation's cannot happen honestly (answers never change), and would silently drop a reading from the numbers.
 */
async function recheckTexts(prisma: PrismaClient, runId: string): Promise<ScoreCheck[]> {
  const hashes = new Map<number, string>();
  const hashOf = (id: number, raw: string | null) => hashes.get(id) ?? (hashes.set(id, sha256(explanationOf(raw ?? ""))), hashes.get(id)!);
  const out: ScoreCheck[] = [];
  for (const [what, read] of [
    [
      "readings",
      (after: number) =>
        prisma.explanationReading.findMany({
          where: { id: { gt: after }, outcome: { query: { runId } } },
          select: { id: true, outcomeId: true, textSha256: true, outcome: { select: { rawText: true } } },
          orderBy: { id: "asc" },
          take: 2000,
        }),
    ],
    [
      "judgments",
      (after: number) =>
        prisma.explanationJudgment.findMany({
          where: { id: { gt: after }, pass: { runId } },
          select: { id: true, outcomeId: true, textSha256: true, outcome: { select: { rawText: true } } },
          orderBy: { id: "asc" },
          take: 2000,
        }),
    ],
  ] as const) {
    let after = 0;
    let n = 0;
    let other = 0;
    for (;;) {
      const rows = await read(after);
      for (const r of rows) {
        n++;
        if (r.textSha256 !== hashOf(r.outcomeId, r.outcome.rawText)) other++;
      }
      if (rows.length < 2000) break;
      after = rows[rows.length - 1].id;
    }
    if (n)
      out.push({ path: `${what}.text`, stated: `${n} ${what}, ${other} of other text`, recomputed: `${n} ${what} of their explanations`, equal: other === 0 });
  }
  return out;
}

/** The stated results against the recomputation on the verifier's database (whose people are already pseudonyms). */
export async function recheckExplanations(prisma: PrismaClient, runId: string, stated: unknown): Promise<ScoreCheck[]> {
  const recomputed = (await runReasoned(prisma, runId)) ? await explanationResults(prisma, runId, { fresh: true }) : null;
  return [...(await recheckSamples(prisma, runId)), ...(await recheckTexts(prisma, runId)), ...compareTrees(stated, recomputed)];
}
