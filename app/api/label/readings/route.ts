import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { saveReadings } from "@/lib/features/labelling/readings";
import { checkDeclaredModels } from "@/lib/faces/model-files";
import { DomainError, jsonWrite } from "@/lib/server/http";
import { actorOf, audit } from "@/lib/auth/audit";

type Ref = { model?: unknown; sha256?: unknown } | undefined;
const sum = (r: Ref) => (typeof r?.sha256 === "string" ? r.sha256 : undefined);

/**
 * Stores a batch's CLIP readings (runs launched with CLIP); accepted only with the batch's lease token. A page reads
 * with the server's tower and text file only: where the server serves them, the declared checksums must be theirs.
 */
export const POST = jsonWrite(
  "faces.label",
  async (body, { viewer }) => {
    const b = body as { model?: Ref; texts?: Ref } | null;
    const e = env();
    const mismatch = await checkDeclaredModels(
      [
        { kind: "clipVision", sha256: sum(b?.model), served: true },
        { kind: "clipTexts", sha256: sum(b?.texts), served: true },
      ],
      { cwd: process.cwd(), dataDir: e.dataDir },
    );
    if (mismatch) throw new DomainError("conflict", mismatch);
    const r = await saveReadings(db(), body, viewer!.id);
    if (r.saved)
      await audit(db(), {
        ...actorOf(viewer),
        action: "images.read",
        details: { images: r.saved, instrument: "clip", model: b?.model?.model, sha256: sum(b?.model) },
      });
    return r;
  },
  // 64 images × 11 groups of a few probabilities: far below this
  { maxBytes: 512 * 1024 },
);
