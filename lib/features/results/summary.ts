// The run page's data: progress per model and test, spend, throughput, ETA and running scores.
import { labelsPending } from "../runs/adaptive";
import { adaptiveStateOf, adaptiveSummary, targetText } from "../../results/adaptive";
import type { LabelInstrument } from "../../faces/provenance";
import { suiteOf } from "../../suites";
import type { PrismaClient } from "../../../generated/prisma/client";
import { ANNOTATION_ROW_SELECT } from "./run-results";
import { labelProgress, runProgress, type LabelSource } from "./run-results";
import { runScores } from "./explore";
import type { RaceMapping } from "../../faces/labels";
import { DEFAULT_PROFILE, type ScoringProfile } from "../../metrics/profiles";
import { currentLabels } from "../../review/votes";
import { DONE_QUERY, isLive, outcomeLabel, workerState } from "../../core/run-status";
import { liveLabelWorkers } from "../runs/workers";
import { labelProvenance } from "../../faces/run-provenance";
import { mixedClassifiersMessage } from "../../faces/provenance";
import { failureReasons } from "../runs/outcomes";
import { shared } from "../../core/shared";
import { reuseText } from "../../results/answer-reuse";
import { reuseOf } from "../runs/answer-cache";
import { plannedAtLaunch } from "../ledger/design";

/**
 * The workers that serve a run (or, while none has claimed it yet, every live worker): host, last heartbeat, in
 * flight and last error — so a run that makes no progress says why (no worker, a stalled one, database errors).
 */
async function workerHealth(prisma: PrismaClient, runId: string) {
  const since = new Date(Date.now() - 24 * 3600_000);
  const rows = await prisma.workerStatus.findMany({ where: { heartbeatAt: { gte: since } }, orderBy: { heartbeatAt: "desc" }, take: 50 });
  const now = Date.now();
  const all = rows.map((w) => ({
    owner: w.owner,
    host: w.host,
    pid: w.pid,
    heartbeatAt: w.heartbeatAt.toISOString(),
    state: workerState(w, now),
    inFlight: w.inFlight,
    servesRun: (JSON.parse(w.runsJson) as string[]).includes(runId),
    lastError: w.lastError,
    lastErrorAt: w.lastErrorAt?.toISOString() ?? null,
  }));
  const mine = all.filter((w) => w.servesRun);
  return { workers: (mine.length ? mine : all.filter((w) => w.state === "alive")).slice(0, 10), alive: all.filter((w) => w.state === "alive").length };
}

/** Faces of a run with at least one annotator's current label (withdrawn labels do not count). */
async function reviewedFaceCount(prisma: PrismaClient, runId: string): Promise<number> {
  const rows = await prisma.annotation.findMany({ where: { face: { image: { runId }, deleted: false } }, select: ANNOTATION_ROW_SELECT });
  return currentLabels(rows, null).size;
}

export async function runSummary(
  prisma: PrismaClient,
  runId: string,
  opts: { raceMapping?: RaceMapping; labels?: LabelSource; profile?: ScoringProfile } = {},
) {
  const run = await prisma.run.findUnique({
    where: { id: runId },
    include: { models: { include: { modelConfig: { select: { id: true, slug: true, label: true, provider: true } } } } },
  });
  if (!run) return null;
  const suite = suiteOf(run.suiteId);
  // A suite with its own views (anything but FACT-OR-FAIR) scores on its results page, not through runScores.
  const ownScores = !!suite.customRunPages;
  const progress = await runProgress(prisma, runId);
  const windowS = 30;
  const recent = await prisma.outcome.count({ where: { query: { runId }, createdAt: { gte: new Date(Date.now() - windowS * 1000) } } });
  const done = progress.filter((p) => (DONE_QUERY as readonly string[]).includes(p.status)).reduce((a, p) => a + p.count, 0);
  const throughput = recent / windowS;
  const remaining = run.plannedCount - done;
  const answered = progress.filter((p) => p.status === "answered").reduce((a, p) => a + p.count, 0);
  const failed = progress.filter((p) => p.status === "failed").reduce((a, p) => a + p.count, 0);
  const labelling =
    run.modality === "t2i"
      ? {
          ...(await labelProgress(prisma, runId)),
          reviewedFaces: await reviewedFaceCount(prisma, runId),
          autoLabel: run.autoLabel,
          /** what labels its images: the face pipeline, or CLIP on the whole image (a suite's own instrument) */
          instrument: (run.labelInstrument === "clip" ? "clip" : "faces") as LabelInstrument,
          labelWorkers: await liveLabelWorkers(prisma),
          // Aggregated over every face: shared between pollers, and refreshed less often while the run is live.
          provenance: await shared(`provenance|${runId}`, isLive(run.status) ? 15_000 : 2_000, () => labelProvenance(prisma, [runId])),
        }
      : null;
  // One run, one instrument: faces from two classifiers are not scored together (the page says why).
  const scoresRefused = labelling?.provenance.mixed ? mixedClassifiersMessage(labelling.provenance) : null;
  const scorable = labelling ? labelling.labelled + labelling.noFace > 0 || labelling.faces > 0 : answered > 0;
  const labels: LabelSource = labelling ? (opts.labels ?? "model") : "model";
  return {
    id: run.id,
    name: run.name,
    suite: { id: suite.id, name: suite.name, version: run.suiteVersion, customRunPages: ownScores },
    modality: run.modality as "llm" | "t2i",
    status: run.status,
    /** its queries are still being written (also while paused: a paused planning run plans on and calls nothing) */
    planning: run.planning,
    error: run.error,
    seed: run.seed,
    preset: run.preset,
    config: JSON.parse(run.configJson) as unknown,
    budgetUsd: run.budgetUsd,
    spentUsd: run.spentUsd,
    plannedCount: run.plannedCount,
    /** what its signed design planned at launch, when the run kept fewer rows (a cancel while planning, an early stop) */
    plannedAtLaunch: await (async () => {
      const atLaunch = (await plannedAtLaunch(prisma, [run.id])).get(run.id);
      return atLaunch !== undefined && atLaunch > run.plannedCount ? atLaunch : null;
    })(),
    /** queries written so far: while the run is "planning", of plannedCount (its size, known at launch) */
    written: progress.reduce((a, p) => a + p.count, 0),
    done,
    failed,
    /** the status with its failures ("completed with 3 failed"): what every page shows */
    outcome: outcomeLabel(run.status, failed),
    /** failed items grouped by reason, most frequent first */
    failures: failed > 0 ? await failureReasons(prisma, runId, 10) : [],
    /** calls whose provider reported more usage than the request allowed: charged what was allowed, the rest not */
    usageFinding: run.overReportedCalls > 0 ? { calls: run.overReportedCalls, excessUsd: run.usageExcessUsd } : null,
    /** calls that may have been paid whose answers were lost with their worker: charged at their worst case (part of spentUsd) */
    lostCalls: run.models.some((m) => m.lostCalls > 0)
      ? {
          calls: run.models.reduce((a, m) => a + m.lostCalls, 0),
          usd: run.models.reduce((a, m) => a + m.lostCallsUsd, 0),
          models: run.models.filter((m) => m.lostCalls > 0).map((m) => ({ slug: m.modelConfig.slug, calls: m.lostCalls, usd: m.lostCallsUsd })),
        }
      : null,
    /** answers of other runs its launch allowed it to take, and which it took (null: only its own) */
    answerReuse: await answerReuseView(prisma, run.id, run.reuseJson),
    throughput,
    etaSeconds: run.status === "running" && throughput > 0 ? Math.round(remaining / throughput) : null,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    models: run.models.map((m) => m.modelConfig),
    progress,
    labelling,
    /** adaptive runs (lib/results/adaptive.ts): target, looks, verdict and its sentence; null otherwise */
    adaptive: await adaptiveView(prisma, run),
    health: run.status === "running" || run.status === "planning" ? await workerHealth(prisma, runId) : null,
    raceMapping: opts.raceMapping ?? "paper",
    labels,
    profile: opts.profile ?? DEFAULT_PROFILE,
    // Scores once there is something to score; they update as answers (or face labels) arrive. With human-corrected
    // labels, the model-label scores come along so the page can show the difference.
    // While calls land, scores are recomputed at most every LIVE_SCORES_MS for everyone watching (shared.ts).
    scoresRefused,
    scores:
      scorable && ownScores && !scoresRefused
        ? await liveScores(prisma, runId, run.status, { raceMapping: opts.raceMapping, labels, profile: opts.profile })
        : [],
    modelScores:
      scorable && ownScores && !scoresRefused && labels === "reviewed"
        ? await liveScores(prisma, runId, run.status, { raceMapping: opts.raceMapping, labels: "model", profile: opts.profile })
        : null,
  };
}
async function adaptiveView(
  prisma: PrismaClient,
  run: { id: string; modality: string; adaptiveJson: string | null; status: string; budgetUsd: number | null; wavesReleased: number },
) {
  const state = adaptiveStateOf(run.adaptiveJson);
  if (!state) return null;
  // A text-to-image run's next look waits for the labels of the images released so far.
  const waitingForLabels = run.modality === "t2i" && !state.outcome && run.status === "running" ? await labelsPending(prisma, run.id, run.wavesReleased) : 0;
  return { ...state, until: targetText(state), wavesReleased: run.wavesReleased, waitingForLabels, summary: adaptiveSummary(state, run) };
}

export type RunSummary = NonNullable<Awaited<ReturnType<typeof runSummary>>>;

/** How stale a live run's scores may be on its page (they move by a hair per second). */
const LIVE_SCORES_MS = 5_000;
function liveScores(prisma: PrismaClient, runId: string, status: string, opts: Parameters<typeof runScores>[2] & object) {
  const live = status === "running" || status === "queued";
  return live ? shared(`scores|${runId}|${JSON.stringify(opts)}`, LIVE_SCORES_MS, () => runScores(prisma, runId, opts)) : runScores(prisma, runId, opts);
}

/** What a run's launch allowed it to reuse, and the answers it took, by the run that obtained them. */
export async function answerReuseView(prisma: PrismaClient, runId: string, reuseJson: string | null) {
  if (!reuseJson) return null;
  const groups = await prisma.outcome.groupBy({
    by: ["reusedFromRunId"],
    where: { query: { runId }, reusedFromRunId: { not: null } },
    _count: { _all: true },
    _min: { reusedAt: true },
    _max: { reusedAt: true },
  });
  return {
    allowed: reuseText(reuseOf(reuseJson)),
    reused: groups.map((g) => ({
      fromRunId: g.reusedFromRunId ?? "",
      answers: g._count._all,
      obtainedFrom: g._min.reusedAt?.toISOString() ?? null,
      obtainedTo: g._max.reusedAt?.toISOString() ?? null,
    })),
  };
}
