import { db } from "@/lib/db";
import { saveReadings } from "@/lib/features/labelling/readings";
import { jsonWrite } from "@/lib/server/http";
import { audit } from "@/lib/auth/audit";

/** Stores a batch's CLIP readings (runs launched with CLIP); accepted only with the batch's lease token. */
export const POST = jsonWrite(
  "faces.label",
  async (body, { viewer }) => {
    const r = await saveReadings(db(), body, viewer!.id);
    const model = (body as { model?: { model?: unknown; sha256?: unknown } })?.model;
    if (r.saved)
      await audit(db(), {
        userId: viewer!.id,
        action: "images.read",
        details: { images: r.saved, instrument: "clip", model: model?.model, sha256: model?.sha256 },
      });
    return r;
  },
  // 64 images × 11 groups of a few probabilities: far below this
  { maxBytes: 512 * 1024 },
);
