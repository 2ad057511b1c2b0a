// An adaptive run's stopping rule, checked from its bundle: the run states its target, look schedule and α, and
// records every look (run.json adaptiveJson). The verifier takes each look again on its scratch database — the rows
// of later waves put back as they stood then (no outcome, no image) — with the suite's own look evaluator at the
// level the schedule gives, and compares every recorded value (intervals, verdict, items); then it checks the rule
// was followed: looks 1…n in order, each at its scheduled level, none before the last met (the run would have
// stopped there), and the stop (target met, or the cap's last look) as the rule says. Runs of fixed size: nothing to
// check. Called after the scores were recomputed: it changes the scratch database.
import type { PrismaClient } from "../../../generated/prisma/client";
import { compareTrees } from "../../evidence/compare";
import type { StoppingCheck } from "../../evidence/verdicts";
import { forgetShared } from "../../core/shared";
import { lookLevels } from "../../metrics/sequential";
import { quantileOf } from "../../metrics/design";
import { adaptiveStateOf } from "../../results/adaptive";
import { lookEvaluatorFor, lookVerdict } from "../runs/adaptive";
import { registerLooks } from "../results/adaptive-looks";

const approx = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a));

export async function recheckLooks(prisma: PrismaClient, runId: string): Promise<StoppingCheck> {
  const run = await prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { adaptiveJson: true, suiteId: true, seed: true, plannedCount: true } });
  const state = adaptiveStateOf(run.adaptiveJson);
  if (!state) return { adaptive: false, values: [], problems: [] };
  const problems: string[] = [];
  // the same evaluators the engine registers at start (FACT-OR-FAIR's, and each comparable suite's)
  registerLooks();
  const evaluate = lookEvaluatorFor(run.suiteId);
  if (!evaluate) return { adaptive: true, values: [], problems: [`no look evaluator for the suite ${run.suiteId}`] };
  const levels = lookLevels(state.schedule, state.alpha);
  const last = state.looks.length;
  state.looks.forEach((l, i) => {
    if (l.look !== i + 1) problems.push(`look ${i + 1} is recorded as look ${l.look}`);
    if (!approx(l.level, levels[i] ?? NaN)) problems.push(`look ${l.look} was taken at level ${l.level}, the schedule says ${levels[i]}`);
    if (i + 1 < last && l.met) problems.push(`look ${l.look} met the target, yet the run went on`);
  });
  if (last > levels.length) problems.push(`${last} looks recorded; the schedule has ${levels.length}`);
  const o = state.outcome;
  if (o) {
    const final = state.looks[last - 1];
    if (!final || o.look !== last) problems.push(`the run stopped at look ${o.look}; ${last} looks are recorded`);
    else if (o.kind === "met" && !final.met) problems.push(`the run says it stopped on a met target at look ${o.look}, which did not meet it`);
    else if (o.kind === "cap" && (final.met || last !== levels.length))
      problems.push(`the run says it stopped at its cap, at look ${o.look} of ${levels.length}`);
    if (final && run.plannedCount !== final.items) problems.push(`the run kept ${run.plannedCount} queries; its last look counted ${final.items}`);
  }

  // Latest look first: each one's later waves are taken back before it is taken again.
  const taken = new Map<number, unknown>();
  for (let i = last - 1; i >= 0; i--) {
    const l = state.looks[i];
    const later = { runId, wave: { gt: l.look } };
    await prisma.image.deleteMany({ where: { runId, query: { wave: { gt: l.look } } } });
    await prisma.outcome.deleteMany({ where: { query: later } });
    await prisma.query.updateMany({ where: later, data: { status: "pending" } });
    forgetShared(runId);
    const rows = await evaluate(prisma, {
      runId,
      seed: run.seed,
      level: l.level,
      intervalTarget: state.intervalTarget,
      quantile: quantileOf(state.quantile),
      target: state.target,
    });
    const items = await prisma.query.count({ where: { runId, wave: { lte: l.look } } });
    taken.set(l.look, { look: l.look, level: l.level, items, ...lookVerdict(state.target, rows), rows });
  }
  // what is taken again; when and at what spend a look was taken are the run's record, not the data's
  const stated = state.looks.map(({ look, level, items, met, widest, undecided, rows }) => ({
    look,
    level,
    items,
    met,
    widest,
    undecided: undecided ?? null,
    rows,
  }));
  const again = state.looks.map((l) => taken.get(l.look));
  return { adaptive: true, values: compareTrees({ looks: stated }, { looks: again }), problems };
}
