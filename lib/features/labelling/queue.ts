// Labelling from a server or a CLI: the queue loop that leases images from the same queue browser tabs work
// (./leases.ts), labels them with a NodeLabeller (lib/faces/node-labeller.ts: faces) and writes through saveLabels,
// or reads them with a ClipLabeller (lib/faces/node-clip.ts: runs launched with CLIP) and writes through
// saveReadings (./readings.ts). Each labeller leases only its own instrument's images.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { PrismaClient } from "../../../generated/prisma/client";
import { DEFAULT_DETECTION_THRESHOLD } from "../../faces/detector";
import { decodeStoredImage, labelPixels, labellerProvenance, type NodeLabeller } from "../../faces/node-labeller";
import { clipProvenance, readImages, type ClipLabeller } from "../../faces/node-clip";
import { findSuite } from "../../suites";
import { instrumentScope } from "./leases";
import { withContentionRetry } from "../../db/retry";
import { traced } from "../../core/tracing";

/** How long a labeller keeps trying through another writer's lock before it gives the batch back and says so. */
const CONTENTION_PATIENCE_MS = 120_000;

/** The queue's calls (./leases.ts, ./readings.ts), passed in so a test can watch or fail them. */
type Engine = Pick<typeof import("./leases"), "leaseImages" | "saveLabels" | "releaseLeases"> & Partial<Pick<typeof import("./readings"), "saveReadings">>;

export interface LabelProgress {
  images: number;
  faces: number;
  /** images another worker took back after our lease expired (refused by saveLabels) */
  refused: number;
}

/**
 * Labels images of a run (or of every run, without `runId`) until none is left to lease, a batch at a time. A batch
 * that fails is given back at once (not left to expire), and the error is thrown.
 */
export async function labelQueue(
  prisma: PrismaClient,
  engine: Engine,
  l: NodeLabeller | ClipLabeller,
  opts: {
    dataDir: string;
    runId?: string;
    /** only runs launched with "label automatically" (label workers) */
    autoLabel?: boolean;
    batch?: number;
    threshold?: number;
    /** how long an image stays ours before another labeller may take it (a killed labeller's images come back) */
    leaseMs?: number;
    /** images others hold: wait for them (they may die and their leases expire) rather than exit with them unlabelled */
    waitForOthers?: boolean;
    signal?: AbortSignal;
    onBatch?: (p: LabelProgress, batch: LabelProgress & { runIds: string[] }) => void;
  },
): Promise<LabelProgress> {
  const progress: LabelProgress = { images: 0, faces: 0, refused: 0 };
  const threshold = opts.threshold ?? DEFAULT_DETECTION_THRESHOLD;
  const scope = { AND: [{ ...(opts.runId ? { runId: opts.runId } : {}), ...(opts.autoLabel ? { run: { autoLabel: true } } : {}) }, instrumentScope(l.kind)] };
  // Another process writing the same database (the server's worker beside `fof run --label`, on one SQLite file)
  // holds its lock now and then: every lease, read and save is retried through that, as the engine's writes are —
  // each is one statement or one transaction, which failed whole.
  const patient = <T>(fn: () => Promise<T>) => withContentionRetry(fn, { maxMs: CONTENTION_PATIENCE_MS });
  while (!opts.signal?.aborted) {
    const lease = await patient(() =>
      engine.leaseImages(
        prisma,
        { runId: opts.runId ?? null, autoLabel: opts.autoLabel ?? false, instrument: l.kind, max: Math.max(1, Math.min(64, opts.batch ?? 8)) },
        opts.leaseMs,
      ),
    );
    if (!lease.images.length) {
      // An empty lease may only mean another labeller took the same free images first: try again while any is free.
      if (await patient(() => prisma.image.count({ where: { ...scope, labelStatus: "unlabelled" } }))) continue;
      // Nothing free. Images another labeller holds are labelled by it — or come back when its lease expires.
      if (!opts.waitForOthers || !(await patient(() => prisma.image.count({ where: { ...scope, labelStatus: "leased" } })))) break;
      await new Promise((r) => setTimeout(r, Math.min(1_000, Math.max(100, (opts.leaseMs ?? 60_000) / 4))));
      continue;
    }
    const runIds = [...new Set(lease.images.map((i) => i.runId).filter((x): x is string => !!x))];
    try {
      await traced(
        "label.batch",
        { "fof.labeller": l.kind, "fof.images": lease.images.length, "fof.run_ids": runIds, ...(runIds.length === 1 ? { "fof.run_id": runIds[0] } : {}) },
        async (span) => {
          const rows = await patient(() =>
            prisma.image.findMany({ where: { id: { in: lease.images.map((i) => i.id) } }, select: { id: true, path: true, mimeType: true } }),
          );
          const pixels = (row: (typeof rows)[number]) => decodeStoredImage(readFileSync(path.join(opts.dataDir, row.path)), row.mimeType);
          let saved: { saved: number; faces: number; refused: string[] };
          if (l.kind === "faces") {
            const results: Array<{ imageId: string; faces: Awaited<ReturnType<typeof labelPixels>> }> = [];
            for (const row of rows) results.push({ imageId: row.id, faces: await labelPixels(l, await pixels(row), threshold) });
            saved = await patient(() => engine.saveLabels(prisma, { lease: lease.lease, ...labellerProvenance(l, threshold), results }));
          } else {
            if (!engine.saveReadings) throw new Error("this engine cannot store CLIP readings");
            // One batch through the vision tower per suite (each suite names the text groups it reads).
            const results: Array<{ imageId: string; groups: Record<string, number[]> }> = [];
            const suiteOf = new Map(lease.images.map((i) => [i.id, i.suiteId]));
            for (const suiteId of new Set(suiteOf.values())) {
              const groups = findSuite(suiteId)?.clipGroups;
              if (!groups) throw new Error(`${suiteId} has no CLIP instrument`);
              const mine = rows.filter((r) => suiteOf.get(r.id) === suiteId);
              const read = await readImages(l, await Promise.all(mine.map(pixels)), groups);
              results.push(...mine.map((r, i) => ({ imageId: r.id, groups: read[i] })));
            }
            const save = engine.saveReadings;
            saved = { ...(await patient(() => save(prisma, { lease: lease.lease, ...clipProvenance(l), results }))), faces: 0 };
          }
          progress.images += saved.saved;
          progress.faces += saved.faces;
          progress.refused += saved.refused.length;
          span?.setAttributes({ "fof.saved": saved.saved, "fof.faces": saved.faces, "fof.refused": saved.refused.length });
          opts.onBatch?.({ ...progress }, { images: saved.saved, faces: saved.faces, refused: saved.refused.length, runIds });
        },
      );
    } catch (e) {
      await engine.releaseLeases(prisma, { leases: [lease.lease] }).catch(() => undefined);
      throw e;
    }
  }
  return progress;
}
