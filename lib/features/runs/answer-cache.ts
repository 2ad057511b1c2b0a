// Which stored answers a run may take instead of calling. A run's answers are that run's: by default the cache serves
// only the run that obtained them (its resumes, its re-asks, a worker taking over). Another run's answers are taken
// only when the launch asked (Run.reuseJson: one run's, or any run's no older than an age) — and every outcome so
// obtained records where and when (Outcome.reusedFromRunId / reusedAt), shown on the run page, in exports and in the
// evidence bundle. Two runs meant as independent samples never share an answer unless someone chose it.
import type { PrismaClient } from "../../../generated/prisma/client";
import { chunked } from "../../db/chunks";
import { answerReuseSchema, type AnswerReuse } from "../../results/answer-reuse";

export type { AnswerReuse };

/** A run's reuse setting as stored (null: its own answers only). A row that does not parse reuses nothing. */
export function reuseOf(reuseJson: string | null): AnswerReuse | null {
  if (!reuseJson) return null;
  const parsed = answerReuseSchema.safeParse(JSON.parse(reuseJson) as unknown);
  return parsed.success ? parsed.data : null;
}

export interface CachedAnswer {
  rawText: string | null;
  imageSha256: string | null;
  /** null: this run obtained it; otherwise the run that did ("" when not recorded) */
  fromRunId: string | null;
  obtainedAt: Date;
}

/**
 * The answer each key may be served from, for one run: its own first; else, as its launch asked, the named run's or
 * the newest one within the age (ties: the lower run id, so every worker picks the same).
 */
export async function cachedAnswers(
  prisma: PrismaClient,
  runId: string,
  reuse: AnswerReuse | null,
  keys: readonly string[],
): Promise<Map<string, CachedAnswer>> {
  const out = new Map<string, CachedAnswer>();
  if (!keys.length) return out;
  const since = reuse?.maxAgeHours !== undefined ? new Date(Date.now() - reuse.maxAgeHours * 3_600_000) : null;
  const others = !reuse
    ? null
    : {
        ...(reuse.fromRun !== undefined ? { runId: reuse.fromRun } : { runId: { not: runId } }),
        ...(since ? { createdAt: { gte: since } } : {}),
      };
  for (const slice of chunked([...new Set(keys)])) {
    const rows = await prisma.responseCache.findMany({
      where: { key: { in: slice }, OR: others ? [{ runId }, others] : [{ runId }] },
      select: { key: true, runId: true, rawText: true, imageSha256: true, createdAt: true },
    });
    for (const r of rows) {
      const cand: CachedAnswer = { rawText: r.rawText, imageSha256: r.imageSha256, fromRunId: r.runId === runId ? null : r.runId, obtainedAt: r.createdAt };
      const held = out.get(r.key);
      if (!held || better(cand, held)) out.set(r.key, cand);
    }
  }
  return out;
}

function better(a: CachedAnswer, b: CachedAnswer): boolean {
  if ((a.fromRunId === null) !== (b.fromRunId === null)) return a.fromRunId === null;
  if (a.obtainedAt.getTime() !== b.obtainedAt.getTime()) return a.obtainedAt > b.obtainedAt;
  return (a.fromRunId ?? "") < (b.fromRunId ?? "");
}

/** One key's answer for a run (a re-ask's, or a prompt completed by a helper's answer). */
export async function cachedAnswer(prisma: PrismaClient, runId: string, reuse: AnswerReuse | null, key: string): Promise<CachedAnswer | null> {
  return (await cachedAnswers(prisma, runId, reuse, [key])).get(key) ?? null;
}
