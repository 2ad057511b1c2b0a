// A suite run's result views, computed once per state of its data. An image suite's views read every labelled image
// of the run (a paper-size FAIntbench run has 2 million), so a page view must not recompute them when nothing
// changed. The key hashes what the views depend on — the options, the run's labelled images, its faces (new,
// deleted), its annotations, its whole-image readings, its finished queries (a chat suite's answers) and, for
// "verified only", the content reviews — read by a few aggregate statements;
// any new label or image is a new key, so a stale entry is never served. Concurrent requests for one key share one
// computation.
import { DONE_QUERY } from "../core/run-status";
import { CURRENT_QUANTILE, DEFAULT_INTERVAL_TARGET } from "../metrics/design";
import { createHash } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import type { AnySuite, ResultsRequest } from "./types";
import type { SuiteView } from "./views";
import { assertOneClassifier } from "../faces/run-provenance";
import { excludedAnnotators } from "../review/exclusions";
import { keepInCache } from "../db/score-cache";

const KIND = "suite-views";
const inFlight = new Map<string, Promise<SuiteView[]>>();

export async function cachedSuiteResults(prisma: PrismaClient, suite: AnySuite, req: ResultsRequest): Promise<SuiteView[]> {
  // One run, one instrument: faces from two classifiers are never scored together (409 with what labelled what).
  await assertOneClassifier(prisma, [req.runId]);
  const key = await suiteStateKey(prisma, suite, req);
  const hit = await prisma.scoreCache.findUnique({ where: { key } });
  if (hit) return JSON.parse(hit.json) as SuiteView[];
  let job = inFlight.get(key);
  if (!job) {
    job = (async () => {
      const views = await suite.results!({ prisma }, req);
      // Entries of other states of this run are stale: keep the table from growing without bound.
      await keepInCache(prisma, { key, runId: req.runId, kind: KIND, json: JSON.stringify(views) }, new Date(Date.now() - 3600 * 1000));
      return views;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, job);
  }
  return job;
}

export async function suiteStateKey(prisma: PrismaClient, suite: AnySuite, req: ResultsRequest): Promise<string> {
  const run = await prisma.run.findUniqueOrThrow({ where: { id: req.runId }, select: { suiteVersion: true, seed: true } });
  const where = { image: { runId: req.runId } };
  const [images, faces, deleted, classified, annotations, readings, reviews, answers] = await Promise.all([
    prisma.image.aggregate({ where: { runId: req.runId, labelStatus: { in: ["labelled", "no_face"] } }, _count: { _all: true } }),
    prisma.face.aggregate({ where, _count: { _all: true }, _max: { id: true } }),
    prisma.face.count({ where: { ...where, deleted: true } }),
    // a hand-drawn face gets its classifier output later (same id): count the faces that have one
    prisma.face.count({ where: { ...where, raceProbsJson: { not: null } } }),
    prisma.annotation.aggregate({ where: { face: where }, _count: { _all: true }, _max: { id: true } }),
    // whole-image readings (CLIP runs): a reading replaced keeps the count, not the newest time
    prisma.imageReading.aggregate({ where, _count: { _all: true }, _max: { createdAt: true } }),
    req.verifiedOnly ? prisma.contentReview.aggregate({ where: { suiteId: suite.id }, _count: { _all: true }, _max: { id: true } }) : null,
    // a chat suite's views read its answers: every finished query (one outcome each, never rewritten) counts, from the
    // (runId, status) index
    prisma.query.count({ where: { runId: req.runId, status: { in: [...DONE_QUERY] } } }),
  ]);
  // who is out of the consensus changes the human labels without a new annotation row
  const excluded = req.labels === "reviewed" ? [...(await excludedAnnotators(prisma))].sort() : [];
  const state = {
    // the views' meaning changed: 2–3 instruments, paper rows beside CLIP runs only; 4 a cosine score's interval about
    // its bias-corrected estimate, exact-target intervals for prompt-averaged scores; 5 averages' standard interval with
    // the jackknife's floor (lib/metrics/mean-bootstrap.ts); 6 a suite's release profile reads its η pairs in the order of
    // its authors' released input (the suite's eta-release.ts) — earlier entries are not served; 7 answers count; 8
    // content sets chart each attribute; 9 Student's t on the design's degrees of freedom (quantile: an older bundle's
    // re-scoring asks for the normal one)
    v: 9,
    run: req.runId,
    suite: suite.id,
    version: run.suiteVersion,
    seed: run.seed,
    labels: req.labels,
    verifiedOnly: req.verifiedOnly,
    resamples: req.resamples,
    profile: req.profile ?? "release",
    target: req.target ?? DEFAULT_INTERVAL_TARGET,
    quantile: req.quantile ?? CURRENT_QUANTILE,
    images: images._count._all,
    faces: [faces._count._all, faces._max.id, deleted, classified],
    annotations: [annotations._count._all, annotations._max.id],
    readings: [readings._count._all, readings._max.createdAt?.toISOString() ?? null],
    reviews: reviews ? [reviews._count._all, reviews._max.id] : null,
    excluded,
    answers,
  };
  return createHash("sha256").update(JSON.stringify(state)).digest("hex");
}
