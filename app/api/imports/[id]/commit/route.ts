import { revalidatePath } from "next/cache";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { importImages } from "@/lib/engine";
import { jsonWrite } from "@/lib/engine/http";
import { takeUpload } from "@/lib/images";
import { audit } from "@/lib/auth/audit";

/**
 * Checks and stores the whole upload, all or nothing. The upload is consumed by its first commit: a second one (a
 * double click, a replayed request) is refused with 409, so a batch is never imported twice.
 */
export const POST = jsonWrite<{ id: string }>(
  "images.import",
  async (_body, { params, viewer }) => {
    const { meta, files, cleanup } = takeUpload(env().dataDir, params.id);
    try {
      const r = await importImages(db(), env().dataDir, { modelSlug: meta.model, suite: meta.suite ?? null, runId: meta.runId, runName: meta.runName, files });
      await audit(db(), { userId: viewer?.id ?? null, action: "images.import", targetType: "run", targetId: r.runId, details: { model: meta.model, imported: r.imported } });
      revalidatePath("/runs");
      revalidatePath(`/runs/${r.runId}`);
      return r;
    } finally {
      cleanup();
    }
  },
  { maxBytes: 1024 },
);
