// Storing an import: a checked plan (lib/images) becomes a T2I run of an import-only model. All or nothing: a plan
// with any problem stores nothing; the images' rows are written in one transaction. Uploads wait in a temp folder
// until the commit; files are moved to the content-addressed store just before the rows are written (so there is
// never a row without a file), and sweepStorage removes any file a crash between the two left unreferenced.
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import type { PrismaClient } from "../../../generated/prisma/client";
import { ensureBenchmarkVersion } from "../../db/benchmark-version";
import { insertMany } from "../../db/bulk";
import {
  benchmarkStatistics,
  planImport,
  storeImage,
  storeImageFile,
  sweepUploads,
  type ImportPlan,
  type ImportProblem,
  type UploadedFile,
} from "../../images";
import { canCheckOffThread, planImportOffThread } from "./check-thread";
import { t2iRunConfigSchema } from "../../suites/fact-or-fair/config";
import { DEFAULT_SUITE_ID, suiteOf } from "../../suites";
import { DomainError } from "../../core/errors";
import { withContentionRetry } from "../../db/retry";
import { commitDesignIn } from "../ledger/design";
import { appendImportBatch } from "../ledger/imports";
import { currentRules } from "../../results/scoring-rules";

export interface ImportRequest {
  modelSlug: string;
  /** append to this run (an earlier import of the same model), or create a new run */
  runId?: string | null;
  runName?: string | null;
  /** what labels a new run's images (faces when absent); an existing run keeps its own */
  instrument?: "faces" | "clip";
  /** the suite the images belong to (FACT-OR-FAIR when absent) */
  suite?: string | null;
  files: UploadedFile[];
  /**
   * A scratch folder inside the data directory (an upload's): with it, files on disk are checked on a worker thread
   * and archive entries spilled there, so the commit neither blocks the server nor holds the batch in memory.
   */
  workDir?: string;
}

export interface ImportResult {
  runId: string;
  imported: number;
  skipped: ImportProblem[];
  mappedBy: ImportPlan["mappedBy"];
}

export async function importImages(prisma: PrismaClient, dataDir: string, req: ImportRequest): Promise<ImportResult> {
  const model = await prisma.modelConfig.findUnique({ where: { slug: req.modelSlug } });
  if (!model || model.archived) throw new DomainError("unprocessable", `unknown model "${req.modelSlug}": register it on the Models page first`);
  if (model.modality !== "t2i") throw new DomainError("unprocessable", `"${req.modelSlug}" is not a text-to-image model`);
  const suite = suiteOf(req.suite ?? DEFAULT_SUITE_ID);
  if (suite.id !== DEFAULT_SUITE_ID && !suite.importer) throw new DomainError("unprocessable", `${suite.name} runs cannot be imported`);
  if (req.instrument === "clip" && !suite.clipGroups)
    throw new DomainError("unprocessable", `${suite.name} images are labelled by faces: it has no CLIP instrument`);
  let existing: { id: string; sha256: string }[] = [];
  if (req.runId) {
    const run = await prisma.run.findUnique({ where: { id: req.runId }, include: { models: true } });
    if (!run || run.preset !== "import" || !run.models.some((m) => m.modelConfigId === model.id) || (run.suiteId ?? DEFAULT_SUITE_ID) !== suite.id)
      throw new DomainError("unprocessable", "images can only be added to an earlier import of the same model and suite");
    existing = await prisma.image.findMany({ where: { runId: run.id }, select: { id: true, sha256: true } });
  }

  // A suite's own naming rule reads today's content; the run pins that content below.
  const content = suite.id === DEFAULT_SUITE_ID ? null : suite.content();
  const offThread = req.workDir !== undefined && req.files.every((f) => "path" in f) && canCheckOffThread();
  const plan = offThread
    ? await planImportOffThread(req.files, suite.id, req.workDir!)
    : await planImport(
        req.files,
        content ? { naming: suite.importer!.naming, target: (name: string) => suite.importer!.target(name, content) } : benchmarkStatistics(),
        { spillDir: req.workDir },
      );
  const known = new Set(existing.map((e) => e.sha256));
  for (const item of plan.items) if (known.has(item.sha256)) plan.problems.push({ name: item.name, message: "already in this run" });
  if (plan.problems.length)
    throw new DomainError(
      "unprocessable",
      `${plan.problems.length} file${plan.problems.length === 1 ? "" : "s"} cannot be imported; nothing was stored`,
      plan.problems,
    );

  // Files of this import's own scratch (the upload's folder holding workDir) are moved; anything else is copied.
  const scratch = req.workDir ? path.resolve(path.dirname(req.workDir)) + path.sep : null;
  const stored = plan.items.map((item) => ({
    item,
    ...("bytes" in item.source
      ? storeImage(dataDir, item.source.bytes, item.image)
      : storeImageFile(dataDir, item.source.path, item.sha256, item.image, { move: !!scratch && path.resolve(item.source.path).startsWith(scratch) })),
  }));
  const tests = [...new Set(plan.items.map((i) => i.target.test))];
  const perPrompt = new Map<string, number>();
  for (const i of plan.items) {
    const k = `${i.target.test}|${i.target.statisticId}|${i.target.level}`;
    perPrompt.set(k, (perPrompt.get(k) ?? 0) + 1);
  }
  const version = content ? await ensureBenchmarkVersion(prisma, content, suite.id) : await ensureBenchmarkVersion(prisma);
  const now = new Date();

  // One transaction: the run (a new import's design signed and logged with it), the image rows, and the batch's
  // signed entry in the log — retried whole when another launch took the log's next index at the same moment.
  const runId = await withContentionRetry(
    () =>
      prisma.$transaction(async (tx) => {
        let id = req.runId ?? null;
        if (!id) {
          const config = content
            ? suite.importer!.config(
                plan.items.map((i) => i.target),
                content,
                { instrument: req.instrument },
              )
            : t2iRunConfigSchema.parse({ modality: "t2i", tests, imagesPerPrompt: Math.max(...perPrompt.values()) });
          const run = await tx.run.create({
            data: {
              name: req.runName?.trim() || `${model.label} · import · ${now.toISOString().slice(0, 10)}`,
              modality: "t2i",
              status: "completed",
              preset: "import",
              seed: 0,
              configJson: JSON.stringify(config),
              plannedCount: 0,
              benchmarkVersionId: version.id,
              suiteId: suite.id,
              suiteVersion: version.version,
              rulesJson: JSON.stringify(currentRules(suite.id)),
              // The suite says what its config reads with (the importer recorded the instrument in it).
              labelInstrument: content ? (suite.labelInstrument?.(config) ?? "faces") : "faces",
              startedAt: now,
              finishedAt: now,
              models: { create: [{ modelConfigId: model.id }] },
            },
          });
          id = run.id;
          await commitDesignIn(tx, id);
        }
        await insertMany(
          tx,
          "Image",
          stored.map(({ item, sha256, path }) => ({
            id: `img${randomUUID().replaceAll("-", "")}`,
            runId: id,
            queryId: null,
            modelConfigId: model.id,
            test: item.target.test,
            statisticId: item.target.statisticId,
            level: item.target.level,
            sha256,
            path,
            mimeType: item.image.mime,
            width: item.image.width,
            height: item.image.height,
            bytes: item.image.bytes,
            source: "imported",
            originalName: item.name,
            labelStatus: "unlabelled",
            createdAt: now,
          })),
        );
        // The batch as committed, signed: the import's plan (lib/evidence/imports.ts). A run imported before batches were
        // logged gets its first one now, for the images added.
        await appendImportBatch(tx, {
          runId: id,
          model: model.slug,
          images: stored.map(({ item, sha256 }) => ({ sha256, test: item.target.test, statisticId: item.target.statisticId, level: item.target.level })),
          at: now,
        });
        return id;
      }),
    { retryUnique: true },
  );
  return { runId, imported: plan.items.length, skipped: plan.skipped, mappedBy: plan.mappedBy };
}

/**
 * Removes what an interrupted import or generation left behind: upload sessions older than a day (or a crashed
 * commit's), temp files of the content store, and stored images no row or cache entry refers to. Only files older
 * than `minAgeMs` are touched, so work in progress in another process is never swept.
 */
export async function sweepStorage(prisma: PrismaClient, dataDir: string, minAgeMs = 3600_000): Promise<{ uploads: number; files: number }> {
  const uploads = sweepUploads(dataDir);
  const store = path.join(dataDir, "images");
  let files = 0;
  if (!existsSync(store)) return { uploads, files };
  const now = Date.now();
  for (const sub of readdirSync(store)) {
    if (!/^[0-9a-f]{2}$/.test(sub)) continue;
    const dir = path.join(store, sub);
    const old = readdirSync(dir).filter((f) => {
      try {
        return now - statSync(path.join(dir, f)).mtimeMs > minAgeMs;
      } catch {
        return false;
      }
    });
    const parts = old.filter((f) => f.endsWith(".part"));
    const images = old.filter((f) => /^[0-9a-f]{64}\.(png|jpg|webp)$/.test(f));
    for (const f of parts) {
      rmSync(path.join(dir, f), { force: true });
      files++;
    }
    for (let i = 0; i < images.length; i += 500) {
      const batch = images.slice(i, i + 500);
      const shas = batch.map((f) => f.slice(0, 64));
      const [rows, cached] = await Promise.all([
        prisma.image.findMany({ where: { sha256: { in: shas } }, select: { sha256: true } }),
        prisma.responseCache.findMany({ where: { imageSha256: { in: shas } }, select: { imageSha256: true } }),
      ]);
      const keep = new Set([...rows.map((r) => r.sha256), ...cached.map((c) => c.imageSha256)]);
      for (const f of batch)
        if (!keep.has(f.slice(0, 64))) {
          rmSync(path.join(dir, f), { force: true });
          files++;
        }
    }
  }
  return { uploads, files };
}
