import { revalidatePath } from "next/cache";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { importImages } from "@/lib/features/imports/store";
import { jsonWrite } from "@/lib/server/http";
import { takeUpload } from "@/lib/images";
import { DomainError } from "@/lib/core/errors";
import { commitSlotAvailable } from "@/lib/features/imports/check-thread";
import { actorOf, audit } from "@/lib/auth/audit";

/**
 * Checks and stores the whole upload, all or nothing. The upload is consumed by its first commit: a second one (a
 * double click, a replayed request) is refused with 409, so a batch is never imported twice.
 */
export const POST = jsonWrite<{ id: string }>(
  "images.import",
  async (_body, { params, viewer }) => {
    // Refused before the upload is consumed: the same commit can simply be sent again.
    if (!commitSlotAvailable()) throw new DomainError("unavailable", "too many imports are being checked right now: try again in a minute");
    const { meta, files, workDir, cleanup } = takeUpload(env().dataDir, params.id);
    try {
      // Checked on a worker thread, files read from disk one at a time (lib/features/imports/check-thread.ts).
      const r = await importImages(db(), env().dataDir, {
        modelSlug: meta.model,
        suite: meta.suite ?? null,
        runId: meta.runId,
        runName: meta.runName,
        instrument: meta.instrument ?? "faces",
        files,
        workDir,
      });
      await audit(db(), {
        ...actorOf(viewer),
        action: "images.import",
        targetType: "run",
        targetId: r.runId,
        details: { model: meta.model, imported: r.imported },
      });
      revalidatePath("/runs");
      revalidatePath(`/runs/${r.runId}`);
      return r;
    } finally {
      cleanup();
    }
  },
  { maxBytes: 1024 },
);
