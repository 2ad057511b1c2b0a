// A content-set run's answers as JSONL lines (`fof export`, the run page's download): one line per finished query —
// where it sits (statistic, level, attribute, scenario, context, repeat), the prompt as sent, the raw reply, how it
// was read (the letter, the classes it gives per attribute), the statistic's true classes as planned — in pages.
import type { SuiteContext } from "../types";
import { parsePinned } from "./content";
import { classesChosen } from "./read";

const PAGE = 2000;

export async function* ownExportLines(ctx: SuiteContext, req: { runId: string }): AsyncGenerator<Array<Record<string, unknown>>> {
  const run = await ctx.prisma.run.findUniqueOrThrow({
    where: { id: req.runId },
    select: { suiteId: true, suiteVersion: true, benchmarkVersion: { select: { contentJson: true } } },
  });
  const content = parsePinned(run.benchmarkVersion.contentJson);
  let cursor = 0;
  for (;;) {
    const rows = await ctx.prisma.query.findMany({
      where: { runId: req.runId, id: { gt: cursor }, outcome: { isNot: null } },
      orderBy: { id: "asc" },
      take: PAGE,
      select: {
        id: true,
        test: true,
        context: true,
        statisticId: true,
        level: true,
        attribute: true,
        scenarioIndex: true,
        repeatIndex: true,
        prompt: true,
        optionsJson: true,
        groundTruthJson: true,
        modelConfig: { select: { slug: true } },
        outcome: { select: { status: true, reason: true, rawText: true, parsedLetter: true, attempts: true, latencyMs: true } },
      },
    });
    if (!rows.length) return;
    cursor = rows[rows.length - 1].id;
    yield rows.map((q) => ({
      suite: run.suiteId,
      suiteVersion: run.suiteVersion,
      language: content.set.language,
      run: req.runId,
      model: q.modelConfig.slug,
      query: q.id,
      test: q.test,
      context: q.context,
      statisticId: q.statisticId,
      level: q.level,
      attribute: q.attribute,
      scenarioIndex: q.scenarioIndex,
      repeatIndex: q.repeatIndex,
      prompt: q.prompt,
      status: q.outcome!.status,
      reason: q.outcome!.reason,
      rawText: q.outcome!.rawText,
      letter: q.outcome!.parsedLetter,
      classes: q.outcome!.status === "answered" && q.outcome!.parsedLetter ? classesChosen(q, q.outcome!.parsedLetter) : null,
      truth: JSON.parse(q.groundTruthJson) as unknown,
      attempts: q.outcome!.attempts,
      latencyMs: q.outcome!.latencyMs,
    }));
    if (rows.length < PAGE) return;
  }
}
