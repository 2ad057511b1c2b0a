// Recording a run event for every active webhook that wants it: one delivery row per hook, event and run (the unique
// key makes emitting twice harmless — two workers finishing the same run, a retried transaction). Delivery happens
// apart (./deliver.ts), so a slow receiver never holds up the engine.
import { adaptiveStateOf, adaptiveSummary, targetText } from "../../results/adaptive";
import type { PrismaClient } from "../../../generated/prisma/client";
import { publicUrl } from "../../core/public-url";
import type { WebhookEvent } from "./events";
import { outcomeLabel } from "../../core/run-status";

/** A client or a transaction: emitting inside the transaction that changes the run's status loses no event. */
type Db = Pick<PrismaClient, "webhook" | "webhookDelivery" | "run" | "image" | "query">;

/** `extra`: what the event adds to the payload (run.launched: the signed design statement and its log index). */
export async function emitRunEvent(prisma: Db, runId: string, event: WebhookEvent, extra: Record<string, unknown> = {}): Promise<number> {
  const hooks = (await prisma.webhook.findMany({ where: { active: true }, select: { id: true, eventsJson: true } })).filter((h) =>
    (JSON.parse(h.eventsJson) as string[]).includes(event),
  );
  if (!hooks.length) return 0;
  const run = await prisma.run.findUnique({
    where: { id: runId },
    select: {
      id: true,
      name: true,
      suiteId: true,
      modality: true,
      status: true,
      plannedCount: true,
      spentUsd: true,
      budgetUsd: true,
      finishedAt: true,
      error: true,
      adaptiveJson: true,
    },
  });
  if (!run) return 0;
  const adaptive = adaptiveStateOf(run.adaptiveJson);
  // How its items ended, with the outcome the run page shows: a run "completed" with failed items says so.
  const byStatus = await prisma.query.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
  const n = (st: string) => byStatus.find((r) => r.status === st)?._count._all ?? 0;
  const items = { answered: n("answered"), refused: n("refused"), failed: n("failed"), open: n("pending") + n("leased") };
  const payload = JSON.stringify({
    event,
    at: new Date().toISOString(),
    ...extra,
    run: {
      ...run,
      suite: run.suiteId,
      suiteId: undefined,
      adaptiveJson: undefined,
      // Adaptive runs: the target, the verdict ("target met at N of M items …") and the last look's intervals.
      adaptive: adaptive
        ? { until: targetText(adaptive), outcome: adaptive.outcome, summary: adaptiveSummary(adaptive, run), lastLook: adaptive.looks.at(-1) ?? null }
        : null,
      outcome: outcomeLabel(run.status, items.failed),
      items,
      url: `${publicUrl()}/runs/${run.id}`,
      api: `${publicUrl()}/api/v1/runs/${run.id}`,
    },
  });
  for (const h of hooks)
    await prisma.webhookDelivery.upsert({
      where: { webhookId_event_subject: { webhookId: h.id, event, subject: runId } },
      update: {},
      create: { webhookId: h.id, event, subject: runId, payloadJson: payload },
    });
  return hooks.length;
}

/** A text-to-image run whose images are all generated and labelled: "labelling.done" (once). True when it is. */
export async function emitIfLabellingDone(prisma: Db, runId: string): Promise<boolean> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { modality: true, status: true } });
  if (!run || run.modality !== "t2i" || run.status !== "completed") return false;
  const open = await prisma.image.count({ where: { runId, labelStatus: { in: ["unlabelled", "leased"] } } });
  if (open !== 0 || (await prisma.image.count({ where: { runId } })) === 0) return false;
  await emitRunEvent(prisma, runId, "labelling.done");
  return true;
}
