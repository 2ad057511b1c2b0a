// A label worker: labels the faces of runs launched with "label automatically" as their images arrive, on
// onnxruntime-node, from the same queue the Label page and `fof label` use (so any number of them, on any hosts,
// split the work, and a killed one's leased images come back when its leases expire). Its own WorkerStatus row says
// it is alive and what it labels with, so the run page can tell "waiting for a label worker" from "labelling".
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../../generated/prisma/client";
import type { NodeLabeller } from "../../faces/node-labeller";
import type { ClipLabeller } from "../../faces/node-clip";
import { labelQueue, type LabelProgress } from "./queue";
import { isContention } from "../../db/retry";
import { instruments } from "../../core/metrics";

type Engine = Parameters<typeof labelQueue>[1];

export interface LabelWorkerOptions {
  dataDir: string;
  leaseMs: number;
  /** images leased at a time */
  batch?: number;
  /** how long to wait when no image is waiting */
  idleMs?: number;
  heartbeatMs?: number;
  log?: (message: string) => void;
  /** label only this run's images (`fof run --label` on an adaptive run, whose looks wait for its labels) */
  runId?: string;
}

export class LabelWorker {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}:label`;
  readonly done: LabelProgress = { images: 0, faces: 0, refused: 0 };
  private readonly stop$ = new AbortController();
  private lastError: { message: string; at: Date } | null = null;
  private runs = new Set<string>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly engine: Engine,
    /** one per instrument it labels: the face pipeline, CLIP, or both */
    private readonly labellers: ReadonlyArray<NodeLabeller | ClipLabeller>,
    private readonly opts: LabelWorkerOptions,
  ) {
    if (!labellers.length) throw new Error("a label worker needs a labeller");
  }

  stop() {
    this.stop$.abort();
  }

  /** Labels until stopped; an error is logged, recorded in the heartbeat and retried after a growing pause. */
  async run(): Promise<void> {
    const describe = this.labellers
      .map((l) =>
        l.kind === "faces"
          ? `${l.classifierFile.name} (sha256 ${l.classifierFile.sha256.slice(0, 12)}…) on ${l.runtime}`
          : `CLIP ${l.visionFile.name} (sha256 ${l.visionFile.sha256.slice(0, 12)}…) on ${l.runtime}`,
      )
      .join("; ");
    const beat = async () => {
      await this.prisma.workerStatus.upsert({
        where: { owner: this.owner },
        create: { owner: this.owner, host: hostname(), pid: process.pid, labeller: describe, runsJson: "[]" },
        update: {
          heartbeatAt: new Date(),
          runsJson: JSON.stringify([...this.runs].slice(0, 50)),
          lastError: this.lastError?.message ?? null,
          lastErrorAt: this.lastError?.at ?? null,
        },
      });
    };
    const heartbeat = () => beat().catch(() => undefined);
    await heartbeat();
    const timer = setInterval(heartbeat, this.opts.heartbeatMs ?? 2_000);
    timer.unref?.();
    this.opts.log?.(`labelling auto-labelled runs with ${describe}`);
    let streak = 0;
    try {
      while (!this.stop$.signal.aborted) {
        try {
          const before = this.done.images;
          for (const labeller of this.labellers)
            await labelQueue(this.prisma, this.engine, labeller, {
              dataDir: this.opts.dataDir,
              autoLabel: true,
              ...(this.opts.runId ? { runId: this.opts.runId } : {}),
              batch: this.opts.batch ?? 8,
              leaseMs: this.opts.leaseMs,
              signal: this.stop$.signal,
              onBatch: (_total, batch) => {
                this.done.images += batch.images;
                this.done.faces += batch.faces;
                instruments().labelled.inc({ what: "images", instrument: labeller.kind }, batch.images);
                instruments().labelled.inc({ what: "faces", instrument: labeller.kind }, batch.faces);
                this.done.refused += batch.refused;
                for (const r of batch.runIds) this.runs.add(r);
              },
            });
          streak = 0;
          this.lastError = null;
          // Nothing waiting: look again shortly (images arrive as a run generates them).
          if (this.done.images === before) await sleep(this.opts.idleMs ?? 1_000, this.stop$.signal);
        } catch (e) {
          streak++;
          const message =
            `labelling: ${isContention(e) ? "database busy (will retry)" : "error"}: ${e instanceof Error ? e.message.split("\n").filter(Boolean).slice(-1)[0] : String(e)}`.slice(
              0,
              500,
            );
          this.lastError = { message, at: new Date() };
          this.opts.log?.(message);
          // Contention clears in moments (another process's write): retried within 2 s; other errors back off to 60 s.
          await sleep(Math.min(isContention(e) ? 2_000 : 60_000, 500 * 2 ** Math.min(streak, 7)), this.stop$.signal);
        }
      }
    } finally {
      clearInterval(timer);
      await this.prisma.workerStatus
        .updateMany({ where: { owner: this.owner }, data: { stoppedAt: new Date(), heartbeatAt: new Date() } })
        .catch(() => undefined);
      this.opts.log?.(`label worker stopped: ${this.done.images} images, ${this.done.faces} faces`);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * A label worker configured from the environment (FOF_LABEL_DEVICE, FOF_LABEL_THREADS, FOF_LABEL_LEASE_MS,
 * FOF_FACE_CHIPS; the models where the server finds them), for `fof worker --label` and the server's own worker (FOF_WORKER_LABEL).
 * Throws a readable error when a model is missing or is not what it claims (before anything is leased).
 */
export async function labelWorkerFromEnv(
  prisma: PrismaClient,
  log?: (m: string) => void,
  files: { detector?: string; classifier?: string; landmarker?: string } = {},
  scope: Pick<LabelWorkerOptions, "runId" | "idleMs"> = {},
): Promise<LabelWorker> {
  const [
    { env, faceChipMethod },
    { clipModelFiles, labellerModelFiles },
    { createNodeLabeller, modelFile },
    { clipTextsFile, createNodeClip },
    leases,
    readings,
    { projectRoot },
  ] = await Promise.all([
    import("../../env"),
    import("../../faces/model-files"),
    import("../../faces/node-labeller"),
    import("../../faces/node-clip"),
    import("./leases"),
    import("./readings"),
    import("../../paths"),
  ]);
  const e = env();
  const where = { cwd: projectRoot(), dataDir: e.dataDir, fairfacePath: e.FAIRFACE_MODEL_PATH };
  const device = e.FOF_LABEL_DEVICE;
  const threads = e.FOF_LABEL_THREADS;
  // CLIP (a suite's own instrument) when its two files are installed: this worker then also reads CLIP runs.
  const clipFiles = clipModelFiles(where);
  const clip = clipFiles ? await createNodeClip({ vision: modelFile(clipFiles.vision), texts: clipTextsFile(clipFiles.texts), device, threads }) : null;
  let paths: ReturnType<typeof labellerModelFiles> | null = null;
  try {
    paths = labellerModelFiles(where, faceChipMethod(e), files);
  } catch (err) {
    if (!clip) throw err;
    log?.(`faces not labelled by this worker (${(err as Error).message}); CLIP runs are`);
  }
  const faces = paths
    ? await createNodeLabeller({
        detector: modelFile(paths.detector),
        classifier: modelFile(paths.classifier),
        landmarker: paths.landmarker ? modelFile(paths.landmarker) : null,
        device,
        threads,
      })
    : null;
  const engine = { ...leases, saveReadings: readings.saveReadings };
  const labellers = [faces, clip].filter((l): l is NonNullable<typeof l> => !!l);
  return new LabelWorker(prisma, engine, labellers, { dataDir: e.dataDir, leaseMs: e.FOF_LABEL_LEASE_MS, log, ...scope });
}
